// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe drm_sched_job_id: drm_sched_job has the id that drm_sched's trace
 * events print; later kernels name a job by its finished fence only.
 *
 * Upstream: removed in drm_sched's trace event rework, after 6.12.
 * Debian: 6.1 and 6.12 have it; 7.3 does not.
 */
#include <drm/gpu_scheduler.h>

u64 probe(struct drm_sched_job *job);
u64 probe(struct drm_sched_job *job)
{
	return job->id;
}
