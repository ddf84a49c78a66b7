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

#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/tempo_drm.h>

#include "tempo_drv.h"

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
