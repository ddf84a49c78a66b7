// SPDX-License-Identifier: GPL-2.0-only
/*
 * Contexts: DRM_IOCTL_TEMPO_CTX_CREATE, _CTX_DESTROY, _CTX_GET_PARAM and
 * _CTX_SET_PARAM. Engine maps, the check order of creation, priorities and
 * the privilege they need.
 *
 * Tests that depend on privilege look at CAP_SYS_NICE and skip when the
 * caller has the other kind; run the program as root and as an ordinary
 * user to cover both.
 */
#include "tempo_test.h"

TEMPO_ENV_FIXTURE(ctx)

/* CTX_CREATE as given: 0 or -errno. */
static int create_raw(int fd, struct drm_tempo_ctx_create *c)
{
	return tempo_ioctl_raw(fd, DRM_IOCTL_TEMPO_CTX_CREATE, c);
}

/* CTX_GET_PARAM or CTX_SET_PARAM (@request) as given: 0 or -errno. */
static int param_raw(int fd, unsigned long request, uint32_t ctx_id,
		     uint32_t param, int64_t value, uint64_t pad)
{
	struct drm_tempo_ctx_param p = {
		.ctx_id = ctx_id, .param = param, .value = value, .pad = pad,
	};

	return tempo_ioctl_raw(fd, request, &p);
}

/*
 * Run a DISPATCH of ATOMIC_INC (one group, one increment) on a slot and
 * return the fence status; check the increment when it succeeds.
 */
static int dispatch_on_slot(struct __test_metadata *_metadata,
			    struct tempo_env *e, uint32_t ctx_id, uint32_t slot)
{
	const uint64_t counter = 4096;
	uint32_t args[] = { TEMPO_ARG_VA(e->data.va + counter), 1 };
	uint64_t before = *tempo_u64(&e->data, counter);
	struct tempo_batch b;
	int status;

	tempo_batch_init(&b, &e->cmd, 1024 * slot, 256);
	tempo_pkt_dispatch(&b, DRM_TEMPO_KERNEL_ATOMIC_INC, 1, 1, 1, args,
			   TEMPO_ARRAY_SIZE(args));
	tempo_pkt_end(&b);
	status = tempo_run(_metadata, e->fd, ctx_id, slot, b.va);
	if (status == 1) {
		ASSERT_EQ(before + 1, *tempo_u64(&e->data, counter));
	} else {
		ASSERT_EQ(before, *tempo_u64(&e->data, counter));
	}
	return status;
}

/* Exec of an empty batch; returns 0 or -errno of the ioctl. */
static int exec_on_slot(struct tempo_env *e, uint32_t ctx_id, uint32_t slot)
{
	struct tempo_batch b;
	int fence = -1, ret;

	tempo_batch_init(&b, &e->cmd, TEMPO_CMD_SIZE - 64, 16);
	tempo_pkt_end(&b);
	ret = tempo_exec(e->fd, ctx_id, slot, b.va, NULL, 0, NULL, 0, &fence);
	if (!ret) {
		tempo_fence_wait(fence, TEMPO_WAIT_MS);
		close(fence);
	}
	return ret;
}

/* ------------------------------------------------------------------------ */
/* Creation and engine maps */

TEST_F(ctx, create_with_default_map_returns_nonzero_id)
{
	uint32_t id = 0;

	ASSERT_EQ(0, tempo_ctx_create(self->env.fd, 0, NULL, 0, &id));
	ASSERT_NE(0u, id);
}

TEST_F(ctx, create_returns_distinct_ids)
{
	uint32_t a, b;

	ASSERT_EQ(0, tempo_ctx_create(self->env.fd, 0, NULL, 0, &a));
	ASSERT_EQ(0, tempo_ctx_create(self->env.fd, 0, NULL, 0, &b));
	ASSERT_NE(a, b);
	ASSERT_NE(self->env.ctx, a);
	ASSERT_NE(self->env.ctx, b);
}

TEST_F(ctx, default_map_has_one_slot_per_engine)
{
	struct tempo_env *e = &self->env;

	ASSERT_EQ(0, exec_on_slot(e, e->ctx, e->engines->num_engines - 1));
	ASSERT_EQ(-EINVAL, exec_on_slot(e, e->ctx, e->engines->num_engines));
}

TEST_F(ctx, default_map_follows_engines_order)
{
	struct tempo_env *e = &self->env;

	/*
	 * DISPATCH is illegal on copy engines only. A failed job bans its
	 * context, so each slot is tried on a context of its own.
	 */
	for (uint32_t i = 0; i < e->engines->num_engines; i++) {
		int expect = e->engines->engines[i].engine_class ==
			     DRM_TEMPO_ENGINE_CLASS_COPY ? -EILSEQ : 1;
		uint32_t id;

		ASSERT_EQ(0, tempo_ctx_create(e->fd, 0, NULL, 0, &id));
		ASSERT_EQ(expect, dispatch_on_slot(_metadata, e, id, i));
		ASSERT_EQ(0, tempo_ctx_destroy(e->fd, id));
	}
}

TEST_F(ctx, explicit_slots_select_their_engines)
{
	struct tempo_env *e = &self->env;
	unsigned int ncopy = tempo_count_class(e->engines,
					       DRM_TEMPO_ENGINE_CLASS_COPY);
	unsigned int ncompute = tempo_count_class(e->engines,
						  DRM_TEMPO_ENGINE_CLASS_COMPUTE);
	struct drm_tempo_engine slots[3];
	uint32_t id;

	if (!ncopy || !ncompute)
		SKIP(return, "needs a copy and a compute engine");
	slots[0] = (struct drm_tempo_engine){ DRM_TEMPO_ENGINE_CLASS_COPY,
					      ncopy - 1 };
	slots[1] = (struct drm_tempo_engine){ DRM_TEMPO_ENGINE_CLASS_GFX, 0 };
	slots[2] = (struct drm_tempo_engine){ DRM_TEMPO_ENGINE_CLASS_COMPUTE,
					      ncompute - 1 };
	ASSERT_EQ(0, tempo_ctx_create(e->fd, 0, slots, 3, &id));

	ASSERT_EQ(1, dispatch_on_slot(_metadata, e, id, 1));
	ASSERT_EQ(1, dispatch_on_slot(_metadata, e, id, 2));
	ASSERT_EQ(-EINVAL, exec_on_slot(e, id, 3));
	/* Last: the failed job bans the context. */
	ASSERT_EQ(-EILSEQ, dispatch_on_slot(_metadata, e, id, 0));
}

TEST_F(ctx, create_with_max_slots_succeeds)
{
	struct tempo_env *e = &self->env;
	uint32_t n = e->dev.max_slots;
	struct drm_tempo_engine *slots = calloc(n, sizeof(*slots));
	uint32_t id;

	ASSERT_TRUE(slots != NULL);
	for (uint32_t i = 0; i < n; i++) {
		slots[i].engine_class =
			e->engines->engines[i % e->engines->num_engines].engine_class;
		slots[i].engine_instance =
			e->engines->engines[i % e->engines->num_engines].engine_instance;
	}
	ASSERT_EQ(0, tempo_ctx_create(e->fd, 0, slots, n, &id));
	ASSERT_EQ(0, exec_on_slot(e, id, n - 1));
	ASSERT_EQ(-EINVAL, exec_on_slot(e, id, n));
	free(slots);
}

TEST_F(ctx, create_with_too_many_slots_fails_einval)
{
	uint32_t n = self->env.dev.max_slots + 1;
	struct drm_tempo_engine *slots = calloc(n, sizeof(*slots));
	struct drm_tempo_ctx_create c = {
		.num_slots = n,
		.slots = (uint64_t)(uintptr_t)slots,
	};

	ASSERT_TRUE(slots != NULL);	/* all GFX 0: valid engines */
	ASSERT_EQ(-EINVAL, create_raw(self->env.fd, &c));
	free(slots);
}

TEST_F(ctx, too_many_slots_is_rejected_before_reading_slots)
{
	struct drm_tempo_ctx_create c = {
		.num_slots = self->env.dev.max_slots + 1,
		.slots = tempo_bad_ptr(),
	};

	ASSERT_EQ(-EINVAL, create_raw(self->env.fd, &c));

	c.num_slots = UINT32_MAX;
	ASSERT_EQ(-EINVAL, create_raw(self->env.fd, &c));
}

TEST_F(ctx, create_with_bad_slots_pointer_fails_efault)
{
	struct drm_tempo_ctx_create c = {
		.num_slots = 1,
		.slots = tempo_bad_ptr(),
	};

	ASSERT_EQ(-EFAULT, create_raw(self->env.fd, &c));

	/* The first slot is readable, the second is not. */
	c.num_slots = 2;
	c.slots = tempo_bad_ptr() - sizeof(struct drm_tempo_engine);
	ASSERT_EQ(-EFAULT, create_raw(self->env.fd, &c));
}

/* A NULL @slots with @num_slots set is a bad pointer, not the default map. */
TEST_F(ctx, create_with_slots_null_and_num_slots_set_fails_efault)
{
	struct drm_tempo_ctx_create c = { .slots = 0 };
	uint32_t n[] = { 1, self->env.dev.max_slots };
	unsigned int i;

	for (i = 0; i < 2; i++) {
		c.num_slots = n[i];
		ASSERT_EQ(-EFAULT, create_raw(self->env.fd, &c));
	}
}

TEST_F(ctx, create_with_unknown_engine_class_fails_einval)
{
	uint16_t classes[] = { DRM_TEMPO_ENGINE_CLASS_COPY + 1, 0x100, 0xffff };

	for (unsigned int i = 0; i < TEMPO_ARRAY_SIZE(classes); i++) {
		struct drm_tempo_engine slot = { classes[i], 0 };
		struct drm_tempo_ctx_create c = {
			.num_slots = 1,
			.slots = (uint64_t)(uintptr_t)&slot,
		};

		ASSERT_EQ(-EINVAL, create_raw(self->env.fd, &c));
	}
}

TEST_F(ctx, create_with_unknown_engine_instance_fails_einval)
{
	for (uint16_t cls = 0; cls <= DRM_TEMPO_ENGINE_CLASS_COPY; cls++) {
		struct drm_tempo_engine slot = {
			cls, tempo_count_class(self->env.engines, cls),
		};
		struct drm_tempo_ctx_create c = {
			.num_slots = 1,
			.slots = (uint64_t)(uintptr_t)&slot,
		};

		ASSERT_EQ(-EINVAL, create_raw(self->env.fd, &c));
	}
}

TEST_F(ctx, create_with_unknown_engine_in_a_later_slot_fails_einval)
{
	struct drm_tempo_engine slots[] = {
		{ DRM_TEMPO_ENGINE_CLASS_GFX, 0 },
		{ DRM_TEMPO_ENGINE_CLASS_GFX, 0x7ff },
	};
	struct drm_tempo_ctx_create c = {
		.num_slots = 2,
		.slots = (uint64_t)(uintptr_t)slots,
	};

	ASSERT_EQ(-EINVAL, create_raw(self->env.fd, &c));
}

TEST_F(ctx, create_with_instance_none_slot_fails_einval)
{
	for (uint16_t cls = 0; cls <= DRM_TEMPO_ENGINE_CLASS_COPY; cls++) {
		struct drm_tempo_engine slot = {
			cls, DRM_TEMPO_ENGINE_INSTANCE_NONE,
		};
		struct drm_tempo_ctx_create c = {
			.num_slots = 1,
			.slots = (uint64_t)(uintptr_t)&slot,
		};

		ASSERT_EQ(-EINVAL, create_raw(self->env.fd, &c));
	}
}

TEST_F(ctx, create_with_nonzero_flags_fails_einval)
{
	uint32_t bits[] = { 1u << 0, 1u << 31 };

	for (unsigned int i = 0; i < TEMPO_ARRAY_SIZE(bits); i++) {
		struct drm_tempo_ctx_create c = { .flags = bits[i] };

		ASSERT_EQ(-EINVAL, create_raw(self->env.fd, &c));
	}
}

TEST_F(ctx, create_with_unknown_extension_fails_einval)
{
	struct drm_tempo_user_extension ext = { .name = 0x7e4d };
	struct drm_tempo_ctx_create c = {
		.extensions = (uint64_t)(uintptr_t)&ext,
	};

	ASSERT_EQ(-EINVAL, create_raw(self->env.fd, &c));

	/* No name is defined yet, not even 0. */
	ext.name = 0;
	ASSERT_EQ(-EINVAL, create_raw(self->env.fd, &c));
}

TEST_F(ctx, create_with_bad_extensions_pointer_fails_efault)
{
	struct drm_tempo_ctx_create c = { .extensions = tempo_bad_ptr() };

	ASSERT_EQ(-EFAULT, create_raw(self->env.fd, &c));
}

TEST_F(ctx, create_with_looping_extension_chain_fails)
{
	struct drm_tempo_user_extension ext = { .name = 0x7e4d };
	struct drm_tempo_ctx_create c = {
		.extensions = (uint64_t)(uintptr_t)&ext,
	};
	int ret;

	/*
	 * An endless chain is longer than DRM_TEMPO_MAX_EXTENSIONS (-E2BIG)
	 * and made of an unknown name (-EINVAL); the header does not rank
	 * the two rules. Either is fine, as long as the walk stops.
	 */
	ext.next = (uint64_t)(uintptr_t)&ext;
	ret = create_raw(self->env.fd, &c);
	ASSERT_TRUE(ret == -E2BIG || ret == -EINVAL)
		TH_LOG("errno %d (%s)", -ret, strerror(-ret));
}

TEST_F(ctx, unknown_extension_is_rejected_before_reading_slots)
{
	struct drm_tempo_user_extension ext = { .name = 0x7e4d };
	struct drm_tempo_ctx_create c = {
		.extensions = (uint64_t)(uintptr_t)&ext,
		.num_slots = 1,
		.slots = tempo_bad_ptr(),
	};

	ASSERT_EQ(-EINVAL, create_raw(self->env.fd, &c));
}

/* ------------------------------------------------------------------------ */
/* Priority at creation */

TEST_F(ctx, create_with_priority_below_very_low_fails_einval)
{
	int32_t prios[] = { DRM_TEMPO_PRIORITY_VERY_LOW - 1, INT32_MIN };

	for (unsigned int i = 0; i < TEMPO_ARRAY_SIZE(prios); i++) {
		struct drm_tempo_ctx_create c = { .priority = prios[i] };

		ASSERT_EQ(-EINVAL, create_raw(self->env.fd, &c));
	}
}

/* For a caller without CAP_SYS_NICE this is also "EINVAL before EACCES". */
TEST_F(ctx, create_with_priority_above_very_high_fails_einval)
{
	int32_t prios[] = { DRM_TEMPO_PRIORITY_VERY_HIGH + 1, INT32_MAX };

	for (unsigned int i = 0; i < TEMPO_ARRAY_SIZE(prios); i++) {
		struct drm_tempo_ctx_create c = { .priority = prios[i] };

		ASSERT_EQ(-EINVAL, create_raw(self->env.fd, &c));
	}
}

TEST_F(ctx, create_with_priority_very_low_succeeds)
{
	uint32_t id;

	ASSERT_EQ(0, tempo_ctx_create(self->env.fd, DRM_TEMPO_PRIORITY_VERY_LOW,
				      NULL, 0, &id));
}

TEST_F(ctx, create_with_priority_normal_succeeds)
{
	uint32_t id;

	ASSERT_EQ(0, tempo_ctx_create(self->env.fd, DRM_TEMPO_PRIORITY_NORMAL,
				      NULL, 0, &id));
}

TEST_F(ctx, create_with_priority_very_high_succeeds_with_cap_sys_nice)
{
	uint32_t id;

	TEMPO_NEED_NICE();
	ASSERT_EQ(0, tempo_ctx_create(self->env.fd,
				      DRM_TEMPO_PRIORITY_VERY_HIGH, NULL, 0,
				      &id));
}

TEST_F(ctx, create_with_priority_high_succeeds_with_cap_sys_nice)
{
	uint32_t id;

	TEMPO_NEED_NICE();
	ASSERT_EQ(0, tempo_ctx_create(self->env.fd, DRM_TEMPO_PRIORITY_HIGH,
				      NULL, 0, &id));
}

TEST_F(ctx, create_with_priority_high_fails_eacces_without_cap_sys_nice)
{
	struct drm_tempo_ctx_create c = { .priority = DRM_TEMPO_PRIORITY_HIGH };

	TEMPO_NEED_NOT_NICE();
	ASSERT_EQ(-EACCES, create_raw(self->env.fd, &c));
}

TEST_F(ctx, create_with_priority_very_high_fails_eacces_without_cap_sys_nice)
{
	struct drm_tempo_ctx_create c = {
		.priority = DRM_TEMPO_PRIORITY_VERY_HIGH,
	};

	TEMPO_NEED_NOT_NICE();
	ASSERT_EQ(-EACCES, create_raw(self->env.fd, &c));
}

TEST_F(ctx, create_with_priority_just_above_normal_fails_eacces_without_cap_sys_nice)
{
	struct drm_tempo_ctx_create c = {
		.priority = DRM_TEMPO_PRIORITY_NORMAL + 1,
	};

	TEMPO_NEED_NOT_NICE();
	ASSERT_EQ(-EACCES, create_raw(self->env.fd, &c));
}

TEST_F(ctx, unknown_engine_is_rejected_before_priority_ceiling)
{
	struct drm_tempo_engine slot = { DRM_TEMPO_ENGINE_CLASS_COPY + 1, 0 };
	struct drm_tempo_ctx_create c = {
		.priority = DRM_TEMPO_PRIORITY_HIGH,
		.num_slots = 1,
		.slots = (uint64_t)(uintptr_t)&slot,
	};

	TEMPO_NEED_NOT_NICE();
	ASSERT_EQ(-EINVAL, create_raw(self->env.fd, &c));
}

TEST_F(ctx, nonzero_flags_are_rejected_before_priority_ceiling)
{
	struct drm_tempo_ctx_create c = {
		.flags = 1,
		.priority = DRM_TEMPO_PRIORITY_HIGH,
	};

	TEMPO_NEED_NOT_NICE();
	ASSERT_EQ(-EINVAL, create_raw(self->env.fd, &c));
}

/* ------------------------------------------------------------------------ */
/* Parameters */

TEST_F(ctx, get_priority_returns_the_creation_priority)
{
	int64_t value = 1;
	uint32_t id;

	ASSERT_EQ(0, tempo_ctx_create(self->env.fd, DRM_TEMPO_PRIORITY_LOW,
				      NULL, 0, &id));
	ASSERT_EQ(0, tempo_ctx_get_priority(self->env.fd, id, &value));
	ASSERT_EQ(DRM_TEMPO_PRIORITY_LOW, value);

	ASSERT_EQ(0, tempo_ctx_get_priority(self->env.fd, self->env.ctx,
					    &value));
	ASSERT_EQ(DRM_TEMPO_PRIORITY_NORMAL, value);
}

TEST_F(ctx, get_priority_is_sign_extended)
{
	struct drm_tempo_ctx_param p = {
		.param = DRM_TEMPO_CTX_PARAM_PRIORITY,
	};

	ASSERT_EQ(0, tempo_ctx_create(self->env.fd, DRM_TEMPO_PRIORITY_VERY_LOW,
				      NULL, 0, &p.ctx_id));
	ASSERT_EQ(0, ioctl(self->env.fd, DRM_IOCTL_TEMPO_CTX_GET_PARAM, &p));
	ASSERT_EQ((int64_t)DRM_TEMPO_PRIORITY_VERY_LOW, p.value);
	ASSERT_EQ(0ull, p.pad);
}

TEST_F(ctx, set_priority_round_trips)
{
	int64_t values[] = {
		DRM_TEMPO_PRIORITY_LOW, DRM_TEMPO_PRIORITY_VERY_LOW, -1,
		DRM_TEMPO_PRIORITY_NORMAL,
	};
	int64_t value;

	for (unsigned int i = 0; i < TEMPO_ARRAY_SIZE(values); i++) {
		ASSERT_EQ(0, tempo_ctx_set_priority(self->env.fd,
						    self->env.ctx, values[i]));
		ASSERT_EQ(0, tempo_ctx_get_priority(self->env.fd,
						    self->env.ctx, &value));
		ASSERT_EQ(values[i], value);
	}
}

TEST_F(ctx, set_priority_very_high_succeeds_with_cap_sys_nice)
{
	int64_t value;

	TEMPO_NEED_NICE();
	ASSERT_EQ(0, tempo_ctx_set_priority(self->env.fd, self->env.ctx,
					    DRM_TEMPO_PRIORITY_VERY_HIGH));
	ASSERT_EQ(0, tempo_ctx_get_priority(self->env.fd, self->env.ctx,
					    &value));
	ASSERT_EQ(DRM_TEMPO_PRIORITY_VERY_HIGH, value);
}

/*
 * Set the priority of the environment's context to @start, then check
 * that every one of @values is refused with -EINVAL and leaves @start.
 */
static void set_priorities_refused(struct __test_metadata *_metadata,
				   struct tempo_env *e, int64_t start,
				   const int64_t *values, unsigned int n)
{
	int64_t value;

	ASSERT_EQ(0, tempo_ctx_set_priority(e->fd, e->ctx, start));
	for (unsigned int i = 0; i < n; i++)
		ASSERT_EQ(-EINVAL, param_raw(e->fd,
					     DRM_IOCTL_TEMPO_CTX_SET_PARAM,
					     e->ctx,
					     DRM_TEMPO_CTX_PARAM_PRIORITY,
					     values[i], 0));
	ASSERT_EQ(0, tempo_ctx_get_priority(e->fd, e->ctx, &value));
	ASSERT_EQ(start, value);
}

TEST_F(ctx, set_priority_out_of_range_fails_einval_and_keeps_value)
{
	int64_t values[] = {
		DRM_TEMPO_PRIORITY_VERY_LOW - 1, DRM_TEMPO_PRIORITY_VERY_HIGH + 1,
		INT64_MIN, INT64_MAX,
	};

	set_priorities_refused(_metadata, &self->env, DRM_TEMPO_PRIORITY_LOW,
			       values, TEMPO_ARRAY_SIZE(values));
}

TEST_F(ctx, set_priority_is_not_truncated_to_32_bits)
{
	/* Each of these would be a valid priority once truncated. */
	int64_t values[] = {
		1ll << 32, (1ll << 32) + DRM_TEMPO_PRIORITY_LOW,
		-(1ll << 32) - 1,
	};

	set_priorities_refused(_metadata, &self->env,
			       DRM_TEMPO_PRIORITY_VERY_LOW, values,
			       TEMPO_ARRAY_SIZE(values));
}

TEST_F(ctx, set_priority_above_ceiling_fails_eacces_and_keeps_value)
{
	int64_t value;

	TEMPO_NEED_NOT_NICE();
	ASSERT_EQ(0, tempo_ctx_set_priority(self->env.fd, self->env.ctx,
					    DRM_TEMPO_PRIORITY_LOW));
	ASSERT_EQ(-EACCES, param_raw(self->env.fd,
				     DRM_IOCTL_TEMPO_CTX_SET_PARAM,
				     self->env.ctx,
				     DRM_TEMPO_CTX_PARAM_PRIORITY,
				     DRM_TEMPO_PRIORITY_HIGH, 0));
	ASSERT_EQ(0, tempo_ctx_get_priority(self->env.fd, self->env.ctx,
					    &value));
	ASSERT_EQ(DRM_TEMPO_PRIORITY_LOW, value);
}

TEST_F(ctx, set_priority_above_range_fails_einval_not_eacces)
{
	TEMPO_NEED_NOT_NICE();
	ASSERT_EQ(-EINVAL, param_raw(self->env.fd,
				     DRM_IOCTL_TEMPO_CTX_SET_PARAM,
				     self->env.ctx,
				     DRM_TEMPO_CTX_PARAM_PRIORITY,
				     DRM_TEMPO_PRIORITY_VERY_HIGH + 1, 0));
}

TEST_F(ctx, get_param_with_unknown_param_fails_einval)
{
	ASSERT_EQ(-EINVAL, param_raw(self->env.fd,
				     DRM_IOCTL_TEMPO_CTX_GET_PARAM,
				     self->env.ctx,
				     DRM_TEMPO_CTX_PARAM_RESET_COUNT + 1, 0,
				     0));
	ASSERT_EQ(-EINVAL, param_raw(self->env.fd,
				     DRM_IOCTL_TEMPO_CTX_GET_PARAM,
				     self->env.ctx, UINT32_MAX, 0, 0));
}

TEST_F(ctx, set_param_with_unknown_param_fails_einval)
{
	ASSERT_EQ(-EINVAL, param_raw(self->env.fd,
				     DRM_IOCTL_TEMPO_CTX_SET_PARAM,
				     self->env.ctx,
				     DRM_TEMPO_CTX_PARAM_PRIORITY + 1, 0, 0));
}

TEST_F(ctx, get_param_of_unknown_ctx_fails_enoent)
{
	ASSERT_EQ(-ENOENT, param_raw(self->env.fd,
				     DRM_IOCTL_TEMPO_CTX_GET_PARAM,
				     self->env.ctx + 1000,
				     DRM_TEMPO_CTX_PARAM_PRIORITY, 0, 0));
	ASSERT_EQ(-ENOENT, param_raw(self->env.fd,
				     DRM_IOCTL_TEMPO_CTX_GET_PARAM, 0,
				     DRM_TEMPO_CTX_PARAM_PRIORITY, 0, 0));
}

TEST_F(ctx, set_param_of_unknown_ctx_fails_enoent)
{
	ASSERT_EQ(-ENOENT, param_raw(self->env.fd,
				     DRM_IOCTL_TEMPO_CTX_SET_PARAM,
				     self->env.ctx + 1000,
				     DRM_TEMPO_CTX_PARAM_PRIORITY, 0, 0));
}

TEST_F(ctx, get_param_with_nonzero_pad_fails_einval)
{
	ASSERT_EQ(-EINVAL, param_raw(self->env.fd,
				     DRM_IOCTL_TEMPO_CTX_GET_PARAM,
				     self->env.ctx,
				     DRM_TEMPO_CTX_PARAM_PRIORITY, 0, 1));
}

TEST_F(ctx, set_param_with_nonzero_pad_fails_einval_and_keeps_value)
{
	int64_t value;

	ASSERT_EQ(-EINVAL, param_raw(self->env.fd,
				     DRM_IOCTL_TEMPO_CTX_SET_PARAM,
				     self->env.ctx,
				     DRM_TEMPO_CTX_PARAM_PRIORITY,
				     DRM_TEMPO_PRIORITY_LOW, 1ull << 63));
	ASSERT_EQ(0, tempo_ctx_get_priority(self->env.fd, self->env.ctx,
					    &value));
	ASSERT_EQ(DRM_TEMPO_PRIORITY_NORMAL, value);
}

/* ------------------------------------------------------------------------ */
/* Destruction */

TEST_F(ctx, destroy_succeeds)
{
	ASSERT_EQ(0, tempo_ctx_destroy(self->env.fd, self->env.ctx));
}

TEST_F(ctx, destroy_of_unknown_ctx_fails_enoent)
{
	struct drm_tempo_ctx_destroy d = { .ctx_id = self->env.ctx + 1000 };

	ASSERT_EQ(-1, ioctl(self->env.fd, DRM_IOCTL_TEMPO_CTX_DESTROY, &d));
	ASSERT_EQ(ENOENT, errno);
}

TEST_F(ctx, destroy_of_ctx_zero_fails_enoent)
{
	struct drm_tempo_ctx_destroy d = { .ctx_id = 0 };
	uint32_t id;

	ASSERT_EQ(-1, ioctl(self->env.fd, DRM_IOCTL_TEMPO_CTX_DESTROY, &d));
	ASSERT_EQ(ENOENT, errno);
	/* Nor does it make id 0 available. */
	ASSERT_EQ(0, tempo_ctx_create(self->env.fd, 0, NULL, 0, &id));
	ASSERT_NE(0u, id);
}

TEST_F(ctx, destroy_twice_fails_enoent)
{
	struct drm_tempo_ctx_destroy d = { .ctx_id = self->env.ctx };

	ASSERT_EQ(0, ioctl(self->env.fd, DRM_IOCTL_TEMPO_CTX_DESTROY, &d));
	ASSERT_EQ(-1, ioctl(self->env.fd, DRM_IOCTL_TEMPO_CTX_DESTROY, &d));
	ASSERT_EQ(ENOENT, errno);
}

TEST_F(ctx, destroy_with_nonzero_pad_fails_einval_and_keeps_ctx)
{
	struct drm_tempo_ctx_destroy d = { .ctx_id = self->env.ctx, .pad = 1 };
	int64_t value;

	ASSERT_EQ(-1, ioctl(self->env.fd, DRM_IOCTL_TEMPO_CTX_DESTROY, &d));
	ASSERT_EQ(EINVAL, errno);
	ASSERT_EQ(0, tempo_ctx_get_priority(self->env.fd, self->env.ctx,
					    &value));
}

TEST_F(ctx, destroyed_ctx_is_unknown_to_exec_and_params)
{
	int64_t value;

	ASSERT_EQ(0, tempo_ctx_destroy(self->env.fd, self->env.ctx));
	ASSERT_EQ(-ENOENT, exec_on_slot(&self->env, self->env.ctx, 0));
	ASSERT_EQ(-ENOENT, tempo_ctx_get_priority(self->env.fd, self->env.ctx,
						  &value));
	ASSERT_EQ(-ENOENT, tempo_ctx_set_priority(self->env.fd, self->env.ctx,
						  0));
}

TEST_F(ctx, contexts_are_per_file)
{
	int other = tempo_device_open();
	int64_t value;

	ASSERT_LE(0, other);
	ASSERT_EQ(-ENOENT, tempo_ctx_get_priority(other, self->env.ctx,
						  &value));
	ASSERT_EQ(-ENOENT, tempo_ctx_destroy(other, self->env.ctx));
	close(other);
	ASSERT_EQ(0, tempo_ctx_get_priority(self->env.fd, self->env.ctx,
					    &value));
}

TEST_F(ctx, destroy_lets_submitted_jobs_complete)
{
	struct tempo_env *e = &self->env;
	int fence;

	TEMPO_NEED_BLOCKING(e);
	fence = tempo_submit(_metadata, e->fd, e->ctx, 0,
			     tempo_gated_batch(e, 0, 8192, 0xd0e));
	ASSERT_EQ(0, tempo_ctx_destroy(e->fd, e->ctx));
	ASSERT_EQ(0, tempo_fence_wait(fence, TEMPO_BLOCKED_MS));
	tempo_gate_set(e, 1);
	tempo_fence_expect(_metadata, fence, 1, TEMPO_WAIT_MS);
	ASSERT_EQ(0xd0eu, *tempo_u32(&e->data, 8192));
}

TEST_HARNESS_MAIN
