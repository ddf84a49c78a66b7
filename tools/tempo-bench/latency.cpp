// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * tempo-bench latency: round trip of a small job, from the submit ioctl to
 * its fence seen signalled (sync_file poll), on idle and on saturated
 * hardware, at normal and at high context priority. The test of the
 * high-priority scheduling RFC: a NOP submitted on busy hardware should be
 * as fast as one submitted on idle hardware.
 *
 * Probes, on one engine (--engine, default compute:0), each a context of
 * its own:
 * - "nop": [WRITE_TIMESTAMP, NOP, WRITE_TIMESTAMP, END]: the command
 *   processor only;
 * - "dispatch": [WRITE_TIMESTAMP, DISPATCH FILL of 1 workgroup over 4 KiB,
 *   WRITE_TIMESTAMP, END]: a compute unit as well, so the CU sequencer's
 *   policy shows.
 * The two GPU timestamps split each round trip into: submit ioctl entered
 * to first packet, batch run, last packet to the waiting thread back.
 *
 * Cases, measured in one run:
 * (a) idle hardware, each probe at NORMAL and at HIGH priority;
 * (b) loaded hardware, probes at NORMAL;
 * (c) loaded hardware, probes at HIGH; labelled (d) when the module was
 *     loaded with cu_by_priority=0 (the CU sequencer ignores priorities).
 * The load: one LOW and one NORMAL context per gfx and compute engine, each
 * keeping two DISPATCH SPIN jobs (one workgroup per CU, --load-ms each)
 * queued, refilled from a thread as soon as one completes.
 *
 * The samples of a phase alternate between its rows, spaced by a random
 * pause (--gap-us), and the run alternates idle and loaded phases in
 * blocks, so that every row sees the same conditions of the machine.
 */
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "bench.hpp"
#include "tempo-tooling/load.hpp"
#include "tempo-tooling/svg_plot.hpp"
#include "tempo-tooling/json.hpp"
#include "tempo-tooling/options.hpp"

namespace tempo::bench {

namespace {

constexpr std::uint32_t probe_bytes = 4096;
constexpr std::uint32_t probe_value = 0x1a7e4c75;
/// Jobs each load context keeps queued.
constexpr std::uint32_t load_depth = 2;
/// Idle and loaded phases alternate this many times (at most one per sample).
constexpr std::uint64_t blocks = 3;
/// The project's bar for HIGH under load: busy/idle p99 at most this (target 1.25).
constexpr double bar_ratio = 1.5;
constexpr double target_ratio = 1.25;

/// A module parameter of tempo, as sysfs shows it.
std::optional<std::string> module_param(const std::string& name)
{
    std::ifstream in("/sys/module/tempo/parameters/" + name);
    std::string value;
    if (!(in >> value))
        return std::nullopt;
    return value;
}

enum class ProbeKind {
    Nop,
    Dispatch
};

const char* to_cstr(ProbeKind kind)
{
    return kind == ProbeKind::Nop ? "nop" : "dispatch";
}

/// One round trip, split at the GPU timestamps of the probe batch (nanoseconds).
struct Sample {
    /// Submit ioctl entered to fence seen signalled by the waiting thread.
    double total{0};
    /// Time in the submit ioctl.
    double submit{0};
    /// Submit ioctl entered to the first packet (scheduler, ring, arbitration, preemption).
    double to_start{0};
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

    void summarize()
    {
        us = part(&Sample::total);
        std::vector<double> total;
        for (const Sample& s : samples)
            total.push_back(s.total / 1000.0);
        std::sort(total.begin(), total.end());
        p90_us = tooling::percentile(total, 90);
    }
};

double ns_since_epoch(Clock::time_point t)
{
    return static_cast<double>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count());
}

/**
 * A context that runs probes on one engine, and its batches. WRITE_TIMESTAMP
 * writes CLOCK_MONOTONIC, the clock of std::chrono::steady_clock, so the
 * GPU timestamps and the CPU's times compare.
 */
class Prober {
public:
    Prober(const Device& device, Engine engine, Priority priority, std::chrono::nanoseconds timeout)
        : device_(device),
          engine_(engine),
          priority_(priority),
          context_(device, std::span{&engine, 1}, priority),
          target_(device, probe_bytes),
          stamps_(device, 4096),
          tick_ns_(1e9 / static_cast<double>(
                             std::max<std::uint64_t>(device.info().timestamp_frequency, 1))),
          timeout_(timeout)
    {
        PacketWriter nop;
        nop.write_timestamp(stamps_.gpu_address(0))
            .nop()
            .write_timestamp(stamps_.gpu_address(8))
            .end();
        nop_ = Buffer::with_contents(device, nop.dwords());
        PacketWriter dispatch;
        dispatch.write_timestamp(stamps_.gpu_address(0))
            .dispatch_fill({}, target_.gpu_address(), probe_value, probe_bytes)
            .write_timestamp(stamps_.gpu_address(8))
            .end();
        dispatch_ = Buffer::with_contents(device, dispatch.dwords());
    }

    /**
     * One round trip. A job that fails on the GPU (the scheduler's job
     * timeout stops one that waits too long) is a sample with its error,
     * and its context, banned by the failure, is replaced. Throws if the
     * fence does not signal at all, or if the dispatch wrote wrong data.
     */
    Sample measure(ProbeKind kind)
    {
        const bool fill = kind == ProbeKind::Dispatch;
        if (fill) {
            target_.write<std::uint32_t>(0, 0);
            target_.write<std::uint32_t>(probe_bytes - 4, 0);
        }
        stamps_.write<std::uint64_t>(0, 0);
        stamps_.write<std::uint64_t>(8, 0);
        const Buffer& batch = fill ? *dispatch_ : *nop_;
        const auto t0 = Clock::now();
        const auto fence =
            context_.submit({.slot = Slot{0}, .batch = batch.gpu_address(), .out_fence = true});
        const auto t_submitted = Clock::now();
        const WaitResult result = fence->wait(timeout_);
        const auto t1 = Clock::now();
        if (result == WaitResult::Timeout)
            throw std::runtime_error(std::string{"a "} + to_cstr(kind) +
                                     " probe did not complete in time");
        Sample sample{.total = elapsed_ns(t0, t1),
                      .submit = elapsed_ns(t0, t_submitted),
                      .to_start = 0,
                      .run = 0,
                      .to_wake = 0,
                      .error = 0};
        if (const int status = fence->status(); status != 1) {
            sample.error = status;
            context_ = Context(device_, std::span{&engine_, 1}, priority_);
            return sample;
        }
        if (fill && (target_.read<std::uint32_t>(0) != probe_value ||
                     target_.read<std::uint32_t>(probe_bytes - 4) != probe_value))
            throw std::runtime_error("the dispatch probe did not write its buffer");
        const double start = static_cast<double>(stamps_.read<std::uint64_t>(0)) * tick_ns_;
        const double end = static_cast<double>(stamps_.read<std::uint64_t>(8)) * tick_ns_;
        sample.to_start = start - ns_since_epoch(t0);
        sample.run = end - start;
        sample.to_wake = ns_since_epoch(t1) - end;
        return sample;
    }

private:
    const Device& device_;
    Engine engine_;
    Priority priority_;
    Context context_;
    Buffer target_;
    Buffer stamps_;
    double tick_ns_;
    std::optional<Buffer> nop_;
    std::optional<Buffer> dispatch_;
    std::chrono::nanoseconds timeout_;
};

/// The load: a LOW and a NORMAL context on every gfx and compute engine, SPIN jobs.
class Saturation {
public:
    Saturation(const Device& device, std::uint32_t load_ms)
    {
        PacketWriter w;
        w.dispatch_spin({.x = std::max<std::uint32_t>(device.info().num_cus, 1)},
                        load_ms * 1000000U)
            .end();
        batch_ = Buffer::with_contents(device, w.dwords());
        std::vector<LoadStream> streams;
        for (const EngineInfo& e : device.engines()) {
            if (e.engine.engine_class == EngineClass::Copy)
                continue;
            engines_.push_back(e.engine);
            for (const Priority p : {Priority::Low, Priority::Normal}) {
                streams.push_back({.engine = e.engine,
                                   .priority = p,
                                   .batch = batch_->gpu_address(),
                                   .min_interval = {}});
                names_.push_back(to_string(e.engine) + "/" + to_string(p));
            }
        }
        if (engines_.empty())
            throw std::runtime_error("the device has no gfx or compute engine to load");
        load_.emplace(device, std::move(streams), load_depth);
    }

    [[nodiscard]] const std::vector<Engine>& engines() const { return engines_; }
    [[nodiscard]] const std::vector<std::string>& stream_names() const { return names_; }
    Load& load() { return *load_; }

private:
    std::optional<Buffer> batch_;
    std::vector<Engine> engines_;
    std::vector<std::string> names_;
    // Declared last: destroyed (its jobs drained) before the batch.
    std::optional<Load> load_;
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
};

bool sequencer_by_priority(const Setup& s)
{
    return !s.cu_by_priority || *s.cu_by_priority == "Y" || *s.cu_by_priority == "1";
}

void add_stats(LoadStats& total, const LoadStats& block)
{
    total.completed += block.completed;
    total.failed += block.failed;
    if (!total.first_error)
        total.first_error = block.first_error;
    total.cancelled += block.cancelled;
    total.replaced += block.replaced;
    total.ran_dry += block.ran_dry;
    total.failed_per_stream.resize(
        std::max(total.failed_per_stream.size(), block.failed_per_stream.size()));
    for (std::size_t i = 0; i < block.failed_per_stream.size(); i++)
        total.failed_per_stream[i] += block.failed_per_stream[i];
    if (total.fatal.empty())
        total.fatal = block.fatal;
}

std::string fmt_ratio(const std::optional<double>& r)
{
    if (!r)
        return "-";
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.2fx", *r);
    return buf;
}

const char* verdict(double ratio)
{
    if (ratio <= target_ratio)
        return "meets the target";
    return ratio <= bar_ratio ? "meets the bar" : "ABOVE the bar";
}

/// The largest p99/p90 of the idle rows: how much of the idle tail is outliers.
double idle_tail(const std::vector<Case>& cases)
{
    double tail = 0;
    for (const Case& c : cases)
        if (!c.loaded && c.p90_us > 0)
            tail = std::max(tail, c.us.p99 / c.p90_us);
    return tail;
}

void print_table(const Setup& s, const std::vector<Case>& cases)
{
    const auto ull = [](std::uint64_t v) { return static_cast<unsigned long long>(v); };
    std::printf("tempo-bench latency: submit to fence signalled, probes on %s, device %s\n",
                s.engine.c_str(), s.device.c_str());
    std::printf("  probes: nop = NOP; dispatch = DISPATCH FILL, 1 group x 4 KiB; each between two "
                "WRITE_TIMESTAMPs\n");
    std::printf("  load: a LOW and a NORMAL context on each of %s, %u SPIN jobs queued each "
                "(%u groups x %u ms), refilled continuously\n",
                s.load_engines.c_str(), load_depth, s.num_cus, s.load_ms);
    std::printf("  module: cu_by_priority=%s (CU sequencer %s), cu_reserved=%s, hqd_policy=%s, "
                "starve_ms=%s\n",
                s.cu_by_priority.value_or("?").c_str(),
                sequencer_by_priority(s) ? "follows queue priority" : "picks at random",
                s.cu_reserved.value_or("?").c_str(), s.hqd_policy.value_or("?").c_str(),
                s.starve_ms.value_or("?").c_str());
    std::printf("  samples: %llu per row in %llu idle and %llu loaded phases, alternating; probes "
                "%llu us apart on average; %llu warm-up rounds first\n",
                ull(s.samples), ull(s.blocks), ull(s.blocks), ull(s.gap_us), ull(s.warmup));
    if (!s.high_refused.empty())
        std::printf("  HIGH priority rows skipped: %s\n", s.high_refused.c_str());

    std::printf("\n%-42s %-8s %-6s %7s %6s %10s %10s %10s %10s %9s\n", "case", "probe", "prio",
                "samples", "failed", "p50_us", "p90_us", "p99_us", "max_us", "p99/idle");
    for (const Case& c : cases)
        std::printf("%-42s %-8s %-6s %7zu %6zu %10.1f %10.1f %10.1f %10.1f %9s\n", c.label.c_str(),
                    to_cstr(c.kind), to_string(c.priority).c_str(), c.us.count, c.failures(),
                    c.us.p50, c.p90_us, c.us.p99, c.us.max, fmt_ratio(c.ratio).c_str());
    for (const Case& c : cases)
        if (c.failures())
            std::printf("WARNING: %zu %s probes of \"%s\" failed (%s): they count with the time "
                        "their fence took\n",
                        c.failures(), to_cstr(c.kind), c.label.c_str(),
                        std::strerror(-c.first_error()));

    std::printf("\nwhere the time goes, p50 / p99 in us:\n");
    std::printf("%-42s %-8s %-6s %15s %17s %17s %17s\n", "case", "probe", "prio", "submit ioctl",
                "to first packet", "batch run", "to wake-up");
    for (const Case& c : cases) {
        std::printf("%-42s %-8s %-6s", c.label.c_str(), to_cstr(c.kind),
                    to_string(c.priority).c_str());
        for (const auto field :
             {&Sample::submit, &Sample::to_start, &Sample::run, &Sample::to_wake}) {
            const tooling::Summary p = c.part(field);
            char cell[48];
            std::snprintf(cell, sizeof(cell), "%.0f / %.0f", p.p50, p.p99);
            std::printf(" %*s", field == &Sample::submit ? 15 : 17, cell);
        }
        std::printf("\n");
    }

    std::printf("\nCPUs: %u, busy %.0f%% during the idle phases and %.0f%% during the loaded "
                "phases\n",
                s.cpus, s.idle_cpu.percent(), s.load_cpu.percent());
    std::printf("load: %llu jobs completed during the loaded phases; a queue ran dry %llu times\n",
                ull(s.load.completed), ull(s.load.ran_dry));
    if (s.load.failed) {
        std::printf("WARNING: %llu load jobs failed (%s) and %llu were cancelled behind them; "
                    "their contexts were created again; failures by stream:",
                    ull(s.load.failed), std::strerror(-s.load.first_error), ull(s.load.cancelled));
        for (std::size_t i = 0; i < s.load.failed_per_stream.size(); i++)
            if (s.load.failed_per_stream[i] && i < s.stream_names.size())
                std::printf(" %s %llu", s.stream_names[i].c_str(),
                            ull(s.load.failed_per_stream[i]));
        std::printf("\n");
    }

    std::printf("\nbusy/idle (the same probe at the same priority on idle hardware):\n");
    std::printf("  %-42s %-8s %8s %8s %8s\n", "case", "probe", "p50", "p90", "p99");
    for (const Case& c : cases) {
        if (!c.ratio)
            continue;
        std::printf("  %-42s %-8s %7.2fx %7.2fx %8s", c.label.c_str(), to_cstr(c.kind), c.ratio_p50,
                    c.ratio_p90, fmt_ratio(c.ratio).c_str());
        if (c.priority > Priority::Normal)
            std::printf("   p99 %s (bar <= %.2fx, target <= %.2fx)", verdict(*c.ratio), bar_ratio,
                        target_ratio);
        std::printf("\n");
    }
    if (const double tail = idle_tail(cases); tail > 3)
        std::printf("note: on idle hardware p99 is up to %.0fx p90 here, a tail that the submit "
                    "ioctl alone shows too: the\n  machine's own noise (vCPUs descheduled by the "
                    "host). A p99 ratio is then mostly noise over noise;\n  the p50 and p90 "
                    "ratios show what the load costs.\n",
                    tail);
    if (sequencer_by_priority(s))
        std::printf(
            "\nCase (d), the CU sequencer ignoring priorities, needs the module loaded with "
            "cu_by_priority=0:\n  tools/vm/run --modparams cu_by_priority=0 -- "
            "build/cmake/tools/tempo-bench/tempo-bench latency\n");
}

void print_json(const Setup& s, const std::vector<Case>& cases)
{
    tooling::JsonWriter j(std::cout);
    j.begin_object();
    j.field("benchmark", "latency");
    j.field("device", s.device);
    j.field("engine", s.engine);
    j.field("samples", s.samples);
    j.field("warmup", s.warmup);
    j.field("gap_us", s.gap_us);
    j.field("blocks", s.blocks);
    j.field("load_ms", s.load_ms);
    j.field("load_depth", load_depth);
    j.field("load_engines", s.load_engines);
    j.field("num_cus", s.num_cus);
    j.key("module").begin_object();
    for (const auto& [name, value] :
         {std::pair{"cu_by_priority", s.cu_by_priority}, std::pair{"cu_reserved", s.cu_reserved},
          std::pair{"hqd_policy", s.hqd_policy}, std::pair{"starve_ms", s.starve_ms}})
        if (value)
            j.field(name, *value);
    j.end_object();
    j.field("sequencer_by_priority", sequencer_by_priority(s));
    if (!s.high_refused.empty())
        j.field("high_refused", s.high_refused);
    j.key("results").begin_object();
    for (const Case& c : cases) {
        j.key(c.key).begin_object();
        j.field("label", c.label);
        j.field("probe", to_cstr(c.kind));
        j.field("priority", to_string(c.priority));
        j.field("loaded", c.loaded);
        j.field("count", c.us.count);
        j.field("failed", c.failures());
        j.field("mean_us", c.us.mean);
        j.field("p50_us", c.us.p50);
        j.field("p90_us", c.p90_us);
        j.field("p99_us", c.us.p99);
        j.field("min_us", c.us.min);
        j.field("max_us", c.us.max);
        if (c.ratio) {
            j.field("p50_over_idle", c.ratio_p50);
            j.field("p90_over_idle", c.ratio_p90);
            j.field("p99_over_idle", *c.ratio);
        }
        for (const auto& [name, field] :
             {std::pair{"submit_ioctl", &Sample::submit},
              std::pair{"to_first_packet", &Sample::to_start}, std::pair{"batch_run", &Sample::run},
              std::pair{"to_wake_up", &Sample::to_wake}}) {
            const tooling::Summary p = c.part(field);
            j.key(name).begin_object();
            j.field("p50_us", p.p50);
            j.field("p99_us", p.p99);
            j.field("max_us", p.max);
            j.end_object();
        }
        j.end_object();
    }
    j.end_object();
    j.key("load").begin_object();
    j.field("completed", s.load.completed);
    j.field("ran_dry", s.load.ran_dry);
    j.field("failed", s.load.failed);
    j.field("first_error", s.load.first_error);
    j.field("cancelled", s.load.cancelled);
    j.end_object();
    j.field("cpus", s.cpus);
    j.field("idle_cpu_busy_percent", s.idle_cpu.percent());
    j.field("load_cpu_busy_percent", s.load_cpu.percent());
    j.field("idle_p99_over_p90_max", idle_tail(cases));
    j.field("bar_ratio", bar_ratio);
    j.field("target_ratio", target_ratio);
    j.end_object();
}

std::string write_hist(const std::string& path, const Setup& s, const std::vector<Case>& cases)
{
    plot::Figure figure;
    figure.title = "tempo-bench latency on " + s.engine + ": submit to fence signalled";
    figure.subtitle = "load: LOW+NORMAL SPIN jobs (" + std::to_string(s.num_cus) + " x " +
                      std::to_string(s.load_ms) + " ms) on every gfx and compute engine; " +
                      "CU sequencer " + (sequencer_by_priority(s) ? "by priority" : "at random") +
                      "; " + std::to_string(s.samples) + " samples per case";
    // Idle dashed, loaded solid; one colour per probe and priority.
    const auto color = [](const Case& c) {
        const bool high = c.priority > Priority::Normal;
        if (c.kind == ProbeKind::Nop)
            return high ? "#1f77b4" : "#d62728";
        return high ? "#2ca02c" : "#ff7f0e";
    };
    for (const Case& c : cases) {
        std::vector<double> us;
        us.reserve(c.samples.size());
        for (const Sample& sample : c.samples)
            us.push_back(sample.total / 1000.0);
        const std::string label = c.loaded ? c.label.substr(0, c.label.find(", sequencer"))
                                           : c.label + ", " + to_string(c.priority);
        figure.series.push_back({.label = label + ", " + to_cstr(c.kind),
                                 .values_us = std::move(us),
                                 .color = color(c),
                                 .dashed = !c.loaded});
    }
    return plot::write_output(path, plot::cdf_svg(figure));
}

} // namespace

int run_latency(const Options& options)
{
    const Device device = tooling::open_device(options.device);
    const Engine engine = pick_engine(device, options);
    const std::chrono::nanoseconds timeout =
        4 * std::max(device.info().job_timeout, std::chrono::milliseconds{1000});
    if (options.load_ms == 0 || options.load_ms > 400)
        throw std::runtime_error("--load-ms must be 1..400: a load job must stay well below the "
                                 "job timeout");

    Setup setup;
    setup.device = device.path();
    setup.engine = to_string(engine);
    setup.num_cus = device.info().num_cus;
    setup.samples = options.samples;
    setup.warmup = options.warmup;
    setup.gap_us = options.gap_us;
    setup.blocks = std::min(blocks, options.samples);
    setup.load_ms = static_cast<std::uint32_t>(options.load_ms);
    setup.cu_by_priority = module_param("cu_by_priority");
    setup.cu_reserved = module_param("cu_reserved");
    setup.hqd_policy = module_param("hqd_policy");
    setup.starve_ms = module_param("starve_ms");
    setup.cpus = std::max(1U, std::thread::hardware_concurrency());

    Prober normal(device, engine, Priority::Normal, timeout);
    std::optional<Prober> high;
    try {
        high.emplace(device, engine, Priority::High, timeout);
    } catch (const Error& e) {
        if (e.code() != std::errc::permission_denied &&
            e.code() != std::errc::operation_not_permitted)
            throw;
        setup.high_refused = "HIGH needs root or CAP_SYS_NICE (" + std::string{e.what()} + ")";
    }

    // The rows, and the probes of each phase in the order they alternate.
    struct Probe {
        Prober* prober;
        ProbeKind kind;
        std::size_t row;
    };
    const std::string high_case = sequencer_by_priority(setup)
                                      ? "(c) load, HIGH probe"
                                      : "(d) load, HIGH probe, sequencer at random";
    std::vector<Case> cases;
    std::vector<Probe> idle_round, busy_round;
    const auto add = [&](std::vector<Probe>& round, Prober* p, ProbeKind kind, Priority prio,
                         bool loaded, std::string label) {
        cases.push_back(
            {.key = std::string{loaded ? "load_" : "idle_"} + to_cstr(kind) + "_" + to_string(prio),
             .label = std::move(label),
             .kind = kind,
             .priority = prio,
             .loaded = loaded,
             .samples = {},
             .us = {},
             .p90_us = 0,
             .ratio = {}});
        cases.back().samples.reserve(options.samples);
        round.push_back({p, kind, cases.size() - 1});
    };
    for (const ProbeKind kind : {ProbeKind::Nop, ProbeKind::Dispatch}) {
        add(idle_round, &normal, kind, Priority::Normal, false, "(a) idle");
        if (high)
            add(idle_round, &*high, kind, Priority::High, false, "(a) idle");
    }
    for (const ProbeKind kind : {ProbeKind::Nop, ProbeKind::Dispatch})
        add(busy_round, &normal, kind, Priority::Normal, true, "(b) load, NORMAL probe");
    if (high)
        for (const ProbeKind kind : {ProbeKind::Nop, ProbeKind::Dispatch})
            add(busy_round, &*high, kind, Priority::High, true, high_case);

    // Probes are spaced by a random pause of 0.5 to 1.5 times --gap-us.
    std::minstd_rand random(12345);
    const auto pause = [&] {
        if (!options.gap_us)
            return;
        std::uniform_int_distribution<std::uint64_t> d(options.gap_us / 2, options.gap_us * 3 / 2);
        std::this_thread::sleep_for(std::chrono::microseconds{d(random)});
    };
    const auto run_round = [&](const std::vector<Probe>& round, bool keep) {
        for (const Probe& p : round) {
            const Sample sample = p.prober->measure(p.kind);
            if (keep)
                cases[p.row].samples.push_back(sample);
            pause();
        }
    };

    for (std::uint64_t i = 0; i < options.warmup; i++)
        run_round(idle_round, false);
    for (std::uint64_t b = 0; b < setup.blocks; b++) {
        const std::uint64_t rounds =
            options.samples * (b + 1) / setup.blocks - options.samples * b / setup.blocks;

        // (a) idle.
        const CpuTimes idle_start = cpu_times();
        for (std::uint64_t i = 0; i < rounds; i++)
            run_round(idle_round, true);
        setup.idle_cpu += cpu_times() - idle_start;

        // (b), (c): the load starts and settles (every queue full, every CU busy).
        Saturation saturation(device, setup.load_ms);
        setup.load_engines.clear();
        for (const Engine& e : saturation.engines())
            setup.load_engines += (setup.load_engines.empty() ? "" : " ") + to_string(e);
        setup.stream_names = saturation.stream_names();
        saturation.load().start();
        std::this_thread::sleep_for(std::chrono::milliseconds{std::max(200U, 4 * setup.load_ms)});
        saturation.load().reset_stats();
        const CpuTimes load_start = cpu_times();
        for (std::uint64_t i = 0; i < rounds; i++)
            run_round(busy_round, true);
        setup.load_cpu += cpu_times() - load_start;
        add_stats(setup.load, saturation.load().stats());
        saturation.load().stop();
        if (const LoadStats after = saturation.load().stats(); !after.fatal.empty())
            throw std::runtime_error("the load failed: " + after.fatal);
    }

    for (Case& c : cases)
        c.summarize();
    for (Case& c : cases) {
        if (!c.loaded)
            continue;
        for (const Case& idle : cases)
            if (!idle.loaded && idle.kind == c.kind && idle.priority == c.priority &&
                idle.us.p99 > 0) {
                c.ratio = c.us.p99 / idle.us.p99;
                c.ratio_p50 = c.us.p50 / idle.us.p50;
                c.ratio_p90 = c.p90_us / idle.p90_us;
            }
    }

    if (options.json)
        print_json(setup, cases);
    else
        print_table(setup, cases);
    std::fflush(stdout);
    if (!options.hist.empty()) {
        const std::string written = write_hist(options.hist, setup, cases);
        if (!options.json)
            std::printf("\nlatency distributions (CDF) written to %s\n", written.c_str());
    }
    std::fflush(stdout);
    return 0;
}

} // namespace tempo::bench
