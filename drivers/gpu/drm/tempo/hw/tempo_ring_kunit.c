// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The tempo authors
 *
 * KUnit suite of a job's completion (tempo_ring.c) and of the hardware
 * fences (tempo_fence.c), on an engine that is not started.
 */

#include <linux/dma-fence.h>
#include <linux/slab.h>

#include <kunit/test.h>

#include "../tempo_kunit.h"
#include "tempo_hw_priv.h"

/* The one queue of an engine that is not started. */
static struct tempo_hw_hqd *fake_hqd(struct kunit *test)
{
	struct tempo_engine *e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, e);
	spin_lock_init(&e->lock);
	e->num_hqds = 1;
	e->hqds[0].engine = e;
	return &e->hqds[0];
}

struct end_seen {
	struct tempo_hw_fence *fence;
	int calls;
	int error;
	bool signalled;
};

static void record_end(void *data, int error)
{
	struct end_seen *seen = data;

	seen->calls++;
	seen->error = error;
	seen->signalled = dma_fence_is_signaled(&seen->fence->base);
}

/*
 * The hardware reports a job's end to its fence's @ended, with the error,
 * before the fence signals: whoever learns of the end from the fence
 * (drm_sched, which then frees the job) comes after the driver's
 * completion handler.
 */
static void ring_retire_reports_the_end_before_the_fence_signals(struct kunit *test)
{
	struct tempo_hw_hqd *hqd = fake_hqd(test);
	struct tempo_hw_job *job = kunit_kzalloc(test, sizeof(*job),
						 GFP_KERNEL);
	struct tempo_hw_fence *fence = kzalloc(sizeof(*fence), GFP_KERNEL);
	struct end_seen seen = { .fence = fence };

	KUNIT_ASSERT_NOT_NULL(test, job);
	KUNIT_ASSERT_NOT_NULL(test, fence);
	tempo_hw_fence_init(fence, dma_fence_context_alloc(1), 1);
	fence->ended = record_end;
	fence->data = &seen;
	job->fence = fence;
	dma_fence_get(&fence->base);	/* the ring's, which retiring drops */
	tempo_ring_retire(hqd, job, -ELOOP);
	KUNIT_EXPECT_EQ(test, 1, seen.calls);
	KUNIT_EXPECT_EQ(test, -ELOOP, seen.error);
	KUNIT_EXPECT_FALSE(test, seen.signalled);
	KUNIT_EXPECT_EQ(test, -ELOOP, dma_fence_get_status(&fence->base));
	dma_fence_put(&fence->base);
}

/* Whether @fence has ops: a signalled one may have lost them. */
static bool fence_has_ops(struct dma_fence *fence)
{
	return (__force const struct dma_fence_ops *)fence->ops;
}

/*
 * A signalled hardware fence loses its ops, and may outlive the module,
 * exactly where the build's probe says dma_fence_signal() detaches them
 * (compat/probes/dma_fence_signal_detaches_ops.c). Elsewhere
 * (TEMPO_HW_FENCE_PINS_MODULE) it keeps them, with a release that
 * frees it and lets the module's teardown go on.
 */
static void ring_fence_keeps_its_ops_unless_signalling_detaches_them(struct kunit *test)
{
	struct tempo_hw_fence *fence = kzalloc(sizeof(*fence), GFP_KERNEL);
	bool cookie;

	KUNIT_ASSERT_NOT_NULL(test, fence);
	tempo_hw_fence_init(fence, dma_fence_context_alloc(1), 1);
	KUNIT_EXPECT_TRUE(test, fence_has_ops(&fence->base));
	cookie = dma_fence_begin_signalling();
	dma_fence_signal(&fence->base);
	dma_fence_end_signalling(cookie);
	KUNIT_EXPECT_EQ(test, TEMPO_HW_FENCE_PINS_MODULE,
			fence_has_ops(&fence->base));
	dma_fence_put(&fence->base);
}

TEMPO_KUNIT_SUITE(ring, NULL, NULL,
		  KUNIT_CASE(ring_retire_reports_the_end_before_the_fence_signals),
		  KUNIT_CASE(ring_fence_keeps_its_ops_unless_signalling_detaches_them));
