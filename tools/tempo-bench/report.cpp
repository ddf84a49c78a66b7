// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 */
#include <cerrno>
#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <utility>

#include <sys/ioctl.h>

#include <drm.h>

#include "bench.hpp"

namespace tempo::bench {

Report start_report(std::string benchmark, const Device& device, std::string engine,
                    std::uint64_t iterations, const Options& options,
                    std::vector<std::pair<std::string, std::uint64_t>> parameters)
{
    return Report{
        .benchmark = std::move(benchmark),
        .device = device.path(),
        .engine = std::move(engine),
        .iterations = iterations,
        .warmup = options.warmup,
        .parameters = std::move(parameters),
        .rows = {},
        .ratios = {},
    };
}

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

void null_ioctl(const Device& device)
{
    drm_version version{};
    if (::ioctl(device.fd(), DRM_IOCTL_VERSION, &version) != 0)
        throw Error(errno, "DRM_IOCTL_VERSION", "null ioctl");
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

tooling::Json summary_json(const tooling::Summary& s)
{
    return {{"count", s.count},
            {"mean_us", tooling::number(s.mean)},
            {"p50_us", tooling::number(s.p50)},
            {"p99_us", tooling::number(s.p99)},
            {"min_us", tooling::number(s.min)},
            {"max_us", tooling::number(s.max)}};
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
            std::printf("%-40s %9.2fx %9.2fx\n", r.label.c_str(), r.mean, r.p50);
    }
}

tooling::Json report_json(const Report& report)
{
    tooling::Json j = {{"benchmark", report.benchmark},
                       {"device", report.device},
                       {"engine", report.engine},
                       {"iterations", report.iterations},
                       {"warmup", report.warmup}};
    for (const auto& [key, value] : report.parameters)
        j[key] = value;
    tooling::Json results = tooling::Json::object();
    for (const Row& row : report.rows) {
        results[row.key] = {{"label", row.label}};
        results[row.key].update(summary_json(row.summary));
    }
    tooling::Json ratios = tooling::Json::object();
    for (const Ratio& r : report.ratios)
        ratios[r.key] = {
            {"label", r.label}, {"mean", tooling::number(r.mean)}, {"p50", tooling::number(r.p50)}};
    j["results"] = std::move(results);
    j["ratios"] = std::move(ratios);
    return j;
}

} // namespace

void print(const Report& report, bool json)
{
    if (json)
        tooling::print(report_json(report));
    else
        print_table(report);
    std::cout.flush();
    std::fflush(stdout);
}

} // namespace tempo::bench
