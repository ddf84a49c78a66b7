// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The tempo authors
 *
 * KUnit suite of the CU sequencer (tempo_cu.c): which queued dispatch the
 * next idle compute unit serves, on a pool without CU threads.
 */

#include <kunit/test.h>

#include "../tempo_kunit.h"
#include "tempo_hw_priv.h"

/* Queues at LOW, NORMAL and HIGH programming, and one more NORMAL one. */
enum { LOW, NORMAL, HIGH, NORMAL2, NUM_QUEUES };

/* Queue priorities within the normal pipe priority: below and above NORMAL. */
#define QUEUE_PRIO_LOW		(TEMPO_HW_QUEUE_PRIO_NORMAL - 4)
#define QUEUE_PRIO_RAISED	(TEMPO_HW_QUEUE_PRIO_NORMAL + 4)

struct cu_fixture {
	struct tempo_cu_pool pool;
	struct tempo_hw_hqd hqd[NUM_QUEUES];
	struct tempo_dispatch d[NUM_QUEUES];
};

static struct cu_fixture *fake_pool(struct kunit *test, u32 reserved,
				    bool by_priority)
{
	static const u32 pipe[] = {
		TEMPO_HW_PIPE_PRIO_NORMAL, TEMPO_HW_PIPE_PRIO_NORMAL,
		TEMPO_HW_PIPE_PRIO_MAX, TEMPO_HW_PIPE_PRIO_NORMAL,
	};
	static const u32 queue[] = {
		QUEUE_PRIO_LOW, TEMPO_HW_QUEUE_PRIO_NORMAL,
		TEMPO_HW_QUEUE_PRIO_MAX, TEMPO_HW_QUEUE_PRIO_NORMAL,
	};
	struct cu_fixture *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, f);
	spin_lock_init(&f->pool.lock);
	INIT_LIST_HEAD(&f->pool.queue);
	f->pool.num_cus = 4;
	f->pool.reserved = reserved;
	f->pool.by_priority = by_priority;
	for (i = 0; i < NUM_QUEUES; i++) {
		f->hqd[i].index = i;
		f->hqd[i].mqd.pipe_priority = pipe[i];
		f->hqd[i].mqd.queue_priority = queue[i];
		f->d[i].hqd = &f->hqd[i];
		INIT_LIST_HEAD(&f->d[i].link);
	}
	return f;
}

static void queue_dispatch(struct cu_fixture *f, int i)
{
	f->d[i].seq = f->pool.next_seq++;
	list_add_tail(&f->d[i].link, &f->pool.queue);
}

static struct tempo_dispatch *pick(struct cu_fixture *f)
{
	struct tempo_dispatch *d;

	spin_lock(&f->pool.lock);
	d = tempo_cu_pick(&f->pool);
	spin_unlock(&f->pool.lock);
	return d;
}

static void cu_sequencer_serves_the_highest_queue_first(struct kunit *test)
{
	struct cu_fixture *f = fake_pool(test, 0, true);

	KUNIT_EXPECT_NULL(test, pick(f));
	queue_dispatch(f, LOW);
	queue_dispatch(f, NORMAL);
	queue_dispatch(f, NORMAL2);
	queue_dispatch(f, HIGH);
	KUNIT_EXPECT_PTR_EQ(test, &f->d[HIGH], pick(f));
	list_del_init(&f->d[HIGH].link);
	/* among equals, the dispatch that came first */
	KUNIT_EXPECT_PTR_EQ(test, &f->d[NORMAL], pick(f));
	list_del_init(&f->d[NORMAL].link);
	KUNIT_EXPECT_PTR_EQ(test, &f->d[NORMAL2], pick(f));
	list_del_init(&f->d[NORMAL2].link);
	KUNIT_EXPECT_PTR_EQ(test, &f->d[LOW], pick(f));
	/* a queue's priority is read at each pick: raising it counts at once */
	queue_dispatch(f, NORMAL);
	f->hqd[LOW].mqd.queue_priority = QUEUE_PRIO_RAISED;
	KUNIT_EXPECT_PTR_EQ(test, &f->d[LOW], pick(f));
}

static void cu_sequencer_at_random_serves_every_queue(struct kunit *test)
{
	struct cu_fixture *f = fake_pool(test, 0, false);
	u32 low = 0, high = 0, i;
	struct tempo_dispatch *d;

	queue_dispatch(f, LOW);
	queue_dispatch(f, HIGH);
	for (i = 0; i < 256; i++) {
		d = pick(f);
		KUNIT_ASSERT_TRUE(test, d == &f->d[LOW] || d == &f->d[HIGH]);
		if (d == &f->d[LOW])
			low++;
		else
			high++;
	}
	/* each side is missed 256 times in a row with probability 2^-256 */
	KUNIT_EXPECT_GT(test, low, 0);
	KUNIT_EXPECT_GT(test, high, 0);
}

static void cu_reservation_keeps_cus_for_a_high_queue(struct kunit *test)
{
	struct cu_fixture *f = fake_pool(test, 2, true);

	queue_dispatch(f, LOW);
	/* no high queue has work: low work may take every CU */
	f->pool.busy_low = 3;
	KUNIT_EXPECT_PTR_EQ(test, &f->d[LOW], pick(f));
	/* one has: low work stops short of the last two CUs */
	f->pool.high_queues = 1;
	f->pool.busy_low = 1;
	KUNIT_EXPECT_PTR_EQ(test, &f->d[LOW], pick(f));
	f->pool.busy_low = 2;
	KUNIT_EXPECT_NULL(test, pick(f));
	/* and they are there for the high queue's dispatch */
	queue_dispatch(f, HIGH);
	KUNIT_EXPECT_PTR_EQ(test, &f->d[HIGH], pick(f));
	/* NORMAL is low work too: only the top pipe priority is high */
	list_del_init(&f->d[HIGH].link);
	queue_dispatch(f, NORMAL);
	KUNIT_EXPECT_NULL(test, pick(f));
	/* with nothing reserved, low work takes the last CU */
	f->pool.reserved = 0;
	f->pool.busy_low = 3;
	KUNIT_EXPECT_PTR_EQ(test, &f->d[NORMAL], pick(f));
}

/*
 * A queue on a starvation slice holds its engine until its slice's GPU
 * time is done, and a dispatch waiting for a CU makes none: the
 * sequencer serves it before any higher queue, under either policy, but
 * not on the CUs kept for high-priority work.
 */
static void cu_sequencer_serves_a_starved_queue_first(struct kunit *test)
{
	struct cu_fixture *f = fake_pool(test, 2, true);
	int i;

	queue_dispatch(f, HIGH);
	queue_dispatch(f, NORMAL);
	queue_dispatch(f, LOW);
	f->d[LOW].starved = true;
	KUNIT_EXPECT_PTR_EQ(test, &f->d[LOW], pick(f));
	/* among starved ones, the one that came first */
	f->d[NORMAL].starved = true;
	KUNIT_EXPECT_PTR_EQ(test, &f->d[NORMAL], pick(f));
	f->d[NORMAL].starved = false;
	f->pool.by_priority = false;
	for (i = 0; i < 64; i++)
		KUNIT_EXPECT_PTR_EQ(test, &f->d[LOW], pick(f));
	/* the reserved CUs stay the high queue's */
	f->pool.by_priority = true;
	f->pool.high_queues = 1;
	f->pool.busy_low = 2;
	KUNIT_EXPECT_PTR_EQ(test, &f->d[HIGH], pick(f));
}

/*
 * The full clocks: time during which a low or a high dispatch waits for a
 * CU by right, at times the cases give. The pool's occupancy is set by
 * hand (other dispatches' workgroups); a fixture dispatch's own workgroups
 * take and give back CUs as cu_take() and cu_put() do.
 */

/* At @now: @busy CUs run workgroups, @busy_low of them low ones. */
static void occupy(struct cu_fixture *f, u32 busy, u32 busy_low,
		   u32 high_queues, u64 now)
{
	spin_lock(&f->pool.lock);
	f->pool.busy = busy;
	f->pool.busy_low = busy_low;
	f->pool.high_queues = high_queues;
	tempo_cu_pool_changed(&f->pool, now);
	spin_unlock(&f->pool.lock);
}

/* Dispatch @i is queued at @now, none of its workgroups running. */
static void wait_from(struct cu_fixture *f, int i, u64 now)
{
	spin_lock(&f->pool.lock);
	queue_dispatch(f, i);
	tempo_cu_wait_start(&f->pool, &f->d[i], now);
	spin_unlock(&f->pool.lock);
}

/* What tempo_cu_dispatch_usage() reports of dispatch @i's wait at @now. */
static u64 waited(struct cu_fixture *f, int i, u64 now)
{
	u64 ns;

	spin_lock(&f->pool.lock);
	ns = tempo_cu_wait_so_far(&f->pool, &f->d[i], now);
	spin_unlock(&f->pool.lock);
	return ns;
}

/* A workgroup of dispatch @i takes a CU at @now. */
static void take(struct cu_fixture *f, int i, u64 now)
{
	struct tempo_dispatch *d = &f->d[i];

	spin_lock(&f->pool.lock);
	tempo_cu_wait_end(&f->pool, d, now);
	d->running++;
	f->pool.busy++;
	if (!tempo_hqd_is_high(d->hqd))
		f->pool.busy_low++;
	tempo_cu_pool_changed(&f->pool, now);
	spin_unlock(&f->pool.lock);
}

/* It stops at @now, preempted, and dispatch @i waits again. */
static void park(struct cu_fixture *f, int i, u64 now)
{
	struct tempo_dispatch *d = &f->d[i];

	spin_lock(&f->pool.lock);
	d->running--;
	f->pool.busy--;
	if (!tempo_hqd_is_high(d->hqd))
		f->pool.busy_low--;
	tempo_cu_pool_changed(&f->pool, now);
	tempo_cu_wait_start(&f->pool, d, now);
	spin_unlock(&f->pool.lock);
}

/*
 * Rule: a low dispatch waits by right while every CU is busy, or while a
 * high queue has work and low work holds all CUs but the reserved ones.
 * Without the reservation it would report 300 ns; a clock that ran the
 * whole wait, 900 ns.
 */
static void cu_a_low_dispatch_waits_by_right_only_while_no_cu_is_left_for_it(struct kunit *test)
{
	struct cu_fixture *f = fake_pool(test, 1, true);

	occupy(f, 3, 3, 0, 100);	/* a CU is free */
	wait_from(f, LOW, 100);
	occupy(f, 4, 4, 0, 200);	/* none */
	occupy(f, 3, 3, 0, 500);	/* one again */
	occupy(f, 3, 3, 1, 600);	/* reserved for a high queue */
	KUNIT_EXPECT_EQ(test, 500, waited(f, LOW, 800));
	occupy(f, 3, 3, 0, 900);	/* the high queue is done */
	KUNIT_EXPECT_EQ(test, 600, waited(f, LOW, 1000));
}

/*
 * Rule: a high dispatch may have the reserved CUs back from low work at
 * once: it waits by right only once every CU is busy and high work holds
 * the reserved ones. Under the low dispatches' rule it would report
 * 650 ns, not 400; low work, which waited by right all along, does.
 */
static void cu_a_high_dispatch_waits_once_high_work_holds_the_reserved_cus(struct kunit *test)
{
	struct cu_fixture *f = fake_pool(test, 2, true);

	/* low work holds every CU; this and another high queue have work */
	occupy(f, 4, 4, 2, 100);
	wait_from(f, HIGH, 100);
	wait_from(f, NORMAL, 100);
	/* the other high queue's workgroups take the reserved CUs back */
	occupy(f, 4, 3, 2, 200);
	occupy(f, 4, 2, 2, 300);
	occupy(f, 3, 2, 2, 700);	/* one of them ends */
	KUNIT_EXPECT_EQ(test, 400, waited(f, HIGH, 750));
	KUNIT_EXPECT_EQ(test, 650, waited(f, NORMAL, 750));
}

/*
 * Rule: a high dispatch has back at most min(reserved, CUs) CUs. With
 * none reserved it waits by right as soon as every CU is busy; with more
 * reserved than the pool has, once high work holds every CU (without the
 * min, never: 0 ns).
 */
static void cu_a_high_dispatch_has_back_only_the_reserved_cus_there_are(struct kunit *test)
{
	struct cu_fixture *none = fake_pool(test, 0, true);
	struct cu_fixture *all = fake_pool(test, 6, true);

	occupy(none, 4, 4, 1, 100);
	wait_from(none, HIGH, 100);
	KUNIT_EXPECT_EQ(test, 300, waited(none, HIGH, 400));

	occupy(all, 4, 1, 2, 100);
	wait_from(all, HIGH, 100);
	occupy(all, 4, 0, 2, 200);
	KUNIT_EXPECT_EQ(test, 200, waited(all, HIGH, 400));
}

/*
 * Rule: a dispatch's wait is what the full clock ran while it had
 * workgroups queued and none running, the wait in progress included. A
 * wait counted from the clock's start would report 300 ns at 400; a wait
 * not ended when its workgroup runs, 480 ns at 800.
 */
static void cu_a_dispatch_counts_the_full_clock_only_while_it_waits(struct kunit *test)
{
	struct cu_fixture *f = fake_pool(test, 0, true);

	occupy(f, 4, 4, 0, 100);
	wait_from(f, NORMAL, 300);
	KUNIT_EXPECT_EQ(test, 100, waited(f, NORMAL, 400));
	occupy(f, 3, 3, 0, 500);
	take(f, NORMAL, 520);
	KUNIT_EXPECT_EQ(test, 200, waited(f, NORMAL, 800));
	park(f, NORMAL, 900);
	occupy(f, 4, 4, 0, 1000);
	KUNIT_EXPECT_EQ(test, 300, waited(f, NORMAL, 1100));
}

TEMPO_KUNIT_SUITE(cu, NULL, NULL,
		  KUNIT_CASE(cu_sequencer_serves_the_highest_queue_first),
		  KUNIT_CASE(cu_sequencer_at_random_serves_every_queue),
		  KUNIT_CASE(cu_reservation_keeps_cus_for_a_high_queue),
		  KUNIT_CASE(cu_sequencer_serves_a_starved_queue_first),
		  KUNIT_CASE(cu_a_low_dispatch_waits_by_right_only_while_no_cu_is_left_for_it),
		  KUNIT_CASE(cu_a_high_dispatch_waits_once_high_work_holds_the_reserved_cus),
		  KUNIT_CASE(cu_a_high_dispatch_has_back_only_the_reserved_cus_there_are),
		  KUNIT_CASE(cu_a_dispatch_counts_the_full_clock_only_while_it_waits));
