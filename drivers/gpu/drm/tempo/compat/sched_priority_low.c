// SPDX-License-Identifier: GPL-2.0-only
/* Probe: enum drm_sched_priority names its lowest level LOW (not MIN). */
#include <drm/gpu_scheduler.h>

int probe(void);
int probe(void)
{
	return DRM_SCHED_PRIORITY_LOW;
}
