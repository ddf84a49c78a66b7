// SPDX-License-Identifier: GPL-2.0-only
/*
 * Scheduling of jobs on tempo's engines.  The jobs witness the order they
 * ran in: each increments a counter (ATOMIC) and copies it to its own
 * result, so job i of a queue reads i + 1 exactly when the queue ran in
 * submission order.
 *
 *   fifo             jobs of one context, queued behind a spinner, run in
 *                    submission order once it is released
 *   in-order         a context whose first job waits for another
 *                    context's spinner (a syncobj in-fence) runs that job
 *                    after it and the rest of its queue in order
 *   preempt          a HIGH context's job completes while a NORMAL one
 *                    spins on the same engine
 *   preemptive-hang  a hanging LOW job does not delay a HIGH job on the
 *                    same engine; the hang fails with ETIMEDOUT, the HIGH
 *                    context is not guilty
 *   wide             many contexts, all plugged on one syncobj (a
 *                    spinner's fence), complete with their own results
 *                    once it signals
 *   smoketest        children at random priorities submit to random
 *                    engines: every job succeeds and each context's jobs
 *                    of one engine run in submission order
 */
#include <errno.h>
#include <stdlib.h>

#include "drmtest.h"
#include "igt_core.h"

#include "lib/tempo_igt.h"

IGT_TEST_DESCRIPTION("Check the order, priority and preemption of tempo jobs.");

#define JOBS		32
#define COUNTER		0x0
#define MARK		0x8
#define RESULT(i)	(0x100 + 8 * (i))

struct sched {
	int fd;
	struct drm_tempo_query_device dev;
	struct drm_tempo_query_engines *engines;
	uint32_t slot;		/* first compute engine, in the default map */
};

/* Increments the counter of @data at @counter and copies it to @result. */
static uint64_t count_batch(struct tempo_bo *cmd, struct tempo_bo *data,
			    uint64_t counter, uint64_t result)
{
	struct tempo_batch b;

	tempo_batch_begin(&b, cmd, 32);
	tempo_emit_inc(&b, data->va + counter);
	tempo_emit_copy(&b, data->va + result, data->va + counter, 8);
	return tempo_batch_end(&b);
}

static void assert_in_order(struct tempo_bo *data, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		igt_assert_eq_u64(*tempo_bo_u64(data, RESULT(i)), i + 1);
}

static void wait_all(int *fence, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		igt_assert_eq(tempo_fence_wait(fence[i]), 1);
		close(fence[i]);
	}
}

static void fifo(struct sched *s)
{
	uint32_t ctx = tempo_ctx_create(s->fd, DRM_TEMPO_PRIORITY_NORMAL);
	struct tempo_bo data, cmd;
	struct tempo_spin spin;
	int fence[JOBS];

	tempo_bo_create(s->fd, 4096, &data);
	tempo_bo_create(s->fd, JOBS * 128, &cmd);
	tempo_spin_start(s->fd, &spin, ctx, s->slot);
	for (unsigned int i = 0; i < JOBS; i++)
		fence[i] = tempo_exec(s->fd, ctx, s->slot,
				      count_batch(&cmd, &data, COUNTER,
						  RESULT(i)));
	tempo_spin_wait_running(&spin);
	/* Nothing behind the spinner ran before it. */
	igt_assert_eq_u64(*tempo_bo_u64(&data, COUNTER), 0);
	for (unsigned int i = 0; i < JOBS; i++)
		igt_assert_eq(tempo_fence_status(fence[i]), 0);

	tempo_spin_free(s->fd, &spin);
	wait_all(fence, JOBS);
	assert_in_order(&data, JOBS);
	tempo_bo_destroy(s->fd, &cmd);
	tempo_bo_destroy(s->fd, &data);
	tempo_ctx_destroy(s->fd, ctx);
}

static void in_order(struct sched *s)
{
	uint32_t a = tempo_ctx_create(s->fd, DRM_TEMPO_PRIORITY_NORMAL);
	uint32_t b = tempo_ctx_create(s->fd, DRM_TEMPO_PRIORITY_NORMAL);
	struct tempo_bo data, cmd;
	struct tempo_spin spin;
	struct tempo_batch first;
	uint32_t syncobj;
	int fence[JOBS], done;

	tempo_bo_create(s->fd, 4096, &data);
	tempo_bo_create(s->fd, JOBS * 128 + 256, &cmd);
	igt_assert_eq(drmSyncobjCreate(s->fd, 0, &syncobj), 0);

	/* A's spinner, then a job of A that marks and signals the syncobj. */
	tempo_spin_start(s->fd, &spin, a, s->slot);
	tempo_batch_begin(&first, &cmd, 16);
	tempo_emit_write32(&first, data.va + MARK, 1);
	igt_assert_eq(__tempo_exec(s->fd, a, s->slot,
				   tempo_batch_end(&first), NULL, &done), 0);
	igt_assert_eq(drmSyncobjImportSyncFile(s->fd, syncobj, done), 0);

	/* B's first job copies A's mark: it must see it. */
	tempo_batch_begin(&first, &cmd, 32);
	tempo_emit_copy(&first, data.va + MARK + 8, data.va + MARK, 8);
	tempo_emit_inc(&first, data.va + COUNTER);
	tempo_emit_copy(&first, data.va + RESULT(0), data.va + COUNTER, 8);
	fence[0] = tempo_exec_after(s->fd, b, s->slot,
				    tempo_batch_end(&first), syncobj);
	for (unsigned int i = 1; i < JOBS; i++)
		fence[i] = tempo_exec(s->fd, b, s->slot,
				      count_batch(&cmd, &data, COUNTER,
						  RESULT(i)));
	tempo_spin_wait_running(&spin);
	for (unsigned int i = 0; i < JOBS; i++)
		igt_assert_eq(tempo_fence_status(fence[i]), 0);

	tempo_spin_free(s->fd, &spin);
	igt_assert_eq(tempo_fence_wait(done), 1);
	wait_all(fence, JOBS);
	igt_assert_eq_u32(*tempo_bo_u32(&data, MARK + 8), 1);
	assert_in_order(&data, JOBS);

	close(done);
	drmSyncobjDestroy(s->fd, syncobj);
	tempo_bo_destroy(s->fd, &cmd);
	tempo_bo_destroy(s->fd, &data);
	tempo_ctx_destroy(s->fd, b);
	tempo_ctx_destroy(s->fd, a);
}

static void require_high(struct sched *s)
{
	igt_require_f(s->dev.max_priority >= DRM_TEMPO_PRIORITY_HIGH,
		      "HIGH priority needs CAP_SYS_NICE\n");
}

/*
 * A spinner holding the engine for a context of lower priority, a HIGH
 * context, and a buffer for the HIGH jobs to write to.
 */
struct preempt_env {
	uint32_t low, high;
	struct tempo_bo data, cmd;
	struct tempo_spin spin;
};

static void preempt_env_start(struct sched *s, struct preempt_env *e,
			      uint32_t low_priority)
{
	require_high(s);
	e->low = tempo_ctx_create(s->fd, low_priority);
	e->high = tempo_ctx_create(s->fd, DRM_TEMPO_PRIORITY_HIGH);
	tempo_bo_create(s->fd, 4096, &e->data);
	tempo_bo_create(s->fd, 4096, &e->cmd);
	tempo_spin_start(s->fd, &e->spin, e->low, s->slot);
	tempo_spin_wait_running(&e->spin);
}

/* A HIGH job writing @value at MARK; returns its sync_file. */
static int preempt_env_write(struct sched *s, struct preempt_env *e,
			     uint32_t value)
{
	struct tempo_batch b;

	tempo_batch_begin(&b, &e->cmd, 16);
	tempo_emit_write32(&b, e->data.va + MARK, value);
	return tempo_exec(s->fd, e->high, s->slot, tempo_batch_end(&b));
}

static void preempt_env_stop(struct sched *s, struct preempt_env *e)
{
	tempo_spin_free(s->fd, &e->spin);
	tempo_bo_destroy(s->fd, &e->cmd);
	tempo_bo_destroy(s->fd, &e->data);
	tempo_ctx_destroy(s->fd, e->high);
	tempo_ctx_destroy(s->fd, e->low);
}

static void preempt(struct sched *s)
{
	struct preempt_env e;
	int fence;

	preempt_env_start(s, &e, DRM_TEMPO_PRIORITY_NORMAL);
	fence = preempt_env_write(s, &e, 0xc0ffee);

	igt_assert_eq(tempo_fence_wait(fence), 1);
	igt_assert_eq_u32(*tempo_bo_u32(&e.data, MARK), 0xc0ffee);
	/* The spinner is still there: the HIGH job went past it. */
	igt_assert_eq(tempo_fence_status(e.spin.fence), 0);
	igt_assert(!tempo_spin_ended(&e.spin));

	tempo_spin_release(&e.spin);
	igt_assert_eq(tempo_fence_wait(e.spin.fence), 1);
	igt_assert(tempo_spin_ended(&e.spin));
	igt_assert(tempo_fence_timestamp(fence) <
		   tempo_fence_timestamp(e.spin.fence));

	close(fence);
	preempt_env_stop(s, &e);
}

static void preemptive_hang(struct sched *s)
{
	struct preempt_env e;
	int fence, after;

	/* The spinner is never released: it ends at the job timeout. */
	preempt_env_start(s, &e, DRM_TEMPO_PRIORITY_LOW);
	fence = preempt_env_write(s, &e, 1);

	igt_assert_eq(tempo_fence_wait(fence), 1);
	igt_assert_eq(tempo_fence_wait(e.spin.fence), -ETIMEDOUT);
	igt_assert(tempo_fence_timestamp(fence) <
		   tempo_fence_timestamp(e.spin.fence));
	igt_assert_eq_u32(*tempo_bo_u32(&e.data, MARK), 1);

	igt_assert(tempo_ctx_get_param(s->fd, e.low,
				       DRM_TEMPO_CTX_PARAM_RESET_STATUS) &
		   DRM_TEMPO_RESET_STATUS_GUILTY);
	igt_assert(!(tempo_ctx_get_param(s->fd, e.high,
					 DRM_TEMPO_CTX_PARAM_RESET_STATUS) &
		     DRM_TEMPO_RESET_STATUS_GUILTY));
	/* The HIGH context still runs jobs. */
	after = preempt_env_write(s, &e, 2);
	igt_assert_eq(tempo_fence_wait(after), 1);
	igt_assert_eq_u32(*tempo_bo_u32(&e.data, MARK), 2);

	close(after);
	close(fence);
	preempt_env_stop(s, &e);
}

#define WIDE	16

static void wide(struct sched *s)
{
	uint32_t plug = tempo_ctx_create(s->fd, DRM_TEMPO_PRIORITY_NORMAL);
	struct tempo_bo data, cmd;
	uint32_t ctx[WIDE], syncobj;
	struct tempo_spin spin;
	int fence[WIDE];

	tempo_bo_create(s->fd, 4096, &data);
	tempo_bo_create(s->fd, WIDE * 128, &cmd);
	/* The plug: a syncobj holding a spinner's fence. */
	tempo_spin_start(s->fd, &spin, plug, s->slot);
	igt_assert_eq(drmSyncobjCreate(s->fd, 0, &syncobj), 0);
	igt_assert_eq(drmSyncobjImportSyncFile(s->fd, syncobj, spin.fence),
		      0);
	for (unsigned int i = 0; i < WIDE; i++) {
		struct tempo_batch b;

		ctx[i] = tempo_ctx_create(s->fd, DRM_TEMPO_PRIORITY_NORMAL);
		tempo_batch_begin(&b, &cmd, 16);
		tempo_emit_write32(&b, data.va + RESULT(i), 0x1000 + i);
		fence[i] = tempo_exec_after(s->fd, ctx[i], s->slot,
					    tempo_batch_end(&b), syncobj);
	}
	/* Plugged: nothing ran. */
	for (unsigned int i = 0; i < WIDE; i++) {
		igt_assert_eq(tempo_fence_status(fence[i]), 0);
		igt_assert_eq_u32(*tempo_bo_u32(&data, RESULT(i)), 0);
	}
	tempo_spin_free(s->fd, &spin);
	wait_all(fence, WIDE);
	for (unsigned int i = 0; i < WIDE; i++) {
		igt_assert_eq_u32(*tempo_bo_u32(&data, RESULT(i)), 0x1000 + i);
		tempo_ctx_destroy(s->fd, ctx[i]);
	}
	drmSyncobjDestroy(s->fd, syncobj);
	tempo_bo_destroy(s->fd, &cmd);
	tempo_bo_destroy(s->fd, &data);
	tempo_ctx_destroy(s->fd, plug);
}

#define SMOKE_CHILDREN	4
#define SMOKE_JOBS	64
/* Per engine map slot: a counter at SLOT_COUNTER(slot). */
#define SLOT_COUNTER(n)	(0x1000 + 8 * (n))
#define SMOKE_DATA	8192

static void smoke_child(struct sched *s, unsigned int child)
{
	static const int32_t levels[] = {
		DRM_TEMPO_PRIORITY_VERY_LOW, DRM_TEMPO_PRIORITY_LOW,
		DRM_TEMPO_PRIORITY_NORMAL, DRM_TEMPO_PRIORITY_HIGH,
		DRM_TEMPO_PRIORITY_VERY_HIGH,
	};
	unsigned int seed = 0x5eed + child, n = s->engines->num_engines;
	unsigned int slot[SMOKE_JOBS], expect[SMOKE_JOBS], count[64] = {};
	int fence[SMOKE_JOBS];
	struct tempo_bo data, cmd;
	int32_t prio;
	uint32_t ctx;

	igt_assert(n <= ARRAY_SIZE(count) && SLOT_COUNTER(n) <= SMOKE_DATA);
	do
		prio = levels[rand_r(&seed) % ARRAY_SIZE(levels)];
	while (prio > s->dev.max_priority);
	igt_debug("child %u: priority %d\n", child, prio);
	ctx = tempo_ctx_create(s->fd, prio);
	tempo_bo_create(s->fd, SMOKE_DATA, &data);
	tempo_bo_create(s->fd, SMOKE_JOBS * 128, &cmd);
	for (unsigned int i = 0; i < SMOKE_JOBS; i++) {
		slot[i] = rand_r(&seed) % n;
		expect[i] = ++count[slot[i]];
		fence[i] = tempo_exec(s->fd, ctx, slot[i],
				      count_batch(&cmd, &data,
						  SLOT_COUNTER(slot[i]),
						  RESULT(i)));
	}
	wait_all(fence, SMOKE_JOBS);
	for (unsigned int i = 0; i < SMOKE_JOBS; i++)
		igt_assert_eq_u64(*tempo_bo_u64(&data, RESULT(i)), expect[i]);
	tempo_bo_destroy(s->fd, &cmd);
	tempo_bo_destroy(s->fd, &data);
	tempo_ctx_destroy(s->fd, ctx);
}

static void smoketest(struct sched *s)
{
	igt_fork(child, SMOKE_CHILDREN)
		smoke_child(s, child);
	igt_waitchildren();
}

igt_main
{
	struct sched s = { .fd = -1 };

	igt_fixture {
		int slot;

		s.fd = tempo_igt_open();
		tempo_query_device(s.fd, &s.dev);
		s.engines = tempo_query_engines(s.fd);
		slot = tempo_first_slot(s.engines,
					DRM_TEMPO_ENGINE_CLASS_COMPUTE);
		s.slot = slot < 0 ? 0 : slot;
	}

	igt_describe("Jobs of one context complete in submission order.");
	igt_subtest("fifo")
		fifo(&s);

	igt_describe("A job waiting on another context's job runs after it; its queue stays in order.");
	igt_subtest("in-order")
		in_order(&s);

	igt_describe("A HIGH job completes while a NORMAL job spins on its engine.");
	igt_subtest("preempt")
		preempt(&s);

	igt_describe("A hanging LOW job delays no HIGH job; only the hang is reset.");
	igt_subtest("preemptive-hang")
		preemptive_hang(&s);

	igt_describe("Many contexts plugged on one fence all run when it signals.");
	igt_subtest("wide")
		wide(&s);

	igt_describe("Children at random priorities on random engines: all jobs succeed, in order per engine.");
	igt_subtest("smoketest")
		smoketest(&s);

	igt_fixture {
		free(s.engines);
		drm_close_driver(s.fd);
	}
}
