// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 */
#include <charconv>
#include <utility>

#include <tempo/types.hpp>

#include "name_table.hpp"

namespace tempo {

namespace {

constexpr detail::NameTable<EngineClass, 3> engine_class_names{{
    {EngineClass::Gfx, "gfx"},
    {EngineClass::Compute, "compute"},
    {EngineClass::Copy, "copy"},
}};

constexpr detail::NameTable<Priority, 5> priority_names{{
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
    if (const auto name = detail::name_of(engine_class_names, engine_class))
        return std::string{*name};
    return std::to_string(static_cast<unsigned>(engine_class));
}

std::optional<EngineClass> parse_engine_class(std::string_view text) noexcept
{
    return detail::value_named(engine_class_names, text);
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
    if (const auto name = detail::name_of(priority_names, priority))
        return std::string{*name};
    return std::to_string(to_uapi(priority));
}

std::optional<Priority> parse_priority(std::string_view text) noexcept
{
    if (const auto named = detail::value_named(priority_names, text))
        return named;
    const auto number = parse_number<std::int64_t>(text);
    if (!number)
        return std::nullopt;
    return priority_from_uapi(*number);
}

} // namespace tempo
