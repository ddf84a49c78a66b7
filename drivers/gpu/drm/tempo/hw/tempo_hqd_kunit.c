// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The tempo authors
 *
 * KUnit suite of HQD arbitration (tempo_hqd.c), on an engine that is
 * not started.
 */

#include <linux/dma-fence.h>
#include <linux/wait.h>

#include <kunit/test.h>

#include "../tempo_kunit.h"
#include "tempo_hw_priv.h"

/* An engine of four queues, not started, for arbitration. */
static struct tempo_engine *fake_engine(struct kunit *test)
{
	struct tempo_hw *hw = kunit_kzalloc(test, sizeof(*hw), GFP_KERNEL);
	struct tempo_engine *e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);
	u32 q;

	KUNIT_ASSERT_NOT_NULL(test, hw);
	KUNIT_ASSERT_NOT_NULL(test, e);
	hw->config.starve_ns = 100 * NSEC_PER_MSEC;
	e->hw = hw;
	spin_lock_init(&e->lock);
	seqcount_spinlock_init(&e->run_seq, &e->lock);
	init_waitqueue_head(&e->wq);
	e->num_hqds = 4;
	for (q = 0; q < 4; q++) {
		e->hqds[q].engine = e;
		e->hqds[q].index = q;
		e->hqds[q].mqd.active = true;
		e->hqds[q].mqd.pipe_priority = TEMPO_HW_PIPE_PRIO_NORMAL;
		e->hqds[q].mqd.queue_priority = TEMPO_HW_QUEUE_PRIO_NORMAL;
	}
	return e;
}

static void give_work(struct tempo_hw_hqd *hqd)
{
	hqd->mqd.wptr = hqd->mqd.rptr + 1;
}

static void hqd_arbitration(struct kunit *test)
{
	struct tempo_engine *e = fake_engine(test);
	u64 slice;

	KUNIT_EXPECT_NULL(test, tempo_hqd_select(e, &slice));
	give_work(&e->hqds[1]);
	give_work(&e->hqds[2]);
	/* equal priorities: the lowest index */
	KUNIT_EXPECT_PTR_EQ(test, &e->hqds[1], tempo_hqd_select(e, &slice));
	/* queue priority decides within a pipe priority */
	e->hqds[2].mqd.queue_priority = 8;
	KUNIT_EXPECT_PTR_EQ(test, &e->hqds[2], tempo_hqd_select(e, &slice));
	/* pipe priority first */
	give_work(&e->hqds[3]);
	e->hqds[3].mqd.pipe_priority = 2;
	e->hqds[3].mqd.queue_priority = 0;
	KUNIT_EXPECT_PTR_EQ(test, &e->hqds[3], tempo_hqd_select(e, &slice));
	/* inactive queues never run */
	e->hqds[3].mqd.active = false;
	KUNIT_EXPECT_PTR_EQ(test, &e->hqds[2], tempo_hqd_select(e, &slice));
}

static void hqd_preemption_and_aging(struct kunit *test)
{
	struct tempo_engine *e = fake_engine(test);
	u64 slice;

	give_work(&e->hqds[0]);
	KUNIT_EXPECT_PTR_EQ(test, &e->hqds[0], tempo_hqd_select(e, &slice));
	KUNIT_EXPECT_FALSE(test, tempo_hqd_should_yield(e, &e->hqds[0], 0));
	/* a higher queue with work preempts */
	give_work(&e->hqds[2]);
	e->hqds[2].mqd.pipe_priority = 2;
	KUNIT_EXPECT_TRUE(test, tempo_hqd_should_yield(e, &e->hqds[0], 0));
	/* a lower one does not, until it has waited past the bound */
	KUNIT_EXPECT_PTR_EQ(test, &e->hqds[2], tempo_hqd_select(e, &slice));
	KUNIT_EXPECT_FALSE(test, tempo_hqd_should_yield(e, &e->hqds[2], 0));
	e->hqds[0].waiting_since = ktime_get_ns() - 200 * NSEC_PER_MSEC;
	KUNIT_EXPECT_TRUE(test, tempo_hqd_should_yield(e, &e->hqds[2], 0));
	KUNIT_EXPECT_PTR_EQ(test, &e->hqds[0], tempo_hqd_select(e, &slice));
	/* and then keeps a timeslice (not over yet: a slow kernel may take
	 * longer than one to get here)
	 */
	KUNIT_EXPECT_NE(test, 0ull, slice);
	KUNIT_EXPECT_FALSE(test, tempo_hqd_should_yield(e, &e->hqds[0],
							ktime_get_ns() + NSEC_PER_SEC));
}

static void hqd_equal_priorities_take_turns(struct kunit *test)
{
	struct tempo_engine *e = fake_engine(test);
	u64 slice;

	give_work(&e->hqds[0]);
	give_work(&e->hqds[1]);
	KUNIT_EXPECT_PTR_EQ(test, &e->hqds[0], tempo_hqd_select(e, &slice));
	/* an equal queue waits for the running one's quantum */
	KUNIT_EXPECT_FALSE(test, tempo_hqd_should_yield(e, &e->hqds[0], 0));
	e->run_start = ktime_get_ns() - TEMPO_HW_QUANTUM_NS;
	KUNIT_EXPECT_TRUE(test, tempo_hqd_should_yield(e, &e->hqds[0], 0));
	/* then the one that waited longest goes, and they alternate */
	KUNIT_EXPECT_PTR_EQ(test, &e->hqds[1], tempo_hqd_select(e, &slice));
	KUNIT_EXPECT_PTR_EQ(test, &e->hqds[0], tempo_hqd_select(e, &slice));
	KUNIT_EXPECT_PTR_EQ(test, &e->hqds[1], tempo_hqd_select(e, &slice));
	/* a quantum is no turn for a lower queue */
	e->hqds[0].mqd.wptr = e->hqds[0].mqd.rptr;
	give_work(&e->hqds[2]);
	e->hqds[2].mqd.queue_priority = 6;
	e->run_start = ktime_get_ns() - 10 * TEMPO_HW_QUANTUM_NS;
	KUNIT_EXPECT_FALSE(test, tempo_hqd_should_yield(e, &e->hqds[1], 0));
}

/*
 * The run in progress counts for the counter its job names, from the
 * fetch of the job until the run ends, and for no other counter.
 */
static void hqd_running_time_is_the_fetched_jobs(struct kunit *test)
{
	struct tempo_engine *e = fake_engine(test);
	struct tempo_hw_job *job = kunit_kzalloc(test, sizeof(*job),
						 GFP_KERNEL);
	struct tempo_hw_job *ring[1] = { job };
	atomic64_t busy = ATOMIC64_INIT(0), other = ATOMIC64_INIT(0);
	u64 slice;

	KUNIT_ASSERT_NOT_NULL(test, job);
	job->busy_ns = &busy;
	e->hw->num_engines = 1;
	e->hw->engines = e;
	e->hqds[0].mqd.ring = ring;
	e->hqds[0].mqd.ring_size = 1;
	give_work(&e->hqds[0]);
	KUNIT_EXPECT_PTR_EQ(test, &e->hqds[0], tempo_hqd_select(e, &slice));
	KUNIT_EXPECT_EQ(test, 0, tempo_hw_running_ns(e->hw, &busy));
	tempo_hqd_fetch(&e->hqds[0]);
	KUNIT_EXPECT_PTR_EQ(test, job, e->hqds[0].save.job);
	e->run_start = ktime_get_ns() - NSEC_PER_MSEC;
	KUNIT_EXPECT_LE(test, NSEC_PER_MSEC, tempo_hw_running_ns(e->hw, &busy));
	KUNIT_EXPECT_EQ(test, 0, tempo_hw_running_ns(e->hw, &other));
	tempo_hqd_ran(&e->hqds[0]);
	KUNIT_EXPECT_EQ(test, 0, tempo_hw_running_ns(e->hw, &busy));
	KUNIT_EXPECT_LE(test, NSEC_PER_MSEC, (u64)atomic64_read(&busy));
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
static void hqd_retire_reports_the_end_before_the_fence_signals(struct kunit *test)
{
	struct tempo_engine *e = fake_engine(test);
	struct tempo_hw_job *job = kunit_kzalloc(test, sizeof(*job),
						 GFP_KERNEL);
	struct tempo_hw_fence *fence = tempo_hw_fence_alloc();
	struct end_seen seen = { .fence = fence };

	KUNIT_ASSERT_NOT_NULL(test, job);
	KUNIT_ASSERT_NOT_NULL(test, fence);
	tempo_hw_fence_init(fence, dma_fence_context_alloc(1), 1);
	fence->ended = record_end;
	fence->data = &seen;
	job->fence = fence;
	dma_fence_get(&fence->base);	/* the ring's, which retiring drops */
	tempo_hqd_retire(&e->hqds[0], job, -ELOOP);
	KUNIT_EXPECT_EQ(test, 1, seen.calls);
	KUNIT_EXPECT_EQ(test, -ELOOP, seen.error);
	KUNIT_EXPECT_FALSE(test, seen.signalled);
	KUNIT_EXPECT_EQ(test, -ELOOP, dma_fence_get_status(&fence->base));
	dma_fence_put(&fence->base);
}

TEMPO_KUNIT_SUITE(hqd, NULL, NULL,
		  KUNIT_CASE(hqd_arbitration),
		  KUNIT_CASE(hqd_preemption_and_aging),
		  KUNIT_CASE(hqd_equal_priorities_take_turns),
		  KUNIT_CASE(hqd_running_time_is_the_fetched_jobs),
		  KUNIT_CASE(hqd_retire_reports_the_end_before_the_fence_signals));
