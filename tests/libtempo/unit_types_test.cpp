// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * Value types: priorities, engines, ids and addresses; the shape of the API.
 */
#include <type_traits>

#include <gtest/gtest.h>

#include <tempo/tempo.hpp>

namespace {

using tempo::Priority;

TEST(Priority, MapsToUapiValues)
{
    EXPECT_EQ(tempo::to_uapi(Priority::VeryLow), -1023);
    EXPECT_EQ(tempo::to_uapi(Priority::Low), -512);
    EXPECT_EQ(tempo::to_uapi(Priority::Normal), 0);
    EXPECT_EQ(tempo::to_uapi(Priority::High), 512);
    EXPECT_EQ(tempo::to_uapi(Priority::VeryHigh), 1023);
}

TEST(Priority, FromUapi)
{
    EXPECT_EQ(tempo::priority_from_uapi(-1023), Priority::VeryLow);
    EXPECT_EQ(tempo::priority_from_uapi(-512), Priority::Low);
    EXPECT_EQ(tempo::priority_from_uapi(0), Priority::Normal);
    EXPECT_EQ(tempo::priority_from_uapi(512), Priority::High);
    EXPECT_EQ(tempo::priority_from_uapi(1023), Priority::VeryHigh);
    EXPECT_EQ(tempo::priority_from_uapi(300), Priority{300});
    EXPECT_EQ(tempo::priority_from_uapi(-1024), std::nullopt);
    EXPECT_EQ(tempo::priority_from_uapi(1024), std::nullopt);
    EXPECT_EQ(tempo::priority_from_uapi(std::int64_t{1} << 40), std::nullopt);
}

TEST(Priority, Names)
{
    EXPECT_EQ(tempo::to_string(Priority::VeryLow), "very-low");
    EXPECT_EQ(tempo::to_string(Priority::Low), "low");
    EXPECT_EQ(tempo::to_string(Priority::Normal), "normal");
    EXPECT_EQ(tempo::to_string(Priority::High), "high");
    EXPECT_EQ(tempo::to_string(Priority::VeryHigh), "very-high");
    EXPECT_EQ(tempo::to_string(Priority{-7}), "-7");
    for (auto p : {Priority::VeryLow, Priority::Low, Priority::Normal, Priority::High,
                   Priority::VeryHigh, Priority{42}})
        EXPECT_EQ(tempo::parse_priority(tempo::to_string(p)), p);
    EXPECT_EQ(tempo::parse_priority("-512"), Priority::Low);
    EXPECT_EQ(tempo::parse_priority("2000"), std::nullopt);
    EXPECT_EQ(tempo::parse_priority("urgent"), std::nullopt);
    EXPECT_EQ(tempo::parse_priority(""), std::nullopt);
    EXPECT_LT(Priority::Normal, Priority::High);
}

TEST(Engine, Names)
{
    using tempo::EngineClass;
    EXPECT_EQ(tempo::to_string(EngineClass::Gfx), "gfx");
    EXPECT_EQ(tempo::to_string(EngineClass::Compute), "compute");
    EXPECT_EQ(tempo::to_string(EngineClass::Copy), "copy");
    EXPECT_EQ(tempo::to_string(static_cast<EngineClass>(9)), "9");
    EXPECT_EQ(tempo::to_string(tempo::Engine{EngineClass::Copy, 1}), "copy:1");

    EXPECT_EQ(tempo::parse_engine("compute:3"), (tempo::Engine{EngineClass::Compute, 3}));
    EXPECT_EQ(tempo::parse_engine("copy"), (tempo::Engine{EngineClass::Copy, 0}));
    EXPECT_EQ(tempo::parse_engine("gfx:0"), (tempo::Engine{EngineClass::Gfx, 0}));
    EXPECT_EQ(tempo::parse_engine("gfx:"), std::nullopt);
    EXPECT_EQ(tempo::parse_engine("gfx:x"), std::nullopt);
    EXPECT_EQ(tempo::parse_engine("gfx:70000"), std::nullopt);
    EXPECT_EQ(tempo::parse_engine("blit:0"), std::nullopt);
    EXPECT_EQ(tempo::parse_engine_class("compute"), EngineClass::Compute);
    EXPECT_EQ(tempo::parse_engine_class("Compute"), std::nullopt);
}

TEST(Ids, AreDistinctTypes)
{
    static_assert(!std::is_convertible_v<tempo::ContextId, tempo::SyncobjHandle>);
    static_assert(!std::is_convertible_v<std::uint32_t, tempo::ContextId>);
    static_assert(!std::is_convertible_v<tempo::Slot, tempo::BoHandle>);
    static_assert(sizeof(tempo::ContextId) == sizeof(std::uint32_t));
    constexpr tempo::ContextId a{3};
    constexpr tempo::ContextId b{4};
    static_assert(a < b && a != b && a.value() == 3);
    EXPECT_EQ(tempo::Slot{}.value(), 0U);
}

TEST(GpuAddress, Arithmetic)
{
    constexpr tempo::GpuAddress a{0x1'2345'6780};
    static_assert(a.low() == 0x23456780 && a.high() == 1);
    static_assert((a + 0x80).value() == 0x1'2345'6800);
    static_assert((a + 0x80) - a == 0x80);
    static_assert(a < a + 1);
    EXPECT_EQ(tempo::GpuAddress{}.value(), 0U);
}

TEST(Api, OwnersAreMoveOnly)
{
    static_assert(!std::is_copy_constructible_v<tempo::Device>);
    static_assert(std::is_nothrow_move_constructible_v<tempo::Device>);
    static_assert(!std::is_copy_constructible_v<tempo::Buffer>);
    static_assert(std::is_nothrow_move_constructible_v<tempo::Buffer>);
    static_assert(std::is_nothrow_move_assignable_v<tempo::Buffer>);
    static_assert(!std::is_copy_constructible_v<tempo::Context>);
    static_assert(std::is_nothrow_move_constructible_v<tempo::Context>);
    static_assert(!std::is_copy_constructible_v<tempo::Syncobj>);
    static_assert(std::is_nothrow_move_constructible_v<tempo::Syncobj>);
    static_assert(!std::is_copy_constructible_v<tempo::Fence>);
    static_assert(std::is_nothrow_move_constructible_v<tempo::Fence>);
    static_assert(!std::is_copy_constructible_v<tempo::UniqueFd>);
    static_assert(std::is_base_of_v<std::system_error, tempo::Error>);
    SUCCEED();
}

TEST(Fence, EmptyFenceIsALogicError)
{
    const tempo::Fence fence;
    EXPECT_FALSE(fence.valid());
    EXPECT_THROW((void)fence.wait(std::chrono::milliseconds{1}), std::logic_error);
    EXPECT_THROW((void)fence.status(), std::logic_error);
}

TEST(Version, Matches)
{
    EXPECT_STREQ(tempo::version_string, TEMPO_VERSION_STRING);
    EXPECT_GE(TEMPO_VERSION_MAJOR, 0);
}

} // namespace
