// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 */
#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <utility>

#include "bench.hpp"
#include "tempo-tooling/json.hpp"

namespace tempo::bench {

tooling::Summary summarize_us(std::vector<double> samples_ns)
{
    for (double& sample : samples_ns)
        sample /= 1000.0;
    return tooling::summarize(std::move(samples_ns));
}

Ratio ratio(std::string key, std::string label, const Row& numerator, const Row& denominator)
{
    const auto divide = [](double a, double b) { return b > 0 ? a / b : 0.0; };
    return Ratio{
        .key = std::move(key),
        .label = std::move(label),
        .mean = divide(numerator.summary.mean, denominator.summary.mean),
        .p50 = divide(numerator.summary.p50, denominator.summary.p50),
    };
}

Engine pick_engine(const Device& device, const Options& options)
{
    if (options.engine) {
        if (!device.find_engine(*options.engine))
            throw std::runtime_error("the device has no engine " + to_string(*options.engine));
        return *options.engine;
    }
    if (const auto compute = device.find_engine({EngineClass::Compute, 0}))
        return compute->engine;
    if (device.engines().empty())
        throw std::runtime_error("the device has no engine");
    return device.engines().front().engine;
}

namespace {

void print_table(const Report& report)
{
    std::printf("tempo-bench %s: %llu iterations after %llu warm-up, engine %s, device %s\n",
                report.benchmark.c_str(), static_cast<unsigned long long>(report.iterations),
                static_cast<unsigned long long>(report.warmup), report.engine.c_str(),
                report.device.c_str());
    for (const auto& [key, value] : report.parameters)
        std::printf("  %s: %llu\n", key.c_str(), static_cast<unsigned long long>(value));
    std::printf("\n%-40s %10s %10s %10s %10s %10s\n", "measurement", "mean_us", "p50_us", "p99_us",
                "min_us", "max_us");
    for (const Row& row : report.rows)
        std::printf("%-40s %10.3f %10.3f %10.3f %10.3f %10.3f\n", row.label.c_str(),
                    row.summary.mean, row.summary.p50, row.summary.p99, row.summary.min,
                    row.summary.max);
    if (!report.ratios.empty()) {
        std::printf("\n%-40s %10s %10s\n", "ratio", "mean", "p50");
        for (const Ratio& r : report.ratios)
            std::printf("%-40s %9.1fx %9.1fx\n", r.label.c_str(), r.mean, r.p50);
    }
}

void print_json(const Report& report)
{
    tooling::JsonWriter j(std::cout);
    j.begin_object();
    j.field("benchmark", report.benchmark);
    j.field("device", report.device);
    j.field("engine", report.engine);
    j.field("iterations", report.iterations);
    j.field("warmup", report.warmup);
    for (const auto& [key, value] : report.parameters)
        j.field(key, value);
    j.key("results").begin_object();
    for (const Row& row : report.rows) {
        j.key(row.key).begin_object();
        j.field("label", row.label);
        j.field("count", row.summary.count);
        j.field("mean_us", row.summary.mean);
        j.field("p50_us", row.summary.p50);
        j.field("p99_us", row.summary.p99);
        j.field("min_us", row.summary.min);
        j.field("max_us", row.summary.max);
        j.end_object();
    }
    j.end_object();
    j.key("ratios").begin_object();
    for (const Ratio& r : report.ratios) {
        j.key(r.key).begin_object();
        j.field("label", r.label);
        j.field("mean", r.mean);
        j.field("p50", r.p50);
        j.end_object();
    }
    j.end_object();
    j.end_object();
}

} // namespace

void print(const Report& report, bool json)
{
    if (json)
        print_json(report);
    else
        print_table(report);
    std::cout.flush();
    std::fflush(stdout);
}

} // namespace tempo::bench
