// SPDX-License-Identifier: GPL-2.0-only
/*
 * Engine maps: load-balanced and parallel slots, after IGT's
 * gem_exec_balancer parallel subtests. The default topology has 4 compute
 * and 2 copy engines.
 */
#include "tempo_test.h"

#define COUNTER		0x1000
#define IDS		0x2000	/* engine ids, 4 bytes per batch per run */
#define TS		0x8000	/* timestamps */
#define GATE2		0x3000
#define T_HIGH		0x3010	/* start and end of the high-priority job */
#define T_MEMBER	0x3020	/* start and end of each member */
#define VA(e, off)	((e)->data.va + (off))
#define C(i)		{ DRM_TEMPO_ENGINE_CLASS_COMPUTE, (i) }
#define Y(i)		{ DRM_TEMPO_ENGINE_CLASS_COPY, (i) }
#define NONE		{ 0, DRM_TEMPO_ENGINE_INSTANCE_NONE }
#define ID(cls, i)	((uint32_t)(cls) << 16 | (i))

FIXTURE(par) {
	struct tempo_env env;
};

FIXTURE_SETUP(par)
{
	TEMPO_ENV_SETUP(&self->env);
	if (tempo_count_class(self->env.engines,
			      DRM_TEMPO_ENGINE_CLASS_COMPUTE) < 4 ||
	    tempo_count_class(self->env.engines,
			      DRM_TEMPO_ENGINE_CLASS_COPY) < 2)
		SKIP(return, "needs 4 compute and 2 copy engines");
}

FIXTURE_TEARDOWN(par)
{
	tempo_env_fini(&self->env);
}

/* An exec of @n batches on slot 0 of @ctx. */
static int exec_n(int fd, uint32_t ctx, const uint64_t *batches, uint32_t n,
		  const struct drm_tempo_sync *in, uint32_t nin, int *fence)
{
	return tempo_exec_gang(fd, ctx, 0, batches, n, in, nin, fence);
}

/*
 * Every compute engine in each of @width columns of @engines, for a
 * parallel slot of @width batches over 4 siblings.
 */
static void every_compute_engine(struct drm_tempo_engine *engines,
				 uint32_t width)
{
	for (uint32_t i = 0; i < width; i++)
		for (uint32_t j = 0; j < 4; j++)
			engines[i * 4 + j] = (struct drm_tempo_engine)C(j);
}

/*
 * Batch i of a gang: record its engine and start time, increment the
 * counter 512 times (ATOMIC packets: copy engines have no DISPATCH),
 * record its end time.
 */
static uint64_t member_batch(struct tempo_env *e, uint32_t run, uint32_t i,
			     uint32_t width)
{
	uint32_t k = run * width + i;
	struct tempo_batch b, inc;

	/* A second-level batch of 64 increments, called 8 times. */
	tempo_batch_init(&inc, &e->cmd, 0, 2048);
	for (uint32_t n = 0; n < 64; n++)
		tempo_pkt_atomic(&inc, VA(e, COUNTER), DRM_TEMPO_ATOMIC_INC, 0);
	tempo_pkt_end(&inc);

	tempo_batch_init(&b, &e->cmd, 2048 + k * 256, 256);
	tempo_pkt_write_engine_id(&b, VA(e, IDS + 4 * k));
	tempo_pkt_write_timestamp(&b, VA(e, TS + 16 * k));
	for (uint32_t n = 0; n < 8; n++)
		tempo_pkt_batch_start(&b, inc.va, 0);
	tempo_pkt_write_timestamp(&b, VA(e, TS + 16 * k + 8));
	tempo_pkt_end(&b);
	return b.va;
}

static int run_gang(struct __test_metadata *_metadata, struct tempo_env *e,
		    uint32_t ctx, uint32_t run, uint32_t width)
{
	uint64_t batches[4];
	int fence, status;

	for (uint32_t i = 0; i < width; i++)
		batches[i] = member_batch(e, run, i, width);
	ASSERT_EQ(0, exec_n(e->fd, ctx, batches, width, NULL, 0, &fence));
	status = tempo_fence_wait(fence, TEMPO_WAIT_MS);
	close(fence);
	return status;
}

static uint64_t ts(struct tempo_env *e, uint32_t off)
{
	return __atomic_load_n(tempo_u64(&e->data, off), __ATOMIC_SEQ_CST);
}

/*
 * A gang is preempted as a unit: a high-priority job on the engine of
 * member 0 stops member 1 on its own, otherwise idle, engine too, and both
 * resume together once the job ends. Each member records its start, waits
 * for the gate, records its end; the high-priority job blocks its engine
 * on a second gate. With the members' gate open while the high-priority
 * job runs, neither member may get past it.
 */
FIXTURE(gangprio) {
	struct tempo_env env;
};

FIXTURE_SETUP(gangprio)
{
	TEMPO_ENV_SETUP(&self->env);
	TEMPO_NEED_NICE();
}

FIXTURE_TEARDOWN(gangprio)
{
	tempo_env_fini(&self->env);
}

TEST_F_TIMEOUT(gangprio, gang_is_preempted_and_resumed_as_a_unit, 60)
{
	struct drm_tempo_engine engines[] = { C(0), C(1) };
	struct tempo_env *e = &self->env;
	struct tempo_batch m[2], h;
	uint32_t gang_ctx, high_ctx;
	uint64_t batches[2];
	int fd = e->fd, gang, high;

	ASSERT_EQ(0, tempo_parallel_ctx(fd, 2, 1, engines, &gang_ctx));
	ASSERT_EQ(0, tempo_ctx_create(fd, DRM_TEMPO_PRIORITY_HIGH, NULL, 0,
				      &high_ctx));
	for (uint32_t i = 0; i < 2; i++) {
		tempo_batch_init(&m[i], &e->cmd, 256 * i, 256);
		tempo_pkt_write_timestamp(&m[i], VA(e, T_MEMBER + 16 * i));
		tempo_pkt_wait_gate(&m[i], e, 1);
		tempo_pkt_write_timestamp(&m[i], VA(e, T_MEMBER + 16 * i + 8));
		tempo_pkt_end(&m[i]);
		batches[i] = m[i].va;
	}
	ASSERT_EQ(0, exec_n(fd, gang_ctx, batches, 2, NULL, 0, &gang));
	tempo_wait_nonzero(_metadata, &e->data, T_MEMBER);
	tempo_wait_nonzero(_metadata, &e->data, T_MEMBER + 16);

	tempo_batch_init(&h, &e->cmd, 1024, 256);
	tempo_pkt_write_timestamp(&h, VA(e, T_HIGH));
	tempo_pkt_wait_mem(&h, VA(e, GATE2), DRM_TEMPO_COMPARE_GE, 1,
			   UINT64_MAX);
	tempo_pkt_write_timestamp(&h, VA(e, T_HIGH + 8));
	tempo_pkt_end(&h);
	high = tempo_submit(_metadata, fd, high_ctx,
			    tempo_default_slot(e->engines,
					       DRM_TEMPO_ENGINE_CLASS_COMPUTE, 0),
			    h.va);
	tempo_wait_nonzero(_metadata, &e->data, T_HIGH);

	/*
	 * Member 0 is off its engine; member 1 must be off its own too. (Not
	 * for longer than starve_ms, 100 ms, after which the gang's queue
	 * gets compute 0 back for a time slice.)
	 */
	tempo_gate_set(e, 1);
	tempo_sleep_ms(30);
	ASSERT_EQ(0u, ts(e, T_MEMBER + 8));
	ASSERT_EQ(0u, ts(e, T_MEMBER + 16 + 8));
	ASSERT_EQ(0, tempo_fence_wait(gang, 0));

	__atomic_store_n(tempo_u64(&e->data, GATE2), 1, __ATOMIC_SEQ_CST);
	ASSERT_EQ(1, tempo_fence_wait(high, TEMPO_WAIT_MS));
	ASSERT_EQ(1, tempo_fence_wait(gang, TEMPO_WAIT_MS));
	/* Both resumed after the high-priority job ended. */
	ASSERT_LT(ts(e, T_HIGH + 8), ts(e, T_MEMBER + 8));
	ASSERT_LT(ts(e, T_HIGH + 8), ts(e, T_MEMBER + 16 + 8));
	close(gang);
	close(high);
}

/* A gang context on compute 0 and 1 at @priority, in file @fd. */
static int gang_ctx_at(int fd, int32_t priority, uint32_t *id)
{
	struct drm_tempo_engine engines[] = { C(0), C(1) };
	int ret = tempo_parallel_ctx(fd, 2, 1, engines, id);

	if (!ret && priority)
		ret = tempo_ctx_set_priority(fd, *id, priority);
	return ret;
}

/* Member i: timestamp at @ts + 16 i, wait for the qword at @gate, stamp. */
static uint64_t gated_member(struct tempo_env *e, uint32_t off, uint32_t ts,
			     uint32_t gate, uint32_t i)
{
	struct tempo_batch b;

	tempo_batch_init(&b, &e->cmd, off, 64);
	tempo_pkt_write_timestamp(&b, VA(e, ts + 16 * i));
	tempo_pkt_wait_mem(&b, VA(e, gate), DRM_TEMPO_COMPARE_GE, 1,
			   UINT64_MAX);
	tempo_pkt_write_timestamp(&b, VA(e, ts + 16 * i + 8));
	tempo_pkt_end(&b);
	return b.va;
}

/* The debugfs hqds rows of compute0/1 whose rings are not empty. */
static int busy_gang_hqds(const char *dir, const struct tempo_env *e,
			  unsigned int *queue, char names[][16])
{
	int n = 0;

	for (int eng = 0; eng < 2; eng++) {
		int slot = tempo_default_slot(e->engines,
					      DRM_TEMPO_ENGINE_CLASS_COMPUTE,
					      eng);
		unsigned int first = e->engines->engines[slot].num_hqds;
		char name[16];

		snprintf(name, sizeof(name), "compute%d", eng);
		for (unsigned int q = first; q < first + 2; q++) {
			/* rptr is column 7, wptr column 8 */
			if (tempo_debugfs_hqd(dir, name, q, 7) ==
			    tempo_debugfs_hqd(dir, name, q, 8))
				continue;
			queue[n] = q;
			snprintf(names[n++], 16, "%s", name);
		}
	}
	return n;
}

/*
 * Gangs of contexts of different priorities do not share a queue whose
 * priority one of them sets: while a VERY_HIGH gang waits on its engines,
 * NORMAL gangs of another file are queued on the same engines; the HQDs of
 * the VERY_HIGH gang keep their programming.
 */
TEST_F_TIMEOUT(gangprio, high_gang_keeps_its_hqd_priority_while_low_gangs_come, 60)
{
	struct tempo_env *e = &self->env, low = { .fd = -1 };
	unsigned int queue[4];
	char dir[256], names[4][16];
	uint64_t batches[2];
	uint32_t high_ctx, low_ctx;
	int high, lows[8];

	tempo_debugfs_dir(dir, sizeof(dir));
	if (!dir[0])
		SKIP(return, "no tempo directory in /sys/kernel/debug/dri");
	tempo_env_init(_metadata, &low, tempo_device_open());
	ASSERT_EQ(0, gang_ctx_at(e->fd, DRM_TEMPO_PRIORITY_VERY_HIGH,
				 &high_ctx));
	ASSERT_EQ(0, gang_ctx_at(low.fd, 0, &low_ctx));
	for (uint32_t i = 0; i < 2; i++)
		batches[i] = gated_member(e, 256 * i, T_MEMBER, GATE2, i);
	ASSERT_EQ(0, exec_n(e->fd, high_ctx, batches, 2, NULL, 0, &high));
	tempo_wait_nonzero(_metadata, &e->data, T_MEMBER);
	tempo_wait_nonzero(_metadata, &e->data, T_MEMBER + 16);
	ASSERT_EQ(2, busy_gang_hqds(dir, e, queue, names));
	for (int i = 0; i < 2; i++) {
		ASSERT_EQ(2, tempo_debugfs_hqd(dir, names[i], queue[i], 2));
		ASSERT_EQ(15, tempo_debugfs_hqd(dir, names[i], queue[i], 3));
	}

	for (int g = 0; g < 8; g++) {
		for (uint32_t i = 0; i < 2; i++)
			batches[i] = gated_member(&low, 512 * g + 256 * i,
						  T_MEMBER + 32 * g, TEMPO_GATE,
						  i);
		ASSERT_EQ(0, exec_n(low.fd, low_ctx, batches, 2, NULL, 0,
				    &lows[g]));
	}
	tempo_sleep_ms(50);
	for (int i = 0; i < 2; i++) {
		ASSERT_EQ(2, tempo_debugfs_hqd(dir, names[i], queue[i], 2));
		ASSERT_EQ(15, tempo_debugfs_hqd(dir, names[i], queue[i], 3));
	}
	tempo_gate_set(&low, 1);
	__atomic_store_n(tempo_u64(&e->data, GATE2), 1, __ATOMIC_SEQ_CST);
	ASSERT_EQ(1, tempo_fence_wait(high, TEMPO_WAIT_MS));
	for (int g = 0; g < 8; g++) {
		ASSERT_EQ(1, tempo_fence_wait(lows[g], TEMPO_WAIT_MS));
		close(lows[g]);
	}
	close(high);
	ASSERT_EQ(0, busy_gang_hqds(dir, e, queue, names));
	tempo_env_fini(&low);
}

/*
 * A VERY_HIGH gang submitted while a NORMAL gang runs on the same engines
 * is not queued behind it: it preempts it and ends first.
 */
TEST_F_TIMEOUT(gangprio, high_gang_preempts_a_running_low_gang, 60)
{
	struct tempo_env *e = &self->env, low = { .fd = -1 };
	struct tempo_batch hb[2];
	uint64_t batches[2];
	uint32_t high_ctx, low_ctx;
	int high, lowf;

	tempo_env_init(_metadata, &low, tempo_device_open());
	ASSERT_EQ(0, gang_ctx_at(e->fd, DRM_TEMPO_PRIORITY_VERY_HIGH,
				 &high_ctx));
	ASSERT_EQ(0, gang_ctx_at(low.fd, 0, &low_ctx));
	for (uint32_t i = 0; i < 2; i++)
		batches[i] = gated_member(&low, 256 * i, T_MEMBER, TEMPO_GATE,
					  i);
	ASSERT_EQ(0, exec_n(low.fd, low_ctx, batches, 2, NULL, 0, &lowf));
	tempo_wait_nonzero(_metadata, &low.data, T_MEMBER);
	tempo_wait_nonzero(_metadata, &low.data, T_MEMBER + 16);

	for (uint32_t i = 0; i < 2; i++) {
		tempo_batch_init(&hb[i], &e->cmd, 1024 + 256 * i, 64);
		tempo_pkt_write_timestamp(&hb[i], VA(e, T_HIGH + 8 * i));
		tempo_pkt_end(&hb[i]);
		batches[i] = hb[i].va;
	}
	ASSERT_EQ(0, exec_n(e->fd, high_ctx, batches, 2, NULL, 0, &high));
	ASSERT_EQ(1, tempo_fence_wait(high, TEMPO_WAIT_MS));
	ASSERT_EQ(0, tempo_fence_wait(lowf, 0));
	tempo_gate_set(&low, 1);
	ASSERT_EQ(1, tempo_fence_wait(lowf, TEMPO_WAIT_MS));
	close(high);
	close(lowf);
	tempo_env_fini(&low);
}

static uint32_t id_of(struct tempo_env *e, uint32_t run, uint32_t i,
		      uint32_t width)
{
	return *tempo_u32(&e->data, IDS + 4 * (run * width + i));
}

FIXTURE_VARIANT(par) { uint16_t width; };
FIXTURE_VARIANT_ADD(par, w2) { .width = 2 };
FIXTURE_VARIANT_ADD(par, w3) { .width = 3 };
FIXTURE_VARIANT_ADD(par, w4) { .width = 4 };

TEST_F(par, every_batch_increments_the_shared_counter)
{
	struct drm_tempo_engine engines[16];
	uint16_t w = variant->width;
	uint32_t ctx;

	every_compute_engine(engines, w);
	ASSERT_EQ(0, tempo_parallel_ctx(self->env.fd, w, 4, engines, &ctx));
	ASSERT_EQ(1, run_gang(_metadata, &self->env, ctx, 0, w));
	ASSERT_EQ(w * 512ull, *tempo_u64(&self->env.data, COUNTER));
	/* Every batch ran, each on its own engine. */
	for (uint32_t i = 0; i < w; i++)
		for (uint32_t k = 0; k < i; k++)
			ASSERT_NE(id_of(&self->env, 0, i, w),
				  id_of(&self->env, 0, k, w));
}

TEST_F(par, gangs_of_one_slot_run_one_after_the_other)
{
	struct drm_tempo_engine engines[16];
	uint16_t w = variant->width;
	uint64_t batches[8][4];
	int fences[8];
	uint32_t ctx;

	every_compute_engine(engines, w);
	ASSERT_EQ(0, tempo_parallel_ctx(self->env.fd, w, 4, engines, &ctx));
	for (uint32_t r = 0; r < 8; r++) {
		for (uint32_t i = 0; i < w; i++)
			batches[r][i] = member_batch(&self->env, r, i, w);
		ASSERT_EQ(0, exec_n(self->env.fd, ctx, batches[r], w, NULL, 0,
				    &fences[r]));
	}
	for (uint32_t r = 0; r < 8; r++) {
		ASSERT_EQ(1, tempo_fence_wait(fences[r], TEMPO_WAIT_MS));
		close(fences[r]);
	}
	ASSERT_EQ(8ull * w * 512, *tempo_u64(&self->env.data, COUNTER));
	/* Gang r starts after every member of gang r - 1 ended. */
	for (uint32_t r = 1; r < 8; r++) {
		for (uint32_t i = 0; i < w; i++) {
			uint64_t s = *tempo_u64(&self->env.data, TS + 16 * (r * w + i));

			for (uint32_t k = 0; k < w; k++)
				ASSERT_LT(*tempo_u64(&self->env.data,
						     TS + 16 * ((r - 1) * w + k) + 8), s);
		}
	}
}

TEST_F(par, in_fence_holds_the_whole_gang)
{
	struct drm_tempo_engine engines[] = { C(0), C(1), C(2), C(3) };
	struct tempo_env *e = &self->env;
	struct drm_tempo_sync gate = { 0 };
	uint32_t ctx, slot = tempo_default_slot(e->engines,
						DRM_TEMPO_ENGINE_CLASS_COPY, 0);
	uint64_t batches[2];
	int blocker, fence;

	if (variant->width != 2)
		SKIP(return, "one width is enough");
	ASSERT_EQ(0, tempo_parallel_ctx(e->fd, 2, 2, engines, &ctx));
	ASSERT_EQ(0, drmSyncobjCreate(e->fd, 0, &gate.handle));
	ASSERT_EQ(0, tempo_exec(e->fd, e->ctx, slot,
				tempo_gated_batch(e, 65536, TEMPO_NO_MARK, 0),
				NULL, 0, &gate, 1, &blocker));
	for (uint32_t i = 0; i < 2; i++)
		batches[i] = member_batch(e, 0, i, 2);
	ASSERT_EQ(0, exec_n(e->fd, ctx, batches, 2, &gate, 1, &fence));
	tempo_sleep_ms(TEMPO_BLOCKED_MS);
	ASSERT_EQ(0, tempo_fence_wait(fence, 0));
	ASSERT_EQ(0ull, *tempo_u64(&e->data, COUNTER));
	tempo_gate_set(e, 1);
	tempo_fence_expect(_metadata, fence, 1, TEMPO_WAIT_MS);
	ASSERT_EQ(1024ull, *tempo_u64(&e->data, COUNTER));
	close(blocker);
}

TEST_F(par, a_failing_member_fails_the_gang_and_bans_the_context)
{
	struct drm_tempo_engine engines[] = { C(0), C(1), C(2), C(3) };
	struct tempo_env *e = &self->env;
	uint64_t batches[2];
	struct tempo_batch bad;
	uint32_t ctx;
	int fence;

	if (variant->width != 2)
		SKIP(return, "one width is enough");
	ASSERT_EQ(0, tempo_parallel_ctx(e->fd, 2, 2, engines, &ctx));
	batches[0] = member_batch(e, 0, 0, 2);
	tempo_batch_init(&bad, &e->cmd, 65536 + 256, 64);
	tempo_pkt_write32(&bad, 0x1000, 1);	/* below va_start: a fault */
	tempo_pkt_end(&bad);
	batches[1] = bad.va;
	ASSERT_EQ(0, exec_n(e->fd, ctx, batches, 2, NULL, 0, &fence));
	ASSERT_EQ(-EFAULT, tempo_fence_wait(fence, TEMPO_WAIT_MS));
	close(fence);
	ASSERT_EQ(-ECANCELED, exec_n(e->fd, ctx, batches, 2, NULL, 0, NULL));
}

/* Checks the engine ids of a gang's two members: the placement's number. */
typedef unsigned int (*placement_fn)(struct __test_metadata *_metadata,
				     uint32_t a, uint32_t b);

/*
 * Run 24 gangs of two batches on a context of a parallel slot with
 * @num_siblings engines of @engines per batch, @check each placement:
 * the set of the placements seen, one bit each.
 */
static unsigned int run_pairs(struct __test_metadata *_metadata,
			      struct tempo_env *e,
			      const struct drm_tempo_engine *engines,
			      uint16_t num_siblings, placement_fn check)
{
	unsigned int seen = 0;
	uint32_t ctx;

	ASSERT_EQ(0, tempo_parallel_ctx(e->fd, 2, num_siblings, engines, &ctx));
	for (uint32_t r = 0; r < 24; r++) {
		ASSERT_EQ(1, run_gang(_metadata, e, ctx, r, 2));
		seen |= 1u << check(_metadata, id_of(e, r, 0, 2),
				    id_of(e, r, 1, 2));
	}
	return seen;
}

/* Batch 0 on compute 0 or 1, batch 1 on copy 0 or 1. */
static unsigned int placement_1(struct __test_metadata *_metadata,
				uint32_t a, uint32_t b)
{
	ASSERT_TRUE(a == ID(DRM_TEMPO_ENGINE_CLASS_COMPUTE, 0) ||
		    a == ID(DRM_TEMPO_ENGINE_CLASS_COMPUTE, 1));
	ASSERT_TRUE(b == ID(DRM_TEMPO_ENGINE_CLASS_COPY, 0) ||
		    b == ID(DRM_TEMPO_ENGINE_CLASS_COPY, 1));
	return (a & 1) * 2 + (b & 1);
}

/* Both batches on two different engines of compute 0, 1 and 2. */
static unsigned int placement_2(struct __test_metadata *_metadata,
				uint32_t a, uint32_t b)
{
	ASSERT_EQ((uint32_t)DRM_TEMPO_ENGINE_CLASS_COMPUTE, a >> 16);
	ASSERT_EQ((uint32_t)DRM_TEMPO_ENGINE_CLASS_COMPUTE, b >> 16);
	ASSERT_GT(3u, a & 0xffff);
	ASSERT_GT(3u, b & 0xffff);
	ASSERT_NE(a, b);
	return (a & 0xffff) * 3 + (b & 0xffff);
}

/* The RFC's first example: two batches, each on either engine of its class. */
TEST_F(par, rfc_example_1_uses_only_valid_placements)
{
	struct drm_tempo_engine engines[] = { C(0), C(1), Y(0), Y(1) };

	if (variant->width != 2)
		SKIP(return, "one width is enough");
	/* Over many runs, more than one placement comes up. */
	ASSERT_LT(1, __builtin_popcount(run_pairs(_metadata, &self->env,
						  engines, 2, placement_1)));
}

/* The RFC's second example: two batches over the same three engines. */
TEST_F(par, rfc_example_2_uses_only_valid_placements)
{
	struct drm_tempo_engine engines[] = { C(0), C(1), C(2),
					      C(0), C(1), C(2) };

	if (variant->width != 2)
		SKIP(return, "one width is enough");
	ASSERT_LT(1, __builtin_popcount(run_pairs(_metadata, &self->env,
						  engines, 3, placement_2)));
}

TEST_F(par, exec_with_the_wrong_number_of_batches_fails_einval)
{
	struct drm_tempo_engine engines[16];
	uint16_t w = variant->width;
	uint64_t batches[5];
	uint32_t ctx;

	every_compute_engine(engines, w);
	ASSERT_EQ(0, tempo_parallel_ctx(self->env.fd, w, 4, engines, &ctx));
	for (uint32_t i = 0; i < 5; i++)
		batches[i] = member_batch(&self->env, 0, i % w, w);
	ASSERT_EQ(-EINVAL, exec_n(self->env.fd, ctx, batches, 1, NULL, 0,
				  NULL));
	ASSERT_EQ(-EINVAL, exec_n(self->env.fd, ctx, batches, w - 1, NULL, 0,
				  NULL));
	ASSERT_EQ(-EINVAL, exec_n(self->env.fd, ctx, batches, w + 1, NULL, 0,
				  NULL));
	ASSERT_EQ(0ull, *tempo_u64(&self->env.data, COUNTER));
}

TEST_F(par, several_contexts_run_gangs_at_once)
{
	struct drm_tempo_engine engines[] = { C(0), C(1), C(2), C(3),
					      C(0), C(1), C(2), C(3) };
	uint64_t batches[4][2];
	int fences[4];
	uint32_t ctx[4];

	if (variant->width != 2)
		SKIP(return, "one width is enough");
	for (uint32_t c = 0; c < 4; c++) {
		ASSERT_EQ(0, tempo_parallel_ctx(self->env.fd, 2, 4, engines,
					  &ctx[c]));
		for (uint32_t i = 0; i < 2; i++)
			batches[c][i] = member_batch(&self->env, c, i, 2);
		ASSERT_EQ(0, exec_n(self->env.fd, ctx[c], batches[c], 2, NULL,
				    0, &fences[c]));
	}
	for (uint32_t c = 0; c < 4; c++) {
		ASSERT_EQ(1, tempo_fence_wait(fences[c], TEMPO_WAIT_MS));
		close(fences[c]);
	}
	ASSERT_EQ(4 * 2 * 512ull, *tempo_u64(&self->env.data, COUNTER));
}

/* A load-balanced slot: busy siblings push new work to idle ones. */
TEST_F(par, load_balanced_slots_spread_over_their_siblings)
{
	struct drm_tempo_engine siblings[] = { C(0), C(1), C(2), C(3) };
	struct drm_tempo_engine slots[] = { NONE };
	struct tempo_env *e = &self->env;
	struct drm_tempo_ctx_ext_load_balance ext = {
		.base.name = DRM_TEMPO_CTX_EXT_LOAD_BALANCE,
		.num_siblings = 4,
		.siblings = (uint64_t)(uintptr_t)siblings,
	};
	struct drm_tempo_ctx_create c = {
		.extensions = (uint64_t)(uintptr_t)&ext,
		.num_slots = 1,
		.slots = (uint64_t)(uintptr_t)slots,
	};
	unsigned int engines_used = 0;
	int fences[4];

	if (variant->width != 2)
		SKIP(return, "one width is enough");
	for (uint32_t k = 0; k < 4; k++) {
		struct tempo_batch b;

		ASSERT_EQ(0, tempo_ioctl(e->fd, DRM_IOCTL_TEMPO_CTX_CREATE,
					 &c));
		tempo_batch_init(&b, &e->cmd, 65536 + 512 + 256 * k, 64);
		tempo_pkt_write_engine_id(&b, VA(e, IDS + 4 * k));
		tempo_pkt_wait_gate(&b, e, 1);
		tempo_pkt_end(&b);
		fences[k] = tempo_submit(_metadata, e->fd, c.ctx_id, 0, b.va);
		while (!__atomic_load_n(tempo_u32(&e->data, IDS + 4 * k),
					__ATOMIC_SEQ_CST))
			tempo_sleep_ms(1);
	}
	tempo_gate_set(e, 1);
	for (uint32_t k = 0; k < 4; k++) {
		uint32_t id = *tempo_u32(&e->data, IDS + 4 * k);

		ASSERT_EQ(1, tempo_fence_wait(fences[k], TEMPO_WAIT_MS));
		close(fences[k]);
		ASSERT_EQ((uint32_t)DRM_TEMPO_ENGINE_CLASS_COMPUTE, id >> 16);
		engines_used |= 1u << (id & 0xffff);
	}
	ASSERT_EQ(0xfu, engines_used);
}

/* ----------------------------------------------------------------------- */
/* One test per validation rule, in the documented order. */

FIXTURE(parbad) {
	struct tempo_env env;
	struct drm_tempo_engine slots[2];
	struct drm_tempo_engine engines[8];
	struct drm_tempo_ctx_ext_parallel ext;
	struct drm_tempo_ctx_create create;
};

FIXTURE_SETUP(parbad)
{
	struct drm_tempo_engine e[] = { C(0), C(1), C(2), C(3),
					C(1), C(2), C(3), C(0) };

	TEMPO_ENV_SETUP(&self->env);
	memcpy(self->engines, e, sizeof(e));
	self->slots[0] = (struct drm_tempo_engine)NONE;
	self->slots[1] = (struct drm_tempo_engine)C(0);
	self->ext = (struct drm_tempo_ctx_ext_parallel){
		.base.name = DRM_TEMPO_CTX_EXT_PARALLEL,
		.width = 2,
		.num_siblings = 4,
		.engines = (uint64_t)(uintptr_t)self->engines,
	};
	self->create = (struct drm_tempo_ctx_create){
		.extensions = (uint64_t)(uintptr_t)&self->ext,
		.num_slots = 2,
		.slots = (uint64_t)(uintptr_t)self->slots,
	};
}

FIXTURE_TEARDOWN(parbad)
{
	tempo_env_fini(&self->env);
}

#define CREATE()	tempo_ioctl(self->env.fd, DRM_IOCTL_TEMPO_CTX_CREATE, \
				    &self->create)

TEST_F(parbad, valid_base_succeeds)
{
	ASSERT_EQ(0, CREATE());
}

TEST_F(parbad, nonzero_flags_fails_einval)
{
	self->ext.flags = 1;
	ASSERT_EQ(-EINVAL, CREATE());
}

TEST_F(parbad, nonzero_mbz_fails_einval)
{
	self->ext.mbz = 1;
	ASSERT_EQ(-EINVAL, CREATE());
}

TEST_F(parbad, slot_out_of_range_fails_einval)
{
	self->ext.slot = 2;
	ASSERT_EQ(-EINVAL, CREATE());
}

TEST_F(parbad, slot_that_is_an_engine_fails_einval)
{
	self->ext.slot = 1;
	ASSERT_EQ(-EINVAL, CREATE());
}

TEST_F(parbad, slot_set_twice_fails_einval)
{
	struct drm_tempo_ctx_ext_parallel again = self->ext;

	self->ext.base.next = (uint64_t)(uintptr_t)&again;
	ASSERT_EQ(-EINVAL, CREATE());
}

TEST_F(parbad, width_below_two_fails_einval)
{
	self->ext.width = 1;
	ASSERT_EQ(-EINVAL, CREATE());
}

TEST_F(parbad, zero_siblings_fails_einval)
{
	self->ext.num_siblings = 0;
	ASSERT_EQ(-EINVAL, CREATE());
}

TEST_F(parbad, too_many_siblings_fails_einval)
{
	self->ext.num_siblings = self->env.dev.max_siblings + 1;
	ASSERT_EQ(-EINVAL, CREATE());
}

TEST_F(parbad, width_above_max_batches_fails_enodev)
{
	self->ext.width = self->env.dev.max_batches + 1;
	self->ext.num_siblings = 1;
	ASSERT_EQ(-ENODEV, CREATE());
}

TEST_F(parbad, unreadable_engines_fails_efault)
{
	self->ext.engines = tempo_bad_ptr();
	ASSERT_EQ(-EFAULT, CREATE());
}

TEST_F(parbad, unknown_engine_fails_einval)
{
	self->engines[5] = (struct drm_tempo_engine)C(7);
	ASSERT_EQ(-EINVAL, CREATE());
}

TEST_F(parbad, column_mixing_classes_fails_einval)
{
	self->engines[1] = (struct drm_tempo_engine)Y(0);
	ASSERT_EQ(-EINVAL, CREATE());
}

TEST_F(parbad, engine_twice_in_a_column_fails_einval)
{
	self->engines[1] = (struct drm_tempo_engine)C(0);
	ASSERT_EQ(-EINVAL, CREATE());
}

TEST_F(parbad, no_placement_on_distinct_engines_fails_einval)
{
	struct drm_tempo_engine e[] = { C(0), C(0) };

	self->ext.num_siblings = 1;
	self->ext.engines = (uint64_t)(uintptr_t)e;
	ASSERT_EQ(-EINVAL, CREATE());
}

TEST_F(parbad, class_without_parallel_support_fails_enodev)
{
	struct drm_tempo_engine e[] = { { DRM_TEMPO_ENGINE_CLASS_GFX, 0 },
					C(0) };

	if (self->env.dev.parallel_classes & (1u << DRM_TEMPO_ENGINE_CLASS_GFX))
		SKIP(return, "GFX supports parallel slots");
	self->ext.num_siblings = 1;
	self->ext.engines = (uint64_t)(uintptr_t)e;
	ASSERT_EQ(-ENODEV, CREATE());
}

TEST_F(parbad, query_reports_the_parallel_limits)
{
	ASSERT_EQ(4u, self->env.dev.max_batches);
	ASSERT_EQ(8u, self->env.dev.max_siblings);
	ASSERT_EQ((1u << DRM_TEMPO_ENGINE_CLASS_COMPUTE) |
		  (1u << DRM_TEMPO_ENGINE_CLASS_COPY),
		  self->env.dev.parallel_classes);
}

TEST_HARNESS_MAIN
