// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The tempo authors
 */

/**
 * DOC: Command processor
 *
 * Each engine has one command processor: a kernel thread that sleeps until
 * its doorbell rings, arbitrates among the engine's hardware queues (see
 * "Hardware queues"), and runs the job at the chosen queue's read pointer
 * packet by packet. Its state is a stack of batch program counters: the
 * first-level batch at the bottom, one entry per BATCH_START call above it.
 *
 * The state of a job lives in its queue's context save area (&struct
 * tempo_cp_state), not in the command processor, so a queue can be
 * preempted and resumed exactly where it stopped.
 *
 * Between two packets, at every polling period of a WAIT_MEM and at every
 * wake-up while a DISPATCH runs, the command processor checks whether
 * software asked it to abort the job (the scheduler's timeout) and whether
 * another queue must run first (see "Hardware queues"). Preemption points:
 *
 * - between packets: the next packet is fetched on resume;
 * - during a WAIT_MEM: the packet is fetched again and the wait starts over
 *   on resume (waiting has no side effect);
 * - during a DISPATCH: the dispatch is suspended on the compute units
 *   (no workgroup starts, running workgroups stop at their next check and
 *   save their progress) and resumed with the queue.
 *
 * A gang member runs no packet unless every member of its gang not ended
 * holds its engine. When one member is preempted it marks the gang, and
 * the others stop at their next preemption point; none runs again before
 * all have stopped, so a gang is preempted and resumed as one unit.
 *
 * A DISPATCH completes, all its workgroups, before the next packet of its
 * queue. At END of the first-level batch the job's fence is signalled and
 * the read pointer advances.
 *
 * Run in place: a submitter that finds the command processor idle may run
 * it itself, in its own context, rather than wake the thread (see
 * tempo_hw_hqd_kick()). It arbitrates and runs packets exactly as the
 * thread does, for a bounded time, and does not wait for work: where the
 * thread would wait (a WAIT_MEM polling, a DISPATCH whose workgroups still run, a
 * gang's barrier) or when its time is up, it saves the queue's state as a
 * preemption does and hands the engine over to the thread, which resumes
 * the job where it stopped.
 */

#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/nospec.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/timekeeping.h>

#include <drm/tempo_drm.h>

#include "tempo_hw_priv.h"
#include "tempo_hw_trace.h"

/*
 * Polling period of WAIT_MEM, in microseconds: the first, doubled at each
 * poll that finds the value not there yet, up to the last.
 */
#define TEMPO_CP_POLL_US	50
#define TEMPO_CP_POLL_MAX_US	800

/*
 * Longest sleep of a command processor with a job in progress (a DISPATCH
 * or a gang waiting): it then looks at the watchdog and the job's
 * accounting again.
 */
#define TEMPO_CP_WATCH_NS	(4 * NSEC_PER_MSEC)
/*
 * Shortest sleep before a yield on time: the engine's clock may run slower
 * than the host's, and the command processor then wakes more than once.
 */
#define TEMPO_CP_MIN_SLEEP_NS	(20 * NSEC_PER_USEC)

/* Bytes a COPY or FILL moves between two checks for preemption and abort. */
#define TEMPO_CP_CHUNK		SZ_64K

/* The queue was preempted; its state is saved. */
#define TEMPO_CP_PREEMPTED	1
/* The DISPATCH in progress goes on. */
#define TEMPO_CP_DISPATCHING	2
/* Run in place: the queue's state is saved for the thread to go on. */
#define TEMPO_CP_HANDOVER	3
/* Longest a submitter runs the command processor in place. */
#define TEMPO_CP_IN_PLACE_NS	NSEC_PER_MSEC

/* What one turn of the command processor found. */
enum tempo_cp_turn {
	TEMPO_CP_IDLE,		/* no queue had work */
	TEMPO_CP_RAN,		/* a queue ran: its job ended or was preempted */
	TEMPO_CP_HANDED_OVER,	/* run in place: the thread goes on */
};

/**
 * struct tempo_cp_exec - what the command processor runs now
 * @engine: the engine
 * @hqd: the queue
 * @st: the queue's context save area
 * @slice_end: the queue may not be preempted before this time
 * @in_place_end: 0 for the thread; run in place, when to hand over
 */
struct tempo_cp_exec {
	struct tempo_engine *engine;
	struct tempo_hw_hqd *hqd;
	struct tempo_cp_state *st;
	u64 slice_end;
	u64 in_place_end;
};

/* The queue runs a starvation slice: only such a slice has an end. */
static bool cp_starved(const struct tempo_cp_exec *x)
{
	return x->slice_end != 0;
}

static struct tempo_hw_mmu *cp_mmu(struct tempo_cp_exec *x)
{
	return x->st->job->mmu;
}

/* Stop the job? Device teardown, an abort from software, the watchdog. */
static int cp_interrupted(struct tempo_cp_exec *x)
{
	int ret;

	if (READ_ONCE(x->engine->stopping))
		return -ECANCELED;
	ret = tempo_ring_abort_pending(x->hqd, x->st->job);
	if (!ret && tempo_hqd_hung(x->hqd, x->st->job))
		ret = -ETIMEDOUT;
	return ret;
}

static void gang_wake(struct tempo_hw_gang *gang)
{
	u32 i;

	for (i = 0; i < gang->width; i++)
		wake_up(&gang->members[i].hqd->engine->wq);
}

/* Every member stops at its next preemption point. */
static void gang_preempt(struct tempo_hw_gang *gang)
{
	bool wake;

	spin_lock(&gang->lock);
	wake = !gang->preempt;
	gang->preempt = true;
	spin_unlock(&gang->lock);
	if (wake)
		gang_wake(gang);
}

/*
 * A member gives its engine back (preempted, or ended when @ended). The
 * last member of a preempted gang to stop lets them all run again.
 */
static void gang_leave(struct tempo_hw_job *job, bool ended)
{
	struct tempo_hw_gang *gang = job->gang;
	bool wake = false;

	spin_lock(&gang->lock);
	if (job->gang_present) {
		job->gang_present = false;
		gang->present--;
	}
	if (ended)
		gang->ended++;
	if (!gang->present && gang->preempt) {
		gang->preempt = false;
		wake = true;
	}
	spin_unlock(&gang->lock);
	if (wake)
		gang_wake(gang);
}

/* Whether the queue must give its engine back now. */
static bool cp_yield(struct tempo_cp_exec *x)
{
	struct tempo_hw_gang *gang = x->st->job->gang;
	bool yield;

	if (gang && READ_ONCE(gang->preempt))
		return true;
	yield = tempo_hqd_should_yield(x->engine, x->hqd, x->slice_end);
	if (yield && gang)
		gang_preempt(gang);
	return yield;
}

static int cp_fetch(struct tempo_cp_exec *x, struct tempo_packet *pkt)
{
	struct tempo_hw_mmu *mmu = cp_mmu(x);
	u64 pc = x->st->pc[x->st->depth];
	int ret;

	pkt->va = pc;
	ret = tempo_mem_read(mmu, pc, &pkt->dw[0], sizeof(u32));
	if (ret)
		return ret;
	ret = tempo_isa_check_header(pkt->dw[0], &pkt->op, &pkt->len);
	if (ret)
		return ret;
	ret = tempo_mem_read(mmu, pc + 4, &pkt->dw[1], (pkt->len - 1) * 4);
	if (ret)
		return ret;
	ret = tempo_isa_check_packet(pkt, x->engine->engine_class);
	if (ret)
		return ret;
	x->st->pc[x->st->depth] = pc + pkt->len * 4;
	return 0;
}

static int cp_write_data(struct tempo_cp_exec *x, const struct tempo_packet *p)
{
	u64 va = tempo_isa_qword(p, DRM_TEMPO_WRITE_DATA_VA);

	if (va & 3)
		return -EILSEQ;
	return tempo_mem_write(cp_mmu(x), va, &p->dw[DRM_TEMPO_WRITE_DATA_DATA],
			       (p->len - DRM_TEMPO_WRITE_DATA_DATA) * 4);
}

static int cp_write_timestamp(struct tempo_cp_exec *x,
			      const struct tempo_packet *p)
{
	u64 va = tempo_isa_qword(p, DRM_TEMPO_WRITE_TIMESTAMP_VA);
	u64 now = ktime_get_ns();

	if (va & 7)
		return -EILSEQ;
	return tempo_mem_write(cp_mmu(x), va, &now, sizeof(now));
}

static int cp_write_engine_id(struct tempo_cp_exec *x,
			      const struct tempo_packet *p)
{
	u64 va = tempo_isa_qword(p, DRM_TEMPO_WRITE_ENGINE_ID_VA);
	u32 id = x->engine->engine_class << 16 | x->engine->instance;

	if (va & 3)
		return -EILSEQ;
	return tempo_mem_write(cp_mmu(x), va, &id, sizeof(id));
}

static int cp_write_job_times(struct tempo_cp_exec *x,
			      const struct tempo_packet *p)
{
	u64 va = tempo_isa_qword(p, DRM_TEMPO_WRITE_JOB_TIMES_VA);
	const struct tempo_hw_job *job = x->st->job;
	struct drm_tempo_job_times times = {
		.queued = job->times.queued,
		.started = job->times.started,
		.engine_wait_ns = job->times.engine_wait_ns,
		.cu_wait_ns = job->times.cu_wait_ns,
	};

	/* Aligned to its size, it never crosses a page. */
	if (va & (sizeof(times) - 1))
		return -EILSEQ;
	return tempo_mem_write(cp_mmu(x), va, &times, sizeof(times));
}

static int cp_mem_chunk(struct tempo_cp_exec *x, const struct tempo_packet *p,
			u64 done, u32 n)
{
	if (p->op == DRM_TEMPO_PKT_FILL)
		return tempo_mem_fill(cp_mmu(x),
				      tempo_isa_qword(p, DRM_TEMPO_FILL_DST) + done,
				      p->dw[DRM_TEMPO_FILL_VALUE], n);
	return tempo_mem_copy(cp_mmu(x),
			      tempo_isa_qword(p, DRM_TEMPO_COPY_DST) + done,
			      tempo_isa_qword(p, DRM_TEMPO_COPY_SRC) + done, n);
}

/*
 * COPY and FILL run in chunks of %TEMPO_CP_CHUNK bytes, with a check for
 * an abort and for preemption between two, so that however large the
 * packet, the watchdog, the scheduler's timeout and a higher-priority
 * queue get in within a chunk. A preempted packet is fetched again on
 * resume and goes on from where it stopped.
 */
static int cp_mem_op(struct tempo_cp_exec *x, const struct tempo_packet *p)
{
	struct tempo_cp_state *st = x->st;
	bool fill = p->op == DRM_TEMPO_PKT_FILL;
	u64 len = fill ? p->dw[DRM_TEMPO_FILL_SIZE] : p->dw[DRM_TEMPO_COPY_SIZE];
	u64 done = st->pkt_va == p->va ? st->pkt_done : 0;
	int ret;

	st->pkt_va = 0;
	if (fill && ((tempo_isa_qword(p, DRM_TEMPO_FILL_DST) | len) & 3))
		return -EILSEQ;
	while (done < len) {
		u32 n = min_t(u64, len - done, TEMPO_CP_CHUNK);

		ret = cp_mem_chunk(x, p, done, n);
		if (ret)
			return ret;
		done += n;
		if (done == len)
			break;
		ret = cp_interrupted(x);
		if (ret)
			return ret;
		if (cp_yield(x)) {
			st->pkt_va = p->va;
			st->pkt_done = done;
			st->pc[st->depth] -= p->len * 4;
			return TEMPO_CP_PREEMPTED;
		}
	}
	return 0;
}

static int cp_atomic(struct tempo_cp_exec *x, const struct tempo_packet *p)
{
	u64 value = tempo_isa_qword(p, DRM_TEMPO_ATOMIC_VALUE);

	if (p->dw[DRM_TEMPO_ATOMIC_OP] == DRM_TEMPO_ATOMIC_INC)
		value = 1;
	return tempo_mem_atomic_add(cp_mmu(x),
				    tempo_isa_qword(p, DRM_TEMPO_ATOMIC_VA), value);
}

/*
 * How long the command processor may sleep with a job in progress, at most
 * @max_ns: until the running queue may have to yield on time alone (a
 * quantum, a slice, the starvation bound; see tempo_hqd_next_yield()),
 * which is GPU time: at least as long on the host's clock.
 * New work, priority changes and aborts ring the doorbell, which wakes it.
 */
static ktime_t cp_sleep(struct tempo_cp_exec *x, u64 max_ns)
{
	u64 left = tempo_hqd_next_yield(x->engine, x->hqd, x->slice_end);

	return ns_to_ktime(min(max_t(u64, left, TEMPO_CP_MIN_SLEEP_NS), max_ns));
}

static bool cp_gang_preempted(struct tempo_cp_exec *x)
{
	struct tempo_hw_gang *gang = x->st->job->gang;

	return gang && READ_ONCE(gang->preempt);
}

/*
 * A WAIT_MEM's pause between two polls of memory, cut short by a doorbell
 * (new work or an abort may have to preempt the wait) or by the engine
 * stopping. The pause is the job's GPU time, as the command processor's
 * thread clock counts it: the time it slept, not the time it then waited
 * for a CPU.
 */
static void cp_wait_mem_pause(struct tempo_cp_exec *x, u32 *period_us)
{
	wait_event_interruptible_hrtimeout(x->engine->wq,
					   READ_ONCE(x->engine->doorbell) ||
					   cp_gang_preempted(x) ||
					   READ_ONCE(x->engine->stopping),
					   cp_sleep(x, (u64)*period_us * NSEC_PER_USEC));
	*period_us = min(2 * *period_us, TEMPO_CP_POLL_MAX_US);
}

static int cp_wait_mem(struct tempo_cp_exec *x, const struct tempo_packet *p)
{
	u64 va = tempo_isa_qword(p, DRM_TEMPO_WAIT_MEM_VA);
	u64 ref = tempo_isa_qword(p, DRM_TEMPO_WAIT_MEM_REF);
	u64 mask = tempo_isa_qword(p, DRM_TEMPO_WAIT_MEM_MASK);
	u32 period_us = TEMPO_CP_POLL_US;

	for (;;) {
		u64 value;
		int ret = tempo_mem_read64(cp_mmu(x), va, &value);

		if (ret)
			return ret;
		if (tempo_isa_compare(p->dw[DRM_TEMPO_WAIT_MEM_COMPARE],
				      value & mask, ref))
			return 0;
		ret = cp_interrupted(x);
		if (ret)
			return ret;
		if (cp_yield(x) || x->in_place_end) {
			/* Fetch the packet again on resume. */
			x->st->pc[x->st->depth] -= p->len * 4;
			return x->in_place_end ? TEMPO_CP_HANDOVER :
						 TEMPO_CP_PREEMPTED;
		}
		cp_wait_mem_pause(x, &period_us);
	}
}

static bool cp_dispatch_wake(struct tempo_cp_exec *x)
{
	return !READ_ONCE(x->st->dispatch.pending) ||
	       READ_ONCE(x->engine->doorbell) || cp_gang_preempted(x) ||
	       READ_ONCE(x->engine->stopping);
}

/*
 * Add what the DISPATCH in progress used of the compute units since last
 * time to the job: its GPU time is the job's, the command processor's
 * wait for it is not. A workgroup's progress is read as it last published
 * it, and may read lower once it ends: the job keeps the highest.
 */
static void cp_dispatch_account(struct tempo_cp_exec *x)
{
	struct tempo_cp_state *st = x->st;
	u64 gpu, cpu, wait;

	tempo_cu_dispatch_usage(&x->engine->hw->cus, &st->dispatch, &gpu,
				&cpu, &wait);
	st->job->cpu_ns += cpu - st->cpu_seen;
	st->cpu_seen = cpu;
	st->job->times.cu_wait_ns += wait - st->wait_seen;
	st->wait_seen = wait;
	if (gpu > st->gpu_seen) {
		tempo_hqd_add_gpu(x->engine, gpu - st->gpu_seen);
		st->gpu_seen = gpu;
	}
}

/* Abandon the DISPATCH in progress and wait for its workgroups to stop. */
static void cp_dispatch_cancel(struct tempo_cp_exec *x)
{
	struct tempo_cu_pool *pool = &x->engine->hw->cus;
	struct tempo_dispatch *d = &x->st->dispatch;
	int error;

	tempo_cu_cancel(pool, d);
	while (!tempo_cu_dispatch_idle(pool, d, &error))
		wait_event_timeout(x->engine->wq, !READ_ONCE(d->pending),
				   msecs_to_jiffies(1));
	cp_dispatch_account(x);
	x->st->in_dispatch = false;
}

/*
 * One look at the DISPATCH in progress: 0 or its error when done,
 * preempted, or still going.
 */
static int cp_dispatch_poll(struct tempo_cp_exec *x)
{
	struct tempo_cu_pool *pool = &x->engine->hw->cus;
	struct tempo_dispatch *d = &x->st->dispatch;
	int ret;

	cp_dispatch_account(x);
	if (tempo_cu_dispatch_idle(pool, d, &ret)) {
		x->st->in_dispatch = false;
		return ret;
	}
	ret = cp_interrupted(x);
	if (ret) {
		cp_dispatch_cancel(x);
		return ret;
	}
	if (cp_yield(x)) {
		tempo_cu_suspend(pool, d);
		return TEMPO_CP_PREEMPTED;
	}
	return TEMPO_CP_DISPATCHING;
}

/*
 * Wait for the DISPATCH in progress: 0, its error, or preempted. The wait
 * is a stall: only the time the workgroups hold CUs is the job's.
 */
static int cp_dispatch_wait(struct tempo_cp_exec *x)
{
	int ret;

	tempo_hqd_stall(x->engine, true);
	while ((ret = cp_dispatch_poll(x)) == TEMPO_CP_DISPATCHING) {
		if (x->in_place_end) {
			/* The workgroups go on; the thread waits for them. */
			ret = TEMPO_CP_HANDOVER;
			break;
		}
		wait_event_interruptible_hrtimeout(x->engine->wq,
						   cp_dispatch_wake(x),
						   cp_sleep(x, TEMPO_CP_WATCH_NS));
	}
	tempo_hqd_stall(x->engine, false);
	return ret;
}

static int cp_dispatch(struct tempo_cp_exec *x, const struct tempo_packet *p)
{
	struct tempo_dispatch *d = &x->st->dispatch;

	d->hqd = x->hqd;
	d->mmu = cp_mmu(x);
	d->kernel = p->dw[DRM_TEMPO_DISPATCH_KERNEL];
	/* Checked: the product is at most TEMPO_HW_MAX_GROUPS. */
	d->num_groups = p->dw[DRM_TEMPO_DISPATCH_GROUPS_X] *
			p->dw[DRM_TEMPO_DISPATCH_GROUPS_Y] *
			p->dw[DRM_TEMPO_DISPATCH_GROUPS_Z];
	memcpy(d->args, &p->dw[DRM_TEMPO_DISPATCH_ARGS],
	       (p->len - DRM_TEMPO_DISPATCH_ARGS) * 4);
	x->st->in_dispatch = true;
	x->st->gpu_seen = 0;
	x->st->cpu_seen = 0;
	x->st->wait_seen = 0;
	tempo_cu_dispatch(&x->engine->hw->cus, d, cp_starved(x));
	return cp_dispatch_wait(x);
}

static int cp_batch_start(struct tempo_cp_exec *x, const struct tempo_packet *p)
{
	u64 va = tempo_isa_qword(p, DRM_TEMPO_BATCH_START_VA);

	if (!(p->dw[DRM_TEMPO_BATCH_START_FLAGS] & DRM_TEMPO_BATCH_CHAIN)) {
		if (x->st->depth == TEMPO_HW_MAX_BATCH_DEPTH)
			return -ELOOP;
		x->st->depth++;
	}
	x->st->pc[x->st->depth] = va;
	return 0;
}

static int cp_nop(struct tempo_cp_exec *x, const struct tempo_packet *p)
{
	return 0;
}

/* What executes each packet; END is the fetch loop's own. */
static int (*const cp_packets[])(struct tempo_cp_exec *x,
				 const struct tempo_packet *p) = {
	[DRM_TEMPO_PKT_NOP] = cp_nop,
	[DRM_TEMPO_PKT_WRITE_DATA] = cp_write_data,
	[DRM_TEMPO_PKT_WRITE_TIMESTAMP] = cp_write_timestamp,
	[DRM_TEMPO_PKT_COPY] = cp_mem_op,
	[DRM_TEMPO_PKT_FILL] = cp_mem_op,
	[DRM_TEMPO_PKT_ATOMIC] = cp_atomic,
	[DRM_TEMPO_PKT_WAIT_MEM] = cp_wait_mem,
	[DRM_TEMPO_PKT_DISPATCH] = cp_dispatch,
	[DRM_TEMPO_PKT_BATCH_START] = cp_batch_start,
	[DRM_TEMPO_PKT_WRITE_ENGINE_ID] = cp_write_engine_id,
	[DRM_TEMPO_PKT_WRITE_JOB_TIMES] = cp_write_job_times,
};

static int cp_execute(struct tempo_cp_exec *x, const struct tempo_packet *p)
{
	int (*execute)(struct tempo_cp_exec *x, const struct tempo_packet *p);

	if (p->op >= ARRAY_SIZE(cp_packets))
		return -EILSEQ;
	execute = cp_packets[array_index_nospec(p->op, ARRAY_SIZE(cp_packets))];
	return execute ? execute(x, p) : -EILSEQ;
}

/* Start the job at the read pointer, or resume the one saved. */
static int cp_enter(struct tempo_cp_exec *x)
{
	struct tempo_cp_state *st = x->st;

	if (st->job) {
		trace_tempo_hw_resume(x->engine->index, x->hqd->index,
				      st->job->seqno);
		return 0;
	}
	tempo_hqd_fetch(x->hqd);
	st->depth = 0;
	st->pc[0] = st->job->batch_va;
	st->pkt_va = 0;
	if (st->job->cancel && atomic_read(st->job->cancel))
		return -ECANCELED;
	return 0;
}

/*
 * Take part in the gang: counted as present unless the gang is being
 * preempted, and leaving again if it is. Returns whether every member not
 * ended is present.
 */
static bool gang_join(struct tempo_hw_job *job)
{
	struct tempo_hw_gang *gang = job->gang;
	bool ready, wake = false;

	spin_lock(&gang->lock);
	if (gang->preempt && job->gang_present) {
		job->gang_present = false;
		gang->present--;
		if (!gang->present) {
			gang->preempt = false;
			wake = true;
		}
	}
	if (!gang->preempt && !job->gang_present) {
		job->gang_present = true;
		gang->present++;
		wake = gang->present + gang->ended == gang->width;
	}
	ready = job->gang_present &&
		gang->present + gang->ended == gang->width;
	spin_unlock(&gang->lock);
	if (wake)
		gang_wake(job->gang);
	return ready;
}

static bool gang_ready(struct tempo_hw_gang *gang)
{
	return READ_ONCE(gang->present) + READ_ONCE(gang->ended) ==
	       gang->width && !READ_ONCE(gang->preempt);
}

/*
 * No member of a gang runs a packet, at its start or when it resumes,
 * unless every member not ended holds its engine. A member waiting for
 * the others gives its engine back to any other queue that wants it.
 */
static int gang_barrier_wait(struct tempo_cp_exec *x)
{
	struct tempo_hw_gang *gang = x->st->job->gang;
	int ret;

	while (!gang_join(x->st->job)) {
		ret = cp_interrupted(x);
		if (ret)
			return ret;
		if (tempo_hqd_should_yield(x->engine, x->hqd, x->slice_end))
			return TEMPO_CP_PREEMPTED;
		wait_event_interruptible_hrtimeout(x->engine->wq,
						   gang_ready(gang) ||
						   READ_ONCE(gang->preempt) ||
						   READ_ONCE(x->engine->doorbell),
						   cp_sleep(x, TEMPO_CP_WATCH_NS));
	}
	return 0;
}

/* Waiting for the other members is a stall, not the job's running time. */
static int cp_gang_barrier(struct tempo_cp_exec *x)
{
	int ret;

	tempo_hqd_stall(x->engine, true);
	ret = gang_barrier_wait(x);
	tempo_hqd_stall(x->engine, false);
	return ret;
}

/* Run in place: whether its time is up (never for the thread). */
static bool cp_in_place_expired(const struct tempo_cp_exec *x)
{
	return x->in_place_end && ktime_get_ns() >= x->in_place_end;
}

/* Run in place: whether to hand over before the queue's next job runs. */
static bool cp_in_place_hands_over(struct tempo_cp_exec *x)
{
	struct tempo_mqd *mqd = &x->hqd->mqd;
	struct tempo_hw_job *job = x->st->job;

	if (!x->in_place_end)
		return false;
	if (cp_in_place_expired(x))
		return true;
	/* The ring entry at rptr is stable: only the command processor moves rptr. */
	if (!job)
		job = mqd->ring[mqd->rptr & (mqd->ring_size - 1)];
	return job->gang;
}

/*
 * Run a queue's job until it ends (0 or its error), is preempted or, run
 * in place, is handed over.
 */
static int cp_run(struct tempo_cp_exec *x)
{
	struct tempo_packet pkt;
	int ret;

	if (cp_in_place_hands_over(x))
		return TEMPO_CP_HANDOVER;
	ret = cp_enter(x);
	if (!ret && x->st->job->gang)
		ret = cp_gang_barrier(x);
	if (!ret && x->st->in_dispatch) {
		tempo_cu_resume(&x->engine->hw->cus, &x->st->dispatch,
				cp_starved(x));
		ret = cp_dispatch_wait(x);
	}
	while (!ret) {
		ret = cp_interrupted(x);
		if (ret)
			break;
		if (cp_yield(x))
			return TEMPO_CP_PREEMPTED;
		if (cp_in_place_expired(x))
			return TEMPO_CP_HANDOVER;
		ret = cp_fetch(x, &pkt);
		if (ret)
			break;
		if (pkt.op == DRM_TEMPO_PKT_END) {
			if (!x->st->depth)
				return 0;
			x->st->depth--;
			continue;
		}
		ret = cp_execute(x, &pkt);
		cond_resched();
	}
	return ret;
}

static void cp_wait_doorbell(struct tempo_engine *engine)
{
	wait_event_interruptible(engine->wq, READ_ONCE(engine->doorbell) ||
				 kthread_should_stop());
}

static void cp_end_job(struct tempo_cp_exec *x, int error)
{
	struct tempo_hw_job *job = x->st->job;

	if (x->st->in_dispatch)
		cp_dispatch_cancel(x);
	x->st->job = NULL;
	if (job->gang)
		gang_leave(job, true);
	tempo_ring_retire(x->hqd, job, error);
}

/* One turn: arbitrate, then run the chosen queue until it stops. */
static enum tempo_cp_turn cp_turn(struct tempo_cp_exec *x)
{
	u64 cpu;
	int ret;

	x->hqd = tempo_hqd_select(x->engine, &x->slice_end);
	if (!x->hqd)
		return TEMPO_CP_IDLE;
	x->st = &x->hqd->save;
	cpu = tempo_clock_cpu();
	ret = cp_run(x);
	if (x->st->job)
		x->st->job->cpu_ns += tempo_clock_cpu() - cpu;
	tempo_hqd_ran(x->hqd);
	if (ret == TEMPO_CP_HANDOVER)
		return TEMPO_CP_HANDED_OVER;
	if (ret != TEMPO_CP_PREEMPTED) {
		cp_end_job(x, ret);
		return TEMPO_CP_RAN;
	}
	x->hqd->preemptions++;
	trace_tempo_hw_preempt(x->engine->index, x->hqd->index,
			       x->st->job->seqno);
	if (x->st->job->gang)
		gang_leave(x->st->job, false);
	return TEMPO_CP_RAN;
}

static int cp_thread(void *data)
{
	struct tempo_engine *engine = data;
	struct tempo_cp_exec x = { .engine = engine };
	enum tempo_cp_turn turn;

	while (!kthread_should_stop()) {
		mutex_lock(&engine->cp_mutex);
		turn = cp_turn(&x);
		mutex_unlock(&engine->cp_mutex);
		if (turn == TEMPO_CP_IDLE)
			cp_wait_doorbell(engine);
	}
	return 0;
}

/**
 * tempo_cp_run_in_place() - run an idle command processor here
 * @engine: the engine
 *
 * Runs the engine's command processor in the caller's context, turn after
 * turn, for up to %TEMPO_CP_IN_PLACE_NS, unless it is busy (its thread or
 * another submitter runs it) or stopping. Does not wait for work (only,
 * when a job is aborted, for its workgroups to stop).
 *
 * Context: process; may signal fences.
 * Return: true when no queue has work left, false when the thread must go
 * on (busy, handed over, or out of time).
 */
static bool tempo_cp_run_in_place(struct tempo_engine *engine)
{
	struct tempo_cp_exec x = {
		.engine = engine,
		.in_place_end = ktime_get_ns() + TEMPO_CP_IN_PLACE_NS,
	};
	enum tempo_cp_turn turn = TEMPO_CP_HANDED_OVER;

	if (!mutex_trylock(&engine->cp_mutex))
		return false;
	while (!READ_ONCE(engine->stopping)) {
		turn = cp_turn(&x);
		if (turn != TEMPO_CP_RAN || cp_in_place_expired(&x))
			break;
	}
	mutex_unlock(&engine->cp_mutex);
	return turn == TEMPO_CP_IDLE;
}

/**
 * tempo_hw_hqd_kick() - start the command processor on a queue's new work
 * @hqd: the queue a job was just submitted to
 * @in_place: when the engine's command processor is idle, run it here
 *	instead of waking its thread
 *
 * In place, the caller's context runs the command processor for a bounded
 * time (see "Command processor"): an idle engine's job costs no wake-up of
 * its thread. It hands the engine over to the thread when the time is up,
 * when a packet must wait, or for a gang; a busy command processor is left
 * to its thread. Priorities, preemption and fences behave as in the thread.
 *
 * Context: process; does not allocate. In place it may signal fences and
 * run the job's packets.
 */
void tempo_hw_hqd_kick(struct tempo_hw_hqd *hqd, bool in_place)
{
	struct tempo_engine *engine = hqd->engine;
	unsigned long flags;

	if (in_place) {
		if (tempo_cp_run_in_place(engine))
			return;
		/* Ring again: running in place took the doorbell. */
		spin_lock_irqsave(&engine->lock, flags);
		engine->doorbell = true;
		spin_unlock_irqrestore(&engine->lock, flags);
	}
	wake_up(&engine->wq);
}

/**
 * tempo_cp_drain() - end every job an engine still holds
 * @engine: the engine, its command processor stopped
 *
 * Jobs saved by a preemption or queued in a ring end with -ECANCELED.
 *
 * Context: process; may sleep.
 */
void tempo_cp_drain(struct tempo_engine *engine)
{
	struct tempo_cp_exec x = { .engine = engine };
	u32 q;

	for (q = 0; q < engine->num_hqds; q++) {
		struct tempo_mqd *mqd;

		x.hqd = &engine->hqds[q];
		x.st = &x.hqd->save;
		mqd = &x.hqd->mqd;
		if (x.st->job)
			cp_end_job(&x, -ECANCELED);
		while (mqd->rptr != mqd->wptr)
			tempo_ring_retire(x.hqd, mqd->ring[mqd->rptr &
					 (mqd->ring_size - 1)], -ECANCELED);
	}
}

/**
 * tempo_cp_start() - start an engine's command processor
 * @engine: the engine, its queues initialised
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int tempo_cp_start(struct tempo_engine *engine)
{
	struct task_struct *t;

	WRITE_ONCE(engine->stopping, false);
	t = kthread_run(cp_thread, engine, "tempo-cp%u", engine->index);
	if (IS_ERR(t))
		return PTR_ERR(t);
	set_user_nice(t, engine->hw->config.nice);
	engine->thread = t;
	return 0;
}

/**
 * tempo_cp_stop() - stop an engine's command processor
 * @engine: the engine
 *
 * A job running now fails with -ECANCELED; queued jobs stay queued.
 *
 * Context: process.
 */
void tempo_cp_stop(struct tempo_engine *engine)
{
	WRITE_ONCE(engine->stopping, true);
	if (engine->thread)
		kthread_stop(engine->thread);
	engine->thread = NULL;
	/* Wait for a submitter that runs it in place. */
	mutex_lock(&engine->cp_mutex);
	mutex_unlock(&engine->cp_mutex);
}
