// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe drm_sched_priority_min: enum drm_sched_priority names its lowest level
 * MIN.
 *
 * Upstream: before "drm/sched: Rename priority MIN to LOW", 6.7.
 * Debian: 6.1.
 * Set: sched_priority
 */
#include <drm/gpu_scheduler.h>

int probe(void);
int probe(void)
{
	return DRM_SCHED_PRIORITY_MIN;
}
