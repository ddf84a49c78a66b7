// SPDX-License-Identifier: GPL-2.0-only
/*
 * Priorities on the hardware: high-priority work preempts low-priority
 * work mid-batch, preempted work resumes with the results of an
 * uninterrupted run, FIFO holds within a context, the HQDs are programmed
 * as the policy says, low priority is not starved forever, contexts of
 * one priority share an engine, a change of priority reaches a context
 * that never idles, a job that a higher-priority job waits for runs
 * at that priority when the waiter asks for it, and only for the loan's
 * running time, a compute unit runs a high-priority workgroup at
 * a higher CPU priority than low-priority ones, and a job reports how long
 * other queues' work kept it from its engine and from the compute units.
 *
 * Run as root (CAP_SYS_NICE): a high-priority context needs it.
 */
#include "tempo_test.h"

#define T_LOW_START	0x1000
#define T_LOW_END	0x1008
#define T_HIGH		0x1010
#define COUNTER		0x1100
#define LOG_COUNT	0x1200
#define LOG		0x2000	/* 64 entries of 8 bytes */
#define HIGH_MARK	0x1300
#define SNAP		0x1310
#define STARTED		0x1320
#define T_HIGH_END	0x1328
#define T_FIRST		0x1330
#define T_SECOND	0x1338
#define TIMES		0x1400	/* struct drm_tempo_job_times, 32-aligned */

#define VA(e, off)	((e)->data.va + (off))

FIXTURE(prio) {
	struct tempo_env env;
	uint32_t slot;
	uint32_t low;
	uint32_t high;
	unsigned int policy;
	long long inherit_ms;
};

FIXTURE_SETUP(prio)
{
	TEMPO_ENV_SETUP(&self->env);
	TEMPO_NEED_NICE();
	self->slot = tempo_default_slot(self->env.engines,
					DRM_TEMPO_ENGINE_CLASS_COMPUTE, 0);
	ASSERT_EQ(0, tempo_ctx_create(self->env.fd, DRM_TEMPO_PRIORITY_LOW,
				      NULL, 0, &self->low));
	ASSERT_EQ(0, tempo_ctx_create(self->env.fd, DRM_TEMPO_PRIORITY_HIGH,
				      NULL, 0, &self->high));
	self->policy = tempo_module_param("hqd_policy") == 1;
	self->inherit_ms = tempo_module_param("inherit_ms");
}

FIXTURE_TEARDOWN(prio)
{
	char value[24];

	if (self->inherit_ms >= 0) {
		snprintf(value, sizeof(value), "%lld", self->inherit_ms);
		tempo_set_module_param("inherit_ms", value);
	}
	tempo_env_fini(&self->env);
}

/*
 * Priority loans last @ms of running time of the borrower's HQD: the
 * tests that look at a gated borrower's HQD keep it for a second.
 */
static void set_loan_ms(struct __test_metadata *_metadata, unsigned int ms)
{
	char value[24];

	snprintf(value, sizeof(value), "%u", ms);
	ASSERT_TRUE(tempo_set_module_param("inherit_ms", value))
		TH_LOG("the module parameter inherit_ms cannot be written");
}

static uint64_t high_write_batch(struct tempo_env *e, uint32_t offset)
{
	struct tempo_batch b;

	tempo_batch_init(&b, &e->cmd, offset, 64);
	tempo_pkt_write_timestamp(&b, VA(e, T_HIGH));
	tempo_pkt_write32(&b, VA(e, HIGH_MARK), 1);
	tempo_pkt_end(&b);
	return b.va;
}

/*
 * A job that writes the timestamp at data offset @ts, then spins on the
 * gate, which only the CPU opens, on the fixture's slot.
 */
static int submit_spinner(struct __test_metadata *_metadata,
			  FIXTURE_DATA(prio) *self, uint32_t ctx, uint32_t ts)
{
	struct tempo_env *e = &self->env;
	struct tempo_batch b;

	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_write_timestamp(&b, VA(e, ts));
	tempo_pkt_wait_gate(&b, e, 1);
	tempo_pkt_end(&b);
	return tempo_submit(_metadata, e->fd, ctx, self->slot, b.va);
}

TEST_F(prio, high_priority_write_lands_while_a_low_priority_spinner_runs)
{
	struct tempo_env *e = &self->env;
	int low, high;

	low = submit_spinner(_metadata, self, self->low, T_LOW_START);
	tempo_wait_nonzero(_metadata, &e->data, T_LOW_START);

	high = tempo_submit(_metadata, e->fd, self->high, self->slot,
			    high_write_batch(e, 4096));
	ASSERT_EQ(1, tempo_fence_wait(high, TEMPO_WAIT_MS));
	ASSERT_EQ(1u, *tempo_u32(&e->data, HIGH_MARK));
	ASSERT_EQ(0, tempo_fence_wait(low, 0));

	tempo_gate_set(e, 1);
	ASSERT_EQ(1, tempo_fence_wait(low, TEMPO_WAIT_MS));
	close(low);
	close(high);
}

/*
 * A low-priority job: timestamp, SPIN on every CU twice over, an
 * ATOMIC_INC dispatch, a CHECKSUM dispatch, timestamp. Its results do not
 * depend on whether it was preempted.
 */
static uint64_t low_dispatch_batch(struct tempo_env *e, uint32_t offset,
				   uint32_t groups, uint32_t spin_ns)
{
	uint32_t spin[] = { spin_ns };
	uint32_t inc[] = { TEMPO_ARG_VA(VA(e, COUNTER)), 512 };
	uint32_t sum[] = { TEMPO_ARG_VA(VA(e, 0x10000)),
			   TEMPO_ARG_VA(VA(e, COUNTER + 8)), 4096 };
	struct tempo_batch b;

	tempo_batch_init(&b, &e->cmd, offset, 256);
	tempo_pkt_write_timestamp(&b, VA(e, T_LOW_START));
	tempo_pkt_dispatch(&b, DRM_TEMPO_KERNEL_SPIN, groups, 1, 1, spin, 1);
	tempo_pkt_dispatch(&b, DRM_TEMPO_KERNEL_ATOMIC_INC, 8, 1, 1, inc, 3);
	tempo_pkt_dispatch(&b, DRM_TEMPO_KERNEL_CHECKSUM, 16, 1, 1, sum, 5);
	tempo_pkt_write_timestamp(&b, VA(e, T_LOW_END));
	tempo_pkt_end(&b);
	return b.va;
}

static uint64_t checksum_expected(struct tempo_env *e)
{
	uint64_t sum = 0;

	for (uint32_t i = 0; i < 16 * 4096 / 4; i++) {
		uint32_t v = i * 2654435761u;

		*tempo_u32(&e->data, 0x10000 + 4 * i) = v;
		sum += v;
	}
	return sum;
}

TEST_F_TIMEOUT(prio, preempted_dispatch_resumes_with_the_results_of_an_uninterrupted_run, 60)
{
	struct tempo_env *e = &self->env;
	uint64_t sum = checksum_expected(e);
	int low, high;

	low = tempo_submit(_metadata, e->fd, self->low, self->slot,
			   low_dispatch_batch(e, 0, 2 * e->dev.num_cus,
					      100 * 1000 * 1000));
	tempo_wait_nonzero(_metadata, &e->data, T_LOW_START);
	tempo_sleep_ms(20);
	high = tempo_submit(_metadata, e->fd, self->high, self->slot,
			    high_write_batch(e, 4096));
	ASSERT_EQ(1, tempo_fence_wait(high, TEMPO_WAIT_MS));
	ASSERT_EQ(1, tempo_fence_wait(low, TEMPO_WAIT_MS));

	/* The high job ran in the middle of the low one... */
	ASSERT_LT(*tempo_u64(&e->data, T_LOW_START),
		  *tempo_u64(&e->data, T_HIGH));
	ASSERT_LT(*tempo_u64(&e->data, T_HIGH),
		  *tempo_u64(&e->data, T_LOW_END));
	/* ...which still produced exactly its results. */
	ASSERT_EQ(8u * 512, *tempo_u64(&e->data, COUNTER));
	ASSERT_EQ(sum, *tempo_u64(&e->data, COUNTER + 8));
	close(low);
	close(high);
}

/*
 * Workgroups are preempted in the middle, not only between workgroups: a
 * high-priority job that snapshots a counter while one long ATOMIC_INC
 * workgroup per CU is running sees it part-way, and the low job still
 * ends with the exact count.
 */
TEST_F_TIMEOUT(prio, high_priority_work_preempts_long_workgroups_mid_group, 60)
{
	struct tempo_env *e = &self->env;
	/* Short enough for the job timeout on a debug kernel. */
	const uint32_t per_group = 40000;
	uint32_t inc[] = { TEMPO_ARG_VA(VA(e, COUNTER)), per_group };
	uint64_t total = (uint64_t)e->dev.num_cus * per_group;
	struct tempo_batch lo, hi;
	int low, high;

	tempo_batch_init(&lo, &e->cmd, 0, 64);
	tempo_pkt_dispatch(&lo, DRM_TEMPO_KERNEL_ATOMIC_INC, e->dev.num_cus, 1,
			   1, inc, 3);
	tempo_pkt_write_timestamp(&lo, VA(e, T_LOW_END));
	tempo_pkt_end(&lo);
	low = tempo_submit(_metadata, e->fd, self->low, self->slot, lo.va);
	tempo_wait_nonzero(_metadata, &e->data, COUNTER);

	tempo_batch_init(&hi, &e->cmd, 4096, 64);
	tempo_pkt_copy(&hi, VA(e, SNAP), VA(e, COUNTER), 8);
	tempo_pkt_write_timestamp(&hi, VA(e, T_HIGH));
	tempo_pkt_end(&hi);
	high = tempo_submit(_metadata, e->fd, self->high, self->slot, hi.va);
	ASSERT_EQ(1, tempo_fence_wait(high, TEMPO_WAIT_MS));
	ASSERT_EQ(1, tempo_fence_wait(low, TEMPO_WAIT_MS));

	TH_LOG("counter seen by the high job: %llu of %llu",
	       (unsigned long long)*tempo_u64(&e->data, SNAP),
	       (unsigned long long)total);
	ASSERT_LT(*tempo_u64(&e->data, SNAP), total);
	ASSERT_LT(*tempo_u64(&e->data, T_HIGH),
		  *tempo_u64(&e->data, T_LOW_END));
	ASSERT_EQ(total, *tempo_u64(&e->data, COUNTER));
	close(low);
	close(high);
}

/*
 * The job timeout counts the time a job held its engine, not the time it
 * spent preempted: a low-priority job kept off its engine by a stream of
 * high-priority work for longer than the job timeout (it only runs in the
 * starvation bound's slices) is not reset, and completes.
 */
TEST_F_TIMEOUT(prio, job_preempted_past_the_job_timeout_is_not_reset, 120)
{
	struct tempo_env *e = &self->env;
	uint32_t spin[] = { 10 * 1000 * 1000 };
	uint32_t n = e->dev.job_timeout_ms * 3 / 2 / 10;
	struct tempo_batch hi;
	int low, high = -1;

	TEMPO_NEED_TIMEOUT_WITHIN(e, 5000);
	low = submit_spinner(_metadata, self, self->low, T_LOW_START);
	tempo_wait_nonzero(_metadata, &e->data, T_LOW_START);

	/* 1.5 job timeouts of 10 ms high-priority dispatches. */
	tempo_batch_init(&hi, &e->cmd, 4096, 64);
	tempo_pkt_dispatch(&hi, DRM_TEMPO_KERNEL_SPIN, 1, 1, 1, spin, 1);
	tempo_pkt_end(&hi);
	for (uint32_t i = 0; i < n; i++) {
		if (high >= 0)
			close(high);
		high = tempo_submit(_metadata, e->fd, self->high, self->slot,
				    hi.va);
	}
	tempo_sleep_ms((int)e->dev.job_timeout_ms * 5 / 4);
	/* Past its timeout, still waiting, not failed. */
	ASSERT_EQ(0, tempo_fence_wait(low, 0));
	tempo_gate_set(e, 1);
	tempo_fence_expect(_metadata, low, 1, TEMPO_WAIT_MS);
	tempo_fence_expect(_metadata, high, 1, TEMPO_WAIT_MS);
}

TEST_F_TIMEOUT(prio, jobs_of_one_context_complete_in_order_under_preemption, 60)
{
	struct tempo_env *e = &self->env;
	const uint32_t n = 16;
	int fences[16], high = -1;

	for (uint32_t i = 0; i < n; i++) {
		uint32_t spin[] = { 2 * 1000 * 1000 };
		struct tempo_batch b;

		/* spin, mark job i done, note when */
		tempo_batch_init(&b, &e->cmd, 512 * i, 512);
		tempo_pkt_dispatch(&b, DRM_TEMPO_KERNEL_SPIN, 1, 1, 1, spin, 1);
		tempo_pkt_atomic(&b, VA(e, LOG_COUNT), DRM_TEMPO_ATOMIC_ADD,
				 1ull << i);
		tempo_pkt_write_timestamp(&b, VA(e, LOG + 0x100 + 8 * i));
		tempo_pkt_end(&b);
		fences[i] = tempo_submit(_metadata, e->fd, self->low,
					 self->slot, b.va);
		if (i == n / 2)
			high = tempo_submit(_metadata, e->fd, self->high,
					    self->slot,
					    high_write_batch(e, 16384));
	}
	for (uint32_t i = 0; i < n; i++) {
		ASSERT_EQ(1, tempo_fence_wait(fences[i], TEMPO_WAIT_MS));
		close(fences[i]);
	}
	ASSERT_EQ(1, tempo_fence_wait(high, TEMPO_WAIT_MS));
	close(high);
	ASSERT_EQ((1ull << n) - 1, *tempo_u64(&e->data, LOG_COUNT));
	for (uint32_t i = 1; i < n; i++)
		ASSERT_LT(*tempo_u64(&e->data, LOG + 0x100 + 8 * (i - 1)),
			  *tempo_u64(&e->data, LOG + 0x100 + 8 * i));
}

static const struct drm_tempo_job_times *job_times(struct tempo_env *e)
{
	return (const void *)tempo_u64(&e->data, TIMES);
}

/*
 * A job queued at @queued behind a job that spins on the gate until
 * @opened waited for its engine at least until then, or until it started
 * if the starvation bound let it in first (less the arbitration's own
 * time), and never longer than from its queueing to its start.
 */
static void expect_engine_wait(struct __test_metadata *_metadata,
			       const struct drm_tempo_job_times *t,
			       uint64_t opened)
{
	uint64_t held;

	TH_LOG("queued %.2f ms before the gate opened, engine wait %.2f ms, started %.2f ms after queued",
	       ((double)opened - t->queued) / 1e6, t->engine_wait_ns / 1e6,
	       ((double)t->started - t->queued) / 1e6);
	ASSERT_LT(t->queued, opened);
	held = (opened < t->started ? opened : t->started) - t->queued;
	ASSERT_LE(held / 2, t->engine_wait_ns);
	ASSERT_LE(t->engine_wait_ns, t->started - t->queued);
	ASSERT_EQ(0ull, t->cu_wait_ns);
}

/*
 * A job queued behind @first_ctx's spinner reports the spinner's run as
 * its engine wait (expect_engine_wait()).
 */
static void engine_wait_behind(struct __test_metadata *_metadata,
			       FIXTURE_DATA(prio) *self, uint32_t first_ctx,
			       uint32_t ctx)
{
	struct tempo_env *e = &self->env;
	struct tempo_batch b;
	uint64_t opened;
	int first, f;

	first = submit_spinner(_metadata, self, first_ctx, T_HIGH);
	tempo_wait_nonzero(_metadata, &e->data, T_HIGH);
	tempo_batch_init(&b, &e->cmd, 4096, 64);
	tempo_pkt_write_job_times(&b, VA(e, TIMES));
	tempo_pkt_end(&b);
	f = tempo_submit(_metadata, e->fd, ctx, self->slot, b.va);
	tempo_sleep_ms(40);
	opened = tempo_now_ns();
	tempo_gate_set(e, 1);
	tempo_fence_expect(_metadata, first, 1, TEMPO_WAIT_MS);
	tempo_fence_expect(_metadata, f, 1, TEMPO_WAIT_MS);
	expect_engine_wait(_metadata, job_times(e), opened);
}

/* Another queue's job: a LOW job queued while a HIGH job holds the engine. */
TEST_F_TIMEOUT(prio, a_job_reports_the_time_another_queue_kept_it_from_its_engine, 60)
{
	engine_wait_behind(_metadata, self, self->high, self->low);
}

/*
 * A job that preempts the one holding its engine waits only for the
 * preemption, which the hardware owes it: no engine wait, however long
 * the preemption took.
 */
TEST_F_TIMEOUT(prio, a_job_that_preempts_reports_no_engine_wait, 60)
{
	struct tempo_env *e = &self->env;
	const struct drm_tempo_job_times *t = job_times(e);
	struct tempo_batch b;
	int low, high;

	low = submit_spinner(_metadata, self, self->low, T_LOW_START);
	tempo_wait_nonzero(_metadata, &e->data, T_LOW_START);
	tempo_batch_init(&b, &e->cmd, 4096, 64);
	tempo_pkt_write_job_times(&b, VA(e, TIMES));
	tempo_pkt_end(&b);
	high = tempo_submit(_metadata, e->fd, self->high, self->slot, b.va);
	tempo_fence_expect(_metadata, high, 1, TEMPO_WAIT_MS);
	ASSERT_EQ(0, tempo_fence_wait(low, 0));
	tempo_gate_set(e, 1);
	tempo_fence_expect(_metadata, low, 1, TEMPO_WAIT_MS);
	TH_LOG("preempted in %.3f ms", ((double)t->started - t->queued) / 1e6);
	ASSERT_LT(t->queued, t->started);
	ASSERT_EQ(0ull, t->engine_wait_ns);
}

/* An earlier job of its own queue: the next job of the same context. */
TEST_F_TIMEOUT(prio, a_job_reports_the_time_an_earlier_job_of_its_queue_held_the_engine, 60)
{
	engine_wait_behind(_metadata, self, self->low, self->low);
}

/*
 * A job waits by right for a queue above it until that queue is lowered
 * below it: the job's engine wait is the queue's run from the job's
 * queueing to the lowering. Not 0 (the whole run counted at the rank the
 * queue had when it ended), and not from before the job was queued.
 */
TEST_F_TIMEOUT(prio, a_job_counts_a_lowered_queue_until_the_lowering, 60)
{
	struct tempo_env *e = &self->env;
	const struct drm_tempo_job_times *t = job_times(e);
	struct tempo_batch b;
	uint64_t lowered;
	int high, low;

	high = submit_spinner(_metadata, self, self->high, T_HIGH);
	tempo_wait_nonzero(_metadata, &e->data, T_HIGH);
	tempo_sleep_ms(20);
	tempo_batch_init(&b, &e->cmd, 4096, 64);
	tempo_pkt_write_job_times(&b, VA(e, TIMES));
	tempo_pkt_end(&b);
	low = tempo_submit(_metadata, e->fd, self->low, self->slot, b.va);
	tempo_sleep_ms(40);
	lowered = tempo_now_ns();
	ASSERT_EQ(0, tempo_ctx_set_priority(e->fd, self->high,
					    DRM_TEMPO_PRIORITY_VERY_LOW));
	tempo_fence_expect(_metadata, low, 1, TEMPO_WAIT_MS);
	tempo_gate_set(e, 1);
	tempo_fence_expect(_metadata, high, 1, TEMPO_WAIT_MS);
	TH_LOG("queued %.2f ms before the lowering, engine wait %.2f ms, started %.2f ms after queued",
	       ((double)lowered - t->queued) / 1e6, t->engine_wait_ns / 1e6,
	       ((double)t->started - t->queued) / 1e6);
	ASSERT_LT(t->queued, lowered);
	ASSERT_LE((lowered - t->queued) / 2, t->engine_wait_ns);
	ASSERT_LE(t->engine_wait_ns, t->started - t->queued);
}

TEST_F(prio, hqds_are_programmed_as_the_policy_says)
{
	struct tempo_env *e = &self->env;
	uint32_t size;
	struct drm_tempo_query_hqds *q;
	unsigned int high = 0;

	q = tempo_query_alloc(e->fd, DRM_TEMPO_QUERY_HQDS, &size);
	ASSERT_TRUE(q != NULL);
	for (uint32_t i = 0; i < q->num_hqds; i++)
		high += q->hqds[i].pipe_priority == 2 &&
			q->hqds[i].queue_priority == 15;
	if (self->policy == 0) {
		/* One high-priority HQD per engine with several HQDs. */
		unsigned int expect = 0;

		for (uint32_t i = 0; i < e->engines->num_engines; i++)
			expect += e->engines->engines[i].num_hqds > 1;
		ASSERT_EQ(expect, high);
	} else {
		/* Dynamic: HQDs start normal and take the job's priority. */
		ASSERT_EQ(0u, high);
	}
	free(q);
}

/*
 * A LOW job runs on an HQD programmed for LOW (queue priority 3), which
 * returns to its programming at load once empty, with either policy.
 */
TEST_F(prio, an_hqd_runs_at_its_jobs_priority_while_it_holds_them)
{
	struct tempo_env *e = &self->env;
	unsigned int low_pipe = self->policy ? 0 : 1;
	int fence;

	if (!tempo_env_can_block(e))
		SKIP(return, "job timeout too short for a gated job");
	ASSERT_EQ(0u, tempo_hqds_at(_metadata, e->fd, low_pipe, 3));
	*tempo_u64(&e->data, STARTED) = 0;
	fence = tempo_submit(_metadata, e->fd, self->low, self->slot,
			     tempo_started_gated_batch(e, 0, STARTED));
	tempo_wait_nonzero(_metadata, &e->data, STARTED);
	ASSERT_EQ(1u, tempo_hqds_at(_metadata, e->fd, low_pipe, 3));
	tempo_gate_set(e, 1);
	tempo_fence_expect(_metadata, fence, 1, TEMPO_WAIT_MS);
	ASSERT_EQ(0u, tempo_hqds_at(_metadata, e->fd, low_pipe, 3));
}

/*
 * Submit @batch on the LOW context (after @low_in unless NULL) with an
 * out-syncobj, then a job of context @waiter that waits for it, exec
 * @flags; returns the LOW job's sync_file, the waiter's in *@high.
 */
static int submit_waited_for(struct __test_metadata *_metadata,
			     FIXTURE_DATA(prio) *self, uint32_t waiter,
			     const struct drm_tempo_sync *low_in,
			     uint64_t batch, uint32_t flags, int *high)
{
	struct tempo_env *e = &self->env;
	struct drm_tempo_sync sync = { 0 };
	int low = -1;

	*high = -1;
	ASSERT_EQ(0, drmSyncobjCreate(e->fd, 0, &sync.handle));
	ASSERT_EQ(0, tempo_exec(e->fd, self->low, self->slot, batch, low_in,
				low_in ? 1 : 0, &sync, 1, &low));
	ASSERT_EQ(0, tempo_exec_flags(e->fd, waiter, self->slot,
				      high_write_batch(e, 4096), &sync, flags,
				      high));
	drmSyncobjDestroy(e->fd, sync.handle);
	return low;
}

/*
 * A LOW job that starts and waits for the gate, and a job of @waiter that
 * waits for it; returns once the LOW job runs, as submit_waited_for().
 */
static int start_waited_for(struct __test_metadata *_metadata,
			    FIXTURE_DATA(prio) *self, uint32_t waiter,
			    uint32_t flags, int *high)
{
	struct tempo_env *e = &self->env;
	int low;

	*tempo_u64(&e->data, STARTED) = 0;
	low = submit_waited_for(_metadata, self, waiter, NULL,
				tempo_started_gated_batch(e, 0, STARTED),
				flags, high);
	tempo_wait_nonzero(_metadata, &e->data, STARTED);
	return low;
}

/*
 * Priority inheritance is asked for: a HIGH job that waits for a LOW job
 * without DRM_TEMPO_EXEC_INHERIT_PRIORITY leaves it at LOW's programming
 * (pipe 1 or 0, queue 3), and nothing runs at HIGH's.
 */
TEST_F(prio, a_low_job_keeps_its_priority_when_its_waiter_does_not_ask)
{
	struct tempo_env *e = &self->env;
	unsigned int low_pipe = self->policy ? 0 : 1;
	int low, high;

	if (!tempo_env_can_block(e))
		SKIP(return, "job timeout too short for a gated job");
	ASSERT_EQ(0u, tempo_hqds_at(_metadata, e->fd, 2, 11));
	low = start_waited_for(_metadata, self, self->high, 0, &high);
	ASSERT_EQ(1u, tempo_hqds_at(_metadata, e->fd, low_pipe, 3));
	ASSERT_EQ(0u, tempo_hqds_at(_metadata, e->fd, 2, 11));
	tempo_gate_set(e, 1);
	tempo_fence_expect(_metadata, low, 1, TEMPO_WAIT_MS);
	tempo_fence_expect(_metadata, high, 1, TEMPO_WAIT_MS);
}

/*
 * Priority inheritance: a HIGH job that waits for a LOW job in an HQD
 * ring with DRM_TEMPO_EXEC_INHERIT_PRIORITY raises that job's HQD to
 * HIGH's programming (pipe 2, queue 11), with either policy, until it
 * ends (the loan is made longer than the test).
 */
TEST_F(prio, a_low_job_that_a_high_job_waits_for_runs_at_high_priority)
{
	struct tempo_env *e = &self->env;
	unsigned int low_pipe = self->policy ? 0 : 1;
	int low, high;

	if (!tempo_env_can_block(e))
		SKIP(return, "job timeout too short for a gated job");
	set_loan_ms(_metadata, 1000);
	ASSERT_EQ(0u, tempo_hqds_at(_metadata, e->fd, 2, 11));
	low = start_waited_for(_metadata, self, self->high,
			       DRM_TEMPO_EXEC_INHERIT_PRIORITY, &high);
	/* The HIGH job waits in drm_sched: only the LOW job is in a ring. */
	ASSERT_EQ(0u, tempo_hqds_at(_metadata, e->fd, low_pipe, 3));
	ASSERT_EQ(1u, tempo_hqds_at(_metadata, e->fd, 2, 11));
	ASSERT_EQ(0, tempo_fence_wait(high, 0));
	tempo_gate_set(e, 1);
	tempo_fence_expect(_metadata, low, 1, TEMPO_WAIT_MS);
	tempo_fence_expect(_metadata, high, 1, TEMPO_WAIT_MS);
	ASSERT_EQ(1u, *tempo_u32(&e->data, HIGH_MARK));
	ASSERT_EQ(0u, tempo_hqds_at(_metadata, e->fd, 2, 11));
}

/*
 * A loan is bounded: with inherit_ms=300 the LOW job's HQD runs at HIGH's
 * programming once the HIGH waiter asked for inheritance, and returns to
 * LOW's once it has run 300 ms, while the job (waiting for the gate, which
 * keeps its HQD running) still runs.
 */
TEST_F(prio, a_loan_ends_after_inherit_ms_of_running_time)
{
	struct tempo_env *e = &self->env;
	unsigned int low_pipe = self->policy ? 0 : 1;
	uint64_t start, back;
	int low, high;

	if (!tempo_env_can_block(e))
		SKIP(return, "job timeout too short for a gated job");
	set_loan_ms(_metadata, 300);
	start = tempo_now_ns();
	low = start_waited_for(_metadata, self, self->high,
			       DRM_TEMPO_EXEC_INHERIT_PRIORITY, &high);
	ASSERT_EQ(1u, tempo_hqds_at(_metadata, e->fd, 2, 11));
	tempo_wait_hqds_at(_metadata, e->fd, low_pipe, 3, 1);
	back = tempo_now_ns();
	TH_LOG("the loan ended %.1f ms after the LOW job was submitted",
	       (back - start) / 1e6);
	ASSERT_EQ(0u, tempo_hqds_at(_metadata, e->fd, 2, 11));
	ASSERT_LE(300000000ull, back - start);
	ASSERT_EQ(0, tempo_fence_wait(low, 0));
	tempo_gate_set(e, 1);
	tempo_fence_expect(_metadata, low, 1, TEMPO_WAIT_MS);
	tempo_fence_expect(_metadata, high, 1, TEMPO_WAIT_MS);
	ASSERT_EQ(1u, *tempo_u32(&e->data, HIGH_MARK));
}

/*
 * A waiter lends its own priority, no more: a NORMAL job (which needs no
 * privilege) waiting for a LOW job takes it off LOW's programming, and
 * nothing runs at HIGH's.
 */
TEST_F(prio, a_normal_waiter_promotes_a_low_job_to_normal_only)
{
	struct tempo_env *e = &self->env;
	unsigned int low_pipe = self->policy ? 0 : 1;
	int low, normal;

	if (!tempo_env_can_block(e))
		SKIP(return, "job timeout too short for a gated job");
	set_loan_ms(_metadata, 1000);
	low = start_waited_for(_metadata, self, e->ctx,
			       DRM_TEMPO_EXEC_INHERIT_PRIORITY, &normal);
	ASSERT_EQ(0u, tempo_hqds_at(_metadata, e->fd, low_pipe, 3));
	ASSERT_EQ(0u, tempo_hqds_at(_metadata, e->fd, 2, 11));
	tempo_gate_set(e, 1);
	tempo_fence_expect(_metadata, low, 1, TEMPO_WAIT_MS);
	tempo_fence_expect(_metadata, normal, 1, TEMPO_WAIT_MS);
}

/*
 * The same for a LOW job that has not reached the hardware yet: it waits
 * for a gated job on the GFX engine when the HIGH job starts waiting for
 * it, and runs at HIGH once written into its ring.
 */
TEST_F(prio, a_queued_low_job_that_a_high_job_waits_for_runs_at_high_priority)
{
	struct tempo_env *e = &self->env;
	unsigned int low_pipe = self->policy ? 0 : 1;
	int gfx = tempo_default_slot(e->engines, DRM_TEMPO_ENGINE_CLASS_GFX, 0);
	struct drm_tempo_sync cork = { 0 };
	struct tempo_batch b;
	int low, high;

	if (!tempo_env_can_block(e))
		SKIP(return, "job timeout too short for a gated job");
	ASSERT_LE(0, gfx);
	set_loan_ms(_metadata, 1000);
	*tempo_u64(&e->data, STARTED) = 0;
	ASSERT_EQ(0, drmSyncobjCreate(e->fd, 0, &cork.handle));
	ASSERT_EQ(0, tempo_exec(e->fd, e->ctx, gfx,
				tempo_gated_batch(e, 0, TEMPO_NO_MARK, 0),
				NULL, 0, &cork, 1, NULL));
	/* The LOW job marks that it started, then waits for the gate at 2. */
	tempo_batch_init(&b, &e->cmd, 512, 32);
	tempo_pkt_write32(&b, VA(e, STARTED), 1);
	tempo_pkt_wait_gate(&b, e, 2);
	tempo_pkt_end(&b);
	low = submit_waited_for(_metadata, self, self->high, &cork, b.va,
				DRM_TEMPO_EXEC_INHERIT_PRIORITY, &high);
	ASSERT_EQ(0u, tempo_hqds_at(_metadata, e->fd, 2, 11));
	tempo_gate_set(e, 1);
	tempo_wait_nonzero(_metadata, &e->data, STARTED);
	ASSERT_EQ(0u, tempo_hqds_at(_metadata, e->fd, low_pipe, 3));
	ASSERT_EQ(1u, tempo_hqds_at(_metadata, e->fd, 2, 11));
	tempo_gate_set(e, 2);
	tempo_fence_expect(_metadata, low, 1, TEMPO_WAIT_MS);
	tempo_fence_expect(_metadata, high, 1, TEMPO_WAIT_MS);
	ASSERT_EQ(0u, tempo_hqds_at(_metadata, e->fd, 2, 11));
	drmSyncobjDestroy(e->fd, cork.handle);
}

/*
 * A HIGH job waiting for a deep timeline point (100 points queued behind
 * a gated job): every earlier point not signalled yet is looked through
 * for promotion, and everything completes.
 */
TEST_F_TIMEOUT(prio, a_high_job_waiting_for_a_deep_timeline_point_completes, 60)
{
	struct tempo_env *e = &self->env;
	struct drm_tempo_sync point = { 0 };
	int gate, high;

	if (!tempo_env_can_block(e))
		SKIP(return, "job timeout too short for a gated job");
	ASSERT_EQ(0, drmSyncobjCreate(e->fd, 0, &point.handle));
	gate = tempo_submit(_metadata, e->fd, self->low, self->slot,
			    tempo_gated_batch(e, 0, TEMPO_NO_MARK, 0));
	for (point.point = 1; point.point <= 100; point.point++)
		ASSERT_EQ(0, tempo_exec(e->fd, self->low, self->slot,
					tempo_mark_batch(e, 64, 0x3000, 1),
					NULL, 0, &point, 1, NULL));
	point.point = 100;
	ASSERT_EQ(0, tempo_exec_flags(e->fd, self->high, self->slot,
				      high_write_batch(e, 4096), &point,
				      DRM_TEMPO_EXEC_INHERIT_PRIORITY, &high));
	tempo_gate_set(e, 1);
	tempo_fence_expect(_metadata, gate, 1, TEMPO_WAIT_MS);
	tempo_fence_expect(_metadata, high, 1, TEMPO_WAIT_MS);
	ASSERT_EQ(1u, *tempo_u32(&e->data, HIGH_MARK));
	drmSyncobjDestroy(e->fd, point.handle);
}

TEST_F_TIMEOUT(prio, low_priority_is_not_starved_past_the_bound, 60)
{
	struct tempo_env *e = &self->env;
	long long starve_ms = tempo_module_param("starve_ms");
	unsigned int bound_ms = starve_ms < 0 ? 100 : (unsigned int)starve_ms;
	int hog, low;

	if (!tempo_env_can_block(e) ||
	    e->dev.job_timeout_ms < 4 * bound_ms + 1000)
		SKIP(return, "job timeout too short for the starvation bound");
	/* A high-priority job keeps the engine's command processor busy. */
	hog = submit_spinner(_metadata, self, self->high, T_HIGH);
	tempo_wait_nonzero(_metadata, &e->data, T_HIGH);

	low = tempo_submit(_metadata, e->fd, self->low, self->slot,
			   high_write_batch(e, 4096));
	/* It runs within the bound, plus scheduling slack, hog or not. */
	ASSERT_EQ(1, tempo_fence_wait(low, 2 * bound_ms + 500));
	ASSERT_EQ(0, tempo_fence_wait(hog, 0));
	tempo_gate_set(e, 1);
	tempo_fence_expect(_metadata, hog, 1, TEMPO_WAIT_MS);
	close(low);
}

/* The value of @key in the debugfs cus file of @dir, or -1. */
static long long cus_get(const char *dir, const char *key)
{
	FILE *f = tempo_fopen("r", "%s/cus", dir);
	long long value = -1;
	char line[128];
	size_t n = strlen(key);

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ':')
			value = strtoll(line + n + 1, NULL, 10);
	fclose(f);
	return value;
}

/* Length of the LOW workgroups that hold every CU. */
#define HOG_GROUP_MS	150u

/*
 * A LOW job on @slot whose SPIN workgroups, two waves of HOG_GROUP_MS,
 * hold every CU: returns its fence once it wrote its start time at
 * T_LOW_START and the debugfs cus file of @dir shows every CU busy.
 */
static int hog_every_cu(struct __test_metadata *_metadata,
			FIXTURE_DATA(prio) *self, int slot, const char *dir)
{
	struct tempo_env *e = &self->env;
	uint32_t hog_ns = HOG_GROUP_MS * 1000000u;
	struct tempo_batch b;
	int f;

	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_write_timestamp(&b, VA(e, T_LOW_START));
	tempo_pkt_dispatch(&b, DRM_TEMPO_KERNEL_SPIN, 2 * e->dev.num_cus, 1, 1,
			   &hog_ns, 1);
	tempo_pkt_end(&b);
	f = tempo_submit(_metadata, e->fd, self->low, slot, b.va);
	tempo_wait_nonzero(_metadata, &e->data, T_LOW_START);
	for (int i = 0; cus_get(dir, "busy") < e->dev.num_cus; i++) {
		ASSERT_GT(2000, i);
		tempo_sleep_ms(1);
	}
	return f;
}

/*
 * The RFC's point that priority must reach the compute units, which NOPs
 * do not show: LOW workgroups on another engine hold every CU, two waves
 * of HOG_GROUP_MS each; a HIGH one-group dispatch still gets a CU kept
 * for it (cu_reserved) within a fraction of a LOW workgroup and completes
 * first, and reports no CU wait. Without the reservation it waits for a
 * LOW workgroup to end.
 */
TEST_F_TIMEOUT(prio, a_high_dispatch_gets_a_reserved_cu_while_low_work_holds_every_cu, 60)
{
	struct tempo_env *e = &self->env;
	uint32_t groups = 2 * e->dev.num_cus, spin_ns = 1000000;
	int low_slot = tempo_default_slot(e->engines,
					  DRM_TEMPO_ENGINE_CLASS_COMPUTE, 1);
	struct tempo_batch high;
	uint64_t wait_ns;
	int lowf, highf;
	char dir[256];

	if (tempo_module_param("cu_reserved") == 0)
		SKIP(return, "cu_reserved=0: no CU is kept for high priority");
	tempo_debugfs_dir(dir, sizeof(dir));
	if (!dir[0] || low_slot < 0 || groups > e->dev.max_groups)
		SKIP(return, "needs debugfs and a second compute engine");
	if (e->dev.job_timeout_ms < 8 * HOG_GROUP_MS)
		SKIP(return, "job timeout too short for the LOW workgroups");
	lowf = hog_every_cu(_metadata, self, low_slot, dir);

	tempo_batch_init(&high, &e->cmd, 4096, 64);
	tempo_pkt_write_timestamp(&high, VA(e, T_HIGH));
	tempo_pkt_dispatch(&high, DRM_TEMPO_KERNEL_SPIN, 1, 1, 1, &spin_ns, 1);
	tempo_pkt_write_job_times(&high, VA(e, TIMES));
	tempo_pkt_write_timestamp(&high, VA(e, T_HIGH_END));
	tempo_pkt_end(&high);
	highf = tempo_submit(_metadata, e->fd, self->high, self->slot, high.va);
	tempo_fence_expect(_metadata, highf, 1, TEMPO_WAIT_MS);
	ASSERT_EQ(0, tempo_fence_wait(lowf, 0));
	wait_ns = (*tempo_u64(&e->data, T_HIGH_END) -
		   *tempo_u64(&e->data, T_HIGH)) * 1000000000ull /
		  e->dev.timestamp_frequency;
	TH_LOG("HIGH 1 ms dispatch took %.2f ms on the GPU, LOW workgroups of %u ms holding all %u CUs",
	       wait_ns / 1e6, HOG_GROUP_MS, e->dev.num_cus);
	ASSERT_GT(HOG_GROUP_MS * 1000000ull / 4, wait_ns);
	/* Taking a reserved CU back is the hardware's debt, not a wait. */
	ASSERT_EQ(0ull, job_times(e)->cu_wait_ns);
	tempo_fence_expect(_metadata, lowf, 1, 8 * HOG_GROUP_MS + TEMPO_WAIT_MS);
}

/*
 * A NORMAL one-group dispatch on an idle engine while LOW workgroups of
 * another engine hold every CU reports as its CU wait the time until the
 * first LOW workgroup ends (HOG_GROUP_MS after the LOW job started), not
 * a wait for its engine, and no more than the batch took around it.
 */
TEST_F_TIMEOUT(prio, a_dispatch_reports_the_time_other_workgroups_held_every_cu, 60)
{
	struct tempo_env *e = &self->env;
	const struct drm_tempo_job_times *t = job_times(e);
	uint32_t groups = 2 * e->dev.num_cus, hog_ns = HOG_GROUP_MS * 1000000u;
	uint32_t fill[] = { TEMPO_ARG_VA(VA(e, SNAP)), 1, 4 };
	int low_slot = tempo_default_slot(e->engines,
					  DRM_TEMPO_ENGINE_CLASS_COMPUTE, 1);
	uint64_t freed, before, after;
	struct tempo_batch b;
	int lowf, f;
	char dir[256];

	tempo_debugfs_dir(dir, sizeof(dir));
	if (!dir[0] || low_slot < 0 || groups > e->dev.max_groups)
		SKIP(return, "needs debugfs and a second compute engine");
	if (e->dev.job_timeout_ms < 8 * HOG_GROUP_MS)
		SKIP(return, "job timeout too short for the LOW workgroups");
	lowf = hog_every_cu(_metadata, self, low_slot, dir);

	tempo_batch_init(&b, &e->cmd, 4096, 64);
	tempo_pkt_write_timestamp(&b, VA(e, T_HIGH));
	tempo_pkt_dispatch(&b, DRM_TEMPO_KERNEL_FILL, 1, 1, 1, fill, 4);
	tempo_pkt_write_job_times(&b, VA(e, TIMES));
	tempo_pkt_write_timestamp(&b, VA(e, T_HIGH_END));
	tempo_pkt_end(&b);
	f = tempo_submit(_metadata, e->fd, e->ctx, self->slot, b.va);
	tempo_fence_expect(_metadata, f, 1, 4 * HOG_GROUP_MS + TEMPO_WAIT_MS);
	before = *tempo_u64(&e->data, T_HIGH);
	after = *tempo_u64(&e->data, T_HIGH_END);
	freed = *tempo_u64(&e->data, T_LOW_START) + hog_ns;
	TH_LOG("CU wait %.2f ms, dispatch issued %.2f ms before the first LOW workgroup could end",
	       t->cu_wait_ns / 1e6, ((double)freed - before) / 1e6);
	ASSERT_EQ(1u, *tempo_u32(&e->data, SNAP));
	ASSERT_EQ(0ull, t->engine_wait_ns);
	ASSERT_LT(before, freed);
	ASSERT_LE((freed - before) / 2, t->cu_wait_ns);
	ASSERT_LE(t->cu_wait_ns, after - before);
	tempo_fence_expect(_metadata, lowf, 1, 8 * HOG_GROUP_MS + TEMPO_WAIT_MS);
}

/* The compute units' threads: at most this many are looked at. */
#define MAX_CU_THREADS	64

/*
 * Polls the @n CU threads for up to a second until @want_hi of them run at
 * nice @hi and @want_lo at nice @lo, in one reading of all @n.
 */
static bool cus_reach_nice(struct __test_metadata *_metadata,
			   const int *pids, int n, int hi, int want_hi,
			   int lo, int want_lo)
{
	int at_hi = -1, at_lo = -1;

	for (int i = 0; i < 1000; i++) {
		at_hi = at_lo = 0;
		for (int c = 0; c < n; c++) {
			int nice = tempo_thread_nice(pids[c]);

			at_hi += nice == hi;
			at_lo += nice == lo;
		}
		if (at_hi == want_hi && at_lo == want_lo)
			return true;
		tempo_sleep_ms(1);
	}
	TH_LOG("CU threads: %d at nice %d (want %d), %d at nice %d (want %d)",
	       at_hi, hi, want_hi, at_lo, lo, want_lo);
	return false;
}

/* Length of the HIGH workgroup whose CU's CPU priority is read. */
#define HIGH_GROUP_MS	500u

/*
 * The CUs are host threads, at the lowest CPU priority so that a busy GPU
 * leaves the host to its users; a HIGH workgroup there would wait behind
 * any other task on its vCPU, LOW workgroups included. So a CU runs a HIGH
 * workgroup at the command processors' nice level, and LOW ones and idles
 * at its own: with LOW workgroups on every CU, one HIGH workgroup moves
 * exactly one CU thread to the higher level, and back when it ends.
 */
TEST_F_TIMEOUT(prio, a_cu_runs_a_high_workgroup_at_the_command_processors_cpu_priority, 60)
{
	struct tempo_env *e = &self->env;
	uint32_t hog_ns = HOG_GROUP_MS * 1000000u;
	uint32_t high_ns = HIGH_GROUP_MS * 1000000u;
	int low_slot = tempo_default_slot(e->engines,
					  DRM_TEMPO_ENGINE_CLASS_COMPUTE, 1);
	long long cp_nice = tempo_module_param("hw_nice");
	int cu_nice = cp_nice + 9 < 19 ? cp_nice + 9 : 19;
	int num_cus = e->dev.num_cus, lowf, highf;
	int pids[MAX_CU_THREADS];
	struct tempo_batch low, high;

	if (cp_nice < -20 || cp_nice >= cu_nice || low_slot < 0)
		SKIP(return, "needs hw_nice below 19 and a second compute engine");
	if (e->dev.job_timeout_ms < 2 * (HOG_GROUP_MS + HIGH_GROUP_MS))
		SKIP(return, "job timeout too short for the workgroups");
	ASSERT_EQ(num_cus, tempo_threads("tempo-cu", -1, pids, MAX_CU_THREADS));
	ASSERT_TRUE(cus_reach_nice(_metadata, pids, num_cus, cp_nice, 0,
				   cu_nice, num_cus));

	*tempo_u64(&e->data, STARTED) = 0;
	tempo_batch_init(&low, &e->cmd, 0, 64);
	tempo_pkt_write32(&low, VA(e, STARTED), 1);
	tempo_pkt_dispatch(&low, DRM_TEMPO_KERNEL_SPIN, num_cus, 1, 1,
			   &hog_ns, 1);
	tempo_pkt_end(&low);
	lowf = tempo_submit(_metadata, e->fd, self->low, low_slot, low.va);
	tempo_wait_nonzero(_metadata, &e->data, STARTED);
	ASSERT_TRUE(cus_reach_nice(_metadata, pids, num_cus, cp_nice, 0,
				   cu_nice, num_cus));

	tempo_batch_init(&high, &e->cmd, 4096, 64);
	tempo_pkt_dispatch(&high, DRM_TEMPO_KERNEL_SPIN, 1, 1, 1, &high_ns, 1);
	tempo_pkt_end(&high);
	highf = tempo_submit(_metadata, e->fd, self->high, self->slot, high.va);
	ASSERT_TRUE(cus_reach_nice(_metadata, pids, num_cus, cp_nice, 1,
				   cu_nice, num_cus - 1));

	tempo_fence_expect(_metadata, highf, 1, TEMPO_WAIT_MS);
	ASSERT_TRUE(cus_reach_nice(_metadata, pids, num_cus, cp_nice, 0,
				   cu_nice, num_cus));
	tempo_fence_expect(_metadata, lowf, 1,
			   2 * (HOG_GROUP_MS + HIGH_GROUP_MS) + TEMPO_WAIT_MS);
}

/* Jobs each context of a share test keeps queued, and their length. */
#define SHARE_QUEUED	3
#define SHARE_JOB_NS	10000000u
#define SHARE_WINDOW_MS	1500

/*
 * Contexts keeping SHARE_QUEUED jobs of SHARE_JOB_NS each queued on the
 * fixture's slot, resubmitting each as it completes.
 */
struct share {
	uint32_t ctx[2];
	int fence[2][SHARE_QUEUED];
	unsigned int done[2];
	uint64_t batch;
};

static void share_start(struct __test_metadata *_metadata,
			FIXTURE_DATA(prio) *self, struct share *sh)
{
	struct tempo_env *e = &self->env;
	uint32_t spin = SHARE_JOB_NS;
	struct tempo_batch b;

	tempo_batch_init(&b, &e->cmd, 8192, 64);
	tempo_pkt_dispatch(&b, DRM_TEMPO_KERNEL_SPIN, 1, 1, 1, &spin, 1);
	tempo_pkt_end(&b);
	sh->batch = b.va;
	for (int c = 0; c < 2; c++)
		for (int i = 0; i < SHARE_QUEUED; i++)
			sh->fence[c][i] = tempo_submit(_metadata, e->fd,
						       sh->ctx[c], self->slot,
						       sh->batch);
}

/* Keep the jobs coming for @ms; the jobs each context completed in it. */
static void share_run(struct __test_metadata *_metadata,
		      FIXTURE_DATA(prio) *self, struct share *sh, int ms)
{
	uint64_t end = tempo_now_ns() + (uint64_t)ms * 1000000;

	sh->done[0] = sh->done[1] = 0;
	while (tempo_now_ns() < end) {
		for (int c = 0; c < 2; c++) {
			for (int i = 0; i < SHARE_QUEUED; i++) {
				int *f = &sh->fence[c][i];

				if (tempo_fence_wait(*f, 0) == 0)
					continue;
				tempo_fence_expect(_metadata, *f, 1, 0);
				sh->done[c]++;
				*f = tempo_submit(_metadata, self->env.fd,
						  sh->ctx[c], self->slot,
						  sh->batch);
			}
		}
		tempo_sleep_ms(1);
	}
}

/* Percent of the jobs of the last share_run() that context 0 ran. */
static unsigned int share_first(const struct share *sh)
{
	unsigned int all = sh->done[0] + sh->done[1];

	return all ? 100 * sh->done[0] / all : 0;
}

static void share_stop(struct __test_metadata *_metadata, struct share *sh)
{
	for (int c = 0; c < 2; c++)
		for (int i = 0; i < SHARE_QUEUED; i++)
			tempo_fence_expect(_metadata, sh->fence[c][i], 1,
					   TEMPO_WAIT_MS);
}

/*
 * Two NORMAL contexts keeping one engine busy each complete 40-60 % of the
 * jobs, and together at least half as many as one context alone does in
 * the same time on one HQD (the engine is not lost switching between them:
 * about 98 % on Debian's 6.12 kernel, 66 % on the debug kernel).
 */
TEST_F_TIMEOUT(prio, contexts_of_one_priority_share_a_busy_engine, 60)
{
	struct share sh = { 0 };
	unsigned int alone;

	if (!tempo_env_can_block(&self->env))
		SKIP(return, "job timeout too short for queued 10 ms jobs");
	for (int c = 0; c < 2; c++)
		ASSERT_EQ(0, tempo_ctx_create(self->env.fd,
					      DRM_TEMPO_PRIORITY_NORMAL, NULL,
					      0, &sh.ctx[c]));
	/* one context, twice as many jobs queued, on one HQD */
	sh.ctx[1] = sh.ctx[0];
	share_start(_metadata, self, &sh);
	share_run(_metadata, self, &sh, SHARE_WINDOW_MS);
	alone = sh.done[0] + sh.done[1];
	share_stop(_metadata, &sh);
	ASSERT_EQ(0, tempo_ctx_create(self->env.fd, DRM_TEMPO_PRIORITY_NORMAL,
				      NULL, 0, &sh.ctx[1]));
	share_start(_metadata, self, &sh);
	share_run(_metadata, self, &sh, SHARE_WINDOW_MS);
	TH_LOG("jobs completed: %u and %u; %u by one context alone",
	       sh.done[0], sh.done[1], alone);
	ASSERT_LE(40u, share_first(&sh));
	ASSERT_GE(60u, share_first(&sh));
	ASSERT_LE(alone / 2, sh.done[0] + sh.done[1]);
	share_stop(_metadata, &sh);
}

/* The quantum of HQDs of one priority (Documentation/scheduling.rst). */
#define QUANTUM_NS	10000000ull
#define QUANTUM_ROUNDS	9

/*
 * Of two NORMAL contexts on one engine, the second one's job waits for the
 * first one's quantum, which ends on time even while the command processor
 * sleeps waiting for the first one's DISPATCH. The quantum is GPU time:
 * the second job's engine wait (WRITE_JOB_TIMES, GPU time the first job
 * ran while it waited) is the quantum less what the first job ran before
 * the second was queued, at most the time between the first's start and
 * that queueing on the host's clock. Over 9 rounds the median engine wait
 * is at most the quantum plus 2.5 ms, and at least the quantum less that
 * lead less 1 ms (a command processor that looked again only at its
 * periodic wake-up, once a jiffy, overshot by 4.5 ms). The host's clock
 * is logged: it also counts the compute unit's waits for a CPU, which GPU
 * time leaves out.
 */
TEST_F_TIMEOUT(prio, a_quantum_ends_on_time_while_a_dispatch_runs, 60)
{
	struct tempo_env *e = &self->env;
	const struct drm_tempo_job_times *t = job_times(e);
	uint32_t spin_ns = 4 * QUANTUM_NS;
	uint64_t waits[QUANTUM_ROUNDS], reach[QUANTUM_ROUNDS];
	uint64_t wall[QUANTUM_ROUNDS], median;
	uint32_t ctx[2];

	for (int c = 0; c < 2; c++)
		ASSERT_EQ(0, tempo_ctx_create(e->fd, DRM_TEMPO_PRIORITY_NORMAL,
					      NULL, 0, &ctx[c]));
	for (int r = 0; r < QUANTUM_ROUNDS; r++) {
		struct tempo_batch first, second;
		int f, s;

		*tempo_u64(&e->data, T_FIRST) = 0;
		*tempo_u64(&e->data, T_SECOND) = 0;
		tempo_batch_init(&first, &e->cmd, 0, 64);
		tempo_pkt_write_timestamp(&first, VA(e, T_FIRST));
		tempo_pkt_dispatch(&first, DRM_TEMPO_KERNEL_SPIN, 1, 1, 1,
				   &spin_ns, 1);
		tempo_pkt_end(&first);
		tempo_batch_init(&second, &e->cmd, 4096, 64);
		tempo_pkt_write_timestamp(&second, VA(e, T_SECOND));
		tempo_pkt_write_job_times(&second, VA(e, TIMES));
		tempo_pkt_end(&second);
		f = tempo_submit(_metadata, e->fd, ctx[0], self->slot,
				 first.va);
		tempo_wait_nonzero(_metadata, &e->data, T_FIRST);
		s = tempo_submit(_metadata, e->fd, ctx[1], self->slot,
				 second.va);
		tempo_fence_expect(_metadata, s, 1, TEMPO_WAIT_MS);
		tempo_fence_expect(_metadata, f, 1, TEMPO_WAIT_MS);
		ASSERT_EQ(1000000000ull, e->dev.timestamp_frequency);
		wall[r] = *tempo_u64(&e->data, T_SECOND) -
			  *tempo_u64(&e->data, T_FIRST);
		waits[r] = t->engine_wait_ns;
		reach[r] = t->engine_wait_ns + t->queued -
			   *tempo_u64(&e->data, T_FIRST);
	}
	median = tempo_median_u64(waits, QUANTUM_ROUNDS);
	TH_LOG("second job's engine wait: median %.2f ms of GPU time, quantum %.0f ms; its start after the first's: median %.2f ms on the host's clock",
	       median / 1e6, QUANTUM_NS / 1e6,
	       tempo_median_u64(wall, QUANTUM_ROUNDS) / 1e6);
	ASSERT_GT(QUANTUM_NS + 2500000ull, median);
	ASSERT_LE(QUANTUM_NS - 1000000ull,
		  tempo_median_u64(reach, QUANTUM_ROUNDS));
}

/* The HIGH job beside a starved LOW queue: dispatches of STARVED_STEP_MS. */
#define STARVED_STEPS		30u
#define STARVED_STEP_MS		8u
/* The NORMAL workgroups of another engine that keep every CU busy. */
#define STARVED_HOG_MS		50u

/*
 * A queue starved past the bound runs a slice of GPU time before anything
 * may preempt it, and a dispatch waiting for a CU makes no GPU time. On
 * one engine, a LOW job's one-workgroup dispatch waits for a CU while a
 * NORMAL job of another engine keeps every CU it may have busy with waves
 * of STARVED_HOG_MS workgroups (its whole run about half the job
 * timeout); a HIGH job there preempts the LOW one and runs STARVED_STEPS
 * dispatches of STARVED_STEP_MS. Once the LOW queue has waited past the
 * bound it takes the engine: its dispatch must get the next CU that
 * frees, ahead of the NORMAL workgroups, so that its slice ends and the
 * HIGH job goes on. Both complete while the NORMAL job still runs; had the
 * LOW dispatch waited for the NORMAL job's last wave, the HIGH job would
 * have waited with it, and ended after it.
 */
TEST_F_TIMEOUT(prio, a_starved_queue_gets_a_cu_and_does_not_hold_its_engine, 60)
{
	struct tempo_env *e = &self->env;
	int hog_slot = tempo_default_slot(e->engines,
					  DRM_TEMPO_ENGINE_CLASS_COMPUTE, 1);
	long long starve_ms = tempo_module_param("starve_ms");
	long long reserved = tempo_module_param("cu_reserved");
	uint32_t hog_ns = STARVED_HOG_MS * 1000000u, low_ns = 1000000u;
	uint32_t step_ns = STARVED_STEP_MS * 1000000u, cus, groups, normal;
	struct tempo_batch hog, low, high;
	int hogf, lowf, highf;

	if (hog_slot < 0 || starve_ms < 0)
		SKIP(return, "needs a second compute engine");
	if (reserved <= 0)
		SKIP(return, "cu_reserved=0: no CU is kept for the HIGH job");
	if (starve_ms >= STARVED_STEPS * STARVED_STEP_MS / 2)
		SKIP(return, "starve_ms too long for the HIGH job to starve LOW");
	cus = e->dev.num_cus - (uint32_t)reserved;
	groups = cus * (e->dev.job_timeout_ms / 2 / STARVED_HOG_MS);
	if (!cus || !groups || groups > e->dev.max_groups)
		SKIP(return, "needs CUs below the reservation");
	ASSERT_EQ(0, tempo_ctx_create(e->fd, DRM_TEMPO_PRIORITY_NORMAL, NULL, 0,
				      &normal));
	tempo_batch_init(&hog, &e->cmd, 0, 64);
	tempo_pkt_write_timestamp(&hog, VA(e, T_LOW_START));
	tempo_pkt_dispatch(&hog, DRM_TEMPO_KERNEL_SPIN, groups, 1, 1, &hog_ns,
			   1);
	tempo_pkt_end(&hog);
	hogf = tempo_submit(_metadata, e->fd, normal, hog_slot, hog.va);
	tempo_wait_nonzero(_metadata, &e->data, T_LOW_START);

	tempo_batch_init(&low, &e->cmd, 4096, 64);
	tempo_pkt_write_timestamp(&low, VA(e, T_FIRST));
	tempo_pkt_dispatch(&low, DRM_TEMPO_KERNEL_SPIN, 1, 1, 1, &low_ns, 1);
	tempo_pkt_end(&low);
	lowf = tempo_submit(_metadata, e->fd, self->low, self->slot, low.va);
	tempo_wait_nonzero(_metadata, &e->data, T_FIRST);

	tempo_batch_init(&high, &e->cmd, 8192, 16 * STARVED_STEPS);
	for (unsigned int i = 0; i < STARVED_STEPS; i++)
		tempo_pkt_dispatch(&high, DRM_TEMPO_KERNEL_SPIN, 1, 1, 1,
				   &step_ns, 1);
	tempo_pkt_end(&high);
	ASSERT_FALSE(high.overflow);
	highf = tempo_submit(_metadata, e->fd, self->high, self->slot, high.va);

	tempo_fence_expect(_metadata, highf, 1, TEMPO_WAIT_MS);
	ASSERT_EQ(1, tempo_fence_wait(lowf, 0));
	ASSERT_EQ(0, tempo_fence_wait(hogf, 0))
		TH_LOG("the NORMAL job of %u workgroups of %u ms on %u CUs ended first",
		       groups, STARVED_HOG_MS, cus);
	tempo_fence_expect(_metadata, hogf, 1,
			   e->dev.job_timeout_ms + TEMPO_WAIT_MS);
}

/*
 * A game at LOW and a competitor at NORMAL both keep the engine busy and
 * never idle; a compositor (this file, with CAP_SYS_NICE) raises the game
 * above the competitor, then lowers it below: each change reaches the
 * jobs already queued, and the game's share follows.
 */
TEST_F_TIMEOUT(prio, priority_changes_reach_a_context_that_never_idles, 90)
{
	static const int32_t changes[] = {
		DRM_TEMPO_PRIORITY_HIGH, DRM_TEMPO_PRIORITY_VERY_LOW,
	};
	struct share sh = { .ctx = { self->low } };
	unsigned int share[3];

	if (!tempo_env_can_block(&self->env))
		SKIP(return, "job timeout too short for queued 10 ms jobs");
	ASSERT_EQ(0, tempo_ctx_create(self->env.fd, DRM_TEMPO_PRIORITY_NORMAL,
				      NULL, 0, &sh.ctx[1]));
	share_start(_metadata, self, &sh);
	share_run(_metadata, self, &sh, SHARE_WINDOW_MS);
	share[0] = share_first(&sh);
	for (int i = 0; i < 2; i++) {
		ASSERT_EQ(0, tempo_sched(self->env.fd,
					 DRM_TEMPO_SCHED_CTX_PRIORITY_OVERRIDE,
					 self->env.fd, self->low, changes[i]));
		share_run(_metadata, self, &sh, SHARE_WINDOW_MS);
		share[i + 1] = share_first(&sh);
	}
	TH_LOG("game's share of the jobs: %u%% at LOW, %u%% raised to HIGH, %u%% lowered to VERY_LOW",
	       share[0], share[1], share[2]);
	ASSERT_GE(30u, share[0]);
	ASSERT_LE(70u, share[1]);
	ASSERT_GE(30u, share[2]);
	share_stop(_metadata, &sh);
}

TEST_HARNESS_MAIN
