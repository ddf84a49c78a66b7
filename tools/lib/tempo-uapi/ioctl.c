// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * The ioctls: queries, contexts, exec and SCHED.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include <xf86drm.h>

#include "tempo_uapi.h"

#define PTR(p)	((uint64_t)(uintptr_t)(p))

int tempo_ioctl(int fd, unsigned long request, void *arg)
{
	return drmIoctl(fd, request, arg) ? -errno : 0;
}

int tempo_ioctl_raw(int fd, unsigned long request, void *arg)
{
	return ioctl(fd, request, arg) ? -errno : 0;
}

/* ------------------------------------------------------------------------ */
/* Queries */

int tempo_query(int fd, uint32_t query, void *data, uint32_t *size)
{
	struct drm_tempo_query q = {
		.query = query,
		.size = *size,
		.data = PTR(data),
	};
	int ret;

	ret = tempo_ioctl(fd, DRM_IOCTL_TEMPO_QUERY, &q);
	if (!ret)
		*size = q.size;
	return ret;
}

void *tempo_query_alloc(int fd, uint32_t query, uint32_t *size)
{
	uint32_t len = 0;
	void *data;
	int ret;

	ret = tempo_query(fd, query, NULL, &len);
	if (!ret && !len)
		ret = -EPROTO;
	if (ret) {
		errno = -ret;
		return NULL;
	}
	data = calloc(1, len);
	if (!data)
		return NULL;
	ret = tempo_query(fd, query, data, &len);
	if (ret) {
		free(data);
		errno = -ret;
		return NULL;
	}
	if (size)
		*size = len;
	return data;
}

int tempo_query_copy(int fd, uint32_t query, void *out, uint32_t len)
{
	uint32_t size = 0;
	void *answer;
	int ret;

	ret = tempo_query(fd, query, NULL, &size);
	if (ret)
		return ret;
	memset(out, 0, len);
	if (size <= len)	/* this build's answer, or an older kernel's */
		return tempo_query(fd, query, out, &size);
	/* A newer kernel's: the fields this build knows. */
	answer = tempo_query_alloc(fd, query, &size);
	if (!answer)
		return -errno;
	memcpy(out, answer, len);
	free(answer);
	return 0;
}

int tempo_query_device(int fd, struct drm_tempo_query_device *dev)
{
	return tempo_query_copy(fd, DRM_TEMPO_QUERY_DEVICE, dev, sizeof(*dev));
}

int tempo_query_limits(int fd, struct drm_tempo_query_limits *limits)
{
	return tempo_query_copy(fd, DRM_TEMPO_QUERY_LIMITS, limits,
				sizeof(*limits));
}

struct drm_tempo_query_engines *tempo_query_engines(int fd)
{
	return tempo_query_alloc(fd, DRM_TEMPO_QUERY_ENGINES, NULL);
}

int tempo_default_slot(const struct drm_tempo_query_engines *e,
		       unsigned int engine_class, unsigned int nth)
{
	uint32_t i;

	for (i = 0; i < e->num_engines; i++) {
		if (e->engines[i].engine_class != engine_class)
			continue;
		if (!nth--)
			return (int)i;
	}
	return -1;
}

unsigned int tempo_count_class(const struct drm_tempo_query_engines *e,
			       unsigned int engine_class)
{
	unsigned int n = 0;
	uint32_t i;

	for (i = 0; i < e->num_engines; i++)
		n += e->engines[i].engine_class == engine_class;
	return n;
}

unsigned int tempo_engines_of_class(const struct drm_tempo_query_engines *e,
				    unsigned int engine_class,
				    struct drm_tempo_engine *out,
				    unsigned int max)
{
	unsigned int n = 0;
	uint32_t i;

	for (i = 0; i < e->num_engines && n < max; i++) {
		if (e->engines[i].engine_class != engine_class)
			continue;
		out[n].engine_class = e->engines[i].engine_class;
		out[n].engine_instance = e->engines[i].engine_instance;
		n++;
	}
	return n;
}

const char *tempo_class_name(unsigned int engine_class)
{
	switch (engine_class) {
	case DRM_TEMPO_ENGINE_CLASS_GFX:
		return "gfx";
	case DRM_TEMPO_ENGINE_CLASS_COMPUTE:
		return "compute";
	case DRM_TEMPO_ENGINE_CLASS_COPY:
		return "copy";
	}
	return "unknown";
}

/* ------------------------------------------------------------------------ */
/* Contexts */

int tempo_ctx_create(int fd, int32_t priority,
		     const struct drm_tempo_engine *slots, uint32_t num_slots,
		     uint32_t *ctx_id)
{
	return tempo_ctx_create_ext(fd, priority, slots, num_slots, NULL,
				    ctx_id);
}

int tempo_ctx_create_ext(int fd, int32_t priority,
			 const struct drm_tempo_engine *slots,
			 uint32_t num_slots, const void *ext, uint32_t *ctx_id)
{
	struct drm_tempo_ctx_create c = {
		.extensions = PTR(ext),
		.priority = priority,
		.num_slots = num_slots,
		.slots = PTR(slots),
	};
	int ret;

	ret = tempo_ioctl(fd, DRM_IOCTL_TEMPO_CTX_CREATE, &c);
	if (!ret)
		*ctx_id = c.ctx_id;
	return ret;
}

int tempo_ctx_destroy(int fd, uint32_t ctx_id)
{
	struct drm_tempo_ctx_destroy d = { .ctx_id = ctx_id };

	return tempo_ioctl(fd, DRM_IOCTL_TEMPO_CTX_DESTROY, &d);
}

int tempo_ctx_get_param(int fd, uint32_t ctx_id, uint32_t param,
			int64_t *value)
{
	struct drm_tempo_ctx_param p = { .ctx_id = ctx_id, .param = param };
	int ret;

	ret = tempo_ioctl(fd, DRM_IOCTL_TEMPO_CTX_GET_PARAM, &p);
	if (!ret)
		*value = p.value;
	return ret;
}

int tempo_ctx_set_param(int fd, uint32_t ctx_id, uint32_t param,
			int64_t value)
{
	struct drm_tempo_ctx_param p = {
		.ctx_id = ctx_id, .param = param, .value = value,
	};

	return tempo_ioctl(fd, DRM_IOCTL_TEMPO_CTX_SET_PARAM, &p);
}

/* ------------------------------------------------------------------------ */
/* Exec and SCHED */

/* Make the exec @x, with a sync_file returned in @fence_fd if not NULL. */
static int exec(int fd, struct drm_tempo_exec *x, int *fence_fd)
{
	int ret;

	x->flags = fence_fd ? DRM_TEMPO_EXEC_OUT_SYNC_FILE : 0;
	x->out_fence_fd = -1;
	ret = tempo_ioctl(fd, DRM_IOCTL_TEMPO_EXEC, x);
	if (!ret && fence_fd)
		*fence_fd = x->out_fence_fd;
	return ret;
}

int tempo_exec(int fd, uint32_t ctx_id, uint32_t slot, uint64_t batch_va,
	       const struct drm_tempo_sync *in, uint32_t num_in,
	       const struct drm_tempo_sync *out, uint32_t num_out,
	       int *fence_fd)
{
	struct drm_tempo_exec x = {
		.ctx_id = ctx_id,
		.slot = slot,
		.num_batches = 1,
		.batches = PTR(&batch_va),
		.num_in_syncs = num_in,
		.num_out_syncs = num_out,
		.in_syncs = PTR(in),
		.out_syncs = PTR(out),
	};

	return exec(fd, &x, fence_fd);
}

int tempo_exec_gang(int fd, uint32_t ctx_id, uint32_t slot,
		    const uint64_t *batches, uint32_t num_batches,
		    const struct drm_tempo_sync *in, uint32_t num_in,
		    int *fence_fd)
{
	struct drm_tempo_exec x = {
		.ctx_id = ctx_id,
		.slot = slot,
		.num_batches = num_batches,
		.batches = PTR(batches),
		.num_in_syncs = num_in,
		.in_syncs = PTR(in),
	};

	return exec(fd, &x, fence_fd);
}

int tempo_sched(int fd, uint32_t op, int target_fd, uint32_t ctx_id,
		int32_t priority)
{
	struct drm_tempo_sched s = {
		.op = op,
		.fd = target_fd,
		.ctx_id = ctx_id,
		.priority = priority,
	};

	return tempo_ioctl(fd, DRM_IOCTL_TEMPO_SCHED, &s);
}
