// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tracepoints: the tempo and tempo_hw events fire for known work, in a
 * tracefs instance of their own, along drm_sched's gpu_scheduler events.
 * Root only.
 */
#include <ctype.h>
#include <pthread.h>
#include <sys/stat.h>

#include "tempo_test.h"

#define VA(e, off)	((e)->data.va + (off))

FIXTURE(trace) {
	struct tempo_env env;
	char inst[128];
	uint32_t slot;
};

static bool write_file(const char *dir, const char *file, const char *s)
{
	FILE *f = tempo_fopen("w", "%s/%s", dir, file);
	bool ok;

	if (!f)
		return false;
	ok = fputs(s, f) >= 0;
	return !fclose(f) && ok;
}

static const char *tracefs(void)
{
	static const char *const dirs[] = { "/sys/kernel/tracing",
					    "/sys/kernel/debug/tracing" };
	struct stat st;

	for (int i = 0; i < 2; i++) {
		char path[64];

		snprintf(path, sizeof(path), "%s/instances", dirs[i]);
		if (!stat(path, &st))
			return dirs[i];
	}
	return NULL;
}

FIXTURE_SETUP(trace)
{
	const char *fs = tracefs();

	self->inst[0] = 0;
	TEMPO_ENV_SETUP(&self->env);
	if (!fs || geteuid())
		SKIP(return, "needs root and tracefs");
	snprintf(self->inst, sizeof(self->inst), "%s/instances/tempo-test-%d",
		 fs, getpid());
	ASSERT_EQ(0, mkdir(self->inst, 0700));
	ASSERT_TRUE(write_file(self->inst, "events/tempo/enable", "1"));
	ASSERT_TRUE(write_file(self->inst, "events/tempo_hw/enable", "1"));
	/* drm_sched's own events, when the kernel has them. */
	write_file(self->inst, "events/gpu_scheduler/enable", "1");
	self->slot = tempo_default_slot(self->env.engines,
					DRM_TEMPO_ENGINE_CLASS_COMPUTE, 0);
}

FIXTURE_TEARDOWN(trace)
{
	if (self->inst[0]) {
		write_file(self->inst, "events/enable", "0");
		rmdir(self->inst);
	}
	tempo_env_fini(&self->env);
}

/* The instance's trace so far, malloc()ed. */
static char *trace_text(const char *inst)
{
	size_t cap = 1 << 20, len = 0;
	char *buf = malloc(cap);
	FILE *f = tempo_fopen("r", "%s/trace", inst);

	if (!f || !buf) {
		free(buf);
		return NULL;
	}
	for (size_t n; (n = fread(buf + len, 1, cap - 1 - len, f)) > 0;) {
		len += n;
		if (len == cap - 1) {
			cap *= 2;
			buf = realloc(buf, cap);
		}
	}
	buf[len] = 0;
	fclose(f);
	return buf;
}

/* The "fence=C:S" of the first @event line, or "" */
static void fence_of(const char *text, const char *event, char *out,
		     size_t len)
{
	const char *p = strstr(text, event), *f;

	out[0] = 0;
	if (!p)
		return;
	f = strstr(p, "fence=");
	if (f)
		snprintf(out, len, "%.*s", (int)strcspn(f, " \n"), f);
}

TEST_F(trace, a_job_traces_its_ioctl_queue_run_and_end)
{
	struct tempo_env *e = &self->env;
	char queued[64], done[64], *text;
	struct tempo_batch b;

	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_write32(&b, VA(e, 0x100), 1);
	tempo_pkt_end(&b);
	ASSERT_EQ(1, tempo_run(_metadata, e->fd, e->ctx, self->slot, b.va));
	tempo_sleep_ms(50);
	text = trace_text(self->inst);
	ASSERT_NE(NULL, text);
	ASSERT_NE(NULL, strstr(text, "tempo_ioctl: ")) TH_LOG("%s", text);
	ASSERT_NE(NULL, strstr(text, " EXEC"));
	ASSERT_NE(NULL, strstr(text, "tempo_ioctl_done: "));
	ASSERT_NE(NULL, strstr(text, "tempo_job_run: "));
	fence_of(text, "tempo_job_queued: ", queued, sizeof(queued));
	fence_of(text, "tempo_job_done: ", done, sizeof(done));
	ASSERT_NE(0, queued[0]);
	ASSERT_STREQ(queued, done);
	ASSERT_NE(NULL, strstr(strstr(text, "tempo_job_done: "), "error=0"));
	free(text);
}

/*
 * Every ioctl of the driver is traced by its name, with the errno the
 * caller gets; DRM's own ioctls (GET_CAP here) are not.
 */
TEST_F(trace, a_rejected_ioctl_traces_its_name_and_errno_drms_are_not_traced)
{
	struct drm_tempo_ctx_destroy d = { .ctx_id = 0x7fffffff };
	struct drm_get_cap cap = { .capability = DRM_CAP_SYNCOBJ };
	char want[96], *text;

	ASSERT_EQ(0, ioctl(self->env.fd, DRM_IOCTL_GET_CAP, &cap));
	ASSERT_EQ(-1, ioctl(self->env.fd, DRM_IOCTL_TEMPO_CTX_DESTROY, &d));
	ASSERT_EQ(ENOENT, errno);
	text = trace_text(self->inst);
	ASSERT_NE(NULL, text);
	snprintf(want, sizeof(want), "nr=%u CTX_DESTROY\n",
		 DRM_TEMPO_CTX_DESTROY);
	ASSERT_NE(NULL, strstr(text, want)) TH_LOG("%s", text);
	snprintf(want, sizeof(want), "nr=%u ret=%d\n", DRM_TEMPO_CTX_DESTROY,
		 -ENOENT);
	ASSERT_NE(NULL, strstr(text, want)) TH_LOG("%s", text);
	/* Only the one ioctl: GET_CAP went by untraced. */
	ASSERT_EQ(NULL, strstr(strstr(text, "tempo_ioctl: ") + 1,
			       "tempo_ioctl: ")) TH_LOG("%s", text);
	free(text);
}

/*
 * The "KEY=VALUE" of @key (" KEY=") on the first @event line, up to a
 * space, comma or newline, or ""
 */
static void field_of(const char *text, const char *event, const char *key,
		     char *out, size_t len)
{
	const char *p = strstr(text, event), *eol, *f;

	out[0] = 0;
	if (!p)
		return;
	eol = strchr(p, '\n');
	f = strstr(p, key);
	if (!f || (eol && f > eol))
		return;
	f += strspn(f, " ");
	snprintf(out, len, "%.*s", (int)strcspn(f, " ,\n"), f);
}

/*
 * tempo's job events join drm_sched's: drm_run_job names the job by
 * drm_sched's id on 6.x (its fences are hashed pointers there) and by its
 * finished fence on 7.x; tempo_job_run prints both.
 */
TEST_F(trace, a_jobs_events_join_drm_scheds_own)
{
	struct tempo_env *e = &self->env;
	char sched_id[64], sched_fence[64], id[64], fence[64], *text;
	struct tempo_batch b;

	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_end(&b);
	ASSERT_EQ(1, tempo_run(_metadata, e->fd, e->ctx, self->slot, b.va));
	tempo_sleep_ms(50);
	text = trace_text(self->inst);
	ASSERT_NE(NULL, text);
	if (!strstr(text, "drm_run_job: ")) {
		free(text);
		SKIP(return, "the kernel has no gpu_scheduler events");
	}
	field_of(text, "tempo_job_run: ", " id=", id, sizeof(id));
	field_of(text, "tempo_job_run: ", "fence=", fence, sizeof(fence));
	field_of(text, "drm_run_job: ", " id=", sched_id, sizeof(sched_id));
	field_of(text, "drm_run_job: ", "fence=", sched_fence,
		 sizeof(sched_fence));
	ASSERT_NE(0, id[0]) TH_LOG("%s", text);
	if (sched_id[0]) {
		ASSERT_STREQ(sched_id, id) TH_LOG("%s", text);
	} else {
		ASSERT_STREQ(sched_fence, fence) TH_LOG("%s", text);
	}
	free(text);
}

TEST_F(trace, preemption_traces_preempt_and_resume)
{
	struct tempo_env *e = &self->env;
	struct tempo_batch lo, hi;
	uint32_t low, high;
	int lf, hf;
	char *text;

	TEMPO_NEED_NICE();
	ASSERT_EQ(0, tempo_ctx_create(e->fd, DRM_TEMPO_PRIORITY_LOW, NULL, 0,
				      &low));
	ASSERT_EQ(0, tempo_ctx_create(e->fd, DRM_TEMPO_PRIORITY_HIGH, NULL, 0,
				      &high));
	tempo_batch_init(&lo, &e->cmd, 0, 64);
	tempo_pkt_write_timestamp(&lo, VA(e, 0x200));
	tempo_pkt_wait_gate(&lo, e, 1);
	tempo_pkt_end(&lo);
	lf = tempo_submit(_metadata, e->fd, low, self->slot, lo.va);
	tempo_wait_nonzero(_metadata, &e->data, 0x200);
	tempo_batch_init(&hi, &e->cmd, 256, 64);
	tempo_pkt_write32(&hi, VA(e, 0x300), 1);
	tempo_pkt_end(&hi);
	hf = tempo_submit(_metadata, e->fd, high, self->slot, hi.va);
	ASSERT_EQ(1, tempo_fence_wait(hf, TEMPO_WAIT_MS));
	tempo_gate_set(e, 1);
	ASSERT_EQ(1, tempo_fence_wait(lf, TEMPO_WAIT_MS));
	close(lf);
	close(hf);
	text = trace_text(self->inst);
	ASSERT_NE(NULL, text);
	ASSERT_NE(NULL, strstr(text, "tempo_hw_preempt: ")) TH_LOG("%s", text);
	ASSERT_NE(NULL, strstr(strstr(text, "tempo_hw_preempt: "),
			       "tempo_hw_resume: "));
	/* The dynamic policy programmed the high job's HQD. */
	if (tempo_module_param("hqd_policy") == 1) {
		ASSERT_NE(NULL, strstr(text, "tempo_hw_hqd_priority: "));
	}
	free(text);
}

TEST_F_TIMEOUT(trace, a_hang_traces_a_reset, 60)
{
	struct tempo_env *e = &self->env;
	struct tempo_batch b;
	char *text;

	TEMPO_NEED_TIMEOUT_WITHIN(e, 20000);
	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_wait_mem(&b, VA(e, 0x400), DRM_TEMPO_COMPARE_EQ, 0xdead,
			   UINT64_MAX);
	tempo_pkt_end(&b);
	ASSERT_EQ(-ETIMEDOUT, tempo_run(_metadata, e->fd, e->ctx, self->slot,
					b.va));
	text = trace_text(self->inst);
	ASSERT_NE(NULL, text);
	ASSERT_NE(NULL, strstr(text, "tempo_reset: ")) TH_LOG("%s", text);
	ASSERT_NE(NULL, strstr(text, "error=-110"));
	free(text);
}

/* How many @event lines @text holds. */
static int count_of(const char *text, const char *event)
{
	int n = 0;

	for (const char *p = text; (p = strstr(p, event)); p++)
		n++;
	return n;
}

/* The pid of the task that emitted the trace line at @line ("comm-pid"). */
static int line_pid(const char *line)
{
	const char *cpu = strstr(line, " [");
	const char *end = cpu, *digits;

	if (!cpu)
		return -1;
	while (end > line && end[-1] == ' ')
		end--;
	for (digits = end; digits > line && isdigit((unsigned char)digits[-1]);)
		digits--;
	return digits < end && digits > line && digits[-1] == '-' ?
	       atoi(digits) : -1;
}

/*
 * How many @event lines of @text task @pid emitted; @first, when not
 * NULL, gets the first of them. The task is read from each line rather
 * than filtered with set_event_pid, whose probes on the scheduler's
 * tracepoints patch __schedule() while the other CPU runs it (which the
 * emulation does not survive).
 */
static int count_own(const char *text, const char *event, int pid,
		     const char **first)
{
	int n = 0;

	for (const char *p = text; (p = strstr(p, event)); p++) {
		const char *line = p;

		while (line > text && line[-1] != '\n')
			line--;
		if (line_pid(line) != pid)
			continue;
		if (!n++ && first)
			*first = p;
	}
	return n;
}

/*
 * A change of priority walks the rings of the HQDs holding the context's
 * jobs, and no other: another file keeps a gated job and three behind it
 * on every engine; a SET_PARAM of an idle context walks no ring at all,
 * and one of a context whose job runs walks that job's ring once, seen in
 * the events the ioctl itself emits (tempo_queue_reprogram).
 */
TEST_F(trace, a_priority_change_walks_only_the_rings_holding_its_jobs)
{
	struct tempo_env *e = &self->env, other;
	char engine[16], queue[16], want[64], *text;
	const char *own = NULL;
	uint32_t idle, busy, n;
	int fence, last[16];
	uint64_t nop;

	TEMPO_NEED_BLOCKING(e);
	tempo_env_init(_metadata, &other, tempo_device_open());
	n = other.engines->num_engines;
	ASSERT_GE(16u, n);
	ASSERT_EQ(0, tempo_ctx_create(e->fd, DRM_TEMPO_PRIORITY_NORMAL, NULL,
				      0, &idle));
	ASSERT_EQ(0, tempo_ctx_create(e->fd, DRM_TEMPO_PRIORITY_NORMAL, NULL,
				      0, &busy));
	fence = tempo_submit(_metadata, e->fd, busy, self->slot,
			     tempo_started_gated_batch(e, 0, 0x200));
	tempo_wait_nonzero(_metadata, &e->data, 0x200);
	text = trace_text(self->inst);
	ASSERT_NE(NULL, text);
	ASSERT_EQ(1, count_of(text, "tempo_job_run: ")) TH_LOG("%s", text);
	field_of(text, "tempo_job_run: ", " engine=", engine, sizeof(engine));
	field_of(text, "tempo_job_run: ", " queue=", queue, sizeof(queue));
	free(text);

	nop = tempo_mark_batch(&other, 256, TEMPO_NO_MARK, 0);
	for (uint32_t s = 0; s < n; s++) {
		ASSERT_EQ(0, tempo_exec(other.fd, other.ctx, s,
					tempo_gated_batch(&other, 0,
							  TEMPO_NO_MARK, 0),
					NULL, 0, NULL, 0, NULL));
		for (int j = 0; j < 2; j++)
			ASSERT_EQ(0, tempo_exec(other.fd, other.ctx, s, nop,
						NULL, 0, NULL, 0, NULL));
		last[s] = tempo_submit(_metadata, other.fd, other.ctx, s, nop);
	}

	ASSERT_TRUE(write_file(self->inst, "trace", ""));
	for (int i = 0; i < 4; i++)
		ASSERT_EQ(0, tempo_ctx_set_priority(e->fd, idle, i & 1 ?
						    DRM_TEMPO_PRIORITY_NORMAL :
						    DRM_TEMPO_PRIORITY_LOW));
	text = trace_text(self->inst);
	ASSERT_NE(NULL, text);
	EXPECT_EQ(0, count_own(text, "tempo_queue_reprogram: ", getpid(),
			       NULL))
		TH_LOG("%s", text);
	free(text);

	ASSERT_EQ(0, tempo_ctx_set_priority(e->fd, busy,
					    DRM_TEMPO_PRIORITY_LOW));
	text = trace_text(self->inst);
	ASSERT_NE(NULL, text);
	snprintf(want, sizeof(want), "tempo_queue_reprogram: %s %s ", engine,
		 queue);
	EXPECT_EQ(1, count_own(text, "tempo_queue_reprogram: ", getpid(),
			       &own))
		TH_LOG("%s", text);
	EXPECT_TRUE(own && !strncmp(own, want, strlen(want)))
		TH_LOG("no \"%s\" in %s", want, text);
	free(text);

	tempo_gate_set(e, 1);
	tempo_gate_set(&other, 1);
	tempo_fence_expect(_metadata, fence, 1, TEMPO_WAIT_MS);
	for (uint32_t s = 0; s < n; s++)
		tempo_fence_expect(_metadata, last[s], 1, TEMPO_WAIT_MS);
	tempo_env_fini(&other);
}

/* A gang context on compute 0 and 1 (width 2, no siblings). */
static int gang_ctx(int fd, uint32_t *id)
{
	struct drm_tempo_engine engines[] = {
		{ DRM_TEMPO_ENGINE_CLASS_COMPUTE, 0 },
		{ DRM_TEMPO_ENGINE_CLASS_COMPUTE, 1 },
	};

	return tempo_parallel_ctx(fd, 2, 1, engines, id);
}

/*
 * Between two flips: a flip that lands between a job's creation and its
 * push is what the test needs, and two of them undo each other. With
 * 100 us, a module that read the priority outside the lock placed 13 to
 * 62 of 200 gangs on the other priority's HQD, in each of five runs.
 */
#define FLIP_US	100

struct flipper {
	int fd;
	uint32_t ctx;
	bool stop;
	unsigned int flips;
};

/* Run the calling thread on CPU @cpu alone, when there is such a CPU. */
static void pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/*
 * Flip the context between HIGH and NORMAL until told to stop, on a CPU
 * of its own: every exec of the other thread then runs beside flips.
 */
static void *flip(void *arg)
{
	struct flipper *f = arg;

	pin_to(1);

	while (!__atomic_load_n(&f->stop, __ATOMIC_ACQUIRE)) {
		if (tempo_ctx_set_priority(f->fd, f->ctx, f->flips & 1 ?
					   DRM_TEMPO_PRIORITY_NORMAL :
					   DRM_TEMPO_PRIORITY_HIGH))
			break;
		f->flips++;
		usleep(FLIP_US);
	}
	return NULL;
}

/* The queue of the first tempo_job_run at or after @text, or -1. */
static int run_queue(const char *text)
{
	char queue[16];

	field_of(text, "tempo_job_run: ", " queue=", queue, sizeof(queue));
	return queue[0] ? atoi(queue + strlen("queue=")) : -1;
}

/*
 * The priority the tempo_job_queued line at @line traced, and the queue
 * the job ran on (its tempo_job_run in @text), or -1 when it has none.
 */
static int queued_and_run(const char *text, const char *line, int *prio)
{
	char fence[64], key[96], buf[256];
	const char *run;

	snprintf(buf, sizeof(buf), "%.*s", (int)strcspn(line, "\n"), line);
	*prio = atoi(strrchr(buf, ' ') + 1);
	fence_of(line, "tempo_job_queued: ", fence, sizeof(fence));
	snprintf(key, sizeof(key), "tempo_job_run: %s ", fence);
	run = strstr(text, key);
	return fence[0] && run ? run_queue(run) : -1;
}

#define GANGS	200

/*
 * A gang goes to the gang HQD of the priority its context has when it is
 * pushed, the one read under the context's lock and traced with it: a
 * thread flips the context between HIGH and NORMAL while gangs, each
 * waiting for 64 signalled syncobjs (a longer exec between the job's
 * creation and its push), run one after the other. Every gang traced at
 * HIGH ran on the HQD of a calm HIGH gang, every gang traced at NORMAL on
 * that of a calm NORMAL one.
 */
TEST_F_TIMEOUT(trace, a_gang_runs_on_the_hqd_of_the_priority_it_was_queued_at,
	       300)
{
	struct tempo_env *e = &self->env;
	struct drm_tempo_sync in[64];
	struct flipper f = { .fd = e->fd };
	uint32_t syncobj, ctx;
	int q_high, q_normal, high = 0, normal = 0, wrong = 0;
	uint64_t batches[2];
	pthread_t thread;
	char *text, *line;
	int fd;

	TEMPO_NEED_NICE();
	if (tempo_count_class(e->engines, DRM_TEMPO_ENGINE_CLASS_COMPUTE) < 2)
		SKIP(return, "needs 2 compute engines");
	ASSERT_EQ(0, gang_ctx(e->fd, &ctx));
	ASSERT_EQ(0, drmSyncobjCreate(e->fd, DRM_SYNCOBJ_CREATE_SIGNALED,
				      &syncobj));
	for (int i = 0; i < 64; i++)
		in[i] = (struct drm_tempo_sync){ .handle = syncobj };
	batches[0] = tempo_mark_batch(e, 0, TEMPO_NO_MARK, 0);
	batches[1] = tempo_mark_batch(e, 64, TEMPO_NO_MARK, 0);
	/* Only the jobs' events: the flips' would fill the buffer. */
	ASSERT_TRUE(write_file(self->inst, "events/enable", "0"));
	ASSERT_TRUE(write_file(self->inst,
			       "events/tempo/tempo_job_queued/enable", "1"));
	ASSERT_TRUE(write_file(self->inst, "events/tempo/tempo_job_run/enable",
			       "1"));

	/* The gang HQD of each priority, while nothing flips. */
	for (int p = 0; p < 2; p++) {
		ASSERT_EQ(0, tempo_ctx_set_priority(e->fd, ctx, p ?
						    DRM_TEMPO_PRIORITY_HIGH :
						    DRM_TEMPO_PRIORITY_NORMAL));
		ASSERT_TRUE(write_file(self->inst, "trace", ""));
		ASSERT_EQ(0, tempo_exec_gang(e->fd, ctx, 0, batches, 2, in,
					     64, &fd));
		tempo_fence_expect(_metadata, fd, 1, TEMPO_WAIT_MS);
		text = trace_text(self->inst);
		ASSERT_NE(NULL, text);
		*(p ? &q_high : &q_normal) = run_queue(text);
		free(text);
	}
	ASSERT_LE(0, q_high);
	ASSERT_LE(0, q_normal);
	ASSERT_NE(q_high, q_normal);

	ASSERT_TRUE(write_file(self->inst, "trace", ""));
	f.ctx = ctx;
	pin_to(0);
	ASSERT_EQ(0, pthread_create(&thread, NULL, flip, &f));
	for (int g = 0; g < GANGS; g++) {
		ASSERT_EQ(0, tempo_exec_gang(e->fd, ctx, 0, batches, 2, in,
					     64, &fd));
		tempo_fence_expect(_metadata, fd, 1, TEMPO_WAIT_MS);
	}
	__atomic_store_n(&f.stop, true, __ATOMIC_RELEASE);
	pthread_join(thread, NULL);
	text = trace_text(self->inst);
	ASSERT_NE(NULL, text);
	for (line = strstr(text, "tempo_job_queued: "); line;
	     line = strstr(line + 1, "tempo_job_queued: ")) {
		int prio, q = queued_and_run(text, line, &prio);

		if (q < 0)
			continue;
		if (prio >= DRM_TEMPO_PRIORITY_HIGH)
			high++;
		else
			normal++;
		if (q != (prio >= DRM_TEMPO_PRIORITY_HIGH ? q_high : q_normal))
			wrong++;
	}
	free(text);
	TH_LOG("%u flips; %d gangs traced at HIGH, %d at NORMAL, %d on the other priority's HQD",
	       f.flips, high, normal, wrong);
	ASSERT_EQ(0, wrong);
	ASSERT_LT(0, high);
	ASSERT_LT(0, normal);
	drmSyncobjDestroy(e->fd, syncobj);
}

TEST_HARNESS_MAIN
