/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (c) 2026 The tempo authors
 *
 * One place for the DRM and drm_sched API differences between the kernels
 * tempo builds on (Debian's 6.1 to mainline 7.x). Which API a kernel has
 * is probed at build time (compat/), never guessed from its version
 * number. Where a kernel lacks a feature, the driver provides it another
 * way (fdinfo, debugfs) and the uAPI stays the same.
 */
#ifndef _TEMPO_COMPAT_H_
#define _TEMPO_COMPAT_H_

#include <linux/dma-fence.h>
#include <linux/iosys-map.h>

#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/workqueue.h>

#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/gpu_scheduler.h>

#include "tempo_compat_gen.h"

struct seq_file;
struct file;

/*
 * fdinfo: DRM prints the common keys and calls drm_driver.show_fdinfo, or
 * (6.1) the driver prints everything from its file_operations.
 */
#if !defined(TEMPO_HAVE_DRM_SHOW_FDINFO)
void tempo_compat_show_fdinfo(struct seq_file *m, struct file *f);
#define TEMPO_GEM_FOPS_FDINFO	.show_fdinfo = tempo_compat_show_fdinfo,
#elif defined(TEMPO_HAVE_GEM_FOPS_NO_FDINFO)
#define TEMPO_GEM_FOPS_FDINFO	.show_fdinfo = drm_show_fdinfo,
#else
#define TEMPO_GEM_FOPS_FDINFO
#endif

/* drm_driver.date: DRM_IOCTL_VERSION copies it out while the member exists. */
#ifdef TEMPO_HAVE_DRIVER_DATE
#define TEMPO_DRIVER_DATE	.date = "20260101",
#else
#define TEMPO_DRIVER_DATE
#endif

/*
 * PRIME: DRM uses its own helpers where the driver leaves these members
 * unset; older kernels (6.1) fail the PRIME ioctls with -ENOSYS, and
 * mmap() of an exported buffer, unless the driver names them.
 */
#ifdef TEMPO_HAVE_PRIME_HANDLE_TO_FD
#define TEMPO_DRIVER_PRIME_FD \
	.prime_handle_to_fd = drm_gem_prime_handle_to_fd, \
	.prime_fd_to_handle = drm_gem_prime_fd_to_handle,
#else
#define TEMPO_DRIVER_PRIME_FD
#endif
#ifdef TEMPO_HAVE_GEM_PRIME_MMAP
#define TEMPO_DRIVER_PRIME_MMAP	.gem_prime_mmap = drm_gem_prime_mmap,
#else
#define TEMPO_DRIVER_PRIME_MMAP
#endif

/*
 * Timeout verdicts. Kernels without NO_HANG have no way to say "not hung":
 * the handler then stops and restarts the scheduler to put the job back.
 */
#ifdef TEMPO_HAVE_SCHED_STAT_NO_HANG
#define TEMPO_SCHED_STAT_RESET	DRM_GPU_SCHED_STAT_RESET
#else
#define TEMPO_SCHED_STAT_RESET	DRM_GPU_SCHED_STAT_NOMINAL
#endif

/*
 * Where dma_fence_signal() detaches a signalled fence from its ops, a
 * fence whose ops have neither .wait nor .release may outlive the module
 * that made it. Elsewhere its last reference reads the ops: the module
 * gives such fences a .release and does not go before the last of them
 * (nor, with it, before the scheduler fences that hold them, which read
 * their scheduler's name).
 */
#ifdef TEMPO_HAVE_FENCE_SIGNAL_DETACHES_OPS
#define TEMPO_FENCE_OUTLIVES_MODULE	1
#else
#define TEMPO_FENCE_OUTLIVES_MODULE	0
#endif

/* Whether @fence still has its ops: a signalled one may have lost them. */
static inline bool tempo_compat_fence_has_ops(struct dma_fence *fence)
{
#ifdef TEMPO_HAVE_FENCE_SIGNAL_DETACHES_OPS
	return rcu_access_pointer(fence->ops);
#else
	return fence->ops;
#endif
}

/*
 * Every job the scheduler holds, which must be stopped (drm_sched_stop());
 * kernels without the iterator have the list only.
 */
#ifdef drm_sched_for_each_pending_job
#define tempo_for_each_pending_job(job, sched) \
	drm_sched_for_each_pending_job(job, sched, NULL)
#else
#define tempo_for_each_pending_job(job, sched) \
	list_for_each_entry(job, &(sched)->pending_list, list)
#endif

/*
 * The pid of the process that last used @file, in the caller's pid
 * namespace: an RCU-protected pointer where DRM updates it
 * (drm_file_update_pid()), else the opener's, set once.
 */
static inline pid_t tempo_compat_file_pid(struct drm_file *file)
{
#if defined(TEMPO_HAVE_FILE_UPDATE_PID)
	pid_t pid;

	rcu_read_lock();
	pid = pid_vnr(rcu_dereference(file->pid));
	rcu_read_unlock();
	return pid;
#else
	return pid_vnr(file->pid);
#endif
}

/*
 * drm_sched's id of @job, which its trace events print on kernels that
 * have it; 0 on the others, whose events print the finished fence.
 */
static inline u64 tempo_compat_sched_job_id(const struct drm_sched_job *job)
{
#if defined(TEMPO_HAVE_SCHED_JOB_ID)
	return job->id;
#else
	return 0;
#endif
}

/*
 * How many jobs each HQD's scheduler hands to its ring by default
 * (hw_submission). Where drm_sched's entity kill leaks a fence reference
 * for every job it drops (compat/sched_fence_finished_1.c), jobs must
 * reach the ring before their entity ends, or the module never unloads:
 * there, the whole ring.
 */
#ifdef TEMPO_HAVE_SCHED_FENCE_FINISHED_1
#define TEMPO_COMPAT_HW_SUBMISSION	TEMPO_RING_SIZE
#else
#define TEMPO_COMPAT_HW_SUBMISSION	2
#endif

/*
 * The unbound system workqueue under its mainline name; older kernels
 * call it system_unbound_wq.
 */
#ifndef TEMPO_HAVE_WORKQUEUE_DFL_WQ
#define system_dfl_wq	system_unbound_wq
#endif

/* Map a GEM object into the kernel, taking its reservation lock if needed. */
static inline int tempo_compat_gem_vmap(struct drm_gem_object *obj,
					struct iosys_map *map)
{
#if defined(TEMPO_HAVE_GEM_VMAP_UNLOCKED)
	return drm_gem_vmap_unlocked(obj, map);
#elif defined(TEMPO_HAVE_GEM_VMAP)
	return drm_gem_vmap(obj, map);
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
#if defined(TEMPO_HAVE_GEM_VMAP_UNLOCKED)
	drm_gem_vunmap_unlocked(obj, map);
#elif defined(TEMPO_HAVE_GEM_VMAP)
	drm_gem_vunmap(obj, map);
#else
	obj->funcs->vunmap(obj, map);
	iosys_map_clear(map);
#endif
}

#ifdef TEMPO_HAVE_SCHED_PRIORITY_LOW
#define TEMPO_SCHED_PRIORITY_LOW	DRM_SCHED_PRIORITY_LOW
#else
#define TEMPO_SCHED_PRIORITY_LOW	DRM_SCHED_PRIORITY_MIN
#endif

static inline int
tempo_compat_sched_init(struct drm_gpu_scheduler *sched,
			const struct drm_sched_backend_ops *ops, u32 credits,
			long timeout, const char *name, struct device *dev)
{
#if defined(TEMPO_HAVE_SCHED_INIT_ARGS)
	const struct drm_sched_init_args args = {
		.ops = ops,
#ifdef TEMPO_HAVE_SCHED_INIT_ARGS_NUM_RQS
		.num_rqs = DRM_SCHED_PRIORITY_COUNT,
#endif
		.credit_limit = credits,
		.timeout = timeout,
		.name = name,
		.dev = dev,
	};

	return drm_sched_init(sched, &args);
#elif defined(TEMPO_HAVE_SCHED_INIT_11)
	return drm_sched_init(sched, ops, NULL, DRM_SCHED_PRIORITY_COUNT,
			      credits, 0, timeout, NULL, NULL, name, dev);
#else
	return drm_sched_init(sched, ops, credits, 0, timeout, NULL, NULL,
			      name, dev);
#endif
}

static inline int
tempo_compat_job_init(struct drm_sched_job *job,
		      struct drm_sched_entity *entity, void *owner,
		      u64 client_id)
{
#if defined(TEMPO_HAVE_JOB_INIT_CLIENT_ID)
	return drm_sched_job_init(job, entity, 1, owner, client_id);
#elif defined(TEMPO_HAVE_JOB_INIT_CREDITS)
	return drm_sched_job_init(job, entity, 1, owner);
#else
	return drm_sched_job_init(job, entity, owner);
#endif
}

static inline void tempo_compat_sched_start(struct drm_gpu_scheduler *sched)
{
#if defined(TEMPO_HAVE_SCHED_START_1)
	drm_sched_start(sched);
#elif defined(TEMPO_HAVE_SCHED_START_ERRNO)
	drm_sched_start(sched, 0); /* no job to cancel */
#else
	drm_sched_start(sched, true);
#endif
}

/*
 * Stop the scheduler taking jobs off its entities, and start it again.
 * Kernels without it (6.1) keep run queues as lists, from which a
 * scheduler never puts back an entity that drm_sched_entity_fini() took
 * off (tempo_sched_entity_fini()): they need not stop.
 */
static inline void
tempo_compat_sched_stop_submission(struct drm_gpu_scheduler *sched)
{
#ifdef TEMPO_HAVE_SCHED_WQUEUE_STOP
	drm_sched_wqueue_stop(sched);
#endif
}

static inline void
tempo_compat_sched_start_submission(struct drm_gpu_scheduler *sched)
{
#ifdef TEMPO_HAVE_SCHED_WQUEUE_STOP
	drm_sched_wqueue_start(sched);
#endif
}

#endif /* _TEMPO_COMPAT_H_ */
