// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The tempo authors
 *
 * KUnit tests of the pure parts of tempo: packet decoding, HQD
 * arbitration, priority mapping and parallel placement. Built into the
 * module on kernels with KUnit; the suites run when the module loads and
 * report in KTAP (dmesg, and /sys/kernel/debug/kunit/<suite>/results).
 */

#include <kunit/test.h>

#include <drm/tempo_drm.h>

#include "hw/tempo_hw_priv.h"
#include "tempo_drv.h"

static void pkt(struct tempo_packet *p, u32 op, u32 len)
{
	memset(p, 0, sizeof(*p));
	p->op = op;
	p->len = len;
	p->dw[0] = DRM_TEMPO_PKT_HEADER(op, len);
}

static int header(u32 dw)
{
	u32 op, len;

	return tempo_isa_check_header(dw, &op, &len);
}

static void isa_header(struct kunit *test)
{
	u32 op, len, nop = DRM_TEMPO_PKT_HEADER(DRM_TEMPO_PKT_NOP, 1);

	KUNIT_EXPECT_EQ(test, 0, tempo_isa_check_header(nop, &op, &len));
	KUNIT_EXPECT_EQ(test, (u32)DRM_TEMPO_PKT_NOP, op);
	KUNIT_EXPECT_EQ(test, 1u, len);
	/* reserved bits, unknown opcode, zero and oversized lengths */
	KUNIT_EXPECT_EQ(test, -EILSEQ, header(nop | 0x100));
	KUNIT_EXPECT_EQ(test, -EILSEQ,
			header(DRM_TEMPO_PKT_HEADER(DRM_TEMPO_PKT_WRITE_ENGINE_ID + 1, 1)));
	KUNIT_EXPECT_EQ(test, -EILSEQ,
			header(DRM_TEMPO_PKT_HEADER(DRM_TEMPO_PKT_NOP, 0)));
	KUNIT_EXPECT_EQ(test, -EILSEQ,
			header(DRM_TEMPO_PKT_HEADER(DRM_TEMPO_PKT_NOP,
						    TEMPO_HW_MAX_PACKET_DW + 1)));
}

static void isa_lengths(struct kunit *test)
{
	static const struct { u32 op, good, bad; } cases[] = {
		{ DRM_TEMPO_PKT_WRITE_DATA, 4, 3 },
		{ DRM_TEMPO_PKT_WRITE_TIMESTAMP, 3, 4 },
		{ DRM_TEMPO_PKT_COPY, 6, 5 },
		{ DRM_TEMPO_PKT_FILL, 5, 6 },
		{ DRM_TEMPO_PKT_ATOMIC, 6, 7 },
		{ DRM_TEMPO_PKT_WAIT_MEM, 8, 7 },
		{ DRM_TEMPO_PKT_BATCH_START, 4, 3 },
		{ DRM_TEMPO_PKT_END, 1, 2 },
		{ DRM_TEMPO_PKT_WRITE_ENGINE_ID, 3, 2 },
	};
	struct tempo_packet p;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		pkt(&p, cases[i].op, cases[i].good);
		KUNIT_EXPECT_EQ_MSG(test, 0,
				    tempo_isa_check_packet(&p, TEMPO_HW_CLASS_GFX),
				    "op %u", cases[i].op);
		pkt(&p, cases[i].op, cases[i].bad);
		KUNIT_EXPECT_EQ_MSG(test, -EILSEQ,
				    tempo_isa_check_packet(&p, TEMPO_HW_CLASS_GFX),
				    "op %u", cases[i].op);
	}
}

static void isa_fields(struct kunit *test)
{
	struct tempo_packet p;

	pkt(&p, DRM_TEMPO_PKT_ATOMIC, 6);
	p.dw[3] = DRM_TEMPO_ATOMIC_INC;
	p.dw[4] = 1;	/* INC takes no value */
	KUNIT_EXPECT_EQ(test, -EILSEQ, tempo_isa_check_packet(&p, 0));
	p.dw[3] = 7;	/* unknown op */
	p.dw[4] = 0;
	KUNIT_EXPECT_EQ(test, -EILSEQ, tempo_isa_check_packet(&p, 0));
	pkt(&p, DRM_TEMPO_PKT_WAIT_MEM, 8);
	p.dw[3] = DRM_TEMPO_COMPARE_GE + 1;
	KUNIT_EXPECT_EQ(test, -EILSEQ, tempo_isa_check_packet(&p, 0));
	pkt(&p, DRM_TEMPO_PKT_BATCH_START, 4);
	p.dw[3] = DRM_TEMPO_BATCH_CHAIN << 1;
	KUNIT_EXPECT_EQ(test, -EILSEQ, tempo_isa_check_packet(&p, 0));
}

static void isa_dispatch(struct kunit *test)
{
	struct tempo_packet p;

	pkt(&p, DRM_TEMPO_PKT_DISPATCH, 6);
	p.dw[1] = DRM_TEMPO_KERNEL_SPIN;
	p.dw[2] = 2;
	p.dw[3] = 3;
	p.dw[4] = 4;
	KUNIT_EXPECT_EQ(test, 0, tempo_isa_check_packet(&p, TEMPO_HW_CLASS_COMPUTE));
	/* no DISPATCH on a copy engine */
	KUNIT_EXPECT_EQ(test, -EILSEQ, tempo_isa_check_packet(&p, TEMPO_HW_CLASS_COPY));
	/* wrong argument count for the kernel */
	p.dw[1] = DRM_TEMPO_KERNEL_COPY;
	KUNIT_EXPECT_EQ(test, -EILSEQ, tempo_isa_check_packet(&p, TEMPO_HW_CLASS_COMPUTE));
	/* zero groups, and a product that wraps 32 bits */
	p.dw[1] = DRM_TEMPO_KERNEL_SPIN;
	p.dw[3] = 0;
	KUNIT_EXPECT_EQ(test, -EILSEQ, tempo_isa_check_packet(&p, TEMPO_HW_CLASS_COMPUTE));
	p.dw[2] = 0x10000;
	p.dw[3] = 0x10000;
	p.dw[4] = 1;
	KUNIT_EXPECT_EQ(test, -EILSEQ, tempo_isa_check_packet(&p, TEMPO_HW_CLASS_COMPUTE));
}

static void isa_compare(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, tempo_isa_compare(DRM_TEMPO_COMPARE_EQ, 5, 5));
	KUNIT_EXPECT_FALSE(test, tempo_isa_compare(DRM_TEMPO_COMPARE_NE, 5, 5));
	KUNIT_EXPECT_TRUE(test, tempo_isa_compare(DRM_TEMPO_COMPARE_LT, 4, 5));
	KUNIT_EXPECT_TRUE(test, tempo_isa_compare(DRM_TEMPO_COMPARE_LE, 5, 5));
	KUNIT_EXPECT_TRUE(test, tempo_isa_compare(DRM_TEMPO_COMPARE_GT, ~0ull, 5));
	KUNIT_EXPECT_FALSE(test, tempo_isa_compare(DRM_TEMPO_COMPARE_GE, 4, 5));
	KUNIT_EXPECT_FALSE(test, tempo_isa_compare(99, 5, 5));
}

static struct kunit_case tempo_isa_cases[] = {
	KUNIT_CASE(isa_header),
	KUNIT_CASE(isa_lengths),
	KUNIT_CASE(isa_fields),
	KUNIT_CASE(isa_dispatch),
	KUNIT_CASE(isa_compare),
	{}
};

static struct kunit_suite tempo_isa_suite = {
	.name = "tempo_isa",
	.test_cases = tempo_isa_cases,
};

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
	init_waitqueue_head(&e->wq);
	e->num_hqds = 4;
	for (q = 0; q < 4; q++) {
		e->hqds[q].engine = e;
		e->hqds[q].index = q;
		e->hqds[q].mqd.active = true;
		e->hqds[q].mqd.pipe_priority = 1;
		e->hqds[q].mqd.queue_priority = 7;
	}
	return e;
}

static void give_work(struct tempo_hw_hqd *hqd)
{
	hqd->mqd.wptr = hqd->mqd.rptr + 1;
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
	e->hqds[0].waiting_since = ktime_get_ns() - 200 * NSEC_PER_MSEC;
	KUNIT_EXPECT_TRUE(test, tempo_hqd_should_yield(e, &e->hqds[2], 0));
	KUNIT_EXPECT_PTR_EQ(test, &e->hqds[0], tempo_hqd_select(e, &slice));
	/* and then keeps a timeslice */
	KUNIT_EXPECT_NE(test, 0ull, slice);
	KUNIT_EXPECT_FALSE(test, tempo_hqd_should_yield(e, &e->hqds[0], slice));
}

static struct kunit_case tempo_hqd_cases[] = {
	KUNIT_CASE(hqd_arbitration),
	KUNIT_CASE(hqd_preemption_and_aging),
	{}
};

static struct kunit_suite tempo_hqd_suite = {
	.name = "tempo_hqd",
	.test_cases = tempo_hqd_cases,
};

static struct tempo_device *fake_device(struct kunit *test, u32 policy)
{
	struct tempo_device *tdev = kunit_kzalloc(test, sizeof(*tdev),
						  GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, tdev);
	tdev->hqd_policy = policy;
	return tdev;
}

static void priority_static(struct kunit *test)
{
	struct tempo_device *tdev = fake_device(test, TEMPO_HQD_STATIC);
	struct tempo_prio p;

	p = tempo_priority_map(tdev, DRM_TEMPO_PRIORITY_VERY_LOW);
	KUNIT_EXPECT_EQ(test, TEMPO_SCHED_PRIORITY_LOW, p.sched);
	KUNIT_EXPECT_FALSE(test, p.high);
	p = tempo_priority_map(tdev, DRM_TEMPO_PRIORITY_NORMAL);
	KUNIT_EXPECT_EQ(test, DRM_SCHED_PRIORITY_NORMAL, p.sched);
	KUNIT_EXPECT_EQ(test, 1, p.pipe);
	KUNIT_EXPECT_EQ(test, 7, p.queue);
	p = tempo_priority_map(tdev, 1);
	KUNIT_EXPECT_EQ(test, DRM_SCHED_PRIORITY_HIGH, p.sched);
	KUNIT_EXPECT_TRUE(test, p.high);
	KUNIT_EXPECT_EQ(test, 2, p.pipe);
	KUNIT_EXPECT_EQ(test, 15, p.queue);
}

static void priority_dynamic(struct kunit *test)
{
	struct tempo_device *tdev = fake_device(test, TEMPO_HQD_DYNAMIC);
	s32 prio;
	u8 last = 0;

	KUNIT_EXPECT_EQ(test, 0, tempo_priority_map(tdev, -1023).queue);
	KUNIT_EXPECT_EQ(test, 15, tempo_priority_map(tdev, 1023).queue);
	/* monotonic, and the pipe priority follows the queue priority */
	for (prio = -1023; prio <= 1023; prio++) {
		struct tempo_prio p = tempo_priority_map(tdev, prio);

		KUNIT_EXPECT_GE(test, p.queue, last);
		KUNIT_EXPECT_EQ(test, p.pipe,
				p.queue <= 6 ? 0 : p.queue <= 10 ? 1 : 2);
		last = p.queue;
	}
}

static struct kunit_case tempo_priority_cases[] = {
	KUNIT_CASE(priority_static),
	KUNIT_CASE(priority_dynamic),
	{}
};

static struct kunit_suite tempo_priority_suite = {
	.name = "tempo_priority",
	.test_cases = tempo_priority_cases,
};

static void placement(struct kunit *test)
{
	struct tempo_device *tdev = kunit_kzalloc(test, sizeof(*tdev),
						  GFP_KERNEL);
	struct tempo_engine_desc e[4];
	struct tempo_engine_desc *cols[8];

	KUNIT_ASSERT_NOT_NULL(test, tdev);
	tdev->engines = e;
	tdev->num_engines = 4;
	/* the RFC's second example: two batches over three engines */
	cols[0] = &e[0]; cols[1] = &e[1]; cols[2] = &e[2];
	cols[3] = &e[0]; cols[4] = &e[1]; cols[5] = &e[2];
	KUNIT_EXPECT_TRUE(test, tempo_map_placeable(tdev, cols, 2, 3));
	/* two batches, one same engine each: impossible */
	cols[0] = &e[0]; cols[1] = &e[0];
	KUNIT_EXPECT_FALSE(test, tempo_map_placeable(tdev, cols, 2, 1));
	/* three batches over two engines: impossible */
	cols[0] = &e[0]; cols[1] = &e[1];
	cols[2] = &e[0]; cols[3] = &e[1];
	cols[4] = &e[0]; cols[5] = &e[1];
	KUNIT_EXPECT_FALSE(test, tempo_map_placeable(tdev, cols, 3, 2));
	/* a matching that needs backtracking */
	cols[0] = &e[0]; cols[1] = &e[1];
	cols[2] = &e[0]; cols[3] = &e[0];
	KUNIT_EXPECT_TRUE(test, tempo_map_placeable(tdev, cols, 2, 2));
}

static struct kunit_case tempo_map_cases[] = {
	KUNIT_CASE(placement),
	{}
};

static struct kunit_suite tempo_map_suite = {
	.name = "tempo_map",
	.test_cases = tempo_map_cases,
};

kunit_test_suites(&tempo_isa_suite, &tempo_hqd_suite, &tempo_priority_suite,
		  &tempo_map_suite);
