// SPDX-License-Identifier: GPL-2.0-only
/* Probe: a scheduler's submission stops and starts on its own. */
#include <drm/gpu_scheduler.h>

void (*probe_stop)(struct drm_gpu_scheduler *s) = drm_sched_wqueue_stop;
void (*probe_start)(struct drm_gpu_scheduler *s) = drm_sched_wqueue_start;
