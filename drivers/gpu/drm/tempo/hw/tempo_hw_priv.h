/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The tempo authors
 *
 * Inside the emulated GPU: types and prototypes shared by the files of hw/.
 */
#ifndef _TEMPO_HW_PRIV_H_
#define _TEMPO_HW_PRIV_H_

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/seqlock.h>
#include <linux/spinlock.h>
#include <linux/timekeeping.h>
#include <linux/wait.h>

#include <drm/tempo_drm.h>

#include "tempo_hw.h"

/*
 * Whether a hardware fence's last reference calls into the module even
 * once signalled (an older kernel's dma_fence, compat/): then fences have
 * a .release, and the module's teardown waits for the last of them.
 */
#ifdef TEMPO_COMPAT_FENCE_PINS_MODULE
#define TEMPO_HW_FENCE_PINS_MODULE	true
#else
#define TEMPO_HW_FENCE_PINS_MODULE	false
#endif

struct task_struct;

#define TEMPO_HW_MAX_QUEUES		10
#define TEMPO_HW_MAX_CUS		64
/* Values tempo_hqd_rank() takes. */
#define TEMPO_HW_NUM_RANKS	((TEMPO_HW_PIPE_PRIO_MAX + 1) * \
				 (TEMPO_HW_QUEUE_PRIO_MAX + 1))
#define TEMPO_HW_MAX_ARGS		(TEMPO_HW_MAX_PACKET_DW - DRM_TEMPO_DISPATCH_ARGS)

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
 * struct tempo_partial - a workgroup stopped in the middle
 * @group: its index
 * @done: its progress, in its kernel's unit (see tempo_cu.c)
 */
struct tempo_partial {
	u32 group;
	u64 done;
};

/**
 * struct tempo_dispatch - one DISPATCH in progress on the CU pool
 * @link: in the pool's queue while it has workgroups to start
 * @hqd: the queue that issued it, for its priorities
 * @mmu: address space of the job
 * @kernel: &enum drm_tempo_kernel
 * @args: kernel arguments
 * @num_groups: workgroups in all
 * @next_group: next workgroup never started
 * @num_partial: entries in @partial
 * @partial: workgroups stopped by a preemption, to resume first
 * @pending: workgroups not finished
 * @running: workgroups on a CU now
 * @error: first error of a workgroup, or 0
 * @suspended: start no workgroup, stop running ones at their next check
 * @abort: like @suspended, and forget the workgroups not finished
 * @seq: order of arrival on the pool, kept across suspensions
 * @starved: its queue issued or resumed it on a starvation slice (see
 *	"Hardware queues"): the sequencer serves it before any other
 * @lane_ns: GPU time each compute unit spent on its workgroups that
 *	stopped or ended: the dispatch's GPU time is the longest lane
 * @cpu_ns: CPU time its workgroups' threads spent on it
 * @waiting: it has workgroups queued and none running
 * @wait_low: whether it waited as a low-priority dispatch
 * @wait_mark: the pool's full clock when it started waiting
 * @wait_ns: time it waited while the pool was full for it, the current
 *	wait not included
 *
 * Every field but @kernel, @args, @mmu and @num_groups is guarded by the
 * pool's lock.
 */
struct tempo_dispatch {
	struct list_head link;
	struct tempo_hw_hqd *hqd;
	struct tempo_hw_mmu *mmu;
	u32 kernel;
	u32 args[TEMPO_HW_MAX_ARGS];
	u32 num_groups;
	u32 next_group;
	u32 num_partial;
	struct tempo_partial partial[TEMPO_HW_MAX_CUS];
	u32 pending;
	u32 running;
	int error;
	bool suspended;
	bool abort;
	u64 seq;
	bool starved;
	u64 lane_ns[TEMPO_HW_MAX_CUS];
	u64 cpu_ns;
	bool waiting;
	bool wait_low;
	u64 wait_mark;
	u64 wait_ns;
};

/**
 * struct tempo_cp_state - an HQD's context save area
 * @job: the job started on the HQD and not ended, or NULL
 * @depth: current nesting level of @job
 * @pc: program counter of each nesting level
 * @in_dispatch: @dispatch is in progress: the packet after it has not
 *	been fetched yet
 * @dispatch: the DISPATCH in progress
 * @gpu_seen: GPU time, @cpu_seen: CPU time and @wait_seen: CU wait of
 *	@dispatch already added to the job
 * @cpu_seen: see @gpu_seen
 * @wait_seen: see @gpu_seen
 * @pkt_va: address of a COPY or FILL stopped in the middle, or 0
 * @pkt_done: bytes of that packet already done
 *
 * A preempted HQD keeps its state here and resumes from it exactly.
 */
struct tempo_cp_state {
	struct tempo_hw_job *job;
	u32 depth;
	u64 pc[TEMPO_HW_MAX_BATCH_DEPTH + 1];
	bool in_dispatch;
	struct tempo_dispatch dispatch;
	u64 gpu_seen;
	u64 cpu_seen;
	u64 wait_seen;
	u64 pkt_va;
	u64 pkt_done;
};

/**
 * struct tempo_hw_hqd - a hardware queue descriptor
 * @engine: the engine (pipe) whose command processor runs the queue
 * @index: index of the queue on its engine
 * @mqd: its programmed state; guarded by @engine's lock
 * @save: its context save area; used by the command processor only
 * @fence_context: dma_fence context of the jobs of this queue
 * @seqno: last fence seqno handed out; guarded by @engine's lock
 * @abort_seqno: fence seqno of a job software asked to abort, or 0
 * @abort_error: the error that job fails with
 * @retired_seqno: fence seqno of the last job retired
 * @waiting: the queue has work but was not chosen
 * @waiting_since: its engine's clock (tempo_hqd_clock()) when it started
 *	waiting, valid while @waiting
 * @jobs_done: jobs completed, for debugfs
 * @preemptions: times it was preempted, for debugfs
 * @busy_ns: GPU time of the queue's jobs on its engine, not counting the
 *	run in progress; guarded by @engine's lock
 */
struct tempo_hw_hqd {
	struct tempo_engine *engine;
	u32 index;
	struct tempo_mqd mqd;
	struct tempo_cp_state save;
	u64 fence_context;
	u64 seqno;
	u64 abort_seqno;
	int abort_error;
	u64 retired_seqno;
	bool waiting;
	u64 waiting_since;
	u64 jobs_done;
	u64 preemptions;
	u64 busy_ns;
};

/**
 * struct tempo_engine - an engine: one command processor and its HQDs
 * @hw: the device
 * @engine_class: &enum tempo_hw_engine_class
 * @instance: index among the engines of its class
 * @index: index among all engines
 * @lock: guards the MQDs of @hqds, @doorbell and @current_hqd
 * @doorbell: set when a queue's wptr moved; cleared by the command processor
 * @wq: where the command processor sleeps
 * @thread: the command processor
 * @cp_mutex: held by whoever runs the command processor: its thread, or
 *	a submitter running it in place (tempo_cp_run_in_place())
 * @stopping: the command processor is being stopped: the job running now
 *	ends, nothing runs in place any more
 * @num_hqds: entries in @hqds
 * @hqds: the hardware queues
 * @current_hqd: queue whose job runs now
 * @gpu_ns: GPU time of the runs that ended, on every queue
 * @run_gpu: GPU time of the run in progress, as the command processor
 *	last published it (see "GPU time" in tempo_hw.c)
 * @run_job: the job of the run in progress, or NULL
 * @run_seq: lets tempo_hw_job_run_ns() read @run_gpu, @run_job and the
 *	job's &tempo_hw_job.run_ns without @lock, which every run takes:
 *	fdinfo readers must not slow the command processors
 * @work_mark: the command processor's thread clock (tempo_clock_thread())
 *	when it last counted it; used by the command processor only
 * @stalled: it waits for compute units or for the other members of a
 *	gang: its time is not the job's; command processor only
 * @gpu_pending: GPU time of the run not yet published in @run_gpu;
 *	command processor only
 * @publish_wall: when (CLOCK_MONOTONIC) the command processor last
 *	published @run_gpu
 * @ran_ns: GPU time the engine ran jobs of each rank (tempo_hqd_rank()),
 *	the runs that ended: a job queued or preempted waits by right for
 *	those of its rank and above
 * @rank_start: since when (tempo_hqd_clock()) the run in progress counts
 *	at its queue's rank now: its start, or the last change of its
 *	queue's priority, which counted the run so far at the rank before
 */
struct tempo_engine {
	struct tempo_hw *hw;
	u32 engine_class;
	u32 instance;
	u32 index;
	spinlock_t lock; /* guards the MQDs, doorbell and current_hqd */
	bool doorbell;
	wait_queue_head_t wq;
	struct task_struct *thread;
	struct mutex cp_mutex; /* one command processor at a time */
	bool stopping;
	u32 num_hqds;
	struct tempo_hw_hqd hqds[TEMPO_HW_MAX_QUEUES];
	struct tempo_hw_hqd *current_hqd;
	u64 gpu_ns;
	u64 run_gpu;
	struct tempo_hw_job *run_job;
	seqcount_spinlock_t run_seq;
	u64 work_mark;
	bool stalled;
	u64 gpu_pending;
	u64 publish_wall;
	u64 ran_ns[TEMPO_HW_NUM_RANKS];
	u64 rank_start;
};

/**
 * struct tempo_cu - a compute unit: a thread that runs one workgroup at a
 * time
 * @pool: its pool
 * @thread: its thread
 * @check_wq: where its SPIN workgroup sleeps between two checks
 * @checks: bumped when its workgroup must check at once whether to stop:
 *	its dispatch was suspended or cancelled, or it may have to give its
 *	CU back to high-priority work
 * @d: the dispatch of its workgroup, or NULL; set under the pool's lock
 * @low: its workgroup counts in the pool's busy_low; under the pool's lock
 * @high_nice: its thread runs at the pool's high_nice; only the thread
 *	uses it
 * @gpu_ns: GPU time of the workgroups it ran that stopped or ended;
 *	under the pool's lock
 * @group_gpu: GPU time of its workgroup in progress as of its last check,
 *	published by its thread
 * @spin_since: while its SPIN workgroup sleeps, when the sleep started
 *	(CLOCK_MONOTONIC), else 0; published by its thread
 * @spin_left: the SPIN time left when that sleep started
 */
struct tempo_cu {
	struct tempo_cu_pool *pool;
	struct task_struct *thread;
	wait_queue_head_t check_wq;
	atomic_t checks;
	struct tempo_dispatch *d;
	bool low;
	bool high_nice;
	u64 gpu_ns;
	u64 group_gpu;
	u64 spin_since;
	u64 spin_left;
};

/**
 * struct tempo_cu_pool - the compute units shared by all engines
 * @lock: guards @queue, @busy, @busy_low, @high_queues, @full_ns,
 *	@full_since, @next_seq and the bookkeeping of every queued dispatch
 * @queue: dispatches with workgroups to start
 * @wq: where idle compute units wait
 * @num_cus: entries in @threads
 * @reserved: CUs kept for high-priority queues while one has work
 * @by_priority: take workgroups by (pipe, queue) priority, else at random
 * @nice: nice level of the compute units' threads
 * @high_nice: their nice level while they run a workgroup of a queue of
 *	the high pipe priority
 * @busy: compute units running a workgroup now
 * @busy_low: of which for queues below the high pipe priority
 * @high_queues: high-pipe-priority queues that have work
 * @full_ns: the full clocks, indexed by whether a dispatch is low-priority:
 *	the pool's GPU time (tempo_cu_clock()) during which such a dispatch
 *	waited for a CU by right (no CU left that it may take or have back
 *	at once), the current stretch not included
 * @full: whether the current stretch of each runs
 * @full_since: start of the current stretch of each
 * @clock_seen: the highest tempo_cu_clock() returned: it never goes back
 * @next_seq: &tempo_dispatch.seq of the next dispatch
 * @groups_done: workgroups completed, for debugfs
 * @cus: the compute units
 */
struct tempo_cu_pool {
	spinlock_t lock; /* guards the queue and the counters */
	struct list_head queue;
	wait_queue_head_t wq;
	u32 num_cus;
	u32 reserved;
	bool by_priority;
	int nice;
	int high_nice;
	u32 busy;
	u32 busy_low;
	u32 high_queues;
	u64 full_ns[2];
	bool full[2];
	u64 full_since[2];
	u64 clock_seen;
	u64 next_seq;
	atomic64_t groups_done;
	struct tempo_cu *cus;
};

/**
 * struct tempo_hw - the emulated GPU
 * @dev: the device it belongs to
 * @config: its topology and policies
 * @num_engines: entries in @engines
 * @engines: all engines, by class then instance
 * @cus: the compute-unit pool
 * @gang_lock: orders the ring writes of gangs
 */
struct tempo_hw {
	struct device *dev;
	struct tempo_hw_config config;
	u32 num_engines;
	struct tempo_engine *engines;
	struct tempo_cu_pool cus;
	spinlock_t gang_lock; /* orders gang ring writes */
};

/**
 * struct tempo_packet - a decoded packet
 * @va: its GPU address
 * @op: &enum drm_tempo_packet
 * @len: length in dwords, header included
 * @dw: the packet's dwords, header included
 */
struct tempo_packet {
	u64 va;
	u32 op;
	u32 len;
	u32 dw[TEMPO_HW_MAX_PACKET_DW];
};

/*
 * An HQD's priorities as its MQD holds them: what arbitration (tempo_hqd.c)
 * and the CU pool's sequencer (tempo_cu.c) read, without a call into
 * either file.
 */

/**
 * tempo_hqd_is_high() - whether a queue has the high pipe priority
 * @hqd: the queue
 *
 * Context: any; a racy read, for heuristics.
 * Return: true for pipe priority 2.
 */
static inline bool tempo_hqd_is_high(const struct tempo_hw_hqd *hqd)
{
	return READ_ONCE(hqd->mqd.pipe_priority) == TEMPO_HW_PIPE_PRIO_MAX;
}

/**
 * tempo_hqd_rank() - a queue's priority as one number
 * @hqd: the queue
 *
 * Context: any; a racy read, for heuristics.
 * Return: pipe priority first, then queue priority; higher runs first.
 */
static inline u32 tempo_hqd_rank(const struct tempo_hw_hqd *hqd)
{
	return READ_ONCE(hqd->mqd.pipe_priority) * (TEMPO_HW_QUEUE_PRIO_MAX + 1) +
	       READ_ONCE(hqd->mqd.queue_priority);
}

/*
 * The clocks of the threads of the emulation (see "GPU time" in
 * tempo_hw.c), which the command processors, the compute units and the
 * queues' accounting read.
 */

/**
 * tempo_clock_cpu() - the current thread's CPU time
 *
 * The scheduler's count as of its last update (a tick or a context switch
 * at most before): the running delta is not exported to modules. For
 * the host CPU time the emulation costs (fdinfo's tempo-cpu-<class>).
 *
 * Context: process.
 * Return: nanoseconds.
 */
static inline u64 tempo_clock_cpu(void)
{
	return READ_ONCE(current->se.sum_exec_runtime);
}

/**
 * tempo_clock_thread() - the current thread's clock
 *
 * The thread is a command processor's, a compute unit's or a submitter's
 * running a command processor in place. Its clock is CLOCK_MONOTONIC less
 * the time the thread waited for a CPU while runnable (woken, or
 * preempted), which the kernel counts per task with CONFIG_SCHED_INFO and
 * brings up to date each time the task gets a CPU, so that a running
 * thread reads it exactly: the clock runs while the thread runs or
 * sleeps. Without CONFIG_SCHED_INFO (Debian's kernels all have it) it is
 * the host's clock.
 *
 * Context: process.
 * Return: nanoseconds; only differences mean anything.
 */
static inline u64 tempo_clock_thread(void)
{
#ifdef CONFIG_SCHED_INFO
	return ktime_get_ns() - READ_ONCE(current->sched_info.run_delay);
#else
	return ktime_get_ns();
#endif
}

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

/* tempo_fence.c */
void tempo_fence_init(struct tempo_hw_fence *fence, u64 context, u64 seqno);
void tempo_fence_end(struct tempo_hw_fence *hw_fence, int error);

/* tempo_hqd.c */
void tempo_hqd_init(struct tempo_engine *engine, u32 index,
		    struct tempo_hw_job **ring, u32 ring_size);
struct tempo_hw_hqd *tempo_hqd_select(struct tempo_engine *engine,
				      u64 *slice_end);
void tempo_hqd_fetch(struct tempo_hw_hqd *hqd);
void tempo_hqd_ran(struct tempo_hw_hqd *hqd);
void tempo_hqd_ran_locked(struct tempo_hw_hqd *hqd);
u64 tempo_hqd_clock(const struct tempo_engine *engine);
void tempo_hqd_start_engine_wait(struct tempo_engine *engine,
				 struct tempo_hw_hqd *hqd,
				 struct tempo_hw_job *job, u64 now);
void tempo_hqd_stall(struct tempo_engine *engine, bool stalled);
void tempo_hqd_add_gpu(struct tempo_engine *engine, u64 ns);
bool tempo_hqd_hung(struct tempo_hw_hqd *hqd, const struct tempo_hw_job *job);
bool tempo_hqd_should_yield(struct tempo_engine *engine,
			    struct tempo_hw_hqd *running, u64 slice_end);
u64 tempo_hqd_next_yield(struct tempo_engine *engine,
			 struct tempo_hw_hqd *running, u64 slice_end);
void tempo_hqd_high_busy(struct tempo_hw_hqd *hqd, bool busy);
void tempo_hqd_queued(struct tempo_hw_hqd *hqd, struct tempo_hw_job *job);

/* tempo_ring.c */
void tempo_ring_retire(struct tempo_hw_hqd *hqd, struct tempo_hw_job *job,
		       int error);
int tempo_ring_abort_pending(struct tempo_hw_hqd *hqd,
			     const struct tempo_hw_job *job);

/* tempo_cp.c */
int tempo_cp_start(struct tempo_engine *engine);
void tempo_cp_stop(struct tempo_engine *engine);
void tempo_cp_drain(struct tempo_engine *engine);

/* tempo_cu.c */
int tempo_cu_pool_init(struct tempo_cu_pool *pool, u32 num_cus,
		       u32 reserved, bool by_priority, int nice,
		       int high_nice);
void tempo_cu_pool_fini(struct tempo_cu_pool *pool);
void tempo_cu_dispatch(struct tempo_cu_pool *pool, struct tempo_dispatch *d,
		       bool starved);
void tempo_cu_suspend(struct tempo_cu_pool *pool, struct tempo_dispatch *d);
void tempo_cu_resume(struct tempo_cu_pool *pool, struct tempo_dispatch *d,
		     bool starved);
void tempo_cu_cancel(struct tempo_cu_pool *pool, struct tempo_dispatch *d);
bool tempo_cu_dispatch_idle(struct tempo_cu_pool *pool,
			    struct tempo_dispatch *d, int *error);
void tempo_cu_dispatch_usage(struct tempo_cu_pool *pool,
			     struct tempo_dispatch *d, u64 *gpu_ns,
			     u64 *cpu_ns, u64 *wait_ns);
u64 tempo_cu_clock(struct tempo_cu_pool *pool);
void tempo_cu_high_queue(struct tempo_cu_pool *pool, bool busy);
struct tempo_dispatch *tempo_cu_pick(struct tempo_cu_pool *pool);
void tempo_cu_pool_changed(struct tempo_cu_pool *pool, u64 now);
void tempo_cu_wait_start(struct tempo_cu_pool *pool, struct tempo_dispatch *d,
			 u64 now);
u64 tempo_cu_wait_so_far(const struct tempo_cu_pool *pool,
			 const struct tempo_dispatch *d, u64 now);
void tempo_cu_wait_end(struct tempo_cu_pool *pool, struct tempo_dispatch *d,
		       u64 now);

#endif /* _TEMPO_HW_PRIV_H_ */
