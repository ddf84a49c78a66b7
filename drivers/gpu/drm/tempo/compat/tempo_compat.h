/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The tempo authors
 *
 * The newest mainline API on the older kernels tempo builds on (Debian's
 * 6.1 and 6.12), in one place. The driver is written against mainline;
 * Kbuild includes this header before every source file, and here each
 * difference a probe found (probes/, results in tempo_compat_gen.h) gets
 * a shim under mainline's name. Deleting compat/ leaves the driver as it
 * would be upstream: "make gates" builds it so against the newest kernel.
 *
 * Where a kernel lacks something mainline has no API for, the driver
 * tests a TEMPO_COMPAT_* macro defined here, never a probe, and every
 * such macro is undefined on mainline (Documentation/design.rst lists
 * them):
 *
 * - TEMPO_COMPAT_DRM_DRIVER: members of struct drm_driver that an older
 *   kernel needs and mainline dropped.
 * - TEMPO_COMPAT_LEGACY_FDINFO: DRM has no common fdinfo (6.1); the
 *   driver prints it all, from its file_operations.
 * - TEMPO_COMPAT_SCHED_JOB_ID(job): drm_sched's id of a job, which its
 *   trace events print (6.x; mainline names jobs by their fence).
 * - TEMPO_COMPAT_FILE_PID_FIXED: drm_file.pid is the opener's, not an
 *   RCU-protected pointer.
 * - TEMPO_COMPAT_NO_FOP_FLAGS: struct file_operations has no fop_flags.
 * - TEMPO_COMPAT_FENCE_PINS_MODULE: a fence's last reference calls into
 *   the module that made it, even signalled.
 * - TEMPO_COMPAT_ENTITY_KILL_LEAKS: drm_sched's entity kill leaks a fence
 *   reference per job it drops.
 * - TEMPO_COMPAT_NO_HANG_MISSING, TEMPO_COMPAT_NO_CANCEL_JOB: drm_sched
 *   has neither DRM_GPU_SCHED_STAT_NO_HANG nor cancel_job, and the driver
 *   does their work itself.
 */
#ifndef _TEMPO_COMPAT_H_
#define _TEMPO_COMPAT_H_

#include <linux/dma-fence.h>
#include <linux/iosys-map.h>
#include <linux/workqueue.h>

#include <drm/drm_debugfs.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_prime.h>
#include <drm/gpu_scheduler.h>

#include "tempo_compat_gen.h"

struct drm_printer;
struct seq_file;

/* --- struct drm_driver ---------------------------------------------------- */

#ifdef TEMPO_HAVE_DRM_DRIVER_GEM_PRIME_MMAP
#define TEMPO_COMPAT_DRIVER_PRIME \
	.prime_handle_to_fd = drm_gem_prime_handle_to_fd, \
	.prime_fd_to_handle = drm_gem_prime_fd_to_handle, \
	.gem_prime_mmap = drm_gem_prime_mmap,
#else
#define TEMPO_COMPAT_DRIVER_PRIME
#endif

#ifndef TEMPO_HAVE_DRM_DEBUGFS_ADD_FILES
void tempo_compat_debugfs_init(struct drm_minor *minor);
#define TEMPO_COMPAT_DRIVER_DEBUGFS	.debugfs_init = tempo_compat_debugfs_init,
#else
#define TEMPO_COMPAT_DRIVER_DEBUGFS
#endif

/* Every kernel that needs a member mainline dropped still has the date. */
#ifdef TEMPO_HAVE_DRM_DRIVER_DATE
#define TEMPO_COMPAT_DRM_DRIVER .date = "20260101", \
	TEMPO_COMPAT_DRIVER_PRIME TEMPO_COMPAT_DRIVER_DEBUGFS
#elif defined(TEMPO_HAVE_DRM_DRIVER_GEM_PRIME_MMAP) || \
	!defined(TEMPO_HAVE_DRM_DEBUGFS_ADD_FILES)
#error "a kernel without drm_driver.date but with older members"
#endif

/* --- file_operations ----------------------------------------------------- */

/* Without it, the default placement, as DRM_GEM_FOPS had. */
#ifndef TEMPO_HAVE_DRM_GEM_GET_UNMAPPED_AREA
#define drm_gem_get_unmapped_area	NULL
#endif

/* drm_open() marks each file as taking unsigned offsets itself (6.1). */
#ifndef TEMPO_HAVE_FILE_OPERATIONS_FOP_FLAGS
#define TEMPO_COMPAT_NO_FOP_FLAGS	1
#endif

/* --- debugfs: drm_debugfs_add_files() (6.3) ------------------------------- */

#ifndef TEMPO_HAVE_DRM_DEBUGFS_ADD_FILES
struct drm_debugfs_info {
	const char *name;
	int (*show)(struct seq_file *m, void *data);
	u32 driver_features;
	void *data;
};

struct drm_debugfs_entry {
	struct drm_device *dev;
	struct drm_debugfs_info file;
	struct list_head list;
};

void tempo_compat_debugfs_add_files(struct drm_device *dev,
				    const struct drm_debugfs_info *files,
				    int count);
#define drm_debugfs_add_files	tempo_compat_debugfs_add_files
#endif

/* --- fdinfo: drm_show_fdinfo() and drm_show_memory_stats() (6.5) ---------- */

#ifndef TEMPO_HAVE_DRM_FDINFO_PRINT_SIZE
struct drm_printer;
void tempo_compat_fdinfo_print_size(struct drm_printer *p, const char *prefix,
				    const char *stat, const char *region,
				    u64 sz);
#define drm_fdinfo_print_size	tempo_compat_fdinfo_print_size
#endif

#ifndef TEMPO_HAVE_DRM_SHOW_FDINFO
#define TEMPO_COMPAT_LEGACY_FDINFO	1
/* In the driver: the whole fdinfo, from its file_operations. */
void tempo_compat_show_fdinfo(struct seq_file *m, struct file *f);
#define drm_show_fdinfo		tempo_compat_show_fdinfo
void tempo_compat_show_memory_stats(struct drm_printer *p,
				    struct drm_file *file);
#define drm_show_memory_stats	tempo_compat_show_memory_stats
#endif

/* --- GEM: drm_gem_vmap() takes the reservation lock ----------------------- */

#ifndef TEMPO_HAVE_DRM_GEM_VMAP_LOCKS
static inline int tempo_compat_gem_vmap(struct drm_gem_object *obj,
					struct iosys_map *map)
{
#ifdef TEMPO_HAVE_DRM_GEM_VMAP_UNLOCKED
	return drm_gem_vmap_unlocked(obj, map);
#else
	/* The object's own vmap locks what it needs. */
	int ret = obj->funcs->vmap(obj, map);

	if (!ret && iosys_map_is_null(map))
		ret = -ENOMEM;
	return ret;
#endif
}

static inline void tempo_compat_gem_vunmap(struct drm_gem_object *obj,
					   struct iosys_map *map)
{
#ifdef TEMPO_HAVE_DRM_GEM_VMAP_UNLOCKED
	drm_gem_vunmap_unlocked(obj, map);
#else
	obj->funcs->vunmap(obj, map);
	iosys_map_clear(map);
#endif
}

#define drm_gem_vmap	tempo_compat_gem_vmap
#define drm_gem_vunmap	tempo_compat_gem_vunmap
#endif

/* --- drm_sched ------------------------------------------------------------ */

#ifndef TEMPO_HAVE_DRM_SCHED_PRIORITY_LOW
#define DRM_SCHED_PRIORITY_LOW	DRM_SCHED_PRIORITY_MIN
#endif

/*
 * struct drm_sched_init_args with its run-queue count, which Debian's 6.1
 * backport of the struct does not have: the shim takes mainline's struct
 * and passes the kernel's on.
 */
#ifndef TEMPO_HAVE_DRM_SCHED_INIT_ARGS_NUM_RQS
struct tempo_compat_sched_init_args {
	const struct drm_sched_backend_ops *ops;
	struct workqueue_struct *submit_wq;
	struct workqueue_struct *timeout_wq;
	u32 num_rqs;
	u32 credit_limit;
	unsigned int hang_limit;
	long timeout;
	atomic_t *score;
	const char *name;
	struct device *dev;
};

static inline int
tempo_compat_sched_init(struct drm_gpu_scheduler *sched,
			const struct tempo_compat_sched_init_args *args)
{
	const struct drm_sched_init_args kernel_args = {
		.ops = args->ops,
		.credit_limit = args->credit_limit,
		.hang_limit = args->hang_limit,
		.timeout = args->timeout,
		.timeout_wq = args->timeout_wq,
		.score = args->score,
		.name = args->name,
		.dev = args->dev,
	};

	return drm_sched_init(sched, &kernel_args);
}

#define drm_sched_init_args	tempo_compat_sched_init_args
#define drm_sched_init		tempo_compat_sched_init
#endif

#ifndef TEMPO_HAVE_DRM_SCHED_JOB_INIT_CLIENT_ID
static inline int tempo_compat_sched_job_init(struct drm_sched_job *job,
					      struct drm_sched_entity *entity,
					      u32 credits, void *owner,
					      u64 client_id)
{
	return drm_sched_job_init(job, entity, owner);
}

#define drm_sched_job_init	tempo_compat_sched_job_init
#endif

#ifndef TEMPO_HAVE_DRM_SCHED_START_ERRNO
static inline void tempo_compat_sched_start(struct drm_gpu_scheduler *sched,
					    int errno)
{
#ifdef TEMPO_HAVE_DRM_SCHED_START_SCHED_ONLY
	drm_sched_start(sched);
#else
	drm_sched_start(sched, true);
#endif
}

#define drm_sched_start		tempo_compat_sched_start
#endif

/*
 * Every job a stopped scheduler holds. The shim does not filter by
 * entity: the driver never asks it to.
 */
#ifndef drm_sched_for_each_pending_job
static inline struct list_head *
tempo_compat_pending_list(struct drm_gpu_scheduler *sched,
			  struct drm_sched_entity *entity)
{
	WARN_ON_ONCE(entity);
	return &sched->pending_list;
}

#define drm_sched_for_each_pending_job(job, sched, entity) \
	list_for_each_entry(job, tempo_compat_pending_list(sched, entity), list)
#endif

/*
 * Kernels without drm_sched_wqueue_stop() (6.1) keep run queues as lists,
 * from which a scheduler never puts back an entity that
 * drm_sched_entity_fini() took off: the driver's stop around it
 * (tempo_sched_entity_fini()) has nothing to do there.
 */
#ifndef TEMPO_HAVE_DRM_SCHED_WQUEUE_STOP
static inline void drm_sched_wqueue_stop(struct drm_gpu_scheduler *sched)
{
}

static inline void drm_sched_wqueue_start(struct drm_gpu_scheduler *sched)
{
}
#endif

/*
 * Without NO_HANG, a timeout handler has no way to say "not hung" and the
 * driver puts the job back itself (drm_sched_stop(), drm_sched_start()).
 */
#ifndef TEMPO_HAVE_DRM_SCHED_STAT_NO_HANG
#define TEMPO_COMPAT_NO_HANG_MISSING	1
#define DRM_GPU_SCHED_STAT_RESET	DRM_GPU_SCHED_STAT_NOMINAL
#endif

#ifndef TEMPO_HAVE_DRM_SCHED_CANCEL_JOB
#define TEMPO_COMPAT_NO_CANCEL_JOB	1
#endif

#ifdef TEMPO_HAVE_DRM_SCHED_JOB_ID
#define TEMPO_COMPAT_SCHED_JOB_ID(job)	((job)->id)
#endif

/* drm_file.pid: the opener's, set once, not RCU-protected (6.1). */
#ifndef TEMPO_HAVE_DRM_FILE_UPDATE_PID
#define TEMPO_COMPAT_FILE_PID_FIXED	1
#endif

/*
 * Where drm_sched's entity kill leaks a fence reference for every job it
 * drops (probes/drm_sched_entity_kill_leaks_fences.c), jobs must reach
 * the ring before their entity ends, or the module never unloads.
 */
#ifdef TEMPO_HAVE_DRM_SCHED_ENTITY_KILL_LEAKS_FENCES
#define TEMPO_COMPAT_ENTITY_KILL_LEAKS	1
#endif

/* --- dma_fence ------------------------------------------------------------ */

/*
 * Where dma_fence_signal() does not detach a signalled fence from its
 * ops, the fence's last reference reads them: the module gives its
 * fences a .release and does not go before the last of them.
 */
#ifndef TEMPO_HAVE_DMA_FENCE_SIGNAL_DETACHES_OPS
#define TEMPO_COMPAT_FENCE_PINS_MODULE	1
#endif

/* --- workqueues ----------------------------------------------------------- */

#ifndef TEMPO_HAVE_SYSTEM_DFL_WQ
#define system_dfl_wq	system_unbound_wq
#endif

/* --- KUnit: deferred actions (6.5) ---------------------------------------- */

#if IS_ENABLED(CONFIG_KUNIT) && !defined(TEMPO_HAVE_KUNIT_ADD_ACTION)
#include <linux/slab.h>
#include <kunit/resource.h>

typedef void (kunit_action_t)(void *);

struct tempo_compat_kunit_action {
	kunit_action_t *fn;
	void *data;
};

static inline int tempo_compat_kunit_action_init(struct kunit_resource *res,
						 void *context)
{
	res->data = context;
	return 0;
}

static inline void tempo_compat_kunit_action_free(struct kunit_resource *res)
{
	struct tempo_compat_kunit_action *action = res->data;

	action->fn(action->data);
	kfree(action);
}

static inline bool tempo_compat_kunit_action_match(struct kunit *test,
						   struct kunit_resource *res,
						   void *match_data)
{
	const struct tempo_compat_kunit_action *a = res->data, *b = match_data;

	return res->free == tempo_compat_kunit_action_free &&
	       a->fn == b->fn && a->data == b->data;
}

static inline int kunit_add_action_or_reset(struct kunit *test,
					    kunit_action_t *fn, void *data)
{
	struct tempo_compat_kunit_action *action;

	action = kmalloc(sizeof(*action), GFP_KERNEL);
	if (action) {
		action->fn = fn;
		action->data = data;
		if (kunit_alloc_resource(test, tempo_compat_kunit_action_init,
					 tempo_compat_kunit_action_free,
					 GFP_KERNEL, action))
			return 0;
		kfree(action);
	}
	fn(data);
	return -ENOMEM;
}

static inline void kunit_release_action(struct kunit *test,
					kunit_action_t *fn, void *data)
{
	struct tempo_compat_kunit_action key = { .fn = fn, .data = data };

	kunit_destroy_resource(test, tempo_compat_kunit_action_match, &key);
}
#endif

#endif /* _TEMPO_COMPAT_H_ */
