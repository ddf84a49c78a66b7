// SPDX-License-Identifier: GPL-2.0-only
/*
 * The error paths of the ioctls that allocate, under fault injection: for
 * CTX_CREATE, BO_CREATE, VM_MAP and EXEC, in the shapes that allocate
 * most, the N-th fault point of the calling thread fails
 * (/proc/thread-self/fail-nth), for N = 1, 2, ... until the ioctl succeeds
 * without reaching it. Each failure must return -ENOMEM and leave nothing
 * behind: no object, no queued job, no out-sync or fd touched, and a
 * device that still works. The VM harness then checks the rest: no oops
 * or warning in the kernel log, no leak (kmemleak) and a module that
 * unloads.
 *
 * Needs root and a kernel with FAULT_INJECTION, FAILSLAB and
 * FAIL_PAGE_ALLOC and their debugfs switches (the debug kernel of
 * tools/vm/kernels): make check runs it there only.
 */
#include "tempo_test.h"

#define FAULT_DEBUGFS	"/sys/kernel/debug"
#define FAIL_NTH	"/proc/thread-self/fail-nth"
/* No ioctl here has that many fault points: a loop that goes on is a bug. */
#define MAX_FAULTS	2000u
/* Seconds each test may take: a debug kernel under emulation is slow. */
#define FAULTS_TIMEOUT	300

#define C(i)		{ DRM_TEMPO_ENGINE_CLASS_COMPUTE, (i) }
#define NONE		{ 0, DRM_TEMPO_ENGINE_INSTANCE_NONE }

/* Layout of the data buffer. */
#define COUNTER		0x1000	/* what the jobs under test increment */

/*
 * Syncs of an exec under test: more than it keeps on its stack (4), so
 * that its arrays are allocated, or just what fits there.
 */
#define NUM_IN		5
#define NUM_OUT		6
#define NUM_INLINE	4

/*
 * The switches that make every allocation of the thread a fault point:
 * sleeping ones, highmem pages and single pages too; and no report of
 * each injected fault (a stack dump would read as a kernel warning).
 */
static const struct {
	const char *path;
	const char *value;
} knobs[] = {
	{ "failslab/ignore-gfp-wait", "N" },
	{ "failslab/verbose", "0" },
	{ "fail_page_alloc/ignore-gfp-wait", "N" },
	{ "fail_page_alloc/ignore-gfp-highmem", "N" },
	{ "fail_page_alloc/min-order", "0" },
	{ "fail_page_alloc/verbose", "0" },
};

#define NUM_KNOBS	TEMPO_ARRAY_SIZE(knobs)

static int knob_read(const char *path, char *buf, size_t len)
{
	FILE *f = tempo_fopen("re", FAULT_DEBUGFS "/%s", path);
	bool ok;

	if (!f)
		return -errno;
	ok = fgets(buf, len, f) != NULL;
	fclose(f);
	if (!ok)
		return -EIO;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

static int knob_write(const char *path, const char *value)
{
	FILE *f = tempo_fopen("we", FAULT_DEBUGFS "/%s", path);
	bool ok;

	if (!f)
		return -errno;
	ok = fputs(value, f) >= 0;
	return !fclose(f) && ok ? 0 : -EIO;
}

/* Arm the @n-th fault point of this thread (0 disarms). */
static int fault_arm(int fd, unsigned int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", n);

	return pwrite(fd, buf, len, 0) == len ? 0 : -errno;
}

/*
 * Disarm, and say how many fault points were still to come: 0 when the
 * armed one was reached (and failed), else the ioctl did not get there.
 */
static long fault_disarm(int fd)
{
	char buf[16] = "";
	ssize_t len = pread(fd, buf, sizeof(buf) - 1, 0);

	if (len <= 0 || fault_arm(fd, 0))
		return -1;
	return strtol(buf, NULL, 10);
}

/*
 * The contexts of this process, from the device's debugfs "contexts"
 * (client pid ctx priority effective banned in_flight): how many, and
 * in @in_flight the jobs in flight of context @ctx.
 */
static int contexts_of_self(const char *dir, unsigned int ctx,
			    unsigned int *in_flight)
{
	FILE *f = tempo_fopen("re", "%s/contexts", dir);
	unsigned int pid, id, flight;
	char line[256];
	int n = 0;

	*in_flight = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*u %u %u %*d %*d %*d %u", &pid, &id,
			   &flight) != 3 || pid != (unsigned int)getpid())
			continue;
		n++;
		if (id == ctx)
			*in_flight = flight;
	}
	fclose(f);
	return n;
}

/* The size a memory key of the DRM file's fdinfo gives, in bytes, or -1. */
static long long fdinfo_bytes(int fd, const char *key)
{
	FILE *f = tempo_fopen("re", "/proc/self/fdinfo/%d", fd);
	size_t len = strlen(key);
	long long value = -1;
	char line[256], *unit;

	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, len) || line[len] != ':')
			continue;
		value = strtoll(line + len + 1, &unit, 10);
		if (!strncmp(unit, " KiB", 4))
			value <<= 10;
		else if (!strncmp(unit, " MiB", 4))
			value <<= 20;
	}
	if (f)
		fclose(f);
	return value;
}

/* The lowest free descriptor: an fd the kernel installed would take it. */
static int lowest_free_fd(void)
{
	int fd = dup(0);

	if (fd >= 0)
		close(fd);
	return fd;
}

FIXTURE(faults) {
	struct tempo_env env;
	char dir[256];
	char saved[NUM_KNOBS][32];
	bool set[NUM_KNOBS];
	int nth;
	/* Fault points failed, ioctls that succeeded with one failed. */
	unsigned int failed, absorbed;
};

FIXTURE_SETUP(faults)
{
	self->nth = -1;
	TEMPO_ENV_SETUP(&self->env);
	ASSERT_EQ(0u, geteuid()) TH_LOG("fault injection needs root");
	tempo_debugfs_dir(self->dir, sizeof(self->dir));
	ASSERT_NE(0, self->dir[0]) TH_LOG("no debugfs directory of tempo");
	self->nth = open(FAIL_NTH, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->nth)
		TH_LOG("%s: %s: the kernel has no FAULT_INJECTION", FAIL_NTH,
		       strerror(errno));
	for (size_t i = 0; i < NUM_KNOBS; i++) {
		ASSERT_EQ(0, knob_read(knobs[i].path, self->saved[i],
				       sizeof(self->saved[i])))
			TH_LOG("%s/%s: no FAILSLAB or FAIL_PAGE_ALLOC with "
			       "FAULT_INJECTION_DEBUG_FS", FAULT_DEBUGFS,
			       knobs[i].path);
		ASSERT_EQ(0, knob_write(knobs[i].path, knobs[i].value));
		self->set[i] = true;
	}
}

FIXTURE_TEARDOWN(faults)
{
	if (self->nth >= 0) {
		fault_arm(self->nth, 0);
		close(self->nth);
	}
	for (size_t i = 0; i < NUM_KNOBS; i++)
		if (self->set[i])
			knob_write(knobs[i].path, self->saved[i]);
	tempo_env_fini(&self->env);
}

/*
 * One ioctl with the @n-th fault point failing: its return value, and in
 * @left how many fault points were still to come (0: the fault failed).
 */
static int ioctl_with_fault(struct __test_metadata *_metadata, int nth,
			    unsigned int n, int fd, unsigned long request,
			    void *arg, long *left)
{
	int ret;

	ASSERT_EQ(0, fault_arm(nth, n));
	ret = ioctl(fd, request, arg) ? -errno : 0;
	*left = fault_disarm(nth);
	ASSERT_LE(0, *left);
	if (ret) {
		ASSERT_EQ(0, *left)
			TH_LOG("fault point %u: %s before it", n, strerror(-ret));
	}
	return ret;
}

/*
 * Count the outcome of fault point @n; true once the ioctl succeeded
 * without reaching it: every fault point was tried.
 */
static bool fault_done(struct __test_metadata *_metadata,
		       FIXTURE_DATA(faults) *self, unsigned int n, int ret,
		       long left)
{
	if (ret) {
		self->failed++;
		return false;
	}
	if (!left) {
		self->absorbed++;
		return false;
	}
	TH_LOG("%u fault points: %u failed the ioctl, %u were absorbed",
	       n - 1, self->failed, self->absorbed);
	EXPECT_LT(0u, self->failed);
	return true;
}

/* ------------------------------------------------------------------------ */
/* CTX_CREATE */

/*
 * A context of three slots: a plain one, a load-balanced one over four
 * compute engines and a parallel one of two batches over two each.
 */
TEST_F_TIMEOUT(faults, ctx_create_fails_enomem_and_publishes_nothing, FAULTS_TIMEOUT)
{
	struct drm_tempo_engine siblings[] = { C(0), C(1), C(2), C(3) };
	struct drm_tempo_engine slots[] = { C(0), NONE, NONE };
	struct drm_tempo_ctx_ext_parallel par = {
		.base.name = DRM_TEMPO_CTX_EXT_PARALLEL,
		.slot = 2,
		.width = 2,
		.num_siblings = 2,
		.engines = TEMPO_PTR(siblings),
	};
	struct drm_tempo_ctx_ext_load_balance lb = {
		.base.next = TEMPO_PTR(&par),
		.base.name = DRM_TEMPO_CTX_EXT_LOAD_BALANCE,
		.slot = 1,
		.num_siblings = 4,
		.siblings = TEMPO_PTR(siblings),
	};
	struct tempo_env *e = &self->env;
	unsigned int flight, n;
	int before;
	long left;
	int ret;

	ASSERT_LE(4u, tempo_count_class(e->engines,
				       DRM_TEMPO_ENGINE_CLASS_COMPUTE));
	ASSERT_NE(0u, e->dev.parallel_classes &
		  (1u << DRM_TEMPO_ENGINE_CLASS_COMPUTE));
	before = contexts_of_self(self->dir, 0, &flight);
	ASSERT_LE(1, before);
	for (n = 1; n < MAX_FAULTS; n++) {
		struct drm_tempo_ctx_create c = {
			.extensions = TEMPO_PTR(&lb),
			.num_slots = TEMPO_ARRAY_SIZE(slots),
			.slots = TEMPO_PTR(slots),
		};

		ret = ioctl_with_fault(_metadata, self->nth, n, e->fd,
				       DRM_IOCTL_TEMPO_CTX_CREATE, &c, &left);
		if (ret) {
			ASSERT_EQ(-ENOMEM, ret) TH_LOG("fault point %u", n);
			ASSERT_EQ(before, contexts_of_self(self->dir, 0, &flight))
				TH_LOG("fault point %u", n);
		} else {
			ASSERT_EQ(before + 1, contexts_of_self(self->dir, 0, &flight));
			ASSERT_EQ(0, tempo_ctx_destroy(e->fd, c.ctx_id));
		}
		if (fault_done(_metadata, self, n, ret, left))
			break;
	}
	ASSERT_LT(n, MAX_FAULTS);
}

/* ------------------------------------------------------------------------ */
/* BO_CREATE */

/* A buffer private to the file's address space: it takes its resv too. */
TEST_F_TIMEOUT(faults, bo_create_fails_enomem_and_creates_nothing, FAULTS_TIMEOUT)
{
	struct tempo_env *e = &self->env;
	long long before;
	unsigned int n;
	long left;
	int ret;

	before = fdinfo_bytes(e->fd, "drm-total-memory");
	ASSERT_LE(0, before);
	for (n = 1; n < MAX_FAULTS; n++) {
		struct drm_tempo_bo_create c = {
			.size = 64 * 1024,
			.flags = DRM_TEMPO_BO_CREATE_VM_PRIVATE,
		};

		ret = ioctl_with_fault(_metadata, self->nth, n, e->fd,
				       DRM_IOCTL_TEMPO_BO_CREATE, &c, &left);
		if (ret) {
			ASSERT_EQ(-ENOMEM, ret) TH_LOG("fault point %u", n);
			ASSERT_EQ(before, fdinfo_bytes(e->fd, "drm-total-memory"))
				TH_LOG("fault point %u", n);
		} else {
			ASSERT_LT(before, fdinfo_bytes(e->fd, "drm-total-memory"));
			ASSERT_EQ(0, tempo_gem_close(e->fd, c.handle));
		}
		if (fault_done(_metadata, self, n, ret, left))
			break;
	}
	ASSERT_LT(n, MAX_FAULTS);
}

/* ------------------------------------------------------------------------ */
/* VM_MAP */

/*
 * A new buffer each time, so that the mapping allocates its pages, their
 * array and the kernel mapping every time; at a fixed address, so that
 * what a failure left would be found there.
 */
TEST_F_TIMEOUT(faults, vm_map_fails_enomem_and_maps_nothing, FAULTS_TIMEOUT)
{
	struct tempo_env *e = &self->env;
	const uint64_t size = 4 * tempo_page_size();
	uint64_t va = 0;
	unsigned int n;
	uint32_t bo;
	long left;
	int ret;

	/* A free range: map a buffer where the kernel likes, then unmap it. */
	ASSERT_EQ(0, tempo_bo_create(e->fd, size, &bo));
	ASSERT_EQ(0, tempo_vm_map(e->fd, bo, DRM_TEMPO_VM_MAP_AUTO_VA, &va, 0,
				  size));
	ASSERT_EQ(0, tempo_vm_unmap(e->fd, va, size));
	ASSERT_EQ(0, tempo_gem_close(e->fd, bo));
	for (n = 1; n < MAX_FAULTS; n++) {
		struct drm_tempo_vm_map m = { .va = va, .size = size };

		ASSERT_EQ(0, tempo_bo_create(e->fd, size, &m.handle));
		ret = ioctl_with_fault(_metadata, self->nth, n, e->fd,
				       DRM_IOCTL_TEMPO_VM_MAP, &m, &left);
		if (ret) {
			ASSERT_EQ(-ENOMEM, ret) TH_LOG("fault point %u", n);
			ASSERT_EQ(-ENOENT, tempo_vm_unmap(e->fd, va, size))
				TH_LOG("fault point %u", n);
		} else {
			ASSERT_EQ(va, m.va);
			ASSERT_EQ(0, tempo_vm_unmap(e->fd, va, size));
		}
		ASSERT_EQ(0, tempo_gem_close(e->fd, m.handle));
		if (fault_done(_metadata, self, n, ret, left))
			break;
	}
	ASSERT_LT(n, MAX_FAULTS);
}

/* ------------------------------------------------------------------------ */
/* EXEC */

/*
 * What an exec under test waits for and signals: in-syncs on the fences
 * of jobs of other contexts (one dependency each), a signalled binary
 * syncobj and a timeline point; out-syncs binary and timeline, new each
 * time.
 */
struct exec_syncs {
	struct drm_tempo_sync in[NUM_IN];
	struct drm_tempo_sync out[NUM_OUT];
	unsigned int num_in, num_out;
};

/* Out-sync @i is a timeline point when odd, binary when even. */
static bool out_is_point(unsigned int i)
{
	return i & 1;
}

static void in_syncs_init(struct __test_metadata *_metadata,
			  struct tempo_env *e, struct exec_syncs *s)
{
	uint64_t batch = tempo_mark_batch(e, 0, TEMPO_NO_MARK, 0);
	uint64_t point = 1;
	unsigned int i;

	/* Then a signalled syncobj and a timeline point. */
	for (i = 0; i < s->num_in - 2; i++) {
		uint32_t ctx;

		ASSERT_EQ(0, tempo_ctx_create(e->fd, DRM_TEMPO_PRIORITY_NORMAL,
					      NULL, 0, &ctx));
		ASSERT_EQ(0, drmSyncobjCreate(e->fd, 0, &s->in[i].handle));
		ASSERT_EQ(0, tempo_exec(e->fd, ctx, 0, batch, NULL, 0,
					&s->in[i], 1, NULL));
		ASSERT_EQ(0, tempo_syncobj_wait(e->fd, s->in[i].handle, 0,
						TEMPO_WAIT_MS));
	}
	ASSERT_EQ(0, drmSyncobjCreate(e->fd, DRM_SYNCOBJ_CREATE_SIGNALED,
				      &s->in[i++].handle));
	ASSERT_EQ(0, drmSyncobjCreate(e->fd, 0, &s->in[i].handle));
	ASSERT_EQ(0, drmSyncobjTimelineSignal(e->fd, &s->in[i].handle, &point,
					      1));
	s->in[i].point = point;
}

static void out_syncs_create(struct __test_metadata *_metadata, int fd,
			     struct exec_syncs *s)
{
	for (unsigned int i = 0; i < s->num_out; i++) {
		ASSERT_EQ(0, drmSyncobjCreate(fd, 0, &s->out[i].handle));
		s->out[i].point = out_is_point(i) ? 1 : 0;
	}
}

static void out_syncs_destroy(struct exec_syncs *s, int fd)
{
	for (unsigned int i = 0; i < s->num_out; i++)
		drmSyncobjDestroy(fd, s->out[i].handle);
}

/* None of the out-syncs has a fence: no job was published in them. */
static void out_syncs_untouched(struct __test_metadata *_metadata, int fd,
				const struct exec_syncs *s, unsigned int n)
{
	for (unsigned int i = 0; i < s->num_out; i++) {
		uint32_t h = s->out[i].handle;
		uint64_t value = 0;

		ASSERT_FALSE(tempo_syncobj_has_fence(fd, h))
			TH_LOG("fault point %u: out-sync %u", n, i);
		ASSERT_EQ(0, drmSyncobjQuery(fd, &h, &value, 1));
		ASSERT_EQ(0ull, value) TH_LOG("fault point %u: out-sync %u", n, i);
	}
}

/* Every out-sync signalled, without error: the job ran. */
static void out_syncs_signalled(struct __test_metadata *_metadata, int fd,
				const struct exec_syncs *s)
{
	for (unsigned int i = 0; i < s->num_out; i++)
		ASSERT_EQ(0, tempo_syncobj_wait(fd, s->out[i].handle,
						s->out[i].point,
						TEMPO_WAIT_MS));
}

/*
 * A context for the exec under test, new each time (the exec creates the
 * slot's entity): slot 0 runs one batch, or @width as a gang on compute
 * engines, two siblings each.
 */
static int exec_ctx_create(int fd, uint32_t width, uint32_t *id)
{
	struct drm_tempo_engine engines[] = { C(0), C(1), C(2), C(3) };

	if (width == 1)
		return tempo_ctx_create(fd, DRM_TEMPO_PRIORITY_NORMAL, NULL, 0,
					id);
	return tempo_parallel_ctx(fd, width, 2, engines, id);
}

/*
 * A job of @ctx behind whatever the failed exec might have queued, which
 * would have run first: once it ended, the counter shows every job run.
 */
static uint64_t counter_after_barrier(struct __test_metadata *_metadata,
				      struct tempo_env *e, uint32_t ctx,
				      uint32_t width)
{
	uint64_t batch = tempo_mark_batch(e, 256, TEMPO_NO_MARK, 0);
	uint64_t batches[2] = { batch, batch };
	int fence = -1;

	EXPECT_EQ(0, tempo_exec_gang(e->fd, ctx, 0, batches, width, NULL, 0,
				     &fence));
	tempo_fence_expect(_metadata, fence, 1, TEMPO_WAIT_MS);
	return __atomic_load_n(tempo_u64(&e->data, COUNTER), __ATOMIC_SEQ_CST);
}

/*
 * The exec under test with fault point @n failing, on a new context: an
 * error changed nothing, a success ran the job. Its return value.
 */
static int exec_with_fault(struct __test_metadata *_metadata,
			   FIXTURE_DATA(faults) *self, struct exec_syncs *s,
			   struct drm_tempo_exec *x, unsigned int n, long *left)
{
	struct tempo_env *e = &self->env;
	int free_fd = lowest_free_fd();
	unsigned int flight;
	int ret;

	ASSERT_EQ(0, exec_ctx_create(e->fd, x->num_batches, &x->ctx_id));
	out_syncs_create(_metadata, e->fd, s);
	ret = ioctl_with_fault(_metadata, self->nth, n, e->fd,
			       DRM_IOCTL_TEMPO_EXEC, x, left);
	if (ret) {
		ASSERT_EQ(-ENOMEM, ret) TH_LOG("fault point %u", n);
		ASSERT_EQ(free_fd, lowest_free_fd())
			TH_LOG("fault point %u: an fd was installed", n);
		ASSERT_EQ(-1, x->out_fence_fd);
		out_syncs_untouched(_metadata, e->fd, s, n);
		contexts_of_self(self->dir, x->ctx_id, &flight);
		ASSERT_EQ(0u, flight) TH_LOG("fault point %u", n);
	} else {
		ASSERT_LE(0, x->out_fence_fd);
		tempo_fence_expect(_metadata, x->out_fence_fd, 1,
				   TEMPO_WAIT_MS);
		out_syncs_signalled(_metadata, e->fd, s);
	}
	return ret;
}

/*
 * An exec of @width batches with @num_in in-syncs, @num_out out-syncs
 * (every other one a timeline point) and a sync_file, in a file with a
 * private buffer (the exec locks its address space's reservation object
 * and adds the fence there); each batch increments the counter.
 */
static void exec_faults(struct __test_metadata *_metadata,
			FIXTURE_DATA(faults) *self, uint32_t width,
			unsigned int num_in, unsigned int num_out)
{
	struct exec_syncs s = { .num_in = num_in, .num_out = num_out };
	struct tempo_env *e = &self->env;
	struct tempo_bo private = {};
	uint64_t batches[2], runs = 0;
	struct tempo_batch b;
	unsigned int n;
	long left;
	int ret;

	ASSERT_EQ(0, tempo_bo_new_flags(e->fd, 64 * 1024,
					DRM_TEMPO_BO_CREATE_VM_PRIVATE, 0,
					&private));
	in_syncs_init(_metadata, e, &s);
	tempo_batch_init(&b, &e->cmd, 0x1000, 16);
	tempo_pkt_atomic(&b, e->data.va + COUNTER, DRM_TEMPO_ATOMIC_INC, 0);
	tempo_pkt_end(&b);
	batches[0] = batches[1] = b.va;
	for (n = 1; n < MAX_FAULTS; n++) {
		struct drm_tempo_exec x = {
			.flags = DRM_TEMPO_EXEC_OUT_SYNC_FILE,
			.num_batches = width,
			.batches = TEMPO_PTR(batches),
			.num_in_syncs = s.num_in,
			.in_syncs = TEMPO_PTR(s.in),
			.num_out_syncs = s.num_out,
			.out_syncs = TEMPO_PTR(s.out),
			.out_fence_fd = -1,
		};

		ret = exec_with_fault(_metadata, self, &s, &x, n, &left);
		if (!ret)
			runs += width;
		ASSERT_EQ(runs, counter_after_barrier(_metadata, e, x.ctx_id,
						      width))
			TH_LOG("fault point %u", n);
		out_syncs_destroy(&s, e->fd);
		ASSERT_EQ(0, tempo_ctx_destroy(e->fd, x.ctx_id));
		if (fault_done(_metadata, self, n, ret, left))
			break;
	}
	ASSERT_LT(n, MAX_FAULTS);
}

TEST_F_TIMEOUT(faults, exec_fails_enomem_and_queues_nothing, FAULTS_TIMEOUT)
{
	exec_faults(_metadata, self, 1, NUM_IN, NUM_OUT);
}

/* With syncs that fit on the exec's stack: the sync_file allocates. */
TEST_F_TIMEOUT(faults, exec_of_few_syncs_fails_enomem_and_queues_nothing,
	       FAULTS_TIMEOUT)
{
	exec_faults(_metadata, self, 1, NUM_INLINE, NUM_INLINE);
}

/* The same on a parallel slot: the gang is allocated too. */
TEST_F_TIMEOUT(faults, exec_of_a_gang_fails_enomem_and_queues_nothing,
	       FAULTS_TIMEOUT)
{
	ASSERT_NE(0u, self->env.dev.parallel_classes &
		  (1u << DRM_TEMPO_ENGINE_CLASS_COMPUTE));
	exec_faults(_metadata, self, 2, NUM_IN, NUM_OUT);
}

TEST_HARNESS_MAIN
