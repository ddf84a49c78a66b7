// SPDX-License-Identifier: GPL-2.0-only
/*
 * Hangs, GPU faults and the reset status of contexts: a failed job bans
 * its own context and nothing else; a hang resets one hardware queue.
 */
#include "tempo_test.h"

#define MARK		0x1000
#define OTHER_MARK	0x1008
#define FAULT_VA	0x1000ull	/* below va_start: never mapped */

#define VA(e, off)	((e)->data.va + (off))

FIXTURE(reset) {
	struct tempo_env env;
	uint32_t slot;
};

FIXTURE_SETUP(reset)
{
	TEMPO_ENV_SETUP(&self->env);
	self->slot = tempo_default_slot(self->env.engines,
					DRM_TEMPO_ENGINE_CLASS_COMPUTE, 0);
}

FIXTURE_TEARDOWN(reset)
{
	tempo_env_fini(&self->env);
}

/* A reset parameter of a context, or -errno. */
static int64_t reset_param(int fd, uint32_t ctx, uint32_t param)
{
	int64_t value;
	int ret = tempo_ctx_get_param(fd, ctx, param, &value);

	return ret ? ret : value;
}

static uint64_t fault_batch(struct tempo_env *e, uint32_t offset)
{
	struct tempo_batch b;

	tempo_batch_init(&b, &e->cmd, offset, 64);
	tempo_pkt_write32(&b, FAULT_VA, 1);
	tempo_pkt_end(&b);
	return b.va;
}

/* Blocks on WAIT_MEM until the job timeout ends it. */
static uint64_t hang_batch(struct tempo_env *e, uint32_t offset)
{
	struct tempo_batch b;

	tempo_batch_init(&b, &e->cmd, offset, 64);
	tempo_pkt_wait_mem(&b, VA(e, MARK), DRM_TEMPO_COMPARE_EQ,
			   0xdead, UINT64_MAX);
	tempo_pkt_end(&b);
	return b.va;
}

TEST_F(reset, new_context_reports_no_reset)
{
	struct tempo_env *e = &self->env;

	ASSERT_EQ(0, reset_param(e->fd, e->ctx,
				 DRM_TEMPO_CTX_PARAM_RESET_STATUS));
	ASSERT_EQ(0, reset_param(e->fd, e->ctx,
				 DRM_TEMPO_CTX_PARAM_RESET_COUNT));
}

TEST_F(reset, reset_status_is_read_only)
{
	struct drm_tempo_ctx_param p = {
		.ctx_id = self->env.ctx,
		.param = DRM_TEMPO_CTX_PARAM_RESET_STATUS,
	};

	ASSERT_EQ(-1, ioctl(self->env.fd, DRM_IOCTL_TEMPO_CTX_SET_PARAM, &p));
	ASSERT_EQ(EINVAL, errno);
	p.param = DRM_TEMPO_CTX_PARAM_RESET_COUNT;
	ASSERT_EQ(-1, ioctl(self->env.fd, DRM_IOCTL_TEMPO_CTX_SET_PARAM, &p));
	ASSERT_EQ(EINVAL, errno);
}

TEST_F(reset, gpu_fault_bans_the_context_and_marks_it_guilty)
{
	struct tempo_env *e = &self->env;

	ASSERT_EQ(-EFAULT, tempo_run(_metadata, e->fd, e->ctx, self->slot,
				     fault_batch(e, 0)));
	ASSERT_EQ(DRM_TEMPO_RESET_STATUS_GUILTY,
		  reset_param(e->fd, e->ctx, DRM_TEMPO_CTX_PARAM_RESET_STATUS));
	ASSERT_EQ(-ECANCELED, tempo_exec(e->fd, e->ctx, self->slot,
					 tempo_mark_batch(e, 256, MARK, 1),
					 NULL, 0, NULL, 0, NULL));
	ASSERT_EQ(0u, *tempo_u32(&e->data, MARK));
}

TEST_F(reset, gpu_fault_leaves_other_contexts_innocent_and_working)
{
	struct tempo_env *e = &self->env;
	uint32_t other;

	ASSERT_EQ(0, tempo_ctx_create(e->fd, 0, NULL, 0, &other));
	ASSERT_EQ(-EFAULT, tempo_run(_metadata, e->fd, e->ctx, self->slot,
				     fault_batch(e, 0)));
	ASSERT_EQ(0, reset_param(e->fd, other,
				 DRM_TEMPO_CTX_PARAM_RESET_STATUS));
	ASSERT_EQ(1, tempo_run(_metadata, e->fd, other, self->slot,
			       tempo_mark_batch(e, 256, MARK, 7)));
	ASSERT_EQ(7u, *tempo_u32(&e->data, MARK));
}

TEST_F(reset, queued_jobs_of_a_banned_context_are_cancelled)
{
	struct tempo_env *e = &self->env;
	struct tempo_batch b;
	int first, second;

	/* First job: wait for the gate, then fault. */
	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_wait_gate(&b, e, 1);
	tempo_pkt_write32(&b, FAULT_VA, 1);
	tempo_pkt_end(&b);
	first = tempo_submit(_metadata, e->fd, e->ctx, self->slot, b.va);
	second = tempo_submit(_metadata, e->fd, e->ctx, self->slot,
			      tempo_mark_batch(e, 256, MARK, 1));
	tempo_sleep_ms(TEMPO_BLOCKED_MS);
	ASSERT_EQ(0, tempo_fence_wait(second, 0));
	tempo_gate_set(e, 1);

	ASSERT_EQ(-EFAULT, tempo_fence_wait(first, TEMPO_WAIT_MS));
	ASSERT_EQ(-ECANCELED, tempo_fence_wait(second, TEMPO_WAIT_MS));
	ASSERT_EQ(0u, *tempo_u32(&e->data, MARK));
	close(first);
	close(second);
}

/* Addresses past the end of the VA range are faults, not wild writes. */
TEST_F(reset, writes_past_the_va_range_fault)
{
	struct tempo_env *e = &self->env;
	const uint64_t vas[] = {
		e->dev.va_end, e->dev.va_end + 4096, 1ull << 63,
		UINT64_MAX - 3, UINT64_MAX & ~0xfffull,
	};

	for (unsigned int i = 0; i < TEMPO_ARRAY_SIZE(vas); i++) {
		struct tempo_batch b;
		uint32_t ctx;

		ASSERT_EQ(0, tempo_ctx_create(e->fd, 0, NULL, 0, &ctx));
		tempo_batch_init(&b, &e->cmd, 256 * i, 64);
		tempo_pkt_write32(&b, vas[i], 0xbad);
		tempo_pkt_end(&b);
		ASSERT_EQ(-EFAULT, tempo_run(_metadata, e->fd, ctx, self->slot,
					     b.va));
	}
}

TEST_F_TIMEOUT(reset, hang_is_reset_and_only_its_context_is_guilty, 60)
{
	struct tempo_env *e = &self->env;
	uint32_t innocent, later;
	int hung, fence;

	TEMPO_NEED_TIMEOUT_WITHIN(e, 20000);
	ASSERT_EQ(0, tempo_ctx_create(e->fd, 0, NULL, 0, &innocent));

	hung = tempo_submit(_metadata, e->fd, e->ctx, self->slot,
			    hang_batch(e, 0));
	/* Work of another context on the same engine still completes. */
	fence = tempo_submit(_metadata, e->fd, innocent, self->slot,
			     tempo_mark_batch(e, 256, OTHER_MARK, 5));
	ASSERT_EQ(-ETIMEDOUT,
		  tempo_fence_wait(hung, e->dev.job_timeout_ms + TEMPO_WAIT_MS));
	ASSERT_EQ(1, tempo_fence_wait(fence, TEMPO_WAIT_MS));
	ASSERT_EQ(5u, *tempo_u32(&e->data, OTHER_MARK));
	close(hung);
	close(fence);

	ASSERT_EQ(DRM_TEMPO_RESET_STATUS_RESET | DRM_TEMPO_RESET_STATUS_GUILTY,
		  reset_param(e->fd, e->ctx, DRM_TEMPO_CTX_PARAM_RESET_STATUS));
	ASSERT_LE(1, reset_param(e->fd, e->ctx,
				 DRM_TEMPO_CTX_PARAM_RESET_COUNT));
	ASSERT_EQ(DRM_TEMPO_RESET_STATUS_RESET,
		  reset_param(e->fd, innocent,
			      DRM_TEMPO_CTX_PARAM_RESET_STATUS));
	ASSERT_EQ(-ECANCELED, tempo_exec(e->fd, e->ctx, self->slot,
					 tempo_mark_batch(e, 512, MARK, 1),
					 NULL, 0, NULL, 0, NULL));

	/* A context created after the reset has seen none. */
	ASSERT_EQ(0, tempo_ctx_create(e->fd, 0, NULL, 0, &later));
	ASSERT_EQ(0, reset_param(e->fd, later,
				 DRM_TEMPO_CTX_PARAM_RESET_STATUS));
	ASSERT_EQ(1, tempo_run(_metadata, e->fd, later, self->slot,
			       tempo_mark_batch(e, 768, MARK, 9)));
	ASSERT_EQ(9u, *tempo_u32(&e->data, MARK));
}

TEST_F_TIMEOUT(reset, self_chaining_batch_is_a_hang, 60)
{
	struct tempo_env *e = &self->env;
	struct tempo_batch b;

	TEMPO_NEED_TIMEOUT_WITHIN(e, 20000);
	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_batch_start(&b, b.va, DRM_TEMPO_BATCH_CHAIN);
	ASSERT_EQ(-ETIMEDOUT, tempo_run(_metadata, e->fd, e->ctx, self->slot,
					b.va));
}

/*
 * One workgroup that would run for hours (2^32 - 1 atomic increments) is
 * stopped by the job timeout like any hang; its engine runs the next job.
 */
TEST_F_TIMEOUT(reset, endless_workgroup_is_a_hang_and_its_engine_recovers, 60)
{
	struct tempo_env *e = &self->env;
	uint64_t counter = VA(e, MARK);
	uint32_t args[] = { (uint32_t)counter, (uint32_t)(counter >> 32),
			    UINT32_MAX };
	struct tempo_batch b;
	uint32_t later;

	TEMPO_NEED_TIMEOUT_WITHIN(e, 20000);
	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_dispatch(&b, DRM_TEMPO_KERNEL_ATOMIC_INC, 1, 1, 1, args, 3);
	tempo_pkt_end(&b);
	ASSERT_EQ(-ETIMEDOUT, tempo_run(_metadata, e->fd, e->ctx, self->slot,
					b.va));
	ASSERT_LT(0u, *tempo_u32(&e->data, MARK));

	ASSERT_EQ(0, tempo_ctx_create(e->fd, 0, NULL, 0, &later));
	ASSERT_EQ(1, tempo_run(_metadata, e->fd, later, self->slot,
			       tempo_mark_batch(e, 256, OTHER_MARK, 7)));
	ASSERT_EQ(7u, *tempo_u32(&e->data, OTHER_MARK));
}

TEST_HARNESS_MAIN
