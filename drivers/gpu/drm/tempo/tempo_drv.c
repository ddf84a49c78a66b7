// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The tempo authors
 */

/**
 * DOC: tempo overview
 *
 * tempo drives a GPU that is emulated in software inside this module, so
 * that GPU scheduling can be developed, tested and measured on any Linux
 * machine. The driver is split the way a driver for real hardware is:
 *
 * - tempo_drv.c registers a DRM render device with no hardware behind it
 *   (a platform device, as vgem does) and holds the ioctl table;
 * - tempo_gem.c and tempo_vm.c manage shmem buffer objects and each file's
 *   GPU virtual address space;
 * - tempo_ctx.c manages contexts: a priority and an engine map of slots,
 *   each slot a drm_sched entity;
 * - tempo_submit.c turns an exec ioctl into a job;
 * - tempo_sched.c runs one drm_sched scheduler per hardware queue (HQD);
 *   its run_job writes the job into the HQD ring, rings the doorbell and
 *   returns the hardware fence, nothing more;
 * - hw/ is the emulated GPU (MQD/HQD model, command processors, compute
 *   units), reached only through hw/tempo_hw.h. A backend for a real GPU
 *   would replace hw/ and keep everything else.
 */

#include <linux/dma-mapping.h>
#include <linux/file.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/sched/prio.h>
#include <linux/stringify.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_prime.h>
#include <drm/tempo_drm.h>

#include "hw/tempo_hw.h"
#include "tempo_drv.h"

#define CREATE_TRACE_POINTS
#include "tempo_trace.h"

#define DRIVER_NAME	"tempo"
#define DRIVER_DESC	"GPU scheduling testbed on an emulated GPU"
/*
 * tempo's version, MAJOR.MINOR.PATCH of the top-level VERSION, which Kbuild
 * passes: the module's and the DRM driver's (DRM_IOCTL_VERSION) are one.
 */
#define DRIVER_MAJOR		TEMPO_VERSION_MAJOR
#define DRIVER_MINOR		TEMPO_VERSION_MINOR
#define DRIVER_PATCHLEVEL	TEMPO_VERSION_PATCH
#define TEMPO_VERSION		__stringify(TEMPO_VERSION_MAJOR) "." \
				__stringify(TEMPO_VERSION_MINOR) "." \
				__stringify(TEMPO_VERSION_PATCH)

/* Defaults of the module parameters, as plain numbers. */
#define TEMPO_DEF_GFX_ENGINES		1
#define TEMPO_DEF_COMPUTE_ENGINES	4
#define TEMPO_DEF_COPY_ENGINES		2
#define TEMPO_DEF_COMPUTE_QUEUES	4
#define TEMPO_DEF_QUEUES		2
#define TEMPO_DEF_CUS			8
#define TEMPO_DEF_JOB_TIMEOUT_MS	2000
#define TEMPO_DEF_CU_RESERVED		2
#define TEMPO_DEF_STARVE_MS		100
#define TEMPO_DEF_MAX_CONTEXTS		1024
#define TEMPO_DEF_MAX_MAPPINGS		65536
#define TEMPO_DEF_MAX_JOBS		4096
#define TEMPO_DEF_MAX_BOS		4096
#define TEMPO_DEF_MAX_BO_MIB		8192
#define TEMPO_DEF_USER_MAX_BOS		16384
#define TEMPO_DEF_USER_MAX_BO_MIB	16384
#define TEMPO_DEF_HW_NICE		10
#define TEMPO_DEF_INHERIT_MS		10
/*
 * Where drm_sched's entity kill leaks (TEMPO_COMPAT_ENTITY_KILL_LEAKS),
 * jobs must reach the ring before their entity ends: the whole ring.
 */
#ifdef TEMPO_COMPAT_ENTITY_KILL_LEAKS
#define TEMPO_DEF_HW_SUBMISSION		TEMPO_RING_SIZE
#else
#define TEMPO_DEF_HW_SUBMISSION		2
#endif

/* " (LO-HI, default DEF)", for MODULE_PARM_DESC(). */
#define TEMPO_RANGE(lo, hi, def) \
	" (" __stringify(lo) "-" __stringify(hi) ", default " __stringify(def) ")"

struct tempo_params tempo_params = {
	.gfx_engines = TEMPO_DEF_GFX_ENGINES,
	.compute_engines = TEMPO_DEF_COMPUTE_ENGINES,
	.copy_engines = TEMPO_DEF_COPY_ENGINES,
	.compute_queues = TEMPO_DEF_COMPUTE_QUEUES,
	.queues = TEMPO_DEF_QUEUES,
	.cus = TEMPO_DEF_CUS,
	.job_timeout_ms = TEMPO_DEF_JOB_TIMEOUT_MS,
	.hqd_policy = TEMPO_HQD_STATIC,
	.cu_reserved = TEMPO_DEF_CU_RESERVED,
	.cu_by_priority = true,
	.starve_ms = TEMPO_DEF_STARVE_MS,
	.max_contexts = TEMPO_DEF_MAX_CONTEXTS,
	.max_mappings = TEMPO_DEF_MAX_MAPPINGS,
	.max_jobs = TEMPO_DEF_MAX_JOBS,
	.max_bos = TEMPO_DEF_MAX_BOS,
	.max_bo_mib = TEMPO_DEF_MAX_BO_MIB,
	.user_max_bos = TEMPO_DEF_USER_MAX_BOS,
	.user_max_bo_mib = TEMPO_DEF_USER_MAX_BO_MIB,
	.hw_nice = TEMPO_DEF_HW_NICE,
	.master_priority = false,
	.floor = false,
	.run_in_place = false,
	.inherit_ms = TEMPO_DEF_INHERIT_MS,
	.hw_submission = TEMPO_DEF_HW_SUBMISSION,
};

module_param_named(gfx_engines, tempo_params.gfx_engines, uint, 0444);
MODULE_PARM_DESC(gfx_engines, "GFX engines"
		 TEMPO_RANGE(0, TEMPO_PARAM_ENGINES_MAX, TEMPO_DEF_GFX_ENGINES));
module_param_named(compute_engines, tempo_params.compute_engines, uint, 0444);
MODULE_PARM_DESC(compute_engines, "COMPUTE engines"
		 TEMPO_RANGE(0, TEMPO_PARAM_ENGINES_MAX, TEMPO_DEF_COMPUTE_ENGINES));
module_param_named(copy_engines, tempo_params.copy_engines, uint, 0444);
MODULE_PARM_DESC(copy_engines, "COPY engines"
		 TEMPO_RANGE(0, TEMPO_PARAM_ENGINES_MAX, TEMPO_DEF_COPY_ENGINES));
module_param_named(compute_queues, tempo_params.compute_queues, uint, 0444);
MODULE_PARM_DESC(compute_queues, "hardware queues per COMPUTE engine"
		 TEMPO_RANGE(1, TEMPO_MAX_QUEUES, TEMPO_DEF_COMPUTE_QUEUES));
module_param_named(queues, tempo_params.queues, uint, 0444);
MODULE_PARM_DESC(queues, "hardware queues per GFX or COPY engine"
		 TEMPO_RANGE(1, TEMPO_MAX_QUEUES, TEMPO_DEF_QUEUES));
module_param_named(cus, tempo_params.cus, uint, 0444);
MODULE_PARM_DESC(cus, "compute units"
		 TEMPO_RANGE(1, TEMPO_PARAM_CUS_MAX, TEMPO_DEF_CUS));
module_param_named(job_timeout_ms, tempo_params.job_timeout_ms, uint, 0444);
MODULE_PARM_DESC(job_timeout_ms, "a job whose running time (GPU time) reaches it fails with -ETIMEDOUT"
		 TEMPO_RANGE(TEMPO_PARAM_TIMEOUT_MS_MIN, TEMPO_PARAM_TIMEOUT_MS_MAX,
			     TEMPO_DEF_JOB_TIMEOUT_MS));
module_param_named(hw_submission, tempo_params.hw_submission, uint, 0444);
MODULE_PARM_DESC(hw_submission, "jobs each hardware queue's scheduler may have in its ring at once; the others wait in priority order"
		 TEMPO_RANGE(1, TEMPO_RING_SIZE, TEMPO_DEF_HW_SUBMISSION));
module_param_named(hqd_policy, tempo_params.hqd_policy, uint, 0444);
MODULE_PARM_DESC(hqd_policy, "HQD priorities: 0 static partition (one high-priority HQD per engine), 1 dynamic reprogramming (default 0)");
module_param_named(cu_reserved, tempo_params.cu_reserved, uint, 0444);
MODULE_PARM_DESC(cu_reserved, "CUs kept for high-priority queues while one has work, below cus (default "
		 __stringify(TEMPO_DEF_CU_RESERVED) ")");
module_param_named(cu_by_priority, tempo_params.cu_by_priority, bool, 0444);
MODULE_PARM_DESC(cu_by_priority, "CU sequencer takes workgroups by queue priority; 0 picks at random (default 1)");
module_param_named(starve_ms, tempo_params.starve_ms, uint, 0444);
MODULE_PARM_DESC(starve_ms, "a hardware queue waiting with work longer than this runs next"
		 TEMPO_RANGE(1, TEMPO_PARAM_STARVE_MS_MAX, TEMPO_DEF_STARVE_MS));
module_param_named(max_contexts, tempo_params.max_contexts, uint, 0444);
MODULE_PARM_DESC(max_contexts, "contexts per file"
		 TEMPO_RANGE(1, TEMPO_PARAM_CONTEXTS_MAX, TEMPO_DEF_MAX_CONTEXTS));
module_param_named(max_mappings, tempo_params.max_mappings, uint, 0444);
MODULE_PARM_DESC(max_mappings, "GPU mappings per file"
		 TEMPO_RANGE(1, TEMPO_PARAM_MAPPINGS_MAX, TEMPO_DEF_MAX_MAPPINGS));
/*
 * The ops of a limit root may change at run time: an unsigned int from 1
 * to @max; a value outside that range is refused.
 */
#define TEMPO_LIMIT_OPS(name, max)					\
static int name##_set(const char *val, const struct kernel_param *kp)	\
{									\
	return param_set_uint_minmax(val, kp, 1, max);			\
}									\
static const struct kernel_param_ops name##_ops = {			\
	.set = name##_set,						\
	.get = param_get_uint,						\
}

TEMPO_LIMIT_OPS(jobs, TEMPO_PARAM_JOBS_MAX);
TEMPO_LIMIT_OPS(bos, TEMPO_PARAM_BOS_MAX);

module_param_cb(max_jobs, &jobs_ops, &tempo_params.max_jobs, 0644);
__MODULE_PARM_TYPE(max_jobs, "uint");
MODULE_PARM_DESC(max_jobs, "jobs in flight per file, root may change it at run time; EXEC fails with -EAGAIN beyond"
		 TEMPO_RANGE(1, TEMPO_PARAM_JOBS_MAX, TEMPO_DEF_MAX_JOBS));
module_param_cb(max_bos, &bos_ops, &tempo_params.max_bos, 0644);
__MODULE_PARM_TYPE(max_bos, "uint");
MODULE_PARM_DESC(max_bos, "buffers per file, root may change it at run time; creating one more fails with -ENOSPC"
		 TEMPO_RANGE(1, TEMPO_PARAM_BOS_MAX, TEMPO_DEF_MAX_BOS));
module_param_named(max_bo_mib, tempo_params.max_bo_mib, uint, 0444);
MODULE_PARM_DESC(max_bo_mib, "MiB of buffers per file; creating one more fails with -ENOSPC"
		 TEMPO_RANGE(1, TEMPO_PARAM_BO_MIB_MAX, TEMPO_DEF_MAX_BO_MIB));
module_param_cb(user_max_bos, &bos_ops, &tempo_params.user_max_bos, 0644);
__MODULE_PARM_TYPE(user_max_bos, "uint");
MODULE_PARM_DESC(user_max_bos, "buffers of all the files one user opened, root may change it at run time"
		 TEMPO_RANGE(1, TEMPO_PARAM_BOS_MAX, TEMPO_DEF_USER_MAX_BOS));
module_param_named(user_max_bo_mib, tempo_params.user_max_bo_mib, uint, 0444);
MODULE_PARM_DESC(user_max_bo_mib, "MiB of buffers of all the files one user opened"
		 TEMPO_RANGE(1, TEMPO_PARAM_BO_MIB_MAX, TEMPO_DEF_USER_MAX_BO_MIB));
module_param_named(max_resident_mib, tempo_params.max_resident_mib, uint, 0644);
MODULE_PARM_DESC(max_resident_mib, "root may change it at run time: MiB of buffers with pages (from their first mapping until freed), all users; a first VM_MAP or mmap fails with -ENOMEM beyond (default 0: half of the RAM)");
module_param_named(user_resident_mib, tempo_params.user_resident_mib, uint, 0644);
MODULE_PARM_DESC(user_resident_mib, "root may change it at run time: MiB of buffers with pages of one user's files, at most max_resident_mib (default 0: half of max_resident_mib)");
module_param_named(hw_nice, tempo_params.hw_nice, int, 0444);
MODULE_PARM_DESC(hw_nice, "nice level of the emulated GPU's command processors and of high-priority workgroups; its compute units run 9 lower otherwise, at most 19"
		 TEMPO_RANGE(-20, 19, TEMPO_DEF_HW_NICE));
module_param_named(master_priority, tempo_params.master_priority, bool, 0444);
MODULE_PARM_DESC(master_priority, "a DRM master may raise priorities and use SCHED, as on a device a display server drives (default 0: CAP_SYS_NICE only)");
/* Benchmark switches, not settings: setting one taints the kernel. */
module_param_named_unsafe(floor, tempo_params.floor, bool, 0600);
MODULE_PARM_DESC(floor, "benchmark switch, root may change it at run time, taints the kernel: jobs end at once without running, as on a bare drm_sched driver (default 0)");
module_param_named_unsafe(run_in_place, tempo_params.run_in_place, bool, 0600);
MODULE_PARM_DESC(run_in_place, "benchmark switch, root may change it at run time, taints the kernel: run_job runs an idle engine's command processor itself, for up to 1 ms, instead of waking its thread (default 0)");
module_param_named(inherit_ms, tempo_params.inherit_ms, uint, 0600);
MODULE_PARM_DESC(inherit_ms, "root may change it at run time: running time of its hardware queue after which a priority loan (EXEC's INHERIT_PRIORITY) ends; 0 lends nothing"
		 TEMPO_RANGE(0, TEMPO_PARAM_INHERIT_MS_MAX, TEMPO_DEF_INHERIT_MS));

static struct platform_device *tempo_pdev;

/**
 * tempo_class_name() - the name of an engine class, as fdinfo prints it
 * @engine_class: &enum drm_tempo_engine_class
 *
 * Context: any.
 * Return: "gfx", "compute", "copy", or "?" for another value.
 */
const char *tempo_class_name(u32 engine_class)
{
	static const char *const names[TEMPO_NUM_CLASSES] = {
		[DRM_TEMPO_ENGINE_CLASS_GFX] = "gfx",
		[DRM_TEMPO_ENGINE_CLASS_COMPUTE] = "compute",
		[DRM_TEMPO_ENGINE_CLASS_COPY] = "copy",
	};

	return engine_class < TEMPO_NUM_CLASSES ? names[engine_class] : "?";
}

static u64 client_id(struct drm_file *file)
{
#ifdef TEMPO_COMPAT_LEGACY_FDINFO
	static atomic64_t last_id;

	return atomic64_inc_return(&last_id);
#else
	return file->client_id;
#endif
}

static int tempo_open(struct drm_device *dev, struct drm_file *file)
{
	struct tempo_file *tfile;

	tfile = kzalloc(sizeof(*tfile), GFP_KERNEL_ACCOUNT);
	if (!tfile)
		return -ENOMEM;
	tfile->vm = tempo_vm_create();
	if (!tfile->vm)
		goto err_free;
	tfile->usage = tempo_usage_create();
	if (!tfile->usage)
		goto err_vm;
	tfile->user = tempo_user_get(to_tempo_device(dev));
	if (IS_ERR(tfile->user))
		goto err_usage;
	tfile->tdev = to_tempo_device(dev);
	tfile->priority_override = DRM_TEMPO_PRIORITY_UNSET;
	tfile->client_id = client_id(file);
	mutex_init(&tfile->lock);
	xa_init_flags(&tfile->contexts, XA_FLAGS_ALLOC1);
	file->driver_priv = tfile;
	return 0;

err_usage:
	tempo_usage_put(tfile->usage);
err_vm:
	tempo_vm_put(tfile->vm);
err_free:
	kfree(tfile);
	return -ENOMEM;
}

static void tempo_postclose(struct drm_device *dev, struct drm_file *file)
{
	struct tempo_file *tfile = to_tempo_file(file);

	tempo_ctx_destroy_all(tfile);
	xa_destroy(&tfile->contexts);
	tempo_vm_put(tfile->vm);
	tempo_usage_put(tfile->usage);
	tempo_user_put(tfile->user);
	mutex_destroy(&tfile->lock);
	kfree(tfile);
}

static const struct drm_ioctl_desc tempo_ioctls[] = {
	DRM_IOCTL_DEF_DRV(TEMPO_QUERY, tempo_ioctl_query, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(TEMPO_BO_CREATE, tempo_ioctl_bo_create,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(TEMPO_BO_MMAP_OFFSET, tempo_ioctl_bo_mmap_offset,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(TEMPO_VM_MAP, tempo_ioctl_vm_map, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(TEMPO_VM_UNMAP, tempo_ioctl_vm_unmap,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(TEMPO_CTX_CREATE, tempo_ioctl_ctx_create,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(TEMPO_CTX_DESTROY, tempo_ioctl_ctx_destroy,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(TEMPO_CTX_GET_PARAM, tempo_ioctl_ctx_get_param,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(TEMPO_CTX_SET_PARAM, tempo_ioctl_ctx_set_param,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(TEMPO_EXEC, tempo_ioctl_exec, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(TEMPO_SCHED, tempo_ioctl_sched, DRM_RENDER_ALLOW),
};

/*
 * The &drm_ioctl_desc of tempo's ioctl @cmd, or NULL for DRM's own (and
 * for numbers no ioctl has).
 */
static const struct drm_ioctl_desc *tempo_ioctl_desc(unsigned int cmd)
{
	unsigned int nr = _IOC_NR(cmd);

	if (nr < DRM_COMMAND_BASE ||
	    nr >= DRM_COMMAND_BASE + ARRAY_SIZE(tempo_ioctls) ||
	    !tempo_ioctls[nr - DRM_COMMAND_BASE].name)
		return NULL;
	return &tempo_ioctls[nr - DRM_COMMAND_BASE];
}

/*
 * Every ioctl of the driver, traced at its entry and with its result
 * (tempo_ioctl, tempo_ioctl_done); DRM's own go through untraced.
 */
static long tempo_trace_ioctl(struct file *filp, unsigned int cmd,
			      unsigned long arg,
			      long (*ioctl)(struct file *, unsigned int,
					    unsigned long))
{
	const struct drm_ioctl_desc *desc = tempo_ioctl_desc(cmd);
	struct drm_file *file = filp->private_data;
	u64 client = to_tempo_file(file)->client_id;
	unsigned int nr = _IOC_NR(cmd) - DRM_COMMAND_BASE;
	long ret;

	if (!desc)
		return ioctl(filp, cmd, arg);
	/* The entry's name, "TEMPO_QUERY": "QUERY" */
	trace_tempo_ioctl(client, nr, desc->name + strlen("TEMPO_"));
	ret = ioctl(filp, cmd, arg);
	trace_tempo_ioctl_done(client, nr, ret);
	return ret;
}

static long tempo_drm_ioctl(struct file *filp, unsigned int cmd,
			    unsigned long arg)
{
	return tempo_trace_ioctl(filp, cmd, arg, drm_ioctl);
}

#ifdef CONFIG_COMPAT
static long tempo_drm_compat_ioctl(struct file *filp, unsigned int cmd,
				   unsigned long arg)
{
	return tempo_trace_ioctl(filp, cmd, arg, drm_compat_ioctl);
}
#endif

/* DRM_GEM_FOPS, but for the traced ioctls. */
const struct file_operations tempo_fops = {
	.owner = THIS_MODULE,
	.open = drm_open,
	.release = drm_release,
	.unlocked_ioctl = tempo_drm_ioctl,
#ifdef CONFIG_COMPAT
	.compat_ioctl = tempo_drm_compat_ioctl,
#endif
	.poll = drm_poll,
	.read = drm_read,
	.llseek = noop_llseek,
	.get_unmapped_area = drm_gem_get_unmapped_area,
	.mmap = drm_gem_mmap,
#ifndef TEMPO_COMPAT_NO_FOP_FLAGS
	.fop_flags = FOP_UNSIGNED_OFFSET,
#endif
	.show_fdinfo = drm_show_fdinfo,
};

static const struct drm_driver tempo_driver = {
	.driver_features = DRIVER_GEM | DRIVER_RENDER | DRIVER_SYNCOBJ |
			   DRIVER_SYNCOBJ_TIMELINE,
	.open = tempo_open,
	.postclose = tempo_postclose,
#ifndef TEMPO_COMPAT_LEGACY_FDINFO
	.show_fdinfo = tempo_show_fdinfo,
#endif
	.ioctls = tempo_ioctls,
	.num_ioctls = ARRAY_SIZE(tempo_ioctls),
	.fops = &tempo_fops,
	/* DRM_GEM_SHMEM_DRIVER_OPS, with tempo's size limit on dumb buffers */
	.gem_prime_import_sg_table = tempo_gem_prime_import_sg_table,
	.dumb_create = tempo_gem_dumb_create,
	.gem_create_object = tempo_gem_create_object,
	.name = DRIVER_NAME,
	.desc = DRIVER_DESC,
	.major = DRIVER_MAJOR,
	.minor = DRIVER_MINOR,
	.patchlevel = DRIVER_PATCHLEVEL,
#ifdef TEMPO_COMPAT_DRM_DRIVER
	TEMPO_COMPAT_DRM_DRIVER
#endif
};

static bool params_valid(const struct tempo_params *p)
{
	return p->gfx_engines <= TEMPO_PARAM_ENGINES_MAX &&
	       p->compute_engines <= TEMPO_PARAM_ENGINES_MAX &&
	       p->copy_engines <= TEMPO_PARAM_ENGINES_MAX &&
	       p->gfx_engines + p->compute_engines + p->copy_engines > 0 &&
	       p->compute_queues >= 1 && p->compute_queues <= TEMPO_MAX_QUEUES &&
	       p->queues >= 1 && p->queues <= TEMPO_MAX_QUEUES &&
	       p->cus >= 1 && p->cus <= TEMPO_PARAM_CUS_MAX &&
	       p->job_timeout_ms >= TEMPO_PARAM_TIMEOUT_MS_MIN &&
	       p->job_timeout_ms <= TEMPO_PARAM_TIMEOUT_MS_MAX &&
	       p->hw_submission >= 1 && p->hw_submission <= TEMPO_RING_SIZE &&
	       p->hqd_policy <= TEMPO_HQD_DYNAMIC && p->cu_reserved < p->cus &&
	       p->starve_ms >= 1 && p->starve_ms <= TEMPO_PARAM_STARVE_MS_MAX &&
	       p->max_contexts >= 1 &&
	       p->max_contexts <= TEMPO_PARAM_CONTEXTS_MAX &&
	       p->max_mappings >= 1 &&
	       p->max_mappings <= TEMPO_PARAM_MAPPINGS_MAX &&
	       p->max_jobs >= 1 && p->max_jobs <= TEMPO_PARAM_JOBS_MAX &&
	       p->max_bos >= 1 && p->max_bos <= TEMPO_PARAM_BOS_MAX &&
	       p->max_bo_mib >= 1 && p->max_bo_mib <= TEMPO_PARAM_BO_MIB_MAX &&
	       p->user_max_bos >= 1 && p->user_max_bos <= TEMPO_PARAM_BOS_MAX &&
	       p->user_max_bo_mib >= 1 &&
	       p->user_max_bo_mib <= TEMPO_PARAM_BO_MIB_MAX &&
	       p->hw_nice >= MIN_NICE && p->hw_nice <= MAX_NICE;
}

static struct tempo_hw *tempo_hw_from_params(struct device *dev)
{
	const struct tempo_params *p = &tempo_params;
	struct tempo_hw_config config = {
		.engines = {
			[TEMPO_HW_CLASS_GFX] = p->gfx_engines,
			[TEMPO_HW_CLASS_COMPUTE] = p->compute_engines,
			[TEMPO_HW_CLASS_COPY] = p->copy_engines,
		},
		/* Classes with parallel slots have HQDs for gangs too. */
		.queues = {
			[TEMPO_HW_CLASS_GFX] = p->queues,
			[TEMPO_HW_CLASS_COMPUTE] = p->compute_queues + TEMPO_GANG_HQDS,
			[TEMPO_HW_CLASS_COPY] = p->queues + TEMPO_GANG_HQDS,
		},
		.num_cus = p->cus,
		.ring_size = TEMPO_RING_SIZE,
		.cu_reserved = p->cu_reserved,
		.cu_by_priority = p->cu_by_priority,
		.starve_ns = (u64)p->starve_ms * NSEC_PER_MSEC,
		.hang_ns = (u64)p->job_timeout_ms * NSEC_PER_MSEC,
		.nice = p->hw_nice,
	};

	return tempo_hw_create(dev, &config);
}

static int tempo_device_init(struct device *dev)
{
	struct tempo_device *tdev;
	int ret;

	tdev = devm_drm_dev_alloc(dev, &tempo_driver, struct tempo_device,
				  drm);
	if (IS_ERR(tdev))
		return PTR_ERR(tdev);
	tdev->job_timeout_ms = tempo_params.job_timeout_ms;
	tdev->hqd_policy = tempo_params.hqd_policy;
	mutex_init(&tdev->users_lock);
	xa_init(&tdev->users);
	tdev->hw = tempo_hw_from_params(dev);
	if (IS_ERR(tdev->hw))
		return PTR_ERR(tdev->hw);
	ret = tempo_sched_init(tdev);
	if (ret)
		goto err_hw;
	tempo_debugfs_init(tdev);
	ret = drm_dev_register(&tdev->drm, 0);
	if (ret)
		goto err_sched;
	platform_set_drvdata(to_platform_device(dev), tdev);
	return 0;

err_sched:
	tempo_sched_fini(tdev);
err_hw:
	tempo_hw_destroy(tdev->hw);
	return ret;
}

static void tempo_device_fini(struct tempo_device *tdev)
{
	drm_dev_unplug(&tdev->drm);
	tempo_hw_stop(tdev->hw);
	tempo_sched_fini(tdev);
	tempo_job_wait_all_freed(tdev);
	tempo_hw_wait_fences_freed(tdev->hw);
	tempo_hw_destroy(tdev->hw);
}

static int __init tempo_init(void)
{
	int ret;

	if (!params_valid(&tempo_params)) {
		pr_err("tempo: invalid module parameters\n");
		return -EINVAL;
	}
	tempo_pdev = platform_device_register_simple(DRIVER_NAME, -1, NULL, 0);
	if (IS_ERR(tempo_pdev))
		return PTR_ERR(tempo_pdev);
	if (!devres_open_group(&tempo_pdev->dev, NULL, GFP_KERNEL)) {
		ret = -ENOMEM;
		goto err_unregister;
	}
	ret = dma_coerce_mask_and_coherent(&tempo_pdev->dev, DMA_BIT_MASK(64));
	if (ret)
		goto err_devres;
	ret = tempo_device_init(&tempo_pdev->dev);
	if (ret)
		goto err_devres;
	return 0;

err_devres:
	devres_release_group(&tempo_pdev->dev, NULL);
err_unregister:
	platform_device_unregister(tempo_pdev);
	return ret;
}

static void __exit tempo_exit(void)
{
	tempo_device_fini(platform_get_drvdata(tempo_pdev));
	devres_release_group(&tempo_pdev->dev, NULL);
	platform_device_unregister(tempo_pdev);
}

module_init(tempo_init);
module_exit(tempo_exit);

MODULE_AUTHOR("The tempo authors");
MODULE_DESCRIPTION(DRIVER_DESC);
MODULE_LICENSE("GPL");
MODULE_VERSION(TEMPO_VERSION);
