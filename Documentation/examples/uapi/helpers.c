// SPDX-License-Identifier: MIT
/*
 * Helpers of the uAPI guide's examples: the short forms of BO_CREATE,
 * BO_MMAP_OFFSET and VM_MAP that the later examples use, a one-packet
 * batch and a syncobj wait.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>

#include <xf86drm.h>
#include <drm/tempo_drm.h>

#include "examples.h"

/* example: helpers */
/*
 * A buffer of @size bytes (a multiple of the page size) mapped on the CPU
 * and at a GPU address the kernel picks. Returns 0 or -errno.
 */
int ex_buffer_new(int fd, uint64_t size, uint32_t vm_flags,
		  struct ex_buffer *buf)
{
	struct drm_tempo_bo_create create = { .size = size };
	struct drm_tempo_bo_mmap_offset offset = { 0 };
	struct drm_tempo_vm_map map = {
		.flags = vm_flags | DRM_TEMPO_VM_MAP_AUTO_VA,
		.size = size,
	};
	struct drm_gem_close gem_close = { 0 };
	void *cpu = MAP_FAILED;
	int ret;

	if (drmIoctl(fd, DRM_IOCTL_TEMPO_BO_CREATE, &create))
		return -errno;
	offset.handle = map.handle = gem_close.handle = create.handle;
	if (drmIoctl(fd, DRM_IOCTL_TEMPO_BO_MMAP_OFFSET, &offset))
		goto err;
	cpu = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   offset.offset);
	if (cpu == MAP_FAILED)
		goto err;
	if (drmIoctl(fd, DRM_IOCTL_TEMPO_VM_MAP, &map))
		goto err;

	buf->handle = create.handle;
	buf->size = size;
	buf->va = map.va;
	buf->cpu = cpu;
	return 0;

err:
	ret = -errno;
	if (cpu != MAP_FAILED)
		munmap(cpu, size);
	drmIoctl(fd, DRM_IOCTL_GEM_CLOSE, &gem_close);
	return ret;
}

void ex_buffer_free(int fd, struct ex_buffer *buf)
{
	struct drm_tempo_vm_unmap unmap = { .va = buf->va, .size = buf->size };
	struct drm_gem_close gem_close = { .handle = buf->handle };

	drmIoctl(fd, DRM_IOCTL_TEMPO_VM_UNMAP, &unmap);
	munmap(buf->cpu, buf->size);
	drmIoctl(fd, DRM_IOCTL_GEM_CLOSE, &gem_close);
	memset(buf, 0, sizeof(*buf));
}

/* A batch at @cs that writes @value at GPU address @dst; 5 dwords. */
uint32_t ex_batch_write(uint32_t *cs, uint64_t dst, uint32_t value)
{
	cs[0] = DRM_TEMPO_PKT_HEADER(DRM_TEMPO_PKT_WRITE_DATA, 4);
	cs[1] = (uint32_t)dst;
	cs[2] = (uint32_t)(dst >> 32);
	cs[3] = value;
	cs[4] = DRM_TEMPO_PKT_HEADER(DRM_TEMPO_PKT_END, 1);
	return 5;
}

/*
 * Wait up to 5 s for a binary syncobj (@point 0) or a timeline point.
 * libdrm's syncobj wait functions return -errno themselves.
 */
int ex_syncobj_wait(int fd, uint32_t syncobj, uint64_t point)
{
	struct timespec now;
	int64_t deadline;

	clock_gettime(CLOCK_MONOTONIC, &now);
	deadline = now.tv_sec * 1000000000ll + now.tv_nsec + 5000000000ll;
	if (point)
		return drmSyncobjTimelineWait(fd, &syncobj, &point, 1, deadline,
					      0, NULL);
	return drmSyncobjWait(fd, &syncobj, 1, deadline, 0, NULL);
}
/* end of example */
