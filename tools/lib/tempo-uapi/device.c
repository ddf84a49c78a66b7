// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * Finding and opening the tempo device.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xf86drm.h>

#include "tempo_uapi.h"

/* drmGetDevices2() entries looked at: more DRM devices than any host has. */
#define MAX_DEVICES	64

bool tempo_is_tempo(int fd)
{
	drmVersionPtr v = drmGetVersion(fd);
	bool ret = v && v->name && !strcmp(v->name, "tempo");

	drmFreeVersion(v);
	return ret;
}

/* $TEMPO_DEVICE, or NULL when it is unset or empty. */
static const char *device_env(void)
{
	const char *path = getenv(TEMPO_DEVICE_ENV);

	return path && *path ? path : NULL;
}

/* Open @path; the fd if its driver is tempo, else -ENODEV or -errno. */
static int open_node(const char *path)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (!tempo_is_tempo(fd)) {
		close(fd);
		return -ENODEV;
	}
	return fd;
}

static void copy_path(char *path, size_t len, const char *node)
{
	if (path && len)
		snprintf(path, len, "%s", node);
}

/*
 * The first render node of drmGetDevices2() driven by tempo, opened. A
 * node that cannot be opened may be tempo's: its errno wins over -ENODEV.
 */
static int open_first_render(char *path, size_t len)
{
	drmDevicePtr devices[MAX_DEVICES];
	int n, i, fd, ret = -ENODEV;

	n = drmGetDevices2(0, devices, MAX_DEVICES);
	if (n < 0)
		return -ENODEV;	/* no /dev/dri at all */
	/* The count is of all devices, even those past the array. */
	if (n > MAX_DEVICES)
		n = MAX_DEVICES;
	for (i = 0; i < n; i++) {
		const char *node = devices[i]->nodes[DRM_NODE_RENDER];

		if (!(devices[i]->available_nodes & (1 << DRM_NODE_RENDER)))
			continue;
		fd = open_node(node);
		if (fd >= 0) {
			copy_path(path, len, node);
			ret = fd;
			break;
		}
		if (fd != -ENODEV && ret == -ENODEV)
			ret = fd;
	}
	drmFreeDevices(devices, n);
	return ret;
}

int tempo_device_open_path(char *path, size_t len)
{
	const char *env = device_env();
	int fd;

	if (!env)
		return open_first_render(path, len);
	fd = open_node(env);
	if (fd >= 0)
		copy_path(path, len, env);
	return fd;
}

int tempo_device_open(void)
{
	return tempo_device_open_path(NULL, 0);
}

int tempo_device_card_path(char *path, size_t len)
{
	int fd = tempo_device_open();
	char *card;

	if (fd < 0)
		return fd;
	card = drmGetPrimaryDeviceNameFromFd(fd);
	close(fd);
	if (!card)
		return -ENODEV;
	copy_path(path, len, card);
	free(card);
	return 0;
}
