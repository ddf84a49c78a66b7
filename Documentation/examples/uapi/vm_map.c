// SPDX-License-Identifier: MIT
/*
 * uAPI guide example: DRM_IOCTL_TEMPO_VM_MAP at an explicit address, at a
 * kernel-chosen one (AUTO_VA) and read-only.
 */
#include <errno.h>
#include <stdint.h>

#include <xf86drm.h>
#include <drm/tempo_drm.h>

#include "examples.h"

/* example: vm-map */
/*
 * Map a whole buffer three times into this file's GPU address space. One
 * buffer may be mapped any number of times; each mapping holds a
 * reference on it until VM_UNMAP or close().
 */
int example_vm_map(int fd, const struct drm_tempo_query_device *dev,
		   uint32_t handle, uint64_t size, struct ex_mappings *maps)
{
	struct drm_tempo_vm_map map = {
		.handle = handle,
		.bo_offset = 0,
		.size = size,	/* page aligned, like va and bo_offset */
	};

	/*
	 * 1. At an address of our choice: the UMD manages its own VA range
	 * inside [va_start, va_end). A range that is taken is -ENOSPC.
	 */
	map.va = dev->va_start;
	if (drmIoctl(fd, DRM_IOCTL_TEMPO_VM_MAP, &map))
		return -errno;
	maps->fixed = map.va;

	/* 2. Wherever the kernel finds room: va must be 0 on the way in. */
	map.flags = DRM_TEMPO_VM_MAP_AUTO_VA;
	map.va = 0;
	if (drmIoctl(fd, DRM_IOCTL_TEMPO_VM_MAP, &map))
		return -errno;
	maps->autova = map.va;

	/*
	 * 3. Read-only for the GPU: a packet that writes to it is a GPU
	 * fault, its job fails with -EFAULT and its context is banned.
	 */
	map.flags = DRM_TEMPO_VM_MAP_AUTO_VA | DRM_TEMPO_VM_MAP_READONLY;
	map.va = 0;
	if (drmIoctl(fd, DRM_IOCTL_TEMPO_VM_MAP, &map))
		return -errno;
	maps->readonly = map.va;
	return 0;
}
/* end of example */

/* example: vm-map-errors */
/* @va: an existing mapping of @handle, @size bytes long. */
int example_vm_map_errors(int fd, uint32_t handle, uint64_t va,
			  uint64_t size)
{
	struct drm_tempo_vm_map map = {
		.handle = handle,
		.va = va,
		.size = size,
	};

	/* Overlapping an existing mapping: -ENOSPC. */
	if (!ex_fails_with(fd, DRM_IOCTL_TEMPO_VM_MAP, &map, ENOSPC))
		return -EPROTO;

	/* Not page aligned: -EINVAL. */
	map.va = va + size + 4096;
	map.size = 100;
	if (!ex_fails_with(fd, DRM_IOCTL_TEMPO_VM_MAP, &map, EINVAL))
		return -EPROTO;

	/* AUTO_VA with a va: -EINVAL (va is MBZ then). */
	map.flags = DRM_TEMPO_VM_MAP_AUTO_VA;
	map.size = size;
	if (!ex_fails_with(fd, DRM_IOCTL_TEMPO_VM_MAP, &map, EINVAL))
		return -EPROTO;
	return 0;
}
/* end of example */
