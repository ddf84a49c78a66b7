// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * tempo-tooling's command line: counts with suffixes, and what parse()
 * returns and prints for --help, --version and usage errors.
 */
#include <cstdint>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tempo-tooling/cli.hpp"

namespace {

namespace tooling = tempo::tooling;

TEST(ToolingCount, DigitsAndSuffixes)
{
    EXPECT_EQ(tooling::parse_count("0"), 0U);
    EXPECT_EQ(tooling::parse_count("250"), 250U);
    EXPECT_EQ(tooling::parse_count("2k"), 2000U);
    EXPECT_EQ(tooling::parse_count("3M"), 3000000U);
}

TEST(ToolingCount, RejectsWhatIsNoCount)
{
    for (const char* text : {"", "k", "-1", "1.5", "2m", "2K", "12x", " 1", "18446744073709552k"})
        EXPECT_FALSE(tooling::parse_count(text).has_value()) << text;
}

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
    tooling::add_count(app, "--count", p.value, "a count", 1, 5000);
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

TEST(ToolingParse, HelpGoesToStdoutAndExitsZero)
{
    const auto p = parse({"--help"});
    EXPECT_EQ(p.status, 0);
    EXPECT_TRUE(p.out.starts_with("Usage: tempo-test [OPTIONS]")) << p.out;
    EXPECT_NE(p.out.find("--count N"), std::string::npos) << p.out;
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
                                               {"--count", "6k"},
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
