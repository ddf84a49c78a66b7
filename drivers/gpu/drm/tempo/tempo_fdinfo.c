// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The tempo authors
 */

/**
 * DOC: Client usage statistics
 *
 * The fdinfo of a tempo file (/proc/PID/fdinfo/FD) carries the keys of
 * Documentation/gpu/drm-usage-stats.rst:
 *
 * - drm-driver, drm-client-id: from the DRM core;
 * - drm-engine-<class>: nanoseconds of GPU time the class's engines (gfx,
 *   compute, copy) spent running the file's jobs, the runs in progress
 *   included as the hardware last published them: a job's running time
 *   (its packets, its workgroups, its modelled waits on memory), not the
 *   time it waits in its HQD's ring, is preempted or waits for compute
 *   units held by others, nor the time the emulation's threads waited for
 *   a host CPU. An engine runs one job at a time and GPU time runs no
 *   faster than the host's clock, so the count grows at most by the wall
 *   time times the class's capacity; each member of a gang counts on its
 *   own engine. A reader never sees it go backwards.
 * - drm-engine-capacity-<class>: how many engines the class has;
 * - tempo-cpu-<class>, a key of tempo's own: nanoseconds of host CPU
 *   time the emulated hardware (command processors and compute units)
 *   spent on the file's ended jobs on engines of the class: the emulated
 *   GPU runs on the host's CPUs, in kernel threads outside the file's
 *   cgroup. Not drm-cycles-<class>: readers take drm-cycles over
 *   drm-total-cycles as the engines' utilization, which this is not;
 * - drm-total-memory, drm-shared-memory, drm-active-memory,
 *   drm-resident-memory: the file's buffers; a buffer is resident once its
 *   pages were allocated, active when it is private to the file's address
 *   space and a job of the file is in flight (its reservation object
 *   holds the job fences, tempo_vm.c);
 * - tempo-buffers, tempo-buffer-memory, tempo-resident-memory, keys of
 *   tempo's own: the buffers the file created that are not yet freed,
 *   wherever their handles are (its budget, tempo_budget.c), their bytes,
 *   and the bytes of those whose pages were allocated (by a mapping of
 *   any file or process, until freed). Not
 *   the drm-*-memory keys, which count the buffers the file has handles
 *   to, whoever created them.
 *
 * Kernels before DRM printed the common keys itself (6.1) get the same
 * keys from the driver's own file_operations.show_fdinfo.
 *
 * The counts live in a &struct tempo_usage referenced by the file and by
 * its contexts, so jobs that end after the file was closed do not touch
 * freed memory. The driver keeps them, not the hardware: a job's GPU and
 * CPU time are added when the hardware reports its end, from what the
 * hardware reports of the job (tempo_job_account()), and the runs in
 * progress are read from the file's jobs on the hardware, as the
 * hardware last published them (tempo_hw_job_run_ns()).
 */

#include <linux/seq_file.h>
#include <linux/slab.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_print.h>
#include <drm/tempo_drm.h>

#include "tempo_drv.h"

/**
 * tempo_usage_create() - allocate a file's usage counters
 *
 * Context: process.
 * Return: the counters, or NULL.
 */
struct tempo_usage *tempo_usage_create(void)
{
	struct tempo_usage *usage = kzalloc(sizeof(*usage), GFP_KERNEL_ACCOUNT);

	if (!usage)
		return NULL;
	kref_init(&usage->refcount);
	spin_lock_init(&usage->lock);
	INIT_LIST_HEAD(&usage->running);
	return usage;
}

/**
 * tempo_usage_get() - reference usage counters
 * @usage: the counters
 *
 * Context: any.
 * Return: @usage.
 */
struct tempo_usage *tempo_usage_get(struct tempo_usage *usage)
{
	kref_get(&usage->refcount);
	return usage;
}

static void usage_release(struct kref *kref)
{
	kfree(container_of(kref, struct tempo_usage, refcount));
}

/**
 * tempo_usage_put() - drop a reference on usage counters
 * @usage: the counters, or NULL
 *
 * Context: any.
 */
void tempo_usage_put(struct tempo_usage *usage)
{
	if (usage)
		kref_put(&usage->refcount, usage_release);
}

/**
 * tempo_usage_add_cpu() - add an ended job's emulation time to its file
 * @usage: the file's counters
 * @engine_class: the class of the engine it ran on (of one gang member)
 * @cpu_ns: the host CPU time its emulation took
 *
 * Context: any.
 */
void tempo_usage_add_cpu(struct tempo_usage *usage, u32 engine_class,
			 u64 cpu_ns)
{
	if (engine_class < TEMPO_NUM_CLASSES)
		atomic64_add(cpu_ns, &usage->cpu_ns[engine_class]);
}

/* What the buffers the file created take of its budgets. */
static void show_budget(struct drm_printer *p, const struct tempo_budget *b)
{
	drm_printf(p, "tempo-buffers:\t%d\n", atomic_read(&b->bos));
	drm_fdinfo_print_size(p, "tempo", "buffer", "memory",
			      atomic64_read(&b->bytes));
	drm_fdinfo_print_size(p, "tempo", "resident", "memory",
			      atomic64_read(&b->resident));
}

/**
 * tempo_show_fdinfo() - the driver's keys in a file's fdinfo
 * @p: where to print
 * @file: the file
 *
 * Context: process.
 */
void tempo_show_fdinfo(struct drm_printer *p, struct drm_file *file)
{
	struct tempo_file *tfile = to_tempo_file(file);
	struct tempo_device *tdev = tfile->tdev;
	u32 engines[TEMPO_NUM_CLASSES] = { 0 };
	u32 c, i;

	for (i = 0; i < tdev->num_engines; i++)
		engines[tdev->engines[i].engine_class]++;
	for (c = 0; c < TEMPO_NUM_CLASSES; c++) {
		if (!engines[c])
			continue;
		drm_printf(p, "drm-engine-%s:\t%llu ns\n", tempo_class_name(c),
			   tempo_usage_busy_ns(tfile->usage, c));
		drm_printf(p, "drm-engine-capacity-%s:\t%u\n", tempo_class_name(c),
			   engines[c]);
		drm_printf(p, "tempo-cpu-%s:\t%llu ns\n", tempo_class_name(c),
			   (u64)atomic64_read(&tfile->usage->cpu_ns[c]));
	}
	drm_show_memory_stats(p, file);
	show_budget(p, &tfile->usage->budget);
}

#ifdef TEMPO_COMPAT_LEGACY_FDINFO
/**
 * tempo_compat_show_fdinfo() - the whole fdinfo, on kernels where DRM
 *	prints none of it
 * @m: the fdinfo file
 * @f: the DRM file
 *
 * Context: process.
 */
void tempo_compat_show_fdinfo(struct seq_file *m, struct file *f)
{
	struct drm_file *file = f->private_data;
	struct drm_device *dev = file->minor->dev;
	struct drm_printer p = drm_seq_file_printer(m);
	int idx;

	if (!drm_dev_enter(dev, &idx))
		return;
	drm_printf(&p, "drm-driver:\t%s\n", dev->driver->name);
	drm_printf(&p, "drm-client-id:\t%llu\n",
		   to_tempo_file(file)->client_id);
	tempo_show_fdinfo(&p, file);
	drm_dev_exit(idx);
}
#endif
