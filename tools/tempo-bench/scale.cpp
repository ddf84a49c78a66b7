// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * tempo-bench scale: whether the cost of a job grows with the number of
 * contexts and files, and with the jobs queued behind it.
 *
 * Populations of contexts, each with one slot on the engine: one file with
 * 1, 64 and the per-file limit of contexts, then --files files of 64
 * contexts each. For each population:
 *
 * - burst: every context submits D NOP jobs, one context after the other,
 *   D times; then every file's timeline is waited for. The cost per job is
 *   the burst's wall time over its jobs. D is 1, 8 and 64, capped so that a
 *   file never has more jobs in flight than its limit (the cap is
 *   printed); one burst unmeasured, then --rounds bursts;
 * - round trip: the first context's NOP round trip while the others idle
 *   (--warmup round trips unmeasured, then --samples).
 *
 * The ratios compare the largest population with the smallest, medians
 * against medians: the per-job cost of a burst of each depth, and the
 * round trip.
 */
#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench.hpp"
#include "tempo-tooling/device.hpp"

namespace tempo::bench {

namespace {

/// Contexts per file of the many-files population.
constexpr std::uint32_t contexts_per_file = 64;
/// Jobs each context submits in one burst, before the per-file cap.
constexpr std::uint32_t depths[] = {1, 8, 64};

/// One DRM file: its contexts, its NOP batch and a timeline its jobs signal.
class File {
public:
    File(const Options& options, Engine engine, std::uint32_t contexts)
        : device_(tooling::open_device(options.device)),
          batch_(nop_batch(device_)),
          timeline_(device_)
    {
        contexts_.reserve(contexts);
        for (std::uint32_t i = 0; i < contexts; i++)
            contexts_.push_back(std::make_unique<Context>(device_, std::span{&engine, 1}));
    }

    [[nodiscard]] std::uint32_t contexts() const noexcept
    {
        return static_cast<std::uint32_t>(contexts_.size());
    }

    /// Context @i submits one NOP that signals the file's next timeline point.
    void submit(std::uint32_t i)
    {
        const std::array<SyncPoint, 1> signal{timeline_.next()};
        contexts_[i]->submit({.slot = Slot{0}, .batch = batch_.gpu_address(), .signal = signal});
    }

    /// Waits until every job submitted so far has completed.
    void wait(std::chrono::nanoseconds timeout) const
    {
        if (timeline_.wait(timeout) == WaitResult::Timeout)
            throw std::runtime_error("a burst of NOP jobs did not complete in time");
    }

    [[nodiscard]] const Device& device() const noexcept { return device_; }

private:
    static Buffer nop_batch(const Device& device)
    {
        PacketWriter writer;
        writer.nop().end();
        return Buffer::with_contents(device, writer.dwords());
    }

    Device device_;
    Buffer batch_;
    Timeline timeline_;
    std::vector<std::unique_ptr<Context>> contexts_;
};

/// Files of contexts, all on one engine.
class Population {
public:
    Population(const Options& options, Engine engine, std::uint32_t files, std::uint32_t contexts)
    {
        for (std::uint32_t f = 0; f < files; f++)
            files_.push_back(std::make_unique<File>(options, engine, contexts));
        timeout_ = tooling::hang_timeout(files_[0]->device());
    }

    [[nodiscard]] std::string name() const
    {
        return std::to_string(files_.size()) + "x" + std::to_string(files_[0]->contexts());
    }

    [[nodiscard]] std::uint32_t contexts_per_file() const { return files_[0]->contexts(); }

    [[nodiscard]] std::uint64_t contexts() const
    {
        return files_.size() * std::uint64_t{files_[0]->contexts()};
    }

    /// @depth NOPs from every context, round-robin; nanoseconds per job.
    [[nodiscard]] double burst(std::uint32_t depth) const
    {
        const auto jobs = contexts() * depth;
        const auto t0 = Clock::now();
        for (std::uint32_t d = 0; d < depth; d++)
            for (const auto& file : files_)
                for (std::uint32_t i = 0; i < file->contexts(); i++)
                    file->submit(i);
        for (const auto& file : files_)
            file->wait(timeout_ + std::chrono::milliseconds{jobs});
        return elapsed_ns(t0, Clock::now()) / static_cast<double>(jobs);
    }

    /// The first context's NOP round trip; nanoseconds.
    [[nodiscard]] double round_trip() const
    {
        const auto t0 = Clock::now();
        files_[0]->submit(0);
        files_[0]->wait(timeout_);
        return elapsed_ns(t0, Clock::now());
    }

private:
    std::vector<std::unique_ptr<File>> files_;
    std::chrono::nanoseconds timeout_{};
};

/// The populations: one file with 1, 64 and @max_contexts contexts, then
/// @files files of contexts_per_file each.
std::vector<std::pair<std::uint32_t, std::uint32_t>> populations(std::uint32_t max_contexts,
                                                                 std::uint32_t files)
{
    std::vector<std::pair<std::uint32_t, std::uint32_t>> p = {{1, 1}};
    if (max_contexts > contexts_per_file)
        p.emplace_back(1, contexts_per_file);
    p.emplace_back(1, max_contexts);
    if (files > 1)
        p.emplace_back(files, std::min(contexts_per_file, max_contexts));
    return p;
}

/// @depth, capped so that a file of @contexts contexts stays within @max_jobs in flight.
std::uint32_t capped(std::uint32_t depth, std::uint32_t contexts, std::uint32_t max_jobs)
{
    return std::clamp<std::uint32_t>(max_jobs / std::max<std::uint32_t>(contexts, 1), 1, depth);
}

/// Report rows by burst depth, and the round trip's as depth 0.
using RowsByDepth = std::map<std::uint32_t, std::size_t>;

/// Measures @population's bursts and round trip into @report.
RowsByDepth measure_population(Report& report, const Options& options, const Population& population,
                               std::uint32_t max_jobs)
{
    const std::string name = population.name();
    RowsByDepth rows;
    std::uint32_t previous = 0;
    for (const std::uint32_t wanted : depths) {
        const std::uint32_t depth = capped(wanted, population.contexts_per_file(), max_jobs);
        if (depth == previous)
            continue;
        previous = depth;
        (void)population.burst(depth);
        std::vector<double> samples;
        for (std::uint64_t r = 0; r < options.rounds; r++)
            samples.push_back(population.burst(depth));
        rows[wanted] = report.rows.size();
        report.rows.push_back(
            {"burst_" + name + "_d" + std::to_string(wanted),
             "burst, " + name + " contexts, " + std::to_string(depth) + " jobs each (per job)",
             summarize_us(std::move(samples))});
    }
    Options trips = options;
    trips.iterations = options.samples;
    rows[0] = report.rows.size();
    report.rows.push_back(
        {"round_trip_" + name, "round trip, " + name + " contexts",
         summarize_us(measure(trips, [&](std::uint64_t) { return population.round_trip(); }))});
    return rows;
}

/// The largest population's rows over the smallest's, where both have one.
void add_ratios(Report& report, const RowsByDepth& first, const RowsByDepth& last)
{
    for (const auto& [depth, index] : first) {
        const auto large = last.find(depth);
        if (large == last.end() || large->second == index)
            continue;
        const Row& small = report.rows[index];
        const Row& big = report.rows[large->second];
        report.ratios.push_back(
            ratio(big.key + "_over_" + small.key, big.key + " / " + small.key, big, small));
    }
}

} // namespace

int run_scale(const Options& options)
{
    const Device probe = tooling::open_device(options.device);
    const Engine engine = pick_engine(probe, options);
    const FileLimits& limits = probe.info().limits;
    const std::uint32_t max_contexts = std::min(limits.max_contexts, options.contexts);

    Report report = start_report("scale", probe, to_string(engine), options.rounds, options,
                                 {{"max_contexts", max_contexts},
                                  {"max_jobs", limits.max_jobs},
                                  {"files", options.files},
                                  {"round_trips", options.samples}});
    // Row of each depth (and of the round trip, key 0) of the smallest and
    // the largest population, for the ratios.
    RowsByDepth first, last;
    for (const auto& [files, contexts] : populations(max_contexts, options.files)) {
        const Population population(options, engine, files, contexts);
        RowsByDepth rows = measure_population(report, options, population, limits.max_jobs);
        if (first.empty())
            first = rows;
        last = std::move(rows);
    }
    add_ratios(report, first, last);
    print(report, options.json);
    return 0;
}

} // namespace tempo::bench
