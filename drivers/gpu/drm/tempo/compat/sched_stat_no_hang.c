// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: timedout_job can answer DRM_GPU_SCHED_STAT_NO_HANG ("not hung,
 * give it another period"; RESET replaced NOMINAL at the same time).
 */
#include <drm/gpu_scheduler.h>

int probe(void);
int probe(void)
{
	return DRM_GPU_SCHED_STAT_NO_HANG + DRM_GPU_SCHED_STAT_RESET;
}
