// SPDX-License-Identifier: GPL-2.0-only
/*
 * The helpers of tempo's IGT tests, over the raw uAPI: see tempo_igt.h.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/sync_file.h>

#include "drmtest.h"
#include "igt_core.h"

#include "lib/tempo_igt.h"

/* Spinner layout in its buffer. */
#define SPIN_RUNNING	0x00
#define SPIN_RELEASE	0x08
#define SPIN_ENDED	0x10
#define SPIN_BATCH	0x100

static int tempo_ioctl(int fd, unsigned long request, void *arg)
{
	return drmIoctl(fd, request, arg) ? -errno : 0;
}

bool tempo_is_device(int fd)
{
	drmVersionPtr v = drmGetVersion(fd);
	bool ret;

	if (!v)
		return false;
	ret = strcmp(v->name, "tempo") == 0;
	drmFreeVersion(v);
	return ret;
}

/* The DRM device, skipping the test when its driver is not tempo. */
int tempo_igt_open(void)
{
	int fd = drm_open_driver(DRIVER_ANY);

	igt_require_f(tempo_is_device(fd), "the DRM device is not tempo\n");
	return fd;
}

void tempo_query_device(int fd, struct drm_tempo_query_device *dev)
{
	struct drm_tempo_query q = {
		.query = DRM_TEMPO_QUERY_DEVICE,
		.size = sizeof(*dev),
		.data = (uintptr_t)dev,
	};

	memset(dev, 0, sizeof(*dev));
	igt_assert_eq(tempo_ioctl(fd, DRM_IOCTL_TEMPO_QUERY, &q), 0);
}

/* The engines, in the order of the default engine map; free() them. */
struct drm_tempo_query_engines *tempo_query_engines(int fd)
{
	struct drm_tempo_query q = { .query = DRM_TEMPO_QUERY_ENGINES };
	struct drm_tempo_query_engines *e;

	igt_assert_eq(tempo_ioctl(fd, DRM_IOCTL_TEMPO_QUERY, &q), 0);
	igt_assert(q.size >= sizeof(*e));
	e = calloc(1, q.size);
	igt_assert(e);
	q.data = (uintptr_t)e;
	igt_assert_eq(tempo_ioctl(fd, DRM_IOCTL_TEMPO_QUERY, &q), 0);
	igt_assert(e->num_engines > 0);
	igt_assert(q.size >= sizeof(*e) + e->num_engines * sizeof(e->engines[0]));
	return e;
}

/*
 * How many HQDs are programmed at queue priority @queue and pipe priority
 * @pipe (any pipe priority when @pipe is negative).
 */
unsigned int tempo_hqds_at(int fd, int pipe, unsigned int queue)
{
	struct drm_tempo_query q = { .query = DRM_TEMPO_QUERY_HQDS };
	struct drm_tempo_query_hqds *h;
	unsigned int n = 0;

	igt_assert_eq(tempo_ioctl(fd, DRM_IOCTL_TEMPO_QUERY, &q), 0);
	h = calloc(1, q.size);
	igt_assert(h);
	q.data = (uintptr_t)h;
	igt_assert_eq(tempo_ioctl(fd, DRM_IOCTL_TEMPO_QUERY, &q), 0);
	for (unsigned int i = 0; i < h->num_hqds; i++)
		n += (pipe < 0 || h->hqds[i].pipe_priority == pipe) &&
		     h->hqds[i].queue_priority == queue;
	free(h);
	return n;
}

/* The default map's slot of the first engine of a class, or -1. */
int tempo_first_slot(const struct drm_tempo_query_engines *e,
		     unsigned int engine_class)
{
	for (unsigned int i = 0; i < e->num_engines; i++)
		if (e->engines[i].engine_class == engine_class)
			return i;
	return -1;
}

const char *tempo_class_name(unsigned int engine_class)
{
	switch (engine_class) {
	case DRM_TEMPO_ENGINE_CLASS_GFX:
		return "gfx";
	case DRM_TEMPO_ENGINE_CLASS_COMPUTE:
		return "compute";
	case DRM_TEMPO_ENGINE_CLASS_COPY:
		return "copy";
	}
	return "unknown";
}

/* A context of the engine map @slots, with the extension chain @ext. */
int __tempo_ctx_create_ext(int fd, int32_t priority,
			   const struct drm_tempo_engine *slots,
			   uint32_t num_slots, const void *ext, uint32_t *ctx)
{
	struct drm_tempo_ctx_create c = {
		.extensions = (uintptr_t)ext,
		.priority = priority,
		.num_slots = num_slots,
		.slots = (uintptr_t)slots,
	};
	int ret = tempo_ioctl(fd, DRM_IOCTL_TEMPO_CTX_CREATE, &c);

	if (!ret)
		*ctx = c.ctx_id;
	return ret;
}

int __tempo_ctx_create(int fd, int32_t priority,
		       const struct drm_tempo_engine *slots,
		       uint32_t num_slots, uint32_t *ctx)
{
	return __tempo_ctx_create_ext(fd, priority, slots, num_slots, NULL,
				      ctx);
}

/* A context of the default engine map. */
uint32_t tempo_ctx_create(int fd, int32_t priority)
{
	uint32_t ctx = 0;

	igt_assert_eq(__tempo_ctx_create(fd, priority, NULL, 0, &ctx), 0);
	igt_assert_neq(ctx, 0);
	return ctx;
}

/* A context whose only slot, 0, is @engine. */
uint32_t tempo_ctx_create_engine(int fd, int32_t priority,
				 const struct drm_tempo_engine *engine)
{
	uint32_t ctx = 0;

	igt_assert_eq(__tempo_ctx_create(fd, priority, engine, 1, &ctx), 0);
	return ctx;
}

/* A context whose only slot, 0, is set by the extension @ext. */
static uint32_t ctx_create_slot_ext(int fd, int32_t priority, const void *ext)
{
	const struct drm_tempo_engine none = {
		.engine_instance = DRM_TEMPO_ENGINE_INSTANCE_NONE,
	};
	uint32_t ctx = 0;

	igt_assert_eq(__tempo_ctx_create_ext(fd, priority, &none, 1, ext, &ctx),
		      0);
	return ctx;
}

/* A context whose only slot, 0, is load-balanced over @siblings. */
uint32_t tempo_ctx_create_balanced(int fd, int32_t priority,
				   const struct drm_tempo_engine *siblings,
				   uint32_t num_siblings)
{
	struct drm_tempo_ctx_ext_load_balance ext = {
		.base.name = DRM_TEMPO_CTX_EXT_LOAD_BALANCE,
		.num_siblings = num_siblings,
		.siblings = (uintptr_t)siblings,
	};

	return ctx_create_slot_ext(fd, priority, &ext);
}

/*
 * A context whose only slot, 0, is parallel: @width batches, batch i on
 * one of engines[i * num_siblings ... + num_siblings - 1].
 */
uint32_t tempo_ctx_create_parallel(int fd, int32_t priority, uint16_t width,
				   uint16_t num_siblings,
				   const struct drm_tempo_engine *engines)
{
	struct drm_tempo_ctx_ext_parallel ext = {
		.base.name = DRM_TEMPO_CTX_EXT_PARALLEL,
		.width = width,
		.num_siblings = num_siblings,
		.engines = (uintptr_t)engines,
	};

	return ctx_create_slot_ext(fd, priority, &ext);
}

void tempo_ctx_destroy(int fd, uint32_t ctx)
{
	struct drm_tempo_ctx_destroy d = { .ctx_id = ctx };

	igt_assert_eq(tempo_ioctl(fd, DRM_IOCTL_TEMPO_CTX_DESTROY, &d), 0);
}

int __tempo_ctx_get_param(int fd, uint32_t ctx, uint32_t param,
			  int64_t *value)
{
	struct drm_tempo_ctx_param p = { .ctx_id = ctx, .param = param };
	int ret = tempo_ioctl(fd, DRM_IOCTL_TEMPO_CTX_GET_PARAM, &p);

	if (!ret)
		*value = p.value;
	return ret;
}

int64_t tempo_ctx_get_param(int fd, uint32_t ctx, uint32_t param)
{
	int64_t value = 0;

	igt_assert_eq(__tempo_ctx_get_param(fd, ctx, param, &value), 0);
	return value;
}

int __tempo_ctx_set_param(int fd, uint32_t ctx, uint32_t param,
			  int64_t value)
{
	struct drm_tempo_ctx_param p = {
		.ctx_id = ctx,
		.param = param,
		.value = value,
	};

	return tempo_ioctl(fd, DRM_IOCTL_TEMPO_CTX_SET_PARAM, &p);
}

/*
 * A zeroed buffer of @size rounded up to pages, mapped for the CPU and at
 * a GPU address the kernel picks.
 */
void tempo_bo_create(int fd, uint64_t size, struct tempo_bo *bo)
{
	struct drm_tempo_bo_create c = {};
	struct drm_tempo_bo_mmap_offset o = {};
	struct drm_tempo_vm_map m = {};

	/* Mappings are whole pages. */
	size = (size + 4095) & ~4095ull;
	c.size = size;
	memset(bo, 0, sizeof(*bo));
	igt_assert_eq(tempo_ioctl(fd, DRM_IOCTL_TEMPO_BO_CREATE, &c), 0);
	bo->handle = c.handle;
	bo->size = size;
	o.handle = c.handle;
	igt_assert_eq(tempo_ioctl(fd, DRM_IOCTL_TEMPO_BO_MMAP_OFFSET, &o), 0);
	bo->map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		       o.offset);
	igt_assert(bo->map != MAP_FAILED);
	m.handle = c.handle;
	m.flags = DRM_TEMPO_VM_MAP_AUTO_VA;
	m.size = size;
	igt_assert_eq(tempo_ioctl(fd, DRM_IOCTL_TEMPO_VM_MAP, &m), 0);
	bo->va = m.va;
}

void tempo_bo_destroy(int fd, struct tempo_bo *bo)
{
	struct drm_tempo_vm_unmap u = { .va = bo->va, .size = bo->size };
	struct drm_gem_close c = { .handle = bo->handle };

	igt_assert_eq(tempo_ioctl(fd, DRM_IOCTL_TEMPO_VM_UNMAP, &u), 0);
	munmap(bo->map, bo->size);
	igt_assert_eq(tempo_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &c), 0);
	memset(bo, 0, sizeof(*bo));
}

uint64_t *tempo_bo_u64(struct tempo_bo *bo, uint64_t offset)
{
	igt_assert(offset % 8 == 0 && offset + 8 <= bo->size);
	return (uint64_t *)((char *)bo->map + offset);
}

uint32_t *tempo_bo_u32(struct tempo_bo *bo, uint64_t offset)
{
	igt_assert(offset % 4 == 0 && offset + 4 <= bo->size);
	return (uint32_t *)((char *)bo->map + offset);
}

/* A batch at @bo's next free, 64-byte aligned, offset. */
void tempo_batch_begin(struct tempo_batch *b, struct tempo_bo *bo,
		       uint32_t max_dwords)
{
	uint64_t offset = (bo->next + 63) & ~63ull;

	igt_assert(offset + 4ull * max_dwords <= bo->size);
	bo->next = offset + 4ull * max_dwords;
	b->bo = bo;
	b->va = bo->va + offset;
	b->cs = (uint32_t *)((char *)bo->map + offset);
	b->len = 0;
	b->max = max_dwords;
}

static uint32_t *emit(struct tempo_batch *b, uint32_t op, uint32_t dwords)
{
	uint32_t *p = b->cs + b->len;

	igt_assert(b->len + dwords <= b->max);
	memset(p, 0, 4 * dwords);
	p[0] = DRM_TEMPO_PKT_HEADER(op, dwords);
	b->len += dwords;
	return p;
}

static void put_u64(uint32_t *p, uint64_t v)
{
	p[0] = (uint32_t)v;
	p[1] = (uint32_t)(v >> 32);
}

void tempo_emit_nop(struct tempo_batch *b, uint32_t dwords)
{
	emit(b, DRM_TEMPO_PKT_NOP, dwords);
}

void tempo_emit_write32(struct tempo_batch *b, uint64_t va, uint32_t value)
{
	uint32_t *p = emit(b, DRM_TEMPO_PKT_WRITE_DATA,
			   DRM_TEMPO_PKT_WRITE_DATA_MIN_DW);

	put_u64(p + DRM_TEMPO_WRITE_DATA_VA, va);
	p[DRM_TEMPO_WRITE_DATA_DATA] = value;
}

/* ATOMIC_INC of the 64-bit value at @va. */
void tempo_emit_inc(struct tempo_batch *b, uint64_t va)
{
	uint32_t *p = emit(b, DRM_TEMPO_PKT_ATOMIC, DRM_TEMPO_PKT_ATOMIC_DW);

	put_u64(p + DRM_TEMPO_ATOMIC_VA, va);
	p[DRM_TEMPO_ATOMIC_OP] = DRM_TEMPO_ATOMIC_INC;
}

void tempo_emit_copy(struct tempo_batch *b, uint64_t dst, uint64_t src,
		     uint32_t size)
{
	uint32_t *p = emit(b, DRM_TEMPO_PKT_COPY, DRM_TEMPO_PKT_COPY_DW);

	put_u64(p + DRM_TEMPO_COPY_DST, dst);
	put_u64(p + DRM_TEMPO_COPY_SRC, src);
	p[DRM_TEMPO_COPY_SIZE] = size;
}

/* WAIT_MEM until the 64-bit value at @va equals @ref. */
void tempo_emit_wait_eq(struct tempo_batch *b, uint64_t va, uint64_t ref)
{
	uint32_t *p = emit(b, DRM_TEMPO_PKT_WAIT_MEM,
			   DRM_TEMPO_PKT_WAIT_MEM_DW);

	put_u64(p + DRM_TEMPO_WAIT_MEM_VA, va);
	p[DRM_TEMPO_WAIT_MEM_COMPARE] = DRM_TEMPO_COMPARE_EQ;
	put_u64(p + DRM_TEMPO_WAIT_MEM_REF, ref);
	put_u64(p + DRM_TEMPO_WAIT_MEM_MASK, UINT64_MAX);
}

void tempo_emit_engine_id(struct tempo_batch *b, uint64_t va)
{
	uint32_t *p = emit(b, DRM_TEMPO_PKT_WRITE_ENGINE_ID,
			   DRM_TEMPO_PKT_WRITE_ENGINE_ID_DW);

	put_u64(p + DRM_TEMPO_WRITE_ENGINE_ID_VA, va);
}

/* END, and the batch's GPU address. */
uint64_t tempo_batch_end(struct tempo_batch *b)
{
	emit(b, DRM_TEMPO_PKT_END, DRM_TEMPO_PKT_END_DW);
	return b->va;
}

/*
 * @num_batches batches (a parallel slot's width, else 1) on @slot of @ctx,
 * after the binary syncobj @in_syncobj when it is not NULL; the job's
 * sync_file in @fence.
 */
int __tempo_exec_batches(int fd, uint32_t ctx, uint32_t slot,
			 const uint64_t *batches, uint32_t num_batches,
			 const uint32_t *in_syncobj, int *fence)
{
	struct drm_tempo_sync in = {};
	struct drm_tempo_exec x = {
		.ctx_id = ctx,
		.slot = slot,
		.flags = DRM_TEMPO_EXEC_OUT_SYNC_FILE,
		.num_batches = num_batches,
		.batches = (uintptr_t)batches,
		.out_fence_fd = -1,
	};
	int ret;

	if (in_syncobj) {
		in.handle = *in_syncobj;
		x.num_in_syncs = 1;
		x.in_syncs = (uintptr_t)&in;
	}
	ret = tempo_ioctl(fd, DRM_IOCTL_TEMPO_EXEC, &x);
	if (!ret)
		*fence = x.out_fence_fd;
	return ret;
}

/* One batch on @slot of @ctx, as __tempo_exec_batches(). */
int __tempo_exec(int fd, uint32_t ctx, uint32_t slot, uint64_t batch,
		 const uint32_t *in_syncobj, int *fence)
{
	return __tempo_exec_batches(fd, ctx, slot, &batch, 1, in_syncobj,
				    fence);
}

/* A parallel slot's gang of @num_batches batches; its sync_file. */
int tempo_exec_gang(int fd, uint32_t ctx, uint32_t slot,
		    const uint64_t *batches, uint32_t num_batches)
{
	int fence = -1;

	igt_assert_eq(__tempo_exec_batches(fd, ctx, slot, batches, num_batches,
					   NULL, &fence), 0);
	igt_assert_lte(0, fence);
	return fence;
}

int tempo_exec(int fd, uint32_t ctx, uint32_t slot, uint64_t batch)
{
	int fence = -1;

	igt_assert_eq(__tempo_exec(fd, ctx, slot, batch, NULL, &fence), 0);
	igt_assert_lte(0, fence);
	return fence;
}

/* Submit after the binary syncobj @syncobj signals. */
int tempo_exec_after(int fd, uint32_t ctx, uint32_t slot, uint64_t batch,
		     uint32_t syncobj)
{
	int fence = -1;

	igt_assert_eq(__tempo_exec(fd, ctx, slot, batch, &syncobj, &fence),
		      0);
	igt_assert_lte(0, fence);
	return fence;
}

static int fence_info(int fence, struct sync_fence_info *one)
{
	struct sync_file_info info = {};

	if (one) {
		info.num_fences = 1;
		info.sync_fence_info = (uintptr_t)one;
	}
	igt_assert_eq(ioctl(fence, SYNC_IOC_FILE_INFO, &info), 0);
	return info.status;
}

/* 0 while the job runs, 1 once it succeeded, its -errno if it failed. */
int tempo_fence_status(int fence)
{
	return fence_info(fence, NULL);
}

/* Waits (failing after TEMPO_IGT_TIMEOUT_MS) and returns the status. */
int tempo_fence_wait(int fence)
{
	struct pollfd p = { .fd = fence, .events = POLLIN };
	int ret;

	do {
		ret = poll(&p, 1, TEMPO_IGT_TIMEOUT_MS);
	} while (ret < 0 && errno == EINTR);
	igt_assert_f(ret == 1, "job not done within %d ms\n",
		     TEMPO_IGT_TIMEOUT_MS);
	return tempo_fence_status(fence);
}

/* When a signalled fence signalled (CLOCK_MONOTONIC, ns). */
uint64_t tempo_fence_timestamp(int fence)
{
	struct sync_fence_info one = {};

	igt_assert_neq(fence_info(fence, &one), 0);
	return one.timestamp_ns;
}

/*
 * A job on @slot of @ctx that says it runs, waits for the CPU to release
 * it (WAIT_MEM), then says it ended.
 */
void tempo_spin_start(int fd, struct tempo_spin *spin, uint32_t ctx,
		      uint32_t slot)
{
	struct tempo_batch b;

	tempo_bo_create(fd, 4096, &spin->bo);
	spin->bo.next = SPIN_BATCH;
	spin->ctx = ctx;
	spin->slot = slot;
	tempo_batch_begin(&b, &spin->bo, 32);
	tempo_emit_write32(&b, spin->bo.va + SPIN_RUNNING, 1);
	tempo_emit_wait_eq(&b, spin->bo.va + SPIN_RELEASE, 1);
	tempo_emit_write32(&b, spin->bo.va + SPIN_ENDED, 1);
	spin->fence = tempo_exec(fd, ctx, slot, tempo_batch_end(&b));
}

/* Waits until the spinner runs on its engine. */
void tempo_spin_wait_running(struct tempo_spin *spin)
{
	volatile uint32_t *running = tempo_bo_u32(&spin->bo, SPIN_RUNNING);

	for (int ms = 0; !*running; ms++) {
		igt_assert_f(ms < TEMPO_IGT_TIMEOUT_MS,
			     "spinner not running within %d ms\n", ms);
		igt_assert_eq(tempo_fence_status(spin->fence), 0);
		usleep(1000);
	}
}

/* Whether the spinner went past its WAIT_MEM. */
bool tempo_spin_ended(struct tempo_spin *spin)
{
	return *(volatile uint32_t *)tempo_bo_u32(&spin->bo, SPIN_ENDED);
}

void tempo_spin_release(struct tempo_spin *spin)
{
	__atomic_store_n(tempo_bo_u64(&spin->bo, SPIN_RELEASE), 1,
			 __ATOMIC_SEQ_CST);
}

/* Releases the spinner, waits for it and frees it. */
void tempo_spin_free(int fd, struct tempo_spin *spin)
{
	tempo_spin_release(spin);
	tempo_fence_wait(spin->fence);
	close(spin->fence);
	tempo_bo_destroy(fd, &spin->bo);
}
