// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * The command line of every tool, run as a program: --help prints the usage
 * on standard output and exits 0, --version prints "<tool> <version>" and
 * exits 0, a usage error prints the usage on standard error and exits 2.
 * None of these opens the device.
 */
#include <initializer_list>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include <tempo/version.hpp>

#include "run_command.hpp"

namespace {

struct Tool {
    const char* name;
    const char* path;
};

class ToolCli : public ::testing::TestWithParam<Tool> {
protected:
    /// Exit status and standard output of the tool with @args.
    static std::pair<int, std::string> stdout_of(const std::string& args)
    {
        return tempo_test::run_command(std::string{GetParam().path} + " " + args + " 2>/dev/null");
    }
    /// Exit status and standard error of the tool with @args.
    static std::pair<int, std::string> stderr_of(const std::string& args)
    {
        return tempo_test::run_command(std::string{GetParam().path} + " " + args +
                                       " 2>&1 >/dev/null");
    }
    static std::string usage() { return std::string{"Usage: "} + GetParam().name; }
};

TEST_P(ToolCli, HelpPrintsUsageOnStdoutAndExitsZero)
{
    for (const char* flag : {"--help", "-h"}) {
        const auto [status, out] = stdout_of(flag);
        EXPECT_EQ(status, 0) << flag;
        EXPECT_TRUE(out.starts_with(usage())) << out;
        EXPECT_NE(out.find("--version"), std::string::npos) << out;
        EXPECT_EQ(stderr_of(flag).second, "");
    }
}

TEST_P(ToolCli, VersionPrintsToolAndProjectVersion)
{
    const auto [status, out] = stdout_of("--version");
    EXPECT_EQ(status, 0);
    EXPECT_EQ(out, std::string{GetParam().name} + " " + tempo::version_string + "\n");
}

TEST_P(ToolCli, UnknownOptionPrintsUsageOnStderrAndExitsTwo)
{
    const auto [status, err] = stderr_of("--bogus");
    EXPECT_EQ(status, 2);
    EXPECT_TRUE(err.starts_with(std::string{GetParam().name} + ": ")) << err;
    EXPECT_NE(err.find(usage()), std::string::npos) << err;
    EXPECT_EQ(stdout_of("--bogus").second, "");
}

INSTANTIATE_TEST_SUITE_P(Tools, ToolCli,
                         ::testing::Values(Tool{"tempo-info", TEMPO_INFO_PATH},
                                           Tool{"tempo-top", TEMPO_TOP_PATH},
                                           Tool{"tempo-bench", TEMPO_BENCH_PATH},
                                           Tool{"tempo-demo", TEMPO_DEMO_PATH},
                                           Tool{"tempo-fuzz", TEMPO_FUZZ_PATH}),
                         [](const auto& param_info) {
                             std::string name = param_info.param.name;
                             name.erase(0, name.find('-') + 1);
                             return name;
                         });

std::pair<int, std::string> bench(const std::string& args)
{
    return tempo_test::run_command(std::string{TEMPO_BENCH_PATH} + " " + args + " 2>&1");
}

/// Each of @args makes the tool at @path exit 2, a usage error.
void expect_usage_errors(const std::string& path, std::initializer_list<const char*> args)
{
    for (const char* a : args)
        EXPECT_EQ(tempo_test::run_command(path + " " + a + " 2>&1").first, 2) << a;
}

/// @args make the tool at @path exit 2, a usage error, whose first line is @error.
void expect_usage_error(const std::string& path, const std::string& args, const std::string& error)
{
    const auto [status, out] = tempo_test::run_command(path + " " + args + " 2>&1 >/dev/null");
    EXPECT_EQ(status, 2) << args;
    EXPECT_EQ(out.substr(0, out.find('\n')), error) << out;
}

TEST(BenchCli, EachCommandHasItsOwnHelp)
{
    for (const char* command : {"nop", "latency", "parallel", "scale"}) {
        const auto [status, out] = bench(std::string{command} + " --help");
        EXPECT_EQ(status, 0) << command;
        EXPECT_TRUE(out.starts_with(std::string{"Usage: tempo-bench "} + command)) << out;
    }
}

TEST(BenchCli, TheCommandIsRequired)
{
    expect_usage_errors(TEMPO_BENCH_PATH, {"", "--json", "bogus"});
}

TEST(BenchCli, AnUnknownCommandIsNamedWithTheCommands)
{
    const auto [status, out] = bench("bogus");
    EXPECT_EQ(status, 2);
    EXPECT_TRUE(out.starts_with("tempo-bench: unknown command 'bogus' (commands: nop, latency, "
                                "parallel, scale)\n"))
        << out;
    EXPECT_NE(out.find("Usage: tempo-bench"), std::string::npos) << out;
}

TEST(FuzzCli, TakesItsDeviceWithTheOtherToolsOption)
{
    for (const char* option : {"--device", "--node"}) {
        const auto [status, out] = tempo_test::run_command(
            std::string{TEMPO_FUZZ_PATH} + " " + option + " /nonexistent/renderD200 2>&1");
        EXPECT_EQ(status, 77) << option << ": " << out;
        EXPECT_TRUE(out.starts_with("tempo-fuzz: /nonexistent/renderD200: No such file"))
            << option << ": " << out;
    }
}

TEST(FuzzCli, AValueThatIsNotANumberOfItsOptionIsAUsageError)
{
    const std::pair<const char*, const char*> cases[] = {
        {"--iterations abc", "tempo-fuzz: --iterations: 'abc' is not a whole number\n"},
        {"--iterations -1", "tempo-fuzz: --iterations: '-1' is not a whole number\n"},
        {"--seed 12x", "tempo-fuzz: --seed: '12x' is not a whole number\n"},
        {"--fast 99999999999999999999", "tempo-fuzz: --fast: '99999999999999999999' is not a "
                                        "whole number\n"},
        {"--chunk ''", "tempo-fuzz: --chunk: '' is not a whole number\n"},
        {"--seconds 1s", "tempo-fuzz: --seconds: '1s' is not a number of seconds\n"},
        {"--seconds nan", "tempo-fuzz: --seconds: 'nan' is not a number of seconds\n"},
        {"--chunk-seconds ' 2'", "tempo-fuzz: --chunk-seconds: ' 2' is not a number of seconds\n"},
    };
    for (const auto& [args, message] : cases) {
        const auto [status, out] =
            tempo_test::run_command(std::string{TEMPO_FUZZ_PATH} + " " + args + " 2>&1 >/dev/null");
        EXPECT_EQ(status, 2) << args;
        EXPECT_TRUE(out.starts_with(message)) << args << ": " << out;
        EXPECT_NE(out.find("Usage: tempo-fuzz"), std::string::npos) << args << ": " << out;
    }
}

TEST(BenchCli, AnOptionOfAnotherCommandIsAnError)
{
    expect_usage_errors(TEMPO_BENCH_PATH,
                        {"nop --samples 10", "parallel --hist x", "latency --width 3",
                         "scale --iterations 10", "nop --rounds 2"});
}

TEST(BenchCli, ValuesOutOfRangeAreUsageErrors)
{
    expect_usage_errors(TEMPO_BENCH_PATH,
                        {"nop --iterations 0", "parallel --width 1", "parallel --width 65",
                         "latency --load-ms 401", "nop --engine warp:0", "scale --files 0",
                         "scale --files 65", "scale --rounds 0", "scale --contexts 0"});
}

TEST(BenchCli, CountsAreCheckedByCli11)
{
    expect_usage_error(TEMPO_BENCH_PATH, "nop --iterations 0",
                       "tempo-bench: --iterations: Value 0 not in range 1 to 9223372036854775806");
    expect_usage_error(TEMPO_BENCH_PATH, "parallel --width 65",
                       "tempo-bench: --width: Value 65 not in range 2 to 64");
    expect_usage_error(TEMPO_BENCH_PATH, "latency --load-ms 1k",
                       "tempo-bench: --load-ms: Value 1000 not in range 1 to 400");
    expect_usage_error(TEMPO_BENCH_PATH, "scale --files=-1",
                       "tempo-bench: --files: Value -1 not in range 1 to 64");
}

TEST(DemoCli, ValuesOutOfRangeAreUsageErrors)
{
    expect_usage_errors(TEMPO_DEMO_PATH,
                        {"--game-group-ms 0", "--game-group-ms 101", "--game-copy-kib 4097",
                         "--game-stream-kib 0", "--frames x"});
}

TEST(DemoCli, CountsAreCheckedByCli11)
{
    expect_usage_error(TEMPO_DEMO_PATH, "--frames 1.5",
                       "tempo-demo: --frames: Value 1.5 could not be converted to INT");
    expect_usage_error(TEMPO_DEMO_PATH, "--off-frames 2x",
                       "tempo-demo: --off-frames: x unit not recognized. Allowed values: {M,k}");
    expect_usage_error(TEMPO_DEMO_PATH, "--game-group-ms 101",
                       "tempo-demo: --game-group-ms: Value 101 not in range 1 to 100");
    expect_usage_error(TEMPO_DEMO_PATH, "--game-stream-kib 0",
                       "tempo-demo: --game-stream-kib: Value 0 not in range 1 to 65536");
}

TEST(TopCli, ValuesOutOfRangeAreUsageErrors)
{
    expect_usage_errors(TEMPO_TOP_PATH, {"--interval 0", "-n 0", "-n", "--interval 2s"});
}

TEST(TopCli, CountsAreCheckedByCli11)
{
    expect_usage_error(TEMPO_TOP_PATH, "-n 0",
                       "tempo-top: -n: Value 0 not in range 1 to 9223372036854775806");
    expect_usage_error(TEMPO_TOP_PATH, "--interval 100M",
                       "tempo-top: --interval: Value 100000000 not in range 1 to 86400000");
}

} // namespace
