// SPDX-License-Identifier: GPL-2.0-only
/*
 * Probe: struct drm_driver maps exported buffers through gem_prime_mmap.
 * Kernels that have it (6.1) fail mmap() of a dma-buf without it.
 */
#include <drm/drm_drv.h>
#include <drm/drm_prime.h>

const struct drm_driver probe = { .gem_prime_mmap = drm_gem_prime_mmap };
