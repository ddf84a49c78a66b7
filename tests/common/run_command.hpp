// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * Tests that run a program: its exit status and standard output.
 */
#pragma once

#include <cstdio>
#include <string>
#include <utility>

#include <sys/wait.h>

namespace tempo_test {

/// Runs @command with the shell; returns its exit status (-1 when it did
/// not exit normally or could not start) and its standard output.
inline std::pair<int, std::string> run_command(const std::string& command)
{
    std::string output;
    FILE* pipe = ::popen(command.c_str(), "r");
    if (!pipe)
        return {-1, output};
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof(buf), pipe)) > 0)
        output.append(buf, n);
    const int status = ::pclose(pipe);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

} // namespace tempo_test
