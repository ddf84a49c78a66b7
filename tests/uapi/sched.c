// SPDX-License-Identifier: GPL-2.0-only
/*
 * DRM_IOCTL_TEMPO_SCHED: priority overrides of another file's contexts,
 * for a DRM master or a CAP_SYS_NICE holder only. And the module
 * parameter floor, the benchmarks' switch that makes run_job end jobs at
 * once.
 */
#include "tempo_test.h"

#define VA(e, off)	((e)->data.va + (off))
#define STARTED		0x1000
#define MARK		0x1008

FIXTURE(sched) {
	struct tempo_env env;
	int other;		/* a second file: "another process" */
	uint32_t other_ctx;
};

FIXTURE_SETUP(sched)
{
	TEMPO_ENV_SETUP(&self->env);
	self->other = tempo_device_open();
	ASSERT_LE(0, self->other);
	ASSERT_EQ(0, tempo_ctx_create(self->other, DRM_TEMPO_PRIORITY_NORMAL,
				      NULL, 0, &self->other_ctx));
}

FIXTURE_TEARDOWN(sched)
{
	close(self->other);
	tempo_env_fini(&self->env);
}

static int64_t priority_of(int fd, uint32_t ctx)
{
	int64_t p;
	int ret = tempo_ctx_get_priority(fd, ctx, &p);

	return ret ? ret : p;
}

/* SCHED of the other file: all its contexts (@ctx 0), or context @ctx. */
static int override(FIXTURE_DATA(sched) *self, uint32_t ctx,
		    int32_t priority)
{
	return tempo_sched(self->env.fd,
			   ctx ? DRM_TEMPO_SCHED_CTX_PRIORITY_OVERRIDE :
				 DRM_TEMPO_SCHED_FILE_PRIORITY_OVERRIDE,
			   self->other, ctx, priority);
}

TEST_F(sched, override_without_privilege_fails_eacces)
{
	TEMPO_NEED_NOT_NICE();
	ASSERT_EQ(-EACCES, override(self, self->other_ctx,
				    DRM_TEMPO_PRIORITY_LOW));
	ASSERT_EQ(-EACCES, override(self, 0, DRM_TEMPO_PRIORITY_LOW));
	ASSERT_EQ(DRM_TEMPO_PRIORITY_NORMAL,
		  priority_of(self->other, self->other_ctx));
}

TEST_F(sched, out_of_range_priority_fails_einval_before_eacces)
{
	ASSERT_EQ(-EINVAL, override(self, self->other_ctx, 1024));
	ASSERT_EQ(-EINVAL, override(self, 0, -1024));
}

TEST_F(sched, unknown_op_fails_einval)
{
	ASSERT_EQ(-EINVAL, tempo_sched(self->env.fd, 2, self->other, 0, 0));
}

TEST_F(sched, nonzero_flags_or_pad_fails_einval)
{
	struct drm_tempo_sched s = {
		.op = DRM_TEMPO_SCHED_FILE_PRIORITY_OVERRIDE,
		.fd = self->other,
		.flags = 1,
	};

	ASSERT_EQ(-EINVAL, tempo_ioctl(self->env.fd, DRM_IOCTL_TEMPO_SCHED,
				       &s));
	s.flags = 0;
	s.pad = 1;
	ASSERT_EQ(-EINVAL, tempo_ioctl(self->env.fd, DRM_IOCTL_TEMPO_SCHED,
				       &s));
}

TEST_F(sched, file_override_with_a_ctx_id_fails_einval)
{
	ASSERT_EQ(-EINVAL, tempo_sched(self->env.fd,
				       DRM_TEMPO_SCHED_FILE_PRIORITY_OVERRIDE,
				       self->other, self->other_ctx, 0));
}

TEST_F(sched, closed_fd_fails_ebadf)
{
	TEMPO_NEED_NICE();
	ASSERT_EQ(-EBADF, tempo_sched(self->env.fd,
				      DRM_TEMPO_SCHED_FILE_PRIORITY_OVERRIDE,
				      1000000, 0, 0));
}

TEST_F(sched, fd_of_another_kind_fails_einval)
{
	int null = open("/dev/null", O_RDONLY);

	TEMPO_NEED_NICE();
	ASSERT_LE(0, null);
	ASSERT_EQ(-EINVAL, tempo_sched(self->env.fd,
				       DRM_TEMPO_SCHED_FILE_PRIORITY_OVERRIDE,
				       null, 0, 0));
	close(null);
}

TEST_F(sched, unknown_ctx_fails_enoent)
{
	TEMPO_NEED_NICE();
	ASSERT_EQ(-ENOENT, override(self, self->other_ctx + 100, 0));
}

TEST_F(sched, ctx_override_changes_and_unset_restores_the_priority)
{
	TEMPO_NEED_NICE();
	ASSERT_EQ(0, override(self, self->other_ctx, DRM_TEMPO_PRIORITY_LOW));
	ASSERT_EQ(DRM_TEMPO_PRIORITY_LOW,
		  priority_of(self->other, self->other_ctx));
	ASSERT_EQ(0, override(self, self->other_ctx, DRM_TEMPO_PRIORITY_UNSET));
	ASSERT_EQ(DRM_TEMPO_PRIORITY_NORMAL,
		  priority_of(self->other, self->other_ctx));
}

TEST_F(sched, file_override_covers_present_and_future_contexts)
{
	uint32_t later;

	TEMPO_NEED_NICE();
	ASSERT_EQ(0, override(self, 0, DRM_TEMPO_PRIORITY_VERY_LOW));
	ASSERT_EQ(DRM_TEMPO_PRIORITY_VERY_LOW,
		  priority_of(self->other, self->other_ctx));
	ASSERT_EQ(0, tempo_ctx_create(self->other, DRM_TEMPO_PRIORITY_NORMAL,
				      NULL, 0, &later));
	ASSERT_EQ(DRM_TEMPO_PRIORITY_VERY_LOW, priority_of(self->other, later));
	/* The file's own contexts of the caller are untouched. */
	ASSERT_EQ(DRM_TEMPO_PRIORITY_NORMAL,
		  priority_of(self->env.fd, self->env.ctx));
	ASSERT_EQ(0, override(self, 0, DRM_TEMPO_PRIORITY_UNSET));
	ASSERT_EQ(DRM_TEMPO_PRIORITY_NORMAL, priority_of(self->other, later));
}

TEST_F(sched, ctx_override_wins_over_file_override)
{
	TEMPO_NEED_NICE();
	ASSERT_EQ(0, override(self, 0, DRM_TEMPO_PRIORITY_LOW));
	ASSERT_EQ(0, override(self, self->other_ctx, DRM_TEMPO_PRIORITY_HIGH));
	ASSERT_EQ(DRM_TEMPO_PRIORITY_HIGH,
		  priority_of(self->other, self->other_ctx));
}

/*
 * The compositor raises another file's normal-priority context: its job
 * now preempts a normal-priority spinner on the same engine.
 */
TEST_F(sched, raised_context_preempts_a_spinner)
{
	struct tempo_env *e = &self->env;
	uint32_t slot = tempo_default_slot(e->engines,
					   DRM_TEMPO_ENGINE_CLASS_COMPUTE, 0);
	struct tempo_batch spin;
	uint32_t raised;
	int spinner, fence;

	TEMPO_NEED_NICE();
	ASSERT_EQ(0, tempo_ctx_create(e->fd, DRM_TEMPO_PRIORITY_NORMAL, NULL,
				      0, &raised));
	ASSERT_EQ(0, tempo_sched(e->fd, DRM_TEMPO_SCHED_CTX_PRIORITY_OVERRIDE,
				 e->fd, raised, DRM_TEMPO_PRIORITY_HIGH));

	tempo_batch_init(&spin, &e->cmd, 0, 64);
	tempo_pkt_write32(&spin, VA(e, STARTED), 1);
	tempo_pkt_wait_gate(&spin, e, 1);
	tempo_pkt_end(&spin);
	spinner = tempo_submit(_metadata, e->fd, e->ctx, slot, spin.va);
	tempo_wait_nonzero(_metadata, &e->data, STARTED);
	fence = tempo_submit(_metadata, e->fd, raised, slot,
			     tempo_mark_batch(e, 4096, MARK, 1));
	/* Well before the starvation bound could let it run. */
	ASSERT_EQ(1, tempo_fence_wait(fence, 50));
	ASSERT_EQ(0, tempo_fence_wait(spinner, 0));
	tempo_gate_set(e, 1);
	tempo_fence_expect(_metadata, spinner, 1, TEMPO_WAIT_MS);
	close(fence);
}

/* ------------------------------------------------------------------------ */
/* The floor switch (module parameter floor, root only) */

#define FLOOR_PARAM	"/sys/module/tempo/parameters/floor"

FIXTURE(floor) {
	struct tempo_env env;
	bool set;
};

FIXTURE_SETUP(floor)
{
	self->set = false;
	TEMPO_ENV_SETUP(&self->env);
	if (access(FLOOR_PARAM, W_OK))
		SKIP(return, "needs root and the module parameter floor");
}

FIXTURE_TEARDOWN(floor)
{
	if (self->set)
		tempo_set_module_param("floor", "0");
	tempo_env_fini(&self->env);
}

/*
 * While the switch is on, a job ends at once and successfully, and nothing
 * of it runs; once it is off, the same job runs again.
 */
TEST_F(floor, jobs_end_without_running_while_the_floor_is_on)
{
	struct tempo_env *e = &self->env;
	int slot = tempo_default_slot(e->engines,
				      DRM_TEMPO_ENGINE_CLASS_COMPUTE, 0);
	volatile uint32_t *mark = (uint32_t *)((char *)e->data.map + MARK);
	uint64_t batch = tempo_mark_batch(e, 4096, MARK, 7);

	ASSERT_LE(0, slot);
	self->set = true;
	ASSERT_TRUE(tempo_set_module_param("floor", "1"));
	ASSERT_EQ(1, tempo_run(_metadata, e->fd, e->ctx, slot, batch));
	ASSERT_EQ(0u, *mark);
	ASSERT_TRUE(tempo_set_module_param("floor", "0"));
	ASSERT_EQ(1, tempo_run(_metadata, e->fd, e->ctx, slot, batch));
	ASSERT_EQ(7u, *mark);
}

/* ------------------------------------------------------------------------ */
/* Running the command processor in place (module parameter run_in_place) */

FIXTURE(in_place) {
	struct tempo_env env;
	int slot;
	long long was;
};

FIXTURE_SETUP(in_place)
{
	TEMPO_ENV_SETUP(&self->env);
	self->was = tempo_module_param("run_in_place");
	if (!tempo_set_module_param("run_in_place", "1"))
		SKIP(return, "needs root and the module parameter run_in_place");
	/* The default map follows the engines' order: slot N is engine N. */
	self->slot = tempo_default_slot(self->env.engines,
					DRM_TEMPO_ENGINE_CLASS_COMPUTE, 0);
}

FIXTURE_TEARDOWN(in_place)
{
	/* As the VM loaded it: other programs may run in place too. */
	if (self->was >= 0)
		tempo_set_module_param("run_in_place", self->was ? "1" : "0");
	tempo_env_fini(&self->env);
}

/* How often thread @pid went to sleep (voluntary context switches), or -1. */
static long long cp_sleeps(int pid)
{
	FILE *f = tempo_fopen("re", "/proc/%d/status", pid);
	long long sleeps = -1;
	char line[128];

	while (f && fgets(line, sizeof(line), f))
		sscanf(line, "voluntary_ctxt_switches: %lld", &sleeps);
	if (f)
		fclose(f);
	return sleeps;
}

/* Wait (at most a second) until thread @pid sleeps; whether it does. */
static bool cp_wait_asleep(int pid)
{
	char state = 0;

	for (int i = 0; i < 10000; i++) {
		FILE *f = tempo_fopen("re", "/proc/%d/stat", pid);
		int n = f ? fscanf(f, "%*d (%*[^)]) %c", &state) : 0;

		if (f)
			fclose(f);
		if (n == 1 && (state == 'S' || state == 'I'))
			return true;
		usleep(100);
	}
	return false;
}

/*
 * Run @n jobs one after the other, each once the engine's thread sleeps;
 * how often the thread went to sleep meanwhile.
 */
static long long run_counting_sleeps(struct __test_metadata *_metadata,
				     struct tempo_env *e, int slot, int pid,
				     int n)
{
	uint64_t batch = tempo_mark_batch(e, 4096, MARK, 1);
	long long before = cp_sleeps(pid);

	for (int i = 0; i < n; i++) {
		ASSERT_TRUE(cp_wait_asleep(pid));
		ASSERT_EQ(1, tempo_run(_metadata, e->fd, e->ctx, slot, batch));
	}
	return cp_sleeps(pid) - before;
}

/*
 * Each job of an idle engine wakes its command processor's thread, which
 * sleeps again once the job ended; run in place, the thread sleeps on.
 * Every job is submitted while the thread sleeps, so that woken it must
 * wake for each.
 */
TEST_F(in_place, idle_jobs_run_without_waking_the_command_processor)
{
	const int n = 200;
	long long woken, in_place;
	int pid;

	ASSERT_LE(0, self->slot);
	ASSERT_EQ(1, tempo_threads("tempo-cp", self->slot, &pid, 1));
	ASSERT_LE(0, cp_sleeps(pid));
	ASSERT_TRUE(tempo_set_module_param("run_in_place", "0"));
	woken = run_counting_sleeps(_metadata, &self->env, self->slot, pid, n);
	ASSERT_TRUE(tempo_set_module_param("run_in_place", "1"));
	in_place = run_counting_sleeps(_metadata, &self->env, self->slot, pid,
				       n);
	TH_LOG("thread slept %lld times woken, %lld in place, for %d jobs",
	       woken, in_place, n);
	/*
	 * Woken: once a job, but where the next doorbell came before the
	 * thread had switched out after its state said asleep.
	 */
	ASSERT_LE(n * 3 / 4, woken);
	/*
	 * In place: only when a job outlasted its time in place, which a
	 * loaded host makes more likely (a vCPU descheduled for a
	 * millisecond); without running in place it is as often as woken.
	 */
	ASSERT_GE(woken / 2, in_place);
}

/*
 * A job that must wait is handed over to the thread, which waits for it:
 * it started in place, it is not done while its gate is shut, and it ends
 * once the gate opens.
 */
TEST_F(in_place, a_job_that_waits_is_handed_over_to_the_thread)
{
	struct tempo_env *e = &self->env;
	uint64_t batch = tempo_started_gated_batch(e, 4096, MARK);
	int fence;

	ASSERT_LE(0, self->slot);
	fence = tempo_submit(_metadata, e->fd, e->ctx, self->slot, batch);
	tempo_wait_nonzero(_metadata, &e->data, MARK);
	tempo_sleep_ms(50);
	ASSERT_EQ(0, tempo_fence_wait(fence, 0));
	tempo_gate_set(e, 1);
	tempo_fence_expect(_metadata, fence, 1, TEMPO_WAIT_MS);
}

/*
 * A DISPATCH started in place goes on on the compute units while the
 * thread waits for it: every workgroup's increments land.
 */
TEST_F(in_place, a_dispatch_started_in_place_runs_every_group)
{
	struct tempo_env *e = &self->env;
	uint32_t args[] = { TEMPO_ARG_VA(e->data.va + MARK), 512 };
	struct tempo_batch b;

	ASSERT_LE(0, self->slot);
	tempo_batch_init(&b, &e->cmd, 4096, 64);
	tempo_pkt_dispatch(&b, DRM_TEMPO_KERNEL_ATOMIC_INC, 8, 1, 1, args, 3);
	tempo_pkt_end(&b);
	ASSERT_EQ(1, tempo_run(_metadata, e->fd, e->ctx, self->slot, b.va));
	ASSERT_EQ(8u * 512, *tempo_u64(&e->data, MARK));
}

TEST_HARNESS_MAIN
