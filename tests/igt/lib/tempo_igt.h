/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What tempo's IGT tests share: the device, contexts, buffers mapped for
 * the CPU and the GPU, batches built from tempo's packets, exec with a
 * sync_file out, and a spinner (a job parked on a WAIT_MEM that the CPU
 * releases).  Functions without a leading "__" assert success with IGT's
 * igt_assert*(); those with one return 0 or -errno.
 */
#ifndef TEMPO_IGT_H
#define TEMPO_IGT_H

#include <stdbool.h>
#include <stdint.h>

#include <drm/tempo_drm.h>

/* Generous bound of every wait: QEMU TCG on a loaded host is slow. */
#define TEMPO_IGT_TIMEOUT_MS	60000

/**
 * struct tempo_bo - a buffer mapped for the CPU and in the GPU VA space
 * @handle: GEM handle
 * @size: bytes
 * @va: GPU virtual address
 * @map: CPU mapping
 * @next: first free byte for tempo_batch_begin()
 */
struct tempo_bo {
	uint32_t handle;
	uint64_t size;
	uint64_t va;
	void *map;
	uint64_t next;
};

/**
 * struct tempo_batch - a batch being written into a &struct tempo_bo
 * @bo: the buffer
 * @va: GPU address of the first dword
 * @cs: CPU address of the first dword
 * @len: dwords written
 * @max: dwords available
 */
struct tempo_batch {
	struct tempo_bo *bo;
	uint64_t va;
	uint32_t *cs;
	uint32_t len;
	uint32_t max;
};

/**
 * struct tempo_spin - a job that runs until the CPU releases it
 * @bo: its batch and flags
 * @fence: its sync_file
 * @ctx: its context
 * @slot: its engine map slot
 */
struct tempo_spin {
	struct tempo_bo bo;
	int fence;
	uint32_t ctx;
	uint32_t slot;
};

int tempo_igt_open(void);
bool tempo_is_device(int fd);

void tempo_query_device(int fd, struct drm_tempo_query_device *dev);
struct drm_tempo_query_engines *tempo_query_engines(int fd);
unsigned int tempo_hqds_at(int fd, int pipe, unsigned int queue);
int tempo_first_slot(const struct drm_tempo_query_engines *e,
		     unsigned int engine_class);
const char *tempo_class_name(unsigned int engine_class);

int __tempo_ctx_create_ext(int fd, int32_t priority,
			   const struct drm_tempo_engine *slots,
			   uint32_t num_slots, const void *ext, uint32_t *ctx);
int __tempo_ctx_create(int fd, int32_t priority,
		       const struct drm_tempo_engine *slots,
		       uint32_t num_slots, uint32_t *ctx);
uint32_t tempo_ctx_create(int fd, int32_t priority);
uint32_t tempo_ctx_create_engine(int fd, int32_t priority,
				 const struct drm_tempo_engine *engine);
uint32_t tempo_ctx_create_balanced(int fd, int32_t priority,
				   const struct drm_tempo_engine *siblings,
				   uint32_t num_siblings);
uint32_t tempo_ctx_create_parallel(int fd, int32_t priority, uint16_t width,
				   uint16_t num_siblings,
				   const struct drm_tempo_engine *engines);
void tempo_ctx_destroy(int fd, uint32_t ctx);
int __tempo_ctx_get_param(int fd, uint32_t ctx, uint32_t param,
			  int64_t *value);
int64_t tempo_ctx_get_param(int fd, uint32_t ctx, uint32_t param);
int __tempo_ctx_set_param(int fd, uint32_t ctx, uint32_t param,
			  int64_t value);

void tempo_bo_create(int fd, uint64_t size, struct tempo_bo *bo);
void tempo_bo_destroy(int fd, struct tempo_bo *bo);
uint64_t *tempo_bo_u64(struct tempo_bo *bo, uint64_t offset);
uint32_t *tempo_bo_u32(struct tempo_bo *bo, uint64_t offset);

void tempo_batch_begin(struct tempo_batch *b, struct tempo_bo *bo,
		       uint32_t max_dwords);
void tempo_emit_nop(struct tempo_batch *b, uint32_t dwords);
void tempo_emit_write32(struct tempo_batch *b, uint64_t va, uint32_t value);
void tempo_emit_inc(struct tempo_batch *b, uint64_t va);
void tempo_emit_copy(struct tempo_batch *b, uint64_t dst, uint64_t src,
		     uint32_t size);
void tempo_emit_wait_eq(struct tempo_batch *b, uint64_t va, uint64_t ref);
void tempo_emit_engine_id(struct tempo_batch *b, uint64_t va);
uint64_t tempo_batch_end(struct tempo_batch *b);

int __tempo_exec_batches(int fd, uint32_t ctx, uint32_t slot,
			 const uint64_t *batches, uint32_t num_batches,
			 const uint32_t *in_syncobj, int *fence);
int __tempo_exec(int fd, uint32_t ctx, uint32_t slot, uint64_t batch,
		 const uint32_t *in_syncobj, int *fence);
int tempo_exec(int fd, uint32_t ctx, uint32_t slot, uint64_t batch);
int tempo_exec_gang(int fd, uint32_t ctx, uint32_t slot,
		    const uint64_t *batches, uint32_t num_batches);
int tempo_exec_after(int fd, uint32_t ctx, uint32_t slot, uint64_t batch,
		     uint32_t syncobj);

int tempo_fence_wait(int fence);
int tempo_fence_status(int fence);
uint64_t tempo_fence_timestamp(int fence);

void tempo_spin_start(int fd, struct tempo_spin *spin, uint32_t ctx,
		      uint32_t slot);
void tempo_spin_wait_running(struct tempo_spin *spin);
bool tempo_spin_ended(struct tempo_spin *spin);
void tempo_spin_release(struct tempo_spin *spin);
void tempo_spin_free(int fd, struct tempo_spin *spin);

#endif /* TEMPO_IGT_H */
