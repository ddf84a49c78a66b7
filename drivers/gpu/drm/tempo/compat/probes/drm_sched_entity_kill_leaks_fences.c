// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe drm_sched_entity_kill_leaks_fences: drm_sched_fence_finished() takes
 * no result, as in drm_sched before the job's error was passed to its finished
 * fence. That scheduler's entity kill (drm_sched_entity_kill_jobs()) takes a
 * reference on the entity's last scheduled fence for each job it drops and
 * never puts it when that fence has already signalled: the fence, and the
 * hardware fence it holds, are never freed. Later kernels declare the function
 * with the result, or not at all.
 *
 * Upstream: drm_sched_fence_finished() gained the job's result after 6.1
 *   (mainline 6.4); the probe is the closest header change to the leak.
 * Debian: 6.1 leaks; 6.12 and 7.3 do not.
 */
#include <drm/gpu_scheduler.h>

void probe(struct drm_sched_fence *fence);

void probe(struct drm_sched_fence *fence)
{
	drm_sched_fence_finished(fence);
}
