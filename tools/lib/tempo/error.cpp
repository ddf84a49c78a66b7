// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 */
#include <utility>

#include <tempo/error.hpp>

namespace tempo {

Error::Error(int error_number, std::string operation, std::string reason)
    : std::system_error(error_number, std::system_category()),
      operation_(std::move(operation)),
      reason_(std::move(reason))
{
    for (const std::string* part : {&operation_, &reason_}) {
        if (part->empty())
            continue;
        message_ += *part;
        message_ += ": ";
    }
    message_ += code().message();
}

} // namespace tempo
