// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: DRM_GEM_FOPS does not set .show_fdinfo, so the driver must (a
 * second initializer of the member is an error here).
 */
#include <linux/fs.h>
#include <linux/module.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_ioctl.h>

#pragma GCC diagnostic error "-Woverride-init"
const struct file_operations probe = {
	DRM_GEM_FOPS,
	.show_fdinfo = drm_show_fdinfo,
};
