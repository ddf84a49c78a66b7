/* SPDX-License-Identifier: MIT */
/*
 * Copyright (c) 2026 The tempo authors
 */
#ifndef TEMPO_UAPI_H
#define TEMPO_UAPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <drm/tempo_drm.h>

/**
 * DOC: tempo-uapi
 *
 * The C helpers of the programs that use the tempo uAPI directly: the uAPI
 * tests (tests/uapi), the IGT tests (tests/igt, whose lib/ adds IGT's
 * assertions), the fuzzer (tools/tempo-fuzz), tempo-hold and the uAPI
 * guide's examples. Plain C11 over libdrm and <drm/tempo_drm.h>, a static
 * library of the build tree, not installed; C++ programs use libtempo
 * instead.
 *
 * - the device: tempo_device_open() finds the render node driven by tempo
 *   with drmGetDevices2(), or opens $TEMPO_DEVICE;
 * - ioctls: tempo_ioctl() restarts on EINTR and EAGAIN (libdrm's
 *   drmIoctl()), tempo_ioctl_raw() does not; a wrapper for each tempo
 *   ioctl with the arguments most callers fill, and &struct tempo_bo, a
 *   buffer mapped for the CPU and the GPU;
 * - batches: &struct tempo_batch and one encoder per packet, which writes
 *   the dwords the uAPI's "Packet layout" names;
 * - waits: sync_files, and syncobjs through libdrm's drmSyncobj*().
 *
 * Every function that makes a system call returns 0 (or what it was asked
 * for) on success and a negative errno on failure. Nothing here prints,
 * aborts or keeps state between calls.
 */

/* ------------------------------------------------------------------------ */
/* The device (device.c) */

/**
 * TEMPO_DEVICE_ENV - the environment variable that names the node to use
 *
 * A path, which replaces the search for the render node driven by tempo
 * (it must be a node of the tempo driver, render or card), in every tool,
 * test and library of tempo.
 */
#define TEMPO_DEVICE_ENV	"TEMPO_DEVICE"

/**
 * tempo_is_tempo() - is a DRM file one of the tempo driver?
 * @fd: an open file
 *
 * Return: true when DRM_IOCTL_VERSION names the driver "tempo".
 */
bool tempo_is_tempo(int fd);

/**
 * tempo_device_open_path() - open the tempo device, and say which node
 * @path: where to write the node's path, or NULL
 * @len: size of @path
 *
 * Opens $TEMPO_DEVICE (see %TEMPO_DEVICE_ENV) when it is set, else the
 * first render node of drmGetDevices2() whose driver is tempo, read-write
 * and close-on-exec.
 *
 * Return: the file descriptor; -ENODEV when there is no such node (or
 * $TEMPO_DEVICE is not driven by tempo); the -errno of open() when the
 * node, or a render node that could not be told apart, cannot be opened.
 */
int tempo_device_open_path(char *path, size_t len);

/**
 * tempo_device_open() - open the tempo device
 *
 * tempo_device_open_path() without the path.
 *
 * Return: the file descriptor, or a negative errno.
 */
int tempo_device_open(void);

/**
 * tempo_device_card_path() - the card (primary) node of the tempo device
 * @path: where to write its path
 * @len: size of @path
 *
 * The card node of the device tempo_device_open() opens: the node whose
 * first opener becomes DRM master, and the one dumb buffers are made on.
 *
 * Return: 0, or a negative errno (-ENODEV: the device has no card node).
 */
int tempo_device_card_path(char *path, size_t len);

/* ------------------------------------------------------------------------ */
/* Ioctls, queries, contexts, exec (ioctl.c) */

/**
 * tempo_ioctl() - make an ioctl, restarting it on EINTR and EAGAIN
 * @fd: DRM file
 * @request: the ioctl's number
 * @arg: its argument
 *
 * Through drmIoctl(), as a driver's user space should; note that an exec
 * over &drm_tempo_query_limits.max_jobs is then retried until a job ends.
 *
 * Return: 0 or -errno.
 */
int tempo_ioctl(int fd, unsigned long request, void *arg);

/**
 * tempo_ioctl_raw() - make an ioctl once
 * @fd: DRM file
 * @request: the ioctl's number
 * @arg: its argument
 *
 * For the callers that must see -EINTR or -EAGAIN themselves.
 *
 * Return: 0 or -errno.
 */
int tempo_ioctl_raw(int fd, unsigned long request, void *arg);

/**
 * tempo_query() - one &DRM_IOCTL_TEMPO_QUERY
 * @fd: DRM file
 * @query: &enum drm_tempo_query_id
 * @data: the answer buffer (NULL to probe)
 * @size: in: size of @data, 0 to probe; out: size of the answer
 *
 * Return: 0 or -errno.
 */
int tempo_query(int fd, uint32_t query, void *data, uint32_t *size);

/**
 * tempo_query_alloc() - the whole answer to a query
 * @fd: DRM file
 * @query: &enum drm_tempo_query_id
 * @size: where to write the answer's size, or NULL
 *
 * The size probe, an allocation of that size and the read.
 *
 * Return: the answer, for free(); NULL with errno set on failure.
 */
void *tempo_query_alloc(int fd, uint32_t query, uint32_t *size);

/**
 * tempo_query_copy() - an answer of a known structure
 * @fd: DRM file
 * @query: &enum drm_tempo_query_id
 * @out: the structure
 * @len: its size
 *
 * Fills @out with the part of the answer it has room for and zeroes the
 * rest, so that a kernel that appended fields to the answer, or one that
 * has fewer, still works.
 *
 * Return: 0 or -errno.
 */
int tempo_query_copy(int fd, uint32_t query, void *out, uint32_t len);

/**
 * tempo_query_device() - &DRM_TEMPO_QUERY_DEVICE
 * @fd: DRM file
 * @dev: the answer
 *
 * Return: 0 or -errno.
 */
int tempo_query_device(int fd, struct drm_tempo_query_device *dev);

/**
 * tempo_query_limits() - &DRM_TEMPO_QUERY_LIMITS
 * @fd: DRM file
 * @limits: the answer
 *
 * Return: 0 or -errno.
 */
int tempo_query_limits(int fd, struct drm_tempo_query_limits *limits);

/**
 * tempo_query_engines() - &DRM_TEMPO_QUERY_ENGINES
 * @fd: DRM file
 *
 * Return: the answer, for free(); NULL with errno set on failure.
 */
struct drm_tempo_query_engines *tempo_query_engines(int fd);

/**
 * tempo_default_slot() - the slot of an engine in the default engine map
 * @e: the answer to &DRM_TEMPO_QUERY_ENGINES, whose order the map follows
 * @engine_class: &enum drm_tempo_engine_class
 * @nth: which engine of the class, from 0
 *
 * Return: the slot, or -1 when the class has no @nth engine.
 */
int tempo_default_slot(const struct drm_tempo_query_engines *e,
		       unsigned int engine_class, unsigned int nth);

/**
 * tempo_count_class() - how many engines a class has
 * @e: the answer to &DRM_TEMPO_QUERY_ENGINES
 * @engine_class: &enum drm_tempo_engine_class
 *
 * Return: the number of engines of @engine_class.
 */
unsigned int tempo_count_class(const struct drm_tempo_query_engines *e,
			       unsigned int engine_class);

/**
 * tempo_engines_of_class() - the engines of a class, as engine map entries
 * @e: the answer to &DRM_TEMPO_QUERY_ENGINES
 * @engine_class: &enum drm_tempo_engine_class
 * @out: where to write them
 * @max: room in @out
 *
 * Return: the number of entries written.
 */
unsigned int tempo_engines_of_class(const struct drm_tempo_query_engines *e,
				    unsigned int engine_class,
				    struct drm_tempo_engine *out,
				    unsigned int max);

/**
 * tempo_class_name() - the name of an engine class
 * @engine_class: &enum drm_tempo_engine_class
 *
 * Return: "gfx", "compute", "copy", or "unknown" for another value.
 */
const char *tempo_class_name(unsigned int engine_class);

/**
 * tempo_ctx_create_ext() - &DRM_IOCTL_TEMPO_CTX_CREATE
 * @fd: DRM file
 * @priority: %DRM_TEMPO_PRIORITY_VERY_LOW .. %DRM_TEMPO_PRIORITY_VERY_HIGH
 * @slots: the engine map, or NULL for the default one
 * @num_slots: entries in @slots
 * @ext: the chain of extensions (&struct drm_tempo_user_extension), or NULL
 * @ctx_id: the new context
 *
 * Return: 0 or -errno.
 */
int tempo_ctx_create_ext(int fd, int32_t priority,
			 const struct drm_tempo_engine *slots,
			 uint32_t num_slots, const void *ext, uint32_t *ctx_id);

/**
 * tempo_ctx_create() - &DRM_IOCTL_TEMPO_CTX_CREATE without extensions
 * @fd: DRM file
 * @priority: %DRM_TEMPO_PRIORITY_VERY_LOW .. %DRM_TEMPO_PRIORITY_VERY_HIGH
 * @slots: the engine map, or NULL for the default one
 * @num_slots: entries in @slots
 * @ctx_id: the new context
 *
 * Return: 0 or -errno.
 */
int tempo_ctx_create(int fd, int32_t priority,
		     const struct drm_tempo_engine *slots, uint32_t num_slots,
		     uint32_t *ctx_id);

/**
 * tempo_ctx_destroy() - &DRM_IOCTL_TEMPO_CTX_DESTROY
 * @fd: DRM file
 * @ctx_id: the context
 *
 * Return: 0 or -errno.
 */
int tempo_ctx_destroy(int fd, uint32_t ctx_id);

/**
 * tempo_ctx_get_param() - &DRM_IOCTL_TEMPO_CTX_GET_PARAM
 * @fd: DRM file
 * @ctx_id: the context
 * @param: &enum drm_tempo_ctx_param_id
 * @value: the value read
 *
 * Return: 0 or -errno.
 */
int tempo_ctx_get_param(int fd, uint32_t ctx_id, uint32_t param,
			int64_t *value);

/**
 * tempo_ctx_set_param() - &DRM_IOCTL_TEMPO_CTX_SET_PARAM
 * @fd: DRM file
 * @ctx_id: the context
 * @param: &enum drm_tempo_ctx_param_id
 * @value: the value to set
 *
 * Return: 0 or -errno.
 */
int tempo_ctx_set_param(int fd, uint32_t ctx_id, uint32_t param,
			int64_t value);

/* The priority a context runs at (%DRM_TEMPO_CTX_PARAM_PRIORITY). */
static inline int tempo_ctx_get_priority(int fd, uint32_t ctx_id,
					 int64_t *value)
{
	return tempo_ctx_get_param(fd, ctx_id, DRM_TEMPO_CTX_PARAM_PRIORITY,
				   value);
}

static inline int tempo_ctx_set_priority(int fd, uint32_t ctx_id,
					 int64_t value)
{
	return tempo_ctx_set_param(fd, ctx_id, DRM_TEMPO_CTX_PARAM_PRIORITY,
				   value);
}

/**
 * tempo_exec() - &DRM_IOCTL_TEMPO_EXEC of one batch
 * @fd: DRM file
 * @ctx_id: the context
 * @slot: the slot of its engine map
 * @batch_va: GPU address of the batch
 * @in: syncobjs to wait for, or NULL
 * @num_in: entries in @in
 * @out: syncobjs to signal, or NULL
 * @num_out: entries in @out
 * @fence_fd: where to return a sync_file of the job (with
 *	%DRM_TEMPO_EXEC_OUT_SYNC_FILE), or NULL for none
 *
 * Return: 0 or -errno.
 */
int tempo_exec(int fd, uint32_t ctx_id, uint32_t slot, uint64_t batch_va,
	       const struct drm_tempo_sync *in, uint32_t num_in,
	       const struct drm_tempo_sync *out, uint32_t num_out,
	       int *fence_fd);

/**
 * tempo_exec_gang() - &DRM_IOCTL_TEMPO_EXEC of several batches
 * @fd: DRM file
 * @ctx_id: the context
 * @slot: the slot of its engine map, parallel for more than one batch
 * @batches: GPU addresses of the batches
 * @num_batches: entries in @batches
 * @in: syncobjs to wait for, or NULL
 * @num_in: entries in @in
 * @fence_fd: where to return a sync_file of the job, or NULL for none
 *
 * Return: 0 or -errno.
 */
int tempo_exec_gang(int fd, uint32_t ctx_id, uint32_t slot,
		    const uint64_t *batches, uint32_t num_batches,
		    const struct drm_tempo_sync *in, uint32_t num_in,
		    int *fence_fd);

/**
 * tempo_sched() - &DRM_IOCTL_TEMPO_SCHED
 * @fd: DRM file of the caller
 * @op: &enum drm_tempo_sched_op
 * @target_fd: the DRM file whose contexts change
 * @ctx_id: the context, for a context override; 0 otherwise
 * @priority: the priority, or %DRM_TEMPO_PRIORITY_UNSET
 *
 * Return: 0 or -errno.
 */
int tempo_sched(int fd, uint32_t op, int target_fd, uint32_t ctx_id,
		int32_t priority);

/* ------------------------------------------------------------------------ */
/* Buffer objects and the GPU address space (bo.c) */

/**
 * struct tempo_bo - a buffer object mapped for the CPU and the GPU
 * @handle: GEM handle, 0 once closed
 * @size: bytes
 * @va: GPU address of its mapping, 0 when it has none
 * @map: CPU address of its mapping, NULL when it has none
 */
struct tempo_bo {
	uint32_t handle;
	uint64_t size;
	uint64_t va;
	void *map;
};

/**
 * tempo_bo_create() - &DRM_IOCTL_TEMPO_BO_CREATE
 * @fd: DRM file
 * @size: bytes, rounded up to the page size by the kernel
 * @handle: the new buffer's GEM handle
 *
 * Return: 0 or -errno.
 */
int tempo_bo_create(int fd, uint64_t size, uint32_t *handle);

/**
 * tempo_bo_create_flags() - &DRM_IOCTL_TEMPO_BO_CREATE with flags
 * @fd: DRM file
 * @size: bytes, rounded up to the page size by the kernel
 * @flags: &drm_tempo_bo_create.flags (%DRM_TEMPO_BO_CREATE_VM_PRIVATE)
 * @handle: the new buffer's GEM handle
 *
 * Return: 0 or -errno.
 */
int tempo_bo_create_flags(int fd, uint64_t size, uint32_t flags,
			  uint32_t *handle);

/**
 * tempo_gem_close() - DRM_IOCTL_GEM_CLOSE, through drmCloseBufferHandle()
 * @fd: DRM file
 * @handle: GEM handle
 *
 * Return: 0 or -errno.
 */
int tempo_gem_close(int fd, uint32_t handle);

/**
 * tempo_bo_mmap_offset() - &DRM_IOCTL_TEMPO_BO_MMAP_OFFSET
 * @fd: DRM file
 * @handle: GEM handle
 * @offset: the offset to pass to mmap() of @fd
 *
 * Return: 0 or -errno.
 */
int tempo_bo_mmap_offset(int fd, uint32_t handle, uint64_t *offset);

/**
 * tempo_bo_mmap() - map a whole buffer for the CPU
 * @fd: DRM file
 * @handle: GEM handle
 * @size: the buffer's size
 *
 * Read-write and shared. The mapping outlives the handle and the file.
 *
 * Return: the CPU address, or NULL with errno set.
 */
void *tempo_bo_mmap(int fd, uint32_t handle, uint64_t size);

/**
 * tempo_vm_map() - &DRM_IOCTL_TEMPO_VM_MAP
 * @fd: DRM file
 * @handle: GEM handle
 * @flags: %DRM_TEMPO_VM_MAP_READONLY, %DRM_TEMPO_VM_MAP_AUTO_VA
 * @va: in: the address to map at (0 with AUTO_VA); out: the mapping's
 * @bo_offset: offset of the range in the buffer
 * @size: size of the range
 *
 * Return: 0 or -errno.
 */
int tempo_vm_map(int fd, uint32_t handle, uint32_t flags, uint64_t *va,
		 uint64_t bo_offset, uint64_t size);

/**
 * tempo_vm_unmap() - &DRM_IOCTL_TEMPO_VM_UNMAP
 * @fd: DRM file
 * @va: start of the mapping
 * @size: its size
 *
 * Return: 0 or -errno.
 */
int tempo_vm_unmap(int fd, uint64_t va, uint64_t size);

/**
 * tempo_bo_new() - a buffer mapped for the CPU and the GPU
 * @fd: DRM file
 * @size: bytes, a multiple of the page size
 * @vm_flags: flags of its GPU mapping besides %DRM_TEMPO_VM_MAP_AUTO_VA
 *	(%DRM_TEMPO_VM_MAP_READONLY)
 * @bo: the buffer, all zero on failure
 *
 * Creates the buffer, maps it for the CPU and at a GPU address the kernel
 * picks; undoes what was done when a step fails.
 *
 * Return: 0 or -errno.
 */
int tempo_bo_new(int fd, uint64_t size, uint32_t vm_flags,
		 struct tempo_bo *bo);

/**
 * tempo_bo_new_flags() - tempo_bo_new() with buffer flags
 * @fd: DRM file
 * @size: bytes, a multiple of the page size
 * @bo_flags: &drm_tempo_bo_create.flags (%DRM_TEMPO_BO_CREATE_VM_PRIVATE)
 * @vm_flags: as for tempo_bo_new()
 * @bo: the buffer, all zero on failure
 *
 * Return: 0 or -errno.
 */
int tempo_bo_new_flags(int fd, uint64_t size, uint32_t bo_flags,
		       uint32_t vm_flags, struct tempo_bo *bo);

/**
 * tempo_bo_del() - undo tempo_bo_new()
 * @fd: DRM file
 * @bo: the buffer; whatever of it is set (@va, @map, @handle) is undone
 *
 * Leaves @bo all zero.
 */
void tempo_bo_del(int fd, struct tempo_bo *bo);

/* ------------------------------------------------------------------------ */
/* Batches and packets (batch.c) */

/**
 * struct tempo_batch - a batch buffer being written
 * @cs: CPU address of its first dword
 * @va: GPU address of its first dword
 * @len: dwords written
 * @max: room, in dwords
 * @overflow: something did not fit
 *
 * The writers put whole packets or nothing: one that does not fit sets
 * @overflow and returns -ENOSPC, and so does every later call, so that a
 * batch never lacks a packet in its middle.
 */
struct tempo_batch {
	uint32_t *cs;
	uint64_t va;
	uint32_t len;
	uint32_t max;
	bool overflow;
};

/**
 * tempo_batch_init() - start a batch inside a buffer
 * @b: the batch
 * @bo: the buffer, mapped for the CPU and the GPU
 * @offset: byte offset of the batch in @bo, a multiple of 4
 * @max_dw: room, in dwords
 *
 * Return: 0; -EINVAL when the batch does not fit in @bo (it then has no
 * room at all).
 */
int tempo_batch_init(struct tempo_batch *b, const struct tempo_bo *bo,
		     uint64_t offset, uint32_t max_dw);

/* GPU address of the next dword to be written. */
static inline uint64_t tempo_batch_here(const struct tempo_batch *b)
{
	return b->va + (uint64_t)b->len * 4;
}

/* Dwords left, keeping one for the END that closes the batch. */
static inline uint32_t tempo_batch_room(const struct tempo_batch *b)
{
	return b->overflow || b->len >= b->max ? 0 : b->max - b->len - 1;
}

/**
 * tempo_emit() - write one dword, whatever it means
 * @b: the batch
 * @dw: the dword
 *
 * For packets this library does not encode: malformed ones, garbage.
 *
 * Return: 0, or -ENOSPC.
 */
int tempo_emit(struct tempo_batch *b, uint32_t dw);

/**
 * tempo_emit_u64() - write a 64-bit value, low dword first
 * @b: the batch
 * @v: the value
 *
 * Return: 0, or -ENOSPC (then neither dword is written).
 */
int tempo_emit_u64(struct tempo_batch *b, uint64_t v);

/*
 * The packets, one writer each, in the order of &enum drm_tempo_packet.
 * Each returns 0, or -ENOSPC when the packet does not fit. Arguments are
 * written as given: the writers check nothing that the command processor
 * checks (alignment, lengths against the device's limits).
 */

/* NOP, with @payload dwords of 0xdeadbeef after its header. */
int tempo_pkt_nop(struct tempo_batch *b, uint32_t payload);
/* NOP, with the @n dwords of @payload after its header. */
int tempo_pkt_nop_data(struct tempo_batch *b, const uint32_t *payload,
		       uint32_t n);
/* WRITE_DATA: the @n dwords of @data at @va. */
int tempo_pkt_write_data(struct tempo_batch *b, uint64_t va,
			 const uint32_t *data, uint32_t n);
/* WRITE_DATA of one dword. */
int tempo_pkt_write32(struct tempo_batch *b, uint64_t va, uint32_t value);
/* WRITE_TIMESTAMP at @va. */
int tempo_pkt_write_timestamp(struct tempo_batch *b, uint64_t va);
/* COPY of @size bytes from @src to @dst. */
int tempo_pkt_copy(struct tempo_batch *b, uint64_t dst, uint64_t src,
		   uint32_t size);
/* FILL of @size bytes at @dst with @value. */
int tempo_pkt_fill(struct tempo_batch *b, uint64_t dst, uint32_t value,
		   uint32_t size);
/* ATOMIC @op (&enum drm_tempo_atomic_op) of @value on the qword at @va. */
int tempo_pkt_atomic(struct tempo_batch *b, uint64_t va, uint32_t op,
		     uint64_t value);
/* WAIT_MEM until (qword at @va & @mask) @compare @ref. */
int tempo_pkt_wait_mem(struct tempo_batch *b, uint64_t va, uint32_t compare,
		       uint64_t ref, uint64_t mask);
/* DISPATCH of @kernel over @gx * @gy * @gz groups, with @nargs arguments. */
int tempo_pkt_dispatch(struct tempo_batch *b, uint32_t kernel, uint32_t gx,
		       uint32_t gy, uint32_t gz, const uint32_t *args,
		       uint32_t nargs);
/* BATCH_START of the batch at @va; @flags: %DRM_TEMPO_BATCH_CHAIN. */
int tempo_pkt_batch_start(struct tempo_batch *b, uint64_t va, uint32_t flags);
/* END. */
int tempo_pkt_end(struct tempo_batch *b);
/* WRITE_ENGINE_ID at @va. */
int tempo_pkt_write_engine_id(struct tempo_batch *b, uint64_t va);
/* WRITE_JOB_TIMES at @va: a struct drm_tempo_job_times, 32-aligned. */
int tempo_pkt_write_job_times(struct tempo_batch *b, uint64_t va);

/* What WRITE_ENGINE_ID writes on the engine @engine_class, @engine_instance. */
static inline uint32_t tempo_engine_id(uint32_t engine_class,
				       uint32_t engine_instance)
{
	return engine_class << 16 | engine_instance;
}

/* Kernel arguments: a 64-bit address is two dwords, low first. */
#define TEMPO_ARG_VA(va)	(uint32_t)(va), (uint32_t)((uint64_t)(va) >> 32)

/* ------------------------------------------------------------------------ */
/* Fences, syncobjs and time (sync.c) */

/**
 * TEMPO_FENCE_UNREADABLE - tempo_fence_status() of a file without a status
 *
 * TEMPO_FENCE_UNREADABLE - errno is returned when SYNC_IOC_FILE_INFO
 * fails: far below every fence error, so that it fails any check of one.
 */
#define TEMPO_FENCE_UNREADABLE	(-100000)

/**
 * tempo_fence_status() - the status of a sync_file, now
 * @fence_fd: the sync_file
 *
 * Return: 1 when it signalled without error, 0 while it is active, the
 * fence's error (-EFAULT, -ETIMEDOUT, ...) when it signalled with one;
 * %TEMPO_FENCE_UNREADABLE - errno when @fence_fd has no status.
 */
int tempo_fence_status(int fence_fd);

/**
 * tempo_fence_timestamp() - when a sync_file of one fence signalled
 * @fence_fd: the sync_file
 * @timestamp_ns: where to write the time its fence signalled
 *	(CLOCK_MONOTONIC, ns), or 0 while it is active
 *
 * Return: tempo_fence_status() of @fence_fd.
 */
int tempo_fence_timestamp(int fence_fd, uint64_t *timestamp_ns);

/**
 * tempo_fence_wait() - wait for a sync_file
 * @fence_fd: the sync_file
 * @timeout_ms: the longest to wait; 0 does not wait
 *
 * Return: tempo_fence_status() once it signalled or the time is up.
 */
int tempo_fence_wait(int fence_fd, int timeout_ms);

/**
 * tempo_syncobj_wait() - wait for a binary syncobj or a timeline point
 * @fd: DRM file
 * @handle: the syncobj
 * @point: the timeline point, 0 for a binary syncobj
 * @timeout_ms: the longest to wait
 *
 * Through drmSyncobjWait() or drmSyncobjTimelineWait(); the syncobj or
 * point must already have a fence.
 *
 * Return: 0 once signalled, -ETIME when the time is up, or -errno.
 */
int tempo_syncobj_wait(int fd, uint32_t handle, uint64_t point,
		       int timeout_ms);

/**
 * tempo_syncobj_has_fence() - does a syncobj have a fence?
 * @fd: DRM file
 * @handle: the syncobj
 *
 * Return: true when it has one (which exporting a sync_file needs).
 */
bool tempo_syncobj_has_fence(int fd, uint32_t handle);

/**
 * tempo_syncobj_status() - wait for a binary syncobj's fence, like a
 * sync_file's
 * @fd: DRM file
 * @handle: the syncobj
 * @timeout_ms: the longest to wait
 *
 * Return: tempo_fence_wait() of its fence; -ENOENT when it has none.
 */
int tempo_syncobj_status(int fd, uint32_t handle, int timeout_ms);

/* CLOCK_MONOTONIC, in nanoseconds. */
uint64_t tempo_now_ns(void);
/* An absolute CLOCK_MONOTONIC deadline, as the syncobj waits take one. */
int64_t tempo_deadline_ns(int timeout_ms);
/* Sleep for @ms milliseconds, signals or not. */
void tempo_sleep_ms(int ms);

#endif /* TEMPO_UAPI_H */
