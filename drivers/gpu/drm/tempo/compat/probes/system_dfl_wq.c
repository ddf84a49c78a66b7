// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe system_dfl_wq: system_dfl_wq, the unbound system workqueue under the
 * name that replaces system_unbound_wq (7.x kernels warn about work queued on
 * the older system_wq).
 *
 * Upstream: "workqueue: Add system_percpu_wq and system_dfl_wq", 6.17.
 * Debian: 6.12 and 7.3 have it; 6.1 does not.
 */
#include <linux/workqueue.h>

struct workqueue_struct **const probe = &system_dfl_wq;
