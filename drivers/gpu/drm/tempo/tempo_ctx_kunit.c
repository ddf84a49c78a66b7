// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The tempo authors
 *
 * KUnit suite of the priority mapping (tempo_priority_map()).
 */

#include <kunit/test.h>

#include <drm/tempo_drm.h>

#include "tempo_kunit.h"
#include "tempo_drv.h"

static struct tempo_device *fake_device(struct kunit *test, u32 policy)
{
	struct tempo_device *tdev = kunit_kzalloc(test, sizeof(*tdev),
						  GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, tdev);
	tdev->hqd_policy = policy;
	return tdev;
}

static void priority_static(struct kunit *test)
{
	static const s32 levels[] = {
		DRM_TEMPO_PRIORITY_VERY_LOW, DRM_TEMPO_PRIORITY_LOW,
		DRM_TEMPO_PRIORITY_NORMAL, DRM_TEMPO_PRIORITY_HIGH,
		DRM_TEMPO_PRIORITY_VERY_HIGH,
	};
	struct tempo_device *tdev = fake_device(test, TEMPO_HQD_STATIC);
	struct tempo_prio p;
	u32 i, rank, last = 0;

	p = tempo_priority_map(tdev, DRM_TEMPO_PRIORITY_VERY_LOW);
	KUNIT_EXPECT_EQ(test, DRM_SCHED_PRIORITY_LOW, p.sched);
	KUNIT_EXPECT_FALSE(test, p.high);
	KUNIT_EXPECT_EQ(test, TEMPO_PIPE_PRIO_NORMAL, p.pipe);
	KUNIT_EXPECT_EQ(test, 0, p.queue);
	p = tempo_priority_map(tdev, DRM_TEMPO_PRIORITY_NORMAL);
	KUNIT_EXPECT_EQ(test, DRM_SCHED_PRIORITY_NORMAL, p.sched);
	KUNIT_EXPECT_EQ(test, TEMPO_PIPE_PRIO_NORMAL, p.pipe);
	KUNIT_EXPECT_EQ(test, TEMPO_QUEUE_PRIO_NORMAL, p.queue);
	p = tempo_priority_map(tdev, 1);
	KUNIT_EXPECT_EQ(test, DRM_SCHED_PRIORITY_HIGH, p.sched);
	KUNIT_EXPECT_TRUE(test, p.high);
	KUNIT_EXPECT_EQ(test, TEMPO_PIPE_PRIO_HIGH, p.pipe);
	p = tempo_priority_map(tdev, DRM_TEMPO_PRIORITY_VERY_HIGH);
	KUNIT_EXPECT_EQ(test, TEMPO_QUEUE_PRIO_MAX, p.queue);
	/* every named level runs above the one below it */
	for (i = 0; i < ARRAY_SIZE(levels); i++) {
		p = tempo_priority_map(tdev, levels[i]);
		rank = p.pipe * (TEMPO_QUEUE_PRIO_MAX + 1) + p.queue;
		if (i)
			KUNIT_EXPECT_GT(test, rank, last);
		last = rank;
	}
}

static void priority_dynamic(struct kunit *test)
{
	struct tempo_device *tdev = fake_device(test, TEMPO_HQD_DYNAMIC);
	s32 prio;
	u8 last = 0;

	KUNIT_EXPECT_EQ(test, 0, tempo_priority_map(tdev, -1023).queue);
	KUNIT_EXPECT_EQ(test, 15, tempo_priority_map(tdev, 1023).queue);
	/* monotonic, and the pipe priority follows the queue priority */
	for (prio = -1023; prio <= 1023; prio++) {
		struct tempo_prio p = tempo_priority_map(tdev, prio);

		KUNIT_EXPECT_GE(test, p.queue, last);
		KUNIT_EXPECT_EQ(test, p.pipe,
				p.queue <= 6 ? 0 : p.queue <= 10 ? 1 : 2);
		last = p.queue;
	}
}

TEMPO_KUNIT_SUITE(priority, NULL, NULL,
		  KUNIT_CASE(priority_static),
		  KUNIT_CASE(priority_dynamic));
