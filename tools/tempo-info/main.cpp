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
#include <cstdlib>
#include <exception>
#include <iostream>
#include <string>
#include <string_view>

#include <tempo/tempo.hpp>

#include "tempo-tooling/json.hpp"
#include "tempo-tooling/options.hpp"

namespace {

using tempo::tooling::UsageError;

constexpr std::string_view usage_text = R"(Usage: tempo-info [OPTIONS]

Print the tempo device: its engines by class and instance with their
hardware queues (pipe and queue priorities), compute units, limits,
the engine classes with parallel slots, timestamp frequency and the
caller's priority ceiling.

Options:
  --json           print JSON instead of text
  --device PATH    the DRM render node (default: $TEMPO_DEVICE, else the
                   first render node driven by tempo)
  -h, --help       this text

Exit status: 0, 1 when the device cannot be opened or queried, 2 for a
usage error.
)";

struct Options {
    bool json = false;
    std::string device;
};

Options parse(int argc, char** argv)
{
    Options options;
    for (int i = 1; i < argc; i++) {
        const std::string_view arg{argv[i]};
        if (arg == "-h" || arg == "--help") {
            std::cout << usage_text;
            std::exit(0);
        } else if (arg == "--json") {
            options.json = true;
        } else if (auto path = tempo::tooling::option_value(argc, argv, i, "--device")) {
            options.device = std::string{*path};
        } else {
            throw UsageError("unknown argument: " + std::string{arg});
        }
    }
    return options;
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

std::string class_summary(const tempo::Device& device)
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

/// The engine classes whose bit is set in @mask (DeviceInfo::parallel_classes).
std::string parallel_summary(std::uint32_t mask)
{
    std::string text;
    for (auto c :
         {tempo::EngineClass::Gfx, tempo::EngineClass::Compute, tempo::EngineClass::Copy}) {
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

void print_text(const tempo::Device& device)
{
    const auto& info = device.info();
    const auto& v = device.driver_version();
    std::printf("tempo device %s\n", device.path().c_str());
    std::string driver = v.name + " " + version_of(v);
    if (!v.date.empty() && v.date != "0")
        driver += " (" + v.date + ")";
    std::printf("  driver               %s, %s\n", driver.c_str(), v.description.c_str());
    std::printf("  engines              %u: %s\n", info.num_engines, class_summary(device).c_str());
    std::printf("  hardware queues      %u\n", info.num_hqds);
    std::printf("  compute units        %u\n", info.num_cus);
    std::printf("  timestamp frequency  %" PRIu64 " Hz\n", info.timestamp_frequency);
    std::printf("  GPU address space    %s .. %s\n", hex(info.va_start.value()).c_str(),
                hex(info.va_end.value()).c_str());
    std::printf("  priority ceiling     %s\n", describe_priority(info.max_priority).c_str());
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

void print_json(const tempo::Device& device)
{
    const auto& info = device.info();
    const auto& v = device.driver_version();
    tempo::tooling::JsonWriter j(std::cout);
    j.begin_object();
    j.field("path", device.path());
    j.key("driver").begin_object();
    j.field("name", v.name);
    j.field("version", version_of(v));
    j.field("date", v.date);
    j.field("description", v.description);
    j.end_object();
    j.field("num_engines", info.num_engines);
    j.field("num_hqds", info.num_hqds);
    j.field("num_cus", info.num_cus);
    j.field("timestamp_frequency", info.timestamp_frequency);
    j.field("va_start", info.va_start.value());
    j.field("va_end", info.va_end.value());
    j.key("max_priority").begin_object();
    j.field("name", tempo::to_string(info.max_priority));
    j.field("value", tempo::to_uapi(info.max_priority));
    j.end_object();
    j.key("limits").begin_object();
    j.field("max_batches", info.max_batches);
    j.field("max_syncs", info.max_syncs);
    j.field("max_batch_depth", info.max_batch_depth);
    j.field("max_slots", info.max_slots);
    j.field("ring_size", info.ring_size);
    j.field("max_packet_dwords", info.max_packet_dwords);
    j.field("max_groups", info.max_groups);
    j.field("job_timeout_ms", static_cast<std::int64_t>(info.job_timeout.count()));
    j.field("max_siblings", info.max_siblings);
    j.end_object();
    j.field("parallel_classes", info.parallel_classes);
    j.key("parallel_class_names").begin_array();
    for (auto c : {tempo::EngineClass::Gfx, tempo::EngineClass::Compute, tempo::EngineClass::Copy})
        if (info.supports_parallel(c))
            j.value(tempo::to_string(c));
    j.end_array();
    j.key("engines").begin_array();
    for (const auto& engine : device.engines()) {
        j.begin_object();
        j.field("name", tempo::to_string(engine.engine));
        j.field("class", tempo::to_string(engine.engine.engine_class));
        j.field("instance", engine.engine.instance);
        j.field("first_hqd", engine.first_hqd);
        j.field("num_hqds", engine.num_hqds);
        j.key("hqds").begin_array();
        for (const auto& hqd : device.hqds(engine)) {
            j.begin_object();
            j.field("queue", hqd.queue);
            j.field("pipe_priority", hqd.pipe_priority);
            j.field("queue_priority", hqd.queue_priority);
            j.end_object();
        }
        j.end_array();
        j.end_object();
    }
    j.end_array();
    j.end_object();
}

} // namespace

int main(int argc, char** argv)
{
    Options options;
    try {
        options = parse(argc, argv);
    } catch (const UsageError& e) {
        std::cerr << "tempo-info: " << e.what() << "\n\n" << usage_text;
        return 2;
    }
    try {
        const tempo::Device device = tempo::tooling::open_device(options.device);
        if (options.json)
            print_json(device);
        else
            print_text(device);
        std::cout.flush();
        return std::cout ? 0 : 1;
    } catch (const std::exception& e) {
        std::cerr << "tempo-info: " << e.what() << "\n";
        return 1;
    }
}
