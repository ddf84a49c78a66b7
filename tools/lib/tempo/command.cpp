// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 */
#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>
#include <variant>

#include <tempo/command.hpp>
#include <tempo/error.hpp>

#include "recording.hpp"

namespace tempo {

namespace {

template <typename... Fns>
struct Overloaded : Fns... {
    using Fns::operator()...;
};
// Clang before 17 does not deduce the arguments of aggregates by itself.
template <typename... Fns>
Overloaded(Fns...) -> Overloaded<Fns...>;

// WRITE_DATA: header and address before the data.
constexpr std::size_t write_data_overhead = 3;

} // namespace

std::string_view command_name(const Command& command) noexcept
{
    return std::visit(Overloaded{
                          [](const cmd::Write&) { return std::string_view{"write"}; },
                          [](const cmd::Timestamp&) { return std::string_view{"timestamp"}; },
                          [](const cmd::Copy&) { return std::string_view{"copy"}; },
                          [](const cmd::Fill&) { return std::string_view{"fill"}; },
                          [](const cmd::Atomic&) { return std::string_view{"atomic"}; },
                          [](const cmd::WaitMem&) { return std::string_view{"wait-mem"}; },
                          [](const cmd::Dispatch&) { return std::string_view{"dispatch"}; },
                          [](const cmd::Barrier&) { return std::string_view{"barrier"}; },
                      },
                      command);
}

// ---------------------------------------------------------------------------
// CommandSink

CommandId CommandSink::append_write(GpuAddress dst, std::span<const std::uint32_t> data,
                                    const Sync& sync)
{
    return record(cmd::Write{dst, {data.begin(), data.end()}}, sync);
}

CommandId CommandSink::append_timestamp(GpuAddress dst, const Sync& sync)
{
    return record(cmd::Timestamp{dst}, sync);
}

CommandId CommandSink::append_copy(GpuAddress dst, GpuAddress src, std::uint32_t size,
                                   const Sync& sync)
{
    return record(cmd::Copy{dst, src, size}, sync);
}

CommandId CommandSink::append_fill(GpuAddress dst, std::uint32_t value, std::uint32_t size,
                                   const Sync& sync)
{
    return record(cmd::Fill{dst, value, size}, sync);
}

CommandId CommandSink::append_atomic_add(GpuAddress dst, std::uint64_t value, const Sync& sync)
{
    return record(cmd::Atomic{dst, AtomicOp::Add, value}, sync);
}

CommandId CommandSink::append_atomic_inc(GpuAddress dst, const Sync& sync)
{
    return record(cmd::Atomic{dst, AtomicOp::Inc, 0}, sync);
}

CommandId CommandSink::append_wait_mem(GpuAddress address, Compare compare, std::uint64_t reference,
                                       std::uint64_t mask, const Sync& sync)
{
    return record(cmd::WaitMem{address, compare, reference, mask}, sync);
}

CommandId CommandSink::append_dispatch(Kernel kernel, Groups groups,
                                       std::span<const std::uint32_t> args, const Sync& sync)
{
    return record(cmd::Dispatch{kernel, groups, {args.begin(), args.end()}}, sync);
}

CommandId CommandSink::append_dispatch_fill(Groups groups, GpuAddress dst, std::uint32_t value,
                                            std::uint32_t bytes_per_group, const Sync& sync)
{
    const std::uint32_t args[] = {dst.low(), dst.high(), value, bytes_per_group};
    return append_dispatch(Kernel::Fill, groups, args, sync);
}

CommandId CommandSink::append_dispatch_copy(Groups groups, GpuAddress dst, GpuAddress src,
                                            std::uint32_t bytes_per_group, const Sync& sync)
{
    const std::uint32_t args[] = {dst.low(), dst.high(), src.low(), src.high(), bytes_per_group};
    return append_dispatch(Kernel::Copy, groups, args, sync);
}

CommandId CommandSink::append_dispatch_atomic_inc(Groups groups, GpuAddress counter,
                                                  std::uint32_t count, const Sync& sync)
{
    const std::uint32_t args[] = {counter.low(), counter.high(), count};
    return append_dispatch(Kernel::AtomicInc, groups, args, sync);
}

CommandId CommandSink::append_dispatch_checksum(Groups groups, GpuAddress src, GpuAddress dst,
                                                std::uint32_t bytes_per_group, const Sync& sync)
{
    const std::uint32_t args[] = {src.low(), src.high(), dst.low(), dst.high(), bytes_per_group};
    return append_dispatch(Kernel::Checksum, groups, args, sync);
}

CommandId CommandSink::append_dispatch_spin(Groups groups, std::uint32_t nanoseconds,
                                            const Sync& sync)
{
    const std::uint32_t args[] = {nanoseconds};
    return append_dispatch(Kernel::Spin, groups, args, sync);
}

CommandId CommandSink::append_barrier(const Sync& sync)
{
    return record(cmd::Barrier{}, sync);
}

// ---------------------------------------------------------------------------
// Validation and encoding

namespace detail {

void validate(const Command& command, const Sync& sync, const SubmitLimits& limits,
              const char* function)
{
    const auto fail = [&](const std::string& rule) {
        throw UsageError(std::string{function} + ": " + rule);
    };
    if (const auto* write = std::get_if<cmd::Write>(&command); write && write->data.empty())
        fail("a write without data");
    if (const auto* dispatch = std::get_if<cmd::Dispatch>(&command)) {
        const std::size_t max_args = limits.max_packet_dwords > dispatch_args_offset
                                         ? limits.max_packet_dwords - dispatch_args_offset
                                         : 0;
        if (dispatch->args.size() > max_args)
            fail("a dispatch of " + std::to_string(dispatch->args.size()) +
                 " argument dwords; a packet of " + std::to_string(limits.max_packet_dwords) +
                 " dwords takes at most " + std::to_string(max_args));
    }
    // One wait and one signal of each exec are the queue's own timeline.
    if (sync.wait.size() + 1 > limits.max_syncs)
        fail("a command waiting on " + std::to_string(sync.wait.size()) +
             " events; an exec takes at most " +
             std::to_string(limits.max_syncs ? limits.max_syncs - 1 : 0) +
             " besides the queue's own");
    if (std::any_of(sync.wait.begin(), sync.wait.end(), [](const Event& e) { return !e; }))
        fail("an empty Event in a wait list");
}

void encode(const Command& command, PacketWriter& writer, const SubmitLimits& limits)
{
    std::visit(Overloaded{
                   [&](const cmd::Write& c) {
                       const std::size_t chunk = limits.max_packet_dwords - write_data_overhead;
                       const std::span<const std::uint32_t> data{c.data};
                       for (std::size_t at = 0; at < data.size(); at += chunk)
                           writer.write_data(c.dst + at * sizeof(std::uint32_t),
                                             data.subspan(at, std::min(chunk, data.size() - at)));
                   },
                   [&](const cmd::Timestamp& c) { writer.write_timestamp(c.dst); },
                   [&](const cmd::Copy& c) { writer.copy(c.dst, c.src, c.size); },
                   [&](const cmd::Fill& c) { writer.fill(c.dst, c.value, c.size); },
                   [&](const cmd::Atomic& c) { writer.atomic(c.dst, c.op, c.value); },
                   [&](const cmd::WaitMem& c) {
                       writer.wait_mem(c.address, c.compare, c.reference, c.mask);
                   },
                   [&](const cmd::Dispatch& c) { writer.dispatch(c.kernel, c.groups, c.args); },
                   [&](const cmd::Barrier&) { writer.nop(); },
               },
               command);
}

} // namespace detail

} // namespace tempo
