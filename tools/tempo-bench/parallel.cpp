// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * tempo-bench parallel: N batches as one exec on a parallel slot (a gang)
 * against N single-batch execs on N plain slots of the same engines,
 * measured side by side in one run.
 *
 * - submit cost: wall and thread CPU time of submitting the N batches (one
 *   DRM_IOCTL_TEMPO_EXEC, or N of them);
 * - start skew: each batch is [WRITE_TIMESTAMP, END] writing its start time
 *   to its own slot of a buffer; the skew of a round is the latest start
 *   minus the earliest.
 *
 * Each round submits the N batches of one mode, waits for them, then does
 * the same for the other mode (the order alternates between rounds), so
 * both modes see an idle device and the same conditions.
 */
#include <algorithm>
#include <array>
#include <cstdint>
#include <ctime>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench.hpp"
#include "tempo-tooling/options.hpp"

namespace tempo::bench {

namespace {

// Nanoseconds of CPU time this thread has used.
double thread_cpu_ns()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

// The engines of the gang: @width engines of --engine's class, else of the
// first class with parallel support and enough engines (compute first).
std::vector<Engine> pick_engines(const Device& device, const Options& options, std::uint32_t width)
{
    const DeviceInfo& info = device.info();
    std::vector<EngineClass> classes;
    if (options.engine)
        classes.push_back(options.engine->engine_class);
    else
        classes = {EngineClass::Compute, EngineClass::Copy, EngineClass::Gfx};
    for (const EngineClass c : classes) {
        if (!info.supports_parallel(c)) {
            if (options.engine)
                throw std::runtime_error("engine class " + to_string(c) +
                                         " has no parallel slots on this device");
            continue;
        }
        std::vector<Engine> engines;
        for (const EngineInfo& e : device.engines())
            if (e.engine.engine_class == c && engines.size() < width)
                engines.push_back(e.engine);
        if (engines.size() == width)
            return engines;
        if (options.engine)
            throw std::runtime_error("engine class " + to_string(c) + " has fewer than " +
                                     std::to_string(width) + " engines");
    }
    throw std::runtime_error("no engine class with parallel support has " + std::to_string(width) +
                             " engines");
}

} // namespace

int run_parallel(const Options& options)
{
    const Device device = tooling::open_device(options.device);
    const DeviceInfo& info = device.info();
    const std::uint32_t width = options.width;
    if (width < 2)
        throw std::runtime_error("--width must be at least 2");
    if (width > info.max_batches)
        throw std::runtime_error("--width " + std::to_string(width) + " is above the device's " +
                                 std::to_string(info.max_batches) + " batches per exec");
    const std::vector<Engine> engines = pick_engines(device, options, width);
    const std::uint64_t total = options.warmup + options.iterations;
    const std::chrono::nanoseconds timeout =
        4 * std::max(info.job_timeout, std::chrono::milliseconds{1000});

    // Batch i of the gang is pinned to engines[i] (one sibling per column),
    // the same engine as plain slot i: the modes differ only in how the
    // batches are submitted and started.
    EngineMap gang_map;
    const Slot gang_slot = gang_map.add_parallel(static_cast<std::uint16_t>(width), 1, engines);
    const Context gang(device, gang_map);
    const Context plain(device, engines);

    // Batches: mode m (0 gang, 1 plain), member i at (m * width + i) * 16
    // bytes, writing its start time at the same index * 8 of the stamps.
    Buffer stamps(device, 4096);
    std::vector<std::uint32_t> dwords;
    for (std::uint32_t k = 0; k < 2 * width; k++) {
        PacketWriter writer;
        writer.write_timestamp(stamps.gpu_address(std::uint64_t{k} * 8)).end();
        dwords.insert(dwords.end(), writer.dwords().begin(), writer.dwords().end());
        dwords.resize(std::size_t{k + 1} * 4, 0);
    }
    const Buffer batches = Buffer::with_contents(device, dwords);
    std::vector<GpuAddress> gang_batches;
    std::vector<GpuAddress> plain_batches;
    for (std::uint32_t i = 0; i < width; i++) {
        gang_batches.push_back(batches.gpu_address(std::uint64_t{i} * 16));
        plain_batches.push_back(batches.gpu_address(std::uint64_t{width + i} * 16));
    }

    std::array<std::vector<double>, 2> wall;
    std::array<std::vector<double>, 2> cpu;
    std::array<std::vector<double>, 2> skew;
    for (std::size_t m = 0; m < 2; m++) {
        wall[m].reserve(options.iterations);
        cpu[m].reserve(options.iterations);
        skew[m].reserve(options.iterations);
    }
    const double ns_per_tick =
        info.timestamp_frequency ? 1e9 / static_cast<double>(info.timestamp_frequency) : 1.0;

    Timeline timeline(device);
    std::array<SyncPoint, 1> signal{};
    const auto round = [&](std::size_t mode, bool keep) {
        for (std::uint32_t i = 0; i < width; i++)
            stamps.write<std::uint64_t>((mode * width + i) * 8, 0);
        const auto t0 = Clock::now();
        const double c0 = thread_cpu_ns();
        if (mode == 0) {
            signal[0] = timeline.next();
            gang.submit({.slot = gang_slot, .batches = gang_batches, .signal = signal});
        } else {
            for (std::uint32_t i = 0; i < width; i++) {
                signal[0] = timeline.next();
                plain.submit({.slot = Slot{i}, .batch = plain_batches[i], .signal = signal});
            }
        }
        const double c1 = thread_cpu_ns();
        const auto t1 = Clock::now();
        if (timeline.wait(timeout) == WaitResult::Timeout)
            throw std::runtime_error(std::string{mode == 0 ? "a gang" : "the plain execs"} +
                                     " did not complete in time");
        const auto starts = stamps.read_array<std::uint64_t>(mode * width * 8, width);
        if (std::find(starts.begin(), starts.end(), 0U) != starts.end())
            throw std::runtime_error("a batch did not write its timestamp");
        if (!keep)
            return;
        const auto [first, last] = std::minmax_element(starts.begin(), starts.end());
        wall[mode].push_back(elapsed_ns(t0, t1));
        cpu[mode].push_back(c1 - c0);
        skew[mode].push_back(static_cast<double>(*last - *first) * ns_per_tick);
    };
    for (std::uint64_t k = 0; k < total; k++) {
        const bool keep = k >= options.warmup;
        const std::size_t first = k % 2;
        round(first, keep);
        round(1 - first, keep);
    }

    std::string engine_list;
    for (const Engine& e : engines)
        engine_list += (engine_list.empty() ? "" : ",") + to_string(e);
    const std::string n = std::to_string(width);
    Report report{
        .benchmark = "parallel",
        .device = device.path(),
        .engine = engine_list,
        .iterations = options.iterations,
        .warmup = options.warmup,
        .parameters = {{"width", width},
                       {"timestamp_frequency", info.timestamp_frequency},
                       {"parallel_classes", info.parallel_classes}},
        .rows = {},
        .ratios = {},
    };
    const std::array<std::string, 2> key{"gang", "plain"};
    const std::array<std::string, 2> label{"gang (1 exec, " + n + " batches)",
                                           "plain (" + n + " execs, 1 batch)"};
    for (std::size_t m = 0; m < 2; m++)
        report.rows.push_back(
            {key[m] + "_submit_wall", label[m] + ": submit wall", summarize_us(wall[m])});
    for (std::size_t m = 0; m < 2; m++)
        report.rows.push_back(
            {key[m] + "_submit_cpu", label[m] + ": submit CPU", summarize_us(cpu[m])});
    for (std::size_t m = 0; m < 2; m++)
        report.rows.push_back(
            {key[m] + "_start_skew", label[m] + ": start skew", summarize_us(skew[m])});
    const auto& rows = report.rows;
    report.ratios.push_back(
        ratio("plain_over_gang_submit_wall", "submit wall: plain / gang", rows[1], rows[0]));
    report.ratios.push_back(
        ratio("plain_over_gang_submit_cpu", "submit CPU: plain / gang", rows[3], rows[2]));
    report.ratios.push_back(
        ratio("plain_over_gang_start_skew", "start skew: plain / gang", rows[5], rows[4]));
    print(report, options.json);
    return 0;
}

} // namespace tempo::bench
