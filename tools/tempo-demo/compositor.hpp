// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * tempo-demo: the scenario of the high-priority scheduling RFC, three
 * processes: a game that keeps every engine busy, a system compositor at
 * 60 Hz and a VR compositor that must reproject a frame before every
 * vblank at 90 Hz.
 */
#pragma once

#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include <tempo/device.hpp>
#include <tempo/types.hpp>

#include "process.hpp"

/// A Priority in JSON: its name (tempo::to_string()), or the number of a
/// level without one; anything else is an error.
template <>
struct nlohmann::adl_serializer<tempo::Priority> {
    template <typename BasicJson>
    static void to_json(BasicJson& json, tempo::Priority priority)
    {
        json = tempo::to_string(priority);
    }

    template <typename BasicJson>
    static void from_json(const BasicJson& json, tempo::Priority& priority)
    {
        const auto name = json.template get<std::string>();
        const auto parsed = tempo::parse_priority(name);
        if (!parsed)
            throw std::invalid_argument("not a priority: \"" + name + "\"");
        priority = *parsed;
    }
};

namespace tempo::demo {

/// The processes of the scenario: what the output names (role_name()) and
/// the histogram draws (histogram.hpp) tell them by.
enum class Role : std::uint8_t {
    Game,
    SystemCompositor,
    VrCompositor,
};

/// The name of @role in the output: "game", "system-compositor", "vr-compositor".
inline const char* role_name(Role role)
{
    switch (role) {
    case Role::Game:
        return "game";
    case Role::SystemCompositor:
        return "system-compositor";
    case Role::VrCompositor:
        return "vr-compositor";
    }
    return "?";
}

/// A Role in JSON: its role_name(); another string or value is an error.
template <typename BasicJson>
void to_json(BasicJson& json, Role role)
{
    json = role_name(role);
}

template <typename BasicJson>
void from_json(const BasicJson& json, Role& role)
{
    const auto name = json.template get<std::string>();
    for (const Role r : {Role::Game, Role::SystemCompositor, Role::VrCompositor}) {
        if (name == role_name(r)) {
            role = r;
            return;
        }
    }
    throw std::invalid_argument("not a role: \"" + name + "\"");
}

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

/// What one process of a run did, as it reports it to the demo.
struct ProcessRun {
    Role role{Role::Game};
    /// The priority its contexts ran at: for a compositor, as the kernel reports it
    /// (an override included); for the game, the one it asked for.
    Priority priority{Priority::Normal};
    std::uint64_t frames{0};
    /// Frames whose fence had not signalled by the next vblank, or that failed or were wrong.
    std::uint64_t missed{0};
    /// Of those, the frames that other work on the GPU made late: their batch ended after
    /// the vblank and would have ended before it without the time the hardware reported it
    /// waited for its engine and for CUs while other jobs ran (WRITE_JOB_TIMES).
    /// The others lost their time on the host: a thread or an emulation thread without a CPU.
    std::uint64_t missed_by_gpu{0};
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
    /// job reaching its hardware queue, the waits behind other jobs' work, submit to the
    /// first packet, first to last packet, last packet to the fence seen signalled.
    std::vector<double> missed_queued_us;
    std::vector<double> missed_waited_us;
    std::vector<double> missed_start_us;
    std::vector<double> missed_run_us;
    std::vector<double> missed_wake_us;
    /// The game: jobs completed and failed during the run.
    std::uint64_t jobs{0};
    std::uint64_t failed_jobs{0};
    std::string failures;

    friend bool operator==(const ProcessRun&, const ProcessRun&) = default;
};

/// A ProcessRun in JSON, the payload of its Tag::Result: an object with a
/// member per field, every one required.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ProcessRun, role, priority, frames, missed, missed_by_gpu, wrong,
                                   failed, skipped_vblanks, latency_us, start_us, missed_queued_us,
                                   missed_waited_us, missed_start_us, missed_run_us, missed_wake_us,
                                   jobs, failed_jobs, failures)

/// One run of the scenario: its processes, the game first, and how busy the CPUs were.
struct ScenarioRun {
    std::string name;
    std::vector<ProcessRun> processes;
    /// Share of the CPUs busy during the run (/proc/stat), in percent.
    double cpu_busy{0};
};

/// A compositor process: where and how often it composes.
struct CompositorConfig {
    Role role{Role::SystemCompositor};
    Engine engine{};
    /// The priority its context asks for.
    Priority priority{Priority::Normal};
    /// The refresh period: each frame is due at the next vblank.
    std::chrono::nanoseconds period{0};
    /// Frames to run; 0: until the demo says stop.
    std::uint64_t frames{0};
    /// Whether it passes its DRM file to the demo with Tag::Ready, to be raised.
    bool pass_fd{false};
};

/// Period of a 90 Hz display (the VR compositor's) and of a 60 Hz one (the system's).
inline constexpr std::chrono::nanoseconds vr_period{11'111'111};
inline constexpr std::chrono::nanoseconds system_period{16'666'667};

/// Describes the game's load, for the output.
std::string describe_game(const Device& device, const GameConfig& game);

/**
 * The game's process: drops CAP_SYS_NICE, opens @device_path, keeps every
 * engine busy at @priority from Tag::Ready on; counts its jobs from Tag::Go
 * until Tag::Stop, then sends its ProcessRun with Tag::Result.
 */
int game_process(Channel& demo, const std::string& device_path, Priority priority,
                 const GameConfig& game);

/**
 * A compositor's process: drops CAP_SYS_NICE, opens @device_path, sets up
 * and sends Tag::Ready; from Tag::Go, composes a frame every period until
 * it ran its frames or the demo says stop, then sends its ProcessRun.
 */
int compositor_process(Channel& demo, const std::string& device_path,
                       const CompositorConfig& config);

} // namespace tempo::demo
