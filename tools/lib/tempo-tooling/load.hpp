// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * Background load for latency measurements: a thread that keeps a few jobs
 * queued on each of a set of streams (an engine, a priority and a batch) and
 * submits a new job as soon as one completes, so the engines never run out
 * of work while something is measured against them.
 *
 * Header-only, shared by tempo-bench and tempo-demo.
 */
#pragma once

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <deque>
#include <fstream>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <unistd.h>

#include <tempo/context.hpp>
#include <tempo/device.hpp>
#include <tempo/error.hpp>
#include <tempo/sync.hpp>
#include <tempo/types.hpp>
#include <tempo/unique_fd.hpp>

namespace tempo::tooling {

/// Time of all CPUs from /proc/stat, in jiffies: busy and total.
struct CpuTimes {
    std::uint64_t busy{0};
    std::uint64_t total{0};

    CpuTimes& operator+=(const CpuTimes& o)
    {
        busy += o.busy;
        total += o.total;
        return *this;
    }
    friend CpuTimes operator-(const CpuTimes& a, const CpuTimes& b)
    {
        return {a.busy - b.busy, a.total - b.total};
    }
    [[nodiscard]] double percent() const
    {
        return total ? 100.0 * static_cast<double>(busy) / static_cast<double>(total) : 0.0;
    }
};

/// The CPU time of all CPUs so far (/proc/stat), to measure how busy they were.
inline CpuTimes cpu_times()
{
    std::ifstream in("/proc/stat");
    std::string cpu;
    CpuTimes t;
    in >> cpu;
    for (int i = 0; i < 10; i++) {
        std::uint64_t v = 0;
        if (!(in >> v))
            break;
        t.total += v;
        if (i != 3 && i != 4) // idle, iowait
            t.busy += v;
    }
    return t;
}

/// One source of load: jobs of @batch on @engine, from a context of @priority of its own.
struct LoadStream {
    Engine engine{};
    Priority priority{Priority::Normal};
    GpuAddress batch{};
    /// Least time between two submissions of the stream (0: as soon as a job completes).
    std::chrono::microseconds min_interval{0};
};

/// What the load did.
struct LoadStats {
    /// Jobs that completed (successfully or not).
    std::uint64_t completed{0};
    /// Jobs whose fence carried an error other than -ECANCELED, and the first error.
    std::uint64_t failed{0};
    int first_error{0};
    /// Jobs cancelled because an earlier job of their context failed.
    std::uint64_t cancelled{0};
    /// Contexts created again after one of their jobs failed (which bans a context).
    std::uint64_t replaced{0};
    /// Failed jobs of each stream, in the order of the streams.
    std::vector<std::uint64_t> failed_per_stream;
    /// Completions that left their stream with no job queued: the engine may have idled then.
    std::uint64_t ran_dry{0};
    /// Why the load thread stopped early, if it did.
    std::string fatal;
};

/**
 * Load - keeps @depth jobs queued on every stream from a thread of its own
 *
 * start() submits the first jobs and starts the thread; stop() stops
 * refilling and waits for every job submitted (the batches must outlive
 * them). A job that fails bans its context: the stream then gets a new
 * context (counted in LoadStats::replaced) and carries on. The thread runs
 * at CPU nice @nice (0: unchanged).
 */
class Load {
public:
    Load(const Device& device, std::vector<LoadStream> streams, std::uint32_t depth, int nice = 0)
        : device_(device),
          streams_(std::move(streams)),
          depth_(depth ? depth : 1),
          nice_(nice),
          wake_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK))
    {
        if (!wake_.valid())
            throw Error(errno, "eventfd", "creating the wake-up of the load thread");
        for (const LoadStream& s : streams_)
            contexts_.emplace_back(device_, std::span{&s.engine, 1}, s.priority);
    }

    Load(const Load&) = delete;
    Load& operator=(const Load&) = delete;
    ~Load() { stop(); }

    void start()
    {
        queued_.clear();
        queued_.resize(streams_.size());
        next_.assign(streams_.size(), Clock::now());
        for (std::size_t i = 0; i < streams_.size(); i++)
            refill(i);
        thread_ = std::thread([this] { run(); });
    }

    /// Stops refilling; returns when every submitted job has completed.
    void stop()
    {
        if (!thread_.joinable())
            return;
        stopping_.store(true);
        const std::uint64_t one = 1;
        [[maybe_unused]] const auto ignored = ::write(wake_.get(), &one, sizeof(one));
        thread_.join();
    }

    [[nodiscard]] LoadStats stats() const
    {
        const std::lock_guard lock(mutex_);
        return stats_;
    }

    /// Forgets the counts so far (not a fatal error).
    void reset_stats()
    {
        const std::lock_guard lock(mutex_);
        const std::string fatal = stats_.fatal;
        stats_ = {};
        stats_.fatal = fatal;
    }

private:
    using Clock = std::chrono::steady_clock;

    // Queues jobs on stream @i up to the depth, as its interval allows.
    void refill(std::size_t i)
    {
        const LoadStream& s = streams_[i];
        while (queued_[i].size() < depth_) {
            const auto now = Clock::now();
            if (now < next_[i])
                return;
            auto fence =
                contexts_[i].submit({.slot = Slot{0}, .batch = s.batch, .out_fence = true});
            queued_[i].push_back(std::move(*fence));
            next_[i] = now + s.min_interval;
        }
    }

    // Milliseconds until a paced stream may submit again (-1: none waits).
    int poll_timeout() const
    {
        auto first = Clock::time_point::max();
        for (std::size_t i = 0; i < streams_.size(); i++)
            if (queued_[i].size() < depth_)
                first = std::min(first, next_[i]);
        if (first == Clock::time_point::max())
            return -1;
        const auto left = std::chrono::ceil<std::chrono::milliseconds>(first - Clock::now());
        return static_cast<int>(std::max<std::chrono::milliseconds::rep>(left.count(), 0));
    }

    // Pops the signalled jobs at the front of stream @i; true if any.
    bool retire(std::size_t i)
    {
        bool any = false, banned = false;
        while (!queued_[i].empty()) {
            const int status = queued_[i].front().status();
            if (status == 0)
                break;
            queued_[i].pop_front();
            any = true;
            const std::lock_guard lock(mutex_);
            stats_.completed++;
            if (status == -ECANCELED) {
                stats_.cancelled++;
                banned = true;
            } else if (status < 0) {
                stats_.failed++;
                stats_.failed_per_stream.resize(streams_.size());
                stats_.failed_per_stream[i]++;
                banned = true;
                if (!stats_.first_error)
                    stats_.first_error = status;
            }
            if (queued_[i].empty() && !stopping_.load())
                stats_.ran_dry++;
        }
        // Every job queued behind a failed one is cancelled: wait for them, then start over.
        if (banned && !stopping_.load()) {
            for (const Fence& f : queued_[i])
                f.wait();
            queued_[i].clear();
            contexts_[i] =
                Context(device_, std::span{&streams_[i].engine, 1}, streams_[i].priority);
            const std::lock_guard lock(mutex_);
            stats_.replaced++;
        }
        return any;
    }

    void fail(const std::string& why)
    {
        const std::lock_guard lock(mutex_);
        if (stats_.fatal.empty())
            stats_.fatal = why;
    }

    void run()
    {
        if (nice_)
            ::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), nice_);
        std::vector<pollfd> fds;
        try {
            while (!stopping_.load()) {
                fds.clear();
                for (const auto& q : queued_)
                    fds.push_back(
                        {.fd = q.empty() ? -1 : q.front().fd(), .events = POLLIN, .revents = 0});
                fds.push_back({.fd = wake_.get(), .events = POLLIN, .revents = 0});
                if (::poll(fds.data(), fds.size(), poll_timeout()) < 0 && errno != EINTR)
                    throw Error(errno, "poll", "waiting for load jobs");
                for (std::size_t i = 0; i < streams_.size() && !stopping_.load(); i++) {
                    if (fds[i].revents)
                        retire(i);
                    refill(i);
                }
            }
        } catch (const std::exception& e) {
            fail(e.what());
        }
        // Drain: the batches must outlive the jobs.
        for (std::size_t i = 0; i < queued_.size(); i++) {
            for (const Fence& f : queued_[i])
                f.wait();
            retire(i);
        }
    }

    const Device& device_;
    std::vector<LoadStream> streams_;
    std::uint32_t depth_;
    int nice_;
    UniqueFd wake_;
    std::vector<Context> contexts_;
    std::vector<std::deque<Fence>> queued_;
    std::vector<Clock::time_point> next_;
    std::thread thread_;
    std::atomic<bool> stopping_{false};
    mutable std::mutex mutex_;
    LoadStats stats_;
};

} // namespace tempo::tooling
