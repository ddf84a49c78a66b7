// SPDX-License-Identifier: GPL-2.0-only
/* Probe: drm_sched_start() takes only the scheduler. */
#include <drm/gpu_scheduler.h>

void (*probe)(struct drm_gpu_scheduler *s) = drm_sched_start;
