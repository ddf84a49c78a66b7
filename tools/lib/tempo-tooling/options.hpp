// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * Command-line helpers shared by the tools.
 */
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include <tempo/device.hpp>

namespace tempo::tooling {

/// A command-line mistake: the tools print it with their usage and exit 2.
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Parses a non-negative integer option value, with an optional k/M suffix.
inline std::uint64_t parse_count(std::string_view option, std::string_view text)
{
    std::uint64_t multiplier = 1;
    if (!text.empty() && (text.back() == 'k' || text.back() == 'M')) {
        multiplier = text.back() == 'k' ? 1000 : 1000000;
        text.remove_suffix(1);
    }
    std::uint64_t value = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || ptr != text.data() + text.size() || text.empty())
        throw UsageError(std::string{option} + ": not a number: " + std::string{text});
    return value * multiplier;
}

/// The value of "--name VALUE" or "--name=VALUE" at argv[i] (advances i), if it is that option.
inline std::optional<std::string_view> option_value(int argc, char** argv, int& i,
                                                    std::string_view name)
{
    const std::string_view arg{argv[i]};
    if (arg == name) {
        if (i + 1 >= argc)
            throw UsageError(std::string{name} + " needs a value");
        return std::string_view{argv[++i]};
    }
    if (arg.size() > name.size() && arg.starts_with(name) && arg[name.size()] == '=')
        return arg.substr(name.size() + 1);
    return std::nullopt;
}

/// Opens --device PATH if given, else the tempo device.
inline Device open_device(const std::string& path)
{
    return path.empty() ? Device::open() : Device::open(path);
}

} // namespace tempo::tooling
