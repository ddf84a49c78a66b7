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
 * Which dispatch an idle CU serves is the shader sequencer's choice: by
 * default the one whose queue has the highest (pipe priority, queue
 * priority), the oldest first among equals, so a queue's priority reaches
 * the CUs; with the module parameter cu_by_priority=0 it picks at random,
 * as a sequencer that ignores queue priorities would. While a queue of the
 * high pipe priority has work, the queues below it may hold at most
 * (CUs - reserved) CUs: the rest are kept for the high-priority work.
 *
 * A dispatch can be suspended (preemption) and resumed: it starts no
 * workgroup while suspended, and a running SPIN workgroup stops at its next
 * quantum and saves how long it still has to run; the others finish, as a
 * workgroup is the unit of compute preemption here. A resumed dispatch runs
 * its saved workgroups first, then the ones never started, so it produces
 * exactly the results of an uninterrupted run.
 *
 * The SPIN kernel models a busy CU without burning the host CPU: it sleeps
 * in slices of at most %TEMPO_CU_QUANTUM_NS, checking between slices
 * whether its dispatch was suspended or cancelled. CU threads run at a
 * lower CPU priority than the command processors.
 */

#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include <drm/tempo_drm.h>

#include "tempo_hw_priv.h"

/* Longest a workgroup runs between two checks for preemption. */
#define TEMPO_CU_QUANTUM_NS	(250 * NSEC_PER_USEC)
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

/* Returns -EAGAIN with *remaining updated when suspended. */
static int kernel_spin(struct tempo_dispatch *d, u32 *remaining)
{
	u64 end = ktime_get_ns() + *remaining;

	for (;;) {
		u64 now = ktime_get_ns();
		u64 slice;

		if (now >= end)
			return 0;
		if (READ_ONCE(d->abort))
			return -ECANCELED;
		if (READ_ONCE(d->suspended)) {
			*remaining = end - now;
			return -EAGAIN;
		}
		slice = min_t(u64, end - now, TEMPO_CU_QUANTUM_NS);
		if (slice < 10 * NSEC_PER_USEC)
			ndelay(slice);
		else
			usleep_range(slice / NSEC_PER_USEC,
				     slice / NSEC_PER_USEC + 5);
	}
}

static int run_group(struct tempo_dispatch *d, u32 g, u32 *remaining)
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
		return kernel_spin(d, remaining);
	}
	return -EILSEQ;
}

static bool has_groups(const struct tempo_dispatch *d)
{
	return d->num_partial || d->next_group < d->num_groups;
}

static bool is_low(const struct tempo_dispatch *d)
{
	return !tempo_hqd_is_high(d->hqd);
}

static bool allowed(const struct tempo_cu_pool *pool,
		    const struct tempo_dispatch *d)
{
	if (!pool->high_queues || !is_low(d))
		return true;
	return pool->busy_low + pool->reserved < pool->num_cus;
}

/* The sequencer: which dispatch the next idle CU serves. */
static struct tempo_dispatch *cu_pick(struct tempo_cu_pool *pool)
{
	struct tempo_dispatch *d, *best = NULL;
	u32 n = 0, pick;

	lockdep_assert_held(&pool->lock);
	list_for_each_entry(d, &pool->queue, link) {
		if (!allowed(pool, d))
			continue;
		n++;
		if (!best || tempo_hqd_rank(d->hqd) > tempo_hqd_rank(best->hqd))
			best = d;
	}
	if (pool->by_priority || n < 2)
		return best;
	pick = get_random_u32_below(n);
	list_for_each_entry(d, &pool->queue, link)
		if (allowed(pool, d) && !pick--)
			return d;
	return best;
}

static void group_take(struct tempo_dispatch *d, u32 *g, u32 *remaining)
{
	if (d->num_partial) {
		d->num_partial--;
		*g = d->partial[d->num_partial].group;
		*remaining = d->partial[d->num_partial].remaining_ns;
	} else {
		*g = d->next_group++;
		*remaining = d->args[0];
	}
}

/* Take the next workgroup to run; false when none may run now. */
static bool cu_take(struct tempo_cu_pool *pool, struct tempo_dispatch **d,
		    u32 *g, u32 *remaining, bool *low)
{
	spin_lock(&pool->lock);
	*d = cu_pick(pool);
	if (*d) {
		group_take(*d, g, remaining);
		if (!has_groups(*d))
			list_del_init(&(*d)->link);
		(*d)->running++;
		pool->busy++;
		*low = is_low(*d);
		if (*low)
			pool->busy_low++;
	}
	spin_unlock(&pool->lock);
	return *d;
}

static void group_park(struct tempo_cu_pool *pool, struct tempo_dispatch *d,
		       u32 g, u32 remaining)
{
	d->partial[d->num_partial].group = g;
	d->partial[d->num_partial].remaining_ns = remaining;
	d->num_partial++;
	/* Resumed while this group was stopping: queue it again. */
	if (!d->suspended && list_empty(&d->link))
		list_add_tail(&d->link, &pool->queue);
}

static void cu_put(struct tempo_cu_pool *pool, struct tempo_dispatch *d,
		   u32 g, u32 remaining, bool low, int ret)
{
	struct tempo_engine *engine = d->hqd->engine;
	bool wake;

	spin_lock(&pool->lock);
	d->running--;
	pool->busy--;
	if (low)
		pool->busy_low--;
	if (ret == -EAGAIN && !d->abort) {
		group_park(pool, d, g, remaining);
	} else {
		d->pending--;
		if (ret && ret != -EAGAIN && ret != -ECANCELED && !d->error)
			d->error = ret;
	}
	wake = !d->pending || (d->suspended && !d->running);
	spin_unlock(&pool->lock);
	atomic64_inc(&pool->groups_done);
	if (wake)
		wake_up(&engine->wq);
	if (!list_empty_careful(&pool->queue))
		wake_up(&pool->wq);
}

static bool cu_should_wake(struct tempo_cu_pool *pool)
{
	bool work;

	if (kthread_should_stop())
		return true;
	spin_lock(&pool->lock);
	work = cu_pick(pool);
	spin_unlock(&pool->lock);
	return work;
}

static int cu_thread(void *data)
{
	struct tempo_cu_pool *pool = data;
	struct tempo_dispatch *d;
	u32 g, remaining;
	bool low;
	int ret;

	while (!kthread_should_stop()) {
		if (!cu_take(pool, &d, &g, &remaining, &low)) {
			wait_event_interruptible_exclusive(pool->wq,
							   cu_should_wake(pool));
			continue;
		}
		ret = run_group(d, g, &remaining);
		cu_put(pool, d, g, remaining, low, ret);
	}
	return 0;
}

static void wake_cus(struct tempo_cu_pool *pool, u32 groups)
{
	wake_up_nr(&pool->wq, min(groups, pool->num_cus));
}

/**
 * tempo_cu_dispatch() - queue a dispatch's workgroups on the pool
 * @pool: the pool
 * @d: the dispatch, with @d->num_groups workgroups; its bookkeeping is
 *	initialised here
 *
 * Context: process.
 */
void tempo_cu_dispatch(struct tempo_cu_pool *pool, struct tempo_dispatch *d)
{
	spin_lock(&pool->lock);
	d->next_group = 0;
	d->num_partial = 0;
	d->pending = d->num_groups;
	d->running = 0;
	d->error = 0;
	d->suspended = false;
	d->abort = false;
	list_add_tail(&d->link, &pool->queue);
	spin_unlock(&pool->lock);
	wake_cus(pool, d->num_groups);
}

/**
 * tempo_cu_suspend() - preempt a dispatch
 * @pool: the pool
 * @d: the dispatch
 *
 * Starts no more of its workgroups; running SPIN workgroups stop at their
 * next quantum. Does not wait.
 *
 * Context: process.
 */
void tempo_cu_suspend(struct tempo_cu_pool *pool, struct tempo_dispatch *d)
{
	spin_lock(&pool->lock);
	d->suspended = true;
	list_del_init(&d->link);
	spin_unlock(&pool->lock);
}

/**
 * tempo_cu_resume() - resume a suspended dispatch
 * @pool: the pool
 * @d: the dispatch
 *
 * Context: process.
 */
void tempo_cu_resume(struct tempo_cu_pool *pool, struct tempo_dispatch *d)
{
	u32 groups;

	spin_lock(&pool->lock);
	d->suspended = false;
	if (has_groups(d) && list_empty(&d->link))
		list_add_tail(&d->link, &pool->queue);
	groups = d->num_partial + d->num_groups - d->next_group;
	spin_unlock(&pool->lock);
	wake_cus(pool, groups);
}

/**
 * tempo_cu_cancel() - abandon a dispatch
 * @pool: the pool
 * @d: the dispatch
 *
 * Its workgroups not started or stopped are forgotten; running ones stop
 * within a quantum. Wait for tempo_cu_dispatch_idle() before reusing @d.
 *
 * Context: process.
 */
void tempo_cu_cancel(struct tempo_cu_pool *pool, struct tempo_dispatch *d)
{
	spin_lock(&pool->lock);
	d->abort = true;
	d->suspended = true;
	list_del_init(&d->link);
	d->pending -= d->num_partial + d->num_groups - d->next_group;
	d->num_partial = 0;
	d->next_group = d->num_groups;
	spin_unlock(&pool->lock);
}

/**
 * tempo_cu_dispatch_idle() - whether every workgroup of a dispatch ended
 * @pool: the pool
 * @d: the dispatch
 * @error: out: the first workgroup error, when idle
 *
 * Context: process.
 * Return: true when no workgroup is left to run.
 */
bool tempo_cu_dispatch_idle(struct tempo_cu_pool *pool,
			    struct tempo_dispatch *d, int *error)
{
	bool idle;

	spin_lock(&pool->lock);
	idle = !d->pending;
	*error = d->error;
	spin_unlock(&pool->lock);
	return idle;
}

/**
 * tempo_cu_high_queue() - a high-priority queue gained or lost its work
 * @pool: the pool
 * @busy: gained
 *
 * Context: any; takes the pool's lock.
 */
void tempo_cu_high_queue(struct tempo_cu_pool *pool, bool busy)
{
	unsigned long flags;

	spin_lock_irqsave(&pool->lock, flags);
	if (busy)
		pool->high_queues++;
	else
		pool->high_queues--;
	spin_unlock_irqrestore(&pool->lock, flags);
	if (!busy)
		wake_up(&pool->wq);
}

/**
 * tempo_cu_pool_init() - start the compute units
 * @pool: the pool
 * @num_cus: how many, at most %TEMPO_HW_MAX_CUS
 * @reserved: how many to keep for high-priority queues with work
 * @by_priority: serve dispatches by queue priority, else at random
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int tempo_cu_pool_init(struct tempo_cu_pool *pool, u32 num_cus,
		       u32 reserved, bool by_priority)
{
	u32 i;

	spin_lock_init(&pool->lock);
	INIT_LIST_HEAD(&pool->queue);
	init_waitqueue_head(&pool->wq);
	pool->reserved = min(reserved, num_cus - 1);
	pool->by_priority = by_priority;
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
 * @pool: the pool, with no dispatch queued or running
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
