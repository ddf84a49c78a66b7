// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The tempo authors
 */

/**
 * DOC: Scheduling
 *
 * There is one drm_sched scheduler per hardware queue (HQD). Its credit
 * limit, the module parameter hw_submission (2 by default, as amdgpu's
 * sched_hw_submission; the ring's size on kernels whose entity kill
 * leaks, see TEMPO_DEF_HW_SUBMISSION), is how many jobs it may have in
 * the HQD ring at once: the others wait in drm_sched, whose run queues
 * order them by priority, so a job waits behind at most that many
 * lower-priority jobs of its HQD however many contexts share it. A job's
 * dependencies are resolved by drm_sched; when they are met, run_job hands
 * the job to the hardware: it writes the job descriptor into the HQD ring
 * and rings the doorbell (tempo_hw_hqd_submit(), tempo_hw_hqd_kick()),
 * then returns the hardware fence that the command processor signals at
 * the job's END. run_job never allocates: the hardware fence is allocated
 * at exec time.
 *
 * With the module parameter run_in_place, which root may flip at run time,
 * run_job runs an idle engine's command processor itself for a bounded
 * time instead of waking its thread: a job on an idle engine then costs
 * one wake-up less, and may have ended by the time run_job returns its
 * fence. The hardware decides what runs and hands over to its thread as
 * soon as anything must wait.
 *
 * With the module parameter floor, a benchmark switch root may flip at
 * run time, run_job ends every single-queue job at once without handing it
 * to the hardware: nothing of it executes, and its round trip is the
 * scheduler's own, as a bare drm_sched driver's. tempo-bench nop measures
 * it beside tempo's.
 *
 * Every job is bounded: drm_sched's timeout (module parameter
 * job_timeout_ms) calls timedout_job. A job that was not running all that
 * time (preempted, waiting in its ring or for compute units) is not hung
 * and gets another period: DRM_GPU_SCHED_STAT_NO_HANG where the kernel
 * has it, else a stop and restart of the scheduler that puts it back. A
 * hung job is aborted on the hardware, which ends only that job (its
 * fence carries -ETIMEDOUT): the scheduler is stopped around the abort
 * and restarted with the hardware fences of the jobs the hardware still
 * holds, so they carry on where they were. No job is ever handed to the
 * hardware twice and no fence is initialised twice (mainline deprecates
 * drm_sched_resubmit_jobs() for this reason).
 *
 * At teardown the hardware stops first and ends every job it holds; where
 * the kernel has cancel_job, drm_sched_fini() then frees the jobs still
 * pending, else the driver waits until the scheduler has.
 */

/* How long a reset waits for the hardware to abort a job. */
#define TEMPO_ABORT_WAIT_MS	1000

#include <linux/delay.h>
#include <linux/dma-fence-unwrap.h>
#include <linux/random.h>
#include <linux/ratelimit.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_managed.h>

#include "tempo_sched.h"
#include "tempo_trace.h"

static struct tempo_hw_hqd *job_hqd(struct drm_sched_job *sched_job)
{
	return to_tempo_queue(sched_job->sched)->hqd;
}

/* Whether @a runs before @b on the hardware. */
static bool prio_above(const struct tempo_prio *a, const struct tempo_prio *b)
{
	return a->pipe > b->pipe || (a->pipe == b->pipe && a->queue > b->queue);
}

/* The priority a job runs at now: its context's, or a waiter's above it. */
static s32 job_priority(const struct tempo_job *job)
{
	return max(READ_ONCE(job->state->priority), job->boost);
}

/*
 * Program a queue's HQD with the highest priority among the jobs in its
 * ring, as they are now: a context's change of priority reaches its jobs
 * already written into the ring, and a job never runs below its own
 * priority because another context's job shares the ring. An empty ring
 * returns to its programming at load. Returns whether a job of @state
 * (NULL: of none) is in the ring.
 */
static bool queue_reprogram_for(struct tempo_queue *queue,
				const struct tempo_ctx_state *state)
{
	struct tempo_prio best = {
		.pipe = queue->init_pipe, .queue = queue->init_queue,
	};
	struct tempo_hw_hqd_info info;
	struct tempo_prio prio;
	struct tempo_job *job;
	unsigned long flags;
	bool holds = false;
	u32 jobs = 0;

	spin_lock_irqsave(&queue->ring_lock, flags);
	list_for_each_entry(job, &queue->ring, ring_link) {
		prio = tempo_priority_map(queue->tdev, job_priority(job));
		if (!jobs++ || prio_above(&prio, &best))
			best = prio;
		holds |= job->state == state;
	}
	tempo_hw_hqd_info(queue->hqd, &info);
	if (info.pipe_priority != best.pipe ||
	    info.queue_priority != best.queue)
		tempo_hw_hqd_set_priority(queue->hqd, best.pipe, best.queue);
	trace_tempo_queue_reprogram(info.engine, info.queue, jobs, best.pipe,
				    best.queue);
	spin_unlock_irqrestore(&queue->ring_lock, flags);
	return holds;
}

static void queue_reprogram(struct tempo_queue *queue)
{
	queue_reprogram_for(queue, NULL);
}

/* The HQD's running time, the run in progress included. */
static u64 hqd_busy_ns(struct tempo_hw_hqd *hqd)
{
	struct tempo_hw_hqd_state st;

	tempo_hw_hqd_state(hqd, &st);
	return st.busy_ns;
}

/* How long a loan lasts, in running time of the borrower's HQD. */
static u64 loan_budget_ns(void)
{
	u32 ms = min(READ_ONCE(tempo_params.inherit_ms),
		     TEMPO_PARAM_INHERIT_MS_MAX);

	return (u64)ms * NSEC_PER_MSEC;
}

/* Look at the queue's loans again once its HQD may have run @ns. */
static void loan_watch(struct tempo_queue *queue, u64 ns)
{
	queue_delayed_work(system_dfl_wq, &queue->loan_work,
			   nsecs_to_jiffies(ns) + 1);
}

/*
 * The queue's work: end the loans of the jobs in its ring whose HQD ran
 * for a whole loan since they started counting, reprogram it, and come
 * back for the others.
 */
static void loans_expire(struct work_struct *work)
{
	struct tempo_queue *queue = container_of(to_delayed_work(work),
						 struct tempo_queue, loan_work);
	u64 budget = loan_budget_ns(), left = U64_MAX, busy, used;
	struct tempo_job *job;
	unsigned long flags;
	bool ended = false;

	spin_lock_irqsave(&queue->ring_lock, flags);
	busy = hqd_busy_ns(queue->hqd);
	list_for_each_entry(job, &queue->ring, ring_link) {
		if (job->boost == S32_MIN)
			continue;
		used = busy - job->loan_mark;
		if (used < budget) {
			left = min(left, budget - used);
			continue;
		}
		job->boost = S32_MIN;
		job->loan_spent = true;
		ended = true;
	}
	spin_unlock_irqrestore(&queue->ring_lock, flags);
	if (ended)
		queue_reprogram(queue);
	if (left != U64_MAX)
		loan_watch(queue, left);
}

/* The job enters its queue's ring, which runs at its priority or higher. */
static void ring_enter(struct tempo_queue *queue, struct tempo_job *job)
{
	unsigned long flags;
	bool lent;

	spin_lock_irqsave(&queue->ring_lock, flags);
	list_add_tail(&job->ring_link, &queue->ring);
	/* Under the lock: see tempo_sched_priority_changed(). */
	set_bit(queue - queue->tdev->queues, job->state->queues);
	lent = job->boost != S32_MIN;
	/* A loan made while the job was queued counts from now. */
	if (lent)
		job->loan_mark = hqd_busy_ns(queue->hqd);
	spin_unlock_irqrestore(&queue->ring_lock, flags);
	queue_reprogram(queue);
	if (lent)
		loan_watch(queue, loan_budget_ns());
}

/* The job left its queue's ring: its fence signalled, or it is freed. */
static void ring_leave(struct tempo_queue *queue, struct tempo_job *job)
{
	unsigned long flags;
	bool was_in;

	spin_lock_irqsave(&queue->ring_lock, flags);
	was_in = !list_empty(&job->ring_link);
	list_del_init(&job->ring_link);
	spin_unlock_irqrestore(&queue->ring_lock, flags);
	if (was_in)
		queue_reprogram(queue);
}

/* Bans a user can cause: logged at most a few times a few seconds. */
static DEFINE_RATELIMIT_STATE(ban_rs, DEFAULT_RATELIMIT_INTERVAL,
			      DEFAULT_RATELIMIT_BURST);

/*
 * The hardware's completion interrupt: the hardware calls it before it
 * signals the job's fence, so the scheduler, which frees the job once
 * that fence signalled, cannot have freed it, and a banned context
 * refuses exec by the time the job's out-fences signal. (A callback on
 * the fence would give neither: drm_sched, adding its own while the fence
 * signals, would see it signalled and could free the job before the
 * callback ran.)
 */
static void job_ended(void *data, int error)
{
	struct tempo_job *job = data;
	struct tempo_queue *queue = to_tempo_queue(job->base.sched);
	struct tempo_device *tdev = queue->tdev;

	ring_leave(queue, job);
	tempo_job_account(job);
	trace_tempo_job_done(&job->base, error);
	if (!error)
		return;
	/* Not every drm_sched copies the error to the finished fence. */
	dma_fence_set_error(&job->base.s_fence->finished, error);
	if (error == -ECANCELED)
		return;
	/* Stopped by the hang watchdog or by the scheduler's timeout. */
	if (error == -ETIMEDOUT)
		trace_tempo_reset(&job->base,
				  atomic_inc_return(&tdev->reset_count));
	if (!atomic_xchg(&job->state->guilty, 1) && __ratelimit(&ban_rs))
		drm_notice(&tdev->drm,
			   "job failed on the hardware (%pe), context banned\n",
			   ERR_PTR(error));
}

/* From now on the hardware reports the job's end to job_ended(). */
static void job_watch_end(struct tempo_job *job)
{
	job->hw.fence->data = job;
	job->hw.fence->ended = job_ended;
}

/*
 * A gang's set_priority, with the dynamic policy: an HQD takes the
 * priority of the gang being written into it, and so do the jobs already
 * in its ring, but it is never lowered while it has work: a gang would
 * demote the gangs of higher priority queued before it (possibly another
 * file's). It goes down with the first gang written into it once idle.
 */
static void program_hqd(struct tempo_hw_hqd *hqd, const struct tempo_prio *prio)
{
	struct tempo_hw_hqd_info info;
	bool lower;

	tempo_hw_hqd_info(hqd, &info);
	if (info.pipe_priority == prio->pipe &&
	    info.queue_priority == prio->queue)
		return;
	lower = prio->pipe < info.pipe_priority ||
		(prio->pipe == info.pipe_priority &&
		 prio->queue < info.queue_priority);
	if (lower && !tempo_hw_hqd_idle(hqd))
		return;
	tempo_hw_hqd_set_priority(hqd, prio->pipe, prio->queue);
}

/**
 * tempo_sched_priority_changed() - a context's priority changed
 * @tdev: the device
 * @state: the context's state, its new priority set
 *
 * Reprograms the HQDs whose rings hold the context's jobs, and only
 * those, so that the change reaches its jobs already written into HQD
 * rings at once. A queue's bit in @state->queues is cleared before its
 * ring is looked at, and set again if the ring holds one of the
 * context's jobs; run_job sets it under the ring lock after writing a
 * job, so a job written meanwhile keeps it set.
 *
 * Context: any.
 */
void tempo_sched_priority_changed(struct tempo_device *tdev,
				  struct tempo_ctx_state *state)
{
	u32 q;

	for_each_set_bit(q, state->queues, tdev->num_queues) {
		clear_bit(q, state->queues);
		if (queue_reprogram_for(&tdev->queues[q], state))
			set_bit(q, state->queues);
	}
}

/**
 * tempo_sched_entity_fini() - end a slot's entity, dropping its queued jobs
 * @entity: the entity; no job is pushed to it any more
 *
 * drm_sched_entity_fini() takes the entity off its run queue, then waits
 * until the scheduler is done with it. But a scheduler that had just
 * picked the entity puts it back into the run queue's tree when it takes
 * the entity's job and more are queued behind it (drm_sched's run queues
 * since they became trees): the freed entity would stay there. So while
 * an entity with jobs queued ends, its scheduler takes no job.
 *
 * Context: process; may sleep.
 */
void tempo_sched_entity_fini(struct drm_sched_entity *entity)
{
	/* Set by the last job pushed, under the context's lock. */
	struct tempo_queue *queue = to_tempo_queue(entity->rq->sched);

	if (!spsc_queue_count(&entity->job_queue)) {
		drm_sched_entity_fini(entity);
		return;
	}
	mutex_lock(&queue->stop_lock);
	drm_sched_wqueue_stop(&queue->sched);
	drm_sched_entity_fini(entity);
	drm_sched_wqueue_start(&queue->sched);
	mutex_unlock(&queue->stop_lock);
}

/* The queue whose scheduler made @fence, a job's finished fence, or NULL. */
static struct tempo_queue *fence_queue(struct tempo_device *tdev,
				       struct dma_fence *fence)
{
	struct drm_sched_fence *s_fence = to_drm_sched_fence(fence);
	uintptr_t first = (uintptr_t)tdev->queues;
	uintptr_t at;
	u32 q;

	if (!s_fence || fence != &s_fence->finished)
		return NULL;
	/*
	 * By address only: the scheduler of another device's fence may be
	 * gone, and the walk must not read it.
	 */
	at = (uintptr_t)s_fence->sched - offsetof(struct tempo_queue, sched);
	if (at < first || (at - first) % sizeof(*tdev->queues))
		return NULL;
	q = (at - first) / sizeof(*tdev->queues);
	return q < tdev->num_queues ? &tdev->queues[q] : NULL;
}

/*
 * Lend @priority to @job, capped at what its submitter could set, unless
 * its loan ran out or it already runs that high. Under the ring lock.
 * Return: whether the job is in its ring and now runs higher.
 */
static bool loan_make(struct tempo_queue *queue, struct tempo_job *job,
		      s32 priority)
{
	bool counting = job->boost != S32_MIN;

	lockdep_assert_held(&queue->ring_lock);
	priority = min(priority, job->ceiling);
	if (job->loan_spent || priority <= job->boost ||
	    priority <= READ_ONCE(job->state->priority))
		return false;
	job->boost = priority;
	if (list_empty(&job->ring_link))
		return false;
	if (!counting)
		job->loan_mark = hqd_busy_ns(queue->hqd);
	return true;
}

static void promote_job(struct tempo_device *tdev, struct dma_fence *fence,
			s32 priority)
{
	struct tempo_queue *queue = fence_queue(tdev, fence);
	unsigned long flags;
	bool in_ring = false;

	if (!queue)
		return;
	/*
	 * The fence signals before drm_sched frees its job, and freeing
	 * takes this lock first (ring_leave()): a fence not signalled under
	 * the lock is a job that outlives it.
	 */
	spin_lock_irqsave(&queue->ring_lock, flags);
	if (!dma_fence_is_signaled(fence))
		in_ring = loan_make(queue, to_drm_sched_fence(fence)->owner,
				    priority);
	spin_unlock_irqrestore(&queue->ring_lock, flags);
	if (!in_ring)
		return;
	queue_reprogram(queue);
	loan_watch(queue, loan_budget_ns());
}

/**
 * tempo_sched_promote() - a job of a context of @priority waits for @fence
 * @tdev: the device
 * @fence: a dependency of the waiting job, referenced by the caller
 * @priority: the waiting context's priority
 *
 * Priority inheritance, which the waiter asked for: the device's jobs
 * whose finished fences @fence is or holds (a timeline point or an array
 * is looked through: a point holds the earlier points not signalled yet),
 * and that have not ended, are lent @priority, capped at the ceiling of
 * the file that submitted them (what its submitter could set itself). A
 * loan lasts until the job ends or its HQD has run for
 * &tempo_params.inherit_ms since the loan started counting (at once in an
 * HQD ring, else from run_job), whichever comes first; a job whose loan
 * ran out is never lent again. Only the jobs waited for directly are
 * promoted, not the jobs they wait for themselves, nor gangs of parallel
 * slots.
 *
 * A timeline point holds as many points as were queued before it and have
 * not ended, across every file that signals that timeline: the walk
 * yields the CPU between them.
 *
 * Context: process; may sleep.
 */
void tempo_sched_promote(struct tempo_device *tdev, struct dma_fence *fence,
			 s32 priority)
{
	struct dma_fence_unwrap iter;
	struct dma_fence *f;

	if (!loan_budget_ns())
		return;
	/* Never left early: the iterator holds a reference until its end. */
	dma_fence_unwrap_for_each(f, &iter, fence) {
		promote_job(tdev, f, priority);
		cond_resched();
	}
}

static void trace_run(struct drm_sched_job *sched_job,
		      struct tempo_hw_hqd *hqd, u32 width)
{
	struct tempo_hw_hqd_info info;

	if (!trace_tempo_job_run_enabled())
		return;
	tempo_hw_hqd_info(hqd, &info);
	trace_tempo_job_run(sched_job, info.engine, info.queue, width);
}

static struct dma_fence *tempo_run_job(struct drm_sched_job *sched_job)
{
	struct tempo_job *job = to_tempo_job(sched_job);
	struct tempo_device *tdev = to_tempo_queue(sched_job->sched)->tdev;
	struct dma_fence *fence;
	int idx;

	tempo_job_dequeued(job);
	if (unlikely(sched_job->s_fence->finished.error))
		return NULL;
	/* The scheduler's floor, for benchmarks: the job ends at once. */
	if (unlikely(READ_ONCE(tempo_params.floor)))
		return NULL;
	if (!drm_dev_enter(&tdev->drm, &idx))
		return ERR_PTR(-ENODEV);
	ring_enter(to_tempo_queue(sched_job->sched), job);
	tempo_job_running(job);
	job_watch_end(job);
	fence = tempo_hw_hqd_submit(job_hqd(sched_job), &job->hw);
	job->submitted = true;
	trace_run(sched_job, job_hqd(sched_job), 1);
	tempo_hw_hqd_kick(job_hqd(sched_job),
			  READ_ONCE(tempo_params.run_in_place));
	drm_dev_exit(idx);
	return fence;
}

/*
 * The timeout fired, but was the job running all that time? drm_sched's
 * timer measures wall time since the last job of the HQD started, and is
 * re-armed by later jobs; a job is hung when its own running time, in GPU
 * time (see tempo_hw_job_run_ns()), reached the timeout, which is also
 * the hardware's hang watchdog: this is the backstop for a hardware that
 * would not stop the job itself. Otherwise the job spent the time
 * preempted, waiting in its ring or for compute units, or its emulation
 * waited for a busy host's CPUs: it is not hung and gets another period.
 */
static bool job_hung(struct tempo_device *tdev, struct tempo_job *job)
{
	u64 limit = (u64)tdev->job_timeout_ms * NSEC_PER_MSEC;
	u32 i;

	if (!job->gang)
		return tempo_hw_job_run_ns(&job->hw) >= limit;
	for (i = 0; i < job->gang->hw.width; i++)
		if (tempo_hw_job_run_ns(&job->gang->hw.members[i]) >= limit)
			return true;
	return false;
}

/*
 * Ask the hardware to end a job with @error and wait until its fence
 * signals; no effect on a job the hardware already ended.
 */
static void job_end(struct tempo_device *tdev, struct tempo_job *job,
		    int error)
{
	struct dma_fence *fence = &job->hw.fence->base;

	if (job->gang)
		tempo_hw_gang_abort(&job->gang->hw, error);
	else
		tempo_hw_hqd_abort(job->hw.hqd, &job->hw, error);
	if (!dma_fence_wait_timeout(fence, false,
				    msecs_to_jiffies(TEMPO_ABORT_WAIT_MS)))
		drm_warn_once(&tdev->drm, "hardware did not end a job\n");
}

/*
 * drm_sched_stop() dropped the hardware fences of the jobs it did not
 * free, and drm_sched_start() cancels a job without one: give back those
 * of the jobs the hardware still holds (or just ended), so that they
 * carry on. Every pending job went through run_job: those that got no
 * fence ended at once and were freed by drm_sched_stop().
 */
static void restore_hw_fences(struct drm_gpu_scheduler *sched)
{
	struct drm_sched_job *sched_job;

	drm_sched_for_each_pending_job(sched_job, sched, NULL) {
		struct tempo_job *job = to_tempo_job(sched_job);

		if (!WARN_ON(!job->submitted) && !sched_job->s_fence->parent)
			sched_job->s_fence->parent =
				dma_fence_get(&job->hw.fence->base);
	}
}

/*
 * drm_sched takes the job off its pending list before calling this; a
 * job that is not hung goes back with NO_HANG, or through
 * drm_sched_stop() on kernels without it (TEMPO_COMPAT_NO_HANG_MISSING),
 * which also serves a device being removed (tempo_hw_stop() ends its
 * jobs): a job is never left off the list, where nothing would free it.
 */
static enum drm_gpu_sched_stat tempo_timedout_job(struct drm_sched_job *sched_job)
{
	struct drm_gpu_scheduler *sched = sched_job->sched;
	struct tempo_device *tdev = to_tempo_queue(sched)->tdev;
	struct tempo_job *job = to_tempo_job(sched_job);
	bool present, hung;
	int idx;

	present = drm_dev_enter(&tdev->drm, &idx);
	hung = present && job->submitted && job_hung(tdev, job);
#ifndef TEMPO_COMPAT_NO_HANG_MISSING
	if (!hung) {
		if (present)
			drm_dev_exit(idx);
		return DRM_GPU_SCHED_STAT_NO_HANG;
	}
#endif
	mutex_lock(&to_tempo_queue(sched)->stop_lock);
	drm_sched_stop(sched, sched_job);
	if (hung)
		job_end(tdev, job, -ETIMEDOUT);
	restore_hw_fences(sched);
	drm_sched_start(sched, 0);
	mutex_unlock(&to_tempo_queue(sched)->stop_lock);
	if (present)
		drm_dev_exit(idx);
	return DRM_GPU_SCHED_STAT_RESET;
}

#ifndef TEMPO_COMPAT_NO_CANCEL_JOB
/*
 * From drm_sched_fini(), for every job still pending: the hardware was
 * stopped before (tempo_device_fini()) and ended them all, so this only
 * makes sure of it.
 */
static void tempo_cancel_job(struct drm_sched_job *sched_job)
{
	struct tempo_job *job = to_tempo_job(sched_job);

	if (job->submitted)
		job_end(to_tempo_queue(sched_job->sched)->tdev, job,
			-ECANCELED);
}
#endif

/*
 * Place a gang: batch i on one engine of its column, all on distinct
 * engines. Columns are tried from a random sibling on, engines whose gang
 * HQD is idle first, so every valid placement can come up. Does not
 * allocate: run_job may not.
 */
static bool place_column(struct tempo_gang_job *g, u32 col, bool high,
			 bool idle_only, struct tempo_hw_hqd **hqds)
{
	u32 n = g->num_siblings, start = get_random_u32_below(n), k, i;

	if (col == g->hw.width)
		return true;
	for (k = 0; k < n; k++) {
		struct tempo_engine_desc *e = g->siblings[col * n + (start + k) % n];
		struct tempo_hw_hqd *hqd = e->gang_hqd[high];
		bool used = false;

		for (i = 0; i < col; i++)
			used |= hqds[i] == hqd;
		if (used || (idle_only && !tempo_hw_hqd_idle(hqd)))
			continue;
		hqds[col] = hqd;
		if (place_column(g, col + 1, high, idle_only, hqds))
			return true;
	}
	return false;
}

static struct dma_fence *tempo_run_gang(struct drm_sched_job *sched_job)
{
	struct tempo_job *job = to_tempo_job(sched_job);
	struct tempo_device *tdev = to_tempo_queue(sched_job->sched)->tdev;
	struct tempo_hw_hqd *hqds[TEMPO_HW_MAX_WIDTH];
	struct dma_fence *fence;
	u32 i;
	int idx;

	tempo_job_dequeued(job);
	if (unlikely(sched_job->s_fence->finished.error)) {
		tempo_job_cancel_gang(job, sched_job->s_fence->finished.error);
		return NULL;
	}
	/* Validated at context creation: a placement exists. */
	if (!place_column(job->gang, 0, job->prio.high, true, hqds) &&
	    WARN_ON(!place_column(job->gang, 0, job->prio.high, false, hqds))) {
		tempo_job_cancel_gang(job, -EINVAL);
		return ERR_PTR(-EINVAL);
	}
	if (!drm_dev_enter(&tdev->drm, &idx)) {
		tempo_job_cancel_gang(job, -ENODEV);
		return ERR_PTR(-ENODEV);
	}
	for (i = 0; i < job->gang->hw.width; i++)
		if (tdev->hqd_policy == TEMPO_HQD_DYNAMIC)
			program_hqd(hqds[i], &job->prio);
	job->submitted = true;
	tempo_job_running(job);
	job_watch_end(job);
	fence = tempo_hw_gang_submit(&job->gang->hw, hqds);
	trace_run(sched_job, hqds[0], job->gang->hw.width);
	drm_dev_exit(idx);
	return fence;
}

static void tempo_free_job(struct drm_sched_job *sched_job)
{
	struct tempo_job *job = to_tempo_job(sched_job);

	/* Its hardware fence signalled first, but for a job never run. */
	ring_leave(to_tempo_queue(sched_job->sched), job);
	/*
	 * drm_sched counts a job in its scheduler's score when it is pushed
	 * and out when it ends, but not one freed without running (its
	 * entity was killed with it queued): the HQD would look loaded for
	 * good, and drm_sched would place new contexts on the others, where
	 * they share rings.
	 */
	if (!job->dequeued)
		atomic_dec_if_positive(sched_job->sched->score);
	tempo_job_put(job);
}

static const struct drm_sched_backend_ops tempo_sched_ops = {
	.run_job = tempo_run_job,
	.timedout_job = tempo_timedout_job,
	.free_job = tempo_free_job,
#ifndef TEMPO_COMPAT_NO_CANCEL_JOB
	.cancel_job = tempo_cancel_job,
#endif
};

static const struct drm_sched_backend_ops tempo_gang_ops = {
	.run_job = tempo_run_gang,
	.timedout_job = tempo_timedout_job,
	.free_job = tempo_free_job,
#ifndef TEMPO_COMPAT_NO_CANCEL_JOB
	.cancel_job = tempo_cancel_job,
#endif
};

static void place(struct tempo_engine_desc *e, bool high, u32 q)
{
	e->placed[high][e->num_placed[high]++] = e->scheds[q];
}

/*
 * Which HQDs each kind of context uses, and how the MQDs are programmed at
 * init. Static policy: the last HQD of an engine with several is the
 * high-priority one.
 */
/* Program an HQD's MQD at init: high-priority, or normal. */
static void hqd_init_priority(struct tempo_hw_hqd *hqd, bool high)
{
	if (high)
		tempo_hw_hqd_set_priority(hqd, TEMPO_HW_PIPE_PRIO_MAX,
					  TEMPO_HW_QUEUE_PRIO_MAX);
	else
		tempo_hw_hqd_set_priority(hqd, TEMPO_HW_PIPE_PRIO_NORMAL,
					  TEMPO_HW_QUEUE_PRIO_NORMAL);
}

static void engine_place(struct tempo_device *tdev, struct tempo_engine_desc *e)
{
	u32 q, last = e->num_queues - 1;

	for (q = 0; q < TEMPO_GANG_HQDS; q++)
		if (e->gang_hqd[q])
			hqd_init_priority(e->gang_hqd[q], q);
	for (q = 0; q < e->num_queues; q++) {
		struct tempo_queue *queue = &tdev->queues[e->first_queue + q];
		bool high = tdev->hqd_policy == TEMPO_HQD_STATIC && last && q == last;
		struct tempo_hw_hqd_info info;

		hqd_init_priority(queue->hqd, high);
		tempo_hw_hqd_info(queue->hqd, &info);
		queue->init_pipe = info.pipe_priority;
		queue->init_queue = info.queue_priority;
		if (tdev->hqd_policy == TEMPO_HQD_DYNAMIC || !last) {
			place(e, false, q);
			place(e, true, q);
		} else {
			place(e, high, q);
		}
	}
}

static void engines_init(struct tempo_device *tdev)
{
	struct tempo_hw_hqd_info info;
	u32 q;

	for (q = 0; q < tdev->num_queues; q++) {
		struct tempo_engine_desc *e;

		tempo_hw_hqd_info(tdev->queues[q].hqd, &info);
		e = &tdev->engines[info.engine];
		if (!e->num_queues)
			e->first_queue = q;
		e->engine_class = info.engine_class;
		e->engine_instance = info.engine_instance;
		e->scheds[e->num_queues++] = &tdev->queues[q].sched;
	}
	for (q = 0; q < tdev->num_engines; q++)
		engine_place(tdev, &tdev->engines[q]);
}

static void queue_ring_init(struct tempo_queue *queue)
{
	spin_lock_init(&queue->ring_lock);
	INIT_LIST_HEAD(&queue->ring);
	mutex_init(&queue->stop_lock);
	INIT_DELAYED_WORK(&queue->loan_work, loans_expire);
}

static int queue_sched_init(struct tempo_device *tdev,
			    struct drm_gpu_scheduler *sched,
			    const struct drm_sched_backend_ops *ops,
			    const char *name)
{
	const struct drm_sched_init_args args = {
		.ops = ops,
		.num_rqs = DRM_SCHED_PRIORITY_COUNT,
		.credit_limit = tempo_params.hw_submission,
		.timeout = msecs_to_jiffies(tdev->job_timeout_ms),
		.name = name,
		.dev = tdev->drm.dev,
	};

	return drm_sched_init(sched, &args);
}

static int queue_init(struct tempo_device *tdev, struct tempo_queue *queue)
{
	struct tempo_hw_hqd_info info;
	char *name;

	queue_ring_init(queue);
	tempo_hw_hqd_info(queue->hqd, &info);
	queue->engine_class = info.engine_class;
	queue->engine_instance = info.engine_instance;
	queue->engine = info.engine;
	queue->index = info.queue;
	name = devm_kasprintf(tdev->drm.dev, GFP_KERNEL, "tempo-%s%u.%u",
			      tempo_class_name(info.engine_class),
			      info.engine_instance, info.queue);
	if (!name)
		return -ENOMEM;
	return queue_sched_init(tdev, &queue->sched, &tempo_sched_ops, name);
}

/**
 * tempo_class_queues() - HQDs of an engine that contexts submit to
 * @engine_class: &enum drm_tempo_engine_class
 *
 * Engines of a class with parallel slots have %TEMPO_GANG_HQDS more, for
 * gangs.
 *
 * Context: any.
 * Return: the count, from the module parameters.
 */
u32 tempo_class_queues(u32 engine_class)
{
	if (engine_class == DRM_TEMPO_ENGINE_CLASS_COMPUTE)
		return tempo_params.compute_queues;
	return tempo_params.queues;
}

/* Sort the hardware's HQDs: schedulers for most, the gang HQD apart. */
static int hqds_split(struct tempo_device *tdev)
{
	u32 q, n = tempo_hw_num_hqds(tdev->hw);
	struct tempo_hw_hqd_info info;

	tdev->num_engines = tempo_hw_num_engines(tdev->hw);
	tdev->engines = drmm_kcalloc(&tdev->drm, tdev->num_engines,
				     sizeof(*tdev->engines), GFP_KERNEL);
	tdev->queues = drmm_kcalloc(&tdev->drm, n, sizeof(*tdev->queues),
				    GFP_KERNEL);
	if (!tdev->engines || !tdev->queues)
		return -ENOMEM;
	for (q = 0; q < n; q++) {
		struct tempo_hw_hqd *hqd = tempo_hw_hqd(tdev->hw, q);

		tempo_hw_hqd_info(hqd, &info);
		if (info.queue >= tempo_class_queues(info.engine_class)) {
			tdev->engines[info.engine].gang_hqd[info.queue -
				tempo_class_queues(info.engine_class)] = hqd;
			continue;
		}
		tdev->queues[tdev->num_queues].tdev = tdev;
		tdev->queues[tdev->num_queues++].hqd = hqd;
	}
	return 0;
}

static int gang_queue_init(struct tempo_device *tdev, bool high)
{
	struct tempo_queue *gang = &tdev->gang[high];
	int ret;

	tdev->gang_scheds[high][0] = &gang->sched;
	queue_ring_init(gang);
	ret = queue_sched_init(tdev, &gang->sched, &tempo_gang_ops,
			       high ? "tempo-gang-high" : "tempo-gang");
	if (!ret)
		gang->tdev = tdev;
	return ret;
}

/* What the hardware can do, for the device query. */
static void caps_init(struct tempo_device *tdev)
{
	BUILD_BUG_ON(TEMPO_PIPE_PRIO_HIGH != TEMPO_HW_PIPE_PRIO_MAX);
	BUILD_BUG_ON(TEMPO_PIPE_PRIO_NORMAL != TEMPO_HW_PIPE_PRIO_NORMAL);
	BUILD_BUG_ON(TEMPO_QUEUE_PRIO_MAX != TEMPO_HW_QUEUE_PRIO_MAX);
	BUILD_BUG_ON(TEMPO_QUEUE_PRIO_NORMAL != TEMPO_HW_QUEUE_PRIO_NORMAL);
	tdev->caps.timestamp_frequency = tempo_hw_timestamp_frequency();
	tdev->caps.max_packet_dw = TEMPO_HW_MAX_PACKET_DW;
	tdev->caps.max_batch_depth = TEMPO_HW_MAX_BATCH_DEPTH;
	tdev->caps.max_groups = TEMPO_HW_MAX_GROUPS;
}

/**
 * tempo_sched_init() - one scheduler per hardware queue, two for gangs
 * @tdev: the device, its hardware created
 *
 * Context: process; may sleep.
 * Return: 0 or a negative errno.
 */
int tempo_sched_init(struct tempo_device *tdev)
{
	u32 q;
	int ret;

	caps_init(tdev);
	ret = hqds_split(tdev);
	if (ret)
		return ret;
	for (q = 0; q < tdev->num_queues; q++) {
		ret = queue_init(tdev, &tdev->queues[q]);
		if (ret)
			goto err_fini;
	}
	ret = gang_queue_init(tdev, false);
	if (ret)
		goto err_fini;
	ret = gang_queue_init(tdev, true);
	if (ret)
		goto err_gang;
	engines_init(tdev);
	return 0;

err_gang:
	drm_sched_fini(&tdev->gang[0].sched);
	tdev->gang[0].tdev = NULL;
err_fini:
	while (q--)
		drm_sched_fini(&tdev->queues[q].sched);
	tdev->num_queues = 0;
	return ret;
}

#ifdef TEMPO_COMPAT_NO_CANCEL_JOB
/*
 * Wait until the scheduler has freed every job the hardware ended: without
 * cancel_job, drm_sched_fini() would leave them.
 */
static void queue_wait_idle(struct tempo_device *tdev, struct tempo_queue *q)
{
	unsigned long timeout = jiffies + msecs_to_jiffies(TEMPO_ABORT_WAIT_MS);
	struct drm_gpu_scheduler *sched = &q->sched;
	bool idle;

	for (;;) {
		spin_lock(&sched->job_list_lock);
		idle = list_empty(&sched->pending_list);
		spin_unlock(&sched->job_list_lock);
		if (idle)
			return;
		if (time_after(jiffies, timeout))
			break;
		usleep_range(1000, 2000);
	}
	drm_warn(&tdev->drm, "%s: jobs left at teardown\n", sched->name);
}
#endif

static void queue_fini(struct tempo_device *tdev, struct tempo_queue *q)
{
#ifdef TEMPO_COMPAT_NO_CANCEL_JOB
	queue_wait_idle(tdev, q);
#endif
	drm_sched_fini(&q->sched);
	/* No job is written into the ring any more, nor lent a priority. */
	cancel_delayed_work_sync(&q->loan_work);
	mutex_destroy(&q->stop_lock);
}

/**
 * tempo_sched_fini() - stop every scheduler
 * @tdev: the device; no file is open any more and the hardware is stopped,
 *	so every job that reached it has ended
 *
 * Context: process; may sleep.
 */
void tempo_sched_fini(struct tempo_device *tdev)
{
	u32 q;

	for (q = 0; q < tdev->num_queues; q++)
		queue_fini(tdev, &tdev->queues[q]);
	for (q = 0; q < TEMPO_GANG_HQDS; q++)
		if (tdev->gang[q].tdev)
			queue_fini(tdev, &tdev->gang[q]);
}

/**
 * tempo_engine_load() - jobs on an engine's hardware queues
 * @tdev: the device
 * @e: the engine
 *
 * Context: any; takes the engine's lock.
 * Return: the jobs queued or running on its HQDs, gang HQDs included.
 */
u32 tempo_engine_load(struct tempo_device *tdev,
		      const struct tempo_engine_desc *e)
{
	u32 q, load = 0;

	for (q = 0; q < e->num_queues; q++)
		load += tempo_hw_hqd_pending(tdev->queues[e->first_queue + q].hqd);
	for (q = 0; q < TEMPO_GANG_HQDS; q++)
		if (e->gang_hqd[q])
			load += tempo_hw_hqd_pending(e->gang_hqd[q]);
	return load;
}

/**
 * tempo_queue_priority() - how an HQD is programmed now
 * @queue: the scheduler of the HQD
 * @pipe: out: its pipe priority
 * @queue_priority: out: its queue priority
 *
 * Context: any; takes the engine's lock.
 */
void tempo_queue_priority(const struct tempo_queue *queue, u8 *pipe,
			  u8 *queue_priority)
{
	struct tempo_hw_hqd_info info;

	tempo_hw_hqd_info(queue->hqd, &info);
	*pipe = info.pipe_priority;
	*queue_priority = info.queue_priority;
}

static void show_hqd(struct seq_file *m, struct tempo_hw_hqd *hqd)
{
	struct tempo_hw_hqd_state st;
	struct tempo_hw_hqd_info info;
	char name[16];

	tempo_hw_hqd_info(hqd, &info);
	tempo_hw_hqd_state(hqd, &st);
	snprintf(name, sizeof(name), "%s%u", tempo_class_name(info.engine_class),
		 info.engine_instance);
	seq_printf(m, "%-10s %5u %9u %10u %6u %7u %9u %4u %4u %4llu %11llu %llu\n",
		   name, info.queue, info.pipe_priority, info.queue_priority,
		   st.active, st.running, st.preempted, st.rptr, st.wptr,
		   st.jobs_done, st.preemptions, st.busy_ns);
}

/**
 * tempo_sched_show_hqds() - print every HQD of the device, gangs' included
 * @tdev: the device
 * @m: where
 *
 * Context: process.
 */
void tempo_sched_show_hqds(struct tempo_device *tdev, struct seq_file *m)
{
	u32 i, n = tempo_hw_num_hqds(tdev->hw);

	seq_puts(m, "engine     queue pipe_prio queue_prio active running preempted rptr wptr done preemptions busy_ns\n");
	for (i = 0; i < n; i++)
		show_hqd(m, tempo_hw_hqd(tdev->hw, i));
}

/**
 * tempo_sched_show_cus() - print the compute-unit pool's occupancy
 * @tdev: the device
 * @m: where
 *
 * Context: process.
 */
void tempo_sched_show_cus(struct tempo_device *tdev, struct seq_file *m)
{
	struct tempo_hw_cu_state st;

	tempo_hw_cu_state(tdev->hw, &st);
	seq_printf(m, "cus: %u\nbusy: %u\nbusy_below_high: %u\nreserved_for_high: %u\nhigh_queues_with_work: %u\nsequencer: %s\nworkgroups_done: %llu\n",
		   st.num_cus, st.busy, st.busy_low, st.reserved,
		   st.high_queues, st.by_priority ? "priority" : "random",
		   st.groups_done);
}
