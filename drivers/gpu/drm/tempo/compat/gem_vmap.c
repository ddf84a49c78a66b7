// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: drm_gem_vmap() is public (before drm_gem_vmap_unlocked() came,
 * it was internal to DRM; since that was renamed, it takes the lock).
 */
#include <drm/drm_gem.h>

int (*probe)(struct drm_gem_object *obj, struct iosys_map *map) =
	drm_gem_vmap;
