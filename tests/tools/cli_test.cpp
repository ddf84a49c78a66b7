// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * tempo-tooling's command line: counts with suffixes and a range, and what
 * parse() returns and prints for --help, --version and usage errors.
 */
#include <cstdint>
#include <iostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "tempo-tooling/cli.hpp"

namespace {

namespace tooling = tempo::tooling;

/// Captures std::cout and std::cerr while it lives.
class Captured {
public:
    Captured() : out_(std::cout.rdbuf(out.rdbuf())), err_(std::cerr.rdbuf(err.rdbuf())) {}
    ~Captured()
    {
        std::cout.rdbuf(out_);
        std::cerr.rdbuf(err_);
    }
    Captured(const Captured&) = delete;
    Captured& operator=(const Captured&) = delete;

    std::ostringstream out;
    std::ostringstream err;

private:
    std::streambuf* out_;
    std::streambuf* err_;
};

/// A tool with one count option, parsed from @args.
struct Parsed {
    std::optional<int> status;
    std::uint64_t value = 7;
    std::string out;
    std::string err;
};

Parsed parse(std::vector<std::string> args)
{
    Parsed p;
    CLI::App app{"A tool for the tests.", "tempo-test"};
    tooling::setup(app);
    tooling::add_count(app, "--count", p.value, "a count", 1, 5'000'000);
    args.insert(args.begin(), "tempo-test");
    std::vector<char*> argv;
    for (auto& a : args)
        argv.push_back(a.data());
    const Captured captured;
    p.status = tooling::parse(app, static_cast<int>(argv.size()), argv.data());
    p.out = captured.out.str();
    p.err = captured.err.str();
    return p;
}

TEST(ToolingParse, OptionsAreStored)
{
    const auto p = parse({"--count", "2k"});
    EXPECT_FALSE(p.status.has_value());
    EXPECT_EQ(p.value, 2000U);
    EXPECT_EQ(parse({"--count=3"}).value, 3U);
    EXPECT_EQ(parse({}).value, 7U);
}

TEST(ToolingCount, DigitsAndSuffixes)
{
    EXPECT_EQ(parse({"--count", "1"}).value, 1U);
    EXPECT_EQ(parse({"--count", "250"}).value, 250U);
    EXPECT_EQ(parse({"--count", "2k"}).value, 2000U);
    EXPECT_EQ(parse({"--count", "5M"}).value, 5000000U);
}

/// The first line of what parse() printed on standard error for @args.
std::string error_of(std::vector<std::string> args)
{
    const auto p = parse(std::move(args));
    EXPECT_EQ(p.status, 2);
    return p.err.substr(0, p.err.find('\n'));
}

TEST(ToolingCount, OutOfItsRangeIsCli11sRangeError)
{
    EXPECT_EQ(error_of({"--count", "0"}), "tempo-test: --count: Value 0 not in range 1 to 5000000");
    EXPECT_EQ(error_of({"--count", "6M"}),
              "tempo-test: --count: Value 6000000 not in range 1 to 5000000");
    EXPECT_EQ(error_of({"--count=-1"}), "tempo-test: --count: Value -1 not in range 1 to 5000000");
}

TEST(ToolingCount, AnUnboundedCountStopsBelowInt64Max)
{
    CLI::App app{"A tool for the tests.", "tempo-test"};
    std::uint64_t value = 7;
    tooling::add_count(app, "--count", value, "a count");
    app.parse("--count 9223372036854775806", false);
    EXPECT_EQ(value, 9223372036854775806U);
    for (const char* text :
         {"9223372036854775807", "18446744073709551615", "99999999999999999999"}) {
        value = 7;
        try {
            app.parse(std::string{"--count "} + text, false);
            ADD_FAILURE() << text << " taken as " << value;
        } catch (const CLI::ValidationError& e) {
            EXPECT_EQ(std::string{e.what()}, std::string{"--count: Value "} + text +
                                                 " not in range 0 to 9223372036854775806");
        }
        EXPECT_EQ(value, 7U) << text;
    }
}

TEST(ToolingCount, WhatIsNoCountIsCli11sConversionError)
{
    for (const char* text : {"x", "1.5", "12x", "2m", "2K", "18446744073709552k"}) {
        const std::string error = error_of({"--count", text});
        EXPECT_TRUE(error.starts_with("tempo-test: --count: ")) << error;
        EXPECT_EQ(parse({"--count", text}).value, 7U) << text;
    }
}

TEST(ToolingParse, HelpGoesToStdoutAndExitsZero)
{
    const auto p = parse({"--help"});
    EXPECT_EQ(p.status, 0);
    EXPECT_TRUE(p.out.starts_with("Usage: tempo-test [OPTIONS]")) << p.out;
    EXPECT_NE(p.out.find("--count N "), std::string::npos) << p.out;
    EXPECT_NE(p.out.find("--version"), std::string::npos) << p.out;
    EXPECT_EQ(p.err, "");
}

TEST(ToolingParse, VersionIsToolAndProjectVersion)
{
    const auto p = parse({"--version"});
    EXPECT_EQ(p.status, 0);
    EXPECT_EQ(p.out, std::string{"tempo-test "} + tempo::version_string + "\n");
}

TEST(ToolingParse, UsageErrorsGoToStderrAndExitTwo)
{
    for (const std::vector<std::string>& args :
         std::vector<std::vector<std::string>>{{"--bogus"},
                                               {"--count"},
                                               {"--count", "0"},
                                               {"--count", "6M"},
                                               {"--count", "x"},
                                               {"extra"}}) {
        const auto p = parse(args);
        EXPECT_EQ(p.status, 2) << args[0];
        EXPECT_EQ(p.out, "") << args[0];
        EXPECT_TRUE(p.err.starts_with("tempo-test: ")) << p.err;
        EXPECT_NE(p.err.find("Usage: tempo-test"), std::string::npos) << p.err;
    }
}

} // namespace
