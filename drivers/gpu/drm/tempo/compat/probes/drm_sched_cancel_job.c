// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe drm_sched_cancel_job: the scheduler backend has cancel_job, which
 * drm_sched_fini() calls for every job still pending (before, drm_sched_fini()
 * left them).
 *
 * Upstream: "drm/sched: Add new callback cancel_job()", after 6.12.
 * Debian: 7.3 has it; 6.12 and 6.1 do not.
 */
#include <drm/gpu_scheduler.h>

static void cancel(struct drm_sched_job *job)
{
}

const struct drm_sched_backend_ops probe = { .cancel_job = cancel };
