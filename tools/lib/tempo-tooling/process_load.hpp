// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * Background load from separate processes, as separate clients make it: one
 * worker process per engine, each with a DRM file of its own, keeping a LOW
 * and a NORMAL context of that engine busy until the parent stops it:
 * - on gfx and compute engines, DISPATCH SPIN jobs (a workgroup per CU);
 * - on copy engines, which do not dispatch, jobs that wait (WAIT_MEM) for a
 *   tick the worker writes once per job length.
 * The workers publish their counts in memory shared with the parent.
 *
 * Header-only, shared by the tools.
 */
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <deque>
#include <exception>
#include <new>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <tempo/buffer.hpp>
#include <tempo/context.hpp>
#include <tempo/device.hpp>
#include <tempo/error.hpp>
#include <tempo/packet.hpp>
#include <tempo/sync.hpp>
#include <tempo/types.hpp>

#include "tempo-tooling/load.hpp"

namespace tempo::tooling {

/**
 * TickedWaits - a LOW and a NORMAL context of an engine, each keeping
 * @depth jobs queued that wait (WAIT_MEM) for a tick: each job waits for
 * the tick after the one its predecessor waited for, so with a tick per
 * job length every context always has a job waiting.
 */
class TickedWaits {
public:
    TickedWaits(const Device& device, Engine engine, std::uint32_t depth)
        : depth_(std::clamp<std::uint32_t>(depth, 1, ring / 2)),
          tick_(device, 4096),
          batches_(device, 2 * ring * batch_bytes)
    {
        tick_.write<std::uint64_t>(0, now_);
        for (const Priority p : {Priority::Low, Priority::Normal}) {
            streams_.push_back({Context(device, std::span{&engine, 1}, p), {}, 0, 0});
            refill(streams_.size() - 1);
        }
    }

    /// The next tick: jobs end, new ones are queued.
    void tick()
    {
        tick_.write<std::uint64_t>(0, ++now_);
        for (std::size_t i = 0; i < streams_.size(); i++) {
            retire(i);
            refill(i);
        }
    }

    /// Every job ends at once; returns when they all have.
    void drain()
    {
        tick_.write<std::uint64_t>(0, ~std::uint64_t{0});
        for (std::size_t i = 0; i < streams_.size(); i++) {
            for (const Fence& f : streams_[i].queued)
                f.wait();
            retire(i);
        }
    }

    [[nodiscard]] const LoadStats& stats() const { return stats_; }

private:
    static constexpr std::size_t ring = 16;
    static constexpr std::size_t batch_bytes = 64;

    struct Stream {
        Context context;
        std::deque<Fence> queued;
        std::uint64_t target;
        std::uint64_t submitted;
    };

    void refill(std::size_t i)
    {
        Stream& s = streams_[i];
        while (s.queued.size() < depth_) {
            s.target = std::max(s.target, now_) + 1;
            PacketWriter w;
            w.wait_mem(tick_.gpu_address(), Compare::Ge, s.target).end();
            // A batch is rewritten only after ring jobs: its job has ended.
            const std::size_t offset = (i * ring + s.submitted++ % ring) * batch_bytes;
            batches_.write_array<std::uint32_t>(offset, w.dwords());
            s.queued.push_back(*s.context.submit(
                {.slot = Slot{0}, .batch = batches_.gpu_address(offset), .out_fence = true}));
        }
    }

    void retire(std::size_t i)
    {
        std::deque<Fence>& queued = streams_[i].queued;
        while (!queued.empty() && queued.front().status() != 0) {
            const int status = queued.front().status();
            queued.pop_front();
            stats_.completed++;
            if (status < 0) {
                stats_.failed++;
                stats_.first_error = stats_.first_error ? stats_.first_error : status;
                throw std::runtime_error("a load job failed: " +
                                         std::string{std::strerror(-status)});
            }
        }
    }

    std::uint32_t depth_;
    Buffer tick_;
    Buffer batches_;
    std::uint64_t now_{0};
    std::vector<Stream> streams_;
    LoadStats stats_;
};

/**
 * ProcessLoad - a worker process per engine, each a LOW and a NORMAL context
 *
 * start() forks the workers (call it while the caller runs no other thread)
 * and returns once each has its jobs queued; stop() stops them and waits
 * until their jobs completed. Each job lasts @job_length: a SPIN of that
 * length per workgroup, or a wait for that long. Each context keeps @depth
 * jobs queued.
 */
class ProcessLoad {
public:
    ProcessLoad(std::string device_path, std::vector<Engine> engines,
                std::chrono::milliseconds job_length, std::uint32_t depth)
        : path_(std::move(device_path)),
          engines_(std::move(engines)),
          job_length_(job_length),
          depth_(std::max<std::uint32_t>(depth, 1))
    {
        void* shared = ::mmap(nullptr, shared_bytes(), PROT_READ | PROT_WRITE,
                              MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (shared == MAP_FAILED)
            throw Error(errno, "mmap", "sharing the load's counts with its workers");
        slots_ = static_cast<Shared*>(shared);
        for (std::size_t i = 0; i < engines_.size(); i++)
            new (&slots_[i]) Shared{};
    }

    ProcessLoad(const ProcessLoad&) = delete;
    ProcessLoad& operator=(const ProcessLoad&) = delete;

    ~ProcessLoad()
    {
        stop();
        ::munmap(slots_, shared_bytes());
    }

    void start()
    {
        for (std::size_t i = 0; i < engines_.size(); i++) {
            const pid_t pid = ::fork();
            if (pid < 0)
                throw Error(errno, "fork", "starting a load worker");
            if (pid == 0)
                ::_exit(worker(i));
            pids_.push_back(pid);
        }
        for (std::size_t i = 0; i < engines_.size(); i++)
            while (!slots_[i].started.load() && !slots_[i].ended.load())
                std::this_thread::sleep_for(std::chrono::milliseconds{1});
    }

    /// Stops the workers; returns when every job they submitted completed.
    void stop()
    {
        for (std::size_t i = 0; i < pids_.size(); i++)
            slots_[i].stop.store(true);
        for (const pid_t pid : pids_) {
            int status = 0;
            while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
            }
        }
        pids_.clear();
    }

    /// The counts since start() or the last reset_stats().
    [[nodiscard]] LoadStats stats() const
    {
        LoadStats total;
        for (std::size_t i = 0; i < engines_.size(); i++) {
            const Shared& s = slots_[i];
            total.completed += s.completed.load() - s.base_completed;
            total.failed += s.failed.load() - s.base_failed;
            total.ran_dry += s.ran_dry.load() - s.base_ran_dry;
            if (!total.first_error)
                total.first_error = s.first_error.load();
            if (total.fatal.empty() && s.ended.load() && s.fatal[0])
                total.fatal = s.fatal;
        }
        return total;
    }

    void reset_stats()
    {
        for (std::size_t i = 0; i < engines_.size(); i++) {
            Shared& s = slots_[i];
            s.base_completed = s.completed.load();
            s.base_failed = s.failed.load();
            s.base_ran_dry = s.ran_dry.load();
        }
    }

private:
    /// What a worker shares with the parent; the base_ counts are the parent's.
    struct Shared {
        std::atomic<bool> started{false};
        std::atomic<bool> stop{false};
        std::atomic<bool> ended{false};
        std::atomic<std::uint64_t> completed{0};
        std::atomic<std::uint64_t> failed{0};
        std::atomic<std::uint64_t> ran_dry{0};
        std::atomic<int> first_error{0};
        std::uint64_t base_completed{0};
        std::uint64_t base_failed{0};
        std::uint64_t base_ran_dry{0};
        char fatal[192]{};
    };
    static_assert(std::atomic<std::uint64_t>::is_always_lock_free);

    [[nodiscard]] std::size_t shared_bytes() const
    {
        return std::max<std::size_t>(engines_.size(), 1) * sizeof(Shared);
    }

    // The worker process of engine @i: its exit status.
    int worker(std::size_t i) noexcept
    {
        Shared& slot = slots_[i];
        int status = 0;
        try {
            const Device device = Device::open(path_);
            if (engines_[i].engine_class == EngineClass::Copy)
                run_waits(device, engines_[i], slot);
            else
                run_spins(device, engines_[i], slot);
        } catch (const std::exception& e) {
            std::strncpy(slot.fatal, e.what(), sizeof(slot.fatal) - 1);
            status = 1;
        }
        slot.ended.store(true);
        return status;
    }

    static void publish(Shared& slot, const LoadStats& s)
    {
        slot.completed.store(s.completed);
        slot.failed.store(s.failed);
        slot.ran_dry.store(s.ran_dry);
        if (s.first_error)
            slot.first_error.store(s.first_error);
    }

    // Gfx and compute: a Load of SPIN dispatches, its counts published.
    void run_spins(const Device& device, Engine engine, Shared& slot) const
    {
        PacketWriter w;
        w.dispatch_spin({.x = std::max<std::uint32_t>(device.info().num_cus, 1)},
                        static_cast<std::uint32_t>(std::chrono::nanoseconds{job_length_}.count()))
            .end();
        const Buffer batch = Buffer::with_contents(device, w.dwords());
        std::vector<LoadStream> streams;
        for (const Priority p : {Priority::Low, Priority::Normal})
            streams.push_back({.engine = engine,
                               .priority = p,
                               .batch = batch.gpu_address(),
                               .min_interval = {}});
        Load load(device, std::move(streams), depth_);
        load.start();
        slot.started.store(true);
        while (!slot.stop.load()) {
            std::this_thread::sleep_for(std::chrono::milliseconds{5});
            publish(slot, load.stats());
        }
        load.stop();
        publish(slot, load.stats());
        if (const LoadStats s = load.stats(); !s.fatal.empty())
            throw std::runtime_error(s.fatal);
    }

    // Copy: jobs that wait for the worker's tick, one tick per job length.
    void run_waits(const Device& device, Engine engine, Shared& slot) const
    {
        TickedWaits waits(device, engine, depth_);
        slot.started.store(true);
        while (!slot.stop.load()) {
            std::this_thread::sleep_for(job_length_);
            waits.tick();
            publish(slot, waits.stats());
        }
        waits.drain();
        publish(slot, waits.stats());
    }

    std::string path_;
    std::vector<Engine> engines_;
    std::chrono::milliseconds job_length_;
    std::uint32_t depth_;
    Shared* slots_{nullptr};
    std::vector<pid_t> pids_;
};

} // namespace tempo::tooling
