// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The tempo authors
 */

/**
 * DOC: Queries
 *
 * Each query id has one function that fills its answer in a kernel buffer
 * of the exact size given by its size function; the ioctl implements the
 * size probe (size 0) and the exact-size rule once for all of them.
 */

#include <linux/nospec.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <drm/drm_file.h>
#include <drm/tempo_drm.h>

#include "tempo_drv.h"

/**
 * struct tempo_query_fn - how to answer one query id
 * @size: size of the answer
 * @fill: write the answer into a zeroed buffer of that size
 */
struct tempo_query_fn {
	size_t (*size)(struct tempo_device *tdev);
	void (*fill)(struct tempo_device *tdev, struct drm_file *file,
		     void *answer);
};

static size_t device_size(struct tempo_device *tdev)
{
	return sizeof(struct drm_tempo_query_device);
}

static void device_fill(struct tempo_device *tdev, struct drm_file *file,
			void *answer)
{
	struct drm_tempo_query_device *d = answer;
	const struct tempo_params *p = &tempo_params;

	d->num_engines = tdev->num_engines;
	d->num_hqds = tdev->num_queues;
	d->num_cus = p->cus;
	d->max_batches = TEMPO_MAX_BATCHES;
	d->timestamp_frequency = tdev->caps.timestamp_frequency;
	d->va_start = TEMPO_VA_START;
	d->va_end = TEMPO_VA_END;
	d->max_syncs = TEMPO_MAX_SYNCS;
	d->max_batch_depth = tdev->caps.max_batch_depth;
	d->max_slots = TEMPO_MAX_SLOTS;
	d->ring_size = TEMPO_RING_SIZE;
	d->max_priority = tempo_priority_ceiling(file);
	d->max_packet_dwords = tdev->caps.max_packet_dw;
	d->max_groups = tdev->caps.max_groups;
	d->job_timeout_ms = tdev->job_timeout_ms;
	d->parallel_classes = TEMPO_PARALLEL_CLASSES;
	d->max_siblings = TEMPO_MAX_SIBLINGS;
}

static size_t engines_size(struct tempo_device *tdev)
{
	return struct_size_t(struct drm_tempo_query_engines, engines,
			     tdev->num_engines);
}

static void engines_fill(struct tempo_device *tdev, struct drm_file *file,
			 void *answer)
{
	struct drm_tempo_query_engines *q = answer;
	u32 i;

	q->num_engines = tdev->num_engines;
	for (i = 0; i < tdev->num_engines; i++) {
		const struct tempo_engine_desc *e = &tdev->engines[i];

		q->engines[i].engine_class = e->engine_class;
		q->engines[i].engine_instance = e->engine_instance;
		q->engines[i].num_hqds = e->num_queues;
		q->engines[i].first_hqd = e->first_queue;
	}
}

static size_t hqds_size(struct tempo_device *tdev)
{
	return struct_size_t(struct drm_tempo_query_hqds, hqds,
			     tdev->num_queues);
}

/*
 * The live MQD priorities only to callers who may set priorities: they
 * follow other files' jobs, and would let any file watch what others run.
 * Others see the programming made at load.
 */
static void hqds_fill(struct tempo_device *tdev, struct drm_file *file,
		      void *answer)
{
	bool live = tempo_priority_ceiling(file) > DRM_TEMPO_PRIORITY_NORMAL;
	struct drm_tempo_query_hqds *q = answer;
	u32 i;

	q->num_hqds = tdev->num_queues;
	for (i = 0; i < tdev->num_queues; i++) {
		const struct tempo_queue *queue = &tdev->queues[i];
		struct drm_tempo_hqd_info *info = &q->hqds[i];

		info->engine_class = queue->engine_class;
		info->engine_instance = queue->engine_instance;
		info->queue = queue->index;
		info->pipe_priority = queue->init_pipe;
		info->queue_priority = queue->init_queue;
		if (live)
			tempo_queue_priority(queue, &info->pipe_priority,
					     &info->queue_priority);
	}
}

static size_t limits_size(struct tempo_device *tdev)
{
	return sizeof(struct drm_tempo_query_limits);
}

static void limits_fill(struct tempo_device *tdev, struct drm_file *file,
			void *answer)
{
	struct drm_tempo_query_limits *l = answer;

	l->max_contexts = tempo_params.max_contexts;
	l->max_mappings = tempo_params.max_mappings;
	l->max_jobs = READ_ONCE(tempo_params.max_jobs);
	l->close_wait_ms = TEMPO_CLOSE_WAIT_MS;
}

static size_t buffer_limits_size(struct tempo_device *tdev)
{
	return sizeof(struct drm_tempo_query_buffer_limits);
}

static void buffer_limits_fill(struct tempo_device *tdev,
			       struct drm_file *file, void *answer)
{
	struct drm_tempo_query_buffer_limits *l = answer;
	const struct tempo_params *p = &tempo_params;

	l->max_bos = READ_ONCE(p->max_bos);
	l->user_max_bos = READ_ONCE(p->user_max_bos);
	l->max_bo_bytes = (u64)p->max_bo_mib << 20;
	l->user_max_bo_bytes = (u64)p->user_max_bo_mib << 20;
	l->max_resident_bytes = tempo_budget_max_resident();
	l->user_max_resident_bytes = tempo_budget_user_max_resident();
	l->max_bo_size = TEMPO_MAX_BO_SIZE;
}

static const struct tempo_query_fn tempo_queries[] = {
	[DRM_TEMPO_QUERY_DEVICE] = { device_size, device_fill },
	[DRM_TEMPO_QUERY_ENGINES] = { engines_size, engines_fill },
	[DRM_TEMPO_QUERY_HQDS] = { hqds_size, hqds_fill },
	[DRM_TEMPO_QUERY_LIMITS] = { limits_size, limits_fill },
	[DRM_TEMPO_QUERY_BUFFER_LIMITS] = { buffer_limits_size,
					    buffer_limits_fill },
};

/**
 * tempo_ioctl_query() - DRM_IOCTL_TEMPO_QUERY
 * @dev: the DRM device
 * @data: &struct drm_tempo_query
 * @file: the caller
 *
 * Context: process.
 * Return: 0 or a negative errno, as documented in the uAPI header.
 */
int tempo_ioctl_query(struct drm_device *dev, void *data,
		      struct drm_file *file)
{
	struct tempo_device *tdev = to_tempo_device(dev);
	struct drm_tempo_query *args = data;
	const struct tempo_query_fn *fn;
	void *answer;
	size_t size;
	int ret = 0;

	if (TEMPO_IOCTL_DBG(tdev, args->extensions || args->flags || args->pad))
		return -EINVAL;
	if (TEMPO_IOCTL_DBG(tdev, args->query >= ARRAY_SIZE(tempo_queries)))
		return -EINVAL;
	fn = &tempo_queries[array_index_nospec(args->query,
					       ARRAY_SIZE(tempo_queries))];
	size = fn->size(tdev);
	if (!args->size) {
		args->size = size;
		return 0;
	}
	if (TEMPO_IOCTL_DBG(tdev, args->size != size))
		return -EINVAL;

	answer = kzalloc(size, GFP_KERNEL_ACCOUNT);
	if (!answer)
		return -ENOMEM;
	fn->fill(tdev, file, answer);
	if (TEMPO_IOCTL_DBG(tdev, copy_to_user(u64_to_user_ptr(args->data),
					       answer, size)))
		ret = -EFAULT;
	kfree(answer);
	return ret;
}
