/* SPDX-License-Identifier: MIT */
/*
 * Copyright (c) 2026 The tempo authors
 */
#ifndef _TEMPO_DRM_H_
#define _TEMPO_DRM_H_

#include "drm.h"

#if defined(__cplusplus)
extern "C" {
#endif

/**
 * DOC: Introduction
 *
 * tempo is a DRM render-only driver for a GPU that is emulated in software
 * inside the kernel module. Its uAPI is a small set of ioctls on the render
 * node:
 *
 * - &DRM_IOCTL_TEMPO_QUERY: what the device is (engines, hardware queues,
 *   compute units, limits, timestamp frequency, the caller's priority
 *   ceiling), with the size-probe pattern;
 * - &DRM_IOCTL_TEMPO_BO_CREATE and &DRM_IOCTL_TEMPO_BO_MMAP_OFFSET: GEM
 *   buffer objects backed by shmem, mapped on the CPU with mmap();
 * - &DRM_IOCTL_TEMPO_VM_MAP and &DRM_IOCTL_TEMPO_VM_UNMAP: the per-file GPU
 *   virtual address space;
 * - &DRM_IOCTL_TEMPO_CTX_CREATE, &DRM_IOCTL_TEMPO_CTX_DESTROY,
 *   &DRM_IOCTL_TEMPO_CTX_GET_PARAM and &DRM_IOCTL_TEMPO_CTX_SET_PARAM:
 *   contexts, each with a priority and an engine map of slots;
 * - &DRM_IOCTL_TEMPO_EXEC: run batch buffers on a context's slot, with
 *   binary and timeline syncobjs in and out and an optional sync_file;
 * - &DRM_IOCTL_TEMPO_SCHED: priority overrides by a CAP_SYS_NICE holder
 *   (or a DRM master, see below), of one context or of every context of a
 *   file.
 *
 * ABI rules, for every structure of this file:
 *
 * - every structure is 8-byte aligned and padded explicitly; padding, every
 *   field documented as MBZ ("must be zero") and every flag bit not defined
 *   here are checked, and a non-zero value is rejected with -EINVAL;
 * - user pointers are passed as __u64;
 * - fields are only ever appended, never reordered or reused; there are no
 *   unions;
 * - ioctl numbers, query ids, parameter ids, packet opcodes and extension
 *   names are append-only;
 * - extension chains (&struct drm_tempo_user_extension) are capped at
 *   %DRM_TEMPO_MAX_EXTENSIONS links; a longer chain fails with -E2BIG, an
 *   unknown extension name with -EINVAL, and so does an extension whose
 *   header another thread changes while the ioctl reads it;
 * - arrays are passed as a count and a pointer; a count above the limit
 *   reported by &DRM_TEMPO_QUERY_DEVICE fails with -EINVAL before anything
 *   is allocated.
 *
 * Every rejection writes one line saying why to the kernel log at debug
 * level (enable with ``echo 0x2 > /sys/module/drm/parameters/debug``).
 *
 * Resources: what one file may hold (contexts, GPU mappings, jobs in
 * flight) is capped, see &struct drm_tempo_query_limits; buffers are
 * budgeted per file and per user, and buffers with pages per user and for
 * the whole device, see &struct drm_tempo_query_buffer_limits;
 * the kernel memory a file takes is charged to the memory cgroup of the
 * caller.
 *
 * Privilege: priorities above %DRM_TEMPO_PRIORITY_NORMAL and
 * &DRM_IOCTL_TEMPO_SCHED need CAP_SYS_NICE. The device has no display, so
 * being DRM master (the first opener of the card node) counts only when
 * the module parameter master_priority says that a display server drives
 * the device.
 */

/**
 * DOC: Emulated hardware
 *
 * The device has engines of three classes (&enum drm_tempo_engine_class).
 * Each engine is a command processor (a "pipe") that owns several hardware
 * queue descriptors (HQDs). Each HQD is described by a memory queue
 * descriptor (MQD): a ring, its read and write pointers, a pipe priority
 * (0..2), a queue priority (0..15) and an active bit. The command processor
 * picks the highest-priority active HQD that has work, fetches its next
 * batch from GPU memory and executes the packets of &enum drm_tempo_packet.
 * DISPATCH packets run built-in kernels (&enum drm_tempo_kernel) as
 * workgroups on a pool of compute units shared by the whole device.
 *
 * Every memory access of a packet or a kernel goes through the file's GPU
 * virtual address space. An access outside every mapping, or a write to a
 * read-only mapping, is a GPU fault: the job stops and its fence signals
 * with -EFAULT. Other job errors reported on the fence: -EILSEQ for an
 * illegal or malformed packet, -ELOOP for batch nesting deeper than
 * &drm_tempo_query_device.max_batch_depth, -ETIMEDOUT for a job that ran
 * past the job timeout (&drm_tempo_query_device.job_timeout_ms) of running
 * time, -ECANCELED for a job that was cancelled, -ESRCH for a job that had
 * not reached the hardware when the process that submitted it was killed,
 * or when its context was destroyed or its file closed and it did not
 * reach the hardware within &drm_tempo_query_limits.close_wait_ms (the
 * scheduler drops such jobs once their dependencies have signalled).
 *
 * Running time is GPU time: what the emulated hardware did for the job,
 * the host CPU time its command processor and its workgroups' compute
 * units spent on its work plus the modelled time of what makes it wait (a
 * WAIT_MEM's polling, a SPIN kernel), never the time those threads waited
 * for a host CPU: a busy host makes a job take longer, not run longer.
 * Time spent preempted by higher-priority work, waiting in its ring
 * behind other jobs, waiting for compute units held by others or for the
 * other members of its gang does not count, and later jobs do not extend
 * it. The hardware checks it between packets, between chunks of a COPY or
 * FILL (64 KiB), every polling period of a WAIT_MEM and every few
 * milliseconds of a DISPATCH, and stops a job that reached the timeout: a
 * hung job fails within a few milliseconds of the timeout of running
 * time. There is no wall-clock bound: a job whose emulation gets little
 * of the host's CPUs runs slowly and is judged on what it did.
 *
 * A job that fails on the hardware (any of these errors but -ECANCELED and
 * -ESRCH) bans its context: the context's jobs that have not started are
 * cancelled (-ECANCELED on their fences), later execs on it fail with
 * -ECANCELED, and %DRM_TEMPO_CTX_PARAM_RESET_STATUS reports it guilty.
 * Other contexts are not affected.
 */

/* ----------------------------------------------------------------------- */

#define DRM_TEMPO_QUERY			0x00
#define DRM_TEMPO_BO_CREATE		0x01
#define DRM_TEMPO_BO_MMAP_OFFSET	0x02
#define DRM_TEMPO_VM_MAP		0x03
#define DRM_TEMPO_VM_UNMAP		0x04
#define DRM_TEMPO_CTX_CREATE		0x05
#define DRM_TEMPO_CTX_DESTROY		0x06
#define DRM_TEMPO_CTX_GET_PARAM		0x07
#define DRM_TEMPO_CTX_SET_PARAM		0x08
#define DRM_TEMPO_EXEC			0x09
#define DRM_TEMPO_SCHED			0x0a

#define DRM_IOCTL_TEMPO_QUERY \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_TEMPO_QUERY, struct drm_tempo_query)
#define DRM_IOCTL_TEMPO_BO_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_TEMPO_BO_CREATE, struct drm_tempo_bo_create)
#define DRM_IOCTL_TEMPO_BO_MMAP_OFFSET \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_TEMPO_BO_MMAP_OFFSET, struct drm_tempo_bo_mmap_offset)
#define DRM_IOCTL_TEMPO_VM_MAP \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_TEMPO_VM_MAP, struct drm_tempo_vm_map)
#define DRM_IOCTL_TEMPO_VM_UNMAP \
	DRM_IOW(DRM_COMMAND_BASE + DRM_TEMPO_VM_UNMAP, struct drm_tempo_vm_unmap)
#define DRM_IOCTL_TEMPO_CTX_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_TEMPO_CTX_CREATE, struct drm_tempo_ctx_create)
#define DRM_IOCTL_TEMPO_CTX_DESTROY \
	DRM_IOW(DRM_COMMAND_BASE + DRM_TEMPO_CTX_DESTROY, struct drm_tempo_ctx_destroy)
#define DRM_IOCTL_TEMPO_CTX_GET_PARAM \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_TEMPO_CTX_GET_PARAM, struct drm_tempo_ctx_param)
#define DRM_IOCTL_TEMPO_CTX_SET_PARAM \
	DRM_IOW(DRM_COMMAND_BASE + DRM_TEMPO_CTX_SET_PARAM, struct drm_tempo_ctx_param)
#define DRM_IOCTL_TEMPO_EXEC \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_TEMPO_EXEC, struct drm_tempo_exec)
#define DRM_IOCTL_TEMPO_SCHED \
	DRM_IOW(DRM_COMMAND_BASE + DRM_TEMPO_SCHED, struct drm_tempo_sched)

/**
 * DRM_TEMPO_MAX_EXTENSIONS - longest extension chain accepted
 */
#define DRM_TEMPO_MAX_EXTENSIONS	16

/**
 * struct drm_tempo_user_extension - header of a chained extension
 *
 * Structures with an ``extensions`` member take a chain of extensions, each
 * starting with this header. &DRM_IOCTL_TEMPO_CTX_CREATE takes the names
 * of &enum drm_tempo_ctx_ext; other ioctls define none yet. An unknown name
 * fails with -EINVAL, a bad pointer with -EFAULT, a chain longer than
 * %DRM_TEMPO_MAX_EXTENSIONS with -E2BIG.
 */
struct drm_tempo_user_extension {
	/** @next: user pointer to the next extension, 0 ends the chain. */
	__u64 next;
	/** @name: which extension this is. */
	__u32 name;
	/** @pad: MBZ. */
	__u32 pad;
};

/* ----------------------------------------------------------------------- */

/**
 * enum drm_tempo_engine_class - kinds of engines
 */
enum drm_tempo_engine_class {
	/** @DRM_TEMPO_ENGINE_CLASS_GFX: graphics engine, all packets. */
	DRM_TEMPO_ENGINE_CLASS_GFX = 0,
	/** @DRM_TEMPO_ENGINE_CLASS_COMPUTE: compute engine, all packets. */
	DRM_TEMPO_ENGINE_CLASS_COMPUTE = 1,
	/**
	 * @DRM_TEMPO_ENGINE_CLASS_COPY: copy engine; a DISPATCH packet on it
	 * is illegal (-EILSEQ).
	 */
	DRM_TEMPO_ENGINE_CLASS_COPY = 2,
};

/**
 * enum drm_tempo_query_id - what &struct drm_tempo_query asks for
 */
enum drm_tempo_query_id {
	/** @DRM_TEMPO_QUERY_DEVICE: &struct drm_tempo_query_device. */
	DRM_TEMPO_QUERY_DEVICE = 0,
	/** @DRM_TEMPO_QUERY_ENGINES: &struct drm_tempo_query_engines. */
	DRM_TEMPO_QUERY_ENGINES = 1,
	/** @DRM_TEMPO_QUERY_HQDS: &struct drm_tempo_query_hqds. */
	DRM_TEMPO_QUERY_HQDS = 2,
	/** @DRM_TEMPO_QUERY_LIMITS: &struct drm_tempo_query_limits. */
	DRM_TEMPO_QUERY_LIMITS = 3,
	/**
	 * @DRM_TEMPO_QUERY_BUFFER_LIMITS: &struct
	 * drm_tempo_query_buffer_limits.
	 */
	DRM_TEMPO_QUERY_BUFFER_LIMITS = 4,
};

/**
 * struct drm_tempo_query - ask the device a question
 *
 * Size probe: call with @size 0 and the kernel writes the size of the
 * answer to @size without touching @data. Then call again with @size set to
 * that value and @data pointing at a buffer of that size. Any other non-zero
 * @size fails with -EINVAL. Returns -EINVAL for an unknown @query, non-zero
 * @flags, @pad or @extensions, and -EFAULT for a bad @data pointer.
 */
struct drm_tempo_query {
	/** @extensions: MBZ. */
	__u64 extensions;
	/** @query: one of &enum drm_tempo_query_id. */
	__u32 query;
	/** @size: in: size of @data, or 0 to probe; out: size of the answer. */
	__u32 size;
	/** @data: user pointer to the answer buffer. */
	__u64 data;
	/** @flags: MBZ. */
	__u32 flags;
	/** @pad: MBZ. */
	__u32 pad;
};

/**
 * struct drm_tempo_query_device - answer to &DRM_TEMPO_QUERY_DEVICE
 */
struct drm_tempo_query_device {
	/** @num_engines: number of engines, all classes. */
	__u32 num_engines;
	/** @num_hqds: number of hardware queues, all engines. */
	__u32 num_hqds;
	/** @num_cus: number of compute units in the shared pool. */
	__u32 num_cus;
	/** @max_batches: largest &drm_tempo_exec.num_batches accepted. */
	__u32 max_batches;
	/** @timestamp_frequency: ticks per second of WRITE_TIMESTAMP. */
	__u64 timestamp_frequency;
	/** @va_start: lowest GPU virtual address that can be mapped. */
	__u64 va_start;
	/** @va_end: end (exclusive) of the mappable GPU virtual range. */
	__u64 va_end;
	/** @max_syncs: largest number of in or out syncs of one exec. */
	__u32 max_syncs;
	/** @max_batch_depth: deepest BATCH_START nesting (calls). */
	__u32 max_batch_depth;
	/** @max_slots: largest engine map of a context. */
	__u32 max_slots;
	/** @ring_size: jobs each hardware queue holds at once. */
	__u32 ring_size;
	/**
	 * @max_priority: highest context priority this file may ask for
	 * (%DRM_TEMPO_PRIORITY_NORMAL, or %DRM_TEMPO_PRIORITY_VERY_HIGH for a
	 * CAP_SYS_NICE holder, or a DRM master with the module parameter
	 * master_priority).
	 */
	__s32 max_priority;
	/** @max_packet_dwords: longest packet, header included. */
	__u32 max_packet_dwords;
	/** @max_groups: largest number of workgroups of one DISPATCH. */
	__u32 max_groups;
	/**
	 * @job_timeout_ms: a job whose running time (GPU time) reaches it
	 * fails with -ETIMEDOUT.
	 */
	__u32 job_timeout_ms;
	/**
	 * @parallel_classes: bit N set when engine class N supports parallel
	 * slots (&struct drm_tempo_ctx_ext_parallel).
	 */
	__u32 parallel_classes;
	/** @max_siblings: largest num_siblings of a slot extension. */
	__u32 max_siblings;
};

/**
 * struct drm_tempo_engine_info - one engine
 */
struct drm_tempo_engine_info {
	/** @engine_class: &enum drm_tempo_engine_class. */
	__u16 engine_class;
	/** @engine_instance: index among the engines of its class. */
	__u16 engine_instance;
	/** @num_hqds: hardware queues of this engine. */
	__u16 num_hqds;
	/** @first_hqd: index of its first queue in &DRM_TEMPO_QUERY_HQDS. */
	__u16 first_hqd;
};

/**
 * struct drm_tempo_query_engines - answer to &DRM_TEMPO_QUERY_ENGINES
 */
struct drm_tempo_query_engines {
	/** @num_engines: entries in @engines. */
	__u32 num_engines;
	/** @pad: zero. */
	__u32 pad;
	/** @engines: the engines, by class then instance. */
	struct drm_tempo_engine_info engines[];
};

/**
 * struct drm_tempo_query_limits - answer to &DRM_TEMPO_QUERY_LIMITS
 *
 * What one file may hold at once. The limits are module parameters of the
 * same names (read at load); the kernel memory behind them is charged to
 * the memory cgroup of the process that asked for it.
 */
struct drm_tempo_query_limits {
	/**
	 * @max_contexts: contexts a file may have; one more fails with
	 * -ENOSPC (&DRM_IOCTL_TEMPO_CTX_CREATE).
	 */
	__u32 max_contexts;
	/**
	 * @max_mappings: GPU mappings a file may have; one more fails with
	 * -ENOSPC (&DRM_IOCTL_TEMPO_VM_MAP).
	 */
	__u32 max_mappings;
	/**
	 * @max_jobs: jobs a file may have in flight, from exec until the
	 * kernel has freed them after their fence signalled; one more fails
	 * with -EAGAIN (&DRM_IOCTL_TEMPO_EXEC): wait for a fence and retry.
	 */
	__u32 max_jobs;
	/**
	 * @close_wait_ms: longest that closing a file or destroying a
	 * context waits for its queued jobs to reach the hardware; jobs
	 * still queued then are dropped (-ESRCH on their fences).
	 */
	__u32 close_wait_ms;
};

/**
 * struct drm_tempo_query_buffer_limits - answer to
 * &DRM_TEMPO_QUERY_BUFFER_LIMITS
 *
 * The budgets of buffers, module parameters of the driver. A buffer
 * counts against the budgets of the file that created it (with
 * &DRM_IOCTL_TEMPO_BO_CREATE or DRM_IOCTL_MODE_CREATE_DUMB) and of that
 * file's user (the real uid of the process that opened the file; one user
 * may open many files), from its creation until it is freed (its last
 * handle, mapping and dma-buf gone, which may be after the file was
 * closed). Creating a buffer beyond either budget fails with -ENOSPC.
 * Buffers imported from another device's dma-buf count against none.
 *
 * A buffer's first mapping, on the GPU (&DRM_IOCTL_TEMPO_VM_MAP, any file)
 * or on the CPU (mmap(), any process), allocates all its pages, which
 * stay pinned while mapped and allocated until the buffer is freed: from
 * then on the buffer counts as resident, once, against the ceiling of the
 * whole device and against the share of its creator's user. The first
 * mapping that would pass either fails with -ENOMEM (VM_MAP, or mmap()
 * with ENOMEM). These two may be changed at run time by root; the answer
 * is what they are when asked.
 */
struct drm_tempo_query_buffer_limits {
	/**
	 * @max_bos: buffers a file may have created and not yet freed,
	 * %DRM_TEMPO_BO_CREATE_VM_PRIVATE ones included (module parameter
	 * max_bos).
	 */
	__u32 max_bos;
	/**
	 * @user_max_bos: buffers the files of one user may have, together
	 * (user_max_bos).
	 */
	__u32 user_max_bos;
	/** @max_bo_bytes: bytes of buffers a file may have (max_bo_mib). */
	__u64 max_bo_bytes;
	/**
	 * @user_max_bo_bytes: bytes of buffers the files of one user may
	 * have, together (user_max_bo_mib).
	 */
	__u64 user_max_bo_bytes;
	/**
	 * @max_resident_bytes: bytes of resident buffers the whole device
	 * may have (max_resident_mib; by default half of the RAM).
	 */
	__u64 max_resident_bytes;
	/**
	 * @user_max_resident_bytes: bytes of resident buffers one user may
	 * have created (user_resident_mib; by default half of
	 * @max_resident_bytes, never more than it).
	 */
	__u64 user_max_resident_bytes;
	/** @max_bo_size: largest size of one buffer. */
	__u64 max_bo_size;
};

/**
 * struct drm_tempo_hqd_info - one hardware queue, as its MQD programs it
 *
 * Callers without CAP_SYS_NICE see the priorities the driver programmed
 * at load; the live ones, which follow the priorities of the contexts
 * whose jobs are in the queue and return to those at load when it
 * empties, are shown only to callers that may set priorities: they tell
 * at which priority other users' work runs. How long a caller's own jobs
 * waited for such work is not hidden (&struct drm_tempo_job_times).
 */
struct drm_tempo_hqd_info {
	/** @engine_class: class of the engine that owns the queue. */
	__u16 engine_class;
	/** @engine_instance: instance of the engine that owns the queue. */
	__u16 engine_instance;
	/** @queue: index of the queue on its engine. */
	__u16 queue;
	/** @pipe_priority: 0 (low) .. 2 (high). */
	__u8 pipe_priority;
	/** @queue_priority: 0 (low) .. 15 (high). */
	__u8 queue_priority;
};

/**
 * struct drm_tempo_query_hqds - answer to &DRM_TEMPO_QUERY_HQDS
 */
struct drm_tempo_query_hqds {
	/** @num_hqds: entries in @hqds. */
	__u32 num_hqds;
	/** @pad: zero. */
	__u32 pad;
	/** @hqds: the queues, engine after engine. */
	struct drm_tempo_hqd_info hqds[];
};

/* ----------------------------------------------------------------------- */

/**
 * DRM_TEMPO_BO_CREATE_VM_PRIVATE - the buffer belongs to the caller's
 * address space
 *
 * The buffer shares its reservation object (dma_resv) with the
 * caller's GPU address space, and every job the file submits after the
 * buffer's creation adds a fence to it, as a write, that signals once the
 * job and every earlier one of the file ended: the buffer counts in
 * fdinfo's drm-active-memory while such a job is in flight. In exchange
 * the buffer can be mapped only into the address space of the file that
 * created it (&DRM_IOCTL_TEMPO_VM_MAP fails with -EINVAL in any other
 * file), and cannot be exported (&DRM_IOCTL_PRIME_HANDLE_TO_FD fails with
 * -EINVAL). Buffers without the flag get no job fence: they are shared
 * with explicit synchronisation only (syncobjs and sync_files), and never
 * count as active.
 */
#define DRM_TEMPO_BO_CREATE_VM_PRIVATE	(1u << 0)
/**
 * DRM_TEMPO_BO_CREATE_FLAGS - every flag of &drm_tempo_bo_create.flags
 */
#define DRM_TEMPO_BO_CREATE_FLAGS	DRM_TEMPO_BO_CREATE_VM_PRIVATE

/**
 * struct drm_tempo_bo_create - create a buffer object
 *
 * Returns -EINVAL for a zero @size, a @size above
 * &drm_tempo_query_buffer_limits.max_bo_size or unknown @flags; -ENOSPC
 * when the buffer would pass the budget of the file or of its user
 * (&struct drm_tempo_query_buffer_limits); -ENOMEM when memory runs out.
 * The buffer's pages are allocated when it is first mapped, on the CPU or
 * the GPU.
 */
struct drm_tempo_bo_create {
	/** @size: in bytes; rounded up to the page size. */
	__u64 size;
	/** @flags: %DRM_TEMPO_BO_CREATE_VM_PRIVATE. */
	__u32 flags;
	/** @handle: out: GEM handle of the new object. */
	__u32 handle;
};

/**
 * struct drm_tempo_bo_mmap_offset - get the offset to mmap() a buffer
 *
 * The first call on a buffer gives it its offset, in a range of the
 * device that every file shares (as does DRM_IOCTL_MODE_MAP_DUMB); the
 * buffer keeps it until freed. Returns -ENOENT for an unknown @handle,
 * -EINVAL for non-zero @flags, -ENOSPC when the device's offset range is
 * full and -ENOMEM when memory runs out. The first mmap() of a buffer
 * allocates all its pages, and fails with ENOMEM past the resident
 * ceilings of &struct drm_tempo_query_buffer_limits.
 */
struct drm_tempo_bo_mmap_offset {
	/** @handle: GEM handle. */
	__u32 handle;
	/** @flags: MBZ. */
	__u32 flags;
	/** @offset: out: pass to mmap() on the DRM file. */
	__u64 offset;
};

/**
 * DRM_TEMPO_VM_MAP_READONLY - the GPU may read but not write the mapping
 */
#define DRM_TEMPO_VM_MAP_READONLY	(1u << 0)
/**
 * DRM_TEMPO_VM_MAP_AUTO_VA - the kernel chooses &drm_tempo_vm_map.va
 */
#define DRM_TEMPO_VM_MAP_AUTO_VA	(1u << 1)
/**
 * DRM_TEMPO_VM_MAP_FLAGS - every flag of &drm_tempo_vm_map.flags
 */
#define DRM_TEMPO_VM_MAP_FLAGS \
	(DRM_TEMPO_VM_MAP_READONLY | DRM_TEMPO_VM_MAP_AUTO_VA)

/**
 * struct drm_tempo_vm_map - map a range of a buffer into the GPU VA space
 *
 * @va, @bo_offset and @size must be page aligned, @size non-zero, the range
 * inside the buffer and inside [va_start, va_end) of
 * &struct drm_tempo_query_device; otherwise -EINVAL. A range that overlaps
 * an existing mapping fails with -ENOSPC (as do a full address space with
 * %DRM_TEMPO_VM_MAP_AUTO_VA and a file that already has
 * &drm_tempo_query_limits.max_mappings mappings). An unknown @handle fails
 * with -ENOENT, a buffer created with %DRM_TEMPO_BO_CREATE_VM_PRIVATE by
 * another file with -EINVAL. A mapping pins the buffer's pages; the first
 * mapping of a buffer allocates them, and fails with -ENOMEM when memory
 * runs out or when the buffer would pass the device's or its creator's
 * user's ceiling of resident buffers
 * (&drm_tempo_query_buffer_limits.max_resident_bytes and
 * &drm_tempo_query_buffer_limits.user_max_resident_bytes). The mapping
 * holds a reference on the buffer until it is unmapped or the file is
 * closed.
 */
struct drm_tempo_vm_map {
	/** @handle: GEM handle of the buffer. */
	__u32 handle;
	/** @flags: %DRM_TEMPO_VM_MAP_READONLY, %DRM_TEMPO_VM_MAP_AUTO_VA. */
	__u32 flags;
	/**
	 * @va: in: GPU virtual address (MBZ with %DRM_TEMPO_VM_MAP_AUTO_VA);
	 * out: the address of the mapping.
	 */
	__u64 va;
	/** @bo_offset: offset of the range in the buffer. */
	__u64 bo_offset;
	/** @size: size of the range. */
	__u64 size;
};

/**
 * struct drm_tempo_vm_unmap - remove a mapping
 *
 * @va and @size must name one whole mapping made by &DRM_IOCTL_TEMPO_VM_MAP:
 * -ENOENT otherwise. -EINVAL for non-zero @flags or @pad. Jobs still running
 * that use the range fault (-EFAULT) from then on.
 */
struct drm_tempo_vm_unmap {
	/** @va: start of the mapping. */
	__u64 va;
	/** @size: size of the mapping. */
	__u64 size;
	/** @flags: MBZ. */
	__u32 flags;
	/** @pad: MBZ. */
	__u32 pad;
};

/* ----------------------------------------------------------------------- */

/**
 * DRM_TEMPO_PRIORITY_VERY_LOW - lowest context priority
 */
#define DRM_TEMPO_PRIORITY_VERY_LOW	(-1023)
/**
 * DRM_TEMPO_PRIORITY_LOW - background work
 */
#define DRM_TEMPO_PRIORITY_LOW		(-512)
/**
 * DRM_TEMPO_PRIORITY_NORMAL - default priority, the ceiling of most users
 */
#define DRM_TEMPO_PRIORITY_NORMAL	0
/**
 * DRM_TEMPO_PRIORITY_HIGH - needs CAP_SYS_NICE (see "Privilege")
 */
#define DRM_TEMPO_PRIORITY_HIGH		512
/**
 * DRM_TEMPO_PRIORITY_VERY_HIGH - realtime; needs CAP_SYS_NICE
 */
#define DRM_TEMPO_PRIORITY_VERY_HIGH	1023

/**
 * DRM_TEMPO_PRIORITY_UNSET - no override (&struct drm_tempo_sched)
 */
#define DRM_TEMPO_PRIORITY_UNSET	(-2048)

/**
 * DRM_TEMPO_ENGINE_INSTANCE_NONE - engine map slot set by an extension
 *
 * A slot listed as { 0, %DRM_TEMPO_ENGINE_INSTANCE_NONE } in
 * &drm_tempo_ctx_create.slots is configured by exactly one
 * &struct drm_tempo_ctx_ext_load_balance or
 * &struct drm_tempo_ctx_ext_parallel.
 */
#define DRM_TEMPO_ENGINE_INSTANCE_NONE	0xffff

/**
 * struct drm_tempo_engine - one engine, by class and instance
 */
struct drm_tempo_engine {
	/** @engine_class: &enum drm_tempo_engine_class. */
	__u16 engine_class;
	/** @engine_instance: instance of that class. */
	__u16 engine_instance;
};

/**
 * struct drm_tempo_ctx_create - create a context
 *
 * A context has a priority and an engine map: an array of slots, each one
 * engine. &drm_tempo_exec.slot indexes the map. With @num_slots 0 the map
 * is the device's engines in &DRM_TEMPO_QUERY_ENGINES order. Jobs of one
 * slot complete in submission order.
 *
 * Checks, in this order: non-zero @flags, an unknown extension,
 * @num_slots above &drm_tempo_query_device.max_slots, an unknown engine in
 * @slots, @priority outside -1023..1023: -EINVAL; @priority above the
 * caller's ceiling (&drm_tempo_query_device.max_priority): -EACCES.
 * @slots unreadable (NULL with @num_slots set included): -EFAULT. The file
 * already has &drm_tempo_query_limits.max_contexts contexts: -ENOSPC. Out
 * of memory: -ENOMEM.
 *
 * The id is published when the context is complete: another thread of the
 * file may use or destroy it as soon as the ioctl returns, not before.
 */
struct drm_tempo_ctx_create {
	/** @extensions: chain of &struct drm_tempo_user_extension, or 0. */
	__u64 extensions;
	/** @flags: MBZ. */
	__u32 flags;
	/** @priority: %DRM_TEMPO_PRIORITY_VERY_LOW .. _VERY_HIGH. */
	__s32 priority;
	/** @num_slots: entries in @slots, 0 for the default map. */
	__u32 num_slots;
	/** @ctx_id: out: the new context, never 0. */
	__u32 ctx_id;
	/** @slots: user pointer to @num_slots &struct drm_tempo_engine. */
	__u64 slots;
};

/**
 * enum drm_tempo_ctx_ext - extensions of &DRM_IOCTL_TEMPO_CTX_CREATE
 */
enum drm_tempo_ctx_ext {
	/**
	 * @DRM_TEMPO_CTX_EXT_LOAD_BALANCE:
	 * &struct drm_tempo_ctx_ext_load_balance.
	 */
	DRM_TEMPO_CTX_EXT_LOAD_BALANCE = 0,
	/** @DRM_TEMPO_CTX_EXT_PARALLEL: &struct drm_tempo_ctx_ext_parallel. */
	DRM_TEMPO_CTX_EXT_PARALLEL = 1,
};

/**
 * struct drm_tempo_ctx_ext_load_balance - a load-balanced slot
 *
 * The slot is a virtual engine of width 1 over @num_siblings engines of one
 * class: each job runs on whichever sibling the scheduler finds least busy
 * when the slot's queue is empty (jobs queued behind a running one follow
 * it, which keeps the slot's jobs in order).
 *
 * Checks, in this order: non-zero @flags or @pad, @slot outside the map,
 * not listed as { 0, %DRM_TEMPO_ENGINE_INSTANCE_NONE } or already set by an
 * extension, @num_siblings 0 or above &drm_tempo_query_device.max_siblings:
 * -EINVAL; @siblings unreadable: -EFAULT; an unknown engine, engines of
 * several classes, an engine listed twice: -EINVAL.
 */
struct drm_tempo_ctx_ext_load_balance {
	/** @base: name %DRM_TEMPO_CTX_EXT_LOAD_BALANCE. */
	struct drm_tempo_user_extension base;
	/** @slot: the engine map slot. */
	__u32 slot;
	/** @num_siblings: entries in @siblings. */
	__u32 num_siblings;
	/** @flags: MBZ. */
	__u32 flags;
	/** @pad: MBZ. */
	__u32 pad;
	/** @siblings: user pointer to @num_siblings &struct drm_tempo_engine. */
	__u64 siblings;
};

/**
 * struct drm_tempo_ctx_ext_parallel - a parallel submission slot
 *
 * An exec on the slot takes exactly @width batches, which run as a gang:
 * batch i runs on one engine of its column of siblings, every batch on a
 * different engine, all starting together (no batch starts before every
 * batch has its engine) and ending before the exec's one fence signals.
 *
 * Index formula: @engines holds @width columns of @num_siblings entries;
 * sibling j (0 <= j < @num_siblings) of batch i (0 <= i < @width) is
 * ``engines[i * num_siblings + j]``.
 *
 * Example, two batches, each on either of two engines of its own class:
 * width 2, num_siblings 2, engines { X0, X1, Y0, Y1 } gives the placements
 * (X0, Y0), (X0, Y1), (X1, Y0), (X1, Y1). Example, two batches over the
 * same three engines: width 2, num_siblings 3, engines
 * { X0, X1, X2, X0, X1, X2 } gives (X0, X1), (X0, X2), (X1, X0), (X1, X2),
 * (X2, X0), (X2, X1). Any valid placement may be chosen at each exec.
 *
 * Checks, in this order: non-zero @flags or @mbz, @slot outside the map,
 * not listed as { 0, %DRM_TEMPO_ENGINE_INSTANCE_NONE } or already set by an
 * extension, @width < 2, @num_siblings < 1 or above
 * &drm_tempo_query_device.max_siblings: -EINVAL; @width above
 * &drm_tempo_query_device.max_batches: -ENODEV; @engines unreadable:
 * -EFAULT; an unknown engine, a column mixing classes, an engine listed
 * twice in one column, or lists that leave no placement on distinct
 * engines: -EINVAL; a class without parallel support
 * (&drm_tempo_query_device.parallel_classes): -ENODEV.
 */
struct drm_tempo_ctx_ext_parallel {
	/** @base: name %DRM_TEMPO_CTX_EXT_PARALLEL. */
	struct drm_tempo_user_extension base;
	/** @slot: the engine map slot. */
	__u32 slot;
	/** @width: batches per exec, at least 2. */
	__u16 width;
	/** @num_siblings: engines each batch may run on, at least 1. */
	__u16 num_siblings;
	/** @flags: MBZ. */
	__u32 flags;
	/** @mbz: MBZ. */
	__u32 mbz;
	/**
	 * @engines: user pointer to @width * @num_siblings
	 * &struct drm_tempo_engine, see the index formula.
	 */
	__u64 engines;
};

/**
 * struct drm_tempo_ctx_destroy - destroy a context
 *
 * Jobs that have reached the hardware run to completion. Jobs still queued
 * (waiting for a dependency or for room in their hardware queue) are given
 * &drm_tempo_query_limits.close_wait_ms to reach it; those still queued
 * then are dropped, with -ESRCH on their fences. Closing the file does the
 * same for all its contexts at once, within the same bound, and a killed
 * process's queued jobs are dropped at once. -ENOENT for an unknown
 * @ctx_id, -EINVAL for non-zero @pad.
 */
struct drm_tempo_ctx_destroy {
	/** @ctx_id: the context. */
	__u32 ctx_id;
	/** @pad: MBZ. */
	__u32 pad;
};

/**
 * enum drm_tempo_ctx_param_id - context parameters
 */
enum drm_tempo_ctx_param_id {
	/**
	 * @DRM_TEMPO_CTX_PARAM_PRIORITY: the context priority, as in
	 * &drm_tempo_ctx_create.priority, with the same checks. A refused
	 * change leaves the old value. The change applies to the jobs that
	 * have not reached the hardware yet.
	 */
	DRM_TEMPO_CTX_PARAM_PRIORITY = 0,
	/**
	 * @DRM_TEMPO_CTX_PARAM_RESET_STATUS: read only: flags
	 * %DRM_TEMPO_RESET_STATUS_RESET and %DRM_TEMPO_RESET_STATUS_GUILTY.
	 */
	DRM_TEMPO_CTX_PARAM_RESET_STATUS = 1,
	/**
	 * @DRM_TEMPO_CTX_PARAM_RESET_COUNT: read only: hardware queue resets
	 * of the device since the context was created.
	 */
	DRM_TEMPO_CTX_PARAM_RESET_COUNT = 2,
};

/**
 * DRM_TEMPO_RESET_STATUS_RESET - a hardware queue was reset since the
 * context was created (because of this context or of another one)
 */
#define DRM_TEMPO_RESET_STATUS_RESET	(1u << 0)
/**
 * DRM_TEMPO_RESET_STATUS_GUILTY - a job of this context failed on the
 * hardware (hang, GPU fault, illegal packet); the context is banned and
 * every later exec on it fails with -ECANCELED
 */
#define DRM_TEMPO_RESET_STATUS_GUILTY	(1u << 1)

/**
 * struct drm_tempo_ctx_param - get or set a context parameter
 *
 * -ENOENT for an unknown @ctx_id; -EINVAL for an unknown @param, a set of a
 * read-only parameter or non-zero @pad.
 */
struct drm_tempo_ctx_param {
	/** @ctx_id: the context. */
	__u32 ctx_id;
	/** @param: &enum drm_tempo_ctx_param_id. */
	__u32 param;
	/** @value: the value (sign-extended for the priority). */
	__s64 value;
	/** @pad: MBZ. */
	__u64 pad;
};

/* ----------------------------------------------------------------------- */

/**
 * struct drm_tempo_sync - a syncobj to wait on or to signal
 *
 * @point 0 names a binary syncobj (or the current fence of a timeline when
 * waited on); a non-zero @point names a timeline point. An unknown @handle,
 * or a wait on a point that has no fence yet, fails with -ENOENT.
 */
struct drm_tempo_sync {
	/** @handle: syncobj handle. */
	__u32 handle;
	/** @flags: MBZ. */
	__u32 flags;
	/** @point: timeline point, 0 for a binary syncobj. */
	__u64 point;
};

/**
 * DRM_TEMPO_EXEC_OUT_SYNC_FILE - return a sync_file in out_fence_fd
 */
#define DRM_TEMPO_EXEC_OUT_SYNC_FILE	(1u << 0)
/**
 * DRM_TEMPO_EXEC_INHERIT_PRIORITY - lend the context's priority to the
 * jobs the in-syncs wait for, within bounds (see &struct drm_tempo_exec)
 */
#define DRM_TEMPO_EXEC_INHERIT_PRIORITY	(1u << 1)
/**
 * DRM_TEMPO_EXEC_FLAGS - every flag of &drm_tempo_exec.flags
 */
#define DRM_TEMPO_EXEC_FLAGS		(DRM_TEMPO_EXEC_OUT_SYNC_FILE | \
					 DRM_TEMPO_EXEC_INHERIT_PRIORITY)

/**
 * struct drm_tempo_exec - run batch buffers on a context's engine slot
 *
 * The job waits for every in-sync, then runs its batch on the slot's
 * engine; its completion fence is installed in every out-sync and, with
 * %DRM_TEMPO_EXEC_OUT_SYNC_FILE, returned as a sync_file. The fence carries
 * the job's error (see "Emulated hardware").
 *
 * Priority inheritance, only with %DRM_TEMPO_EXEC_INHERIT_PRIORITY: a job
 * of this device that an in-sync waits for (directly, not through the
 * jobs it waits for itself) is lent the priority of the context
 * submitting this job, and runs at no lower priority while the loan
 * lasts. A loan never raises a job above the highest priority the
 * process that submitted it could set itself (its
 * &drm_tempo_query_device.max_priority: %DRM_TEMPO_PRIORITY_NORMAL
 * without CAP_SYS_NICE), and lasts until the job ends or its hardware
 * queue has run for the module parameter inherit_ms (10 ms by default;
 * 0 lends nothing) since the loan started, whichever comes first; the
 * loan starts when this job is queued if the job waited for is on its
 * hardware queue, else when it gets there. A job is lent at most once
 * (a higher priority lent later raises it for the rest of the same loan,
 * and no loan follows the end of one). Parallel slots' jobs are never
 * lent a priority. Without the flag the jobs waited for keep their own
 * priority.
 *
 * Checks, in this order: non-zero @flags bits outside
 * %DRM_TEMPO_EXEC_FLAGS, non-zero @pad, an unknown extension: -EINVAL;
 * unknown @ctx_id: -ENOENT; a banned context (one of its jobs failed on
 * the hardware, see %DRM_TEMPO_RESET_STATUS_GUILTY): -ECANCELED; @slot
 * outside the engine map: -EINVAL;
 * @num_batches other than the slot's width (its
 * &drm_tempo_ctx_ext_parallel.width, else 1): -EINVAL; more than &drm_tempo_query_device.max_syncs in or out syncs:
 * -EINVAL; an unreadable array: -EFAULT; non-zero sync @flags: -EINVAL; the
 * file already has &drm_tempo_query_limits.max_jobs jobs in flight:
 * -EAGAIN (wait for one of its fences and submit again); an unknown
 * syncobj handle: -ENOENT; no free descriptor for the sync_file: -EMFILE;
 * a signal while waiting for the lock of the file's private buffers
 * (%DRM_TEMPO_BO_CREATE_VM_PRIVATE): -EINTR; out of memory: -ENOMEM. On
 * any error nothing is queued: no out-sync changes and no descriptor is
 * returned.
 */
struct drm_tempo_exec {
	/** @extensions: chain of &struct drm_tempo_user_extension, or 0. */
	__u64 extensions;
	/** @ctx_id: the context. */
	__u32 ctx_id;
	/** @slot: index in the context's engine map. */
	__u32 slot;
	/**
	 * @flags: %DRM_TEMPO_EXEC_OUT_SYNC_FILE,
	 * %DRM_TEMPO_EXEC_INHERIT_PRIORITY.
	 */
	__u32 flags;
	/** @num_batches: entries in @batches. */
	__u32 num_batches;
	/** @batches: user pointer to @num_batches __u64 GPU addresses. */
	__u64 batches;
	/** @num_in_syncs: entries in @in_syncs. */
	__u32 num_in_syncs;
	/** @num_out_syncs: entries in @out_syncs. */
	__u32 num_out_syncs;
	/** @in_syncs: user pointer to &struct drm_tempo_sync to wait on. */
	__u64 in_syncs;
	/** @out_syncs: user pointer to &struct drm_tempo_sync to signal. */
	__u64 out_syncs;
	/** @out_fence_fd: out: sync_file fd, with the flag; else -1. */
	__s32 out_fence_fd;
	/** @pad: MBZ. */
	__u32 pad;
};

/**
 * enum drm_tempo_sched_op - operations of &DRM_IOCTL_TEMPO_SCHED
 */
enum drm_tempo_sched_op {
	/**
	 * @DRM_TEMPO_SCHED_FILE_PRIORITY_OVERRIDE: every context of the file
	 * @fd, present and future, runs at @priority instead of its own.
	 */
	DRM_TEMPO_SCHED_FILE_PRIORITY_OVERRIDE = 0,
	/**
	 * @DRM_TEMPO_SCHED_CTX_PRIORITY_OVERRIDE: context @ctx_id of the file
	 * @fd runs at @priority instead of its own; a context override wins
	 * over a file override.
	 */
	DRM_TEMPO_SCHED_CTX_PRIORITY_OVERRIDE = 1,
};

/**
 * struct drm_tempo_sched - override priorities of another file's contexts
 *
 * For a compositor raising itself or lowering a game, as amdgpu's SCHED
 * ioctl does. @priority %DRM_TEMPO_PRIORITY_UNSET removes the override. The
 * priority a context reports (&DRM_TEMPO_CTX_PARAM_PRIORITY) is the one it
 * runs at, override included.
 *
 * Checks, in this order: unknown @op, non-zero @flags or @pad, @ctx_id not
 * zero for a file override, @priority neither %DRM_TEMPO_PRIORITY_UNSET nor
 * in -1023..1023: -EINVAL; the caller does not hold CAP_SYS_NICE (nor DRM
 * master, with the module parameter master_priority): -EACCES; @fd not
 * open: -EBADF; @fd not a DRM file of this device: -EINVAL; unknown
 * @ctx_id: -ENOENT.
 */
struct drm_tempo_sched {
	/** @op: &enum drm_tempo_sched_op. */
	__u32 op;
	/** @fd: a file descriptor of this device, the one whose contexts change. */
	__s32 fd;
	/** @ctx_id: the context, for a context override; else MBZ. */
	__u32 ctx_id;
	/** @priority: the priority to run at, or %DRM_TEMPO_PRIORITY_UNSET. */
	__s32 priority;
	/** @flags: MBZ. */
	__u32 flags;
	/** @pad: MBZ. */
	__u32 pad;
};

/* ----------------------------------------------------------------------- */

/**
 * DOC: Packets
 *
 * A batch buffer is a sequence of packets in GPU memory, each a sequence of
 * little-endian dwords. The first dword is the header built by
 * DRM_TEMPO_PKT_HEADER(): the opcode in bits 0..7, bits 8..15 MBZ, the
 * length in dwords (header included) in bits 16..31. GPU addresses are two
 * dwords, low then high. The command processor executes packets in order;
 * a DISPATCH completes (all its workgroups) before the next packet starts.
 * A batch ends with END; BATCH_START runs a second-level batch.
 *
 * ===============  =====  ======================================================
 * packet           dw     payload after the header
 * ===============  =====  ======================================================
 * NOP              >= 1   ignored
 * WRITE_DATA       >= 4   va, then len-3 dwords written at va (4-aligned)
 * WRITE_TIMESTAMP  3      va (8-aligned): the 64-bit GPU timestamp
 * COPY             6      dst va, src va, size in bytes
 * FILL             5      dst va (4-aligned), 32-bit value, size (4-aligned)
 * ATOMIC           6      va (8-aligned), &enum drm_tempo_atomic_op, 64-bit value
 * WAIT_MEM         8      va (8-aligned), &enum drm_tempo_compare, 64-bit ref,
 *                         64-bit mask: waits until (mem & mask) op ref
 * DISPATCH         >= 5   &enum drm_tempo_kernel, groups x, y, z, then the
 *                         kernel's arguments
 * BATCH_START      4      va of a batch, flags: %DRM_TEMPO_BATCH_CHAIN
 * END              1      end of the batch (return from BATCH_START)
 * WRITE_ENGINE_ID  3      va (4-aligned): class << 16 | instance of the engine
 * WRITE_JOB_TIMES  3      va (32-aligned): &struct drm_tempo_job_times of the
 *                         job, as of this packet
 * ===============  =====  ======================================================
 */

/**
 * enum drm_tempo_packet - packet opcodes
 */
enum drm_tempo_packet {
	/** @DRM_TEMPO_PKT_NOP: do nothing. */
	DRM_TEMPO_PKT_NOP = 0,
	/** @DRM_TEMPO_PKT_WRITE_DATA: write immediate dwords. */
	DRM_TEMPO_PKT_WRITE_DATA = 1,
	/** @DRM_TEMPO_PKT_WRITE_TIMESTAMP: write the GPU timestamp. */
	DRM_TEMPO_PKT_WRITE_TIMESTAMP = 2,
	/** @DRM_TEMPO_PKT_COPY: copy bytes. */
	DRM_TEMPO_PKT_COPY = 3,
	/** @DRM_TEMPO_PKT_FILL: fill with a 32-bit value. */
	DRM_TEMPO_PKT_FILL = 4,
	/** @DRM_TEMPO_PKT_ATOMIC: atomic operation on a 64-bit value. */
	DRM_TEMPO_PKT_ATOMIC = 5,
	/** @DRM_TEMPO_PKT_WAIT_MEM: wait until memory compares true. */
	DRM_TEMPO_PKT_WAIT_MEM = 6,
	/** @DRM_TEMPO_PKT_DISPATCH: run a built-in kernel on the CUs. */
	DRM_TEMPO_PKT_DISPATCH = 7,
	/** @DRM_TEMPO_PKT_BATCH_START: run or chain to another batch. */
	DRM_TEMPO_PKT_BATCH_START = 8,
	/** @DRM_TEMPO_PKT_END: end of batch. */
	DRM_TEMPO_PKT_END = 9,
	/**
	 * @DRM_TEMPO_PKT_WRITE_ENGINE_ID: write the executing engine's
	 * class << 16 | instance as a dword at va (4-aligned); 3 dwords.
	 */
	DRM_TEMPO_PKT_WRITE_ENGINE_ID = 10,
	/**
	 * @DRM_TEMPO_PKT_WRITE_JOB_TIMES: write the job's
	 * &struct drm_tempo_job_times at va (32-aligned); 3 dwords.
	 */
	DRM_TEMPO_PKT_WRITE_JOB_TIMES = 11,
};

/**
 * DRM_TEMPO_PKT_HEADER - build a packet header
 * @op: &enum drm_tempo_packet
 * @len: packet length in dwords, header included
 */
#define DRM_TEMPO_PKT_HEADER(op, len) \
	((__u32)(op) | ((__u32)(len) << DRM_TEMPO_PKT_LEN_SHIFT))

/**
 * DOC: Packet layout
 *
 * The dword index of each field of a packet (the header is dword 0; a GPU
 * address or another 64-bit value takes two dwords, low first) and the
 * packets' lengths, header included (``_DW``; ``_MIN_DW`` for packets of
 * variable length). The table of "Packets" says the same in words.
 */

/** DRM_TEMPO_PKT_LEN_SHIFT - the length's first bit in a header */
#define DRM_TEMPO_PKT_LEN_SHIFT			16
/** DRM_TEMPO_PKT_OP_MASK - the opcode's bits in a header */
#define DRM_TEMPO_PKT_OP_MASK			0xffu
/** DRM_TEMPO_PKT_MBZ_MASK - the bits of a header that must be zero */
#define DRM_TEMPO_PKT_MBZ_MASK			0xff00u

/** DRM_TEMPO_PKT_NOP_MIN_DW - NOP: the header, then anything */
#define DRM_TEMPO_PKT_NOP_MIN_DW		1
/** DRM_TEMPO_WRITE_DATA_VA - WRITE_DATA: where to write */
#define DRM_TEMPO_WRITE_DATA_VA			1
/** DRM_TEMPO_WRITE_DATA_DATA - WRITE_DATA: the first dword to write */
#define DRM_TEMPO_WRITE_DATA_DATA		3
/** DRM_TEMPO_PKT_WRITE_DATA_MIN_DW - WRITE_DATA writes one dword at least */
#define DRM_TEMPO_PKT_WRITE_DATA_MIN_DW		4
/** DRM_TEMPO_WRITE_TIMESTAMP_VA - WRITE_TIMESTAMP: where (8-aligned) */
#define DRM_TEMPO_WRITE_TIMESTAMP_VA		1
/** DRM_TEMPO_PKT_WRITE_TIMESTAMP_DW - length of WRITE_TIMESTAMP */
#define DRM_TEMPO_PKT_WRITE_TIMESTAMP_DW	3
/** DRM_TEMPO_COPY_DST - COPY: destination */
#define DRM_TEMPO_COPY_DST			1
/** DRM_TEMPO_COPY_SRC - COPY: source */
#define DRM_TEMPO_COPY_SRC			3
/** DRM_TEMPO_COPY_SIZE - COPY: bytes */
#define DRM_TEMPO_COPY_SIZE			5
/** DRM_TEMPO_PKT_COPY_DW - length of COPY */
#define DRM_TEMPO_PKT_COPY_DW			6
/** DRM_TEMPO_FILL_DST - FILL: destination (4-aligned) */
#define DRM_TEMPO_FILL_DST			1
/** DRM_TEMPO_FILL_VALUE - FILL: the 32-bit value */
#define DRM_TEMPO_FILL_VALUE			3
/** DRM_TEMPO_FILL_SIZE - FILL: bytes (a multiple of 4) */
#define DRM_TEMPO_FILL_SIZE			4
/** DRM_TEMPO_PKT_FILL_DW - length of FILL */
#define DRM_TEMPO_PKT_FILL_DW			5
/** DRM_TEMPO_ATOMIC_VA - ATOMIC: the 64-bit value's address (8-aligned) */
#define DRM_TEMPO_ATOMIC_VA			1
/** DRM_TEMPO_ATOMIC_OP - ATOMIC: &enum drm_tempo_atomic_op */
#define DRM_TEMPO_ATOMIC_OP			3
/** DRM_TEMPO_ATOMIC_VALUE - ATOMIC: the operand */
#define DRM_TEMPO_ATOMIC_VALUE			4
/** DRM_TEMPO_PKT_ATOMIC_DW - length of ATOMIC */
#define DRM_TEMPO_PKT_ATOMIC_DW			6
/** DRM_TEMPO_WAIT_MEM_VA - WAIT_MEM: the 64-bit value's address */
#define DRM_TEMPO_WAIT_MEM_VA			1
/** DRM_TEMPO_WAIT_MEM_COMPARE - WAIT_MEM: &enum drm_tempo_compare */
#define DRM_TEMPO_WAIT_MEM_COMPARE		3
/** DRM_TEMPO_WAIT_MEM_REF - WAIT_MEM: the reference */
#define DRM_TEMPO_WAIT_MEM_REF			4
/** DRM_TEMPO_WAIT_MEM_MASK - WAIT_MEM: the mask */
#define DRM_TEMPO_WAIT_MEM_MASK			6
/** DRM_TEMPO_PKT_WAIT_MEM_DW - length of WAIT_MEM */
#define DRM_TEMPO_PKT_WAIT_MEM_DW		8
/** DRM_TEMPO_DISPATCH_KERNEL - DISPATCH: &enum drm_tempo_kernel */
#define DRM_TEMPO_DISPATCH_KERNEL		1
/** DRM_TEMPO_DISPATCH_GROUPS_X - DISPATCH: workgroups in x */
#define DRM_TEMPO_DISPATCH_GROUPS_X		2
/** DRM_TEMPO_DISPATCH_GROUPS_Y - DISPATCH: workgroups in y */
#define DRM_TEMPO_DISPATCH_GROUPS_Y		3
/** DRM_TEMPO_DISPATCH_GROUPS_Z - DISPATCH: workgroups in z */
#define DRM_TEMPO_DISPATCH_GROUPS_Z		4
/** DRM_TEMPO_DISPATCH_ARGS - DISPATCH: the kernel's first argument */
#define DRM_TEMPO_DISPATCH_ARGS			5
/** DRM_TEMPO_PKT_DISPATCH_MIN_DW - DISPATCH of a kernel of no argument */
#define DRM_TEMPO_PKT_DISPATCH_MIN_DW		5
/** DRM_TEMPO_BATCH_START_VA - BATCH_START: the batch */
#define DRM_TEMPO_BATCH_START_VA		1
/** DRM_TEMPO_BATCH_START_FLAGS - BATCH_START: %DRM_TEMPO_BATCH_CHAIN */
#define DRM_TEMPO_BATCH_START_FLAGS		3
/** DRM_TEMPO_PKT_BATCH_START_DW - length of BATCH_START */
#define DRM_TEMPO_PKT_BATCH_START_DW		4
/** DRM_TEMPO_PKT_END_DW - length of END */
#define DRM_TEMPO_PKT_END_DW			1
/** DRM_TEMPO_WRITE_ENGINE_ID_VA - WRITE_ENGINE_ID: where (4-aligned) */
#define DRM_TEMPO_WRITE_ENGINE_ID_VA		1
/** DRM_TEMPO_PKT_WRITE_ENGINE_ID_DW - length of WRITE_ENGINE_ID */
#define DRM_TEMPO_PKT_WRITE_ENGINE_ID_DW	3
/** DRM_TEMPO_WRITE_JOB_TIMES_VA - WRITE_JOB_TIMES: where (32-aligned) */
#define DRM_TEMPO_WRITE_JOB_TIMES_VA		1
/** DRM_TEMPO_PKT_WRITE_JOB_TIMES_DW - length of WRITE_JOB_TIMES */
#define DRM_TEMPO_PKT_WRITE_JOB_TIMES_DW	3

/**
 * struct drm_tempo_job_times - how a job reached the hardware and waited
 *
 * What WRITE_JOB_TIMES writes: the job's times up to that packet, as the
 * hardware saw them. @queued and @started are GPU timestamps; the two
 * waits are nanoseconds of GPU time (what the engine, or the compute
 * units, ran meanwhile; see the job timeout above for what GPU time is).
 * The waits count only time during which the hardware ran, by right,
 * other jobs' work instead of this job's: work that the job's priority
 * does not let it preempt. They leave out the
 * time a preemption in its favour takes, and the time its submitter or
 * the emulation's threads (a command processor, a compute unit) waited
 * for a CPU, so that a job late because of other work on the GPU can be
 * told from one late because of its host.
 *
 * What other users' work may tell: every caller learns how long its own
 * jobs waited for work it may not preempt, as sums, since it can time the
 * same waits with WRITE_TIMESTAMP; whose work it was and at which priority
 * is for callers that may set priorities, as the live priorities of
 * &DRM_TEMPO_QUERY_HQDS are.
 */
struct drm_tempo_job_times {
	/** @queued: when the job was written into its HQD's ring. */
	__u64 queued;
	/** @started: when the command processor fetched its first packet. */
	__u64 started;
	/**
	 * @engine_wait_ns: time the job waited for its engine (queued and
	 * not started yet, or preempted) while the engine ran other jobs of
	 * its HQD's priority or above: of other HQDs, or ahead of it in its
	 * own.
	 */
	__u64 engine_wait_ns;
	/**
	 * @cu_wait_ns: time its DISPATCHes had workgroups waiting and none
	 * running while every compute unit they may take ran other
	 * dispatches' workgroups that they may not take back (a queue of
	 * the high pipe priority takes the reserved compute units back from
	 * lower ones).
	 */
	__u64 cu_wait_ns;
};

/**
 * DRM_TEMPO_BATCH_CHAIN - BATCH_START jumps and never returns
 *
 * Without it BATCH_START is a call: the second-level batch runs and its END
 * returns to the packet after BATCH_START. With it, the current batch is
 * replaced (no nesting level is used).
 */
#define DRM_TEMPO_BATCH_CHAIN		(1u << 0)

/**
 * enum drm_tempo_atomic_op - operations of the ATOMIC packet
 */
enum drm_tempo_atomic_op {
	/** @DRM_TEMPO_ATOMIC_ADD: mem += value. */
	DRM_TEMPO_ATOMIC_ADD = 0,
	/** @DRM_TEMPO_ATOMIC_INC: mem += 1; value MBZ. */
	DRM_TEMPO_ATOMIC_INC = 1,
};

/**
 * enum drm_tempo_compare - compare functions of WAIT_MEM (unsigned, 64-bit)
 */
enum drm_tempo_compare {
	/** @DRM_TEMPO_COMPARE_EQ: equal. */
	DRM_TEMPO_COMPARE_EQ = 0,
	/** @DRM_TEMPO_COMPARE_NE: not equal. */
	DRM_TEMPO_COMPARE_NE = 1,
	/** @DRM_TEMPO_COMPARE_LT: less than. */
	DRM_TEMPO_COMPARE_LT = 2,
	/** @DRM_TEMPO_COMPARE_LE: less or equal. */
	DRM_TEMPO_COMPARE_LE = 3,
	/** @DRM_TEMPO_COMPARE_GT: greater than. */
	DRM_TEMPO_COMPARE_GT = 4,
	/** @DRM_TEMPO_COMPARE_GE: greater or equal. */
	DRM_TEMPO_COMPARE_GE = 5,
};

/**
 * enum drm_tempo_kernel - built-in kernels of DISPATCH
 *
 * Workgroups are numbered g = x + y * groups_x + z * groups_x * groups_y.
 * Arguments are dwords after the group counts; a 64-bit address takes two.
 */
enum drm_tempo_kernel {
	/**
	 * @DRM_TEMPO_KERNEL_FILL: args dst va, 32-bit value, bytes per group
	 * (4-aligned); group g fills [dst + g * bytes, + bytes).
	 */
	DRM_TEMPO_KERNEL_FILL = 0,
	/**
	 * @DRM_TEMPO_KERNEL_COPY: args dst va, src va, bytes per group; group
	 * g copies [src + g * bytes, + bytes) to dst + g * bytes.
	 */
	DRM_TEMPO_KERNEL_COPY = 1,
	/**
	 * @DRM_TEMPO_KERNEL_ATOMIC_INC: args va (8-aligned), count; every
	 * group increments the 64-bit value at va count times, atomically.
	 */
	DRM_TEMPO_KERNEL_ATOMIC_INC = 2,
	/**
	 * @DRM_TEMPO_KERNEL_CHECKSUM: args src va, dst va (8-aligned), bytes
	 * per group (4-aligned); group g adds the sum of the 32-bit words of
	 * its chunk to the 64-bit value at dst, atomically.
	 */
	DRM_TEMPO_KERNEL_CHECKSUM = 3,
	/**
	 * @DRM_TEMPO_KERNEL_SPIN: args nanoseconds; every group keeps its
	 * compute unit busy for that long.
	 */
	DRM_TEMPO_KERNEL_SPIN = 4,
};

#if defined(__cplusplus)
}
#endif

#endif /* _TEMPO_DRM_H_ */
