// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * tempo-demo: runs a small workload on the tempo device and checks every
 * value it produced against the same computation on the CPU, then the
 * scenario of the high-priority scheduling RFC (compositor.cpp): a game
 * saturates every engine while a VR compositor reprojects a frame every
 * 11.1 ms, first with both at normal priority (priority OFF), then with
 * the game at low and the compositor at high priority (priority ON).
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
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <tempo/tempo.hpp>

#include "compositor.hpp"
#include "tempo-tooling/options.hpp"

namespace {

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

constexpr std::string_view usage_text = R"(Usage: tempo-demo [OPTIONS]

1. Runs a verified sample workload on the tempo device: FILL, CHECKSUM, COPY
   and ATOMIC_INC on a compute engine, then a COPY packet on a copy engine;
   every result is compared with the CPU's.
2. Runs the compositor scenario: a game keeps every engine busy while a VR
   compositor submits a small reprojection dispatch every 11.1 ms (90 Hz)
   on compute:0 and checks that it finished before the next vblank and that
   its output is right. Twice: priority OFF (game and compositor at normal
   priority), then priority ON (game at low, compositor at high priority;
   needs root or CAP_SYS_NICE, skipped otherwise). Writes a histogram of the
   frame latencies as SVG.

Options:
  --frames N             frames of the priority ON run (default 1000)
  --off-frames N         frames of the priority OFF run (default 100)
  --game-group-ms MS     duration of each workgroup of the game's SPIN
                         dispatches (default 2)
  --game-copy-kib KIB    KiB each CU copies in the game's COPY kernel after
                         each SPIN dispatch (default 16)
  --game-stream-kib KIB  KiB of each COPY packet the game streams on the copy
                         engines, one every 10 ms (default 64)
  --out PATH             the histogram: a .svg file, or a directory for
                         tempo-demo-latency.svg (default: $TEMPO_OUT if set,
                         else the current directory)
  --no-scenario          run the verified workload only
  --device PATH          the DRM render node (default: $TEMPO_DEVICE, else
                         the first render node driven by tempo)
  -h, --help             this text

Exit status: 0 when the workload is verified and the priority ON run missed
no deadline (or was skipped for lack of privilege); 1 otherwise; 2 for a
usage error.
)";

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

std::string class_counts(const tempo::Device& device)
{
    std::string text;
    for (auto c :
         {tempo::EngineClass::Gfx, tempo::EngineClass::Compute, tempo::EngineClass::Copy}) {
        if (!text.empty())
            text += ", ";
        text += std::to_string(device.engine_count(c)) + " " + tempo::to_string(c);
    }
    return text;
}

int run_workload(const tempo::Device& device)
{
    using tempo::Buffer;
    using tempo::EngineClass;

    const auto& info = device.info();

    // A compute engine for the dispatches (gfx runs them too), a copy engine for the copy.
    auto compute = device.find_engine({EngineClass::Compute, 0});
    if (!compute)
        compute = device.find_engine({EngineClass::Gfx, 0});
    if (!compute) {
        std::printf("workload failed: the device has no compute or gfx engine\n");
        return 1;
    }
    const auto copy = device.find_engine({EngineClass::Copy, 0}).value_or(*compute);
    const tempo::Engine map[] = {compute->engine, copy.engine};
    const tempo::Context context(device, map);
    std::printf("running on %s, then %s\n", tempo::to_string(map[0]).c_str(),
                tempo::to_string(map[1]).c_str());

    const auto pattern = make_pattern();
    Buffer source(device, size);
    Buffer filled(device, size);
    Buffer copied(device, size);
    Buffer copied_again(device, size);
    Buffer results(device, 4096);
    source.write_array<std::uint32_t>(0, pattern);
    results.write<std::uint64_t>(checksum_at, 0);
    results.write<std::uint64_t>(counter_at, 0);

    tempo::PacketWriter compute_batch;
    compute_batch.fill(filled.gpu_address(), fill_value, size)
        .write_data(results.gpu_address(markers_at), markers)
        .write_timestamp(results.gpu_address(start_at))
        .dispatch_checksum({.x = groups}, source.gpu_address(), results.gpu_address(checksum_at),
                           bytes_per_group)
        .dispatch_copy({.x = groups / 4, .y = 4}, copied.gpu_address(), source.gpu_address(),
                       bytes_per_group)
        .dispatch_atomic_inc({.x = inc_groups}, results.gpu_address(counter_at), inc_count)
        .atomic_inc(results.gpu_address(counter_at))
        .write_timestamp(results.gpu_address(end_at))
        .end();
    tempo::PacketWriter copy_batch;
    copy_batch.copy(copied_again.gpu_address(), copied.gpu_address(), size).end();
    const Buffer batch1 = Buffer::with_contents(device, compute_batch.dwords());
    const Buffer batch2 = Buffer::with_contents(device, copy_batch.dwords());

    tempo::Syncobj timeline(device);
    const tempo::SyncPoint first[] = {timeline.at(1)};
    const tempo::SyncPoint second[] = {timeline.at(2)};
    const auto compute_fence = context.submit({.slot = tempo::Slot{0},
                                               .batch = batch1.gpu_address(),
                                               .signal = first,
                                               .out_fence = true});
    const auto copy_fence = context.submit({.slot = tempo::Slot{1},
                                            .batch = batch2.gpu_address(),
                                            .wait = first,
                                            .signal = second,
                                            .out_fence = true});

    const auto timeout = 4 * std::max(info.job_timeout, std::chrono::milliseconds{1000});
    for (const auto* fence : {&*compute_fence, &*copy_fence}) {
        const char* job = fence == &*compute_fence ? "compute" : "copy";
        if (fence->wait(timeout) == tempo::WaitResult::Timeout) {
            std::printf("workload failed: the %s job did not complete within %lld ms\n", job,
                        static_cast<long long>(timeout.count()));
            return 1;
        }
        if (const int status = fence->status(); status != 1) {
            std::printf("workload failed: the fence of the %s job signalled %d (%s)\n", job, status,
                        std::strerror(-status));
            return 1;
        }
    }

    std::uint64_t sum = 0;
    for (const std::uint32_t word : pattern)
        sum += word;
    const std::uint64_t counter = std::uint64_t{inc_groups} * inc_count + 1;

    Checker check;
    check.expect_dwords("filled", filled.read_array<std::uint32_t>(0, dwords),
                        std::vector<std::uint32_t>(dwords, fill_value));
    check.expect_dwords("markers", results.read_array<std::uint32_t>(markers_at, 4),
                        {std::begin(markers), std::end(markers)});
    check.expect("checksum", results.read<std::uint64_t>(checksum_at), sum);
    check.expect_dwords("copied", copied.read_array<std::uint32_t>(0, dwords), pattern);
    check.expect("counter", results.read<std::uint64_t>(counter_at), counter);
    check.expect_dwords("copied_again", copied_again.read_array<std::uint32_t>(0, dwords), pattern);
    const auto start = results.read<std::uint64_t>(start_at);
    const auto end = results.read<std::uint64_t>(end_at);
    if (start == 0 || end < start) {
        std::printf("  timestamps: start %" PRIu64 ", end %" PRIu64 "\n", start, end);
        check.expect("timestamp order", 0, 1);
    }
    if (check.failures()) {
        std::printf("workload FAILED: %d check(s) differ from the CPU's results\n",
                    check.failures());
        return 1;
    }

    const double gpu_us =
        info.timestamp_frequency
            ? static_cast<double>(end - start) * 1e6 / static_cast<double>(info.timestamp_frequency)
            : 0.0;
    std::printf("workload verified: FILL %u KiB, CHECKSUM 0x%" PRIx64 " over %u groups, "
                "COPY kernel %u KiB, ATOMIC_INC %ux%u+1 = %" PRIu64 " on %s; "
                "COPY packet %u KiB on %s; %.1f us of GPU time\n",
                size / 1024, sum, groups, size / 1024, inc_groups, inc_count, counter,
                tempo::to_string(map[0]).c_str(), size / 1024, tempo::to_string(map[1]).c_str(),
                gpu_us);
    return 0;
}

/// Nearest-rank percentile of @values (unsorted), in milliseconds from microseconds.
double percentile_ms(std::vector<double> values, double p)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const auto rank =
        static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(values.size())));
    return values[std::clamp<std::size_t>(rank, 1, values.size()) - 1] / 1000.0;
}

void print_run(const tempo::demo::CompositorRun& r)
{
    std::printf("%-13s %-7s %-10s %7llu %7llu %6llu %9.2f %9.2f %9.2f %14.2f %10llu %4.0f%%\n",
                r.name.c_str(), tempo::to_string(r.game).c_str(),
                tempo::to_string(r.compositor).c_str(), static_cast<unsigned long long>(r.frames),
                static_cast<unsigned long long>(r.missed), static_cast<unsigned long long>(r.wrong),
                percentile_ms(r.latency_us, 50), percentile_ms(r.latency_us, 99),
                percentile_ms(r.latency_us, 100), percentile_ms(r.start_us, 99),
                static_cast<unsigned long long>(r.game_jobs), r.cpu_busy);
    std::fflush(stdout);
}

/// How the module's CU sequencer picks workgroups (module parameter cu_by_priority).
std::string sequencer_setting()
{
    std::ifstream in("/sys/module/tempo/parameters/cu_by_priority");
    std::string value;
    if (!(in >> value))
        return "unknown (cu_by_priority not readable)";
    return (value == "Y" ? "by queue priority" : "at random") + std::string{" (cu_by_priority="} +
           value + ")";
}

/// The histogram's path from --out: a .svg file, or a directory.
std::string histogram_path(const std::string& out)
{
    const std::string name = "tempo-demo-latency.svg";
    if (out.size() > 4 && out.ends_with(".svg"))
        return out;
    if (!out.empty())
        return out + "/" + name;
    const char* dir = std::getenv("TEMPO_OUT");
    return dir && *dir ? std::string{dir} + "/" + name : name;
}

/// The scenario; returns 0, or 1 when the priority ON run missed a deadline.
int run_scenario(const tempo::Device& device, const DemoOptions& options)
{
    using tempo::Priority;
    using tempo::demo::CompositorRun;

    auto engine = device.find_engine({tempo::EngineClass::Compute, 0});
    if (!engine)
        engine = device.find_engine({tempo::EngineClass::Gfx, 0});
    if (!engine) {
        std::printf("scenario skipped: the device has no compute or gfx engine\n");
        return 0;
    }
    tempo::demo::GameConfig game;
    game.group_ms = options.game_group_ms;
    game.copy_bytes_per_cu = options.game_copy_kib * 1024;
    game.stream_bytes = options.game_stream_kib * 1024;
    std::printf("\ncompositor scenario: a game keeps every engine busy while a compositor on %s "
                "reprojects a frame every %.1f ms (90 Hz): a DISPATCH COPY of 4 groups x 4 KiB "
                "between two WRITE_TIMESTAMPs, due before the next vblank\n",
                tempo::to_string(engine->engine).c_str(),
                static_cast<double>(tempo::demo::frame_period_ns) / 1e6);
    std::printf("  game %s\n", tempo::demo::describe_game(device, game).c_str());
    std::printf("  CU sequencer: %s\n\n", sequencer_setting().c_str());
    std::printf("%-13s %-7s %-10s %7s %7s %6s %9s %9s %9s %14s %10s %5s\n", "run", "game",
                "compositor", "frames", "missed", "wrong", "p50_ms", "p99_ms", "max_ms",
                "to-start p99", "game jobs", "CPU");

    std::vector<CompositorRun> runs;
    CompositorRun off;
    off.name = "priority OFF";
    off.game = Priority::Normal;
    off.compositor = Priority::Normal;
    tempo::demo::run_compositor(device, engine->engine, game, options.off_frames, off);
    print_run(off);
    runs.push_back(std::move(off));

    std::string skipped;
    if (device.max_priority() < Priority::High) {
        skipped = "the compositor's HIGH priority needs root or CAP_SYS_NICE (this process may "
                  "use up to " +
                  tempo::to_string(device.max_priority()) + ")";
    } else {
        CompositorRun on;
        on.name = "priority ON";
        on.game = Priority::Low;
        on.compositor = Priority::High;
        try {
            tempo::demo::run_compositor(device, engine->engine, game, options.frames, on);
            print_run(on);
            runs.push_back(std::move(on));
        } catch (const tempo::Error& e) {
            if (e.code() != std::errc::permission_denied &&
                e.code() != std::errc::operation_not_permitted)
                throw;
            skipped = std::string{"the compositor's HIGH priority was refused: "} + e.what() +
                      " (needs root or CAP_SYS_NICE)";
        }
    }
    if (!skipped.empty())
        std::printf("priority ON    skipped: %s\n", skipped.c_str());

    std::printf("\n(latency: submit to fence seen signalled; to-start: submit to the batch's first "
                "packet; a frame misses when its fence has not signalled at the next vblank or "
                "its output is wrong)\n");
    for (const CompositorRun& r : runs) {
        if (!r.missed_start_us.empty())
            std::printf("%s: where the missed frames lost their time (p50 / max, ms): to the first "
                        "packet %.2f / %.2f, batch run %.2f / %.2f, to wake-up %.2f / %.2f\n",
                        r.name.c_str(), percentile_ms(r.missed_start_us, 50),
                        percentile_ms(r.missed_start_us, 100), percentile_ms(r.missed_run_us, 50),
                        percentile_ms(r.missed_run_us, 100), percentile_ms(r.missed_wake_us, 50),
                        percentile_ms(r.missed_wake_us, 100));
        if (r.failed)
            std::printf("%s: %llu frames failed on the GPU\n", r.name.c_str(),
                        static_cast<unsigned long long>(r.failed));
        if (r.game_failed)
            std::printf("%s: %llu game jobs failed (their contexts were created again): %s\n",
                        r.name.c_str(), static_cast<unsigned long long>(r.game_failed),
                        r.game_failures.c_str());
    }
    char subtitle[256];
    std::snprintf(subtitle, sizeof(subtitle),
                  "game: SPIN workgroups of %u ms on every gfx and compute engine; compositor: "
                  "1 dispatch every %.1f ms on %s; CU sequencer %s",
                  game.group_ms, static_cast<double>(tempo::demo::frame_period_ns) / 1e6,
                  tempo::to_string(engine->engine).c_str(), sequencer_setting().c_str());
    try {
        const std::string written =
            tempo::demo::write_histogram(histogram_path(options.out), runs, subtitle);
        std::printf("latency histogram: %s\n", written.c_str());
    } catch (const std::exception& e) {
        std::printf("latency histogram not written: %s (see --out)\n", e.what());
    }

    if (runs.size() < 2) {
        std::printf("priority ON: skipped (run as root for it)\n");
        return 0;
    }
    const CompositorRun& on = runs[1];
    if (on.missed) {
        std::printf("priority ON: FAILED: %llu of %llu frames missed their deadline (%llu with "
                    "wrong output)\n",
                    static_cast<unsigned long long>(on.missed),
                    static_cast<unsigned long long>(on.frames),
                    static_cast<unsigned long long>(on.wrong));
        return 1;
    }
    std::printf("priority ON: every one of %llu frames met its deadline with the right output\n",
                static_cast<unsigned long long>(on.frames));
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    using tempo::tooling::option_value;
    using tempo::tooling::parse_count;
    DemoOptions options;
    for (int i = 1; i < argc; i++) {
        const std::string_view arg{argv[i]};
        try {
            if (arg == "-h" || arg == "--help") {
                std::cout << usage_text;
                return 0;
            } else if (arg == "--no-scenario") {
                options.scenario = false;
            } else if (auto d = option_value(argc, argv, i, "--device")) {
                options.device = std::string{*d};
            } else if (auto f = option_value(argc, argv, i, "--frames")) {
                options.frames = parse_count("--frames", *f);
            } else if (auto o = option_value(argc, argv, i, "--off-frames")) {
                options.off_frames = parse_count("--off-frames", *o);
            } else if (auto g = option_value(argc, argv, i, "--game-group-ms")) {
                const std::uint64_t ms = parse_count("--game-group-ms", *g);
                if (ms == 0 || ms > 100)
                    throw tempo::tooling::UsageError("--game-group-ms must be 1..100");
                options.game_group_ms = static_cast<std::uint32_t>(ms);
            } else if (auto c = option_value(argc, argv, i, "--game-copy-kib")) {
                const std::uint64_t kib = parse_count("--game-copy-kib", *c);
                if (kib == 0 || kib > 4096)
                    throw tempo::tooling::UsageError("--game-copy-kib must be 1..4096");
                options.game_copy_kib = static_cast<std::uint32_t>(kib);
            } else if (auto t = option_value(argc, argv, i, "--game-stream-kib")) {
                const std::uint64_t kib = parse_count("--game-stream-kib", *t);
                if (kib == 0 || kib > 65536)
                    throw tempo::tooling::UsageError("--game-stream-kib must be 1..65536");
                options.game_stream_kib = static_cast<std::uint32_t>(kib);
            } else if (auto p = option_value(argc, argv, i, "--out")) {
                options.out = std::string{*p};
            } else {
                throw tempo::tooling::UsageError("unknown argument: " + std::string{arg});
            }
        } catch (const tempo::tooling::UsageError& e) {
            std::cerr << "tempo-demo: " << e.what() << "\n\n" << usage_text;
            return 2;
        }
    }

    std::optional<tempo::Device> device;
    int workload = 1;
    try {
        device.emplace(tempo::tooling::open_device(options.device));
        const auto& info = device->info();
        std::printf("tempo device %s: %u engines (%s), %u hardware queues, %u CUs\n",
                    device->path().c_str(), info.num_engines, class_counts(*device).c_str(),
                    info.num_hqds, info.num_cus);
        workload = run_workload(*device);
    } catch (const std::exception& e) {
        std::printf("workload failed: %s\n", e.what());
    }
    if (!device || !options.scenario) {
        if (workload)
            std::printf("demo FAILED: the verified workload failed\n");
        return workload;
    }

    int scenario = 1;
    try {
        scenario = run_scenario(*device, options);
    } catch (const std::exception& e) {
        std::printf("scenario failed: %s\n", e.what());
    }
    if (workload || scenario) {
        std::printf("demo FAILED:%s%s\n", workload ? " the verified workload failed;" : "",
                    scenario ? " the compositor scenario failed" : "");
        return 1;
    }
    return 0;
}
