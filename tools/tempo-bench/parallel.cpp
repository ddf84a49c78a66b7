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
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "bench.hpp"
#include "tempo-tooling/device.hpp"

namespace tempo::bench {

namespace {

enum Mode : std::size_t {
    gang_mode = 0,
    plain_mode = 1
};

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

/// --width, if the device takes that many batches in one exec.
std::uint32_t checked_width(const Device& device, const Options& options)
{
    if (options.width > device.info().max_batches)
        throw std::runtime_error("--width " + std::to_string(options.width) +
                                 " is above the device's " +
                                 std::to_string(device.info().max_batches) + " batches per exec");
    return options.width;
}

/// The batches: mode m (0 gang, 1 plain), member i at (m * width + i) * 16
/// bytes, writing its start time at the same index * 8 of @stamps.
std::vector<std::uint32_t> stamp_batches(const Buffer& stamps, std::uint32_t width)
{
    std::vector<std::uint32_t> dwords;
    for (std::uint32_t k = 0; k < 2 * width; k++) {
        PacketWriter writer;
        writer.write_timestamp(stamps.gpu_address(std::uint64_t{k} * 8)).end();
        dwords.insert(dwords.end(), writer.dwords().begin(), writer.dwords().end());
        dwords.resize(std::size_t{k + 1} * 4, 0);
    }
    return dwords;
}

/// The samples of one mode, in nanoseconds.
struct ModeSamples {
    std::vector<double> wall;
    std::vector<double> cpu;
    std::vector<double> skew;
};

class GangBench {
public:
    explicit GangBench(const Options& options)
        : options_(options),
          device_(tooling::open_device(options.device)),
          width_(checked_width(device_, options)),
          engines_(pick_engines(device_, options, width_)),
          // Batch i of the gang is pinned to engines[i] (one sibling per
          // column), the same engine as plain slot i: the modes differ only
          // in how the batches are submitted and started.
          gang_slot_(gang_map_.add_parallel(static_cast<std::uint16_t>(width_), 1, engines_)),
          gang_(device_, gang_map_),
          plain_(device_, engines_),
          stamps_(device_, 4096),
          batches_(Buffer::with_contents(device_, stamp_batches(stamps_, width_))),
          gang_batches_(addresses(gang_mode)),
          timeline_(device_),
          timeout_(tooling::hang_timeout(device_))
    {}

    /// Rounds of both modes, alternating which goes first.
    void run()
    {
        for (std::uint64_t k = 0; k < options_.warmup + options_.iterations; k++) {
            const bool keep = k >= options_.warmup;
            const Mode first = k % 2 ? plain_mode : gang_mode;
            round(first, keep);
            round(first == gang_mode ? plain_mode : gang_mode, keep);
        }
    }

    [[nodiscard]] Report report() const;

private:
    [[nodiscard]] GpuAddress batch(Mode mode, std::uint32_t i) const
    {
        return batches_.gpu_address((std::uint64_t{mode} * width_ + i) * 16);
    }

    [[nodiscard]] std::vector<GpuAddress> addresses(Mode mode) const
    {
        std::vector<GpuAddress> batches;
        for (std::uint32_t i = 0; i < width_; i++)
            batches.push_back(batch(mode, i));
        return batches;
    }

    void submit(Mode mode)
    {
        std::array<SyncPoint, 1> signal{};
        if (mode == gang_mode) {
            signal[0] = timeline_.next();
            gang_.submit({.slot = gang_slot_, .batches = gang_batches_, .signal = signal});
            return;
        }
        for (std::uint32_t i = 0; i < width_; i++) {
            signal[0] = timeline_.next();
            plain_.submit({.slot = Slot{i}, .batch = batch(mode, i), .signal = signal});
        }
    }

    void round(Mode mode, bool keep);

    const Options& options_;
    const Device device_;
    const std::uint32_t width_;
    const std::vector<Engine> engines_;
    EngineMap gang_map_;
    const Slot gang_slot_;
    const Context gang_;
    const Context plain_;
    Buffer stamps_;
    const Buffer batches_;
    const std::vector<GpuAddress> gang_batches_;
    Timeline timeline_;
    const std::chrono::nanoseconds timeout_;
    std::array<ModeSamples, 2> samples_;
};

void GangBench::round(Mode mode, bool keep)
{
    for (std::uint32_t i = 0; i < width_; i++)
        stamps_.write<std::uint64_t>((mode * width_ + i) * 8, 0);
    const auto t0 = Clock::now();
    const double c0 = tooling::thread_cpu_ns();
    submit(mode);
    const double c1 = tooling::thread_cpu_ns();
    const auto t1 = Clock::now();
    if (timeline_.wait(timeout_) == WaitResult::Timeout)
        throw std::runtime_error(std::string{mode == gang_mode ? "a gang" : "the plain execs"} +
                                 " did not complete in time");
    const auto starts = stamps_.read_array<std::uint64_t>(mode * width_ * 8, width_);
    if (std::find(starts.begin(), starts.end(), 0U) != starts.end())
        throw std::runtime_error("a batch did not write its timestamp");
    if (!keep)
        return;
    const auto [first, last] = std::minmax_element(starts.begin(), starts.end());
    samples_[mode].wall.push_back(elapsed_ns(t0, t1));
    samples_[mode].cpu.push_back(c1 - c0);
    samples_[mode].skew.push_back(static_cast<double>(*last - *first) *
                                  tooling::ns_per_tick(device_));
}

Report GangBench::report() const
{
    std::string engine_list;
    for (const Engine& e : engines_)
        engine_list += (engine_list.empty() ? "" : ",") + to_string(e);
    const DeviceInfo& info = device_.info();
    Report report = start_report("parallel", device_, engine_list, options_.iterations, options_,
                                 {{"width", width_},
                                  {"timestamp_frequency", info.timestamp_frequency},
                                  {"parallel_classes", info.parallel_classes}});
    const std::string n = std::to_string(width_);
    const std::array<std::string, 2> key{"gang", "plain"};
    const std::array<std::string, 2> label{"gang (1 exec, " + n + " batches)",
                                           "plain (" + n + " execs, 1 batch)"};
    for (const auto& [suffix, name, part] :
         {std::tuple{"_submit_wall", ": submit wall", &ModeSamples::wall},
          std::tuple{"_submit_cpu", ": submit CPU", &ModeSamples::cpu},
          std::tuple{"_start_skew", ": start skew", &ModeSamples::skew}})
        for (const Mode m : {gang_mode, plain_mode})
            report.rows.push_back(
                {key[m] + suffix, label[m] + name, summarize_us(samples_[m].*part)});
    return report;
}

} // namespace

int run_parallel(const Options& options)
{
    GangBench bench(options);
    bench.run();
    Report report = bench.report();
    const auto& rows = report.rows;
    report.ratios = {
        ratio("plain_over_gang_submit_wall", "submit wall: plain / gang", rows[1], rows[0]),
        ratio("plain_over_gang_submit_cpu", "submit CPU: plain / gang", rows[3], rows[2]),
        ratio("plain_over_gang_start_skew", "start skew: plain / gang", rows[5], rows[4]),
    };
    print(report, options.json);
    return 0;
}

} // namespace tempo::bench
