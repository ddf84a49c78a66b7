// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe drm_sched_start_errno: drm_sched_start() takes an errno for the jobs
 * it cancels.
 *
 * Upstream: "drm/sched: Add error code parameter to drm_sched_start", 6.13.
 * Debian: 7.3 has it; 6.12 and 6.1 do not.
 * Set: sched_start
 */
#include <drm/gpu_scheduler.h>

void (*probe)(struct drm_gpu_scheduler *s, int errno) = drm_sched_start;
