// SPDX-License-Identifier: GPL-2.0-only
/*
 * A smoke test in the manner of IGT's gem_exec_schedule smoketest: one
 * process per online CPU, each with its own file, contexts of random
 * priorities (LOW and VERY_LOW besides NORMAL, HIGH and VERY_HIGH too
 * with CAP_SYS_NICE) and random engine maps, submits random mixes of
 * packets and kernels for TEMPO_SMOKE_SECONDS (default 10) seconds.
 *
 * Every job writes its sequence number into a slot of its own and
 * increments the process's counter; its DISPATCHes add a known amount to
 * a second counter and a known checksum to a per-job sum. At the end the
 * counters must equal what was submitted, every slot must hold its
 * number and every sum its value, and every fence must have signalled
 * success: no completion lost, run twice or corrupted by preemption.
 *
 * The "with_faults" variant adds a process that keeps faulting, sending
 * illegal packets and hanging briefly in contexts of its own.
 */
#include <sys/wait.h>

#include "tempo_test.h"

#define SMOKE_DATA	(2u << 20)
#define CTR		0x0000		/* jobs' ATOMIC INC */
#define CTR2		0x0008		/* DISPATCH ATOMIC_INC */
#define CONST_OFF	0x4000		/* 16 KiB of a fixed pattern */
#define CONST_SIZE	0x4000
#define SLOTS		0x10000		/* 8 bytes per job */
#define SUMS		0xa0000		/* 8 bytes per job */
#define SCRATCH		0x140000	/* FILL and COPY playground */
#define SCRATCH_SIZE	0x40000
#define MAX_JOBS	((SUMS - SLOTS) / 8 - 1)
#define BATCH_SIZE	1024
#define BATCHES		(TEMPO_CMD_SIZE / BATCH_SIZE)
#define MAX_CTX		6

struct rng {
	uint64_t s;
};

static uint32_t rnd(struct rng *r, uint32_t n)
{
	r->s ^= r->s << 13;
	r->s ^= r->s >> 7;
	r->s ^= r->s << 17;
	return n ? (uint32_t)((r->s >> 11) % n) : 0;
}

static unsigned int smoke_seconds(void)
{
	const char *s = getenv("TEMPO_SMOKE_SECONDS");
	long n = s && *s ? strtol(s, NULL, 0) : 10;

	return n > 0 && n < 86400 ? (unsigned int)n : 10;
}

static uint32_t const_word(uint32_t i)
{
	return i * 2654435761u ^ 0x5a5a5a5a;
}

struct smoke_ctx {
	uint32_t id;
	uint32_t num_slots;
	uint16_t cls[8];	/* engine class of each slot */
	int32_t priority;
};

struct smoke {
	struct tempo_env e;
	struct rng rng;
	struct smoke_ctx ctx[MAX_CTX];
	unsigned int nctx;
	int fences[BATCHES];
	uint32_t next;		/* next sequence number (from 1) */
	uint64_t ctr2;		/* expected DISPATCH ATOMIC_INC total */
	uint64_t *sums;		/* expected checksum per job */
	unsigned int failed;
	unsigned int dispatches, preemptible;
};

static int pick_priority(struct smoke *s)
{
	static const int32_t low[] = {
		DRM_TEMPO_PRIORITY_NORMAL, DRM_TEMPO_PRIORITY_LOW,
		DRM_TEMPO_PRIORITY_VERY_LOW,
	};
	static const int32_t all[] = {
		DRM_TEMPO_PRIORITY_NORMAL, DRM_TEMPO_PRIORITY_LOW,
		DRM_TEMPO_PRIORITY_VERY_LOW, DRM_TEMPO_PRIORITY_HIGH,
		DRM_TEMPO_PRIORITY_VERY_HIGH,
	};

	if (s->e.dev.max_priority >= DRM_TEMPO_PRIORITY_VERY_HIGH)
		return all[rnd(&s->rng, TEMPO_ARRAY_SIZE(all))];
	return low[rnd(&s->rng, TEMPO_ARRAY_SIZE(low))];
}

/* A context with a random engine map, sometimes a load-balanced slot. */
static int make_ctx(struct smoke *s, struct smoke_ctx *c)
{
	const struct drm_tempo_query_engines *en = s->e.engines;
	struct drm_tempo_engine slots[8], siblings[8];
	struct drm_tempo_ctx_ext_load_balance lb = {
		.base.name = DRM_TEMPO_CTX_EXT_LOAD_BALANCE,
	};
	struct drm_tempo_ctx_create cc = { 0 };
	unsigned int ncompute = 0;
	int ret;

	c->num_slots = 1 + rnd(&s->rng, 6);
	for (uint32_t i = 0; i < c->num_slots; i++) {
		const struct drm_tempo_engine_info *k =
			&en->engines[rnd(&s->rng, en->num_engines)];

		slots[i].engine_class = k->engine_class;
		slots[i].engine_instance = k->engine_instance;
		c->cls[i] = k->engine_class;
	}
	for (uint32_t i = 0; i < en->num_engines; i++)
		if (en->engines[i].engine_class == DRM_TEMPO_ENGINE_CLASS_COMPUTE)
			siblings[ncompute++] = (struct drm_tempo_engine){
				DRM_TEMPO_ENGINE_CLASS_COMPUTE,
				en->engines[i].engine_instance };
	if (ncompute >= 2 && rnd(&s->rng, 2)) {
		uint32_t at = rnd(&s->rng, c->num_slots);

		slots[at] = (struct drm_tempo_engine){
			0, DRM_TEMPO_ENGINE_INSTANCE_NONE };
		c->cls[at] = DRM_TEMPO_ENGINE_CLASS_COMPUTE;
		lb.slot = at;
		lb.num_siblings = ncompute;
		lb.siblings = (uint64_t)(uintptr_t)siblings;
		cc.extensions = (uint64_t)(uintptr_t)&lb;
	}
	c->priority = pick_priority(s);
	cc.priority = c->priority;
	cc.num_slots = c->num_slots;
	cc.slots = (uint64_t)(uintptr_t)slots;
	ret = tempo_ioctl(s->e.fd, DRM_IOCTL_TEMPO_CTX_CREATE, &cc);
	c->id = cc.ctx_id;
	return ret;
}

/* Build job @seq's batch in batch slot @b for an engine of class @cls. */
static uint64_t build(struct smoke *s, uint32_t seq, unsigned int b,
		      uint16_t cls)
{
	struct tempo_env *e = &s->e;
	struct tempo_batch bt;
	uint64_t data = e->data.va;
	unsigned int n = rnd(&s->rng, 5);

	tempo_batch_init(&bt, &e->cmd, (uint64_t)b * BATCH_SIZE,
			 BATCH_SIZE / 4);
	tempo_pkt_atomic(&bt, data + CTR, DRM_TEMPO_ATOMIC_INC, 0);
	for (unsigned int i = 0; i < n; i++) {
		uint32_t off = SCRATCH + 64 * rnd(&s->rng, SCRATCH_SIZE / 64 - 64);
		bool compute = cls != DRM_TEMPO_ENGINE_CLASS_COPY;

		switch (rnd(&s->rng, compute ? 7 : 3)) {
		case 0:
			tempo_pkt_fill(&bt, data + off, seq, 64 * (1 + rnd(&s->rng, 16)));
			break;
		case 1:
			tempo_pkt_copy(&bt, data + off, data + CONST_OFF,
				       1 + rnd(&s->rng, 2048));
			break;
		case 2:
			tempo_pkt_nop(&bt, rnd(&s->rng, 8));
			break;
		case 3: {	/* ATOMIC_INC kernel: groups x count */
			uint32_t g = 1 + rnd(&s->rng, 16), k = 1 + rnd(&s->rng, 8);
			uint32_t args[] = { TEMPO_ARG_VA(data + CTR2), k };

			tempo_pkt_dispatch(&bt, DRM_TEMPO_KERNEL_ATOMIC_INC, g,
					   1, 1, args, 3);
			s->ctr2 += (uint64_t)g * k;
			s->dispatches++;
			break;
		}
		case 4: {	/* CHECKSUM of the constant area into the job's sum */
			uint32_t g = 1 + rnd(&s->rng, 16);
			uint32_t bytes = 4 * (1 + rnd(&s->rng, CONST_SIZE / 4 / g));
			uint32_t args[] = { TEMPO_ARG_VA(data + CONST_OFF),
					    TEMPO_ARG_VA(data + SUMS + 8ull * seq),
					    bytes };

			tempo_pkt_dispatch(&bt, DRM_TEMPO_KERNEL_CHECKSUM, g, 1, 1,
					   args, 5);
			for (uint32_t w = 0; w < g * bytes / 4; w++)
				s->sums[seq] += const_word(w);
			s->dispatches++;
			break;
		}
		case 5: {	/* FILL kernel */
			uint32_t g = 1 + rnd(&s->rng, 8);
			uint32_t args[] = { TEMPO_ARG_VA(data + off), seq, 64 };

			tempo_pkt_dispatch(&bt, DRM_TEMPO_KERNEL_FILL, g, 1, 1,
					   args, 4);
			s->dispatches++;
			break;
		}
		default: {	/* short SPIN: something to preempt */
			uint32_t args[] = { 20000 + rnd(&s->rng, 200000) };

			tempo_pkt_dispatch(&bt, DRM_TEMPO_KERNEL_SPIN,
					   1 + rnd(&s->rng, 4), 1, 1, args, 1);
			s->preemptible++;
			break;
		}
		}
	}
	/* Last, the job's own slot: written means the job got this far. */
	tempo_pkt_write32(&bt, data + SLOTS + 8ull * seq, seq);
	tempo_pkt_end(&bt);
	return bt.va;
}

/* Wait for the job in batch slot @b, if any; count it if it failed. */
static void reap(struct smoke *s, unsigned int b)
{
	int status;

	if (s->fences[b] < 0)
		return;
	status = tempo_fence_wait(s->fences[b], 60000);
	if (status != 1) {
		if (s->failed < 10)
			fprintf(stderr, "# pid %d: a job ended with %d\n",
				getpid(), status);
		s->failed++;
	}
	close(s->fences[b]);
	s->fences[b] = -1;
}

/* A worker's file, buffers and contexts: 0, or its exit status. */
static int worker_init(struct smoke *s, unsigned int index, uint64_t seed)
{
	s->rng.s = seed * 0x9e3779b97f4a7c15ull + index + 1;
	s->sums = calloc(MAX_JOBS + 1, sizeof(*s->sums));
	if (!s->sums)
		return 2;
	if (tempo_env_open(&s->e, SMOKE_DATA))
		return 3;
	for (uint32_t i = 0; i < CONST_SIZE / 4; i++)
		*tempo_u32(&s->e.data, CONST_OFF + 4 * i) = const_word(i);
	for (unsigned int i = 0; i < MAX_CTX; i++) {
		if (make_ctx(s, &s->ctx[s->nctx]))
			return 4;
		s->nctx++;
	}
	for (unsigned int i = 0; i < BATCHES; i++)
		s->fences[i] = -1;
	s->next = 1;
	return 0;
}

/* Submit random jobs until @end: how many, or -1 when an exec failed. */
static int worker_submit(struct smoke *s, uint64_t end)
{
	int submitted = 0;

	while (tempo_now_ns() < end && s->next < MAX_JOBS) {
		uint32_t seq = s->next++;
		unsigned int b = seq % BATCHES;
		struct smoke_ctx *c = &s->ctx[rnd(&s->rng, s->nctx)];
		uint32_t slot = rnd(&s->rng, c->num_slots);
		int ret;

		reap(s, b);
		ret = tempo_exec(s->e.fd, c->id, slot,
				 build(s, seq, b, c->cls[slot]), NULL, 0, NULL,
				 0, &s->fences[b]);
		if (ret) {
			fprintf(stderr, "# pid %d: exec failed: %d\n", getpid(),
				ret);
			return -1;
		}
		submitted++;
		/* Now and then a context changes priority. */
		if (!rnd(&s->rng, 64)) {
			c->priority = pick_priority(s);
			tempo_ctx_set_priority(s->e.fd, c->id, c->priority);
		}
	}
	for (unsigned int i = 0; i < BATCHES; i++)
		reap(s, i);
	return submitted;
}

/* Check the counters, slots and sums: the number of wrong ones. */
static unsigned int worker_check(struct smoke *s, uint32_t submitted)
{
	uint64_t ctr = *tempo_u64(&s->e.data, CTR);
	uint64_t ctr2 = *tempo_u64(&s->e.data, CTR2);
	unsigned int bad = 0;

	if (ctr != submitted) {
		fprintf(stderr, "# pid %d: counter %llu, %u jobs submitted\n",
			getpid(), (unsigned long long)ctr, submitted);
		bad++;
	}
	if (ctr2 != s->ctr2) {
		fprintf(stderr, "# pid %d: kernel counter %llu, expected %llu\n",
			getpid(), (unsigned long long)ctr2,
			(unsigned long long)s->ctr2);
		bad++;
	}
	for (uint32_t seq = 1; seq <= submitted; seq++) {
		uint64_t v = *tempo_u64(&s->e.data, SLOTS + 8ull * seq);
		uint64_t sum = *tempo_u64(&s->e.data, SUMS + 8ull * seq);

		if (v == seq && sum == s->sums[seq])
			continue;
		if (bad < 10)
			fprintf(stderr, "# pid %d: job %u: slot %llu, sum %llu (expected %llu)\n",
				getpid(), seq, (unsigned long long)v,
				(unsigned long long)sum,
				(unsigned long long)s->sums[seq]);
		bad++;
	}
	return bad;
}

/* One worker process; returns its exit status. */
static int worker(unsigned int index, uint64_t seed, unsigned int seconds)
{
	struct smoke *s = calloc(1, sizeof(*s));
	uint64_t end = tempo_now_ns() + seconds * 1000000000ull;
	unsigned int bad;
	int ret, submitted;

	if (!s)
		return 2;
	ret = worker_init(s, index, seed);
	if (ret)
		return ret;
	submitted = worker_submit(s, end);
	if (submitted < 0)
		return 5;
	bad = worker_check(s, (uint32_t)submitted);
	printf("# worker %u (pid %d): %d jobs, %u dispatches (%u spinning), %u failed fences, %u bad results\n",
	       index, getpid(), submitted, s->dispatches, s->preemptible,
	       s->failed, bad);
	fflush(stdout);
	return s->failed || bad ? 1 : 0;
}

/*
 * The troublemaker: faults, illegal packets and short hangs, each in a
 * context of its own that the next exec replaces once banned.
 */
static int troublemaker(uint64_t seed, unsigned int seconds)
{
	uint64_t end = tempo_now_ns() + seconds * 1000000000ull;
	struct tempo_env e;
	struct rng r = { .s = seed ^ 0x7ab1e };
	unsigned int jobs = 0;
	int fd;

	if (tempo_env_open(&e, TEMPO_DATA_SIZE))
		return 3;
	fd = e.fd;
	while (tempo_now_ns() < end) {
		struct tempo_batch b;
		uint32_t ctx, slot = rnd(&r, e.engines->num_engines);
		int fence = -1;

		if (tempo_ctx_create(fd, 0, NULL, 0, &ctx))
			return 4;
		tempo_batch_init(&b, &e.cmd, 1024 * (jobs % 64), 256);
		switch (rnd(&r, 4)) {
		case 0:
			tempo_pkt_write32(&b, e.dev.va_start - 4096, 1);
			break;
		case 1:
			tempo_emit(&b, DRM_TEMPO_PKT_HEADER(200, 1));
			break;
		case 2:	/* a hang: ends at the job timeout */
			if (!rnd(&r, 4))
				tempo_pkt_wait_mem(&b, e.data.va + 0x800,
						   DRM_TEMPO_COMPARE_EQ, 1,
						   UINT64_MAX);
			break;
		default:
			tempo_pkt_batch_start(&b, b.va, 0);	/* -ELOOP */
			break;
		}
		tempo_pkt_end(&b);
		if (!tempo_exec(fd, ctx, slot, b.va, NULL, 0, NULL, 0, &fence)) {
			tempo_fence_wait(fence, (int)e.dev.job_timeout_ms + 5000);
			close(fence);
		}
		tempo_ctx_destroy(fd, ctx);
		jobs++;
	}
	printf("# troublemaker (pid %d): %u bad jobs\n", getpid(), jobs);
	fflush(stdout);
	tempo_env_fini(&e);
	return 0;
}

FIXTURE(smoke) {
	int fd;
};

FIXTURE_VARIANT(smoke) {
	bool faults;
};

FIXTURE_VARIANT_ADD(smoke, clean) { .faults = false };
FIXTURE_VARIANT_ADD(smoke, with_faults) { .faults = true };

FIXTURE_SETUP(smoke)
{
	TEMPO_OPEN_SETUP(self->fd);
}

FIXTURE_TEARDOWN(smoke)
{
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F_TIMEOUT(smoke, every_job_completes_exactly_once, 3600)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned int seconds = smoke_seconds();
	uint64_t seed = tempo_now_ns();
	unsigned int n = cpus > 0 ? (unsigned int)cpus : 1;
	pid_t pids[65];
	unsigned int failed = 0;

	if (n > 64)
		n = 64;
	TH_LOG("%u workers for %u s (TEMPO_SMOKE_SECONDS), seed %llu%s", n,
	       seconds, (unsigned long long)seed,
	       variant->faults ? ", and a troublemaker" : "");
	for (unsigned int i = 0; i <= n; i++) {
		if (i == n && !variant->faults)
			break;
		fflush(NULL);
		pids[i] = fork();
		ASSERT_LE(0, pids[i]);
		if (!pids[i])
			_exit(i < n ? worker(i, seed, seconds) :
				      troublemaker(seed, seconds));
	}
	for (unsigned int i = 0; i <= n; i++) {
		int status;

		if (i == n && !variant->faults)
			break;
		ASSERT_EQ(pids[i], waitpid(pids[i], &status, 0));
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			TH_LOG("%s %u: %s %d", i < n ? "worker" : "troublemaker",
			       i, WIFEXITED(status) ? "exit" : "signal",
			       WIFEXITED(status) ? WEXITSTATUS(status) :
						   WTERMSIG(status));
			failed++;
		}
	}
	ASSERT_EQ(0u, failed);
}

TEST_HARNESS_MAIN
