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

std::string describe_engine_map(std::span<const Engine> engines)
{
    if (engines.empty())
        return "the default engine map";
    std::string text = "engine map [";
    for (std::size_t i = 0; i < engines.size(); i++) {
        if (i)
            text += ", ";
        text += to_string(engines[i]);
    }
    return text + "]";
}

std::string describe_slot_map(std::span<const SlotDesc> slots)
{
    if (slots.empty())
        return "the default engine map";
    std::string text = "engine map [";
    for (std::size_t i = 0; i < slots.size(); i++) {
        if (i)
            text += ", ";
        text += to_string(slots[i]);
    }
    return text + "]";
}

} // namespace tempo::detail
