// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * tempo-tooling's JSON helpers: rounding, null for what is unknown, the
 * printed form.
 */
#include <cmath>
#include <limits>
#include <optional>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "tempo-tooling/json.hpp"

namespace {

using tempo::tooling::Json;
namespace tooling = tempo::tooling;

TEST(ToolingJson, NumbersAreRoundedToTheirDecimals)
{
    EXPECT_EQ(tooling::number(12.34567).dump(), "12.346");
    EXPECT_EQ(tooling::number(12.34567, 2).dump(), "12.35");
    EXPECT_EQ(tooling::number(70.0, 2).dump(), "70.0");
    EXPECT_EQ(tooling::number(0.0004).dump(), "0.0");
}

TEST(ToolingJson, WhatIsUnknownIsNull)
{
    EXPECT_TRUE(tooling::number(std::numeric_limits<double>::quiet_NaN()).is_null());
    EXPECT_TRUE(tooling::number(std::numeric_limits<double>::infinity()).is_null());
    EXPECT_TRUE(tooling::number(std::optional<double>{}).is_null());
    EXPECT_EQ(tooling::number(std::optional<double>{1.5}), 1.5);
    EXPECT_TRUE(tooling::value_or_null(std::optional<int>{}).is_null());
    EXPECT_EQ(tooling::value_or_null(std::optional<int>{3}), 3);
}

TEST(ToolingJson, PrintKeepsOrderIndentsAndEndsWithNewline)
{
    const Json j = {{"zeta", 1}, {"alpha", Json::array()}, {"mid", {{"x", "y"}}}};
    std::ostringstream out;
    tooling::print(j, out);
    EXPECT_EQ(out.str(),
              "{\n  \"zeta\": 1,\n  \"alpha\": [],\n  \"mid\": {\n    \"x\": \"y\"\n  }\n}\n");
}

TEST(ToolingJson, InvalidUtf8IsReplacedNotThrown)
{
    std::ostringstream out;
    tooling::print(Json{{"comm", std::string{"bad\xff"}}}, out);
    EXPECT_NE(out.str().find("\"comm\": \"bad\xef\xbf\xbd\""), std::string::npos) << out.str();
    EXPECT_EQ(Json::parse(out.str())["comm"], "bad\xef\xbf\xbd");
}

} // namespace
