// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe drm_sched_stat_nominal: timedout_job answers
 * DRM_GPU_SCHED_STAT_NOMINAL after a reset, and has no way to say "not hung":
 * drm_sched keeps the job off its pending list, and the driver must put it
 * back (drm_sched_stop() and drm_sched_start()).
 *
 * Upstream: before "drm/sched: Allow drivers to skip the reset and keep on
 *   running".
 * Debian: 6.1 and 6.12.
 * Set: sched_stat
 */
#include <drm/gpu_scheduler.h>

int probe(void);
int probe(void)
{
	return DRM_GPU_SCHED_STAT_NOMINAL;
}
