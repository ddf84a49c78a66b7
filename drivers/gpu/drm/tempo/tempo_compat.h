/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The tempo authors
 *
 * One place for the drm_sched API differences between the kernels tempo
 * builds on. Which API a kernel has is probed at build time (compat/),
 * never guessed from its version number.
 */
#ifndef _TEMPO_COMPAT_H_
#define _TEMPO_COMPAT_H_

#include <drm/gpu_scheduler.h>

#include "tempo_compat_gen.h"

/* Inside a file_operations initializer, after DRM_GEM_FOPS. */
#ifdef TEMPO_HAVE_GEM_FOPS_NO_FDINFO
#define TEMPO_GEM_FOPS_FDINFO	.show_fdinfo = drm_show_fdinfo,
#else
#define TEMPO_GEM_FOPS_FDINFO
#endif

#ifdef TEMPO_HAVE_SCHED_PRIORITY_LOW
#define TEMPO_SCHED_PRIORITY_LOW	DRM_SCHED_PRIORITY_LOW
#else
#define TEMPO_SCHED_PRIORITY_LOW	DRM_SCHED_PRIORITY_MIN
#endif

static inline int
tempo_compat_sched_init(struct drm_gpu_scheduler *sched,
			const struct drm_sched_backend_ops *ops, u32 credits,
			long timeout, const char *name, struct device *dev)
{
#if defined(TEMPO_HAVE_SCHED_INIT_ARGS)
	const struct drm_sched_init_args args = {
		.ops = ops,
		.num_rqs = DRM_SCHED_PRIORITY_COUNT,
		.credit_limit = credits,
		.timeout = timeout,
		.name = name,
		.dev = dev,
	};

	return drm_sched_init(sched, &args);
#elif defined(TEMPO_HAVE_SCHED_INIT_11)
	return drm_sched_init(sched, ops, NULL, DRM_SCHED_PRIORITY_COUNT,
			      credits, 0, timeout, NULL, NULL, name, dev);
#else
	return drm_sched_init(sched, ops, credits, 0, timeout, NULL, NULL,
			      name, dev);
#endif
}

static inline int
tempo_compat_job_init(struct drm_sched_job *job,
		      struct drm_sched_entity *entity, void *owner,
		      u64 client_id)
{
#if defined(TEMPO_HAVE_JOB_INIT_CLIENT_ID)
	return drm_sched_job_init(job, entity, 1, owner, client_id);
#elif defined(TEMPO_HAVE_JOB_INIT_CREDITS)
	return drm_sched_job_init(job, entity, 1, owner);
#else
	return drm_sched_job_init(job, entity, owner);
#endif
}

static inline void tempo_compat_sched_start(struct drm_gpu_scheduler *sched)
{
#if defined(TEMPO_HAVE_SCHED_START_1)
	drm_sched_start(sched);
#elif defined(TEMPO_HAVE_SCHED_START_ERRNO)
	drm_sched_start(sched, 0); /* no job to cancel */
#else
	drm_sched_start(sched, true);
#endif
}

#endif /* _TEMPO_COMPAT_H_ */
