// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe drm_gem_vmap_unlocked: the vmap that takes the reservation lock itself
 * is drm_gem_vmap_unlocked().
 *
 * Upstream: "drm/gem: Add drm_gem_vmap_unlocked()" (dma-buf locking rework),
 *   6.2.
 * Debian: 6.12 has it; 6.1 and 7.3 do not.
 * Set: gem_vmap
 */
#include <drm/drm_gem.h>

int (*probe)(struct drm_gem_object *obj, struct iosys_map *map) =
	drm_gem_vmap_unlocked;
