// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * The immutable storage of command lists, and command encoding.
 */
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <tempo/command.hpp>
#include <tempo/packet.hpp>
#include <tempo/submitter.hpp>

namespace tempo::detail {

/// Commands [first, end) of a list, run by one exec.
struct Segment {
    std::uint32_t first{0};
    std::uint32_t end{0};
    /// Dword offset of the segment's batch (its packets, then END) in the batch memory.
    std::uint32_t offset{0};
    /// Index in the list's events table of the first command's waits, -1 if none.
    std::int32_t wait_entry{-1};
    /// Index in the list's events table of the last command's signal, -1 if none.
    std::int32_t signal_entry{-1};
};

/**
 * Recording - what close() produces, shared by a list, its clones and its
 * executions in flight
 *
 * Never changed while shared: CommandList::update() patches it only when
 * its list is the only owner of the recording and of the batch memory, and
 * copies it otherwise.
 */
struct Recording {
    std::vector<Command> commands;
    /// Dword offset of each command's first packet (after close()).
    std::vector<std::uint32_t> offsets;
    std::vector<Segment> segments;
    std::shared_ptr<BatchMemory> memory;
};

/// Dword offset of the group counts in a DISPATCH packet, and of its arguments.
inline constexpr std::uint32_t dispatch_groups_offset = 2;
inline constexpr std::uint32_t dispatch_args_offset = 5;

/**
 * Throws UsageError, naming @function, if @command with @sync cannot be
 * encoded and submitted within @limits.
 */
void validate(const Command& command, const Sync& sync, const SubmitLimits& limits,
              const char* function);

/// Appends the packets of @command (several for a long WRITE_DATA).
void encode(const Command& command, PacketWriter& writer, const SubmitLimits& limits);

} // namespace tempo::detail
