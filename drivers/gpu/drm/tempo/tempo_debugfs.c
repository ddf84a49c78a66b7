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
 *   active bit, whether its job runs now, read and write pointers, jobs
 *   done;
 * - ``cus``: the compute units, how many are busy, workgroups done.
 */

#include <linux/seq_file.h>

#include <drm/drm_debugfs.h>
#include <drm/drm_file.h>

#include "tempo_drv.h"

static int hqds_show(struct seq_file *m, void *data)
{
	struct drm_debugfs_entry *entry = m->private;

	tempo_hw_debugfs_hqds(to_tempo_device(entry->dev)->hw, m);
	return 0;
}

static int cus_show(struct seq_file *m, void *data)
{
	struct drm_debugfs_entry *entry = m->private;

	tempo_hw_debugfs_cus(to_tempo_device(entry->dev)->hw, m);
	return 0;
}

static const struct drm_debugfs_info tempo_debugfs_list[] = {
	{ "hqds", hqds_show, 0 },
	{ "cus", cus_show, 0 },
};

/**
 * tempo_debugfs_init() - register the debugfs files
 * @tdev: the device, registered
 *
 * Context: process.
 */
void tempo_debugfs_init(struct tempo_device *tdev)
{
	drm_debugfs_add_files(&tdev->drm, tempo_debugfs_list,
			      ARRAY_SIZE(tempo_debugfs_list));
}
