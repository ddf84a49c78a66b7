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
 * priority), the oldest first among equals (a preempted dispatch keeps
 * its age when it is resumed), so a queue's priority reaches
 * the CUs; with the module parameter cu_by_priority=0 it picks at random,
 * as a sequencer that ignores queue priorities would. While a queue of the
 * high pipe priority has work, the queues below it may hold at most
 * (CUs - reserved) CUs: the rest are kept for the high-priority work.
 *
 * A queue that runs on a starvation slice (see "Hardware queues") is
 * served first, whatever the policy: the starvation bound reaches the
 * CUs. Its slice is GPU time, which a dispatch waiting for a CU does not
 * make; a starved low-priority queue whose dispatch waited behind
 * higher-priority workgroups of other engines would hold its engine, and
 * every queue waiting there, for as long as that work went on.
 *
 * A dispatch can be suspended (preemption) and resumed: it starts no
 * workgroup while suspended, and its running workgroups stop at their next
 * check and save their progress, as compute wave save/restore would. A
 * kernel checks every %TEMPO_CU_CHUNK bytes (FILL, COPY, CHECKSUM), every
 * %TEMPO_CU_ATOMIC_BATCH increments (ATOMIC_INC), or as soon as it is
 * asked to (SPIN). A resumed dispatch runs its saved
 * workgroups first, from where they stopped, then the ones never started,
 * so it produces exactly the results of an uninterrupted run. The same
 * checks stop a cancelled dispatch's workgroups, however long they are.
 *
 * When a high-priority queue gains work while low-priority workgroups
 * hold more than (CUs - reserved) CUs, the excess ones stop at their next
 * check, save their progress and queue again: the reservation takes
 * effect within a check, not when long workgroups end.
 *
 * The SPIN kernel models a busy CU without burning the host CPU: it sleeps
 * until its time is up or until a check is asked for (a dispatch suspended
 * or cancelled, a high-priority queue with work), whichever comes first,
 * so a busy CU costs the host no wake-up. Its time is GPU time: what its
 * thread slept or ran, not what it waited for a CPU once woken.
 *
 * A workgroup's GPU time is its thread's clock during the workgroup
 * (tempo_clock_thread(): its CPU time and a SPIN's sleep, not the time it
 * waited for a CPU). Each CU publishes its workgroup's progress at every
 * check (and, for a SPIN's sleep, when the sleep started and how long it
 * may be), so the command processor, the watchdog and the pool's clock see
 * a long workgroup's time before it ends. CU threads run at a lower CPU
 * priority than the command processors, except while they run a workgroup
 * of a high-priority queue: then at the command processors' own. The host
 * schedules the CUs' threads, and a high-priority workgroup at the lowest
 * CPU priority would wait on its vCPU behind any other task there,
 * low-priority workgroups included, for milliseconds: its queue's
 * priority would stop at the host's scheduler.
 */

#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/nospec.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include <drm/tempo_drm.h>

#include "tempo_hw_priv.h"

/* Shortest SPIN sleep: below it a workgroup waits without sleeping. */
#define TEMPO_CU_MIN_SLEEP_NS	(10 * NSEC_PER_USEC)
/* Bytes a memory kernel moves between two checks for preemption. */
#define TEMPO_CU_CHUNK		SZ_16K
/* Increments of ATOMIC_INC between two checks for preemption. */
#define TEMPO_CU_ATOMIC_BATCH	64

/**
 * struct tempo_group - a workgroup on a compute unit
 * @cu: the compute unit
 * @d: its dispatch
 * @index: its index in @d
 * @done: progress, in the kernel's unit: bytes (FILL, COPY, CHECKSUM),
 *	increments (ATOMIC_INC) or nanoseconds (SPIN); saved when the
 *	workgroup is stopped, so that it resumes where it stopped
 * @low: it counts in the pool's busy_low
 * @cpu_start: its thread's CPU time when it took the workgroup
 * @gpu_start: its thread's clock then
 */
struct tempo_group {
	struct tempo_cu *cu;
	struct tempo_dispatch *d;
	u32 index;
	u64 done;
	bool low;
	u64 cpu_start;
	u64 gpu_start;
};

/*
 * The current thread's clock since @start: the kernel's count of its wait
 * for a CPU and the host's clock may disagree by a few nanoseconds, which
 * must not wrap around.
 */
static u64 thread_since(u64 start)
{
	u64 now = tempo_clock_thread();

	return now > start ? now - start : 0;
}

/* The GPU time of the workgroup in progress on the current CU. */
static u64 group_gpu(const struct tempo_group *grp)
{
	return thread_since(grp->gpu_start);
}

/*
 * Publish the progress of the workgroup, a SPIN's sleep ended: the sleep
 * stops counting before its time is added, so that a reader never counts
 * it twice. Pairs with cu_group_gpu().
 */
static void group_publish(struct tempo_group *grp)
{
	struct tempo_cu *cu = grp->cu;

	WRITE_ONCE(cu->spin_since, 0);
	/* The sleep ends before its time is added; pairs with cu_group_gpu(). */
	smp_wmb();
	WRITE_ONCE(cu->group_gpu, group_gpu(grp));
}

/*
 * The GPU time of @cu's workgroup in progress: as published, plus a SPIN's
 * sleep in progress as far as it may go. Pairs with group_publish() and
 * kernel_spin().
 */
static u64 cu_group_gpu(const struct tempo_cu *cu, u64 now)
{
	u64 gpu = READ_ONCE(cu->group_gpu), since, left;

	/* The time before the sleep; pairs with group_publish(). */
	smp_rmb();
	since = READ_ONCE(cu->spin_since);
	/* The sleep's start before its length; pairs with spin_publish(). */
	smp_rmb();
	left = READ_ONCE(cu->spin_left);
	if (since && now > since)
		gpu += min(now - since, left);
	return gpu;
}

static u64 arg64(const struct tempo_dispatch *d, u32 i)
{
	return (u64)d->args[i] | ((u64)d->args[i + 1] << 32);
}

/*
 * A low-priority workgroup beyond the pool's share for low queues gives
 * its CU back: high-priority work arrived while it was running. It stops
 * counting in busy_low at once, so that exactly the excess stops.
 */
static bool cu_evict(struct tempo_cu_pool *pool, struct tempo_group *grp)
{
	bool evict;

	if (!grp->low || !READ_ONCE(pool->high_queues))
		return false;
	spin_lock(&pool->lock);
	evict = pool->high_queues &&
		pool->busy_low + pool->reserved > pool->num_cus;
	if (evict) {
		pool->busy_low--;
		grp->low = false;
		grp->cu->low = false;
	}
	spin_unlock(&pool->lock);
	return evict;
}

/*
 * Between two pieces of a workgroup: -ECANCELED when its dispatch was
 * cancelled, -EAGAIN when it must stop and be resumed later (its dispatch
 * was suspended, or its CU is taken back for high-priority work), else 0.
 */
static int group_check(struct tempo_cu_pool *pool, struct tempo_group *grp)
{
	group_publish(grp);
	if (READ_ONCE(grp->d->abort))
		return -ECANCELED;
	if (READ_ONCE(grp->d->suspended) || cu_evict(pool, grp))
		return -EAGAIN;
	cond_resched();
	return 0;
}

/*
 * A memory kernel's workgroup: @op on the chunks of its @len bytes from
 * grp->done on; @op gets the offset of the chunk from the start of the
 * dispatch's buffers (@base is the workgroup's) and may add to @sum.
 */
static int group_chunks(struct tempo_cu_pool *pool, struct tempo_group *grp,
			u64 base, u64 len,
			int (*op)(struct tempo_dispatch *d, u64 off, u32 n,
				  u64 *sum),
			u64 *sum)
{
	while (grp->done < len) {
		u32 n = min_t(u64, len - grp->done, TEMPO_CU_CHUNK);
		int ret;

		ret = op(grp->d, base + grp->done, n, sum);
		if (ret)
			return ret;
		grp->done += n;
		if (grp->done < len) {
			ret = group_check(pool, grp);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static int fill_chunk(struct tempo_dispatch *d, u64 off, u32 n, u64 *sum)
{
	return tempo_mem_fill(d->mmu, arg64(d, 0) + off, d->args[2], n);
}

static int copy_chunk(struct tempo_dispatch *d, u64 off, u32 n, u64 *sum)
{
	return tempo_mem_copy(d->mmu, arg64(d, 0) + off, arg64(d, 2) + off, n);
}

static int sum_chunk(struct tempo_dispatch *d, u64 off, u32 n, u64 *sum)
{
	u64 part;
	int ret;

	ret = tempo_mem_sum32(d->mmu, arg64(d, 0) + off, n, &part);
	if (!ret)
		*sum += part;
	return ret;
}

static int kernel_fill(struct tempo_cu_pool *pool, struct tempo_group *grp)
{
	u32 bytes = grp->d->args[3];

	return group_chunks(pool, grp, (u64)grp->index * bytes, bytes,
			    fill_chunk, NULL);
}

static int kernel_copy(struct tempo_cu_pool *pool, struct tempo_group *grp)
{
	u32 bytes = grp->d->args[4];

	return group_chunks(pool, grp, (u64)grp->index * bytes, bytes,
			    copy_chunk, NULL);
}

/*
 * The sum of each run of the workgroup is added to the result when the
 * run ends, stopped or not: the result is the same as one uninterrupted
 * run's.
 */
static int kernel_checksum(struct tempo_cu_pool *pool,
			   struct tempo_group *grp)
{
	struct tempo_dispatch *d = grp->d;
	u32 bytes = d->args[4];
	u64 sum = 0;
	int ret, add;

	ret = group_chunks(pool, grp, (u64)grp->index * bytes, bytes,
			   sum_chunk, &sum);
	if (ret && ret != -EAGAIN)
		return ret;
	add = tempo_mem_atomic_add(d->mmu, arg64(d, 2), sum);
	return add ? add : ret;
}

static int kernel_atomic_inc(struct tempo_cu_pool *pool,
			     struct tempo_group *grp)
{
	struct tempo_dispatch *d = grp->d;
	int ret;

	while (grp->done < d->args[2]) {
		ret = tempo_mem_atomic_add(d->mmu, arg64(d, 0), 1);
		if (ret)
			return ret;
		grp->done++;
		if (grp->done % TEMPO_CU_ATOMIC_BATCH == 0 &&
		    grp->done < d->args[2]) {
			ret = group_check(pool, grp);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/*
 * The workgroup of @cu must check at once: the change that asks for it is
 * made before, so that a workgroup reading its CU's checks before its
 * check sees the change in the check or is woken by the bump.
 */
static void cu_ask_check(struct tempo_cu *cu)
{
	/* Orders the change before the bump; pairs with kernel_spin(). */
	smp_mb__before_atomic();
	atomic_inc(&cu->checks);
	wake_up(&cu->check_wq);
}

/* The CUs running a workgroup of @d check at once. */
static void cu_ask_dispatch(struct tempo_cu_pool *pool,
			    const struct tempo_dispatch *d)
{
	u32 i;

	for (i = 0; i < pool->num_cus; i++)
		if (READ_ONCE(pool->cus[i].d) == d)
			cu_ask_check(&pool->cus[i]);
}

/* @n of the CUs running low-priority workgroups check at once. */
static void cu_ask_low(struct tempo_cu_pool *pool, u32 n)
{
	u32 i;

	for (i = 0; i < pool->num_cus && n; i++)
		if (READ_ONCE(pool->cus[i].low)) {
			cu_ask_check(&pool->cus[i]);
			n--;
		}
}

/* A SPIN's sleep of at most @left starts; pairs with cu_group_gpu(). */
static void spin_publish(struct tempo_cu *cu, u64 left, u64 since)
{
	WRITE_ONCE(cu->spin_left, left);
	/* Its length before its start; pairs with cu_group_gpu(). */
	smp_wmb();
	WRITE_ONCE(cu->spin_since, since);
}

/*
 * Sleeps until grp->done reaches the SPIN time, checking when asked to.
 * Its progress is the time its thread slept or ran, not the time it waited
 * for a CPU once woken.
 */
static int kernel_spin(struct tempo_cu_pool *pool, struct tempo_group *grp)
{
	struct tempo_cu *cu = grp->cu;
	u64 total = grp->d->args[0];
	int ret;

	for (;;) {
		int checks = atomic_read(&cu->checks);
		u64 left, start;

		/* The bump read before the change; pairs with cu_ask_check(). */
		smp_rmb();
		ret = group_check(pool, grp);
		if (ret)
			return ret;
		left = total - grp->done;
		start = tempo_clock_thread();
		if (left < TEMPO_CU_MIN_SLEEP_NS) {
			ndelay(left);
		} else {
			spin_publish(cu, left, ktime_get_ns());
			wait_event_interruptible_hrtimeout(cu->check_wq,
							   atomic_read(&cu->checks) != checks,
							   ns_to_ktime(left));
		}
		grp->done = min(total, grp->done + thread_since(start));
		group_publish(grp);
		if (grp->done >= total)
			return 0;
	}
}

/* The built-in kernels, by &enum drm_tempo_kernel. */
static int (*const kernels[])(struct tempo_cu_pool *pool,
			      struct tempo_group *grp) = {
	[DRM_TEMPO_KERNEL_FILL] = kernel_fill,
	[DRM_TEMPO_KERNEL_COPY] = kernel_copy,
	[DRM_TEMPO_KERNEL_ATOMIC_INC] = kernel_atomic_inc,
	[DRM_TEMPO_KERNEL_CHECKSUM] = kernel_checksum,
	[DRM_TEMPO_KERNEL_SPIN] = kernel_spin,
};

static int run_group(struct tempo_cu_pool *pool, struct tempo_group *grp)
{
	u32 k = grp->d->kernel;

	if (k >= ARRAY_SIZE(kernels))
		return -EILSEQ;
	return kernels[array_index_nospec(k, ARRAY_SIZE(kernels))](pool, grp);
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

/*
 * Whether a dispatch, low-priority or not, waits for a CU by right: no CU
 * is left that it may take, and none that it may have back at once. A
 * high-priority dispatch may have the reserved CUs back from low-priority
 * workgroups: it waits by right only once high-priority workgroups hold
 * them.
 */
static bool pool_full(const struct tempo_cu_pool *pool, bool low)
{
	if (low)
		return pool->busy >= pool->num_cus ||
		       (pool->high_queues &&
			pool->busy_low + pool->reserved >= pool->num_cus);
	return pool->busy >= pool->num_cus &&
	       pool->busy - pool->busy_low >= min(pool->reserved, pool->num_cus);
}

/**
 * tempo_cu_clock() - the pool's clock
 * @pool: the pool, its lock held
 *
 * The mean GPU time of its compute units (see "GPU time"), their
 * workgroups in progress as last published: what the pool did. It never
 * goes back.
 *
 * Context: any, with @pool's lock held.
 * Return: nanoseconds.
 */
u64 tempo_cu_clock(struct tempo_cu_pool *pool)
{
	u64 now = ktime_get_ns(), sum = 0, clock;
	u32 i;

	lockdep_assert_held(&pool->lock);
	if (!pool->num_cus)
		return pool->clock_seen;
	for (i = 0; i < pool->num_cus; i++) {
		const struct tempo_cu *cu = &pool->cus[i];

		sum += cu->gpu_ns;
		if (cu->d)
			sum += cu_group_gpu(cu, now);
	}
	clock = div_u64(sum, pool->num_cus);
	pool->clock_seen = max(pool->clock_seen, clock);
	return pool->clock_seen;
}

/* A clock that runs only while @low dispatches wait for a CU by right. */
static u64 full_clock(const struct tempo_cu_pool *pool, bool low, u64 now)
{
	return pool->full_ns[low] +
	       (pool->full[low] ? now - pool->full_since[low] : 0);
}

/**
 * tempo_cu_pool_changed() - start or stop the full clocks
 * @pool: the pool, its lock held, whose occupancy (busy CUs, busy low
 *	CUs, high-priority queues with work) just changed
 * @now: the pool's clock (tempo_cu_clock()) at the change
 *
 * Each class's clock (&tempo_cu_pool.full_ns) runs while its dispatches
 * wait for a CU by right.
 *
 * Context: any, with @pool's lock held.
 */
void tempo_cu_pool_changed(struct tempo_cu_pool *pool, u64 now)
{
	int low;

	lockdep_assert_held(&pool->lock);
	for (low = 0; low < 2; low++) {
		bool full = pool_full(pool, low);

		if (full && !pool->full[low]) {
			pool->full[low] = true;
			pool->full_since[low] = now;
		} else if (!full && pool->full[low]) {
			pool->full_ns[low] += now - pool->full_since[low];
			pool->full[low] = false;
		}
	}
}

/**
 * tempo_cu_wait_start() - a dispatch may start waiting for a CU
 * @pool: the pool, its lock held
 * @d: the dispatch
 * @now: the pool's clock
 *
 * A dispatch waits for a CU while it is queued with no workgroup running:
 * of that time, what the pool spent full for it is its CU wait. Does
 * nothing to a dispatch that waits already, has a workgroup running or is
 * not queued.
 *
 * Context: any, with @pool's lock held.
 */
void tempo_cu_wait_start(struct tempo_cu_pool *pool, struct tempo_dispatch *d,
			 u64 now)
{
	if (d->waiting || d->running || list_empty(&d->link))
		return;
	d->waiting = true;
	d->wait_low = is_low(d);
	d->wait_mark = full_clock(pool, d->wait_low, now);
}

/**
 * tempo_cu_wait_so_far() - a dispatch's CU wait
 * @pool: the pool, its lock held
 * @d: the dispatch
 * @now: the pool's clock
 *
 * Context: any, with @pool's lock held.
 * Return: GPU time, the wait in progress included.
 */
u64 tempo_cu_wait_so_far(const struct tempo_cu_pool *pool,
			 const struct tempo_dispatch *d, u64 now)
{
	if (!d->waiting)
		return d->wait_ns;
	return d->wait_ns + full_clock(pool, d->wait_low, now) - d->wait_mark;
}

/**
 * tempo_cu_wait_end() - a dispatch stops waiting for a CU
 * @pool: the pool, its lock held
 * @d: the dispatch: one of its workgroups takes a CU, or it leaves the
 *	queue
 * @now: the pool's clock
 *
 * Context: any, with @pool's lock held.
 */
void tempo_cu_wait_end(struct tempo_cu_pool *pool, struct tempo_dispatch *d,
		       u64 now)
{
	d->wait_ns = tempo_cu_wait_so_far(pool, d, now);
	d->waiting = false;
}

/*
 * A starved queue's dispatch first, then the higher rank; among equals the
 * dispatch that arrived first.
 */
static bool before(const struct tempo_dispatch *a,
		   const struct tempo_dispatch *b)
{
	u32 ra = tempo_hqd_rank(a->hqd), rb = tempo_hqd_rank(b->hqd);

	if (a->starved != b->starved)
		return a->starved;
	return ra > rb || (ra == rb && a->seq < b->seq);
}

/**
 * tempo_cu_pick() - the sequencer: which dispatch the next idle CU serves
 * @pool: the CU pool, its lock held
 *
 * Low-priority dispatches may not take the CUs that @pool reserves while a
 * high-priority queue has work. Among the others, the dispatch of a queue
 * on a starvation slice goes first, whatever the policy; then, by
 * priority, the highest queue's dispatch (the oldest among equals);
 * otherwise one is chosen at random.
 *
 * Context: any, with @pool's lock held.
 * Return: the dispatch, or NULL when none may take a CU now.
 */
struct tempo_dispatch *tempo_cu_pick(struct tempo_cu_pool *pool)
{
	struct tempo_dispatch *d, *best = NULL;
	u32 n = 0, pick;

	lockdep_assert_held(&pool->lock);
	list_for_each_entry(d, &pool->queue, link) {
		if (!allowed(pool, d))
			continue;
		n++;
		if (!best || before(d, best))
			best = d;
	}
	if (pool->by_priority || n < 2 || best->starved)
		return best;
	pick = get_random_u32_below(n);
	list_for_each_entry(d, &pool->queue, link)
		if (allowed(pool, d) && !pick--)
			return d;
	return best;
}

static void group_take(struct tempo_group *grp)
{
	struct tempo_dispatch *d = grp->d;

	if (d->num_partial) {
		d->num_partial--;
		grp->index = d->partial[d->num_partial].group;
		grp->done = d->partial[d->num_partial].done;
	} else {
		grp->index = d->next_group++;
		grp->done = 0;
	}
}

/* Take the next workgroup to run; false when none may run now. */
static bool cu_take(struct tempo_cu_pool *pool, struct tempo_group *grp)
{
	struct tempo_dispatch *d;
	u64 now;

	spin_lock(&pool->lock);
	d = tempo_cu_pick(pool);
	if (d) {
		now = tempo_cu_clock(pool);
		grp->d = d;
		group_take(grp);
		tempo_cu_wait_end(pool, d, now);
		if (!has_groups(d))
			list_del_init(&d->link);
		d->running++;
		pool->busy++;
		grp->low = is_low(d);
		if (grp->low)
			pool->busy_low++;
		tempo_cu_pool_changed(pool, now);
		WRITE_ONCE(grp->cu->d, d);
		WRITE_ONCE(grp->cu->low, grp->low);
	}
	spin_unlock(&pool->lock);
	return d;
}

static void group_park(struct tempo_cu_pool *pool,
		       const struct tempo_group *grp)
{
	struct tempo_dispatch *d = grp->d;

	d->partial[d->num_partial].group = grp->index;
	d->partial[d->num_partial].done = grp->done;
	d->num_partial++;
	/* Resumed while this group was stopping, or evicted: queue it. */
	if (!d->suspended && list_empty(&d->link))
		list_add_tail(&d->link, &pool->queue);
}

/* The workgroup's CPU and GPU time go to its dispatch and its CU; lock held. */
static void group_account(struct tempo_cu_pool *pool,
			  const struct tempo_group *grp)
{
	struct tempo_dispatch *d = grp->d;
	struct tempo_cu *cu = grp->cu;
	u64 gpu = group_gpu(grp);

	d->cpu_ns += tempo_clock_cpu() - grp->cpu_start;
	d->lane_ns[cu - pool->cus] += gpu;
	cu->gpu_ns += gpu;
	WRITE_ONCE(cu->spin_since, 0);
	WRITE_ONCE(cu->group_gpu, 0);
}

static void cu_put(struct tempo_cu_pool *pool, const struct tempo_group *grp,
		   int ret)
{
	struct tempo_dispatch *d = grp->d;
	struct tempo_engine *engine = d->hqd->engine;
	bool wake;
	u64 now;

	spin_lock(&pool->lock);
	group_account(pool, grp);
	d->running--;
	pool->busy--;
	if (grp->low)
		pool->busy_low--;
	WRITE_ONCE(grp->cu->d, NULL);
	WRITE_ONCE(grp->cu->low, false);
	now = tempo_cu_clock(pool);
	tempo_cu_pool_changed(pool, now);
	if (ret == -EAGAIN && !d->abort) {
		group_park(pool, grp);
	} else {
		d->pending--;
		if (ret && ret != -EAGAIN && ret != -ECANCELED && !d->error)
			d->error = ret;
	}
	tempo_cu_wait_start(pool, d, now);
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
	work = tempo_cu_pick(pool);
	spin_unlock(&pool->lock);
	return work;
}

/*
 * The CU's thread runs at the CPU priority of its workgroup's queue, and at
 * the low one while idle.
 */
static void cu_set_nice(struct tempo_cu *cu, bool high)
{
	if (cu->high_nice == high)
		return;
	cu->high_nice = high;
	set_user_nice(current, high ? cu->pool->high_nice : cu->pool->nice);
}

static int cu_thread(void *data)
{
	struct tempo_cu *cu = data;
	struct tempo_cu_pool *pool = cu->pool;
	struct tempo_group grp = { .cu = cu };

	while (!kthread_should_stop()) {
		int ret;

		if (!cu_take(pool, &grp)) {
			cu_set_nice(cu, false);
			wait_event_interruptible_exclusive(pool->wq,
							   cu_should_wake(pool));
			continue;
		}
		cu_set_nice(cu, !grp.low);
		grp.cpu_start = tempo_clock_cpu();
		grp.gpu_start = tempo_clock_thread();
		ret = run_group(pool, &grp);
		cu_put(pool, &grp, ret);
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
 * @starved: its queue runs on a starvation slice
 *
 * Context: process.
 */
void tempo_cu_dispatch(struct tempo_cu_pool *pool, struct tempo_dispatch *d,
		       bool starved)
{
	spin_lock(&pool->lock);
	d->starved = starved;
	d->next_group = 0;
	d->num_partial = 0;
	d->pending = d->num_groups;
	d->running = 0;
	d->error = 0;
	d->suspended = false;
	d->abort = false;
	d->seq = pool->next_seq++;
	memset(d->lane_ns, 0, sizeof(d->lane_ns));
	d->cpu_ns = 0;
	d->waiting = false;
	d->wait_ns = 0;
	list_add_tail(&d->link, &pool->queue);
	tempo_cu_wait_start(pool, d, tempo_cu_clock(pool));
	spin_unlock(&pool->lock);
	wake_cus(pool, d->num_groups);
}

/**
 * tempo_cu_suspend() - preempt a dispatch
 * @pool: the pool
 * @d: the dispatch
 *
 * Starts no more of its workgroups; running ones stop at their next check
 * and save their progress. Does not wait.
 *
 * Context: process.
 */
void tempo_cu_suspend(struct tempo_cu_pool *pool, struct tempo_dispatch *d)
{
	spin_lock(&pool->lock);
	d->suspended = true;
	list_del_init(&d->link);
	tempo_cu_wait_end(pool, d, tempo_cu_clock(pool));
	spin_unlock(&pool->lock);
	cu_ask_dispatch(pool, d);
}

/**
 * tempo_cu_resume() - resume a suspended dispatch
 * @pool: the pool
 * @d: the dispatch
 * @starved: its queue runs on a starvation slice
 *
 * Context: process.
 */
void tempo_cu_resume(struct tempo_cu_pool *pool, struct tempo_dispatch *d,
		     bool starved)
{
	u32 groups;

	spin_lock(&pool->lock);
	d->suspended = false;
	d->starved = starved;
	if (has_groups(d) && list_empty(&d->link))
		list_add_tail(&d->link, &pool->queue);
	tempo_cu_wait_start(pool, d, tempo_cu_clock(pool));
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
 * at their next check. Wait for tempo_cu_dispatch_idle() before reusing @d.
 *
 * Context: process.
 */
void tempo_cu_cancel(struct tempo_cu_pool *pool, struct tempo_dispatch *d)
{
	spin_lock(&pool->lock);
	d->abort = true;
	d->suspended = true;
	list_del_init(&d->link);
	tempo_cu_wait_end(pool, d, tempo_cu_clock(pool));
	d->pending -= d->num_partial + d->num_groups - d->next_group;
	d->num_partial = 0;
	d->next_group = d->num_groups;
	spin_unlock(&pool->lock);
	cu_ask_dispatch(pool, d);
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
 * tempo_cu_dispatch_usage() - what a dispatch used of the compute units
 * @pool: the pool
 * @d: the dispatch
 * @gpu_ns: out: its GPU time, its longest lane (see "GPU time"): the
 *	workgroups in progress included as last published
 * @cpu_ns: out: CPU time its workgroups' threads spent on it
 * @wait_ns: out: the pool's GPU time during which it had workgroups
 *	queued and none running while it waited for a CU by right (no CU
 *	left that it may take or have back at once), the wait in progress
 *	included
 *
 * Context: process.
 */
void tempo_cu_dispatch_usage(struct tempo_cu_pool *pool,
			     struct tempo_dispatch *d, u64 *gpu_ns,
			     u64 *cpu_ns, u64 *wait_ns)
{
	u64 now = ktime_get_ns(), lane;
	u32 i;

	spin_lock(&pool->lock);
	*gpu_ns = 0;
	for (i = 0; i < pool->num_cus; i++) {
		lane = d->lane_ns[i];
		if (pool->cus[i].d == d)
			lane += cu_group_gpu(&pool->cus[i], now);
		*gpu_ns = max(*gpu_ns, lane);
	}
	*cpu_ns = d->cpu_ns;
	*wait_ns = tempo_cu_wait_so_far(pool, d, tempo_cu_clock(pool));
	spin_unlock(&pool->lock);
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
	u32 excess = 0;

	spin_lock_irqsave(&pool->lock, flags);
	if (busy)
		pool->high_queues++;
	else
		pool->high_queues--;
	if (busy && pool->busy_low + pool->reserved > pool->num_cus)
		excess = pool->busy_low + pool->reserved - pool->num_cus;
	tempo_cu_pool_changed(pool, tempo_cu_clock(pool));
	spin_unlock_irqrestore(&pool->lock, flags);
	if (busy)
		cu_ask_low(pool, excess);
	else
		wake_up(&pool->wq);
}

/**
 * tempo_cu_pool_init() - start the compute units
 * @pool: the pool
 * @num_cus: how many, at most %TEMPO_HW_MAX_CUS
 * @reserved: how many to keep for high-priority queues with work
 * @by_priority: serve dispatches by queue priority, else at random
 * @nice: nice level of their threads
 * @high_nice: their nice level while they run a workgroup of a queue of
 *	the high pipe priority
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int tempo_cu_pool_init(struct tempo_cu_pool *pool, u32 num_cus,
		       u32 reserved, bool by_priority, int nice,
		       int high_nice)
{
	u32 i;

	spin_lock_init(&pool->lock);
	INIT_LIST_HEAD(&pool->queue);
	init_waitqueue_head(&pool->wq);
	pool->reserved = min(reserved, num_cus - 1);
	pool->by_priority = by_priority;
	pool->nice = nice;
	pool->high_nice = high_nice;
	pool->cus = kcalloc(num_cus, sizeof(*pool->cus), GFP_KERNEL);
	if (!pool->cus)
		return -ENOMEM;
	for (i = 0; i < num_cus; i++) {
		struct tempo_cu *cu = &pool->cus[i];

		cu->pool = pool;
		init_waitqueue_head(&cu->check_wq);
		cu->thread = kthread_run(cu_thread, cu, "tempo-cu%u", i);
		if (IS_ERR(cu->thread)) {
			int ret = PTR_ERR(cu->thread);

			tempo_cu_pool_fini(pool);
			return ret;
		}
		set_user_nice(cu->thread, nice);
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
		kthread_stop(pool->cus[i].thread);
	kfree(pool->cus);
	pool->cus = NULL;
	pool->num_cus = 0;
}
