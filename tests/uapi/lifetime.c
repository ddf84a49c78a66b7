// SPDX-License-Identifier: GPL-2.0-only
/*
 * Object lifetimes with work in flight: files closed and processes gone
 * while their jobs wait on a gate (released later through a mapping that
 * outlives the file, or never), contexts destroyed with jobs queued behind
 * a dependency, mappings removed and buffers closed under running jobs,
 * many files opened and closed with work in flight, and repeated hangs.
 * After each, the device must still run a job on every engine for a new
 * file, and no fence may be left unsignalled or carry an error the uAPI
 * header does not document. Leaks are for kmemleak (the debug kernel's
 * test VM scans after every run).
 *
 * TEMPO_HANG_CYCLES (default 3) sets how many hang-and-recover cycles
 * hang_cycles_leave_the_device_working runs; each takes about the job
 * timeout.
 */
#include <pthread.h>
#include <sys/wait.h>

#include "tempo_test.h"

#define MARK		0x1000		/* one dword per job */
#define GATE2		0x100		/* a second gate qword */
#define STARTED		0x1800		/* a job says it runs */
#define FILES		50		/* files of many_files_* */

FIXTURE(lifetime) {
	struct tempo_env env;
	int gfx;
	int compute;
	unsigned int timeout_ms;	/* job timeout, plus margin */
};

FIXTURE_SETUP(lifetime)
{
	const struct drm_tempo_query_engines *engines;

	TEMPO_ENV_SETUP(&self->env);
	TEMPO_NEED_TIMEOUT_WITHIN(&self->env, 20000);
	self->timeout_ms = self->env.dev.job_timeout_ms + TEMPO_WAIT_MS;
	engines = self->env.engines;
	self->gfx = tempo_default_slot(engines, DRM_TEMPO_ENGINE_CLASS_GFX, 0);
	if (self->gfx < 0)
		self->gfx = 0;
	self->compute = tempo_default_slot(engines,
					   DRM_TEMPO_ENGINE_CLASS_COMPUTE, 0);
	if (self->compute < 0)
		self->compute = self->gfx;
}

FIXTURE_TEARDOWN(lifetime)
{
	tempo_env_fini(&self->env);
}

/* Is a fence status a documented end of a job (success or job error)? */
static bool documented_end(int status)
{
	switch (status) {
	case 1:
	case -EFAULT:
	case -EILSEQ:
	case -ELOOP:
	case -ETIMEDOUT:
	case -ECANCELED:
	case -ESRCH:
		return true;
	}
	return false;
}

/*
 * Run a job on engine slot @i of @e that marks MARK + 4 * i, twice if the
 * first one does not end in time (jobs left over by a test may still hold
 * an engine): the fence status.
 */
static int run_mark(struct __test_metadata *_metadata, struct tempo_env *e,
		    uint32_t i)
{
	uint64_t va = tempo_mark_batch(e, 256 * i, MARK + 4 * i, 0xd00d + i);
	int status = tempo_run(_metadata, e->fd, e->ctx, i, va);

	return status ? status : tempo_run(_metadata, e->fd, e->ctx, i, va);
}

/*
 * The device works for a new file: a context that reports no reset
 * status at all and a job on every engine of the default map.
 */
static void device_works(struct __test_metadata *_metadata)
{
	struct tempo_env e;
	int64_t status;

	tempo_env_init(_metadata, &e, tempo_device_open());
	ASSERT_EQ(0, tempo_ctx_get_param(e.fd, e.ctx,
					 DRM_TEMPO_CTX_PARAM_RESET_STATUS,
					 &status));
	ASSERT_EQ(0, status);
	for (uint32_t i = 0; i < e.engines->num_engines; i++) {
		ASSERT_EQ(1, run_mark(_metadata, &e, i))
			TH_LOG("engine slot %u", i);
		ASSERT_EQ(0xd00du + i, *tempo_u32(&e.data, MARK + 4 * i));
	}
	tempo_env_fini(&e);
}

/* Submit with an out-syncobj, or with an in-syncobj. */
static int submit_sync(struct __test_metadata *_metadata, int fd,
		       uint32_t ctx, uint32_t slot, uint64_t batch,
		       uint32_t in, uint32_t out)
{
	struct drm_tempo_sync si = { .handle = in }, so = { .handle = out };
	int fence = -1;

	ASSERT_EQ(0, tempo_exec(fd, ctx, slot, batch, &si, in ? 1 : 0, &so,
				out ? 1 : 0, &fence));
	return fence;
}

/*
 * A gated job of @e's context on gfx that marks MARK and signals a new
 * syncobj, and a job of context @ctx on compute queued behind it that
 * marks MARK + 4: their sync_files in @first and @second.
 */
static void queue_behind_gate(struct __test_metadata *_metadata,
			      FIXTURE_DATA(lifetime) *self, uint32_t ctx,
			      int *first, int *second)
{
	struct tempo_env *e = &self->env;
	uint32_t sync;

	ASSERT_EQ(0, drmSyncobjCreate(e->fd, 0, &sync));
	*first = submit_sync(_metadata, e->fd, e->ctx, self->gfx,
			     tempo_gated_batch(e, 0, MARK, 1), 0, sync);
	*second = submit_sync(_metadata, e->fd, ctx, self->compute,
			      tempo_mark_batch(e, 256, MARK + 4, 2), sync, 0);
}

struct releaser {
	pthread_t thread;
	volatile uint64_t *gate;
	int delay_ms;
};

static void *release_later(void *arg)
{
	struct releaser *r = arg;

	tempo_sleep_ms(r->delay_ms);
	__atomic_store_n(r->gate, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static void release_in(struct releaser *r, volatile uint64_t *gate, int ms)
{
	r->gate = gate;
	r->delay_ms = ms;
	if (pthread_create(&r->thread, NULL, release_later, r))
		abort();
}

/* A gated job on every engine slot, marking MARK + 4 * i with i + 1. */
static void gate_every_engine(struct __test_metadata *_metadata,
			      struct tempo_env *e, int *fences)
{
	for (uint32_t i = 0; i < e->engines->num_engines; i++)
		fences[i] = tempo_submit(_metadata, e->fd, e->ctx, i,
					 tempo_gated_batch(e, 256 * i,
							   MARK + 4 * i,
							   i + 1));
}

/* ------------------------------------------------------------------------ */
/* Closing files */

TEST_F_TIMEOUT(lifetime, close_with_gated_jobs_then_release_through_the_mapping, 60)
{
	struct tempo_env *e = &self->env;
	int fences[64];

	/* One gated job on every engine; the file goes away. */
	gate_every_engine(_metadata, e, fences);
	ASSERT_EQ(0, tempo_fence_wait(fences[0], TEMPO_BLOCKED_MS));
	close(e->fd);
	e->fd = -1;
	/* The CPU mapping outlives the file: the gate opens through it. */
	tempo_gate_set(e, 1);
	for (uint32_t i = 0; i < e->engines->num_engines; i++) {
		ASSERT_EQ(1, tempo_fence_wait(fences[i], self->timeout_ms))
			TH_LOG("engine slot %u", i);
		ASSERT_EQ(i + 1, *tempo_u32(&e->data, MARK + 4 * i));
		close(fences[i]);
	}
	device_works(_metadata);
}

/*
 * A private buffer shares its reservation object with the file's address
 * space, which holds the job fences: the file, its address space and the
 * buffer go while a job that writes the buffer waits, in that order.
 */
TEST_F_TIMEOUT(lifetime, close_with_a_gated_job_writing_a_private_buffer, 60)
{
	struct tempo_env *e = &self->env;
	struct tempo_batch b;
	struct tempo_bo bo;
	int fence;

	TEMPO_NEED_BLOCKING(e);
	ASSERT_EQ(0, tempo_bo_new_flags(e->fd, 4096,
					DRM_TEMPO_BO_CREATE_VM_PRIVATE, 0,
					&bo));
	tempo_batch_init(&b, &e->cmd, 0, 32);
	tempo_pkt_wait_gate(&b, e, 1);
	tempo_pkt_write32(&b, bo.va + 8, 0xc105e);
	tempo_pkt_end(&b);
	fence = tempo_submit(_metadata, e->fd, e->ctx, 0, b.va);
	ASSERT_EQ(0, tempo_fence_wait(fence, TEMPO_BLOCKED_MS));
	ASSERT_EQ(0, tempo_gem_close(e->fd, bo.handle));
	close(e->fd);
	e->fd = -1;
	tempo_gate_set(e, 1);
	ASSERT_EQ(1, tempo_fence_wait(fence, self->timeout_ms));
	close(fence);
	/* The mapping kept the pages; the job wrote them. */
	ASSERT_EQ(0xc105eu, *tempo_u32(&bo, 8));
	munmap(bo.map, bo.size);
	device_works(_metadata);
}

TEST_F_TIMEOUT(lifetime, close_with_gated_jobs_never_released, 60)
{
	struct tempo_env *e = &self->env;
	int fences[64];
	uint64_t t0;

	gate_every_engine(_metadata, e, fences);
	t0 = tempo_now_ns();
	close(e->fd);
	e->fd = -1;
	/* Closing does not wait for jobs that already reached the engines. */
	ASSERT_GT(self->env.dev.job_timeout_ms * 500000ull, tempo_now_ns() - t0);
	for (uint32_t i = 0; i < e->engines->num_engines; i++) {
		int status = tempo_fence_wait(fences[i], self->timeout_ms);

		ASSERT_GT(0, status) TH_LOG("engine slot %u: %d", i, status);
		ASSERT_TRUE(documented_end(status))
			TH_LOG("engine slot %u: fence error %d", i, status);
		ASSERT_EQ(0u, *tempo_u32(&e->data, MARK + 4 * i));
		close(fences[i]);
	}
	device_works(_metadata);
}

/*
 * A job queued behind a dependency has not reached an engine when its
 * file is closed: close() lets it run once the dependency signals.
 */
TEST_F_TIMEOUT(lifetime, close_with_a_job_queued_behind_a_gated_one, 60)
{
	struct tempo_env *e = &self->env;
	struct releaser r;
	int first, second;

	queue_behind_gate(_metadata, self, e->ctx, &first, &second);
	ASSERT_EQ(0, tempo_fence_wait(second, TEMPO_BLOCKED_MS));

	release_in(&r, tempo_u64(&e->data, TEMPO_GATE), TEMPO_BLOCKED_MS);
	close(e->fd);
	e->fd = -1;
	pthread_join(r.thread, NULL);
	tempo_fence_expect(_metadata, first, 1, self->timeout_ms);
	tempo_fence_expect(_metadata, second, 1, self->timeout_ms);
	ASSERT_EQ(1u, *tempo_u32(&e->data, MARK));
	ASSERT_EQ(2u, *tempo_u32(&e->data, MARK + 4));
	device_works(_metadata);
}

/* ------------------------------------------------------------------------ */
/* Processes that exit or are killed with work in flight */

/*
 * A child opens its own file, submits a gated job on GFX and a job on
 * COMPUTE queued behind it, and hands the parent a dma-buf of its data
 * buffer (the gate) and both sync_files. Then it waits to be told to
 * exit, or to be killed.
 */
struct child_work {
	pid_t pid;
	int sock;
	int dmabuf;
	int first;
	int second;
	volatile uint64_t *data;
};

struct child_slots {
	int gfx;
	int compute;
};

static int child_main(int sock, void *arg)
{
	const struct child_slots *slots = arg;
	struct drm_tempo_sync sync = { 0 };
	struct tempo_env e;
	int fds[3];
	char byte;

	if (tempo_env_open(&e, TEMPO_DATA_SIZE) ||
	    drmSyncobjCreate(e.fd, 0, &sync.handle) ||
	    drmPrimeHandleToFD(e.fd, e.data.handle, DRM_CLOEXEC | DRM_RDWR,
			       &fds[0]))
		return 3;
	if (tempo_exec(e.fd, e.ctx, slots->gfx,
		       tempo_gated_batch(&e, 0, MARK, 1), NULL, 0, &sync, 1,
		       &fds[1]) ||
	    tempo_exec(e.fd, e.ctx, slots->compute,
		       tempo_mark_batch(&e, 256, MARK + 4, 2), &sync, 1, NULL,
		       0, &fds[2]))
		return 4;
	if (tempo_send_fds(sock, fds, 3))
		return 5;
	/* Wait for the word; a killed child never gets it. */
	if (read(sock, &byte, 1) != 1)
		return 6;
	return 0;
}

/* Fork a child_main(): the parent's end of the socket, or -1. */
static int child_fork(pid_t *pid, int gfx, int compute)
{
	struct child_slots slots = { .gfx = gfx, .compute = compute };

	return tempo_fork_child(child_main, &slots, pid);
}

static void child_start(struct __test_metadata *_metadata,
			FIXTURE_DATA(lifetime) *self, struct child_work *w)
{
	int fds[3];

	w->sock = child_fork(&w->pid, self->gfx, self->compute);
	ASSERT_LE(0, w->sock);
	ASSERT_EQ(0, tempo_recv_fds(w->sock, fds, 3));
	w->dmabuf = fds[0];
	w->first = fds[1];
	w->second = fds[2];
	w->data = mmap(NULL, TEMPO_DATA_SIZE, PROT_READ | PROT_WRITE,
		       MAP_SHARED, w->dmabuf, 0);
	ASSERT_NE(MAP_FAILED, w->data);
}

static void child_end(struct child_work *w)
{
	munmap((void *)w->data, TEMPO_DATA_SIZE);
	close(w->dmabuf);
	close(w->first);
	close(w->second);
	close(w->sock);
}

TEST_F_TIMEOUT(lifetime, exiting_process_with_queued_work_released_by_another, 60)
{
	struct child_work w;
	int status;

	child_start(_metadata, self, &w);
	ASSERT_EQ(0, tempo_fence_wait(w.second, TEMPO_BLOCKED_MS));
	/* The gate opens through the dma-buf, then the child exits. */
	__atomic_store_n(&w.data[TEMPO_GATE / 8], 1, __ATOMIC_SEQ_CST);
	ASSERT_EQ(1, write(w.sock, "x", 1));
	ASSERT_EQ(w.pid, waitpid(w.pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	ASSERT_EQ(1, tempo_fence_wait(w.first, self->timeout_ms));
	ASSERT_EQ(1, tempo_fence_wait(w.second, self->timeout_ms));
	ASSERT_EQ(1u, ((volatile uint32_t *)w.data)[MARK / 4]);
	ASSERT_EQ(2u, ((volatile uint32_t *)w.data)[MARK / 4 + 1]);
	child_end(&w);
	device_works(_metadata);
}

/*
 * Killed with a job running (gated, never released) and one queued behind
 * it: both fences still signal, with errors the header documents.
 */
TEST_F_TIMEOUT(lifetime, killed_process_with_queued_work_ends_it_with_documented_errors, 60)
{
	struct child_work w;
	int status, first, second;

	child_start(_metadata, self, &w);
	ASSERT_EQ(0, tempo_fence_wait(w.second, TEMPO_BLOCKED_MS));
	ASSERT_EQ(0, kill(w.pid, SIGKILL));
	ASSERT_EQ(w.pid, waitpid(w.pid, &status, 0));
	first = tempo_fence_wait(w.first, self->timeout_ms);
	second = tempo_fence_wait(w.second, self->timeout_ms);
	TH_LOG("fence of the gated job: %d, of the job queued behind it: %d",
	       first, second);
	ASSERT_TRUE(documented_end(first));
	ASSERT_NE(1, first);
	ASSERT_TRUE(documented_end(second));
	ASSERT_EQ(0u, ((volatile uint32_t *)w.data)[MARK / 4]);
	child_end(&w);
	device_works(_metadata);
}

/* ------------------------------------------------------------------------ */
/* Contexts */

/*
 * CTX_DESTROY with a job queued behind a dependency: "Jobs already
 * submitted run to completion" holds for queued jobs too.
 */
TEST_F_TIMEOUT(lifetime, destroy_with_a_job_queued_behind_a_dependency, 60)
{
	struct tempo_env *e = &self->env;
	struct releaser r;
	uint32_t victim;
	int first, second;

	ASSERT_EQ(0, tempo_ctx_create(e->fd, 0, NULL, 0, &victim));
	queue_behind_gate(_metadata, self, victim, &first, &second);
	release_in(&r, tempo_u64(&e->data, TEMPO_GATE), TEMPO_BLOCKED_MS);
	ASSERT_EQ(0, tempo_ctx_destroy(e->fd, victim));
	pthread_join(r.thread, NULL);
	tempo_fence_expect(_metadata, first, 1, self->timeout_ms);
	tempo_fence_expect(_metadata, second, 1, self->timeout_ms);
	ASSERT_EQ(2u, *tempo_u32(&e->data, MARK + 4));
	ASSERT_EQ(-ENOENT, tempo_ctx_destroy(e->fd, victim));
}

/* The same, the dependency never signalling by itself: bounded too. */
TEST_F_TIMEOUT(lifetime, destroy_with_a_job_queued_behind_a_hang_is_bounded, 60)
{
	struct tempo_env *e = &self->env;
	uint32_t victim;
	int first, second, status;
	uint64_t t0;

	ASSERT_EQ(0, tempo_ctx_create(e->fd, 0, NULL, 0, &victim));
	queue_behind_gate(_metadata, self, victim, &first, &second);
	t0 = tempo_now_ns();
	ASSERT_EQ(0, tempo_ctx_destroy(e->fd, victim));
	ASSERT_GT((uint64_t)self->timeout_ms * 1000000ull, tempo_now_ns() - t0);
	tempo_fence_expect(_metadata, first, -ETIMEDOUT, self->timeout_ms);
	status = tempo_fence_wait(second, self->timeout_ms);
	ASSERT_TRUE(documented_end(status)) TH_LOG("status %d", status);
	close(second);
	device_works(_metadata);
}

/* ------------------------------------------------------------------------ */
/* Mappings and buffers under running jobs */

TEST_F_TIMEOUT(lifetime, gem_close_of_a_buffer_a_job_writes, 60)
{
	struct tempo_env *e = &self->env;
	uint32_t handle;
	struct tempo_batch b;
	struct tempo_bo bo;
	int fence;

	ASSERT_EQ(0, tempo_bo_new(e->fd, tempo_page_size(), 0, &bo));
	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_wait_gate(&b, e, 1);
	tempo_pkt_write32(&b, bo.va + 64, 0xc105ed);
	tempo_pkt_end(&b);
	fence = tempo_submit(_metadata, e->fd, e->ctx, self->compute, b.va);
	/* The handle goes; the GPU and CPU mappings keep the buffer. */
	handle = bo.handle;
	ASSERT_EQ(0, tempo_gem_close(e->fd, handle));
	ASSERT_EQ(-EINVAL, tempo_gem_close(e->fd, handle));
	tempo_gate_set(e, 1);
	ASSERT_EQ(1, tempo_fence_wait(fence, TEMPO_WAIT_MS));
	ASSERT_EQ(0xc105edu, *tempo_u32(&bo, 64));
	close(fence);
	/* Then the mapping, while another job of the slot reads it. */
	tempo_gate_set(e, 0);
	tempo_batch_init(&b, &e->cmd, 1024, 64);
	tempo_pkt_wait_gate(&b, e, 1);
	tempo_pkt_copy(&b, e->data.va + MARK, bo.va + 64, 4);
	tempo_pkt_end(&b);
	fence = tempo_submit(_metadata, e->fd, e->ctx, self->compute, b.va);
	ASSERT_EQ(0, tempo_vm_unmap(e->fd, bo.va, bo.size));
	tempo_gate_set(e, 1);
	ASSERT_EQ(-EFAULT, tempo_fence_wait(fence, TEMPO_WAIT_MS));
	ASSERT_EQ(0u, *tempo_u32(&e->data, MARK));
	/* The CPU mapping is the last reference; it still reads. */
	ASSERT_EQ(0xc105edu, *tempo_u32(&bo, 64));
	munmap(bo.map, bo.size);
	close(fence);
}

TEST_F_TIMEOUT(lifetime, unmap_under_a_waiting_job_faults_it, 60)
{
	struct tempo_env *e = &self->env;
	struct tempo_bo bo;
	struct tempo_batch b;
	int fence;

	/* The job waits on a value in a buffer of its own... */
	ASSERT_EQ(0, tempo_bo_new(e->fd, tempo_page_size(), 0, &bo));
	tempo_batch_init(&b, &e->cmd, 0, 64);
	tempo_pkt_wait_mem(&b, bo.va, DRM_TEMPO_COMPARE_EQ, 0x600d,
			   UINT64_MAX);
	tempo_pkt_write32(&b, e->data.va + MARK, 1);
	tempo_pkt_end(&b);
	fence = tempo_submit(_metadata, e->fd, e->ctx, self->compute, b.va);
	ASSERT_EQ(0, tempo_fence_wait(fence, TEMPO_BLOCKED_MS));
	/* ...which goes away under it: the next poll faults. */
	ASSERT_EQ(0, tempo_vm_unmap(e->fd, bo.va, bo.size));
	tempo_fence_expect(_metadata, fence, -EFAULT, TEMPO_WAIT_MS);
	ASSERT_EQ(0u, *tempo_u32(&e->data, MARK));
	bo.va = 0;
	tempo_bo_del(e->fd, &bo);
	device_works(_metadata);
}

struct unmapper {
	pthread_t thread;
	int fd;
	uint64_t va, size;
	int delay_ms;
	int ret;
};

static void *unmap_later(void *arg)
{
	struct unmapper *u = arg;

	tempo_sleep_ms(u->delay_ms);
	u->ret = tempo_vm_unmap(u->fd, u->va, u->size);
	return NULL;
}

TEST_F_TIMEOUT(lifetime, unmap_during_a_big_read_faults_or_completes, 60)
{
	struct tempo_env *e = &self->env;
	const uint64_t size = 8ull << 20;
	uint32_t args[5];
	struct tempo_bo bo;
	struct tempo_batch b;
	struct unmapper u;
	int fence, status;

	/* Checksums of 8 MiB, chunk by chunk, while the range goes away. */
	ASSERT_EQ(0, tempo_bo_new(e->fd, size, 0, &bo));
	memset(bo.map, 1, size);
	args[0] = (uint32_t)bo.va;
	args[1] = (uint32_t)(bo.va >> 32);
	args[2] = (uint32_t)(e->data.va + MARK);
	args[3] = (uint32_t)((e->data.va + MARK) >> 32);
	args[4] = 64 * 1024;
	tempo_batch_init(&b, &e->cmd, 0, 64);
	for (int i = 0; i < 4; i++)
		tempo_pkt_dispatch(&b, DRM_TEMPO_KERNEL_CHECKSUM,
				   (uint32_t)(size / args[4]), 1, 1, args, 5);
	tempo_pkt_end(&b);
	u = (struct unmapper){ .fd = e->fd, .va = bo.va, .size = size,
			       .delay_ms = 5 };
	fence = tempo_submit(_metadata, e->fd, e->ctx, self->compute, b.va);
	ASSERT_EQ(0, pthread_create(&u.thread, NULL, unmap_later, &u));
	status = tempo_fence_wait(fence, self->timeout_ms);
	close(fence);
	pthread_join(u.thread, NULL);
	TH_LOG("fence status %d, sum %llu", status,
	       (unsigned long long)*tempo_u64(&e->data, MARK));
	ASSERT_EQ(0, u.ret);
	ASSERT_TRUE(status == 1 || status == -EFAULT);
	bo.va = 0;
	tempo_bo_del(e->fd, &bo);
	device_works(_metadata);
}

/* ------------------------------------------------------------------------ */
/* Many files */

/*
 * In each file a gated job, and one that completes by itself; every file
 * closed with them in flight, half of them at once, then the gates
 * opened through the files' surviving mappings. Returns how long that
 * took, in nanoseconds.
 */
static uint64_t close_files_with_work(struct __test_metadata *_metadata,
				      struct tempo_env *files, int *fences)
{
	uint32_t n = files[0].engines->num_engines;
	uint64_t t0 = tempo_now_ns();

	for (int i = 0; i < FILES; i++) {
		struct tempo_env *f = &files[i];

		fences[2 * i] = tempo_submit(_metadata, f->fd, f->ctx, i % n,
					     tempo_gated_batch(f, 0, MARK, 1));
		fences[2 * i + 1] = tempo_submit(_metadata, f->fd, f->ctx,
						 (i + 1) % n,
						 tempo_mark_batch(f, 256,
								  MARK + 4, 2));
		if (i % 2) {
			close(f->fd);
			f->fd = -1;
		}
	}
	for (int i = 0; i < FILES; i += 2) {
		close(files[i].fd);
		files[i].fd = -1;
	}
	for (int i = 0; i < FILES; i++)
		tempo_gate_set(&files[i], 1);
	return tempo_now_ns() - t0;
}

TEST_F_TIMEOUT(lifetime, many_files_closed_with_work_in_flight, 120)
{
	struct tempo_env *files = calloc(FILES, sizeof(*files));
	int *fences = calloc(2 * FILES, sizeof(int));
	bool in_time;

	ASSERT_TRUE(files && fences);
	for (int i = 0; i < FILES; i++)
		tempo_env_init(_metadata, &files[i], tempo_device_open());
	/*
	 * Gated jobs queued on one hardware queue run one after the other;
	 * on a slow machine the first ones may have reached the job timeout
	 * before the gates opened: then a documented error is fine too.
	 */
	in_time = close_files_with_work(_metadata, files, fences) * 2 <
		  self->env.dev.job_timeout_ms * 1000000ull;
	for (int i = 0; i < 2 * FILES; i++) {
		int status = tempo_fence_wait(fences[i], self->timeout_ms);

		if (in_time) {
			ASSERT_EQ(1, status) TH_LOG("file %d job %d", i / 2, i % 2);
			ASSERT_EQ((uint32_t)(i % 2 + 1),
				  *tempo_u32(&files[i / 2].data,
					     MARK + 4 * (i % 2)));
		} else {
			ASSERT_TRUE(documented_end(status))
				TH_LOG("file %d job %d: %d", i / 2, i % 2, status);
		}
		close(fences[i]);
	}
	if (!in_time)
		TH_LOG("submitting and closing took too long: results not checked");
	for (int i = 0; i < FILES; i++)
		tempo_env_fini(&files[i]);
	free(files);
	free(fences);
	device_works(_metadata);
}

/*
 * A LOW context's job that starts and waits for the gate at @gate, and a
 * VERY_LOW context's job behind it on the same engine (slot @slot): each
 * gets an HQD of its own, programmed for its own priority, whatever
 * processes killed with jobs queued left behind. (drm_sched counts such
 * jobs in its HQDs' load for good unless the driver counts them out: the
 * HQDs they were queued on looked busy and new contexts shared a ring.)
 */
static void contexts_get_hqds_of_their_own(struct __test_metadata *_metadata,
					   struct tempo_env *e, int slot,
					   uint64_t gate)
{
	unsigned int pipe = tempo_module_param("hqd_policy") == 1 ? 0 : 1;
	uint32_t low, very_low;
	struct tempo_batch b;
	int first, second;

	ASSERT_EQ(0, tempo_ctx_create(e->fd, DRM_TEMPO_PRIORITY_LOW, NULL, 0,
				      &low));
	ASSERT_EQ(0, tempo_ctx_create(e->fd, DRM_TEMPO_PRIORITY_VERY_LOW, NULL,
				      0, &very_low));
	*tempo_u64(&e->data, STARTED) = 0;
	tempo_batch_init(&b, &e->cmd, 0, 32);
	tempo_pkt_write32(&b, e->data.va + STARTED, 1);
	tempo_pkt_wait_gate(&b, e, gate);
	tempo_pkt_end(&b);
	first = tempo_submit(_metadata, e->fd, low, slot, b.va);
	tempo_wait_nonzero(_metadata, &e->data, STARTED);
	tempo_batch_init(&b, &e->cmd, 256, 32);
	tempo_pkt_wait_gate(&b, e, gate);
	tempo_pkt_end(&b);
	second = tempo_submit(_metadata, e->fd, very_low, slot, b.va);
	tempo_wait_hqds_at(_metadata, e->fd, pipe, 0, 1);
	ASSERT_EQ(1u, tempo_hqds_at(_metadata, e->fd, pipe, 3));
	tempo_gate_set(e, gate);
	tempo_fence_expect(_metadata, first, 1, TEMPO_WAIT_MS);
	tempo_fence_expect(_metadata, second, 1, TEMPO_WAIT_MS);
	ASSERT_EQ(0, tempo_ctx_destroy(e->fd, very_low));
	ASSERT_EQ(0, tempo_ctx_destroy(e->fd, low));
}

TEST_F_TIMEOUT(lifetime, many_processes_killed_with_work_in_flight, 120)
{
	pid_t pids[16];
	int status, fds[3];

	for (unsigned int i = 0; i < TEMPO_ARRAY_SIZE(pids); i++) {
		int sock = child_fork(&pids[i],
				      (int)(i % self->env.engines->num_engines),
				      self->compute);

		ASSERT_LE(0, sock);
		/* Once the work is submitted: kill, or let it exit. */
		ASSERT_EQ(0, tempo_recv_fds(sock, fds, 3));
		for (int k = 0; k < 3; k++)
			close(fds[k]);
		if (i % 2)
			kill(pids[i], SIGKILL);
		close(sock);	/* the child's read fails: it exits */
	}
	for (unsigned int i = 0; i < TEMPO_ARRAY_SIZE(pids); i++) {
		ASSERT_EQ(pids[i], waitpid(pids[i], &status, 0));
		if (!(i % 2)) {
			ASSERT_TRUE(WIFEXITED(status)) TH_LOG("child %u", i);
		}
	}
	/*
	 * Their gated jobs end by the timeout, those sharing an engine one
	 * after another (at most 3 per engine); then everything works, and
	 * new contexts get HQDs of their own.
	 */
	tempo_sleep_ms(3 * (int)self->env.dev.job_timeout_ms + 500);
	device_works(_metadata);
	/* Engines with one HQD (or two, one kept for HIGH) have no choice. */
	for (uint32_t i = 0; i < self->env.engines->num_engines; i++)
		if (self->env.engines->engines[i].num_hqds >= 3)
			contexts_get_hqds_of_their_own(_metadata, &self->env,
						       (int)i, 2 + i);
}

/* processes_killed_while_their_queues_drain */
#define DRAIN_ROUNDS	60
#define DRAIN_CONTEXTS	4
#define DRAIN_QUEUED	16	/* jobs per context before the parent is told */
#define DRAIN_JOB_NS	200000	/* each job's time on the hardware */

/*
 * Keep @DRAIN_CONTEXTS contexts' queues on engine slot @slot deep with
 * short jobs, so that drm_sched takes one off each time one ends: say so
 * on @sock once each context has @DRAIN_QUEUED, then go on until killed.
 * Returns only on an error.
 */
static int drain_child(int sock, void *arg)
{
	const uint32_t slot = *(const uint32_t *)arg;
	const uint32_t ns = DRAIN_JOB_NS;
	uint32_t ctx[DRAIN_CONTEXTS];
	struct tempo_batch b;
	struct tempo_env e;
	char byte = 1;

	if (tempo_env_open(&e, TEMPO_DATA_SIZE))
		return 3;
	ctx[0] = e.ctx;
	for (int c = 1; c < DRAIN_CONTEXTS; c++)
		if (tempo_ctx_create(e.fd, DRM_TEMPO_PRIORITY_NORMAL, NULL, 0,
				     &ctx[c]))
			return 4;
	tempo_batch_init(&b, &e.cmd, 0, 16);
	tempo_pkt_dispatch(&b, DRM_TEMPO_KERNEL_SPIN, 1, 1, 1, &ns, 1);
	tempo_pkt_end(&b);
	for (uint32_t n = 1;; n++) {
		for (int c = 0; c < DRAIN_CONTEXTS; c++) {
			int ret = tempo_exec(e.fd, ctx[c], slot, b.va, NULL, 0,
					     NULL, 0, NULL);

			if (ret == -EAGAIN)
				usleep(1000);
			else if (ret)
				return 5;
		}
		if (n == DRAIN_QUEUED && write(sock, &byte, 1) != 1)
			return 6;
	}
}

/*
 * Processes killed while drm_sched takes their contexts' jobs off deep
 * queues, at random points of that: each context's entity goes while the
 * scheduler may be between picking it and taking its next job, and the
 * scheduler must not keep it (a freed entity left in a run queue is a
 * use-after-free the debug kernel reports). Then the device works.
 */
TEST_F_TIMEOUT(lifetime, processes_killed_while_their_queues_drain, 300)
{
	uint32_t slot = (uint32_t)self->compute;

	srand((unsigned int)getpid());
	for (int round = 0; round < DRAIN_ROUNDS; round++) {
		int sock, status;
		pid_t pid;
		char byte;

		sock = tempo_fork_child(drain_child, &slot, &pid);
		ASSERT_LE(0, sock);
		ASSERT_EQ(1, read(sock, &byte, 1)) TH_LOG("round %d", round);
		usleep((useconds_t)(rand() % 2000));
		ASSERT_EQ(0, kill(pid, SIGKILL));
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
			TH_LOG("round %d: child status %#x", round, status);
		close(sock);
	}
	device_works(_metadata);
}

/* ------------------------------------------------------------------------ */
/* Hangs */

/* jobs_ending_as_run_job_returns_are_handled_before_freed */
#define END_THREADS	3	/* submitting threads, on one file */
#define END_ROUNDS	20
#define END_BEFORE	8	/* NOPs before the failing job */
#define END_AFTER	4	/* jobs queued behind it */

struct end_worker {
	pthread_t thread;
	uint32_t rounds;
	bool done;		/* set when the thread's bursts are over */
	uint32_t slots;
	int fd;
	uint64_t nop, loop;
	char error[128];	/* the first unexpected result, or "" */
};

/*
 * One context's burst on engine slot @slot: NOPs, a job that fails at
 * once (a batch calling itself: ELOOP), jobs behind it. The NOPs must
 * succeed, the failing job fail with ELOOP and ban the context, the jobs
 * behind it be cancelled (or refused at exec, once it is banned). 0, or
 * -1 with @w->error set.
 */
static int end_burst(struct end_worker *w, uint32_t slot)
{
	int fences[END_BEFORE + 1 + END_AFTER];
	uint32_t ctx, i, n = 0;
	int ret, want, got;

	ret = tempo_ctx_create(w->fd, DRM_TEMPO_PRIORITY_NORMAL, NULL, 0, &ctx);
	for (i = 0; !ret && i < END_BEFORE + 1 + END_AFTER; i++) {
		ret = tempo_exec(w->fd, ctx, slot,
				 i == END_BEFORE ? w->loop : w->nop, NULL, 0,
				 NULL, 0, &fences[n]);
		if (i > END_BEFORE && ret == -ECANCELED)
			ret = 0;
		else if (!ret)
			n++;
	}
	for (i = 0; i < n; i++) {
		want = i < END_BEFORE ? 1 : i == END_BEFORE ? -ELOOP : -ECANCELED;
		got = tempo_fence_wait(fences[i], TEMPO_WAIT_MS);
		close(fences[i]);
		if (got != want && !ret) {
			snprintf(w->error, sizeof(w->error),
				 "slot %u, job %u: status %d, not %d",
				 slot, i, got, want);
			ret = -1;
		}
	}
	if (!ret && tempo_ctx_destroy(w->fd, ctx))
		ret = -errno;
	if (ret && !w->error[0])
		snprintf(w->error, sizeof(w->error), "slot %u: %s", slot,
			 strerror(-ret));
	return ret ? -1 : 0;
}

static void *end_bursts(void *arg)
{
	struct end_worker *w = arg;

	for (uint32_t r = 0; r < w->rounds; r++)
		for (uint32_t i = 0; i < w->slots; i++)
			if (end_burst(w, i))
				goto out;
out:
	__atomic_store_n(&w->done, true, __ATOMIC_RELEASE);
	return NULL;
}

/* Start END_THREADS threads of @rounds bursts each on @e's file. */
static void start_end_workers(struct __test_metadata *_metadata,
			      struct tempo_env *e, struct end_worker *w,
			      uint32_t rounds)
{
	struct tempo_batch nop, loop;

	tempo_batch_init(&nop, &e->cmd, 0, 64);
	tempo_pkt_nop(&nop, 0);
	tempo_pkt_end(&nop);
	tempo_batch_init(&loop, &e->cmd, 256, 64);
	tempo_pkt_batch_start(&loop, loop.va, 0);
	tempo_pkt_end(&loop);
	for (uint32_t t = 0; t < END_THREADS; t++) {
		w[t] = (struct end_worker){
			.rounds = rounds,
			.slots = e->engines->num_engines,
			.nop = nop.va, .loop = loop.va,
		};
		/* The buffer's mappings are the file's: share its file. */
		w[t].fd = e->fd;
		ASSERT_EQ(0, pthread_create(&w[t].thread, NULL, end_bursts, &w[t]));
	}
}

static void join_end_workers(struct __test_metadata *_metadata,
			     struct end_worker *w)
{
	uint32_t t;

	for (t = 0; t < END_THREADS; t++)
		pthread_join(w[t].thread, NULL);
	for (t = 0; t < END_THREADS; t++)
		EXPECT_STREQ("", w[t].error) TH_LOG("thread %u", t);
}

/*
 * Jobs that end while drm_sched is still taking their fence from run_job
 * (a NOP, a job that fails at its first packet, a cancelled one, on a
 * command processor that is running) must not be freed before the
 * driver has handled their end: drm_sched, finding their fence
 * signalled, ends them and may free them at once. Handled by a callback
 * on the hardware fence, that end came after the free now and then (a
 * use-after-free under KASAN, a warning for an error set on a signalled
 * fence on any kernel). Bursts on every engine from three threads at once,
 * so that the scheduler's work is preempted now and then; the VM fails
 * the run on any kernel report.
 */
TEST_F_TIMEOUT(lifetime, jobs_ending_as_run_job_returns_are_handled_before_freed, 600)
{
	struct end_worker w[END_THREADS] = {};

	start_end_workers(_metadata, &self->env, w, END_ROUNDS);
	join_end_workers(_metadata, w);
	device_works(_metadata);
}

/*
 * An exec takes its address space's reservation object only while the
 * file has a private buffer: the same bursts from three threads, while
 * the main thread creates, maps, unmaps and closes private buffers, so
 * that execs find the first one appearing and the last one going, and
 * banned contexts' execs fail with the object locked.
 */
TEST_F_TIMEOUT(lifetime, execs_from_threads_while_private_buffers_come_and_go, 600)
{
	struct tempo_env *e = &self->env;
	struct end_worker w[END_THREADS] = {};
	unsigned int churns = 0, busy = END_THREADS;
	struct tempo_bo bo;

	start_end_workers(_metadata, e, w, 3);
	while (busy) {
		ASSERT_EQ(0, tempo_bo_new_flags(e->fd, 4096,
						DRM_TEMPO_BO_CREATE_VM_PRIVATE,
						0, &bo));
		tempo_bo_del(e->fd, &bo);
		churns++;
		busy = 0;
		for (uint32_t t = 0; t < END_THREADS; t++)
			busy += !__atomic_load_n(&w[t].done, __ATOMIC_ACQUIRE);
	}
	join_end_workers(_metadata, w);
	TH_LOG("%u private buffers came and went", churns);
	ASSERT_LT(0u, churns);
	device_works(_metadata);
}

static unsigned int hang_cycles(void)
{
	const char *s = getenv("TEMPO_HANG_CYCLES");
	long n = s && *s ? strtol(s, NULL, 0) : 3;

	return n > 0 && n < 100000 ? (unsigned int)n : 3;
}

/*
 * Cycle @c: in a new file, every engine hangs at once, each in a context
 * of its own; a context created after the hangs is not guilty, and runs
 * a job on every engine.
 */
static void hang_cycle(struct __test_metadata *_metadata,
		       FIXTURE_DATA(lifetime) *self, unsigned int c)
{
	struct tempo_env e;
	uint32_t ctx, later;
	int64_t status;
	int fences[64];

	tempo_env_init(_metadata, &e, tempo_device_open());
	for (uint32_t i = 0; i < e.engines->num_engines; i++) {
		ASSERT_EQ(0, tempo_ctx_create(e.fd, 0, NULL, 0, &ctx));
		fences[i] = tempo_submit(_metadata, e.fd, ctx, i,
					 tempo_gated_batch(&e, 256 * i,
							   MARK + 4 * i, 1));
	}
	for (uint32_t i = 0; i < e.engines->num_engines; i++) {
		ASSERT_EQ(-ETIMEDOUT,
			  tempo_fence_wait(fences[i], self->timeout_ms))
			TH_LOG("cycle %u engine slot %u", c, i);
		close(fences[i]);
	}
	ASSERT_EQ(0, tempo_ctx_create(e.fd, 0, NULL, 0, &later));
	ASSERT_EQ(0, tempo_ctx_get_param(e.fd, later,
					 DRM_TEMPO_CTX_PARAM_RESET_STATUS,
					 &status));
	ASSERT_EQ(0, status);
	for (uint32_t i = 0; i < e.engines->num_engines; i++) {
		ASSERT_EQ(1, tempo_run(_metadata, e.fd, later, i,
				       tempo_mark_batch(&e, 4096 + 256 * i,
							MARK + 256 + 4 * i,
							c + 1)))
			TH_LOG("cycle %u engine slot %u", c, i);
		ASSERT_EQ(c + 1, *tempo_u32(&e.data, MARK + 256 + 4 * i));
	}
	tempo_env_fini(&e);
}

TEST_F_TIMEOUT(lifetime, hang_cycles_leave_the_device_working, 3600)
{
	unsigned int cycles = hang_cycles();
	uint64_t t0 = tempo_now_ns();

	TH_LOG("%u hang cycles (TEMPO_HANG_CYCLES)", cycles);
	for (unsigned int c = 0; c < cycles; c++)
		hang_cycle(_metadata, self, c);
	TH_LOG("%u cycles in %.1f s", cycles,
	       (double)(tempo_now_ns() - t0) / 1e9);
	device_works(_metadata);
}

TEST_HARNESS_MAIN
