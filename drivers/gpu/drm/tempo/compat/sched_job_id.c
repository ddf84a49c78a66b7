// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: drm_sched_job has the id that drm_sched's trace events print
 * (6.x); later kernels name a job by its finished fence only.
 */
#include <drm/gpu_scheduler.h>

u64 probe(struct drm_sched_job *job);
u64 probe(struct drm_sched_job *job)
{
	return job->id;
}
