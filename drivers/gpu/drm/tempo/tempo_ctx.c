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
 * Mapping: below normal runs on the LOW run queue, normal on NORMAL,
 * above normal on HIGH. The priority spreads linearly over queue
 * priorities 0..15 (very low 0, low 3, normal 7, high 11, very high 15),
 * which order queues within a pipe priority and the CU sequencer's
 * dispatches. With the static HQD policy contexts above normal use the
 * high-priority HQD of each engine at pipe priority 2, the others the
 * regular HQDs at pipe priority 1. With the dynamic policy every context
 * may use every HQD, and the pipe priority follows the queue priority as
 * KFD does it (0-6 low, 7-10 medium, 11-15 high).
 *
 * An HQD runs at the highest priority among the contexts of the jobs in
 * its ring, as they are now: a change reaches the jobs already written
 * into rings at once, and those still queued when run_job takes them.
 * Only the choice of run queue and HQD set waits until the context's slot
 * is next idle (drm_sched moves an entity only then).
 */

#include <linux/capability.h>
#include <linux/file.h>
#include <linux/nospec.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <drm/drm_auth.h>
#include <drm/drm_file.h>
#include <drm/tempo_drm.h>

#include "tempo_drv.h"

/*
 * The one permission rule: raising priority and overriding other files'.
 * A DRM master counts only when the module parameter master_priority says
 * that a display server drives the device: nobody holds master on a
 * device without a display, so whoever opened the card node first would
 * otherwise get it. @audit is false for reports, true for decisions.
 */
static bool priority_privileged(struct drm_file *file, bool audit)
{
	if (tempo_params.master_priority && drm_is_current_master(file))
		return true;
	if (audit)
		return capable(CAP_SYS_NICE);
	return ns_capable_noaudit(&init_user_ns, CAP_SYS_NICE);
}

/**
 * tempo_priority_ceiling() - highest priority a file may ask for
 * @file: the caller
 *
 * A report, for the device query: the capability check is not audited.
 *
 * Context: process.
 * Return: %DRM_TEMPO_PRIORITY_VERY_HIGH for a CAP_SYS_NICE holder (or a
 * DRM master, with the module parameter master_priority),
 * %DRM_TEMPO_PRIORITY_NORMAL otherwise.
 */
s32 tempo_priority_ceiling(struct drm_file *file)
{
	if (priority_privileged(file, false))
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
	if (TEMPO_IOCTL_DBG(tdev, priority > DRM_TEMPO_PRIORITY_NORMAL &&
			    !priority_privileged(file, true)))
		return -EACCES;
	return 0;
}

/* KFD's split of the queue priorities over the pipe priorities. */
#define TEMPO_QUEUE_PRIO_LOW_MAX	6
#define TEMPO_QUEUE_PRIO_MEDIUM_MAX	10

static u8 queue_priority_of(s32 priority)
{
	return (priority - DRM_TEMPO_PRIORITY_VERY_LOW) * TEMPO_QUEUE_PRIO_MAX /
	       (DRM_TEMPO_PRIORITY_VERY_HIGH - DRM_TEMPO_PRIORITY_VERY_LOW);
}

static u8 pipe_priority_of(u8 queue_priority)
{
	if (queue_priority <= TEMPO_QUEUE_PRIO_LOW_MAX)
		return TEMPO_PIPE_PRIO_NORMAL - 1;
	return queue_priority <= TEMPO_QUEUE_PRIO_MEDIUM_MAX ?
	       TEMPO_PIPE_PRIO_NORMAL : TEMPO_PIPE_PRIO_HIGH;
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
		p.sched = DRM_SCHED_PRIORITY_LOW;
	else if (priority > DRM_TEMPO_PRIORITY_NORMAL)
		p.sched = DRM_SCHED_PRIORITY_HIGH;
	p.high = priority > DRM_TEMPO_PRIORITY_NORMAL;
	if (tdev->hqd_policy == TEMPO_HQD_DYNAMIC) {
		p.queue = queue_priority_of(priority);
		p.pipe = pipe_priority_of(p.queue);
	} else {
		p.queue = queue_priority_of(priority);
		p.pipe = p.high ? TEMPO_PIPE_PRIO_HIGH : TEMPO_PIPE_PRIO_NORMAL;
	}
	return p;
}

static void ctx_state_release(struct kref *kref)
{
	struct tempo_ctx_state *state =
		container_of(kref, struct tempo_ctx_state, refcount);

	tempo_vm_put(state->vm);
	tempo_usage_put(state->usage);
	kfree(state);
}

/**
 * tempo_ctx_state_put() - drop a reference on a context's state
 * @state: the state, or NULL
 *
 * Context: process; the last reference may drop the file's address space,
 * which may sleep.
 */
void tempo_ctx_state_put(struct tempo_ctx_state *state)
{
	if (state)
		kref_put(&state->refcount, ctx_state_release);
}

static void ctx_free(struct tempo_ctx *ctx)
{
	u32 i;

	for (i = 0; i < ctx->num_slots; i++) {
		if (!ctx->slots[i].entity)
			continue;
		/* Jobs still queued are dropped (-ESRCH on their fences). */
		tempo_sched_entity_fini(ctx->slots[i].entity);
		kfree(ctx->slots[i].entity);
	}
	tempo_map_free(ctx);
	tempo_ctx_state_put(ctx->state);
	mutex_destroy(&ctx->lock);
	kfree_rcu(ctx, rcu);
}

static void ctx_release(struct kref *kref)
{
	ctx_free(container_of(kref, struct tempo_ctx, refcount));
}

/**
 * tempo_ctx_put() - drop a reference on a context
 * @ctx: the context
 *
 * The last reference drops the jobs still queued in the context's
 * entities (their owner flushed them first, see ctx_flush()) and frees
 * it; it does not wait for them.
 *
 * Context: process; may sleep briefly.
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
 * The table is read under RCU, without its lock: a context being
 * destroyed is either still found with its table's reference, or its
 * count is zero and it is not taken (its memory lasts a grace period).
 * One RCU section covers both the walk and the reference (xa_load()
 * would open its own).
 *
 * Context: any.
 * Return: the context or NULL.
 */
struct tempo_ctx *tempo_ctx_lookup(struct tempo_file *tfile, u32 id)
{
	XA_STATE(xas, &tfile->contexts, id);
	struct tempo_ctx *ctx;

	rcu_read_lock();
	do {
		ctx = xas_load(&xas);
		if (xa_is_zero(ctx))
			ctx = NULL;
	} while (xas_retry(&xas, ctx));
	if (ctx && !kref_get_unless_zero(&ctx->refcount))
		ctx = NULL;
	rcu_read_unlock();
	return ctx;
}

static bool current_killed(void)
{
	return fatal_signal_pending(current) ||
	       ((current->flags & PF_EXITING) && current->exit_code == SIGKILL);
}

/*
 * Give the context's queued jobs until @deadline to reach the hardware,
 * as drm_sched_entity_flush() does, but bounded for every caller, even a
 * process that is not exiting (a compositor closing a client's file must
 * not wait for the client's queue), and not at all for a killed one.
 */
static void ctx_flush(struct tempo_ctx *ctx, unsigned long deadline)
{
	struct tempo_ctx_state *state = ctx->state;
	long left = (long)(deadline - jiffies);

	if (left <= 0 || current_killed())
		return;
	wait_event_killable_timeout(state->idle_wq,
				    !atomic_read(&state->queued), left);
}

/**
 * tempo_ctx_destroy_all() - destroy every context of a closing file
 * @tfile: the file
 *
 * The contexts share one %TEMPO_CLOSE_WAIT_MS for their queued jobs to
 * reach the hardware; what is still queued then is dropped.
 *
 * Context: process; may sleep.
 */
void tempo_ctx_destroy_all(struct tempo_file *tfile)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(TEMPO_CLOSE_WAIT_MS);
	struct tempo_ctx *ctx;
	unsigned long id;

	xa_for_each(&tfile->contexts, id, ctx) {
		xa_erase(&tfile->contexts, id);
		ctx_flush(ctx, deadline);
		tempo_ctx_put(ctx);
	}
}

static struct tempo_ctx_state *ctx_state_create(struct tempo_file *tfile)
{
	struct tempo_ctx_state *state;

	state = kzalloc(sizeof(*state), GFP_KERNEL_ACCOUNT);
	if (!state)
		return NULL;
	kref_init(&state->refcount);
	init_waitqueue_head(&state->idle_wq);
	state->usage = tempo_usage_get(tfile->usage);
	state->vm = tempo_vm_get(tfile->vm);
	return state;
}

static struct tempo_ctx *ctx_alloc(struct tempo_device *tdev,
				   struct tempo_file *tfile,
				   const struct drm_tempo_ctx_create *args)
{
	u32 n = args->num_slots ? args->num_slots : tdev->num_engines;
	struct tempo_ctx *ctx;

	ctx = kzalloc(struct_size(ctx, slots, n), GFP_KERNEL_ACCOUNT);
	if (!ctx)
		return NULL;
	ctx->state = ctx_state_create(tfile);
	if (!ctx->state) {
		kfree(ctx);
		return NULL;
	}
	ctx->reset_base = atomic_read(&tdev->reset_count);
	kref_init(&ctx->refcount);
	mutex_init(&ctx->lock);
	ctx->tdev = tdev;
	ctx->priority = args->priority;
	ctx->override = DRM_TEMPO_PRIORITY_UNSET;
	ctx->num_slots = n;
	return ctx;
}

/* The checks that need nothing but the arguments. */
static int ctx_create_check(struct tempo_device *tdev,
			    const struct drm_tempo_ctx_create *args)
{
	if (TEMPO_IOCTL_DBG(tdev, args->flags))
		return -EINVAL;
	if (TEMPO_IOCTL_DBG(tdev, args->num_slots > TEMPO_MAX_SLOTS))
		return -EINVAL;
	return 0;
}

/* The engine map: plain slots, then those the extensions set. */
static int ctx_map(struct tempo_device *tdev, struct tempo_ctx *ctx,
		   const struct drm_tempo_ctx_create *args,
		   const struct tempo_ext_chain *exts)
{
	int ret;

	ret = tempo_map_resolve(tdev, ctx, args->slots, !args->num_slots);
	if (!ret)
		ret = tempo_ext_apply(tdev, tempo_map_extensions, exts, ctx);
	if (!ret)
		ret = tempo_map_check_complete(tdev, ctx);
	return ret;
}

/*
 * Publish a complete context: the file override it runs under is read
 * under the same lock as file_override() takes, and nothing touches the
 * context once its id is in the table (another thread of the file may
 * destroy it at once).
 */
static int ctx_publish(struct tempo_device *tdev, struct tempo_file *tfile,
		       struct tempo_ctx *ctx, u32 *id)
{
	int ret;

	mutex_lock(&tfile->lock);
	ctx->file_override = tfile->priority_override;
	ctx->state->priority = tempo_ctx_priority(ctx);
	ret = xa_alloc(&tfile->contexts, id, ctx,
		       XA_LIMIT(1, tempo_params.max_contexts),
		       GFP_KERNEL_ACCOUNT);
	mutex_unlock(&tfile->lock);
	if (TEMPO_IOCTL_DBG(tdev, ret == -EBUSY))
		return -ENOSPC;
	return ret;
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
	struct tempo_ext_chain exts;
	struct tempo_ctx *ctx;
	int ret;

	ret = ctx_create_check(tdev, args);
	if (ret)
		return ret;
	/* On failure too, the chain holds exactly the copies made so far. */
	ret = tempo_ext_read(tdev, args->extensions, tempo_map_extensions,
			     DRM_TEMPO_CTX_EXT_PARALLEL + 1, &exts);
	if (ret)
		goto out_exts;
	ctx = ctx_alloc(tdev, tfile, args);
	if (!ctx) {
		ret = -ENOMEM;
		goto out_exts;
	}
	ret = ctx_map(tdev, ctx, args, &exts);
	if (!ret)
		ret = tempo_priority_check(tdev, file, args->priority);
	if (!ret)
		ret = ctx_publish(tdev, tfile, ctx, &args->ctx_id);
	if (ret)
		ctx_free(ctx);
out_exts:
	tempo_ext_free(&exts);
	return ret;
}

/**
 * tempo_ioctl_ctx_destroy() - DRM_IOCTL_TEMPO_CTX_DESTROY
 * @dev: the DRM device
 * @data: &struct drm_tempo_ctx_destroy
 * @file: the caller
 *
 * Context: process; waits at most %TEMPO_CLOSE_WAIT_MS.
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
	ctx_flush(ctx, jiffies + msecs_to_jiffies(TEMPO_CLOSE_WAIT_MS));
	tempo_ctx_put(ctx);
	return 0;
}

/**
 * tempo_ctx_entity_create() - create the scheduler entity of a slot
 * @ctx: the context
 * @slot: one of its slots, which may have an entity by now
 *
 * The slow path of tempo_ctx_entity(): the first exec on a slot creates
 * its entity, at the context's priority of the moment, and publishes it
 * complete.
 *
 * Context: process; takes the context's lock.
 * Return: the entity, or an ERR_PTR().
 */
struct drm_sched_entity *tempo_ctx_entity_create(struct tempo_ctx *ctx,
						 struct tempo_slot *slot)
{
	struct drm_sched_entity *entity;
	struct drm_gpu_scheduler **list;
	struct tempo_prio prio;
	u32 n;
	int ret;

	mutex_lock(&ctx->lock);
	entity = slot->entity;
	if (entity)
		goto out;
	entity = kzalloc(sizeof(*entity), GFP_KERNEL_ACCOUNT);
	if (!entity) {
		entity = ERR_PTR(-ENOMEM);
		goto out;
	}
	prio = tempo_priority_map(ctx->tdev, tempo_ctx_priority(ctx));
	list = tempo_map_scheds(ctx->tdev, slot, prio.high, &n);
	/* A banned context's queued jobs are cancelled, not run. */
	ret = drm_sched_entity_init(entity, prio.sched, list, n,
				    &ctx->state->guilty);
	if (ret) {
		kfree(entity);
		entity = ERR_PTR(ret);
		goto out;
	}
	/* Publish it initialised: pairs with tempo_ctx_entity()'s acquire. */
	smp_store_release(&slot->entity, entity);
out:
	mutex_unlock(&ctx->lock);
	return entity;
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

/*
 * Apply the context's priority: at once to its jobs in HQD rings and to
 * those run_job takes from now on; its entities move to the run queue and
 * HQD set of the priority when they are next idle.
 */
static void ctx_apply_priority(struct tempo_ctx *ctx)
{
	struct tempo_prio prio = tempo_priority_map(ctx->tdev,
						    tempo_ctx_priority(ctx));
	u32 i;

	lockdep_assert_held(&ctx->lock);
	WRITE_ONCE(ctx->state->priority, tempo_ctx_priority(ctx));
	tempo_sched_priority_changed(ctx->tdev, ctx->state);
	for (i = 0; i < ctx->num_slots; i++) {
		struct tempo_slot *slot = &ctx->slots[i];
		struct drm_gpu_scheduler **list;
		u32 n;

		if (!slot->entity)
			continue;
		list = tempo_map_scheds(ctx->tdev, slot, prio.high, &n);
		/* Both take effect when the entity next picks a run queue. */
		drm_sched_entity_modify_sched(slot->entity, list, n);
		drm_sched_entity_set_priority(slot->entity, prio.sched);
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
	if (TEMPO_IOCTL_DBG(tdev, !priority_privileged(file, true)))
		return -EACCES;
	return 0;
}

/* Every context of @tfile, present and future, runs at @priority. */
static void file_override(struct tempo_file *tfile, s32 priority)
{
	unsigned long id = 0;
	struct tempo_ctx *ctx;

	mutex_lock(&tfile->lock);
	WRITE_ONCE(tfile->priority_override, priority);
	for (;;) {
		xa_lock(&tfile->contexts);
		ctx = xa_find(&tfile->contexts, &id, ULONG_MAX, XA_PRESENT);
		if (ctx)
			kref_get(&ctx->refcount);
		xa_unlock(&tfile->contexts);
		if (!ctx)
			break;
		ctx_update(ctx, &ctx->file_override, priority);
		tempo_ctx_put(ctx);
		id++;
	}
	mutex_unlock(&tfile->lock);
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
