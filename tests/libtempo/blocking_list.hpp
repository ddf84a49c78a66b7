// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * The list that the clone tests of both backends (the fake submitter and
 * the device) execute while it is blocked on the GPU.
 */
#pragma once

#include <array>
#include <cstdint>

#include <tempo/command.hpp>
#include <tempo/command_list.hpp>
#include <tempo/packet.hpp>
#include <tempo/types.hpp>

namespace tempo_test {

/**
 * Records into @list, then closes it: a DISPATCH of one group that fills the
 * 4 bytes at @scratch with 1, a WAIT_MEM until the dword at @flag is 1, an
 * ATOMIC that increments @counter. Returns the DISPATCH, which a clone
 * updates with release_args() so that it releases the blocked list.
 */
inline tempo::CommandId record_blocking_list(tempo::CommandList& list, tempo::GpuAddress scratch,
                                             tempo::GpuAddress flag, tempo::GpuAddress counter)
{
    const tempo::CommandId fill = list.append_dispatch_fill({.x = 1}, scratch, 1, 4);
    list.append_wait_mem(flag, tempo::Compare::Eq, 1);
    list.append_atomic_inc(counter);
    list.close();
    return fill;
}

/// The arguments of the DISPATCH of record_blocking_list() that fill @flag instead.
inline std::array<std::uint32_t, 4> release_args(tempo::GpuAddress flag)
{
    return {flag.low(), flag.high(), 1, 4};
}

} // namespace tempo_test
