// SPDX-License-Identifier: GPL-2.0-only
/* Probe: drm_sched_job_init() takes credits but no drm_client_id. */
#include <drm/gpu_scheduler.h>

int probe(struct drm_sched_job *j, struct drm_sched_entity *e);
int probe(struct drm_sched_job *j, struct drm_sched_entity *e)
{
	return drm_sched_job_init(j, e, 1, NULL);
}
