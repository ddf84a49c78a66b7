// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * tempo-demo: the scenario of the high-priority scheduling RFC, a game that
 * keeps every engine busy and a VR compositor that must reproject a frame
 * before every vblank.
 */
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <tempo/device.hpp>
#include <tempo/types.hpp>

#include "tempo-tooling/plot.hpp"

namespace tempo::demo {

/// How the game loads the GPU.
struct GameConfig {
    /// Duration of each workgroup of the game's SPIN dispatches.
    std::uint32_t group_ms = 2;
    /// Workgroups of each SPIN dispatch, per CU.
    std::uint32_t groups_per_cu = 4;
    /// Bytes each CU copies in the COPY kernel that follows each SPIN dispatch.
    std::uint32_t copy_bytes_per_cu = 16 * 1024;
    /// Bytes of each COPY packet streamed on the copy engines, and how often.
    std::uint32_t stream_bytes = 64 * 1024;
    std::uint32_t stream_interval_ms = 10;
};

/// One run of the scenario: the priorities, and what happened.
struct CompositorRun {
    std::string name;
    Priority game{Priority::Normal};
    Priority compositor{Priority::Normal};
    std::uint64_t frames{0};
    /// Frames whose fence had not signalled by the next vblank.
    std::uint64_t missed{0};
    /// Frames whose output differed from what the CPU expected.
    std::uint64_t wrong{0};
    /// Frames whose job failed on the GPU.
    std::uint64_t failed{0};
    /// Vblanks without a frame submitted, because the previous one was late.
    std::uint64_t skipped_vblanks{0};
    /// Submit to fence seen signalled, per frame (microseconds).
    std::vector<double> latency_us;
    /// Submit to the first packet of the frame's batch (microseconds).
    std::vector<double> start_us;
    /// The missed frames that ran, split at the GPU timestamps (microseconds): submit to the
    /// first packet, first to last packet, last packet to the fence seen signalled.
    std::vector<double> missed_start_us;
    std::vector<double> missed_run_us;
    std::vector<double> missed_wake_us;
    /// Game jobs completed and failed during the run.
    std::uint64_t game_jobs{0};
    std::uint64_t game_failed{0};
    std::string game_failures;
    /// Share of the CPUs busy during the run (/proc/stat), in percent.
    double cpu_busy{0};
};

/// Period of a 90 Hz display, the compositor's deadline after each submission.
inline constexpr std::uint64_t frame_period_ns = 11'111'111;

/// Describes the game's load, for the output.
std::string describe_game(const Device& device, const GameConfig& game);

/**
 * Runs the scenario: the game at @run.game saturates every engine while the
 * compositor, at @run.compositor on @engine, submits @frames reprojections
 * at 90 Hz and checks each one's deadline and output. Fills @run.
 * Throws tempo::Error with EACCES when a priority is not permitted.
 */
void run_compositor(const Device& device, Engine engine, const GameConfig& game,
                    std::uint64_t frames, CompositorRun& run);

/// Writes the latency histogram of @runs as data and a gnuplot script
/// named after @path (plot::write_plot()); returns the files written.
plot::Files write_histogram(const std::string& path, const std::vector<CompositorRun>& runs,
                            const std::string& subtitle);

} // namespace tempo::demo
