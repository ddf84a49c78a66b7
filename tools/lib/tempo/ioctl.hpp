// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * The one ioctl helper of libtempo.
 */
#pragma once

#include <string>

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

/**
 * Issues @request on @fd, again while it fails with EINTR or EAGAIN (as
 * drmIoctl does). Returns 0 (or the non-negative result) or -errno; never
 * throws, so that callers can add what they were doing.
 */
int ioctl(int fd, unsigned long request, void* arg) noexcept;

inline int ioctl(int fd, const IoctlRequest& request, void* arg) noexcept
{
    return ioctl(fd, request.code, arg);
}

/// Throws tempo::Error for the result @ret (-errno) of @request.
[[noreturn]] void throw_ioctl_error(int ret, const IoctlRequest& request, std::string reason);

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

} // namespace tempo::detail
