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
 *   preempt-self     a VERY_LOW context whose jobs wait behind NORMAL
 *                    spinners on every engine raises itself to HIGH: at
 *                    once every HQD holding its jobs runs at HIGH, and
 *                    its jobs run while the spinners are still there
 *   preemptive-hang  a hanging LOW job does not delay a HIGH job on the
 *                    same engine; the hang fails with ETIMEDOUT, the HIGH
 *                    context is not guilty
 *   promotion        priority inheritance: behind a spinner of priority
 *                    between NORMAL and HIGH, a NORMAL job and then a LOW
 *                    job wait; a HIGH job that waits for the LOW one with
 *                    DRM_TEMPO_EXEC_INHERIT_PRIORITY promotes it, and it
 *                    runs first, before the spinner ends
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
static uint64_t count_batch(struct tempo_igt_cmd *cmd, struct tempo_bo *data,
			    uint64_t counter, uint64_t result)
{
	struct tempo_batch b;

	tempo_igt_batch_begin(&b, cmd, 32);
	tempo_pkt_atomic(&b, data->va + counter, DRM_TEMPO_ATOMIC_INC, 0);
	tempo_pkt_copy(&b, data->va + result, data->va + counter, 8);
	return tempo_igt_batch_end(&b);
}

static void assert_in_order(struct tempo_bo *data, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		igt_assert_eq_u64(*tempo_igt_bo_u64(data, RESULT(i)), i + 1);
}

static void wait_all(int *fence, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		igt_assert_eq(tempo_igt_fence_wait(fence[i]), 1);
		close(fence[i]);
	}
}

static void fifo(struct sched *s)
{
	uint32_t ctx = tempo_igt_ctx_create(s->fd, DRM_TEMPO_PRIORITY_NORMAL);
	struct tempo_bo data;
	struct tempo_igt_cmd cmd;
	struct tempo_igt_spin spin;
	int fence[JOBS];

	tempo_igt_bo_create(s->fd, 4096, &data);
	tempo_igt_cmd_create(s->fd, JOBS * 128, &cmd);
	tempo_igt_spin_start(s->fd, &spin, ctx, s->slot);
	for (unsigned int i = 0; i < JOBS; i++)
		fence[i] = tempo_igt_exec(s->fd, ctx, s->slot,
					  count_batch(&cmd, &data, COUNTER,
						      RESULT(i)));
	tempo_igt_spin_wait_running(&spin);
	/* Nothing behind the spinner ran before it. */
	igt_assert_eq_u64(*tempo_igt_bo_u64(&data, COUNTER), 0);
	for (unsigned int i = 0; i < JOBS; i++)
		igt_assert_eq(tempo_igt_fence_status(fence[i]), 0);

	tempo_igt_spin_free(s->fd, &spin);
	wait_all(fence, JOBS);
	assert_in_order(&data, JOBS);
	tempo_igt_cmd_destroy(s->fd, &cmd);
	tempo_igt_bo_destroy(s->fd, &data);
	tempo_igt_ctx_destroy(s->fd, ctx);
}

static void in_order(struct sched *s)
{
	uint32_t a = tempo_igt_ctx_create(s->fd, DRM_TEMPO_PRIORITY_NORMAL);
	uint32_t b = tempo_igt_ctx_create(s->fd, DRM_TEMPO_PRIORITY_NORMAL);
	struct tempo_bo data;
	struct tempo_igt_cmd cmd;
	struct tempo_igt_spin spin;
	struct tempo_batch first;
	uint32_t syncobj;
	int fence[JOBS], done;

	tempo_igt_bo_create(s->fd, 4096, &data);
	tempo_igt_cmd_create(s->fd, JOBS * 128 + 256, &cmd);
	igt_assert_eq(drmSyncobjCreate(s->fd, 0, &syncobj), 0);

	/* A's spinner, then a job of A that marks and signals the syncobj. */
	tempo_igt_spin_start(s->fd, &spin, a, s->slot);
	tempo_igt_batch_begin(&first, &cmd, 16);
	tempo_pkt_write32(&first, data.va + MARK, 1);
	igt_assert_eq(tempo_exec(s->fd, a, s->slot, tempo_igt_batch_end(&first),
				 NULL, 0, NULL, 0, &done), 0);
	igt_assert_eq(drmSyncobjImportSyncFile(s->fd, syncobj, done), 0);

	/* B's first job copies A's mark: it must see it. */
	tempo_igt_batch_begin(&first, &cmd, 32);
	tempo_pkt_copy(&first, data.va + MARK + 8, data.va + MARK, 8);
	tempo_pkt_atomic(&first, data.va + COUNTER, DRM_TEMPO_ATOMIC_INC, 0);
	tempo_pkt_copy(&first, data.va + RESULT(0), data.va + COUNTER, 8);
	fence[0] = tempo_igt_exec_after(s->fd, b, s->slot,
					tempo_igt_batch_end(&first), syncobj);
	for (unsigned int i = 1; i < JOBS; i++)
		fence[i] = tempo_igt_exec(s->fd, b, s->slot,
					  count_batch(&cmd, &data, COUNTER,
						      RESULT(i)));
	tempo_igt_spin_wait_running(&spin);
	for (unsigned int i = 0; i < JOBS; i++)
		igt_assert_eq(tempo_igt_fence_status(fence[i]), 0);

	tempo_igt_spin_free(s->fd, &spin);
	igt_assert_eq(tempo_igt_fence_wait(done), 1);
	wait_all(fence, JOBS);
	igt_assert_eq_u32(*tempo_igt_bo_u32(&data, MARK + 8), 1);
	assert_in_order(&data, JOBS);

	close(done);
	drmSyncobjDestroy(s->fd, syncobj);
	tempo_igt_cmd_destroy(s->fd, &cmd);
	tempo_igt_bo_destroy(s->fd, &data);
	tempo_igt_ctx_destroy(s->fd, b);
	tempo_igt_ctx_destroy(s->fd, a);
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
	struct tempo_bo data;
	struct tempo_igt_cmd cmd;
	struct tempo_igt_spin spin;
};

static void preempt_env_start(struct sched *s, struct preempt_env *e,
			      uint32_t low_priority)
{
	require_high(s);
	e->low = tempo_igt_ctx_create(s->fd, low_priority);
	e->high = tempo_igt_ctx_create(s->fd, DRM_TEMPO_PRIORITY_HIGH);
	tempo_igt_bo_create(s->fd, 4096, &e->data);
	tempo_igt_cmd_create(s->fd, 4096, &e->cmd);
	tempo_igt_spin_start(s->fd, &e->spin, e->low, s->slot);
	tempo_igt_spin_wait_running(&e->spin);
}

/* A HIGH job writing @value at MARK; returns its sync_file. */
static int preempt_env_write(struct sched *s, struct preempt_env *e,
			     uint32_t value)
{
	struct tempo_batch b;

	tempo_igt_batch_begin(&b, &e->cmd, 16);
	tempo_pkt_write32(&b, e->data.va + MARK, value);
	return tempo_igt_exec(s->fd, e->high, s->slot, tempo_igt_batch_end(&b));
}

static void preempt_env_stop(struct sched *s, struct preempt_env *e)
{
	tempo_igt_spin_free(s->fd, &e->spin);
	tempo_igt_cmd_destroy(s->fd, &e->cmd);
	tempo_igt_bo_destroy(s->fd, &e->data);
	tempo_igt_ctx_destroy(s->fd, e->high);
	tempo_igt_ctx_destroy(s->fd, e->low);
}

static void preempt(struct sched *s)
{
	struct preempt_env e;
	int fence;

	preempt_env_start(s, &e, DRM_TEMPO_PRIORITY_NORMAL);
	fence = preempt_env_write(s, &e, 0xc0ffee);

	igt_assert_eq(tempo_igt_fence_wait(fence), 1);
	igt_assert_eq_u32(*tempo_igt_bo_u32(&e.data, MARK), 0xc0ffee);
	/* The spinner is still there: the HIGH job went past it. */
	igt_assert_eq(tempo_igt_fence_status(e.spin.fence), 0);
	igt_assert(!tempo_igt_spin_ended(&e.spin));

	tempo_igt_spin_release(&e.spin);
	igt_assert_eq(tempo_igt_fence_wait(e.spin.fence), 1);
	igt_assert(tempo_igt_spin_ended(&e.spin));
	igt_assert(tempo_igt_fence_timestamp(fence) <
		   tempo_igt_fence_timestamp(e.spin.fence));

	close(fence);
	preempt_env_stop(s, &e);
}

/* HIGH's queue priority in every policy's table. */
#define HIGH_QUEUE	11
/* VERY_LOW's queue priority. */
#define VERY_LOW_QUEUE	0

/* Waits until @n HQDs run at queue priority @queue (any pipe priority). */
static void wait_hqds_at(struct sched *s, unsigned int queue, unsigned int n)
{
	for (int ms = 0; tempo_igt_hqds_at(s->fd, -1, queue) != n; ms++) {
		igt_assert_f(ms < TEMPO_IGT_TIMEOUT_MS,
			     "%u HQDs at queue priority %u, not %u\n",
			     tempo_igt_hqds_at(s->fd, -1, queue), queue, n);
		usleep(1000);
	}
}

static void preempt_self(struct sched *s)
{
	unsigned int n = 0, num = s->engines->num_engines;
	struct tempo_igt_spin noise[64], self[64];
	uint32_t noise_ctx, ctx;

	require_high(s);
	igt_assert(num <= ARRAY_SIZE(noise));
	noise_ctx = tempo_igt_ctx_create(s->fd, DRM_TEMPO_PRIORITY_NORMAL);
	ctx = tempo_igt_ctx_create(s->fd, DRM_TEMPO_PRIORITY_VERY_LOW);
	/*
	 * Two contexts below HIGH share the HQDs but one (kept for high
	 * priority, with the default policy): they need two more.
	 */
	for (unsigned int i = 0; i < num; i++) {
		if (s->engines->engines[i].num_hqds < 3)
			continue;
		tempo_igt_spin_start(s->fd, &noise[n], noise_ctx, i);
		tempo_igt_spin_wait_running(&noise[n]);
		tempo_igt_spin_start(s->fd, &self[n], ctx, i);
		n++;
	}
	igt_require_f(n, "no engine with three HQDs\n");
	/* Its jobs are in their rings, waiting (or starved and parked). */
	wait_hqds_at(s, VERY_LOW_QUEUE, n);
	igt_assert_eq(tempo_igt_hqds_at(s->fd, -1, HIGH_QUEUE), 0);

	igt_assert_eq(tempo_ctx_set_param(s->fd, ctx,
					  DRM_TEMPO_CTX_PARAM_PRIORITY,
					  DRM_TEMPO_PRIORITY_HIGH), 0);
	/* The change reached the rings before the ioctl returned. */
	igt_assert_eq(tempo_igt_hqds_at(s->fd, -1, HIGH_QUEUE), n);
	igt_assert_eq(tempo_igt_hqds_at(s->fd, -1, VERY_LOW_QUEUE), 0);
	for (unsigned int i = 0; i < n; i++)
		tempo_igt_spin_wait_running(&self[i]);
	for (unsigned int i = 0; i < n; i++) {
		tempo_igt_spin_release(&self[i]);
		igt_assert_eq(tempo_igt_fence_wait(self[i].fence), 1);
		/* It went past the spinner, which is still there. */
		igt_assert(!tempo_igt_spin_ended(&noise[i]));
		igt_assert_eq(tempo_igt_fence_status(noise[i].fence), 0);
	}

	for (unsigned int i = 0; i < n; i++) {
		tempo_igt_spin_free(s->fd, &self[i]);
		tempo_igt_spin_free(s->fd, &noise[i]);
	}
	tempo_igt_ctx_destroy(s->fd, ctx);
	tempo_igt_ctx_destroy(s->fd, noise_ctx);
}

/* Where promotion's jobs write the order they ran in. */
#define LOW_RESULT	RESULT(0)
#define NORMAL_RESULT	RESULT(1)
#define HIGH_RESULT	RESULT(2)

/*
 * @batch on the fixture's slot of @ctx after the binary syncobj @syncobj,
 * lending @ctx's priority to the job it waits for; its sync_file.
 */
static int exec_lending(struct sched *s, uint32_t ctx, uint64_t batch,
			uint32_t syncobj)
{
	struct drm_tempo_sync in = { .handle = syncobj };
	struct drm_tempo_exec x = {
		.ctx_id = ctx,
		.slot = s->slot,
		.flags = DRM_TEMPO_EXEC_OUT_SYNC_FILE |
			 DRM_TEMPO_EXEC_INHERIT_PRIORITY,
		.num_batches = 1,
		.batches = (uintptr_t)&batch,
		.num_in_syncs = 1,
		.in_syncs = (uintptr_t)&in,
		.out_fence_fd = -1,
	};

	igt_assert_eq(drmIoctl(s->fd, DRM_IOCTL_TEMPO_EXEC, &x), 0);
	igt_assert_lte(0, x.out_fence_fd);
	return x.out_fence_fd;
}

static void promotion(struct sched *s)
{
	uint32_t mid, normal, low, high, syncobj;
	struct tempo_bo data;
	struct tempo_igt_cmd cmd;
	struct tempo_igt_spin spin;
	int normal_f, low_f, high_f;

	require_high(s);
	/* Above NORMAL, below HIGH: the regular HQDs wait behind it. */
	mid = tempo_igt_ctx_create(s->fd, DRM_TEMPO_PRIORITY_HIGH / 2);
	normal = tempo_igt_ctx_create(s->fd, DRM_TEMPO_PRIORITY_NORMAL);
	low = tempo_igt_ctx_create(s->fd, DRM_TEMPO_PRIORITY_LOW);
	high = tempo_igt_ctx_create(s->fd, DRM_TEMPO_PRIORITY_HIGH);
	tempo_igt_bo_create(s->fd, 4096, &data);
	tempo_igt_cmd_create(s->fd, 4096, &cmd);
	igt_assert_eq(drmSyncobjCreate(s->fd, 0, &syncobj), 0);
	tempo_igt_spin_start(s->fd, &spin, mid, s->slot);
	tempo_igt_spin_wait_running(&spin);

	/* NORMAL first: were they on one HQD, it would run first. */
	normal_f = tempo_igt_exec(s->fd, normal, s->slot,
				  count_batch(&cmd, &data, COUNTER,
					      NORMAL_RESULT));
	igt_assert_eq(tempo_exec(s->fd, low, s->slot,
				 count_batch(&cmd, &data, COUNTER, LOW_RESULT),
				 NULL, 0, NULL, 0, &low_f), 0);
	igt_assert_eq(drmSyncobjImportSyncFile(s->fd, syncobj, low_f), 0);
	high_f = exec_lending(s, high,
			      count_batch(&cmd, &data, COUNTER, HIGH_RESULT),
			      syncobj);

	/* The LOW job ran first, at HIGH, while the spinner holds on. */
	igt_assert_eq(tempo_igt_fence_wait(low_f), 1);
	igt_assert_eq_u64(*tempo_igt_bo_u64(&data, LOW_RESULT), 1);
	igt_assert(!tempo_igt_spin_ended(&spin));

	tempo_igt_spin_free(s->fd, &spin);
	igt_assert_eq(tempo_igt_fence_wait(normal_f), 1);
	igt_assert_eq(tempo_igt_fence_wait(high_f), 1);
	igt_assert_lt_u64(1, *tempo_igt_bo_u64(&data, NORMAL_RESULT));
	igt_assert_lt_u64(1, *tempo_igt_bo_u64(&data, HIGH_RESULT));

	close(high_f);
	close(low_f);
	close(normal_f);
	drmSyncobjDestroy(s->fd, syncobj);
	tempo_igt_cmd_destroy(s->fd, &cmd);
	tempo_igt_bo_destroy(s->fd, &data);
	tempo_igt_ctx_destroy(s->fd, high);
	tempo_igt_ctx_destroy(s->fd, low);
	tempo_igt_ctx_destroy(s->fd, normal);
	tempo_igt_ctx_destroy(s->fd, mid);
}

static void preemptive_hang(struct sched *s)
{
	struct preempt_env e;
	int fence, after;

	/* The spinner is never released: it ends at the job timeout. */
	preempt_env_start(s, &e, DRM_TEMPO_PRIORITY_LOW);
	fence = preempt_env_write(s, &e, 1);

	igt_assert_eq(tempo_igt_fence_wait(fence), 1);
	igt_assert_eq(tempo_igt_fence_wait(e.spin.fence), -ETIMEDOUT);
	igt_assert(tempo_igt_fence_timestamp(fence) <
		   tempo_igt_fence_timestamp(e.spin.fence));
	igt_assert_eq_u32(*tempo_igt_bo_u32(&e.data, MARK), 1);

	igt_assert(tempo_igt_ctx_get_param(s->fd, e.low,
					   DRM_TEMPO_CTX_PARAM_RESET_STATUS) &
		   DRM_TEMPO_RESET_STATUS_GUILTY);
	igt_assert(!(tempo_igt_ctx_get_param(s->fd, e.high,
					     DRM_TEMPO_CTX_PARAM_RESET_STATUS) &
		     DRM_TEMPO_RESET_STATUS_GUILTY));
	/* The HIGH context still runs jobs. */
	after = preempt_env_write(s, &e, 2);
	igt_assert_eq(tempo_igt_fence_wait(after), 1);
	igt_assert_eq_u32(*tempo_igt_bo_u32(&e.data, MARK), 2);

	close(after);
	close(fence);
	preempt_env_stop(s, &e);
}

#define WIDE	16

static void wide(struct sched *s)
{
	uint32_t plug = tempo_igt_ctx_create(s->fd, DRM_TEMPO_PRIORITY_NORMAL);
	struct tempo_bo data;
	struct tempo_igt_cmd cmd;
	uint32_t ctx[WIDE], syncobj;
	struct tempo_igt_spin spin;
	int fence[WIDE];

	tempo_igt_bo_create(s->fd, 4096, &data);
	tempo_igt_cmd_create(s->fd, WIDE * 128, &cmd);
	/* The plug: a syncobj holding a spinner's fence. */
	tempo_igt_spin_start(s->fd, &spin, plug, s->slot);
	igt_assert_eq(drmSyncobjCreate(s->fd, 0, &syncobj), 0);
	igt_assert_eq(drmSyncobjImportSyncFile(s->fd, syncobj, spin.fence),
		      0);
	for (unsigned int i = 0; i < WIDE; i++) {
		struct tempo_batch b;

		ctx[i] = tempo_igt_ctx_create(s->fd, DRM_TEMPO_PRIORITY_NORMAL);
		tempo_igt_batch_begin(&b, &cmd, 16);
		tempo_pkt_write32(&b, data.va + RESULT(i), 0x1000 + i);
		fence[i] = tempo_igt_exec_after(s->fd, ctx[i], s->slot,
						tempo_igt_batch_end(&b),
						syncobj);
	}
	/* Plugged: nothing ran. */
	for (unsigned int i = 0; i < WIDE; i++) {
		igt_assert_eq(tempo_igt_fence_status(fence[i]), 0);
		igt_assert_eq_u32(*tempo_igt_bo_u32(&data, RESULT(i)), 0);
	}
	tempo_igt_spin_free(s->fd, &spin);
	wait_all(fence, WIDE);
	for (unsigned int i = 0; i < WIDE; i++) {
		igt_assert_eq_u32(*tempo_igt_bo_u32(&data, RESULT(i)),
				  0x1000 + i);
		tempo_igt_ctx_destroy(s->fd, ctx[i]);
	}
	drmSyncobjDestroy(s->fd, syncobj);
	tempo_igt_cmd_destroy(s->fd, &cmd);
	tempo_igt_bo_destroy(s->fd, &data);
	tempo_igt_ctx_destroy(s->fd, plug);
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
	struct tempo_bo data;
	struct tempo_igt_cmd cmd;
	int32_t prio;
	uint32_t ctx;

	igt_assert(n <= ARRAY_SIZE(count) && SLOT_COUNTER(n) <= SMOKE_DATA);
	do
		prio = levels[rand_r(&seed) % ARRAY_SIZE(levels)];
	while (prio > s->dev.max_priority);
	igt_debug("child %u: priority %d\n", child, prio);
	ctx = tempo_igt_ctx_create(s->fd, prio);
	tempo_igt_bo_create(s->fd, SMOKE_DATA, &data);
	tempo_igt_cmd_create(s->fd, SMOKE_JOBS * 128, &cmd);
	for (unsigned int i = 0; i < SMOKE_JOBS; i++) {
		slot[i] = rand_r(&seed) % n;
		expect[i] = ++count[slot[i]];
		fence[i] = tempo_igt_exec(s->fd, ctx, slot[i],
					  count_batch(&cmd, &data,
						      SLOT_COUNTER(slot[i]),
						      RESULT(i)));
	}
	wait_all(fence, SMOKE_JOBS);
	for (unsigned int i = 0; i < SMOKE_JOBS; i++)
		igt_assert_eq_u64(*tempo_igt_bo_u64(&data, RESULT(i)),
				  expect[i]);
	tempo_igt_cmd_destroy(s->fd, &cmd);
	tempo_igt_bo_destroy(s->fd, &data);
	tempo_igt_ctx_destroy(s->fd, ctx);
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
		tempo_igt_query_device(s.fd, &s.dev);
		s.engines = tempo_igt_query_engines(s.fd);
		slot = tempo_default_slot(s.engines,
					  DRM_TEMPO_ENGINE_CLASS_COMPUTE, 0);
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

	igt_describe("A context raising its own priority preempts, on every engine, the work its jobs waited behind.");
	igt_subtest("preempt-self")
		preempt_self(&s);

	igt_describe("A hanging LOW job delays no HIGH job; only the hang is reset.");
	igt_subtest("preemptive-hang")
		preemptive_hang(&s);

	igt_describe("A LOW job that a HIGH job waits for runs at HIGH, before a NORMAL job.");
	igt_subtest("promotion")
		promotion(&s);

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
