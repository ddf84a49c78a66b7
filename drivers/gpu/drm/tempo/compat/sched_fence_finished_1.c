// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: drm_sched_fence_finished() takes no result, as in drm_sched
 * before the job's error was passed to its finished fence (Debian's 6.1).
 * That scheduler's entity kill (drm_sched_entity_kill_jobs()) takes a
 * reference on the entity's last scheduled fence for each job it drops
 * and never puts it when that fence has already signalled: the fence, and
 * the hardware fence it holds, are never freed. Later kernels (6.12, 7.x)
 * declare the function with the result, or not at all.
 */
#include <drm/gpu_scheduler.h>

void probe(struct drm_sched_fence *fence);

void probe(struct drm_sched_fence *fence)
{
	drm_sched_fence_finished(fence);
}
