// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe drm_sched_start_full_recovery: drm_sched_start() takes whether to
 * recover fully.
 *
 * Upstream: before "drm/sched: Remove full_recovery from drm_sched_start",
 *   6.12.
 * Debian: 6.1.
 * Set: sched_start
 */
#include <drm/gpu_scheduler.h>

void (*probe)(struct drm_gpu_scheduler *s, bool full_recovery) =
	drm_sched_start;
