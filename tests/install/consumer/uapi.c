// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * The installed uAPI header, <drm/tempo_drm.h>, compiles on its own in C.
 */
#include <stdio.h>

#include <drm/tempo_drm.h>

_Static_assert(sizeof(struct drm_tempo_query) % 8 == 0, "uAPI structures are 8-byte aligned");

int main(void)
{
	printf("DRM_IOCTL_TEMPO_QUERY 0x%lx\n", (unsigned long)DRM_IOCTL_TEMPO_QUERY);
	return 0;
}
