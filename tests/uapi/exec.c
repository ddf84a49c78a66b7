// SPDX-License-Identifier: GPL-2.0-only
/*
 * DRM_IOCTL_TEMPO_EXEC: what each packet and each built-in kernel does,
 * read back from memory; batch nesting; job errors reported on the fence
 * (-EFAULT, -EILSEQ, -ELOOP, -ETIMEDOUT); in and out syncs; ordering and
 * concurrency of jobs.
 */
#include <sys/utsname.h>

#include "tempo_test.h"

/* Layout of the data buffer (TEMPO_DATA_SIZE bytes, gate at 0). */
#define MARK		0x1000		/* markers, one dword each */
#define MARK_BEFORE	(MARK + 0)
#define MARK_AFTER	(MARK + 4)
#define SCRATCH		0x2000		/* small results, 4 KiB */
#define VICTIM		0x8000		/* must stay untouched, 256 bytes */
#define SRC		0x10000		/* 64 KiB */
#define DST		0x20000		/* 64 KiB */
#define LOG		0x40000		/* 64 KiB */

#define VA(e, off)	((e)->data.va + (off))

/* Fill the CPU view of [off, off + size) with a deterministic pattern. */
static void pattern(struct tempo_env *e, uint64_t off, uint64_t size,
		    uint32_t seed)
{
	unsigned char *p = (unsigned char *)e->data.map + off;
	uint32_t x = seed * 2654435761u + 1;

	for (uint64_t i = 0; i < size; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		p[i] = (unsigned char)x;
	}
}

/*
 * A page mapped at *va whose following page is not mapped: a buffer of two
 * pages is mapped, unmapped, and its first page mapped again at the same
 * address. Nothing else is mapped afterwards in these tests, so the hole
 * stays.
 */
static void page_before_hole(struct __test_metadata *_metadata,
			     struct tempo_env *e, struct tempo_bo *bo)
{
	uint64_t page = tempo_page_size();
	uint64_t va;

	ASSERT_EQ(0, tempo_bo_new(e->fd, 2 * page, 0, bo));
	va = bo->va;
	ASSERT_EQ(0, tempo_vm_unmap(e->fd, bo->va, 2 * page));
	ASSERT_EQ(0, tempo_vm_map(e->fd, bo->handle, 0, &va, 0, page));
	ASSERT_EQ(bo->va, va);
}

/* A page-aligned GPU address with nothing mapped in the page. */
static uint64_t unmapped_va(struct __test_metadata *_metadata,
			    struct tempo_env *e)
{
	struct tempo_bo bo;

	page_before_hole(_metadata, e, &bo);
	return bo.va + tempo_page_size();
}

/* A GPU read-only mapping of the page at @offset of @bo: its address. */
static uint64_t map_readonly(struct __test_metadata *_metadata,
			     struct tempo_env *e, const struct tempo_bo *bo,
			     uint64_t offset)
{
	uint64_t ro = 0;

	ASSERT_EQ(0, tempo_vm_map(e->fd, bo->handle,
				  DRM_TEMPO_VM_MAP_READONLY |
				  DRM_TEMPO_VM_MAP_AUTO_VA, &ro, offset,
				  tempo_page_size()));
	return ro;
}

/*
 * A fixture of the environment and the first slot of the default map on
 * an engine of the variant's class (SKIP when the device has none).
 */
#define ENGINE_FIXTURE(name)						\
	FIXTURE(name) {							\
		struct tempo_env env;					\
		uint32_t slot;						\
	};								\
	FIXTURE_VARIANT(name) {						\
		uint16_t engine_class;					\
	};								\
	FIXTURE_SETUP(name)						\
	{								\
		int slot;						\
									\
		TEMPO_ENV_SETUP(&self->env);				\
		slot = tempo_default_slot(self->env.engines,		\
					  variant->engine_class, 0);	\
		if (slot < 0)						\
			SKIP(return, "no engine of class %u",		\
			     variant->engine_class);			\
		self->slot = slot;					\
	}								\
	FIXTURE_TEARDOWN(name)						\
	{								\
		tempo_env_fini(&self->env);				\
	}

#define ENGINE_VARIANT(fixture, name, cls)				\
	FIXTURE_VARIANT_ADD(fixture, name) { .engine_class = (cls) }

/* ------------------------------------------------------------------------ */
/* Packets, on every class of engine */

ENGINE_FIXTURE(exec)
ENGINE_VARIANT(exec, gfx, DRM_TEMPO_ENGINE_CLASS_GFX);
ENGINE_VARIANT(exec, compute, DRM_TEMPO_ENGINE_CLASS_COMPUTE);
ENGINE_VARIANT(exec, copy, DRM_TEMPO_ENGINE_CLASS_COPY);

#define RUN(b) tempo_run(_metadata, self->env.fd, self->env.ctx, self->slot, \
			 (b)->va)

TEST_F(exec, empty_batch_completes)
{
	struct tempo_batch b;

	tempo_batch_init(&b, &self->env.cmd, 0, 16);
	tempo_pkt_end(&b);
	ASSERT_EQ(1, RUN(&b));
}

TEST_F(exec, nop_is_skipped_whatever_its_payload)
{
	struct tempo_env *e = &self->env;
	/* A payload that would be a valid write if it were executed. */
	const uint32_t payload[] = {
		DRM_TEMPO_PKT_HEADER(DRM_TEMPO_PKT_WRITE_DATA, 4),
		TEMPO_ARG_VA(VA(e, VICTIM)), 0xbad,
	};
	struct tempo_batch b;

	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_nop(&b, 0);
	tempo_pkt_nop(&b, 5);
	tempo_pkt_nop_data(&b, payload, ARRAY_SIZE(payload));
	tempo_pkt_write32(&b, VA(e, MARK_AFTER), 1);
	tempo_pkt_end(&b);
	ASSERT_EQ(1, RUN(&b));
	ASSERT_EQ(1u, *tempo_u32(&e->data, MARK_AFTER));
	ASSERT_TRUE(tempo_bo_is_zero(&e->data, VICTIM, 256));
}

TEST_F(exec, write_data_writes_every_dword)
{
	struct tempo_env *e = &self->env;
	uint32_t words[7] = { 1, 0xffffffff, 0x80000000, 0x12345678, 0,
			      0xcafef00d, 7 };
	struct tempo_batch b;

	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_write_data(&b, VA(e, SCRATCH + 4), words, 7);
	tempo_pkt_end(&b);
	ASSERT_EQ(1, RUN(&b));
	for (unsigned int i = 0; i < 7; i++)
		ASSERT_EQ(words[i], tempo_u32(&e->data, SCRATCH + 4)[i]);
	/* Nothing around it. */
	ASSERT_EQ(0u, *tempo_u32(&e->data, SCRATCH));
	ASSERT_EQ(0u, *tempo_u32(&e->data, SCRATCH + 4 + 7 * 4));
}

TEST_F(exec, write_timestamp_is_nonzero_and_monotonic)
{
	struct tempo_env *e = &self->env;
	struct tempo_batch b;
	uint64_t t0, t1;

	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_write_timestamp(&b, VA(e, SCRATCH));
	tempo_pkt_write_timestamp(&b, VA(e, SCRATCH + 8));
	tempo_pkt_end(&b);
	ASSERT_EQ(1, RUN(&b));
	t0 = *tempo_u64(&e->data, SCRATCH);
	t1 = *tempo_u64(&e->data, SCRATCH + 8);
	ASSERT_NE(0ull, t0);
	ASSERT_LE(t0, t1);

	/* And from one job to the next. */
	ASSERT_EQ(1, RUN(&b));
	ASSERT_LE(t1, *tempo_u64(&e->data, SCRATCH));
}

TEST_F(exec, copy_copies_exactly_the_bytes)
{
	struct tempo_env *e = &self->env;
	/* Odd size and offsets, across a page boundary. */
	const uint32_t size = 5001, src = SRC + 3, dst = DST + 5;
	unsigned char *d = (unsigned char *)e->data.map + dst;
	unsigned char *s = (unsigned char *)e->data.map + src;
	struct tempo_batch b;

	pattern(e, SRC, 0x10000, 1);
	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_copy(&b, VA(e, dst), VA(e, src), size);
	tempo_pkt_end(&b);
	ASSERT_EQ(1, RUN(&b));
	ASSERT_EQ(0, memcmp(d, s, size));
	ASSERT_TRUE(tempo_bo_is_zero(&e->data, DST, 5));
	ASSERT_TRUE(tempo_bo_is_zero(&e->data, dst + size, 64));
}

TEST_F(exec, fill_fills_exactly_the_dwords)
{
	struct tempo_env *e = &self->env;
	const uint32_t size = 3 * 4096 + 12;
	struct tempo_batch b;

	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_fill(&b, VA(e, DST + 4), 0xdeadbeef, size);
	tempo_pkt_end(&b);
	ASSERT_EQ(1, RUN(&b));
	for (uint32_t i = 0; i < size / 4; i++)
		ASSERT_EQ(0xdeadbeefu, tempo_u32(&e->data, DST + 4)[i]);
	ASSERT_EQ(0u, *tempo_u32(&e->data, DST));
	ASSERT_EQ(0u, *tempo_u32(&e->data, DST + 4 + size));
}

TEST_F(exec, atomic_add_adds_64_bit_values)
{
	struct tempo_env *e = &self->env;
	struct tempo_batch b;

	*tempo_u64(&e->data, SCRATCH) = 0xffffffffull;
	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_atomic(&b, VA(e, SCRATCH), DRM_TEMPO_ATOMIC_ADD, 1);
	tempo_pkt_atomic(&b, VA(e, SCRATCH), DRM_TEMPO_ATOMIC_ADD,
			 0x100000000000ull);
	tempo_pkt_end(&b);
	ASSERT_EQ(1, RUN(&b));
	/* The carry crosses into the high dword. */
	ASSERT_EQ(0x100100000000ull, *tempo_u64(&e->data, SCRATCH));
}

TEST_F(exec, atomic_add_wraps_around)
{
	struct tempo_env *e = &self->env;
	struct tempo_batch b;

	*tempo_u64(&e->data, SCRATCH) = 5;
	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_atomic(&b, VA(e, SCRATCH), DRM_TEMPO_ATOMIC_ADD, UINT64_MAX);
	tempo_pkt_end(&b);
	ASSERT_EQ(1, RUN(&b));
	ASSERT_EQ(4ull, *tempo_u64(&e->data, SCRATCH));
}

TEST_F(exec, atomic_inc_adds_one)
{
	struct tempo_env *e = &self->env;
	struct tempo_batch b;

	*tempo_u64(&e->data, SCRATCH) = 41;
	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_atomic(&b, VA(e, SCRATCH), DRM_TEMPO_ATOMIC_INC, 0);
	tempo_pkt_atomic(&b, VA(e, SCRATCH), DRM_TEMPO_ATOMIC_INC, 0);
	tempo_pkt_atomic(&b, VA(e, SCRATCH), DRM_TEMPO_ATOMIC_INC, 0);
	tempo_pkt_end(&b);
	ASSERT_EQ(1, RUN(&b));
	ASSERT_EQ(44ull, *tempo_u64(&e->data, SCRATCH));
	ASSERT_EQ(0ull, *tempo_u64(&e->data, SCRATCH + 8));
}

TEST_F(exec, wait_mem_already_satisfied_goes_on)
{
	struct tempo_env *e = &self->env;
	struct tempo_batch b;

	*tempo_u64(&e->data, SCRATCH) = 5;
	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_wait_mem(&b, VA(e, SCRATCH), DRM_TEMPO_COMPARE_GE, 5,
			   UINT64_MAX);
	tempo_pkt_write32(&b, VA(e, MARK_AFTER), 1);
	tempo_pkt_end(&b);
	ASSERT_EQ(1, RUN(&b));
	ASSERT_EQ(1u, *tempo_u32(&e->data, MARK_AFTER));
}

TEST_F(exec, wait_mem_compares_under_the_mask)
{
	struct tempo_env *e = &self->env;
	struct tempo_batch b;

	/* Only the masked bits match the reference. */
	*tempo_u64(&e->data, SCRATCH) = 0xabcd0000000000ffull;
	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_wait_mem(&b, VA(e, SCRATCH), DRM_TEMPO_COMPARE_EQ, 0xff,
			   0xff);
	tempo_pkt_write32(&b, VA(e, MARK_AFTER), 1);
	tempo_pkt_end(&b);
	ASSERT_EQ(1, RUN(&b));
	ASSERT_EQ(1u, *tempo_u32(&e->data, MARK_AFTER));
}

TEST_F(exec, wait_mem_blocks_until_the_cpu_writes_memory)
{
	struct tempo_env *e = &self->env;
	struct tempo_batch b;
	int fence;

	TEMPO_NEED_BLOCKING(e);
	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_write32(&b, VA(e, MARK_BEFORE), 1);
	tempo_pkt_wait_mem(&b, VA(e, SCRATCH), DRM_TEMPO_COMPARE_EQ,
			   0x1234567800000001ull, UINT64_MAX);
	tempo_pkt_write32(&b, VA(e, MARK_AFTER), 1);
	tempo_pkt_end(&b);
	fence = tempo_submit(_metadata, e->fd, e->ctx, self->slot, b.va);

	ASSERT_EQ(0, tempo_fence_wait(fence, TEMPO_BLOCKED_MS));
	ASSERT_EQ(1u, *tempo_u32(&e->data, MARK_BEFORE));
	ASSERT_EQ(0u, *tempo_u32(&e->data, MARK_AFTER));

	/* Half of the value is not enough. */
	__atomic_store_n(tempo_u32(&e->data, SCRATCH), 1, __ATOMIC_SEQ_CST);
	ASSERT_EQ(0, tempo_fence_wait(fence, TEMPO_BLOCKED_MS));

	__atomic_store_n(tempo_u32(&e->data, SCRATCH + 4), 0x12345678,
			 __ATOMIC_SEQ_CST);
	ASSERT_EQ(1, tempo_fence_wait(fence, TEMPO_WAIT_MS));
	ASSERT_EQ(1u, *tempo_u32(&e->data, MARK_AFTER));
	close(fence);
}

/*
 * A batch that writes 1, runs a second-level batch (which writes 2) by a
 * BATCH_START with @flags, then writes 3: in three dwords of SCRATCH.
 */
static uint64_t call_batch(struct tempo_env *e, uint32_t flags)
{
	struct tempo_batch main_b, sub;

	tempo_batch_init(&sub, &e->cmd, 4096, 64);
	tempo_pkt_write32(&sub, VA(e, SCRATCH + 4), 2);
	tempo_pkt_end(&sub);

	tempo_batch_init(&main_b, &e->cmd, 0, 64);
	tempo_pkt_write32(&main_b, VA(e, SCRATCH), 1);
	tempo_pkt_batch_start(&main_b, sub.va, flags);
	tempo_pkt_write32(&main_b, VA(e, SCRATCH + 8), 3);
	tempo_pkt_end(&main_b);
	return main_b.va;
}

TEST_F(exec, batch_start_calls_and_returns)
{
	struct tempo_env *e = &self->env;

	ASSERT_EQ(1, tempo_run(_metadata, e->fd, e->ctx, self->slot,
			       call_batch(e, 0)));
	ASSERT_EQ(1u, tempo_u32(&e->data, SCRATCH)[0]);
	ASSERT_EQ(2u, tempo_u32(&e->data, SCRATCH)[1]);
	ASSERT_EQ(3u, tempo_u32(&e->data, SCRATCH)[2]);
}

TEST_F(exec, batch_start_runs_the_same_batch_twice)
{
	struct tempo_env *e = &self->env;
	struct tempo_batch main_b, sub;

	tempo_batch_init(&sub, &e->cmd, 4096, 64);
	tempo_pkt_atomic(&sub, VA(e, SCRATCH), DRM_TEMPO_ATOMIC_INC, 0);
	tempo_pkt_end(&sub);

	tempo_batch_init(&main_b, &e->cmd, 0, 64);
	tempo_pkt_batch_start(&main_b, sub.va, 0);
	tempo_pkt_batch_start(&main_b, sub.va, 0);
	tempo_pkt_end(&main_b);

	ASSERT_EQ(1, RUN(&main_b));
	ASSERT_EQ(2ull, *tempo_u64(&e->data, SCRATCH));
}

TEST_F(exec, batch_start_chain_does_not_return)
{
	struct tempo_env *e = &self->env;

	ASSERT_EQ(1, tempo_run(_metadata, e->fd, e->ctx, self->slot,
			       call_batch(e, DRM_TEMPO_BATCH_CHAIN)));
	ASSERT_EQ(1u, tempo_u32(&e->data, SCRATCH)[0]);
	ASSERT_EQ(2u, tempo_u32(&e->data, SCRATCH)[1]);
	ASSERT_EQ(0u, tempo_u32(&e->data, SCRATCH)[2]);
}

TEST_F(exec, chain_inside_a_call_returns_to_the_caller)
{
	struct tempo_env *e = &self->env;
	struct tempo_batch main_b, sub, sub2;

	/* main calls sub, sub chains to sub2, sub2's END returns to main. */
	tempo_batch_init(&sub2, &e->cmd, 8192, 64);
	tempo_pkt_write32(&sub2, VA(e, SCRATCH + 4), 2);
	tempo_pkt_end(&sub2);

	tempo_batch_init(&sub, &e->cmd, 4096, 64);
	tempo_pkt_batch_start(&sub, sub2.va, DRM_TEMPO_BATCH_CHAIN);
	tempo_pkt_write32(&sub, VA(e, SCRATCH + 12), 0xbad);
	tempo_pkt_end(&sub);

	tempo_batch_init(&main_b, &e->cmd, 0, 64);
	tempo_pkt_batch_start(&main_b, sub.va, 0);
	tempo_pkt_write32(&main_b, VA(e, SCRATCH + 8), 3);
	tempo_pkt_end(&main_b);

	ASSERT_EQ(1, RUN(&main_b));
	ASSERT_EQ(2u, tempo_u32(&e->data, SCRATCH)[1]);
	ASSERT_EQ(3u, tempo_u32(&e->data, SCRATCH)[2]);
	ASSERT_EQ(0u, tempo_u32(&e->data, SCRATCH)[3]);
}

/*
 * Batches 0..levels at 256-byte steps of the command buffer: batch i calls
 * (or chains to) batch i + 1 and then increments the counter, the last one
 * only increments it.
 */
static void build_nest(struct tempo_env *e, uint32_t levels, uint32_t flags)
{
	for (uint32_t i = 0; i <= levels; i++) {
		struct tempo_batch b;

		tempo_batch_init(&b, &e->cmd, 256ull * i, 64);
		if (i < levels)
			tempo_pkt_batch_start(&b, e->cmd.va + 256ull * (i + 1),
					      flags);
		tempo_pkt_atomic(&b, VA(e, SCRATCH), DRM_TEMPO_ATOMIC_INC, 0);
		tempo_pkt_end(&b);
	}
}

TEST_F(exec, nesting_up_to_max_batch_depth_succeeds)
{
	struct tempo_env *e = &self->env;
	uint32_t depth = e->dev.max_batch_depth;

	if (256ull * (depth + 1) > TEMPO_CMD_SIZE)
		SKIP(return, "max_batch_depth %u is too deep to build", depth);
	build_nest(e, depth, 0);
	ASSERT_EQ(1, tempo_run(_metadata, e->fd, e->ctx, self->slot,
			       e->cmd.va));
	/* Every level ran, and every call returned. */
	ASSERT_EQ((uint64_t)depth + 1, *tempo_u64(&e->data, SCRATCH));
}

TEST_F(exec, nesting_deeper_than_max_batch_depth_fails_eloop)
{
	struct tempo_env *e = &self->env;
	uint32_t depth = e->dev.max_batch_depth + 1;

	if (256ull * (depth + 1) > TEMPO_CMD_SIZE)
		SKIP(return, "max_batch_depth %u is too deep to build", depth);
	build_nest(e, depth, 0);
	ASSERT_EQ(-ELOOP, tempo_run(_metadata, e->fd, e->ctx, self->slot,
				    e->cmd.va));
	/* The job stopped at the call that was one too deep. */
	ASSERT_EQ(0ull, *tempo_u64(&e->data, SCRATCH));
}

TEST_F(exec, batch_calling_itself_fails_eloop)
{
	struct tempo_env *e = &self->env;
	struct tempo_batch b;

	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_batch_start(&b, b.va, 0);
	tempo_pkt_end(&b);
	ASSERT_EQ(-ELOOP, RUN(&b));
}

TEST_F(exec, chaining_does_not_use_a_nesting_level)
{
	struct tempo_env *e = &self->env;
	uint32_t links = e->dev.max_batch_depth + 4;

	if (256ull * (links + 1) > TEMPO_CMD_SIZE)
		SKIP(return, "max_batch_depth %u is too deep to build",
		     e->dev.max_batch_depth);
	build_nest(e, links, DRM_TEMPO_BATCH_CHAIN);
	ASSERT_EQ(1, tempo_run(_metadata, e->fd, e->ctx, self->slot,
			       e->cmd.va));
	/* Only the last batch got past its BATCH_START. */
	ASSERT_EQ(1ull, *tempo_u64(&e->data, SCRATCH));
}

TEST_F(exec, access_outside_every_mapping_faults_efault)
{
	struct tempo_env *e = &self->env;
	uint64_t hole = unmapped_va(_metadata, e);
	struct tempo_batch b;
	unsigned char *p = e->data.map;

	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_write32(&b, VA(e, MARK_BEFORE), 1);
	tempo_pkt_write32(&b, hole + 64, 0xbad);
	tempo_pkt_write32(&b, VA(e, MARK_AFTER), 1);
	tempo_pkt_end(&b);
	ASSERT_EQ(-EFAULT, RUN(&b));

	/* Packets before the fault ran, the job stopped at the fault. */
	ASSERT_EQ(1u, *tempo_u32(&e->data, MARK_BEFORE));
	ASSERT_EQ(0u, *tempo_u32(&e->data, MARK_AFTER));
	/* And nothing else in the buffer changed. */
	p[MARK_BEFORE] = 0;
	ASSERT_TRUE(tempo_bo_is_zero(&e->data, 0, e->data.size));
}

TEST_F(exec, write_running_past_the_end_of_a_mapping_faults_efault)
{
	struct tempo_env *e = &self->env;
	uint64_t page = tempo_page_size();
	uint32_t words[2] = { 0xbad0, 0xbad1 };
	struct tempo_batch b;
	struct tempo_bo bo;

	page_before_hole(_metadata, e, &bo);
	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_write_data(&b, bo.va + page - 4, words, 2);
	tempo_pkt_write32(&b, VA(e, MARK_AFTER), 1);
	tempo_pkt_end(&b);
	ASSERT_EQ(-EFAULT, RUN(&b));
	ASSERT_EQ(0u, *tempo_u32(&e->data, MARK_AFTER));
}

TEST_F(exec, copy_from_outside_every_mapping_faults_efault)
{
	struct tempo_env *e = &self->env;
	uint64_t page = tempo_page_size();
	struct tempo_batch b;
	struct tempo_bo bo;

	page_before_hole(_metadata, e, &bo);
	/* The source starts mapped and runs into the hole. */
	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_copy(&b, VA(e, DST), bo.va + page - 64, 128);
	tempo_pkt_write32(&b, VA(e, MARK_AFTER), 1);
	tempo_pkt_end(&b);
	ASSERT_EQ(-EFAULT, RUN(&b));
	ASSERT_EQ(0u, *tempo_u32(&e->data, MARK_AFTER));
}

TEST_F(exec, address_wrapping_around_64_bits_faults_efault)
{
	struct tempo_env *e = &self->env;
	uint32_t words[2] = { 0xbad0, 0xbad1 };
	struct tempo_batch b;

	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_write_data(&b, UINT64_MAX - 3, words, 2);
	tempo_pkt_end(&b);
	ASSERT_EQ(-EFAULT, RUN(&b));
}

TEST_F(exec, batch_at_an_unmapped_address_faults_efault)
{
	struct tempo_env *e = &self->env;

	ASSERT_EQ(-EFAULT, tempo_run(_metadata, e->fd, e->ctx, self->slot,
				     unmapped_va(_metadata, e)));
}

/*
 * Run a WRITE_DATA (or, with @atomic, an ATOMIC INC) at offset 16 of a GPU
 * read-only mapping of SCRATCH, then a write of MARK_AFTER: the status.
 */
static int write_readonly(struct __test_metadata *_metadata,
			  FIXTURE_DATA(exec) *self, bool atomic)
{
	struct tempo_env *e = &self->env;
	uint64_t ro = map_readonly(_metadata, e, &e->data, SCRATCH);
	struct tempo_batch b;

	tempo_batch_init(&b, &e->cmd, 0, 64);
	if (atomic)
		tempo_pkt_atomic(&b, ro + 16, DRM_TEMPO_ATOMIC_INC, 0);
	else
		tempo_pkt_write32(&b, ro + 16, 0xbad);
	tempo_pkt_write32(&b, VA(e, MARK_AFTER), 1);
	tempo_pkt_end(&b);
	return RUN(&b);
}

TEST_F(exec, write_to_a_readonly_mapping_faults_efault)
{
	ASSERT_EQ(-EFAULT, write_readonly(_metadata, self, false));
	ASSERT_EQ(0u, *tempo_u32(&self->env.data, SCRATCH + 16));
	ASSERT_EQ(0u, *tempo_u32(&self->env.data, MARK_AFTER));
}

TEST_F(exec, atomic_on_a_readonly_mapping_faults_efault)
{
	ASSERT_EQ(-EFAULT, write_readonly(_metadata, self, true));
	ASSERT_EQ(0ull, *tempo_u64(&self->env.data, SCRATCH + 16));
}

TEST_F(exec, readonly_mapping_can_be_read)
{
	struct tempo_env *e = &self->env;
	uint64_t ro;
	struct tempo_batch b;

	pattern(e, SRC, 256, 7);
	ro = map_readonly(_metadata, e, &e->data, SRC);
	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_copy(&b, VA(e, DST), ro, 256);
	tempo_pkt_end(&b);
	ASSERT_EQ(1, RUN(&b));
	ASSERT_EQ(0, memcmp((char *)e->data.map + DST,
			    (char *)e->data.map + SRC, 256));
}

TEST_F(exec, batch_in_a_readonly_mapping_runs)
{
	struct tempo_env *e = &self->env;
	uint64_t ro;
	struct tempo_batch b;

	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_write32(&b, VA(e, MARK_AFTER), 1);
	tempo_pkt_end(&b);
	ro = map_readonly(_metadata, e, &e->cmd, 0);
	ASSERT_EQ(1, tempo_run(_metadata, e->fd, e->ctx, self->slot, ro));
	ASSERT_EQ(1u, *tempo_u32(&e->data, MARK_AFTER));
}

TEST_F(exec, illegal_opcode_fails_eilseq)
{
	struct tempo_env *e = &self->env;
	struct tempo_batch b;

	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_write32(&b, VA(e, MARK_BEFORE), 1);
	tempo_emit(&b, DRM_TEMPO_PKT_HEADER(0xff, 1));
	tempo_pkt_write32(&b, VA(e, MARK_AFTER), 1);
	tempo_pkt_end(&b);
	ASSERT_EQ(-EILSEQ, RUN(&b));
	ASSERT_EQ(1u, *tempo_u32(&e->data, MARK_BEFORE));
	ASSERT_EQ(0u, *tempo_u32(&e->data, MARK_AFTER));
}

TEST_F(exec, job_error_bans_only_its_context)
{
	struct tempo_env *e = &self->env;
	struct tempo_batch bad, good;
	uint32_t other;

	tempo_batch_init(&bad, &e->cmd, 0, 64);
	tempo_emit(&bad, DRM_TEMPO_PKT_HEADER(0xff, 1));
	tempo_batch_init(&good, &e->cmd, 4096, 64);
	tempo_pkt_write32(&good, VA(e, MARK_AFTER), 1);
	tempo_pkt_end(&good);

	ASSERT_EQ(-EILSEQ, RUN(&bad));
	ASSERT_EQ(-ECANCELED, tempo_exec(e->fd, e->ctx, self->slot, good.va,
					 NULL, 0, NULL, 0, NULL));
	ASSERT_EQ(0u, *tempo_u32(&e->data, MARK_AFTER));

	ASSERT_EQ(0, tempo_ctx_create(e->fd, 0, NULL, 0, &other));
	ASSERT_EQ(1, tempo_run(_metadata, e->fd, other, self->slot, good.va));
	ASSERT_EQ(1u, *tempo_u32(&e->data, MARK_AFTER));
}

/* ------------------------------------------------------------------------ */
/* Built-in kernels, on the engines that may DISPATCH */

ENGINE_FIXTURE(dispatch)
ENGINE_VARIANT(dispatch, gfx, DRM_TEMPO_ENGINE_CLASS_GFX);
ENGINE_VARIANT(dispatch, compute, DRM_TEMPO_ENGINE_CLASS_COMPUTE);

TEST_F(dispatch, fill_fills_the_chunk_of_every_group)
{
	struct tempo_env *e = &self->env;
	const uint32_t bytes = 256, groups = 2 * 3 * 2;
	uint32_t args[] = { TEMPO_ARG_VA(VA(e, DST)), 0x600dda7a, bytes };
	struct tempo_batch b;

	if (e->dev.max_groups < groups)
		SKIP(return, "max_groups %u", e->dev.max_groups);
	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_dispatch(&b, DRM_TEMPO_KERNEL_FILL, 2, 3, 2, args, 4);
	tempo_pkt_end(&b);
	ASSERT_EQ(1, RUN(&b));
	for (uint32_t i = 0; i < groups * bytes / 4; i++)
		ASSERT_EQ(0x600dda7au, tempo_u32(&e->data, DST)[i]);
	ASSERT_TRUE(tempo_bo_is_zero(&e->data, DST + groups * bytes, 256));
}

TEST_F(dispatch, copy_copies_the_chunk_of_every_group)
{
	struct tempo_env *e = &self->env;
	const uint32_t bytes = 1000, groups = 16;
	uint32_t args[] = {
		TEMPO_ARG_VA(VA(e, DST)), TEMPO_ARG_VA(VA(e, SRC)), bytes,
	};
	struct tempo_batch b;

	if (e->dev.max_groups < groups)
		SKIP(return, "max_groups %u", e->dev.max_groups);
	pattern(e, SRC, 0x10000, 3);
	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_dispatch(&b, DRM_TEMPO_KERNEL_COPY, groups, 1, 1, args, 5);
	tempo_pkt_end(&b);
	ASSERT_EQ(1, RUN(&b));
	ASSERT_EQ(0, memcmp((char *)e->data.map + DST,
			    (char *)e->data.map + SRC, groups * bytes));
	ASSERT_TRUE(tempo_bo_is_zero(&e->data, DST + groups * bytes, 256));
}

/*
 * A batch that starts with eight groups that each increment the qword at
 * SCRATCH 512 times.
 */
static void inc_4096_times(struct tempo_batch *b, struct tempo_env *e)
{
	uint32_t args[] = { TEMPO_ARG_VA(VA(e, SCRATCH)), 512 };

	tempo_batch_init(b, &e->cmd, 0, 64);
	tempo_pkt_dispatch(b, DRM_TEMPO_KERNEL_ATOMIC_INC, 8, 1, 1, args, 3);
}

TEST_F(dispatch, atomic_inc_counts_every_increment_of_every_group)
{
	struct tempo_env *e = &self->env;
	struct tempo_batch b;

	if (e->dev.max_groups < 8)
		SKIP(return, "max_groups %u", e->dev.max_groups);
	inc_4096_times(&b, e);
	tempo_pkt_end(&b);
	ASSERT_EQ(1, RUN(&b));
	ASSERT_EQ(4096ull, *tempo_u64(&e->data, SCRATCH));
}

TEST_F(dispatch, checksum_adds_the_sum_of_every_chunk)
{
	struct tempo_env *e = &self->env;
	const uint32_t bytes = 1024, groups = 16;
	uint32_t args[] = {
		TEMPO_ARG_VA(VA(e, SRC)), TEMPO_ARG_VA(VA(e, SCRATCH)), bytes,
	};
	uint64_t sum = 1000;
	struct tempo_batch b;

	if (e->dev.max_groups < groups)
		SKIP(return, "max_groups %u", e->dev.max_groups);
	pattern(e, SRC, groups * bytes, 5);
	for (uint32_t i = 0; i < groups * bytes / 4; i++)
		sum += tempo_u32(&e->data, SRC)[i];
	/* The kernel adds to what is there. */
	*tempo_u64(&e->data, SCRATCH) = 1000;

	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_dispatch(&b, DRM_TEMPO_KERNEL_CHECKSUM, 4, 4, 1, args, 5);
	tempo_pkt_end(&b);
	ASSERT_EQ(1, RUN(&b));
	ASSERT_EQ(sum, *tempo_u64(&e->data, SCRATCH));
}

TEST_F(dispatch, spin_takes_at_least_the_spin_time)
{
	struct tempo_env *e = &self->env;
	const uint32_t ns = 20 * 1000 * 1000;
	struct tempo_batch b;
	uint64_t t0;

	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_dispatch(&b, DRM_TEMPO_KERNEL_SPIN, 1, 1, 1, &ns, 1);
	tempo_pkt_end(&b);
	t0 = tempo_now_ns();
	ASSERT_EQ(1, RUN(&b));
	ASSERT_LE((uint64_t)ns, tempo_now_ns() - t0);
}

TEST_F(dispatch, spin_of_more_groups_than_cus_takes_several_rounds)
{
	struct tempo_env *e = &self->env;
	const uint32_t ns = 10 * 1000 * 1000;
	uint32_t groups = 2 * e->dev.num_cus;
	struct tempo_batch b;
	uint64_t t0;

	if (groups > e->dev.max_groups || e->dev.num_cus > 64)
		SKIP(return, "%u CUs, max_groups %u", e->dev.num_cus,
		     e->dev.max_groups);
	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_dispatch(&b, DRM_TEMPO_KERNEL_SPIN, groups, 1, 1, &ns, 1);
	tempo_pkt_end(&b);
	t0 = tempo_now_ns();
	ASSERT_EQ(1, RUN(&b));
	/* A CU runs one group at a time: two rounds at least. */
	ASSERT_LE(2ull * ns, tempo_now_ns() - t0);
}

TEST_F(dispatch, completes_before_the_next_packet)
{
	struct tempo_env *e = &self->env;
	struct tempo_batch b;

	if (e->dev.max_groups < 8)
		SKIP(return, "max_groups %u", e->dev.max_groups);
	inc_4096_times(&b, e);
	tempo_pkt_copy(&b, VA(e, SCRATCH + 8), VA(e, SCRATCH), 8);
	tempo_pkt_end(&b);
	ASSERT_EQ(1, RUN(&b));
	ASSERT_EQ(4096ull, *tempo_u64(&e->data, SCRATCH + 8));
}

TEST_F(dispatch, max_groups_succeeds)
{
	struct tempo_env *e = &self->env;
	uint32_t args[] = { TEMPO_ARG_VA(VA(e, SCRATCH)), 1 };
	struct tempo_batch b;

	struct utsname u;

	uint32_t part = e->dev.max_groups / 16;
	uint64_t t0, est_ms;

	if (e->dev.max_groups > (1u << 20))
		SKIP(return, "max_groups %u is too many to run here",
		     e->dev.max_groups);
	/* A million workgroups outlast the job timeout under KASAN. */
	if (!uname(&u) && strstr(u.release, "-debug"))
		SKIP(return, "too slow on the debug kernel %s", u.release);
	/*
	 * The machine's speed decides whether max_groups fit in a job's
	 * timeout: time a sixteenth first, run the whole only with twice
	 * the margin.
	 */
	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_dispatch(&b, DRM_TEMPO_KERNEL_ATOMIC_INC, part, 1, 1, args, 3);
	tempo_pkt_end(&b);
	t0 = tempo_now_ns();
	ASSERT_EQ(1, RUN(&b));
	est_ms = (tempo_now_ns() - t0) * 16 / 1000000;
	ASSERT_EQ((uint64_t)part, *tempo_u64(&e->data, SCRATCH));
	if (2 * est_ms > e->dev.job_timeout_ms)
		SKIP(return, "%u groups would take about %llu ms here, the job timeout is %u ms",
		     e->dev.max_groups, (unsigned long long)est_ms,
		     e->dev.job_timeout_ms);
	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_dispatch(&b, DRM_TEMPO_KERNEL_ATOMIC_INC, e->dev.max_groups,
			   1, 1, args, 3);
	tempo_pkt_end(&b);
	ASSERT_EQ(1, RUN(&b));
	ASSERT_EQ((uint64_t)part + e->dev.max_groups,
		  *tempo_u64(&e->data, SCRATCH));
}

TEST_F(dispatch, kernel_access_outside_every_mapping_faults_efault)
{
	struct tempo_env *e = &self->env;
	uint64_t hole = unmapped_va(_metadata, e);
	uint32_t args[] = { TEMPO_ARG_VA(hole), 0xbad, 64 };
	struct tempo_batch b;

	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_dispatch(&b, DRM_TEMPO_KERNEL_FILL, 4, 1, 1, args, 4);
	tempo_pkt_write32(&b, VA(e, MARK_AFTER), 1);
	tempo_pkt_end(&b);
	ASSERT_EQ(-EFAULT, RUN(&b));
	ASSERT_EQ(0u, *tempo_u32(&e->data, MARK_AFTER));
}

TEST_F(dispatch, kernel_write_to_a_readonly_mapping_faults_efault)
{
	struct tempo_env *e = &self->env;
	uint64_t ro = map_readonly(_metadata, e, &e->data, DST);
	uint32_t args[] = { TEMPO_ARG_VA(ro), 1 };
	struct tempo_batch b;

	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_dispatch(&b, DRM_TEMPO_KERNEL_ATOMIC_INC, 1, 1, 1, args, 3);
	tempo_pkt_end(&b);
	ASSERT_EQ(-EFAULT, RUN(&b));
	ASSERT_EQ(0ull, *tempo_u64(&e->data, DST));
}

/* ------------------------------------------------------------------------ */
/* Malformed packets: -EILSEQ, the job stops there and writes nothing */

TEMPO_ENV_FIXTURE(bad_packet)

FIXTURE_VARIANT(bad_packet) {
	void (*emit)(struct tempo_batch *b, struct tempo_env *e);
	/* Why the device's limits leave no room for this case, or NULL. */
	const char *(*unsupported)(const struct tempo_env *e);
};

/* Sub-batches of these tests live in the second half of the buffer. */
#define SUB_BATCH	(TEMPO_CMD_SIZE / 2)

#define V(e)	VA(e, VICTIM)

static void bp_unknown_opcode(struct tempo_batch *b, struct tempo_env *e)
{
	(void)e;
	tempo_emit(b, DRM_TEMPO_PKT_HEADER(DRM_TEMPO_PKT_WRITE_JOB_TIMES + 1, 1));
}

static void bp_reserved_header_bits(struct tempo_batch *b, struct tempo_env *e)
{
	tempo_emit(b, DRM_TEMPO_PKT_HEADER(DRM_TEMPO_PKT_WRITE_DATA, 4) |
		      (1u << 8));
	tempo_emit_u64(b, V(e));
	tempo_emit(b, 0xbad);
}

static void bp_zero_length(struct tempo_batch *b, struct tempo_env *e)
{
	(void)e;
	tempo_emit(b, DRM_TEMPO_PKT_HEADER(DRM_TEMPO_PKT_NOP, 0));
}

static void bp_longer_than_max_packet_dwords(struct tempo_batch *b,
					     struct tempo_env *e)
{
	tempo_pkt_nop(b, e->dev.max_packet_dwords);
}

static const char *no_longer_packet(const struct tempo_env *e)
{
	/* The header has 16 bits of length; the batch half of the buffer. */
	if (e->dev.max_packet_dwords >= 0xffff ||
	    e->dev.max_packet_dwords >= SUB_BATCH / 4 - 64)
		return "max_packet_dwords leaves no longer packet to build";
	return NULL;
}

static void bp_write_data_without_data(struct tempo_batch *b,
				       struct tempo_env *e)
{
	tempo_emit(b, DRM_TEMPO_PKT_HEADER(DRM_TEMPO_PKT_WRITE_DATA, 3));
	tempo_emit_u64(b, V(e));
}

static void bp_write_timestamp_too_long(struct tempo_batch *b,
					struct tempo_env *e)
{
	tempo_emit(b, DRM_TEMPO_PKT_HEADER(DRM_TEMPO_PKT_WRITE_TIMESTAMP, 4));
	tempo_emit_u64(b, V(e));
	tempo_emit(b, 0);
}

static void bp_copy_too_short(struct tempo_batch *b, struct tempo_env *e)
{
	tempo_emit(b, DRM_TEMPO_PKT_HEADER(DRM_TEMPO_PKT_COPY, 5));
	tempo_emit_u64(b, V(e));
	tempo_emit_u64(b, VA(e, SRC));
}

static void bp_fill_too_long(struct tempo_batch *b, struct tempo_env *e)
{
	tempo_emit(b, DRM_TEMPO_PKT_HEADER(DRM_TEMPO_PKT_FILL, 6));
	tempo_emit_u64(b, V(e));
	tempo_emit(b, 0xbad);
	tempo_emit(b, 64);
	tempo_emit(b, 0);
}

static void bp_atomic_too_short(struct tempo_batch *b, struct tempo_env *e)
{
	tempo_emit(b, DRM_TEMPO_PKT_HEADER(DRM_TEMPO_PKT_ATOMIC, 5));
	tempo_emit_u64(b, V(e));
	tempo_emit(b, DRM_TEMPO_ATOMIC_ADD);
	tempo_emit(b, 1);
}

static void bp_wait_mem_too_short(struct tempo_batch *b, struct tempo_env *e)
{
	tempo_emit(b, DRM_TEMPO_PKT_HEADER(DRM_TEMPO_PKT_WAIT_MEM, 7));
	tempo_emit_u64(b, V(e));
	tempo_emit(b, DRM_TEMPO_COMPARE_EQ);
	tempo_emit_u64(b, 0);
	tempo_emit(b, 0xffffffff);
}

static void bp_dispatch_too_short(struct tempo_batch *b, struct tempo_env *e)
{
	(void)e;
	tempo_emit(b, DRM_TEMPO_PKT_HEADER(DRM_TEMPO_PKT_DISPATCH, 4));
	tempo_emit(b, DRM_TEMPO_KERNEL_SPIN);
	tempo_emit(b, 1);
	tempo_emit(b, 1);
}

static void bp_dispatch_missing_kernel_args(struct tempo_batch *b,
					    struct tempo_env *e)
{
	/* FILL takes four dwords of arguments; give it three. */
	uint32_t args[] = { TEMPO_ARG_VA(V(e)), 0xbad };

	tempo_pkt_dispatch(b, DRM_TEMPO_KERNEL_FILL, 1, 1, 1, args, 3);
}

static void bp_batch_start_too_short(struct tempo_batch *b,
				     struct tempo_env *e)
{
	tempo_emit(b, DRM_TEMPO_PKT_HEADER(DRM_TEMPO_PKT_BATCH_START, 3));
	tempo_emit_u64(b, e->cmd.va + SUB_BATCH);
}

static void bp_end_too_long(struct tempo_batch *b, struct tempo_env *e)
{
	(void)e;
	tempo_emit(b, DRM_TEMPO_PKT_HEADER(DRM_TEMPO_PKT_END, 2));
	tempo_emit(b, 0);
}

static void bp_atomic_unknown_op(struct tempo_batch *b, struct tempo_env *e)
{
	tempo_pkt_atomic(b, V(e), DRM_TEMPO_ATOMIC_INC + 1, 1);
}

static void bp_atomic_inc_nonzero_value(struct tempo_batch *b,
					struct tempo_env *e)
{
	tempo_pkt_atomic(b, V(e), DRM_TEMPO_ATOMIC_INC, 1);
}

static void bp_wait_mem_unknown_compare(struct tempo_batch *b,
					struct tempo_env *e)
{
	tempo_pkt_wait_mem(b, V(e), DRM_TEMPO_COMPARE_GE + 1, 0, UINT64_MAX);
}

static void bp_dispatch_unknown_kernel(struct tempo_batch *b,
				       struct tempo_env *e)
{
	uint32_t arg = 0;

	(void)e;
	tempo_pkt_dispatch(b, DRM_TEMPO_KERNEL_SPIN + 1, 1, 1, 1, &arg, 1);
}

static void bp_dispatch_too_many_groups(struct tempo_batch *b,
					struct tempo_env *e)
{
	uint32_t args[] = { TEMPO_ARG_VA(V(e)), 1 };

	tempo_pkt_dispatch(b, DRM_TEMPO_KERNEL_ATOMIC_INC,
			   e->dev.max_groups + 1, 1, 1, args, 3);
}

static const char *no_more_groups(const struct tempo_env *e)
{
	return e->dev.max_groups == UINT32_MAX ? "max_groups is UINT32_MAX" :
						 NULL;
}

static void bp_dispatch_group_count_wrapping_32_bits(struct tempo_batch *b,
						     struct tempo_env *e)
{
	uint32_t args[] = { TEMPO_ARG_VA(V(e)), 1 };

	/* 641 * 6700417 = 2^32 + 1 */
	tempo_pkt_dispatch(b, DRM_TEMPO_KERNEL_ATOMIC_INC, 641, 6700417, 1,
			   args, 3);
}

static void bp_batch_start_unknown_flags(struct tempo_batch *b,
					 struct tempo_env *e)
{
	struct tempo_batch sub;

	/* A valid target that would write the victim. */
	tempo_batch_init(&sub, &e->cmd, SUB_BATCH, 64);
	tempo_pkt_write32(&sub, V(e), 0xbad);
	tempo_pkt_end(&sub);
	tempo_pkt_batch_start(b, sub.va, DRM_TEMPO_BATCH_CHAIN << 1);
}

/*
 * An idle engine: the job is queued between the submit and its first
 * packet, starts after that, and waited for no other queue's work.
 */
TEST_F(exec, write_job_times_reports_an_idle_job_that_waited_for_nothing)
{
	struct tempo_env *e = &self->env;
	const struct drm_tempo_job_times *t =
		(const void *)tempo_u64(&e->data, SCRATCH);
	struct tempo_batch b;
	uint64_t before, first, after;

	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_write_timestamp(&b, VA(e, SCRATCH + 64));
	tempo_pkt_write_job_times(&b, VA(e, SCRATCH));
	tempo_pkt_end(&b);
	before = tempo_now_ns();
	ASSERT_EQ(1, RUN(&b));
	after = tempo_now_ns();
	first = *tempo_u64(&e->data, SCRATCH + 64);
	ASSERT_EQ(1000000000ull, e->dev.timestamp_frequency);
	ASSERT_LE(before, t->queued);
	ASSERT_LE(t->queued, t->started);
	ASSERT_LE(t->started, first);
	ASSERT_LE(first, after);
	ASSERT_EQ(0ull, t->engine_wait_ns);
	ASSERT_EQ(0ull, t->cu_wait_ns);
}

static void bp_write_data_misaligned(struct tempo_batch *b,
				     struct tempo_env *e)
{
	tempo_pkt_write32(b, V(e) + 2, 0xbad);
}

static void bp_write_timestamp_misaligned(struct tempo_batch *b,
					  struct tempo_env *e)
{
	tempo_pkt_write_timestamp(b, V(e) + 4);
}

static void bp_write_job_times_misaligned(struct tempo_batch *b,
					  struct tempo_env *e)
{
	tempo_pkt_write_job_times(b, V(e) + 8);
}

static void bp_write_job_times_too_long(struct tempo_batch *b,
					struct tempo_env *e)
{
	tempo_emit(b, DRM_TEMPO_PKT_HEADER(DRM_TEMPO_PKT_WRITE_JOB_TIMES, 4));
	tempo_emit_u64(b, V(e));
	tempo_emit(b, 0);
}

static void bp_fill_dst_misaligned(struct tempo_batch *b, struct tempo_env *e)
{
	tempo_pkt_fill(b, V(e) + 2, 0xbad, 64);
}

static void bp_fill_size_misaligned(struct tempo_batch *b,
				    struct tempo_env *e)
{
	tempo_pkt_fill(b, V(e), 0xbad, 6);
}

static void bp_atomic_misaligned(struct tempo_batch *b, struct tempo_env *e)
{
	tempo_pkt_atomic(b, V(e) + 4, DRM_TEMPO_ATOMIC_ADD, 1);
}

static void bp_wait_mem_misaligned(struct tempo_batch *b, struct tempo_env *e)
{
	/* Satisfied, if the address were accepted. */
	tempo_pkt_wait_mem(b, V(e) + 4, DRM_TEMPO_COMPARE_EQ, 0, UINT64_MAX);
}

static void bp_kernel_fill_bytes_misaligned(struct tempo_batch *b,
					    struct tempo_env *e)
{
	uint32_t args[] = { TEMPO_ARG_VA(V(e)), 0xbad, 6 };

	tempo_pkt_dispatch(b, DRM_TEMPO_KERNEL_FILL, 1, 1, 1, args, 4);
}

static void bp_kernel_atomic_inc_misaligned(struct tempo_batch *b,
					    struct tempo_env *e)
{
	uint32_t args[] = { TEMPO_ARG_VA(V(e) + 4), 1 };

	tempo_pkt_dispatch(b, DRM_TEMPO_KERNEL_ATOMIC_INC, 1, 1, 1, args, 3);
}

static void bp_kernel_checksum_dst_misaligned(struct tempo_batch *b,
					      struct tempo_env *e)
{
	uint32_t args[] = { TEMPO_ARG_VA(VA(e, SRC)), TEMPO_ARG_VA(V(e) + 4),
			    64 };

	tempo_pkt_dispatch(b, DRM_TEMPO_KERNEL_CHECKSUM, 1, 1, 1, args, 5);
}

#define BAD_PACKET(name) \
	FIXTURE_VARIANT_ADD(bad_packet, name) { .emit = bp_##name, }
#define BAD_PACKET_IF(name, check) \
	FIXTURE_VARIANT_ADD(bad_packet, name) { \
		.emit = bp_##name, .unsupported = check, \
	}

BAD_PACKET(unknown_opcode);
BAD_PACKET(reserved_header_bits);
BAD_PACKET(zero_length);
BAD_PACKET_IF(longer_than_max_packet_dwords, no_longer_packet);
BAD_PACKET(write_data_without_data);
BAD_PACKET(write_timestamp_too_long);
BAD_PACKET(copy_too_short);
BAD_PACKET(fill_too_long);
BAD_PACKET(atomic_too_short);
BAD_PACKET(wait_mem_too_short);
BAD_PACKET(dispatch_too_short);
BAD_PACKET(dispatch_missing_kernel_args);
BAD_PACKET(batch_start_too_short);
BAD_PACKET(end_too_long);
BAD_PACKET(atomic_unknown_op);
BAD_PACKET(atomic_inc_nonzero_value);
BAD_PACKET(wait_mem_unknown_compare);
BAD_PACKET(dispatch_unknown_kernel);
BAD_PACKET_IF(dispatch_too_many_groups, no_more_groups);
BAD_PACKET(dispatch_group_count_wrapping_32_bits);
BAD_PACKET(batch_start_unknown_flags);
BAD_PACKET(write_data_misaligned);
BAD_PACKET(write_timestamp_misaligned);
BAD_PACKET(write_job_times_misaligned);
BAD_PACKET(write_job_times_too_long);
BAD_PACKET(fill_dst_misaligned);
BAD_PACKET(fill_size_misaligned);
BAD_PACKET(atomic_misaligned);
BAD_PACKET(wait_mem_misaligned);
BAD_PACKET(kernel_fill_bytes_misaligned);
BAD_PACKET(kernel_atomic_inc_misaligned);
BAD_PACKET(kernel_checksum_dst_misaligned);

TEST_F(bad_packet, fails_eilseq_and_stops_the_job)
{
	struct tempo_env *e = &self->env;
	struct tempo_batch b;
	int slot = tempo_default_slot(e->engines, DRM_TEMPO_ENGINE_CLASS_GFX, 0);

	ASSERT_LE(0, slot);
	if (variant->unsupported && variant->unsupported(e))
		SKIP(return, "%s", variant->unsupported(e));
	tempo_batch_init(&b, &e->cmd, 0, SUB_BATCH / 4);
	tempo_pkt_write32(&b, VA(e, MARK_BEFORE), 1);
	variant->emit(&b, e);
	tempo_pkt_write32(&b, VA(e, MARK_AFTER), 1);
	tempo_pkt_end(&b);

	ASSERT_EQ(-EILSEQ, tempo_run(_metadata, e->fd, e->ctx, slot, b.va));
	ASSERT_EQ(1u, *tempo_u32(&e->data, MARK_BEFORE));
	ASSERT_EQ(0u, *tempo_u32(&e->data, MARK_AFTER));
	ASSERT_TRUE(tempo_bo_is_zero(&e->data, VICTIM, 256));
}

/* ------------------------------------------------------------------------ */
/* Engines, syncs, ordering */

FIXTURE(exec_sync) {
	struct tempo_env env;
	int gfx, compute, copy;	/* default map slots, -1 if none */
};

FIXTURE_SETUP(exec_sync)
{
	TEMPO_ENV_SETUP(&self->env);
	self->gfx = tempo_default_slot(self->env.engines,
				       DRM_TEMPO_ENGINE_CLASS_GFX, 0);
	self->compute = tempo_default_slot(self->env.engines,
					   DRM_TEMPO_ENGINE_CLASS_COMPUTE, 0);
	self->copy = tempo_default_slot(self->env.engines,
					DRM_TEMPO_ENGINE_CLASS_COPY, 0);
	ASSERT_LE(0, self->gfx);
}

FIXTURE_TEARDOWN(exec_sync)
{
	tempo_env_fini(&self->env);
}

TEST_F(exec_sync, every_engine_runs_a_batch)
{
	struct tempo_env *e = &self->env;

	for (uint32_t i = 0; i < e->engines->num_engines; i++) {
		uint64_t va = tempo_mark_batch(e, 64 * i, SCRATCH + 4 * i,
					       i + 1);

		ASSERT_EQ(1, tempo_run(_metadata, e->fd, e->ctx, i, va));
		ASSERT_EQ(i + 1, *tempo_u32(&e->data, SCRATCH + 4 * i));
	}
}

TEST_F(exec_sync, dispatch_on_a_copy_engine_fails_eilseq)
{
	struct tempo_env *e = &self->env;
	uint32_t args[] = { TEMPO_ARG_VA(VA(e, SCRATCH)), 1 };
	unsigned int n = tempo_count_class(e->engines,
					   DRM_TEMPO_ENGINE_CLASS_COPY);

	if (!n)
		SKIP(return, "no copy engine");
	for (unsigned int i = 0; i < n; i++) {
		int slot = tempo_default_slot(e->engines,
					      DRM_TEMPO_ENGINE_CLASS_COPY, i);
		struct tempo_batch b;

		tempo_batch_init(&b, &e->cmd, 256 * i, 64);
		tempo_pkt_write32(&b, VA(e, MARK_BEFORE), 1);
		tempo_pkt_dispatch(&b, DRM_TEMPO_KERNEL_ATOMIC_INC, 1, 1, 1,
				   args, 3);
		tempo_pkt_write32(&b, VA(e, MARK_AFTER), 1);
		tempo_pkt_end(&b);
		/* The failed job bans its context: one context per engine. */
		ASSERT_EQ(0, tempo_ctx_create(e->fd, 0, NULL, 0, &e->ctx));
		ASSERT_EQ(-EILSEQ, tempo_run(_metadata, e->fd, e->ctx, slot,
					     b.va));
		ASSERT_EQ(1u, *tempo_u32(&e->data, MARK_BEFORE));
		ASSERT_EQ(0u, *tempo_u32(&e->data, MARK_AFTER));
		ASSERT_EQ(0ull, *tempo_u64(&e->data, SCRATCH));
	}
}

TEST_F(exec_sync, out_fence_fd_is_minus_one_without_the_flag)
{
	struct tempo_env *e = &self->env;
	uint64_t va = tempo_mark_batch(e, 0, MARK_AFTER, 1);
	struct drm_tempo_exec x = {
		.ctx_id = e->ctx,
		.slot = self->gfx,
		.num_batches = 1,
		.batches = (uint64_t)(uintptr_t)&va,
		.out_fence_fd = 1234,
	};
	uint32_t s;
	struct drm_tempo_sync out = { 0 };

	ASSERT_EQ(0, drmSyncobjCreate(e->fd, 0, &s));
	out.handle = s;
	x.num_out_syncs = 1;
	x.out_syncs = (uint64_t)(uintptr_t)&out;
	ASSERT_EQ(0, ioctl(e->fd, DRM_IOCTL_TEMPO_EXEC, &x));
	ASSERT_EQ(-1, x.out_fence_fd);
	ASSERT_EQ(1, tempo_syncobj_status(e->fd, s, TEMPO_WAIT_MS));
}

TEST_F(exec_sync, sync_file_status_is_1_on_success)
{
	struct tempo_env *e = &self->env;
	uint64_t va = tempo_mark_batch(e, 0, MARK_AFTER, 1);
	int fence = -1;

	ASSERT_EQ(0, tempo_exec(e->fd, e->ctx, self->gfx, va, NULL, 0, NULL, 0,
				&fence));
	ASSERT_LE(0, fence);
	ASSERT_EQ(1, tempo_fence_wait(fence, TEMPO_WAIT_MS));
	ASSERT_EQ(1u, *tempo_u32(&e->data, MARK_AFTER));
	close(fence);
}

TEST_F(exec_sync, sync_file_status_is_the_job_error)
{
	struct tempo_env *e = &self->env;
	struct tempo_batch b;
	int fence = -1;

	tempo_batch_init(&b, &e->cmd, 0, 16);
	tempo_emit(&b, DRM_TEMPO_PKT_HEADER(0xff, 1));
	ASSERT_EQ(0, tempo_exec(e->fd, e->ctx, self->gfx, b.va, NULL, 0, NULL,
				0, &fence));
	ASSERT_EQ(-EILSEQ, tempo_fence_wait(fence, TEMPO_WAIT_MS));
	close(fence);
}

TEST_F(exec_sync, binary_out_sync_is_signalled_when_the_job_completes)
{
	struct tempo_env *e = &self->env;
	uint64_t va = tempo_mark_batch(e, 0, MARK_AFTER, 1);
	struct drm_tempo_sync out = { 0 };

	ASSERT_EQ(0, drmSyncobjCreate(e->fd, 0, &out.handle));
	ASSERT_EQ(0, tempo_exec(e->fd, e->ctx, self->gfx, va, NULL, 0, &out, 1,
				NULL));
	ASSERT_EQ(0, drmSyncobjWait(e->fd, &out.handle, 1,
				    tempo_deadline_ns(TEMPO_WAIT_MS), 0, NULL));
	ASSERT_EQ(1u, *tempo_u32(&e->data, MARK_AFTER));
	ASSERT_EQ(1, tempo_syncobj_status(e->fd, out.handle, 0));
}

TEST_F(exec_sync, binary_out_sync_carries_the_job_error)
{
	struct tempo_env *e = &self->env;
	struct drm_tempo_sync out = { 0 };
	uint64_t hole = unmapped_va(_metadata, e);
	struct tempo_batch b;

	tempo_batch_init(&b, &e->cmd, 0, 16);
	tempo_pkt_write32(&b, hole, 0xbad);
	tempo_pkt_end(&b);
	ASSERT_EQ(0, drmSyncobjCreate(e->fd, 0, &out.handle));
	ASSERT_EQ(0, tempo_exec(e->fd, e->ctx, self->gfx, b.va, NULL, 0, &out,
				1, NULL));
	ASSERT_EQ(-EFAULT, tempo_syncobj_status(e->fd, out.handle,
						TEMPO_WAIT_MS));
}

TEST_F(exec_sync, timeline_out_sync_signals_its_point)
{
	struct tempo_env *e = &self->env;
	uint64_t va = tempo_mark_batch(e, 0, MARK_AFTER, 1);
	struct drm_tempo_sync out = { .point = 3 };
	uint64_t point = 3, value = 0;

	ASSERT_EQ(0, drmSyncobjCreate(e->fd, 0, &out.handle));
	ASSERT_EQ(0, tempo_exec(e->fd, e->ctx, self->gfx, va, NULL, 0, &out, 1,
				NULL));
	ASSERT_EQ(0, drmSyncobjTimelineWait(e->fd, &out.handle, &point, 1,
					    tempo_deadline_ns(TEMPO_WAIT_MS),
					    0, NULL));
	ASSERT_EQ(1u, *tempo_u32(&e->data, MARK_AFTER));
	ASSERT_EQ(0, drmSyncobjQuery(e->fd, &out.handle, &value, 1));
	ASSERT_EQ(3ull, value);
}

TEST_F(exec_sync, every_out_sync_is_signalled)
{
	struct tempo_env *e = &self->env;
	uint64_t va = tempo_mark_batch(e, 0, MARK_AFTER, 1);
	struct drm_tempo_sync out[3] = { { 0 }, { 0 }, { .point = 7 } };
	uint64_t points[3] = { 0, 0, 7 };
	uint32_t handles[3];
	int fence = -1;

	for (int i = 0; i < 3; i++) {
		ASSERT_EQ(0, drmSyncobjCreate(e->fd, 0, &out[i].handle));
		handles[i] = out[i].handle;
	}
	ASSERT_EQ(0, tempo_exec(e->fd, e->ctx, self->gfx, va, NULL, 0, out, 3,
				&fence));
	ASSERT_EQ(1, tempo_fence_wait(fence, TEMPO_WAIT_MS));
	ASSERT_EQ(0, drmSyncobjTimelineWait(e->fd, handles, points, 3,
					    tempo_deadline_ns(TEMPO_WAIT_MS),
					    DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL,
					    NULL));
	close(fence);
}

/* Execs of 1 to 8 out-syncs, half binary and half timeline points. */
TEST_F(exec_sync, every_out_sync_is_signalled_whatever_their_number)
{
	struct tempo_env *e = &self->env;
	uint64_t va = tempo_mark_batch(e, 0, MARK_AFTER, 1);
	struct drm_tempo_sync out[8];
	uint64_t points[8];
	uint32_t handles[8];

	for (uint32_t n = 1; n <= 8; n++) {
		for (uint32_t i = 0; i < n; i++) {
			points[i] = i % 2 ? i + 1 : 0;
			out[i] = (struct drm_tempo_sync){ .point = points[i] };
			ASSERT_EQ(0, drmSyncobjCreate(e->fd, 0, &handles[i]));
			out[i].handle = handles[i];
		}
		ASSERT_EQ(0, tempo_exec(e->fd, e->ctx, self->gfx, va, NULL, 0,
					out, n, NULL));
		ASSERT_EQ(0, drmSyncobjTimelineWait(e->fd, handles, points, n,
						    tempo_deadline_ns(TEMPO_WAIT_MS),
						    DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL,
						    NULL));
		for (uint32_t i = 0; i < n; i++) {
			if (!points[i])
				ASSERT_EQ(1, tempo_syncobj_status(e->fd,
								  handles[i], 0));
			ASSERT_EQ(0, drmSyncobjDestroy(e->fd, handles[i]));
		}
	}
}

/*
 * Job A, on compute, blocks on the gate and signals @s; job B, on gfx,
 * waits for @s: it stays blocked until the gate opens, then both run.
 */
static void in_sync_waits(struct __test_metadata *_metadata,
			  FIXTURE_DATA(exec_sync) *self,
			  struct drm_tempo_sync *s)
{
	struct tempo_env *e = &self->env;
	int a, b;

	ASSERT_EQ(0, drmSyncobjCreate(e->fd, 0, &s->handle));
	ASSERT_EQ(0, tempo_exec(e->fd, e->ctx, self->compute,
				tempo_gated_batch(e, 0, MARK_BEFORE, 1), NULL,
				0, s, 1, &a));
	ASSERT_EQ(0, tempo_exec(e->fd, e->ctx, self->gfx,
				tempo_mark_batch(e, 256, MARK_AFTER, 2), s, 1,
				NULL, 0, &b));

	ASSERT_EQ(0, tempo_fence_wait(b, TEMPO_BLOCKED_MS));
	ASSERT_EQ(0u, *tempo_u32(&e->data, MARK_AFTER));

	tempo_gate_set(e, 1);
	tempo_fence_expect(_metadata, b, 1, TEMPO_WAIT_MS);
	tempo_fence_expect(_metadata, a, 1, 0);
	ASSERT_EQ(1u, *tempo_u32(&e->data, MARK_BEFORE));
	ASSERT_EQ(2u, *tempo_u32(&e->data, MARK_AFTER));
}

TEST_F(exec_sync, binary_in_sync_waits_for_a_job_on_another_engine)
{
	struct drm_tempo_sync s = { 0 };

	TEMPO_NEED_BLOCKING(&self->env);
	if (self->compute < 0)
		SKIP(return, "no compute engine");
	in_sync_waits(_metadata, self, &s);
}

TEST_F(exec_sync, timeline_in_sync_waits_for_its_point)
{
	struct drm_tempo_sync s = { .point = 5 };

	TEMPO_NEED_BLOCKING(&self->env);
	if (self->compute < 0)
		SKIP(return, "no compute engine");
	in_sync_waits(_metadata, self, &s);
}

/* A job waiting for @s, which the CPU signalled, runs. */
static void signalled_in_sync_runs(struct __test_metadata *_metadata,
				   FIXTURE_DATA(exec_sync) *self,
				   const struct drm_tempo_sync *s)
{
	struct tempo_env *e = &self->env;
	int fence;

	ASSERT_EQ(0, tempo_exec(e->fd, e->ctx, self->gfx,
				tempo_mark_batch(e, 0, MARK_AFTER, 1), s, 1,
				NULL, 0, &fence));
	tempo_fence_expect(_metadata, fence, 1, TEMPO_WAIT_MS);
	ASSERT_EQ(1u, *tempo_u32(&e->data, MARK_AFTER));
}

TEST_F(exec_sync, timeline_in_sync_signalled_by_the_cpu_runs)
{
	struct drm_tempo_sync s = { .point = 1 };
	uint64_t point = 1;

	ASSERT_EQ(0, drmSyncobjCreate(self->env.fd, 0, &s.handle));
	ASSERT_EQ(0, drmSyncobjTimelineSignal(self->env.fd, &s.handle, &point,
					      1));
	signalled_in_sync_runs(_metadata, self, &s);
}

TEST_F(exec_sync, binary_in_sync_signalled_by_the_cpu_runs)
{
	struct drm_tempo_sync s = { 0 };

	ASSERT_EQ(0, drmSyncobjCreate(self->env.fd,
				      DRM_SYNCOBJ_CREATE_SIGNALED, &s.handle));
	signalled_in_sync_runs(_metadata, self, &s);
}

TEST_F(exec_sync, jobs_of_one_slot_run_in_submission_order)
{
	struct tempo_env *e = &self->env;
	struct drm_tempo_sync out = { 0 };
	uint32_t n = 2 * e->dev.ring_size + 1;
	uint64_t point;

	if (n < 16)
		n = 16;
	if (n > 1024)
		n = 1024;
	ASSERT_EQ(0, drmSyncobjCreate(e->fd, 0, &out.handle));
	/*
	 * Job i copies the counter to log[i], then increments it: in order,
	 * log[i] == i.
	 */
	for (uint32_t i = 0; i < n; i++) {
		struct tempo_batch b;

		tempo_batch_init(&b, &e->cmd, 64ull * i, 16);
		tempo_pkt_copy(&b, VA(e, LOG + 8ull * i), VA(e, SCRATCH), 8);
		tempo_pkt_atomic(&b, VA(e, SCRATCH), DRM_TEMPO_ATOMIC_INC, 0);
		tempo_pkt_end(&b);
		out.point = i + 1;
		ASSERT_EQ(0, tempo_exec(e->fd, e->ctx, self->gfx, b.va, NULL, 0,
					&out, 1, NULL));
	}
	point = n;
	ASSERT_EQ(0, drmSyncobjTimelineWait(e->fd, &out.handle, &point, 1,
					    tempo_deadline_ns(TEMPO_WAIT_MS),
					    0, NULL));
	ASSERT_EQ((uint64_t)n, *tempo_u64(&e->data, SCRATCH));
	for (uint32_t i = 0; i < n; i++)
		ASSERT_EQ((uint64_t)i, *tempo_u64(&e->data, LOG + 8ull * i));
}

TEST_F(exec_sync, last_write_of_one_slot_wins)
{
	struct tempo_env *e = &self->env;
	const uint32_t n = 64;
	int fence = -1;

	for (uint32_t i = 0; i < n; i++) {
		uint64_t va = tempo_mark_batch(e, 64ull * i, SCRATCH, i + 1);

		if (fence >= 0)
			close(fence);
		ASSERT_EQ(0, tempo_exec(e->fd, e->ctx, self->gfx, va, NULL, 0,
					NULL, 0, &fence));
	}
	ASSERT_EQ(1, tempo_fence_wait(fence, TEMPO_WAIT_MS));
	ASSERT_EQ(n, *tempo_u32(&e->data, SCRATCH));
	close(fence);
}

TEST_F(exec_sync, blocked_engine_does_not_block_other_engines)
{
	struct tempo_env *e = &self->env;
	int a, b;

	TEMPO_NEED_BLOCKING(e);
	if (self->compute < 0)
		SKIP(return, "no compute engine");
	a = tempo_submit(_metadata, e->fd, e->ctx, self->compute,
			 tempo_gated_batch(e, 0, MARK_BEFORE, 1));
	b = tempo_submit(_metadata, e->fd, e->ctx, self->gfx,
			 tempo_mark_batch(e, 256, MARK_AFTER, 2));

	ASSERT_EQ(1, tempo_fence_wait(b, TEMPO_WAIT_MS));
	ASSERT_EQ(2u, *tempo_u32(&e->data, MARK_AFTER));
	ASSERT_EQ(0, tempo_fence_status(a));
	ASSERT_EQ(0u, *tempo_u32(&e->data, MARK_BEFORE));

	tempo_gate_set(e, 1);
	ASSERT_EQ(1, tempo_fence_wait(a, TEMPO_WAIT_MS));
	ASSERT_EQ(1u, *tempo_u32(&e->data, MARK_BEFORE));
	close(a);
	close(b);
}

TEST_F(exec_sync, every_other_engine_runs_while_one_is_blocked)
{
	struct tempo_env *e = &self->env;
	uint32_t n = e->engines->num_engines;
	int a;

	TEMPO_NEED_BLOCKING(e);
	a = tempo_submit(_metadata, e->fd, e->ctx, 0,
			 tempo_gated_batch(e, 0, MARK_BEFORE, 1));
	for (uint32_t i = 1; i < n; i++) {
		uint64_t va = tempo_mark_batch(e, 256 * i, SCRATCH + 4 * i, i);

		ASSERT_EQ(1, tempo_run(_metadata, e->fd, e->ctx, i, va));
		ASSERT_EQ(i, *tempo_u32(&e->data, SCRATCH + 4 * i));
	}
	ASSERT_EQ(0, tempo_fence_status(a));
	tempo_gate_set(e, 1);
	ASSERT_EQ(1, tempo_fence_wait(a, TEMPO_WAIT_MS));
	close(a);
}

TEST_F(exec_sync, job_error_does_not_stop_the_engine_for_others)
{
	struct tempo_env *e = &self->env;
	uint64_t hole = unmapped_va(_metadata, e);
	struct tempo_batch bad;
	uint32_t other;
	int f1, f2;

	ASSERT_EQ(0, tempo_ctx_create(e->fd, 0, NULL, 0, &other));
	tempo_batch_init(&bad, &e->cmd, 0, 16);
	tempo_pkt_write32(&bad, hole, 0xbad);
	tempo_pkt_end(&bad);
	/* Queued back to back on one engine, the second by another context. */
	f1 = tempo_submit(_metadata, e->fd, e->ctx, self->gfx, bad.va);
	f2 = tempo_submit(_metadata, e->fd, other, self->gfx,
			  tempo_mark_batch(e, 256, MARK_AFTER, 1));
	ASSERT_EQ(1, tempo_fence_wait(f2, TEMPO_WAIT_MS));
	ASSERT_EQ(-EFAULT, tempo_fence_wait(f1, TEMPO_WAIT_MS));
	ASSERT_EQ(1u, *tempo_u32(&e->data, MARK_AFTER));
	close(f1);
	close(f2);
}

TEST_F_TIMEOUT(exec_sync, job_running_past_the_timeout_fails_etimedout, 60)
{
	struct tempo_env *e = &self->env;
	int fence;

	TEMPO_NEED_TIMEOUT_WITHIN(e, 20000);
	fence = tempo_submit(_metadata, e->fd, e->ctx, self->gfx,
			     tempo_gated_batch(e, 0, MARK_AFTER, 1));
	ASSERT_EQ(-ETIMEDOUT,
		  tempo_fence_wait(fence, e->dev.job_timeout_ms +
					  TEMPO_WAIT_MS));
	ASSERT_EQ(0u, *tempo_u32(&e->data, MARK_AFTER));
	close(fence);
}

TEST_F_TIMEOUT(exec_sync, closing_the_file_ends_its_blocked_jobs, 60)
{
	struct tempo_env *e = &self->env;
	struct tempo_env other;
	int fence, status;

	TEMPO_NEED_TIMEOUT_WITHIN(e, 20000);
	tempo_env_init(_metadata, &other, tempo_device_open());
	fence = tempo_submit(_metadata, other.fd, other.ctx, self->gfx,
			     tempo_gated_batch(&other, 0, TEMPO_NO_MARK, 0));
	ASSERT_EQ(0, tempo_fence_wait(fence, TEMPO_BLOCKED_MS));

	/*
	 * The job cannot finish by itself once its file is gone; its fence
	 * still signals, with an error, within the job timeout. The CPU
	 * mapping keeps the buffers, the gate stays closed.
	 */
	close(other.fd);
	other.fd = -1;
	status = tempo_fence_wait(fence, e->dev.job_timeout_ms + TEMPO_WAIT_MS);
	TH_LOG("fence status after close: %d", status);
	ASSERT_GT(0, status);
	close(fence);
	tempo_env_fini(&other);
}

TEST_HARNESS_MAIN
