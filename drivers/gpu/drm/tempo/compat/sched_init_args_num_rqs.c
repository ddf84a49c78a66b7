// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: struct drm_sched_init_args has num_rqs (mainline's shape; Debian's
 * 6.1 backport of the struct has no run-queue count).
 */
#include <drm/gpu_scheduler.h>

const struct drm_sched_init_args probe = { .num_rqs = 1 };
