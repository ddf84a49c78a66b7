// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * Numbers in text: what the tools read from debugfs and /proc (their
 * command line is CLI11's, cli.hpp).
 */
#pragma once

#include <charconv>
#include <optional>
#include <string_view>
#include <system_error>

namespace tempo::tooling {

/// @text as a decimal number of type T, if it is one entirely.
template <typename T>
std::optional<T> parse_number(std::string_view text)
{
    T value{};
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc{} || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

} // namespace tempo::tooling
