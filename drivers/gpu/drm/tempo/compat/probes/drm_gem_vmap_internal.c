// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe drm_gem_vmap_internal: neither drm_gem_vmap() nor
 * drm_gem_vmap_unlocked() is public: the driver calls its objects' vmap, which
 * locks what it needs. Compiles only where the header declares neither (a
 * variable of a function's name is an error).
 *
 * Upstream: before "drm/gem: Add drm_gem_vmap_unlocked()", 6.2.
 * Debian: 6.1.
 * Set: gem_vmap
 */
#include <drm/drm_gem.h>

static int drm_gem_vmap, drm_gem_vmap_unlocked;
int *const probe[] = { &drm_gem_vmap, &drm_gem_vmap_unlocked };
