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
 *
 * A buffer created with %DRM_TEMPO_BO_CREATE_VM_PRIVATE takes its file's
 * address space's reservation object as its own and holds a reference on
 * it: it is mapped in no other address space and never exported.
 */

#include <linux/slab.h>

#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_prime.h>
#include <drm/tempo_drm.h>

#include "tempo_drv.h"

/**
 * struct tempo_bo - a tempo buffer object
 * @base: the shmem helpers' object
 * @vm_resv: for a private buffer, its address space's reservation object,
 *	referenced; NULL otherwise
 */
struct tempo_bo {
	struct drm_gem_shmem_object base;
	struct tempo_vm_resv *vm_resv;
};

static struct tempo_bo *to_tempo_bo(struct drm_gem_object *obj)
{
	return container_of(to_drm_gem_shmem_obj(obj), struct tempo_bo, base);
}

static void tempo_gem_free(struct drm_gem_object *obj)
{
	struct tempo_vm_resv *vm_resv = to_tempo_bo(obj)->vm_resv;

	/* Takes obj->resv: the reference goes only after. */
	drm_gem_shmem_object_free(obj);
	if (vm_resv)
		tempo_vm_resv_put_bo(vm_resv);
}

static struct dma_buf *tempo_gem_prime_export(struct drm_gem_object *obj,
					      int flags)
{
	if (TEMPO_IOCTL_DBG(to_tempo_device(obj->dev), to_tempo_bo(obj)->vm_resv))
		return ERR_PTR(-EINVAL);
	return drm_gem_prime_export(obj, flags);
}

/**
 * tempo_gem_mappable() - whether a buffer may be mapped into an address space
 * @obj: the buffer
 * @vm: the address space
 *
 * Context: any.
 * Return: false for a private buffer of another address space.
 */
bool tempo_gem_mappable(struct drm_gem_object *obj, struct tempo_vm *vm)
{
	struct tempo_vm_resv *vm_resv = to_tempo_bo(obj)->vm_resv;

	return !vm_resv || vm_resv == vm->resv;
}

#ifdef TEMPO_HAVE_GEM_STATUS
/* Resident once its pages were allocated (by a mapping, CPU or GPU). */
static enum drm_gem_object_status tempo_gem_status(struct drm_gem_object *obj)
{
	struct drm_gem_shmem_object *shmem = to_drm_gem_shmem_obj(obj);

	return READ_ONCE(shmem->pages) ? DRM_GEM_OBJECT_RESIDENT : 0;
}
#endif

static const struct drm_gem_object_funcs tempo_gem_funcs = {
	.free = tempo_gem_free,
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
	.export = tempo_gem_prime_export,
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
	struct tempo_bo *bo = kzalloc(sizeof(*bo), GFP_KERNEL_ACCOUNT);

	if (!bo)
		return ERR_PTR(-ENOMEM);
	bo->base.base.funcs = &tempo_gem_funcs;
	return &bo->base.base;
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

	if (TEMPO_IOCTL_DBG(tdev, args->flags & ~DRM_TEMPO_BO_CREATE_FLAGS))
		return -EINVAL;
	if (TEMPO_IOCTL_DBG(tdev, !args->size || args->size > TEMPO_MAX_BO_SIZE))
		return -EINVAL;

	shmem = drm_gem_shmem_create(dev, PAGE_ALIGN(args->size));
	/*
	 * shmem's internal mount has no size or inode limit: its -ENOSPC is
	 * an inode it could not allocate.
	 */
	if (PTR_ERR_OR_ZERO(shmem) == -ENOSPC)
		return -ENOMEM;
	if (IS_ERR(shmem))
		return PTR_ERR(shmem);
	/* Before anyone can see it: nothing has taken its own resv yet. */
	if (args->flags & DRM_TEMPO_BO_CREATE_VM_PRIVATE)
		to_tempo_bo(&shmem->base)->vm_resv =
			tempo_vm_resv_get_bo(to_tempo_file(file)->vm,
					     &shmem->base);
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
