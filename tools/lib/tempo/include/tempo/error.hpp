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
 * Exception - the base of every error that libtempo reports
 *
 * Catch it for "any libtempo error" (as vk::Error in Vulkan-Hpp): a failed
 * call (tempo::Error, a std::system_error) or a broken rule of the API
 * (tempo::UsageError, a std::logic_error). It is not a std::exception
 * itself, so that each error has one std::exception base; what() is the
 * message of that base.
 *
 *   try {
 *       queue.execute(list);
 *   } catch (const tempo::Exception& e) {
 *       std::fprintf(stderr, "%s\n", e.what());
 *   }
 */
class Exception {
public:
    virtual ~Exception() = default;

    /// The message: what failed, and why.
    [[nodiscard]] virtual const char* what() const noexcept = 0;

protected:
    Exception() = default;
    Exception(const Exception&) = default;
    Exception& operator=(const Exception&) = default;
};

/**
 * Error - a failed ioctl, libdrm or system call
 *
 * Carries the errno (code(), in std::system_category()), the call that
 * failed (the ioctl name such as "DRM_IOCTL_TEMPO_EXEC", the libdrm
 * function such as "drmSyncobjTimelineWait", or a system call such as
 * "mmap") and a reason saying what libtempo was doing. what() reads
 * "DRM_IOCTL_TEMPO_EXEC: context 3, slot 9: Invalid argument", or
 * "OPERATION: strerror" without a reason.
 *
 * Compare with the portable conditions: ``e.code() == std::errc::permission_denied``.
 */
class Error : public Exception, public std::system_error {
public:
    /// @error_number: positive errno value.
    Error(int error_number, std::string operation, std::string reason = {});

    /// The positive errno value.
    [[nodiscard]] int error_number() const noexcept { return code().value(); }
    /// The ioctl, libdrm function or system call that failed.
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
 * JobError - a job failed on the GPU
 *
 * Thrown by the waits of queues and events (Queue::finish(),
 * Event::wait(), ...) when the job they waited for signalled with an
 * error, instead of reporting it signalled: error_number() is the fence's
 * errno: EFAULT for a GPU fault, EILSEQ for a malformed packet, ELOOP for
 * batches nested too deep, ETIMEDOUT for a job stopped by the hang
 * watchdog or the job timeout, ECANCELED for a job cancelled because an
 * earlier job of its context failed (the context is banned: see
 * Context::reset_status()), ESRCH for a job dropped when its context or
 * file went away. operation() is "job"; reason() names the timeline point.
 */
class JobError : public Error {
public:
    using Error::Error;
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
 * changed when it is thrown. A std::logic_error as well.
 *
 * Conditions that depend on the device's progress (a list still executing)
 * are tempo::Error values with an errno (EBUSY), like failed ioctls.
 */
class UsageError : public Exception, public std::logic_error {
public:
    explicit UsageError(const std::string& message) : std::logic_error(message) {}
    explicit UsageError(const char* message) : std::logic_error(message) {}

    [[nodiscard]] const char* what() const noexcept override { return std::logic_error::what(); }
};

} // namespace tempo
