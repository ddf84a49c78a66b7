// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The tempo authors
 */

/**
 * DOC: Contexts and priorities
 *
 * A context is a priority and an engine map. Each slot of the map is one
 * drm_sched entity whose schedulers are those of the slot engine's HQDs:
 * drm_sched places the entity on the least-loaded HQD whenever its queue
 * is empty, and keeps it there while jobs are queued, which is what keeps
 * the jobs of a slot in submission order.
 *
 * Priorities are signed, -1023..1023, 0 being normal. Two functions decide
 * everything about them: tempo_priority_check() (range, then permission:
 * above normal needs CAP_SYS_NICE or DRM master, else -EACCES) and
 * tempo_priority_map() (the drm_sched run queue, the HQD priorities and
 * which HQDs the context may use). The latter only names enum
 * drm_sched_priority values and never computes with them, since their
 * order changed between kernel releases.
 *
 * Mapping, with the static HQD policy: below normal runs on the LOW run
 * queue, normal on NORMAL, above normal on HIGH; contexts above normal use
 * the high-priority HQD of each engine (pipe priority 2, queue priority
 * 15), the others the regular HQDs (pipe priority 1, queue priority 7).
 * With the dynamic policy every context may use every HQD, and its
 * priority spreads linearly over queue priorities 0..15, the pipe priority
 * following as KFD does it (0-6 low, 7-10 medium, 11-15 high).
 */

#include <linux/capability.h>
#include <linux/file.h>
#include <linux/nospec.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <drm/drm_auth.h>
#include <drm/drm_file.h>
#include <drm/tempo_drm.h>

#include "tempo_drv.h"

/* The one permission rule: raising priority and overriding others'. */
static bool priority_privileged(struct drm_file *file)
{
	return capable(CAP_SYS_NICE) || drm_is_current_master(file);
}

/**
 * tempo_priority_ceiling() - highest priority a file may ask for
 * @file: the caller
 *
 * Context: process.
 * Return: %DRM_TEMPO_PRIORITY_VERY_HIGH for a DRM master or a CAP_SYS_NICE
 * holder, %DRM_TEMPO_PRIORITY_NORMAL otherwise.
 */
s32 tempo_priority_ceiling(struct drm_file *file)
{
	if (priority_privileged(file))
		return DRM_TEMPO_PRIORITY_VERY_HIGH;
	return DRM_TEMPO_PRIORITY_NORMAL;
}

/**
 * tempo_priority_check() - may this file use this priority
 * @tdev: the device
 * @file: the caller
 * @priority: the requested priority
 *
 * Context: process.
 * Return: 0, -EINVAL when out of range, -EACCES when above the ceiling.
 */
int tempo_priority_check(struct tempo_device *tdev, struct drm_file *file,
			 s64 priority)
{
	if (TEMPO_IOCTL_DBG(tdev, priority < DRM_TEMPO_PRIORITY_VERY_LOW ||
			    priority > DRM_TEMPO_PRIORITY_VERY_HIGH))
		return -EINVAL;
	if (TEMPO_IOCTL_DBG(tdev, priority > tempo_priority_ceiling(file)))
		return -EACCES;
	return 0;
}

static u8 queue_priority_of(s32 priority)
{
	return (priority - DRM_TEMPO_PRIORITY_VERY_LOW) * 15 /
	       (DRM_TEMPO_PRIORITY_VERY_HIGH - DRM_TEMPO_PRIORITY_VERY_LOW);
}

static u8 pipe_priority_of(u8 queue_priority)
{
	if (queue_priority <= 6)
		return 0;
	return queue_priority <= 10 ? 1 : 2;
}

/**
 * tempo_priority_map() - what a context priority means
 * @tdev: the device, for its HQD policy
 * @priority: a valid uAPI priority
 *
 * Context: any.
 * Return: the run queue, HQD priorities and HQD set of @priority.
 */
struct tempo_prio tempo_priority_map(const struct tempo_device *tdev,
				     s32 priority)
{
	struct tempo_prio p = { .sched = DRM_SCHED_PRIORITY_NORMAL };

	if (priority < DRM_TEMPO_PRIORITY_NORMAL)
		p.sched = TEMPO_SCHED_PRIORITY_LOW;
	else if (priority > DRM_TEMPO_PRIORITY_NORMAL)
		p.sched = DRM_SCHED_PRIORITY_HIGH;
	p.high = priority > DRM_TEMPO_PRIORITY_NORMAL;
	if (tdev->hqd_policy == TEMPO_HQD_DYNAMIC) {
		p.queue = queue_priority_of(priority);
		p.pipe = pipe_priority_of(p.queue);
	} else {
		p.queue = p.high ? TEMPO_HW_QUEUE_PRIO_MAX : 7;
		p.pipe = p.high ? TEMPO_HW_PIPE_PRIO_MAX : 1;
	}
	return p;
}

/**
 * tempo_ctx_state_get() - reference a context's state
 * @state: the state
 *
 * Context: any.
 * Return: @state.
 */
struct tempo_ctx_state *tempo_ctx_state_get(struct tempo_ctx_state *state)
{
	kref_get(&state->refcount);
	return state;
}

static void ctx_state_release(struct kref *kref)
{
	struct tempo_ctx_state *state =
		container_of(kref, struct tempo_ctx_state, refcount);

	tempo_usage_put(state->usage);
	kfree(state);
}

/**
 * tempo_ctx_state_put() - drop a reference on a context's state
 * @state: the state, or NULL
 *
 * Context: any.
 */
void tempo_ctx_state_put(struct tempo_ctx_state *state)
{
	if (state)
		kref_put(&state->refcount, ctx_state_release);
}

/**
 * tempo_ctx_banned() - whether a context may no longer submit
 * @ctx: the context
 *
 * A context is banned once one of its jobs failed on the hardware.
 *
 * Context: any.
 * Return: true when banned.
 */
bool tempo_ctx_banned(const struct tempo_ctx *ctx)
{
	return atomic_read(&ctx->state->guilty);
}

/**
 * tempo_ctx_priority() - the priority a context runs at
 * @ctx: the context
 *
 * Context: any.
 * Return: its override, else its file's override, else its own priority.
 */
s32 tempo_ctx_priority(const struct tempo_ctx *ctx)
{
	s32 override = READ_ONCE(ctx->override);

	if (override == DRM_TEMPO_PRIORITY_UNSET)
		override = READ_ONCE(ctx->file_override);
	if (override != DRM_TEMPO_PRIORITY_UNSET)
		return override;
	return READ_ONCE(ctx->priority);
}

static void ctx_free(struct tempo_ctx *ctx)
{
	tempo_map_free(ctx);
	tempo_ctx_state_put(ctx->state);
	mutex_destroy(&ctx->lock);
	kfree(ctx);
}

static void ctx_release(struct kref *kref)
{
	struct tempo_ctx *ctx = container_of(kref, struct tempo_ctx, refcount);
	u32 i;

	for (i = 0; i < ctx->num_slots; i++)
		drm_sched_entity_destroy(&ctx->slots[i].entity);
	ctx_free(ctx);
}

/**
 * tempo_ctx_put() - drop a reference on a context
 * @ctx: the context
 *
 * The last reference waits until the context's queued jobs have reached
 * the hardware, then frees it.
 *
 * Context: process; may sleep.
 */
void tempo_ctx_put(struct tempo_ctx *ctx)
{
	kref_put(&ctx->refcount, ctx_release);
}

/**
 * tempo_ctx_lookup() - find a context of a file and reference it
 * @tfile: the file
 * @id: the context id
 *
 * Context: process.
 * Return: the context or NULL.
 */
struct tempo_ctx *tempo_ctx_lookup(struct tempo_file *tfile, u32 id)
{
	struct tempo_ctx *ctx;

	xa_lock(&tfile->contexts);
	ctx = xa_load(&tfile->contexts, id);
	if (ctx)
		kref_get(&ctx->refcount);
	xa_unlock(&tfile->contexts);
	return ctx;
}

/**
 * tempo_ctx_destroy_all() - destroy every context of a closing file
 * @tfile: the file
 *
 * Context: process; may sleep.
 */
void tempo_ctx_destroy_all(struct tempo_file *tfile)
{
	struct tempo_ctx *ctx;
	unsigned long id;

	xa_for_each(&tfile->contexts, id, ctx) {
		xa_erase(&tfile->contexts, id);
		tempo_ctx_put(ctx);
	}
}

static void ctx_update(struct tempo_ctx *ctx, s32 *field, s32 value);

static int slots_init(struct tempo_ctx *ctx)
{
	struct tempo_prio prio = tempo_priority_map(ctx->tdev,
						    tempo_ctx_priority(ctx));
	u32 i;
	int ret;

	for (i = 0; i < ctx->num_slots; i++) {
		struct drm_gpu_scheduler **list;
		u32 n;

		list = tempo_map_scheds(ctx->tdev, &ctx->slots[i], prio.high, &n);
		/* A banned context's queued jobs are cancelled, not run. */
		ret = drm_sched_entity_init(&ctx->slots[i].entity, prio.sched,
					    list, n, &ctx->state->guilty);
		if (ret)
			goto err_fini;
	}
	return 0;

err_fini:
	while (i--)
		drm_sched_entity_destroy(&ctx->slots[i].entity);
	return ret;
}

static struct tempo_ctx *ctx_alloc(struct tempo_device *tdev,
				   struct tempo_file *tfile,
				   const struct drm_tempo_ctx_create *args)
{
	u32 n = args->num_slots ? args->num_slots : tdev->num_engines;
	struct tempo_ctx *ctx;

	ctx = kzalloc(struct_size(ctx, slots, n), GFP_KERNEL);
	if (!ctx)
		return NULL;
	ctx->state = kzalloc(sizeof(*ctx->state), GFP_KERNEL);
	if (!ctx->state) {
		kfree(ctx);
		return NULL;
	}
	kref_init(&ctx->state->refcount);
	ctx->state->usage = tempo_usage_get(tfile->usage);
	ctx->reset_base = atomic_read(&tdev->reset_count);
	kref_init(&ctx->refcount);
	mutex_init(&ctx->lock);
	ctx->tdev = tdev;
	ctx->priority = args->priority;
	ctx->override = DRM_TEMPO_PRIORITY_UNSET;
	ctx->file_override = READ_ONCE(tfile->priority_override);
	ctx->num_slots = n;
	return ctx;
}

static int ctx_create_check(struct tempo_device *tdev, struct drm_file *file,
			    const struct drm_tempo_ctx_create *args)
{
	int ret;

	if (TEMPO_IOCTL_DBG(tdev, args->flags))
		return -EINVAL;
	ret = tempo_check_extensions(tdev, args->extensions,
				     DRM_TEMPO_CTX_EXT_PARALLEL + 1);
	if (ret)
		return ret;
	if (TEMPO_IOCTL_DBG(tdev, args->num_slots > TEMPO_MAX_SLOTS))
		return -EINVAL;
	return 0;
}

/**
 * tempo_ioctl_ctx_create() - DRM_IOCTL_TEMPO_CTX_CREATE
 * @dev: the DRM device
 * @data: &struct drm_tempo_ctx_create
 * @file: the caller
 *
 * Context: process.
 * Return: 0 or a negative errno, as documented in the uAPI header.
 */
int tempo_ioctl_ctx_create(struct drm_device *dev, void *data,
			   struct drm_file *file)
{
	struct tempo_device *tdev = to_tempo_device(dev);
	struct tempo_file *tfile = to_tempo_file(file);
	struct drm_tempo_ctx_create *args = data;
	struct tempo_ctx *ctx;
	int ret;

	ret = ctx_create_check(tdev, file, args);
	if (ret)
		return ret;
	ctx = ctx_alloc(tdev, tfile, args);
	if (!ctx)
		return -ENOMEM;
	ret = tempo_map_resolve(tdev, ctx, args->slots, !args->num_slots);
	if (!ret)
		ret = tempo_map_apply_extensions(tdev, ctx, args->extensions);
	if (ret)
		goto err_free;
	ret = tempo_priority_check(tdev, file, args->priority);
	if (ret)
		goto err_free;
	ret = slots_init(ctx);
	if (ret)
		goto err_free;
	ret = xa_alloc(&tfile->contexts, &args->ctx_id, ctx,
		       XA_LIMIT(1, U32_MAX), GFP_KERNEL);
	if (ret)
		goto err_put;
	/* A file override set while the context was being created. */
	if (READ_ONCE(tfile->priority_override) != ctx->file_override)
		ctx_update(ctx, &ctx->file_override,
			   READ_ONCE(tfile->priority_override));
	return 0;

err_put:
	tempo_ctx_put(ctx);
	return ret;
err_free:
	ctx_free(ctx);
	return ret;
}

/**
 * tempo_ioctl_ctx_destroy() - DRM_IOCTL_TEMPO_CTX_DESTROY
 * @dev: the DRM device
 * @data: &struct drm_tempo_ctx_destroy
 * @file: the caller
 *
 * Context: process.
 * Return: 0 or a negative errno, as documented in the uAPI header.
 */
int tempo_ioctl_ctx_destroy(struct drm_device *dev, void *data,
			    struct drm_file *file)
{
	struct tempo_device *tdev = to_tempo_device(dev);
	struct drm_tempo_ctx_destroy *args = data;
	struct tempo_ctx *ctx;

	if (TEMPO_IOCTL_DBG(tdev, args->pad))
		return -EINVAL;
	ctx = xa_erase(&to_tempo_file(file)->contexts, args->ctx_id);
	if (TEMPO_IOCTL_DBG(tdev, !ctx))
		return -ENOENT;
	tempo_ctx_put(ctx);
	return 0;
}

static int ctx_param_lookup(struct tempo_device *tdev, struct drm_file *file,
			    const struct drm_tempo_ctx_param *args,
			    struct tempo_ctx **ctx)
{
	if (TEMPO_IOCTL_DBG(tdev, args->pad))
		return -EINVAL;
	*ctx = tempo_ctx_lookup(to_tempo_file(file), args->ctx_id);
	if (TEMPO_IOCTL_DBG(tdev, !*ctx))
		return -ENOENT;
	if (TEMPO_IOCTL_DBG(tdev, args->param > DRM_TEMPO_CTX_PARAM_RESET_COUNT)) {
		tempo_ctx_put(*ctx);
		return -EINVAL;
	}
	return 0;
}

static s64 ctx_reset_status(struct tempo_ctx *ctx)
{
	s64 flags = 0;

	if (atomic_read(&ctx->tdev->reset_count) != ctx->reset_base)
		flags |= DRM_TEMPO_RESET_STATUS_RESET;
	if (tempo_ctx_banned(ctx))
		flags |= DRM_TEMPO_RESET_STATUS_GUILTY;
	return flags;
}

static s64 ctx_get(struct tempo_ctx *ctx, u32 param)
{
	s64 value;

	switch (param) {
	case DRM_TEMPO_CTX_PARAM_RESET_STATUS:
		return ctx_reset_status(ctx);
	case DRM_TEMPO_CTX_PARAM_RESET_COUNT:
		return (u32)(atomic_read(&ctx->tdev->reset_count) -
			     ctx->reset_base);
	}
	mutex_lock(&ctx->lock);
	value = tempo_ctx_priority(ctx);
	mutex_unlock(&ctx->lock);
	return value;
}

/**
 * tempo_ioctl_ctx_get_param() - DRM_IOCTL_TEMPO_CTX_GET_PARAM
 * @dev: the DRM device
 * @data: &struct drm_tempo_ctx_param
 * @file: the caller
 *
 * Context: process.
 * Return: 0 or a negative errno, as documented in the uAPI header.
 */
int tempo_ioctl_ctx_get_param(struct drm_device *dev, void *data,
			      struct drm_file *file)
{
	struct drm_tempo_ctx_param *args = data;
	struct tempo_ctx *ctx;
	int ret;

	ret = ctx_param_lookup(to_tempo_device(dev), file, args, &ctx);
	if (ret)
		return ret;
	args->value = ctx_get(ctx, args->param);
	tempo_ctx_put(ctx);
	return 0;
}

/* Move the context's entities to the run queue and HQDs of its priority. */
static void ctx_apply_priority(struct tempo_ctx *ctx)
{
	struct tempo_prio prio = tempo_priority_map(ctx->tdev,
						    tempo_ctx_priority(ctx));
	u32 i;

	lockdep_assert_held(&ctx->lock);
	for (i = 0; i < ctx->num_slots; i++) {
		struct tempo_slot *slot = &ctx->slots[i];
		struct drm_gpu_scheduler **list;
		u32 n;

		list = tempo_map_scheds(ctx->tdev, slot, prio.high, &n);
		/* Both take effect when the entity next picks a run queue. */
		drm_sched_entity_modify_sched(&slot->entity, list, n);
		drm_sched_entity_set_priority(&slot->entity, prio.sched);
	}
}

/* Set one of the context's priority fields and apply the result. */
static void ctx_update(struct tempo_ctx *ctx, s32 *field, s32 value)
{
	mutex_lock(&ctx->lock);
	WRITE_ONCE(*field, value);
	ctx_apply_priority(ctx);
	mutex_unlock(&ctx->lock);
}

/**
 * tempo_ioctl_ctx_set_param() - DRM_IOCTL_TEMPO_CTX_SET_PARAM
 * @dev: the DRM device
 * @data: &struct drm_tempo_ctx_param
 * @file: the caller
 *
 * Context: process.
 * Return: 0 or a negative errno, as documented in the uAPI header.
 */
int tempo_ioctl_ctx_set_param(struct drm_device *dev, void *data,
			      struct drm_file *file)
{
	struct tempo_device *tdev = to_tempo_device(dev);
	struct drm_tempo_ctx_param *args = data;
	struct tempo_ctx *ctx;
	int ret;

	ret = ctx_param_lookup(tdev, file, args, &ctx);
	if (ret)
		return ret;
	if (TEMPO_IOCTL_DBG(tdev, args->param != DRM_TEMPO_CTX_PARAM_PRIORITY))
		ret = -EINVAL;
	else
		ret = tempo_priority_check(tdev, file, args->value);
	if (!ret)
		ctx_update(ctx, &ctx->priority, args->value);
	tempo_ctx_put(ctx);
	return ret;
}

static int sched_check(struct tempo_device *tdev, struct drm_file *file,
		       const struct drm_tempo_sched *args)
{
	bool ctx_op = args->op == DRM_TEMPO_SCHED_CTX_PRIORITY_OVERRIDE;

	if (TEMPO_IOCTL_DBG(tdev, args->op > DRM_TEMPO_SCHED_CTX_PRIORITY_OVERRIDE))
		return -EINVAL;
	if (TEMPO_IOCTL_DBG(tdev, args->flags || args->pad))
		return -EINVAL;
	if (TEMPO_IOCTL_DBG(tdev, !ctx_op && args->ctx_id))
		return -EINVAL;
	if (TEMPO_IOCTL_DBG(tdev, args->priority != DRM_TEMPO_PRIORITY_UNSET &&
			    (args->priority < DRM_TEMPO_PRIORITY_VERY_LOW ||
			     args->priority > DRM_TEMPO_PRIORITY_VERY_HIGH)))
		return -EINVAL;
	if (TEMPO_IOCTL_DBG(tdev, !priority_privileged(file)))
		return -EACCES;
	return 0;
}

/* Every context of @tfile, present and future, runs at @priority. */
static void file_override(struct tempo_file *tfile, s32 priority)
{
	unsigned long id = 0;
	struct tempo_ctx *ctx;

	WRITE_ONCE(tfile->priority_override, priority);
	for (;;) {
		xa_lock(&tfile->contexts);
		ctx = xa_find(&tfile->contexts, &id, ULONG_MAX, XA_PRESENT);
		if (ctx)
			kref_get(&ctx->refcount);
		xa_unlock(&tfile->contexts);
		if (!ctx)
			return;
		ctx_update(ctx, &ctx->file_override, priority);
		tempo_ctx_put(ctx);
		id++;
	}
}

static int sched_override(struct tempo_device *tdev,
			  const struct drm_tempo_sched *args,
			  struct tempo_file *target)
{
	struct tempo_ctx *ctx;

	if (args->op == DRM_TEMPO_SCHED_FILE_PRIORITY_OVERRIDE) {
		file_override(target, args->priority);
		return 0;
	}
	ctx = tempo_ctx_lookup(target, args->ctx_id);
	if (TEMPO_IOCTL_DBG(tdev, !ctx))
		return -ENOENT;
	ctx_update(ctx, &ctx->override, args->priority);
	tempo_ctx_put(ctx);
	return 0;
}

/**
 * tempo_ioctl_sched() - DRM_IOCTL_TEMPO_SCHED
 * @dev: the DRM device
 * @data: &struct drm_tempo_sched
 * @file: the caller
 *
 * Context: process.
 * Return: 0 or a negative errno, as documented in the uAPI header.
 */
int tempo_ioctl_sched(struct drm_device *dev, void *data,
		      struct drm_file *file)
{
	struct tempo_device *tdev = to_tempo_device(dev);
	struct drm_tempo_sched *args = data;
	struct drm_file *target;
	struct file *filp;
	int ret;

	ret = sched_check(tdev, file, args);
	if (ret)
		return ret;
	target = tempo_drm_file_get(tdev, args->fd, &filp);
	if (IS_ERR(target))
		return PTR_ERR(target);
	ret = sched_override(tdev, args, to_tempo_file(target));
	fput(filp);
	return ret;
}
