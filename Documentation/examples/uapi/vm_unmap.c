// SPDX-License-Identifier: MIT
/*
 * uAPI guide example: DRM_IOCTL_TEMPO_VM_UNMAP.
 */
#include <errno.h>
#include <stdint.h>

#include <xf86drm.h>
#include <drm/tempo_drm.h>

#include "examples.h"

/* example: vm-unmap */
/*
 * Remove one mapping: va and size must be exactly those of one VM_MAP.
 * Wait for the jobs that use the range first: from now on their accesses
 * to it are GPU faults.
 */
int example_vm_unmap(int fd, uint64_t va, uint64_t size)
{
	struct drm_tempo_vm_unmap unmap = { .va = va, .size = size };

	if (drmIoctl(fd, DRM_IOCTL_TEMPO_VM_UNMAP, &unmap))
		return -errno;	/* ENOENT: not one whole mapping */
	return 0;
}
/* end of example */

/* example: vm-unmap-errors */
/* @va: an existing mapping, @size bytes long (at least two pages). */
int example_vm_unmap_errors(int fd, uint64_t va, uint64_t size)
{
	struct drm_tempo_vm_unmap unmap = { .va = va, .size = size / 2 };

	/* Half of a mapping: -ENOENT (mappings are never split). */
	if (!ex_fails_with(fd, DRM_IOCTL_TEMPO_VM_UNMAP, &unmap, ENOENT))
		return -EPROTO;

	/* Non-zero flags: -EINVAL. */
	unmap.size = size;
	unmap.flags = 1;
	if (!ex_fails_with(fd, DRM_IOCTL_TEMPO_VM_UNMAP, &unmap, EINVAL))
		return -EPROTO;
	return 0;
}
/* end of example */
