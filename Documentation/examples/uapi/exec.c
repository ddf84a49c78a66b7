// SPDX-License-Identifier: MIT
/*
 * uAPI guide example: DRM_IOCTL_TEMPO_EXEC with binary and timeline
 * syncobjs, with a sync_file out-fence, and on a parallel slot.
 */
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include <linux/sync_file.h>
#include <xf86drm.h>
#include <drm/tempo_drm.h>

#include "examples.h"

/* example: exec-syncobjs */
/*
 * Job A, on slot 0, signals point 1 of a timeline syncobj. Job B, on
 * slot 1 (another engine of the default map), waits for that point and
 * signals a binary syncobj, which the CPU waits for.
 */
int example_exec_syncobjs(int fd, uint32_t ctx_id)
{
	struct drm_tempo_sync point1 = { .point = 1 }, done = { .point = 0 };
	struct drm_tempo_exec exec = {
		.ctx_id = ctx_id,
		.num_batches = 1,
		.out_fence_fd = -1,
	};
	uint64_t batch_a, batch_b;
	struct tempo_bo buf;
	uint32_t *cpu;
	int ret;

	if (drmSyncobjCreate(fd, 0, &point1.handle))
		return -errno;
	if (drmSyncobjCreate(fd, 0, &done.handle)) {
		ret = -errno;
		goto out_timeline;
	}
	ret = tempo_bo_new(fd, 65536, 0, &buf);
	if (ret)
		goto out_done;
	cpu = buf.map;
	batch_a = ex_batch_write(&buf, 0, buf.va + 4096, 1);
	batch_b = ex_batch_write(&buf, 256, buf.va + 4100, 2);

	exec.slot = 0;
	exec.batches = (uintptr_t)&batch_a;
	exec.num_out_syncs = 1;
	exec.out_syncs = (uintptr_t)&point1;
	if (drmIoctl(fd, DRM_IOCTL_TEMPO_EXEC, &exec)) {
		ret = -errno;
		goto out;
	}

	exec.slot = 1;
	exec.batches = (uintptr_t)&batch_b;
	exec.num_in_syncs = 1;
	exec.in_syncs = (uintptr_t)&point1;
	exec.out_syncs = (uintptr_t)&done;
	ret = drmIoctl(fd, DRM_IOCTL_TEMPO_EXEC, &exec) ? -errno : 0;

	/* Either wait works: the timeline point, or the binary syncobj. */
	if (!ret)
		ret = tempo_syncobj_wait(fd, point1.handle, 1, 5000);
	if (!ret)
		ret = tempo_syncobj_wait(fd, done.handle, 0, 5000);
	if (!ret && (cpu[1024] != 1 || cpu[1025] != 2))
		ret = -EPROTO;
out:
	tempo_bo_del(fd, &buf);
out_done:
	drmSyncobjDestroy(fd, done.handle);
out_timeline:
	drmSyncobjDestroy(fd, point1.handle);
	return ret;
}
/* end of example */

/* example: exec-sync-file */
/*
 * Wait for a sync_file and return its status: 1 when the job succeeded,
 * the job's -errno when it failed (-EFAULT, -ETIMEDOUT, -ECANCELED, ...),
 * -ETIME when it did not finish in time.
 */
int ex_sync_file_wait(int fence_fd, int timeout_ms)
{
	struct pollfd pfd = { .fd = fence_fd, .events = POLLIN };
	struct sync_file_info info;
	int ret;

	do {
		ret = poll(&pfd, 1, timeout_ms);
	} while (ret < 0 && errno == EINTR);
	if (ret < 0)
		return -errno;
	if (ret == 0)
		return -ETIME;
	memset(&info, 0, sizeof(info));
	if (ioctl(fence_fd, SYNC_IOC_FILE_INFO, &info))
		return -errno;
	return info.status;
}

int example_exec_sync_file(int fd, uint32_t ctx_id)
{
	struct drm_tempo_exec exec = {
		.ctx_id = ctx_id,
		.slot = 0,
		.flags = DRM_TEMPO_EXEC_OUT_SYNC_FILE,
		.num_batches = 1,
	};
	struct tempo_bo buf;
	uint64_t batch;
	int ret;

	ret = tempo_bo_new(fd, 8192, 0, &buf);
	if (ret)
		return ret;
	batch = ex_batch_write(&buf, 0, buf.va + 4096, 42);
	exec.batches = (uintptr_t)&batch;
	if (drmIoctl(fd, DRM_IOCTL_TEMPO_EXEC, &exec)) {
		ret = -errno;
		goto out;
	}
	/* A sync_file fd: poll() it, pass it on, or import it elsewhere. */
	ret = ex_sync_file_wait(exec.out_fence_fd, 5000);
	close(exec.out_fence_fd);
	if (ret == 1)
		ret = ((uint32_t *)buf.map)[1024] == 42 ? 0 : -EPROTO;
	else if (ret == 0)
		ret = -EPROTO;
out:
	tempo_bo_del(fd, &buf);
	return ret;
}
/* end of example */

/* example: exec-parallel */
/*
 * A gang of two batches on the parallel slot of
 * example_ctx_create_parallel(): num_batches is the slot's width, batch i
 * runs on an engine of column i, and the one fence signals when both are
 * done. Each batch writes the id of the engine it ran on.
 */
int example_exec_parallel(int fd, const struct drm_tempo_query_device *dev)
{
	struct drm_tempo_exec exec = {
		.slot = 0,
		.flags = DRM_TEMPO_EXEC_OUT_SYNC_FILE,
		.num_batches = 2,
	};
	struct tempo_batch batch;
	struct tempo_bo buf;
	uint64_t batches[2];
	uint32_t *ids, i;
	int ret;

	ret = example_ctx_create_parallel(fd, dev, 2, &exec.ctx_id);
	if (ret)
		return ret;
	ret = tempo_bo_new(fd, 8192, 0, &buf);
	if (ret)
		goto out_ctx;
	for (i = 0; i < 2; i++) {
		tempo_batch_init(&batch, &buf, 256 * i, 16);
		tempo_pkt_write_engine_id(&batch, buf.va + 4096 + 4 * i);
		tempo_pkt_end(&batch);
		batches[i] = batch.va;
	}
	exec.batches = (uintptr_t)batches;
	if (drmIoctl(fd, DRM_IOCTL_TEMPO_EXEC, &exec)) {
		ret = -errno;
		goto out_buf;
	}
	ret = ex_sync_file_wait(exec.out_fence_fd, 5000);
	close(exec.out_fence_fd);
	ids = (uint32_t *)buf.map + 1024;
	if (ret == 1)	/* two different engines, both compute */
		ret = ids[0] != ids[1] &&
		      ids[0] >> 16 == DRM_TEMPO_ENGINE_CLASS_COMPUTE &&
		      ids[1] >> 16 == DRM_TEMPO_ENGINE_CLASS_COMPUTE ?
		      0 : -EPROTO;
	else if (ret == 0)
		ret = -EPROTO;
out_buf:
	tempo_bo_del(fd, &buf);
out_ctx:
	example_ctx_destroy(fd, exec.ctx_id);
	return ret;
}
/* end of example */

/* example: exec-errors */
int example_exec_errors(int fd, uint32_t ctx_id)
{
	struct drm_tempo_sync empty = { 0 };
	uint64_t batches[2] = { 0, 0 };
	struct drm_tempo_exec exec = {
		.ctx_id = ctx_id,
		.slot = 0,
		.num_batches = 2,
		.batches = (uintptr_t)batches,
		.out_fence_fd = -1,
	};
	int ret = 0;

	/* Two batches on a slot of width 1: -EINVAL. Nothing is queued. */
	if (!ex_fails_with(fd, DRM_IOCTL_TEMPO_EXEC, &exec, EINVAL))
		return -EPROTO;

	/* Waiting on a syncobj that has no fence yet: -ENOENT. */
	if (drmSyncobjCreate(fd, 0, &empty.handle))
		return -errno;
	exec.num_batches = 1;
	exec.num_in_syncs = 1;
	exec.in_syncs = (uintptr_t)&empty;
	if (!ex_fails_with(fd, DRM_IOCTL_TEMPO_EXEC, &exec, ENOENT))
		ret = -EPROTO;
	drmSyncobjDestroy(fd, empty.handle);
	if (ret)
		return ret;

	/* A flag bit that is not defined: -EINVAL. */
	exec.num_in_syncs = 0;
	exec.flags = 1u << 31;
	if (!ex_fails_with(fd, DRM_IOCTL_TEMPO_EXEC, &exec, EINVAL))
		return -EPROTO;
	return 0;
}
/* end of example */
