/* SPDX-License-Identifier: MIT */
/*
 * The examples of the uAPI guide (Documentation/uapi.rst), one file per
 * ioctl. Every example returns 0 or a negative errno and prints nothing;
 * tests/uapi/examples.c compiles and calls each of them.
 *
 * The text between a "example: NAME" marker and the next "end of example"
 * marker is what the guide shows.
 */
#ifndef TEMPO_UAPI_EXAMPLES_H
#define TEMPO_UAPI_EXAMPLES_H

#include <stdbool.h>
#include <stdint.h>

#include <drm/tempo_drm.h>

/*
 * tools/lib/tempo-uapi: what is not the subject of an example (buffers
 * mapped for the CPU and the GPU, packets, syncobj waits).
 */
#include "tempo_uapi.h"

/* helpers.c */
bool ex_fails_with(int fd, unsigned long request, void *arg, int expected);
uint64_t ex_batch_write(const struct tempo_bo *buf, uint64_t offset,
			uint64_t dst, uint32_t value);

/* query.c */
void *ex_query(int fd, uint32_t query_id, uint32_t *size);
int ex_query_struct(int fd, uint32_t query_id, void *out, uint32_t len);
int example_query(int fd, struct drm_tempo_query_device *dev);
int example_query_limits(int fd, struct drm_tempo_query_limits *limits);
int ex_engines_of_class(int fd, uint16_t engine_class,
			struct drm_tempo_engine *engines, uint32_t max);
int example_query_errors(int fd);

/* bo_create.c */
int example_bo_create(int fd, uint64_t size, uint32_t *handle);
int example_bo_create_errors(int fd);

/* bo_mmap_offset.c */
int example_bo_mmap(int fd, uint32_t handle, uint64_t size, void **cpu);
int example_bo_mmap_offset_errors(int fd);

/* vm_map.c */
struct ex_mappings {
	uint64_t fixed;		/* explicit VA, read-write */
	uint64_t autova;	/* kernel-chosen VA, read-write */
	uint64_t readonly;	/* kernel-chosen VA, GPU read-only */
};

int example_vm_map(int fd, const struct drm_tempo_query_device *dev,
		   uint32_t handle, uint64_t size, struct ex_mappings *maps);
int example_vm_map_errors(int fd, uint32_t handle, uint64_t va,
			  uint64_t size);

/* vm_unmap.c */
int example_vm_unmap(int fd, uint64_t va, uint64_t size);
int example_vm_unmap_errors(int fd, uint64_t va, uint64_t size);

/* ctx_create.c */
int example_ctx_create_default(int fd, uint32_t *ctx_id);
int example_ctx_create_slots(int fd, uint32_t *ctx_id);
int example_ctx_create_priority(int fd,
				const struct drm_tempo_query_device *dev,
				uint32_t *ctx_id, int32_t *priority);
int example_ctx_create_load_balance(int fd, uint32_t *ctx_id);
int example_ctx_create_parallel(int fd,
				const struct drm_tempo_query_device *dev,
				uint16_t width, uint32_t *ctx_id);
int example_ctx_create_errors(int fd,
			      const struct drm_tempo_query_device *dev);

/* ctx_destroy.c */
int example_ctx_destroy(int fd, uint32_t ctx_id);
int example_ctx_destroy_errors(int fd);

/* ctx_param.c */
int example_ctx_priority(int fd, const struct drm_tempo_query_device *dev,
			 uint32_t ctx_id);
int example_ctx_reset_status(int fd, uint32_t *ctx_id);
int example_ctx_param_errors(int fd, uint32_t ctx_id);

/* exec.c */
int example_exec_syncobjs(int fd, uint32_t ctx_id);
int ex_sync_file_wait(int fence_fd, int timeout_ms);
int example_exec_sync_file(int fd, uint32_t ctx_id);
int example_exec_parallel(int fd, const struct drm_tempo_query_device *dev);
int example_exec_errors(int fd, uint32_t ctx_id);

/* sched.c */
int example_sched(int fd, int other_fd);
int example_sched_errors(int fd, int other_fd);

#endif /* TEMPO_UAPI_EXAMPLES_H */
