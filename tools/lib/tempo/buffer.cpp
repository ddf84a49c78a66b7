// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 */
#include <cerrno>
#include <stdexcept>
#include <string>
#include <utility>

#include <sys/mman.h>

#include <tempo/buffer.hpp>
#include <tempo/device.hpp>
#include <tempo/error.hpp>

#include "device_state.hpp"
#include "ioctl.hpp"
#include "uapi.hpp"

namespace tempo {

namespace {

std::string describe_bo(BoHandle handle, std::uint64_t size)
{
    return "buffer " + std::to_string(handle.value()) + " of " + std::to_string(size) + " bytes";
}

} // namespace

Buffer::Buffer(const Device& device, std::uint64_t size, BufferOptions options)
    : device_(detail::Access::state(device)), gpu_read_only_(options.gpu_read_only)
{
    const int fd = device_->fd.get();

    drm_tempo_bo_create create{
        .size = size,
        .flags = 0,
        .handle = 0,
    };
    detail::ioctl_or_throw(fd, TEMPO_IOCTL(DRM_IOCTL_TEMPO_BO_CREATE), &create, [&] {
        return "creating a buffer of " + std::to_string(size) + " bytes";
    });
    handle_ = BoHandle{create.handle};
    // The kernel rounds the size up to the page size: so do the mappings.
    const std::uint64_t page = device_->page_size;
    size_ = (size + page - 1) / page * page;

    try {
        if (options.cpu_map) {
            drm_tempo_bo_mmap_offset offset{
                .handle = handle_.value(),
                .flags = 0,
                .offset = 0,
            };
            detail::ioctl_or_throw(fd, TEMPO_IOCTL(DRM_IOCTL_TEMPO_BO_MMAP_OFFSET), &offset,
                                   [&] { return describe_bo(handle_, size_); });
            void* cpu = ::mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
                               static_cast<off_t>(offset.offset));
            if (cpu == MAP_FAILED)
                throw Error(errno, "mmap", describe_bo(handle_, size_));
            cpu_ = static_cast<std::byte*>(cpu);
        }
        if (options.gpu_map) {
            drm_tempo_vm_map map{
                .handle = handle_.value(),
                .flags = DRM_TEMPO_VM_MAP_AUTO_VA |
                         (options.gpu_read_only ? DRM_TEMPO_VM_MAP_READONLY : 0U),
                .va = 0,
                .bo_offset = 0,
                .size = size_,
            };
            detail::ioctl_or_throw(fd, TEMPO_IOCTL(DRM_IOCTL_TEMPO_VM_MAP), &map, [&] {
                return "mapping " + describe_bo(handle_, size_) + " in the GPU address space";
            });
            gpu_address_ = GpuAddress{map.va};
        }
    } catch (...) {
        destroy();
        throw;
    }
}

Buffer Buffer::with_contents(const Device& device, std::span<const std::uint32_t> contents)
{
    Buffer buffer(device, contents.size_bytes(), {.gpu_read_only = true});
    buffer.write_array(0, contents);
    return buffer;
}

Buffer::Buffer(Buffer&& other) noexcept
    : device_(std::move(other.device_)),
      handle_(std::exchange(other.handle_, BoHandle{})),
      size_(std::exchange(other.size_, 0)),
      gpu_address_(std::exchange(other.gpu_address_, GpuAddress{})),
      cpu_(std::exchange(other.cpu_, nullptr)),
      gpu_read_only_(std::exchange(other.gpu_read_only_, false))
{}

Buffer& Buffer::operator=(Buffer&& other) noexcept
{
    if (this != &other) {
        destroy();
        device_ = std::move(other.device_);
        handle_ = std::exchange(other.handle_, BoHandle{});
        size_ = std::exchange(other.size_, 0);
        gpu_address_ = std::exchange(other.gpu_address_, GpuAddress{});
        cpu_ = std::exchange(other.cpu_, nullptr);
        gpu_read_only_ = std::exchange(other.gpu_read_only_, false);
    }
    return *this;
}

Buffer::~Buffer()
{
    destroy();
}

void Buffer::destroy() noexcept
{
    if (!device_)
        return;
    const int fd = device_->fd.get();
    // Errors are ignored: there is nothing to do about them in a destructor,
    // and closing the file releases everything anyway.
    if (gpu_address_ != GpuAddress{}) {
        drm_tempo_vm_unmap unmap{
            .va = gpu_address_.value(),
            .size = size_,
            .flags = 0,
            .pad = 0,
        };
        detail::ioctl(fd, TEMPO_IOCTL(DRM_IOCTL_TEMPO_VM_UNMAP), &unmap);
    }
    if (cpu_)
        ::munmap(cpu_, size_);
    if (handle_ != BoHandle{}) {
        drm_gem_close close{
            .handle = handle_.value(),
            .pad = 0,
        };
        detail::ioctl(fd, TEMPO_IOCTL(DRM_IOCTL_GEM_CLOSE), &close);
    }
    gpu_address_ = GpuAddress{};
    cpu_ = nullptr;
    handle_ = BoHandle{};
    size_ = 0;
    device_.reset();
}

GpuAddress Buffer::gpu_address(std::uint64_t offset) const
{
    if (!gpu_mapped())
        throw std::logic_error("tempo::Buffer: buffer " + std::to_string(handle_.value()) +
                               " has no GPU mapping");
    if (offset > size_)
        out_of_range(offset, 0);
    return gpu_address_ + offset;
}

std::byte* Buffer::checked(std::size_t offset, std::size_t length) const
{
    if (!cpu_)
        throw std::logic_error("tempo::Buffer: buffer " + std::to_string(handle_.value()) +
                               " has no CPU mapping");
    if (offset > size_ || length > size_ - offset)
        out_of_range(offset, length);
    return cpu_ + offset;
}

void Buffer::out_of_range(std::size_t offset, std::size_t length) const
{
    throw std::out_of_range("tempo::Buffer: [" + std::to_string(offset) + ", +" +
                            std::to_string(length) + ") is outside buffer " +
                            std::to_string(handle_.value()) + " of " + std::to_string(size_) +
                            " bytes");
}

} // namespace tempo
