// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * Where command lists and queues submit: the Submitter interface, and
 * DeviceSubmitter, its implementation on a tempo device.
 */
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <span>

#include <tempo/context.hpp>
#include <tempo/sync.hpp>
#include <tempo/types.hpp>
#include <tempo/unique_resource.hpp>

namespace tempo {

class Device;
class Submitter;

/// Limits that shape how command lists are encoded and submitted.
struct SubmitLimits {
    /// Longest packet, header included (DeviceInfo::max_packet_dwords).
    std::uint32_t max_packet_dwords{32};
    /// Largest number of waits, or of signals, of one exec (DeviceInfo::max_syncs).
    std::uint32_t max_syncs{64};
};

/**
 * BatchMemory - encoded packets in memory the GPU can read
 *
 * Made by Submitter::upload(). The storage stays valid while the
 * shared_ptr that upload() returned (or a copy of it) lives; after the last
 * copy is gone the submitter may reuse it. Whoever submits a batch keeps a
 * copy until the GPU is done with it.
 */
struct BatchMemory {
    /// GPU address of dword 0.
    GpuAddress gpu_address{};
    /// CPU view of the same memory.
    std::span<std::uint32_t> dwords{};
};

/**
 * Exec - one exec: a batch on a slot, run after every wait, signalling
 * every signal
 *
 * On a parallel slot of width N, @batches holds the N batches of the gang
 * (@batch is then its first one); it is empty for every other slot.
 */
struct Exec {
    Slot slot{0};
    GpuAddress batch{};
    std::span<const SyncPoint> wait{};
    std::span<const SyncPoint> signal{};
    std::span<const GpuAddress> batches{};
};

/**
 * SubmitterTimeline - a timeline syncobj of a Submitter, destroyed with it
 *
 * Built from its submitter, which it keeps alive (like a Vulkan-Hpp RAII
 * handle from its parent): the only way to get a timeline of a submitter,
 * so that each is destroyed exactly once. No point is signalled at first.
 * Move-only; a moved-from timeline owns nothing.
 *
 *   const SubmitterTimeline timeline(submitter);
 *   const SyncPoint done[] = {timeline.at(1)};
 */
class SubmitterTimeline {
public:
    /// A new timeline of @submitter; throws std::invalid_argument for none, Error on failure.
    explicit SubmitterTimeline(std::shared_ptr<Submitter> submitter);

    [[nodiscard]] SyncobjHandle handle() const noexcept { return timeline_->handle; }
    /// The timeline at @point, for an exec or a wait.
    [[nodiscard]] SyncPoint at(std::uint64_t point) const noexcept { return {handle(), point}; }
    [[nodiscard]] const std::shared_ptr<Submitter>& submitter() const noexcept
    {
        return timeline_->submitter;
    }
    /// The last point signalled, all earlier points included (polls).
    [[nodiscard]] std::uint64_t last_signaled() const;

private:
    struct Owned {
        std::shared_ptr<Submitter> submitter;
        SyncobjHandle handle{};

        friend bool operator==(const Owned&, const Owned&) = default;
    };
    struct Destroy {
        void operator()(const Owned& timeline) const noexcept { destroy(timeline); }
    };
    static void destroy(const Owned& timeline) noexcept;

    detail::UniqueResource<Owned, Destroy> timeline_;
};

/**
 * Submitter - the device services that command lists, queues and events use
 *
 * Batch memory, timeline syncobjs and the exec of one batch on a slot of
 * one context. DeviceSubmitter implements it on a tempo device; the unit
 * tests implement it with a fake GPU, so that every rule of command lists
 * and batched queues is tested without a device.
 *
 * Timelines are SubmitterTimeline objects, built from a shared_ptr to the
 * submitter; implementations provide the private create_timeline() and
 * destroy_timeline(), which only SubmitterTimeline calls.
 *
 * Objects that use a submitter (CommandList, Queue, BatchedQueue, Event)
 * hold a shared_ptr to it. A command list may only be executed on queues
 * of the submitter it was created with (its batch memory is that
 * submitter's); events may be used with every submitter of the same device
 * file. Implementations must be safe to call from several threads.
 */
class Submitter {
public:
    Submitter() = default;
    Submitter(const Submitter&) = delete;
    Submitter& operator=(const Submitter&) = delete;
    virtual ~Submitter() = default;

    [[nodiscard]] virtual SubmitLimits limits() const noexcept = 0;

    /// Copies @dwords into GPU-readable memory (see BatchMemory).
    [[nodiscard]] virtual std::shared_ptr<BatchMemory>
    upload(std::span<const std::uint32_t> dwords) = 0;

    /**
     * Batches that one exec on @slot takes: N for a parallel slot of width
     * N, else 1 (also for a slot the submitter does not know, which the
     * exec then refuses).
     */
    [[nodiscard]] virtual std::uint32_t slot_width(Slot slot) const noexcept
    {
        (void)slot;
        return 1;
    }

    /// Queues one exec; throws Error if it is refused (then nothing was queued).
    virtual void submit(const Exec& exec) = 0;

    /**
     * Waits until @point is submitted and signalled or @timeout passes (0
     * polls). Throws JobError when the job that signalled it failed.
     */
    virtual WaitResult wait(SyncPoint point, std::chrono::nanoseconds timeout) = 0;
    /// The last point of @timeline signalled, all earlier points included.
    [[nodiscard]] virtual std::uint64_t last_signaled(SyncobjHandle timeline) = 0;
    /// Signals @point from the CPU.
    virtual void signal(SyncPoint point) = 0;

private:
    friend class SubmitterTimeline;

    /// A new timeline syncobj, no point signalled (SubmitterTimeline's constructor).
    [[nodiscard]] virtual SyncobjHandle create_timeline() = 0;
    /// Destroys a timeline of create_timeline() (SubmitterTimeline's destructor).
    virtual void destroy_timeline(SyncobjHandle timeline) noexcept = 0;
};

/**
 * DeviceSubmitter - Submitter of a tempo device and one of its contexts
 *
 * Owns the context; Exec::slot indexes its engine map. Batch memory comes
 * from read-only (for the GPU) buffers that are recycled: small uploads
 * are carved out of 64 KiB buffers, larger ones get a buffer of a
 * power-of-two size; a buffer returns to a free pool once every upload in it
 * is released, so steady-state recording and submission make no buffer
 * ioctls.
 */
class DeviceSubmitter final : public Submitter {
public:
    DeviceSubmitter(const Device& device, Context context);
    ~DeviceSubmitter() override;

    /// A shared DeviceSubmitter of @context.
    [[nodiscard]] static std::shared_ptr<DeviceSubmitter> create(const Device& device,
                                                                 Context context);
    /// A shared DeviceSubmitter of a new context with @engine_map (empty: every engine).
    [[nodiscard]] static std::shared_ptr<DeviceSubmitter>
    create(const Device& device, const EngineMap& engine_map = {},
           Priority priority = Priority::Normal);

    [[nodiscard]] const Context& context() const noexcept { return context_; }
    /// Buffers made for batch memory so far (the pool's misses), for tests and benchmarks.
    [[nodiscard]] std::uint64_t buffers_created() const noexcept;

    [[nodiscard]] SubmitLimits limits() const noexcept override { return limits_; }
    /// The width of the context's slot @slot (1 outside the map).
    [[nodiscard]] std::uint32_t slot_width(Slot slot) const noexcept override;
    [[nodiscard]] std::shared_ptr<BatchMemory>
    upload(std::span<const std::uint32_t> dwords) override;
    void submit(const Exec& exec) override;
    WaitResult wait(SyncPoint point, std::chrono::nanoseconds timeout) override;
    [[nodiscard]] std::uint64_t last_signaled(SyncobjHandle timeline) override;
    void signal(SyncPoint point) override;

private:
    struct Pool;

    [[nodiscard]] SyncobjHandle create_timeline() override;
    void destroy_timeline(SyncobjHandle timeline) noexcept override;

    std::shared_ptr<detail::DeviceState> device_;
    Context context_;
    SubmitLimits limits_;
    std::shared_ptr<Pool> pool_;
};

} // namespace tempo
