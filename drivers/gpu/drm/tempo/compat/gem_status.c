// SPDX-License-Identifier: GPL-2.0-only
/* Probe: GEM objects report their residency to fdinfo through .status. */
#include <drm/drm_gem.h>

static enum drm_gem_object_status status(struct drm_gem_object *obj)
{
	return DRM_GEM_OBJECT_RESIDENT;
}

const struct drm_gem_object_funcs probe = { .status = status };
