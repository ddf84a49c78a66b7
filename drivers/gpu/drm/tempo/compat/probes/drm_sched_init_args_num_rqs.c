// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe drm_sched_init_args_num_rqs: struct drm_sched_init_args has num_rqs,
 * the number of run queues.
 *
 * Upstream: as drm_sched_init_args, 6.15.
 * Debian: 6.12 and 7.3 have it; Debian's 6.1 backport of the struct does not.
 */
#include <drm/gpu_scheduler.h>

const struct drm_sched_init_args probe = { .num_rqs = 1 };
