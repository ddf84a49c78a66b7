// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe drm_debugfs_add_files: drm_debugfs_add_files() registers a device's
 * debugfs files before the device is registered; before, the driver's
 * drm_driver.debugfs_init created them for each minor from a drm_info_list.
 *
 * Upstream: "drm/debugfs: create device-centered debugfs functions", 6.3.
 * Debian: 6.12 and 7.3 have it; 6.1 does not.
 */
#include <drm/drm_debugfs.h>

void (*probe)(struct drm_device *dev, const struct drm_debugfs_info *files,
	      int count) = drm_debugfs_add_files;
