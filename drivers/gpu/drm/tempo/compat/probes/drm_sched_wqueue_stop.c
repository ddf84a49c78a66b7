// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe drm_sched_wqueue_stop: a scheduler's submission stops and starts on
 * its own (drm_sched_wqueue_stop() and drm_sched_wqueue_start()).
 *
 * Upstream: "drm/sched: Add drm_sched_wqueue_* helpers", 6.8.
 * Debian: 6.12 and 7.3 have it; 6.1 does not.
 */
#include <drm/gpu_scheduler.h>

void (*probe_stop)(struct drm_gpu_scheduler *s) = drm_sched_wqueue_stop;
void (*probe_start)(struct drm_gpu_scheduler *s) = drm_sched_wqueue_start;
