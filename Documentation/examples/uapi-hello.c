// SPDX-License-Identifier: MIT
/*
 * The smallest complete use of the tempo uAPI: find the device, make a
 * buffer, map it for the GPU, write a batch, run it, wait, check.
 *
 * It needs the uAPI header, <drm/tempo_drm.h>, and libdrm, nothing else of
 * tempo. Build it against an installed tempo:
 *   cc -o uapi-hello uapi-hello.c $(pkg-config --cflags tempo) \
 *      $(pkg-config --libs libdrm)
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <xf86drm.h>
#include <drm/tempo_drm.h>

#define MAX_DEVICES	64	/* more DRM devices than a machine has */

/* The first render node whose driver is tempo, opened, or -1. */
static int open_tempo(void)
{
	drmDevicePtr devices[MAX_DEVICES];
	int n = drmGetDevices2(0, devices, MAX_DEVICES), fd = -1;

	/* It counts every device, and fills in MAX_DEVICES of them at most. */
	if (n > MAX_DEVICES)
		n = MAX_DEVICES;
	for (int i = 0; i < n && fd < 0; i++) {
		const char *node = devices[i]->nodes[DRM_NODE_RENDER];
		drmVersionPtr version;

		if (!(devices[i]->available_nodes & (1 << DRM_NODE_RENDER)))
			continue;
		fd = open(node, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		version = drmGetVersion(fd);
		if (!version || strcmp(version->name, "tempo")) {
			close(fd);
			fd = -1;
		}
		drmFreeVersion(version);
	}
	if (n > 0)
		drmFreeDevices(devices, n);
	return fd;
}

int main(void)
{
	struct drm_tempo_bo_create bo = { .size = 4096 };
	struct drm_tempo_bo_mmap_offset off = { 0 };
	struct drm_tempo_vm_map map = { .flags = DRM_TEMPO_VM_MAP_AUTO_VA,
					.size = 4096 };
	struct drm_tempo_ctx_create ctx = { .priority = DRM_TEMPO_PRIORITY_NORMAL };
	struct drm_tempo_sync done = { 0 };
	struct drm_tempo_exec exec = { 0 };
	uint32_t *cpu, n = 0;
	uint64_t batch, result;
	int fd = open_tempo();

	if (fd < 0) {
		fprintf(stderr, "no tempo device\n");
		return 77;
	}
	/* A buffer, visible to the CPU and to the GPU. */
	if (ioctl(fd, DRM_IOCTL_TEMPO_BO_CREATE, &bo))
		return 1;
	off.handle = bo.handle;
	map.handle = bo.handle;
	if (ioctl(fd, DRM_IOCTL_TEMPO_BO_MMAP_OFFSET, &off) ||
	    ioctl(fd, DRM_IOCTL_TEMPO_VM_MAP, &map))
		return 1;
	cpu = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   off.offset);
	if (cpu == MAP_FAILED)
		return 1;

	/* The batch at the start of the buffer writes 42 at offset 2048. */
	batch = map.va;
	result = map.va + 2048;
	cpu[n++] = DRM_TEMPO_PKT_HEADER(DRM_TEMPO_PKT_WRITE_DATA, 4);
	cpu[n++] = (uint32_t)result;
	cpu[n++] = (uint32_t)(result >> 32);
	cpu[n++] = 42;
	cpu[n++] = DRM_TEMPO_PKT_HEADER(DRM_TEMPO_PKT_END, 1);

	/* A context with the default engine map: slot 0 is the first engine. */
	if (ioctl(fd, DRM_IOCTL_TEMPO_CTX_CREATE, &ctx))
		return 1;
	if (drmSyncobjCreate(fd, 0, &done.handle))
		return 1;
	exec.ctx_id = ctx.ctx_id;
	exec.slot = 0;
	exec.num_batches = 1;
	exec.batches = (uintptr_t)&batch;
	exec.num_out_syncs = 1;
	exec.out_syncs = (uintptr_t)&done;
	if (ioctl(fd, DRM_IOCTL_TEMPO_EXEC, &exec))
		return 1;
	if (drmSyncobjWait(fd, &done.handle, 1, INT64_MAX, 0, NULL))
		return 1;

	printf("the GPU wrote %u\n", cpu[512]);
	return cpu[512] == 42 ? 0 : 1;
}
