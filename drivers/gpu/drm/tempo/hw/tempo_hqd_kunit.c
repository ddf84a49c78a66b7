// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The tempo authors
 *
 * KUnit suite of HQD arbitration (tempo_hqd.c), on an engine that is
 * not started.
 */

#include <linux/slab.h>
#include <linux/wait.h>

#include <kunit/test.h>

#include "../tempo_kunit.h"
#include "tempo_hw_priv.h"

/* An engine of four queues, not started, for arbitration. */
static struct tempo_engine *fake_engine(struct kunit *test)
{
	struct tempo_hw *hw = kunit_kzalloc(test, sizeof(*hw), GFP_KERNEL);
	struct tempo_engine *e = kunit_kzalloc(test, sizeof(*e), GFP_KERNEL);
	u32 q;

	KUNIT_ASSERT_NOT_NULL(test, hw);
	KUNIT_ASSERT_NOT_NULL(test, e);
	hw->config.starve_ns = 100 * NSEC_PER_MSEC;
	e->hw = hw;
	spin_lock_init(&e->lock);
	seqcount_spinlock_init(&e->run_seq, &e->lock);
	init_waitqueue_head(&e->wq);
	e->num_hqds = 4;
	for (q = 0; q < 4; q++) {
		e->hqds[q].engine = e;
		e->hqds[q].index = q;
		e->hqds[q].mqd.active = true;
		e->hqds[q].mqd.pipe_priority = TEMPO_HW_PIPE_PRIO_NORMAL;
		e->hqds[q].mqd.queue_priority = TEMPO_HW_QUEUE_PRIO_NORMAL;
	}
	return e;
}

static void give_work(struct tempo_hw_hqd *hqd)
{
	hqd->mqd.wptr = hqd->mqd.rptr + 1;
}

/* The engine's clock, read by a case that holds the engine still. */
static u64 clock_now(const struct tempo_engine *e)
{
	return e->gpu_ns + e->run_gpu;
}

/*
 * The engine's clock moves only when the cases say so: the command
 * processor (the case) is stalled, its CPU time not counted.
 */
static struct tempo_hw_hqd *select_still(struct tempo_engine *e, u64 *slice)
{
	struct tempo_hw_hqd *hqd = tempo_hqd_select(e, slice);

	e->stalled = true;
	return hqd;
}

static void hqd_arbitration(struct kunit *test)
{
	struct tempo_engine *e = fake_engine(test);
	u64 slice;

	KUNIT_EXPECT_NULL(test, tempo_hqd_select(e, &slice));
	give_work(&e->hqds[1]);
	give_work(&e->hqds[2]);
	/* equal priorities: the lowest index */
	KUNIT_EXPECT_PTR_EQ(test, &e->hqds[1], tempo_hqd_select(e, &slice));
	/* queue priority decides within a pipe priority */
	e->hqds[2].mqd.queue_priority = 8;
	KUNIT_EXPECT_PTR_EQ(test, &e->hqds[2], tempo_hqd_select(e, &slice));
	/* pipe priority first */
	give_work(&e->hqds[3]);
	e->hqds[3].mqd.pipe_priority = 2;
	e->hqds[3].mqd.queue_priority = 0;
	KUNIT_EXPECT_PTR_EQ(test, &e->hqds[3], tempo_hqd_select(e, &slice));
	/* inactive queues never run */
	e->hqds[3].mqd.active = false;
	KUNIT_EXPECT_PTR_EQ(test, &e->hqds[2], tempo_hqd_select(e, &slice));
}

static void hqd_preemption_and_aging(struct kunit *test)
{
	struct tempo_engine *e = fake_engine(test);
	u64 slice;

	give_work(&e->hqds[0]);
	KUNIT_EXPECT_PTR_EQ(test, &e->hqds[0], tempo_hqd_select(e, &slice));
	KUNIT_EXPECT_FALSE(test, tempo_hqd_should_yield(e, &e->hqds[0], 0));
	/* a higher queue with work preempts */
	give_work(&e->hqds[2]);
	e->hqds[2].mqd.pipe_priority = 2;
	KUNIT_EXPECT_TRUE(test, tempo_hqd_should_yield(e, &e->hqds[0], 0));
	/* a lower one does not, until it has waited past the bound */
	KUNIT_EXPECT_PTR_EQ(test, &e->hqds[2], tempo_hqd_select(e, &slice));
	KUNIT_EXPECT_FALSE(test, tempo_hqd_should_yield(e, &e->hqds[2], 0));
	/* the engine ran 200 ms of GPU time while it waited */
	e->gpu_ns += 200 * NSEC_PER_MSEC;
	KUNIT_EXPECT_TRUE(test, tempo_hqd_should_yield(e, &e->hqds[2], 0));
	KUNIT_EXPECT_PTR_EQ(test, &e->hqds[0], select_still(e, &slice));
	/* and then keeps a timeslice of GPU time */
	KUNIT_EXPECT_EQ(test, clock_now(e) + TEMPO_HW_TIMESLICE_NS, slice);
	KUNIT_EXPECT_FALSE(test, tempo_hqd_should_yield(e, &e->hqds[0], slice));
}

static void hqd_equal_priorities_take_turns(struct kunit *test)
{
	struct tempo_engine *e = fake_engine(test);
	u64 slice;

	give_work(&e->hqds[0]);
	give_work(&e->hqds[1]);
	KUNIT_EXPECT_PTR_EQ(test, &e->hqds[0], tempo_hqd_select(e, &slice));
	/* an equal queue waits for the running one's quantum of GPU time */
	e->stalled = true;
	KUNIT_EXPECT_FALSE(test, tempo_hqd_should_yield(e, &e->hqds[0], 0));
	e->run_gpu = TEMPO_HW_QUANTUM_NS - 1;
	KUNIT_EXPECT_FALSE(test, tempo_hqd_should_yield(e, &e->hqds[0], 0));
	e->run_gpu = TEMPO_HW_QUANTUM_NS;
	KUNIT_EXPECT_TRUE(test, tempo_hqd_should_yield(e, &e->hqds[0], 0));
	/* then the one that waited longest goes, and they alternate */
	KUNIT_EXPECT_PTR_EQ(test, &e->hqds[1], select_still(e, &slice));
	e->gpu_ns += NSEC_PER_MSEC;
	KUNIT_EXPECT_PTR_EQ(test, &e->hqds[0], select_still(e, &slice));
	e->gpu_ns += NSEC_PER_MSEC;
	KUNIT_EXPECT_PTR_EQ(test, &e->hqds[1], select_still(e, &slice));
	/* a quantum is no turn for a lower queue */
	e->hqds[0].mqd.wptr = e->hqds[0].mqd.rptr;
	give_work(&e->hqds[2]);
	e->hqds[2].mqd.queue_priority = 6;
	e->run_gpu += 10 * TEMPO_HW_QUANTUM_NS;
	KUNIT_EXPECT_FALSE(test, tempo_hqd_should_yield(e, &e->hqds[1], 0));
}

/*
 * The run in progress counts for the counter its job names, from the
 * fetch of the job until the run ends, and for no other counter.
 */
/*
 * What a command processor that sleeps must wake up for: a quantum, a
 * slice or the starvation bound ending, the earliest of them, as the GPU
 * time left until then; nothing when no queue waits.
 */
static void hqd_next_yield_is_the_first_decision_time_alone_makes(struct kunit *test)
{
	struct tempo_engine *e = fake_engine(test);
	struct tempo_hw_hqd *run = &e->hqds[0];
	u64 slice, t0;

	give_work(run);
	e->gpu_ns = 5 * NSEC_PER_SEC;
	KUNIT_EXPECT_PTR_EQ(test, run, select_still(e, &slice));
	KUNIT_EXPECT_EQ(test, U64_MAX, tempo_hqd_next_yield(e, run, 0));
	/* a lower queue waits for the starvation bound */
	give_work(&e->hqds[1]);
	e->hqds[1].mqd.queue_priority = TEMPO_HW_QUEUE_PRIO_NORMAL - 1;
	e->run_gpu = 3 * NSEC_PER_MSEC;
	KUNIT_EXPECT_FALSE(test, tempo_hqd_should_yield(e, run, 0));
	t0 = e->hqds[1].waiting_since;
	KUNIT_EXPECT_TRUE(test, e->hqds[1].waiting);
	KUNIT_EXPECT_EQ(test, clock_now(e), t0);
	e->run_gpu = 4 * NSEC_PER_MSEC;
	KUNIT_EXPECT_EQ(test, 99 * NSEC_PER_MSEC + 1,
			tempo_hqd_next_yield(e, run, 0));
	/* one of its rank for its quantum, if that comes first */
	give_work(&e->hqds[2]);
	KUNIT_EXPECT_FALSE(test, tempo_hqd_should_yield(e, run, 0));
	KUNIT_EXPECT_EQ(test, TEMPO_HW_QUANTUM_NS - 4 * NSEC_PER_MSEC,
			tempo_hqd_next_yield(e, run, 0));
	/* none before the slice ends */
	KUNIT_EXPECT_EQ(test, NSEC_PER_SEC - NSEC_PER_MSEC,
			tempo_hqd_next_yield(e, run, t0 + NSEC_PER_SEC));
	/* a higher one at once, or when the slice ends */
	give_work(&e->hqds[3]);
	e->hqds[3].mqd.pipe_priority = TEMPO_HW_PIPE_PRIO_MAX;
	KUNIT_EXPECT_TRUE(test, tempo_hqd_should_yield(e, run, 0));
	KUNIT_EXPECT_EQ(test, 0ull, tempo_hqd_next_yield(e, run, 0));
	KUNIT_EXPECT_FALSE(test, tempo_hqd_should_yield(e, run, t0 + NSEC_PER_SEC));
	KUNIT_EXPECT_EQ(test, NSEC_PER_SEC - NSEC_PER_MSEC,
			tempo_hqd_next_yield(e, run, t0 + NSEC_PER_SEC));
}

static void hqd_running_time_is_the_fetched_jobs(struct kunit *test)
{
	struct tempo_engine *e = fake_engine(test);
	struct tempo_hw_job *job = kunit_kzalloc(test, sizeof(*job),
						 GFP_KERNEL);
	struct tempo_hw_job *ring[1] = { job };
	struct tempo_hw_job other = { .hqd = &e->hqds[0] };
	u64 slice;

	KUNIT_ASSERT_NOT_NULL(test, job);
	job->hqd = &e->hqds[0];
	e->hw->num_engines = 1;
	e->hw->engines = e;
	e->hqds[0].mqd.ring = ring;
	e->hqds[0].mqd.ring_size = 1;
	give_work(&e->hqds[0]);
	KUNIT_EXPECT_PTR_EQ(test, &e->hqds[0], select_still(e, &slice));
	KUNIT_EXPECT_EQ(test, 0, tempo_hw_job_run_ns(job));
	tempo_hqd_fetch(&e->hqds[0]);
	KUNIT_EXPECT_PTR_EQ(test, job, e->hqds[0].save.job);
	e->run_gpu = NSEC_PER_MSEC;
	KUNIT_EXPECT_EQ(test, NSEC_PER_MSEC, tempo_hw_job_run_ns(job));
	KUNIT_EXPECT_EQ(test, 0, tempo_hw_job_run_ns(&other));
	tempo_hqd_ran(&e->hqds[0]);
	KUNIT_EXPECT_EQ(test, NSEC_PER_MSEC, tempo_hw_job_run_ns(job));
	KUNIT_EXPECT_EQ(test, NSEC_PER_MSEC, job->run_ns);
	KUNIT_EXPECT_EQ(test, NSEC_PER_MSEC, e->gpu_ns);
}

/*
 * The command processor's CPU time while it waits for compute units or a
 * gang is not the job's GPU time; the GPU time it adds for them (a
 * DISPATCH's, a modelled wait's) is.
 */
static void hqd_a_stall_counts_only_the_gpu_time_added(struct kunit *test)
{
	struct tempo_engine *e = fake_engine(test);
	u64 slice, cpu;

	give_work(&e->hqds[0]);
	KUNIT_EXPECT_PTR_EQ(test, &e->hqds[0], tempo_hqd_select(e, &slice));
	tempo_hqd_stall(e, true);
	cpu = e->gpu_pending;
	/* time while stalled: 20 ms of it */
	while (tempo_clock_thread() < e->work_mark + 20 * NSEC_PER_MSEC)
		cpu_relax();
	tempo_hqd_add_gpu(e, 7);
	tempo_hqd_stall(e, false);
	KUNIT_EXPECT_FALSE(test, tempo_hqd_should_yield(e, &e->hqds[0], 0));
	KUNIT_EXPECT_LE(test, cpu + 7, e->run_gpu);
	KUNIT_EXPECT_GT(test, cpu + 7 + 5 * NSEC_PER_MSEC, e->run_gpu);
}

/*
 * The engine's clock: its running time per rank (engine->ran_ns), from
 * which a job's engine wait is read, at times the cases give.
 */

/* Queues of the engine clock's cases, by priority. */
enum { Q_LOW, Q_NORMAL, Q_HIGH, Q_NORMAL2 };

#define PIPE_PRIO_LOW		(TEMPO_HW_PIPE_PRIO_NORMAL - 1)
#define CLOCK_RING_SIZE		4

/*
 * fake_engine() with a ring on each queue, Q_LOW at the low pipe priority
 * and Q_HIGH at the high one. No queue is ever starved: the queue
 * selected is the highest with work, however long a case takes.
 */
static struct tempo_engine *clock_engine(struct kunit *test)
{
	struct tempo_engine *e = fake_engine(test);
	u32 q;

	e->hw->config.starve_ns = U64_MAX;
	for (q = 0; q < e->num_hqds; q++) {
		struct tempo_mqd *mqd = &e->hqds[q].mqd;

		mqd->ring = kunit_kcalloc(test, CLOCK_RING_SIZE,
					  sizeof(*mqd->ring), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, mqd->ring);
		mqd->ring_size = CLOCK_RING_SIZE;
	}
	e->hqds[Q_LOW].mqd.pipe_priority = PIPE_PRIO_LOW;
	e->hqds[Q_HIGH].mqd.pipe_priority = TEMPO_HW_PIPE_PRIO_MAX;
	return e;
}

/* Software writes a new job into queue @q's ring at @now. */
static struct tempo_hw_job *queue_job(struct kunit *test,
				      struct tempo_engine *e, u32 q, u64 now)
{
	struct tempo_hw_hqd *hqd = &e->hqds[q];
	struct tempo_mqd *mqd = &hqd->mqd;
	struct tempo_hw_job *job = kunit_kzalloc(test, sizeof(*job),
						 GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, job);
	spin_lock_irq(&e->lock);
	tempo_hqd_start_engine_wait(e, hqd, job, now);
	mqd->ring[mqd->wptr & (mqd->ring_size - 1)] = job;
	mqd->wptr++;
	spin_unlock_irq(&e->lock);
	return job;
}

/*
 * The command processor selects queue @q, which must be the highest with
 * work, at @now and runs its job: the one saved by a preemption, or the
 * next in its ring.
 */
static struct tempo_hw_job *run_from(struct kunit *test,
				     struct tempo_engine *e, u32 q, u64 now)
{
	struct tempo_hw_hqd *hqd = &e->hqds[q];
	u64 slice;

	KUNIT_ASSERT_EQ(test, 0, e->run_gpu);
	e->gpu_ns = now;
	KUNIT_ASSERT_PTR_EQ(test, hqd, select_still(e, &slice));
	if (!hqd->save.job)
		tempo_hqd_fetch(hqd);
	return hqd->save.job;
}

/* It leaves queue @q at @now: its job is preempted, or @ended. */
static void run_until(struct tempo_engine *e, u32 q, u64 now, bool ended)
{
	struct tempo_hw_hqd *hqd = &e->hqds[q];

	e->run_gpu = now - e->gpu_ns;
	tempo_hqd_ran(hqd);
	if (ended) {
		hqd->save.job = NULL;
		hqd->mqd.rptr++;
	}
}

/*
 * Rule: a job waiting for its engine counts only the runs of its rank or
 * above; waiting for a lower queue's run is waiting for its preemption.
 * Counting every rank would report 500 ns (LOW's run too), counting the
 * LOW run in progress in the NORMAL job's mark 200 ns.
 */
static void hqd_a_waiting_job_counts_only_runs_of_its_rank_or_above(struct kunit *test)
{
	struct tempo_engine *e = clock_engine(test);
	struct tempo_hw_job *low, *job;

	low = queue_job(test, e, Q_LOW, 50);
	run_from(test, e, Q_LOW, 100);
	job = queue_job(test, e, Q_NORMAL, 200);
	queue_job(test, e, Q_HIGH, 200);
	run_until(e, Q_LOW, 300, false);
	run_from(test, e, Q_HIGH, 300);
	run_until(e, Q_HIGH, 600, true);
	KUNIT_EXPECT_PTR_EQ(test, job, run_from(test, e, Q_NORMAL, 600));
	KUNIT_EXPECT_EQ(test, 300, job->times.engine_wait_ns);
	/* the LOW job, preempted at 300, outranks neither run */
	run_until(e, Q_NORMAL, 900, true);
	KUNIT_EXPECT_PTR_EQ(test, low, run_from(test, e, Q_LOW, 900));
	KUNIT_EXPECT_EQ(test, 600, low->times.engine_wait_ns);
}

/*
 * Rule: a job that outranks the running one waits only for its
 * preemption, which is not counted. Counting the runs below its rank
 * would report 150 ns of the NORMAL run it preempts.
 */
static void hqd_a_job_that_preempts_reports_no_engine_wait(struct kunit *test)
{
	struct tempo_engine *e = clock_engine(test);
	struct tempo_hw_job *high;

	queue_job(test, e, Q_NORMAL, 50);
	run_from(test, e, Q_NORMAL, 100);
	high = queue_job(test, e, Q_HIGH, 200);
	KUNIT_EXPECT_TRUE(test, tempo_hqd_should_yield(e, &e->hqds[Q_NORMAL],
						       0));
	run_until(e, Q_NORMAL, 250, false);
	KUNIT_EXPECT_PTR_EQ(test, high, run_from(test, e, Q_HIGH, 250));
	KUNIT_EXPECT_EQ(test, 0, high->times.engine_wait_ns);
}

/*
 * Rule: a job queued during a run of its rank or above (here its own
 * queue's: equal ranks count) counts only the rest of that run. Leaving
 * the run in progress out of its mark would report the whole run, 300 ns.
 */
static void hqd_a_job_queued_during_a_run_counts_only_the_rest_of_it(struct kunit *test)
{
	struct tempo_engine *e = clock_engine(test);
	struct tempo_hw_job *second;

	queue_job(test, e, Q_NORMAL, 50);
	run_from(test, e, Q_NORMAL, 100);
	second = queue_job(test, e, Q_NORMAL, 250);
	run_until(e, Q_NORMAL, 400, true);
	KUNIT_EXPECT_PTR_EQ(test, second, run_from(test, e, Q_NORMAL, 400));
	KUNIT_EXPECT_EQ(test, 150, second->times.engine_wait_ns);
}

/*
 * Rule: a preempted job starts waiting again when its run ends and stops
 * when it is selected again, and each wait adds to the ones before.
 * Without a new mark at the preemption it would count its own run
 * (400 ns); without the end at its resumption, nothing; replacing instead
 * of adding, 50 ns at the second resumption.
 */
static void hqd_a_preempted_job_waits_again_until_it_resumes(struct kunit *test)
{
	struct tempo_engine *e = clock_engine(test);
	struct tempo_hw_job *job;

	job = queue_job(test, e, Q_NORMAL, 50);
	run_from(test, e, Q_NORMAL, 100);
	queue_job(test, e, Q_HIGH, 150);
	run_until(e, Q_NORMAL, 200, false);
	run_from(test, e, Q_HIGH, 200);
	run_until(e, Q_HIGH, 500, true);
	KUNIT_EXPECT_PTR_EQ(test, job, run_from(test, e, Q_NORMAL, 500));
	KUNIT_EXPECT_EQ(test, 300, job->times.engine_wait_ns);
	queue_job(test, e, Q_HIGH, 550);
	run_until(e, Q_NORMAL, 600, false);
	run_from(test, e, Q_HIGH, 600);
	run_until(e, Q_HIGH, 650, true);
	KUNIT_EXPECT_PTR_EQ(test, job, run_from(test, e, Q_NORMAL, 650));
	KUNIT_EXPECT_EQ(test, 350, job->times.engine_wait_ns);
}

/*
 * Rule: a run counted in a job's mark whose queue was lowered below the
 * job's rank before it ended is not counted: the engine's time at the
 * job's rank and above ends below the mark, and the wait stays 0 where a
 * subtraction would wrap to about 2^64.
 */
static void hqd_a_run_lowered_below_the_mark_counts_no_wait(struct kunit *test)
{
	struct tempo_engine *e = clock_engine(test);
	struct tempo_hw_job *job;

	queue_job(test, e, Q_NORMAL2, 50);
	run_from(test, e, Q_NORMAL2, 100);
	job = queue_job(test, e, Q_NORMAL, 200);
	/* as tempo_hw_hqd_set_priority() would, during the run */
	e->hqds[Q_NORMAL2].mqd.pipe_priority = PIPE_PRIO_LOW;
	run_until(e, Q_NORMAL2, 400, true);
	KUNIT_EXPECT_PTR_EQ(test, job, run_from(test, e, Q_NORMAL, 400));
	KUNIT_EXPECT_EQ(test, 0, job->times.engine_wait_ns);
}

/*
 * Rule: a job's engine wait is never longer than its wait: a run below
 * the job's rank when it was queued, raised to it before it ended,
 * counts only from the raise (at 1950 ns on the engine's clock): 250 ns.
 *
 * Counting the whole run at the rank its queue has when it ends adds it,
 * from before the job was queued, to the raised rank (1200 ns).
 */
static void hqd_a_raised_run_counts_no_more_than_the_wait(struct kunit *test)
{
	struct tempo_engine *e = clock_engine(test);
	struct tempo_hw_job *job;

	queue_job(test, e, Q_LOW, 0);
	run_from(test, e, Q_LOW, 1000);
	job = queue_job(test, e, Q_NORMAL, 1900);
	e->run_gpu = 1950 - e->gpu_ns;
	tempo_hw_hqd_set_priority(&e->hqds[Q_LOW], TEMPO_HW_PIPE_PRIO_NORMAL,
				  TEMPO_HW_QUEUE_PRIO_NORMAL);
	run_until(e, Q_LOW, 2200, true);
	KUNIT_EXPECT_PTR_EQ(test, job, run_from(test, e, Q_NORMAL, 2200));
	KUNIT_EXPECT_EQ(test, 250, job->times.engine_wait_ns);
}

/*
 * Rule: a run lowered below a waiting job's rank before it ended is not
 * counted (at most its part before the lowering, at 1800 ns: 300 ns), and
 * takes nothing from the runs after it: the job also counts the whole
 * HIGH run, 300 ns.
 *
 * Counting the whole run at the rank its queue has when it ends leaves
 * its part before the job was queued (500 ns) in the job's mark, taken off
 * the HIGH run: 0 ns.
 */
static void hqd_a_lowered_run_takes_nothing_from_later_waits(struct kunit *test)
{
	struct tempo_engine *e = clock_engine(test);
	struct tempo_hw_job *job;

	queue_job(test, e, Q_NORMAL2, 0);
	run_from(test, e, Q_NORMAL2, 1000);
	job = queue_job(test, e, Q_NORMAL, 1500);
	e->run_gpu = 1800 - e->gpu_ns;
	tempo_hw_hqd_set_priority(&e->hqds[Q_NORMAL2], PIPE_PRIO_LOW,
				  TEMPO_HW_QUEUE_PRIO_NORMAL);
	queue_job(test, e, Q_HIGH, 1900);
	run_until(e, Q_NORMAL2, 2000, true);
	run_from(test, e, Q_HIGH, 2000);
	run_until(e, Q_HIGH, 2300, true);
	KUNIT_EXPECT_PTR_EQ(test, job, run_from(test, e, Q_NORMAL, 2300));
	KUNIT_EXPECT_EQ(test, 600, job->times.engine_wait_ns);
}

TEMPO_KUNIT_SUITE(hqd, NULL, NULL,
		  KUNIT_CASE(hqd_arbitration),
		  KUNIT_CASE(hqd_preemption_and_aging),
		  KUNIT_CASE(hqd_equal_priorities_take_turns),
		  KUNIT_CASE(hqd_next_yield_is_the_first_decision_time_alone_makes),
		  KUNIT_CASE(hqd_running_time_is_the_fetched_jobs),
		  KUNIT_CASE(hqd_a_stall_counts_only_the_gpu_time_added),
		  KUNIT_CASE(hqd_a_waiting_job_counts_only_runs_of_its_rank_or_above),
		  KUNIT_CASE(hqd_a_job_that_preempts_reports_no_engine_wait),
		  KUNIT_CASE(hqd_a_job_queued_during_a_run_counts_only_the_rest_of_it),
		  KUNIT_CASE(hqd_a_preempted_job_waits_again_until_it_resumes),
		  KUNIT_CASE(hqd_a_run_lowered_below_the_mark_counts_no_wait),
		  KUNIT_CASE(hqd_a_raised_run_counts_no_more_than_the_wait),
		  KUNIT_CASE(hqd_a_lowered_run_takes_nothing_from_later_waits));
