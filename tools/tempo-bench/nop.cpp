// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * tempo-bench nop: the fixed cost of a job, against ioctl baselines measured
 * in the same run.
 *
 * - null ioctl: DRM_IOCTL_VERSION with zero-length buffers, the cheapest
 *   round trip into the DRM core;
 * - syncobj signal+wait+reset: three syncobj ioctls on a binary syncobj;
 * - submit only: the time of DRM_IOCTL_TEMPO_EXEC alone (bursts of
 *   submissions, one wait per burst, outside the timing), each signalling
 *   a timeline point; and the same without out-syncs (only the last of a
 *   burst signals), as a bare drm_sched driver's submit; the null ioctl
 *   and the two take turns of a burst each;
 * - NOP round trip: submit a batch [NOP, END] and wait until its timeline
 *   point signals (syncobj wait), or its sync_file (poll);
 * - submit only, waiting for a timeline point: an exec whose only sync is
 *   the newest point of a timeline 1 point deep, then deep_points deep
 *   (points queued behind a gated job of a LOW context before each burst,
 *   outside the timing): priority inheritance looks through every point
 *   not signalled yet;
 * - the floor: the same round trip with the module parameter floor set,
 *   which makes run_job end every job at once, as a bare drm_sched driver
 *   would: what remains is tempo's exec ioctl, drm_sched and the wait, and
 *   the ratio to it is the emulated hardware's share; and the round trip
 *   with run_in_place set. The three round trips take turns of 100
 *   iterations. The floor and running in place are measured only where
 *   the parameters can be written (root), and set back afterwards.
 */
#include <algorithm>
#include <array>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bench.hpp"
#include "tempo-tooling/device.hpp"

namespace tempo::bench {

namespace {

// Waits for the last point of @timeline, or throws: a NOP that takes that long is a hang.
void wait_last(const Timeline& timeline, std::chrono::nanoseconds timeout)
{
    if (timeline.wait(timeout) == WaitResult::Timeout)
        throw std::runtime_error("timeline point " + std::to_string(timeline.last().point) +
                                 " did not signal in time");
}

Buffer nop_batch(const Device& device)
{
    PacketWriter writer;
    writer.nop().end();
    return Buffer::with_contents(device, writer.dwords());
}

/// A [NOP, END] submission that signals the next point of its own timeline
/// each time: the submission keeps a view of the point, so it stays put.
class SignallingNop {
public:
    SignallingNop(const Device& device, const Context& context, GpuAddress batch)
        : context_(context),
          timeline_(device),
          submission_{.slot = Slot{0}, .batch = batch, .signal = signal_}
    {}
    SignallingNop(const SignallingNop&) = delete;
    SignallingNop& operator=(const SignallingNop&) = delete;

    /// Hands out the next point; submit() signals it.
    void next() { signal_[0] = timeline_.next(); }
    void submit() const { context_.submit(submission_); }
    /// Waits for the last point, or throws: a NOP that takes that long is a hang.
    void wait(std::chrono::nanoseconds timeout) const { wait_last(timeline_, timeout); }

private:
    const Context& context_;
    Timeline timeline_;
    std::array<SyncPoint, 1> signal_{};
    Submission submission_;
};

/// Points of the deep timeline: 1024, or what the file's job limit leaves
/// beside a burst.
std::uint32_t deep_points(const Device& device, std::uint64_t burst)
{
    const std::uint64_t max_jobs = device.info().limits.max_jobs;
    const std::uint64_t room = max_jobs > burst + 2 ? max_jobs - burst - 2 : 1;
    return static_cast<std::uint32_t>(std::min<std::uint64_t>(1024, room));
}

/// The device, a context on the engine and the [NOP, END] batch that the
/// measurements share.
class NopBench {
public:
    explicit NopBench(const Options& options)
        : options_(options),
          device_(tooling::open_device(options.device)),
          engine_(pick_engine(device_, options)),
          context_(device_, std::span{&engine_, 1}),
          batch_(nop_batch(device_)),
          burst_(options.burst ? options.burst
                               : std::max<std::uint64_t>(device_.info().ring_size, 1)),
          timeout_(tooling::hang_timeout(device_)),
          deep_points_(deep_points(device_, burst_))
    {}

    /// The job must succeed, or the timings mean nothing.
    void check_job() const
    {
        Submission checked = nop();
        checked.out_fence = true;
        const auto fence = context_.submit(checked);
        if (fence->wait(timeout_) == WaitResult::Timeout)
            throw std::runtime_error("the NOP job did not complete in time");
        if (const int status = fence->status(); status != 1)
            throw Error(-status, "NOP job", "the job failed on " + to_string(engine_));
    }

    [[nodiscard]] Report header() const
    {
        return start_report("nop", device_, to_string(engine_), options_.iterations, options_,
                            {{"submit_burst", burst_}, {"deep_points", deep_points_}});
    }

    [[nodiscard]] Row syncobj() const
    {
        Syncobj binary(device_);
        return row("syncobj_signal_wait_reset", "syncobj signal+wait+reset", [&](std::uint64_t) {
            const auto t0 = Clock::now();
            binary.signal();
            binary.wait(0, wait_forever);
            binary.reset();
            return elapsed_ns(t0, Clock::now());
        });
    }

private:
    [[nodiscard]] bool ends_burst(std::uint64_t i) const
    {
        return (i + 1) % burst_ == 0 || i + 1 == options_.warmup + options_.iterations;
    }

    /// A step of "submit only": @nop signals its next point; the burst's
    /// last waits for it, untimed.
    [[nodiscard]] auto submit_step(SignallingNop& nop) const
    {
        return [this, &nop](std::uint64_t i) {
            nop.next();
            const auto t0 = Clock::now();
            nop.submit();
            const auto t1 = Clock::now();
            if (ends_burst(i))
                nop.wait(timeout_);
            return elapsed_ns(t0, t1);
        };
    }

    /// A step of "submit only, no out-sync": only the burst's last
    /// submission, @last, signals a point, and the burst waits for it,
    /// untimed (a slot's jobs end in order).
    [[nodiscard]] auto bare_submit_step(SignallingNop& last) const
    {
        return [this, &last, bare = nop()](std::uint64_t i) {
            const bool signals = ends_burst(i);
            if (signals)
                last.next();
            const auto t0 = Clock::now();
            if (signals)
                last.submit();
            else
                context_.submit(bare);
            const auto t1 = Clock::now();
            if (signals)
                last.wait(timeout_);
            return elapsed_ns(t0, t1);
        };
    }

public:
    /// The null ioctl, submissions that each signal a timeline point and
    /// submissions without out-syncs, side by side in turns of a burst.
    [[nodiscard]] std::vector<Row> submit_costs() const
    {
        SignallingNop signalling(device_, context_, batch_.gpu_address());
        SignallingNop last(device_, context_, batch_.gpu_address());
        auto samples = measure_in_turns(
            options_, burst_,
            [&](std::uint64_t) {
                const auto t0 = Clock::now();
                bench::null_ioctl(device_);
                return elapsed_ns(t0, Clock::now());
            },
            submit_step(signalling), bare_submit_step(last));
        return {
            {"null_ioctl", "null ioctl (DRM_IOCTL_VERSION)", summarize_us(std::move(samples[0]))},
            {"submit_only", "submit only (DRM_IOCTL_TEMPO_EXEC)",
             summarize_us(std::move(samples[1]))},
            {"submit_only_bare", "submit only, no out-sync", summarize_us(std::move(samples[2]))},
        };
    }

    /// Submissions whose only sync is the newest point of a timeline 1
    /// point deep, or deep_points_ with @deep, all queued behind a job of
    /// a LOW context waiting for a gate, which opens after each burst. The
    /// points are queued before each burst and the burst's jobs waited for
    /// after it, outside the timing.
    [[nodiscard]] Row timeline_wait(std::string key, bool deep) const
    {
        const std::uint32_t depth = deep ? deep_points_ : 1;
        const Context holder(device_, std::span{&engine_, 1}, Priority::Low);
        Buffer gate(device_, 4096);
        gate.write<std::uint64_t>(0, 0);
        std::uint64_t opens_at = 0;
        std::optional<Buffer> gated;
        Timeline timeline(device_);
        Timeline done(device_);
        std::array<SyncPoint, 1> signal{};
        std::array<SyncPoint, 1> wait{};
        Submission waiter = nop();
        waiter.wait = wait;
        Submission queued = nop();
        queued.signal = signal;
        const auto queue_points = [&] {
            PacketWriter writer;
            writer.wait_mem(gate.gpu_address(), Compare::Ge, ++opens_at).end();
            gated = Buffer::with_contents(device_, writer.dwords());
            for (std::uint32_t point = 0; point < depth; point++) {
                signal[0] = timeline.next();
                queued.batch = point ? batch_.gpu_address() : gated->gpu_address();
                holder.submit(queued);
            }
            wait[0] = timeline.last();
        };
        const auto end_burst = [&] {
            gate.write<std::uint64_t>(0, opens_at);
            Submission last = nop();
            signal[0] = done.next();
            last.signal = signal;
            context_.submit(last);
            wait_last(done, timeout_);
        };
        const std::uint64_t total = options_.warmup + options_.iterations;
        std::string label = "submit only, waiting for a point " + std::to_string(depth) + " deep";
        return row(std::move(key), std::move(label), [&](std::uint64_t i) {
            if (i % burst_ == 0)
                queue_points();
            const auto t0 = Clock::now();
            context_.submit(waiter);
            const auto t1 = Clock::now();
            if ((i + 1) % burst_ == 0 || i + 1 == total)
                end_burst();
            return elapsed_ns(t0, t1);
        });
    }

    /// submit_only while the file has a buffer private to its address space:
    /// each exec then also adds its fence to the address space's reservation
    /// object.
    [[nodiscard]] Row private_submit() const
    {
        const Buffer private_buffer(device_, 4096, {.cpu_map = false, .vm_private = true});
        SignallingNop signalling(device_, context_, batch_.gpu_address());
        return row("submit_only_private", "submit only, with a private buffer",
                   submit_step(signalling));
    }

    /// The NOP round trip by the command processor's thread, with the floor
    /// and running in place, side by side in turns of kTurn iterations.
    /// Where the switches cannot be written (not root), only the module's
    /// own setting is measured.
    [[nodiscard]] std::vector<Row> round_trips() const
    {
        static constexpr std::uint64_t kTurn = 100;
        SignallingNop signalling(device_, context_, batch_.gpu_address());
        const auto round_trip = [&] {
            signalling.next();
            const auto t0 = Clock::now();
            signalling.submit();
            signalling.wait(timeout_);
            return elapsed_ns(t0, Clock::now());
        };
        const auto floor = tooling::ModuleSwitch::enter("floor", false);
        const auto in_place = tooling::ModuleSwitch::enter("run_in_place", false);
        if (!floor || !in_place)
            return {row("round_trip", "NOP round trip (syncobj wait)",
                        [&](std::uint64_t) { return round_trip(); })};
        const auto way = [&](bool floor_on, bool in_place_on) {
            return [&, floor_on, in_place_on](std::uint64_t i) {
                if (i % kTurn == 0) {
                    tooling::set_module_param("floor", floor_on ? "1" : "0");
                    tooling::set_module_param("run_in_place", in_place_on ? "1" : "0");
                }
                return round_trip();
            };
        };
        auto samples = measure_in_turns(options_, kTurn, way(false, false), way(true, false),
                                        way(false, true));
        return {
            {"round_trip", "NOP round trip (syncobj wait)", summarize_us(std::move(samples[0]))},
            {"floor_round_trip", "floor: NOP round trip (syncobj wait)",
             summarize_us(std::move(samples[1]))},
            {"in_place_round_trip", "run in place: NOP round trip (syncobj wait)",
             summarize_us(std::move(samples[2]))},
        };
    }

    [[nodiscard]] Row sync_file() const
    {
        Submission submission = nop();
        submission.out_fence = true;
        return row("round_trip_sync_file", "NOP round trip (sync_file poll)", [&](std::uint64_t) {
            const auto t0 = Clock::now();
            const auto fence = context_.submit(submission);
            const WaitResult result = fence->wait(timeout_);
            const auto t1 = Clock::now();
            if (result == WaitResult::Timeout)
                throw std::runtime_error("a NOP job did not complete in time");
            return elapsed_ns(t0, t1);
        });
    }

private:
    [[nodiscard]] Submission nop() const
    {
        return {.slot = Slot{0}, .batch = batch_.gpu_address()};
    }

    template <typename Step>
    Row row(std::string key, std::string label, Step&& step) const
    {
        return {std::move(key), std::move(label), summarize_us(measure(options_, step))};
    }

    const Options& options_;
    const Device device_;
    const Engine engine_;
    const Context context_;
    const Buffer batch_;
    const std::uint64_t burst_;
    // A NOP that takes longer than a few job timeouts is a hang, not a sample.
    const std::chrono::nanoseconds timeout_;
    const std::uint32_t deep_points_;
};

/// The ratios of the nop rows, each where both of its rows were measured.
std::vector<Ratio> nop_ratios(const std::vector<Row>& rows)
{
    struct Spec {
        std::string_view key, label, numerator, denominator;
    };
    static constexpr std::array specs{
        Spec{"round_trip_over_null_ioctl", "round trip / null ioctl", "round_trip", "null_ioctl"},
        Spec{"submit_only_over_null_ioctl", "submit only / null ioctl", "submit_only",
             "null_ioctl"},
        Spec{"submit_only_bare_over_null_ioctl", "submit only, no out-sync / null ioctl",
             "submit_only_bare", "null_ioctl"},
        Spec{"submit_only_private_over_submit_only", "submit only: with a private buffer / without",
             "submit_only_private", "submit_only"},
        Spec{"submit_wait_deep_over_shallow", "submit only, waiting: deep point / 1 deep",
             "submit_wait_deep", "submit_wait_shallow"},
        Spec{"syncobj_over_null_ioctl", "syncobj signal+wait+reset / null ioctl",
             "syncobj_signal_wait_reset", "null_ioctl"},
        Spec{"round_trip_over_floor", "round trip / floor round trip", "round_trip",
             "floor_round_trip"},
        Spec{"in_place_round_trip_over_floor", "run in place: round trip / floor",
             "in_place_round_trip", "floor_round_trip"},
        Spec{"in_place_over_round_trip", "run in place / thread: round trip", "in_place_round_trip",
             "round_trip"},
    };
    const auto find = [&](std::string_view key) {
        const auto it = std::ranges::find(rows, key, &Row::key);
        return it == rows.end() ? nullptr : &*it;
    };
    std::vector<Ratio> ratios;
    for (const Spec& spec : specs) {
        const Row* numerator = find(spec.numerator);
        const Row* denominator = find(spec.denominator);
        if (numerator && denominator)
            ratios.push_back(
                ratio(std::string(spec.key), std::string(spec.label), *numerator, *denominator));
    }
    return ratios;
}

} // namespace

int run_nop(const Options& options)
{
    const NopBench bench(options);
    bench.check_job();
    Report report = bench.header();
    {
        // The command processor's thread runs every job (where root can say so).
        const auto thread = tooling::ModuleSwitch::enter("run_in_place", false);
        report.rows = bench.submit_costs();
        report.rows.push_back(bench.syncobj());
        report.rows.push_back(bench.private_submit());
        report.rows.push_back(bench.timeline_wait("submit_wait_shallow", false));
        report.rows.push_back(bench.timeline_wait("submit_wait_deep", true));
        report.rows.push_back(bench.sync_file());
    }
    std::ranges::move(bench.round_trips(), std::back_inserter(report.rows));
    report.ratios = nop_ratios(report.rows);
    print(report, options.json);
    return 0;
}

} // namespace tempo::bench
