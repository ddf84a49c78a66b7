// SPDX-License-Identifier: GPL-2.0-only
/*
 * Command submission on every engine, one dynamic subtest per engine of
 * DRM_TEMPO_QUERY_ENGINES:
 *
 *   nop     batches of NOPs on the engine, at NORMAL priority (the
 *           regular HQDs) and, for root, at HIGH (the high HQD): every
 *           job signals success, runs on that engine (WRITE_ENGINE_ID)
 *           and the jobs of one context run in submission order
 *   reset   a hanging job is stopped by the job timeout: its fence carries
 *           ETIMEDOUT, the job queued behind it on its context ECANCELED,
 *           its context is guilty and banned; the innocent context's job,
 *           queued on the same engine behind the hang, completes, and
 *           that context is not guilty and still runs jobs
 */
#include <errno.h>

#include "drmtest.h"
#include "igt_core.h"

#include "lib/tempo_igt.h"

IGT_TEST_DESCRIPTION("Submit to every tempo engine; reset a hanging job.");

#define NOP_JOBS	32
/* Data layout: the counter, then per job its engine and its count. */
#define COUNTER		0x0
#define JOB_ENGINE(i)	(0x100 + 8 * (i))
#define JOB_COUNT(i)	(0x400 + 8 * (i))

static void nop_at(int fd, const struct drm_tempo_engine_info *info,
		   int32_t prio)
{
	struct drm_tempo_engine engine = {
		.engine_class = info->engine_class,
		.engine_instance = info->engine_instance,
	};
	uint32_t ctx = tempo_igt_ctx_create_engine(fd, prio, &engine);
	struct tempo_bo data;
	struct tempo_igt_cmd cmd;
	int fence[NOP_JOBS];

	tempo_igt_bo_create(fd, 4096, &data);
	tempo_igt_cmd_create(fd, NOP_JOBS * 256, &cmd);
	for (unsigned int i = 0; i < NOP_JOBS; i++) {
		struct tempo_batch b;

		tempo_igt_batch_begin(&b, &cmd, 64);
		tempo_pkt_nop(&b, i % 16);
		tempo_pkt_write_engine_id(&b, data.va + JOB_ENGINE(i));
		tempo_pkt_atomic(&b, data.va + COUNTER, DRM_TEMPO_ATOMIC_INC,
				 0);
		tempo_pkt_copy(&b, data.va + JOB_COUNT(i), data.va + COUNTER,
			       8);
		fence[i] = tempo_igt_exec(fd, ctx, 0, tempo_igt_batch_end(&b));
	}
	for (unsigned int i = 0; i < NOP_JOBS; i++) {
		igt_assert_eq(tempo_igt_fence_wait(fence[i]), 1);
		close(fence[i]);
	}
	for (unsigned int i = 0; i < NOP_JOBS; i++) {
		igt_assert_eq_u32(*tempo_igt_bo_u32(&data, JOB_ENGINE(i)),
				  tempo_engine_id(info->engine_class,
						  info->engine_instance));
		igt_assert_eq_u64(*tempo_igt_bo_u64(&data, JOB_COUNT(i)),
				  i + 1);
	}
	tempo_igt_cmd_destroy(fd, &cmd);
	tempo_igt_bo_destroy(fd, &data);
	tempo_igt_ctx_destroy(fd, ctx);
}

static void nop(int fd, const struct drm_tempo_engine_info *info)
{
	struct drm_tempo_query_device dev;

	nop_at(fd, info, DRM_TEMPO_PRIORITY_NORMAL);
	tempo_igt_query_device(fd, &dev);
	if (dev.max_priority >= DRM_TEMPO_PRIORITY_HIGH)
		nop_at(fd, info, DRM_TEMPO_PRIORITY_HIGH);
}

static int64_t reset_status(int fd, uint32_t ctx)
{
	return tempo_igt_ctx_get_param(fd, ctx,
				       DRM_TEMPO_CTX_PARAM_RESET_STATUS);
}

/* A job that writes @value at @va. */
static uint64_t write_batch(struct tempo_igt_cmd *cmd, uint64_t va,
			    uint32_t value)
{
	struct tempo_batch b;

	tempo_igt_batch_begin(&b, cmd, 16);
	tempo_pkt_write32(&b, va, value);
	return tempo_igt_batch_end(&b);
}

static void reset(int fd, const struct drm_tempo_engine_info *info)
{
	struct drm_tempo_engine engine = {
		.engine_class = info->engine_class,
		.engine_instance = info->engine_instance,
	};
	uint32_t guilty =
		tempo_igt_ctx_create_engine(fd, DRM_TEMPO_PRIORITY_NORMAL,
					    &engine);
	uint32_t innocent =
		tempo_igt_ctx_create_engine(fd, DRM_TEMPO_PRIORITY_NORMAL,
					    &engine);
	struct tempo_bo data;
	struct tempo_igt_cmd cmd;
	struct tempo_igt_spin hang;
	int behind, other, after, fence;
	uint64_t batch;

	tempo_igt_bo_create(fd, 4096, &data);
	tempo_igt_cmd_create(fd, 4096, &cmd);

	/* A spinner nobody releases: it hangs until the job timeout. */
	tempo_igt_spin_start(fd, &hang, guilty, 0);
	tempo_igt_spin_wait_running(&hang);
	behind = tempo_igt_exec(fd, guilty, 0, write_batch(&cmd, data.va, 1));
	other = tempo_igt_exec(fd, innocent, 0,
			       write_batch(&cmd, data.va + 8, 2));

	igt_assert_eq(tempo_igt_fence_wait(hang.fence), -ETIMEDOUT);
	igt_assert(!tempo_igt_spin_ended(&hang));
	igt_assert_eq(tempo_igt_fence_wait(behind), -ECANCELED);
	igt_assert_eq_u32(*tempo_igt_bo_u32(&data, 0), 0);
	igt_assert_eq(tempo_igt_fence_wait(other), 1);
	igt_assert_eq_u32(*tempo_igt_bo_u32(&data, 8), 2);

	igt_assert(reset_status(fd, guilty) & DRM_TEMPO_RESET_STATUS_GUILTY);
	igt_assert(!(reset_status(fd, innocent) &
		     DRM_TEMPO_RESET_STATUS_GUILTY));

	/* The guilty context is banned, the innocent one carries on. */
	batch = write_batch(&cmd, data.va + 16, 3);
	igt_assert_eq(tempo_exec(fd, guilty, 0, batch, NULL, 0, NULL, 0,
				 &fence), -ECANCELED);
	after = tempo_igt_exec(fd, innocent, 0, batch);
	igt_assert_eq(tempo_igt_fence_wait(after), 1);
	igt_assert_eq_u32(*tempo_igt_bo_u32(&data, 16), 3);

	close(after);
	close(other);
	close(behind);
	close(hang.fence);
	tempo_igt_bo_destroy(fd, &hang.bo);
	tempo_igt_cmd_destroy(fd, &cmd);
	tempo_igt_bo_destroy(fd, &data);
	tempo_igt_ctx_destroy(fd, innocent);
	tempo_igt_ctx_destroy(fd, guilty);
}

static void for_each_engine(int fd, const struct drm_tempo_query_engines *e,
			    void (*fn)(int, const struct drm_tempo_engine_info *))
{
	for (unsigned int i = 0; i < e->num_engines; i++) {
		const struct drm_tempo_engine_info *info = &e->engines[i];

		igt_dynamic_f("%s%u", tempo_class_name(info->engine_class),
			      info->engine_instance)
			fn(fd, info);
	}
}

igt_main
{
	struct drm_tempo_query_engines *engines = NULL;
	int fd = -1;

	igt_fixture {
		fd = tempo_igt_open();
		engines = tempo_igt_query_engines(fd);
	}

	igt_describe("NOP batches on each engine complete, in order, on that engine.");
	igt_subtest_with_dynamic("nop")
		for_each_engine(fd, engines, nop);

	igt_describe("A hang on each engine: the guilty job fails, the innocent one completes.");
	igt_subtest_with_dynamic("reset")
		for_each_engine(fd, engines, reset);

	igt_fixture {
		free(engines);
		drm_close_driver(fd);
	}
}
