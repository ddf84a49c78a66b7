// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 */
#pragma once

#include <concepts>
#include <cstdint>
#include <memory>
#include <optional>
#include <ranges>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <tempo/sync.hpp>
#include <tempo/types.hpp>
#include <tempo/unique_resource.hpp>

namespace tempo {

class Device;

namespace detail {
/// DRM_IOCTL_TEMPO_CTX_DESTROY.
struct DestroyContext {
    void operator()(const DeviceHandle<ContextId>& context) const noexcept;
};
} // namespace detail

/// What an engine-map slot is.
enum class SlotKind : std::uint8_t {
    /// One engine.
    Engine,
    /// A virtual engine of width 1 over sibling engines of one class.
    LoadBalanced,
    /// Width N >= 2: every exec takes N batches, run as a gang.
    Parallel,
};

/// "engine", "load-balanced" or "parallel".
[[nodiscard]] std::string_view to_string(SlotKind kind) noexcept;

/// Engine::instance of a slot that is not one engine (DRM_TEMPO_ENGINE_INSTANCE_NONE).
inline constexpr std::uint16_t engine_instance_none = 0xffff;

/**
 * SlotDesc - one slot of an engine map
 *
 * @engines holds, by @kind:
 *
 * - SlotKind::Engine: the engine (@width 1, @num_siblings 1);
 * - SlotKind::LoadBalanced: the @num_siblings siblings, one class (@width 1);
 *   each job runs on whichever sibling the kernel finds least busy;
 * - SlotKind::Parallel: @width columns of @num_siblings engines; sibling j
 *   of batch i is ``engines[i * num_siblings + j]`` (the index formula of
 *   &struct drm_tempo_ctx_ext_parallel). Every exec takes exactly @width
 *   batches; batch i runs on one engine of column i, each batch on a
 *   different engine, all starting together.
 */
struct SlotDesc {
    SlotKind kind{SlotKind::Engine};
    /// Batches per exec: 1, or N for a parallel slot.
    std::uint32_t width{1};
    /// Engines each batch may run on.
    std::uint32_t num_siblings{1};
    std::vector<Engine> engines;

    /// The engines batch @batch (< @width) may run on: column @batch.
    [[nodiscard]] std::span<const Engine> siblings_of(std::uint32_t batch) const;

    friend bool operator==(const SlotDesc&, const SlotDesc&) = default;
};

/**
 * "compute:0", "load-balanced{compute:1 compute:2}", or for a parallel slot
 * of width 2 with 2 siblings "parallel 2x2{compute:0 compute:1 | copy:0 copy:1}".
 */
[[nodiscard]] std::string to_string(const SlotDesc& slot);

/**
 * EngineMap - the slots of a context, to create it with
 *
 * Slots are added in order; each add function returns the Slot that exec
 * names. A range of Engine converts to a map of plain engine slots, so
 * ``Context(device, std::span{&engine, 1})`` keeps working; an empty map is
 * the default one (every engine, in Device::engines() order).
 *
 *   EngineMap map;
 *   const Slot gfx = map.add({EngineClass::Gfx, 0});
 *   const Slot any = map.add_load_balanced(computes);
 *   const Slot gang = map.add_parallel(2, 4, columns); // 2 batches, each on one of 4 engines
 *
 * The add functions check the shape of a slot (std::invalid_argument); the
 * kernel checks the rest when the context is created: the engines exist,
 * a column has one class and no engine twice, the class supports parallel
 * slots (DeviceInfo::parallel_classes), num_siblings <=
 * DeviceInfo::max_siblings, width <= DeviceInfo::max_batches.
 */
class EngineMap {
public:
    EngineMap() = default;
    /// One plain slot per engine of @engines, in order.
    template <std::ranges::contiguous_range Engines>
    requires std::same_as<std::ranges::range_value_t<Engines>, Engine>
    EngineMap(const Engines& engines) // NOLINT(google-explicit-constructor): the old engine maps
    {
        for (const Engine& engine : engines)
            add(engine);
    }

    /// A slot on @engine.
    Slot add(Engine engine);
    /**
     * A load-balanced slot over @siblings (at least one, of one class).
     * Throws std::invalid_argument for an empty list or more than 65535.
     */
    Slot add_load_balanced(std::span<const Engine> siblings);
    /**
     * A parallel slot of @width batches, each on one of @num_siblings
     * engines; @engines is indexed ``engines[i * num_siblings + j]``.
     * Throws std::invalid_argument unless @width >= 2, @num_siblings >= 1
     * and @engines has exactly @width * @num_siblings entries.
     */
    Slot add_parallel(std::uint16_t width, std::uint16_t num_siblings,
                      std::span<const Engine> engines);
    /// A parallel slot of @width batches, each on any of @siblings (every column is @siblings).
    Slot add_parallel(std::uint16_t width, std::span<const Engine> siblings);

    [[nodiscard]] std::span<const SlotDesc> slots() const noexcept { return slots_; }
    [[nodiscard]] std::size_t size() const noexcept { return slots_.size(); }
    [[nodiscard]] bool empty() const noexcept { return slots_.empty(); }

private:
    std::vector<SlotDesc> slots_;
};

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
 * ResetStatus - what became of a context's jobs (DRM_TEMPO_CTX_PARAM_RESET_STATUS)
 */
struct ResetStatus {
    /// A hardware queue was reset since the context was created (for any context's job).
    bool reset = false;
    /// A job of this context failed on the GPU: the context is banned, later submits fail.
    bool guilty = false;

    friend bool operator==(const ResetStatus&, const ResetStatus&) = default;
};

/**
 * Context - a GPU context: a priority and an engine map of slots
 *
 * Jobs submitted on one slot complete in submission order. Destroying the
 * context lets its submitted jobs run to completion. Move-only; a
 * moved-from context owns nothing (id() is ContextId{}).
 */
class Context {
public:
    /// A context with the default engine map: every engine, in Device::engines() order.
    explicit Context(const Device& device, Priority priority = Priority::Normal);
    /**
     * A context with the slots of @engine_map (an empty map is the default
     * one; a range of Engine is a map of plain slots). Throws Error: EINVAL
     * for an unknown engine, too many slots or a slot the kernel refuses
     * (a column mixing classes, an engine twice in a column, more siblings
     * than DeviceInfo::max_siblings), ENODEV for a parallel slot of a class
     * without parallel support or wider than DeviceInfo::max_batches,
     * E2BIG for more than 16 load-balanced and parallel slots, EACCES when
     * @priority is above the caller's ceiling. The reason names the map.
     */
    Context(const Device& device, const EngineMap& engine_map,
            Priority priority = Priority::Normal);

    [[nodiscard]] ContextId id() const noexcept { return context_->handle; }
    /**
     * The engine of each slot; {EngineClass::Gfx, engine_instance_none} for
     * load-balanced and parallel slots (see slots()).
     */
    [[nodiscard]] std::span<const Engine> engine_map() const noexcept { return engine_map_; }
    /// Every slot, as created.
    [[nodiscard]] std::span<const SlotDesc> slots() const noexcept { return slots_; }
    /// Slot @slot; std::out_of_range outside the map.
    [[nodiscard]] const SlotDesc& slot(Slot slot) const;
    /// The kind of slot @slot; std::out_of_range outside the map.
    [[nodiscard]] SlotKind slot_kind(Slot slot) const { return this->slot(slot).kind; }
    /// Batches per exec on slot @slot (1, or N for a parallel slot); std::out_of_range outside the
    /// map.
    [[nodiscard]] std::uint32_t slot_width(Slot slot) const { return this->slot(slot).width; }
    /// The first plain slot that runs on @engine.
    [[nodiscard]] std::optional<Slot> slot_of(Engine engine) const noexcept;

    /// The current priority, read from the kernel.
    [[nodiscard]] Priority priority() const;
    /**
     * Changes the priority of jobs submitted from now on. Throws Error with
     * EACCES ("priority ... not permitted, the ceiling is ...") above the
     * caller's ceiling; the old priority stays.
     */
    void set_priority(Priority priority);

    /// Whether a queue was reset and whether this context is to blame, read from the kernel.
    [[nodiscard]] ResetStatus reset_status() const;
    /// Hardware queue resets of the device since the context was created.
    [[nodiscard]] std::uint64_t reset_count() const;

    /**
     * Queues a job (DRM_IOCTL_TEMPO_EXEC); returns its Fence when
     * Submission::out_fence is set. Throws Error if the kernel refuses the
     * job (then nothing was queued), Error EINVAL without an ioctl when the
     * number of batches is not the slot's width (a parallel slot of width N
     * takes exactly N, every other slot 1), and std::invalid_argument for a
     * submission without batch.
     */
    std::optional<Fence> submit(const Submission& submission) const;

private:
    [[nodiscard]] const detail::DeviceState& device() const noexcept { return *context_->device; }
    /// DRM_IOCTL_TEMPO_CTX_GET_PARAM of @param; @what names it in errors.
    [[nodiscard]] std::int64_t get_param(std::uint32_t param, const char* what) const;
    /// "context 3, slot 2 (compute:0)", for the errors of submit().
    [[nodiscard]] std::string describe_slot(Slot slot) const;

    detail::UniqueResource<detail::DeviceHandle<ContextId>, detail::DestroyContext> context_;
    std::vector<Engine> engine_map_;
    std::vector<SlotDesc> slots_;
};

} // namespace tempo
