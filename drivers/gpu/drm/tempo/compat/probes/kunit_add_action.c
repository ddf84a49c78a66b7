// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe kunit_add_action: KUnit has deferred actions
 * (kunit_add_action_or_reset()).
 *
 * Upstream: "kunit: Add kunit_add_action() to defer a call until test exit",
 *   6.5.
 * Debian: 6.12 and 7.3 have it; 6.1 does not.
 */
#include <kunit/resource.h>

int (*probe)(struct kunit *test, kunit_action_t *action, void *ctx) =
	kunit_add_action_or_reset;
