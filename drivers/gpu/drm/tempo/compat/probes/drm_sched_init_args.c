// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe drm_sched_init_args: drm_sched_init() takes a struct
 * drm_sched_init_args.
 *
 * Upstream: "drm/sched: Use struct for drm_sched_init() params", 6.15.
 * Debian: 7.3 has it; Debian backported it to 6.12 and to 6.1 (without
 *   num_rqs).
 * Set: sched_init
 */
#include <drm/gpu_scheduler.h>

int probe(struct drm_gpu_scheduler *s, const struct drm_sched_init_args *a);
int probe(struct drm_gpu_scheduler *s, const struct drm_sched_init_args *a)
{
	return drm_sched_init(s, a);
}
