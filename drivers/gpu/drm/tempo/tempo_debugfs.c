// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The tempo authors
 */

/**
 * DOC: debugfs
 *
 * Under /sys/kernel/debug/dri/<minor>/:
 *
 * - ``hqds``: every hardware queue with its MQD: pipe and queue priority,
 *   active bit, whether its job runs now or was preempted, read and write
 *   pointers, jobs done, preemptions, and the nanoseconds its engine's
 *   command processor spent on it (the run in progress included);
 * - ``cus``: the compute units, how many are busy, how many are kept for
 *   high-priority queues, workgroups done;
 * - ``contexts``: every context of every open file: the file's client id
 *   (as in fdinfo) and process, the context id, its own and its effective
 *   priority, whether it is banned, and its jobs in flight (submitted, not
 *   yet freed).
 */

#include <linux/seq_file.h>

#include <drm/drm_debugfs.h>
#include <drm/drm_file.h>

#include "tempo_drv.h"

static struct drm_device *debugfs_drm(struct seq_file *m)
{
	return ((struct drm_debugfs_entry *)m->private)->dev;
}

static int hqds_show(struct seq_file *m, void *data)
{
	tempo_sched_show_hqds(to_tempo_device(debugfs_drm(m)), m);
	return 0;
}

static int cus_show(struct seq_file *m, void *data)
{
	tempo_sched_show_cus(to_tempo_device(debugfs_drm(m)), m);
	return 0;
}

/*
 * Jobs in flight: every job references its context's state, beside the
 * context, from its initialisation at exec to its free (one being pushed
 * at that moment included).
 */
static unsigned int ctx_jobs_in_flight(const struct tempo_ctx *ctx)
{
	return kref_read(&ctx->state->refcount) - 1;
}

static void file_contexts_show(struct seq_file *m, struct drm_file *file)
{
	struct tempo_file *tfile = to_tempo_file(file);
	struct tempo_ctx *ctx;
	unsigned long id;
	pid_t pid;

#ifdef TEMPO_COMPAT_FILE_PID_FIXED
	pid = pid_vnr(file->pid);
#else
	rcu_read_lock();
	pid = pid_vnr(rcu_dereference(file->pid));
	rcu_read_unlock();
#endif
	/* Held, the lock keeps CTX_DESTROY from dropping a context. */
	xa_lock(&tfile->contexts);
	xa_for_each(&tfile->contexts, id, ctx)
		seq_printf(m, "%llu %d %lu %d %d %d %u\n", tfile->client_id, pid,
			   id, READ_ONCE(ctx->priority), tempo_ctx_priority(ctx),
			   tempo_ctx_banned(ctx),
			   ctx_jobs_in_flight(ctx));
	xa_unlock(&tfile->contexts);
}

static int contexts_show(struct seq_file *m, void *data)
{
	struct drm_device *dev = debugfs_drm(m);
	struct drm_file *file;

	seq_puts(m, "client pid ctx priority effective banned in_flight\n");
	mutex_lock(&dev->filelist_mutex);
	list_for_each_entry(file, &dev->filelist, lhead)
		file_contexts_show(m, file);
	mutex_unlock(&dev->filelist_mutex);
	return 0;
}

static const struct drm_debugfs_info tempo_debugfs_list[] = {
	{ "hqds", hqds_show, 0 },
	{ "cus", cus_show, 0 },
	{ "contexts", contexts_show, 0 },
};

/**
 * tempo_debugfs_init() - register the debugfs files
 * @tdev: the device, before drm_dev_register()
 *
 * Context: process.
 */
void tempo_debugfs_init(struct tempo_device *tdev)
{
	drm_debugfs_add_files(&tdev->drm, tempo_debugfs_list,
			      ARRAY_SIZE(tempo_debugfs_list));
}
