// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The tempo authors
 */

/**
 * DOC: Buffer objects
 *
 * Buffers are shmem-backed GEM objects: created by size, mapped on the CPU
 * through the fake offset returned by DRM_IOCTL_TEMPO_BO_MMAP_OFFSET, and
 * made visible to the GPU by mapping them into the file's address space
 * (tempo_vm.c). CPU and GPU mappings are both cached and coherent.
 */

#include <linux/slab.h>

#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/tempo_drm.h>

#include "tempo_drv.h"

#ifdef TEMPO_HAVE_GEM_STATUS
/* Resident once its pages were allocated (by a mapping, CPU or GPU). */
static enum drm_gem_object_status tempo_gem_status(struct drm_gem_object *obj)
{
	struct drm_gem_shmem_object *shmem = to_drm_gem_shmem_obj(obj);

	return READ_ONCE(shmem->pages) ? DRM_GEM_OBJECT_RESIDENT : 0;
}
#endif

static const struct drm_gem_object_funcs tempo_gem_funcs = {
	.free = drm_gem_shmem_object_free,
	.print_info = drm_gem_shmem_object_print_info,
	.pin = drm_gem_shmem_object_pin,
	.unpin = drm_gem_shmem_object_unpin,
	.get_sg_table = drm_gem_shmem_object_get_sg_table,
	.vmap = drm_gem_shmem_object_vmap,
	.vunmap = drm_gem_shmem_object_vunmap,
	.mmap = drm_gem_shmem_object_mmap,
#ifdef TEMPO_HAVE_GEM_STATUS
	.status = tempo_gem_status,
#endif
	.vm_ops = &drm_gem_shmem_vm_ops,
};

/**
 * tempo_gem_create_object() - allocate a buffer object for the shmem helpers
 * @dev: the DRM device
 * @size: its size
 *
 * The shmem helpers' object with tempo's functions, which add the
 * residency that fdinfo reports.
 *
 * Context: process.
 * Return: the object, or an ERR_PTR().
 */
struct drm_gem_object *tempo_gem_create_object(struct drm_device *dev,
					       size_t size)
{
	struct drm_gem_shmem_object *shmem = kzalloc(sizeof(*shmem),
						     GFP_KERNEL_ACCOUNT);

	if (!shmem)
		return ERR_PTR(-ENOMEM);
	shmem->base.funcs = &tempo_gem_funcs;
	return &shmem->base;
}

/**
 * tempo_ioctl_bo_create() - DRM_IOCTL_TEMPO_BO_CREATE
 * @dev: the DRM device
 * @data: &struct drm_tempo_bo_create
 * @file: the caller
 *
 * Context: process.
 * Return: 0 or a negative errno, as documented in the uAPI header.
 */
int tempo_ioctl_bo_create(struct drm_device *dev, void *data,
			  struct drm_file *file)
{
	struct tempo_device *tdev = to_tempo_device(dev);
	struct drm_tempo_bo_create *args = data;
	struct drm_gem_shmem_object *shmem;
	int ret;

	if (TEMPO_IOCTL_DBG(tdev, args->flags))
		return -EINVAL;
	if (TEMPO_IOCTL_DBG(tdev, !args->size || args->size > TEMPO_MAX_BO_SIZE))
		return -EINVAL;

	shmem = drm_gem_shmem_create(dev, PAGE_ALIGN(args->size));
	if (IS_ERR(shmem))
		return PTR_ERR(shmem);
	ret = drm_gem_handle_create(file, &shmem->base, &args->handle);
	drm_gem_object_put(&shmem->base);
	return ret;
}

/**
 * tempo_gem_dumb_create() - DRM_IOCTL_MODE_CREATE_DUMB
 * @file: the caller
 * @dev: the DRM device
 * @args: the request, checked for overflow by the DRM core
 *
 * Dumb buffers are shmem buffers too, under the same size limit as
 * &DRM_IOCTL_TEMPO_BO_CREATE.
 *
 * Context: process.
 * Return: 0, -EINVAL for a buffer over the limit, or a negative errno.
 */
int tempo_gem_dumb_create(struct drm_file *file, struct drm_device *dev,
			  struct drm_mode_create_dumb *args)
{
	u64 pitch = DIV_ROUND_UP((u64)args->width * args->bpp, 8);

	if (TEMPO_IOCTL_DBG(to_tempo_device(dev),
			    max_t(u64, args->pitch, pitch) * args->height >
			    TEMPO_MAX_BO_SIZE ||
			    args->size > TEMPO_MAX_BO_SIZE))
		return -EINVAL;
	return drm_gem_shmem_dumb_create(file, dev, args);
}

/**
 * tempo_ioctl_bo_mmap_offset() - DRM_IOCTL_TEMPO_BO_MMAP_OFFSET
 * @dev: the DRM device
 * @data: &struct drm_tempo_bo_mmap_offset
 * @file: the caller
 *
 * Context: process.
 * Return: 0 or a negative errno, as documented in the uAPI header.
 */
int tempo_ioctl_bo_mmap_offset(struct drm_device *dev, void *data,
			       struct drm_file *file)
{
	struct tempo_device *tdev = to_tempo_device(dev);
	struct drm_tempo_bo_mmap_offset *args = data;
	struct drm_gem_object *obj;
	int ret;

	if (TEMPO_IOCTL_DBG(tdev, args->flags))
		return -EINVAL;
	obj = drm_gem_object_lookup(file, args->handle);
	if (TEMPO_IOCTL_DBG(tdev, !obj))
		return -ENOENT;
	ret = drm_gem_create_mmap_offset(obj);
	if (!ret)
		args->offset = drm_vma_node_offset_addr(&obj->vma_node);
	drm_gem_object_put(obj);
	return ret;
}
