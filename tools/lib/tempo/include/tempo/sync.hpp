// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * Synchronisation: DRM syncobjs (binary and timeline) and sync_file fences.
 */
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <utility>

#include <tempo/types.hpp>
#include <tempo/unique_fd.hpp>
#include <tempo/unique_resource.hpp>

namespace tempo {

class Device;

namespace detail {
/// drmSyncobjDestroy().
struct DestroySyncobj {
    void operator()(const DeviceHandle<SyncobjHandle>& syncobj) const noexcept;
};
} // namespace detail

/**
 * SyncPoint - a syncobj to wait on or to signal in a submission
 *
 * @point 0 names a binary syncobj (or, to wait, the current fence of a
 * timeline); a non-zero @point names a timeline point. Syncobj::at() makes
 * one.
 */
struct SyncPoint {
    SyncobjHandle handle{};
    std::uint64_t point{0};

    friend constexpr bool operator==(const SyncPoint&, const SyncPoint&) noexcept = default;
};

/**
 * Fence - a sync_file: the completion of a job, as a file descriptor
 *
 * Once signalled, status() tells whether the job succeeded (1) or its error
 * (-EFAULT for a GPU fault, -EILSEQ for an illegal packet, ...). Move-only.
 */
class Fence {
public:
    Fence() noexcept = default;
    /// Takes a sync_file descriptor.
    explicit Fence(UniqueFd fd) noexcept : fd_(std::move(fd)) {}

    [[nodiscard]] bool valid() const noexcept { return fd_.valid(); }
    [[nodiscard]] int fd() const noexcept { return fd_.get(); }
    /// Gives up the sync_file descriptor.
    [[nodiscard]] UniqueFd release() noexcept { return std::move(fd_); }

    /**
     * Waits (poll()) until the fence signals or @timeout passes; 0 only
     * checks. Does not throw on a timeout; throws Error if poll() fails.
     */
    WaitResult wait(std::chrono::nanoseconds timeout = wait_forever) const;

    /**
     * The fence status from SYNC_IOC_FILE_INFO: 0 while pending, 1 once
     * signalled without error, a negative errno once signalled with one.
     */
    [[nodiscard]] int status() const;
    /// status() != 0.
    [[nodiscard]] bool signaled() const { return status() != 0; }
    /// The job error (negative errno) or 0 if pending or successful.
    [[nodiscard]] int error() const
    {
        const int s = status();
        return s < 0 ? s : 0;
    }

private:
    UniqueFd fd_;
};

/**
 * Syncobj - a DRM syncobj, used as binary or timeline
 *
 * Timeline points must only grow. wait() waits for the point's fence to be
 * submitted and signalled (DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT), so it can
 * be called before the submission that signals the point. Move-only; a
 * moved-from syncobj owns nothing (handle() is SyncobjHandle{}).
 */
class Syncobj {
public:
    /// Creates a syncobj, already signalled when @signaled.
    explicit Syncobj(const Device& device, bool signaled = false);

    [[nodiscard]] SyncobjHandle handle() const noexcept { return syncobj_->handle; }
    /// The syncobj at @point (0: binary), for a submission.
    [[nodiscard]] SyncPoint at(std::uint64_t point = 0) const noexcept { return {handle(), point}; }

    /**
     * Waits for @point (0: the binary payload) until @timeout passes; a
     * timeout of 0 only checks. Returns WaitResult::Timeout instead of
     * throwing; throws Error for other failures.
     */
    WaitResult wait(std::uint64_t point = 0, std::chrono::nanoseconds timeout = wait_forever) const;

    /// Signals @point (0: the binary payload) from the CPU.
    void signal(std::uint64_t point = 0);
    /// Removes the fence of the binary payload.
    void reset();
    /// The last signalled timeline point (drmSyncobjQuery()).
    [[nodiscard]] std::uint64_t last_signaled() const;

    /// The fence of the binary payload as a sync_file.
    [[nodiscard]] Fence export_fence() const;
    /// Replaces the binary payload with the fence of @fence.
    void import_fence(const Fence& fence);

private:
    [[nodiscard]] const detail::DeviceState& device() const noexcept { return *syncobj_->device; }

    detail::UniqueResource<detail::DeviceHandle<SyncobjHandle>, detail::DestroySyncobj> syncobj_;
};

/**
 * Timeline - a timeline syncobj and the points handed out on it
 *
 * Each next() is an event: a point that one submission signals and that
 * others (or the CPU) wait for. Points grow by one from 1.
 *
 *   Timeline timeline(device);
 *   const SyncPoint done[] = {timeline.next()};
 *   context.submit({.batch = batch.gpu_address(), .signal = done});
 *   timeline.wait();   // the last point handed out
 */
class Timeline {
public:
    explicit Timeline(const Device& device) : syncobj_(device) {}

    /// The next point, to signal; it becomes last().
    [[nodiscard]] SyncPoint next() noexcept { return syncobj_.at(++last_); }
    /// The last point handed out by next() (0 before the first).
    [[nodiscard]] SyncPoint last() const noexcept { return syncobj_.at(last_); }
    /// Waits for the last point handed out.
    WaitResult wait(std::chrono::nanoseconds timeout = wait_forever) const
    {
        return syncobj_.wait(last_, timeout);
    }
    /// Waits for @point.
    WaitResult wait(std::uint64_t point, std::chrono::nanoseconds timeout) const
    {
        return syncobj_.wait(point, timeout);
    }

    [[nodiscard]] const Syncobj& syncobj() const noexcept { return syncobj_; }

private:
    Syncobj syncobj_;
    std::uint64_t last_{0};
};

} // namespace tempo
