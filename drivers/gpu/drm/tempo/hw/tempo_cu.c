// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The tempo authors
 */

/**
 * DOC: Compute units
 *
 * The compute units (CUs) are a pool of kernel threads shared by every
 * engine. A DISPATCH queues a &struct tempo_dispatch; each idle CU takes
 * the next workgroup of the oldest queued dispatch, runs the built-in
 * kernel for that workgroup, and when the last workgroup of a dispatch ends
 * the command processor that issued it resumes. Workgroups of one dispatch
 * run concurrently on several CUs, so kernels that share memory use
 * atomics.
 *
 * The SPIN kernel models a busy CU without burning the host CPU: it sleeps
 * in slices of at most %TEMPO_CU_QUANTUM_NS and checks between slices
 * whether its dispatch was cancelled. CU threads run at a lower CPU
 * priority than the command processors.
 */

#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include <drm/tempo_drm.h>

#include "tempo_hw_priv.h"

/* Longest a workgroup runs between two checks for cancellation. */
#define TEMPO_CU_QUANTUM_NS	(1000 * NSEC_PER_USEC)
/* Compute units run below the command processors. */
#define TEMPO_CU_NICE		5
/* Increments of ATOMIC_INC between two chances to reschedule. */
#define TEMPO_CU_ATOMIC_BATCH	64

static u64 arg64(const struct tempo_dispatch *d, u32 i)
{
	return (u64)d->args[i] | ((u64)d->args[i + 1] << 32);
}

static int kernel_fill(struct tempo_dispatch *d, u32 g)
{
	u32 bytes = d->args[3];

	return tempo_mem_fill(d->mmu, arg64(d, 0) + (u64)g * bytes,
			      d->args[2], bytes);
}

static int kernel_copy(struct tempo_dispatch *d, u32 g)
{
	u64 off = (u64)g * d->args[4];

	return tempo_mem_copy(d->mmu, arg64(d, 0) + off, arg64(d, 2) + off,
			      d->args[4]);
}

static int kernel_atomic_inc(struct tempo_dispatch *d, u32 g)
{
	u32 i;

	for (i = 0; i < d->args[2]; i++) {
		int ret = tempo_mem_atomic_add(d->mmu, arg64(d, 0), 1);

		if (ret)
			return ret;
		if (i % TEMPO_CU_ATOMIC_BATCH == TEMPO_CU_ATOMIC_BATCH - 1)
			cond_resched();
	}
	return 0;
}

static int kernel_checksum(struct tempo_dispatch *d, u32 g)
{
	u32 bytes = d->args[4];
	u64 sum;
	int ret;

	ret = tempo_mem_sum32(d->mmu, arg64(d, 0) + (u64)g * bytes, bytes,
			      &sum);
	if (ret)
		return ret;
	return tempo_mem_atomic_add(d->mmu, arg64(d, 2), sum);
}

static int kernel_spin(struct tempo_dispatch *d, u32 g)
{
	u64 end = ktime_get_ns() + d->args[0];

	for (;;) {
		u64 now = ktime_get_ns();
		u64 slice;

		if (now >= end)
			return 0;
		if (READ_ONCE(d->abort))
			return -ECANCELED;
		slice = min_t(u64, end - now, TEMPO_CU_QUANTUM_NS);
		if (slice < 10 * NSEC_PER_USEC)
			ndelay(slice);
		else
			usleep_range(slice / NSEC_PER_USEC,
				     slice / NSEC_PER_USEC + 5);
	}
}

static int run_group(struct tempo_dispatch *d, u32 g)
{
	switch (d->kernel) {
	case DRM_TEMPO_KERNEL_FILL:
		return kernel_fill(d, g);
	case DRM_TEMPO_KERNEL_COPY:
		return kernel_copy(d, g);
	case DRM_TEMPO_KERNEL_ATOMIC_INC:
		return kernel_atomic_inc(d, g);
	case DRM_TEMPO_KERNEL_CHECKSUM:
		return kernel_checksum(d, g);
	case DRM_TEMPO_KERNEL_SPIN:
		return kernel_spin(d, g);
	}
	return -EILSEQ;
}

static void groups_done(struct tempo_dispatch *d, u32 n)
{
	if (n && atomic_sub_and_test(n, &d->pending))
		complete(&d->done);
}

/* Take the next workgroup to run; false when none is queued. */
static bool cu_take(struct tempo_cu_pool *pool, struct tempo_dispatch **d,
		    u32 *g)
{
	spin_lock(&pool->lock);
	*d = list_first_entry_or_null(&pool->queue, struct tempo_dispatch,
				      link);
	if (*d) {
		*g = (*d)->next_group++;
		if ((*d)->next_group == (*d)->num_groups)
			list_del_init(&(*d)->link);
		pool->busy++;
	}
	spin_unlock(&pool->lock);
	return *d;
}

static void cu_put(struct tempo_cu_pool *pool, struct tempo_dispatch *d,
		   int error)
{
	if (error)
		atomic_cmpxchg(&d->error, 0, error);
	spin_lock(&pool->lock);
	pool->busy--;
	spin_unlock(&pool->lock);
	atomic64_inc(&pool->groups_done);
	groups_done(d, 1);
}

static bool cu_should_wake(struct tempo_cu_pool *pool)
{
	return !list_empty_careful(&pool->queue) || kthread_should_stop();
}

static int cu_thread(void *data)
{
	struct tempo_cu_pool *pool = data;
	struct tempo_dispatch *d;
	u32 g;

	while (!kthread_should_stop()) {
		if (!cu_take(pool, &d, &g)) {
			wait_event_interruptible_exclusive(pool->wq,
							   cu_should_wake(pool));
			continue;
		}
		cu_put(pool, d, run_group(d, g));
	}
	return 0;
}

/**
 * tempo_cu_dispatch() - queue a dispatch's workgroups on the pool
 * @pool: the pool
 * @d: the dispatch, with @d->num_groups workgroups; its other bookkeeping
 *	is initialised here
 *
 * @d->done completes when every workgroup has ended.
 *
 * Context: process.
 */
void tempo_cu_dispatch(struct tempo_cu_pool *pool, struct tempo_dispatch *d)
{
	init_completion(&d->done);
	atomic_set(&d->pending, d->num_groups);
	atomic_set(&d->error, 0);
	d->next_group = 0;
	d->abort = false;

	spin_lock(&pool->lock);
	list_add_tail(&d->link, &pool->queue);
	spin_unlock(&pool->lock);
	wake_up_nr(&pool->wq, min(d->num_groups, pool->num_cus));
}

/**
 * tempo_cu_cancel() - start no more workgroups of a dispatch
 * @pool: the pool
 * @d: the dispatch
 *
 * Running workgroups stop within one quantum; @d->done still completes.
 *
 * Context: process.
 */
void tempo_cu_cancel(struct tempo_cu_pool *pool, struct tempo_dispatch *d)
{
	u32 unstarted = 0;

	WRITE_ONCE(d->abort, true);
	spin_lock(&pool->lock);
	if (!list_empty(&d->link)) {
		unstarted = d->num_groups - d->next_group;
		d->next_group = d->num_groups;
		list_del_init(&d->link);
	}
	spin_unlock(&pool->lock);
	groups_done(d, unstarted);
}

/**
 * tempo_cu_pool_init() - start the compute units
 * @pool: the pool
 * @num_cus: how many
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int tempo_cu_pool_init(struct tempo_cu_pool *pool, u32 num_cus)
{
	u32 i;

	spin_lock_init(&pool->lock);
	INIT_LIST_HEAD(&pool->queue);
	init_waitqueue_head(&pool->wq);
	pool->threads = kcalloc(num_cus, sizeof(*pool->threads), GFP_KERNEL);
	if (!pool->threads)
		return -ENOMEM;
	for (i = 0; i < num_cus; i++) {
		struct task_struct *t;

		t = kthread_run(cu_thread, pool, "tempo-cu%u", i);
		if (IS_ERR(t)) {
			tempo_cu_pool_fini(pool);
			return PTR_ERR(t);
		}
		set_user_nice(t, TEMPO_CU_NICE);
		pool->threads[i] = t;
		pool->num_cus = i + 1;
	}
	return 0;
}

/**
 * tempo_cu_pool_fini() - stop the compute units
 * @pool: the pool, with no dispatch queued
 *
 * Context: process.
 */
void tempo_cu_pool_fini(struct tempo_cu_pool *pool)
{
	u32 i;

	for (i = 0; i < pool->num_cus; i++)
		kthread_stop(pool->threads[i]);
	kfree(pool->threads);
	pool->threads = NULL;
	pool->num_cus = 0;
}
