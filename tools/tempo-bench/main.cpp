// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * tempo-bench: micro-benchmarks of the tempo driver, one command each.
 * A new benchmark is a function taking the Options, a function adding the
 * options it takes, and an entry in the commands() table.
 */
#include <string>

#include "bench.hpp"
#include "tempo-tooling/cli.hpp"

namespace tempo::bench {

namespace {

constexpr const char* about = "Micro-benchmarks of the tempo driver, one command each.";

constexpr const char* footer =
    R"(Times are in microseconds; p50 and p99 are nearest-rank percentiles.
Counts take a k (x 1000) or M (x 1000000) suffix.
Exit status: 0, 1 on a device or job error, 2 for a usage error.)";

void add_engine(CLI::App& command, Options& options, const std::string& help)
{
    command
        .add_option_function<std::string>(
            "--engine",
            [&options](const std::string& text) {
                options.engine = parse_engine(text);
                if (!options.engine)
                    throw CLI::ValidationError("--engine", "not an engine: " + text);
            },
            help)
        ->type_name("E");
}

/// The options every command takes.
void add_common(CLI::App& command, Options& options)
{
    tooling::add_count(command, "--warmup", options.warmup,
                       "unmeasured iterations first (default 100)");
    command.add_flag("--json", options.json, "print JSON instead of a table");
    tooling::add_device(command, options.device);
}

void add_iterations(CLI::App& command, Options& options)
{
    tooling::add_count(command, "--iterations", options.iterations,
                       "measured iterations of each measurement (default 1000)", 1);
}

void add_nop_options(CLI::App& command, Options& options)
{
    add_iterations(command, options);
    add_engine(command, options,
               "engine to submit to: CLASS[:INSTANCE], CLASS one of\n"
               "gfx, compute, copy (default compute:0)");
    tooling::add_count(command, "--burst", options.burst,
                       "submissions between waits in \"submit only\"\n(default: the ring size)", 1);
    add_common(command, options);
}

void add_latency_options(CLI::App& command, Options& options)
{
    tooling::add_count(command, "--samples", options.samples, "samples of each row (default 300)",
                       1);
    tooling::add_count(command, "--load-ms", options.load_ms,
                       "duration of each load job, 1..400 (default 20)", 1, 400)
        ->type_name("MS");
    tooling::add_count(command, "--gap-us", options.gap_us,
                       "mean pause between two probes (default 1000)")
        ->type_name("US");
    add_engine(command, options, "the probes' engine: CLASS[:INSTANCE] (default\ncompute:0)");
    command
        .add_option("--hist", options.hist,
                    "write the latency distributions as PATH.dat and\n"
                    "PATH.gp, a gnuplot script that draws PATH.svg")
        ->type_name("PATH");
    add_common(command, options);
}

void add_parallel_options(CLI::App& command, Options& options)
{
    tooling::add_count(command, "--width", options.width, "batches per gang, 2..64 (default 2)", 2,
                       64);
    add_iterations(command, options);
    add_engine(command, options,
               "the engines' class (default: the first class with\n"
               "parallel slots and N engines)");
    add_common(command, options);
}

void add_scale_options(CLI::App& command, Options& options)
{
    tooling::add_count(command, "--rounds", options.rounds,
                       "bursts of each population and depth (default 3)", 1);
    tooling::add_count(command, "--files", options.files,
                       "files of 64 contexts in the largest population,\n1..64 (default 64)", 1,
                       64);
    tooling::add_count(command, "--contexts", options.contexts,
                       "most contexts in one file (default 1024, or the\nper-file limit)", 1);
    tooling::add_count(command, "--samples", options.samples,
                       "round trips of each population (default 300)", 1);
    add_engine(command, options, "engine to submit to: CLASS[:INSTANCE] (default\ncompute:0)");
    add_common(command, options);
}

constexpr Command command_table[] = {
    {"nop", "idle NOP round trip and submit cost, against a null ioctl and syncobj ioctls",
     add_nop_options, run_nop},
    {"latency", "NOP and 1-group dispatch round trips, idle and saturated, NORMAL and HIGH",
     add_latency_options, run_latency},
    {"parallel",
     "N batches as one exec on a parallel slot against N execs: submit cost, start skew",
     add_parallel_options, run_parallel},
    {"scale", "NOP cost per job from 1 context to many files of many, 1 to 64 jobs queued",
     add_scale_options, run_scale},
};

void add_commands(CLI::App& app, Options& options)
{
    tooling::setup(app);
    app.footer(footer);
    app.require_subcommand(1);
    for (const Command& c : commands()) {
        CLI::App& command = *app.add_subcommand(std::string{c.name}, std::string{c.summary});
        command.footer(footer);
        c.add_options(command, options);
    }
}

/// The command named on the command line.
const Command& chosen(const CLI::App& app)
{
    for (const Command& c : commands())
        if (app.got_subcommand(std::string{c.name}))
            return c;
    throw CLI::RequiredError("a command");
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
    Options options;
    CLI::App app{about, "tempo-bench"};
    add_commands(app, options);
    if (const auto status = tempo::tooling::parse(app, argc, argv))
        return *status;
    const Command& command = chosen(app);
    return tempo::tooling::run("tempo-bench " + std::string{command.name},
                               [&] { return command.run(options); });
}
