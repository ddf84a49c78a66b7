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
 * Between two packets, and every polling period of a WAIT_MEM, the command
 * processor checks whether software asked it to abort the job (the
 * scheduler's timeout). A DISPATCH hands its workgroups to the compute-unit
 * pool and waits for all of them before the next packet. At END of the
 * first-level batch the job's fence is signalled and the read pointer
 * advances.
 */

#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>

#include <drm/tempo_drm.h>

#include "tempo_hw_priv.h"

/* Polling period of WAIT_MEM, in microseconds. */
#define TEMPO_CP_POLL_US	50
/* Command processors run above compute units and ordinary tasks. */
#define TEMPO_CP_NICE		-10

/**
 * struct tempo_cp_exec - what the command processor knows of a running job
 * @engine: the engine
 * @hqd: the queue of the job
 * @job: the job
 * @depth: current nesting level
 * @pc: program counter of each nesting level
 */
struct tempo_cp_exec {
	struct tempo_engine *engine;
	struct tempo_hw_hqd *hqd;
	struct tempo_hw_job *job;
	u32 depth;
	u64 pc[TEMPO_HW_MAX_BATCH_DEPTH + 1];
};

static int cp_interrupted(struct tempo_cp_exec *x)
{
	if (kthread_should_stop())
		return -ECANCELED;
	return tempo_hqd_abort_pending(x->hqd, x->job);
}

static int cp_fetch(struct tempo_cp_exec *x, struct tempo_packet *pkt)
{
	struct tempo_hw_mmu *mmu = x->job->mmu;
	u64 pc = x->pc[x->depth];
	int ret;

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
	x->pc[x->depth] = pc + pkt->len * 4;
	return 0;
}

static int cp_write_data(struct tempo_cp_exec *x, const struct tempo_packet *p)
{
	u64 va = tempo_isa_qword(p, 1);

	if (va & 3)
		return -EILSEQ;
	return tempo_mem_write(x->job->mmu, va, &p->dw[3], (p->len - 3) * 4);
}

static int cp_write_timestamp(struct tempo_cp_exec *x,
			      const struct tempo_packet *p)
{
	u64 va = tempo_isa_qword(p, 1);
	u64 now = ktime_get_ns();

	if (va & 7)
		return -EILSEQ;
	return tempo_mem_write(x->job->mmu, va, &now, sizeof(now));
}

static int cp_atomic(struct tempo_cp_exec *x, const struct tempo_packet *p)
{
	u64 value = tempo_isa_qword(p, 4);

	if (p->dw[3] == DRM_TEMPO_ATOMIC_INC)
		value = 1;
	return tempo_mem_atomic_add(x->job->mmu, tempo_isa_qword(p, 1), value);
}

static int cp_wait_mem(struct tempo_cp_exec *x, const struct tempo_packet *p)
{
	u64 va = tempo_isa_qword(p, 1);
	u64 ref = tempo_isa_qword(p, 4);
	u64 mask = tempo_isa_qword(p, 6);

	for (;;) {
		u64 value;
		int ret = tempo_mem_read64(x->job->mmu, va, &value);

		if (ret)
			return ret;
		if (tempo_isa_compare(p->dw[3], value & mask, ref))
			return 0;
		ret = cp_interrupted(x);
		if (ret)
			return ret;
		usleep_range(TEMPO_CP_POLL_US, 2 * TEMPO_CP_POLL_US);
	}
}

static int cp_dispatch(struct tempo_cp_exec *x, const struct tempo_packet *p)
{
	struct tempo_cu_pool *pool = &x->engine->hw->cus;
	struct tempo_dispatch d = {
		.hqd = x->hqd,
		.mmu = x->job->mmu,
		.kernel = p->dw[1],
		.num_groups = p->dw[2] * p->dw[3] * p->dw[4],
	};
	int ret;

	memcpy(d.args, &p->dw[5], (p->len - 5) * 4);
	tempo_cu_dispatch(pool, &d);
	while (!wait_for_completion_timeout(&d.done, msecs_to_jiffies(1))) {
		ret = cp_interrupted(x);
		if (ret) {
			tempo_cu_cancel(pool, &d);
			wait_for_completion(&d.done);
			return ret;
		}
	}
	return atomic_read(&d.error);
}

static int cp_batch_start(struct tempo_cp_exec *x, const struct tempo_packet *p)
{
	u64 va = tempo_isa_qword(p, 1);

	if (!(p->dw[3] & DRM_TEMPO_BATCH_CHAIN)) {
		if (x->depth == TEMPO_HW_MAX_BATCH_DEPTH)
			return -ELOOP;
		x->depth++;
	}
	x->pc[x->depth] = va;
	return 0;
}

static int cp_execute(struct tempo_cp_exec *x, const struct tempo_packet *p)
{
	struct tempo_hw_mmu *mmu = x->job->mmu;

	switch (p->op) {
	case DRM_TEMPO_PKT_NOP:
		return 0;
	case DRM_TEMPO_PKT_WRITE_DATA:
		return cp_write_data(x, p);
	case DRM_TEMPO_PKT_WRITE_TIMESTAMP:
		return cp_write_timestamp(x, p);
	case DRM_TEMPO_PKT_COPY:
		return tempo_mem_copy(mmu, tempo_isa_qword(p, 1),
				      tempo_isa_qword(p, 3), p->dw[5]);
	case DRM_TEMPO_PKT_FILL:
		return tempo_mem_fill(mmu, tempo_isa_qword(p, 1), p->dw[3],
				      p->dw[4]);
	case DRM_TEMPO_PKT_ATOMIC:
		return cp_atomic(x, p);
	case DRM_TEMPO_PKT_WAIT_MEM:
		return cp_wait_mem(x, p);
	case DRM_TEMPO_PKT_DISPATCH:
		return cp_dispatch(x, p);
	case DRM_TEMPO_PKT_BATCH_START:
		return cp_batch_start(x, p);
	}
	return -EILSEQ;
}

/* Run one job to its END; returns the error its fence carries. */
static int cp_run(struct tempo_cp_exec *x)
{
	struct tempo_packet pkt;
	int ret;

	x->depth = 0;
	x->pc[0] = x->job->batch_va;
	if (x->job->cancel && atomic_read(x->job->cancel))
		return -ECANCELED;
	for (;;) {
		ret = cp_interrupted(x);
		if (ret)
			return ret;
		ret = cp_fetch(x, &pkt);
		if (ret)
			return ret;
		if (pkt.op == DRM_TEMPO_PKT_END) {
			if (!x->depth)
				return 0;
			x->depth--;
			continue;
		}
		ret = cp_execute(x, &pkt);
		if (ret)
			return ret;
		cond_resched();
	}
}

static struct tempo_hw_job *cp_head(struct tempo_hw_hqd *hqd)
{
	struct tempo_mqd *mqd = &hqd->mqd;
	struct tempo_hw_job *job;

	spin_lock_irq(&hqd->engine->lock);
	job = mqd->ring[mqd->rptr & (mqd->ring_size - 1)];
	spin_unlock_irq(&hqd->engine->lock);
	return job;
}

static void cp_wait_doorbell(struct tempo_engine *engine)
{
	wait_event_interruptible(engine->wq, READ_ONCE(engine->doorbell) ||
				 kthread_should_stop());
}

static int cp_thread(void *data)
{
	struct tempo_engine *engine = data;
	struct tempo_cp_exec x = { .engine = engine };

	while (!kthread_should_stop()) {
		x.hqd = tempo_hqd_select(engine);
		if (!x.hqd) {
			cp_wait_doorbell(engine);
			continue;
		}
		x.job = cp_head(x.hqd);
		tempo_hqd_retire(x.hqd, x.job, cp_run(&x));
	}
	return 0;
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

	t = kthread_run(cp_thread, engine, "tempo-cp%u", engine->index);
	if (IS_ERR(t))
		return PTR_ERR(t);
	set_user_nice(t, TEMPO_CP_NICE);
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
	if (engine->thread)
		kthread_stop(engine->thread);
	engine->thread = NULL;
}
