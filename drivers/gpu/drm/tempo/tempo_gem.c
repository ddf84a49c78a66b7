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
 *
 * Buffers are counted against their creator's budgets (tempo_budget.c),
 * and as resident from the first mapping or pin that allocates their
 * pages (all of them: the shmem helpers allocate a buffer's pages
 * together) until they are freed: pages a mapping no longer holds stay
 * in the buffer's shmem file.
 * Their fake mmap offset is taken only when asked for (BO_MMAP_OFFSET,
 * dumb map_offset): the shmem helpers take one at creation, which is
 * given back before the buffer is published, so that buffers nobody maps
 * on the CPU take nothing of the device-wide offset range.
 */

#include <linux/mm.h>
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
 * @usage: the usage counters of the file that created it, which count it;
 *	NULL for an imported buffer
 * @user: the user of that file, which counts it; NULL for an imported
 *	buffer
 * @lock: serialises the first count of its pages
 * @resident: its pages may have been allocated: from the first mapping
 *	(GPU or CPU) or pin on, they count against the resident ceilings
 *	until it is freed. Never set for an imported buffer
 */
struct tempo_bo {
	struct drm_gem_shmem_object base;
	struct tempo_vm_resv *vm_resv;
	struct tempo_usage *usage;
	struct tempo_user *user;
	struct mutex lock; /* the first count of its pages */
	bool resident;
};

static struct tempo_bo *to_tempo_bo(struct drm_gem_object *obj)
{
	return container_of(to_drm_gem_shmem_obj(obj), struct tempo_bo, base);
}

static void tempo_gem_free(struct drm_gem_object *obj)
{
	struct tempo_bo *bo = to_tempo_bo(obj);
	struct tempo_vm_resv *vm_resv = bo->vm_resv;
	struct tempo_usage *usage = bo->usage;
	struct tempo_user *user = bo->user;
	size_t size = obj->size;

	bool resident = bo->resident;

	mutex_destroy(&bo->lock);
	/* Takes obj->resv: the reference goes only after. */
	drm_gem_shmem_object_free(obj);
	if (vm_resv)
		tempo_vm_resv_put_bo(vm_resv);
	if (resident)
		tempo_budget_uncharge_pages(usage, user, size);
	if (user)
		tempo_budget_uncharge_bo(usage, user, size);
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

#ifndef TEMPO_COMPAT_LEGACY_FDINFO
/* Resident once its pages were allocated (by a mapping, CPU or GPU). */
static enum drm_gem_object_status tempo_gem_status(struct drm_gem_object *obj)
{
	struct drm_gem_shmem_object *shmem = to_drm_gem_shmem_obj(obj);

	return READ_ONCE(shmem->pages) ? DRM_GEM_OBJECT_RESIDENT : 0;
}
#endif

/*
 * @bo's pages are about to be allocated: the first time, count them
 * against the resident ceilings of its creator's user and of the device
 * until the buffer is freed, or fail with -ENOMEM.
 */
static int bo_charge_pages(struct tempo_bo *bo)
{
	int ret = 0;

	if (!bo->user)
		return 0;
	mutex_lock(&bo->lock);
	if (!bo->resident)
		ret = tempo_budget_charge_pages(bo->usage, bo->user,
						bo->base.base.size);
	if (!ret)
		bo->resident = true;
	mutex_unlock(&bo->lock);
	return ret;
}

/* The shmem helpers' CPU mapping, which allocates every page at once. */
static int tempo_gem_mmap(struct drm_gem_object *obj,
			  struct vm_area_struct *vma)
{
	int ret = bo_charge_pages(to_tempo_bo(obj));

	return ret ?: drm_gem_shmem_object_mmap(obj, vma);
}

/* The shmem helpers' pin (a dma-buf importer's), which allocates too. */
static int tempo_gem_pin(struct drm_gem_object *obj)
{
	int ret = bo_charge_pages(to_tempo_bo(obj));

	return ret ?: drm_gem_shmem_object_pin(obj);
}

static const struct drm_gem_object_funcs tempo_gem_funcs = {
	.free = tempo_gem_free,
	.print_info = drm_gem_shmem_object_print_info,
	.pin = tempo_gem_pin,
	.unpin = drm_gem_shmem_object_unpin,
	.get_sg_table = drm_gem_shmem_object_get_sg_table,
	.vmap = drm_gem_shmem_object_vmap,
	.vunmap = drm_gem_shmem_object_vunmap,
	.mmap = tempo_gem_mmap,
#ifndef TEMPO_COMPAT_LEGACY_FDINFO
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
	mutex_init(&bo->lock);
	return &bo->base.base;
}

/**
 * tempo_gem_prime_import_sg_table() - import another device's dma-buf
 * @dev: the DRM device
 * @attach: the attachment
 * @sgt: its pages
 *
 * The shmem helpers' import, without the mmap offset until one is asked
 * for. Imported buffers count against no budget: their pages are the
 * exporter's.
 *
 * Context: process.
 * Return: the object, or an ERR_PTR().
 */
struct drm_gem_object *
tempo_gem_prime_import_sg_table(struct drm_device *dev,
				struct dma_buf_attachment *attach,
				struct sg_table *sgt)
{
	struct drm_gem_object *obj;

	obj = drm_gem_shmem_prime_import_sg_table(dev, attach, sgt);
	if (!IS_ERR(obj))
		drm_gem_free_mmap_offset(obj);
	return obj;
}

/*
 * A buffer of @size bytes counted against @file's budgets, published as
 * @handle complete: private to the file's address space with
 * %DRM_TEMPO_BO_CREATE_VM_PRIVATE in @flags, and without a mmap offset.
 */
static int bo_create(struct drm_file *file, u64 size, u32 flags,
		     u32 *handle)
{
	struct tempo_file *tfile = to_tempo_file(file);
	struct drm_gem_shmem_object *shmem;
	struct tempo_bo *bo;
	int ret;

	ret = tempo_budget_charge_bo(tfile, size);
	if (ret)
		return ret;
	shmem = drm_gem_shmem_create(&tfile->tdev->drm, size);
	if (IS_ERR(shmem)) {
		tempo_budget_uncharge_bo(tfile->usage, tfile->user, size);
		/*
		 * shmem's internal mount has no size or inode limit: its
		 * -ENOSPC is an inode it could not allocate.
		 */
		return PTR_ERR(shmem) == -ENOSPC ? -ENOMEM : PTR_ERR(shmem);
	}
	/* Before anyone can see it: its free uncharges it from now on. */
	bo = to_tempo_bo(&shmem->base);
	bo->usage = tfile->usage;
	bo->user = tfile->user;
	drm_gem_free_mmap_offset(&shmem->base);
	/* Nothing has taken its own resv yet. */
	if (flags & DRM_TEMPO_BO_CREATE_VM_PRIVATE)
		bo->vm_resv = tempo_vm_resv_get_bo(tfile->vm, &shmem->base);
	ret = drm_gem_handle_create(file, &shmem->base, handle);
	drm_gem_object_put(&shmem->base);
	return ret;
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

	if (TEMPO_IOCTL_DBG(tdev, args->flags & ~DRM_TEMPO_BO_CREATE_FLAGS))
		return -EINVAL;
	if (TEMPO_IOCTL_DBG(tdev, !args->size || args->size > TEMPO_MAX_BO_SIZE))
		return -EINVAL;
	return bo_create(file, PAGE_ALIGN(args->size), args->flags,
			 &args->handle);
}

/**
 * tempo_gem_dumb_create() - DRM_IOCTL_MODE_CREATE_DUMB
 * @file: the caller
 * @dev: the DRM device
 * @args: the request, checked for overflow by the DRM core
 *
 * Dumb buffers are shmem buffers too, rows of the smallest pitch, under
 * the same size limit and budgets as &DRM_IOCTL_TEMPO_BO_CREATE. The pitch
 * and size the caller passed are ignored: they are outputs.
 *
 * Context: process.
 * Return: 0, -EINVAL for a buffer over the size limit, -ENOSPC when the
 * file or its user has no room for it, or a negative errno.
 */
int tempo_gem_dumb_create(struct drm_file *file, struct drm_device *dev,
			  struct drm_mode_create_dumb *args)
{
	u64 pitch = DIV_ROUND_UP((u64)args->width * args->bpp, 8);
	u64 size = PAGE_ALIGN(pitch * args->height);
	int ret;

	if (TEMPO_IOCTL_DBG(to_tempo_device(dev), size > TEMPO_MAX_BO_SIZE))
		return -EINVAL;
	ret = bo_create(file, size, 0, &args->handle);
	if (ret)
		return ret;
	args->pitch = pitch;
	args->size = size;
	return 0;
}

/**
 * tempo_ioctl_bo_mmap_offset() - DRM_IOCTL_TEMPO_BO_MMAP_OFFSET
 * @dev: the DRM device
 * @data: &struct drm_tempo_bo_mmap_offset
 * @file: the caller
 *
 * The first call on a buffer takes its offset; the buffer keeps it until
 * freed.
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

/**
 * tempo_gem_charge_pages() - a buffer's pages are about to be allocated
 * @obj: the buffer
 *
 * For a GPU mapping, which maps the whole buffer. The first call counts
 * its pages against its creator's user's share and the device's ceiling
 * of resident buffers until the buffer is freed.
 *
 * Context: process.
 * Return: 0, or -ENOMEM when there is no room for them.
 */
int tempo_gem_charge_pages(struct drm_gem_object *obj)
{
	return bo_charge_pages(to_tempo_bo(obj));
}
