// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 */
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <type_traits>
#include <vector>

#include <tempo/types.hpp>
#include <tempo/unique_resource.hpp>

namespace tempo {

class Device;

namespace detail {

/// A GEM object of a device file, of @size bytes (page-aligned).
struct GemObject {
    std::shared_ptr<DeviceState> device;
    BoHandle handle{};
    std::uint64_t size{0};

    friend bool operator==(const GemObject&, const GemObject&) = default;
};
/// Closes the handle (drmCloseBufferHandle()).
struct CloseGemObject {
    void operator()(const GemObject& object) const noexcept;
};

/// A mapping of a buffer in the address space of the process.
struct CpuMapping {
    std::byte* data{nullptr};
    std::size_t size{0};

    friend bool operator==(const CpuMapping&, const CpuMapping&) = default;
};
/// munmap().
struct UnmapCpu {
    void operator()(const CpuMapping& mapping) const noexcept;
};

/// A range of the GPU address space of a device file, mapping a buffer.
struct GpuMapping {
    std::shared_ptr<DeviceState> device;
    GpuAddress address{};
    std::uint64_t size{0};
    bool read_only{false};

    friend bool operator==(const GpuMapping&, const GpuMapping&) = default;
};
/// DRM_IOCTL_TEMPO_VM_UNMAP.
struct UnmapGpu {
    void operator()(const GpuMapping& mapping) const noexcept;
};

} // namespace detail

/// How a Buffer is mapped.
struct BufferOptions {
    /// Map it on the CPU (mmap of the GEM object).
    bool cpu_map = true;
    /// Map it in the GPU address space at an address the kernel picks.
    bool gpu_map = true;
    /// The GPU may only read it: a GPU write faults (-EFAULT on the fence).
    bool gpu_read_only = false;
    /// Private to the device's address space (DRM_TEMPO_BO_CREATE_VM_PRIVATE):
    /// it counts as active in fdinfo while a job of the device is in flight,
    /// and cannot be exported.
    bool vm_private = false;
};

/**
 * Buffer - a GEM buffer object, mapped on the CPU and in the GPU VA space
 *
 * The size is rounded up to the page size. The destructor removes the GPU
 * mapping, the CPU mapping and the handle; it must not run while a job still
 * uses the buffer (wait for the job first: a job that touches an unmapped
 * range faults).
 *
 * Move-only; a moved-from buffer is empty (size 0, no mapping). The typed
 * accessors copy with memcpy, so they are safe for any alignment; they
 * throw std::out_of_range outside the buffer and std::logic_error when the
 * buffer has no CPU mapping.
 *
 * Each of the three resources (the handle, the CPU mapping, the GPU
 * mapping) has its own owner, so that a constructor that fails half-way
 * releases what it made, and the destructor releases them in reverse
 * order: the GPU mapping, the CPU mapping, the handle.
 */
class Buffer {
public:
    Buffer(const Device& device, std::uint64_t size, BufferOptions options = {});
    /// A buffer holding @contents (a batch, usually), mapped read-only for the GPU.
    [[nodiscard]] static Buffer with_contents(const Device& device,
                                              std::span<const std::uint32_t> contents);

    [[nodiscard]] BoHandle handle() const noexcept { return object_->handle; }
    /// Size in bytes (page-aligned).
    [[nodiscard]] std::uint64_t size() const noexcept { return object_->size; }
    [[nodiscard]] bool gpu_mapped() const noexcept { return static_cast<bool>(gpu_); }
    /// Whether the GPU mapping is read-only (false without one).
    [[nodiscard]] bool gpu_read_only() const noexcept { return gpu_->read_only; }
    /// GPU address of byte 0 (GpuAddress{} without a GPU mapping).
    [[nodiscard]] GpuAddress gpu_address() const noexcept { return gpu_->address; }
    /// GPU address of byte @offset; throws std::out_of_range past the end.
    [[nodiscard]] GpuAddress gpu_address(std::uint64_t offset) const;

    /// The CPU mapping (empty without one).
    [[nodiscard]] std::span<std::byte> bytes() noexcept { return {cpu_->data, cpu_->size}; }
    [[nodiscard]] std::span<const std::byte> bytes() const noexcept
    {
        return {cpu_->data, cpu_->size};
    }

    /// Reads a T at byte @offset.
    template <typename T>
    [[nodiscard]] T read(std::size_t offset) const
    {
        static_assert(std::is_trivially_copyable_v<T>);
        T value;
        std::memcpy(&value, checked(offset, sizeof(T)), sizeof(T));
        return value;
    }

    /// Writes @value at byte @offset.
    template <typename T>
    void write(std::size_t offset, const T& value)
    {
        static_assert(std::is_trivially_copyable_v<T>);
        std::memcpy(checked(offset, sizeof(T)), &value, sizeof(T));
    }

    /// Reads @count T starting at byte @offset.
    template <typename T>
    [[nodiscard]] std::vector<T> read_array(std::size_t offset, std::size_t count) const
    {
        static_assert(std::is_trivially_copyable_v<T>);
        std::vector<T> values(count);
        if (count > size() / sizeof(T))
            out_of_range(offset, count * sizeof(T));
        if (count)
            std::memcpy(values.data(), checked(offset, count * sizeof(T)), count * sizeof(T));
        return values;
    }

    /// Writes @values starting at byte @offset.
    template <typename T>
    void write_array(std::size_t offset, std::span<const T> values)
    {
        static_assert(std::is_trivially_copyable_v<T>);
        if (!values.empty())
            std::memcpy(checked(offset, values.size_bytes()), values.data(), values.size_bytes());
    }

private:
    // Address of [offset, offset + length) in the CPU mapping, or throws.
    [[nodiscard]] std::byte* checked(std::size_t offset, std::size_t length) const;
    [[noreturn]] void out_of_range(std::size_t offset, std::size_t length) const;

    // Declared in the order of creation: destroyed in reverse.
    detail::UniqueResource<detail::GemObject, detail::CloseGemObject> object_;
    detail::UniqueResource<detail::CpuMapping, detail::UnmapCpu> cpu_;
    detail::UniqueResource<detail::GpuMapping, detail::UnmapGpu> gpu_;
};

} // namespace tempo
