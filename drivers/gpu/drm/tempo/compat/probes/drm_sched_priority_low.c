// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe drm_sched_priority_low: enum drm_sched_priority names its lowest level
 * LOW (not MIN).
 *
 * Upstream: "drm/sched: Rename priority MIN to LOW", 6.7.
 * Debian: 6.12 and 7.3 have it; 6.1 does not.
 * Set: sched_priority
 */
#include <drm/gpu_scheduler.h>

int probe(void);
int probe(void)
{
	return DRM_SCHED_PRIORITY_LOW;
}
