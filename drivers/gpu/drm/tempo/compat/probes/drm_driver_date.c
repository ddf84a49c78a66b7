// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe drm_driver_date: struct drm_driver has a date, which DRM_IOCTL_VERSION
 * copies out (and warns about when it is unset).
 *
 * Upstream: removed by "drm: remove driver date from struct drm_driver and all
 *   drivers", 6.14.
 * Debian: 6.1 and 6.12 have it; 7.3 does not.
 */
#include <drm/drm_drv.h>

const struct drm_driver probe = { .date = "20260101" };
