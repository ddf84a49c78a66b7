// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * Value types of libtempo: strong ids, GPU addresses, engines, priorities and
 * the device description returned by the queries.
 */
#pragma once

#include <chrono>
#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tempo {

/**
 * StrongId - an integer id that does not mix with other ids
 *
 * Each kind of id (context, buffer handle, syncobj handle, engine-map slot)
 * is its own type, so that a syncobj handle cannot be passed where a context
 * id is expected. The value 0 is the default and, for kernel ids, "none".
 */
template <typename Tag, typename Rep>
class StrongId {
public:
    using rep_type = Rep;

    constexpr StrongId() noexcept = default;
    constexpr explicit StrongId(Rep value) noexcept : value_(value) {}

    [[nodiscard]] constexpr Rep value() const noexcept { return value_; }

    friend constexpr bool operator==(StrongId, StrongId) noexcept = default;
    friend constexpr auto operator<=>(StrongId, StrongId) noexcept = default;

private:
    Rep value_{};
};

/// Id of a context (&drm_tempo_ctx_create.ctx_id), never 0 once created.
using ContextId = StrongId<struct ContextIdTag, std::uint32_t>;
/// GEM handle of a buffer object.
using BoHandle = StrongId<struct BoHandleTag, std::uint32_t>;
/// Handle of a DRM syncobj.
using SyncobjHandle = StrongId<struct SyncobjHandleTag, std::uint32_t>;
/// Index in the engine map of a context (&drm_tempo_exec.slot).
using Slot = StrongId<struct SlotTag, std::uint32_t>;

/**
 * GpuAddress - an address in the GPU virtual address space of a device file
 */
class GpuAddress {
public:
    constexpr GpuAddress() noexcept = default;
    constexpr explicit GpuAddress(std::uint64_t value) noexcept : value_(value) {}

    [[nodiscard]] constexpr std::uint64_t value() const noexcept { return value_; }
    /// Low dword, as packets encode it first.
    [[nodiscard]] constexpr std::uint32_t low() const noexcept
    {
        return static_cast<std::uint32_t>(value_ & 0xffffffffU);
    }
    /// High dword, as packets encode it second.
    [[nodiscard]] constexpr std::uint32_t high() const noexcept
    {
        return static_cast<std::uint32_t>(value_ >> 32);
    }

    friend constexpr GpuAddress operator+(GpuAddress address, std::uint64_t offset) noexcept
    {
        return GpuAddress{address.value_ + offset};
    }
    friend constexpr std::uint64_t operator-(GpuAddress a, GpuAddress b) noexcept
    {
        return a.value_ - b.value_;
    }
    friend constexpr bool operator==(GpuAddress, GpuAddress) noexcept = default;
    friend constexpr auto operator<=>(GpuAddress, GpuAddress) noexcept = default;

private:
    std::uint64_t value_{};
};

/// Kinds of engines (&enum drm_tempo_engine_class).
enum class EngineClass : std::uint16_t {
    Gfx = 0,
    Compute = 1,
    Copy = 2,
};

/// "gfx", "compute" or "copy" (or the number for a class unknown here).
[[nodiscard]] std::string to_string(EngineClass engine_class);
/// Inverse of to_string(EngineClass).
[[nodiscard]] std::optional<EngineClass> parse_engine_class(std::string_view text) noexcept;

/// One engine, by class and instance (&struct drm_tempo_engine).
struct Engine {
    EngineClass engine_class{EngineClass::Gfx};
    std::uint16_t instance{0};

    friend constexpr bool operator==(const Engine&, const Engine&) noexcept = default;
    friend constexpr auto operator<=>(const Engine&, const Engine&) noexcept = default;
};

/// "class:instance", for example "compute:2".
[[nodiscard]] std::string to_string(const Engine& engine);
/// Parses "class" (instance 0) or "class:instance".
[[nodiscard]] std::optional<Engine> parse_engine(std::string_view text) noexcept;

/**
 * Priority - context priority
 *
 * The enumerators carry the uAPI values (DRM_TEMPO_PRIORITY_*); any value in
 * -1023..1023 is a valid priority, the enumerators name the usual levels.
 * Above Normal needs DRM master or CAP_SYS_NICE (see
 * DeviceInfo::max_priority).
 */
enum class Priority : std::int32_t {
    VeryLow = -1023,
    Low = -512,
    Normal = 0,
    High = 512,
    VeryHigh = 1023,
};

/// The uAPI value of a priority.
[[nodiscard]] constexpr std::int32_t to_uapi(Priority priority) noexcept
{
    return static_cast<std::int32_t>(priority);
}

/// The priority of a uAPI value, or nothing outside -1023..1023.
[[nodiscard]] constexpr std::optional<Priority> priority_from_uapi(std::int64_t value) noexcept
{
    if (value < to_uapi(Priority::VeryLow) || value > to_uapi(Priority::VeryHigh))
        return std::nullopt;
    return static_cast<Priority>(value);
}

/// "very-low", "low", "normal", "high", "very-high", or the number.
[[nodiscard]] std::string to_string(Priority priority);
/// Inverse of to_string(Priority); also accepts a number in -1023..1023.
[[nodiscard]] std::optional<Priority> parse_priority(std::string_view text) noexcept;

/// Result of a wait with a timeout.
enum class WaitResult {
    Signaled,
    Timeout,
};

/// Timeout that never expires.
inline constexpr std::chrono::nanoseconds wait_forever = std::chrono::nanoseconds::max();

/// Identity of the kernel driver behind a device file (DRM_IOCTL_VERSION).
struct DriverVersion {
    std::string name;
    std::string date;
    std::string description;
    int major{0};
    int minor{0};
    int patch{0};
};

/// The device, as &DRM_TEMPO_QUERY_DEVICE describes it.
/// What one DRM file may hold at once (DRM_TEMPO_QUERY_LIMITS); the module
/// parameters of the same names set them.
struct FileLimits {
    /// Contexts of the file; one more fails with ENOSPC.
    std::uint32_t max_contexts{0};
    /// GPU mappings of the file; one more fails with ENOSPC.
    std::uint32_t max_mappings{0};
    /// Jobs in flight, from submission until freed; one more fails with EAGAIN.
    std::uint32_t max_jobs{0};
    /// Longest that closing the file waits for its queued jobs.
    std::chrono::milliseconds close_wait{0};
};

struct DeviceInfo {
    std::uint32_t num_engines{0};
    std::uint32_t num_hqds{0};
    std::uint32_t num_cus{0};
    /// Largest number of batches of one submission.
    std::uint32_t max_batches{0};
    /// Ticks per second of WRITE_TIMESTAMP.
    std::uint64_t timestamp_frequency{0};
    /// Mappable GPU virtual range [va_start, va_end).
    GpuAddress va_start{};
    GpuAddress va_end{};
    /// Largest number of wait or signal syncs of one submission.
    std::uint32_t max_syncs{0};
    /// Deepest BATCH_START nesting.
    std::uint32_t max_batch_depth{0};
    /// Largest engine map of a context.
    std::uint32_t max_slots{0};
    /// Jobs each hardware queue holds at once.
    std::uint32_t ring_size{0};
    /// Highest priority a context of this file may have.
    Priority max_priority{Priority::Normal};
    /// Longest packet, header included.
    std::uint32_t max_packet_dwords{0};
    /// Largest number of workgroups of one DISPATCH.
    std::uint32_t max_groups{0};
    /// A job running longer fails with -ETIMEDOUT.
    std::chrono::milliseconds job_timeout{0};
    /// Bit N set when engine class N supports parallel slots (see supports_parallel()).
    std::uint32_t parallel_classes{0};
    /// Largest number of siblings of a load-balanced slot or of a parallel slot's column.
    std::uint32_t max_siblings{0};
    /// What each file may hold at once.
    FileLimits limits{};

    /// Whether @engine_class supports parallel slots.
    [[nodiscard]] constexpr bool supports_parallel(EngineClass engine_class) const noexcept
    {
        const auto bit = static_cast<unsigned>(engine_class);
        return bit < 32 && (parallel_classes >> bit & 1U) != 0;
    }
};

/// One engine and where its hardware queues are in Device::hqds().
struct EngineInfo {
    Engine engine{};
    std::uint16_t num_hqds{0};
    std::uint16_t first_hqd{0};
};

/// One hardware queue descriptor, as its MQD programs it.
struct HqdInfo {
    Engine engine{};
    std::uint16_t queue{0};
    /// 0 (low) .. 2 (high).
    std::uint8_t pipe_priority{0};
    /// 0 (low) .. 15 (high).
    std::uint8_t queue_priority{0};
};

} // namespace tempo
