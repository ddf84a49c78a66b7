// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 */
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <tempo/types.hpp>

namespace tempo {

namespace detail {
struct DeviceState;
struct Access;
} // namespace detail

/**
 * Device - an open tempo DRM render node
 *
 * Opening reads the driver version and caches the answers of the DEVICE,
 * ENGINES and HQDS queries; the accessors return views of that cache and
 * never call the kernel. The open file is shared with the objects created
 * from the device (Buffer, Context, Syncobj), which keep it alive: a Device
 * may be destroyed before them.
 *
 * Move-only. Const member functions are safe to call from several threads.
 */
class Device {
public:
    /**
     * Opens the tempo device: $TEMPO_DEVICE if set, else the first of
     * enumerate(). Throws Error (ENODEV when there is none).
     */
    [[nodiscard]] static Device open();
    /// Opens the DRM node at @path; throws Error if it is not a tempo device.
    [[nodiscard]] static Device open(const std::string& path);
    /// Like open(), but returns nothing instead of throwing when no tempo device is present.
    [[nodiscard]] static std::optional<Device> try_open();
    /**
     * Paths of the render nodes driven by tempo, in minor number order: the
     * render nodes of the devices drmGetDevices2() lists whose driver
     * (drmGetVersion()) is "tempo". Throws Error if libdrm cannot list them.
     */
    [[nodiscard]] static std::vector<std::string> enumerate();

    Device(Device&&) noexcept;
    Device& operator=(Device&&) noexcept;
    Device(const Device&) = delete;
    Device& operator=(const Device&) = delete;
    ~Device();

    /// The DRM file descriptor (owned by the device).
    [[nodiscard]] int fd() const noexcept;
    /// The path it was opened from.
    [[nodiscard]] const std::string& path() const noexcept;
    [[nodiscard]] const DriverVersion& driver_version() const noexcept;
    [[nodiscard]] const DeviceInfo& info() const noexcept;

    /// Every engine, by class then instance (the default engine map).
    [[nodiscard]] std::span<const EngineInfo> engines() const noexcept;
    /// Every hardware queue, engine after engine.
    [[nodiscard]] std::span<const HqdInfo> hqds() const noexcept;
    /// The hardware queues of one engine.
    [[nodiscard]] std::span<const HqdInfo> hqds(const EngineInfo& engine) const;
    /// The engine, if the device has it.
    [[nodiscard]] std::optional<EngineInfo> find_engine(Engine engine) const noexcept;
    /// How many engines of a class the device has.
    [[nodiscard]] std::uint32_t engine_count(EngineClass engine_class) const noexcept;
    /// Highest context priority this file may ask for (as of opening: it follows CAP_SYS_NICE).
    [[nodiscard]] Priority max_priority() const noexcept;
    /// Size of a CPU page, the granule of buffer sizes and GPU mappings.
    [[nodiscard]] std::uint64_t page_size() const noexcept;

    /**
     * Overrides the priority of every context, present and future, of the
     * client whose DRM file is @client_fd (a descriptor of this device the
     * client passed, over a UNIX socket for instance); std::nullopt removes
     * the override (DRM_IOCTL_TEMPO_SCHED). For a compositor raising itself
     * or lowering a game. Throws Error: EACCES without CAP_SYS_NICE (or DRM
     * master with the module parameter master_priority), EBADF when
     * @client_fd is not open, EINVAL when it is not a file of this device.
     */
    void override_priority(int client_fd, std::optional<Priority> priority) const;
    /**
     * The same for one context of that client, by the id the client
     * reports (Context::id()); it wins over the file's override. Throws
     * Error ENOENT for an unknown context as well.
     */
    void override_priority(int client_fd, ContextId context,
                           std::optional<Priority> priority) const;

private:
    friend struct detail::Access;
    explicit Device(std::shared_ptr<detail::DeviceState> state) noexcept;

    std::shared_ptr<detail::DeviceState> state_;
};

} // namespace tempo
