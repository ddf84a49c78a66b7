// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * A temporary directory for the tests of the tools (tests/tools,
 * tests/tempo-top): fixture trees and files the tools write.
 */
#pragma once

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

#include <stdlib.h>

namespace tempo_test {

/// A temporary directory, removed with everything in it.
class TempDir {
public:
    TempDir()
    {
        std::string tmpl =
            (std::filesystem::temp_directory_path() / "tempo-tools-test.XXXXXX").string();
        if (!::mkdtemp(tmpl.data()))
            throw std::runtime_error("mkdtemp");
        path_ = tmpl;
    }
    ~TempDir()
    {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    [[nodiscard]] const std::filesystem::path& path() const { return path_; }

    /// Writes @text to @rel below the directory, creating its directories.
    void write(const std::filesystem::path& rel, std::string_view text) const
    {
        std::filesystem::create_directories((path_ / rel).parent_path());
        std::ofstream(path_ / rel) << text;
    }

private:
    std::filesystem::path path_;
};

} // namespace tempo_test
