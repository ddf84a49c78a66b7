// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 */
#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <tempo/context.hpp>
#include <tempo/device.hpp>
#include <tempo/error.hpp>

#include "device_state.hpp"
#include "ioctl.hpp"
#include "messages.hpp"
#include "name_table.hpp"
#include "uapi.hpp"

namespace tempo {

namespace {

// The kernel reads the batch array as __u64 GPU addresses.
static_assert(sizeof(GpuAddress) == sizeof(__u64) && std::is_standard_layout_v<GpuAddress>);

// The drm_tempo_sync array of a submission: on the stack for the usual few
// syncs, so that a submission does not allocate.
class SyncArray {
public:
    explicit SyncArray(std::span<const SyncPoint> points)
    {
        if (points.size() > std::numeric_limits<std::uint32_t>::max())
            throw std::invalid_argument("tempo::Context::submit: too many syncs");
        drm_tempo_sync* out = inline_.data();
        if (points.size() > inline_.size()) {
            heap_.resize(points.size());
            out = heap_.data();
        }
        for (const SyncPoint& point : points)
            *out++ = drm_tempo_sync{
                .handle = point.handle.value(),
                .flags = 0,
                .point = point.point,
            };
        data_ = points.empty() ? nullptr : (heap_.empty() ? inline_.data() : heap_.data());
        count_ = static_cast<std::uint32_t>(points.size());
    }
    SyncArray(const SyncArray&) = delete;
    SyncArray& operator=(const SyncArray&) = delete;

    [[nodiscard]] std::uint32_t count() const noexcept { return count_; }
    [[nodiscard]] std::uint64_t pointer() const noexcept
    {
        return reinterpret_cast<std::uintptr_t>(data_);
    }

private:
    std::array<drm_tempo_sync, 8> inline_;
    std::vector<drm_tempo_sync> heap_;
    const drm_tempo_sync* data_{nullptr};
    std::uint32_t count_{0};
};

drm_tempo_engine to_uapi_engine(const Engine& engine)
{
    return drm_tempo_engine{
        .engine_class = static_cast<__u16>(engine.engine_class),
        .engine_instance = engine.instance,
    };
}

// The arrays and the extension chain of a DRM_IOCTL_TEMPO_CTX_CREATE: a
// NONE entry in the slots for each load-balanced and parallel slot, which
// one extension configures. Vectors are sized up front: the chain points
// into them.
class CreateArgs {
public:
    explicit CreateArgs(std::span<const SlotDesc> map)
    {
        std::size_t extensions = 0;
        for (const SlotDesc& slot : map)
            extensions += slot.kind != SlotKind::Engine;
        engines_.resize(map.size());
        load_balance_.reserve(extensions);
        parallel_.reserve(extensions);
        __u64* link = &head_;
        for (std::size_t i = 0; i < map.size(); i++) {
            const SlotDesc& slot = map[i];
            std::vector<drm_tempo_engine>& engines = engines_[i];
            for (const Engine& engine : slot.engines)
                engines.push_back(to_uapi_engine(engine));
            if (slot.kind == SlotKind::Engine) {
                slots_.push_back(engines.front());
                continue;
            }
            slots_.push_back(drm_tempo_engine{.engine_class = 0,
                                              .engine_instance = DRM_TEMPO_ENGINE_INSTANCE_NONE});
            drm_tempo_user_extension* base = nullptr;
            if (slot.kind == SlotKind::LoadBalanced) {
                base =
                    &load_balance_
                         .emplace_back(drm_tempo_ctx_ext_load_balance{
                             .base = {.next = 0, .name = DRM_TEMPO_CTX_EXT_LOAD_BALANCE, .pad = 0},
                             .slot = static_cast<__u32>(i),
                             .num_siblings = static_cast<__u32>(engines.size()),
                             .flags = 0,
                             .pad = 0,
                             .siblings = reinterpret_cast<std::uintptr_t>(engines.data()),
                         })
                         .base;
            } else {
                base = &parallel_
                            .emplace_back(drm_tempo_ctx_ext_parallel{
                                .base = {.next = 0, .name = DRM_TEMPO_CTX_EXT_PARALLEL, .pad = 0},
                                .slot = static_cast<__u32>(i),
                                .width = static_cast<__u16>(slot.width),
                                .num_siblings = static_cast<__u16>(slot.num_siblings),
                                .flags = 0,
                                .mbz = 0,
                                .engines = reinterpret_cast<std::uintptr_t>(engines.data()),
                            })
                            .base;
            }
            *link = reinterpret_cast<std::uintptr_t>(base);
            link = &base->next;
        }
    }
    CreateArgs(const CreateArgs&) = delete;
    CreateArgs& operator=(const CreateArgs&) = delete;

    [[nodiscard]] std::uint64_t extensions() const noexcept { return head_; }
    [[nodiscard]] std::uint32_t num_slots() const noexcept
    {
        return static_cast<std::uint32_t>(slots_.size());
    }
    [[nodiscard]] std::uint64_t slots() const noexcept
    {
        return reinterpret_cast<std::uintptr_t>(slots_.empty() ? nullptr : slots_.data());
    }

private:
    std::vector<drm_tempo_engine> slots_;
    std::vector<std::vector<drm_tempo_engine>> engines_;
    std::vector<drm_tempo_ctx_ext_load_balance> load_balance_;
    std::vector<drm_tempo_ctx_ext_parallel> parallel_;
    __u64 head_{0};
};

// What the device allows, for the reason of a refused parallel slot.
std::string parallel_limits(const DeviceInfo& info)
{
    std::string classes;
    for (const EngineClass c : {EngineClass::Gfx, EngineClass::Compute, EngineClass::Copy})
        if (info.supports_parallel(c))
            classes += (classes.empty() ? "" : ", ") + to_string(c);
    return "parallel slots need a class with parallel support (" +
           (classes.empty() ? std::string{"none"} : classes) + ") and a width of at most " +
           std::to_string(info.max_batches) + ", with at most " +
           std::to_string(info.max_siblings) + " siblings";
}

constexpr detail::NameTable<SlotKind, 3> slot_kind_names{{
    {SlotKind::Engine, "engine"},
    {SlotKind::LoadBalanced, "load-balanced"},
    {SlotKind::Parallel, "parallel"},
}};

} // namespace

std::string_view to_string(SlotKind kind) noexcept
{
    return detail::name_of(slot_kind_names, kind).value_or("unknown");
}

std::span<const Engine> SlotDesc::siblings_of(std::uint32_t batch) const
{
    if (batch >= width)
        throw std::out_of_range("tempo::SlotDesc::siblings_of: batch " + std::to_string(batch) +
                                " of a slot of width " + std::to_string(width));
    return std::span{engines}.subspan(std::size_t{batch} * num_siblings, num_siblings);
}

std::string to_string(const SlotDesc& slot)
{
    if (slot.kind == SlotKind::Engine && slot.engines.size() == 1)
        return to_string(slot.engines.front());
    std::string text{to_string(slot.kind)};
    if (slot.kind == SlotKind::Parallel)
        text += " " + std::to_string(slot.width) + "x" + std::to_string(slot.num_siblings);
    text += "{";
    for (std::size_t i = 0; i < slot.engines.size(); i++) {
        if (i)
            text += slot.num_siblings && i % slot.num_siblings == 0 ? " | " : " ";
        text += to_string(slot.engines[i]);
    }
    return text + "}";
}

Slot EngineMap::add(Engine engine)
{
    slots_.push_back(
        SlotDesc{.kind = SlotKind::Engine, .width = 1, .num_siblings = 1, .engines = {engine}});
    return Slot{static_cast<std::uint32_t>(slots_.size() - 1)};
}

Slot EngineMap::add_load_balanced(std::span<const Engine> siblings)
{
    if (siblings.empty())
        throw std::invalid_argument(
            "tempo::EngineMap::add_load_balanced: a load-balanced slot needs at least one sibling");
    if (siblings.size() > std::numeric_limits<std::uint16_t>::max())
        throw std::invalid_argument("tempo::EngineMap::add_load_balanced: " +
                                    std::to_string(siblings.size()) + " siblings, at most 65535");
    slots_.push_back(SlotDesc{.kind = SlotKind::LoadBalanced,
                              .width = 1,
                              .num_siblings = static_cast<std::uint32_t>(siblings.size()),
                              .engines = {siblings.begin(), siblings.end()}});
    return Slot{static_cast<std::uint32_t>(slots_.size() - 1)};
}

Slot EngineMap::add_parallel(std::uint16_t width, std::uint16_t num_siblings,
                             std::span<const Engine> engines)
{
    constexpr const char* function = "tempo::EngineMap::add_parallel: ";
    if (width < 2)
        throw std::invalid_argument(std::string{function} + "width " + std::to_string(width) +
                                    ": a parallel slot runs at least 2 batches");
    if (num_siblings < 1)
        throw std::invalid_argument(std::string{function} +
                                    "num_siblings 0: each batch needs at least one engine");
    const std::size_t expected = std::size_t{width} * num_siblings;
    if (engines.size() != expected)
        throw std::invalid_argument(std::string{function} +
                                    "engines holds width * num_siblings entries, sibling j of "
                                    "batch i at engines[i * num_siblings + j]: " +
                                    std::to_string(width) + " * " + std::to_string(num_siblings) +
                                    " = " + std::to_string(expected) + " expected, " +
                                    std::to_string(engines.size()) + " given");
    slots_.push_back(SlotDesc{.kind = SlotKind::Parallel,
                              .width = width,
                              .num_siblings = num_siblings,
                              .engines = {engines.begin(), engines.end()}});
    return Slot{static_cast<std::uint32_t>(slots_.size() - 1)};
}

Slot EngineMap::add_parallel(std::uint16_t width, std::span<const Engine> siblings)
{
    if (siblings.size() > std::numeric_limits<std::uint16_t>::max())
        throw std::invalid_argument("tempo::EngineMap::add_parallel: " +
                                    std::to_string(siblings.size()) + " siblings, at most 65535");
    std::vector<Engine> engines;
    engines.reserve(std::size_t{width} * siblings.size());
    for (std::uint16_t i = 0; i < width; i++)
        engines.insert(engines.end(), siblings.begin(), siblings.end());
    return add_parallel(width, static_cast<std::uint16_t>(siblings.size()), engines);
}

namespace {

// Throws the Error of @request, refused with @ret, that asked for @priority:
// for EACCES the reason names the caller's ceiling, else it is @reason().
template <typename ReasonFn>
[[noreturn]] void throw_priority_error(const detail::DeviceState& device, int ret,
                                       const detail::IoctlRequest& request, Priority priority,
                                       ReasonFn&& reason)
{
    if (ret == -EACCES)
        detail::throw_ioctl_error(
            ret, request,
            detail::priority_not_permitted(priority, detail::current_priority_ceiling(device)));
    detail::throw_ioctl_error(ret, request, reason());
}

// Why the kernel refused to create a context with @map.
std::string create_failure(const detail::DeviceState& device, int ret,
                           std::span<const SlotDesc> map, Priority priority)
{
    std::string reason = "creating a context of priority " + detail::describe_priority(priority) +
                         " with " + detail::describe_slot_map(map);
    const bool parallel = std::any_of(map.begin(), map.end(), [](const SlotDesc& slot) {
        return slot.kind == SlotKind::Parallel;
    });
    if (ret == -ENODEV && parallel)
        reason += "; " + parallel_limits(device.info);
    if (ret == -E2BIG)
        reason += "; at most " + std::to_string(DRM_TEMPO_MAX_EXTENSIONS) +
                  " load-balanced and parallel slots";
    return reason;
}

ContextId create_context(const detail::DeviceState& device, std::span<const SlotDesc> map,
                         Priority priority)
{
    const CreateArgs args(map);
    drm_tempo_ctx_create create{
        .extensions = args.extensions(),
        .flags = 0,
        .priority = to_uapi(priority),
        .num_slots = args.num_slots(),
        .ctx_id = 0,
        .slots = args.slots(),
    };
    constexpr auto request = TEMPO_IOCTL(DRM_IOCTL_TEMPO_CTX_CREATE);
    const int ret = detail::ioctl(device.fd.get(), request, &create);
    if (ret < 0)
        throw_priority_error(device, ret, request, priority,
                             [&] { return create_failure(device, ret, map, priority); });
    return ContextId{create.ctx_id};
}

// The slots of the default engine map: every engine, in Device::engines() order.
std::vector<SlotDesc> default_slots(const detail::DeviceState& device)
{
    std::vector<SlotDesc> slots;
    for (const EngineInfo& info : device.engines)
        slots.push_back(SlotDesc{
            .kind = SlotKind::Engine, .width = 1, .num_siblings = 1, .engines = {info.engine}});
    return slots;
}

} // namespace

void detail::DestroyContext::operator()(const DeviceHandle<ContextId>& context) const noexcept
{
    drm_tempo_ctx_destroy destroy{
        .ctx_id = context.handle.value(),
        .pad = 0,
    };
    (void)ioctl(context.device->fd.get(), TEMPO_IOCTL(DRM_IOCTL_TEMPO_CTX_DESTROY), &destroy);
}

Context::Context(const Device& device, Priority priority) : Context(device, EngineMap{}, priority)
{}

Context::Context(const Device& device, const EngineMap& engine_map, Priority priority)
{
    const auto& state = detail::Access::state(device);
    const std::span<const SlotDesc> map = engine_map.slots();
    context_ = decltype(context_){{state, create_context(*state, map, priority)}};
    slots_ = map.empty() ? default_slots(*state) : std::vector<SlotDesc>{map.begin(), map.end()};
    for (const SlotDesc& slot : slots_)
        engine_map_.push_back(slot.kind == SlotKind::Engine
                                  ? slot.engines.front()
                                  : Engine{EngineClass::Gfx, engine_instance_none});
}

const SlotDesc& Context::slot(Slot slot) const
{
    if (slot.value() >= slots_.size())
        throw std::out_of_range("tempo::Context::slot: slot " + std::to_string(slot.value()) +
                                " outside the engine map of " + std::to_string(slots_.size()) +
                                " slots");
    return slots_[slot.value()];
}

std::optional<Slot> Context::slot_of(Engine engine) const noexcept
{
    if (engine.instance == engine_instance_none)
        return std::nullopt;
    const auto it = std::find(engine_map_.begin(), engine_map_.end(), engine);
    if (it == engine_map_.end())
        return std::nullopt;
    return Slot{static_cast<std::uint32_t>(it - engine_map_.begin())};
}

std::int64_t Context::get_param(std::uint32_t param, const char* what) const
{
    drm_tempo_ctx_param args{
        .ctx_id = id().value(),
        .param = param,
        .value = 0,
        .pad = 0,
    };
    detail::ioctl_or_throw(device().fd.get(), TEMPO_IOCTL(DRM_IOCTL_TEMPO_CTX_GET_PARAM), &args,
                           [&] {
                               return std::string{"reading the "} + what + " of context " +
                                      std::to_string(id().value());
                           });
    return args.value;
}

Priority Context::priority() const
{
    const std::int64_t value = get_param(DRM_TEMPO_CTX_PARAM_PRIORITY, "priority");
    const auto priority = priority_from_uapi(value);
    if (!priority)
        throw Error(EPROTO, "DRM_IOCTL_TEMPO_CTX_GET_PARAM",
                    "context " + std::to_string(id().value()) + " has priority " +
                        std::to_string(value) + ", outside -1023..1023");
    return *priority;
}

ResetStatus Context::reset_status() const
{
    const std::int64_t flags = get_param(DRM_TEMPO_CTX_PARAM_RESET_STATUS, "reset status");
    return {.reset = (flags & DRM_TEMPO_RESET_STATUS_RESET) != 0,
            .guilty = (flags & DRM_TEMPO_RESET_STATUS_GUILTY) != 0};
}

std::uint64_t Context::reset_count() const
{
    return static_cast<std::uint64_t>(get_param(DRM_TEMPO_CTX_PARAM_RESET_COUNT, "reset count"));
}

void Context::set_priority(Priority priority)
{
    drm_tempo_ctx_param param{
        .ctx_id = id().value(),
        .param = DRM_TEMPO_CTX_PARAM_PRIORITY,
        .value = to_uapi(priority),
        .pad = 0,
    };
    constexpr auto request = TEMPO_IOCTL(DRM_IOCTL_TEMPO_CTX_SET_PARAM);
    const int ret = detail::ioctl(device().fd.get(), request, &param);
    if (ret < 0)
        throw_priority_error(device(), ret, request, priority, [&] {
            return "setting the priority of context " + std::to_string(id().value()) + " to " +
                   detail::describe_priority(priority);
        });
}

std::string Context::describe_slot(Slot slot) const
{
    std::string text =
        "context " + std::to_string(id().value()) + ", slot " + std::to_string(slot.value());
    if (slot.value() < slots_.size())
        return text + " (" + to_string(slots_[slot.value()]) + ")";
    return text + " (outside the engine map of " + std::to_string(engine_map_.size()) + " slots)";
}

std::optional<Fence> Context::submit(const Submission& submission) const
{
    const bool single = submission.batches.empty();
    if (single && submission.batch == GpuAddress{})
        throw std::invalid_argument("tempo::Context::submit: the submission has no batch");
    if (submission.batches.size() > std::numeric_limits<std::uint32_t>::max())
        throw std::invalid_argument("tempo::Context::submit: too many batches");
    const GpuAddress* batches = single ? &submission.batch : submission.batches.data();
    const auto num_batches = static_cast<std::uint32_t>(single ? 1 : submission.batches.size());

    // The kernel's rule, checked first so that the error says which width.
    if (submission.slot.value() < slots_.size()) {
        const std::uint32_t width = slots_[submission.slot.value()].width;
        if (num_batches != width)
            throw Error(EINVAL, "DRM_IOCTL_TEMPO_EXEC",
                        describe_slot(submission.slot) + ": an exec on a slot of width " +
                            std::to_string(width) + " takes exactly " +
                            detail::count(width, "batch", "batches") + ", " +
                            std::to_string(num_batches) + " given; nothing was submitted");
    }

    const SyncArray in_syncs(submission.wait);
    const SyncArray out_syncs(submission.signal);
    drm_tempo_exec exec{
        .extensions = 0,
        .ctx_id = id().value(),
        .slot = submission.slot.value(),
        .flags = submission.out_fence ? DRM_TEMPO_EXEC_OUT_SYNC_FILE : 0U,
        .num_batches = num_batches,
        .batches = reinterpret_cast<std::uintptr_t>(batches),
        .num_in_syncs = in_syncs.count(),
        .num_out_syncs = out_syncs.count(),
        .in_syncs = in_syncs.pointer(),
        .out_syncs = out_syncs.pointer(),
        .out_fence_fd = -1,
        .pad = 0,
    };
    detail::ioctl_or_throw(device().fd.get(), TEMPO_IOCTL(DRM_IOCTL_TEMPO_EXEC), &exec, [&] {
        return describe_slot(submission.slot) + ", " +
               detail::count(num_batches, "batch", "batches") + ", " +
               detail::count(in_syncs.count(), "wait", "waits") + ", " +
               detail::count(out_syncs.count(), "signal", "signals");
    });
    if (!submission.out_fence)
        return std::nullopt;
    return Fence{UniqueFd{exec.out_fence_fd}};
}

} // namespace tempo
