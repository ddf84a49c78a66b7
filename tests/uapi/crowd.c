// SPDX-License-Identifier: GPL-2.0-only
/*
 * More clients than hardware queues, the desktop's case: on every engine
 * class, a job waits behind only the few lower-priority jobs already in
 * its HQD's ring, however many lower-priority jobs other contexts keep
 * queued (Documentation/scheduling.rst, "More clients than queues").
 *
 * The contexts are LOW and NORMAL, which any user may create.
 */
#include "tempo_test.h"

/* Jobs each LOW context keeps queued. */
#define CROWD_DEPTH	16
/* Most batches of a job here. */
#define CROWD_WIDTH	2
/* Rounds of each case. */
#define CROWD_ROUNDS	3
/* Bytes each LOW job fills: about 2 ms of the emulated copy's time. */
#define CROWD_FILL	(320 * 1024)

#define COUNTER		0x3000	/* LOW jobs ended, all contexts */
#define SNAP		0x3008	/* COUNTER as the NORMAL job started */
#define FILL_AT		0x40000

#define VA(e, off)	((e)->data.va + (off))

FIXTURE(crowd) {
	struct tempo_env env;
	uint32_t admitted;
};

FIXTURE_SETUP(crowd)
{
	long long hw = tempo_module_param("hw_submission");

	TEMPO_ENV_SETUP(&self->env);
	/* Its default, for a module that does not show it. */
	self->admitted = hw > 0 ? (uint32_t)hw : 2;
}

FIXTURE_TEARDOWN(crowd)
{
	tempo_env_fini(&self->env);
}

/* A LOW job's batch: a FILL, then, with @count, one more LOW job ended. */
static uint64_t low_batch(struct tempo_env *e, uint32_t offset, bool count)
{
	struct tempo_batch b;

	tempo_batch_init(&b, &e->cmd, offset, 64);
	tempo_pkt_fill(&b, VA(e, FILL_AT), 0x5a5a5a5a, CROWD_FILL);
	if (count)
		tempo_pkt_atomic(&b, VA(e, COUNTER), DRM_TEMPO_ATOMIC_INC, 0);
	tempo_pkt_end(&b);
	return b.va;
}

/* The NORMAL job's batch: with @snap, COUNTER as it starts. */
static uint64_t normal_batch(struct tempo_env *e, uint32_t offset, bool snap)
{
	struct tempo_batch b;

	tempo_batch_init(&b, &e->cmd, offset, 64);
	if (snap)
		tempo_pkt_copy(&b, VA(e, SNAP), VA(e, COUNTER), 8);
	tempo_pkt_end(&b);
	return b.va;
}

/* EXEC of @n batches (a gang when @n > 1); returns its sync_file. */
static int crowd_exec(struct __test_metadata *_metadata, int fd,
		      uint32_t ctx, uint32_t slot, const uint64_t *batches,
		      uint32_t n)
{
	int fence = -1;

	ASSERT_EQ(0, tempo_exec_gang(fd, ctx, slot, batches, n, NULL, 0,
				     &fence));
	return fence;
}

/*
 * One round: @n LOW contexts keep CROWD_DEPTH jobs each queued on @slot,
 * of @width batches; once they run, a NORMAL context's job is submitted.
 * Returns how many LOW jobs ended between the return of that exec and the
 * NORMAL job's start: at most the LOW jobs ahead of it in its ring.
 */
static uint64_t crowd_round(struct __test_metadata *_metadata,
			    struct tempo_env *e, const uint32_t *low,
			    uint32_t n, uint32_t normal, uint32_t slot,
			    uint32_t width)
{
	uint64_t lb[CROWD_WIDTH], nb[CROWD_WIDTH], before, snap;
	int fences[32][CROWD_DEPTH], nf;

	for (uint32_t i = 0; i < width; i++) {
		lb[i] = low_batch(e, 256 * i, i == 0);
		nb[i] = normal_batch(e, 2048 + 256 * i, i == 0);
	}
	*tempo_u64(&e->data, COUNTER) = 0;
	*tempo_u64(&e->data, SNAP) = UINT64_MAX;
	for (uint32_t c = 0; c < n; c++)
		for (int j = 0; j < CROWD_DEPTH; j++)
			fences[c][j] = crowd_exec(_metadata, e->fd, low[c],
						  slot, lb, width);
	tempo_wait_nonzero(_metadata, &e->data, COUNTER);
	nf = crowd_exec(_metadata, e->fd, normal, slot, nb, width);
	/*
	 * Counted from the exec's return: the jobs that end during the exec
	 * (many on a debug kernel, where the exec is slow) are not counted,
	 * and a NORMAL job that started already waited for none.
	 */
	before = __atomic_load_n(tempo_u64(&e->data, COUNTER),
				 __ATOMIC_SEQ_CST);
	tempo_fence_expect(_metadata, nf, 1, TEMPO_WAIT_MS);
	for (uint32_t c = 0; c < n; c++)
		for (int j = 0; j < CROWD_DEPTH; j++)
			tempo_fence_expect(_metadata, fences[c][j], 1,
					   TEMPO_WAIT_MS);
	snap = *tempo_u64(&e->data, SNAP);
	return snap > before ? snap - before : 0;
}

/*
 * More LOW contexts than the regular HQDs of the first engine of @class
 * keep it busy; a NORMAL job waits behind at most the jobs already
 * admitted to the ring of each HQD they may use (hw_submission each), and
 * one more: with the dynamic policy, a job of another HQD may end while
 * the NORMAL job waits for a slot in its own.
 */
static void normal_beside_low(struct __test_metadata *_metadata,
			      FIXTURE_DATA(crowd) *self, uint32_t class)
{
	struct tempo_env *e = &self->env;
	int slot = tempo_default_slot(e->engines, class, 0);
	long long queues = tempo_module_param(
		class == DRM_TEMPO_ENGINE_CLASS_COMPUTE ? "compute_queues" :
							  "queues");
	bool dynamic = tempo_module_param("hqd_policy") == 1;
	uint32_t low[32], normal, regular, bound;

	if (slot < 0)
		SKIP(return, "no engine of class %u", class);
	ASSERT_LT(0, queues);
	/* The static policy keeps the last HQD for high priority. */
	regular = dynamic || queues == 1 ? queues : queues - 1;
	ASSERT_GE(32u, regular + 1);
	for (uint32_t c = 0; c < regular + 1; c++)
		ASSERT_EQ(0, tempo_ctx_create(e->fd, DRM_TEMPO_PRIORITY_LOW,
					      NULL, 0, &low[c]));
	ASSERT_EQ(0, tempo_ctx_create(e->fd, DRM_TEMPO_PRIORITY_NORMAL, NULL,
				      0, &normal));
	bound = self->admitted * regular + 1;
	for (int r = 0; r < CROWD_ROUNDS; r++) {
		uint64_t behind = crowd_round(_metadata, e, low, regular + 1,
					      normal, slot, 1);

		TH_LOG("round %d: the NORMAL job waited for %llu LOW jobs (at most %u; %u LOW contexts, %u jobs queued each)",
		       r, (unsigned long long)behind, bound, regular + 1,
		       CROWD_DEPTH);
		ASSERT_GE(bound, behind);
	}
}

TEST_F_TIMEOUT(crowd, a_normal_gfx_job_waits_behind_few_low_jobs, 60)
{
	normal_beside_low(_metadata, self, DRM_TEMPO_ENGINE_CLASS_GFX);
}

TEST_F_TIMEOUT(crowd, a_normal_compute_job_waits_behind_few_low_jobs, 60)
{
	normal_beside_low(_metadata, self, DRM_TEMPO_ENGINE_CLASS_COMPUTE);
}

TEST_F_TIMEOUT(crowd, a_normal_copy_job_waits_behind_few_low_jobs, 60)
{
	normal_beside_low(_metadata, self, DRM_TEMPO_ENGINE_CLASS_COPY);
}

/*
 * Gangs below HIGH of every file share one gang HQD: beside two LOW gangs
 * that keep it busy, a NORMAL gang waits behind at most hw_submission of
 * their jobs, and one more as for the engines' HQDs (its members' engines
 * also run the LOW gangs' members).
 */
TEST_F_TIMEOUT(crowd, a_normal_gang_waits_behind_few_low_gangs, 60)
{
	struct tempo_env *e = &self->env;
	struct drm_tempo_engine engines[2];
	uint32_t low[2], normal, bound = self->admitted + 1;

	if (!(e->dev.parallel_classes & (1u << DRM_TEMPO_ENGINE_CLASS_COMPUTE)) ||
	    tempo_engines_of_class(e->engines, DRM_TEMPO_ENGINE_CLASS_COMPUTE,
				   engines, 2) < 2)
		SKIP(return, "no parallel slots on two compute engines");
	for (int c = 0; c < 2; c++)
		ASSERT_EQ(0, tempo_parallel_ctx_prio(e->fd,
						     DRM_TEMPO_PRIORITY_LOW, 2,
						     1, engines, &low[c]));
	ASSERT_EQ(0, tempo_parallel_ctx_prio(e->fd, DRM_TEMPO_PRIORITY_NORMAL,
					     2, 1, engines, &normal));
	for (int r = 0; r < CROWD_ROUNDS; r++) {
		uint64_t behind = crowd_round(_metadata, e, low, 2, normal, 0,
					      2);

		TH_LOG("round %d: the NORMAL gang waited for %llu LOW gangs (at most %u)",
		       r, (unsigned long long)behind, bound);
		ASSERT_GE(bound, behind);
	}
}

TEST_HARNESS_MAIN
