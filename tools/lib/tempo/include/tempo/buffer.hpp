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

namespace tempo {

class Device;

namespace detail {
struct DeviceState;
} // namespace detail

/// How a Buffer is mapped.
struct BufferOptions {
    /// Map it on the CPU (mmap of the GEM object).
    bool cpu_map = true;
    /// Map it in the GPU address space at an address the kernel picks.
    bool gpu_map = true;
    /// The GPU may only read it: a GPU write faults (-EFAULT on the fence).
    bool gpu_read_only = false;
};

/**
 * Buffer - a GEM buffer object, mapped on the CPU and in the GPU VA space
 *
 * The size is rounded up to the page size. The destructor removes the GPU
 * mapping, the CPU mapping and the handle; it must not run while a job still
 * uses the buffer (wait for the job first: a job that touches an unmapped
 * range faults).
 *
 * Move-only. The typed accessors copy with memcpy, so they are safe for any
 * alignment; they throw std::out_of_range outside the buffer and
 * std::logic_error when the buffer has no CPU mapping.
 */
class Buffer {
public:
    Buffer(const Device& device, std::uint64_t size, BufferOptions options = {});
    /// A buffer holding @contents (a batch, usually), mapped read-only for the GPU.
    [[nodiscard]] static Buffer with_contents(const Device& device,
                                              std::span<const std::uint32_t> contents);

    Buffer(Buffer&& other) noexcept;
    Buffer& operator=(Buffer&& other) noexcept;
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    ~Buffer();

    [[nodiscard]] BoHandle handle() const noexcept { return handle_; }
    /// Size in bytes (page-aligned).
    [[nodiscard]] std::uint64_t size() const noexcept { return size_; }
    [[nodiscard]] bool gpu_mapped() const noexcept { return gpu_address_ != GpuAddress{}; }
    [[nodiscard]] bool gpu_read_only() const noexcept { return gpu_read_only_; }
    /// GPU address of byte 0 (GpuAddress{} without a GPU mapping).
    [[nodiscard]] GpuAddress gpu_address() const noexcept { return gpu_address_; }
    /// GPU address of byte @offset; throws std::out_of_range past the end.
    [[nodiscard]] GpuAddress gpu_address(std::uint64_t offset) const;

    /// The CPU mapping (empty without one).
    [[nodiscard]] std::span<std::byte> bytes() noexcept { return {cpu_, cpu_ ? size_ : 0}; }
    [[nodiscard]] std::span<const std::byte> bytes() const noexcept
    {
        return {cpu_, cpu_ ? size_ : 0};
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
        if (count > size_ / sizeof(T))
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
    void destroy() noexcept;
    // Address of [offset, offset + length) in the CPU mapping, or throws.
    [[nodiscard]] std::byte* checked(std::size_t offset, std::size_t length) const;
    [[noreturn]] void out_of_range(std::size_t offset, std::size_t length) const;

    std::shared_ptr<detail::DeviceState> device_;
    BoHandle handle_{};
    std::uint64_t size_{0};
    GpuAddress gpu_address_{};
    std::byte* cpu_{nullptr};
    bool gpu_read_only_{false};
};

} // namespace tempo
