// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe drm_sched_stat_no_hang: timedout_job can answer
 * DRM_GPU_SCHED_STAT_NO_HANG ("not hung, give it another period": drm_sched
 * puts the job back), and RESET replaced NOMINAL at the same time.
 *
 * Upstream: "drm/sched: Allow drivers to skip the reset and keep on running",
 *   after 6.12.
 * Debian: 7.3 has it; 6.12 and 6.1 do not.
 * Set: sched_stat
 */
#include <drm/gpu_scheduler.h>

int probe(void);
int probe(void)
{
	return DRM_GPU_SCHED_STAT_NO_HANG + DRM_GPU_SCHED_STAT_RESET;
}
