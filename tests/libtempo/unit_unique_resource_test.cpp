// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * detail::UniqueResource, the owner that Buffer, Context, Syncobj and
 * SubmitterTimeline are built from: released exactly once, by the last
 * owner.
 */
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <tempo/unique_resource.hpp>

namespace {

std::vector<int> released;

struct Handle {
    int value{0};

    friend bool operator==(const Handle&, const Handle&) = default;
};

struct Release {
    void operator()(const Handle& handle) const noexcept { released.push_back(handle.value); }
};

using Owner = tempo::detail::UniqueResource<Handle, Release>;

class UniqueResourceTest : public ::testing::Test {
protected:
    void SetUp() override { released.clear(); }
};

TEST_F(UniqueResourceTest, ReleasesOnDestruction)
{
    {
        const Owner owner{Handle{7}};
        EXPECT_TRUE(owner);
        EXPECT_EQ(owner->value, 7);
        EXPECT_TRUE(released.empty());
    }
    EXPECT_EQ(released, std::vector<int>{7});
}

TEST_F(UniqueResourceTest, TheEmptyValueIsNeverReleased)
{
    {
        const Owner owner;
        EXPECT_FALSE(owner);
        const Owner zero{Handle{0}};
        EXPECT_FALSE(zero);
    }
    EXPECT_TRUE(released.empty());
}

TEST_F(UniqueResourceTest, MoveConstructTransfersOwnership)
{
    {
        Owner a{Handle{1}};
        const Owner b = std::move(a);
        EXPECT_FALSE(a); // NOLINT(bugprone-use-after-move): moved-from is empty
        EXPECT_EQ(b->value, 1);
    }
    EXPECT_EQ(released, std::vector<int>{1});
}

TEST_F(UniqueResourceTest, MoveAssignReleasesTheOldResourceFirst)
{
    Owner a{Handle{1}};
    Owner b{Handle{2}};
    b = std::move(a);
    EXPECT_EQ(released, std::vector<int>{2});
    EXPECT_EQ(b->value, 1);
    Owner& alias = b;
    b = std::move(alias); // self-assignment keeps it
    EXPECT_EQ(b->value, 1);
    b.reset();
    b.reset();
    EXPECT_EQ(released, (std::vector<int>{2, 1}));
}

/// A composite of several owners needs no destructor: they go in reverse order.
struct Composite {
    Owner first;
    Owner second;
};

TEST_F(UniqueResourceTest, ACompositeReleasesInReverseOrder)
{
    {
        const Composite c{Owner{Handle{1}}, Owner{Handle{2}}};
    }
    EXPECT_EQ(released, (std::vector<int>{2, 1}));
}

} // namespace
