// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The tempo authors
 */

/**
 * DOC: Engine maps
 *
 * A context's engine map is an array of slots. A slot is one engine, a
 * load-balanced virtual engine over sibling engines of one class, or a
 * parallel slot that runs gangs of several batches on distinct engines.
 * &drm_tempo_ctx_create.slots lists plain engines, and
 * { 0, %DRM_TEMPO_ENGINE_INSTANCE_NONE } for a slot that an extension of
 * the same ioctl sets.
 *
 * Each slot has one drm_sched entity. A plain slot's entity may use the
 * HQDs of its engine that suit the context's priority; a balanced slot's
 * entity is pointed, before each job, at those of the sibling engine with
 * the fewest jobs on the hardware, and drm_sched moves it there whenever
 * the slot is idle. A parallel slot's entity
 * feeds the device's gang scheduler, whose run_job picks a placement (one
 * engine per batch from its column of siblings, all distinct, idle engines
 * first, at random among equals) and writes every member into the gang
 * HQD of its engine.
 */

#include <linux/random.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <drm/drm_file.h>
#include <drm/tempo_drm.h>

#include "tempo_drv.h"

static struct tempo_engine_desc *engine_find(struct tempo_device *tdev,
					     const struct drm_tempo_engine *e)
{
	u32 i;

	for (i = 0; i < tdev->num_engines; i++) {
		struct tempo_engine_desc *d = &tdev->engines[i];

		if (d->engine_class == e->engine_class &&
		    d->engine_instance == e->engine_instance)
			return d;
	}
	return NULL;
}

static bool is_none(const struct drm_tempo_engine *e)
{
	return !e->engine_class &&
	       e->engine_instance == DRM_TEMPO_ENGINE_INSTANCE_NONE;
}

static void slot_set_engine(struct tempo_slot *slot,
			    struct tempo_engine_desc *engine)
{
	slot->kind = TEMPO_SLOT_ENGINE;
	slot->engine = engine;
	slot->width = 1;
}

/**
 * tempo_map_resolve() - fill a context's slots from the create arguments
 * @tdev: the device
 * @ctx: the context, its slots zeroed
 * @user_slots: user pointer to &struct drm_tempo_engine
 * @default_map: ignore @user_slots: every engine, in query order
 *
 * Context: process; may fault.
 * Return: 0, -EFAULT, or -EINVAL for an unknown engine.
 */
int tempo_map_resolve(struct tempo_device *tdev, struct tempo_ctx *ctx,
		      u64 user_slots, bool default_map)
{
	struct drm_tempo_engine e;
	u32 i;

	for (i = 0; i < ctx->num_slots; i++) {
		void __user *p = u64_to_user_ptr(user_slots) + i * sizeof(e);
		struct tempo_engine_desc *engine;

		if (default_map) {
			slot_set_engine(&ctx->slots[i], &tdev->engines[i]);
			continue;
		}
		if (TEMPO_IOCTL_DBG(tdev, copy_from_user(&e, p, sizeof(e))))
			return -EFAULT;
		if (is_none(&e))
			continue;	/* TEMPO_SLOT_UNSET, for an extension */
		engine = engine_find(tdev, &e);
		if (TEMPO_IOCTL_DBG(tdev, !engine))
			return -EINVAL;
		slot_set_engine(&ctx->slots[i], engine);
	}
	return 0;
}

static struct tempo_slot *ext_slot(struct tempo_device *tdev,
				   struct tempo_ctx *ctx, u32 index)
{
	if (TEMPO_IOCTL_DBG(tdev, index >= ctx->num_slots))
		return NULL;
	if (TEMPO_IOCTL_DBG(tdev, ctx->slots[index].kind != TEMPO_SLOT_UNSET))
		return NULL;
	return &ctx->slots[index];
}

/* Read @n engines, each known, into a new @slot->siblings. */
static int read_engines(struct tempo_device *tdev, u64 uptr, u32 n,
			struct tempo_slot *slot)
{
	struct tempo_engine_desc **out;
	struct drm_tempo_engine e;
	u32 i;

	out = kcalloc(n, sizeof(*out), GFP_KERNEL_ACCOUNT);
	if (!out)
		return -ENOMEM;
	slot->siblings = out;
	for (i = 0; i < n; i++) {
		void __user *p = u64_to_user_ptr(uptr) + i * sizeof(e);

		if (TEMPO_IOCTL_DBG(tdev, copy_from_user(&e, p, sizeof(e))))
			return -EFAULT;
		out[i] = engine_find(tdev, &e);
		if (TEMPO_IOCTL_DBG(tdev, !out[i]))
			return -EINVAL;
	}
	return 0;
}

/* One class, no engine twice. */
static bool column_valid(struct tempo_engine_desc **col, u32 n)
{
	u32 i, j;

	for (i = 0; i < n; i++) {
		if (col[i]->engine_class != col[0]->engine_class)
			return false;
		for (j = 0; j < i; j++)
			if (col[i] == col[j])
				return false;
	}
	return true;
}

static int balanced_lists(struct tempo_slot *slot)
{
	u32 high, i, k;

	for (high = 0; high < 2; high++) {
		u32 n = 0;

		for (i = 0; i < slot->num_siblings; i++)
			n += slot->siblings[i]->num_placed[high];
		slot->balanced[high] = kcalloc(n, sizeof(*slot->balanced[high]),
					       GFP_KERNEL_ACCOUNT);
		if (!slot->balanced[high])
			return -ENOMEM;
		/*
		 * Interleaved, first HQD of every sibling first: drm_sched
		 * takes the first of the least-loaded schedulers, so idle
		 * engines are preferred to idle HQDs of a busy engine.
		 */
		for (k = 0; k < TEMPO_MAX_QUEUES; k++)
			for (i = 0; i < slot->num_siblings; i++)
				if (k < slot->siblings[i]->num_placed[high])
					slot->balanced[high][slot->num_balanced[high]++] =
						slot->siblings[i]->placed[high][k];
	}
	return 0;
}

static int ext_load_balance(struct tempo_device *tdev, const void *data,
			    void *object)
{
	const struct drm_tempo_ctx_ext_load_balance *ext = data;
	struct tempo_ctx *ctx = object;
	struct tempo_slot *slot;
	int ret;

	if (TEMPO_IOCTL_DBG(tdev, ext->flags || ext->pad))
		return -EINVAL;
	slot = ext_slot(tdev, ctx, ext->slot);
	if (!slot)
		return -EINVAL;
	if (TEMPO_IOCTL_DBG(tdev, !ext->num_siblings ||
			    ext->num_siblings > TEMPO_MAX_SIBLINGS))
		return -EINVAL;
	ret = read_engines(tdev, ext->siblings, ext->num_siblings, slot);
	if (ret)
		return ret;
	if (TEMPO_IOCTL_DBG(tdev, !column_valid(slot->siblings,
						ext->num_siblings)))
		return -EINVAL;
	slot->kind = TEMPO_SLOT_BALANCED;
	slot->width = 1;
	slot->num_siblings = ext->num_siblings;
	return balanced_lists(slot);
}

/* Whether columns @col.. can take distinct engines not in @used. */
static bool placeable_from(const struct tempo_device *tdev,
			   struct tempo_engine_desc **siblings, u32 width,
			   u32 n, u32 col, u32 used)
{
	u32 j;

	if (col == width)
		return true;
	for (j = 0; j < n; j++) {
		u32 bit = BIT(siblings[col * n + j] - tdev->engines);

		if (!(used & bit) &&
		    placeable_from(tdev, siblings, width, n, col + 1, used | bit))
			return true;
	}
	return false;
}

/**
 * tempo_map_placeable() - whether a parallel slot can ever be placed
 * @tdev: the device
 * @siblings: the columns, as &tempo_slot.siblings
 * @width: columns
 * @n: siblings per column
 *
 * Context: any.
 * Return: true when every column can take a distinct engine.
 */
bool tempo_map_placeable(const struct tempo_device *tdev,
			 struct tempo_engine_desc **siblings, u32 width, u32 n)
{
	return placeable_from(tdev, siblings, width, n, 0, 0);
}

static int parallel_check(struct tempo_device *tdev, struct tempo_slot *slot,
			  u32 width, u32 n)
{
	u32 i;

	for (i = 0; i < width; i++)
		if (TEMPO_IOCTL_DBG(tdev, !column_valid(&slot->siblings[i * n], n)))
			return -EINVAL;
	if (TEMPO_IOCTL_DBG(tdev, !tempo_map_placeable(tdev, slot->siblings,
						       width, n)))
		return -EINVAL;
	for (i = 0; i < width; i++)
		if (TEMPO_IOCTL_DBG(tdev, !(TEMPO_PARALLEL_CLASSES &
				    BIT(slot->siblings[i * n]->engine_class))))
			return -ENODEV;
	return 0;
}

static int ext_parallel(struct tempo_device *tdev, const void *data,
			void *object)
{
	const struct drm_tempo_ctx_ext_parallel *ext = data;
	struct tempo_ctx *ctx = object;
	struct tempo_slot *slot;
	int ret;

	if (TEMPO_IOCTL_DBG(tdev, ext->flags || ext->mbz))
		return -EINVAL;
	slot = ext_slot(tdev, ctx, ext->slot);
	if (!slot)
		return -EINVAL;
	if (TEMPO_IOCTL_DBG(tdev, ext->width < 2 || !ext->num_siblings ||
			    ext->num_siblings > TEMPO_MAX_SIBLINGS))
		return -EINVAL;
	if (TEMPO_IOCTL_DBG(tdev, ext->width > TEMPO_MAX_BATCHES))
		return -ENODEV;
	ret = read_engines(tdev, ext->engines, ext->width * ext->num_siblings,
			   slot);
	if (!ret)
		ret = parallel_check(tdev, slot, ext->width, ext->num_siblings);
	if (ret)
		return ret;
	slot->kind = TEMPO_SLOT_PARALLEL;
	slot->width = ext->width;
	slot->num_siblings = ext->num_siblings;
	slot->fence_context = dma_fence_context_alloc(1);
	return 0;
}

/* The extensions of DRM_IOCTL_TEMPO_CTX_CREATE, by name. */
const struct tempo_ext_handler tempo_map_extensions[] = {
	[DRM_TEMPO_CTX_EXT_LOAD_BALANCE] = {
		sizeof(struct drm_tempo_ctx_ext_load_balance), ext_load_balance,
	},
	[DRM_TEMPO_CTX_EXT_PARALLEL] = {
		sizeof(struct drm_tempo_ctx_ext_parallel), ext_parallel,
	},
};

/**
 * tempo_map_check_complete() - whether every slot of a map is set
 * @tdev: the device
 * @ctx: the context, its slots resolved and its extensions applied
 *
 * Context: any.
 * Return: 0, or -EINVAL for a slot listed for an extension and set by
 * none.
 */
int tempo_map_check_complete(struct tempo_device *tdev,
			     const struct tempo_ctx *ctx)
{
	u32 n;

	for (n = 0; n < ctx->num_slots; n++)
		if (TEMPO_IOCTL_DBG(tdev, ctx->slots[n].kind == TEMPO_SLOT_UNSET))
			return -EINVAL;
	return 0;
}

/**
 * tempo_map_balance() - point a balanced slot at its least-loaded sibling
 * @tdev: the device
 * @slot: a balanced slot
 * @high: the job to come runs above normal priority
 *
 * drm_sched picks among the schedulers of the slot's entity by their own
 * load, HQD by HQD, which does not see that two HQDs share an engine. So
 * before each job the entity's list becomes the HQDs of the sibling engine
 * with the fewest jobs on the hardware (at random among equals); drm_sched
 * then picks among that engine's HQDs, and only when the slot is idle, so
 * its jobs still complete in order.
 *
 * Context: process; the context's lock held.
 */
void tempo_map_balance(struct tempo_device *tdev, struct tempo_slot *slot,
		       bool high)
{
	u32 n = slot->num_siblings, start, k, best_load = U32_MAX;
	struct tempo_engine_desc *best = NULL;

	start = get_random_u32_below(n);
	for (k = 0; k < n; k++) {
		struct tempo_engine_desc *e = slot->siblings[(start + k) % n];
		u32 load = tempo_engine_load(tdev, e);

		if (e->num_placed[high] && load < best_load) {
			best = e;
			best_load = load;
		}
	}
	if (best)
		drm_sched_entity_modify_sched(slot->entity, best->placed[high],
					      best->num_placed[high]);
}

/**
 * tempo_map_scheds() - the schedulers a slot's entity may use
 * @tdev: the device
 * @slot: the slot
 * @high: for a context above normal priority
 * @n: out: entries of the list
 *
 * Context: any.
 * Return: the list, which lives as long as @slot.
 */
struct drm_gpu_scheduler **tempo_map_scheds(struct tempo_device *tdev,
					    struct tempo_slot *slot, bool high,
					    u32 *n)
{
	switch (slot->kind) {
	case TEMPO_SLOT_BALANCED:
		*n = slot->num_balanced[high];
		return slot->balanced[high];
	case TEMPO_SLOT_PARALLEL:
		*n = 1;
		return tdev->gang_scheds[high];
	}
	*n = slot->engine->num_placed[high];
	return slot->engine->placed[high];
}

/**
 * tempo_map_free() - free what the slots of a context allocated
 * @ctx: the context
 *
 * Context: any.
 */
void tempo_map_free(struct tempo_ctx *ctx)
{
	u32 i;

	for (i = 0; i < ctx->num_slots; i++) {
		kfree(ctx->slots[i].siblings);
		kfree(ctx->slots[i].balanced[0]);
		kfree(ctx->slots[i].balanced[1]);
		dma_fence_put(ctx->slots[i].last);
	}
}
