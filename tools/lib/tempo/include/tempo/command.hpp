// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * Commands: one descriptor type per packet of the ISA, and CommandSink, the
 * append API shared by command lists and queues.
 */
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <variant>
#include <vector>

#include <tempo/event.hpp>
#include <tempo/packet.hpp>
#include <tempo/types.hpp>

namespace tempo {

/**
 * CommandId - a command of a command list, by recording order (0, 1, ...)
 *
 * Returned by every append; CommandList::update() takes it. A clone has the
 * ids of its source. A queue returns the sequence number of the command on
 * that queue.
 */
using CommandId = StrongId<struct CommandIdTag, std::uint32_t>;

/// The command descriptors, one per packet of the ISA (plus a barrier).
namespace cmd {

/// WRITE_DATA: @data written at @dst (4-aligned); longer than a packet, it takes several.
struct Write {
    GpuAddress dst{};
    std::vector<std::uint32_t> data;

    friend bool operator==(const Write&, const Write&) = default;
};

/// WRITE_TIMESTAMP: the 64-bit GPU timestamp at @dst (8-aligned).
struct Timestamp {
    GpuAddress dst{};

    friend bool operator==(const Timestamp&, const Timestamp&) = default;
};

/// COPY: @size bytes from @src to @dst.
struct Copy {
    GpuAddress dst{};
    GpuAddress src{};
    std::uint32_t size{0};

    friend bool operator==(const Copy&, const Copy&) = default;
};

/// FILL: @size bytes (4-aligned) at @dst (4-aligned) with @value.
struct Fill {
    GpuAddress dst{};
    std::uint32_t value{0};
    std::uint32_t size{0};

    friend bool operator==(const Fill&, const Fill&) = default;
};

/// ATOMIC: add @value to, or increment, the 64-bit value at @dst (8-aligned).
struct Atomic {
    GpuAddress dst{};
    AtomicOp op{AtomicOp::Add};
    std::uint64_t value{0};

    friend bool operator==(const Atomic&, const Atomic&) = default;
};

/// WAIT_MEM: waits until (*@address & @mask) @compare @reference.
struct WaitMem {
    GpuAddress address{};
    Compare compare{Compare::Eq};
    std::uint64_t reference{0};
    std::uint64_t mask{~std::uint64_t{0}};

    friend bool operator==(const WaitMem&, const WaitMem&) = default;
};

/// DISPATCH of a built-in kernel over @groups with its argument dwords.
struct Dispatch {
    Kernel kernel{Kernel::Fill};
    Groups groups{};
    std::vector<std::uint32_t> args;

    friend bool operator==(const Dispatch&, const Dispatch&) = default;
};

/**
 * Barrier: orders nothing more than the list already does (packets run in
 * order and a DISPATCH completes before the next packet), so it exists for
 * its events: a barrier that waits on events, or that signals one. Encoded
 * as a one-dword NOP.
 */
struct Barrier {
    friend bool operator==(const Barrier&, const Barrier&) = default;
};

} // namespace cmd

/// One recorded command.
using Command = std::variant<cmd::Write, cmd::Timestamp, cmd::Copy, cmd::Fill, cmd::Atomic,
                             cmd::WaitMem, cmd::Dispatch, cmd::Barrier>;

/// "write", "timestamp", "copy", "fill", "atomic", "wait-mem", "dispatch" or "barrier".
[[nodiscard]] std::string_view command_name(const Command& command) noexcept;

/**
 * Sync - the events of one command
 *
 * The command starts after every event of @wait has signalled; @signal
 * (unless empty) signals once the command is complete. For designated
 * initializers: ``list.append_fill(dst, 0, 4096, {.wait = deps, .signal = done})``.
 */
struct Sync {
    std::span<const Event> wait{};
    Event signal{};
};

/**
 * CommandSink - the append API of command lists and queues
 *
 * One member function per packet of the ISA, each taking the command's
 * events last. CommandList records; Queue (the immediate command list)
 * submits at once; BatchedQueue records into its current batch. append()
 * takes any command descriptor, which is how visit() re-appends.
 *
 * Throws UsageError for a malformed command (WRITE_DATA without data,
 * DISPATCH arguments longer than a packet, an empty Event in a wait list,
 * more waits than an exec takes) and whatever the sink adds (a closed
 * list).
 */
class CommandSink {
public:
    virtual ~CommandSink() = default;

    /// Appends @command with its events.
    CommandId append(Command command, const Sync& sync = {})
    {
        return record(std::move(command), sync);
    }

    CommandId append_write(GpuAddress dst, std::span<const std::uint32_t> data,
                           const Sync& sync = {});
    CommandId append_write(GpuAddress dst, std::uint32_t value, const Sync& sync = {})
    {
        return append_write(dst, std::span<const std::uint32_t>{&value, 1}, sync);
    }
    CommandId append_timestamp(GpuAddress dst, const Sync& sync = {});
    CommandId append_copy(GpuAddress dst, GpuAddress src, std::uint32_t size,
                          const Sync& sync = {});
    CommandId append_fill(GpuAddress dst, std::uint32_t value, std::uint32_t size,
                          const Sync& sync = {});
    CommandId append_atomic_add(GpuAddress dst, std::uint64_t value, const Sync& sync = {});
    CommandId append_atomic_inc(GpuAddress dst, const Sync& sync = {});
    CommandId append_wait_mem(GpuAddress address, Compare compare, std::uint64_t reference,
                              std::uint64_t mask = ~std::uint64_t{0}, const Sync& sync = {});
    /// DISPATCH of @kernel over @groups with raw argument dwords.
    CommandId append_dispatch(Kernel kernel, Groups groups, std::span<const std::uint32_t> args,
                              const Sync& sync = {});
    CommandId append_dispatch_fill(Groups groups, GpuAddress dst, std::uint32_t value,
                                   std::uint32_t bytes_per_group, const Sync& sync = {});
    CommandId append_dispatch_copy(Groups groups, GpuAddress dst, GpuAddress src,
                                   std::uint32_t bytes_per_group, const Sync& sync = {});
    CommandId append_dispatch_atomic_inc(Groups groups, GpuAddress counter, std::uint32_t count,
                                         const Sync& sync = {});
    CommandId append_dispatch_checksum(Groups groups, GpuAddress src, GpuAddress dst,
                                       std::uint32_t bytes_per_group, const Sync& sync = {});
    CommandId append_dispatch_spin(Groups groups, std::uint32_t nanoseconds, const Sync& sync = {});
    /// A barrier (see cmd::Barrier) with @sync.
    CommandId append_barrier(const Sync& sync = {});
    /// A barrier that signals @event once everything before it is complete.
    CommandId append_signal_event(Event event) { return append_barrier({.signal = event}); }
    /// A barrier that waits on @events before anything after it starts.
    CommandId append_wait_events(std::span<const Event> events)
    {
        return append_barrier({.wait = events});
    }

protected:
    CommandSink() = default;
    CommandSink(const CommandSink&) = default;
    CommandSink(CommandSink&&) noexcept = default;
    CommandSink& operator=(const CommandSink&) = default;
    CommandSink& operator=(CommandSink&&) noexcept = default;

    /// Records or submits one command; what append() does.
    virtual CommandId record(Command&& command, const Sync& sync) = 0;
};

} // namespace tempo
