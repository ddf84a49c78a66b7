// SPDX-License-Identifier: GPL-2.0-only
/*
 * The helpers of tempo's IGT tests, over tools/lib/tempo-uapi: see
 * tempo_igt.h.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "drmtest.h"
#include "igt_core.h"

#include "lib/tempo_igt.h"

/* Spinner layout in its buffer. */
#define SPIN_RUNNING	0x00
#define SPIN_RELEASE	0x08
#define SPIN_ENDED	0x10
#define SPIN_BATCH	0x100

/* The DRM device, skipping the test when its driver is not tempo. */
int tempo_igt_open(void)
{
	int fd = drm_open_driver(DRIVER_ANY);

	igt_require_f(tempo_is_tempo(fd), "the DRM device is not tempo\n");
	return fd;
}

void tempo_igt_query_device(int fd, struct drm_tempo_query_device *dev)
{
	memset(dev, 0, sizeof(*dev));
	igt_assert_eq(tempo_query_device(fd, dev), 0);
}

/* The engines, in the order of the default engine map; free() them. */
struct drm_tempo_query_engines *tempo_igt_query_engines(int fd)
{
	struct drm_tempo_query_engines *e;
	uint32_t size = 0;

	e = tempo_query_alloc(fd, DRM_TEMPO_QUERY_ENGINES, &size);
	igt_assert(e);
	igt_assert(size >= sizeof(*e));
	igt_assert(e->num_engines > 0);
	igt_assert(size >= sizeof(*e) + e->num_engines * sizeof(e->engines[0]));
	return e;
}

/*
 * How many HQDs are programmed at queue priority @queue and pipe priority
 * @pipe (any pipe priority when @pipe is negative).
 */
unsigned int tempo_igt_hqds_at(int fd, int pipe, unsigned int queue)
{
	struct drm_tempo_query_hqds *h;
	unsigned int n = 0;

	h = tempo_query_alloc(fd, DRM_TEMPO_QUERY_HQDS, NULL);
	igt_assert(h);
	for (unsigned int i = 0; i < h->num_hqds; i++)
		n += (pipe < 0 || h->hqds[i].pipe_priority == pipe) &&
		     h->hqds[i].queue_priority == queue;
	free(h);
	return n;
}

/* A context of the default engine map. */
uint32_t tempo_igt_ctx_create(int fd, int32_t priority)
{
	uint32_t ctx = 0;

	igt_assert_eq(tempo_ctx_create(fd, priority, NULL, 0, &ctx), 0);
	igt_assert_neq(ctx, 0);
	return ctx;
}

/* A context whose only slot, 0, is @engine. */
uint32_t tempo_igt_ctx_create_engine(int fd, int32_t priority,
				     const struct drm_tempo_engine *engine)
{
	uint32_t ctx = 0;

	igt_assert_eq(tempo_ctx_create(fd, priority, engine, 1, &ctx), 0);
	return ctx;
}

/* A context whose only slot, 0, is set by the extension @ext. */
static uint32_t ctx_create_slot_ext(int fd, int32_t priority, const void *ext)
{
	const struct drm_tempo_engine none = {
		.engine_instance = DRM_TEMPO_ENGINE_INSTANCE_NONE,
	};
	uint32_t ctx = 0;

	igt_assert_eq(tempo_ctx_create_ext(fd, priority, &none, 1, ext, &ctx),
		      0);
	return ctx;
}

/* A context whose only slot, 0, is load-balanced over @siblings. */
uint32_t tempo_igt_ctx_create_balanced(int fd, int32_t priority,
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
uint32_t tempo_igt_ctx_create_parallel(int fd, int32_t priority,
				       uint16_t width, uint16_t num_siblings,
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

void tempo_igt_ctx_destroy(int fd, uint32_t ctx)
{
	igt_assert_eq(tempo_ctx_destroy(fd, ctx), 0);
}

int64_t tempo_igt_ctx_get_param(int fd, uint32_t ctx, uint32_t param)
{
	int64_t value = 0;

	igt_assert_eq(tempo_ctx_get_param(fd, ctx, param, &value), 0);
	return value;
}

/*
 * A zeroed buffer of @size rounded up to pages, mapped for the CPU and at
 * a GPU address the kernel picks.
 */
void tempo_igt_bo_create(int fd, uint64_t size, struct tempo_bo *bo)
{
	/* Mappings are whole pages. */
	igt_assert_eq(tempo_bo_new(fd, (size + 4095) & ~4095ull, 0, bo), 0);
}

void tempo_igt_bo_destroy(int fd, struct tempo_bo *bo)
{
	igt_assert_eq(tempo_vm_unmap(fd, bo->va, bo->size), 0);
	munmap(bo->map, bo->size);
	igt_assert_eq(tempo_gem_close(fd, bo->handle), 0);
	memset(bo, 0, sizeof(*bo));
}

uint64_t *tempo_igt_bo_u64(struct tempo_bo *bo, uint64_t offset)
{
	igt_assert(offset % 8 == 0 && offset + 8 <= bo->size);
	return (uint64_t *)((char *)bo->map + offset);
}

uint32_t *tempo_igt_bo_u32(struct tempo_bo *bo, uint64_t offset)
{
	igt_assert(offset % 4 == 0 && offset + 4 <= bo->size);
	return (uint32_t *)((char *)bo->map + offset);
}

void tempo_igt_cmd_create(int fd, uint64_t size, struct tempo_igt_cmd *cmd)
{
	tempo_igt_bo_create(fd, size, &cmd->bo);
	cmd->next = 0;
}

void tempo_igt_cmd_destroy(int fd, struct tempo_igt_cmd *cmd)
{
	tempo_igt_bo_destroy(fd, &cmd->bo);
	cmd->next = 0;
}

/*
 * A batch of @max_dwords at @cmd's next free, 64-byte aligned, offset,
 * for tempo_pkt_*(); tempo_igt_batch_end() closes it.
 */
void tempo_igt_batch_begin(struct tempo_batch *b, struct tempo_igt_cmd *cmd,
			   uint32_t max_dwords)
{
	uint64_t offset = (cmd->next + 63) & ~63ull;

	igt_assert(offset + 4ull * max_dwords <= cmd->bo.size);
	cmd->next = offset + 4ull * max_dwords;
	igt_assert_eq(tempo_batch_init(b, &cmd->bo, offset, max_dwords), 0);
}

/*
 * END, and the batch's GPU address; asserts that every packet fitted (the
 * writers of a batch that overflowed fail from then on, END included).
 */
uint64_t tempo_igt_batch_end(struct tempo_batch *b)
{
	igt_assert_eq(tempo_pkt_end(b), 0);
	return b->va;
}

/*
 * @num_batches batches (a parallel slot's width, else 1) on @slot of @ctx,
 * after the binary syncobj @in_syncobj when it is not NULL; the job's
 * sync_file.
 */
static int exec_batches(int fd, uint32_t ctx, uint32_t slot,
			const uint64_t *batches, uint32_t num_batches,
			const uint32_t *in_syncobj)
{
	struct drm_tempo_sync in = {};
	int fence = -1;

	if (in_syncobj)
		in.handle = *in_syncobj;
	igt_assert_eq(tempo_exec_gang(fd, ctx, slot, batches, num_batches,
				      in_syncobj ? &in : NULL,
				      in_syncobj ? 1 : 0, &fence), 0);
	igt_assert_lte(0, fence);
	return fence;
}

/* One batch on @slot of @ctx; its sync_file. */
int tempo_igt_exec(int fd, uint32_t ctx, uint32_t slot, uint64_t batch)
{
	return exec_batches(fd, ctx, slot, &batch, 1, NULL);
}

/* A parallel slot's gang of @num_batches batches; its sync_file. */
int tempo_igt_exec_gang(int fd, uint32_t ctx, uint32_t slot,
			const uint64_t *batches, uint32_t num_batches)
{
	return exec_batches(fd, ctx, slot, batches, num_batches, NULL);
}

/* Submit after the binary syncobj @syncobj signals. */
int tempo_igt_exec_after(int fd, uint32_t ctx, uint32_t slot, uint64_t batch,
			 uint32_t syncobj)
{
	return exec_batches(fd, ctx, slot, &batch, 1, &syncobj);
}

/* 0 while the job runs, 1 once it succeeded, its -errno if it failed. */
int tempo_igt_fence_status(int fence)
{
	int status = tempo_fence_status(fence);

	igt_assert_lt(TEMPO_FENCE_UNREADABLE, status);
	return status;
}

/* Waits (failing after TEMPO_IGT_TIMEOUT_MS) and returns the status. */
int tempo_igt_fence_wait(int fence)
{
	int status = tempo_fence_wait(fence, TEMPO_IGT_TIMEOUT_MS);

	igt_assert_f(status != 0, "job not done within %d ms\n",
		     TEMPO_IGT_TIMEOUT_MS);
	igt_assert_lt(TEMPO_FENCE_UNREADABLE, status);
	return status;
}

/* When a signalled fence signalled (CLOCK_MONOTONIC, ns). */
uint64_t tempo_igt_fence_timestamp(int fence)
{
	uint64_t ns = 0;
	int status = tempo_fence_timestamp(fence, &ns);

	igt_assert_lt(TEMPO_FENCE_UNREADABLE, status);
	igt_assert_neq(status, 0);
	return ns;
}

/*
 * A job on @slot of @ctx that says it runs, waits for the CPU to release
 * it (WAIT_MEM), then says it ended.
 */
void tempo_igt_spin_start(int fd, struct tempo_igt_spin *spin, uint32_t ctx,
			  uint32_t slot)
{
	struct tempo_batch b;
	uint64_t va;

	tempo_igt_bo_create(fd, 4096, &spin->bo);
	va = spin->bo.va;
	spin->ctx = ctx;
	spin->slot = slot;
	igt_assert_eq(tempo_batch_init(&b, &spin->bo, SPIN_BATCH, 32), 0);
	tempo_pkt_write32(&b, va + SPIN_RUNNING, 1);
	tempo_pkt_wait_mem(&b, va + SPIN_RELEASE, DRM_TEMPO_COMPARE_EQ, 1,
			   UINT64_MAX);
	tempo_pkt_write32(&b, va + SPIN_ENDED, 1);
	spin->fence = tempo_igt_exec(fd, ctx, slot, tempo_igt_batch_end(&b));
}

/* Waits until the spinner runs on its engine. */
void tempo_igt_spin_wait_running(struct tempo_igt_spin *spin)
{
	volatile uint32_t *running = tempo_igt_bo_u32(&spin->bo, SPIN_RUNNING);

	for (int ms = 0; !*running; ms++) {
		igt_assert_f(ms < TEMPO_IGT_TIMEOUT_MS,
			     "spinner not running within %d ms\n", ms);
		igt_assert_eq(tempo_igt_fence_status(spin->fence), 0);
		usleep(1000);
	}
}

/* Whether the spinner went past its WAIT_MEM. */
bool tempo_igt_spin_ended(struct tempo_igt_spin *spin)
{
	return *(volatile uint32_t *)tempo_igt_bo_u32(&spin->bo, SPIN_ENDED);
}

void tempo_igt_spin_release(struct tempo_igt_spin *spin)
{
	__atomic_store_n(tempo_igt_bo_u64(&spin->bo, SPIN_RELEASE), 1,
			 __ATOMIC_SEQ_CST);
}

/* Releases the spinner, waits for it and frees it. */
void tempo_igt_spin_free(int fd, struct tempo_igt_spin *spin)
{
	tempo_igt_spin_release(spin);
	tempo_igt_fence_wait(spin->fence);
	close(spin->fence);
	tempo_igt_bo_destroy(fd, &spin->bo);
}
