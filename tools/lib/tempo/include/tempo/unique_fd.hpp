// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 */
#pragma once

namespace tempo {

/**
 * UniqueFd - owns a file descriptor and closes it
 *
 * Move-only; a moved-from UniqueFd is empty (get() == -1).
 */
class UniqueFd {
public:
    UniqueFd() noexcept = default;
    /// Takes ownership of @fd (-1 for none).
    explicit UniqueFd(int fd) noexcept : fd_(fd) {}
    ~UniqueFd() { reset(); }

    UniqueFd(UniqueFd&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
    UniqueFd& operator=(UniqueFd&& other) noexcept
    {
        if (this != &other)
            reset(other.release());
        return *this;
    }
    UniqueFd(const UniqueFd&) = delete;
    UniqueFd& operator=(const UniqueFd&) = delete;

    /// The descriptor, still owned; -1 when empty.
    [[nodiscard]] int get() const noexcept { return fd_; }
    [[nodiscard]] bool valid() const noexcept { return fd_ >= 0; }
    explicit operator bool() const noexcept { return valid(); }

    /// Gives up ownership: the caller must close the returned descriptor.
    [[nodiscard]] int release() noexcept
    {
        const int fd = fd_;
        fd_ = -1;
        return fd;
    }

    /// Closes the current descriptor, if any, and takes @fd.
    void reset(int fd = -1) noexcept;

    /// A new descriptor for the same file (close-on-exec); throws tempo::Error.
    [[nodiscard]] UniqueFd duplicate() const;

private:
    int fd_{-1};
};

} // namespace tempo
