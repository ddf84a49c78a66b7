// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * Syncobj operations by handle (libdrm's drmSyncobj*() functions), shared by
 * Syncobj and DeviceSubmitter.
 */
#pragma once

#include <chrono>
#include <cstdint>

#include <tempo/types.hpp>

namespace tempo::detail {

struct DeviceState;

/// drmSyncobjCreate(); throws Error.
SyncobjHandle syncobj_create(const DeviceState& device, bool signaled);
/// drmSyncobjDestroy(); errors are ignored.
void syncobj_destroy(const DeviceState& device, SyncobjHandle handle) noexcept;
/// Waits for @point (0: the binary payload), for it to be submitted too; Timeout is a value.
WaitResult syncobj_wait(const DeviceState& device, SyncobjHandle handle, std::uint64_t point,
                        std::chrono::nanoseconds timeout);
/// Signals @point (0: the binary payload) from the CPU.
void syncobj_signal(const DeviceState& device, SyncobjHandle handle, std::uint64_t point);
/// drmSyncobjQuery(): the last signalled timeline point.
std::uint64_t syncobj_last_signaled(const DeviceState& device, SyncobjHandle handle);
/// The error of the signalled fence at @point (negative errno), or 0; throws Error.
int syncobj_point_error(const DeviceState& device, SyncobjHandle handle, std::uint64_t point);

} // namespace tempo::detail
