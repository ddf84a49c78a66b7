// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe file_operations_fop_flags: struct file_operations has fop_flags,
 * where a file says it takes unsigned offsets (FOP_UNSIGNED_OFFSET; before,
 * drm_open() set FMODE_UNSIGNED_OFFSET on each file).
 *
 * Upstream: "fs: add FOP_UNSIGNED_OFFSET" and "fs: convert mmap offset
 *   checks to FOP_UNSIGNED_OFFSET", 6.12.
 * Debian: 6.12 and 7.3 have it; 6.1 does not.
 */
#include <linux/fs.h>

const struct file_operations probe = { .fop_flags = FOP_UNSIGNED_OFFSET };
