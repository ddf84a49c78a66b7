// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * tempo::Exception and its errors, the DRM call helpers and the reasons of
 * the errors.
 */
#include <cerrno>
#include <stdexcept>
#include <string>
#include <system_error>

#include <gtest/gtest.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <drm/tempo_drm.h>
#include <xf86drm.h>

#include <tempo/error.hpp>
#include <tempo/unique_fd.hpp>

#include "ioctl.hpp"
#include "messages.hpp"

namespace {

TEST(Error, MessageWithReason)
{
    const tempo::Error error(EINVAL, "DRM_IOCTL_TEMPO_EXEC", "context 3, slot 9");
    EXPECT_STREQ(error.what(), "DRM_IOCTL_TEMPO_EXEC: context 3, slot 9: Invalid argument");
    EXPECT_EQ(error.error_number(), EINVAL);
    EXPECT_EQ(error.operation(), "DRM_IOCTL_TEMPO_EXEC");
    EXPECT_EQ(error.reason(), "context 3, slot 9");
    EXPECT_EQ(error.code(), std::errc::invalid_argument);
    EXPECT_EQ(error.code().category(), std::system_category());
}

TEST(Error, MessageWithoutReason)
{
    const tempo::Error error(ENOMEM, "mmap");
    EXPECT_STREQ(error.what(), "mmap: Cannot allocate memory");
    EXPECT_EQ(error.reason(), "");
}

TEST(Error, IsASystemError)
{
    try {
        throw tempo::Error(EACCES, "DRM_IOCTL_TEMPO_CTX_CREATE", "priority");
    } catch (const std::system_error& e) {
        EXPECT_EQ(e.code(), std::errc::permission_denied);
        EXPECT_STREQ(e.what(), "DRM_IOCTL_TEMPO_CTX_CREATE: priority: Permission denied");
        return;
    }
    FAIL() << "not caught as std::system_error";
}

TEST(Error, EveryErrorIsATempoException)
{
    const auto message_of = [](const auto& thrown) -> std::string {
        try {
            throw thrown;
        } catch (const tempo::Exception& e) {
            return e.what();
        }
    };
    EXPECT_EQ(message_of(tempo::Error(EBUSY, "tempo::Queue::execute", "still executing")),
              "tempo::Queue::execute: still executing: Device or resource busy");
    EXPECT_EQ(message_of(tempo::UsageError("tempo::CommandList::close: already closed")),
              "tempo::CommandList::close: already closed");
}

TEST(Error, UsageErrorIsALogicErrorAndOneStdException)
{
    try {
        throw tempo::UsageError(std::string{"tempo::CommandList::clone: the list is open"});
    } catch (const std::logic_error& e) {
        EXPECT_STREQ(e.what(), "tempo::CommandList::clone: the list is open");
    }
    try {
        throw tempo::Error(EINVAL, "DRM_IOCTL_TEMPO_EXEC");
    } catch (const std::exception& e) {
        EXPECT_STREQ(e.what(), "DRM_IOCTL_TEMPO_EXEC: Invalid argument");
    }
}

TEST(DrmCall, NamesTheLibdrmFunction)
{
    constexpr auto create = TEMPO_DRM(drmSyncobjCreate);
    EXPECT_STREQ(create.name, "drmSyncobjCreate");
    std::uint32_t handle = 0;
    EXPECT_EQ(tempo::detail::drm_call(create, -1, 0U, &handle), -EBADF);
    try {
        tempo::detail::drm_call_or_throw(
            create, [] { return std::string{"creating a syncobj"}; }, -1, 0U, &handle);
        FAIL() << "no exception";
    } catch (const tempo::Error& e) {
        EXPECT_EQ(e.error_number(), EBADF);
        EXPECT_EQ(e.operation(), "drmSyncobjCreate");
        EXPECT_STREQ(e.what(), "drmSyncobjCreate: creating a syncobj: Bad file descriptor");
    }
}

TEST(DrmCall, ResultIsMinusErrnoOnFailure)
{
    errno = ENOENT;
    EXPECT_EQ(tempo::detail::drm_result(-1), -ENOENT);
    EXPECT_EQ(tempo::detail::drm_result(3), 3);
}

TEST(Ioctl, ReturnsNegativeErrno)
{
    EXPECT_EQ(tempo::detail::ioctl(-1, DRM_IOCTL_TEMPO_QUERY, nullptr), -EBADF);

    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    const tempo::UniqueFd read_end{fds[0]};
    const tempo::UniqueFd write_end{fds[1]};
    drm_tempo_query query{};
    EXPECT_EQ(tempo::detail::ioctl(read_end.get(), TEMPO_IOCTL(DRM_IOCTL_TEMPO_QUERY), &query),
              -ENOTTY);
}

TEST(Ioctl, NamesTheRequest)
{
    constexpr auto request = TEMPO_IOCTL(DRM_IOCTL_TEMPO_EXEC);
    EXPECT_STREQ(request.name, "DRM_IOCTL_TEMPO_EXEC");
    EXPECT_EQ(request.code, static_cast<unsigned long>(DRM_IOCTL_TEMPO_EXEC));
}

TEST(Ioctl, ThrowsWithContext)
{
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    const tempo::UniqueFd read_end{fds[0]};
    const tempo::UniqueFd write_end{fds[1]};
    drm_tempo_query query{};
    bool reason_built = false;
    try {
        tempo::detail::ioctl_or_throw(read_end.get(), TEMPO_IOCTL(DRM_IOCTL_TEMPO_QUERY), &query,
                                      [&] {
                                          reason_built = true;
                                          return std::string{"probing"};
                                      });
        FAIL() << "no exception";
    } catch (const tempo::Error& e) {
        EXPECT_TRUE(reason_built);
        EXPECT_EQ(e.error_number(), ENOTTY);
        EXPECT_EQ(e.operation(), "DRM_IOCTL_TEMPO_QUERY");
        EXPECT_STREQ(e.what(), "DRM_IOCTL_TEMPO_QUERY: probing: Inappropriate ioctl for device");
    }
}

TEST(Ioctl, ReasonOnlyBuiltOnFailure)
{
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    const tempo::UniqueFd read_end{fds[0]};
    const tempo::UniqueFd write_end{fds[1]};
    int available = -1;
    bool reason_built = false;
    const auto request = tempo::detail::IoctlRequest{FIONREAD, "FIONREAD"};
    EXPECT_EQ(tempo::detail::ioctl_or_throw(read_end.get(), request, &available,
                                            [&] {
                                                reason_built = true;
                                                return std::string{};
                                            }),
              0);
    EXPECT_EQ(available, 0);
    EXPECT_FALSE(reason_built);
}

TEST(Messages, PriorityNotPermitted)
{
    EXPECT_EQ(tempo::detail::priority_not_permitted(tempo::Priority::High, tempo::Priority::Normal),
              "priority high (512) not permitted, the ceiling is normal (0)");
    EXPECT_EQ(tempo::detail::priority_not_permitted(tempo::Priority{300}, tempo::Priority::Low),
              "priority 300 not permitted, the ceiling is low (-512)");
}

TEST(Messages, EngineMap)
{
    EXPECT_EQ(tempo::detail::describe_engine_map({}), "the default engine map");
    const tempo::Engine map[] = {{tempo::EngineClass::Compute, 0}, {tempo::EngineClass::Copy, 1}};
    EXPECT_EQ(tempo::detail::describe_engine_map(map), "engine map [compute:0, copy:1]");
}

TEST(Messages, Counts)
{
    EXPECT_EQ(tempo::detail::count(1, "batch", "batches"), "1 batch");
    EXPECT_EQ(tempo::detail::count(0, "wait", "waits"), "0 waits");
    EXPECT_EQ(tempo::detail::count(3, "signal", "signals"), "3 signals");
}

} // namespace
