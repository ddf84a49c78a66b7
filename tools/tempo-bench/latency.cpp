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
 * to first packet, batch run, last packet to the waiting thread back; the
 * job's times, which a WRITE_JOB_TIMES after the last timestamp writes,
 * split the first part: the CPU path to the job's HQD ring, and the waits
 * behind other jobs that the hardware counts against the probe's priority.
 * A third probe, "floor", submits nothing: it pays what the host charges
 * for the same path without tempo (a null ioctl and the wake-ups a job
 * costs, see WakeChain), idle and under the same load, so that the part of
 * the load's cost that is the machine's, not the driver's, shows.
 *
 * Cases, measured in one run:
 * (a) idle hardware, each probe at NORMAL and at HIGH priority;
 * (b) loaded hardware, probes at NORMAL;
 * (c) loaded hardware, probes at HIGH; labelled (d) when the module was
 *     loaded with cu_by_priority=0 (the CU sequencer ignores priorities).
 * The load, as separate clients make it: a process per engine, each with a
 * DRM file of its own and a LOW and a NORMAL context keeping two jobs of
 * --load-ms queued: DISPATCH SPIN jobs (one workgroup per CU) on gfx and
 * compute engines, jobs that wait (WAIT_MEM) for a tick the process writes
 * once per --load-ms on copy engines.
 *
 * The samples of a phase alternate between its rows, spaced by a random
 * pause (--gap-us), and the run alternates idle and loaded phases in
 * blocks, so that every row sees the same conditions of the machine.
 */
#include "latency.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <tempo/unique_fd.hpp>

#include "tempo-tooling/device.hpp"
#include "tempo-tooling/load.hpp"
#include "tempo-tooling/process_load.hpp"

namespace tempo::bench {

namespace latency {

namespace {

using tooling::cpu_times;
using tooling::ProcessLoad;

constexpr std::uint32_t probe_bytes = 4096;
constexpr std::uint32_t probe_value = 0x1a7e4c75;
/// Idle and loaded phases alternate this many times (at most one per sample).
constexpr std::uint64_t blocks = 3;

/**
 * A context that runs probes on one engine, and its batches. WRITE_TIMESTAMP
 * writes CLOCK_MONOTONIC, the clock of std::chrono::steady_clock, so the
 * GPU timestamps and the CPU's times compare.
 */
class Prober {
public:
    Prober(const Device& device, Engine engine, Priority priority)
        : device_(device),
          context_(device, engine, priority),
          target_(device, probe_bytes),
          stamps_(device),
          times_(device, 4096),
          nop_(batch(ProbeKind::Nop)),
          dispatch_(batch(ProbeKind::Dispatch)),
          timeout_(tooling::hang_timeout(device))
    {}

    [[nodiscard]] Priority priority() const { return context_.priority(); }

    /**
     * One round trip. A job that fails on the GPU (the scheduler's job
     * timeout stops one that waits too long) is a sample with its error,
     * and its context, banned by the failure, is replaced. Throws if the
     * fence does not signal at all, or if the dispatch wrote wrong data.
     */
    Sample measure(ProbeKind kind)
    {
        prepare(kind);
        const Buffer& batch = kind == ProbeKind::Dispatch ? dispatch_ : nop_;
        const auto t0 = Clock::now();
        const auto fence = context_.get().submit(
            {.slot = Slot{0}, .batch = batch.gpu_address(), .out_fence = true});
        const auto t_submitted = Clock::now();
        const WaitResult result = fence->wait(timeout_);
        const auto t1 = Clock::now();
        if (result == WaitResult::Timeout)
            throw std::runtime_error(std::string{"a "} + to_cstr(kind) +
                                     " probe did not complete in time");
        Sample sample{.total = elapsed_ns(t0, t1),
                      .submit = elapsed_ns(t0, t_submitted),
                      .to_start = 0,
                      .to_queue = 0,
                      .in_queue = 0,
                      .waited = 0,
                      .run = 0,
                      .to_wake = 0,
                      .error = 0};
        if (const int status = fence->status(); status != 1) {
            sample.error = status;
            context_.replace();
            return sample;
        }
        split(kind, sample, t0, t1);
        return sample;
    }

private:
    Buffer batch(ProbeKind kind) const
    {
        PacketWriter w;
        w.write_timestamp(stamps_.start());
        if (kind == ProbeKind::Dispatch)
            w.dispatch_fill({}, target_.gpu_address(), probe_value, probe_bytes);
        else
            w.nop();
        w.write_timestamp(stamps_.end()).write_job_times(times_.gpu_address()).end();
        return Buffer::with_contents(device_, w.dwords());
    }

    void prepare(ProbeKind kind)
    {
        if (kind == ProbeKind::Dispatch) {
            target_.write<std::uint32_t>(0, 0);
            target_.write<std::uint32_t>(probe_bytes - 4, 0);
        }
        stamps_.clear();
        times_.write(0, JobTimes{});
    }

    /// Checks the probe's output and splits @sample at its GPU timestamps.
    void split(ProbeKind kind, Sample& sample, Clock::time_point t0, Clock::time_point t1) const
    {
        if (kind == ProbeKind::Dispatch &&
            (target_.read<std::uint32_t>(0) != probe_value ||
             target_.read<std::uint32_t>(probe_bytes - 4) != probe_value))
            throw std::runtime_error("the dispatch probe did not write its buffer");
        const auto [start, end] = stamps_.read_ns();
        const auto times = times_.read<JobTimes>(0);
        sample.to_start = start - tooling::ns_since_epoch(t0);
        sample.to_queue = static_cast<double>(times.queued) - tooling::ns_since_epoch(t0);
        sample.in_queue = start - static_cast<double>(times.queued);
        sample.waited = static_cast<double>(times.engine_wait_ns + times.cu_wait_ns);
        sample.run = end - start;
        sample.to_wake = tooling::ns_since_epoch(t1) - end;
    }

    const Device& device_;
    tooling::EngineContext context_;
    Buffer target_;
    tooling::StampPair stamps_;
    Buffer times_;
    const Buffer nop_;
    const Buffer dispatch_;
    std::chrono::nanoseconds timeout_;
};

/**
 * The floor of a probe: what the host charges for a job's path without
 * tempo. A null ioctl (DRM_IOCTL_VERSION on the device), then a chain of
 * two wake-ups through helper threads, as a job wakes drm_sched's work item
 * and the command processor's thread, the probing thread waiting for the
 * last in poll() as it waits for a fence. Split as the probes are: the
 * ioctl is the "submit ioctl", the second helper's run the "first packet".
 */
class WakeChain {
public:
    explicit WakeChain(const Device& device)
        : device_(device),
          hops_{event(), event(), event()},
          first_(&WakeChain::hop, this, 0, false),
          second_(&WakeChain::hop, this, 1, true)
    {}

    WakeChain(const WakeChain&) = delete;
    WakeChain& operator=(const WakeChain&) = delete;

    ~WakeChain()
    {
        stop_.store(true);
        for (int i = 0; i < 2; i++)
            post(hops_[i].get());
    }

    Sample measure()
    {
        const auto t0 = Clock::now();
        null_ioctl(device_);
        const auto t_ioctl = Clock::now();
        post(hops_[0].get());
        pollfd pfd{.fd = hops_[2].get(), .events = POLLIN, .revents = 0};
        while (::poll(&pfd, 1, -1) < 0)
            if (errno != EINTR)
                throw Error(errno, "poll", "waiting for the floor's wake-up chain");
        const auto t1 = Clock::now();
        take(hops_[2].get());
        const double start = tooling::ns_since_epoch(t0);
        const double ran = second_ran_.load();
        return {.total = elapsed_ns(t0, t1),
                .submit = elapsed_ns(t0, t_ioctl),
                .to_start = ran - start,
                .to_queue = elapsed_ns(t0, t_ioctl),
                .in_queue = ran - tooling::ns_since_epoch(t_ioctl),
                .waited = 0,
                .run = 0,
                .to_wake = tooling::ns_since_epoch(t1) - ran,
                .error = 0};
    }

private:
    static UniqueFd event()
    {
        UniqueFd fd{::eventfd(0, EFD_CLOEXEC)};
        if (!fd)
            throw Error(errno, "eventfd", "the floor's wake-up chain");
        return fd;
    }

    static void post(int fd)
    {
        const std::uint64_t one = 1;
        [[maybe_unused]] const ssize_t n = ::write(fd, &one, sizeof(one));
    }

    static void take(int fd)
    {
        std::uint64_t count = 0;
        [[maybe_unused]] const ssize_t n = ::read(fd, &count, sizeof(count));
    }

    /// Helper @i: blocks on its event, then wakes the next.
    void hop(int i, bool stamp)
    {
        for (;;) {
            take(hops_[i].get());
            if (stop_.load())
                return;
            if (stamp)
                second_ran_.store(tooling::ns_since_epoch(Clock::now()));
            post(hops_[i + 1].get());
        }
    }

    const Device& device_;
    std::atomic<bool> stop_{false};
    std::atomic<double> second_ran_{0};
    UniqueFd hops_[3];
    std::jthread first_;
    std::jthread second_;
};

/// The load: a process per engine, each a LOW and a NORMAL context (see ProcessLoad).
class Saturation {
public:
    Saturation(const Device& device, std::uint32_t load_ms)
    {
        for (const EngineInfo& e : device.engines()) {
            engines_.push_back(e.engine);
            for (const Priority p : {Priority::Low, Priority::Normal})
                names_.push_back(to_string(e.engine) + "/" + to_string(p));
        }
        load_.emplace(device.path(), engines_, std::chrono::milliseconds{load_ms}, load_depth);
    }

    /// The loaded engines, space-separated.
    [[nodiscard]] std::string engine_list() const
    {
        std::string list;
        for (const Engine& e : engines_)
            list += (list.empty() ? "" : " ") + to_string(e);
        return list;
    }
    [[nodiscard]] const std::vector<std::string>& stream_names() const { return names_; }
    ProcessLoad& load() { return *load_; }

private:
    std::vector<Engine> engines_;
    std::vector<std::string> names_;
    std::optional<ProcessLoad> load_;
};

Setup make_setup(const Device& device, Engine engine, const Options& options)
{
    Setup setup;
    setup.device = device.path();
    setup.engine = to_string(engine);
    setup.num_cus = device.info().num_cus;
    setup.samples = options.samples;
    setup.warmup = options.warmup;
    setup.gap_us = options.gap_us;
    setup.blocks = std::min(blocks, options.samples);
    setup.load_ms = options.load_ms;
    setup.cu_by_priority = tooling::module_param("cu_by_priority");
    setup.cu_reserved = tooling::module_param("cu_reserved");
    setup.hqd_policy = tooling::module_param("hqd_policy");
    setup.starve_ms = tooling::module_param("starve_ms");
    setup.cpus = std::max(1U, std::thread::hardware_concurrency());
    return setup;
}

/// A HIGH prober, or none (and why in @setup) when HIGH is not permitted.
std::optional<Prober> high_prober(const Device& device, Engine engine, Setup& setup)
{
    try {
        return std::optional<Prober>(std::in_place, device, engine, Priority::High);
    } catch (const Error& e) {
        if (e.code() != std::errc::permission_denied &&
            e.code() != std::errc::operation_not_permitted)
            throw;
        setup.high_refused = "HIGH needs root or CAP_SYS_NICE (" + std::string{e.what()} + ")";
        return std::nullopt;
    }
}

/// One probe of a round: which prober (or the floor), which batch, and the row it feeds.
struct Probe {
    Prober* prober;
    WakeChain* floor;
    ProbeKind kind;
    std::size_t row;

    [[nodiscard]] Sample measure() const
    {
        return floor ? floor->measure() : prober->measure(kind);
    }
};

/// The rows, and the probes of each phase in the order they alternate.
struct Plan {
    std::vector<Case> cases;
    std::vector<Probe> idle_round;
    std::vector<Probe> busy_round;

    void add(Prober& p, ProbeKind kind, bool loaded, std::string label, std::uint64_t samples)
    {
        add_row({&p, nullptr, kind, 0}, p.priority(), loaded, std::move(label), samples);
    }

    void add_floor(WakeChain& floor, bool loaded, std::string label, std::uint64_t samples)
    {
        add_row({nullptr, &floor, ProbeKind::Floor, 0}, Priority::Normal, loaded, std::move(label),
                samples);
    }

private:
    void add_row(Probe probe, Priority prio, bool loaded, std::string label, std::uint64_t samples)
    {
        const ProbeKind kind = probe.kind;
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
        cases.back().samples.reserve(samples);
        probe.row = cases.size() - 1;
        (loaded ? busy_round : idle_round).push_back(probe);
    }
};

Plan make_plan(Prober& normal, Prober* high, WakeChain& floor, const Setup& setup)
{
    const std::string high_case = sequencer_by_priority(setup)
                                      ? "(c) load, HIGH probe"
                                      : "(d) load, HIGH probe, sequencer at random";
    Plan plan;
    for (const ProbeKind kind : {ProbeKind::Nop, ProbeKind::Dispatch}) {
        plan.add(normal, kind, false, "(a) idle", setup.samples);
        if (high)
            plan.add(*high, kind, false, "(a) idle", setup.samples);
    }
    plan.add_floor(floor, false, "(a) idle", setup.samples);
    for (const ProbeKind kind : {ProbeKind::Nop, ProbeKind::Dispatch})
        plan.add(normal, kind, true, "(b) load, NORMAL probe", setup.samples);
    plan.add_floor(floor, true, "(b) load, floor", setup.samples);
    if (high)
        for (const ProbeKind kind : {ProbeKind::Nop, ProbeKind::Dispatch})
            plan.add(*high, kind, true, high_case, setup.samples);
    return plan;
}

/// Runs the plan's rounds: warm-up, then idle and loaded phases in blocks.
class Runner {
public:
    Runner(const Device& device, Plan& plan, Setup& setup)
        : device_(device), plan_(plan), setup_(setup)
    {}

    void run()
    {
        for (std::uint64_t i = 0; i < setup_.warmup; i++)
            run_round(plan_.idle_round, false);
        for (std::uint64_t b = 0; b < setup_.blocks; b++) {
            const std::uint64_t rounds =
                setup_.samples * (b + 1) / setup_.blocks - setup_.samples * b / setup_.blocks;
            idle_phase(rounds);
            loaded_phase(rounds);
        }
    }

private:
    /// Probes are spaced by a random pause of 0.5 to 1.5 times --gap-us.
    void pause()
    {
        if (!setup_.gap_us)
            return;
        std::uniform_int_distribution<std::uint64_t> d(setup_.gap_us / 2, setup_.gap_us * 3 / 2);
        std::this_thread::sleep_for(std::chrono::microseconds{d(random_)});
    }

    void run_round(const std::vector<Probe>& round, bool keep)
    {
        for (const Probe& p : round) {
            const Sample sample = p.measure();
            if (keep)
                plan_.cases[p.row].samples.push_back(sample);
            pause();
        }
    }

    // (a) idle.
    void idle_phase(std::uint64_t rounds)
    {
        const CpuTimes start = cpu_times();
        for (std::uint64_t i = 0; i < rounds; i++)
            run_round(plan_.idle_round, true);
        setup_.idle_cpu += cpu_times() - start;
    }

    // (b), (c): the load starts and settles (every queue full, every CU busy).
    void loaded_phase(std::uint64_t rounds)
    {
        Saturation saturation(device_, setup_.load_ms);
        setup_.load_engines = saturation.engine_list();
        setup_.stream_names = saturation.stream_names();
        saturation.load().start();
        std::this_thread::sleep_for(std::chrono::milliseconds{std::max(200U, 4 * setup_.load_ms)});
        saturation.load().reset_stats();
        const CpuTimes start = cpu_times();
        for (std::uint64_t i = 0; i < rounds; i++)
            run_round(plan_.busy_round, true);
        setup_.load_cpu += cpu_times() - start;
        add_stats(setup_.load, saturation.load().stats());
        saturation.load().stop();
        if (const LoadStats after = saturation.load().stats(); !after.fatal.empty())
            throw std::runtime_error("the load failed: " + after.fatal);
    }

    static void add_stats(LoadStats& total, const LoadStats& block)
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

    const Device& device_;
    Plan& plan_;
    Setup& setup_;
    std::minstd_rand random_{12345};
};

/// Summaries, and each loaded row against the same probe at the same priority idle.
void summarize(std::vector<Case>& cases)
{
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
}

} // namespace

} // namespace latency

int run_latency(const Options& options)
{
    using namespace latency;
    const Device device = tooling::open_device(options.device);
    const Engine engine = pick_engine(device, options);
    Setup setup = make_setup(device, engine, options);
    Prober normal(device, engine, Priority::Normal);
    std::optional<Prober> high = high_prober(device, engine, setup);
    WakeChain floor(device);
    Plan plan = make_plan(normal, high ? &*high : nullptr, floor, setup);
    Runner(device, plan, setup).run();
    summarize(plan.cases);
    if (!options.hist.empty())
        write_hist(options.hist, setup, plan.cases);
    print_report(setup, plan.cases, options.json);
    return 0;
}

} // namespace tempo::bench
