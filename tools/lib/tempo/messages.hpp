// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * Reasons that libtempo puts in its errors, shared with the unit tests.
 */
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include <tempo/context.hpp>
#include <tempo/types.hpp>

namespace tempo::detail {

/// "high (512)", or the number alone for a priority without a name.
std::string describe_priority(Priority priority);

/// "priority high (512) not permitted, the ceiling is normal (0)".
std::string priority_not_permitted(Priority priority, Priority ceiling);

/// "1 batch", "2 batches".
std::string count(std::uint64_t n, const char* one, const char* many);

/// "the default engine map" or "engine map [compute:0, copy:1]".
std::string describe_engine_map(std::span<const Engine> engines);
/// describe_engine_map() of slots: "engine map [compute:0, load-balanced{compute:1 compute:2}]".
std::string describe_slot_map(std::span<const SlotDesc> slots);

} // namespace tempo::detail
