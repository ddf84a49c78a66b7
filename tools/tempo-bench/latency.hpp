// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * tempo-bench latency: what the measurement (latency.cpp) hands to the
 * report (latency_report.cpp).
 */
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bench.hpp"
#include "tempo-tooling/load.hpp"

namespace tempo::bench::latency {

using tooling::CpuTimes;
using tooling::LoadStats;

/// Jobs each load context keeps queued.
inline constexpr std::uint32_t load_depth = 2;
/// The project's bar for HIGH under load: busy/idle p99 at most this (target 1.25).
inline constexpr double bar_ratio = 1.5;
inline constexpr double target_ratio = 1.25;

enum class ProbeKind {
    Nop,
    Dispatch,
    /// No job: the same path's cost to the host (see WakeChain in latency.cpp).
    Floor
};

inline const char* to_cstr(ProbeKind kind)
{
    switch (kind) {
    case ProbeKind::Nop:
        return "nop";
    case ProbeKind::Dispatch:
        return "dispatch";
    case ProbeKind::Floor:
        break;
    }
    return "floor";
}

/// One round trip, split at the GPU timestamps of the probe batch (nanoseconds).
struct Sample {
    /// Submit ioctl entered to fence seen signalled by the waiting thread.
    double total{0};
    /// Time in the submit ioctl.
    double submit{0};
    /// Submit ioctl entered to the first packet (scheduler, ring, arbitration, preemption).
    double to_start{0};
    /// Of which: submit ioctl entered to the job written into its HQD's ring (the CPU path:
    /// the ioctl, drm_sched's work item, run_job), as WRITE_JOB_TIMES reports it.
    double to_queue{0};
    /// And: the job in its HQD's ring to its first packet (the command processor's wake-up,
    /// arbitration, preemption of the job running, waits behind other jobs).
    double in_queue{0};
    /// The waits for the engine and for CUs behind other jobs that the hardware reported
    /// (WRITE_JOB_TIMES): what the probe's priority owed to other work.
    double waited{0};
    /// First to last packet of the batch (the NOP, or the DISPATCH waiting for and using a CU).
    double run{0};
    /// Last packet to the waiting thread back from poll() (fence signal and wake-up).
    double to_wake{0};
    /// The job's error (negative errno), 0 if it succeeded.
    int error{0};
};

/// One row of the table: a probe kind, a priority, idle or loaded.
struct Case {
    std::string key;
    std::string label;
    ProbeKind kind{ProbeKind::Nop};
    Priority priority{Priority::Normal};
    bool loaded{false};
    std::vector<Sample> samples;
    tooling::Summary us{};
    double p90_us{0};
    /// busy/idle p99, for loaded rows; and at p50 and p90, for context.
    std::optional<double> ratio;
    double ratio_p50{0};
    double ratio_p90{0};

    /// Summary in microseconds of one part of the samples (failed jobs have no parts).
    [[nodiscard]] tooling::Summary part(double Sample::*field) const
    {
        std::vector<double> ns;
        ns.reserve(samples.size());
        for (const Sample& s : samples)
            if (field == &Sample::total || field == &Sample::submit || !s.error)
                ns.push_back(s.*field);
        return summarize_us(std::move(ns));
    }

    [[nodiscard]] std::size_t failures() const
    {
        return static_cast<std::size_t>(std::count_if(
            samples.begin(), samples.end(), [](const Sample& s) { return s.error != 0; }));
    }

    [[nodiscard]] int first_error() const
    {
        for (const Sample& s : samples)
            if (s.error)
                return s.error;
        return 0;
    }

    /// The round trips in microseconds.
    [[nodiscard]] std::vector<double> totals_us() const
    {
        std::vector<double> totals;
        totals.reserve(samples.size());
        for (const Sample& s : samples)
            totals.push_back(s.total / 1000.0);
        return totals;
    }

    void summarize()
    {
        us = part(&Sample::total);
        std::vector<double> total = totals_us();
        std::sort(total.begin(), total.end());
        p90_us = tooling::percentile(total, 90);
    }
};

/// The conditions of the run, for the report.
struct Setup {
    std::string device;
    std::string engine;
    std::string load_engines;
    std::vector<std::string> stream_names;
    std::uint32_t num_cus{0};
    std::uint64_t samples{0};
    std::uint64_t warmup{0};
    std::uint64_t gap_us{0};
    std::uint64_t blocks{0};
    std::uint32_t load_ms{0};
    std::optional<std::string> cu_by_priority;
    std::optional<std::string> cu_reserved;
    std::optional<std::string> hqd_policy;
    std::optional<std::string> starve_ms;
    std::string high_refused;
    /// The load's counts, over the loaded phases.
    LoadStats load;
    unsigned cpus{0};
    CpuTimes idle_cpu;
    CpuTimes load_cpu;
    /// Where --hist wrote its files; empty without --hist.
    std::string plot_data;
    std::string plot_script;
};

/// Whether the CU sequencer follows queue priorities (cu_by_priority, default on).
inline bool sequencer_by_priority(const Setup& s)
{
    return !s.cu_by_priority || *s.cu_by_priority == "Y" || *s.cu_by_priority == "1";
}

/// Writes the --hist plot of @cases to @path; records its files in @s.
void write_hist(const std::string& path, Setup& s, const std::vector<Case>& cases);

/// Prints the run as tables, or as JSON.
void print_report(const Setup& s, const std::vector<Case>& cases, bool json);

} // namespace tempo::bench::latency
