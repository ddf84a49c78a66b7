// SPDX-License-Identifier: GPL-2.0-only
/*
 * DRM_IOCTL_TEMPO_EXEC argument checks: one case per rejection rule, in the
 * order the header documents them, then cases where two rules apply and
 * the earlier one must win. Every rejected exec must leave nothing queued:
 * its out-sync gets no fence, its batch never runs (checked after a later
 * job on the same slot has completed, since jobs of a slot run in order).
 */
#include "tempo_test.h"

#define MARK_REJECTED	0x1000	/* written by the batch of the bad exec */
#define MARK_FOLLOW	0x1004	/* written by the job submitted after it */

struct bad_env {
	struct tempo_env env;
	uint32_t out;		/* binary syncobj without a fence */
	uint32_t nofence;	/* another one */
	uint32_t timeline;	/* timeline syncobj, point 1 signalled */
	uint32_t dead_ctx;	/* a destroyed context */
	uint64_t batches[2];
	struct drm_tempo_sync *ins;	/* max_syncs + 1 valid in-syncs */
	struct drm_tempo_sync *outs;	/* max_syncs + 1 valid out-syncs */
	struct drm_tempo_user_extension ext;
	struct drm_tempo_exec x;	/* a valid exec, to be spoiled */
};

/* The rest of @b, once its environment is set up. */
static void bad_env_init(struct __test_metadata *_metadata, struct bad_env *b)
{
	struct tempo_env *e = &b->env;
	uint32_t n = e->dev.max_syncs + 1;
	int fd = e->fd;
	uint64_t one = 1;

	ASSERT_EQ(0, drmSyncobjCreate(fd, 0, &b->out));
	ASSERT_EQ(0, drmSyncobjCreate(fd, 0, &b->nofence));
	ASSERT_EQ(0, drmSyncobjCreate(fd, 0, &b->timeline));
	ASSERT_EQ(0, drmSyncobjTimelineSignal(fd, &b->timeline, &one, 1));
	ASSERT_EQ(0, tempo_ctx_create(fd, 0, NULL, 0, &b->dead_ctx));
	ASSERT_EQ(0, tempo_ctx_destroy(fd, b->dead_ctx));

	b->batches[0] = tempo_mark_batch(e, 0, MARK_REJECTED, 0xbad);
	b->batches[1] = b->batches[0];

	b->ins = calloc(n, sizeof(*b->ins));
	b->outs = calloc(n, sizeof(*b->outs));
	ASSERT_TRUE(b->ins && b->outs);
	for (uint32_t i = 0; i < n; i++) {
		b->ins[i] = (struct drm_tempo_sync){ .handle = b->timeline,
						     .point = 1 };
		b->outs[i] = (struct drm_tempo_sync){ .handle = b->out };
	}
	b->ext = (struct drm_tempo_user_extension){ .name = 0x7e4d };

	b->x = (struct drm_tempo_exec){
		.ctx_id = e->ctx,
		.slot = 0,
		.num_batches = 1,
		.batches = (uint64_t)(uintptr_t)b->batches,
		.num_in_syncs = 1,
		.num_out_syncs = 1,
		.in_syncs = (uint64_t)(uintptr_t)b->ins,
		.out_syncs = (uint64_t)(uintptr_t)b->outs,
		.out_fence_fd = -1,
	};
}

static void bad_env_fini(struct bad_env *b)
{
	free(b->ins);
	free(b->outs);
	tempo_env_fini(&b->env);
}

/* A fixture of a struct bad_env, self->b. */
#define BAD_ENV_FIXTURE(name)						\
	FIXTURE(name) {							\
		struct bad_env b;					\
	};								\
	FIXTURE_SETUP(name)						\
	{								\
		TEMPO_ENV_SETUP(&self->b.env);				\
		bad_env_init(_metadata, &self->b);			\
	}								\
	FIXTURE_TEARDOWN(name)						\
	{								\
		bad_env_fini(&self->b);					\
	}

/* ------------------------------------------------------------------------ */
/* The valid exec every case starts from */

BAD_ENV_FIXTURE(exec_base)

TEST_F(exec_base, valid_exec_runs_and_signals_its_out_sync)
{
	struct bad_env *b = &self->b;

	ASSERT_EQ(0, ioctl(b->env.fd, DRM_IOCTL_TEMPO_EXEC, &b->x));
	ASSERT_EQ(-1, b->x.out_fence_fd);
	ASSERT_EQ(1, tempo_syncobj_status(b->env.fd, b->out, TEMPO_WAIT_MS));
	ASSERT_EQ(0xbadu, *tempo_u32(&b->env.data, MARK_REJECTED));
}

TEST_F(exec_base, max_syncs_in_and_out_are_accepted)
{
	struct bad_env *b = &self->b;

	b->x.num_in_syncs = b->env.dev.max_syncs;
	b->x.num_out_syncs = b->env.dev.max_syncs;
	ASSERT_EQ(0, ioctl(b->env.fd, DRM_IOCTL_TEMPO_EXEC, &b->x));
	ASSERT_EQ(1, tempo_syncobj_status(b->env.fd, b->out, TEMPO_WAIT_MS));
}

TEST_F(exec_base, no_syncs_with_null_arrays_are_accepted)
{
	struct bad_env *b = &self->b;
	int status;

	b->x.num_in_syncs = 0;
	b->x.num_out_syncs = 0;
	b->x.in_syncs = 0;
	b->x.out_syncs = 0;
	b->x.flags = DRM_TEMPO_EXEC_OUT_SYNC_FILE;
	ASSERT_EQ(0, ioctl(b->env.fd, DRM_IOCTL_TEMPO_EXEC, &b->x));
	ASSERT_LE(0, b->x.out_fence_fd);
	status = tempo_fence_wait(b->x.out_fence_fd, TEMPO_WAIT_MS);
	close(b->x.out_fence_fd);
	ASSERT_EQ(1, status);
}

/* The lowest free file descriptor number. */
static int lowest_free_fd(void)
{
	int fd = dup(0);

	if (fd >= 0)
		close(fd);
	return fd;
}

TEST_F(exec_base, rejected_exec_installs_no_sync_file)
{
	struct bad_env *b = &self->b;
	int before = lowest_free_fd();
	int ret, err;

	/* The last check fails, after everything else was accepted. */
	b->x.flags = DRM_TEMPO_EXEC_OUT_SYNC_FILE;
	b->outs[0].handle = b->out + 1000;
	ret = ioctl(b->env.fd, DRM_IOCTL_TEMPO_EXEC, &b->x);
	err = errno;
	ASSERT_EQ(-1, ret);
	ASSERT_EQ(ENOENT, err);
	ASSERT_EQ(before, lowest_free_fd());
	ASSERT_EQ(0u, *tempo_u32(&b->env.data, MARK_REJECTED));
}

/* ------------------------------------------------------------------------ */
/* Rejections */

BAD_ENV_FIXTURE(exec_bad)

FIXTURE_VARIANT(exec_bad) {
	int expect;			/* errno */
	void (*spoil)(struct bad_env *b);
};

#define BAD(name, err) \
	static void spoil_##name(struct bad_env *b); \
	FIXTURE_VARIANT_ADD(exec_bad, name) { \
		.expect = err, .spoil = spoil_##name, \
	}; \
	static void spoil_##name(struct bad_env *b)

#define PTR(p)	((uint64_t)(uintptr_t)(p))

/* In the order of the header: flags, pad, extensions. */

BAD(unknown_flag_fails_einval, EINVAL)
{
	/* The lowest bit above the known ones. */
	b->x.flags = (DRM_TEMPO_EXEC_FLAGS + 1) & ~DRM_TEMPO_EXEC_FLAGS;
}

BAD(top_flag_bit_fails_einval, EINVAL)
{
	b->x.flags = 1u << 31;
}

BAD(nonzero_pad_fails_einval, EINVAL)
{
	b->x.pad = 1;
}

BAD(unknown_extension_fails_einval, EINVAL)
{
	b->x.extensions = PTR(&b->ext);
}

BAD(bad_extensions_pointer_fails_efault, EFAULT)
{
	b->x.extensions = tempo_bad_ptr();
}

/* Context. */

BAD(unknown_ctx_fails_enoent, ENOENT)
{
	b->x.ctx_id = b->env.ctx + 1000;
}

BAD(ctx_zero_fails_enoent, ENOENT)
{
	b->x.ctx_id = 0;
}

BAD(destroyed_ctx_fails_enoent, ENOENT)
{
	b->x.ctx_id = b->dead_ctx;
}

/* Slot. */

BAD(slot_past_the_engine_map_fails_einval, EINVAL)
{
	b->x.slot = b->env.engines->num_engines;
}

BAD(slot_max_fails_einval, EINVAL)
{
	b->x.slot = UINT32_MAX;
}

/* Batches. */

BAD(zero_batches_fails_einval, EINVAL)
{
	b->x.num_batches = 0;
}

BAD(two_batches_fails_einval, EINVAL)
{
	b->x.num_batches = 2;
}

/* Sync counts. */

BAD(too_many_in_syncs_fails_einval, EINVAL)
{
	b->x.num_in_syncs = b->env.dev.max_syncs + 1;
}

BAD(too_many_out_syncs_fails_einval, EINVAL)
{
	b->x.num_out_syncs = b->env.dev.max_syncs + 1;
}

BAD(in_sync_count_max_fails_einval, EINVAL)
{
	b->x.num_in_syncs = UINT32_MAX;
}

/* Arrays. */

BAD(bad_batches_pointer_fails_efault, EFAULT)
{
	b->x.batches = tempo_bad_ptr();
}

BAD(bad_in_syncs_pointer_fails_efault, EFAULT)
{
	b->x.in_syncs = tempo_bad_ptr();
}

BAD(bad_out_syncs_pointer_fails_efault, EFAULT)
{
	b->x.out_syncs = tempo_bad_ptr();
}

BAD(in_syncs_running_into_an_unmapped_page_fails_efault, EFAULT)
{
	struct drm_tempo_sync *s =
		(void *)(uintptr_t)(tempo_bad_ptr() - sizeof(*s));

	*s = b->ins[0];
	b->x.in_syncs = PTR(s);
	b->x.num_in_syncs = 2;
}

/* Sync flags. */

BAD(in_sync_flags_fail_einval, EINVAL)
{
	b->ins[0].flags = 1;
}

BAD(out_sync_flags_fail_einval, EINVAL)
{
	b->outs[0].flags = 1u << 31;
}

/* Syncobj handles. */

BAD(unknown_in_syncobj_fails_enoent, ENOENT)
{
	b->ins[0].handle = b->timeline + 1000;
}

BAD(unknown_out_syncobj_fails_enoent, ENOENT)
{
	b->outs[0].handle = b->out + 1000;
}

BAD(unknown_second_out_syncobj_fails_enoent, ENOENT)
{
	b->outs[1].handle = b->out + 1000;
	b->x.num_out_syncs = 2;
}

/*
 * The exec releases what it looked up before the unknown handle (a
 * syncobj and a chain node for the timeline point) and nothing past it:
 * four out-syncs fit the exec's stack, eight do not.
 */
BAD(unknown_second_of_four_out_syncobjs_fails_enoent, ENOENT)
{
	b->outs[0] = (struct drm_tempo_sync){ .handle = b->timeline,
					      .point = 1000 };
	b->outs[1].handle = b->out + 1000;
	b->x.num_out_syncs = 4;
}

BAD(unknown_second_of_eight_out_syncobjs_fails_enoent, ENOENT)
{
	b->outs[0] = (struct drm_tempo_sync){ .handle = b->timeline,
					      .point = 1000 };
	b->outs[1].handle = b->out + 1000;
	b->x.num_out_syncs = 8;
}

BAD(in_syncobj_without_fence_fails_enoent, ENOENT)
{
	b->ins[0] = (struct drm_tempo_sync){ .handle = b->nofence };
}

BAD(in_sync_point_without_fence_fails_enoent, ENOENT)
{
	b->ins[0].point = 100;
}

/* Two rules at once: the earlier one in the header wins. */

BAD(unknown_flag_before_unknown_ctx_fails_einval, EINVAL)
{
	b->x.flags = 1u << 31;
	b->x.ctx_id = b->env.ctx + 1000;
}

BAD(nonzero_pad_before_unknown_ctx_fails_einval, EINVAL)
{
	b->x.pad = 1;
	b->x.ctx_id = b->env.ctx + 1000;
}

BAD(unknown_extension_before_unknown_ctx_fails_einval, EINVAL)
{
	b->x.extensions = PTR(&b->ext);
	b->x.ctx_id = b->env.ctx + 1000;
}

BAD(unknown_ctx_before_bad_slot_fails_enoent, ENOENT)
{
	b->x.ctx_id = b->env.ctx + 1000;
	b->x.slot = UINT32_MAX;
}

BAD(unknown_ctx_before_unreadable_arrays_fails_enoent, ENOENT)
{
	b->x.ctx_id = b->env.ctx + 1000;
	b->x.batches = tempo_bad_ptr();
	b->x.in_syncs = tempo_bad_ptr();
	b->x.out_syncs = tempo_bad_ptr();
}

BAD(bad_slot_before_unreadable_batches_fails_einval, EINVAL)
{
	b->x.slot = b->env.engines->num_engines;
	b->x.batches = tempo_bad_ptr();
}

BAD(batch_count_before_unreadable_batches_fails_einval, EINVAL)
{
	b->x.num_batches = 2;
	b->x.batches = tempo_bad_ptr();
}

BAD(sync_count_before_unreadable_syncs_fails_einval, EINVAL)
{
	b->x.num_out_syncs = b->env.dev.max_syncs + 1;
	b->x.out_syncs = tempo_bad_ptr();
}

BAD(unreadable_array_before_sync_flags_fails_efault, EFAULT)
{
	b->ins[0].flags = 1;
	b->x.out_syncs = tempo_bad_ptr();
}

BAD(sync_flags_before_unknown_syncobj_fails_einval, EINVAL)
{
	b->ins[0].handle = b->timeline + 1000;
	b->outs[0].flags = 1;
}

TEST_F(exec_bad, is_rejected_and_queues_nothing)
{
	struct bad_env *b = &self->b;
	struct tempo_env *e = &b->env;
	int ret, err;

	variant->spoil(b);
	ret = ioctl(e->fd, DRM_IOCTL_TEMPO_EXEC, &b->x);
	err = errno;
	ASSERT_EQ(-1, ret);
	ASSERT_EQ(variant->expect, err)
		TH_LOG("errno %d (%s)", err, strerror(err));

	/* No fence was installed in the out-sync. */
	ASSERT_FALSE(tempo_syncobj_has_fence(e->fd, b->out));

	/* A job queued after it on the same slot runs, and it ran alone. */
	ASSERT_EQ(1, tempo_run(_metadata, e->fd, e->ctx, 0,
			       tempo_mark_batch(e, 4096, MARK_FOLLOW, 1)));
	ASSERT_EQ(1u, *tempo_u32(&e->data, MARK_FOLLOW));
	ASSERT_EQ(0u, *tempo_u32(&e->data, MARK_REJECTED));
	ASSERT_FALSE(tempo_syncobj_has_fence(e->fd, b->out));
}

TEST_HARNESS_MAIN
