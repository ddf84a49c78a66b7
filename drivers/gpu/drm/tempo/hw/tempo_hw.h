/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The tempo authors
 *
 * The boundary between the driver and the hardware it drives: a backend
 * for a real GPU would provide the same functions and types.
 *
 * Outside hw/, only device setup (tempo_drv.c) includes this header, and
 * the scheduler glue through its private header, tempo_sched.h. These are
 * the only files of the driver that see the backend ("make gates" fails
 * when another one includes this header or tempo_sched.h):
 *
 * Backend users: tempo_drv.c tempo_job.c tempo_sched.c tempo_sched.h
 * tempo_sched_kunit.c tempo_job_kunit.c
 */
#ifndef _TEMPO_HW_H_
#define _TEMPO_HW_H_

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/dma-fence.h>
#include <linux/stddef.h>
#include <linux/time64.h>
#include <linux/types.h>

/* Longest packet, in dwords. */
#define TEMPO_HW_MAX_PACKET_DW		32
/* Deepest nesting of BATCH_START calls. */
#define TEMPO_HW_MAX_BATCH_DEPTH	4
/* Most workgroups of one DISPATCH. */
#define TEMPO_HW_MAX_GROUPS		BIT(20)
/* Highest pipe and queue priorities an MQD takes. */
#define TEMPO_HW_PIPE_PRIO_MAX		2
#define TEMPO_HW_QUEUE_PRIO_MAX		15
/* The priorities every MQD starts with: the middle of both ranges. */
#define TEMPO_HW_PIPE_PRIO_NORMAL	1
#define TEMPO_HW_QUEUE_PRIO_NORMAL	7
/* How much lower than the command processors the compute units run. */
#define TEMPO_HW_CU_NICE_OFFSET		9
/*
 * Least a starved queue runs once chosen before it can be preempted, in
 * its engine's GPU time.
 */
#define TEMPO_HW_TIMESLICE_NS		(2 * NSEC_PER_MSEC)
/*
 * Longest a queue runs, in GPU time, while another of the same priority
 * has work.
 */
#define TEMPO_HW_QUANTUM_NS		(10 * NSEC_PER_MSEC)

struct device;
struct tempo_hw;
struct tempo_hw_hqd;

/**
 * enum tempo_hw_engine_class - engine classes, numbered as in the uAPI
 * @TEMPO_HW_CLASS_GFX: graphics engine
 * @TEMPO_HW_CLASS_COMPUTE: compute engine
 * @TEMPO_HW_CLASS_COPY: copy engine, no DISPATCH
 * @TEMPO_HW_NUM_CLASSES: number of classes
 */
enum tempo_hw_engine_class {
	TEMPO_HW_CLASS_GFX,
	TEMPO_HW_CLASS_COMPUTE,
	TEMPO_HW_CLASS_COPY,
	TEMPO_HW_NUM_CLASSES,
};

/**
 * struct tempo_hw_config - the topology to build
 * @engines: engines of each class
 * @queues: hardware queues (HQDs) of each engine, by class
 * @num_cus: compute units in the shared pool
 * @ring_size: jobs each HQD ring holds (a power of two)
 * @cu_reserved: CUs kept for high-priority queues while one has work
 * @cu_by_priority: the sequencer serves dispatches by queue priority, not
 *	at random
 * @starve_ns: a queue waiting with work longer than this, in its
 *	engine's GPU time, runs next
 * @hang_ns: the hang watchdog: a job whose running time (see
 *	&tempo_hw_job.run_ns) reaches this is stopped at its next check and
 *	fails with -ETIMEDOUT; 0 turns the watchdog off
 * @nice: nice level of the command processors' threads; the compute
 *	units' threads run %TEMPO_HW_CU_NICE_OFFSET lower
 */
struct tempo_hw_config {
	u32 engines[TEMPO_HW_NUM_CLASSES];
	u32 queues[TEMPO_HW_NUM_CLASSES];
	u32 num_cus;
	u32 ring_size;
	u32 cu_reserved;
	bool cu_by_priority;
	u64 starve_ns;
	u64 hang_ns;
	int nice;
};

/**
 * struct tempo_hw_hqd_info - what software may know of an HQD
 * @engine_class: class of its engine
 * @engine_instance: instance of its engine in its class
 * @engine: index of its engine in the device
 * @queue: index of the HQD on its engine
 * @pipe_priority: programmed pipe priority, 0..2
 * @queue_priority: programmed queue priority, 0..15
 */
struct tempo_hw_hqd_info {
	u16 engine_class;
	u16 engine_instance;
	u16 engine;
	u16 queue;
	u8 pipe_priority;
	u8 queue_priority;
};

struct tempo_hw_mmu;

/**
 * struct tempo_hw_mmu_ops - the GPU MMU, as seen by the hardware
 * @lock: make translations stable; may spin, never sleeps
 * @unlock: end of the accesses made after @lock
 * @translate: CPU address of [va, va + len), which must lie in one page,
 *	or NULL when unmapped (or read-only and @write is true)
 */
struct tempo_hw_mmu_ops {
	void (*lock)(struct tempo_hw_mmu *mmu);
	void (*unlock)(struct tempo_hw_mmu *mmu);
	void *(*translate)(struct tempo_hw_mmu *mmu, u64 va, u32 len, bool write);
};

/**
 * struct tempo_hw_mmu - an address space the hardware can walk
 * @ops: how to walk it
 */
struct tempo_hw_mmu {
	const struct tempo_hw_mmu_ops *ops;
};

/**
 * struct tempo_hw_fence - the fence an HQD signals at the end of a job
 * @base: the dma_fence
 * @lock: its lock
 * @ended: the job's completion interrupt, or NULL: the hardware calls it
 *	with @data and the job's error (0 or negative) as the job ends,
 *	before @base signals, in a fence signalling section
 * @data: for @ended
 *
 * Whoever waits for @base, or adds a callback to it, learns the job
 * ended only after @ended returned: a callback on @base would not give
 * that order, since a callback added while @base signals runs at once.
 *
 * The driver allocates the fence, zeroed, with kmalloc(): alone, or as
 * the first member of a larger allocation, since the hardware fence may
 * not be allocated at submission. Once initialised (tempo_hw_hqd_submit(),
 * tempo_hw_fence_init()), its last reference frees that allocation whole,
 * after an RCU grace period. Where dma_fence_signal() detaches a signalled
 * fence from its ops, that calls nothing of the module's and the fence may
 * outlive it; elsewhere it goes through the fence's release, and
 * tempo_hw_wait_fences_freed() keeps the module until no fence is left.
 * Until it is initialised, the driver frees it.
 */
struct tempo_hw_fence {
	struct dma_fence base;
	spinlock_t lock; /* the fence's lock */
	void (*ended)(void *data, int error);
	void *data;
};

static_assert(offsetof(struct tempo_hw_fence, base) == 0);

/**
 * struct tempo_hw_job - a job as written into an HQD ring
 * @mmu: address space of the job's batches
 * @batch_va: GPU address of the first-level batch
 * @fence: signalled by the hardware when END of the batch is reached,
 *	with an error when the job failed
 * @cancel: when non-zero as the job is about to start, the hardware skips
 *	it and ends it with -ECANCELED (a banned context's status word)
 * @gang: the gang the job is a member of, or NULL
 * @hqd: the HQD it was written to, set by the hardware
 * @seqno: position of the job in its HQD, set by the hardware
 * @gang_present: a gang member holds its engine, set by the hardware
 * @run_ns: the job's running time in the runs that ended (it was
 *	preempted or it ended), in GPU time: the CPU time its command
 *	processor spent running it, but not waiting for compute units or
 *	for the rest of its gang, plus its DISPATCHes' GPU time and its
 *	modelled waits, never time the hardware's threads waited for a host
 *	CPU; set by the hardware
 * @cpu_ns: host CPU time the emulation spent on the job (command
 *	processor and compute units), set by the hardware
 * @times: what WRITE_JOB_TIMES reports (&struct drm_tempo_job_times),
 *	set by the hardware: when the job was written into its ring
 *	(@times.queued) and fetched (@times.started), and the GPU time it
 *	waited for its engine (@times.engine_wait_ns) and for compute units
 *	(@times.cu_wait_ns) while other jobs it did not outrank ran
 * @engine_rank: the rank (pipe and queue priority) its queue had when
 *	the job started waiting for its engine (queued, or preempted), set
 *	by the hardware
 * @engine_mark: its engine's running time on jobs of that rank and above
 *	then, set by the hardware
 */
struct tempo_hw_job {
	struct tempo_hw_mmu *mmu;
	u64 batch_va;
	struct tempo_hw_fence *fence;
	const atomic_t *cancel;
	struct tempo_hw_gang *gang;
	struct tempo_hw_hqd *hqd;
	u64 seqno;
	bool gang_present;
	u64 run_ns;
	u64 cpu_ns;
	struct {
		u64 queued;
		u64 started;
		u64 engine_wait_ns;
		u64 cu_wait_ns;
	} times;
	u32 engine_rank;
	u64 engine_mark;
};

/* Most batches of one gang. */
#define TEMPO_HW_MAX_WIDTH		4

/**
 * struct tempo_hw_gang - batches that run together on several engines
 * @width: members in @members
 * @members: one job per batch; their @fence is NULL, the gang's is @fence
 * @fence: signalled when every member has ended, with the first error
 * @lock: guards @present, @ended, @preempt and the members' @gang_present
 * @present: members holding their engine now
 * @ended: members that ended
 * @preempt: a member was preempted: every member stops at its next
 *	preemption point, and none runs again before all have stopped
 * @pending: members not ended
 * @error: first error of a member, or 0
 *
 * A gang runs, and is preempted, as one unit: no member runs a packet
 * unless every member not ended holds its engine, and when one member is
 * preempted the others are too, at their next preemption point.
 */
struct tempo_hw_gang {
	u32 width;
	struct tempo_hw_job members[TEMPO_HW_MAX_WIDTH];
	struct tempo_hw_fence *fence;
	spinlock_t lock; /* see above */
	u32 present;
	u32 ended;
	bool preempt;
	atomic_t pending;
	atomic_t error;
};

struct tempo_hw *tempo_hw_create(struct device *dev,
				 const struct tempo_hw_config *config);
void tempo_hw_stop(struct tempo_hw *hw);
void tempo_hw_destroy(struct tempo_hw *hw);
u32 tempo_hw_num_engines(const struct tempo_hw *hw);
u32 tempo_hw_num_hqds(const struct tempo_hw *hw);
struct tempo_hw_hqd *tempo_hw_hqd(struct tempo_hw *hw, u32 index);
void tempo_hw_hqd_info(const struct tempo_hw_hqd *hqd,
		       struct tempo_hw_hqd_info *info);
u64 tempo_hw_timestamp_frequency(void);

struct dma_fence *tempo_hw_hqd_submit(struct tempo_hw_hqd *hqd,
				      struct tempo_hw_job *job);
void tempo_hw_hqd_kick(struct tempo_hw_hqd *hqd, bool in_place);
void tempo_hw_hqd_abort(struct tempo_hw_hqd *hqd, struct tempo_hw_job *job,
			int error);
void tempo_hw_fence_init(struct tempo_hw_fence *fence, u64 context, u64 seqno);
void tempo_hw_wait_fences_freed(struct tempo_hw *hw);
struct dma_fence *tempo_hw_gang_submit(struct tempo_hw_gang *gang,
				       struct tempo_hw_hqd **hqds);
void tempo_hw_gang_abort(struct tempo_hw_gang *gang, int error);
bool tempo_hw_hqd_idle(struct tempo_hw_hqd *hqd);
u32 tempo_hw_hqd_pending(struct tempo_hw_hqd *hqd);
u64 tempo_hw_job_run_ns(struct tempo_hw_job *job);
void tempo_hw_hqd_set_priority(struct tempo_hw_hqd *hqd, u8 pipe_priority,
			       u8 queue_priority);

/**
 * struct tempo_hw_hqd_state - an HQD's live state, for debugfs
 * @active: the MQD's active bit
 * @running: its job holds the engine now
 * @preempted: its job was preempted and is saved
 * @rptr: read pointer
 * @wptr: write pointer
 * @jobs_done: jobs completed
 * @preemptions: times it was preempted
 * @busy_ns: GPU time its jobs ran on its engine, the run in progress
 *	included
 */
struct tempo_hw_hqd_state {
	bool active;
	bool running;
	bool preempted;
	u32 rptr;
	u32 wptr;
	u64 jobs_done;
	u64 preemptions;
	u64 busy_ns;
};

/**
 * struct tempo_hw_cu_state - the compute-unit pool's occupancy
 * @num_cus: compute units
 * @busy: busy now
 * @busy_low: of which for queues below the high pipe priority
 * @reserved: kept for high-priority queues while one has work
 * @high_queues: high-priority queues with work
 * @by_priority: the sequencer follows queue priorities
 * @groups_done: workgroups completed
 */
struct tempo_hw_cu_state {
	u32 num_cus;
	u32 busy;
	u32 busy_low;
	u32 reserved;
	u32 high_queues;
	bool by_priority;
	u64 groups_done;
};

void tempo_hw_hqd_state(const struct tempo_hw_hqd *hqd,
			struct tempo_hw_hqd_state *st);
void tempo_hw_cu_state(struct tempo_hw *hw, struct tempo_hw_cu_state *st);

#endif /* _TEMPO_HW_H_ */
