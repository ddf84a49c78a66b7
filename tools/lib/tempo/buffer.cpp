// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 */
#include <cerrno>
#include <stdexcept>
#include <string>
#include <utility>

#include <sys/mman.h>

#include <xf86drm.h>

#include <tempo/buffer.hpp>
#include <tempo/device.hpp>
#include <tempo/error.hpp>

#include "device_state.hpp"
#include "ioctl.hpp"
#include "uapi.hpp"

namespace tempo {

namespace {

std::string describe_bo(const detail::GemObject& object)
{
    return "buffer " + std::to_string(object.handle.value()) + " of " +
           std::to_string(object.size) + " bytes";
}

detail::GemObject create_object(std::shared_ptr<detail::DeviceState> device, std::uint64_t size,
                                bool vm_private)
{
    drm_tempo_bo_create create{
        .size = size,
        .flags = vm_private ? DRM_TEMPO_BO_CREATE_VM_PRIVATE : 0u,
        .handle = 0,
    };
    detail::ioctl_or_throw(device->fd.get(), TEMPO_IOCTL(DRM_IOCTL_TEMPO_BO_CREATE), &create, [&] {
        return "creating a buffer of " + std::to_string(size) + " bytes";
    });
    // The kernel rounds the size up to the page size: so do the mappings.
    const std::uint64_t page = device->page_size;
    return {.device = std::move(device),
            .handle = BoHandle{create.handle},
            .size = (size + page - 1) / page * page};
}

detail::CpuMapping map_cpu(const detail::GemObject& object)
{
    const int fd = object.device->fd.get();
    drm_tempo_bo_mmap_offset offset{
        .handle = object.handle.value(),
        .flags = 0,
        .offset = 0,
    };
    detail::ioctl_or_throw(fd, TEMPO_IOCTL(DRM_IOCTL_TEMPO_BO_MMAP_OFFSET), &offset,
                           [&] { return describe_bo(object); });
    void* cpu = ::mmap(nullptr, object.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
                       static_cast<off_t>(offset.offset));
    if (cpu == MAP_FAILED)
        throw Error(errno, "mmap", describe_bo(object));
    return {.data = static_cast<std::byte*>(cpu), .size = object.size};
}

detail::GpuMapping map_gpu(const detail::GemObject& object, bool read_only)
{
    drm_tempo_vm_map map{
        .handle = object.handle.value(),
        .flags = DRM_TEMPO_VM_MAP_AUTO_VA | (read_only ? DRM_TEMPO_VM_MAP_READONLY : 0U),
        .va = 0,
        .bo_offset = 0,
        .size = object.size,
    };
    detail::ioctl_or_throw(object.device->fd.get(), TEMPO_IOCTL(DRM_IOCTL_TEMPO_VM_MAP), &map, [&] {
        return "mapping " + describe_bo(object) + " in the GPU address space";
    });
    return {.device = object.device,
            .address = GpuAddress{map.va},
            .size = object.size,
            .read_only = read_only};
}

} // namespace

// The releases ignore errors: there is nothing to do about them in a
// destructor, and closing the file releases everything anyway.

void detail::CloseGemObject::operator()(const GemObject& object) const noexcept
{
    (void)drmCloseBufferHandle(object.device->fd.get(), object.handle.value());
}

void detail::UnmapCpu::operator()(const CpuMapping& mapping) const noexcept
{
    ::munmap(mapping.data, mapping.size);
}

void detail::UnmapGpu::operator()(const GpuMapping& mapping) const noexcept
{
    drm_tempo_vm_unmap unmap{
        .va = mapping.address.value(),
        .size = mapping.size,
        .flags = 0,
        .pad = 0,
    };
    (void)detail::ioctl(mapping.device->fd.get(), TEMPO_IOCTL(DRM_IOCTL_TEMPO_VM_UNMAP), &unmap);
}

Buffer::Buffer(const Device& device, std::uint64_t size, BufferOptions options)
    : object_(create_object(detail::Access::state(device), size, options.vm_private))
{
    if (options.cpu_map)
        cpu_ = decltype(cpu_){map_cpu(object_.get())};
    if (options.gpu_map)
        gpu_ = decltype(gpu_){map_gpu(object_.get(), options.gpu_read_only)};
}

Buffer Buffer::with_contents(const Device& device, std::span<const std::uint32_t> contents)
{
    Buffer buffer(device, contents.size_bytes(), {.gpu_read_only = true});
    buffer.write_array(0, contents);
    return buffer;
}

GpuAddress Buffer::gpu_address(std::uint64_t offset) const
{
    if (!gpu_mapped())
        throw std::logic_error("tempo::Buffer: buffer " + std::to_string(handle().value()) +
                               " has no GPU mapping");
    if (offset > size())
        out_of_range(offset, 0);
    return gpu_address() + offset;
}

std::byte* Buffer::checked(std::size_t offset, std::size_t length) const
{
    if (!cpu_)
        throw std::logic_error("tempo::Buffer: buffer " + std::to_string(handle().value()) +
                               " has no CPU mapping");
    if (offset > size() || length > size() - offset)
        out_of_range(offset, length);
    return cpu_->data + offset;
}

void Buffer::out_of_range(std::size_t offset, std::size_t length) const
{
    throw std::out_of_range("tempo::Buffer: [" + std::to_string(offset) + ", +" +
                            std::to_string(length) + ") is outside buffer " +
                            std::to_string(handle().value()) + " of " + std::to_string(size()) +
                            " bytes");
}

} // namespace tempo
