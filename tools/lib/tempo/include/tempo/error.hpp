// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 */
#pragma once

#include <stdexcept>
#include <string>
#include <system_error>

namespace tempo {

/**
 * Error - a failed ioctl or system call
 *
 * Carries the errno (code(), in std::system_category()), the operation that
 * failed (the ioctl name such as "DRM_IOCTL_TEMPO_EXEC", or a system call
 * such as "mmap") and a reason saying what libtempo was doing. what() reads
 * "DRM_IOCTL_TEMPO_EXEC: context 3, slot 9: Invalid argument", or
 * "OPERATION: strerror" without a reason.
 *
 * Compare with the portable conditions: ``e.code() == std::errc::permission_denied``.
 */
class Error : public std::system_error {
public:
    /// @error_number: positive errno value.
    Error(int error_number, std::string operation, std::string reason = {});

    /// The positive errno value.
    [[nodiscard]] int error_number() const noexcept { return code().value(); }
    /// The ioctl or system call that failed.
    [[nodiscard]] const std::string& operation() const noexcept { return operation_; }
    /// What libtempo was doing, may be empty.
    [[nodiscard]] const std::string& reason() const noexcept { return reason_; }

    [[nodiscard]] const char* what() const noexcept override { return message_.c_str(); }

private:
    std::string operation_;
    std::string reason_;
    std::string message_;
};

/**
 * UsageError - a rule of the command-list API was broken
 *
 * A programming error that the caller can avoid by reading the rules, never
 * a condition of the device: cloning an open or non-cloneable list,
 * appending to a closed one, executing a one-shot list twice, updating a
 * command that is not a dispatch, waiting on an event that nothing signals.
 * what() names the function and the rule, for example "tempo::CommandList::
 * clone: the list is open; only a closed list can be cloned". Nothing is
 * changed when it is thrown.
 *
 * Conditions that depend on the device's progress (a list still executing)
 * are tempo::Error values with an errno (EBUSY), like failed ioctls.
 */
class UsageError : public std::logic_error {
public:
    using std::logic_error::logic_error;
};

} // namespace tempo
