// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: drm_debugfs_add_files() registers files before the device is
 * (the older way is the driver's debugfs_init with drm_info_list).
 */
#include <drm/drm_debugfs.h>

void (*probe)(struct drm_device *dev, const struct drm_debugfs_info *files,
	      int count) = drm_debugfs_add_files;
