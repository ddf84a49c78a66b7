/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The tempo authors
 *
 * Prototypes of the driver, grouped by file.
 */
#ifndef _TEMPO_DRV_H_
#define _TEMPO_DRV_H_

#include <drm/drm_file.h>
#include <drm/drm_print.h>

#include "tempo_types.h"

struct dma_buf_attachment;
struct dma_fence;
struct drm_file;
struct drm_mode_create_dumb;
struct seq_file;
struct sg_table;
struct tempo_ctx;
struct tempo_vm_fence;

/**
 * TEMPO_IOCTL_DBG() - reject user input, saying why at debug level
 * @tdev: the device
 * @cond: the rejection condition
 *
 * Return: @cond; when true, a drm_dbg line names the file, line and
 * condition.
 */
#define TEMPO_IOCTL_DBG(tdev, cond) ({					\
	bool __cond = !!(cond);						\
	if (unlikely(__cond))						\
		drm_dbg(&(tdev)->drm, "ioctl rejected: %s:%d: %s\n",	\
			__FILE__, __LINE__, #cond);			\
	__cond;								\
})

static inline struct tempo_device *to_tempo_device(struct drm_device *drm)
{
	return container_of(drm, struct tempo_device, drm);
}

static inline struct tempo_file *to_tempo_file(struct drm_file *file)
{
	return file->driver_priv;
}

static inline struct tempo_queue *to_tempo_queue(struct drm_gpu_scheduler *s)
{
	return container_of(s, struct tempo_queue, sched);
}

/* tempo_drv.c */
extern struct tempo_params tempo_params;
extern const struct file_operations tempo_fops;
const char *tempo_class_name(u32 engine_class);

/* tempo_uapi.c */
int tempo_ext_read(struct tempo_device *tdev, u64 extensions,
		   const struct tempo_ext_handler *table, u32 num_names,
		   struct tempo_ext_chain *chain);
int tempo_ext_apply(struct tempo_device *tdev,
		    const struct tempo_ext_handler *table,
		    const struct tempo_ext_chain *chain, void *data);
void tempo_ext_free(struct tempo_ext_chain *chain);
struct drm_file *tempo_drm_file_get(struct tempo_device *tdev, int fd,
				    struct file **filp);

/* tempo_budget.c */
u64 tempo_budget_max_resident(void);
u64 tempo_budget_user_max_resident(void);
int tempo_budget_charge_bo(struct tempo_file *tfile, u64 size);
void tempo_budget_uncharge_bo(struct tempo_usage *usage,
			      struct tempo_user *user, u64 size);
int tempo_budget_charge_pages(struct tempo_usage *usage,
			      struct tempo_user *user, u64 size);
void tempo_budget_uncharge_pages(struct tempo_usage *usage,
				 struct tempo_user *user, u64 size);
struct tempo_user *tempo_user_get(struct tempo_device *tdev);
void tempo_user_put(struct tempo_user *user);

/* tempo_fdinfo.c */
struct tempo_usage *tempo_usage_create(void);
struct tempo_usage *tempo_usage_get(struct tempo_usage *usage);
void tempo_usage_put(struct tempo_usage *usage);
void tempo_usage_add_cpu(struct tempo_usage *usage, u32 engine_class,
			 u64 cpu_ns);
void tempo_show_fdinfo(struct drm_printer *p, struct drm_file *file);

/* tempo_gem.c */
struct drm_gem_object *tempo_gem_create_object(struct drm_device *dev,
					       size_t size);
int tempo_ioctl_bo_create(struct drm_device *dev, void *data,
			  struct drm_file *file);
int tempo_ioctl_bo_mmap_offset(struct drm_device *dev, void *data,
			       struct drm_file *file);
int tempo_gem_dumb_create(struct drm_file *file, struct drm_device *dev,
			  struct drm_mode_create_dumb *args);
struct drm_gem_object *
tempo_gem_prime_import_sg_table(struct drm_device *dev,
				struct dma_buf_attachment *attach,
				struct sg_table *sgt);
int tempo_gem_charge_pages(struct drm_gem_object *obj);
bool tempo_gem_mappable(struct drm_gem_object *obj, struct tempo_vm *vm);

/* tempo_vm.c */
struct tempo_vm *tempo_vm_create(void);
struct tempo_vm *tempo_vm_get(struct tempo_vm *vm);
void tempo_vm_put(struct tempo_vm *vm);
void tempo_vm_lock_translations(struct tempo_vm *vm)
	__acquires(&vm->mm_lock);
void tempo_vm_unlock_translations(struct tempo_vm *vm)
	__releases(&vm->mm_lock);
void *tempo_vm_translate(struct tempo_vm *vm, u64 va, u32 len, bool write);
struct tempo_vm_resv *tempo_vm_resv_get_bo(struct tempo_vm *vm,
					   struct drm_gem_object *obj);
void tempo_vm_resv_put_bo(struct tempo_vm_resv *r);
struct tempo_vm_fence *tempo_vm_fence_alloc(void);
void tempo_vm_fence_free(struct tempo_vm_fence *f);
void tempo_vm_fence_add(struct tempo_vm *vm, struct tempo_vm_fence *f,
			struct dma_fence *job_fence);
int tempo_ioctl_vm_map(struct drm_device *dev, void *data,
		       struct drm_file *file);
int tempo_ioctl_vm_unmap(struct drm_device *dev, void *data,
			 struct drm_file *file);
#if IS_ENABLED(CONFIG_KUNIT)
int tempo_vm_map_kunit(struct tempo_device *tdev, struct tempo_vm *vm,
		       struct tempo_mapping *m, void *vaddr, size_t bo_size,
		       struct drm_tempo_vm_map *args);
struct tempo_mapping *tempo_vm_unmap_kunit(struct tempo_vm *vm, u64 va,
					   u64 size);
#endif

/*
 * Accessors of the exec path, inline: it calls them once per job.
 */

/**
 * tempo_vm_jobs_resv() - where an exec adds its job's fence
 * @vm: the address space of the job
 *
 * Context: any.
 * Return: the address space's reservation object, or NULL when it has no
 * private buffer, so that an exec takes no lock for nothing.
 */
static inline struct dma_resv *tempo_vm_jobs_resv(struct tempo_vm *vm)
{
	return atomic_read(&vm->resv->num_bos) ? &vm->resv->resv : NULL;
}

/**
 * tempo_ctx_state_get() - reference a context's state
 * @state: the state
 *
 * Context: any.
 * Return: @state.
 */
static inline struct tempo_ctx_state *
tempo_ctx_state_get(struct tempo_ctx_state *state)
{
	kref_get(&state->refcount);
	return state;
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
static inline bool tempo_ctx_banned(const struct tempo_ctx *ctx)
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
static inline s32 tempo_ctx_priority(const struct tempo_ctx *ctx)
{
	s32 override = READ_ONCE(ctx->override);

	if (override == DRM_TEMPO_PRIORITY_UNSET)
		override = READ_ONCE(ctx->file_override);
	if (override != DRM_TEMPO_PRIORITY_UNSET)
		return override;
	return READ_ONCE(ctx->priority);
}

/* tempo_ctx.c */
int tempo_priority_check(struct tempo_device *tdev, struct drm_file *file,
			 s64 priority);
s32 tempo_priority_ceiling(struct drm_file *file);
struct tempo_prio tempo_priority_map(const struct tempo_device *tdev,
				     s32 priority);
struct tempo_ctx *tempo_ctx_lookup(struct tempo_file *tfile, u32 id);
void tempo_ctx_state_put(struct tempo_ctx_state *state);
void tempo_ctx_put(struct tempo_ctx *ctx);
struct drm_sched_entity *tempo_ctx_entity_create(struct tempo_ctx *ctx,
						 struct tempo_slot *slot);
void tempo_ctx_destroy_all(struct tempo_file *tfile);
int tempo_ioctl_ctx_create(struct drm_device *dev, void *data,
			   struct drm_file *file);
int tempo_ioctl_ctx_destroy(struct drm_device *dev, void *data,
			    struct drm_file *file);
int tempo_ioctl_ctx_get_param(struct drm_device *dev, void *data,
			      struct drm_file *file);
int tempo_ioctl_ctx_set_param(struct drm_device *dev, void *data,
			      struct drm_file *file);
int tempo_ioctl_sched(struct drm_device *dev, void *data,
		      struct drm_file *file);

/**
 * tempo_ctx_entity() - the scheduler entity of a context's slot
 * @ctx: the context
 * @slot: one of its slots
 *
 * Entities are created by the first exec on their slot and published
 * complete: later execs find them without the context's lock.
 *
 * Context: process; takes the context's lock to create the entity.
 * Return: the entity, or an ERR_PTR().
 */
static inline struct drm_sched_entity *
tempo_ctx_entity(struct tempo_ctx *ctx, struct tempo_slot *slot)
{
	/* Pairs with the release that publishes it: it is initialised. */
	struct drm_sched_entity *entity = smp_load_acquire(&slot->entity);

	return entity ?: tempo_ctx_entity_create(ctx, slot);
}

/* tempo_map.c */
int tempo_map_resolve(struct tempo_device *tdev, struct tempo_ctx *ctx,
		      u64 user_slots, bool default_map);
extern const struct tempo_ext_handler tempo_map_extensions[];
int tempo_map_check_complete(struct tempo_device *tdev,
			     const struct tempo_ctx *ctx);
void tempo_map_balance(struct tempo_device *tdev, struct tempo_slot *slot,
		       bool high);
struct drm_gpu_scheduler **tempo_map_scheds(struct tempo_device *tdev,
					    struct tempo_slot *slot, bool high,
					    u32 *n);
void tempo_map_free(struct tempo_ctx *ctx);
bool tempo_map_placeable(const struct tempo_device *tdev,
			 struct tempo_engine_desc **siblings, u32 width, u32 n);

/* tempo_submit.c */
int tempo_ioctl_exec(struct drm_device *dev, void *data,
		     struct drm_file *file);

/* tempo_sched.c */
int tempo_sched_init(struct tempo_device *tdev);
void tempo_sched_fini(struct tempo_device *tdev);
void tempo_sched_priority_changed(struct tempo_device *tdev,
				  struct tempo_ctx_state *state);
void tempo_sched_entity_fini(struct drm_sched_entity *entity);
void tempo_sched_promote(struct tempo_device *tdev, struct dma_fence *fence,
			 s32 priority);
u32 tempo_class_queues(u32 engine_class);
u32 tempo_engine_load(struct tempo_device *tdev,
		      const struct tempo_engine_desc *e);
void tempo_queue_priority(const struct tempo_queue *queue, u8 *pipe,
			  u8 *queue_priority);
void tempo_sched_show_hqds(struct tempo_device *tdev, struct seq_file *m);
void tempo_sched_show_cus(struct tempo_device *tdev, struct seq_file *m);

/* tempo_job.c */
struct tempo_job *tempo_job_alloc(struct tempo_usage *usage,
				  struct tempo_vm *vm,
				  const struct tempo_slot *slot,
				  const u64 *batches);
int tempo_job_init(struct tempo_job *job, struct tempo_ctx *ctx,
		   struct drm_sched_entity *entity, struct drm_file *file);
int tempo_job_add_dependency(struct tempo_job *job, struct dma_fence *fence);
struct dma_fence *tempo_job_push(struct tempo_job *job, struct tempo_ctx *ctx,
				 struct tempo_slot *slot, u32 ctx_id,
				 bool want_fence, bool inherit);
void tempo_job_put(struct tempo_job *job);
void tempo_job_wait_all_freed(struct tempo_device *tdev);
u64 tempo_usage_busy_ns(struct tempo_usage *usage, u32 engine_class);

/* tempo_query.c */
int tempo_ioctl_query(struct drm_device *dev, void *data,
		      struct drm_file *file);

/* tempo_debugfs.c */
struct drm_minor;
void tempo_debugfs_init(struct tempo_device *tdev);

#endif /* _TEMPO_DRV_H_ */
