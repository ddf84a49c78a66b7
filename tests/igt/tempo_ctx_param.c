// SPDX-License-Identifier: GPL-2.0-only
/*
 * Context priority as a parameter (DRM_TEMPO_CTX_PARAM_PRIORITY):
 *
 *   invalid             a priority outside -1023..1023 is refused with
 *                       EINVAL, at creation and as a change, and a refused
 *                       change leaves the old value
 *   set-priority-range  root sets and reads back every level of the range;
 *                       a process without CAP_SYS_NICE reads NORMAL as its
 *                       ceiling, sets every level up to it and is refused
 *                       every level above it with EACCES
 */
#include <errno.h>

#include "drmtest.h"
#include "igt_aux.h"
#include "igt_core.h"

#include "lib/tempo_igt.h"

IGT_TEST_DESCRIPTION("Check tempo's context priority parameter.");

static int64_t priority(int fd, uint32_t ctx)
{
	return tempo_igt_ctx_get_param(fd, ctx, DRM_TEMPO_CTX_PARAM_PRIORITY);
}

static int set_priority(int fd, uint32_t ctx, int64_t value)
{
	return tempo_ctx_set_param(fd, ctx, DRM_TEMPO_CTX_PARAM_PRIORITY,
				   value);
}

static void invalid(int fd)
{
	static const int64_t bad[] = {
		DRM_TEMPO_PRIORITY_VERY_LOW - 1,
		DRM_TEMPO_PRIORITY_VERY_HIGH + 1,
		DRM_TEMPO_PRIORITY_UNSET,
		INT32_MIN, INT32_MAX,
		(int64_t)1 << 32, -((int64_t)1 << 32),
		INT64_MIN, INT64_MAX,
	};
	uint32_t ctx = tempo_igt_ctx_create(fd, DRM_TEMPO_PRIORITY_LOW);
	uint32_t other;

	for (unsigned int i = 0; i < ARRAY_SIZE(bad); i++) {
		igt_debug("priority %lld\n", (long long)bad[i]);
		igt_assert_eq(set_priority(fd, ctx, bad[i]), -EINVAL);
		igt_assert_eq_s64(priority(fd, ctx), DRM_TEMPO_PRIORITY_LOW);
		if (bad[i] != (int32_t)bad[i])
			continue;
		igt_assert_eq(tempo_ctx_create(fd, bad[i], NULL, 0, &other),
			      -EINVAL);
	}
	/* A context that does not exist. */
	tempo_igt_ctx_destroy(fd, ctx);
	igt_assert_eq(set_priority(fd, ctx, DRM_TEMPO_PRIORITY_NORMAL),
		      -ENOENT);
}

/* Sets @value on @ctx and checks the result and what the context reads. */
static void check_level(int fd, uint32_t ctx, int32_t value, int32_t ceiling)
{
	int64_t before = priority(fd, ctx);

	if (value <= ceiling) {
		igt_assert_eq(set_priority(fd, ctx, value), 0);
		igt_assert_eq_s64(priority(fd, ctx), value);
	} else {
		igt_assert_eq(set_priority(fd, ctx, value), -EACCES);
		igt_assert_eq_s64(priority(fd, ctx), before);
	}
}

/* Every level from VERY_LOW to VERY_HIGH, the named ones included. */
static void sweep(int fd, int32_t ceiling)
{
	struct drm_tempo_query_device dev;
	uint32_t ctx, other;
	int32_t p;

	tempo_igt_query_device(fd, &dev);
	igt_assert_eq(dev.max_priority, ceiling);

	ctx = tempo_igt_ctx_create(fd, DRM_TEMPO_PRIORITY_NORMAL);
	for (p = DRM_TEMPO_PRIORITY_VERY_LOW; p <= DRM_TEMPO_PRIORITY_VERY_HIGH;
	     p++)
		check_level(fd, ctx, p, ceiling);
	/* Going down again, from the top this caller may reach. */
	for (p = ceiling; p >= DRM_TEMPO_PRIORITY_VERY_LOW; p -= 31)
		check_level(fd, ctx, p, ceiling);
	tempo_igt_ctx_destroy(fd, ctx);

	/* Creation follows the same ceiling. */
	igt_assert_eq(tempo_ctx_create(fd, ceiling, NULL, 0, &other), 0);
	igt_assert_eq_s64(priority(fd, other), ceiling);
	tempo_igt_ctx_destroy(fd, other);
	if (ceiling < DRM_TEMPO_PRIORITY_VERY_HIGH)
		igt_assert_eq(tempo_ctx_create(fd, ceiling + 1, NULL, 0,
					       &other), -EACCES);
}

static void set_priority_range(int fd)
{
	igt_require_f(getuid() == 0, "needs root (CAP_SYS_NICE)\n");
	sweep(fd, DRM_TEMPO_PRIORITY_VERY_HIGH);

	igt_fork(child, 1) {
		igt_drop_root();
		sweep(fd, DRM_TEMPO_PRIORITY_NORMAL);
	}
	igt_waitchildren();
}

igt_main
{
	int fd = -1;

	igt_fixture
		fd = tempo_igt_open();

	igt_describe("Out-of-range priorities fail with EINVAL and change nothing.");
	igt_subtest("invalid")
		invalid(fd);

	igt_describe("Every priority up to the caller's ceiling is set and read back; above it, EACCES.");
	igt_subtest("set-priority-range")
		set_priority_range(fd);

	igt_fixture
		drm_close_driver(fd);
}
