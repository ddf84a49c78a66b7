// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe drm_show_fdinfo: DRM prints the common fdinfo keys
 * (drm_show_fdinfo()), calls the driver's show_fdinfo and prints memory stats
 * (drm_show_memory_stats()).
 *
 * Upstream: "drm: Add common fdinfo helper" and "drm: Add fdinfo memory
 *   stats", 6.5.
 * Debian: 6.12 and 7.3 have it; 6.1 does not.
 */
#include <linux/seq_file.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>

const struct drm_driver probe = { .show_fdinfo = drm_show_memory_stats };
void (*probe_fops)(struct seq_file *m, struct file *f) = drm_show_fdinfo;
