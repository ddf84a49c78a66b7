// SPDX-License-Identifier: GPL-2.0-only
/*
 * Load-balanced and parallel engine map slots. Every job writes the engine
 * it ran on (WRITE_ENGINE_ID), so placement is read back from memory.
 *
 *   individual  per engine: a load-balanced slot of that one sibling runs
 *               every job on it
 *   full        per class of two engines or more: as many contexts as the
 *               class has engines, each with a slot balanced over all of
 *               them, each parking a job on the GPU: every engine gets one
 *   busy        per class of two engines or more: spinners of other
 *               contexts hold every engine but the last; a balanced job
 *               runs on the idle one and completes while they spin
 *   parallel    per class with parallel slots: a gang as wide as the class
 *               allows runs each batch on its own engine, all at once
 *               (each batch waits until every batch has started, so a
 *               gang whose batches did not run together would hang)
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "drmtest.h"
#include "igt_core.h"

#include "lib/tempo_igt.h"

IGT_TEST_DESCRIPTION("Check where load-balanced and parallel slots run jobs.");

#define MAX_ENGINES	16
#define JOBS		8
/* Data layout: a counter, a gate the CPU opens, then one id per job. */
#define COUNTER		0x0
#define GATE		0x8
#define ID(i)		(0x100 + 4 * (i))
#define NO_ID		0xffffffffu

struct balancer {
	int fd;
	struct drm_tempo_query_device dev;
	struct drm_tempo_query_engines *engines;
};

/* The engines of one class, in instance order. */
struct class_engines {
	unsigned int engine_class;
	unsigned int num;
	struct drm_tempo_engine engine[MAX_ENGINES];
};

static unsigned int min_u(unsigned int a, unsigned int b)
{
	return a < b ? a : b;
}

static uint32_t engine_id(const struct drm_tempo_engine *e)
{
	return tempo_engine_id(e->engine_class, e->engine_instance);
}

static void class_engines_of(const struct balancer *s,
			     unsigned int engine_class, struct class_engines *c)
{
	c->engine_class = engine_class;
	c->num = tempo_engines_of_class(s->engines, engine_class, c->engine,
					MAX_ENGINES);
}

/* A job's data (ids preset to NO_ID) and its batches. */
struct bufs {
	struct tempo_bo data;
	struct tempo_igt_cmd cmd;
};

static void bufs_create(int fd, uint64_t cmd_size, struct bufs *b)
{
	tempo_igt_bo_create(fd, 4096, &b->data);
	tempo_igt_cmd_create(fd, cmd_size, &b->cmd);
	for (unsigned int i = 0; i < MAX_ENGINES + JOBS; i++)
		*tempo_igt_bo_u32(&b->data, ID(i)) = NO_ID;
}

static void bufs_destroy(int fd, struct bufs *b)
{
	tempo_igt_cmd_destroy(fd, &b->cmd);
	tempo_igt_bo_destroy(fd, &b->data);
}

/* Job @i ran on an engine of class @cls that no other job used. */
static void assert_new_engine(struct bufs *b, unsigned int i,
			      unsigned int cls, unsigned int *seen)
{
	uint32_t id = *tempo_igt_bo_u32(&b->data, ID(i));

	igt_assert_eq_u32(id >> 16, cls);
	igt_assert_f(!(*seen & 1u << (id & 0xffff)), "two jobs on %s%u\n",
		     tempo_class_name(cls), id & 0xffff);
	*seen |= 1u << (id & 0xffff);
}

/* Poll until job @i wrote its engine id; its fence must not have failed. */
static void wait_id(struct bufs *j, unsigned int i, int fence)
{
	volatile uint32_t *id = tempo_igt_bo_u32(&j->data, ID(i));

	for (int ms = 0; *id == NO_ID; ms++) {
		igt_assert_f(ms < TEMPO_IGT_TIMEOUT_MS,
			     "job %u not running within %d ms\n", i, ms);
		igt_assert_eq(tempo_igt_fence_status(fence), 0);
		usleep(1000);
	}
}

/* Job @i: write the engine's id; then, with @park, wait for the gate. */
static int submit_id(struct balancer *s, uint32_t ctx, struct bufs *j,
		     unsigned int i, bool park)
{
	struct tempo_batch b;

	tempo_igt_batch_begin(&b, &j->cmd, 32);
	tempo_pkt_write_engine_id(&b, j->data.va + ID(i));
	if (park)
		tempo_pkt_wait_mem(&b, j->data.va + GATE,
				   DRM_TEMPO_COMPARE_EQ, 1, UINT64_MAX);
	return tempo_igt_exec(s->fd, ctx, 0, tempo_igt_batch_end(&b));
}

static void individual(struct balancer *s,
		       const struct drm_tempo_engine *engine)
{
	uint32_t ctx = tempo_igt_ctx_create_balanced(s->fd,
						     DRM_TEMPO_PRIORITY_NORMAL,
						     engine, 1);
	int fence[JOBS];
	struct bufs j;

	bufs_create(s->fd, JOBS * 128, &j);
	for (unsigned int i = 0; i < JOBS; i++)
		fence[i] = submit_id(s, ctx, &j, i, false);
	for (unsigned int i = 0; i < JOBS; i++) {
		igt_assert_eq(tempo_igt_fence_wait(fence[i]), 1);
		close(fence[i]);
		igt_assert_eq_u32(*tempo_igt_bo_u32(&j.data, ID(i)),
				  engine_id(engine));
	}
	bufs_destroy(s->fd, &j);
	tempo_igt_ctx_destroy(s->fd, ctx);
}

static void full(struct balancer *s, const struct class_engines *c)
{
	unsigned int n = c->num, seen = 0;
	uint32_t ctx[MAX_ENGINES];
	int fence[MAX_ENGINES];
	struct bufs j;

	bufs_create(s->fd, n * 128, &j);
	/* Each job parks before the next is submitted. */
	for (unsigned int k = 0; k < n; k++) {
		ctx[k] = tempo_igt_ctx_create_balanced(s->fd,
						       DRM_TEMPO_PRIORITY_NORMAL,
						       c->engine, n);
		fence[k] = submit_id(s, ctx[k], &j, k, true);
		wait_id(&j, k, fence[k]);
	}
	*tempo_igt_bo_u64(&j.data, GATE) = 1;
	for (unsigned int k = 0; k < n; k++) {
		igt_assert_eq(tempo_igt_fence_wait(fence[k]), 1);
		close(fence[k]);
		assert_new_engine(&j, k, c->engine_class, &seen);
		tempo_igt_ctx_destroy(s->fd, ctx[k]);
	}
	igt_assert_eq_u32(seen, (1u << n) - 1);
	bufs_destroy(s->fd, &j);
}

static void busy(struct balancer *s, const struct class_engines *c)
{
	const struct drm_tempo_engine *idle = &c->engine[c->num - 1];
	struct tempo_igt_spin spin[MAX_ENGINES];
	uint32_t pinned[MAX_ENGINES], ctx;
	struct bufs j;
	int fence;

	for (unsigned int k = 0; k + 1 < c->num; k++) {
		pinned[k] = tempo_igt_ctx_create_engine(s->fd,
							DRM_TEMPO_PRIORITY_NORMAL,
							&c->engine[k]);
		tempo_igt_spin_start(s->fd, &spin[k], pinned[k], 0);
		tempo_igt_spin_wait_running(&spin[k]);
	}
	ctx = tempo_igt_ctx_create_balanced(s->fd, DRM_TEMPO_PRIORITY_NORMAL,
					    c->engine, c->num);
	bufs_create(s->fd, 4096, &j);
	fence = submit_id(s, ctx, &j, 0, false);

	igt_assert_eq(tempo_igt_fence_wait(fence), 1);
	igt_assert_eq_u32(*tempo_igt_bo_u32(&j.data, ID(0)), engine_id(idle));
	for (unsigned int k = 0; k + 1 < c->num; k++) {
		/* Still spinning: the balanced job did not wait for it. */
		igt_assert_eq(tempo_igt_fence_status(spin[k].fence), 0);
		tempo_igt_spin_free(s->fd, &spin[k]);
		tempo_igt_ctx_destroy(s->fd, pinned[k]);
	}
	close(fence);
	bufs_destroy(s->fd, &j);
	tempo_igt_ctx_destroy(s->fd, ctx);
}

static void parallel(struct balancer *s, const struct class_engines *c)
{
	unsigned int w = min_u(c->num, s->dev.max_batches), seen = 0;
	struct drm_tempo_engine columns[MAX_ENGINES * MAX_ENGINES];
	uint64_t batches[MAX_ENGINES];
	struct bufs j;
	uint32_t ctx;
	int fence;

	/* Every batch may run on any engine of the class. */
	for (unsigned int i = 0; i < w; i++)
		memcpy(&columns[i * c->num], c->engine,
		       c->num * sizeof(c->engine[0]));
	ctx = tempo_igt_ctx_create_parallel(s->fd, DRM_TEMPO_PRIORITY_NORMAL, w,
					    c->num, columns);
	bufs_create(s->fd, w * 128, &j);
	for (unsigned int i = 0; i < w; i++) {
		struct tempo_batch b;

		tempo_igt_batch_begin(&b, &j.cmd, 32);
		tempo_pkt_write_engine_id(&b, j.data.va + ID(i));
		tempo_pkt_atomic(&b, j.data.va + COUNTER,
				 DRM_TEMPO_ATOMIC_INC, 0);
		tempo_pkt_wait_mem(&b, j.data.va + COUNTER,
				   DRM_TEMPO_COMPARE_EQ, w, UINT64_MAX);
		batches[i] = tempo_igt_batch_end(&b);
	}
	fence = tempo_igt_exec_gang(s->fd, ctx, 0, batches, w);

	igt_assert_eq(tempo_igt_fence_wait(fence), 1);
	igt_assert_eq_u64(*tempo_igt_bo_u64(&j.data, COUNTER), w);
	for (unsigned int i = 0; i < w; i++)
		assert_new_engine(&j, i, c->engine_class, &seen);
	close(fence);
	bufs_destroy(s->fd, &j);
	tempo_igt_ctx_destroy(s->fd, ctx);
}

/*
 * One dynamic subtest per engine class with at least @min_engines engines
 * (and parallel support, for @needs_parallel); the siblings are capped at
 * the device's max_siblings.
 */
static void for_each_class(struct balancer *s, unsigned int min_engines,
			   bool needs_parallel,
			   void (*fn)(struct balancer *,
				      const struct class_engines *))
{
	for (unsigned int cls = 0; cls <= DRM_TEMPO_ENGINE_CLASS_COPY; cls++) {
		struct class_engines c;

		class_engines_of(s, cls, &c);
		c.num = min_u(c.num, s->dev.max_siblings);
		if (c.num < min_engines ||
		    (needs_parallel && !(s->dev.parallel_classes & 1u << cls)))
			continue;
		igt_dynamic_f("%s", tempo_class_name(cls))
			fn(s, &c);
	}
}

igt_main
{
	struct balancer s = { .fd = -1 };

	igt_fixture {
		s.fd = tempo_igt_open();
		tempo_igt_query_device(s.fd, &s.dev);
		s.engines = tempo_igt_query_engines(s.fd);
	}

	igt_describe("A balanced slot of one sibling runs every job on it.");
	igt_subtest_with_dynamic("individual") {
		for (unsigned int cls = 0; cls <= DRM_TEMPO_ENGINE_CLASS_COPY;
		     cls++) {
			struct class_engines c;

			class_engines_of(&s, cls, &c);
			for (unsigned int i = 0; i < c.num; i++)
				igt_dynamic_f("%s%u", tempo_class_name(cls),
					      c.engine[i].engine_instance)
					individual(&s, &c.engine[i]);
		}
	}

	igt_describe("Balanced slots of as many contexts as engines use every engine.");
	igt_subtest_with_dynamic("full")
		for_each_class(&s, 2, false, full);

	igt_describe("A balanced job runs on the one idle sibling while the others spin.");
	igt_subtest_with_dynamic("busy")
		for_each_class(&s, 2, false, busy);

	igt_describe("A parallel gang runs each batch on its own engine, all at once.");
	igt_subtest_with_dynamic("parallel")
		for_each_class(&s, 2, true, parallel);

	igt_fixture {
		free(s.engines);
		drm_close_driver(s.fd);
	}
}
