// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe drm_fdinfo_print_size: DRM prints a size key of fdinfo in bytes,
 * KiB or MiB, as its own memory keys are printed (drm_fdinfo_print_size(),
 * exported for drivers' keys of their own).
 *
 * Upstream: "drm: Add drm_fdinfo_print_size()" export in drm_file.c, after
 *   6.12.
 * Debian: 7.3 has it; 6.12 and 6.1 do not.
 */
#include <drm/drm_file.h>
#include <drm/drm_print.h>

void (*const probe)(struct drm_printer *p, const char *prefix,
		    const char *stat, const char *region,
		    u64 sz) = drm_fdinfo_print_size;
