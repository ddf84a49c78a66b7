// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe drm_file_update_pid: drm_file_update_pid() exists, and with it
 * drm_file.pid is an RCU-protected pointer to the process that last used
 * the file (before, the opener's, set once).
 *
 * Upstream: "drm: Update file owner during use", 6.8.
 * Debian: 6.12 and 7.3 have it; 6.1 does not.
 */
#include <drm/drm_file.h>

void probe(struct drm_file *file);
void probe(struct drm_file *file)
{
	drm_file_update_pid(file);
}
