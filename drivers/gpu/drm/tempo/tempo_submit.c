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
 * 4. allocate and initialise the job (with its hardware fence);
 * 5. resolve the in-syncs into scheduler dependencies and the out-syncs
 *    into syncobjs (and timeline chain nodes), reserve the sync_file fd;
 * 6. under the context lock, order a gang after the slot's previous one,
 *    arm the job and push it to the slot's entity: once armed, the point
 *    of no return;
 * 7. publish the job's fence in the out-syncs and the sync_file.
 *
 * Every failure before step 6 unwinds everything and queues nothing.
 * &struct tempo_submit owns what the steps acquire and releases it.
 */

#include <linux/dma-fence-chain.h>
#include <linux/file.h>
#include <linux/nospec.h>
#include <linux/slab.h>
#include <linux/sync_file.h>
#include <linux/uaccess.h>

#include <drm/drm_file.h>
#include <drm/drm_syncobj.h>
#include <drm/tempo_drm.h>

#include "tempo_drv.h"
#include "tempo_trace.h"

/**
 * struct tempo_submit - what one exec acquires
 * @tdev: the device
 * @file: the caller
 * @args: the ioctl arguments
 * @ctx: the context, referenced
 * @slot: the slot of @ctx
 * @batches: GPU addresses of the batches, one per batch of the slot
 * @in: the in-syncs, copied
 * @out: the out-syncs, copied
 * @out_syncobjs: the syncobjs of @out, referenced
 * @chains: chain nodes of the timeline points of @out
 * @job: the job
 * @job_inited: @job was initialised as a scheduler job
 * @out_fd: the reserved sync_file fd, or -1
 */
struct tempo_submit {
	struct tempo_device *tdev;
	struct drm_file *file;
	struct drm_tempo_exec *args;
	struct tempo_ctx *ctx;
	struct tempo_slot *slot;
	u64 batches[TEMPO_HW_MAX_WIDTH];
	struct drm_tempo_sync *in;
	struct drm_tempo_sync *out;
	struct drm_syncobj **out_syncobjs;
	struct dma_fence_chain **chains;
	struct tempo_job *job;
	bool job_inited;
	int out_fd;
};

static int submit_check_args(struct tempo_submit *s)
{
	const struct drm_tempo_exec *args = s->args;

	if (TEMPO_IOCTL_DBG(s->tdev, args->flags & ~DRM_TEMPO_EXEC_FLAGS))
		return -EINVAL;
	if (TEMPO_IOCTL_DBG(s->tdev, args->pad))
		return -EINVAL;
	return tempo_check_extensions(s->tdev, args->extensions, 0);
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

static int copy_syncs(struct tempo_device *tdev, u64 uptr, u32 count,
		      struct drm_tempo_sync **syncs)
{
	if (!count)
		return 0;
	*syncs = memdup_array_user(u64_to_user_ptr(uptr), count,
				   sizeof(**syncs));
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

/* Copy every array first: an unreadable one wins over bad contents. */
static int submit_copy_in(struct tempo_submit *s)
{
	const struct drm_tempo_exec *args = s->args;
	void __user *batches = u64_to_user_ptr(args->batches);
	size_t size = args->num_batches * sizeof(s->batches[0]);
	int ret;

	if (TEMPO_IOCTL_DBG(s->tdev, copy_from_user(s->batches, batches, size)))
		return -EFAULT;
	ret = copy_syncs(s->tdev, args->in_syncs, args->num_in_syncs, &s->in);
	if (!ret)
		ret = copy_syncs(s->tdev, args->out_syncs, args->num_out_syncs,
				 &s->out);
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
	int ret;

	entity = tempo_ctx_entity(s->ctx, s->slot);
	if (IS_ERR(entity))
		return PTR_ERR(entity);
	job = tempo_job_alloc(tfile->usage, tfile->vm, s->slot, s->batches);
	if (TEMPO_IOCTL_DBG(s->tdev, PTR_ERR_OR_ZERO(job) == -EAGAIN))
		return -EAGAIN;
	if (IS_ERR(job))
		return PTR_ERR(job);
	s->job = job;
	ret = tempo_job_init(job, s->ctx, entity, s->slot, s->file);
	s->job_inited = !ret;
	return ret;
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
		ret = drm_sched_job_add_dependency(&s->job->base, fence);
		if (ret)
			return ret;
	}
	return 0;
}

static int submit_get_out_syncs(struct tempo_submit *s)
{
	u32 i, n = s->args->num_out_syncs;

	if (!n)
		return 0;
	s->out_syncobjs = kcalloc(n, sizeof(*s->out_syncobjs), GFP_KERNEL);
	s->chains = kcalloc(n, sizeof(*s->chains), GFP_KERNEL);
	if (!s->out_syncobjs || !s->chains)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		s->out_syncobjs[i] = drm_syncobj_find(s->file, s->out[i].handle);
		if (TEMPO_IOCTL_DBG(s->tdev, !s->out_syncobjs[i]))
			return -ENOENT;
		if (!s->out[i].point)
			continue;
		/* As dma_fence_chain_alloc(), but charged: the syncobj keeps it. */
		s->chains[i] = kmalloc(sizeof(*s->chains[i]), GFP_KERNEL_ACCOUNT);
		if (!s->chains[i])
			return -ENOMEM;
	}
	return 0;
}

static int submit_reserve_fd(struct tempo_submit *s)
{
	if (!(s->args->flags & DRM_TEMPO_EXEC_OUT_SYNC_FILE))
		return 0;
	s->out_fd = get_unused_fd_flags(O_CLOEXEC);
	return s->out_fd < 0 ? s->out_fd : 0;
}

/*
 * Gangs of one parallel slot run one after the other: each waits for the
 * hardware fence of the slot's previous gang (members of consecutive gangs
 * are on different HQDs, so ring order alone does not order them, and
 * drm_sched ignores dependencies on the entity's own fences). The gang's
 * fence is initialised here, in the slot's own fence context, so the next
 * gang can depend on it.
 */
static int submit_order_gang(struct tempo_submit *s)
{
	struct tempo_slot *slot = s->slot;
	struct tempo_hw_fence *fence = s->job->hw.fence;
	int ret;

	lockdep_assert_held(&s->ctx->lock);
	if (!s->job->gang)
		return 0;
	if (slot->last && !dma_fence_is_signaled(slot->last)) {
		ret = drm_sched_job_add_dependency(&s->job->base,
						   dma_fence_get(slot->last));
		if (ret)
			return ret;
	}
	tempo_hw_fence_init(fence, slot->fence_context, ++slot->seqno);
	s->job->fence_inited = true;
	dma_fence_put(slot->last);
	slot->last = dma_fence_get(&fence->base);
	return 0;
}

/* Point of no return once armed: nothing fails after that. */
static struct dma_fence *submit_push(struct tempo_submit *s)
{
	struct dma_fence *fence;
	int ret;

	mutex_lock(&s->ctx->lock);
	ret = submit_order_gang(s);
	if (ret) {
		mutex_unlock(&s->ctx->lock);
		return ERR_PTR(ret);
	}
	tempo_map_balance(s->tdev, s->slot, s->job->prio.high);
	drm_sched_job_arm(&s->job->base);
	fence = dma_fence_get(&s->job->base.s_fence->finished);
	tempo_job_pushed(s->job);
	trace_tempo_job_queued(&s->job->base, s->args->ctx_id, s->args->slot,
			       tempo_ctx_priority(s->ctx));
	drm_sched_entity_push_job(&s->job->base);
	mutex_unlock(&s->ctx->lock);
	s->job = NULL;
	return fence;
}

static void submit_publish_syncs(struct tempo_submit *s, struct dma_fence *fence)
{
	u32 i;

	for (i = 0; i < s->args->num_out_syncs; i++) {
		if (s->chains[i]) {
			drm_syncobj_add_point(s->out_syncobjs[i], s->chains[i],
					      fence, s->out[i].point);
			s->chains[i] = NULL;
		} else {
			drm_syncobj_replace_fence(s->out_syncobjs[i], fence);
		}
	}
}

static int submit_publish_fd(struct tempo_submit *s, struct dma_fence *fence)
{
	struct sync_file *sync_file;

	s->args->out_fence_fd = -1;
	if (s->out_fd < 0)
		return 0;
	/* The job is queued whatever happens here. */
	sync_file = sync_file_create(fence);
	if (!sync_file)
		return -ENOMEM;
	fd_install(s->out_fd, sync_file->file);
	s->args->out_fence_fd = s->out_fd;
	s->out_fd = -1;
	return 0;
}

static void submit_fini(struct tempo_submit *s)
{
	u32 i;

	if (s->out_fd >= 0)
		put_unused_fd(s->out_fd);
	for (i = 0; s->out_syncobjs && i < s->args->num_out_syncs; i++) {
		if (s->out_syncobjs[i])
			drm_syncobj_put(s->out_syncobjs[i]);
		dma_fence_chain_free(s->chains[i]);
	}
	kfree(s->chains);
	kfree(s->out_syncobjs);
	if (s->job) {
		if (s->job_inited)
			drm_sched_job_cleanup(&s->job->base);
		tempo_job_free(s->job);
	}
	kfree(s->in);
	kfree(s->out);
	if (s->ctx)
		tempo_ctx_put(s->ctx);
}

static int submit_prepare(struct tempo_submit *s)
{
	int ret;

	ret = submit_check_args(s);
	if (!ret)
		ret = submit_lookup(s);
	if (!ret)
		ret = submit_copy_in(s);
	if (!ret)
		ret = submit_job_init(s);
	if (!ret)
		ret = submit_add_deps(s);
	if (!ret)
		ret = submit_get_out_syncs(s);
	if (!ret)
		ret = submit_reserve_fd(s);
	return ret;
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
	struct tempo_submit s = {
		.tdev = to_tempo_device(dev),
		.file = file,
		.args = data,
		.out_fd = -1,
	};
	struct dma_fence *fence;
	int ret;

	ret = submit_prepare(&s);
	if (!ret) {
		fence = submit_push(&s);
		ret = PTR_ERR_OR_ZERO(fence);
	}
	if (!ret) {
		submit_publish_syncs(&s, fence);
		ret = submit_publish_fd(&s, fence);
		dma_fence_put(fence);
	}
	submit_fini(&s);
	return ret;
}
