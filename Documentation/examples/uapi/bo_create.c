// SPDX-License-Identifier: MIT
/*
 * uAPI guide example: DRM_IOCTL_TEMPO_BO_CREATE.
 */
#include <errno.h>
#include <stdint.h>

#include <xf86drm.h>
#include <drm/tempo_drm.h>

#include "examples.h"

/* example: bo-create */
/*
 * A shmem-backed buffer object. The size is rounded up to whole pages;
 * the handle belongs to this file and is released with GEM_CLOSE.
 */
int example_bo_create(int fd, uint64_t size, uint32_t *handle)
{
	struct drm_tempo_bo_create create = { .size = size };

	if (drmIoctl(fd, DRM_IOCTL_TEMPO_BO_CREATE, &create))
		return -errno;	/* ENOMEM: out of memory; EINVAL: bad size */
	*handle = create.handle;
	return 0;
}
/* end of example */

/* example: bo-create-errors */
int example_bo_create_errors(int fd)
{
	struct drm_tempo_bo_create create = { .size = 0 };

	/* A zero size: -EINVAL. */
	if (!ex_fails_with(fd, DRM_IOCTL_TEMPO_BO_CREATE, &create, EINVAL))
		return -EPROTO;

	/* A flag outside DRM_TEMPO_BO_CREATE_FLAGS: -EINVAL. */
	create.size = 4096;
	create.flags = 1u << 31;
	if (!ex_fails_with(fd, DRM_IOCTL_TEMPO_BO_CREATE, &create, EINVAL))
		return -EPROTO;
	return 0;
}
/* end of example */
