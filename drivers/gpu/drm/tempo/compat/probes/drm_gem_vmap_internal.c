// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe drm_gem_vmap_internal: neither drm_gem_vmap() nor
 * drm_gem_vmap_unlocked() is public: the driver calls its objects' vmap, which
 * locks what it needs. Compiles only where the header declares neither (a
 * conflicting declaration is an error).
 *
 * Upstream: before "drm/gem: Add drm_gem_vmap_unlocked()", 6.2.
 * Debian: 6.1.
 * Set: gem_vmap
 */
#include <drm/drm_gem.h>

void drm_gem_vmap(void);
void drm_gem_vmap_unlocked(void);
