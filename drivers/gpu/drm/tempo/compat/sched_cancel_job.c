// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: the scheduler backend has cancel_job, which drm_sched_fini()
 * calls for every job still pending.
 */
#include <drm/gpu_scheduler.h>

static void cancel(struct drm_sched_job *job)
{
}

const struct drm_sched_backend_ops probe = { .cancel_job = cancel };
