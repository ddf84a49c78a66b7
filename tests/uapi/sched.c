// SPDX-License-Identifier: GPL-2.0-only
/*
 * DRM_IOCTL_TEMPO_SCHED: priority overrides of another file's contexts,
 * for a DRM master or a CAP_SYS_NICE holder only.
 */
#include "tempo_test.h"

#define VA(e, off)	((e)->data.va + (off))
#define STARTED		0x1000
#define MARK		0x1008

FIXTURE(sched) {
	struct tempo_env env;
	int other;		/* a second file: "another process" */
	uint32_t other_ctx;
};

FIXTURE_SETUP(sched)
{
	int fd = tempo_open_render();

	self->other = -1;
	if (fd < 0)
		SKIP(return, TEMPO_NO_DEVICE, strerror(-fd));
	tempo_env_init(_metadata, &self->env, fd);
	self->other = tempo_open_render();
	ASSERT_LE(0, self->other);
	ASSERT_EQ(0, tempo_ctx_create(self->other, DRM_TEMPO_PRIORITY_NORMAL,
				      NULL, 0, &self->other_ctx));
}

FIXTURE_TEARDOWN(sched)
{
	if (self->other >= 0)
		close(self->other);
	tempo_env_fini(&self->env);
}

static int sched(int fd, uint32_t op, int target, uint32_t ctx,
		 int32_t priority)
{
	struct drm_tempo_sched s = {
		.op = op,
		.fd = target,
		.ctx_id = ctx,
		.priority = priority,
	};

	return tempo_ioctl(fd, DRM_IOCTL_TEMPO_SCHED, &s);
}

static int64_t priority_of(int fd, uint32_t ctx)
{
	int64_t p;
	int ret = tempo_ctx_get_priority(fd, ctx, &p);

	return ret ? ret : p;
}

TEST_F(sched, override_without_privilege_fails_eacces)
{
	if (tempo_has_cap_sys_nice())
		SKIP(return, "runs as an unprivileged user");
	ASSERT_EQ(-EACCES, sched(self->env.fd,
				 DRM_TEMPO_SCHED_CTX_PRIORITY_OVERRIDE,
				 self->other, self->other_ctx,
				 DRM_TEMPO_PRIORITY_LOW));
	ASSERT_EQ(-EACCES, sched(self->env.fd,
				 DRM_TEMPO_SCHED_FILE_PRIORITY_OVERRIDE,
				 self->other, 0, DRM_TEMPO_PRIORITY_LOW));
	ASSERT_EQ(DRM_TEMPO_PRIORITY_NORMAL,
		  priority_of(self->other, self->other_ctx));
}

TEST_F(sched, out_of_range_priority_fails_einval_before_eacces)
{
	ASSERT_EQ(-EINVAL, sched(self->env.fd,
				 DRM_TEMPO_SCHED_CTX_PRIORITY_OVERRIDE,
				 self->other, self->other_ctx, 1024));
	ASSERT_EQ(-EINVAL, sched(self->env.fd,
				 DRM_TEMPO_SCHED_FILE_PRIORITY_OVERRIDE,
				 self->other, 0, -1024));
}

TEST_F(sched, unknown_op_fails_einval)
{
	ASSERT_EQ(-EINVAL, sched(self->env.fd, 2, self->other, 0, 0));
}

TEST_F(sched, nonzero_flags_or_pad_fails_einval)
{
	struct drm_tempo_sched s = {
		.op = DRM_TEMPO_SCHED_FILE_PRIORITY_OVERRIDE,
		.fd = self->other,
		.flags = 1,
	};

	ASSERT_EQ(-EINVAL, tempo_ioctl(self->env.fd, DRM_IOCTL_TEMPO_SCHED, &s));
	s.flags = 0;
	s.pad = 1;
	ASSERT_EQ(-EINVAL, tempo_ioctl(self->env.fd, DRM_IOCTL_TEMPO_SCHED, &s));
}

TEST_F(sched, file_override_with_a_ctx_id_fails_einval)
{
	ASSERT_EQ(-EINVAL, sched(self->env.fd,
				 DRM_TEMPO_SCHED_FILE_PRIORITY_OVERRIDE,
				 self->other, self->other_ctx, 0));
}

TEST_F(sched, closed_fd_fails_ebadf)
{
	if (!tempo_has_cap_sys_nice())
		SKIP(return, "needs CAP_SYS_NICE");
	ASSERT_EQ(-EBADF, sched(self->env.fd,
				DRM_TEMPO_SCHED_FILE_PRIORITY_OVERRIDE,
				1000000, 0, 0));
}

TEST_F(sched, fd_of_another_kind_fails_einval)
{
	int null = open("/dev/null", O_RDONLY);

	if (!tempo_has_cap_sys_nice())
		SKIP(return, "needs CAP_SYS_NICE");
	ASSERT_LE(0, null);
	ASSERT_EQ(-EINVAL, sched(self->env.fd,
				 DRM_TEMPO_SCHED_FILE_PRIORITY_OVERRIDE,
				 null, 0, 0));
	close(null);
}

TEST_F(sched, unknown_ctx_fails_enoent)
{
	if (!tempo_has_cap_sys_nice())
		SKIP(return, "needs CAP_SYS_NICE");
	ASSERT_EQ(-ENOENT, sched(self->env.fd,
				 DRM_TEMPO_SCHED_CTX_PRIORITY_OVERRIDE,
				 self->other, self->other_ctx + 100, 0));
}

TEST_F(sched, ctx_override_changes_and_unset_restores_the_priority)
{
	if (!tempo_has_cap_sys_nice())
		SKIP(return, "needs CAP_SYS_NICE");
	ASSERT_EQ(0, sched(self->env.fd, DRM_TEMPO_SCHED_CTX_PRIORITY_OVERRIDE,
			   self->other, self->other_ctx,
			   DRM_TEMPO_PRIORITY_LOW));
	ASSERT_EQ(DRM_TEMPO_PRIORITY_LOW,
		  priority_of(self->other, self->other_ctx));
	ASSERT_EQ(0, sched(self->env.fd, DRM_TEMPO_SCHED_CTX_PRIORITY_OVERRIDE,
			   self->other, self->other_ctx,
			   DRM_TEMPO_PRIORITY_UNSET));
	ASSERT_EQ(DRM_TEMPO_PRIORITY_NORMAL,
		  priority_of(self->other, self->other_ctx));
}

TEST_F(sched, file_override_covers_present_and_future_contexts)
{
	uint32_t later;

	if (!tempo_has_cap_sys_nice())
		SKIP(return, "needs CAP_SYS_NICE");
	ASSERT_EQ(0, sched(self->env.fd, DRM_TEMPO_SCHED_FILE_PRIORITY_OVERRIDE,
			   self->other, 0, DRM_TEMPO_PRIORITY_VERY_LOW));
	ASSERT_EQ(DRM_TEMPO_PRIORITY_VERY_LOW,
		  priority_of(self->other, self->other_ctx));
	ASSERT_EQ(0, tempo_ctx_create(self->other, DRM_TEMPO_PRIORITY_NORMAL,
				      NULL, 0, &later));
	ASSERT_EQ(DRM_TEMPO_PRIORITY_VERY_LOW, priority_of(self->other, later));
	/* The file's own contexts of the caller are untouched. */
	ASSERT_EQ(DRM_TEMPO_PRIORITY_NORMAL,
		  priority_of(self->env.fd, self->env.ctx));
	ASSERT_EQ(0, sched(self->env.fd, DRM_TEMPO_SCHED_FILE_PRIORITY_OVERRIDE,
			   self->other, 0, DRM_TEMPO_PRIORITY_UNSET));
	ASSERT_EQ(DRM_TEMPO_PRIORITY_NORMAL, priority_of(self->other, later));
}

TEST_F(sched, ctx_override_wins_over_file_override)
{
	if (!tempo_has_cap_sys_nice())
		SKIP(return, "needs CAP_SYS_NICE");
	ASSERT_EQ(0, sched(self->env.fd, DRM_TEMPO_SCHED_FILE_PRIORITY_OVERRIDE,
			   self->other, 0, DRM_TEMPO_PRIORITY_LOW));
	ASSERT_EQ(0, sched(self->env.fd, DRM_TEMPO_SCHED_CTX_PRIORITY_OVERRIDE,
			   self->other, self->other_ctx,
			   DRM_TEMPO_PRIORITY_HIGH));
	ASSERT_EQ(DRM_TEMPO_PRIORITY_HIGH,
		  priority_of(self->other, self->other_ctx));
}

/*
 * The compositor raises another file's normal-priority context: its job
 * now preempts a normal-priority spinner on the same engine.
 */
TEST_F(sched, raised_context_preempts_a_spinner)
{
	struct tempo_env *e = &self->env;
	uint32_t slot = tempo_default_slot(e->engines,
					   DRM_TEMPO_ENGINE_CLASS_COMPUTE, 0);
	struct tempo_batch spin, write;
	uint32_t raised;
	int spinner, fence;

	if (!tempo_has_cap_sys_nice())
		SKIP(return, "needs CAP_SYS_NICE");
	ASSERT_EQ(0, tempo_ctx_create(e->fd, DRM_TEMPO_PRIORITY_NORMAL, NULL,
				      0, &raised));
	ASSERT_EQ(0, sched(e->fd, DRM_TEMPO_SCHED_CTX_PRIORITY_OVERRIDE,
			   e->fd, raised, DRM_TEMPO_PRIORITY_HIGH));

	tempo_batch_init(&spin, &e->cmd, 0, 64);
	tempo_pkt_write32(&spin, VA(e, STARTED), 1);
	tempo_pkt_wait_gate(&spin, e, 1);
	tempo_pkt_end(&spin);
	spinner = tempo_submit(_metadata, e->fd, e->ctx, slot, spin.va);
	while (!__atomic_load_n(tempo_u32(&e->data, STARTED), __ATOMIC_SEQ_CST))
		tempo_sleep_ms(1);

	tempo_batch_init(&write, &e->cmd, 4096, 64);
	tempo_pkt_write32(&write, VA(e, MARK), 1);
	tempo_pkt_end(&write);
	fence = tempo_submit(_metadata, e->fd, raised, slot, write.va);
	/* Well before the starvation bound could let it run. */
	ASSERT_EQ(1, tempo_fence_wait(fence, 50));
	ASSERT_EQ(0, tempo_fence_wait(spinner, 0));
	tempo_gate_set(e, 1);
	ASSERT_EQ(1, tempo_fence_wait(spinner, TEMPO_WAIT_MS));
	close(spinner);
	close(fence);
}

TEST_HARNESS_MAIN
