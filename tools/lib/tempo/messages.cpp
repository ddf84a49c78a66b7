// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 */
#include "messages.hpp"

namespace tempo::detail {

std::string describe_priority(Priority priority)
{
    std::string text = to_string(priority);
    const std::string number = std::to_string(to_uapi(priority));
    if (text != number)
        text += " (" + number + ")";
    return text;
}

std::string priority_not_permitted(Priority priority, Priority ceiling)
{
    return "priority " + describe_priority(priority) + " not permitted, the ceiling is " +
           describe_priority(ceiling);
}

std::string count(std::uint64_t n, const char* one, const char* many)
{
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

namespace {

// "the default engine map" or "engine map [A, B]", from to_string() of each entry.
template <typename Entry>
std::string describe_map(std::span<const Entry> entries)
{
    if (entries.empty())
        return "the default engine map";
    std::string text = "engine map [";
    for (std::size_t i = 0; i < entries.size(); i++) {
        if (i)
            text += ", ";
        text += to_string(entries[i]);
    }
    return text + "]";
}

} // namespace

std::string describe_engine_map(std::span<const Engine> engines)
{
    return describe_map(engines);
}

std::string describe_slot_map(std::span<const SlotDesc> slots)
{
    return describe_map(slots);
}

} // namespace tempo::detail
