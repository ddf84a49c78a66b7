// SPDX-License-Identifier: GPL-2.0-only
/* Probe: drm_sched_init() takes 11 arguments (submit_wq, num_rqs, credits). */
#include <drm/gpu_scheduler.h>

int probe(struct drm_gpu_scheduler *s, const struct drm_sched_backend_ops *o,
	  struct device *d);
int probe(struct drm_gpu_scheduler *s, const struct drm_sched_backend_ops *o,
	  struct device *d)
{
	return drm_sched_init(s, o, NULL, DRM_SCHED_PRIORITY_COUNT, 1, 0, 1,
			      NULL, NULL, "probe", d);
}
