// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * tempo-bench: micro-benchmarks of the tempo driver, one subcommand each.
 * A new benchmark is a function taking the common Options and an entry in
 * the commands() table.
 */
#include <algorithm>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <string>
#include <string_view>

#include "bench.hpp"
#include "tempo-tooling/options.hpp"

namespace tempo::bench {

namespace {

constexpr Command command_table[] = {
    {"nop", "idle NOP round trip and submit cost, against a null ioctl and syncobj ioctls",
     run_nop},
    {"latency", "NOP and 1-group dispatch round trips, idle and saturated, NORMAL and HIGH",
     run_latency},
    {"parallel",
     "N batches as one exec on a parallel slot against N execs: submit cost, start skew",
     run_parallel},
};

void usage(std::ostream& out)
{
    out << "Usage: tempo-bench COMMAND [OPTIONS]\n\nCommands:\n";
    for (const Command& c : commands())
        out << "  " << c.name << std::string(10 - std::min<std::size_t>(c.name.size(), 9), ' ')
            << c.summary << "\n";
    out << R"(
Options:
  --iterations N   measured iterations of each measurement (default 1000)
  --warmup N       unmeasured iterations first (default 100)
  --engine E       engine to submit to: CLASS[:INSTANCE], CLASS one of gfx,
                   compute, copy (default compute:0); parallel: its class
                   (default: the first class with parallel slots and N engines)
  --width N        parallel: batches per gang (default 2)
  --burst N        submissions between waits in "submit only" (default: the
                   ring size)
  --samples N      latency: samples of each row (default 300)
  --load-ms MS     latency: duration of each load job (default 20)
  --gap-us US      latency: mean pause between two probes (default 1000)
  --hist FILE      latency: write the latency distributions as an SVG picture
  --json           print JSON instead of a table
  --device PATH    the DRM render node (default: $TEMPO_DEVICE, else the
                   first render node driven by tempo)
  -h, --help       this text

Times are in microseconds; p50 and p99 are nearest-rank percentiles.
Exit status: 0, 1 on a device or job error, 2 for a usage error.
)";
}

Options parse(int argc, char** argv, int first)
{
    using tooling::option_value;
    using tooling::parse_count;
    Options options;
    for (int i = first; i < argc; i++) {
        const std::string_view arg{argv[i]};
        if (arg == "-h" || arg == "--help") {
            usage(std::cout);
            std::exit(0);
        } else if (arg == "--json") {
            options.json = true;
        } else if (auto v = option_value(argc, argv, i, "--iterations")) {
            options.iterations = parse_count("--iterations", *v);
            if (options.iterations == 0)
                throw tooling::UsageError("--iterations must be at least 1");
        } else if (auto w = option_value(argc, argv, i, "--warmup")) {
            options.warmup = parse_count("--warmup", *w);
        } else if (auto n = option_value(argc, argv, i, "--samples")) {
            options.samples = parse_count("--samples", *n);
            if (options.samples == 0)
                throw tooling::UsageError("--samples must be at least 1");
        } else if (auto l = option_value(argc, argv, i, "--load-ms")) {
            options.load_ms = parse_count("--load-ms", *l);
        } else if (auto g = option_value(argc, argv, i, "--gap-us")) {
            options.gap_us = parse_count("--gap-us", *g);
        } else if (auto wd = option_value(argc, argv, i, "--width")) {
            const auto width = parse_count("--width", *wd);
            if (width < 2 || width > 64)
                throw tooling::UsageError("--width must be 2..64");
            options.width = static_cast<std::uint32_t>(width);
        } else if (auto h = option_value(argc, argv, i, "--hist")) {
            options.hist = std::string{*h};
        } else if (auto b = option_value(argc, argv, i, "--burst")) {
            options.burst = parse_count("--burst", *b);
        } else if (auto e = option_value(argc, argv, i, "--engine")) {
            options.engine = parse_engine(*e);
            if (!options.engine)
                throw tooling::UsageError("--engine: not an engine: " + std::string{*e});
        } else if (auto d = option_value(argc, argv, i, "--device")) {
            options.device = std::string{*d};
        } else {
            throw tooling::UsageError("unknown argument: " + std::string{arg});
        }
    }
    return options;
}

} // namespace

std::span<const Command> commands()
{
    return command_table;
}

} // namespace tempo::bench

int main(int argc, char** argv)
{
    using namespace tempo::bench;
    const Command* command = nullptr;
    Options options;
    try {
        if (argc < 2)
            throw tempo::tooling::UsageError("no command");
        const std::string_view name{argv[1]};
        if (name == "-h" || name == "--help") {
            usage(std::cout);
            return 0;
        }
        for (const Command& c : commands())
            if (c.name == name)
                command = &c;
        if (!command)
            throw tempo::tooling::UsageError("unknown command: " + std::string{name});
        options = parse(argc, argv, 2);
    } catch (const tempo::tooling::UsageError& e) {
        std::cerr << "tempo-bench: " << e.what() << "\n\n";
        usage(std::cerr);
        return 2;
    }
    try {
        return command->run(options);
    } catch (const std::exception& e) {
        std::cerr << "tempo-bench " << command->name << ": " << e.what() << "\n";
        return 1;
    }
}
