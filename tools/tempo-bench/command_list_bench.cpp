// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * tempo-command-list-bench: the cost of command lists, queues and batching
 * on the tempo device, with Google Benchmark. One run prints every figure,
 * then a summary with the ratios the project tracks:
 *
 * - SubmitKernel: per iteration, 10 single-workgroup dispatches, each with
 *   its own arguments, on the immediate queue (10 execs) and on the batched
 *   queue (one batch). "submit" times the 10 appends and, for the batched
 *   queue, the flush that submits them (the wait for completion follows,
 *   untimed); "submit-held" is the same while an untimed WAIT_MEM gate
 *   holds the queue, so that the emulated GPU, whose threads run on the
 *   CPUs of the benchmark, does not compete with the submission; "wait"
 *   also times the wait for completion. Each is reported as wall time and
 *   as the CPU time of the submitting thread (which leaves out the time the
 *   thread waits for the CPUs). The figures per submit are per dispatch.
 *   The bar: batched per-submit cost at most half the immediate one,
 *   median against median (counters p50_us and thread_cpu_p50_us; Google
 *   Benchmark's own time is a mean, which the host's tail dominates). As
 *   root, each is measured again with the module parameter floor set
 *   ("/floor"): run_job ends every job at once and the emulated GPU runs
 *   nothing, so what is left is the library, the ioctls and drm_sched.
 * - Clone vs re-record of 10, 100 and 1,000 commands. The bar: cloning 1,000
 *   commands costs at most 10% of recording and closing them again.
 * - Visit: the cost per command of visiting a 1,000-command list (default
 *   operation ignore, re-append, and a concrete visitor).
 *
 *   tools/vm/run -- build/cmake/tools/tempo-bench/tempo-command-list-bench
 *
 * Google Benchmark's options apply (--help, --benchmark_filter,
 * --benchmark_min_time, --benchmark_format=json, ...), and --version.
 */
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <benchmark/benchmark.h>

#include <tempo/tempo.hpp>
#include <tempo/version.hpp>

#include "tempo-tooling/device.hpp"
#include "tempo-tooling/stats.hpp"
#include "tempo-tooling/timing.hpp"

namespace {

using Clock = std::chrono::steady_clock;

struct Setup {
    std::optional<tempo::Device> device;
    std::shared_ptr<tempo::DeviceSubmitter> submitter;
    std::optional<tempo::Buffer> data;
};

Setup& setup()
{
    static Setup s;
    return s;
}

tempo::GpuAddress data_address(std::uint64_t offset)
{
    return setup().data->gpu_address(offset);
}

double seconds(Clock::duration d)
{
    return std::chrono::duration<double>(d).count();
}

/// CPU time of the calling thread, in seconds (user and kernel, ioctls included).
double thread_cpu_seconds()
{
    return tempo::tooling::thread_cpu_ns() * 1e-9;
}

// ---------------------------------------------------------------------------
// SubmitKernel

constexpr int kernels_per_iteration = 10;

void append_kernels(tempo::CommandSink& sink, std::uint64_t iteration)
{
    // Each dispatch with its argument set: its own counter and count.
    for (int k = 0; k < kernels_per_iteration; k++)
        sink.append_dispatch_atomic_inc(
            {.x = 1, .y = 1, .z = 1}, data_address(8 * static_cast<std::uint64_t>(k)),
            static_cast<std::uint32_t>(1 + (iteration + static_cast<std::uint64_t>(k)) % 7));
}

/// What a SubmitKernel iteration times.
enum class Mode {
    /// The submission, the GPU running the commands as they come.
    Submit,
    /// The submission, with the queue held by a WAIT_MEM gate submitted
    /// (untimed) before, so that the emulated GPU, whose threads share the
    /// CPUs with the benchmark, runs nothing during the timing.
    SubmitHeld,
    /// The submission and the wait for completion.
    Wait,
};

constexpr std::pair<Mode, const char*> submit_modes[] = {
    {Mode::Submit, "submit"},
    {Mode::SubmitHeld, "submit-held"},
    {Mode::Wait, "wait"},
};

/// The flag of the gate (Mode::SubmitHeld), in the data buffer.
constexpr std::uint64_t gate_offset = 4096;

/// Times one SubmitKernel iteration: @submit, then the wait (Mode::Wait).
template <typename Queue, typename Submit>
void submit_kernel(benchmark::State& state, Queue& queue, Mode mode, Submit&& submit)
{
    tempo::Buffer& data = *setup().data;
    std::uint64_t iteration = 0;
    std::vector<double> wall_samples;
    std::vector<double> cpu_samples;
    wall_samples.reserve(static_cast<std::size_t>(state.max_iterations));
    cpu_samples.reserve(static_cast<std::size_t>(state.max_iterations));
    for (auto _ : state) {
        if (mode == Mode::SubmitHeld) {
            data.write<std::uint64_t>(gate_offset, 0);
            queue.append_wait_mem(data_address(gate_offset), tempo::Compare::Eq, 1);
            if constexpr (std::is_same_v<Queue, tempo::BatchedQueue>)
                queue.flush();
        }
        const auto start = Clock::now();
        const double cpu_start = thread_cpu_seconds();
        submit(iteration++);
        if (mode == Mode::Wait)
            queue.finish();
        const double cpu_spent = thread_cpu_seconds() - cpu_start;
        const double wall_spent = seconds(Clock::now() - start);
        state.SetIterationTime(wall_spent);
        wall_samples.push_back(wall_spent * 1e6);
        cpu_samples.push_back(cpu_spent * 1e6);
        if (mode == Mode::SubmitHeld)
            data.write<std::uint64_t>(gate_offset, 1);
        if (mode != Mode::Wait)
            queue.finish();
    }
    const tempo::tooling::Summary cpu = tempo::tooling::summarize(std::move(cpu_samples));
    state.counters["kernels"] = benchmark::Counter(kernels_per_iteration);
    // The submitting thread's CPU time per iteration, in microseconds: what
    // the submission costs the application, without the time its thread
    // waits while the emulated GPU's threads take the CPUs.
    state.counters["thread_cpu_us"] = cpu.mean;
    // Medians per iteration, which the summary compares: Google Benchmark's
    // time is a mean, which the host's tail (milliseconds under emulation)
    // dominates.
    state.counters["p50_us"] = tempo::tooling::summarize(std::move(wall_samples)).p50;
    state.counters["thread_cpu_p50_us"] = cpu.p50;
}

/// SubmitKernel with the floor set: nothing runs on the emulated GPU.
template <void (*Run)(benchmark::State&, Mode)>
void on_floor(benchmark::State& state, Mode mode)
{
    const auto floor = tempo::tooling::ModuleSwitch::enter("floor", true);
    if (!floor) {
        state.SkipWithError("the module parameter floor cannot be set");
        return;
    }
    Run(state, mode);
}

void submit_kernel_immediate(benchmark::State& state, Mode mode)
{
    tempo::Queue queue(setup().submitter, tempo::Slot{0});
    submit_kernel(state, queue, mode,
                  [&](std::uint64_t iteration) { append_kernels(queue, iteration); });
}

void submit_kernel_batched(benchmark::State& state, Mode mode)
{
    tempo::BatchedQueue queue(setup().submitter, tempo::Slot{0});
    submit_kernel(state, queue, mode, [&](std::uint64_t iteration) {
        append_kernels(queue, iteration);
        // The 10 kernels reach the kernel driver: the flush is part of the cost.
        if (mode != Mode::Wait)
            queue.flush();
    });
}

// ---------------------------------------------------------------------------
// Clone vs re-record

/// A mix of commands, mostly dispatches with their own arguments.
void record_commands(tempo::CommandSink& sink, std::int64_t count)
{
    for (std::int64_t i = 0; i < count; i++) {
        const auto n = static_cast<std::uint64_t>(i);
        switch (n % 4) {
        case 0:
        case 1:
            sink.append_dispatch_atomic_inc({.x = 1 + static_cast<std::uint32_t>(n % 3)},
                                            data_address(8 * (n % 64)), 1);
            break;
        case 2:
            sink.append_dispatch_fill({.x = 2}, data_address(2048), static_cast<std::uint32_t>(n),
                                      64);
            break;
        default:
            sink.append_write(data_address(1024 + 4 * (n % 64)), static_cast<std::uint32_t>(n));
            break;
        }
    }
}

void rerecord_list(benchmark::State& state, std::int64_t commands)
{
    for (auto _ : state) {
        tempo::CommandList list(setup().submitter, {.cloneable = true});
        record_commands(list, commands);
        list.close();
        benchmark::DoNotOptimize(list);
    }
}

void clone_list(benchmark::State& state, std::int64_t commands)
{
    tempo::CommandList source(setup().submitter, {.cloneable = true});
    record_commands(source, commands);
    source.close();
    for (auto _ : state) {
        tempo::CommandList copy = source.clone();
        benchmark::DoNotOptimize(copy);
    }
}

// ---------------------------------------------------------------------------
// Visit

constexpr std::int64_t visited_commands = 1000;

tempo::CommandList& visited_list()
{
    static tempo::CommandList list = [] {
        tempo::CommandList l(setup().submitter);
        record_commands(l, visited_commands);
        l.close();
        return l;
    }();
    return list;
}

void visit_ignore(benchmark::State& state)
{
    std::uint64_t seen = 0;
    const tempo::VisitOptions options{
        .default_op = tempo::VisitDefault::Ignore,
        .before = [&](const tempo::VisitedCommand&, tempo::VisitSync&) { seen++; },
    };
    for (auto _ : state)
        visited_list().visit(options);
    benchmark::DoNotOptimize(seen);
}

void visit_reappend(benchmark::State& state)
{
    for (auto _ : state) {
        tempo::CommandList target(setup().submitter);
        visited_list().visit({.default_op = tempo::VisitDefault::Reappend, .target = &target});
        benchmark::DoNotOptimize(target);
    }
}

void visit_concrete(benchmark::State& state)
{
    std::uint64_t groups = 0;
    for (auto _ : state)
        visited_list().visit({}, [&](const tempo::cmd::Dispatch& d, const tempo::VisitedCommand&) {
            groups += d.groups.x;
        });
    benchmark::DoNotOptimize(groups);
}

// ---------------------------------------------------------------------------
// Summary

/// Prints as the console reporter does and keeps each run's time in
/// microseconds and its counters.
class Collector : public benchmark::ConsoleReporter {
public:
    void ReportRuns(const std::vector<Run>& runs) override
    {
        for (const Run& run : runs) {
            if (run.run_type != Run::RT_Iteration || run.error_occurred)
                continue;
            const std::string& name = run.run_name.function_name;
            times_[name] = to_us(run);
            for (const auto& [key, counter] : run.counters)
                counters_[name][key] = counter.value;
        }
        ConsoleReporter::ReportRuns(runs);
    }

    /// The mean time of an iteration of @name.
    [[nodiscard]] double us(const std::string& name) const
    {
        const auto it = times_.find(name);
        return it == times_.end() ? 0.0 : it->second;
    }
    /// The counter @key of @name; 0 where either is missing.
    [[nodiscard]] double counter(const std::string& name, const std::string& key) const
    {
        const auto run = counters_.find(name);
        if (run == counters_.end())
            return 0.0;
        const auto it = run->second.find(key);
        return it == run->second.end() ? 0.0 : it->second;
    }

private:
    static double to_us(const Run& run)
    {
        return run.GetAdjustedRealTime() / benchmark::GetTimeUnitMultiplier(run.time_unit) * 1e6;
    }

    std::map<std::string, double> times_;
    std::map<std::string, std::map<std::string, double>> counters_;
};

double ratio(double a, double b)
{
    return b > 0 ? a / b : 0.0;
}

/// SubmitKernel's per-submit rows of one measure (wall or CPU time) and
/// one variant ("" or "/floor"); nothing where the variant did not run.
template <typename Measure>
void print_submit_rows(const char* title, std::string_view variant, Measure&& measure)
{
    const auto per_submit = [&](const char* queue, const char* mode) {
        return measure("SubmitKernel/" + std::string{queue} + "/" + mode + std::string{variant}) /
               kernels_per_iteration;
    };
    if (per_submit("immediate", "submit") <= 0)
        return;
    std::printf(" %s\n", title);
    for (const auto& [unused, mode] : submit_modes) {
        const double imm = per_submit("immediate", mode);
        const double bat = per_submit("batched", mode);
        std::printf("  %-24s %9.2f  %9.2f   %6.3f  %s\n", mode, imm, bat, ratio(bat, imm),
                    ratio(bat, imm) <= 0.5 ? "meets the bar" : "MISSES the bar");
    }
}

/// Clone against re-record, at 10, 100 and 1,000 commands.
void print_clone_rows(const Collector& c)
{
    std::printf("\nClone vs re-record          clone  re-record   clone/re-record (bar <= 10%% at "
                "1000)\n");
    for (const int n : {10, 100, 1000}) {
        const double cl = c.us("Clone/" + std::to_string(n));
        const double rr = c.us("Rerecord/" + std::to_string(n));
        std::printf(
            "  %5d commands       %9.3f  %9.2f   %6.2f%%%s\n", n, cl, rr, 100.0 * ratio(cl, rr),
            n == 1000 ? (ratio(cl, rr) <= 0.1 ? "  meets the bar" : "  MISSES the bar") : "");
    }
}

/// The visit of the 1,000-command list, per command.
void print_visit_row(const Collector& c)
{
    std::printf("\nVisit of %lld commands, per command (ns): ignore %.1f, re-append %.1f, concrete "
                "visitor %.1f\n",
                static_cast<long long>(visited_commands),
                c.us("Visit/ignore") * 1000.0 / visited_commands,
                c.us("Visit/reappend") * 1000.0 / visited_commands,
                c.us("Visit/concrete") * 1000.0 / visited_commands);
}

void print_summary(const Collector& c)
{
    std::printf("\nSummary (microseconds; per submit = per dispatch of SubmitKernel; SubmitKernel "
                "compares medians of iterations)\n\n");
    std::printf(
        "SubmitKernel, per submit   immediate    batched   batched/immediate (bar <= 0.50)\n");
    const auto wall = [&](const std::string& name) { return c.counter(name, "p50_us"); };
    const auto cpu = [&](const std::string& name) { return c.counter(name, "thread_cpu_p50_us"); };
    print_submit_rows("wall time", "", wall);
    print_submit_rows("CPU time of the submitting thread", "", cpu);
    print_submit_rows("wall time, floor (run_job ends each job at once)", "/floor", wall);
    print_submit_rows("CPU time of the submitting thread, floor", "/floor", cpu);
    // Sections whose benchmarks a filter left out print nothing.
    if (c.us("Clone/1000") > 0 && c.us("Rerecord/1000") > 0)
        print_clone_rows(c);
    if (c.us("Visit/ignore") > 0)
        print_visit_row(c);
}

/// Opens the device and the submitter of the benchmarks; false without a device.
bool open_device()
{
    Setup& s = setup();
    s.device = tempo::Device::try_open();
    if (!s.device)
        return false;
    tempo::Engine engine{tempo::EngineClass::Compute, 0};
    if (!s.device->find_engine(engine))
        engine = s.device->engines().front().engine;
    s.submitter = tempo::DeviceSubmitter::create(*s.device, std::span{&engine, 1});
    s.data.emplace(*s.device, 2 * 4096);
    return true;
}

/// SubmitKernel on both queues in every mode, named with @variant.
void register_submit_kernel(std::string_view variant, void (*immediate)(benchmark::State&, Mode),
                            void (*batched)(benchmark::State&, Mode))
{
    for (const auto& [mode, name] : submit_modes) {
        const std::string suffix = std::string{name} + std::string{variant};
        benchmark::RegisterBenchmark(("SubmitKernel/immediate/" + suffix).c_str(), immediate, mode)
            ->UseManualTime()
            ->Unit(benchmark::kMicrosecond);
        benchmark::RegisterBenchmark(("SubmitKernel/batched/" + suffix).c_str(), batched, mode)
            ->UseManualTime()
            ->Unit(benchmark::kMicrosecond);
    }
}

void register_benchmarks()
{
    register_submit_kernel("", submit_kernel_immediate, submit_kernel_batched);
    // The floor only where it can be set (root), as a switch left as it was.
    if (tempo::tooling::ModuleSwitch::enter("floor", false))
        register_submit_kernel("/floor", on_floor<submit_kernel_immediate>,
                               on_floor<submit_kernel_batched>);
    for (const int n : {10, 100, 1000}) {
        benchmark::RegisterBenchmark(("Rerecord/" + std::to_string(n)).c_str(), rerecord_list,
                                     std::int64_t{n})
            ->Unit(benchmark::kMicrosecond);
        benchmark::RegisterBenchmark(("Clone/" + std::to_string(n)).c_str(), clone_list,
                                     std::int64_t{n})
            ->Unit(benchmark::kMicrosecond);
    }
    benchmark::RegisterBenchmark("Visit/ignore", visit_ignore)->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark("Visit/reappend", visit_reappend)->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark("Visit/concrete", visit_concrete)->Unit(benchmark::kMicrosecond);
}

/// --version, which Google Benchmark does not know: true if given.
bool print_version(int argc, char** argv)
{
    for (int i = 1; i < argc; i++)
        if (std::string_view{argv[i]} == "--version") {
            std::printf("tempo-command-list-bench %s\n", tempo::version_string);
            return true;
        }
    return false;
}

} // namespace

int main(int argc, char** argv)
{
    if (print_version(argc, argv))
        return 0;
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 2;
    try {
        if (!open_device()) {
            std::fprintf(
                stderr,
                "tempo-command-list-bench: no tempo device (run it in the VM: "
                "tools/vm/run -- build/cmake/tools/tempo-bench/tempo-command-list-bench)\n");
            return 77;
        }
        register_benchmarks();
        Collector collector;
        benchmark::RunSpecifiedBenchmarks(&collector);
        print_summary(collector);
        benchmark::Shutdown();
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "tempo-command-list-bench: %s\n", e.what());
        return 1;
    }
}
