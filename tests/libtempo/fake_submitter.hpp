// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * FakeSubmitter: a Submitter with a GPU emulated in the test process, so
 * that command lists, queues and batching are tested without a device.
 */
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <tempo/packet.hpp>
#include <tempo/submitter.hpp>
#include <tempo/sync.hpp>

namespace tempo::testing {

/**
 * FakeSubmitter - timelines, batch memory and execs like the kernel's, and
 * a GPU that runs the packets
 *
 * Like DRM_IOCTL_TEMPO_EXEC, submit() refuses (Error ENOENT) a wait on a
 * point that has no fence yet, so a library bug that would wait on an
 * unsubmitted point fails loudly. Jobs of a slot run in submission order,
 * each once its waits have signalled. The GPU runs when asked (run()), when
 * the host waits, and, with auto_run, after every submit, poll and signal.
 * A wait that can never end (wait_forever on a point that cannot signal)
 * throws, which is how the tests detect deadlocks.
 *
 * Problems the kernel would not report as errors, but that are library
 * bugs, are collected in problems(): a job that runs batch memory already
 * released, a timeline point signalled twice or out of order.
 */
class FakeSubmitter final : public Submitter {
public:
    struct Job {
        std::size_t id{0};
        Slot slot{0};
        GpuAddress batch{};
        /// Every batch: one, or the members of a gang on a parallel slot.
        std::vector<GpuAddress> batches;
        std::vector<SyncPoint> wait;
        std::vector<SyncPoint> signal;
        bool done{false};
        /// Member of the gang that runs (members run one after the other here).
        std::size_t member{0};
        /// Next dword to execute (a job blocked on WAIT_MEM resumes there).
        std::size_t pc{0};
    };

    struct Dispatch {
        std::size_t job{0};
        Kernel kernel{Kernel::Fill};
        Groups groups{};
        std::vector<std::uint32_t> args;
    };

    explicit FakeSubmitter(SubmitLimits limits = {});
    ~FakeSubmitter() override;

    /// Run the GPU after every submit(), last_signaled() and signal().
    bool auto_run = true;
    /// Refuse (Error EINVAL) the exec that would be job number @fail_job.
    std::optional<std::size_t> fail_job;
    /**
     * Parallel slots: slot -> width. An exec on one takes exactly width
     * batches and one on any other slot one batch, else Error EINVAL, as
     * the kernel.
     */
    std::map<std::uint32_t, std::uint32_t> slot_widths;

    /// Runs every job that can run; returns how many completed.
    std::size_t run();

    // Submitter
    [[nodiscard]] SubmitLimits limits() const noexcept override { return limits_; }
    [[nodiscard]] std::uint32_t slot_width(Slot slot) const noexcept override;
    [[nodiscard]] std::shared_ptr<BatchMemory>
    upload(std::span<const std::uint32_t> dwords) override;
    void submit(const Exec& exec) override;
    WaitResult wait(SyncPoint point, std::chrono::nanoseconds timeout) override;
    [[nodiscard]] std::uint64_t last_signaled(SyncobjHandle timeline) override;
    void signal(SyncPoint point) override;

    /// Whether @point has a fence and it signalled (no GPU progress).
    [[nodiscard]] bool is_signaled(SyncPoint point) const;

    // GPU memory (dword-granular, zero where never written).
    [[nodiscard]] std::uint32_t read32(GpuAddress address) const;
    [[nodiscard]] std::uint64_t read64(GpuAddress address) const;
    void write32(GpuAddress address, std::uint32_t value);
    void write64(GpuAddress address, std::uint64_t value);

    [[nodiscard]] const std::vector<Job>& jobs() const noexcept { return jobs_; }
    [[nodiscard]] std::size_t pending_jobs() const;
    [[nodiscard]] const std::vector<Dispatch>& dispatches() const noexcept { return dispatches_; }
    /// Every WRITE_DATA dword, (address, value), in execution order.
    [[nodiscard]] const std::vector<std::pair<std::uint64_t, std::uint32_t>>&
    writes() const noexcept
    {
        return writes_;
    }
    /// Points the host waited on with a non-zero timeout, in order.
    [[nodiscard]] const std::vector<SyncPoint>& host_waits() const noexcept { return host_waits_; }
    /// last_signaled() calls and zero-timeout waits.
    [[nodiscard]] std::size_t polls() const noexcept { return polls_; }
    [[nodiscard]] std::size_t live_timelines() const noexcept { return live_timelines_; }
    [[nodiscard]] std::size_t live_uploads() const noexcept { return live_uploads_; }
    [[nodiscard]] std::size_t uploads() const noexcept { return uploads_; }
    [[nodiscard]] const std::vector<std::string>& problems() const noexcept { return problems_; }
    /// The dwords of the batch memory at @address (live or released).
    [[nodiscard]] std::span<const std::uint32_t> batch_dwords(GpuAddress address) const;

private:
    struct Region {
        std::vector<std::uint32_t> dwords;
        bool alive{true};
    };
    struct Fence {
        bool signaled{false};
        std::optional<std::size_t> job;
    };
    struct Timeline {
        bool alive{true};
        std::map<std::uint64_t, Fence> points;
    };

    // Submitter, for SubmitterTimeline
    [[nodiscard]] SyncobjHandle create_timeline() override;
    void destroy_timeline(SyncobjHandle timeline) noexcept override;

    void release(std::uint64_t base) noexcept;
    [[nodiscard]] bool has_fence(SyncPoint point) const;
    [[nodiscard]] const Region* find_region(std::uint64_t address, std::uint64_t* base) const;
    /// Runs job @job from its member and pc; false if it blocks on WAIT_MEM.
    bool execute(Job& job);
    /// Runs the current member of @job from its pc; false if it blocks on WAIT_MEM.
    bool execute_member(Job& job);
    void execute_dispatch(const Job& job, Kernel kernel, Groups groups,
                          std::span<const std::uint32_t> args);
    void complete(Job& job);

    SubmitLimits limits_;
    std::map<std::uint64_t, Region> regions_;
    std::uint64_t next_va_{0x1'0000'0000};
    std::map<std::uint32_t, Timeline> timelines_;
    std::uint32_t next_handle_{1};
    std::vector<Job> jobs_;
    std::map<std::uint32_t, std::deque<std::size_t>> slots_;
    std::map<std::uint64_t, std::uint32_t> memory_;
    std::vector<Dispatch> dispatches_;
    std::vector<std::pair<std::uint64_t, std::uint32_t>> writes_;
    std::vector<SyncPoint> host_waits_;
    std::vector<std::string> problems_;
    std::size_t polls_{0};
    std::size_t live_timelines_{0};
    std::size_t live_uploads_{0};
    std::size_t uploads_{0};
    std::uint64_t timestamp_{1000};
};

} // namespace tempo::testing
