// SPDX-License-Identifier: GPL-2.0-only
/* Probe: drm_sched_init() takes a struct drm_sched_init_args. */
#include <drm/gpu_scheduler.h>

int probe(struct drm_gpu_scheduler *s, const struct drm_sched_init_args *a);
int probe(struct drm_gpu_scheduler *s, const struct drm_sched_init_args *a)
{
	return drm_sched_init(s, a);
}
