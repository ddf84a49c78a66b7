// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: drm_file_update_pid() exists, and with it drm_file.pid is an
 * RCU-protected pointer (before, it was set once at open).
 */
#include <drm/drm_file.h>

void probe(struct drm_file *file);
void probe(struct drm_file *file)
{
	drm_file_update_pid(file);
}
