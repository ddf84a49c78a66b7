// SPDX-License-Identifier: MIT
/*
 * uAPI guide example: DRM_IOCTL_TEMPO_CTX_GET_PARAM and
 * DRM_IOCTL_TEMPO_CTX_SET_PARAM: the priority, and the reset status and
 * count after a GPU fault.
 */
#include <errno.h>
#include <stdint.h>
#include <unistd.h>

#include <xf86drm.h>
#include <drm/tempo_drm.h>

#include "examples.h"

/* example: ctx-priority */
/*
 * Lower a context to LOW for background work, then try to raise it above
 * the caller's ceiling: -EACCES, and the priority stays what it was.
 */
int example_ctx_priority(int fd, const struct drm_tempo_query_device *dev,
			 uint32_t ctx_id)
{
	struct drm_tempo_ctx_param param = {
		.ctx_id = ctx_id,
		.param = DRM_TEMPO_CTX_PARAM_PRIORITY,
		.value = DRM_TEMPO_PRIORITY_LOW,
	};

	/* Applies to the jobs that have not reached the hardware yet. */
	if (drmIoctl(fd, DRM_IOCTL_TEMPO_CTX_SET_PARAM, &param))
		return -errno;

	if (dev->max_priority < DRM_TEMPO_PRIORITY_VERY_HIGH) {
		param.value = dev->max_priority + 1;
		if (!ex_fails_with(fd, DRM_IOCTL_TEMPO_CTX_SET_PARAM, &param, EACCES))
			return -EPROTO;
	}

	/* The value is sign-extended: LOW reads back as -512. */
	param.value = 0;
	if (drmIoctl(fd, DRM_IOCTL_TEMPO_CTX_GET_PARAM, &param))
		return -errno;
	return param.value == DRM_TEMPO_PRIORITY_LOW ? 0 : -EPROTO;
}
/* end of example */

/* example: ctx-reset-status */
/*
 * What a UMD does after a job fails on the hardware. The job here writes
 * to a read-only mapping: a GPU fault. Its fence carries -EFAULT, the
 * context is banned (RESET_STATUS has GUILTY, every later exec on it is
 * -ECANCELED) and the UMD replaces it with a new context.
 * RESET_COUNT counts the hardware queue resets of the whole device since
 * the context was created, whoever caused them.
 */
int example_ctx_reset_status(int fd, uint32_t *ctx_id)
{
	struct drm_tempo_ctx_param status = {
		.ctx_id = *ctx_id,
		.param = DRM_TEMPO_CTX_PARAM_RESET_STATUS,
	};
	struct drm_tempo_ctx_param count = {
		.ctx_id = *ctx_id,
		.param = DRM_TEMPO_CTX_PARAM_RESET_COUNT,
	};
	struct drm_tempo_ctx_destroy destroy = { .ctx_id = *ctx_id };
	struct drm_tempo_ctx_create create = { 0 };
	struct drm_tempo_exec exec = {
		.ctx_id = *ctx_id,
		.slot = 0,
		.flags = DRM_TEMPO_EXEC_OUT_SYNC_FILE,
		.num_batches = 1,
	};
	struct tempo_bo cmd, ro;
	uint64_t batch;
	int ret;

	ret = tempo_bo_new(fd, 4096, 0, &cmd);
	if (ret)
		return ret;
	ret = tempo_bo_new(fd, 4096, DRM_TEMPO_VM_MAP_READONLY, &ro);
	if (ret)
		goto out_cmd;
	batch = ex_batch_write(&cmd, 0, ro.va, 1);
	exec.batches = (uintptr_t)&batch;
	if (drmIoctl(fd, DRM_IOCTL_TEMPO_EXEC, &exec)) {
		ret = -errno;
		goto out_ro;
	}
	ret = ex_sync_file_wait(exec.out_fence_fd, 5000);
	close(exec.out_fence_fd);
	if (ret != -EFAULT) {
		ret = -EPROTO;
		goto out_ro;
	}

	if (drmIoctl(fd, DRM_IOCTL_TEMPO_CTX_GET_PARAM, &status) ||
	    drmIoctl(fd, DRM_IOCTL_TEMPO_CTX_GET_PARAM, &count)) {
		ret = -errno;
		goto out_ro;
	}
	ret = -EPROTO;
	if (!(status.value & DRM_TEMPO_RESET_STATUS_GUILTY) || count.value < 0)
		goto out_ro;

	/* A banned context takes no more work... */
	if (!ex_fails_with(fd, DRM_IOCTL_TEMPO_EXEC, &exec, ECANCELED))
		goto out_ro;

	/* ...so replace it; other contexts were not affected. */
	if (drmIoctl(fd, DRM_IOCTL_TEMPO_CTX_DESTROY, &destroy) ||
	    drmIoctl(fd, DRM_IOCTL_TEMPO_CTX_CREATE, &create)) {
		ret = -errno;
		goto out_ro;
	}
	*ctx_id = create.ctx_id;
	ret = 0;
out_ro:
	tempo_bo_del(fd, &ro);
out_cmd:
	tempo_bo_del(fd, &cmd);
	return ret;
}
/* end of example */

/* example: ctx-param-errors */
int example_ctx_param_errors(int fd, uint32_t ctx_id)
{
	struct drm_tempo_ctx_param param = {
		.ctx_id = ctx_id,
		.param = DRM_TEMPO_CTX_PARAM_RESET_STATUS,
	};

	/* RESET_STATUS and RESET_COUNT are read-only: -EINVAL. */
	if (!ex_fails_with(fd, DRM_IOCTL_TEMPO_CTX_SET_PARAM, &param, EINVAL))
		return -EPROTO;

	/* A parameter id the kernel does not know: -EINVAL. */
	param.param = 0xffff;
	if (!ex_fails_with(fd, DRM_IOCTL_TEMPO_CTX_GET_PARAM, &param, EINVAL))
		return -EPROTO;

	/* No such context: -ENOENT. */
	param.ctx_id = 0;
	param.param = DRM_TEMPO_CTX_PARAM_PRIORITY;
	if (!ex_fails_with(fd, DRM_IOCTL_TEMPO_CTX_GET_PARAM, &param, ENOENT))
		return -EPROTO;
	return 0;
}
/* end of example */
