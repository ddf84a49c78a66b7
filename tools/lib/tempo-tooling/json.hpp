// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * A small streaming JSON writer for the --json output of the tools.
 * Internal to the tools: not installed.
 */
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace tempo::tooling {

class JsonWriter {
public:
    explicit JsonWriter(std::ostream& out, int indent = 2) : out_(out), indent_(indent) {}

    JsonWriter& begin_object()
    {
        before_value();
        out_ << '{';
        levels_.push_back(true);
        return *this;
    }
    JsonWriter& end_object() { return close('}'); }
    JsonWriter& begin_array()
    {
        before_value();
        out_ << '[';
        levels_.push_back(true);
        return *this;
    }
    JsonWriter& end_array() { return close(']'); }

    JsonWriter& key(std::string_view name)
    {
        before_value();
        string(name);
        out_ << ": ";
        after_key_ = true;
        return *this;
    }

    JsonWriter& value(std::string_view text)
    {
        before_value();
        string(text);
        return *this;
    }
    JsonWriter& value(const char* text) { return value(std::string_view{text}); }
    JsonWriter& value(const std::string& text) { return value(std::string_view{text}); }
    JsonWriter& value(bool flag)
    {
        before_value();
        out_ << (flag ? "true" : "false");
        return *this;
    }
    template <typename T>
    requires std::is_integral_v<T> JsonWriter& value(T number)
    {
        before_value();
        out_ << +number; // + prints 8-bit integers as numbers
        return *this;
    }
    /// A number with @decimals digits after the point; null if not finite.
    JsonWriter& value(double number, int decimals = 3)
    {
        before_value();
        if (!std::isfinite(number)) {
            out_ << "null";
            return *this;
        }
        char buf[64];
        std::snprintf(buf, sizeof(buf), "%.*f", decimals, number);
        out_ << buf;
        return *this;
    }

    template <typename T>
    JsonWriter& field(std::string_view name, const T& v)
    {
        key(name);
        return value(v);
    }

private:
    void newline()
    {
        out_ << '\n' << std::string(levels_.size() * static_cast<std::size_t>(indent_), ' ');
    }

    void before_value()
    {
        if (after_key_) {
            after_key_ = false;
            return;
        }
        if (levels_.empty())
            return;
        if (!levels_.back())
            out_ << ',';
        levels_.back() = false;
        newline();
    }

    JsonWriter& close(char bracket)
    {
        const bool empty = levels_.back();
        levels_.pop_back();
        if (!empty)
            newline();
        out_ << bracket;
        if (levels_.empty())
            out_ << '\n';
        return *this;
    }

    void string(std::string_view text)
    {
        out_ << '"';
        for (const char c : text) {
            switch (c) {
            case '"':
                out_ << "\\\"";
                break;
            case '\\':
                out_ << "\\\\";
                break;
            case '\n':
                out_ << "\\n";
                break;
            case '\t':
                out_ << "\\t";
                break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof(buf), "\\u%04x", static_cast<unsigned>(c));
                    out_ << buf;
                } else {
                    out_ << c;
                }
            }
        }
        out_ << '"';
    }

    std::ostream& out_;
    int indent_;
    // One entry per open object or array: true while it is still empty.
    std::vector<bool> levels_;
    bool after_key_{false};
};

} // namespace tempo::tooling
