// SPDX-License-Identifier: GPL-2.0-only
/*
 * DRM_IOCTL_TEMPO_QUERY: the size probe, argument checks and the values the
 * default emulated device reports.
 */
#include "tempo_test.h"

/* ------------------------------------------------------------------------ */
/* Argument checks, once per query id */

FIXTURE(query_each) {
	int fd;
	uint32_t size;		/* the size the probe reported */
	void *buf;		/* a buffer one page larger than that */
};

FIXTURE_VARIANT(query_each) {
	uint32_t query;
};

FIXTURE_VARIANT_ADD(query_each, device) { .query = DRM_TEMPO_QUERY_DEVICE };
FIXTURE_VARIANT_ADD(query_each, engines) { .query = DRM_TEMPO_QUERY_ENGINES };
FIXTURE_VARIANT_ADD(query_each, hqds) { .query = DRM_TEMPO_QUERY_HQDS };
FIXTURE_VARIANT_ADD(query_each, limits) { .query = DRM_TEMPO_QUERY_LIMITS };
FIXTURE_VARIANT_ADD(query_each, buffer_limits) {
	.query = DRM_TEMPO_QUERY_BUFFER_LIMITS,
};

FIXTURE_SETUP(query_each)
{
	self->buf = NULL;
	TEMPO_OPEN_SETUP(self->fd);
	self->size = 0;
	ASSERT_EQ(0, tempo_query(self->fd, variant->query, NULL, &self->size));
	ASSERT_NE(0u, self->size);
	self->buf = calloc(1, self->size + 4096);
	ASSERT_TRUE(self->buf != NULL);
}

FIXTURE_TEARDOWN(query_each)
{
	free(self->buf);
	if (self->fd >= 0)
		close(self->fd);
}

/* QUERY as given: 0 or -errno. */
static int query_raw(int fd, struct drm_tempo_query *q)
{
	return tempo_ioctl_raw(fd, DRM_IOCTL_TEMPO_QUERY, q);
}

static struct drm_tempo_query query_args(uint32_t id, uint32_t size,
					 const void *data)
{
	struct drm_tempo_query q = {
		.query = id,
		.size = size,
		.data = (uint64_t)(uintptr_t)data,
	};

	return q;
}

TEST_F(query_each, probe_with_size_zero_returns_size_and_leaves_data)
{
	struct drm_tempo_query q = query_args(variant->query, 0, self->buf);

	memset(self->buf, 0xa5, self->size);
	ASSERT_EQ(0, query_raw(self->fd, &q));
	ASSERT_EQ(self->size, q.size);
	for (uint32_t i = 0; i < self->size; i++)
		ASSERT_EQ(0xa5, ((unsigned char *)self->buf)[i]);
}

TEST_F(query_each, probe_with_size_zero_ignores_bad_data_pointer)
{
	struct drm_tempo_query q = query_args(variant->query, 0, NULL);

	q.data = tempo_bad_ptr();
	ASSERT_EQ(0, query_raw(self->fd, &q));
	ASSERT_EQ(self->size, q.size);
}

TEST_F(query_each, read_with_exact_size_succeeds)
{
	struct drm_tempo_query q = query_args(variant->query, self->size,
					      self->buf);

	ASSERT_EQ(0, query_raw(self->fd, &q));
	ASSERT_EQ(self->size, q.size);
}

TEST_F(query_each, read_writes_exactly_size_bytes)
{
	struct drm_tempo_query q = query_args(variant->query, self->size,
					      self->buf);
	unsigned char *p = self->buf;

	memset(p, 0xa5, self->size + 4096);
	ASSERT_EQ(0, query_raw(self->fd, &q));
	for (uint32_t i = self->size; i < self->size + 4096; i++)
		ASSERT_EQ(0xa5, p[i]);
}

TEST_F(query_each, read_with_size_too_small_fails_einval)
{
	struct drm_tempo_query q = query_args(variant->query, self->size - 1,
					      self->buf);

	ASSERT_EQ(-EINVAL, query_raw(self->fd, &q));
}

TEST_F(query_each, read_with_size_too_large_fails_einval)
{
	struct drm_tempo_query q = query_args(variant->query, self->size + 8,
					      self->buf);

	ASSERT_EQ(-EINVAL, query_raw(self->fd, &q));
}

TEST_F(query_each, read_with_size_max_fails_einval)
{
	struct drm_tempo_query q = query_args(variant->query, UINT32_MAX,
					      self->buf);

	ASSERT_EQ(-EINVAL, query_raw(self->fd, &q));
}

TEST_F(query_each, nonzero_flags_fails_einval)
{
	struct drm_tempo_query q = query_args(variant->query, self->size,
					      self->buf);

	q.flags = 1;
	ASSERT_EQ(-EINVAL, query_raw(self->fd, &q));
}

TEST_F(query_each, nonzero_pad_fails_einval)
{
	struct drm_tempo_query q = query_args(variant->query, self->size,
					      self->buf);

	q.pad = 1;
	ASSERT_EQ(-EINVAL, query_raw(self->fd, &q));
}

TEST_F(query_each, nonzero_extensions_fails_einval)
{
	struct drm_tempo_user_extension ext = { .name = 0x7e4d };
	struct drm_tempo_query q = query_args(variant->query, self->size,
					      self->buf);

	q.extensions = (uint64_t)(uintptr_t)&ext;
	ASSERT_EQ(-EINVAL, query_raw(self->fd, &q));
}

TEST_F(query_each, probe_with_nonzero_flags_fails_einval)
{
	struct drm_tempo_query q = query_args(variant->query, 0, NULL);

	q.flags = 1u << 31;
	ASSERT_EQ(-EINVAL, query_raw(self->fd, &q));
}

TEST_F(query_each, bad_data_pointer_fails_efault)
{
	struct drm_tempo_query q = query_args(variant->query, self->size,
					      NULL);

	q.data = tempo_bad_ptr();
	ASSERT_EQ(-EFAULT, query_raw(self->fd, &q));
}

TEST_F(query_each, data_buffer_running_into_unmapped_page_fails_efault)
{
	struct drm_tempo_query q = query_args(variant->query, self->size,
					      NULL);

	/* All but the last byte of the buffer is writable. */
	q.data = tempo_bad_ptr() - self->size + 1;
	ASSERT_EQ(-EFAULT, query_raw(self->fd, &q));
}

/* ------------------------------------------------------------------------ */
/* Query ids and the values of the default device */

FIXTURE(query) {
	int fd;
	struct drm_tempo_query_device dev;
	struct drm_tempo_query_engines *engines;
	struct drm_tempo_query_hqds *hqds;
	uint32_t engines_size;
	uint32_t hqds_size;
};

FIXTURE_SETUP(query)
{
	self->engines = NULL;
	self->hqds = NULL;
	TEMPO_OPEN_SETUP(self->fd);
	ASSERT_EQ(0, tempo_query_device(self->fd, &self->dev));
	self->engines = tempo_query_alloc(self->fd, DRM_TEMPO_QUERY_ENGINES,
					  &self->engines_size);
	ASSERT_TRUE(self->engines != NULL);
	self->hqds = tempo_query_alloc(self->fd, DRM_TEMPO_QUERY_HQDS,
				       &self->hqds_size);
	ASSERT_TRUE(self->hqds != NULL);
}

FIXTURE_TEARDOWN(query)
{
	free(self->engines);
	free(self->hqds);
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(query, unknown_query_id_fails_einval)
{
	uint32_t ids[] = { DRM_TEMPO_QUERY_BUFFER_LIMITS + 1, 0x100,
			   UINT32_MAX };
	char buf[4096];

	for (unsigned int i = 0; i < TEMPO_ARRAY_SIZE(ids); i++) {
		struct drm_tempo_query q = query_args(ids[i], 0, NULL);

		ASSERT_EQ(-EINVAL, query_raw(self->fd, &q));

		q = query_args(ids[i], sizeof(buf), buf);
		ASSERT_EQ(-EINVAL, query_raw(self->fd, &q));
	}
}

TEST_F(query, device_size_is_struct_size)
{
	uint32_t size = 0;

	ASSERT_EQ(0, tempo_query(self->fd, DRM_TEMPO_QUERY_DEVICE, NULL,
				 &size));
	ASSERT_EQ(sizeof(struct drm_tempo_query_device), size);
}

TEST_F(query, engines_size_matches_num_engines)
{
	ASSERT_EQ(sizeof(struct drm_tempo_query_engines) +
		  self->engines->num_engines *
		  sizeof(struct drm_tempo_engine_info),
		  self->engines_size);
	ASSERT_EQ(self->dev.num_engines, self->engines->num_engines);
	ASSERT_EQ(0u, self->engines->pad);
}

TEST_F(query, hqds_size_matches_num_hqds)
{
	ASSERT_EQ(sizeof(struct drm_tempo_query_hqds) +
		  self->hqds->num_hqds * sizeof(struct drm_tempo_hqd_info),
		  self->hqds_size);
	ASSERT_EQ(self->dev.num_hqds, self->hqds->num_hqds);
	ASSERT_EQ(0u, self->hqds->pad);
}

TEST_F(query, default_topology_is_1_gfx_4_compute_2_copy)
{
	ASSERT_EQ(7u, self->dev.num_engines);
	ASSERT_EQ(1u, tempo_count_class(self->engines,
					DRM_TEMPO_ENGINE_CLASS_GFX));
	ASSERT_EQ(4u, tempo_count_class(self->engines,
					DRM_TEMPO_ENGINE_CLASS_COMPUTE));
	ASSERT_EQ(2u, tempo_count_class(self->engines,
					DRM_TEMPO_ENGINE_CLASS_COPY));
}

TEST_F(query, engines_are_ordered_by_class_then_instance)
{
	const struct drm_tempo_engine_info *e = self->engines->engines;

	ASSERT_LT(0u, self->engines->num_engines);
	ASSERT_EQ(DRM_TEMPO_ENGINE_CLASS_GFX, e[0].engine_class);
	ASSERT_EQ(0, e[0].engine_instance);
	for (uint32_t i = 1; i < self->engines->num_engines; i++) {
		ASSERT_LE(e[i - 1].engine_class, e[i].engine_class);
		if (e[i].engine_class == e[i - 1].engine_class) {
			ASSERT_EQ(e[i - 1].engine_instance + 1,
				  e[i].engine_instance);
		} else {
			ASSERT_EQ(0, e[i].engine_instance);
		}
	}
}

TEST_F(query, engine_classes_are_known)
{
	for (uint32_t i = 0; i < self->engines->num_engines; i++)
		ASSERT_GE(DRM_TEMPO_ENGINE_CLASS_COPY,
			  self->engines->engines[i].engine_class);
}

TEST_F(query, num_hqds_is_sum_over_engines)
{
	uint32_t sum = 0;

	for (uint32_t i = 0; i < self->engines->num_engines; i++)
		sum += self->engines->engines[i].num_hqds;
	ASSERT_EQ(self->dev.num_hqds, sum);
}

TEST_F(query, every_engine_has_an_hqd)
{
	for (uint32_t i = 0; i < self->engines->num_engines; i++)
		ASSERT_LE(1, self->engines->engines[i].num_hqds);
}

TEST_F(query, hqds_match_engines_first_hqd_and_num_hqds)
{
	uint32_t next = 0;

	for (uint32_t i = 0; i < self->engines->num_engines; i++) {
		const struct drm_tempo_engine_info *e =
			&self->engines->engines[i];

		/* Queues are listed engine after engine. */
		ASSERT_EQ(next, e->first_hqd);
		ASSERT_GE(self->hqds->num_hqds,
			  (uint32_t)e->first_hqd + e->num_hqds);
		for (uint16_t q = 0; q < e->num_hqds; q++) {
			const struct drm_tempo_hqd_info *h =
				&self->hqds->hqds[e->first_hqd + q];

			ASSERT_EQ(e->engine_class, h->engine_class);
			ASSERT_EQ(e->engine_instance, h->engine_instance);
			ASSERT_EQ(q, h->queue);
		}
		next += e->num_hqds;
	}
	ASSERT_EQ(self->hqds->num_hqds, next);
}

TEST_F(query, compute_engines_have_at_least_4_hqds)
{
	for (uint32_t i = 0; i < self->engines->num_engines; i++) {
		const struct drm_tempo_engine_info *e =
			&self->engines->engines[i];

		if (e->engine_class == DRM_TEMPO_ENGINE_CLASS_COMPUTE)
			ASSERT_LE(4, e->num_hqds);
	}
}

TEST_F(query, hqd_priorities_are_in_range)
{
	for (uint32_t i = 0; i < self->hqds->num_hqds; i++) {
		ASSERT_GE(2, self->hqds->hqds[i].pipe_priority);
		ASSERT_GE(15, self->hqds->hqds[i].queue_priority);
	}
}

TEST_F(query, timestamp_frequency_is_nonzero)
{
	ASSERT_NE(0ull, self->dev.timestamp_frequency);
}

TEST_F(query, va_range_is_page_aligned_and_not_empty)
{
	uint64_t page = tempo_page_size();

	ASSERT_EQ(0ull, self->dev.va_start % page);
	ASSERT_EQ(0ull, self->dev.va_end % page);
	ASSERT_LT(self->dev.va_start, self->dev.va_end);
}

TEST_F(query, limits_are_nonzero)
{
	ASSERT_NE(0u, self->dev.num_cus);
	ASSERT_NE(0u, self->dev.max_batches);
	ASSERT_NE(0u, self->dev.max_syncs);
	ASSERT_NE(0u, self->dev.max_batch_depth);
	ASSERT_NE(0u, self->dev.ring_size);
	ASSERT_NE(0u, self->dev.max_groups);
	ASSERT_NE(0u, self->dev.job_timeout_ms);
}

TEST_F(query, max_slots_holds_the_default_engine_map)
{
	ASSERT_LE(self->dev.num_engines, self->dev.max_slots);
}

TEST_F(query, max_packet_dwords_holds_every_fixed_size_packet)
{
	/* WAIT_MEM, the longest fixed-size packet, has 8 dwords. */
	ASSERT_LE(8u, self->dev.max_packet_dwords);
}

TEST_F(query, max_priority_is_normal_without_cap_sys_nice)
{
	if (tempo_has_cap_sys_nice())
		SKIP(return, "needs a caller without CAP_SYS_NICE (euid %u)",
		     geteuid());
	ASSERT_EQ(DRM_TEMPO_PRIORITY_NORMAL, self->dev.max_priority);
}

TEST_F(query, max_priority_is_very_high_with_cap_sys_nice)
{
	if (!tempo_has_cap_sys_nice())
		SKIP(return, "needs CAP_SYS_NICE (euid %u)", geteuid());
	ASSERT_EQ(DRM_TEMPO_PRIORITY_VERY_HIGH, self->dev.max_priority);
}

TEST_F(query, answers_are_the_same_on_every_call)
{
	struct drm_tempo_query_device again;
	void *engines2, *hqds2;
	uint32_t s1 = 0, s2 = 0;

	ASSERT_EQ(0, tempo_query_device(self->fd, &again));
	ASSERT_EQ(0, memcmp(&self->dev, &again, sizeof(again)));
	engines2 = tempo_query_alloc(self->fd, DRM_TEMPO_QUERY_ENGINES, &s1);
	hqds2 = tempo_query_alloc(self->fd, DRM_TEMPO_QUERY_HQDS, &s2);
	ASSERT_TRUE(engines2 && hqds2);
	ASSERT_EQ(self->engines_size, s1);
	ASSERT_EQ(self->hqds_size, s2);
	ASSERT_EQ(0, memcmp(self->engines, engines2, s1));
	ASSERT_EQ(0, memcmp(self->hqds, hqds2, s2));
	free(engines2);
	free(hqds2);
}

/* ------------------------------------------------------------------------ */
/* The driver's identity */

FIXTURE(identity) {
	int fd;
};

FIXTURE_SETUP(identity)
{
	TEMPO_OPEN_SETUP(self->fd);
}

FIXTURE_TEARDOWN(identity)
{
	if (self->fd >= 0)
		close(self->fd);
}

/*
 * DRM_IOCTL_VERSION names tempo; its major.minor.patchlevel and
 * MODULE_VERSION are both the project's version.
 */
TEST_F(identity, driver_names_itself_and_its_version_is_the_projects)
{
	char module_version[32] = "", drm_version[48];
	drmVersionPtr v = drmGetVersion(self->fd);
	FILE *f;

	ASSERT_NE(NULL, v);
	EXPECT_STREQ("tempo", v->name);
	snprintf(drm_version, sizeof(drm_version), "%d.%d.%d",
		 v->version_major, v->version_minor, v->version_patchlevel);
	drmFreeVersion(v);
	EXPECT_STREQ(TEMPO_PROJECT_VERSION, drm_version);
	f = fopen("/sys/module/tempo/version", "r");
	ASSERT_NE(NULL, f) TH_LOG("/sys/module/tempo/version: %s", strerror(errno));
	ASSERT_NE(NULL, fgets(module_version, sizeof(module_version), f));
	fclose(f);
	module_version[strcspn(module_version, "\n")] = '\0';
	EXPECT_STREQ(TEMPO_PROJECT_VERSION, module_version);
}

TEST_HARNESS_MAIN
