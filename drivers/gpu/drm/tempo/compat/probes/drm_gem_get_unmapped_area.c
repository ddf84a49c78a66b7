// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe drm_gem_get_unmapped_area: DRM places a GEM object's CPU mapping
 * itself (for huge pages), and DRM_GEM_FOPS names it.
 *
 * Upstream: "drm/gem: Introduce drm_gem_get_unmapped_area() fop", after
 *   6.12.
 * Debian: 7.3 has it; 6.12 and 6.1 do not.
 */
#include <linux/fs.h>
#include <drm/drm_gem.h>

const struct file_operations probe = {
	.get_unmapped_area = drm_gem_get_unmapped_area,
};
