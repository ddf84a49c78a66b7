// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: the vmap that takes the reservation lock itself is
 * drm_gem_vmap_unlocked() (before and after, it is drm_gem_vmap()).
 */
#include <drm/drm_gem.h>

int (*probe)(struct drm_gem_object *obj, struct iosys_map *map) =
	drm_gem_vmap_unlocked;
