// SPDX-License-Identifier: MIT
/*
 * uAPI guide example: DRM_IOCTL_TEMPO_SCHED, priority overrides of
 * another file's contexts.
 */
#include <errno.h>
#include <stdint.h>

#include <xf86drm.h>
#include <drm/tempo_drm.h>

#include "examples.h"

/* example: sched */
/*
 * A compositor (DRM master or CAP_SYS_NICE holder) and a game's DRM file
 * @game_fd, received over a socket for instance. Lower every context of
 * the game, present and future, to LOW; keep one of its contexts at
 * NORMAL (a context override wins over a file override); then remove
 * both overrides. Returns -EACCES for an unprivileged caller.
 */
int example_sched(int fd, int game_fd)
{
	struct drm_tempo_ctx_create create = { 0 };
	struct drm_tempo_ctx_param param = {
		.param = DRM_TEMPO_CTX_PARAM_PRIORITY,
	};
	struct drm_tempo_sched file = {
		.op = DRM_TEMPO_SCHED_FILE_PRIORITY_OVERRIDE,
		.fd = game_fd,
		.ctx_id = 0,
		.priority = DRM_TEMPO_PRIORITY_LOW,
	};
	struct drm_tempo_sched ctx = {
		.op = DRM_TEMPO_SCHED_CTX_PRIORITY_OVERRIDE,
		.fd = game_fd,
		.priority = DRM_TEMPO_PRIORITY_NORMAL,
	};
	int ret = 0;

	/* The game's own context (in the game's process, normally). */
	if (drmIoctl(game_fd, DRM_IOCTL_TEMPO_CTX_CREATE, &create))
		return -errno;
	ctx.ctx_id = param.ctx_id = create.ctx_id;

	if (drmIoctl(fd, DRM_IOCTL_TEMPO_SCHED, &file)) {
		ret = -errno;	/* EACCES: not master, no CAP_SYS_NICE */
		goto out;
	}
	/* The context reports the priority it runs at, override included. */
	if (drmIoctl(game_fd, DRM_IOCTL_TEMPO_CTX_GET_PARAM, &param) ||
	    param.value != DRM_TEMPO_PRIORITY_LOW)
		ret = -EPROTO;

	if (!ret && drmIoctl(fd, DRM_IOCTL_TEMPO_SCHED, &ctx))
		ret = -errno;
	if (!ret && (drmIoctl(game_fd, DRM_IOCTL_TEMPO_CTX_GET_PARAM, &param) ||
		     param.value != DRM_TEMPO_PRIORITY_NORMAL))
		ret = -EPROTO;

	/* PRIORITY_UNSET removes an override. */
	ctx.priority = file.priority = DRM_TEMPO_PRIORITY_UNSET;
	drmIoctl(fd, DRM_IOCTL_TEMPO_SCHED, &ctx);
	if (drmIoctl(fd, DRM_IOCTL_TEMPO_SCHED, &file) && !ret)
		ret = -errno;
out:
	example_ctx_destroy(game_fd, create.ctx_id);
	return ret;
}
/* end of example */

/* example: sched-errors */
int example_sched_errors(int fd, int game_fd)
{
	struct drm_tempo_sched sched = {
		.op = DRM_TEMPO_SCHED_FILE_PRIORITY_OVERRIDE,
		.fd = game_fd,
		.ctx_id = 1,
		.priority = DRM_TEMPO_PRIORITY_LOW,
	};

	/*
	 * A file override names no context: -EINVAL. Argument errors come
	 * before the privilege check, so this holds for any caller.
	 */
	if (!ex_fails_with(fd, DRM_IOCTL_TEMPO_SCHED, &sched, EINVAL))
		return -EPROTO;

	/* A priority out of range that is not PRIORITY_UNSET: -EINVAL. */
	sched.ctx_id = 0;
	sched.priority = DRM_TEMPO_PRIORITY_VERY_HIGH + 1;
	if (!ex_fails_with(fd, DRM_IOCTL_TEMPO_SCHED, &sched, EINVAL))
		return -EPROTO;
	return 0;
}
/* end of example */
