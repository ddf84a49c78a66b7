// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 */
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <vector>

#include <tempo/sync.hpp>
#include <tempo/types.hpp>

namespace tempo {

class Device;

namespace detail {
struct DeviceState;
} // namespace detail

/**
 * Submission - what Context::submit() runs
 *
 * Meant for designated initializers:
 *
 *   ctx.submit({.slot = Slot{1}, .batch = batch.gpu_address(),
 *               .signal = signals, .out_fence = true});
 *
 * @batch is used when @batches is empty; @batches is for slots wider than
 * one batch. The wait and signal lists mix binary (point 0) and timeline
 * syncobjs.
 */
struct Submission {
    Slot slot{0};
    GpuAddress batch{};
    std::span<const GpuAddress> batches{};
    std::span<const SyncPoint> wait{};
    std::span<const SyncPoint> signal{};
    /// Return a sync_file Fence of the job.
    bool out_fence = false;
};

/**
 * Context - a GPU context: a priority and an engine map of slots
 *
 * Jobs submitted on one slot complete in submission order. Destroying the
 * context lets its submitted jobs run to completion. Move-only.
 */
class Context {
public:
    /// A context with the default engine map: every engine, in Device::engines() order.
    explicit Context(const Device& device, Priority priority = Priority::Normal);
    /**
     * A context whose slot i runs on @engine_map[i] (an empty map is the
     * default one). Throws Error: EINVAL for an unknown engine or too many
     * slots, EACCES when @priority is above the caller's ceiling.
     */
    Context(const Device& device, std::span<const Engine> engine_map,
            Priority priority = Priority::Normal);

    Context(Context&& other) noexcept;
    Context& operator=(Context&& other) noexcept;
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;
    ~Context();

    [[nodiscard]] ContextId id() const noexcept { return id_; }
    /// The engine of each slot.
    [[nodiscard]] std::span<const Engine> engine_map() const noexcept { return engine_map_; }
    /// The first slot that runs on @engine.
    [[nodiscard]] std::optional<Slot> slot_of(Engine engine) const noexcept;

    /// The current priority, read from the kernel.
    [[nodiscard]] Priority priority() const;
    /**
     * Changes the priority of jobs submitted from now on. Throws Error with
     * EACCES ("priority ... not permitted, the ceiling is ...") above the
     * caller's ceiling; the old priority stays.
     */
    void set_priority(Priority priority);

    /**
     * Queues a job (DRM_IOCTL_TEMPO_EXEC); returns its Fence when
     * Submission::out_fence is set. Throws Error if the kernel refuses the
     * job (then nothing was queued) and std::invalid_argument for a
     * submission without batch.
     */
    std::optional<Fence> submit(const Submission& submission) const;

private:
    void destroy() noexcept;

    std::shared_ptr<detail::DeviceState> device_;
    ContextId id_{};
    std::vector<Engine> engine_map_;
};

} // namespace tempo
