// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * tempo-info: what the tempo device is (engines and their hardware queues,
 * compute units, limits, timestamp frequency, the caller's priority
 * ceiling), as text or as JSON.
 */
#include <cinttypes>
#include <cstdio>
#include <iostream>
#include <string>

#include <tempo/tempo.hpp>

#include "tempo-tooling/cli.hpp"
#include "tempo-tooling/device.hpp"
#include "tempo-tooling/json.hpp"

namespace {

using tempo::tooling::Json;

constexpr const char* about =
    R"(Print the tempo device: its engines by class and instance with their
hardware queues (pipe and queue priorities), compute units, limits,
the engine classes with parallel slots, timestamp frequency and the
caller's priority ceiling.)";

constexpr const char* footer =
    R"(Exit status: 0, 1 when the device cannot be opened or queried, 2 for a
usage error.)";

struct Options {
    bool json = false;
    std::string device;
};

void add_options(CLI::App& app, Options& options)
{
    tempo::tooling::setup(app);
    app.footer(footer);
    app.add_flag("--json", options.json, "print JSON instead of text");
    tempo::tooling::add_device(app, options.device);
}

std::string version_of(const tempo::DriverVersion& v)
{
    return std::to_string(v.major) + "." + std::to_string(v.minor) + "." + std::to_string(v.patch);
}

std::string hex(std::uint64_t value)
{
    char buf[32];
    std::snprintf(buf, sizeof(buf), "0x%012" PRIx64, value);
    return buf;
}

/// The engine classes whose bit is set in @mask (DeviceInfo::parallel_classes).
std::string parallel_summary(std::uint32_t mask)
{
    std::string text;
    for (const auto c : tempo::tooling::engine_classes) {
        if ((mask >> static_cast<unsigned>(c) & 1U) == 0)
            continue;
        if (!text.empty())
            text += ", ";
        text += tempo::to_string(c);
    }
    return text.empty() ? "none" : text;
}

std::string describe_priority(tempo::Priority p)
{
    return tempo::to_string(p) + " (" + std::to_string(tempo::to_uapi(p)) + ")";
}

void print_device_text(const tempo::Device& device)
{
    const auto& info = device.info();
    const auto& v = device.driver_version();
    std::printf("tempo device %s\n", device.path().c_str());
    std::string driver = v.name + " " + version_of(v);
    if (!v.date.empty() && v.date != "0")
        driver += " (" + v.date + ")";
    std::printf("  driver               %s, %s\n", driver.c_str(), v.description.c_str());
    std::printf("  engines              %u: %s\n", info.num_engines,
                tempo::tooling::class_counts(device).c_str());
    std::printf("  hardware queues      %u\n", info.num_hqds);
    std::printf("  compute units        %u\n", info.num_cus);
    std::printf("  timestamp frequency  %" PRIu64 " Hz\n", info.timestamp_frequency);
    std::printf("  GPU address space    %s .. %s\n", hex(info.va_start.value()).c_str(),
                hex(info.va_end.value()).c_str());
    std::printf("  priority ceiling     %s\n", describe_priority(info.max_priority).c_str());
}

void print_limits_text(const tempo::DeviceInfo& info)
{
    std::printf("limits\n");
    std::printf("  batches per exec     %u\n", info.max_batches);
    std::printf("  syncs per exec       %u (in and out, each)\n", info.max_syncs);
    std::printf("  batch depth          %u\n", info.max_batch_depth);
    std::printf("  engine map slots     %u\n", info.max_slots);
    std::printf("  ring size            %u jobs per queue\n", info.ring_size);
    std::printf("  packet length        %u dwords\n", info.max_packet_dwords);
    std::printf("  workgroups           %u per dispatch\n", info.max_groups);
    std::printf("  job timeout          %lld ms\n",
                static_cast<long long>(info.job_timeout.count()));
    std::printf("  siblings per slot    %u\n", info.max_siblings);
    std::printf("parallel slots         %s (mask 0x%x)\n",
                parallel_summary(info.parallel_classes).c_str(), info.parallel_classes);
}

void print_engines_text(const tempo::Device& device)
{
    std::printf("engines\n");
    for (const auto& engine : device.engines()) {
        std::printf("  %-12s %u hardware queue%s (hqd %u..%u)\n",
                    tempo::to_string(engine.engine).c_str(), engine.num_hqds,
                    engine.num_hqds == 1 ? "" : "s", engine.first_hqd,
                    engine.first_hqd + engine.num_hqds - 1U);
        for (const auto& hqd : device.hqds(engine))
            std::printf("    queue %-2u pipe priority %u, queue priority %2u\n", hqd.queue,
                        hqd.pipe_priority, hqd.queue_priority);
    }
}

Json driver_json(const tempo::DriverVersion& v)
{
    return {{"name", v.name},
            {"version", version_of(v)},
            {"date", v.date},
            {"description", v.description}};
}

Json limits_json(const tempo::DeviceInfo& info)
{
    return {{"max_batches", info.max_batches},
            {"max_syncs", info.max_syncs},
            {"max_batch_depth", info.max_batch_depth},
            {"max_slots", info.max_slots},
            {"ring_size", info.ring_size},
            {"max_packet_dwords", info.max_packet_dwords},
            {"max_groups", info.max_groups},
            {"job_timeout_ms", static_cast<std::int64_t>(info.job_timeout.count())},
            {"max_siblings", info.max_siblings}};
}

Json engines_json(const tempo::Device& device)
{
    Json engines = Json::array();
    for (const auto& engine : device.engines()) {
        Json hqds = Json::array();
        for (const auto& hqd : device.hqds(engine))
            hqds.push_back({{"queue", hqd.queue},
                            {"pipe_priority", hqd.pipe_priority},
                            {"queue_priority", hqd.queue_priority}});
        engines.push_back({{"name", tempo::to_string(engine.engine)},
                           {"class", tempo::to_string(engine.engine.engine_class)},
                           {"instance", engine.engine.instance},
                           {"first_hqd", engine.first_hqd},
                           {"num_hqds", engine.num_hqds},
                           {"hqds", std::move(hqds)}});
    }
    return engines;
}

Json device_json(const tempo::Device& device)
{
    const auto& info = device.info();
    Json parallel_names = Json::array();
    for (const auto c : tempo::tooling::engine_classes)
        if (info.supports_parallel(c))
            parallel_names.push_back(tempo::to_string(c));
    return {{"path", device.path()},
            {"driver", driver_json(device.driver_version())},
            {"num_engines", info.num_engines},
            {"num_hqds", info.num_hqds},
            {"num_cus", info.num_cus},
            {"timestamp_frequency", info.timestamp_frequency},
            {"va_start", info.va_start.value()},
            {"va_end", info.va_end.value()},
            {"max_priority",
             {{"name", tempo::to_string(info.max_priority)},
              {"value", tempo::to_uapi(info.max_priority)}}},
            {"limits", limits_json(info)},
            {"parallel_classes", info.parallel_classes},
            {"parallel_class_names", std::move(parallel_names)},
            {"engines", engines_json(device)}};
}

int print_device(const Options& options)
{
    const tempo::Device device = tempo::tooling::open_device(options.device);
    if (options.json) {
        tempo::tooling::print(device_json(device));
    } else {
        print_device_text(device);
        print_limits_text(device.info());
        print_engines_text(device);
    }
    std::fflush(stdout);
    std::cout.flush();
    return std::cout && !std::ferror(stdout) ? 0 : 1;
}

} // namespace

int main(int argc, char** argv)
{
    return tempo::tooling::tool_main<Options>(argc, argv, about, "tempo-info", add_options,
                                              print_device);
}
