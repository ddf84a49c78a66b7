// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The tempo authors
 *
 * KUnit suite of the GPU VA space (tempo_vm.c): mappings of kernel memory
 * standing for buffers, placed through the checks of
 * DRM_IOCTL_TEMPO_VM_MAP, and what tempo_vm_translate() gives for them;
 * the address space's timeline, with fences standing for jobs' finished
 * fences, and what its reservation object holds.
 */

#include <linux/dma-fence.h>
#include <linux/dma-resv.h>

#include <kunit/test.h>

#include <drm/tempo_drm.h>

#include "tempo_kunit.h"
#include "tempo_drv.h"

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

/* The CPU address the VM gives for [va, va + len), or NULL. */
static void *vm_xlate(struct kunit *test, u64 va, u32 len, bool write)
{
	struct tempo_vm *vm = ((struct vm_fixture *)test->priv)->vm;
	void *p;

	tempo_vm_lock_translations(vm);
	p = tempo_vm_translate(vm, va, len, write);
	tempo_vm_unlock_translations(vm);
	return p;
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

static void vm_readonly_mapping_translates_for_reads_only(struct kunit *test)
{
	vm_map(test, VA(0), PAGE_SIZE, DRM_TEMPO_VM_MAP_READONLY);
	KUNIT_EXPECT_NOT_NULL(test, vm_xlate(test, VA(0), 4, false));
	KUNIT_EXPECT_NULL(test, vm_xlate(test, VA(0), 4, true));
}

/* A job's finished fence, signalled by the test. */
struct vm_job_fence {
	struct dma_fence base;
	spinlock_t lock; /* the fence's lock */
};

static const char *vm_job_fence_name(struct dma_fence *fence)
{
	return "tempo-kunit";
}

static const struct dma_fence_ops vm_job_fence_ops = {
	.get_driver_name = vm_job_fence_name,
	.get_timeline_name = vm_job_fence_name,
};

/* The finished fences of @n jobs, each of an entity of its own. */
static void vm_jobs_init(struct kunit *test, struct dma_fence **jobs, u32 n)
{
	u64 context = dma_fence_context_alloc(n);
	u32 i;

	for (i = 0; i < n; i++) {
		struct vm_job_fence *f = kzalloc(sizeof(*f), GFP_KERNEL);

		KUNIT_ASSERT_NOT_NULL(test, f);
		spin_lock_init(&f->lock);
		dma_fence_init(&f->base, &vm_job_fence_ops, &f->lock,
			       context + i, 1);
		jobs[i] = &f->base;
	}
}

/* Add the job of finished fence @job to the timeline; its timeline fence. */
static struct dma_fence *vm_timeline_add(struct kunit *test,
					 struct dma_fence *job)
{
	struct tempo_vm *vm = ((struct vm_fixture *)test->priv)->vm;
	struct dma_resv *resv = &vm->resv->resv;
	struct tempo_vm_fence *f = tempo_vm_fence_alloc();
	struct dma_fence *fence;
	int ret;

	KUNIT_ASSERT_NOT_NULL(test, f);
	dma_resv_lock(resv, NULL);
	ret = dma_resv_reserve_fences(resv, 1);
	if (ret) {
		dma_resv_unlock(resv);
		tempo_vm_fence_free(f);
	}
	KUNIT_ASSERT_EQ(test, 0, ret);
	tempo_vm_fence_add(vm, f, job);
	/* The object holds it: it cannot be gone yet. */
	fence = dma_fence_get((struct dma_fence *)f);
	dma_resv_unlock(resv);
	return fence;
}

/* Fences the address space's reservation object holds. */
static u32 vm_resv_num_fences(struct kunit *test)
{
	struct tempo_vm *vm = ((struct vm_fixture *)test->priv)->vm;
	struct dma_resv_iter cursor;
	struct dma_fence *fence;
	u32 n = 0;

	dma_resv_lock(&vm->resv->resv, NULL);
	dma_resv_for_each_fence(&cursor, &vm->resv->resv,
				DMA_RESV_USAGE_BOOKKEEP, fence)
		n++;
	dma_resv_unlock(&vm->resv->resv);
	return n;
}

static bool vm_resv_idle(struct kunit *test)
{
	struct tempo_vm *vm = ((struct vm_fixture *)test->priv)->vm;

	return dma_resv_test_signaled(&vm->resv->resv, DMA_RESV_USAGE_READ);
}

static void vm_fences_put(struct dma_fence **fences, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		dma_fence_put(fences[i]);
}

#define VM_TIMELINE_JOBS	4

/*
 * Jobs of as many entities ending out of order: each timeline fence
 * signals once its job and every earlier one ended, and the reservation
 * object holds one fence all along.
 */
static void vm_timeline_signals_in_order_with_one_fence(struct kunit *test)
{
	struct dma_fence *jobs[VM_TIMELINE_JOBS], *f[VM_TIMELINE_JOBS];
	u32 i;

	vm_jobs_init(test, jobs, VM_TIMELINE_JOBS);
	for (i = 0; i < VM_TIMELINE_JOBS; i++) {
		f[i] = vm_timeline_add(test, jobs[i]);
		KUNIT_EXPECT_EQ(test, 1, vm_resv_num_fences(test));
	}
	KUNIT_EXPECT_FALSE(test, vm_resv_idle(test));
	dma_fence_signal(jobs[2]);
	dma_fence_signal(jobs[1]);
	for (i = 0; i < VM_TIMELINE_JOBS; i++)
		KUNIT_EXPECT_FALSE_MSG(test, dma_fence_is_signaled(f[i]),
				       "fence %u", i);
	dma_fence_signal(jobs[0]);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_TRUE_MSG(test, dma_fence_is_signaled(f[i]),
				      "fence %u", i);
	KUNIT_EXPECT_FALSE(test, dma_fence_is_signaled(f[3]));
	KUNIT_EXPECT_FALSE(test, vm_resv_idle(test));
	dma_fence_signal(jobs[3]);
	KUNIT_EXPECT_TRUE(test, dma_fence_is_signaled(f[3]));
	KUNIT_EXPECT_TRUE(test, vm_resv_idle(test));
	KUNIT_EXPECT_EQ(test, 1, vm_resv_num_fences(test));
	vm_fences_put(f, VM_TIMELINE_JOBS);
	vm_fences_put(jobs, VM_TIMELINE_JOBS);
}

/*
 * A job that ended before it was added: its fence signals at once on an
 * idle timeline, after the earlier jobs on a busy one.
 */
static void vm_timeline_job_already_ended(struct kunit *test)
{
	struct dma_fence *jobs[3], *f[3];

	vm_jobs_init(test, jobs, 3);
	dma_fence_signal(jobs[0]);
	f[0] = vm_timeline_add(test, jobs[0]);
	KUNIT_EXPECT_TRUE(test, dma_fence_is_signaled(f[0]));
	KUNIT_EXPECT_TRUE(test, vm_resv_idle(test));
	f[1] = vm_timeline_add(test, jobs[1]);
	dma_fence_signal(jobs[2]);
	f[2] = vm_timeline_add(test, jobs[2]);
	KUNIT_EXPECT_FALSE(test, dma_fence_is_signaled(f[2]));
	dma_fence_signal(jobs[1]);
	KUNIT_EXPECT_TRUE(test, dma_fence_is_signaled(f[1]));
	KUNIT_EXPECT_TRUE(test, dma_fence_is_signaled(f[2]));
	KUNIT_EXPECT_TRUE(test, vm_resv_idle(test));
	vm_fences_put(f, 3);
	vm_fences_put(jobs, 3);
}

TEMPO_KUNIT_SUITE(vm, vm_init, vm_exit,
		  KUNIT_CASE(vm_lookup_at_mapping_bounds),
		  KUNIT_CASE(vm_access_may_not_run_past_mapping_end),
		  KUNIT_CASE(vm_holes_and_foreign_addresses_are_unmapped),
		  KUNIT_CASE(vm_top_of_va_space_maps),
		  KUNIT_CASE(vm_bad_map_arguments_are_refused),
		  KUNIT_CASE(vm_overlapping_map_is_refused),
		  KUNIT_CASE(vm_auto_va_and_buffer_offset),
		  KUNIT_CASE(vm_unmap_needs_exact_range),
		  KUNIT_CASE(vm_readonly_mapping_translates_for_reads_only),
		  KUNIT_CASE(vm_timeline_signals_in_order_with_one_fence),
		  KUNIT_CASE(vm_timeline_job_already_ended));
