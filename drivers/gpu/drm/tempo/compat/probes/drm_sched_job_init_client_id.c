// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe drm_sched_job_init_client_id: drm_sched_job_init() takes credits and a
 * drm_client_id.
 *
 * Upstream: "drm/sched: Store the drm client_id in drm_sched_fence", 6.16.
 * Debian: 7.3 has it, and Debian backported it to 6.12; 6.1 does not.
 * Set: sched_job_init
 */
#include <drm/gpu_scheduler.h>

int probe(struct drm_sched_job *j, struct drm_sched_entity *e);
int probe(struct drm_sched_job *j, struct drm_sched_entity *e)
{
	return drm_sched_job_init(j, e, 1, NULL, 0);
}
