// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The tempo authors
 *
 * The shims of tempo_compat.h too large to be inline: mainline's
 * device-centred debugfs files and fdinfo memory stats, on kernels
 * without them (6.1).
 */

#include <linux/debugfs.h>
#include <linux/dma-resv.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include <drm/drm_debugfs.h>
#include <drm/drm_file.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>

#include "tempo_compat.h"

#ifndef TEMPO_HAVE_DRM_DEBUGFS_ADD_FILES
/*
 * The files of every device, until its minors are registered: mainline
 * keeps them in the device, which has no list for them here.
 */
static LIST_HEAD(debugfs_entries);
static DEFINE_MUTEX(debugfs_lock);

static int debugfs_entry_open(struct inode *inode, struct file *file)
{
	struct drm_debugfs_entry *entry = inode->i_private;

	return single_open(file, entry->file.show, entry);
}

static const struct file_operations debugfs_entry_fops = {
	.owner = THIS_MODULE,
	.open = debugfs_entry_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

/* drmm action: forget the device's files as it goes. */
static void debugfs_entries_release(struct drm_device *dev, void *unused)
{
	struct drm_debugfs_entry *entry, *tmp;

	mutex_lock(&debugfs_lock);
	list_for_each_entry_safe(entry, tmp, &debugfs_entries, list) {
		if (entry->dev != dev)
			continue;
		list_del(&entry->list);
		kfree(entry);
	}
	mutex_unlock(&debugfs_lock);
}

/**
 * tempo_compat_debugfs_add_files() - drm_debugfs_add_files()
 * @dev: the device, not registered yet
 * @files: the files, each shown with its &drm_debugfs_entry as the
 *	seq_file's private data
 * @count: how many
 *
 * Context: process.
 */
void tempo_compat_debugfs_add_files(struct drm_device *dev,
				    const struct drm_debugfs_info *files,
				    int count)
{
	struct drm_debugfs_entry *entry;
	int i;

	if (drmm_add_action(dev, debugfs_entries_release, NULL))
		return;
	for (i = 0; i < count; i++) {
		entry = kzalloc(sizeof(*entry), GFP_KERNEL);
		if (!entry)
			return;
		entry->dev = dev;
		entry->file = files[i];
		mutex_lock(&debugfs_lock);
		list_add_tail(&entry->list, &debugfs_entries);
		mutex_unlock(&debugfs_lock);
	}
}

/**
 * tempo_compat_debugfs_init() - create a minor's debugfs files
 * @minor: the minor being registered
 *
 * &drm_driver.debugfs_init: the files tempo_compat_debugfs_add_files()
 * was given for the minor's device.
 *
 * Context: process.
 */
void tempo_compat_debugfs_init(struct drm_minor *minor)
{
	struct drm_debugfs_entry *entry;

	mutex_lock(&debugfs_lock);
	list_for_each_entry(entry, &debugfs_entries, list)
		if (entry->dev == minor->dev)
			debugfs_create_file(entry->file.name, 0444,
					    minor->debugfs_root, entry,
					    &debugfs_entry_fops);
	mutex_unlock(&debugfs_lock);
}
#endif

#ifndef TEMPO_HAVE_DRM_FDINFO_PRINT_SIZE
/**
 * tempo_compat_fdinfo_print_size() - drm_fdinfo_print_size()
 * @p: where to print
 * @prefix: the key's first part ("drm", or the driver's name)
 * @stat: its second
 * @region: its third
 * @sz: the size in bytes: printed in bytes, KiB or MiB, the largest unit
 *	that divides it
 *
 * Context: any.
 */
void tempo_compat_fdinfo_print_size(struct drm_printer *p, const char *prefix,
				    const char *stat, const char *region,
				    u64 sz)
{
	static const char *const units[] = { "", " KiB", " MiB" };
	u32 u = 0;

	while (u < ARRAY_SIZE(units) - 1 && sz && IS_ALIGNED(sz, SZ_1K)) {
		sz >>= 10;
		u++;
	}
	drm_printf(p, "%s-%s-%s:\t%llu%s\n", prefix, stat, region, sz,
		   units[u]);
}
#endif

#ifndef TEMPO_HAVE_DRM_SHOW_FDINFO

/**
 * tempo_compat_show_memory_stats() - drm_show_memory_stats(), for objects
 *	of the shmem helpers (resident: with pages)
 * @p: where to print
 * @file: the file whose objects are counted
 *
 * Context: process.
 */
void tempo_compat_show_memory_stats(struct drm_printer *p,
				    struct drm_file *file)
{
	u64 total = 0, shared = 0, active = 0, resident = 0;
	struct drm_gem_object *obj;
	int id;

	spin_lock(&file->table_lock);
	idr_for_each_entry(&file->object_idr, obj, id) {
		total += obj->size;
		if (obj->handle_count > 1 || obj->dma_buf)
			shared += obj->size;
		if (READ_ONCE(to_drm_gem_shmem_obj(obj)->pages))
			resident += obj->size;
		if (!dma_resv_test_signaled(obj->resv, dma_resv_usage_rw(true)))
			active += obj->size;
	}
	spin_unlock(&file->table_lock);
	drm_fdinfo_print_size(p, "drm", "total", "memory", total);
	drm_fdinfo_print_size(p, "drm", "shared", "memory", shared);
	drm_fdinfo_print_size(p, "drm", "active", "memory", active);
	drm_fdinfo_print_size(p, "drm", "resident", "memory", resident);
}
#endif
