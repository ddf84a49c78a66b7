// SPDX-License-Identifier: GPL-2.0-only
/*
 * The examples of the uAPI guide, Documentation/examples/uapi, as
 * Documentation/uapi.rst shows them: each is called here and must
 * succeed, the examples of the documented errors included. The SCHED example needs
 * CAP_SYS_NICE: without it, it must fail with -EACCES and the test skips.
 */
#include "tempo_test.h"
#include "examples.h"

FIXTURE(examples) {
	int fd;
	struct drm_tempo_query_device dev;
	uint32_t ctx;		/* default engine map */
};

FIXTURE_SETUP(examples)
{
	TEMPO_OPEN_SETUP(self->fd);
	ASSERT_EQ(0, example_query(self->fd, &self->dev));
	ASSERT_EQ(0, example_ctx_create_default(self->fd, &self->ctx));
	ASSERT_NE(0u, self->ctx);
}

FIXTURE_TEARDOWN(examples)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* SKIP without a compute and a copy engine. */
#define NEED_COMPUTE_AND_COPY() do {					\
	if (!has_engine(self->fd, DRM_TEMPO_ENGINE_CLASS_COMPUTE) ||	\
	    !has_engine(self->fd, DRM_TEMPO_ENGINE_CLASS_COPY))		\
		SKIP(return, "needs a compute and a copy engine");	\
} while (0)

static bool has_engine(int fd, uint16_t engine_class)
{
	struct drm_tempo_engine e[8];

	return ex_engines_of_class(fd, engine_class, e, 8) >= 1;
}

/* A context made by @create must be destroyed by example_ctx_destroy(). */
static void create_and_destroy(struct __test_metadata *_metadata, int fd,
			       int (*create)(int fd, uint32_t *ctx_id))
{
	uint32_t ctx;

	ASSERT_EQ(0, create(fd, &ctx));
	ASSERT_EQ(0, example_ctx_destroy(fd, ctx));
}

TEST_F(examples, query)
{
	struct drm_tempo_query_device dev;
	struct drm_tempo_query_engines *engines;
	uint32_t size = 0;

	ASSERT_EQ(0, example_query(self->fd, &dev));
	ASSERT_LT(0u, dev.num_engines);
	ASSERT_LT(dev.va_start, dev.va_end);
	engines = ex_query(self->fd, DRM_TEMPO_QUERY_ENGINES, &size);
	ASSERT_TRUE(engines != NULL);
	ASSERT_EQ(dev.num_engines, engines->num_engines);
	free(engines);
	ASSERT_EQ(0, example_query_errors(self->fd));
}

TEST_F(examples, query_limits)
{
	struct drm_tempo_query_limits limits;

	ASSERT_EQ(0, example_query_limits(self->fd, &limits));
	ASSERT_LT(0u, limits.max_contexts);
	ASSERT_LT(0u, limits.max_mappings);
	ASSERT_LT(0u, limits.max_jobs);
	ASSERT_LT(0u, limits.close_wait_ms);
}

TEST_F(examples, bo_create)
{
	uint32_t handle = 0;

	ASSERT_EQ(0, example_bo_create(self->fd, 10000, &handle));
	ASSERT_NE(0u, handle);
	ASSERT_EQ(0, tempo_gem_close(self->fd, handle));
	ASSERT_EQ(0, example_bo_create_errors(self->fd));
}

TEST_F(examples, bo_mmap_offset)
{
	uint32_t handle;
	void *cpu = NULL;

	ASSERT_EQ(0, example_bo_create(self->fd, 8192, &handle));
	ASSERT_EQ(0, example_bo_mmap(self->fd, handle, 8192, &cpu));
	ASSERT_TRUE(tempo_bo_is_zero(&(struct tempo_bo){ .map = cpu }, 0,
				     8192));
	memset(cpu, 0x5a, 8192);
	ASSERT_EQ(0, tempo_gem_close(self->fd, handle));
	ASSERT_EQ(0x5a, ((unsigned char *)cpu)[8191]);
	munmap(cpu, 8192);
	ASSERT_EQ(0, example_bo_mmap_offset_errors(self->fd));
}

TEST_F(examples, vm_map_and_unmap)
{
	const uint64_t size = 16384;
	struct ex_mappings maps;
	uint32_t handle;

	ASSERT_EQ(0, example_bo_create(self->fd, size, &handle));
	ASSERT_EQ(0, example_vm_map(self->fd, &self->dev, handle, size,
				    &maps));
	ASSERT_EQ(self->dev.va_start, maps.fixed);
	ASSERT_NE(0u, maps.autova);
	ASSERT_NE(0u, maps.readonly);
	ASSERT_EQ(0, example_vm_map_errors(self->fd, handle, maps.fixed,
					   size));
	ASSERT_EQ(0, example_vm_unmap_errors(self->fd, maps.autova, size));
	ASSERT_EQ(0, example_vm_unmap(self->fd, maps.fixed, size));
	ASSERT_EQ(0, example_vm_unmap(self->fd, maps.autova, size));
	ASSERT_EQ(0, example_vm_unmap(self->fd, maps.readonly, size));
	ASSERT_EQ(-ENOENT, example_vm_unmap(self->fd, maps.fixed, size));
	ASSERT_EQ(0, tempo_gem_close(self->fd, handle));
}

TEST_F(examples, ctx_create)
{
	uint32_t ctx;
	int32_t prio;

	ASSERT_EQ(0, example_ctx_create_default(self->fd, &ctx));
	ASSERT_EQ(0, example_ctx_destroy(self->fd, ctx));

	ASSERT_EQ(0, example_ctx_create_priority(self->fd, &self->dev, &ctx,
						 &prio));
	ASSERT_EQ(tempo_has_cap_sys_nice() ? DRM_TEMPO_PRIORITY_HIGH :
		  self->dev.max_priority, prio);
	ASSERT_EQ(0, example_ctx_destroy(self->fd, ctx));

	ASSERT_EQ(0, example_ctx_create_errors(self->fd, &self->dev));
}

TEST_F(examples, ctx_create_slots)
{
	NEED_COMPUTE_AND_COPY();
	create_and_destroy(_metadata, self->fd, example_ctx_create_slots);
}

TEST_F(examples, ctx_create_load_balance)
{
	NEED_COMPUTE_AND_COPY();
	create_and_destroy(_metadata, self->fd,
			   example_ctx_create_load_balance);
}

TEST_F(examples, ctx_create_parallel)
{
	uint32_t ctx;
	int ret;

	ret = example_ctx_create_parallel(self->fd, &self->dev, 2, &ctx);
	if (ret == -ENODEV)
		SKIP(return, "no two compute engines for a parallel slot");
	ASSERT_EQ(0, ret);
	ASSERT_EQ(0, example_ctx_destroy(self->fd, ctx));
}

TEST_F(examples, ctx_destroy)
{
	ASSERT_EQ(0, example_ctx_destroy(self->fd, self->ctx));
	ASSERT_EQ(-ENOENT, example_ctx_destroy(self->fd, self->ctx));
	ASSERT_EQ(0, example_ctx_destroy_errors(self->fd));
}

TEST_F(examples, ctx_param_priority)
{
	int64_t prio;

	ASSERT_EQ(0, example_ctx_priority(self->fd, &self->dev, self->ctx));
	ASSERT_EQ(0, tempo_ctx_get_priority(self->fd, self->ctx, &prio));
	ASSERT_EQ(DRM_TEMPO_PRIORITY_LOW, prio);
	ASSERT_EQ(0, example_ctx_param_errors(self->fd, self->ctx));
}

TEST_F(examples, ctx_param_reset_status)
{
	struct drm_tempo_ctx_param status = {
		.param = DRM_TEMPO_CTX_PARAM_RESET_STATUS,
	};
	uint32_t ctx = self->ctx;

	ASSERT_EQ(0, example_ctx_reset_status(self->fd, &ctx));
	/* The replacement (the id may be reused) is innocent and works. */
	status.ctx_id = ctx;
	ASSERT_EQ(0, ioctl(self->fd, DRM_IOCTL_TEMPO_CTX_GET_PARAM, &status));
	ASSERT_EQ(0, status.value & DRM_TEMPO_RESET_STATUS_GUILTY);
	ASSERT_EQ(0, example_exec_sync_file(self->fd, ctx));
}

TEST_F(examples, exec_syncobjs)
{
	if (self->dev.num_engines < 2)
		SKIP(return, "needs two engines");
	ASSERT_EQ(0, example_exec_syncobjs(self->fd, self->ctx));
}

TEST_F(examples, exec_sync_file)
{
	ASSERT_EQ(0, example_exec_sync_file(self->fd, self->ctx));
}

TEST_F(examples, exec_parallel)
{
	int ret = example_exec_parallel(self->fd, &self->dev);

	if (ret == -ENODEV)
		SKIP(return, "no two compute engines for a parallel slot");
	ASSERT_EQ(0, ret);
}

TEST_F(examples, exec_errors)
{
	ASSERT_EQ(0, example_exec_errors(self->fd, self->ctx));
	/* Nothing was queued: the context is not banned. */
	ASSERT_EQ(0, example_exec_sync_file(self->fd, self->ctx));
}

TEST_F(examples, sched)
{
	int game = tempo_device_open();
	int ret;

	ASSERT_LE(0, game);
	ASSERT_EQ(0, example_sched_errors(self->fd, game));
	ret = example_sched(self->fd, game);
	close(game);
	if (!tempo_has_cap_sys_nice()) {
		ASSERT_EQ(-EACCES, ret);
		SKIP(return, "needs CAP_SYS_NICE or DRM master");
	}
	ASSERT_EQ(0, ret);
}

TEST_HARNESS_MAIN
