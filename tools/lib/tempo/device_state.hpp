// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 */
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <tempo/device.hpp>
#include <tempo/types.hpp>
#include <tempo/unique_fd.hpp>

namespace tempo::detail {

/// What a Device knows; shared by every object created from it. Immutable once built.
struct DeviceState {
    UniqueFd fd;
    std::string path;
    DriverVersion version;
    DeviceInfo info;
    std::vector<EngineInfo> engines;
    std::vector<HqdInfo> hqds;
    std::uint64_t page_size{4096};
};

/**
 * The caller's priority ceiling now (DRM_TEMPO_QUERY_DEVICE again: it
 * follows CAP_SYS_NICE, which may have changed since the device was opened);
 * the cached one if the query fails.
 */
Priority current_priority_ceiling(const DeviceState& state) noexcept;

/// The library's way into a Device.
struct Access {
    static const std::shared_ptr<DeviceState>& state(const Device& device) noexcept
    {
        return device.state_;
    }
    /// A Device object sharing @state (for objects that create buffers later).
    static Device device(std::shared_ptr<DeviceState> state) noexcept
    {
        return Device{std::move(state)};
    }
};

} // namespace tempo::detail
