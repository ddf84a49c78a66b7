// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe drm_sched_job_init_owner: drm_sched_job_init() takes the job, its
 * entity and an owner only.
 *
 * Upstream: before "drm/sched: implement dynamic job-flow control", 6.8.
 * Debian: 6.1.
 * Set: sched_job_init
 */
#include <drm/gpu_scheduler.h>

int probe(struct drm_sched_job *j, struct drm_sched_entity *e);
int probe(struct drm_sched_job *j, struct drm_sched_entity *e)
{
	return drm_sched_job_init(j, e, NULL);
}
