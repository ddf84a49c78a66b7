// SPDX-License-Identifier: MIT
/*
 * uAPI guide example: DRM_IOCTL_TEMPO_CTX_DESTROY.
 */
#include <errno.h>
#include <stdint.h>

#include <xf86drm.h>
#include <drm/tempo_drm.h>

#include "examples.h"

/* example: ctx-destroy */
/*
 * Jobs already submitted still run to completion and signal their
 * fences; only new execs on the id fail (-ENOENT). close() of the file
 * destroys every context left.
 */
int example_ctx_destroy(int fd, uint32_t ctx_id)
{
	struct drm_tempo_ctx_destroy destroy = { .ctx_id = ctx_id };

	if (drmIoctl(fd, DRM_IOCTL_TEMPO_CTX_DESTROY, &destroy))
		return -errno;	/* ENOENT: no such context */
	return 0;
}
/* end of example */

/* example: ctx-destroy-errors */
int example_ctx_destroy_errors(int fd)
{
	struct drm_tempo_ctx_create create = { 0 };
	struct drm_tempo_ctx_destroy destroy = { 0 };

	if (drmIoctl(fd, DRM_IOCTL_TEMPO_CTX_CREATE, &create))
		return -errno;
	destroy.ctx_id = create.ctx_id;

	/* Non-zero pad: -EINVAL, and the context is still there. */
	destroy.pad = 1;
	if (!ex_fails_with(fd, DRM_IOCTL_TEMPO_CTX_DESTROY, &destroy, EINVAL))
		return -EPROTO;

	destroy.pad = 0;
	if (drmIoctl(fd, DRM_IOCTL_TEMPO_CTX_DESTROY, &destroy))
		return -errno;

	/* A second destroy of the same id: -ENOENT. */
	if (!ex_fails_with(fd, DRM_IOCTL_TEMPO_CTX_DESTROY, &destroy, ENOENT))
		return -EPROTO;
	return 0;
}
/* end of example */
