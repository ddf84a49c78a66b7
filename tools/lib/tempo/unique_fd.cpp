// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 */
#include <cerrno>

#include <fcntl.h>
#include <unistd.h>

#include <tempo/error.hpp>
#include <tempo/unique_fd.hpp>

namespace tempo {

void UniqueFd::reset(int fd) noexcept
{
    if (fd_ >= 0 && fd_ != fd) {
        // close() releases the descriptor even when it reports EINTR: never retry.
        ::close(fd_);
    }
    fd_ = fd;
}

UniqueFd UniqueFd::duplicate() const
{
    const int fd = ::fcntl(fd_, F_DUPFD_CLOEXEC, 0);
    if (fd < 0)
        throw Error(errno, "fcntl", "duplicating file descriptor " + std::to_string(fd_));
    return UniqueFd{fd};
}

} // namespace tempo
