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
 *   submissions, one wait per burst, outside the timing);
 * - NOP round trip: submit a batch [NOP, END] and wait until its timeline
 *   point signals (syncobj wait), or its sync_file (poll).
 */
#include <algorithm>
#include <array>
#include <cerrno>
#include <stdexcept>
#include <string>

#include <sys/ioctl.h>

#include <drm.h>

#include "bench.hpp"
#include "tempo-tooling/options.hpp"

namespace tempo::bench {

namespace {

// Waits for the last point of @timeline, or throws: a NOP that takes that long is a hang.
void wait_last(const Timeline& timeline, std::chrono::nanoseconds timeout)
{
    if (timeline.wait(timeout) == WaitResult::Timeout)
        throw std::runtime_error("timeline point " + std::to_string(timeline.last().point) +
                                 " did not signal in time");
}

} // namespace

int run_nop(const Options& options)
{
    const Device device = tooling::open_device(options.device);
    const Engine engine = pick_engine(device, options);
    const Context context(device, std::span{&engine, 1});
    const std::uint64_t total = options.warmup + options.iterations;
    const std::uint64_t burst =
        options.burst ? options.burst : std::max<std::uint64_t>(device.info().ring_size, 1);
    // A NOP that takes longer than a few job timeouts is a hang, not a sample.
    const std::chrono::nanoseconds timeout =
        4 * std::max(device.info().job_timeout, std::chrono::milliseconds{1000});

    PacketWriter writer;
    writer.nop().end();
    const Buffer batch = Buffer::with_contents(device, writer.dwords());
    const Submission nop{.slot = Slot{0}, .batch = batch.gpu_address()};

    // The job must succeed, or the timings mean nothing.
    {
        Submission checked = nop;
        checked.out_fence = true;
        const auto fence = context.submit(checked);
        if (fence->wait(timeout) == WaitResult::Timeout)
            throw std::runtime_error("the NOP job did not complete in time");
        if (const int status = fence->status(); status != 1)
            throw Error(-status, "NOP job", "the job failed on " + to_string(engine));
    }

    std::vector<double> samples;
    samples.reserve(options.iterations);
    const auto keep = [&](std::uint64_t i, Clock::time_point t0, Clock::time_point t1) {
        if (i >= options.warmup)
            samples.push_back(elapsed_ns(t0, t1));
    };
    const auto row = [&](std::string key, std::string label) {
        Row r{std::move(key), std::move(label), summarize_us(std::move(samples))};
        samples.clear();
        samples.reserve(options.iterations);
        return r;
    };

    Report report{
        .benchmark = "nop",
        .device = device.path(),
        .engine = to_string(engine),
        .iterations = options.iterations,
        .warmup = options.warmup,
        .parameters = {{"submit_burst", burst}},
        .rows = {},
        .ratios = {},
    };

    // (c) null ioctl
    for (std::uint64_t i = 0; i < total; i++) {
        drm_version version{};
        const auto t0 = Clock::now();
        const int ret = ::ioctl(device.fd(), DRM_IOCTL_VERSION, &version);
        const auto t1 = Clock::now();
        if (ret != 0)
            throw Error(errno, "DRM_IOCTL_VERSION", "null ioctl");
        keep(i, t0, t1);
    }
    report.rows.push_back(row("null_ioctl", "null ioctl (DRM_IOCTL_VERSION)"));

    // (c) syncobj signal + wait + reset
    {
        Syncobj binary(device);
        for (std::uint64_t i = 0; i < total; i++) {
            const auto t0 = Clock::now();
            binary.signal();
            binary.wait(0, wait_forever);
            binary.reset();
            const auto t1 = Clock::now();
            keep(i, t0, t1);
        }
    }
    report.rows.push_back(row("syncobj_signal_wait_reset", "syncobj signal+wait+reset"));

    // (b) submit only
    {
        Timeline timeline(device);
        std::array<SyncPoint, 1> signal{};
        Submission submission = nop;
        submission.signal = signal;
        for (std::uint64_t i = 0; i < total; i++) {
            signal[0] = timeline.next();
            const auto t0 = Clock::now();
            context.submit(submission);
            const auto t1 = Clock::now();
            keep(i, t0, t1);
            if ((i + 1) % burst == 0 || i + 1 == total)
                wait_last(timeline, timeout);
        }
    }
    report.rows.push_back(row("submit_only", "submit only (DRM_IOCTL_TEMPO_EXEC)"));

    // (a) round trip, syncobj wait
    {
        Timeline timeline(device);
        std::array<SyncPoint, 1> signal{};
        Submission submission = nop;
        submission.signal = signal;
        for (std::uint64_t i = 0; i < total; i++) {
            signal[0] = timeline.next();
            const auto t0 = Clock::now();
            context.submit(submission);
            wait_last(timeline, timeout);
            const auto t1 = Clock::now();
            keep(i, t0, t1);
        }
    }
    report.rows.push_back(row("round_trip", "NOP round trip (syncobj wait)"));

    // (a) round trip, sync_file poll
    {
        Submission submission = nop;
        submission.out_fence = true;
        for (std::uint64_t i = 0; i < total; i++) {
            const auto t0 = Clock::now();
            const auto fence = context.submit(submission);
            const WaitResult result = fence->wait(timeout);
            const auto t1 = Clock::now();
            if (result == WaitResult::Timeout)
                throw std::runtime_error("a NOP job did not complete in time");
            keep(i, t0, t1);
        }
    }
    report.rows.push_back(row("round_trip_sync_file", "NOP round trip (sync_file poll)"));

    const Row& null_ioctl = report.rows[0];
    report.ratios.push_back(
        ratio("round_trip_over_null_ioctl", "round trip / null ioctl", report.rows[3], null_ioctl));
    report.ratios.push_back(ratio("submit_only_over_null_ioctl", "submit only / null ioctl",
                                  report.rows[2], null_ioctl));
    report.ratios.push_back(ratio("syncobj_over_null_ioctl",
                                  "syncobj signal+wait+reset / null ioctl", report.rows[1],
                                  null_ioctl));
    print(report, options.json);
    return 0;
}

} // namespace tempo::bench
