// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe drm_sched_start_sched_only: drm_sched_start() takes only the
 * scheduler.
 *
 * Upstream: "drm/sched: Remove full_recovery from drm_sched_start", 6.12.
 * Debian: 6.12 has it; 6.1 and 7.3 do not.
 * Set: sched_start
 */
#include <drm/gpu_scheduler.h>

void (*probe)(struct drm_gpu_scheduler *s) = drm_sched_start;
