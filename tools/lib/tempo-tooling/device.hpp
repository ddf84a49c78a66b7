// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * The device as the tools see it: opening it, describing its engines, how
 * long a job may take before it counts as hung, the module's parameters.
 */
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <optional>
#include <span>
#include <string>
#include <utility>

#include <tempo/buffer.hpp>
#include <tempo/context.hpp>
#include <tempo/device.hpp>
#include <tempo/types.hpp>

namespace tempo::tooling {

/// The engine classes, in uAPI order.
inline constexpr EngineClass engine_classes[] = {EngineClass::Gfx, EngineClass::Compute,
                                                 EngineClass::Copy};

/// Opens @path (--device) if given, else the tempo device ($TEMPO_DEVICE, else the first).
inline Device open_device(const std::string& path)
{
    return path.empty() ? Device::open() : Device::open(path);
}

/// The engines per class: "1 gfx, 4 compute, 2 copy".
inline std::string class_counts(const Device& device)
{
    std::string text;
    for (const EngineClass c : engine_classes) {
        if (!text.empty())
            text += ", ";
        text += std::to_string(device.engine_count(c)) + " " + to_string(c);
    }
    return text;
}

/// How long a small job may take before the tools call it hung: four job
/// timeouts, at least four seconds.
inline std::chrono::nanoseconds hang_timeout(const Device& device)
{
    return 4 * std::max(device.info().job_timeout, std::chrono::milliseconds{1000});
}

/// Nanoseconds per tick of WRITE_TIMESTAMP.
inline double ns_per_tick(const Device& device)
{
    return 1e9 / static_cast<double>(std::max<std::uint64_t>(device.info().timestamp_frequency, 1));
}

/**
 * A context on one engine at one priority. A job that fails bans its
 * context, whose later jobs are all cancelled: replace() starts again with
 * a new context like it.
 */
class EngineContext {
public:
    EngineContext(const Device& device, Engine engine, Priority priority)
        : device_(device), engine_(engine), priority_(priority), context_(create())
    {}

    [[nodiscard]] const Context& get() const noexcept { return context_; }
    [[nodiscard]] Priority priority() const noexcept { return priority_; }
    void replace() { context_ = create(); }

private:
    [[nodiscard]] Context create() const
    {
        return Context(device_, std::span{&engine_, 1}, priority_);
    }

    const Device& device_;
    Engine engine_;
    Priority priority_;
    Context context_;
};

/**
 * The GPU timestamps of a batch's first and last packets, which it writes
 * with WRITE_TIMESTAMP at start() and end(); clear() them before each run.
 */
class StampPair {
public:
    explicit StampPair(const Device& device) : tick_ns_(ns_per_tick(device)), buffer_(device, 4096)
    {}

    [[nodiscard]] GpuAddress start() const { return buffer_.gpu_address(0); }
    [[nodiscard]] GpuAddress end() const { return buffer_.gpu_address(8); }
    void clear()
    {
        buffer_.write<std::uint64_t>(0, 0);
        buffer_.write<std::uint64_t>(8, 0);
    }
    /// Both timestamps, in nanoseconds of CLOCK_MONOTONIC.
    [[nodiscard]] std::pair<double, double> read_ns() const
    {
        return {static_cast<double>(buffer_.read<std::uint64_t>(0)) * tick_ns_,
                static_cast<double>(buffer_.read<std::uint64_t>(8)) * tick_ns_};
    }

private:
    double tick_ns_;
    Buffer buffer_;
};

/// Where sysfs shows the tempo module's parameter @name.
inline std::string module_param_path(const std::string& name)
{
    return "/sys/module/tempo/parameters/" + name;
}

/// A parameter of the tempo module as sysfs shows it ("Y", "3"), if readable.
inline std::optional<std::string> module_param(const std::string& name)
{
    std::ifstream in(module_param_path(name));
    std::string value;
    if (!(in >> value))
        return std::nullopt;
    return value;
}

/// Writes @value to a parameter of the tempo module; false where it cannot
/// (the parameter is absent, read-only, or the caller is not root).
inline bool set_module_param(const std::string& name, const std::string& value)
{
    std::ofstream out(module_param_path(name));
    out << value << std::flush;
    return out.good();
}

/// A boolean parameter of the tempo module set while this lives (the
/// floor, running in place), then set back to what it was, whatever
/// happens in between.
class ModuleSwitch {
public:
    /// The switch set, or nothing where the parameter cannot be written.
    static std::optional<ModuleSwitch> enter(std::string name, bool on)
    {
        const bool was = module_param(name) == "Y";
        if (!set_module_param(name, on ? "1" : "0"))
            return std::nullopt;
        return ModuleSwitch{std::move(name), was};
    }

    ModuleSwitch(ModuleSwitch&& other) noexcept
        : name_(std::move(other.name_)),
          was_(other.was_),
          owner_(std::exchange(other.owner_, false))
    {}
    ModuleSwitch& operator=(ModuleSwitch&&) = delete;
    ModuleSwitch(const ModuleSwitch&) = delete;
    ModuleSwitch& operator=(const ModuleSwitch&) = delete;
    ~ModuleSwitch()
    {
        if (owner_)
            set_module_param(name_, was_ ? "1" : "0");
    }

private:
    ModuleSwitch(std::string name, bool was) : name_(std::move(name)), was_(was) {}

    std::string name_;
    bool was_;
    bool owner_{true};
};

} // namespace tempo::tooling
