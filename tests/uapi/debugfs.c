// SPDX-License-Identifier: GPL-2.0-only
/*
 * debugfs (/sys/kernel/debug/dri/<minor>/): the hqds file's busy time and
 * the contexts file's jobs in flight move with known work. Root only.
 */
#include "tempo_test.h"

FIXTURE(debugfs) {
	struct tempo_env env;
	char dir[256];
};

FIXTURE_SETUP(debugfs)
{
	TEMPO_ENV_SETUP(&self->env);
	tempo_debugfs_dir(self->dir, sizeof(self->dir));
	if (!self->dir[0])
		SKIP(return, "no tempo directory in /sys/kernel/debug/dri");
}

FIXTURE_TEARDOWN(debugfs)
{
	tempo_env_fini(&self->env);
}

#define MAX_QUEUES	16

static uint64_t gated_batch(struct tempo_env *e, uint32_t offset)
{
	return tempo_gated_batch(e, offset, TEMPO_NO_MARK, 0);
}

/*
 * The in_flight column of the contexts line of context @ctx of this
 * process, after checking the header line; -1 when there is none.
 */
static int contexts_in_flight(struct __test_metadata *_metadata,
			      const char *dir, uint32_t ctx)
{
	FILE *f = tempo_fopen("r", "%s/contexts", dir);
	int found = -1;
	char line[256];

	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, fgets(line, sizeof(line), f));
	ASSERT_STREQ("client pid ctx priority effective banned in_flight\n",
		     line);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long client;
		int pid, prio, eff, banned, in_flight;
		unsigned int id;

		ASSERT_EQ(7, sscanf(line, "%llu %d %u %d %d %d %d", &client,
				    &pid, &id, &prio, &eff, &banned,
				    &in_flight));
		if (pid != getpid() || id != ctx)
			continue;
		ASSERT_EQ(0, banned);
		found = in_flight;
	}
	fclose(f);
	return found;
}

TEST_F(debugfs, contexts_lists_jobs_in_flight)
{
	struct tempo_env *e = &self->env;
	uint32_t slot = tempo_default_slot(e->engines,
					   DRM_TEMPO_ENGINE_CLASS_COMPUTE, 0);
	int fences[3];

	for (int i = 0; i < 3; i++)
		fences[i] = tempo_submit(_metadata, e->fd, e->ctx, slot,
					 gated_batch(e, 256 * i));
	/* Lines: client pid ctx priority effective banned in_flight. */
	ASSERT_EQ(3, contexts_in_flight(_metadata, self->dir, e->ctx));
	tempo_gate_set(e, 1);
	for (int i = 0; i < 3; i++)
		tempo_fence_expect(_metadata, fences[i], 1, TEMPO_WAIT_MS);
}

/*
 * The HQD that ran a job held for 100 ms shows about 100 ms more. The
 * 100 ms count from when the job is seen running on the hardware: on a
 * loaded host the job may reach it late. Busy time is the GPU's: the
 * time the command processor waited for a CPU is not in it, so three
 * quarters of the hold is the bound, as in fdinfo's engine time.
 */
TEST_F(debugfs, hqds_busy_time_grows_by_the_time_a_job_ran)
{
	struct tempo_env *e = &self->env;
	uint32_t slot = tempo_default_slot(e->engines,
					   DRM_TEMPO_ENGINE_CLASS_COPY, 1);
	long long before[MAX_QUEUES], after, most = 0;
	int fence, q, grown = -1;

	/* Every queue of engine copy1; busy_ns is column 11. */
	for (q = 0; q < MAX_QUEUES; q++)
		before[q] = tempo_debugfs_hqd(self->dir, "copy1", q, 11);
	ASSERT_LE(0, before[0]);
	*tempo_u64(&e->data, 64) = 0;
	fence = tempo_submit(_metadata, e->fd, e->ctx, slot,
			     tempo_started_gated_batch(e, 0, 64));
	tempo_wait_nonzero(_metadata, &e->data, 64);
	tempo_sleep_ms(100);
	tempo_gate_set(e, 1);
	tempo_fence_expect(_metadata, fence, 1, TEMPO_WAIT_MS);
	for (q = 0; q < MAX_QUEUES && before[q] >= 0; q++) {
		after = tempo_debugfs_hqd(self->dir, "copy1", q, 11);
		if (after - before[q] > most)
			most = after - before[q];
		if (after - before[q] >= 75000000ll)
			grown = q;
	}
	ASSERT_LE(0, grown)
		TH_LOG("no queue of copy1 shows 75 ms more (most: %.1f ms)",
		       most / 1e6);
}

TEST_HARNESS_MAIN
