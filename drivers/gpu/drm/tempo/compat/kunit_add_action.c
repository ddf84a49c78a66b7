// SPDX-License-Identifier: GPL-2.0-only
/* Probe: KUnit has deferred actions (kunit_add_action_or_reset()). */
#include <kunit/resource.h>

int (*probe)(struct kunit *test, kunit_action_t *action, void *ctx) =
	kunit_add_action_or_reset;
