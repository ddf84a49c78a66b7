/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The tempo authors
 *
 * Inside the emulated GPU: types and prototypes shared by the files of hw/.
 */
#ifndef _TEMPO_HW_PRIV_H_
#define _TEMPO_HW_PRIV_H_

#include <linux/completion.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/wait.h>

#include "tempo_hw.h"

struct task_struct;

#define TEMPO_HW_MAX_QUEUES		8
#define TEMPO_HW_MAX_ARGS		(TEMPO_HW_MAX_PACKET_DW - 5)
#define TEMPO_HW_PIPE_PRIO_MAX		2
#define TEMPO_HW_QUEUE_PRIO_MAX		15

/**
 * struct tempo_mqd - memory queue descriptor: how an HQD is programmed
 * @ring: ring base: the job descriptors written by software
 * @ring_size: entries in @ring, a power of two
 * @rptr: read pointer, advanced by the command processor
 * @wptr: write pointer, advanced by software before the doorbell
 * @pipe_priority: 0..2
 * @queue_priority: 0..15
 * @active: the queue is mapped and the command processor may run it
 */
struct tempo_mqd {
	struct tempo_hw_job **ring;
	u32 ring_size;
	u32 rptr;
	u32 wptr;
	u8 pipe_priority;
	u8 queue_priority;
	bool active;
};

/**
 * struct tempo_hw_hqd - a hardware queue descriptor
 * @engine: the engine (pipe) whose command processor runs the queue
 * @index: index of the queue on its engine
 * @mqd: its programmed state; guarded by @engine's lock
 * @fence_context: dma_fence context of the jobs of this queue
 * @seqno: last fence seqno handed out; guarded by @engine's lock
 * @abort_seqno: fence seqno of a job software asked to abort, or 0
 * @abort_error: the error that job fails with
 * @jobs_done: jobs completed, for debugfs
 */
struct tempo_hw_hqd {
	struct tempo_engine *engine;
	u32 index;
	struct tempo_mqd mqd;
	u64 fence_context;
	u64 seqno;
	u64 abort_seqno;
	int abort_error;
	u64 jobs_done;
};

/**
 * struct tempo_engine - an engine: one command processor and its HQDs
 * @hw: the device
 * @engine_class: &enum tempo_hw_engine_class
 * @instance: index among the engines of its class
 * @index: index among all engines
 * @lock: guards the MQDs of @hqds and @doorbell
 * @doorbell: set when a queue's wptr moved; cleared by the command processor
 * @wq: where the command processor sleeps while no queue has work
 * @thread: the command processor
 * @num_hqds: entries in @hqds
 * @hqds: the hardware queues
 * @current_hqd: queue whose job runs now, for debugfs
 */
struct tempo_engine {
	struct tempo_hw *hw;
	u32 engine_class;
	u32 instance;
	u32 index;
	spinlock_t lock; /* guards the MQDs and the doorbell */
	bool doorbell;
	wait_queue_head_t wq;
	struct task_struct *thread;
	u32 num_hqds;
	struct tempo_hw_hqd hqds[TEMPO_HW_MAX_QUEUES];
	struct tempo_hw_hqd *current_hqd;
};

/**
 * struct tempo_dispatch - one DISPATCH in flight on the CU pool
 * @link: in the pool's list of dispatches with groups left to start
 * @hqd: the queue that issued it, for its priorities
 * @mmu: address space of the job
 * @kernel: &enum drm_tempo_kernel
 * @args: kernel arguments
 * @num_groups: workgroups in all
 * @next_group: next workgroup to start; guarded by the pool's lock
 * @pending: workgroups not finished yet
 * @error: first error of a workgroup, or 0
 * @abort: set by the command processor to stop starting workgroups
 * @done: completed when @pending drops to zero
 */
struct tempo_dispatch {
	struct list_head link;
	struct tempo_hw_hqd *hqd;
	struct tempo_hw_mmu *mmu;
	u32 kernel;
	u32 args[TEMPO_HW_MAX_ARGS];
	u32 num_groups;
	u32 next_group;
	atomic_t pending;
	atomic_t error;
	bool abort;
	struct completion done;
};

/**
 * struct tempo_cu_pool - the compute units shared by all engines
 * @lock: guards @queue and @busy
 * @queue: dispatches with workgroups left to start
 * @wq: where idle compute units wait
 * @num_cus: entries in @threads
 * @busy: compute units running a workgroup now
 * @groups_done: workgroups completed, for debugfs
 * @threads: one thread per compute unit
 */
struct tempo_cu_pool {
	spinlock_t lock; /* guards queue and busy */
	struct list_head queue;
	wait_queue_head_t wq;
	u32 num_cus;
	u32 busy;
	atomic64_t groups_done;
	struct task_struct **threads;
};

/**
 * struct tempo_hw - the emulated GPU
 * @dev: the device it belongs to
 * @config: its topology
 * @num_engines: entries in @engines
 * @engines: all engines, by class then instance
 * @cus: the compute-unit pool
 */
struct tempo_hw {
	struct device *dev;
	struct tempo_hw_config config;
	u32 num_engines;
	struct tempo_engine *engines;
	struct tempo_cu_pool cus;
};

/**
 * struct tempo_packet - a decoded packet
 * @op: &enum drm_tempo_packet
 * @len: length in dwords, header included
 * @dw: the packet's dwords, header included
 */
struct tempo_packet {
	u32 op;
	u32 len;
	u32 dw[TEMPO_HW_MAX_PACKET_DW];
};

/* tempo_isa.c */
int tempo_isa_check_header(u32 header, u32 *op, u32 *len);
int tempo_isa_check_packet(const struct tempo_packet *pkt, u32 engine_class);
u64 tempo_isa_qword(const struct tempo_packet *pkt, u32 index);
bool tempo_isa_compare(u32 func, u64 value, u64 ref);

/* tempo_mem.c */
int tempo_mem_read(struct tempo_hw_mmu *mmu, u64 va, void *buf, u32 len);
int tempo_mem_write(struct tempo_hw_mmu *mmu, u64 va, const void *buf, u32 len);
int tempo_mem_fill(struct tempo_hw_mmu *mmu, u64 va, u32 value, u64 len);
int tempo_mem_copy(struct tempo_hw_mmu *mmu, u64 dst, u64 src, u64 len);
int tempo_mem_atomic_add(struct tempo_hw_mmu *mmu, u64 va, u64 value);
int tempo_mem_read64(struct tempo_hw_mmu *mmu, u64 va, u64 *value);
int tempo_mem_sum32(struct tempo_hw_mmu *mmu, u64 va, u64 len, u64 *sum);

/* tempo_hqd.c */
void tempo_hqd_init(struct tempo_engine *engine, u32 index,
		    struct tempo_hw_job **ring, u32 ring_size);
struct tempo_hw_hqd *tempo_hqd_select(struct tempo_engine *engine);
void tempo_hqd_retire(struct tempo_hw_hqd *hqd, struct tempo_hw_job *job,
		      int error);
int tempo_hqd_abort_pending(struct tempo_hw_hqd *hqd,
			    const struct tempo_hw_job *job);

/* tempo_cp.c */
int tempo_cp_start(struct tempo_engine *engine);
void tempo_cp_stop(struct tempo_engine *engine);

/* tempo_cu.c */
int tempo_cu_pool_init(struct tempo_cu_pool *pool, u32 num_cus);
void tempo_cu_pool_fini(struct tempo_cu_pool *pool);
void tempo_cu_dispatch(struct tempo_cu_pool *pool, struct tempo_dispatch *d);
void tempo_cu_cancel(struct tempo_cu_pool *pool, struct tempo_dispatch *d);

#endif /* _TEMPO_HW_PRIV_H_ */
