// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The tempo authors
 */

/**
 * DOC: Emulated GPU
 *
 * The emulated GPU is built from three parts, one file each: hardware
 * queues with their MQDs and their arbitration (tempo_hqd.c), one command
 * processor per engine (tempo_cp.c) and a pool of compute units
 * (tempo_cu.c). Jobs enter and leave the queues' rings in tempo_ring.c,
 * whose fences tempo_fence.c keeps. Packets are decoded in tempo_isa.c and
 * every memory access goes through the job's address space in
 * tempo_mem.c. Software sees the GPU only through tempo_hw.h: create it
 * with a topology, write jobs into HQD rings, abort a job, read the MQDs.
 *
 * Calls among these files go one way only: the command processor calls
 * the rings, the queues and the compute units; the rings call the queues
 * and the fences; the queues call the compute units, which call none of
 * them; this file, which builds the device from them, is called by none.
 * What several of them read, a queue's priorities (tempo_hqd_rank()) and
 * the threads' clocks (tempo_clock_thread()), is in the private header.
 */

/**
 * DOC: GPU time
 *
 * The emulated GPU runs on the host's CPUs, and the host may be busy: its
 * threads then wait for a CPU, and run slower than on an idle host. What
 * the GPU decides and reports on time must not depend on that, so it
 * keeps its own time. Each thread of the emulation has a clock that runs
 * while it runs or sleeps, and stops while it is runnable but off its CPU
 * (tempo_clock_thread()): its CPU time plus its sleeps, which in the work
 * of a job are the modelled waits, a WAIT_MEM's pauses between two polls
 * and a SPIN workgroup's sleep. The GPU time of a job is what the
 * hardware did for it: its command processor's thread clock while it runs
 * the job (not while it waits for compute units or for the rest of a
 * gang) plus the GPU time of its DISPATCHes.
 *
 * A DISPATCH's GPU time is its longest lane: each compute unit adds the
 * GPU time of the workgroups it ran for it (its thread clock during each),
 * and workgroups on several compute units overlap, as they would on a
 * GPU.
 *
 * Each engine keeps a clock, the GPU time of the runs it made
 * (tempo_hqd_clock()), and the compute-unit pool one, the mean of its
 * compute units' GPU time (tempo_cu_clock()). The watchdog, the quantum,
 * the timeslice, the starvation bound, the engine and compute-unit waits
 * of WRITE_JOB_TIMES and the engine time of fdinfo all read them. GPU
 * timestamps (WRITE_TIMESTAMP, the queued and started times of
 * WRITE_JOB_TIMES) remain CLOCK_MONOTONIC.
 *
 * The watchdog has no wall-clock backstop: a job whose threads get little
 * of the host's CPUs runs slowly and is judged on what it did. The
 * host's scheduler gives every runnable thread some CPU, so every job
 * makes progress; stopping a job is itself work for its threads, which a
 * wall-clock bound could not do any sooner.
 */

#include <linux/device.h>
#include <linux/sched/prio.h>
#include <linux/slab.h>

#include "tempo_hw_priv.h"

#define CREATE_TRACE_POINTS
#include "tempo_hw_trace.h"

static int engine_init(struct tempo_hw *hw, struct tempo_engine *engine,
		       u32 engine_class, u32 instance)
{
	u32 queues = hw->config.queues[engine_class];
	u32 ring = hw->config.ring_size;
	struct tempo_hw_job **rings;
	u32 q;

	engine->hw = hw;
	engine->engine_class = engine_class;
	engine->instance = instance;
	engine->index = engine - hw->engines;
	spin_lock_init(&engine->lock);
	seqcount_spinlock_init(&engine->run_seq, &engine->lock);
	init_waitqueue_head(&engine->wq);
	mutex_init(&engine->cp_mutex);

	rings = kcalloc(queues * ring, sizeof(*rings), GFP_KERNEL);
	if (!rings)
		return -ENOMEM;
	for (q = 0; q < queues; q++)
		tempo_hqd_init(engine, q, rings + q * ring, ring);
	engine->num_hqds = queues;
	return 0;
}

/**
 * tempo_hw_stop() - stop every engine
 * @hw: the GPU
 *
 * Jobs running or queued in a ring end with -ECANCELED: every fence the
 * hardware was given is signalled when this returns. Idempotent.
 *
 * Context: process; may sleep.
 */
void tempo_hw_stop(struct tempo_hw *hw)
{
	u32 i;

	for (i = 0; i < hw->num_engines; i++) {
		tempo_cp_stop(&hw->engines[i]);
		tempo_cp_drain(&hw->engines[i]);
	}
}

static void engines_fini(struct tempo_hw *hw)
{
	u32 i;

	tempo_hw_stop(hw);
	for (i = 0; i < hw->num_engines; i++)
		if (hw->engines[i].num_hqds)
			kfree(hw->engines[i].hqds[0].mqd.ring);
	kfree(hw->engines);
}

static int engines_init(struct tempo_hw *hw)
{
	u32 c, i, n = 0;
	int ret;

	for (c = 0; c < TEMPO_HW_NUM_CLASSES; c++)
		hw->num_engines += hw->config.engines[c];
	hw->engines = kcalloc(hw->num_engines, sizeof(*hw->engines),
			      GFP_KERNEL);
	if (!hw->engines)
		return -ENOMEM;
	for (c = 0; c < TEMPO_HW_NUM_CLASSES; c++) {
		for (i = 0; i < hw->config.engines[c]; i++, n++) {
			ret = engine_init(hw, &hw->engines[n], c, i);
			if (ret)
				return ret;
			ret = tempo_cp_start(&hw->engines[n]);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/**
 * tempo_hw_create() - build and start an emulated GPU
 * @dev: the device it belongs to
 * @config: the topology; at most %TEMPO_HW_MAX_QUEUES queues per engine
 *
 * Context: process; may sleep.
 * Return: the GPU or an ERR_PTR().
 */
struct tempo_hw *tempo_hw_create(struct device *dev,
				 const struct tempo_hw_config *config)
{
	struct tempo_hw *hw;
	int ret;

	hw = kzalloc(sizeof(*hw), GFP_KERNEL);
	if (!hw)
		return ERR_PTR(-ENOMEM);
	hw->dev = dev;
	hw->config = *config;
	spin_lock_init(&hw->gang_lock);

	ret = tempo_cu_pool_init(&hw->cus, config->num_cus,
				 config->cu_reserved, config->cu_by_priority,
				 min(config->nice + TEMPO_HW_CU_NICE_OFFSET,
				     MAX_NICE), config->nice);
	if (ret)
		goto err_free;
	ret = engines_init(hw);
	if (ret)
		goto err_engines;
	return hw;

err_engines:
	engines_fini(hw);
	tempo_cu_pool_fini(&hw->cus);
err_free:
	kfree(hw);
	return ERR_PTR(ret);
}

/**
 * tempo_hw_destroy() - stop and free an emulated GPU
 * @hw: the GPU
 *
 * Jobs still in a ring fail with -ECANCELED.
 *
 * Context: process; may sleep.
 */
void tempo_hw_destroy(struct tempo_hw *hw)
{
	engines_fini(hw);
	tempo_cu_pool_fini(&hw->cus);
	kfree(hw);
}

/**
 * tempo_hw_num_engines() - engines of the GPU
 * @hw: the GPU
 *
 * Context: any.
 * Return: the count.
 */
u32 tempo_hw_num_engines(const struct tempo_hw *hw)
{
	return hw->num_engines;
}

/**
 * tempo_hw_num_hqds() - hardware queues of the GPU
 * @hw: the GPU
 *
 * Context: any.
 * Return: the count.
 */
u32 tempo_hw_num_hqds(const struct tempo_hw *hw)
{
	u32 i, n = 0;

	for (i = 0; i < hw->num_engines; i++)
		n += hw->engines[i].num_hqds;
	return n;
}

/**
 * tempo_hw_hqd() - a hardware queue by device-wide index
 * @hw: the GPU
 * @index: engine after engine, queue after queue
 *
 * Context: any.
 * Return: the queue, or NULL past the last.
 */
struct tempo_hw_hqd *tempo_hw_hqd(struct tempo_hw *hw, u32 index)
{
	u32 i;

	for (i = 0; i < hw->num_engines; i++) {
		if (index < hw->engines[i].num_hqds)
			return &hw->engines[i].hqds[index];
		index -= hw->engines[i].num_hqds;
	}
	return NULL;
}

/**
 * tempo_hw_hqd_info() - describe a hardware queue
 * @hqd: the queue
 * @info: out: its description
 *
 * Context: any; takes the engine's lock.
 */
void tempo_hw_hqd_info(const struct tempo_hw_hqd *hqd,
		       struct tempo_hw_hqd_info *info)
{
	struct tempo_engine *engine = hqd->engine;
	unsigned long flags;

	spin_lock_irqsave(&engine->lock, flags);
	info->engine_class = engine->engine_class;
	info->engine_instance = engine->instance;
	info->engine = engine->index;
	info->queue = hqd->index;
	info->pipe_priority = hqd->mqd.pipe_priority;
	info->queue_priority = hqd->mqd.queue_priority;
	spin_unlock_irqrestore(&engine->lock, flags);
}

/**
 * tempo_hw_timestamp_frequency() - ticks per second of GPU timestamps
 *
 * GPU timestamps are CLOCK_MONOTONIC nanoseconds, so they compare directly
 * with clock_gettime() on the host.
 *
 * Context: any.
 * Return: the frequency in Hz.
 */
u64 tempo_hw_timestamp_frequency(void)
{
	return NSEC_PER_SEC;
}

/**
 * tempo_hw_hqd_state() - an HQD's live state, for debugfs
 * @hqd: the queue
 * @st: out: its state
 *
 * Context: any; takes the engine's lock.
 */
void tempo_hw_hqd_state(const struct tempo_hw_hqd *hqd,
			struct tempo_hw_hqd_state *st)
{
	struct tempo_engine *e = hqd->engine;
	unsigned long flags;

	spin_lock_irqsave(&e->lock, flags);
	st->active = hqd->mqd.active;
	st->running = e->current_hqd == hqd;
	st->preempted = !st->running && hqd->save.job;
	st->rptr = hqd->mqd.rptr;
	st->wptr = hqd->mqd.wptr;
	st->jobs_done = hqd->jobs_done;
	st->preemptions = hqd->preemptions;
	st->busy_ns = hqd->busy_ns;
	if (st->running)
		st->busy_ns += e->run_gpu;
	spin_unlock_irqrestore(&e->lock, flags);
}

/**
 * tempo_hw_cu_state() - the compute-unit pool's occupancy, for debugfs
 * @hw: the GPU
 * @st: out: its state
 *
 * Context: process; takes the pool's lock.
 */
void tempo_hw_cu_state(struct tempo_hw *hw, struct tempo_hw_cu_state *st)
{
	struct tempo_cu_pool *pool = &hw->cus;

	spin_lock(&pool->lock);
	st->busy = pool->busy;
	st->busy_low = pool->busy_low;
	st->high_queues = pool->high_queues;
	spin_unlock(&pool->lock);
	st->num_cus = pool->num_cus;
	st->reserved = pool->reserved;
	st->by_priority = pool->by_priority;
	st->groups_done = atomic64_read(&pool->groups_done);
}
