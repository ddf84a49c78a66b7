// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 */
#include <algorithm>
#include <atomic>
#include <bit>
#include <cstddef>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <tempo/buffer.hpp>
#include <tempo/device.hpp>
#include <tempo/error.hpp>
#include <tempo/submitter.hpp>

#include "device_state.hpp"
#include "syncobj.hpp"

namespace tempo {

namespace {

// Uploads up to max_slice bytes share arena_size buffers, at slice_alignment.
constexpr std::uint64_t arena_size = 64 * 1024;
constexpr std::uint64_t max_slice = 16 * 1024;
constexpr std::uint64_t slice_alignment = 64;
// Free buffers kept per size.
constexpr std::size_t max_free_buffers = 16;

} // namespace

SubmitterTimeline::SubmitterTimeline(std::shared_ptr<Submitter> submitter)
{
    if (!submitter)
        throw std::invalid_argument("tempo::SubmitterTimeline: no submitter");
    const SyncobjHandle handle = submitter->create_timeline();
    timeline_ = decltype(timeline_){Owned{std::move(submitter), handle}};
}

std::uint64_t SubmitterTimeline::last_signaled() const
{
    return submitter()->last_signaled(handle());
}

void SubmitterTimeline::destroy(const Owned& timeline) noexcept
{
    timeline.submitter->destroy_timeline(timeline.handle);
}

/**
 * The batch memory of a DeviceSubmitter: buffers lent out (Lent) return to
 * the free lists when the last upload in them is released, which is after
 * the GPU is done with them (see BatchMemory).
 */
struct DeviceSubmitter::Pool : std::enable_shared_from_this<Pool> {
    struct Lent {
        Lent(Buffer lent, std::weak_ptr<Pool> owner)
            : buffer(std::move(lent)), pool(std::move(owner))
        {}
        Lent(const Lent&) = delete;
        Lent& operator=(const Lent&) = delete;
        ~Lent()
        {
            if (auto owner = pool.lock())
                owner->give_back(std::move(buffer));
        }

        Buffer buffer;
        std::weak_ptr<Pool> pool;
    };

    /// One upload: the memory and the buffer it lives in.
    struct Slice {
        BatchMemory memory;
        std::shared_ptr<Lent> buffer;
    };

    explicit Pool(Device pool_device) : device(std::move(pool_device)) {}

    // Called with the mutex held.
    std::shared_ptr<Lent> take(std::uint64_t size)
    {
        auto& list = free[size];
        if (!list.empty()) {
            Buffer buffer = std::move(list.back());
            list.pop_back();
            return std::make_shared<Lent>(std::move(buffer), weak_from_this());
        }
        created++;
        return std::make_shared<Lent>(Buffer(device, size, {.gpu_read_only = true}),
                                      weak_from_this());
    }

    void give_back(Buffer buffer) noexcept
    {
        try {
            const std::lock_guard lock(mutex);
            auto& list = free[buffer.size()];
            if (list.size() < max_free_buffers)
                list.push_back(std::move(buffer));
        } catch (...) {
            // The buffer is destroyed instead of kept.
        }
    }

    std::shared_ptr<BatchMemory> upload(std::span<const std::uint32_t> dwords)
    {
        const std::uint64_t bytes = std::max<std::uint64_t>(dwords.size_bytes(), 4);
        auto slice = std::make_shared<Slice>();
        std::uint64_t offset = 0;
        std::shared_ptr<Lent> retired; // released after the lock
        {
            const std::lock_guard lock(mutex);
            if (bytes <= max_slice) {
                const std::uint64_t aligned =
                    (bytes + slice_alignment - 1) / slice_alignment * slice_alignment;
                if (!arena || arena_used + aligned > arena->buffer.size()) {
                    retired = std::move(arena);
                    arena = take(arena_size);
                    arena_used = 0;
                }
                slice->buffer = arena;
                offset = arena_used;
                arena_used += aligned;
            } else {
                slice->buffer = take(std::bit_ceil(bytes));
            }
        }
        Buffer& buffer = slice->buffer->buffer;
        auto* cpu = reinterpret_cast<std::uint32_t*>(buffer.bytes().data() + offset);
        std::copy(dwords.begin(), dwords.end(), cpu);
        slice->memory = {buffer.gpu_address(offset), {cpu, dwords.size()}};
        return {slice, &slice->memory};
    }

    Device device;
    std::mutex mutex;
    std::map<std::uint64_t, std::vector<Buffer>> free;
    std::shared_ptr<Lent> arena;
    std::uint64_t arena_used{0};
    std::atomic<std::uint64_t> created{0};
};

DeviceSubmitter::DeviceSubmitter(const Device& device, Context context)
    : device_(detail::Access::state(device)),
      context_(std::move(context)),
      limits_{.max_packet_dwords = device.info().max_packet_dwords,
              .max_syncs = device.info().max_syncs},
      pool_(std::make_shared<Pool>(detail::Access::device(device_)))
{}

DeviceSubmitter::~DeviceSubmitter() = default;

std::shared_ptr<DeviceSubmitter> DeviceSubmitter::create(const Device& device, Context context)
{
    return std::make_shared<DeviceSubmitter>(device, std::move(context));
}

std::shared_ptr<DeviceSubmitter>
DeviceSubmitter::create(const Device& device, const EngineMap& engine_map, Priority priority)
{
    return create(device, Context(device, engine_map, priority));
}

std::uint64_t DeviceSubmitter::buffers_created() const noexcept
{
    return pool_->created.load();
}

std::shared_ptr<BatchMemory> DeviceSubmitter::upload(std::span<const std::uint32_t> dwords)
{
    return pool_->upload(dwords);
}

SyncobjHandle DeviceSubmitter::create_timeline()
{
    return detail::syncobj_create(*device_, false);
}

void DeviceSubmitter::destroy_timeline(SyncobjHandle timeline) noexcept
{
    detail::syncobj_destroy(*device_, timeline);
}

std::uint32_t DeviceSubmitter::slot_width(Slot slot) const noexcept
{
    const auto slots = context_.slots();
    return slot.value() < slots.size() ? slots[slot.value()].width : 1;
}

void DeviceSubmitter::submit(const Exec& exec)
{
    context_.submit({.slot = exec.slot,
                     .batch = exec.batch,
                     .batches = exec.batches,
                     .wait = exec.wait,
                     .signal = exec.signal});
}

WaitResult DeviceSubmitter::wait(SyncPoint point, std::chrono::nanoseconds timeout)
{
    if (detail::syncobj_wait(*device_, point.handle, point.point, timeout) == WaitResult::Timeout)
        return WaitResult::Timeout;
    // A job fails only in a context that the failure banned: one ioctl
    // per wait, and the fence's error only then.
    if (!context_.reset_status().guilty)
        return WaitResult::Signaled;
    const int error = detail::syncobj_point_error(*device_, point.handle, point.point);
    if (error < 0)
        throw JobError(-error, "job",
                       "the job signalling point " + std::to_string(point.point) +
                           " of timeline syncobj " + std::to_string(point.handle.value()));
    return WaitResult::Signaled;
}

std::uint64_t DeviceSubmitter::last_signaled(SyncobjHandle timeline)
{
    return detail::syncobj_last_signaled(*device_, timeline);
}

void DeviceSubmitter::signal(SyncPoint point)
{
    detail::syncobj_signal(*device_, point.handle, point.point);
}

} // namespace tempo
