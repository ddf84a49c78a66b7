// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 */
#include <utility>

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <tempo/unique_fd.hpp>

namespace {

bool is_open(int fd)
{
    return ::fcntl(fd, F_GETFD) != -1;
}

struct Pipe {
    Pipe()
    {
        int fds[2];
        EXPECT_EQ(::pipe2(fds, O_CLOEXEC), 0);
        read_end = fds[0];
        write_end = fds[1];
    }
    int read_end{-1};
    int write_end{-1};
};

TEST(UniqueFd, ClosesOnDestruction)
{
    const Pipe p;
    {
        const tempo::UniqueFd a{p.read_end};
        const tempo::UniqueFd b{p.write_end};
        EXPECT_TRUE(a.valid());
        EXPECT_EQ(a.get(), p.read_end);
    }
    EXPECT_FALSE(is_open(p.read_end));
    EXPECT_FALSE(is_open(p.write_end));
}

TEST(UniqueFd, DefaultIsEmpty)
{
    const tempo::UniqueFd fd;
    EXPECT_EQ(fd.get(), -1);
    EXPECT_FALSE(fd.valid());
    EXPECT_FALSE(static_cast<bool>(fd));
}

TEST(UniqueFd, MoveConstruct)
{
    const Pipe p;
    tempo::UniqueFd a{p.read_end};
    tempo::UniqueFd b{std::move(a)};
    EXPECT_EQ(a.get(), -1); // NOLINT(bugprone-use-after-move): moved-from is empty
    EXPECT_EQ(b.get(), p.read_end);
    EXPECT_TRUE(is_open(p.read_end));
    ::close(p.write_end);
}

TEST(UniqueFd, MoveAssignClosesTheOldDescriptor)
{
    const Pipe p;
    tempo::UniqueFd a{p.read_end};
    tempo::UniqueFd b{p.write_end};
    b = std::move(a);
    EXPECT_FALSE(is_open(p.write_end));
    EXPECT_TRUE(is_open(p.read_end));
    EXPECT_EQ(b.get(), p.read_end);
    EXPECT_EQ(a.get(), -1); // NOLINT(bugprone-use-after-move)
}

TEST(UniqueFd, SelfMoveAssignKeepsTheDescriptor)
{
    const Pipe p;
    tempo::UniqueFd a{p.read_end};
    tempo::UniqueFd& alias = a;
    a = std::move(alias);
    EXPECT_EQ(a.get(), p.read_end);
    EXPECT_TRUE(is_open(p.read_end));
    ::close(p.write_end);
}

TEST(UniqueFd, ReleaseKeepsItOpen)
{
    const Pipe p;
    int released;
    {
        tempo::UniqueFd a{p.read_end};
        released = a.release();
        EXPECT_EQ(a.get(), -1);
    }
    EXPECT_EQ(released, p.read_end);
    EXPECT_TRUE(is_open(released));
    ::close(released);
    ::close(p.write_end);
}

TEST(UniqueFd, Reset)
{
    const Pipe p;
    tempo::UniqueFd a{p.read_end};
    a.reset(p.write_end);
    EXPECT_FALSE(is_open(p.read_end));
    EXPECT_EQ(a.get(), p.write_end);
    a.reset();
    EXPECT_FALSE(is_open(p.write_end));
    EXPECT_FALSE(a.valid());
}

TEST(UniqueFd, Duplicate)
{
    const Pipe p;
    const tempo::UniqueFd a{p.read_end};
    const tempo::UniqueFd b = a.duplicate();
    EXPECT_NE(b.get(), a.get());
    EXPECT_TRUE(is_open(b.get()));
    EXPECT_EQ(::fcntl(b.get(), F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
    ::close(p.write_end);

    const tempo::UniqueFd empty;
    EXPECT_THROW((void)empty.duplicate(), std::system_error);
}

} // namespace
