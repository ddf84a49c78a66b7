// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * The names of the values of an enum, as a table that serves both
 * directions: to_string() and parse_*().
 */
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

namespace tempo::detail {

/// A value of @Enum and its name.
template <typename Enum, std::size_t N>
using NameTable = std::array<std::pair<Enum, std::string_view>, N>;

/// The name of @value in @table, or nullopt for a value without one.
template <typename Enum, std::size_t N>
constexpr std::optional<std::string_view> name_of(const NameTable<Enum, N>& table,
                                                  Enum value) noexcept
{
    for (const auto& [entry, name] : table)
        if (entry == value)
            return name;
    return std::nullopt;
}

/// The value named @name in @table, or nullopt for a name it does not hold.
template <typename Enum, std::size_t N>
constexpr std::optional<Enum> value_named(const NameTable<Enum, N>& table,
                                          std::string_view name) noexcept
{
    for (const auto& [value, entry] : table)
        if (entry == name)
            return value;
    return std::nullopt;
}

} // namespace tempo::detail
