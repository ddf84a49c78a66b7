// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * Clocks of the measurements: steady_clock (CLOCK_MONOTONIC, the clock
 * WRITE_TIMESTAMP writes, so CPU and GPU times compare) and the CPU time
 * of the calling thread.
 */
#pragma once

#include <chrono>
#include <ctime>

namespace tempo::tooling {

using Clock = std::chrono::steady_clock;

/// Nanoseconds from @start to @end.
inline double elapsed_ns(Clock::time_point start, Clock::time_point end)
{
    return std::chrono::duration<double, std::nano>(end - start).count();
}

/// @t in nanoseconds of CLOCK_MONOTONIC, comparable with GPU timestamps.
inline double ns_since_epoch(Clock::time_point t)
{
    return std::chrono::duration<double, std::nano>(t.time_since_epoch()).count();
}

/// CPU time of the calling thread in nanoseconds (user and kernel).
inline double thread_cpu_ns()
{
    timespec ts{};
    ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

} // namespace tempo::tooling
