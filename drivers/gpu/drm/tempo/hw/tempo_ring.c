// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The tempo authors
 */

/**
 * DOC: Submission and completion
 *
 * Software reaches an HQD through its ring. Submitting a job
 * (tempo_hw_hqd_submit()) writes its descriptor at the write pointer
 * under the engine's lock, initialises its fence and rings the engine's
 * doorbell; kicking the engine (tempo_hw_hqd_kick(), beside the command
 * processor it starts) wakes its thread or runs it in place. The members
 * of a gang are written into their rings under one lock of the device,
 * so that every HQD sees gangs in the same order
 * (tempo_hw_gang_submit()).
 *
 * Aborting a job (tempo_hw_hqd_abort()) notes it in its HQD, which
 * arbitration then runs first; the command processor stops the job at
 * its next check (tempo_ring_abort_pending()). At a job's END, or when it
 * fails or is stopped, the command processor retires it
 * (tempo_ring_retire()): the read pointer advances, and the job's fence
 * signals, or a gang's once its last member has ended (see "Hardware
 * fences").
 */

#include <linux/atomic.h>
#include <linux/dma-fence.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/wait.h>

#include "tempo_hw_priv.h"

/* Write a job descriptor at the write pointer; the engine lock is held. */
static void ring_write(struct tempo_hw_hqd *hqd, struct tempo_hw_job *job)
{
	struct tempo_mqd *mqd = &hqd->mqd;

	lockdep_assert_held(&hqd->engine->lock);
	job->seqno = ++hqd->seqno;
	job->run_ns = 0;
	WRITE_ONCE(job->hqd, hqd);	/* read by tempo_hw_job_run_ns() */
	job->cpu_ns = 0;
	memset(&job->times, 0, sizeof(job->times));
	job->times.queued = ktime_get_ns();
	tempo_hqd_queued(hqd, job);
	WARN_ON(mqd->wptr - mqd->rptr >= mqd->ring_size);
	mqd->ring[mqd->wptr & (mqd->ring_size - 1)] = job;
	if (mqd->wptr == mqd->rptr)
		tempo_hqd_high_busy(hqd, true);
	mqd->wptr++;
	hqd->engine->doorbell = true;
}

/**
 * tempo_hw_hqd_submit() - write a job into an HQD ring and ring the doorbell
 * @hqd: the queue
 * @job: the job; its fence allocated as &struct tempo_hw_fence says
 *
 * The caller guarantees a free ring entry (the scheduler's credit limit is
 * the ring size). Does not allocate. The command processor starts the job
 * once the caller kicks it (tempo_hw_hqd_kick()).
 *
 * The fence starts with one reference, the caller's job's, dropped with
 * dma_fence_put() when the job is freed; the ring holds another until
 * the job retires.
 *
 * Context: any; takes the engine's lock.
 * Return: a new reference to the job's fence.
 */
struct dma_fence *tempo_hw_hqd_submit(struct tempo_hw_hqd *hqd,
				      struct tempo_hw_job *job)
{
	struct tempo_engine *engine = hqd->engine;
	struct tempo_hw_fence *fence = job->fence;
	unsigned long flags;

	spin_lock_init(&fence->lock);
	spin_lock_irqsave(&engine->lock, flags);
	ring_write(hqd, job);
	tempo_fence_init(fence, hqd->fence_context, job->seqno);
	dma_fence_get(&fence->base); /* the ring's reference */
	spin_unlock_irqrestore(&engine->lock, flags);
	return dma_fence_get(&fence->base);
}

/**
 * tempo_hw_gang_submit() - write a gang's members into HQD rings
 * @gang: the gang; its fence initialised with tempo_hw_fence_init()
 * @hqds: the HQD of each member, on distinct engines
 *
 * The members are written under one lock, so every HQD sees gangs in the
 * same order and gangs sharing engines cannot wait on each other in a
 * cycle. The caller guarantees a free entry in each ring. Does not
 * allocate.
 *
 * Context: any.
 * Return: a new reference to the gang's fence.
 */
struct dma_fence *tempo_hw_gang_submit(struct tempo_hw_gang *gang,
				       struct tempo_hw_hqd **hqds)
{
	struct tempo_hw *hw = hqds[0]->engine->hw;
	struct tempo_hw_fence *fence = gang->fence;
	unsigned long flags;
	u32 i;

	spin_lock_init(&gang->lock);
	gang->present = 0;
	gang->ended = 0;
	gang->preempt = false;
	atomic_set(&gang->pending, gang->width);
	atomic_set(&gang->error, 0);
	spin_lock_irqsave(&hw->gang_lock, flags);
	for (i = 0; i < gang->width; i++) {
		struct tempo_engine *engine = hqds[i]->engine;

		dma_fence_get(&fence->base); /* each ring's reference */
		gang->members[i].gang = gang;
		gang->members[i].gang_present = false;
		spin_lock(&engine->lock);
		ring_write(hqds[i], &gang->members[i]);
		spin_unlock(&engine->lock);
	}
	spin_unlock_irqrestore(&hw->gang_lock, flags);
	for (i = 0; i < gang->width; i++)
		wake_up(&hqds[i]->engine->wq);
	return dma_fence_get(&fence->base);
}

/**
 * tempo_hw_gang_abort() - ask the hardware to stop every member of a gang
 * @gang: the gang
 * @error: the error its fence will carry
 *
 * Context: any.
 */
void tempo_hw_gang_abort(struct tempo_hw_gang *gang, int error)
{
	u32 i;

	for (i = 0; i < gang->width; i++)
		tempo_hw_hqd_abort(gang->members[i].hqd, &gang->members[i],
				   error);
}

/**
 * tempo_hw_hqd_pending() - jobs in an HQD's ring
 * @hqd: the queue
 *
 * Context: any; takes the engine's lock.
 * Return: the jobs queued or running on it.
 */
u32 tempo_hw_hqd_pending(struct tempo_hw_hqd *hqd)
{
	unsigned long flags;
	u32 n;

	spin_lock_irqsave(&hqd->engine->lock, flags);
	n = hqd->mqd.wptr - hqd->mqd.rptr;
	spin_unlock_irqrestore(&hqd->engine->lock, flags);
	return n;
}

/**
 * tempo_hw_hqd_idle() - whether an HQD's ring is empty
 * @hqd: the queue
 *
 * Context: any; takes the engine's lock.
 * Return: true when no job is queued or running on it.
 */
bool tempo_hw_hqd_idle(struct tempo_hw_hqd *hqd)
{
	return !tempo_hw_hqd_pending(hqd);
}

/* A member ended: the gang's fence signals when the last one does. */
static void gang_member_end(struct tempo_hw_gang *gang, int error)
{
	struct dma_fence *fence = &gang->fence->base;

	if (error)
		atomic_cmpxchg(&gang->error, 0, error);
	if (atomic_dec_and_test(&gang->pending))
		tempo_fence_end(gang->fence, atomic_read(&gang->error));
	dma_fence_put(fence);
}

/**
 * tempo_ring_retire() - end the job at the read pointer
 * @hqd: its queue
 * @job: the job
 * @error: 0, or the error its fence carries
 *
 * Context: the engine's command processor.
 */
void tempo_ring_retire(struct tempo_hw_hqd *hqd, struct tempo_hw_job *job,
		       int error)
{
	struct tempo_engine *engine = hqd->engine;
	struct dma_fence *fence;

	spin_lock_irq(&engine->lock);
	hqd->mqd.rptr++;
	if (hqd->mqd.rptr == hqd->mqd.wptr)
		tempo_hqd_high_busy(hqd, false);
	hqd->jobs_done++;
	hqd->retired_seqno = job->seqno;
	if (hqd->abort_seqno == job->seqno)
		hqd->abort_seqno = 0;
	spin_unlock_irq(&engine->lock);

	if (job->gang) {
		gang_member_end(job->gang, error);
		return;
	}
	/* The scheduler may free @job as soon as its fence signals. */
	fence = &job->fence->base;
	tempo_fence_end(job->fence, error);
	dma_fence_put(fence);
}

/**
 * tempo_hw_hqd_abort() - ask the hardware to stop a job
 * @hqd: the queue the job was submitted to
 * @job: the job
 * @error: the error its fence will carry
 *
 * The command processor stops the job at the next packet boundary (or
 * within one polling period of a WAIT_MEM or one quantum of a workgroup)
 * and retires it with @error; a job that has not started yet fails as soon
 * as it would start. Has no effect on a job already retired.
 *
 * Context: any; takes the engine's lock.
 */
void tempo_hw_hqd_abort(struct tempo_hw_hqd *hqd, struct tempo_hw_job *job,
			int error)
{
	struct tempo_engine *engine = hqd->engine;
	unsigned long flags;

	spin_lock_irqsave(&engine->lock, flags);
	if (job->seqno > hqd->retired_seqno) {
		hqd->abort_seqno = job->seqno;
		hqd->abort_error = error;
		engine->doorbell = true;
	}
	spin_unlock_irqrestore(&engine->lock, flags);
	wake_up(&engine->wq);
}

/**
 * tempo_ring_abort_pending() - whether software asked to abort a job
 * @hqd: its queue
 * @job: the job running now
 *
 * Context: the engine's command processor.
 * Return: 0, or the error to stop @job with.
 */
int tempo_ring_abort_pending(struct tempo_hw_hqd *hqd,
			     const struct tempo_hw_job *job)
{
	if (READ_ONCE(hqd->abort_seqno) != job->seqno)
		return 0;
	return READ_ONCE(hqd->abort_error);
}
