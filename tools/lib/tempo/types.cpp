// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 */
#include <array>
#include <charconv>
#include <utility>

#include <tempo/types.hpp>

namespace tempo {

namespace {

constexpr std::array<std::pair<EngineClass, std::string_view>, 3> engine_class_names{{
    {EngineClass::Gfx, "gfx"},
    {EngineClass::Compute, "compute"},
    {EngineClass::Copy, "copy"},
}};

constexpr std::array<std::pair<Priority, std::string_view>, 5> priority_names{{
    {Priority::VeryLow, "very-low"},
    {Priority::Low, "low"},
    {Priority::Normal, "normal"},
    {Priority::High, "high"},
    {Priority::VeryHigh, "very-high"},
}};

template <typename T>
std::optional<T> parse_number(std::string_view text) noexcept
{
    T value{};
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc{} || ptr != end || text.empty())
        return std::nullopt;
    return value;
}

} // namespace

std::string to_string(EngineClass engine_class)
{
    for (const auto& [value, name] : engine_class_names)
        if (value == engine_class)
            return std::string{name};
    return std::to_string(static_cast<unsigned>(engine_class));
}

std::optional<EngineClass> parse_engine_class(std::string_view text) noexcept
{
    for (const auto& [value, name] : engine_class_names)
        if (name == text)
            return value;
    return std::nullopt;
}

std::string to_string(const Engine& engine)
{
    return to_string(engine.engine_class) + ":" + std::to_string(engine.instance);
}

std::optional<Engine> parse_engine(std::string_view text) noexcept
{
    const auto colon = text.find(':');
    const auto engine_class = parse_engine_class(text.substr(0, colon));
    if (!engine_class)
        return std::nullopt;
    if (colon == std::string_view::npos)
        return Engine{*engine_class, 0};
    const auto instance = parse_number<std::uint16_t>(text.substr(colon + 1));
    if (!instance)
        return std::nullopt;
    return Engine{*engine_class, *instance};
}

std::string to_string(Priority priority)
{
    for (const auto& [value, name] : priority_names)
        if (value == priority)
            return std::string{name};
    return std::to_string(to_uapi(priority));
}

std::optional<Priority> parse_priority(std::string_view text) noexcept
{
    for (const auto& [value, name] : priority_names)
        if (name == text)
            return value;
    const auto number = parse_number<std::int64_t>(text);
    if (!number)
        return std::nullopt;
    return priority_from_uapi(*number);
}

} // namespace tempo
