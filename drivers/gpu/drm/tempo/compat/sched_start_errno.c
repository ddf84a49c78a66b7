// SPDX-License-Identifier: GPL-2.0-only
/* Probe: drm_sched_start() takes an errno for the jobs it cancels. */
#include <drm/gpu_scheduler.h>

void (*probe)(struct drm_gpu_scheduler *s, int errno) = drm_sched_start;
