// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * tempo-demo: runs a small workload on the tempo device and checks every
 * value it produced against the same computation on the CPU, then the
 * scenario of the high-priority scheduling RFC (compositor.cpp) as the RFC
 * describes it, three processes with a DRM file each: a game saturates
 * every engine, a system compositor composes at 60 Hz and a VR compositor
 * reprojects a frame every 11.1 ms. First all at normal priority
 * (priority OFF), then with the game at low and the VR compositor raised
 * to high by the demo, which holds CAP_SYS_NICE and the file the VR
 * compositor passed it (priority ON), as a VR runtime does.
 *
 * The workload, on a compute engine, one batch:
 *   FILL packet        "filled" <- 0xc0ffee00
 *   WRITE_DATA         a few marker dwords into "results"
 *   WRITE_TIMESTAMP    start time
 *   DISPATCH CHECKSUM  sum of the dwords of "pattern" (CPU-written), per group
 *   DISPATCH COPY      "copied" <- "pattern", per group
 *   DISPATCH ATOMIC_INC every group adds its count to a counter
 *   ATOMIC INC packet  one more
 *   WRITE_TIMESTAMP    end time
 * then on a copy engine, after the first batch (timeline syncobj point 1):
 *   COPY packet        "copied_again" <- "copied"
 * The sync_files of both jobs say when they are done and whether they failed.
 */
#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <optional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include <tempo/tempo.hpp>

#include "compositor.hpp"
#include "histogram.hpp"
#include "tempo-tooling/cli.hpp"
#include "tempo-tooling/device.hpp"
#include "tempo-tooling/load.hpp"
#include "tempo-tooling/stats.hpp"

namespace {

namespace tooling = tempo::tooling;
using tempo::demo::Channel;
using tempo::demo::ChildProcess;
using tempo::demo::Message;
using tempo::demo::ProcessRun;
using tempo::demo::ScenarioRun;
using tempo::demo::Tag;

constexpr std::uint32_t groups = 16;
constexpr std::uint32_t bytes_per_group = 4096;
constexpr std::uint32_t size = groups * bytes_per_group;
constexpr std::uint32_t dwords = size / 4;
constexpr std::uint32_t fill_value = 0xc0ffee00;
constexpr std::uint32_t inc_groups = 8;
constexpr std::uint32_t inc_count = 1000;
constexpr std::uint32_t markers[] = {0x7e3b0001, 0x7e3b0002, 0x7e3b0003, 0x7e3b0004};

// Offsets in the results buffer.
constexpr std::size_t checksum_at = 0;
constexpr std::size_t counter_at = 8;
constexpr std::size_t start_at = 16;
constexpr std::size_t end_at = 24;
constexpr std::size_t markers_at = 32;

constexpr const char* about =
    R"(1. Runs a verified sample workload on the tempo device: FILL, CHECKSUM, COPY
   and ATOMIC_INC on a compute engine, then a COPY packet on a copy engine;
   every result is compared with the CPU's.
2. Runs the compositor scenario as three processes, each with a DRM file of
   its own and without CAP_SYS_NICE: a game keeps every engine busy; a
   system compositor submits a small dispatch every 16.7 ms (60 Hz) on
   gfx:0; a VR compositor submits a small reprojection dispatch every
   11.1 ms (90 Hz) on compute:0. Each compositor checks that every frame
   finished before the next vblank and that its output is right. Twice:
   priority OFF (all at normal priority), then priority ON (the game asks
   for low; the VR compositor passes its DRM file to the demo, which raises
   it to high with DRM_IOCTL_TEMPO_SCHED: needs root or CAP_SYS_NICE,
   skipped otherwise). Prints per process frames, misses and latency
   p50/p90/p99/max; writes the histogram of the compositors' frame
   latencies as data and a gnuplot script that draws it.)";

constexpr const char* footer =
    R"(Exit status: 0 when the workload is verified and, with priority ON, every
frame of the VR compositor was right and none missed its deadline because
of other work on the GPU (misses the host caused are counted and printed,
not failed; or that run was skipped for lack of privilege); 1 otherwise; 2
for a usage error.)";

struct DemoOptions {
    std::string device;
    std::uint64_t frames = 1000;
    std::uint64_t off_frames = 100;
    std::uint32_t game_group_ms = 2;
    std::uint32_t game_copy_kib = 16;
    std::uint32_t game_stream_kib = 64;
    std::string out;
    bool scenario = true;
};

void add_options(CLI::App& app, DemoOptions& o)
{
    tooling::setup(app);
    app.footer(footer);
    tooling::add_count(app, "--frames", o.frames,
                       "frames of the VR compositor in the priority ON run\n(default 1000)");
    tooling::add_count(app, "--off-frames", o.off_frames,
                       "frames of the VR compositor in the priority OFF run\n(default 100)");
    tooling::add_count(app, "--game-group-ms", o.game_group_ms,
                       "duration of each workgroup of the game's SPIN\n"
                       "dispatches, 1..100 (default 2)",
                       1, 100)
        ->type_name("MS");
    tooling::add_count(app, "--game-copy-kib", o.game_copy_kib,
                       "KiB each CU copies in the game's COPY kernel after\n"
                       "each SPIN dispatch, 1..4096 (default 16)",
                       1, 4096)
        ->type_name("KIB");
    tooling::add_count(app, "--game-stream-kib", o.game_stream_kib,
                       "KiB of each COPY packet the game streams on the copy\n"
                       "engines, one every 10 ms, 1..65536 (default 64)",
                       1, 65536)
        ->type_name("KIB");
    app.add_option("--out", o.out,
                   "the histogram: PATH.dat and PATH.gp (a .svg, .gp or\n"
                   ".dat suffix is dropped), or, for a directory,\n"
                   "tempo-demo-latency.dat and .gp in it (default:\n"
                   "$TEMPO_OUT if set, else the current directory)")
        ->type_name("PATH");
    app.add_flag_callback(
        "--no-scenario", [&o] { o.scenario = false; }, "run the verified workload only");
    tooling::add_device(app, o.device);
}

// A deterministic pseudo-random pattern (xorshift32).
std::vector<std::uint32_t> make_pattern()
{
    std::vector<std::uint32_t> pattern(dwords);
    std::uint32_t x = 0x2545f491;
    for (auto& word : pattern) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        word = x;
    }
    return pattern;
}

class Checker {
public:
    void expect(const char* what, std::uint64_t got, std::uint64_t expected)
    {
        if (got == expected)
            return;
        failures_++;
        std::printf("  %s: 0x%" PRIx64 ", expected 0x%" PRIx64 "\n", what, got, expected);
    }

    void expect_dwords(const char* what, const std::vector<std::uint32_t>& got,
                       const std::vector<std::uint32_t>& expected)
    {
        std::size_t differ = 0;
        for (std::size_t i = 0; i < expected.size(); i++) {
            if (got[i] == expected[i])
                continue;
            if (differ < 8)
                std::printf("  %s[%zu]: 0x%08x, expected 0x%08x\n", what, i, got[i], expected[i]);
            differ++;
        }
        if (differ) {
            std::printf("  %s: %zu of %zu dwords differ\n", what, differ, expected.size());
            failures_++;
        }
    }

    [[nodiscard]] int failures() const { return failures_; }

private:
    int failures_{0};
};

/// The engine for the dispatches: compute:0, else gfx:0 (which runs them too).
std::optional<tempo::EngineInfo> dispatch_engine(const tempo::Device& device)
{
    if (auto compute = device.find_engine({tempo::EngineClass::Compute, 0}))
        return compute;
    return device.find_engine({tempo::EngineClass::Gfx, 0});
}

/**
 * The sample workload: its buffers, the compute batch and the copy batch
 * that runs after it on the copy engine (timeline syncobj point 1).
 */
class Workload {
public:
    Workload(const tempo::Device& device, tempo::Engine compute, tempo::Engine copy)
        : device_(device),
          engines_{compute, copy},
          context_(device, engines_),
          pattern_(make_pattern()),
          source_(device, size),
          filled_(device, size),
          copied_(device, size),
          copied_again_(device, size),
          results_(device, 4096),
          compute_batch_(compute_batch()),
          copy_batch_(copy_batch())
    {
        source_.write_array<std::uint32_t>(0, pattern_);
        results_.write<std::uint64_t>(checksum_at, 0);
        results_.write<std::uint64_t>(counter_at, 0);
    }

    /// Submits both jobs and waits for them; false (said why) if one failed.
    bool run() const
    {
        tempo::Syncobj timeline(device_);
        const tempo::SyncPoint first[] = {timeline.at(1)};
        const tempo::SyncPoint second[] = {timeline.at(2)};
        const auto compute = context_.submit({.slot = tempo::Slot{0},
                                              .batch = compute_batch_.gpu_address(),
                                              .signal = first,
                                              .out_fence = true});
        const auto copy = context_.submit({.slot = tempo::Slot{1},
                                           .batch = copy_batch_.gpu_address(),
                                           .wait = first,
                                           .signal = second,
                                           .out_fence = true});
        return completed(*compute, "compute") && completed(*copy, "copy");
    }

    /// Compares every result with the CPU's; returns the number of differences.
    [[nodiscard]] int verify() const
    {
        Checker check;
        check.expect_dwords("filled", filled_.read_array<std::uint32_t>(0, dwords),
                            std::vector<std::uint32_t>(dwords, fill_value));
        check.expect_dwords("markers", results_.read_array<std::uint32_t>(markers_at, 4),
                            {std::begin(markers), std::end(markers)});
        check.expect("checksum", results_.read<std::uint64_t>(checksum_at), checksum());
        check.expect_dwords("copied", copied_.read_array<std::uint32_t>(0, dwords), pattern_);
        check.expect("counter", results_.read<std::uint64_t>(counter_at), counter());
        check.expect_dwords("copied_again", copied_again_.read_array<std::uint32_t>(0, dwords),
                            pattern_);
        const auto start = results_.read<std::uint64_t>(start_at);
        const auto end = results_.read<std::uint64_t>(end_at);
        if (start == 0 || end < start) {
            std::printf("  timestamps: start %" PRIu64 ", end %" PRIu64 "\n", start, end);
            check.expect("timestamp order", 0, 1);
        }
        return check.failures();
    }

    void print_verified() const
    {
        const auto ticks =
            results_.read<std::uint64_t>(end_at) - results_.read<std::uint64_t>(start_at);
        const double gpu_us = static_cast<double>(ticks) * tooling::ns_per_tick(device_) / 1000.0;
        std::printf("workload verified: FILL %u KiB, CHECKSUM 0x%" PRIx64 " over %u groups, "
                    "COPY kernel %u KiB, ATOMIC_INC %ux%u+1 = %" PRIu64 " on %s; "
                    "COPY packet %u KiB on %s; %.1f us of GPU time\n",
                    size / 1024, checksum(), groups, size / 1024, inc_groups, inc_count, counter(),
                    tempo::to_string(engines_[0]).c_str(), size / 1024,
                    tempo::to_string(engines_[1]).c_str(), gpu_us);
    }

private:
    tempo::Buffer compute_batch() const
    {
        tempo::PacketWriter w;
        w.fill(filled_.gpu_address(), fill_value, size)
            .write_data(results_.gpu_address(markers_at), markers)
            .write_timestamp(results_.gpu_address(start_at))
            .dispatch_checksum({.x = groups}, source_.gpu_address(),
                               results_.gpu_address(checksum_at), bytes_per_group)
            .dispatch_copy({.x = groups / 4, .y = 4}, copied_.gpu_address(), source_.gpu_address(),
                           bytes_per_group)
            .dispatch_atomic_inc({.x = inc_groups}, results_.gpu_address(counter_at), inc_count)
            .atomic_inc(results_.gpu_address(counter_at))
            .write_timestamp(results_.gpu_address(end_at))
            .end();
        return tempo::Buffer::with_contents(device_, w.dwords());
    }

    tempo::Buffer copy_batch() const
    {
        tempo::PacketWriter w;
        w.copy(copied_again_.gpu_address(), copied_.gpu_address(), size).end();
        return tempo::Buffer::with_contents(device_, w.dwords());
    }

    /// Whether the job of @fence completed in time and succeeded (else says why).
    bool completed(const tempo::Fence& fence, const char* job) const
    {
        const auto timeout = tooling::hang_timeout(device_);
        if (fence.wait(timeout) == tempo::WaitResult::Timeout) {
            std::printf(
                "workload failed: the %s job did not complete within %lld ms\n", job,
                static_cast<long long>(
                    std::chrono::duration_cast<std::chrono::milliseconds>(timeout).count()));
            return false;
        }
        if (const int status = fence.status(); status != 1) {
            std::printf("workload failed: the fence of the %s job signalled %d (%s)\n", job, status,
                        std::strerror(-status));
            return false;
        }
        return true;
    }

    [[nodiscard]] std::uint64_t checksum() const
    {
        std::uint64_t sum = 0;
        for (const std::uint32_t word : pattern_)
            sum += word;
        return sum;
    }

    static std::uint64_t counter() { return std::uint64_t{inc_groups} * inc_count + 1; }

    const tempo::Device& device_;
    const tempo::Engine engines_[2];
    const tempo::Context context_;
    const std::vector<std::uint32_t> pattern_;
    tempo::Buffer source_;
    tempo::Buffer filled_;
    tempo::Buffer copied_;
    tempo::Buffer copied_again_;
    tempo::Buffer results_;
    const tempo::Buffer compute_batch_;
    const tempo::Buffer copy_batch_;
};

/// The verified workload; 0, or 1 when it failed (said why).
int run_workload(const tempo::Device& device)
{
    const auto compute = dispatch_engine(device);
    if (!compute) {
        std::printf("workload failed: the device has no compute or gfx engine\n");
        return 1;
    }
    const auto copy = device.find_engine({tempo::EngineClass::Copy, 0}).value_or(*compute);
    std::printf("running on %s, then %s\n", tempo::to_string(compute->engine).c_str(),
                tempo::to_string(copy.engine).c_str());
    const Workload workload(device, compute->engine, copy.engine);
    if (!workload.run())
        return 1;
    if (const int failures = workload.verify()) {
        std::printf("workload FAILED: %d check(s) differ from the CPU's results\n", failures);
        return 1;
    }
    workload.print_verified();
    return 0;
}

/// Nearest-rank percentile @p of @values_us, in milliseconds.
double percentile_ms(std::vector<double> values_us, double p)
{
    std::sort(values_us.begin(), values_us.end());
    return tooling::percentile(values_us, p) / 1000.0;
}

/// Latency percentile @p of @r as "%9.2f", or "-" for a process without frames.
std::string latency_ms(const ProcessRun& r, double p)
{
    if (r.latency_us.empty())
        return "-";
    char text[32];
    std::snprintf(text, sizeof(text), "%.2f", percentile_ms(r.latency_us, p));
    return text;
}

/// One row per process; the game's frames are its jobs (it has no deadline).
void print_run(const ScenarioRun& run)
{
    for (const ProcessRun& r : run.processes) {
        const bool game = r.latency_us.empty() && r.jobs;
        std::printf("%-4s %-18s %-7s %7llu %7s %6s %6s %8s %8s %8s %8s\n", run.name.c_str(),
                    role_name(r.role), tempo::to_string(r.priority).c_str(),
                    static_cast<unsigned long long>(game ? r.jobs : r.frames),
                    game ? "-" : std::to_string(r.missed).c_str(),
                    game ? "-" : std::to_string(r.missed_by_gpu).c_str(),
                    game ? "-" : std::to_string(r.wrong).c_str(), latency_ms(r, 50).c_str(),
                    latency_ms(r, 90).c_str(), latency_ms(r, 99).c_str(),
                    latency_ms(r, 100).c_str());
    }
    std::fflush(stdout);
}

/// How the module's CU sequencer picks workgroups (module parameter cu_by_priority).
std::string sequencer_setting()
{
    const auto value = tooling::module_param("cu_by_priority");
    if (!value)
        return "unknown (cu_by_priority not readable)";
    return (*value == "Y" ? "by queue priority" : "at random") + std::string{" (cu_by_priority="} +
           *value + ")";
}

/// The histogram's name from --out: a file name, or a directory.
std::string histogram_path(const std::string& out)
{
    const std::string name = "tempo-demo-latency";
    for (const char* suffix : {".svg", ".gp", ".dat"})
        if (out.ends_with(suffix))
            return out;
    if (!out.empty())
        return out + "/" + name;
    const char* dir = std::getenv("TEMPO_OUT");
    return dir && *dir ? std::string{dir} + "/" + name : name;
}

/// The engines of the scenario: the VR compositor's and the system compositor's.
struct Engines {
    tempo::Engine vr;
    tempo::Engine system;
};

void print_scenario_header(const tempo::Device& device, const Engines& engines,
                           const tempo::demo::GameConfig& game)
{
    std::printf("\ncompositor scenario, three processes with a DRM file each: a game keeps every "
                "engine busy; a system compositor on %s composes a frame every %.1f ms (60 Hz); "
                "a VR compositor on %s reprojects a frame every %.1f ms (90 Hz). Each frame is "
                "a DISPATCH COPY of 4 groups x 4 KiB between two WRITE_TIMESTAMPs, due before "
                "the next vblank\n",
                tempo::to_string(engines.system).c_str(),
                static_cast<double>(tempo::demo::system_period.count()) / 1e6,
                tempo::to_string(engines.vr).c_str(),
                static_cast<double>(tempo::demo::vr_period.count()) / 1e6);
    std::printf("  game %s\n", tempo::demo::describe_game(device, game).c_str());
    std::printf("  CU sequencer: %s\n", sequencer_setting().c_str());
    std::printf("  the processes drop CAP_SYS_NICE; with priority ON the game asks for low, the "
                "VR compositor asks for normal and passes its DRM file to the demo, which raises "
                "it to high (DRM_IOCTL_TEMPO_SCHED)\n\n");
    std::printf("%-4s %-18s %-7s %7s %7s %6s %6s %8s %8s %8s %8s\n", "run", "process", "prio",
                "frames", "missed", "by_gpu", "wrong", "p50_ms", "p90_ms", "p99_ms", "max_ms");
}

/// What differs between the two runs.
struct RunPlan {
    const char* name;
    tempo::Priority game;
    /// Whether the demo raises the VR compositor's file to HIGH.
    bool raise_vr;
    std::uint64_t frames;
};

/// The three processes of a run, started in that order; destroyed (reaped) in reverse.
struct Processes {
    ChildProcess game;
    ChildProcess system;
    ChildProcess vr;
};

Processes start_processes(const DemoOptions& o, const Engines& engines,
                          const tempo::demo::GameConfig& game, const RunPlan& plan)
{
    using tempo::demo::CompositorConfig;
    // Both ask for NORMAL; the system compositor runs until the VR compositor is done.
    const CompositorConfig system{.role = tempo::demo::Role::SystemCompositor,
                                  .engine = engines.system,
                                  .priority = tempo::Priority::Normal,
                                  .period = tempo::demo::system_period,
                                  .frames = 0,
                                  .pass_fd = false};
    const CompositorConfig vr{.role = tempo::demo::Role::VrCompositor,
                              .engine = engines.vr,
                              .priority = tempo::Priority::Normal,
                              .period = tempo::demo::vr_period,
                              .frames = plan.frames,
                              .pass_fd = true};
    const std::string& path = o.device;
    const tempo::Priority game_priority = plan.game;
    // Each child runs its lambda as soon as it is forked: the references
    // need to live only until then.
    return Processes{
        ChildProcess(
            "game",
            [&](Channel& c) { return tempo::demo::game_process(c, path, game_priority, game); }),
        ChildProcess("system compositor",
                     [&](Channel& c) { return tempo::demo::compositor_process(c, path, system); }),
        ChildProcess("VR compositor",
                     [&](Channel& c) { return tempo::demo::compositor_process(c, path, vr); })};
}

/// Runs @plan: starts the processes, raises the VR compositor if asked,
/// measures until the VR compositor ran its frames; printed.
ScenarioRun run_processes(const tempo::Device& device, const DemoOptions& o, const Engines& engines,
                          const tempo::demo::GameConfig& game, const RunPlan& plan)
{
    Processes p = start_processes(o, engines, game, plan);
    p.game.expect(Tag::Ready);
    p.system.expect(Tag::Ready);
    const Message vr_ready = p.vr.expect(Tag::Ready);
    if (!vr_ready.fd)
        throw std::runtime_error("the VR compositor did not pass its DRM file");
    // As a VR runtime does for its compositor: the file, not the process.
    if (plan.raise_vr)
        device.override_priority(vr_ready.fd.get(), tempo::Priority::High);
    const tooling::CpuTimes cpu_start = tooling::cpu_times();
    for (ChildProcess* c : {&p.game, &p.system, &p.vr})
        c->channel().send(Tag::Go);
    ScenarioRun run;
    run.name = plan.name;
    const ProcessRun vr = p.vr.expect<ProcessRun>(Tag::Result);
    run.cpu_busy = (tooling::cpu_times() - cpu_start).percent();
    p.game.channel().send(Tag::Stop);
    p.system.channel().send(Tag::Stop);
    run.processes.push_back(p.game.expect<ProcessRun>(Tag::Result));
    run.processes.push_back(p.system.expect<ProcessRun>(Tag::Result));
    run.processes.push_back(vr);
    for (ChildProcess* c : {&p.game, &p.system, &p.vr})
        if (const int status = c->wait())
            throw std::runtime_error("the " + c->name() + " exited with status " +
                                     std::to_string(status));
    print_run(run);
    return run;
}

/// The priority ON run, or none when the demo may not raise a priority (printed why).
std::optional<ScenarioRun> run_priority_on(const tempo::Device& device, const DemoOptions& o,
                                           const Engines& engines,
                                           const tempo::demo::GameConfig& game)
{
    std::string skipped;
    if (device.max_priority() < tempo::Priority::High) {
        skipped = "raising the VR compositor needs root or CAP_SYS_NICE (this process may "
                  "use up to " +
                  tempo::to_string(device.max_priority()) + ")";
    } else {
        try {
            return run_processes(device, o, engines, game,
                                 {"ON", tempo::Priority::Low, true, o.frames});
        } catch (const tempo::Error& e) {
            if (e.code() != std::errc::permission_denied &&
                e.code() != std::errc::operation_not_permitted)
                throw;
            skipped = std::string{"raising the VR compositor was refused: "} + e.what() +
                      " (needs root or CAP_SYS_NICE)";
        }
    }
    std::printf("ON   skipped: %s\n", skipped.c_str());
    return std::nullopt;
}

/// Where the missed frames lost their time, failed frames, failed game jobs.
void print_misses(const std::vector<ScenarioRun>& runs)
{
    std::printf("\n(latency: submit to fence seen signalled; a frame misses when its fence has not "
                "signalled at the next vblank or its output is wrong; by_gpu: the misses that "
                "other work on the GPU caused, the batch ending late but in time without the "
                "waits for its engine and for CUs behind other jobs that the hardware "
                "reported (WRITE_JOB_TIMES); the others lost their time on the host; the game's "
                "frames are its jobs completed)\n");
    for (const ScenarioRun& run : runs) {
        std::printf("%s: CPUs %.0f%% busy\n", run.name.c_str(), run.cpu_busy);
        for (const ProcessRun& r : run.processes) {
            if (!r.missed_start_us.empty())
                std::printf(
                    "%s %s: where the missed frames lost their time (p50 / max, ms): to the "
                    "hardware queue %.2f / %.2f, waiting behind other jobs %.2f / %.2f, to the "
                    "first packet %.2f / %.2f, batch run %.2f / %.2f, to wake-up %.2f / %.2f\n",
                    run.name.c_str(), role_name(r.role), percentile_ms(r.missed_queued_us, 50),
                    percentile_ms(r.missed_queued_us, 100), percentile_ms(r.missed_waited_us, 50),
                    percentile_ms(r.missed_waited_us, 100), percentile_ms(r.missed_start_us, 50),
                    percentile_ms(r.missed_start_us, 100), percentile_ms(r.missed_run_us, 50),
                    percentile_ms(r.missed_run_us, 100), percentile_ms(r.missed_wake_us, 50),
                    percentile_ms(r.missed_wake_us, 100));
            if (r.failed)
                std::printf("%s %s: %llu frames failed on the GPU\n", run.name.c_str(),
                            role_name(r.role), static_cast<unsigned long long>(r.failed));
            if (r.failed_jobs)
                std::printf("%s %s: %llu jobs failed (their contexts were created again): %s\n",
                            run.name.c_str(), role_name(r.role),
                            static_cast<unsigned long long>(r.failed_jobs), r.failures.c_str());
        }
    }
}

void write_histogram(const std::vector<ScenarioRun>& runs, const tempo::demo::GameConfig& game,
                     const Engines& engines, const std::string& out)
{
    const std::string subtitle =
        "game: SPIN workgroups of " + std::to_string(game.group_ms) +
        " ms on every gfx and compute engine; VR compositor: 1 dispatch every 11.1 ms on " +
        tempo::to_string(engines.vr) + "; system compositor: every 16.7 ms on " +
        tempo::to_string(engines.system) + "; CU sequencer " + sequencer_setting();
    try {
        const auto files = tempo::demo::write_histogram(histogram_path(out), runs, subtitle);
        std::printf("latency histogram: %s; gnuplot %s draws it\n", files.data.c_str(),
                    files.script.c_str());
    } catch (const std::exception& e) {
        std::printf("latency histogram not written: %s (see --out)\n", e.what());
    }
}

/// 0, or 1 when with priority ON other work on the GPU made the VR
/// compositor miss a deadline, or a frame of it was wrong or failed.
int scenario_verdict(const std::vector<ScenarioRun>& runs)
{
    if (runs.size() < 2) {
        std::printf("priority ON: skipped (run as root for it)\n");
        return 0;
    }
    const ProcessRun& vr = runs[1].processes.back();
    const auto count = [](std::uint64_t n) { return static_cast<unsigned long long>(n); };
    if (vr.missed_by_gpu || vr.wrong || vr.failed) {
        std::printf("priority ON: FAILED: the VR compositor missed %llu of %llu deadlines, %llu "
                    "of them behind other work on the GPU (%llu with wrong output, %llu failed)\n",
                    count(vr.missed), count(vr.frames), count(vr.missed_by_gpu), count(vr.wrong),
                    count(vr.failed));
        return 1;
    }
    if (vr.missed) {
        std::printf("priority ON: the VR compositor missed %llu of %llu deadlines, none behind "
                    "other work on the GPU: the host took the time (a busy or shared machine)\n",
                    count(vr.missed), count(vr.frames));
        return 0;
    }
    std::printf("priority ON: the VR compositor met every one of its %llu deadlines with the "
                "right output\n",
                count(vr.frames));
    return 0;
}

/// The engines: compute:0 (else gfx:0) for the VR compositor, gfx:0 (else
/// the same) for the system compositor.
std::optional<Engines> scenario_engines(const tempo::Device& device)
{
    const auto vr = dispatch_engine(device);
    if (!vr)
        return std::nullopt;
    const auto system = device.find_engine({tempo::EngineClass::Gfx, 0}).value_or(*vr);
    return Engines{.vr = vr->engine, .system = system.engine};
}

/// The scenario; returns scenario_verdict().
int run_scenario(const tempo::Device& device, const DemoOptions& options)
{
    const auto engines = scenario_engines(device);
    if (!engines) {
        std::printf("scenario skipped: the device has no compute or gfx engine\n");
        return 0;
    }
    const tempo::demo::GameConfig game{.group_ms = options.game_group_ms,
                                       .groups_per_cu = 4,
                                       .copy_bytes_per_cu = options.game_copy_kib * 1024,
                                       .stream_bytes = options.game_stream_kib * 1024,
                                       .stream_interval_ms = 10};
    print_scenario_header(device, *engines, game);
    std::vector<ScenarioRun> runs;
    runs.push_back(run_processes(device, options, *engines, game,
                                 {"OFF", tempo::Priority::Normal, false, options.off_frames}));
    if (auto on = run_priority_on(device, options, *engines, game))
        runs.push_back(std::move(*on));
    print_misses(runs);
    write_histogram(runs, game, *engines, options.out);
    return scenario_verdict(runs);
}

/// The workload, then the scenario unless --no-scenario; 0 when both passed.
int run_demo(const DemoOptions& options)
{
    std::optional<tempo::Device> device;
    int workload = 1;
    try {
        device.emplace(tooling::open_device(options.device));
        const auto& info = device->info();
        std::printf("tempo device %s: %u engines (%s), %u hardware queues, %u CUs\n",
                    device->path().c_str(), info.num_engines,
                    tooling::class_counts(*device).c_str(), info.num_hqds, info.num_cus);
        workload = run_workload(*device);
    } catch (const std::exception& e) {
        std::printf("workload failed: %s\n", e.what());
    }
    int scenario = 0;
    if (device && options.scenario) {
        try {
            scenario = run_scenario(*device, options);
        } catch (const std::exception& e) {
            std::printf("scenario failed: %s\n", e.what());
            scenario = 1;
        }
    }
    if (workload || scenario)
        std::printf("demo FAILED: %s%s%s\n", workload ? "the verified workload failed" : "",
                    workload && scenario ? "; " : "",
                    scenario ? "the compositor scenario failed" : "");
    return workload || scenario ? 1 : 0;
}

} // namespace

int main(int argc, char** argv)
{
    return tooling::tool_main<DemoOptions>(argc, argv, about, "tempo-demo", add_options, run_demo);
}
