// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: system_dfl_wq, the unbound system workqueue under the name that
 * replaces system_unbound_wq (7.x kernels warn about work queued on the
 * older system_wq).
 */
#include <linux/workqueue.h>

struct workqueue_struct **const probe = &system_dfl_wq;
