// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe drm_driver_gem_prime_mmap: struct drm_driver maps exported buffers
 * through gem_prime_mmap, and the PRIME ioctls have no default for
 * prime_handle_to_fd and prime_fd_to_handle (-ENOSYS without them, and no
 * mmap() of an exported buffer). Mainline made DRM's helpers the defaults and
 * dropped the member in the same release.
 *
 * Upstream: "drm/prime: Unexport helpers for fd/handle conversion" and "drm:
 *   Remove struct drm_driver.gem_prime_mmap", 6.6.
 * Debian: 6.1 has it; 6.12 and 7.3 do not.
 */
#include <drm/drm_drv.h>
#include <drm/drm_prime.h>

const struct drm_driver probe = { .gem_prime_mmap = drm_gem_prime_mmap };
