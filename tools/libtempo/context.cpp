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

} // namespace

Context::Context(const Device& device, Priority priority) : Context(device, {}, priority) {}

Context::Context(const Device& device, std::span<const Engine> engine_map, Priority priority)
    : device_(detail::Access::state(device))
{
    std::vector<drm_tempo_engine> slots;
    slots.reserve(engine_map.size());
    for (const Engine& engine : engine_map)
        slots.push_back(drm_tempo_engine{
            .engine_class = static_cast<__u16>(engine.engine_class),
            .engine_instance = engine.instance,
        });

    drm_tempo_ctx_create create{
        .extensions = 0,
        .flags = 0,
        .priority = to_uapi(priority),
        .num_slots = static_cast<__u32>(slots.size()),
        .ctx_id = 0,
        .slots = reinterpret_cast<std::uintptr_t>(slots.empty() ? nullptr : slots.data()),
    };
    constexpr auto request = TEMPO_IOCTL(DRM_IOCTL_TEMPO_CTX_CREATE);
    const int ret = detail::ioctl(device_->fd.get(), request, &create);
    if (ret == -EACCES)
        throw Error(
            EACCES, request.name,
            detail::priority_not_permitted(priority, detail::current_priority_ceiling(*device_)));
    if (ret < 0)
        detail::throw_ioctl_error(ret, request,
                                  "creating a context of priority " +
                                      detail::describe_priority(priority) + " with " +
                                      detail::describe_engine_map(engine_map));
    id_ = ContextId{create.ctx_id};

    if (engine_map.empty()) {
        for (const EngineInfo& info : device_->engines)
            engine_map_.push_back(info.engine);
    } else {
        engine_map_.assign(engine_map.begin(), engine_map.end());
    }
}

Context::Context(Context&& other) noexcept
    : device_(std::move(other.device_)),
      id_(std::exchange(other.id_, ContextId{})),
      engine_map_(std::move(other.engine_map_))
{}

Context& Context::operator=(Context&& other) noexcept
{
    if (this != &other) {
        destroy();
        device_ = std::move(other.device_);
        id_ = std::exchange(other.id_, ContextId{});
        engine_map_ = std::move(other.engine_map_);
    }
    return *this;
}

Context::~Context()
{
    destroy();
}

void Context::destroy() noexcept
{
    if (device_ && id_ != ContextId{}) {
        drm_tempo_ctx_destroy destroy{
            .ctx_id = id_.value(),
            .pad = 0,
        };
        detail::ioctl(device_->fd.get(), TEMPO_IOCTL(DRM_IOCTL_TEMPO_CTX_DESTROY), &destroy);
    }
    id_ = ContextId{};
    engine_map_.clear();
    device_.reset();
}

std::optional<Slot> Context::slot_of(Engine engine) const noexcept
{
    const auto it = std::find(engine_map_.begin(), engine_map_.end(), engine);
    if (it == engine_map_.end())
        return std::nullopt;
    return Slot{static_cast<std::uint32_t>(it - engine_map_.begin())};
}

Priority Context::priority() const
{
    drm_tempo_ctx_param param{
        .ctx_id = id_.value(),
        .param = DRM_TEMPO_CTX_PARAM_PRIORITY,
        .value = 0,
        .pad = 0,
    };
    constexpr auto request = TEMPO_IOCTL(DRM_IOCTL_TEMPO_CTX_GET_PARAM);
    detail::ioctl_or_throw(device_->fd.get(), request, &param, [&] {
        return "reading the priority of context " + std::to_string(id_.value());
    });
    const auto priority = priority_from_uapi(param.value);
    if (!priority)
        throw Error(EPROTO, request.name,
                    "context " + std::to_string(id_.value()) + " has priority " +
                        std::to_string(param.value) + ", outside -1023..1023");
    return *priority;
}

void Context::set_priority(Priority priority)
{
    drm_tempo_ctx_param param{
        .ctx_id = id_.value(),
        .param = DRM_TEMPO_CTX_PARAM_PRIORITY,
        .value = to_uapi(priority),
        .pad = 0,
    };
    constexpr auto request = TEMPO_IOCTL(DRM_IOCTL_TEMPO_CTX_SET_PARAM);
    const int ret = detail::ioctl(device_->fd.get(), request, &param);
    if (ret == -EACCES)
        throw Error(
            EACCES, request.name,
            detail::priority_not_permitted(priority, detail::current_priority_ceiling(*device_)));
    if (ret < 0)
        detail::throw_ioctl_error(ret, request,
                                  "setting the priority of context " + std::to_string(id_.value()) +
                                      " to " + detail::describe_priority(priority));
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

    const SyncArray in_syncs(submission.wait);
    const SyncArray out_syncs(submission.signal);

    drm_tempo_exec exec{
        .extensions = 0,
        .ctx_id = id_.value(),
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
    detail::ioctl_or_throw(device_->fd.get(), TEMPO_IOCTL(DRM_IOCTL_TEMPO_EXEC), &exec, [&] {
        std::string text = "context " + std::to_string(id_.value()) + ", slot " +
                           std::to_string(submission.slot.value());
        if (submission.slot.value() < engine_map_.size())
            text += " (" + to_string(engine_map_[submission.slot.value()]) + ")";
        else
            text += " (outside the engine map of " + std::to_string(engine_map_.size()) + " slots)";
        text += ", " + detail::count(num_batches, "batch", "batches") + ", " +
                detail::count(in_syncs.count(), "wait", "waits") + ", " +
                detail::count(out_syncs.count(), "signal", "signals");
        return text;
    });
    if (!submission.out_fence)
        return std::nullopt;
    return Fence{UniqueFd{exec.out_fence_fd}};
}

} // namespace tempo
