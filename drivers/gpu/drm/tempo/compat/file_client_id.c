// SPDX-License-Identifier: GPL-2.0-only
/* Probe: struct drm_file has the client_id that fdinfo prints. */
#include <drm/drm_file.h>

u64 probe(const struct drm_file *file);
u64 probe(const struct drm_file *file)
{
	return file->client_id;
}
