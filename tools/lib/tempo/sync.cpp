// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 */
#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <ctime>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <linux/sync_file.h>
#include <poll.h>

#include <xf86drm.h>

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
    std::uint32_t handle = 0;
    const auto flags = signaled ? static_cast<std::uint32_t>(DRM_SYNCOBJ_CREATE_SIGNALED) : 0U;
    drm_call_or_throw(
        TEMPO_DRM(drmSyncobjCreate), [] { return std::string{"creating a syncobj"}; },
        device.fd.get(), flags, &handle);
    return SyncobjHandle{handle};
}

void syncobj_destroy(const DeviceState& device, SyncobjHandle handle) noexcept
{
    (void)drm_call(TEMPO_DRM(drmSyncobjDestroy), device.fd.get(), handle.value());
}

WaitResult syncobj_wait(const DeviceState& device, SyncobjHandle syncobj, std::uint64_t point,
                        nanoseconds timeout)
{
    // A timeline wait for point 0 is the wait of a binary syncobj.
    constexpr auto wait = TEMPO_DRM(drmSyncobjTimelineWait);
    std::uint32_t handle = syncobj.value();
    std::uint64_t points = point;
    const int ret =
        drm_call(wait, device.fd.get(), &handle, &points, 1U, deadline_ns(timeout),
                 static_cast<unsigned>(DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT), nullptr);
    if (ret == -ETIME || ret == -ETIMEDOUT)
        return WaitResult::Timeout;
    if (ret < 0)
        throw_drm_error(ret, wait.name, "waiting for " + describe_syncobj(syncobj, point));
    return WaitResult::Signaled;
}

void syncobj_signal(const DeviceState& device, SyncobjHandle syncobj, std::uint64_t point)
{
    const std::uint32_t handle = syncobj.value();
    std::uint64_t points = point;
    const auto reason = [&] { return "signalling " + describe_syncobj(syncobj, point); };
    if (point == 0)
        drm_call_or_throw(TEMPO_DRM(drmSyncobjSignal), reason, device.fd.get(), &handle, 1U);
    else
        drm_call_or_throw(TEMPO_DRM(drmSyncobjTimelineSignal), reason, device.fd.get(), &handle,
                          &points, 1U);
}

std::uint64_t syncobj_last_signaled(const DeviceState& device, SyncobjHandle syncobj)
{
    std::uint32_t handle = syncobj.value();
    std::uint64_t point = 0;
    drm_call_or_throw(
        TEMPO_DRM(drmSyncobjQuery), [&] { return "querying " + describe_syncobj(syncobj, 0); },
        device.fd.get(), &handle, &point, 1U);
    return point;
}

int syncobj_point_error(const DeviceState& device, SyncobjHandle syncobj, std::uint64_t point)
{
    // A binary syncobj that holds the point's fence, exported as a
    // sync_file: its fence infos show the job's fence inside the timeline's
    // chain, with its error.
    struct Binary {
        explicit Binary(const DeviceState& d) : device(d), handle(syncobj_create(d, false)) {}
        Binary(const Binary&) = delete;
        Binary& operator=(const Binary&) = delete;
        ~Binary() { syncobj_destroy(device, handle); }

        const DeviceState& device;
        SyncobjHandle handle;
    } const binary{device};
    const auto reason = [&] { return "reading the status of " + describe_syncobj(syncobj, point); };
    drm_call_or_throw(TEMPO_DRM(drmSyncobjTransfer), reason, device.fd.get(), binary.handle.value(),
                      std::uint64_t{0}, syncobj.value(), point, 0U);
    int fd = -1;
    drm_call_or_throw(TEMPO_DRM(drmSyncobjExportSyncFile), reason, device.fd.get(),
                      binary.handle.value(), &fd);
    const UniqueFd sync_file{fd};
    sync_file_info info{};
    ioctl_or_throw(sync_file.get(), TEMPO_IOCTL(SYNC_IOC_FILE_INFO), &info, reason);
    std::vector<sync_fence_info> fences(info.num_fences);
    info.sync_fence_info = reinterpret_cast<std::uintptr_t>(fences.data());
    ioctl_or_throw(sync_file.get(), TEMPO_IOCTL(SYNC_IOC_FILE_INFO), &info, reason);
    int error = std::min(info.status, 0);
    for (const sync_fence_info& fence : fences)
        error = std::min(error, fence.status);
    return error;
}

void DestroySyncobj::operator()(const DeviceHandle<SyncobjHandle>& syncobj) const noexcept
{
    syncobj_destroy(*syncobj.device, syncobj.handle);
}

} // namespace detail

// ---------------------------------------------------------------------------
// Syncobj

Syncobj::Syncobj(const Device& device, bool signaled)
{
    const auto& state = detail::Access::state(device);
    syncobj_ = decltype(syncobj_){{state, detail::syncobj_create(*state, signaled)}};
}

WaitResult Syncobj::wait(std::uint64_t point, nanoseconds timeout) const
{
    return detail::syncobj_wait(device(), handle(), point, timeout);
}

void Syncobj::signal(std::uint64_t point)
{
    detail::syncobj_signal(device(), handle(), point);
}

void Syncobj::reset()
{
    const std::uint32_t handles[] = {handle().value()};
    detail::drm_call_or_throw(
        TEMPO_DRM(drmSyncobjReset), [&] { return "resetting " + describe_syncobj(handle(), 0); },
        device().fd.get(), handles, 1U);
}

std::uint64_t Syncobj::last_signaled() const
{
    return detail::syncobj_last_signaled(device(), handle());
}

Fence Syncobj::export_fence() const
{
    int fd = -1;
    detail::drm_call_or_throw(
        TEMPO_DRM(drmSyncobjExportSyncFile),
        [&] { return "exporting the fence of " + describe_syncobj(handle(), 0); },
        device().fd.get(), handle().value(), &fd);
    return Fence{UniqueFd{fd}};
}

void Syncobj::import_fence(const Fence& fence)
{
    detail::drm_call_or_throw(
        TEMPO_DRM(drmSyncobjImportSyncFile),
        [&] {
            return "importing fence fd " + std::to_string(fence.fd()) + " into " +
                   describe_syncobj(handle(), 0);
        },
        device().fd.get(), handle().value(), fence.fd());
}

} // namespace tempo
