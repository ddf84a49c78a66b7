// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * Buffer objects, their CPU mappings and the GPU address space.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include <xf86drm.h>

#include "tempo_uapi.h"

int tempo_bo_create(int fd, uint64_t size, uint32_t *handle)
{
	return tempo_bo_create_flags(fd, size, 0, handle);
}

int tempo_bo_create_flags(int fd, uint64_t size, uint32_t flags,
			  uint32_t *handle)
{
	struct drm_tempo_bo_create c = { .size = size, .flags = flags };
	int ret;

	ret = tempo_ioctl(fd, DRM_IOCTL_TEMPO_BO_CREATE, &c);
	if (!ret)
		*handle = c.handle;
	return ret;
}

int tempo_gem_close(int fd, uint32_t handle)
{
	return drmCloseBufferHandle(fd, handle) ? -errno : 0;
}

int tempo_bo_mmap_offset(int fd, uint32_t handle, uint64_t *offset)
{
	struct drm_tempo_bo_mmap_offset m = { .handle = handle };
	int ret = tempo_ioctl(fd, DRM_IOCTL_TEMPO_BO_MMAP_OFFSET, &m);

	if (!ret)
		*offset = m.offset;
	return ret;
}

void *tempo_bo_mmap(int fd, uint32_t handle, uint64_t size)
{
	uint64_t offset;
	void *p;
	int ret;

	ret = tempo_bo_mmap_offset(fd, handle, &offset);
	if (ret) {
		errno = -ret;
		return NULL;
	}
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 (off_t)offset);
	return p == MAP_FAILED ? NULL : p;
}

int tempo_vm_map(int fd, uint32_t handle, uint32_t flags, uint64_t *va,
		 uint64_t bo_offset, uint64_t size)
{
	struct drm_tempo_vm_map m = {
		.handle = handle,
		.flags = flags,
		.va = *va,
		.bo_offset = bo_offset,
		.size = size,
	};
	int ret;

	ret = tempo_ioctl(fd, DRM_IOCTL_TEMPO_VM_MAP, &m);
	if (!ret)
		*va = m.va;
	return ret;
}

int tempo_vm_unmap(int fd, uint64_t va, uint64_t size)
{
	struct drm_tempo_vm_unmap u = { .va = va, .size = size };

	return tempo_ioctl(fd, DRM_IOCTL_TEMPO_VM_UNMAP, &u);
}

int tempo_bo_new(int fd, uint64_t size, uint32_t vm_flags,
		 struct tempo_bo *bo)
{
	return tempo_bo_new_flags(fd, size, 0, vm_flags, bo);
}

int tempo_bo_new_flags(int fd, uint64_t size, uint32_t bo_flags,
		       uint32_t vm_flags, struct tempo_bo *bo)
{
	int ret;

	memset(bo, 0, sizeof(*bo));
	bo->size = size;
	ret = tempo_bo_create_flags(fd, size, bo_flags, &bo->handle);
	if (ret)
		goto err;
	bo->map = tempo_bo_mmap(fd, bo->handle, size);
	if (!bo->map) {
		ret = -errno;
		goto err;
	}
	ret = tempo_vm_map(fd, bo->handle, vm_flags | DRM_TEMPO_VM_MAP_AUTO_VA,
			   &bo->va, 0, size);
	if (ret)
		goto err;
	return 0;

err:
	tempo_bo_del(fd, bo);
	return ret;
}

void tempo_bo_del(int fd, struct tempo_bo *bo)
{
	if (bo->va)
		tempo_vm_unmap(fd, bo->va, bo->size);
	if (bo->map)
		munmap(bo->map, bo->size);
	if (bo->handle)
		tempo_gem_close(fd, bo->handle);
	memset(bo, 0, sizeof(*bo));
}
