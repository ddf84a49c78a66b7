// SPDX-License-Identifier: MIT
/*
 * uAPI guide example: DRM_IOCTL_TEMPO_CTX_CREATE with the default engine
 * map, explicit slots, a priority, and the LOAD_BALANCE and PARALLEL
 * extensions.
 */
#include <errno.h>
#include <stdint.h>

#include <xf86drm.h>
#include <drm/tempo_drm.h>

#include "examples.h"

/* example: ctx-create-default */
/* Slot i of the default map is engine i of DRM_TEMPO_QUERY_ENGINES. */
int example_ctx_create_default(int fd, uint32_t *ctx_id)
{
	struct drm_tempo_ctx_create create = {
		.priority = DRM_TEMPO_PRIORITY_NORMAL,
		.num_slots = 0,
	};

	if (drmIoctl(fd, DRM_IOCTL_TEMPO_CTX_CREATE, &create))
		return -errno;
	*ctx_id = create.ctx_id;
	return 0;
}
/* end of example */

/* example: ctx-create-slots */
/* Slot 0 is compute engine 0, slot 1 copy engine 0. */
int example_ctx_create_slots(int fd, uint32_t *ctx_id)
{
	struct drm_tempo_engine slots[] = {
		{ DRM_TEMPO_ENGINE_CLASS_COMPUTE, 0 },
		{ DRM_TEMPO_ENGINE_CLASS_COPY, 0 },
	};
	struct drm_tempo_ctx_create create = {
		.priority = DRM_TEMPO_PRIORITY_NORMAL,
		.num_slots = 2,
		.slots = (uintptr_t)slots,
	};

	if (drmIoctl(fd, DRM_IOCTL_TEMPO_CTX_CREATE, &create))
		return -errno;	/* EINVAL: the device has no such engine */
	*ctx_id = create.ctx_id;
	return 0;
}
/* end of example */

/* example: ctx-create-priority */
/*
 * Ask for HIGH; a caller that is neither DRM master nor a CAP_SYS_NICE
 * holder gets -EACCES and settles for its ceiling (max_priority of the
 * DEVICE query). *priority is what the context got.
 */
int example_ctx_create_priority(int fd,
				const struct drm_tempo_query_device *dev,
				uint32_t *ctx_id, int32_t *priority)
{
	struct drm_tempo_ctx_create create = {
		.priority = DRM_TEMPO_PRIORITY_HIGH,
	};

	if (drmIoctl(fd, DRM_IOCTL_TEMPO_CTX_CREATE, &create)) {
		if (errno != EACCES)
			return -errno;
		create.priority = dev->max_priority;
		if (drmIoctl(fd, DRM_IOCTL_TEMPO_CTX_CREATE, &create))
			return -errno;
	}
	*ctx_id = create.ctx_id;
	*priority = create.priority;
	return 0;
}
/* end of example */

/* example: ctx-create-load-balance */
/*
 * Slot 0 runs each job on whichever compute engine is least busy; slot 1
 * is plain copy engine 0. The slot an extension configures is listed as
 * { 0, DRM_TEMPO_ENGINE_INSTANCE_NONE }.
 */
int example_ctx_create_load_balance(int fd, uint32_t *ctx_id)
{
	struct drm_tempo_engine siblings[8];
	struct drm_tempo_engine slots[] = {
		{ 0, DRM_TEMPO_ENGINE_INSTANCE_NONE },
		{ DRM_TEMPO_ENGINE_CLASS_COPY, 0 },
	};
	struct drm_tempo_ctx_ext_load_balance balance = {
		.base.name = DRM_TEMPO_CTX_EXT_LOAD_BALANCE,
		.slot = 0,
		.siblings = (uintptr_t)siblings,
	};
	struct drm_tempo_ctx_create create = {
		.extensions = (uintptr_t)&balance,
		.priority = DRM_TEMPO_PRIORITY_NORMAL,
		.num_slots = 2,
		.slots = (uintptr_t)slots,
	};
	int n;

	/* At most max_siblings (8 here) engines, all of one class. */
	n = ex_engines_of_class(fd, DRM_TEMPO_ENGINE_CLASS_COMPUTE, siblings, 8);
	if (n < 1)
		return n < 0 ? n : -ENODEV;
	balance.num_siblings = n;
	if (drmIoctl(fd, DRM_IOCTL_TEMPO_CTX_CREATE, &create))
		return -errno;
	*ctx_id = create.ctx_id;
	return 0;
}
/* end of example */

/* example: ctx-create-parallel */
/*
 * Slot 0 takes @width batches per exec, batch i on any compute engine not
 * taken by another batch of the gang. Column i of engines[] lists the
 * engines batch i may use: sibling j of batch i is
 * engines[i * num_siblings + j]. Here every column is every compute
 * engine, so the gang goes to any @width distinct compute engines.
 */
int example_ctx_create_parallel(int fd,
				const struct drm_tempo_query_device *dev,
				uint16_t width, uint32_t *ctx_id)
{
	struct drm_tempo_engine compute[8], engines[8 * 8];
	struct drm_tempo_engine slots[] = {
		{ 0, DRM_TEMPO_ENGINE_INSTANCE_NONE },
	};
	struct drm_tempo_ctx_ext_parallel parallel = {
		.base.name = DRM_TEMPO_CTX_EXT_PARALLEL,
		.slot = 0,
		.width = width,
		.engines = (uintptr_t)engines,
	};
	struct drm_tempo_ctx_create create = {
		.extensions = (uintptr_t)&parallel,
		.priority = DRM_TEMPO_PRIORITY_NORMAL,
		.num_slots = 1,
		.slots = (uintptr_t)slots,
	};
	int i, j, n;

	if (!(dev->parallel_classes & (1u << DRM_TEMPO_ENGINE_CLASS_COMPUTE)) ||
	    width > dev->max_batches || width > 8)
		return -ENODEV;
	n = ex_engines_of_class(fd, DRM_TEMPO_ENGINE_CLASS_COMPUTE, compute,
				dev->max_siblings < 8 ? dev->max_siblings : 8);
	if (n < width)
		return n < 0 ? n : -ENODEV;
	parallel.num_siblings = n;
	for (i = 0; i < width; i++)
		for (j = 0; j < n; j++)
			engines[i * parallel.num_siblings + j] = compute[j];
	if (drmIoctl(fd, DRM_IOCTL_TEMPO_CTX_CREATE, &create))
		return -errno;
	*ctx_id = create.ctx_id;
	return 0;
}
/* end of example */

/* example: ctx-create-errors */
int example_ctx_create_errors(int fd,
			      const struct drm_tempo_query_device *dev)
{
	struct drm_tempo_user_extension unknown = { .name = 0xffff };
	struct drm_tempo_ctx_create create = { .flags = 1 };

	/* MBZ flags: -EINVAL. */
	if (!ex_fails_with(fd, DRM_IOCTL_TEMPO_CTX_CREATE, &create, EINVAL))
		return -EPROTO;

	/* An extension name the kernel does not know: -EINVAL. */
	create.flags = 0;
	create.extensions = (uintptr_t)&unknown;
	if (!ex_fails_with(fd, DRM_IOCTL_TEMPO_CTX_CREATE, &create, EINVAL))
		return -EPROTO;

	/* A priority outside -1023..1023: -EINVAL, even for root. */
	create.extensions = 0;
	create.priority = DRM_TEMPO_PRIORITY_VERY_HIGH + 1;
	if (!ex_fails_with(fd, DRM_IOCTL_TEMPO_CTX_CREATE, &create, EINVAL))
		return -EPROTO;

	/* Above the caller's ceiling: -EACCES. */
	if (dev->max_priority < DRM_TEMPO_PRIORITY_VERY_HIGH) {
		create.priority = dev->max_priority + 1;
		if (!ex_fails_with(fd, DRM_IOCTL_TEMPO_CTX_CREATE, &create, EACCES))
			return -EPROTO;
	}
	return 0;
}
/* end of example */
