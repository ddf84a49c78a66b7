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

TEMPO_KUNIT_SUITE(cu, NULL, NULL,
		  KUNIT_CASE(cu_sequencer_serves_the_highest_queue_first),
		  KUNIT_CASE(cu_sequencer_at_random_serves_every_queue),
		  KUNIT_CASE(cu_reservation_keeps_cus_for_a_high_queue));
