// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * The tools' machine-readable output, over nlohmann-json: objects keep their
 * members in the order the tools set them, numbers are rounded to the
 * digits the tools print, what cannot be computed is null.
 */
#pragma once

#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>

namespace tempo::tooling {

/// A JSON value of the tools' output; objects keep the order of insertion.
using Json = nlohmann::ordered_json;

/// @value rounded to @decimals digits after the point; null if not finite.
inline Json number(double value, int decimals = 3)
{
    if (!std::isfinite(value))
        return nullptr;
    const double scale = std::pow(10.0, decimals);
    return std::round(value * scale) / scale;
}

/// number(*@value, @decimals), or null without a value.
inline Json number(const std::optional<double>& value, int decimals = 3)
{
    return value ? number(*value, decimals) : Json(nullptr);
}

/// *@value, or null without a value.
template <typename T>
Json value_or_null(const std::optional<T>& value)
{
    return value ? Json(*value) : Json(nullptr);
}

/// Prints @json indented by two spaces, then a newline; invalid UTF-8 in a
/// string (a process name, say) is replaced, not an error.
inline void print(const Json& json, std::ostream& out = std::cout)
{
    out << json.dump(2, ' ', false, Json::error_handler_t::replace) << '\n';
}

} // namespace tempo::tooling
