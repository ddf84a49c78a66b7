// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The tempo authors
 */

/**
 * DOC: Submission
 *
 * DRM_IOCTL_TEMPO_EXEC runs in this order:
 *
 * 1. check the arguments that need no lookup (flags, padding, extensions);
 * 2. look up the context and the slot, check the batch and sync counts;
 * 3. copy every user array into the kernel and check it;
 * 4. allocate and initialise the job (with its hardware fence), counted
 *    against the file's jobs in flight (-EAGAIN when it has too many);
 * 5. resolve the in-syncs into scheduler dependencies and the out-syncs
 *    into syncobjs (and timeline chain nodes), reserve the sync_file fd
 *    and make the sync_file, around the stub fence for now;
 * 6. when the file has private buffers, allocate the fence of its
 *    address space's timeline, lock the address space's reservation
 *    object and reserve a fence slot in it;
 * 7. push the job (tempo_job_push(): under the context lock, the job
 *    takes the context's priority, a gang is ordered after the slot's
 *    previous one, the job armed, lends its priority to the jobs it waits
 *    for when the exec asks for it, and is pushed to the slot's entity):
 *    once armed, the point of no return; add the job to the timeline,
 *    whose fence replaces the previous one in the reservation object,
 *    and unlock it;
 * 8. publish the job's fence in the out-syncs and the sync_file, then
 *    install the sync_file's fd: nothing of it allocates or fails.
 *
 * Every failure before step 7 unwinds everything and queues nothing; no
 * step after it fails, so an exec that returns an error queued nothing.
 *
 * The sync_file is the one object that needs the job's finished fence,
 * which exists only once the job is armed, and whose creation allocates.
 * It is made in step 5 around the signalled stub fence, and given the
 * job's fence in step 8, before its fd is installed: until then nobody
 * else can reach it, so this is what sync_file_create() of the job's
 * fence would have made.
 * &struct tempo_submit owns what the steps acquire and releases it. The
 * job is opaque here: the scheduler glue owns what it is made of.
 */

#include <linux/dma-fence-chain.h>
#include <linux/dma-resv.h>
#include <linux/file.h>
#include <linux/kernel.h>
#include <linux/nospec.h>
#include <linux/slab.h>
#include <linux/sync_file.h>
#include <linux/uaccess.h>

#include <drm/drm_file.h>
#include <drm/drm_syncobj.h>
#include <drm/tempo_drm.h>

#include "tempo_drv.h"

/*
 * Syncs of each direction, and the out-syncs' syncobjs and chain nodes,
 * that an exec keeps in &struct tempo_submit instead of allocating: a
 * submission usually has a sync or two.
 */
#define TEMPO_SUBMIT_INLINE_SYNCS	4

/**
 * struct tempo_out_sync - what publishing one out-sync takes
 * @syncobj: the syncobj, referenced
 * @chain: the chain node of its timeline point, or NULL for a binary one
 *
 * Both in one array: an exec allocates it at once or not at all.
 */
struct tempo_out_sync {
	struct drm_syncobj *syncobj;
	struct dma_fence_chain *chain;
};

/**
 * struct tempo_submit_room - an exec's arrays that fit on its stack
 * @batches: GPU addresses of the batches, one per batch of the slot
 * @in: room for a few in-syncs
 * @out: room for a few out-syncs
 * @out_objs: room for the syncobjs and chain nodes of a few out-syncs
 *
 * Left uninitialised (__uninitialized, where the kernel clears stack
 * variables; see Documentation/benchmarks.rst): each array is written
 * before it is read, up to the counts the exec uses.
 */
struct tempo_submit_room {
	u64 batches[TEMPO_MAX_BATCHES];
	struct drm_tempo_sync in[TEMPO_SUBMIT_INLINE_SYNCS];
	struct drm_tempo_sync out[TEMPO_SUBMIT_INLINE_SYNCS];
	struct tempo_out_sync out_objs[TEMPO_SUBMIT_INLINE_SYNCS];
};

/**
 * struct tempo_submit - what one exec acquires
 * @tdev: the device
 * @file: the caller
 * @args: the ioctl arguments
 * @ctx: the context, referenced
 * @slot: the slot of @ctx
 * @room: where small arrays go instead of the heap
 * @in: the in-syncs, copied (into @room when they fit)
 * @out: the out-syncs, copied (into @room when they fit)
 * @out_objs: the syncobjs and chain nodes of @out (in @room when they fit)
 * @job: the job, referenced (once pushed, the scheduler holds its own)
 * @out_fd: the reserved sync_file fd, or -1
 * @sync_file: the sync_file for @out_fd, until installed
 * @resv: the address space's reservation object, locked, until pushed
 * @vm_fence: the fence of the address space's timeline, until pushed
 */
struct tempo_submit {
	struct tempo_device *tdev;
	struct drm_file *file;
	struct drm_tempo_exec *args;
	struct tempo_ctx *ctx;
	struct tempo_slot *slot;
	struct tempo_submit_room *room;
	struct drm_tempo_sync *in;
	struct drm_tempo_sync *out;
	struct tempo_out_sync *out_objs;
	struct tempo_job *job;
	int out_fd;
	struct sync_file *sync_file;
	struct dma_resv *resv;
	struct tempo_vm_fence *vm_fence;
};

/*
 * No extension is defined for exec: any one is -EINVAL. Out of line:
 * the chain's stack is not cleared for an exec without extensions.
 */
static noinline int submit_check_exts(struct tempo_submit *s)
{
	struct tempo_ext_chain exts;
	int ret;

	ret = tempo_ext_read(s->tdev, s->args->extensions, NULL, 0, &exts);
	tempo_ext_free(&exts);
	return ret;
}

static int submit_check_args(struct tempo_submit *s)
{
	const struct drm_tempo_exec *args = s->args;

	if (TEMPO_IOCTL_DBG(s->tdev, args->flags & ~DRM_TEMPO_EXEC_FLAGS))
		return -EINVAL;
	if (TEMPO_IOCTL_DBG(s->tdev, args->pad))
		return -EINVAL;
	return args->extensions ? submit_check_exts(s) : 0;
}

static int submit_lookup(struct tempo_submit *s)
{
	const struct drm_tempo_exec *args = s->args;
	u32 slot;

	s->ctx = tempo_ctx_lookup(to_tempo_file(s->file), args->ctx_id);
	if (TEMPO_IOCTL_DBG(s->tdev, !s->ctx))
		return -ENOENT;
	if (TEMPO_IOCTL_DBG(s->tdev, tempo_ctx_banned(s->ctx)))
		return -ECANCELED;
	if (TEMPO_IOCTL_DBG(s->tdev, args->slot >= s->ctx->num_slots))
		return -EINVAL;
	slot = array_index_nospec(args->slot, s->ctx->num_slots);
	s->slot = &s->ctx->slots[slot];
	if (TEMPO_IOCTL_DBG(s->tdev, args->num_batches != s->slot->width))
		return -EINVAL;
	if (TEMPO_IOCTL_DBG(s->tdev, args->num_in_syncs > TEMPO_MAX_SYNCS ||
			    args->num_out_syncs > TEMPO_MAX_SYNCS))
		return -EINVAL;
	return 0;
}

/* Copy @count syncs into @room when they fit, else into a new array. */
static int copy_syncs(struct tempo_device *tdev, u64 uptr, u32 count,
		      struct drm_tempo_sync *room, struct drm_tempo_sync **syncs)
{
	void __user *from = u64_to_user_ptr(uptr);

	if (!count)
		return 0;
	if (count <= TEMPO_SUBMIT_INLINE_SYNCS) {
		if (TEMPO_IOCTL_DBG(tdev, copy_from_user(room, from,
							 count * sizeof(*room))))
			return -EFAULT;
		*syncs = room;
		return 0;
	}
	*syncs = memdup_array_user(from, count, sizeof(**syncs));
	if (TEMPO_IOCTL_DBG(tdev, IS_ERR(*syncs))) {
		int ret = PTR_ERR(*syncs);

		*syncs = NULL;
		return ret;
	}
	return 0;
}

static int check_syncs(struct tempo_device *tdev,
		       const struct drm_tempo_sync *syncs, u32 count)
{
	u32 i;

	for (i = 0; i < count; i++)
		if (TEMPO_IOCTL_DBG(tdev, syncs[i].flags))
			return -EINVAL;
	return 0;
}

/*
 * A slot of one batch, the usual one, reads its address with get_user():
 * cheaper than copy_from_user() and its check of the destination.
 */
static int copy_batches(struct tempo_submit *s)
{
	const struct drm_tempo_exec *args = s->args;
	u64 __user *batches = u64_to_user_ptr(args->batches);
	size_t size = args->num_batches * sizeof(s->room->batches[0]);

	if (args->num_batches == 1)
		return get_user(s->room->batches[0], batches);
	return copy_from_user(s->room->batches, batches, size) ? -EFAULT : 0;
}

/* Copy every array first: an unreadable one wins over bad contents. */
static int submit_copy_in(struct tempo_submit *s)
{
	const struct drm_tempo_exec *args = s->args;
	int ret;

	if (TEMPO_IOCTL_DBG(s->tdev, copy_batches(s)))
		return -EFAULT;
	if (!args->num_in_syncs && !args->num_out_syncs)
		return 0;
	ret = copy_syncs(s->tdev, args->in_syncs, args->num_in_syncs,
			 s->room->in, &s->in);
	if (!ret)
		ret = copy_syncs(s->tdev, args->out_syncs, args->num_out_syncs,
				 s->room->out, &s->out);
	if (!ret)
		ret = check_syncs(s->tdev, s->in, args->num_in_syncs);
	if (!ret)
		ret = check_syncs(s->tdev, s->out, args->num_out_syncs);
	return ret;
}

static int submit_job_init(struct tempo_submit *s)
{
	struct tempo_file *tfile = to_tempo_file(s->file);
	struct drm_sched_entity *entity;
	struct tempo_job *job;

	entity = tempo_ctx_entity(s->ctx, s->slot);
	if (IS_ERR(entity))
		return PTR_ERR(entity);
	job = tempo_job_alloc(tfile->usage, tfile->vm, s->slot, s->room->batches);
	if (TEMPO_IOCTL_DBG(s->tdev, PTR_ERR_OR_ZERO(job) == -EAGAIN))
		return -EAGAIN;
	if (IS_ERR(job))
		return PTR_ERR(job);
	s->job = job;
	return tempo_job_init(job, s->ctx, entity, s->file);
}

static int submit_add_deps(struct tempo_submit *s)
{
	struct dma_fence *fence;
	u32 i;
	int ret;

	for (i = 0; i < s->args->num_in_syncs; i++) {
		ret = drm_syncobj_find_fence(s->file, s->in[i].handle,
					     s->in[i].point, 0, &fence);
		if (TEMPO_IOCTL_DBG(s->tdev, ret))
			return -ENOENT;
		ret = tempo_job_add_dependency(s->job, fence);
		if (ret)
			return ret;
	}
	return 0;
}

static int submit_get_out_syncs(struct tempo_submit *s)
{
	u32 i, n = s->args->num_out_syncs;
	struct tempo_out_sync *o;

	if (!n)
		return 0;
	if (n <= TEMPO_SUBMIT_INLINE_SYNCS) {
		o = s->room->out_objs;
		memset(o, 0, n * sizeof(*o));
	} else {
		o = kcalloc(n, sizeof(*o), GFP_KERNEL_ACCOUNT);
		if (!o)
			return -ENOMEM;
	}
	s->out_objs = o;
	for (i = 0; i < n; i++) {
		o[i].syncobj = drm_syncobj_find(s->file, s->out[i].handle);
		if (TEMPO_IOCTL_DBG(s->tdev, !o[i].syncobj))
			return -ENOENT;
		if (!s->out[i].point)
			continue;
		/* As dma_fence_chain_alloc(), but charged: the syncobj keeps it. */
		o[i].chain = kmalloc(sizeof(*o[i].chain), GFP_KERNEL_ACCOUNT);
		if (!o[i].chain)
			return -ENOMEM;
	}
	return 0;
}

/*
 * The sync_file's fd and the sync_file itself, around the stub fence
 * until the job's fence exists (see "Submission" above).
 */
static int submit_prepare_sync_file(struct tempo_submit *s)
{
	struct dma_fence *stub;

	if (!(s->args->flags & DRM_TEMPO_EXEC_OUT_SYNC_FILE))
		return 0;
	s->out_fd = get_unused_fd_flags(O_CLOEXEC);
	if (s->out_fd < 0)
		return s->out_fd;
	stub = dma_fence_get_stub();
	s->sync_file = sync_file_create(stub);
	dma_fence_put(stub);
	return s->sync_file ? 0 : -ENOMEM;
}

static int submit_lock_resv(struct tempo_submit *s)
{
	struct dma_resv *resv = tempo_vm_jobs_resv(to_tempo_file(s->file)->vm);
	int ret;

	if (!resv)
		return 0;
	s->vm_fence = tempo_vm_fence_alloc();
	if (!s->vm_fence)
		return -ENOMEM;
	ret = dma_resv_lock_interruptible(resv, NULL);
	if (ret)
		return ret;
	s->resv = resv;
	return dma_resv_reserve_fences(resv, 1);
}

/*
 * Push the job. It may still fail before its job is armed (the context
 * was banned meanwhile), and then nothing was queued; once armed, nothing
 * fails any more.
 */
static struct dma_fence *submit_push(struct tempo_submit *s)
{
	/* Without out-syncs, sync_file or private buffers, no one needs it. */
	bool publish = s->args->num_out_syncs || s->out_fd >= 0 || s->resv;
	struct dma_fence *fence;

	fence = tempo_job_push(s->job, s->ctx, s->slot, s->args->ctx_id,
			       publish,
			       s->args->flags & DRM_TEMPO_EXEC_INHERIT_PRIORITY);
	if (IS_ERR(fence))
		return fence;
	if (s->resv) {
		/* The private buffers are the job's to write. */
		tempo_vm_fence_add(to_tempo_file(s->file)->vm, s->vm_fence,
				   fence);
		s->vm_fence = NULL;
		dma_resv_unlock(s->resv);
		s->resv = NULL;
	}
	return fence;
}

static void submit_publish_syncs(struct tempo_submit *s, struct dma_fence *fence)
{
	u32 i;

	for (i = 0; i < s->args->num_out_syncs; i++) {
		struct tempo_out_sync *o = &s->out_objs[i];

		if (o->chain) {
			drm_syncobj_add_point(o->syncobj, o->chain, fence,
					      s->out[i].point);
			o->chain = NULL;
		} else {
			drm_syncobj_replace_fence(o->syncobj, fence);
		}
	}
}

static void submit_publish_fd(struct tempo_submit *s, struct dma_fence *fence)
{
	struct sync_file *sync_file = s->sync_file;

	s->args->out_fence_fd = -1;
	if (!sync_file)
		return;
	/* Unreachable until fd_install(): swap the stub for the job's fence. */
	dma_fence_put(sync_file->fence);
	sync_file->fence = dma_fence_get(fence);
	fd_install(s->out_fd, sync_file->file);
	s->args->out_fence_fd = s->out_fd;
	s->out_fd = -1;
	s->sync_file = NULL;
}

/* Free an array unless it is in the submission's room. */
static void free_unless_inline(const void *array, const void *inline_array)
{
	if (array && array != inline_array)
		kfree(array);
}

static void submit_fini(struct tempo_submit *s)
{
	u32 i;

	if (s->resv)
		dma_resv_unlock(s->resv);
	tempo_vm_fence_free(s->vm_fence);
	if (s->sync_file)
		fput(s->sync_file->file);
	if (s->out_fd >= 0)
		put_unused_fd(s->out_fd);
	for (i = 0; s->out_objs && i < s->args->num_out_syncs; i++) {
		if (s->out_objs[i].syncobj)
			drm_syncobj_put(s->out_objs[i].syncobj);
		dma_fence_chain_free(s->out_objs[i].chain);
	}
	free_unless_inline(s->out_objs, s->room->out_objs);
	if (s->job)
		tempo_job_put(s->job);
	free_unless_inline(s->in, s->room->in);
	free_unless_inline(s->out, s->room->out);
	if (s->ctx)
		tempo_ctx_put(s->ctx);
}

/**
 * tempo_ioctl_exec() - DRM_IOCTL_TEMPO_EXEC
 * @dev: the DRM device
 * @data: &struct drm_tempo_exec
 * @file: the caller
 *
 * Context: process.
 * Return: 0 or a negative errno, as documented in the uAPI header.
 */
int tempo_ioctl_exec(struct drm_device *dev, void *data, struct drm_file *file)
{
	struct tempo_submit_room room __uninitialized;
	struct tempo_submit s = {
		.tdev = to_tempo_device(dev),
		.file = file,
		.args = data,
		.room = &room,
		.out_fd = -1,
	};
	struct dma_fence *fence;
	int ret;

	/* Check, look up, copy in and prepare: each undone by submit_fini(). */
	ret = submit_check_args(&s);
	if (ret)
		goto out;
	ret = submit_lookup(&s);
	if (ret)
		goto out;
	ret = submit_copy_in(&s);
	if (ret)
		goto out;
	ret = submit_job_init(&s);
	if (ret)
		goto out;
	ret = submit_add_deps(&s);
	if (ret)
		goto out;
	ret = submit_get_out_syncs(&s);
	if (ret)
		goto out;
	ret = submit_prepare_sync_file(&s);
	if (ret)
		goto out;
	ret = submit_lock_resv(&s);
	if (ret)
		goto out;

	fence = submit_push(&s);
	if (IS_ERR(fence)) {
		ret = PTR_ERR(fence);
		goto out;
	}

	/* The job is queued: nothing can fail after this point. */
	submit_publish_syncs(&s, fence);
	submit_publish_fd(&s, fence);
	dma_fence_put(fence);
out:
	submit_fini(&s);
	return ret;
}
