// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 */
#include "ioctl.hpp"

#include <cerrno>
#include <utility>

#include <sys/ioctl.h>

#include <tempo/error.hpp>

namespace tempo::detail {

int ioctl(int fd, unsigned long request, void* arg) noexcept
{
    int ret;
    do {
        ret = ::ioctl(fd, request, arg);
    } while (ret == -1 && errno == EINTR);
    return drm_result(ret);
}

void throw_drm_error(int ret, const char* operation, std::string reason)
{
    throw Error(-ret, operation, std::move(reason));
}

} // namespace tempo::detail
