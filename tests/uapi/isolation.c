// SPDX-License-Identifier: GPL-2.0-only
/*
 * Isolation between files: one open file of the render node can never
 * reach another's buffers, GPU addresses, contexts or syncobjs, whatever
 * handle or id it guesses, and an unprivileged caller cannot raise or
 * override priorities. What bo.c, vm.c, ctx.c and sched.c already check
 * (a single guessed handle, a single context id, the priority ceiling of
 * CTX_CREATE and SET_PARAM, SCHED on another file) is not repeated here.
 *
 * "A" is the victim, with buffers holding a pattern; "B" is the other
 * file, which guesses. Run the program as root and as an ordinary user:
 * the tests on privilege skip for the other kind.
 */
#include "tempo_test.h"

#define PATTERN_OFF	0x2000		/* in A's data buffer */
#define PATTERN_SIZE	0x1000
#define MARK		0x1000		/* in B's data buffer */
#define GUESSES		256		/* handles and ids tried */

/* A GPU address that only A maps: far above what AUTO_VA hands out. */
#define A_ONLY_VA(e)	((e)->dev.va_start + (1ull << 34))

FIXTURE(isolation) {
	struct tempo_env a;
	struct tempo_env b;
	int bare;		/* a third file with nothing in it */
	uint32_t slot;		/* a compute slot of the default map */
	struct tempo_bo a_only;	/* A's buffer at A_ONLY_VA */
};

static void pattern(const struct tempo_bo *bo, uint64_t off, uint64_t size,
		    uint32_t seed)
{
	for (uint64_t i = 0; i < size; i += 4)
		*tempo_u32(bo, off + i) = seed ^ (uint32_t)(i * 2654435761u);
}

static bool pattern_intact(const struct tempo_bo *bo, uint64_t off,
			   uint64_t size, uint32_t seed)
{
	for (uint64_t i = 0; i < size; i += 4)
		if (*tempo_u32(bo, off + i) != (seed ^ (uint32_t)(i * 2654435761u)))
			return false;
	return true;
}

FIXTURE_SETUP(isolation)
{
	struct tempo_bo *o = &self->a_only;
	uint64_t size = 4 * tempo_page_size();
	int slot;

	TEMPO_ENV_SETUP(&self->a);
	tempo_env_init(_metadata, &self->b, tempo_device_open());
	self->bare = tempo_device_open();
	ASSERT_LE(0, self->bare);

	slot = tempo_default_slot(self->a.engines,
				  DRM_TEMPO_ENGINE_CLASS_COMPUTE, 0);
	self->slot = slot < 0 ? 0 : (uint32_t)slot;

	/* A's buffer at an address B never maps. */
	memset(o, 0, sizeof(*o));
	o->size = size;
	ASSERT_EQ(0, tempo_bo_create(self->a.fd, size, &o->handle));
	o->map = tempo_bo_mmap(self->a.fd, o->handle, size);
	ASSERT_NE(NULL, o->map);
	o->va = A_ONLY_VA(&self->a);
	ASSERT_EQ(0, tempo_vm_map(self->a.fd, o->handle, 0, &o->va, 0, size));
	pattern(o, 0, size, 0xa0a0a0a0);
	pattern(&self->a.data, PATTERN_OFF, PATTERN_SIZE, 0x5eed);
}

FIXTURE_TEARDOWN(isolation)
{
	if (self->a_only.map)
		munmap(self->a_only.map, self->a_only.size);
	if (self->bare >= 0)
		close(self->bare);
	tempo_env_fini(&self->b);
	tempo_env_fini(&self->a);
}

/* A's buffers still hold their patterns and A's GPU still writes them. */
static void a_still_intact(struct __test_metadata *_metadata,
			   FIXTURE_DATA(isolation) *self)
{
	struct tempo_env *a = &self->a;
	struct tempo_batch b;

	ASSERT_TRUE(pattern_intact(&a->data, PATTERN_OFF, PATTERN_SIZE,
				   0x5eed));
	ASSERT_TRUE(pattern_intact(&self->a_only, 0, self->a_only.size,
				   0xa0a0a0a0));
	tempo_batch_init(&b, &a->cmd, TEMPO_CMD_SIZE - 1024, 64);
	tempo_pkt_write32(&b, a->data.va + MARK, 0xa11);
	tempo_pkt_end(&b);
	ASSERT_EQ(1, tempo_run(_metadata, a->fd, a->ctx, self->slot, b.va));
	ASSERT_EQ(0xa11u, *tempo_u32(&a->data, MARK));
}

/* ------------------------------------------------------------------------ */
/* Buffers */

TEST_F(isolation, guessed_handles_reach_no_buffer)
{
	uint32_t extra[8];

	/* A has a few more buffers, so its handles spread further. */
	for (unsigned int i = 0; i < TEMPO_ARRAY_SIZE(extra); i++)
		ASSERT_EQ(0, tempo_bo_create(self->a.fd, tempo_page_size(),
					     &extra[i]));
	for (uint32_t h = 0; h < GUESSES; h++) {
		uint64_t offset, va = 0;

		ASSERT_EQ(-ENOENT, tempo_bo_mmap_offset(self->bare, h,
							&offset));
		ASSERT_EQ(-ENOENT, tempo_vm_map(self->bare, h,
						DRM_TEMPO_VM_MAP_AUTO_VA, &va,
						0, tempo_page_size()));
		ASSERT_EQ(-EINVAL, tempo_gem_close(self->bare, h));
	}
	/* A's handles all still work. */
	for (unsigned int i = 0; i < TEMPO_ARRAY_SIZE(extra); i++)
		ASSERT_EQ(0, tempo_gem_close(self->a.fd, extra[i]));
	a_still_intact(_metadata, self);
}

TEST_F(isolation, mmap_offset_of_another_file_is_refused)
{
	uint64_t offset;
	void *p;

	ASSERT_EQ(0, tempo_bo_mmap_offset(self->a.fd, self->a.data.handle,
					  &offset));
	p = mmap(NULL, tempo_page_size(), PROT_READ | PROT_WRITE, MAP_SHARED,
		 self->b.fd, (off_t)offset);
	ASSERT_EQ(MAP_FAILED, p);
	ASSERT_EQ(EACCES, errno);
	p = mmap(NULL, tempo_page_size(), PROT_READ, MAP_SHARED, self->bare,
		 (off_t)offset);
	ASSERT_EQ(MAP_FAILED, p);
	/* A itself may map it again. */
	p = mmap(NULL, tempo_page_size(), PROT_READ, MAP_SHARED, self->a.fd,
		 (off_t)offset);
	ASSERT_NE(MAP_FAILED, p);
	munmap(p, tempo_page_size());
	a_still_intact(_metadata, self);
}

/* ------------------------------------------------------------------------ */
/* GPU addresses */

TEST_F(isolation, write_at_another_files_address_faults)
{
	struct tempo_env *b = &self->b;
	struct tempo_batch batch;

	tempo_batch_init(&batch, &b->cmd, 0, 64);
	tempo_pkt_write32(&batch, self->a_only.va + 64, 0xbad);
	tempo_pkt_write32(&batch, b->data.va + MARK, 1);	/* never runs */
	tempo_pkt_end(&batch);
	ASSERT_EQ(-EFAULT, tempo_run(_metadata, b->fd, b->ctx, self->slot,
				     batch.va));
	ASSERT_EQ(0u, *tempo_u32(&b->data, MARK));
	a_still_intact(_metadata, self);
}

TEST_F(isolation, copy_from_another_files_address_faults_and_leaks_nothing)
{
	struct tempo_env *b = &self->b;
	uint32_t dst_ctx;
	struct tempo_batch batch;

	ASSERT_EQ(0, tempo_ctx_create(b->fd, 0, NULL, 0, &dst_ctx));
	tempo_batch_init(&batch, &b->cmd, 0, 64);
	tempo_pkt_copy(&batch, b->data.va + 0x10000, self->a_only.va,
		       (uint32_t)self->a_only.size);
	tempo_pkt_end(&batch);
	ASSERT_EQ(-EFAULT, tempo_run(_metadata, b->fd, dst_ctx, self->slot,
				     batch.va));
	ASSERT_TRUE(tempo_bo_is_zero(&b->data, 0x10000, self->a_only.size));
	a_still_intact(_metadata, self);
}

TEST_F(isolation, kernels_cannot_reach_another_files_address)
{
	struct tempo_env *b = &self->b;
	uint32_t fill[] = { TEMPO_ARG_VA(self->a_only.va), 0xbad, 256 };
	uint32_t sum[] = { TEMPO_ARG_VA(self->a_only.va),
			   TEMPO_ARG_VA(b->data.va + MARK), 256 };
	struct tempo_batch batch;
	uint32_t ctx2;

	tempo_batch_init(&batch, &b->cmd, 0, 64);
	tempo_pkt_dispatch(&batch, DRM_TEMPO_KERNEL_FILL, 4, 1, 1, fill,
			   TEMPO_ARRAY_SIZE(fill));
	tempo_pkt_end(&batch);
	ASSERT_EQ(-EFAULT, tempo_run(_metadata, b->fd, b->ctx, self->slot,
				     batch.va));
	/* A checksum of A's memory, into B's: faults, sums nothing. */
	ASSERT_EQ(0, tempo_ctx_create(b->fd, 0, NULL, 0, &ctx2));
	tempo_batch_init(&batch, &b->cmd, 1024, 64);
	tempo_pkt_dispatch(&batch, DRM_TEMPO_KERNEL_CHECKSUM, 4, 1, 1, sum,
			   TEMPO_ARRAY_SIZE(sum));
	tempo_pkt_end(&batch);
	ASSERT_EQ(-EFAULT, tempo_run(_metadata, b->fd, ctx2, self->slot,
				     batch.va));
	ASSERT_EQ(0ull, *tempo_u64(&b->data, MARK));
	a_still_intact(_metadata, self);
}

TEST_F(isolation, same_address_in_two_files_is_two_buffers)
{
	struct tempo_env *a = &self->a, *b = &self->b;
	struct tempo_bo bo;
	struct tempo_batch batch;
	uint64_t va = self->a_only.va;

	/* B maps its own buffer where A has a_only, and writes all of it. */
	ASSERT_EQ(0, tempo_bo_create(b->fd, self->a_only.size, &bo.handle));
	ASSERT_EQ(0, tempo_vm_map(b->fd, bo.handle, 0, &va, 0,
				  self->a_only.size));
	ASSERT_EQ(self->a_only.va, va);
	bo.size = self->a_only.size;
	bo.map = tempo_bo_mmap(b->fd, bo.handle, bo.size);
	ASSERT_NE(NULL, bo.map);
	tempo_batch_init(&batch, &b->cmd, 0, 64);
	tempo_pkt_fill(&batch, va, 0xb0b0b0b0, (uint32_t)bo.size);
	tempo_pkt_end(&batch);
	ASSERT_EQ(1, tempo_run(_metadata, b->fd, b->ctx, self->slot, batch.va));
	ASSERT_EQ(0xb0b0b0b0u, *tempo_u32(&bo, bo.size - 4));

	/* A's data buffer and B's sit at the same AUTO_VA address too. */
	if (a->data.va == b->data.va) {
		tempo_batch_init(&batch, &b->cmd, 1024, 64);
		tempo_pkt_fill(&batch, b->data.va + PATTERN_OFF, 0xb1b1b1b1,
			       PATTERN_SIZE);
		tempo_pkt_end(&batch);
		ASSERT_EQ(1, tempo_run(_metadata, b->fd, b->ctx, self->slot,
				       batch.va));
	}
	munmap(bo.map, bo.size);
	a_still_intact(_metadata, self);
}

/* ------------------------------------------------------------------------ */
/* Contexts */

TEST_F(isolation, guessed_context_ids_reach_no_context)
{
	struct tempo_env *a = &self->a;
	uint32_t extra[6];
	int64_t value;

	for (unsigned int i = 0; i < TEMPO_ARRAY_SIZE(extra); i++)
		ASSERT_EQ(0, tempo_ctx_create(a->fd, DRM_TEMPO_PRIORITY_LOW,
					      NULL, 0, &extra[i]));
	/* The bare file has no context: every id is unknown to it. */
	for (uint32_t id = 1; id < GUESSES; id++) {
		ASSERT_EQ(-ENOENT, tempo_exec(self->bare, id, 0, a->cmd.va,
					      NULL, 0, NULL, 0, NULL));
		ASSERT_EQ(-ENOENT, tempo_ctx_set_priority(self->bare, id,
					DRM_TEMPO_PRIORITY_VERY_LOW));
		ASSERT_EQ(-ENOENT, tempo_ctx_get_priority(self->bare, id,
							  &value));
	}
	for (unsigned int i = 0; i < TEMPO_ARRAY_SIZE(extra); i++) {
		ASSERT_EQ(0, tempo_ctx_get_priority(a->fd, extra[i], &value));
		ASSERT_EQ(DRM_TEMPO_PRIORITY_LOW, value);
	}
	a_still_intact(_metadata, self);
}

TEST_F(isolation, context_ids_are_per_file)
{
	struct tempo_env *a = &self->a, *b = &self->b;
	uint32_t ca, cb;
	int64_t value;

	/* Fresh files number their contexts alike, independently. */
	ASSERT_EQ(0, tempo_ctx_create(self->bare, DRM_TEMPO_PRIORITY_VERY_LOW,
				      NULL, 0, &cb));
	ASSERT_EQ(0, tempo_ctx_create(a->fd, DRM_TEMPO_PRIORITY_LOW, NULL, 0,
				      &ca));
	ASSERT_EQ(0, tempo_ctx_get_priority(a->fd, a->ctx, &value));
	ASSERT_EQ(DRM_TEMPO_PRIORITY_NORMAL, value);
	/* The bare file's context 1 is its own, not A's context 1. */
	ASSERT_EQ(a->ctx, cb);
	ASSERT_EQ(0, tempo_ctx_set_priority(self->bare, cb,
					    DRM_TEMPO_PRIORITY_LOW));
	ASSERT_EQ(0, tempo_ctx_destroy(self->bare, cb));
	ASSERT_EQ(0, tempo_ctx_get_priority(a->fd, a->ctx, &value));
	ASSERT_EQ(DRM_TEMPO_PRIORITY_NORMAL, value);
	/* B destroying "its" id of A's context leaves A's alone. */
	ASSERT_EQ(0, tempo_ctx_destroy(b->fd, b->ctx));
	ASSERT_EQ(0, tempo_ctx_get_priority(a->fd, a->ctx, &value));
	ASSERT_EQ(0, tempo_ctx_get_priority(a->fd, ca, &value));
	a_still_intact(_metadata, self);
}

TEST_F(isolation, a_banned_context_bans_nothing_in_another_file)
{
	struct tempo_env *a = &self->a, *b = &self->b;
	struct drm_tempo_ctx_param p = {
		.ctx_id = b->ctx,
		.param = DRM_TEMPO_CTX_PARAM_RESET_STATUS,
	};
	struct tempo_batch batch;

	/* A's context faults and is banned... */
	ASSERT_EQ(a->ctx, b->ctx);
	tempo_batch_init(&batch, &a->cmd, 0, 64);
	tempo_pkt_write32(&batch, a->dev.va_start - 4096, 1);
	tempo_pkt_end(&batch);
	ASSERT_EQ(-EFAULT, tempo_run(_metadata, a->fd, a->ctx, self->slot,
				     batch.va));
	/* ...B's context with the same id is not. */
	ASSERT_EQ(0, tempo_ioctl(b->fd, DRM_IOCTL_TEMPO_CTX_GET_PARAM, &p));
	ASSERT_EQ(0, p.value & DRM_TEMPO_RESET_STATUS_GUILTY);
	tempo_batch_init(&batch, &b->cmd, 0, 64);
	tempo_pkt_write32(&batch, b->data.va + MARK, 0xb0b);
	tempo_pkt_end(&batch);
	ASSERT_EQ(1, tempo_run(_metadata, b->fd, b->ctx, self->slot, batch.va));
	ASSERT_EQ(0xb0bu, *tempo_u32(&b->data, MARK));
}

/* ------------------------------------------------------------------------ */
/* Syncobjs */

/* libdrm's syncobj calls, each as 0 or -errno. */
static int errno_of(int ret)
{
	return ret < 0 ? -errno : 0;
}

static int syncobj_destroy(int fd, uint32_t h)
{
	return errno_of(drmSyncobjDestroy(fd, h));
}

static int syncobj_wait(int fd, uint32_t h)
{
	return errno_of(drmSyncobjWait(fd, &h, 1, 0, 0, NULL));
}

static int syncobj_signal(int fd, uint32_t h)
{
	return errno_of(drmSyncobjSignal(fd, &h, 1));
}

static int syncobj_reset(int fd, uint32_t h)
{
	return errno_of(drmSyncobjReset(fd, &h, 1));
}

TEST_F(isolation, guessed_syncobj_handles_reach_no_syncobj)
{
	struct tempo_env *a = &self->a, *b = &self->b;
	uint32_t signalled, unsignalled;
	struct tempo_batch batch;

	/* B's batch would mark B's buffer, were it ever queued. */
	tempo_batch_init(&batch, &b->cmd, 0, 64);
	tempo_pkt_write32(&batch, b->data.va + MARK, 1);
	tempo_pkt_end(&batch);
	ASSERT_EQ(0, drmSyncobjCreate(a->fd, DRM_SYNCOBJ_CREATE_SIGNALED,
				      &signalled));
	ASSERT_EQ(0, drmSyncobjCreate(a->fd, 0, &unsignalled));
	for (uint32_t h = 0; h < GUESSES; h++) {
		struct drm_tempo_sync s = { .handle = h };

		ASSERT_EQ(-ENOENT, syncobj_wait(self->bare, h));
		ASSERT_EQ(-ENOENT, syncobj_signal(self->bare, h));
		ASSERT_EQ(-ENOENT, syncobj_reset(self->bare, h));
		ASSERT_EQ(-EINVAL, syncobj_destroy(self->bare, h));
		/* Nor through an exec of B (which has no syncobj). */
		ASSERT_EQ(-ENOENT, tempo_exec(b->fd, b->ctx, self->slot,
					      batch.va, &s, 1, NULL, 0, NULL));
		ASSERT_EQ(-ENOENT, tempo_exec(b->fd, b->ctx, self->slot,
					      batch.va, NULL, 0, &s, 1, NULL));
	}
	/* None of B's execs was queued: a later job of the slot has run. */
	ASSERT_EQ(1, tempo_run(_metadata, b->fd, b->ctx, self->slot,
			       b->cmd.va + 4 * batch.len - 4));
	ASSERT_EQ(0u, *tempo_u32(&b->data, MARK));
	/* A's syncobjs kept their state. */
	ASSERT_EQ(0, syncobj_wait(a->fd, signalled));
	ASSERT_EQ(-EINVAL, syncobj_wait(a->fd, unsignalled));
	ASSERT_EQ(0, syncobj_destroy(a->fd, signalled));
	ASSERT_EQ(0, syncobj_destroy(a->fd, unsignalled));
}

TEST_F(isolation, syncobj_handles_are_per_file)
{
	struct tempo_env *a = &self->a;
	struct tempo_batch batch;
	uint32_t ha, hb;
	struct drm_tempo_sync out = { 0 };

	ASSERT_EQ(0, drmSyncobjCreate(a->fd, 0, &ha));
	ASSERT_EQ(0, drmSyncobjCreate(self->bare, 0, &hb));
	ASSERT_EQ(ha, hb);	/* both files' first syncobj */
	/* The bare file signals and destroys its own; A's is untouched. */
	ASSERT_EQ(0, syncobj_signal(self->bare, hb));
	ASSERT_EQ(0, syncobj_wait(self->bare, hb));
	ASSERT_EQ(-EINVAL, syncobj_wait(a->fd, ha));	/* still no fence */
	ASSERT_EQ(0, syncobj_destroy(self->bare, hb));
	/* A's syncobj still takes A's job's fence. */
	out.handle = ha;
	tempo_batch_init(&batch, &a->cmd, 0, 64);
	tempo_pkt_write32(&batch, a->data.va + MARK, 5);
	tempo_pkt_end(&batch);
	ASSERT_EQ(0, tempo_exec(a->fd, a->ctx, self->slot, batch.va, NULL, 0,
				&out, 1, NULL));
	ASSERT_EQ(1, tempo_syncobj_status(a->fd, ha, TEMPO_WAIT_MS));
	ASSERT_EQ(5u, *tempo_u32(&a->data, MARK));
}

TEST_F(isolation, exec_with_another_files_syncobj_fails_enoent)
{
	struct tempo_env *a = &self->a, *b = &self->b;
	struct tempo_batch batch;
	struct drm_tempo_sync s = { 0 };
	uint32_t h;

	/* A's syncobj has a number B does not have. */
	for (int i = 0; i < 4; i++)
		ASSERT_EQ(0, drmSyncobjCreate(a->fd,
					      DRM_SYNCOBJ_CREATE_SIGNALED, &h));
	s.handle = h;
	tempo_batch_init(&batch, &b->cmd, 0, 64);
	tempo_pkt_write32(&batch, b->data.va + MARK, 1);
	tempo_pkt_end(&batch);
	ASSERT_EQ(-ENOENT, tempo_exec(b->fd, b->ctx, self->slot, batch.va, &s,
				      1, NULL, 0, NULL));
	ASSERT_EQ(-ENOENT, tempo_exec(b->fd, b->ctx, self->slot, batch.va,
				      NULL, 0, &s, 1, NULL));
	/* Neither was queued, and A's syncobj is still signalled. */
	ASSERT_EQ(1, tempo_run(_metadata, b->fd, b->ctx, self->slot,
			       b->cmd.va + 4 * batch.len - 4));
	ASSERT_EQ(0u, *tempo_u32(&b->data, MARK));
	ASSERT_EQ(0, syncobj_wait(a->fd, h));
}

/* ------------------------------------------------------------------------ */
/* Privilege */

/*
 * SCHED by the file @fd of A's contexts: a file override to @file_prio and
 * an override of A's context to @ctx_prio fail with -EACCES, and A's
 * context still runs at normal priority.
 */
static void overrides_refused(struct __test_metadata *_metadata, int fd,
			      const struct tempo_env *a, int32_t file_prio,
			      int32_t ctx_prio)
{
	int64_t value;

	ASSERT_EQ(-EACCES, tempo_sched(fd,
				       DRM_TEMPO_SCHED_FILE_PRIORITY_OVERRIDE,
				       a->fd, 0, file_prio));
	ASSERT_EQ(-EACCES, tempo_sched(fd,
				       DRM_TEMPO_SCHED_CTX_PRIORITY_OVERRIDE,
				       a->fd, a->ctx, ctx_prio));
	ASSERT_EQ(0, tempo_ctx_get_priority(a->fd, a->ctx, &value));
	ASSERT_EQ(DRM_TEMPO_PRIORITY_NORMAL, value);
}

TEST_F(isolation, unprivileged_file_cannot_override_even_itself)
{
	TEMPO_NEED_NOT_NICE();
	overrides_refused(_metadata, self->a.fd, &self->a,
			  DRM_TEMPO_PRIORITY_VERY_HIGH,
			  DRM_TEMPO_PRIORITY_HIGH);
	/* Not even downwards, nor to remove an override. */
	overrides_refused(_metadata, self->a.fd, &self->a,
			  DRM_TEMPO_PRIORITY_UNSET,
			  DRM_TEMPO_PRIORITY_VERY_LOW);
}

TEST_F(isolation, unprivileged_file_cannot_lower_another_file)
{
	TEMPO_NEED_NOT_NICE();
	/* Lowering a competitor would raise oneself relative to it. */
	overrides_refused(_metadata, self->b.fd, &self->a,
			  DRM_TEMPO_PRIORITY_VERY_LOW,
			  DRM_TEMPO_PRIORITY_VERY_LOW);
}

TEST_F(isolation, unprivileged_priority_ceiling_holds_for_every_slot_kind)
{
	struct drm_tempo_engine none = { 0, DRM_TEMPO_ENGINE_INSTANCE_NONE };
	struct drm_tempo_engine siblings[8];
	struct drm_tempo_ctx_ext_load_balance lb = {
		.base.name = DRM_TEMPO_CTX_EXT_LOAD_BALANCE,
	};
	struct drm_tempo_ctx_create c = {
		.priority = DRM_TEMPO_PRIORITY_HIGH,
		.num_slots = 1,
		.slots = (uint64_t)(uintptr_t)&none,
		.extensions = (uint64_t)(uintptr_t)&lb,
	};
	unsigned int n = tempo_engines_of_class(self->a.engines,
						DRM_TEMPO_ENGINE_CLASS_COMPUTE,
						siblings, 8);

	TEMPO_NEED_NOT_NICE();
	if (n < 2)
		SKIP(return, "fewer than two compute engines");
	lb.num_siblings = n;
	lb.siblings = (uint64_t)(uintptr_t)siblings;
	ASSERT_EQ(-EACCES, tempo_ioctl(self->a.fd, DRM_IOCTL_TEMPO_CTX_CREATE,
				       &c));
	/* The same context at normal priority is fine. */
	c.priority = DRM_TEMPO_PRIORITY_NORMAL;
	ASSERT_EQ(0, tempo_ioctl(self->a.fd, DRM_IOCTL_TEMPO_CTX_CREATE, &c));
	ASSERT_EQ(-EACCES, tempo_ctx_set_priority(self->a.fd, c.ctx_id,
						  DRM_TEMPO_PRIORITY_HIGH));
}

TEST_HARNESS_MAIN
