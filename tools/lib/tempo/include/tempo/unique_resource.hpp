// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * The owner that the RAII classes of libtempo are built from.
 */
#pragma once

#include <memory>
#include <utility>

namespace tempo::detail {

struct DeviceState;

/**
 * UniqueResource - owns one kernel resource and releases it once
 *
 * @Value describes the resource (a handle and what releasing it needs, such
 * as the device file); its value-initialised state, Value{}, owns nothing,
 * and it compares with ==. @Release is a function object that releases a
 * Value and never throws. The owner is move-only: a moved-from owner holds
 * Value{}. Classes that own several resources hold one UniqueResource each,
 * so that they need no destructor and no hand-written moves, and a
 * constructor that throws half-way releases what it already made.
 */
template <typename Value, typename Release>
class UniqueResource {
public:
    UniqueResource() noexcept = default;
    /// Takes ownership of @value.
    explicit UniqueResource(Value value) noexcept : value_(std::move(value)) {}
    UniqueResource(UniqueResource&& other) noexcept : value_(std::exchange(other.value_, Value{}))
    {}
    UniqueResource& operator=(UniqueResource&& other) noexcept
    {
        if (this != &other) {
            reset();
            value_ = std::exchange(other.value_, Value{});
        }
        return *this;
    }
    UniqueResource(const UniqueResource&) = delete;
    UniqueResource& operator=(const UniqueResource&) = delete;
    ~UniqueResource() { reset(); }

    /// The resource, still owned.
    [[nodiscard]] const Value& get() const noexcept { return value_; }
    [[nodiscard]] const Value* operator->() const noexcept { return &value_; }
    /// Whether it owns a resource.
    [[nodiscard]] explicit operator bool() const noexcept { return !(value_ == Value{}); }

    /// Releases the resource now, if any.
    void reset() noexcept
    {
        Value old = std::exchange(value_, Value{});
        if (!(old == Value{}))
            Release{}(old);
    }

private:
    Value value_{};
};

/**
 * DeviceHandle - a handle of a device file, with that file
 *
 * The Value of the UniqueResource of a GEM object, a syncobj or a context:
 * it keeps the file open until the handle is released.
 */
template <typename Handle>
struct DeviceHandle {
    std::shared_ptr<DeviceState> device;
    Handle handle{};

    friend bool operator==(const DeviceHandle&, const DeviceHandle&) = default;
};

} // namespace tempo::detail
