// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The tempo authors
 *
 * KUnit tests of the parts of tempo that run without a device: packet
 * decoding, HQD arbitration, priority mapping, parallel placement, the GPU
 * VA space and memory accesses through it, and drm_sched driven over a
 * mock backend the way tempo's scheduler glue drives an HQD. Built into
 * the module on kernels with KUnit; the suites run when the module loads
 * and report in KTAP (dmesg, and /sys/kernel/debug/kunit/<suite>/results).
 */

#include <linux/delay.h>
#include <linux/dma-fence.h>
#include <linux/wait.h>

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
	/* and then keeps a timeslice (not over yet: a slow kernel may take
	 * longer than one to get here)
	 */
	KUNIT_EXPECT_NE(test, 0ull, slice);
	KUNIT_EXPECT_FALSE(test, tempo_hqd_should_yield(e, &e->hqds[0],
							ktime_get_ns() + NSEC_PER_SEC));
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

/*
 * An address space with mappings of kernel memory standing for buffers,
 * placed through the same checks and drm_mm calls as DRM_IOCTL_TEMPO_VM_MAP.
 */
#define VM_MAX_MAPPINGS	4

struct vm_fixture {
	struct tempo_device *tdev;
	struct tempo_vm *vm;
	u32 num_mappings;
	struct tempo_mapping mappings[VM_MAX_MAPPINGS];
};

static int vm_init(struct kunit *test)
{
	struct vm_fixture *fx = kunit_kzalloc(test, sizeof(*fx), GFP_KERNEL);

	if (!fx)
		return -ENOMEM;
	test->priv = fx;
	fx->tdev = kunit_kzalloc(test, sizeof(*fx->tdev), GFP_KERNEL);
	fx->vm = tempo_vm_create();
	return fx->tdev && fx->vm ? 0 : -ENOMEM;
}

static void vm_exit(struct kunit *test)
{
	struct vm_fixture *fx = test->priv;
	u32 i;

	if (!fx || !fx->vm)
		return;
	for (i = 0; i < fx->num_mappings; i++) {
		struct tempo_mapping *m = &fx->mappings[i];

		if (drm_mm_node_allocated(&m->node))
			tempo_vm_unmap_kunit(fx->vm, m->node.start, m->node.size);
	}
	tempo_vm_put(fx->vm);
}

/* Map @size bytes at @bo_offset of a new buffer at @va; *@buf: the buffer. */
static int vm_try_map(struct kunit *test, u64 va, u64 size, u64 bo_offset,
		      u32 flags, u8 **buf)
{
	struct vm_fixture *fx = test->priv;
	struct drm_tempo_vm_map args = {
		.va = va,
		.size = size,
		.bo_offset = bo_offset,
		.flags = flags,
	};
	size_t bo_size = PAGE_ALIGN(bo_offset + size);
	struct tempo_mapping *m;
	int ret;

	KUNIT_ASSERT_LT(test, fx->num_mappings, VM_MAX_MAPPINGS);
	m = &fx->mappings[fx->num_mappings];
	*buf = kunit_kzalloc(test, bo_size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, *buf);
	ret = tempo_vm_map_kunit(fx->tdev, fx->vm, m, *buf, bo_size, &args);
	if (!ret) {
		fx->num_mappings++;
		KUNIT_EXPECT_EQ(test, args.va, m->node.start);
	}
	return ret;
}

static u8 *vm_map(struct kunit *test, u64 va, u64 size, u32 flags)
{
	u8 *buf;

	KUNIT_ASSERT_EQ(test, 0, vm_try_map(test, va, size, 0, flags, &buf));
	return buf;
}

/* The CPU address the MMU gives for [va, va + len), or NULL. */
static void *vm_xlate(struct kunit *test, u64 va, u32 len, bool write)
{
	struct tempo_hw_mmu *mmu = &((struct vm_fixture *)test->priv)->vm->mmu;
	void *p;

	mmu->ops->lock(mmu);
	p = mmu->ops->translate(mmu, va, len, write);
	mmu->ops->unlock(mmu);
	return p;
}

static struct tempo_hw_mmu *vm_mmu(struct kunit *test)
{
	return &((struct vm_fixture *)test->priv)->vm->mmu;
}

#define VA(page)	(TEMPO_VA_START + (u64)(page) * PAGE_SIZE)

static void vm_lookup_at_mapping_bounds(struct kunit *test)
{
	u64 start = VA(16), size = 2 * PAGE_SIZE, end = start + size;
	u8 *buf = vm_map(test, start, size, 0);

	KUNIT_EXPECT_PTR_EQ(test, buf, vm_xlate(test, start, 1, false));
	KUNIT_EXPECT_PTR_EQ(test, buf + PAGE_SIZE,
			    vm_xlate(test, start + PAGE_SIZE, 1, true));
	KUNIT_EXPECT_PTR_EQ(test, buf + size - 1,
			    vm_xlate(test, end - 1, 1, false));
	KUNIT_EXPECT_NULL(test, vm_xlate(test, end, 1, false));
	KUNIT_EXPECT_NULL(test, vm_xlate(test, start - 1, 1, false));
}

static void vm_access_may_not_run_past_mapping_end(struct kunit *test)
{
	u64 start = VA(16), end = start + PAGE_SIZE;
	u8 *buf = vm_map(test, start, PAGE_SIZE, 0);

	KUNIT_EXPECT_PTR_EQ(test, buf + PAGE_SIZE - 8,
			    vm_xlate(test, end - 8, 8, false));
	KUNIT_EXPECT_NULL(test, vm_xlate(test, end - 4, 8, false));
	KUNIT_EXPECT_NULL(test, vm_xlate(test, end - 1, 2, true));
	/* huge lengths must not wrap the bound check */
	KUNIT_EXPECT_NULL(test, vm_xlate(test, start, U32_MAX, false));
}

static void vm_holes_and_foreign_addresses_are_unmapped(struct kunit *test)
{
	static const u64 outside[] = {
		0, TEMPO_VA_START - 1, TEMPO_VA_END, TEMPO_VA_END + PAGE_SIZE,
		U64_MAX - PAGE_SIZE + 1, U64_MAX,
	};
	u32 i;

	KUNIT_EXPECT_NULL(test, vm_xlate(test, TEMPO_VA_START, 1, false));
	vm_map(test, VA(0), PAGE_SIZE, 0);
	vm_map(test, VA(2), PAGE_SIZE, 0);
	/* the page between the two mappings */
	KUNIT_EXPECT_NULL(test, vm_xlate(test, VA(1), 1, false));
	KUNIT_EXPECT_NULL(test, vm_xlate(test, VA(2) - 1, 1, false));
	KUNIT_EXPECT_NOT_NULL(test, vm_xlate(test, VA(2), 1, false));
	/* past the last mapping, and addresses the VA space never has */
	KUNIT_EXPECT_NULL(test, vm_xlate(test, VA(3), 1, false));
	for (i = 0; i < ARRAY_SIZE(outside); i++)
		KUNIT_EXPECT_NULL_MSG(test, vm_xlate(test, outside[i], 1, false),
				      "va %#llx", outside[i]);
}

static void vm_top_of_va_space_maps(struct kunit *test)
{
	u8 *buf = vm_map(test, TEMPO_VA_END - PAGE_SIZE, PAGE_SIZE, 0);

	KUNIT_EXPECT_PTR_EQ(test, buf + PAGE_SIZE - 1,
			    vm_xlate(test, TEMPO_VA_END - 1, 1, false));
	KUNIT_EXPECT_NULL(test, vm_xlate(test, TEMPO_VA_END - 1, 2, false));
	KUNIT_EXPECT_NULL(test, vm_xlate(test, TEMPO_VA_END, 1, false));
}

static void vm_bad_map_arguments_are_refused(struct kunit *test)
{
	u8 *buf;

	KUNIT_EXPECT_EQ(test, -EINVAL, vm_try_map(test, VA(1) + 8, PAGE_SIZE, 0, 0, &buf));
	KUNIT_EXPECT_EQ(test, -EINVAL, vm_try_map(test, VA(1), PAGE_SIZE - 8, 0, 0, &buf));
	KUNIT_EXPECT_EQ(test, -EINVAL, vm_try_map(test, VA(1), 0, 0, 0, &buf));
	KUNIT_EXPECT_EQ(test, -EINVAL, vm_try_map(test, VA(1), PAGE_SIZE, 8, 0, &buf));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			vm_try_map(test, TEMPO_VA_START - PAGE_SIZE, PAGE_SIZE, 0, 0, &buf));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			vm_try_map(test, TEMPO_VA_END - PAGE_SIZE, 2 * PAGE_SIZE, 0, 0, &buf));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			vm_try_map(test, U64_MAX & PAGE_MASK, PAGE_SIZE, 0, 0, &buf));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			vm_try_map(test, VA(1), PAGE_SIZE, 0, DRM_TEMPO_VM_MAP_AUTO_VA, &buf));
	KUNIT_EXPECT_NULL(test, vm_xlate(test, VA(1), 1, false));
}

static void vm_overlapping_map_is_refused(struct kunit *test)
{
	u8 *buf;

	vm_map(test, VA(4), 2 * PAGE_SIZE, 0);
	KUNIT_EXPECT_EQ(test, -ENOSPC, vm_try_map(test, VA(5), PAGE_SIZE, 0, 0, &buf));
	KUNIT_EXPECT_EQ(test, -ENOSPC, vm_try_map(test, VA(3), 2 * PAGE_SIZE, 0, 0, &buf));
	/* touching is not overlapping */
	KUNIT_EXPECT_EQ(test, 0, vm_try_map(test, VA(6), PAGE_SIZE, 0, 0, &buf));
}

static void vm_auto_va_and_buffer_offset(struct kunit *test)
{
	struct vm_fixture *fx = test->priv;
	struct tempo_mapping *m;
	u8 *buf;

	vm_map(test, VA(0), PAGE_SIZE, 0);
	KUNIT_ASSERT_EQ(test, 0, vm_try_map(test, 0, PAGE_SIZE, 2 * PAGE_SIZE,
					    DRM_TEMPO_VM_MAP_AUTO_VA, &buf));
	m = &fx->mappings[1];
	KUNIT_EXPECT_TRUE(test, PAGE_ALIGNED(m->node.start));
	KUNIT_EXPECT_GE(test, m->node.start, VA(1));
	KUNIT_EXPECT_LE(test, m->node.start, TEMPO_VA_END - PAGE_SIZE);
	KUNIT_EXPECT_PTR_EQ(test, buf + 2 * PAGE_SIZE,
			    vm_xlate(test, m->node.start, 1, false));
}

static void vm_unmap_needs_exact_range(struct kunit *test)
{
	struct vm_fixture *fx = test->priv;

	vm_map(test, VA(8), 2 * PAGE_SIZE, 0);
	KUNIT_EXPECT_NULL(test, tempo_vm_unmap_kunit(fx->vm, VA(8), PAGE_SIZE));
	KUNIT_EXPECT_NULL(test, tempo_vm_unmap_kunit(fx->vm, VA(9), PAGE_SIZE));
	KUNIT_EXPECT_NOT_NULL(test, vm_xlate(test, VA(9), 1, false));
	KUNIT_EXPECT_PTR_EQ(test, &fx->mappings[0],
			    tempo_vm_unmap_kunit(fx->vm, VA(8), 2 * PAGE_SIZE));
	KUNIT_EXPECT_NULL(test, vm_xlate(test, VA(8), 1, false));
	KUNIT_EXPECT_NULL(test, vm_xlate(test, VA(9), 1, false));
}

static void mem_readonly_mapping_rejects_writes(struct kunit *test)
{
	struct tempo_hw_mmu *mmu = vm_mmu(test);
	u8 *ro = vm_map(test, VA(0), PAGE_SIZE, DRM_TEMPO_VM_MAP_READONLY);
	u32 word = 0x5a5a5a5a, out = 0;

	vm_map(test, VA(1), PAGE_SIZE, 0);
	memset(ro, 0x11, PAGE_SIZE);
	KUNIT_EXPECT_NOT_NULL(test, vm_xlate(test, VA(0), 4, false));
	KUNIT_EXPECT_NULL(test, vm_xlate(test, VA(0), 4, true));
	KUNIT_EXPECT_EQ(test, -EFAULT, tempo_mem_write(mmu, VA(0), &word, 4));
	KUNIT_EXPECT_EQ(test, -EFAULT, tempo_mem_fill(mmu, VA(0), word, 4));
	KUNIT_EXPECT_EQ(test, -EFAULT, tempo_mem_copy(mmu, VA(0), VA(1), 4));
	KUNIT_EXPECT_EQ(test, -EFAULT, tempo_mem_atomic_add(mmu, VA(0), 1));
	KUNIT_EXPECT_EQ(test, 0x11, ro[0]);
	KUNIT_EXPECT_EQ(test, 0x11, ro[3]);
	KUNIT_EXPECT_EQ(test, 0, tempo_mem_read(mmu, VA(0), &out, 4));
	KUNIT_EXPECT_EQ(test, 0x11111111u, out);
	/* reading from it into writable memory is fine */
	KUNIT_EXPECT_EQ(test, 0, tempo_mem_copy(mmu, VA(1), VA(0), 4));
}

static void mem_access_across_adjacent_mappings(struct kunit *test)
{
	struct tempo_hw_mmu *mmu = vm_mmu(test);
	u8 *a = vm_map(test, VA(0), PAGE_SIZE, 0);
	u8 *b = vm_map(test, VA(1), PAGE_SIZE, 0);
	u8 in[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, out[8] = {};

	KUNIT_EXPECT_EQ(test, 0, tempo_mem_write(mmu, VA(1) - 4, in, 8));
	KUNIT_EXPECT_EQ(test, 0, memcmp(a + PAGE_SIZE - 4, in, 4));
	KUNIT_EXPECT_EQ(test, 0, memcmp(b, in + 4, 4));
	KUNIT_EXPECT_EQ(test, 0, tempo_mem_read(mmu, VA(1) - 4, out, 8));
	KUNIT_EXPECT_EQ(test, 0, memcmp(in, out, 8));
	KUNIT_EXPECT_EQ(test, 0, tempo_mem_fill(mmu, VA(1) - 8, 0xabcdabcd, 16));
	KUNIT_EXPECT_EQ(test, 0xabcdabcdu, *(u32 *)(a + PAGE_SIZE - 4));
	KUNIT_EXPECT_EQ(test, 0xabcdabcdu, *(u32 *)(b + 4));
}

static void mem_access_off_the_last_mapping_faults(struct kunit *test)
{
	struct tempo_hw_mmu *mmu = vm_mmu(test);
	u8 buf[8] = {};
	u64 sum;

	vm_map(test, VA(0), PAGE_SIZE, 0);
	vm_map(test, VA(2), PAGE_SIZE, 0);
	KUNIT_EXPECT_EQ(test, -EFAULT, tempo_mem_write(mmu, VA(1) - 4, buf, 8));
	KUNIT_EXPECT_EQ(test, -EFAULT, tempo_mem_read(mmu, VA(1) - 4, buf, 8));
	KUNIT_EXPECT_EQ(test, -EFAULT, tempo_mem_fill(mmu, VA(1) - 4, 0, 8));
	KUNIT_EXPECT_EQ(test, -EFAULT, tempo_mem_sum32(mmu, VA(1) - 4, 8, &sum));
	KUNIT_EXPECT_EQ(test, -EFAULT, tempo_mem_copy(mmu, VA(2), VA(1) - 4, 8));
	KUNIT_EXPECT_EQ(test, -EFAULT, tempo_mem_copy(mmu, VA(1) - 4, VA(2), 8));
	/* the hole is never reached by a whole page either */
	KUNIT_EXPECT_EQ(test, -EFAULT, tempo_mem_fill(mmu, VA(0), 0, 2 * PAGE_SIZE));
	KUNIT_EXPECT_EQ(test, -EFAULT, tempo_mem_read64(mmu, VA(1), &sum));
}

static void mem_page_crossing_in_one_mapping(struct kunit *test)
{
	struct tempo_hw_mmu *mmu = vm_mmu(test);
	u32 len = PAGE_SIZE + 64, i;
	u8 *buf = vm_map(test, VA(0), 4 * PAGE_SIZE, 0);
	u8 *in = kunit_kmalloc(test, len, GFP_KERNEL);
	u8 *out = kunit_kzalloc(test, len, GFP_KERNEL);
	u64 sum;

	KUNIT_ASSERT_NOT_NULL(test, in);
	KUNIT_ASSERT_NOT_NULL(test, out);
	for (i = 0; i < len; i++)
		in[i] = i * 7 + 3;
	/* starts 32 bytes before a page boundary, ends past the next one */
	KUNIT_EXPECT_EQ(test, 0, tempo_mem_write(mmu, VA(1) - 32, in, len));
	KUNIT_EXPECT_EQ(test, 0, memcmp(buf + PAGE_SIZE - 32, in, len));
	KUNIT_EXPECT_EQ(test, 0, tempo_mem_read(mmu, VA(1) - 32, out, len));
	KUNIT_EXPECT_EQ(test, 0, memcmp(in, out, len));
	/* a copy whose source and destination cross pages at different points */
	KUNIT_EXPECT_EQ(test, 0, tempo_mem_copy(mmu, VA(3) - 100, VA(1) - 32, len - 64));
	KUNIT_EXPECT_EQ(test, 0, memcmp(buf + 3 * PAGE_SIZE - 100, in, len - 64));
	/* a fill over two page boundaries, exactly */
	KUNIT_EXPECT_EQ(test, 0, tempo_mem_fill(mmu, VA(1) - 4, 0x01020304, PAGE_SIZE + 8));
	KUNIT_EXPECT_EQ(test, 0, tempo_mem_sum32(mmu, VA(1) - 4, PAGE_SIZE + 8, &sum));
	KUNIT_EXPECT_EQ(test, (PAGE_SIZE / 4 + 2) * 0x01020304ull, sum);
	/* and nothing around it */
	KUNIT_EXPECT_EQ(test, in[27], buf[PAGE_SIZE - 5]);
	KUNIT_EXPECT_EQ(test, in[PAGE_SIZE + 36], buf[2 * PAGE_SIZE + 4]);
	KUNIT_EXPECT_EQ(test, -EILSEQ, tempo_mem_fill(mmu, VA(1) - 2, 0, 4));
	KUNIT_EXPECT_EQ(test, -EILSEQ, tempo_mem_fill(mmu, VA(1), 0, 6));
}

static struct kunit_case tempo_vm_cases[] = {
	KUNIT_CASE(vm_lookup_at_mapping_bounds),
	KUNIT_CASE(vm_access_may_not_run_past_mapping_end),
	KUNIT_CASE(vm_holes_and_foreign_addresses_are_unmapped),
	KUNIT_CASE(vm_top_of_va_space_maps),
	KUNIT_CASE(vm_bad_map_arguments_are_refused),
	KUNIT_CASE(vm_overlapping_map_is_refused),
	KUNIT_CASE(vm_auto_va_and_buffer_offset),
	KUNIT_CASE(vm_unmap_needs_exact_range),
	KUNIT_CASE(mem_readonly_mapping_rejects_writes),
	KUNIT_CASE(mem_access_across_adjacent_mappings),
	KUNIT_CASE(mem_access_off_the_last_mapping_faults),
	KUNIT_CASE(mem_page_crossing_in_one_mapping),
	{}
};

static struct kunit_suite tempo_vm_suite = {
	.name = "tempo_vm",
	.init = vm_init,
	.exit = vm_exit,
	.test_cases = tempo_vm_cases,
};

/*
 * A drm_gpu_scheduler over a mock backend driven the way tempo's glue
 * drives an HQD: the hardware fence is allocated with the job and only
 * initialised by run_job, which hands it to the "hardware" (a list the
 * test ends jobs from, oldest first); a resubmitted job gets its fence
 * back; timedout_job stops the scheduler, aborts the job with
 * -ETIMEDOUT, resubmits and restarts; teardown ends what the hardware
 * still holds with -ECANCELED and waits for every job to be freed before
 * drm_sched_fini().
 */
#define MOCK_MAX_JOBS		16
#define MOCK_MAX_ENTITIES	2
#define MOCK_WAIT		(5 * HZ)

struct mock_fence {
	struct dma_fence base;
	spinlock_t lock; /* the fence's lock */
	struct list_head link;
};

struct mock_sched {
	struct drm_gpu_scheduler base;
	struct drm_gpu_scheduler *list[1];
	struct drm_sched_entity entities[MOCK_MAX_ENTITIES];
	bool entity_live[MOCK_MAX_ENTITIES];
	u64 fence_context;
	spinlock_t lock; /* guards the fields below */
	u64 seqno;
	struct list_head hw;
	u32 num_run;
	u32 order[MOCK_MAX_JOBS];
	u32 in_flight;
	u32 max_in_flight;
	atomic_t timeouts;
	atomic_t jobs;
	wait_queue_head_t wq;
};

struct mock_job {
	struct drm_sched_job base;
	struct mock_sched *mock;
	struct mock_fence *hw;
	u32 id;
};

static struct mock_job *to_mock_job(struct drm_sched_job *sched_job)
{
	return container_of(sched_job, struct mock_job, base);
}

static const char *mock_fence_name(struct dma_fence *fence)
{
	return "tempo-kunit";
}

static const struct dma_fence_ops mock_fence_ops = {
	.get_driver_name = mock_fence_name,
	.get_timeline_name = mock_fence_name,
};

static struct dma_fence *mock_run_job(struct drm_sched_job *sched_job)
{
	struct mock_job *job = to_mock_job(sched_job);
	struct mock_sched *mock = job->mock;
	struct mock_fence *f = job->hw;

	if (f->base.ops)	/* resubmitted: the hardware has had it */
		return dma_fence_get(&f->base);
	if (sched_job->s_fence->finished.error)
		return NULL;
	spin_lock(&mock->lock);
	dma_fence_init(&f->base, &mock_fence_ops, &f->lock,
		       mock->fence_context, ++mock->seqno);
	dma_fence_get(&f->base);	/* the hardware's reference */
	list_add_tail(&f->link, &mock->hw);
	if (mock->num_run < MOCK_MAX_JOBS)
		mock->order[mock->num_run] = job->id;
	mock->num_run++;
	mock->max_in_flight = max(mock->max_in_flight, ++mock->in_flight);
	spin_unlock(&mock->lock);
	wake_up_all(&mock->wq);
	return dma_fence_get(&f->base);
}

/* The hardware ends @f, if it still holds it, with @error. */
static bool mock_hw_end_fence(struct mock_sched *mock, struct mock_fence *f,
			      int error)
{
	bool held;

	spin_lock(&mock->lock);
	held = !list_empty(&f->link);
	if (held) {
		list_del_init(&f->link);
		mock->in_flight--;
	}
	spin_unlock(&mock->lock);
	if (!held)
		return false;
	if (error)
		dma_fence_set_error(&f->base, error);
	dma_fence_signal(&f->base);
	dma_fence_put(&f->base);
	return true;
}

/* The hardware ends its @n oldest jobs; returns how many it had. */
static u32 mock_hw_end(struct mock_sched *mock, u32 n, int error)
{
	u32 done;

	for (done = 0; done < n; done++) {
		struct mock_fence *f;

		spin_lock(&mock->lock);
		f = list_first_entry_or_null(&mock->hw, struct mock_fence, link);
		if (f)
			dma_fence_get(&f->base);
		spin_unlock(&mock->lock);
		if (!f)
			break;
		mock_hw_end_fence(mock, f, error);
		dma_fence_put(&f->base);
	}
	return done;
}

static enum drm_gpu_sched_stat mock_timedout_job(struct drm_sched_job *sched_job)
{
	struct mock_job *job = to_mock_job(sched_job);
	struct drm_gpu_scheduler *sched = sched_job->sched;
	struct mock_sched *mock = job->mock;

	drm_sched_stop(sched, sched_job);
	atomic_inc(&mock->timeouts);
	mock_hw_end_fence(mock, job->hw, -ETIMEDOUT);
	drm_sched_resubmit_jobs(sched);
	/* Restarted, the scheduler may free the job at once. */
	tempo_compat_sched_start(sched);
	wake_up_all(&mock->wq);
	return DRM_GPU_SCHED_STAT_NOMINAL;
}

static void mock_job_free(struct mock_job *job)
{
	struct mock_sched *mock = job->mock;

	if (job->hw && job->hw->base.ops)
		dma_fence_put(&job->hw->base);
	else
		kfree(job->hw);
	kfree(job);
	atomic_dec(&mock->jobs);
	wake_up_all(&mock->wq);
}

static void mock_free_job(struct drm_sched_job *sched_job)
{
	drm_sched_job_cleanup(sched_job);
	mock_job_free(to_mock_job(sched_job));
}

static const struct drm_sched_backend_ops mock_sched_ops = {
	.run_job = mock_run_job,
	.timedout_job = mock_timedout_job,
	.free_job = mock_free_job,
};

static void mock_entity_fini(struct mock_sched *mock,
			     struct drm_sched_entity *entity)
{
	u32 i = entity - mock->entities;

	if (mock->entity_live[i])
		drm_sched_entity_fini(entity);
	mock->entity_live[i] = false;
}

/* Entities go, the hardware stops, every job is freed, then the scheduler. */
static void mock_sched_teardown(void *data)
{
	struct mock_sched *mock = data;
	u32 i;

	for (i = 0; i < MOCK_MAX_ENTITIES; i++)
		mock_entity_fini(mock, &mock->entities[i]);
	for (i = 0; i < 50 && atomic_read(&mock->jobs); i++) {
		mock_hw_end(mock, U32_MAX, -ECANCELED);
		wait_event_timeout(mock->wq, !atomic_read(&mock->jobs),
				   HZ / 10);
	}
	drm_sched_fini(&mock->base);
}

static struct mock_sched *mock_sched_create(struct kunit *test, u32 credits,
					    long timeout)
{
	struct mock_sched *mock = kunit_kzalloc(test, sizeof(*mock), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, mock);
	spin_lock_init(&mock->lock);
	INIT_LIST_HEAD(&mock->hw);
	init_waitqueue_head(&mock->wq);
	mock->fence_context = dma_fence_context_alloc(1);
	mock->list[0] = &mock->base;
	KUNIT_ASSERT_EQ(test, 0,
			tempo_compat_sched_init(&mock->base, &mock_sched_ops,
						credits, timeout, "tempo-kunit",
						NULL));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   mock_sched_teardown,
							   mock));
	return mock;
}

/* Tear down now; every job must have been freed. */
static void mock_sched_fini(struct kunit *test, struct mock_sched *mock)
{
	kunit_release_action(test, mock_sched_teardown, mock);
	KUNIT_EXPECT_EQ(test, 0, atomic_read(&mock->jobs));
}

/* An entity of a context at tempo priority @priority. */
static struct drm_sched_entity *mock_entity(struct kunit *test,
					    struct mock_sched *mock,
					    s32 priority)
{
	struct tempo_device *tdev = fake_device(test, TEMPO_HQD_STATIC);
	struct tempo_prio prio = tempo_priority_map(tdev, priority);
	u32 i;

	for (i = 0; i < MOCK_MAX_ENTITIES && mock->entity_live[i]; i++)
		;
	KUNIT_ASSERT_LT(test, i, MOCK_MAX_ENTITIES);
	KUNIT_ASSERT_EQ(test, 0, drm_sched_entity_init(&mock->entities[i],
						       prio.sched, mock->list,
						       1, NULL));
	mock->entity_live[i] = true;
	return &mock->entities[i];
}

static void fence_put_action(void *fence)
{
	dma_fence_put(fence);
}

/* For fences the test signals: never left unsignalled, even on failure. */
static void fence_signal_put_action(void *fence)
{
	dma_fence_signal(fence);
	dma_fence_put(fence);
}

/*
 * Queue job @id on @entity, after @dep when not NULL; returns its
 * finished fence, referenced until the test ends.
 */
static struct dma_fence *mock_submit_after(struct kunit *test,
					   struct mock_sched *mock,
					   struct drm_sched_entity *entity,
					   u32 id, struct dma_fence *dep)
{
	struct mock_job *job = kzalloc(sizeof(*job), GFP_KERNEL);
	struct dma_fence *done;
	int ret = -ENOMEM;

	KUNIT_ASSERT_NOT_NULL(test, job);
	job->mock = mock;
	job->id = id;
	job->hw = kzalloc(sizeof(*job->hw), GFP_KERNEL);
	atomic_inc(&mock->jobs);
	if (job->hw) {
		spin_lock_init(&job->hw->lock);
		INIT_LIST_HEAD(&job->hw->link);
		ret = tempo_compat_job_init(&job->base, entity, mock, 0);
	}
	if (!ret && dep) {
		ret = drm_sched_job_add_dependency(&job->base,
						   dma_fence_get(dep));
		if (ret)
			drm_sched_job_cleanup(&job->base);
	}
	if (ret) {
		mock_job_free(job);
		KUNIT_ASSERT_EQ(test, 0, ret);
	}
	drm_sched_job_arm(&job->base);
	done = dma_fence_get(&job->base.s_fence->finished);
	drm_sched_entity_push_job(&job->base);
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, fence_put_action, done));
	return done;
}

static struct dma_fence *mock_submit(struct kunit *test,
				     struct mock_sched *mock,
				     struct drm_sched_entity *entity, u32 id)
{
	return mock_submit_after(test, mock, entity, id, NULL);
}

/* Wait until the hardware has been given @n jobs in all. */
static bool mock_wait_run(struct mock_sched *mock, u32 n)
{
	return wait_event_timeout(mock->wq, READ_ONCE(mock->num_run) >= n,
				  MOCK_WAIT);
}

static bool fence_wait(struct dma_fence *fence)
{
	return dma_fence_wait_timeout(fence, false, MOCK_WAIT) > 0;
}

static void sched_jobs_of_one_entity_run_and_complete_in_order(struct kunit *test)
{
	struct mock_sched *mock = mock_sched_create(test, TEMPO_RING_SIZE,
						    MAX_SCHEDULE_TIMEOUT);
	struct drm_sched_entity *entity = mock_entity(test, mock,
						      DRM_TEMPO_PRIORITY_NORMAL);
	struct dma_fence *done[8];
	u32 i;

	for (i = 0; i < ARRAY_SIZE(done); i++)
		done[i] = mock_submit(test, mock, entity, i);
	KUNIT_ASSERT_TRUE(test, mock_wait_run(mock, ARRAY_SIZE(done)));
	for (i = 0; i < ARRAY_SIZE(done); i++) {
		KUNIT_EXPECT_EQ(test, i, mock->order[i]);
		KUNIT_EXPECT_FALSE(test, dma_fence_is_signaled(done[i]));
	}
	/* the first three end: exactly those are done */
	KUNIT_EXPECT_EQ(test, 3, mock_hw_end(mock, 3, 0));
	KUNIT_ASSERT_TRUE(test, fence_wait(done[2]));
	KUNIT_EXPECT_TRUE(test, dma_fence_is_signaled(done[0]));
	KUNIT_EXPECT_TRUE(test, dma_fence_is_signaled(done[1]));
	KUNIT_EXPECT_FALSE(test, dma_fence_is_signaled(done[3]));
	KUNIT_EXPECT_EQ(test, 5, mock_hw_end(mock, U32_MAX, 0));
	for (i = 0; i < ARRAY_SIZE(done); i++) {
		KUNIT_ASSERT_TRUE(test, fence_wait(done[i]));
		KUNIT_EXPECT_EQ(test, 0, done[i]->error);
		if (i)
			KUNIT_EXPECT_TRUE(test, dma_fence_is_later(done[i],
								   done[i - 1]));
	}
	KUNIT_EXPECT_EQ(test, ARRAY_SIZE(done), mock->num_run);
	mock_sched_fini(test, mock);
}

static void sched_job_waits_for_its_dependency(struct kunit *test)
{
	struct mock_sched *mock = mock_sched_create(test, TEMPO_RING_SIZE,
						    MAX_SCHEDULE_TIMEOUT);
	struct drm_sched_entity *entity = mock_entity(test, mock,
						      DRM_TEMPO_PRIORITY_NORMAL);
	struct mock_fence *dep = kzalloc(sizeof(*dep), GFP_KERNEL);
	struct dma_fence *done;

	/* a fence of another timeline, an in-fence of exec */
	KUNIT_ASSERT_NOT_NULL(test, dep);
	spin_lock_init(&dep->lock);
	dma_fence_init(&dep->base, &mock_fence_ops, &dep->lock,
		       dma_fence_context_alloc(1), 1);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   fence_signal_put_action,
							   &dep->base));
	done = mock_submit_after(test, mock, entity, 0, &dep->base);
	msleep(20);
	KUNIT_EXPECT_EQ(test, 0, READ_ONCE(mock->num_run));
	dma_fence_signal(&dep->base);
	KUNIT_ASSERT_TRUE(test, mock_wait_run(mock, 1));
	mock_hw_end(mock, 1, 0);
	KUNIT_ASSERT_TRUE(test, fence_wait(done));
	KUNIT_EXPECT_EQ(test, 0, done->error);
	mock_sched_fini(test, mock);
}

static void sched_hung_job_times_out_once(struct kunit *test)
{
	/* long enough that the test thread ends the next job well before */
	long timeout = msecs_to_jiffies(200);
	struct mock_sched *mock = mock_sched_create(test, TEMPO_RING_SIZE,
						    timeout);
	struct drm_sched_entity *entity = mock_entity(test, mock,
						      DRM_TEMPO_PRIORITY_NORMAL);
	struct dma_fence *hung = mock_submit(test, mock, entity, 0);
	struct dma_fence *next;

	/* the hardware never ends it: the timeout aborts it */
	KUNIT_ASSERT_TRUE(test, fence_wait(hung));
	KUNIT_EXPECT_EQ(test, -ETIMEDOUT, hung->error);
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&mock->timeouts));
	/* the reset did not give it to the hardware a second time */
	KUNIT_EXPECT_EQ(test, 1, READ_ONCE(mock->num_run));
	/* and the scheduler runs the next job normally */
	next = mock_submit(test, mock, entity, 1);
	KUNIT_ASSERT_TRUE(test, mock_wait_run(mock, 2));
	mock_hw_end(mock, 1, 0);
	KUNIT_ASSERT_TRUE(test, fence_wait(next));
	KUNIT_EXPECT_EQ(test, 0, next->error);
	msleep(jiffies_to_msecs(2 * timeout));
	KUNIT_EXPECT_EQ(test, 1, atomic_read(&mock->timeouts));
	mock_sched_fini(test, mock);
}

static void sched_teardown_cancels_jobs_on_the_hardware(struct kunit *test)
{
	struct mock_sched *mock = mock_sched_create(test, TEMPO_RING_SIZE,
						    MAX_SCHEDULE_TIMEOUT);
	struct drm_sched_entity *entity = mock_entity(test, mock,
						      DRM_TEMPO_PRIORITY_NORMAL);
	struct dma_fence *done[4];
	u32 i;

	for (i = 0; i < ARRAY_SIZE(done); i++)
		done[i] = mock_submit(test, mock, entity, i);
	KUNIT_ASSERT_TRUE(test, mock_wait_run(mock, ARRAY_SIZE(done)));
	mock_sched_fini(test, mock);
	for (i = 0; i < ARRAY_SIZE(done); i++) {
		KUNIT_EXPECT_TRUE(test, dma_fence_is_signaled(done[i]));
		KUNIT_EXPECT_EQ(test, -ECANCELED, done[i]->error);
	}
}

static void sched_entity_teardown_cancels_queued_jobs(struct kunit *test)
{
	struct mock_sched *mock = mock_sched_create(test, 1,
						    MAX_SCHEDULE_TIMEOUT);
	struct drm_sched_entity *entity = mock_entity(test, mock,
						      DRM_TEMPO_PRIORITY_NORMAL);
	struct dma_fence *done[3];
	u32 i;

	for (i = 0; i < ARRAY_SIZE(done); i++)
		done[i] = mock_submit(test, mock, entity, i);
	KUNIT_ASSERT_TRUE(test, mock_wait_run(mock, 1));
	/* one credit: the other two are still in the entity's queue */
	mock_entity_fini(mock, entity);
	mock_sched_fini(test, mock);
	KUNIT_EXPECT_EQ(test, 1, mock->num_run);
	KUNIT_EXPECT_EQ(test, -ECANCELED, done[0]->error);
	for (i = 1; i < ARRAY_SIZE(done); i++) {
		KUNIT_EXPECT_TRUE(test, dma_fence_is_signaled(done[i]));
		KUNIT_EXPECT_LT(test, done[i]->error, 0);
	}
}

static void sched_higher_priority_entity_runs_first(struct kunit *test)
{
	struct mock_sched *mock = mock_sched_create(test, 1,
						    MAX_SCHEDULE_TIMEOUT);
	struct drm_sched_entity *low = mock_entity(test, mock,
						   DRM_TEMPO_PRIORITY_LOW);
	struct drm_sched_entity *high = mock_entity(test, mock,
						    DRM_TEMPO_PRIORITY_HIGH);
	struct dma_fence *last;

	/* a job holds the only credit while both entities get ready */
	mock_submit(test, mock, low, 0);
	KUNIT_ASSERT_TRUE(test, mock_wait_run(mock, 1));
	mock_submit(test, mock, low, 1);
	last = mock_submit(test, mock, high, 2);
	mock_hw_end(mock, 1, 0);
	KUNIT_ASSERT_TRUE(test, mock_wait_run(mock, 2));
	KUNIT_EXPECT_EQ(test, 2, mock->order[1]);
	mock_hw_end(mock, 1, 0);
	KUNIT_ASSERT_TRUE(test, mock_wait_run(mock, 3));
	KUNIT_EXPECT_EQ(test, 1, mock->order[2]);
	mock_hw_end(mock, 1, 0);
	KUNIT_EXPECT_TRUE(test, fence_wait(last));
	mock_sched_fini(test, mock);
}

static void sched_credit_limit_bounds_jobs_in_flight(struct kunit *test)
{
	struct mock_sched *mock = mock_sched_create(test, 2,
						    MAX_SCHEDULE_TIMEOUT);
	struct drm_sched_entity *entity = mock_entity(test, mock,
						      DRM_TEMPO_PRIORITY_NORMAL);
	struct dma_fence *done[5];
	u32 i;

	for (i = 0; i < ARRAY_SIZE(done); i++)
		done[i] = mock_submit(test, mock, entity, i);
	KUNIT_ASSERT_TRUE(test, mock_wait_run(mock, 2));
	msleep(20);
	KUNIT_EXPECT_EQ(test, 2, READ_ONCE(mock->num_run));
	/* each job that ends lets exactly one more in */
	for (i = 3; i <= ARRAY_SIZE(done); i++) {
		mock_hw_end(mock, 1, 0);
		KUNIT_ASSERT_TRUE(test, mock_wait_run(mock, i));
	}
	mock_hw_end(mock, U32_MAX, 0);
	for (i = 0; i < ARRAY_SIZE(done); i++) {
		KUNIT_ASSERT_TRUE(test, fence_wait(done[i]));
		KUNIT_EXPECT_EQ(test, 0, done[i]->error);
	}
	KUNIT_EXPECT_EQ(test, 2, mock->max_in_flight);
	mock_sched_fini(test, mock);
}

static struct kunit_case tempo_sched_cases[] = {
	KUNIT_CASE(sched_jobs_of_one_entity_run_and_complete_in_order),
	KUNIT_CASE(sched_job_waits_for_its_dependency),
	KUNIT_CASE(sched_hung_job_times_out_once),
	KUNIT_CASE(sched_teardown_cancels_jobs_on_the_hardware),
	KUNIT_CASE(sched_entity_teardown_cancels_queued_jobs),
	KUNIT_CASE(sched_higher_priority_entity_runs_first),
	KUNIT_CASE(sched_credit_limit_bounds_jobs_in_flight),
	{}
};

static struct kunit_suite tempo_sched_suite = {
	.name = "tempo_sched",
	.test_cases = tempo_sched_cases,
};

kunit_test_suites(&tempo_isa_suite, &tempo_hqd_suite, &tempo_priority_suite,
		  &tempo_map_suite, &tempo_vm_suite, &tempo_sched_suite);
