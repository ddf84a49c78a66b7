// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe drm_gem_vmap_locks: drm_gem_vmap() is public and takes the reservation
 * lock itself (mainline renamed drm_gem_vmap_unlocked() back to it).
 *
 * Upstream: after 6.12.
 * Debian: 7.3 has it.
 * Set: gem_vmap
 */
#include <drm/drm_gem.h>

int (*probe)(struct drm_gem_object *obj, struct iosys_map *map) =
	drm_gem_vmap;
