// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The tempo authors
 *
 * KUnit suite of a job's life (tempo_job.c) around its hardware fence.
 */

#include <linux/dma-fence.h>

#include <kunit/test.h>

#include "tempo_kunit.h"
#include "tempo_sched.h"

struct job_fixture {
	struct tempo_usage *usage;
	struct tempo_vm *vm;
	struct tempo_slot slot;
	u64 batch;
};

static int job_init(struct kunit *test)
{
	struct job_fixture *fx = kunit_kzalloc(test, sizeof(*fx), GFP_KERNEL);

	if (!fx)
		return -ENOMEM;
	test->priv = fx;
	fx->slot.kind = TEMPO_SLOT_ENGINE;
	fx->slot.width = 1;
	fx->batch = 0x10000;
	fx->usage = tempo_usage_create();
	fx->vm = tempo_vm_create();
	return fx->usage && fx->vm ? 0 : -ENOMEM;
}

static void job_exit(struct kunit *test)
{
	struct job_fixture *fx = test->priv;

	tempo_vm_put(fx->vm);
	tempo_usage_put(fx->usage);
}

/* What run_job does to a job it hands to the hardware. */
static struct dma_fence *job_submit(struct tempo_job *job)
{
	tempo_hw_fence_init(job->hw.fence, dma_fence_context_alloc(1), 1);
	job->submitted = true;
	return &job->hw.fence->base;
}

/*
 * A job whose hardware fence signalled was submitted all the same: its
 * last put drops the job's reference and leaves the fence to its other
 * holders (drm_sched's finished fence keeps it as its parent). Kernels
 * whose fences drop their ops once signalled make "ops set" a wrong test
 * for this, which freed a fence the scheduler still held.
 */
static void job_put_leaves_a_signalled_fence_to_its_holders(struct kunit *test)
{
	struct job_fixture *fx = test->priv;
	struct tempo_job *job;
	struct dma_fence *fence;

	job = tempo_job_alloc(fx->usage, fx->vm, &fx->slot, &fx->batch);
	KUNIT_ASSERT_FALSE(test, IS_ERR(job));
	fence = dma_fence_get(job_submit(job));
	dma_fence_signal(fence);

	tempo_job_put(job);

	KUNIT_EXPECT_EQ(test, kref_read(&fence->refcount), 1);
	KUNIT_EXPECT_TRUE(test, dma_fence_is_signaled(fence));
	dma_fence_put(fence);
}

/* A job freed before the hardware saw it frees its unused fence itself. */
static void job_put_of_an_unsubmitted_job_counts_it_out(struct kunit *test)
{
	struct job_fixture *fx = test->priv;
	struct tempo_job *job;

	job = tempo_job_alloc(fx->usage, fx->vm, &fx->slot, &fx->batch);
	KUNIT_ASSERT_FALSE(test, IS_ERR(job));
	KUNIT_EXPECT_EQ(test, atomic_read(&fx->usage->jobs), 1);

	tempo_job_put(job);

	KUNIT_EXPECT_EQ(test, atomic_read(&fx->usage->jobs), 0);
}

/*
 * The exec and the scheduler each hold a reference once the job is
 * pushed, and either may drop it last: the job stays counted, and its
 * fence referenced, until both did.
 */
static void job_lives_until_its_last_reference(struct kunit *test)
{
	struct job_fixture *fx = test->priv;
	struct tempo_job *job;
	struct dma_fence *fence;

	job = tempo_job_alloc(fx->usage, fx->vm, &fx->slot, &fx->batch);
	KUNIT_ASSERT_FALSE(test, IS_ERR(job));
	fence = dma_fence_get(job_submit(job));
	kref_get(&job->refcount);	/* as tempo_job_push() does */

	tempo_job_put(job);
	KUNIT_EXPECT_EQ(test, atomic_read(&fx->usage->jobs), 1);
	KUNIT_EXPECT_EQ(test, kref_read(&fence->refcount), 2);

	tempo_job_put(job);
	KUNIT_EXPECT_EQ(test, atomic_read(&fx->usage->jobs), 0);
	KUNIT_EXPECT_EQ(test, kref_read(&fence->refcount), 1);
	dma_fence_signal(fence);
	dma_fence_put(fence);
}

TEMPO_KUNIT_SUITE(job, job_init, job_exit,
		  KUNIT_CASE(job_put_leaves_a_signalled_fence_to_its_holders),
		  KUNIT_CASE(job_put_of_an_unsubmitted_job_counts_it_out),
		  KUNIT_CASE(job_lives_until_its_last_reference));
