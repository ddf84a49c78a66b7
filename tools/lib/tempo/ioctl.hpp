// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * The DRM call helpers of libtempo: every tempo ioctl goes through ioctl()
 * below, every syncobj and GEM operation through its libdrm function, named
 * in the errors they throw.
 */
#pragma once

#include <cerrno>
#include <string>
#include <utility>

namespace tempo::detail {

/// An ioctl request code with its name, for error messages.
struct IoctlRequest {
    unsigned long code;
    const char* name;
};

/// Names an ioctl by the macro that defines it: TEMPO_IOCTL(DRM_IOCTL_TEMPO_EXEC).
#define TEMPO_IOCTL(request)                                                                       \
    ::tempo::detail::IoctlRequest                                                                  \
    {                                                                                              \
        static_cast<unsigned long>(request), #request                                              \
    }

/// A libdrm function with its name, for error messages.
template <typename Function>
struct DrmFunction {
    Function* function;
    const char* name;
};

/// Names a libdrm function: TEMPO_DRM(drmSyncobjCreate).
#define TEMPO_DRM(function)                                                                        \
    ::tempo::detail::DrmFunction<decltype(function)>                                               \
    {                                                                                              \
        function, #function                                                                        \
    }

/**
 * The outcome of a libdrm call, which fails with a negative value and
 * errno set (-1 for most, -errno for the waits): @ret when it succeeded,
 * else -errno. Call it right after the call, before errno changes.
 */
[[nodiscard]] inline int drm_result(int ret) noexcept
{
    return ret < 0 ? -errno : ret;
}

/// Throws tempo::Error for the result @ret (-errno) of the call named @operation.
[[noreturn]] void throw_drm_error(int ret, const char* operation, std::string reason);

/**
 * Issues @request on @fd, again while it fails with EINTR. Unlike
 * drmIoctl(), it does not retry EAGAIN: tempo's EXEC fails with EAGAIN at
 * the file's limit of jobs in flight, which the caller must see rather
 * than spin on. Returns 0 (or the non-negative result) or -errno; never
 * throws, so that callers can add what they were doing.
 */
int ioctl(int fd, unsigned long request, void* arg) noexcept;

inline int ioctl(int fd, const IoctlRequest& request, void* arg) noexcept
{
    return ioctl(fd, request.code, arg);
}

/// Throws tempo::Error for the result @ret (-errno) of @request.
[[noreturn]] inline void throw_ioctl_error(int ret, const IoctlRequest& request, std::string reason)
{
    throw_drm_error(ret, request.name, std::move(reason));
}

/**
 * Issues @request and throws tempo::Error on failure; @reason (a callable
 * returning std::string) is only evaluated on failure.
 */
template <typename ReasonFn>
int ioctl_or_throw(int fd, const IoctlRequest& request, void* arg, ReasonFn&& reason)
{
    const int ret = ioctl(fd, request, arg);
    if (ret < 0)
        throw_ioctl_error(ret, request, reason());
    return ret;
}

/// Calls @function with @args; returns its result, or -errno when it failed. Never throws.
template <typename Function, typename... Args>
int drm_call(const DrmFunction<Function>& function, Args&&... args) noexcept
{
    return drm_result(function.function(std::forward<Args>(args)...));
}

/**
 * Calls @function with @args and throws tempo::Error naming it on failure;
 * @reason (a callable returning std::string) is only evaluated then.
 */
template <typename Function, typename ReasonFn, typename... Args>
int drm_call_or_throw(const DrmFunction<Function>& function, ReasonFn&& reason, Args&&... args)
{
    const int ret = drm_call(function, std::forward<Args>(args)...);
    if (ret < 0)
        throw_drm_error(ret, function.name, reason());
    return ret;
}

} // namespace tempo::detail
