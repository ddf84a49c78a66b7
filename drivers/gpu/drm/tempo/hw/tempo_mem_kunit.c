// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The tempo authors
 *
 * KUnit suite of the hardware's memory accesses (tempo_mem.c), through an
 * MMU of its own: a few mappings of kernel memory, as the driver's VM
 * would give them.
 */

#include <linux/sizes.h>

#include <kunit/test.h>

#include <drm/tempo_drm.h>

#include "../tempo_kunit.h"
#include "tempo_hw_priv.h"

#define FAKE_MAX_MAPPINGS	4
#define VA(page)	(SZ_1M + (u64)(page) * PAGE_SIZE)

struct fake_mapping {
	u64 va;
	u64 size;
	u8 *buf;
	bool readonly;
};

struct fake_mmu {
	struct tempo_hw_mmu base;
	u32 n;
	struct fake_mapping m[FAKE_MAX_MAPPINGS];
};

static void fake_lock(struct tempo_hw_mmu *mmu)
{
}

static void fake_unlock(struct tempo_hw_mmu *mmu)
{
}

/* As the VM translates: the whole range in one mapping, writes allowed. */
static void *fake_translate(struct tempo_hw_mmu *mmu, u64 va, u32 len,
			    bool write)
{
	struct fake_mmu *f = container_of(mmu, struct fake_mmu, base);
	u32 i;

	for (i = 0; i < f->n; i++) {
		struct fake_mapping *m = &f->m[i];

		if (va < m->va || va - m->va >= m->size ||
		    len > m->size - (va - m->va))
			continue;
		return write && m->readonly ? NULL : m->buf + (va - m->va);
	}
	return NULL;
}

static const struct tempo_hw_mmu_ops fake_mmu_ops = {
	.lock = fake_lock,
	.unlock = fake_unlock,
	.translate = fake_translate,
};

static int fake_init(struct kunit *test)
{
	struct fake_mmu *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	if (!f)
		return -ENOMEM;
	f->base.ops = &fake_mmu_ops;
	test->priv = f;
	return 0;
}

static struct tempo_hw_mmu *fake_mmu(struct kunit *test)
{
	return &((struct fake_mmu *)test->priv)->base;
}

/* A mapping of @size bytes of new memory at @va; returns the memory. */
static u8 *fake_map(struct kunit *test, u64 va, u64 size, u32 flags)
{
	struct fake_mmu *f = test->priv;
	struct fake_mapping *m;

	KUNIT_ASSERT_LT(test, f->n, FAKE_MAX_MAPPINGS);
	m = &f->m[f->n++];
	m->va = va;
	m->size = size;
	m->readonly = flags & DRM_TEMPO_VM_MAP_READONLY;
	m->buf = kunit_kzalloc(test, size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m->buf);
	return m->buf;
}

static void mem_readonly_mapping_rejects_writes(struct kunit *test)
{
	struct tempo_hw_mmu *mmu = fake_mmu(test);
	u8 *ro = fake_map(test, VA(0), PAGE_SIZE, DRM_TEMPO_VM_MAP_READONLY);
	u32 word = 0x5a5a5a5a, out = 0;

	fake_map(test, VA(1), PAGE_SIZE, 0);
	memset(ro, 0x11, PAGE_SIZE);
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
	struct tempo_hw_mmu *mmu = fake_mmu(test);
	u8 *a = fake_map(test, VA(0), PAGE_SIZE, 0);
	u8 *b = fake_map(test, VA(1), PAGE_SIZE, 0);
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
	struct tempo_hw_mmu *mmu = fake_mmu(test);
	u8 buf[8] = {};
	u64 sum;

	fake_map(test, VA(0), PAGE_SIZE, 0);
	fake_map(test, VA(2), PAGE_SIZE, 0);
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
	struct tempo_hw_mmu *mmu = fake_mmu(test);
	u32 len = PAGE_SIZE + 64, i;
	u8 *buf = fake_map(test, VA(0), 4 * PAGE_SIZE, 0);
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

TEMPO_KUNIT_SUITE(mem, fake_init, NULL,
		  KUNIT_CASE(mem_readonly_mapping_rejects_writes),
		  KUNIT_CASE(mem_access_across_adjacent_mappings),
		  KUNIT_CASE(mem_access_off_the_last_mapping_faults),
		  KUNIT_CASE(mem_page_crossing_in_one_mapping));
