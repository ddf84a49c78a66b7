// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The tempo authors
 */

/**
 * DOC: Helpers of the ioctls
 *
 * What several ioctl handlers share: the walk of an extension chain and
 * the lookup of a DRM file of this device by descriptor.
 *
 * An extension chain is read once: tempo_ext_read() walks it, checks each
 * header (the chain's length, its padding, its name against the ioctl's
 * table) and copies each extension, whole, into the kernel; the handler
 * then applies the copies with tempo_ext_apply(), after whatever checks
 * must come first. Only the copies are used: an extension cannot change
 * between its check and its use. Each header is read twice (to learn the
 * extension's size, then with the extension); a header that changed
 * between the two reads fails the ioctl with -EINVAL.
 */

#include <linux/file.h>
#include <linux/nospec.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <drm/drm_file.h>
#include <drm/tempo_drm.h>

#include "tempo_drv.h"

/**
 * tempo_ext_read() - copy an extension chain into the kernel
 * @tdev: the device
 * @extensions: user pointer to the first &struct drm_tempo_user_extension
 * @table: the ioctl's extensions, indexed by name
 * @num_names: entries of @table
 * @chain: out: the copies, to free with tempo_ext_free()
 *
 * Context: process; may fault.
 * Return: 0, -EFAULT, -EINVAL (non-zero pad, unknown name, a header that
 * changed between its two reads), -E2BIG (chain longer than
 * %DRM_TEMPO_MAX_EXTENSIONS) or -ENOMEM. On failure too, @chain holds the
 * copies made so far.
 */
int tempo_ext_read(struct tempo_device *tdev, u64 extensions,
		   const struct tempo_ext_handler *table, u32 num_names,
		   struct tempo_ext_chain *chain)
{
	struct drm_tempo_user_extension ext;

	memset(chain, 0, sizeof(*chain));
	while (extensions) {
		void __user *p = u64_to_user_ptr(extensions);
		void *copy;

		if (TEMPO_IOCTL_DBG(tdev, chain->n == DRM_TEMPO_MAX_EXTENSIONS))
			return -E2BIG;
		if (TEMPO_IOCTL_DBG(tdev, copy_from_user(&ext, p, sizeof(ext))))
			return -EFAULT;
		if (TEMPO_IOCTL_DBG(tdev, ext.pad || ext.name >= num_names))
			return -EINVAL;
		ext.name = array_index_nospec(ext.name, num_names);
		copy = memdup_user(p, table[ext.name].size);
		if (TEMPO_IOCTL_DBG(tdev, IS_ERR(copy)))
			return PTR_ERR(copy);
		chain->ext[chain->n++] = copy;
		/*
		 * The copy's header is what tempo_ext_apply() uses: it must be
		 * the one checked, which another thread may have changed
		 * between the two reads.
		 */
		if (TEMPO_IOCTL_DBG(tdev, memcmp(copy, &ext, sizeof(ext))))
			return -EINVAL;
		extensions = ext.next;
	}
	return 0;
}

/**
 * tempo_ext_apply() - apply the extensions of a chain, in chain order
 * @tdev: the device
 * @table: the ioctl's extensions, as given to tempo_ext_read()
 * @chain: the copies
 * @data: the ioctl's object, for the handlers
 *
 * Context: process.
 * Return: 0, or the first handler's error.
 */
int tempo_ext_apply(struct tempo_device *tdev,
		    const struct tempo_ext_handler *table,
		    const struct tempo_ext_chain *chain, void *data)
{
	u32 i;
	int ret;

	for (i = 0; i < chain->n; i++) {
		const struct drm_tempo_user_extension *ext = chain->ext[i];

		ret = table[ext->name].apply(tdev, ext, data);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * tempo_ext_free() - free the copies of a chain
 * @chain: the chain
 *
 * Context: any.
 */
void tempo_ext_free(struct tempo_ext_chain *chain)
{
	while (chain->n)
		kfree(chain->ext[--chain->n]);
}

/**
 * tempo_drm_file_get() - the DRM file of this device behind a descriptor
 * @tdev: the device
 * @fd: the file descriptor
 * @filp: out: the file, referenced; fput() it when done
 *
 * Context: process.
 * Return: the DRM file, ERR_PTR(-EBADF) when @fd is not open, or
 * ERR_PTR(-EINVAL) when it is not a DRM file of @tdev.
 */
struct drm_file *tempo_drm_file_get(struct tempo_device *tdev, int fd,
				    struct file **filp)
{
	struct drm_file *dfile;
	struct file *f = fget(fd);

	if (TEMPO_IOCTL_DBG(tdev, !f))
		return ERR_PTR(-EBADF);
	dfile = f->private_data;
	if (TEMPO_IOCTL_DBG(tdev, f->f_op != &tempo_fops ||
			    dfile->minor->dev != &tdev->drm)) {
		fput(f);
		return ERR_PTR(-EINVAL);
	}
	*filp = f;
	return dfile;
}
