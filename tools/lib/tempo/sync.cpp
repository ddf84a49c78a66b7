// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 */
#include <cerrno>
#include <cstdint>
#include <ctime>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include <linux/sync_file.h>
#include <poll.h>

#include <tempo/device.hpp>
#include <tempo/error.hpp>
#include <tempo/sync.hpp>

#include "device_state.hpp"
#include "ioctl.hpp"
#include "syncobj.hpp"
#include "uapi.hpp"

namespace tempo {

namespace {

using std::chrono::nanoseconds;

// CLOCK_MONOTONIC now + @timeout in nanoseconds, saturated (syncobj waits
// take an absolute deadline, which also makes the EINTR retry exact).
std::int64_t deadline_ns(nanoseconds timeout)
{
    constexpr std::int64_t max = std::numeric_limits<std::int64_t>::max();
    if (timeout == wait_forever)
        return max;
    timespec now{};
    ::clock_gettime(CLOCK_MONOTONIC, &now);
    const std::int64_t now_ns = std::int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
    const std::int64_t wait = std::max<std::int64_t>(timeout.count(), 0);
    return wait > max - now_ns ? max : now_ns + wait;
}

std::string describe_syncobj(SyncobjHandle handle, std::uint64_t point)
{
    std::string text = "syncobj " + std::to_string(handle.value());
    if (point)
        text += " point " + std::to_string(point);
    return text;
}

} // namespace

// ---------------------------------------------------------------------------
// Fence

WaitResult Fence::wait(nanoseconds timeout) const
{
    if (!valid())
        throw std::logic_error("tempo::Fence::wait: empty fence");
    const bool forever = timeout == wait_forever;
    const auto deadline = forever ? std::chrono::steady_clock::time_point::max()
                                  : std::chrono::steady_clock::now() + timeout;
    for (;;) {
        pollfd pfd{.fd = fd_.get(), .events = POLLIN, .revents = 0};
        timespec ts{};
        if (!forever) {
            const auto left =
                std::max(nanoseconds{0}, std::chrono::duration_cast<nanoseconds>(
                                             deadline - std::chrono::steady_clock::now()));
            ts.tv_sec = static_cast<time_t>(left.count() / 1'000'000'000);
            ts.tv_nsec = static_cast<long>(left.count() % 1'000'000'000);
        }
        const int ret = ::ppoll(&pfd, 1, forever ? nullptr : &ts, nullptr);
        if (ret > 0) {
            if (pfd.revents & (POLLERR | POLLNVAL))
                throw Error(EBADF, "poll", "fd " + std::to_string(fd_.get()) + " is not a fence");
            return WaitResult::Signaled;
        }
        if (ret == 0)
            return WaitResult::Timeout;
        if (errno != EINTR && errno != EAGAIN)
            throw Error(errno, "poll", "waiting for fence fd " + std::to_string(fd_.get()));
    }
}

int Fence::status() const
{
    if (!valid())
        throw std::logic_error("tempo::Fence::status: empty fence");
    sync_file_info info{};
    detail::ioctl_or_throw(fd_.get(), TEMPO_IOCTL(SYNC_IOC_FILE_INFO), &info, [&] {
        return "reading the status of fence fd " + std::to_string(fd_.get());
    });
    return info.status;
}

// ---------------------------------------------------------------------------
// Syncobj operations, shared by Syncobj and DeviceSubmitter

namespace detail {

SyncobjHandle syncobj_create(const DeviceState& device, bool signaled)
{
    drm_syncobj_create create{
        .handle = 0,
        .flags = signaled ? static_cast<__u32>(DRM_SYNCOBJ_CREATE_SIGNALED) : 0U,
    };
    ioctl_or_throw(device.fd.get(), TEMPO_IOCTL(DRM_IOCTL_SYNCOBJ_CREATE), &create,
                   [] { return std::string{"creating a syncobj"}; });
    return SyncobjHandle{create.handle};
}

void syncobj_destroy(const DeviceState& device, SyncobjHandle handle) noexcept
{
    drm_syncobj_destroy destroy{
        .handle = handle.value(),
        .pad = 0,
    };
    ioctl(device.fd.get(), TEMPO_IOCTL(DRM_IOCTL_SYNCOBJ_DESTROY), &destroy);
}

WaitResult syncobj_wait(const DeviceState& device, SyncobjHandle syncobj, std::uint64_t point,
                        nanoseconds timeout)
{
    std::uint32_t handle = syncobj.value();
    const std::int64_t deadline = deadline_ns(timeout);
    const auto handles = reinterpret_cast<std::uintptr_t>(&handle);
    const int fd = device.fd.get();
    int ret;
    IoctlRequest request{};
    if (point == 0) {
        drm_syncobj_wait wait{
            .handles = handles,
            .timeout_nsec = deadline,
            .count_handles = 1,
            .flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
            .first_signaled = 0,
            .pad = 0,
        };
        request = TEMPO_IOCTL(DRM_IOCTL_SYNCOBJ_WAIT);
        ret = ioctl(fd, request, &wait);
    } else {
        std::uint64_t points = point;
        drm_syncobj_timeline_wait wait{
            .handles = handles,
            .points = reinterpret_cast<std::uintptr_t>(&points),
            .timeout_nsec = deadline,
            .count_handles = 1,
            .flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
            .first_signaled = 0,
            .pad = 0,
        };
        request = TEMPO_IOCTL(DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT);
        ret = ioctl(fd, request, &wait);
    }
    if (ret == -ETIME || ret == -ETIMEDOUT)
        return WaitResult::Timeout;
    if (ret < 0)
        throw_ioctl_error(ret, request, "waiting for " + describe_syncobj(syncobj, point));
    return WaitResult::Signaled;
}

void syncobj_signal(const DeviceState& device, SyncobjHandle syncobj, std::uint64_t point)
{
    std::uint32_t handle = syncobj.value();
    const int fd = device.fd.get();
    if (point == 0) {
        drm_syncobj_array array{
            .handles = reinterpret_cast<std::uintptr_t>(&handle),
            .count_handles = 1,
            .pad = 0,
        };
        ioctl_or_throw(fd, TEMPO_IOCTL(DRM_IOCTL_SYNCOBJ_SIGNAL), &array,
                       [&] { return "signalling " + describe_syncobj(syncobj, 0); });
    } else {
        std::uint64_t points = point;
        drm_syncobj_timeline_array array{
            .handles = reinterpret_cast<std::uintptr_t>(&handle),
            .points = reinterpret_cast<std::uintptr_t>(&points),
            .count_handles = 1,
            .flags = 0,
        };
        ioctl_or_throw(fd, TEMPO_IOCTL(DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL), &array,
                       [&] { return "signalling " + describe_syncobj(syncobj, point); });
    }
}

std::uint64_t syncobj_last_signaled(const DeviceState& device, SyncobjHandle syncobj)
{
    std::uint32_t handle = syncobj.value();
    std::uint64_t point = 0;
    drm_syncobj_timeline_array array{
        .handles = reinterpret_cast<std::uintptr_t>(&handle),
        .points = reinterpret_cast<std::uintptr_t>(&point),
        .count_handles = 1,
        .flags = 0,
    };
    ioctl_or_throw(device.fd.get(), TEMPO_IOCTL(DRM_IOCTL_SYNCOBJ_QUERY), &array,
                   [&] { return "querying " + describe_syncobj(syncobj, 0); });
    return point;
}

} // namespace detail

// ---------------------------------------------------------------------------
// Syncobj

Syncobj::Syncobj(const Device& device, bool signaled)
    : device_(detail::Access::state(device)), handle_(detail::syncobj_create(*device_, signaled))
{}

Syncobj::Syncobj(Syncobj&& other) noexcept
    : device_(std::move(other.device_)), handle_(std::exchange(other.handle_, SyncobjHandle{}))
{}

Syncobj& Syncobj::operator=(Syncobj&& other) noexcept
{
    if (this != &other) {
        destroy();
        device_ = std::move(other.device_);
        handle_ = std::exchange(other.handle_, SyncobjHandle{});
    }
    return *this;
}

Syncobj::~Syncobj()
{
    destroy();
}

void Syncobj::destroy() noexcept
{
    if (device_ && handle_ != SyncobjHandle{})
        detail::syncobj_destroy(*device_, handle_);
    handle_ = SyncobjHandle{};
    device_.reset();
}

WaitResult Syncobj::wait(std::uint64_t point, nanoseconds timeout) const
{
    return detail::syncobj_wait(*device_, handle_, point, timeout);
}

void Syncobj::signal(std::uint64_t point)
{
    detail::syncobj_signal(*device_, handle_, point);
}

void Syncobj::reset()
{
    std::uint32_t handle = handle_.value();
    drm_syncobj_array array{
        .handles = reinterpret_cast<std::uintptr_t>(&handle),
        .count_handles = 1,
        .pad = 0,
    };
    detail::ioctl_or_throw(device_->fd.get(), TEMPO_IOCTL(DRM_IOCTL_SYNCOBJ_RESET), &array,
                           [&] { return "resetting " + describe_syncobj(handle_, 0); });
}

std::uint64_t Syncobj::last_signaled() const
{
    return detail::syncobj_last_signaled(*device_, handle_);
}

Fence Syncobj::export_fence() const
{
    drm_syncobj_handle args{
        .handle = handle_.value(),
        .flags = DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE,
        .fd = -1,
        .pad = 0,
    };
    detail::ioctl_or_throw(
        device_->fd.get(), TEMPO_IOCTL(DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD), &args,
        [&] { return "exporting the fence of " + describe_syncobj(handle_, 0); });
    return Fence{UniqueFd{args.fd}};
}

void Syncobj::import_fence(const Fence& fence)
{
    drm_syncobj_handle args{
        .handle = handle_.value(),
        .flags = DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE,
        .fd = fence.fd(),
        .pad = 0,
    };
    detail::ioctl_or_throw(device_->fd.get(), TEMPO_IOCTL(DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE), &args,
                           [&] {
                               return "importing fence fd " + std::to_string(fence.fd()) +
                                      " into " + describe_syncobj(handle_, 0);
                           });
}

} // namespace tempo
