/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The tempo authors
 *
 * The driver's data structures. The hardware is opaque here: its HQDs are
 * pointers the scheduler glue hands to hw/tempo_hw.h, and the jobs as the
 * hardware sees them are in tempo_sched.h, private to the glue.
 */
#ifndef _TEMPO_TYPES_H_
#define _TEMPO_TYPES_H_

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/dma-resv.h>
#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/rwlock.h>
#include <linux/uidgid.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include <drm/drm_device.h>
#include <drm/drm_mm.h>
#include <drm/gpu_scheduler.h>

#include <drm/tempo_drm.h>

struct tempo_hw;
struct tempo_hw_hqd;

/* Hardware queues an engine may have. */
#define TEMPO_MAX_QUEUES	8
/*
 * HQDs an engine may have: its queues and, on classes with parallel
 * slots, two for gangs: one for gangs of regular contexts, one for gangs
 * of contexts above normal priority.
 */
#define TEMPO_GANG_HQDS		2
#define TEMPO_MAX_HQDS		(TEMPO_MAX_QUEUES + TEMPO_GANG_HQDS)
/* Engines a load-balanced or parallel slot may list per batch. */
#define TEMPO_MAX_SIBLINGS	8
/* Engine classes with parallel slots, as bits. */
#define TEMPO_PARALLEL_CLASSES	(BIT(DRM_TEMPO_ENGINE_CLASS_COMPUTE) | \
				 BIT(DRM_TEMPO_ENGINE_CLASS_COPY))
/* Jobs an HQD ring holds: the credit limit of its scheduler. */
#define TEMPO_RING_SIZE		64
/* Limits reported by the device query. */
#define TEMPO_MAX_SLOTS		64
#define TEMPO_MAX_SYNCS		64
#define TEMPO_MAX_BATCHES	4
#define TEMPO_MAX_BO_SIZE	BIT_ULL(30)
#define TEMPO_VA_START		BIT_ULL(20)
#define TEMPO_VA_END		BIT_ULL(40)
/* Longest a closing file or a destroyed context waits for queued jobs. */
#define TEMPO_CLOSE_WAIT_MS	1000

/*
 * MQD priorities as the driver programs them: pipe priority 0..2 and
 * queue priority 0..15, normal in the middle of both.
 */
#define TEMPO_PIPE_PRIO_NORMAL	1
#define TEMPO_PIPE_PRIO_HIGH	2
#define TEMPO_QUEUE_PRIO_NORMAL	7
#define TEMPO_QUEUE_PRIO_MAX	15

/* Module parameters' bounds, as plain numbers for MODULE_PARM_DESC(). */
#define TEMPO_PARAM_ENGINES_MAX		8
#define TEMPO_PARAM_CUS_MAX		64
#define TEMPO_PARAM_TIMEOUT_MS_MIN	100
#define TEMPO_PARAM_TIMEOUT_MS_MAX	60000
#define TEMPO_PARAM_STARVE_MS_MAX	10000
#define TEMPO_PARAM_CONTEXTS_MAX	65536
#define TEMPO_PARAM_MAPPINGS_MAX	1048576
#define TEMPO_PARAM_JOBS_MAX		65536
#define TEMPO_PARAM_BOS_MAX		1048576
#define TEMPO_PARAM_BO_MIB_MAX		1048576
#define TEMPO_PARAM_INHERIT_MS_MAX	1000
/* Scheduler queues a device may have: every HQD of every engine but gangs'. */
#define TEMPO_MAX_DEVICE_QUEUES	(TEMPO_NUM_CLASSES * TEMPO_PARAM_ENGINES_MAX * \
				 TEMPO_MAX_QUEUES)

/**
 * struct tempo_params - module parameters, read once at load
 * @gfx_engines: GFX engines
 * @compute_engines: COMPUTE engines
 * @copy_engines: COPY engines
 * @compute_queues: HQDs per compute engine
 * @queues: HQDs per GFX or COPY engine
 * @cus: compute units
 * @job_timeout_ms: a job running longer fails with -ETIMEDOUT
 * @hqd_policy: &enum tempo_hqd_policy
 * @cu_reserved: CUs kept for high-priority queues while one has work
 * @cu_by_priority: the CU sequencer follows queue priorities
 * @starve_ms: starvation bound of a hardware queue with work
 * @max_contexts: contexts one file may have
 * @max_mappings: GPU mappings one file may have
 * @max_jobs: jobs one file may have in flight (submitted, not yet freed)
 * @max_bos: buffers one file may have created and not yet freed
 * @max_bo_mib: MiB of such buffers one file may have
 * @user_max_bos: buffers the files of one user may have, together
 * @user_max_bo_mib: MiB of such buffers the files of one user may have
 * @max_resident_mib: writable at run time: MiB of buffers with pages (from
 *	their first mapping until freed) the whole device may have, 0 for
 *	half of the RAM
 * @user_resident_mib: writable at run time: MiB of such buffers one
 *	user's files may have, 0 for half of the device's ceiling; never
 *	above it
 * @hw_nice: nice level of the emulated hardware's threads
 * @master_priority: a DRM master may raise priorities and override other
 *	files', as on a device driven by a display server
 * @floor: a benchmark switch, writable at run time: run_job ends every
 *	single-queue job at once without handing it to the hardware, as a
 *	bare drm_sched driver would, so that the scheduler's own cost can be
 *	measured beside tempo's
 * @run_in_place: writable at run time: run_job runs an idle engine's
 *	command processor itself instead of waking its thread
 * @inherit_ms: writable at run time: how long a priority loan
 *	(%DRM_TEMPO_EXEC_INHERIT_PRIORITY) lasts, in running time of the
 *	borrowing job's HQD
 * @hw_submission: jobs each scheduler may have handed to its HQD ring and
 *	not yet ended; the others wait in drm_sched, in priority order
 */
struct tempo_params {
	unsigned int gfx_engines;
	unsigned int compute_engines;
	unsigned int copy_engines;
	unsigned int compute_queues;
	unsigned int queues;
	unsigned int cus;
	unsigned int job_timeout_ms;
	unsigned int hqd_policy;
	unsigned int cu_reserved;
	bool cu_by_priority;
	unsigned int starve_ms;
	unsigned int max_contexts;
	unsigned int max_mappings;
	unsigned int max_jobs;
	unsigned int max_bos;
	unsigned int max_bo_mib;
	unsigned int user_max_bos;
	unsigned int user_max_bo_mib;
	unsigned int max_resident_mib;
	unsigned int user_resident_mib;
	int hw_nice;
	bool master_priority;
	bool floor;
	bool run_in_place;
	unsigned int inherit_ms;
	unsigned int hw_submission;
};

/**
 * enum tempo_hqd_policy - how contexts' priorities reach the HQDs
 * @TEMPO_HQD_STATIC: on each engine with several HQDs the last one is
 *	programmed high priority at init and takes only contexts above
 *	normal; the others are regular and take the rest
 * @TEMPO_HQD_DYNAMIC: every context may use every HQD of its engine;
 *	run_job reprograms an HQD to the priority of the job it writes
 */
enum tempo_hqd_policy {
	TEMPO_HQD_STATIC = 0,
	TEMPO_HQD_DYNAMIC = 1,
};

/**
 * struct tempo_prio - what a context priority means, decided in one place
 * @sched: the drm_sched run queue
 * @pipe: the HQD pipe priority, 0..2
 * @queue: the HQD queue priority, 0..15
 * @high: the context belongs on high-priority HQDs
 */
struct tempo_prio {
	enum drm_sched_priority sched;
	u8 pipe;
	u8 queue;
	bool high;
};

struct tempo_device;

/**
 * struct tempo_queue - the scheduler in front of one HQD
 * @sched: its drm_sched scheduler
 * @hqd: the hardware queue it feeds, for the scheduler glue
 * @tdev: the device
 * @engine_class: &enum drm_tempo_engine_class of its engine
 * @engine_instance: its engine's instance in the class
 * @engine: its engine's index in &tempo_device.engines
 * @index: the HQD's index on its engine
 * @init_pipe: the pipe priority its MQD was programmed with at load
 * @init_queue: the queue priority its MQD was programmed with at load
 * @ring_lock: protects @ring
 * @ring: the jobs run_job wrote into the HQD whose hardware fence has not
 *	signalled, by &tempo_job.ring_link; the HQD runs at the highest of
 *	their contexts' priorities
 * @stop_lock: serialises the sections that stop @sched's submission and
 *	start it again: the timeout handler's and an entity's end
 *	(tempo_sched_entity_fini())
 * @loan_work: ends the priority loans of the jobs in @ring whose HQD
 *	running time ran out
 */
struct tempo_queue {
	struct drm_gpu_scheduler sched;
	struct tempo_hw_hqd *hqd;
	struct tempo_device *tdev;
	u16 engine_class;
	u16 engine_instance;
	u16 engine;
	u16 index;
	u8 init_pipe;
	u8 init_queue;
	spinlock_t ring_lock;	/* protects @ring */
	struct list_head ring;
	struct mutex stop_lock;	/* serialises stopping @sched */
	struct delayed_work loan_work;
};

/**
 * struct tempo_caps - what the hardware can do, read at init
 * @timestamp_frequency: ticks per second of WRITE_TIMESTAMP
 * @max_packet_dw: longest packet, header included
 * @max_batch_depth: deepest BATCH_START nesting
 * @max_groups: most workgroups of one DISPATCH
 */
struct tempo_caps {
	u64 timestamp_frequency;
	u32 max_packet_dw;
	u32 max_batch_depth;
	u32 max_groups;
};

/**
 * struct tempo_engine_desc - an engine as the scheduler sees it
 * @engine_class: &enum drm_tempo_engine_class
 * @engine_instance: instance in its class
 * @first_queue: index of its first queue in &tempo_device.queues
 * @num_queues: queues of the engine
 * @scheds: the schedulers of those queues
 * @num_placed: entries of @placed, for regular [0] and high [1] contexts
 * @placed: the schedulers a slot's entity may use, by context kind
 * @gang_hqd: the HQDs that run gang members of regular [0] and high [1]
 *	contexts, or NULL when the engine's class has no parallel slots
 */
struct tempo_engine_desc {
	u16 engine_class;
	u16 engine_instance;
	u32 first_queue;
	u32 num_queues;
	struct drm_gpu_scheduler *scheds[TEMPO_MAX_QUEUES];
	u32 num_placed[2];
	struct drm_gpu_scheduler *placed[2][TEMPO_MAX_QUEUES];
	struct tempo_hw_hqd *gang_hqd[TEMPO_GANG_HQDS];
};

/**
 * struct tempo_device - a tempo device
 * @drm: the DRM device
 * @hw: the hardware, for device setup and the scheduler glue
 * @caps: what it can do
 * @num_engines: entries in @engines
 * @engines: the engines, by class then instance
 * @num_queues: entries in @queues
 * @queues: one scheduler per HQD, engine after engine, gang HQDs excluded
 * @gang: the schedulers of the gangs of regular [0] and high [1] contexts
 * @gang_scheds: each of @gang's schedulers, as an entity's list
 * @job_timeout_ms: job timeout
 * @hqd_policy: &enum tempo_hqd_policy
 * @reset_count: hardware queue resets since load
 * @users_lock: serialises adding and removing entries of @users
 * @users: the &struct tempo_user of each user with an open file or a
 *	buffer, by uid
 * @resident: bytes of buffers with pages, all files
 */
struct tempo_device {
	struct drm_device drm;
	struct tempo_hw *hw;
	struct tempo_caps caps;
	u32 num_engines;
	struct tempo_engine_desc *engines;
	u32 num_queues;
	struct tempo_queue *queues;
	struct tempo_queue gang[TEMPO_GANG_HQDS];
	struct drm_gpu_scheduler *gang_scheds[TEMPO_GANG_HQDS][1];
	u32 job_timeout_ms;
	u32 hqd_policy;
	atomic_t reset_count;
	struct mutex users_lock; /* adds and removes @users' entries */
	struct xarray users;
	atomic64_t resident;
};

/**
 * struct tempo_budget - buffers counted against a budget
 * @bos: buffers created and not yet freed
 * @bytes: their bytes
 * @resident: bytes of those buffers whose pages were allocated (from
 *	their first mapping or pin until they are freed)
 */
struct tempo_budget {
	atomic_t bos;
	atomic64_t bytes;
	atomic64_t resident;
};

/**
 * struct tempo_user - what the files of one user hold together
 * @refcount: held by each of the user's files and buffers
 * @tdev: the device, whose table lists it
 * @uid: the real uid of the process that opened the files
 * @budget: the user's buffers, against &tempo_params.user_max_bos,
 *	&tempo_params.user_max_bo_mib and &tempo_params.user_resident_mib
 */
struct tempo_user {
	struct kref refcount;
	struct tempo_device *tdev;
	kuid_t uid;
	struct tempo_budget budget;
};

/**
 * struct tempo_vm_resv - the reservation object of an address space
 * @refcount: held by the address space, by each of its private buffers
 *	and by each fence of its timeline that has not signalled
 * @resv: the last fence of @fence_context; also the reservation object of
 *	its private buffers
 * @num_bos: private buffers alive; an exec adds a fence to @resv only
 *	when there is one
 * @fence_lock: guards @pending and signals its fences in order
 * @fence_context: the address space's timeline: one fence per exec that
 *	signals once its job and every earlier one of the timeline ended
 * @seqno: last seqno of @fence_context; guarded by @resv's lock
 * @pending: the fences of @fence_context not signalled yet, in seqno
 *	order, each referenced
 *
 * Apart from &struct tempo_vm, so that a private buffer may outlive its
 * address space, which holds it through its mappings.
 */
struct tempo_vm_resv {
	struct kref refcount;
	struct dma_resv resv;
	atomic_t num_bos;
	spinlock_t fence_lock; /* guards pending */
	u64 fence_context;
	u64 seqno;
	struct list_head pending;
};

/**
 * struct tempo_vm - a file's GPU virtual address space
 * @refcount: held by the file and by every job in flight
 * @lock: serialises map and unmap
 * @mm_lock: guards @mm against translations
 * @mm: the mappings, as &struct tempo_mapping
 * @num_mappings: entries in @mm; guarded by @lock
 * @resv: its reservation object, shared with its private buffers
 */
struct tempo_vm {
	struct kref refcount;
	struct mutex lock; /* serialises map and unmap */
	rwlock_t mm_lock; /* guards mm against translations */
	struct drm_mm mm;
	u32 num_mappings;
	struct tempo_vm_resv *resv;
};

/**
 * struct tempo_mapping - a range of a buffer mapped in a VM
 * @node: its place in the address space
 * @obj: the buffer; the mapping holds a reference
 * @vaddr: kernel address of the whole buffer
 * @bo_offset: offset of the range in the buffer
 * @readonly: the GPU may not write it
 */
struct tempo_mapping {
	struct drm_mm_node node;
	struct drm_gem_object *obj;
	void *vaddr;
	u64 bo_offset;
	bool readonly;
};

/**
 * enum tempo_slot_kind - what an engine map slot is
 * @TEMPO_SLOT_UNSET: listed for an extension that has not set it yet
 * @TEMPO_SLOT_ENGINE: one engine
 * @TEMPO_SLOT_BALANCED: a virtual engine over sibling engines
 * @TEMPO_SLOT_PARALLEL: gangs of several batches on distinct engines
 */
enum tempo_slot_kind {
	TEMPO_SLOT_UNSET,
	TEMPO_SLOT_ENGINE,
	TEMPO_SLOT_BALANCED,
	TEMPO_SLOT_PARALLEL,
};

/**
 * struct tempo_slot - one entry of a context's engine map
 * @kind: &enum tempo_slot_kind
 * @engine: the engine, for %TEMPO_SLOT_ENGINE
 * @width: batches per exec: 1, or the gang width of a parallel slot
 * @num_siblings: siblings per batch, for balanced and parallel slots
 * @siblings: for balanced and parallel slots, the sibling engines; batch
 *	i's sibling j is at [i * @num_siblings + j]
 * @num_balanced: entries of @balanced, for regular [0] and high [1]
 *	contexts
 * @balanced: the schedulers of a balanced slot's siblings
 * @fence_context: dma_fence context of a parallel slot's gangs
 * @seqno: last seqno of @fence_context; guarded by the context's lock
 * @last: the fence of the slot's last gang, so the next one starts after
 *	it; guarded by the context's lock
 * @entity: the scheduler entity of the slot, created by its first exec;
 *	guarded by the context's lock
 */
struct tempo_slot {
	u32 kind;
	struct tempo_engine_desc *engine;
	u32 width;
	u32 num_siblings;
	struct tempo_engine_desc **siblings;
	u32 num_balanced[2];
	struct drm_gpu_scheduler **balanced[2];
	u64 fence_context;
	u64 seqno;
	struct dma_fence *last;
	struct drm_sched_entity *entity;
};

/* Engine classes of the uAPI, &enum drm_tempo_engine_class. */
#define TEMPO_NUM_CLASSES	(DRM_TEMPO_ENGINE_CLASS_COPY + 1)

/**
 * struct tempo_usage - what a file's jobs used of the engines, for fdinfo
 * @refcount: held by the file and by each of its contexts' states, so
 *	that jobs ending after the file was closed still count
 * @busy_ns: per engine class, the GPU time the engines ran the file's
 *	jobs that ended, as the hardware reported it at their end
 *	(tempo_job_account(); each member of a gang counts on its own class)
 * @busy_shown: per engine class, the most fdinfo showed, jobs on the
 *	hardware included (tempo_usage_busy_ns())
 * @lock: guards @running
 * @running: the file's jobs on the hardware, from run_job until the
 *	hardware reports their end (&tempo_job.usage_link)
 * @cpu_ns: per engine class, the host CPU time the emulated hardware
 *	spent on the file's ended jobs
 * @jobs: the file's jobs in flight (allocated, not yet freed), against
 *	&tempo_params.max_jobs
 * @budget: the buffers the file created, against &tempo_params.max_bos
 *	and &tempo_params.max_bo_mib; each holds a reference on the counters
 */
struct tempo_usage {
	struct kref refcount;
	atomic64_t busy_ns[TEMPO_NUM_CLASSES];
	atomic64_t busy_shown[TEMPO_NUM_CLASSES];
	spinlock_t lock; /* guards running */
	struct list_head running;
	atomic64_t cpu_ns[TEMPO_NUM_CLASSES];
	atomic_t jobs;
	struct tempo_budget budget;
};

/**
 * struct tempo_ctx_state - what a context's jobs report back to it
 * @refcount: held by the context and by each of its jobs, from
 *	tempo_job_init() to its free: debugfs shows it as the jobs in flight
 * @guilty: a job of the context failed on the hardware; set from the
 *	hardware fence's signalling path, read by exec
 * @usage: the file's engine usage, referenced
 * @vm: the file's address space, referenced: its jobs run in it
 * @queued: jobs pushed to the scheduler that run_job has not taken yet
 * @idle_wq: woken when @queued drops to zero
 * @priority: the context's priority now (tempo_ctx_priority()), which its
 *	jobs run at from run_job on
 * @queues: the scheduler queues (indices in &tempo_device.queues) whose
 *	HQD rings hold its jobs, and possibly others that did: set by
 *	run_job under the queue's ring lock, cleared by a change of priority
 *	for the queues that hold none (tempo_sched_priority_changed())
 */
struct tempo_ctx_state {
	struct kref refcount;
	atomic_t guilty;
	struct tempo_usage *usage;
	struct tempo_vm *vm;
	atomic_t queued;
	wait_queue_head_t idle_wq;
	s32 priority;
	DECLARE_BITMAP(queues, TEMPO_MAX_DEVICE_QUEUES);
};

/**
 * struct tempo_ctx - a context
 * @refcount: held by the file's table and by ioctls using it
 * @tdev: the device
 * @lock: serialises job arming and pushing, and priority changes
 * @priority: uAPI priority, as set by the context's file
 * @override: priority set by &DRM_IOCTL_TEMPO_SCHED, or
 *	%DRM_TEMPO_PRIORITY_UNSET; wins over @priority
 * @file_override: the file's override when the context was created or
 *	last updated, or %DRM_TEMPO_PRIORITY_UNSET
 * @state: shared with the context's jobs
 * @reset_base: the device's reset count when the context was created
 * @rcu: frees it after a grace period: lookups walk the file's table
 *	under RCU only
 * @num_slots: entries in @slots
 * @slots: the engine map
 */
struct tempo_ctx {
	struct kref refcount;
	struct tempo_device *tdev;
	struct mutex lock; /* serialises arm+push and priority changes */
	s32 priority;
	s32 override;
	s32 file_override;
	struct tempo_ctx_state *state;
	u32 reset_base;
	struct rcu_head rcu;
	u32 num_slots;
	struct tempo_slot slots[] __counted_by(num_slots);
};

/**
 * struct tempo_file - per-open-file state
 * @tdev: the device
 * @vm: the file's address space
 * @lock: serialises publishing a context with changes of
 *	@priority_override, so that no context misses one
 * @contexts: the file's contexts by id; an id is published only when its
 *	context is complete
 * @priority_override: priority of every context of the file, set by
 *	&DRM_IOCTL_TEMPO_SCHED, or %DRM_TEMPO_PRIORITY_UNSET
 * @usage: what the file's jobs used of the engines
 * @user: the user who opened the file, referenced
 * @client_id: the id fdinfo, debugfs and the tracepoints show: DRM's
 *	drm_file.client_id, or the driver's own on kernels without one
 */
struct tempo_file {
	struct tempo_device *tdev;
	struct tempo_vm *vm;
	struct mutex lock; /* context publication vs. the file override */
	struct xarray contexts;
	s32 priority_override;
	struct tempo_usage *usage;
	struct tempo_user *user;
	u64 client_id;
};

/**
 * struct tempo_ext_handler - how an ioctl takes one extension name
 * @size: size of the extension's structure, its header included
 * @apply: apply a kernel copy of the extension to the ioctl's object
 */
struct tempo_ext_handler {
	size_t size;
	int (*apply)(struct tempo_device *tdev, const void *ext, void *data);
};

/**
 * struct tempo_ext_chain - kernel copies of an extension chain
 * @n: entries of @ext
 * @ext: the copies, in chain order
 */
struct tempo_ext_chain {
	u32 n;
	void *ext[DRM_TEMPO_MAX_EXTENSIONS];
};

struct tempo_job;

#endif /* _TEMPO_TYPES_H_ */
