// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The tempo authors
 *
 * KUnit suite of parallel slots' placement (tempo_map.c).
 */

#include <kunit/test.h>

#include "tempo_kunit.h"
#include "tempo_drv.h"

static void placement(struct kunit *test)
{
	struct tempo_device *tdev = kunit_kzalloc(test, sizeof(*tdev),
						  GFP_KERNEL);
	struct tempo_engine_desc e[4];
	struct tempo_engine_desc *cols[8];

	KUNIT_ASSERT_NOT_NULL(test, tdev);
	tdev->engines = e;
	tdev->num_engines = 4;
	/* the RFC's second example: two batches over three engines */
	cols[0] = &e[0]; cols[1] = &e[1]; cols[2] = &e[2];
	cols[3] = &e[0]; cols[4] = &e[1]; cols[5] = &e[2];
	KUNIT_EXPECT_TRUE(test, tempo_map_placeable(tdev, cols, 2, 3));
	/* two batches, one same engine each: impossible */
	cols[0] = &e[0]; cols[1] = &e[0];
	KUNIT_EXPECT_FALSE(test, tempo_map_placeable(tdev, cols, 2, 1));
	/* three batches over two engines: impossible */
	cols[0] = &e[0]; cols[1] = &e[1];
	cols[2] = &e[0]; cols[3] = &e[1];
	cols[4] = &e[0]; cols[5] = &e[1];
	KUNIT_EXPECT_FALSE(test, tempo_map_placeable(tdev, cols, 3, 2));
	/* a matching that needs backtracking */
	cols[0] = &e[0]; cols[1] = &e[1];
	cols[2] = &e[0]; cols[3] = &e[0];
	KUNIT_EXPECT_TRUE(test, tempo_map_placeable(tdev, cols, 2, 2));
}

TEMPO_KUNIT_SUITE(map, NULL, NULL,
		  KUNIT_CASE(placement));
