// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 */
#include "ioctl.hpp"

#include <utility>

#include <xf86drm.h>

#include <tempo/error.hpp>

namespace tempo::detail {

int ioctl(int fd, unsigned long request, void* arg) noexcept
{
    return drm_result(drmIoctl(fd, request, arg));
}

void throw_drm_error(int ret, const char* operation, std::string reason)
{
    throw Error(-ret, operation, std::move(reason));
}

} // namespace tempo::detail
