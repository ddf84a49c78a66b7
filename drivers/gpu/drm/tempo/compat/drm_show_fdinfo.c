// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: DRM prints the common fdinfo keys (drm_show_fdinfo()), calls the
 * driver's show_fdinfo and prints memory stats (drm_show_memory_stats()).
 */
#include <linux/seq_file.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>

const struct drm_driver probe = { .show_fdinfo = drm_show_memory_stats };
void (*probe_fops)(struct seq_file *m, struct file *f) = drm_show_fdinfo;
