// SPDX-License-Identifier: MIT
/*
 * uAPI guide example: DRM_IOCTL_TEMPO_BO_MMAP_OFFSET and mmap().
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>

#include <xf86drm.h>
#include <drm/tempo_drm.h>

#include "examples.h"

/* example: bo-mmap-offset */
/*
 * Map a buffer on the CPU: the ioctl returns a fake offset that selects
 * the buffer in mmap() of the same DRM file. The mapping is coherent with
 * the GPU and stays valid after the handle is closed, until munmap().
 */
int example_bo_mmap(int fd, uint32_t handle, uint64_t size, void **cpu)
{
	struct drm_tempo_bo_mmap_offset offset = { .handle = handle };
	void *ptr;

	if (drmIoctl(fd, DRM_IOCTL_TEMPO_BO_MMAP_OFFSET, &offset))
		return -errno;	/* ENOENT: no such handle */
	ptr = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   offset.offset);
	if (ptr == MAP_FAILED)
		return -errno;
	*cpu = ptr;
	return 0;
}
/* end of example */

/* example: bo-mmap-offset-errors */
int example_bo_mmap_offset_errors(int fd)
{
	struct drm_tempo_bo_mmap_offset offset = { .handle = 0 };

	/* Handle 0 is never a GEM handle: -ENOENT. */
	if (!ex_fails_with(fd, DRM_IOCTL_TEMPO_BO_MMAP_OFFSET, &offset, ENOENT))
		return -EPROTO;
	return 0;
}
/* end of example */
