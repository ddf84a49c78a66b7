// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: struct drm_driver names the PRIME fd/handle helpers. Kernels whose
 * PRIME ioctls have no default for them (6.1) need the driver to set them.
 */
#include <drm/drm_drv.h>
#include <drm/drm_prime.h>

const struct drm_driver probe = {
	.prime_handle_to_fd = drm_gem_prime_handle_to_fd,
	.prime_fd_to_handle = drm_gem_prime_fd_to_handle,
};
