// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * Waiting: sync_files, syncobjs, and the clock they are measured with.
 */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include <linux/sync_file.h>
#include <xf86drm.h>

#include "tempo_uapi.h"

uint64_t tempo_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int64_t tempo_deadline_ns(int timeout_ms)
{
	return (int64_t)(tempo_now_ns() + (uint64_t)timeout_ms * 1000000ull);
}

void tempo_sleep_ms(int ms)
{
	struct timespec ts = {
		.tv_sec = ms / 1000,
		.tv_nsec = (long)(ms % 1000) * 1000000l,
	};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int tempo_fence_status(int fence_fd)
{
	struct sync_file_info info;

	memset(&info, 0, sizeof(info));
	if (ioctl(fence_fd, SYNC_IOC_FILE_INFO, &info))
		return TEMPO_FENCE_UNREADABLE - errno;
	return info.status;
}

int tempo_fence_timestamp(int fence_fd, uint64_t *timestamp_ns)
{
	struct sync_fence_info one;
	struct sync_file_info info;

	memset(&one, 0, sizeof(one));
	memset(&info, 0, sizeof(info));
	info.num_fences = 1;
	info.sync_fence_info = (uint64_t)(uintptr_t)&one;
	if (ioctl(fence_fd, SYNC_IOC_FILE_INFO, &info))
		return TEMPO_FENCE_UNREADABLE - errno;
	*timestamp_ns = one.timestamp_ns;
	return info.status;
}

int tempo_fence_wait(int fence_fd, int timeout_ms)
{
	struct pollfd p = { .fd = fence_fd, .events = POLLIN };
	uint64_t end = tempo_now_ns() + (uint64_t)timeout_ms * 1000000ull;

	for (;;) {
		uint64_t now = tempo_now_ns();
		int ret;

		if (now >= end)
			break;
		ret = poll(&p, 1, (int)((end - now + 999999) / 1000000));
		if (ret > 0 || (ret < 0 && errno != EINTR))
			break;
	}
	return tempo_fence_status(fence_fd);
}

int tempo_syncobj_wait(int fd, uint32_t handle, uint64_t point,
		       int timeout_ms)
{
	int64_t deadline = tempo_deadline_ns(timeout_ms);

	if (point)
		return drmSyncobjTimelineWait(fd, &handle, &point, 1, deadline,
					      0, NULL);
	return drmSyncobjWait(fd, &handle, 1, deadline, 0, NULL);
}

bool tempo_syncobj_has_fence(int fd, uint32_t handle)
{
	int sync_file = -1;

	if (drmSyncobjExportSyncFile(fd, handle, &sync_file))
		return false;
	close(sync_file);
	return true;
}

int tempo_syncobj_status(int fd, uint32_t handle, int timeout_ms)
{
	int sync_file = -1;
	int ret;

	if (drmSyncobjExportSyncFile(fd, handle, &sync_file))
		return -ENOENT;
	ret = tempo_fence_wait(sync_file, timeout_ms);
	close(sync_file);
	return ret;
}
