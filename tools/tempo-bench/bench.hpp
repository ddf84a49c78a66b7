// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * tempo-bench: the pieces every benchmark (command) shares.
 */
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <tempo/tempo.hpp>

#include "tempo-tooling/json.hpp"
#include "tempo-tooling/stats.hpp"
#include "tempo-tooling/timing.hpp"

namespace CLI {
class App;
}

namespace tempo::bench {

using tooling::Clock;
using tooling::elapsed_ns;

/// The options of the commands (each command takes the ones it uses).
struct Options {
    std::uint64_t iterations = 1000;
    std::uint64_t warmup = 100;
    bool json = false;
    std::string device;
    /// Engine to submit to; by default the first compute engine.
    std::optional<Engine> engine;
    /// Submissions between waits of the submit-only measurement; 0: the ring size.
    std::uint64_t burst = 0;
    /// Samples of each row of "latency".
    std::uint64_t samples = 300;
    /// Duration of each load job (SPIN workgroup) of "latency", in milliseconds.
    std::uint32_t load_ms = 20;
    /// Mean pause between two probes of "latency", in microseconds.
    std::uint64_t gap_us = 1000;
    /// Where "latency" writes its plot (data and gnuplot script); empty: nowhere.
    std::string hist;
    /// Batches per gang of "parallel".
    std::uint32_t width = 2;
    /// Bursts of each population and depth of "scale".
    std::uint64_t rounds = 3;
    /// Files of the many-files population of "scale".
    std::uint32_t files = 64;
    /// Most contexts per file of "scale" (the per-file limit when lower).
    std::uint32_t contexts = 1024;
};

/// One command.
struct Command {
    std::string_view name;
    std::string_view summary;
    /// Adds the options the command takes to its part of the command line.
    void (*add_options)(CLI::App& command, Options& options);
    int (*run)(const Options& options);
};

/// Every command, for main() and the usage text.
std::span<const Command> commands();

int run_nop(const Options& options);
int run_latency(const Options& options);
int run_parallel(const Options& options);
int run_scale(const Options& options);

/// Runs @step(i) for i in 0 .. warm-up + iterations; returns what the
/// measured iterations (those after the warm-up) return: nanoseconds.
template <typename Step>
std::vector<double> measure(const Options& options, Step&& step)
{
    std::vector<double> samples;
    samples.reserve(options.iterations);
    for (std::uint64_t i = 0; i < options.warmup + options.iterations; i++) {
        const double ns = step(i);
        if (i >= options.warmup)
            samples.push_back(ns);
    }
    return samples;
}

/// measure() for several steps side by side: each runs @turn iterations in
/// turn, so that all meet the same host and their ratios hold when it
/// changes during the run. Step k is called with its own index i, from 0
/// to warm-up + iterations, as by measure().
template <typename... Steps>
std::array<std::vector<double>, sizeof...(Steps)>
measure_in_turns(const Options& options, std::uint64_t turn, Steps&&... steps)
{
    std::array<std::vector<double>, sizeof...(Steps)> samples;
    const std::uint64_t total = options.warmup + options.iterations;
    for (auto& s : samples)
        s.reserve(options.iterations);
    for (std::uint64_t done = 0; done < total; done += turn) {
        const std::uint64_t end = std::min(total, done + turn);
        std::size_t k = 0;
        const auto run_turn = [&](auto& step) {
            for (std::uint64_t i = done; i < end; i++) {
                const double ns = step(i);
                if (i >= options.warmup)
                    samples[k].push_back(ns);
            }
            k++;
        };
        (run_turn(steps), ...);
    }
    return samples;
}

/// A measured row of the result table (samples in nanoseconds).
struct Row {
    std::string key;          // JSON key
    std::string label;        // table label
    tooling::Summary summary; // in microseconds
};

/// A ratio between two rows.
struct Ratio {
    std::string key;
    std::string label;
    double mean{0};
    double p50{0};
};

/// What a benchmark run reports.
struct Report {
    std::string benchmark;
    std::string device;
    std::string engine;
    std::uint64_t iterations{0};
    std::uint64_t warmup{0};
    /// Parameters of the run worth reporting, such as the submit burst.
    std::vector<std::pair<std::string, std::uint64_t>> parameters;
    std::vector<Row> rows;
    std::vector<Ratio> ratios;
};

/// The report of @benchmark on @device, with the warm-up of @options and no rows yet.
Report start_report(std::string benchmark, const Device& device, std::string engine,
                    std::uint64_t iterations, const Options& options,
                    std::vector<std::pair<std::string, std::uint64_t>> parameters);

/// Summary in microseconds of samples in nanoseconds.
tooling::Summary summarize_us(std::vector<double> samples_ns);

/// Ratio of the means and of the medians of two rows.
Ratio ratio(std::string key, std::string label, const Row& numerator, const Row& denominator);

/// @s as JSON: count, mean_us, p50_us, p99_us, min_us, max_us.
tooling::Json summary_json(const tooling::Summary& s);

/// Prints the report as a table, or JSON with --json.
void print(const Report& report, bool json);

/// The engine a benchmark submits to: --engine, else the first compute engine, else the first.
Engine pick_engine(const Device& device, const Options& options);

/// The cheapest DRM ioctl: DRM_IOCTL_VERSION with zero-length buffers. Throws tempo::Error.
void null_ioctl(const Device& device);

} // namespace tempo::bench
