/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What tempo's IGT tests share beyond tools/lib/tempo-uapi (the device,
 * queries, contexts, buffers, packets and exec: tempo_uapi.h): the same
 * operations asserting success with IGT's igt_assert*(), buffers that
 * hand out room for one batch after another, and a spinner (a job parked
 * on a WAIT_MEM that the CPU releases).  The tests call tempo_uapi.h's
 * functions, which return 0 or -errno, where they expect a failure, and
 * its packet writers, tempo_pkt_*(), between tempo_igt_batch_begin() and
 * tempo_igt_batch_end().
 */
#ifndef TEMPO_IGT_H
#define TEMPO_IGT_H

#include <stdbool.h>
#include <stdint.h>

#include "tempo_uapi.h"

/* Generous bound of every wait: QEMU TCG on a loaded host is slow. */
#define TEMPO_IGT_TIMEOUT_MS	60000

/**
 * struct tempo_igt_cmd - a buffer of batches, one after another
 * @bo: the buffer
 * @next: first free byte for tempo_igt_batch_begin()
 */
struct tempo_igt_cmd {
	struct tempo_bo bo;
	uint64_t next;
};

/**
 * struct tempo_igt_spin - a job that runs until the CPU releases it
 * @bo: its batch and flags
 * @fence: its sync_file
 * @ctx: its context
 * @slot: its engine map slot
 */
struct tempo_igt_spin {
	struct tempo_bo bo;
	int fence;
	uint32_t ctx;
	uint32_t slot;
};

int tempo_igt_open(void);

void tempo_igt_query_device(int fd, struct drm_tempo_query_device *dev);
struct drm_tempo_query_engines *tempo_igt_query_engines(int fd);
unsigned int tempo_igt_hqds_at(int fd, int pipe, unsigned int queue);

uint32_t tempo_igt_ctx_create(int fd, int32_t priority);
uint32_t tempo_igt_ctx_create_engine(int fd, int32_t priority,
				     const struct drm_tempo_engine *engine);
uint32_t tempo_igt_ctx_create_balanced(int fd, int32_t priority,
				       const struct drm_tempo_engine *siblings,
				       uint32_t num_siblings);
uint32_t tempo_igt_ctx_create_parallel(int fd, int32_t priority,
				       uint16_t width, uint16_t num_siblings,
				       const struct drm_tempo_engine *engines);
void tempo_igt_ctx_destroy(int fd, uint32_t ctx);
int64_t tempo_igt_ctx_get_param(int fd, uint32_t ctx, uint32_t param);

void tempo_igt_bo_create(int fd, uint64_t size, struct tempo_bo *bo);
void tempo_igt_bo_destroy(int fd, struct tempo_bo *bo);
uint64_t *tempo_igt_bo_u64(struct tempo_bo *bo, uint64_t offset);
uint32_t *tempo_igt_bo_u32(struct tempo_bo *bo, uint64_t offset);

void tempo_igt_cmd_create(int fd, uint64_t size, struct tempo_igt_cmd *cmd);
void tempo_igt_cmd_destroy(int fd, struct tempo_igt_cmd *cmd);
void tempo_igt_batch_begin(struct tempo_batch *b, struct tempo_igt_cmd *cmd,
			   uint32_t max_dwords);
uint64_t tempo_igt_batch_end(struct tempo_batch *b);

int tempo_igt_exec(int fd, uint32_t ctx, uint32_t slot, uint64_t batch);
int tempo_igt_exec_gang(int fd, uint32_t ctx, uint32_t slot,
			const uint64_t *batches, uint32_t num_batches);
int tempo_igt_exec_after(int fd, uint32_t ctx, uint32_t slot, uint64_t batch,
			 uint32_t syncobj);

int tempo_igt_fence_wait(int fence);
int tempo_igt_fence_status(int fence);
uint64_t tempo_igt_fence_timestamp(int fence);

void tempo_igt_spin_start(int fd, struct tempo_igt_spin *spin, uint32_t ctx,
			  uint32_t slot);
void tempo_igt_spin_wait_running(struct tempo_igt_spin *spin);
bool tempo_igt_spin_ended(struct tempo_igt_spin *spin);
void tempo_igt_spin_release(struct tempo_igt_spin *spin);
void tempo_igt_spin_free(int fd, struct tempo_igt_spin *spin);

#endif /* TEMPO_IGT_H */
