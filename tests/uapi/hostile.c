// SPDX-License-Identifier: GPL-2.0-only
/*
 * A hostile caller: what an unprivileged process, with several threads and
 * a small memory cgroup, can do to the kernel, the host and other users.
 *
 * - ids published before their object is complete: threads racing
 *   CTX_CREATE against CTX_DESTROY of the ids it hands out, VM_MAP against
 *   VM_UNMAP of the range it maps (KASAN on the debug kernel);
 * - kernel memory: contexts, mappings and jobs in flight flooded from a
 *   64 MiB memory cgroup as the unprivileged user end with the documented
 *   errno, are charged to that cgroup and kill nobody;
 * - guilt: a job kept waiting for compute units that another file's jobs
 *   hold is neither reset nor banned;
 * - hangs: COPY and FILL are preempted within a chunk and stopped by the
 *   timeout; later jobs do not extend an endless batch's timeout; a busy
 *   host does not make jobs within their budget time out;
 * - another process: closing a client's file with thousands of queued
 *   jobs returns within the documented bound;
 * - the host: a CPU-bound bystander keeps half its throughput while the
 *   unprivileged user saturates every engine, and while it also flips a
 *   context's priority without pause; a change of priority does not walk
 *   the rings of other files' jobs; meanwhile no compute unit's thread
 *   leaves its CPU priority for the higher one of privileged work;
 * - priority inheritance: a job of the unprivileged user that a
 *   VERY_HIGH job of root waits for is lent nothing unless the waiter
 *   asks, and then no more than NORMAL, so a HIGH job on its engine
 *   still preempts it;
 * - privilege: DRM master of the card node grants nothing on a device
 *   without a display, and with master_priority=1 grants what
 *   CAP_SYS_NICE does, only while it is master; dumb buffers have the same size cap; a DISPATCH
 *   whose group count wraps 64 bits is illegal; live HQD priorities are
 *   for privileged callers only.
 *
 * Most tests need root (to make the cgroup, to drop to the unprivileged
 * user, to reach the card node); they skip otherwise. TEMPO_RACE_SECONDS
 * sets how long each race runs (default 10).
 */
#include <grp.h>
#include <pthread.h>
#include <pwd.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "tempo_test.h"

#define CG_MAX_BYTES	(64ull << 20)	/* the hostile user's memory cgroup */
#define MARK		0x1000
#define TS		0x2000		/* timestamps, 8 bytes each */

/* ------------------------------------------------------------------------ */
/* The unprivileged user and the memory cgroup */

struct unpriv {
	uid_t uid;
	gid_t gid;
	gid_t render;
	bool has_render;
};

/* The VM's test user (member of 'render'), else nobody. */
static bool unpriv_lookup(struct unpriv *u)
{
	struct passwd *pw = getpwnam("tempotest");
	struct group *gr = getgrnam("render");

	if (!pw)
		pw = getpwnam("nobody");
	if (!pw || geteuid() != 0)
		return false;
	u->uid = pw->pw_uid;
	u->gid = pw->pw_gid;
	u->has_render = gr != NULL;
	u->render = gr ? gr->gr_gid : 0;
	return true;
}

static int unpriv_become(const struct unpriv *u)
{
	if (setgroups(u->has_render ? 1 : 0, &u->render) || setgid(u->gid) ||
	    setuid(u->uid))
		return -errno;
	return 0;
}

struct cgroup {
	char dir[320];
};

static int cg_write(const char *dir, const char *file, const char *value)
{
	char path[400];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, value, strlen(value)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* The number after @key (or the first number of the file without one). */
static long long cg_read(const char *dir, const char *file, const char *key)
{
	FILE *f = tempo_fopen("re", "%s/%s", dir, file);
	long long value = -1;
	char line[256];

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		size_t n = key ? strlen(key) : 0;

		if (key && (strncmp(line, key, n) || line[n] != ' '))
			continue;
		value = strtoll(line + n, NULL, 10);
		break;
	}
	fclose(f);
	return value;
}

/* Where cgroup v2 is mounted, mounting it when it is not. */
static bool cg_root(char *root, size_t len)
{
	char dev[64], dir[256], type[64];
	bool found = false;
	FILE *f = fopen("/proc/mounts", "re");

	while (f && fscanf(f, "%63s %255s %63s %*[^\n]", dev, dir, type) == 3) {
		if (!strcmp(type, "cgroup2")) {
			snprintf(root, len, "%s", dir);
			found = true;
			break;
		}
	}
	if (f)
		fclose(f);
	if (found)
		return true;
	snprintf(root, len, "/sys/fs/cgroup");
	return !mount("cgroup2", root, "cgroup2", 0, NULL);
}

/* A child cgroup of the root with memory.max; "" in @why when made. */
static bool cg_create(struct cgroup *cg, uint64_t max_bytes, char *why,
		      size_t len)
{
	char root[256], value[32];

	if (!cg_root(root, sizeof(root))) {
		snprintf(why, len, "no cgroup v2 hierarchy");
		return false;
	}
	cg_write(root, "cgroup.subtree_control", "+memory");
	snprintf(cg->dir, sizeof(cg->dir), "%s/tempo-hostile-%d", root,
		 getpid());
	rmdir(cg->dir);
	if (mkdir(cg->dir, 0755)) {
		snprintf(why, len, "mkdir: %s", strerror(errno));
		return false;
	}
	snprintf(value, sizeof(value), "%llu", (unsigned long long)max_bytes);
	if (cg_write(cg->dir, "memory.max", value)) {
		snprintf(why, len, "no memory controller (memory.max)");
		rmdir(cg->dir);
		return false;
	}
	cg_write(cg->dir, "memory.swap.max", "0");
	return true;
}

static void cg_destroy(struct cgroup *cg)
{
	for (int i = 0; i < 100 && rmdir(cg->dir) && errno == EBUSY; i++)
		tempo_sleep_ms(20);
}

static int cg_enter(const struct cgroup *cg)
{
	char pid[32];

	snprintf(pid, sizeof(pid), "%d", getpid());
	return cg_write(cg->dir, "cgroup.procs", pid);
}

/*
 * Fill the ring of @slot's engine (a gfx engine: one regular HQD) with
 * gated jobs, one per context: jobs queued behind them stay queued for as
 * long as the gate is closed, however slow the kernel, since each gated
 * job that times out bans only its own context and the next one takes
 * its place. The sync_file of the first is returned in @first if not
 * NULL. 0 or -errno.
 */
static int block_ring(struct tempo_env *e, uint32_t slot, int *first)
{
	uint64_t va = tempo_gated_batch(e, 0, TEMPO_NO_MARK, 0);

	for (uint32_t i = 0; i < e->dev.ring_size; i++) {
		uint32_t ctx;
		int ret, f = -1;

		ret = tempo_ctx_create(e->fd, 0, NULL, 0, &ctx);
		if (!ret)
			ret = tempo_exec(e->fd, ctx, slot, va, NULL, 0, NULL, 0,
					 i || !first ? NULL : &f);
		if (ret)
			return ret;
		if (!i && first)
			*first = f;
	}
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Floods from a small cgroup */

enum flood_kind { FLOOD_CONTEXTS, FLOOD_MAPPINGS, FLOOD_JOBS };

struct flood_result {
	int count;	/* successful calls */
	int err;	/* errno of the first failure, 0 if none */
	int limit;	/* the limit the query reported */
	int fences;	/* jobs: the fence of the last job, for its status */
};

static int flood_contexts(int fd, int max, struct flood_result *r)
{
	for (r->count = 0; r->count < max; r->count++) {
		struct drm_tempo_ctx_create c = { 0 };

		if (ioctl(fd, DRM_IOCTL_TEMPO_CTX_CREATE, &c))
			return errno;
	}
	return 0;
}

static int flood_mappings(int fd, int max, struct flood_result *r)
{
	uint32_t handle;

	if (tempo_bo_create(fd, 4096, &handle))
		return -1;
	for (r->count = 0; r->count < max; r->count++) {
		struct drm_tempo_vm_map m = {
			.handle = handle,
			.flags = DRM_TEMPO_VM_MAP_AUTO_VA,
			.size = 4096,
		};

		if (ioctl(fd, DRM_IOCTL_TEMPO_VM_MAP, &m))
			return errno;
	}
	return 0;
}

/*
 * NOPs queued behind a ring of gated jobs on gfx (slot 0), which count
 * among the file's jobs in flight too.
 */
static int flood_jobs(int fd, int max, struct flood_result *r,
		      struct tempo_env *e)
{
	uint64_t va = tempo_mark_batch(e, 256, TEMPO_NO_MARK, 0);

	if (block_ring(e, 0, NULL))
		return -1;
	/* Raw: tempo_exec() would retry the -EAGAIN this is waiting for. */
	for (r->count = e->dev.ring_size; r->count < max; r->count++) {
		struct drm_tempo_exec x = {
			.ctx_id = e->ctx,
			.num_batches = 1,
			.batches = TEMPO_PTR(&va),
			.out_fence_fd = -1,
		};
		int ret = tempo_ioctl_raw(fd, DRM_IOCTL_TEMPO_EXEC, &x);

		if (ret)
			return -ret;
	}
	return 0;
}

/* In the child: join the cgroup, become the user, flood, report. */
static int flood_child(const struct cgroup *cg, const struct unpriv *u,
		       enum flood_kind kind, int report, int go_on)
{
	struct drm_tempo_query_limits l;
	struct flood_result r = { 0 };
	struct tempo_env e = { .fd = -1 };
	char byte;
	int fd;

	if (cg_enter(cg) || unpriv_become(u))
		return 10;
	fd = tempo_device_open();
	if (fd < 0 || tempo_query_limits(fd, &l))
		return 11;
	switch (kind) {
	case FLOOD_CONTEXTS:
		r.limit = l.max_contexts;
		r.err = flood_contexts(fd, r.limit + 64, &r);
		break;
	case FLOOD_MAPPINGS:
		r.limit = l.max_mappings;
		r.err = flood_mappings(fd, r.limit + 64, &r);
		break;
	case FLOOD_JOBS:
		r.limit = l.max_jobs;
		if (tempo_env_setup(&e, fd, TEMPO_DATA_SIZE) ||
		    l.max_contexts <= e.dev.ring_size)
			return 12;
		r.err = flood_jobs(fd, r.limit + 64, &r, &e);
		break;
	}
	if (write(report, &r, sizeof(r)) != sizeof(r))
		return 13;
	/* Hold everything while the parent reads the cgroup's usage. */
	if (read(go_on, &byte, 1) != 1)
		return 14;
	if (kind == FLOOD_JOBS)
		tempo_gate_set(&e, 1);
	close(fd);
	return 0;
}

struct flood_outcome {
	struct flood_result r;
	long long usage_before;
	long long usage_held;
	long long oom_kills;
	int status;
	bool bystander_alive;
};

static void flood_run(struct __test_metadata *_metadata, enum flood_kind kind,
		      struct flood_outcome *o)
{
	int report[2], go_on[2];
	struct unpriv u;
	struct cgroup cg;
	pid_t pid, bystander;
	char why[128];

	memset(o, 0, sizeof(*o));
	if (!unpriv_lookup(&u))
		SKIP(return, "needs root and an unprivileged user");
	if (!cg_create(&cg, CG_MAX_BYTES, why, sizeof(why)))
		SKIP(return, "%s", why);
	o->usage_before = cg_read(cg.dir, "memory.current", NULL);
	/* A bystander outside the cgroup, which must survive the flood. */
	bystander = fork();
	ASSERT_LE(0, bystander);
	if (!bystander) {
		pause();
		_exit(0);
	}
	ASSERT_EQ(0, pipe(report));
	ASSERT_EQ(0, pipe(go_on));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(flood_child(&cg, &u, kind, report[1], go_on[0]));
	close(report[1]);
	close(go_on[0]);
	if (read(report[0], &o->r, sizeof(o->r)) == sizeof(o->r))
		o->usage_held = cg_read(cg.dir, "memory.current", NULL);
	ASSERT_EQ(1, write(go_on[1], "x", 1));
	ASSERT_EQ(pid, waitpid(pid, &o->status, 0));
	o->oom_kills = cg_read(cg.dir, "memory.events", "oom_kill");
	o->bystander_alive = waitpid(bystander, NULL, WNOHANG) == 0;
	kill(bystander, SIGKILL);
	waitpid(bystander, NULL, 0);
	close(report[0]);
	close(go_on[1]);
	cg_destroy(&cg);
	TH_LOG("%d calls succeeded (limit %d), then errno %d; cgroup usage %lld -> %lld bytes, %lld OOM kills",
	       o->r.count, o->r.limit, o->r.err, o->usage_before, o->usage_held,
	       o->oom_kills);
}

/*
 * The flood ended at the limit, charged to the cgroup, killing nobody. Up
 * to @slack more calls succeed where objects go away during the flood (a
 * gated job that times out).
 */
static void flood_check(struct __test_metadata *_metadata,
			const struct flood_outcome *o, int err, int slack,
			long long min_charge)
{
	ASSERT_TRUE(WIFEXITED(o->status) && !WEXITSTATUS(o->status))
		TH_LOG("flooding child: status %#x", o->status);
	ASSERT_EQ(err, o->r.err);
	ASSERT_LE(o->r.limit, o->r.count);
	ASSERT_GE(o->r.limit + slack, o->r.count);
	ASSERT_LE(o->usage_before + min_charge, o->usage_held);
	ASSERT_EQ(0, o->oom_kills);
	ASSERT_TRUE(o->bystander_alive);
}

/* Tests that open what they need themselves: the device must exist. */
FIXTURE(device) {
	int fd;
};

FIXTURE_SETUP(device)
{
	TEMPO_OPEN_SETUP(self->fd);
	close(self->fd);
}

FIXTURE_TEARDOWN(device)
{
}

/* A context is about half a KiB with the default map: count a quarter. */
TEST_F_TIMEOUT(device, contexts_from_a_small_cgroup_end_with_enospc, 300)
{
	struct flood_outcome o;

	flood_run(_metadata, FLOOD_CONTEXTS, &o);
	flood_check(_metadata, &o, ENOSPC, 0, o.r.limit * 128ll);
}

TEST_F_TIMEOUT(device, mappings_from_a_small_cgroup_end_with_enospc, 600)
{
	struct flood_outcome o;

	flood_run(_metadata, FLOOD_MAPPINGS, &o);
	flood_check(_metadata, &o, ENOSPC, 0, o.r.limit * 64ll);
}

TEST_F_TIMEOUT(device, jobs_from_a_small_cgroup_end_with_eagain, 300)
{
	struct flood_outcome o;

	flood_run(_metadata, FLOOD_JOBS, &o);
	flood_check(_metadata, &o, EAGAIN, 64, o.r.limit * 256ll);
}

TEST_F(device, limits_are_the_module_parameters)
{
	struct drm_tempo_query_limits l;
	struct drm_tempo_query q = { .query = DRM_TEMPO_QUERY_LIMITS };
	int fd = tempo_device_open();

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, tempo_ioctl(fd, DRM_IOCTL_TEMPO_QUERY, &q));
	ASSERT_EQ(sizeof(l), q.size);
	ASSERT_EQ(0, tempo_query_limits(fd, &l));
	if (tempo_module_param("max_jobs") >= 0) {
		ASSERT_EQ(tempo_module_param("max_contexts"), l.max_contexts);
		ASSERT_EQ(tempo_module_param("max_mappings"), l.max_mappings);
		ASSERT_EQ(tempo_module_param("max_jobs"), l.max_jobs);
	}
	ASSERT_LT(0u, l.close_wait_ms);
	close(fd);
}

TEMPO_ENV_FIXTURE(stack)

/*
 * An exec that fails after copying its arrays leaves values of the
 * caller's choosing on the kernel stack; a CTX_CREATE that fails its first
 * check then must free nothing it did not allocate. Kernels that do not
 * initialise automatic variables (make check's 6.1) show the difference
 * as an oops.
 */
TEST_F(stack, ctx_create_failing_its_first_check_frees_nothing)
{
	struct tempo_env *e = &self->env;
	struct drm_tempo_sync syncs[4];	/* the exec's room on the stack */
	struct tempo_batch b;

	tempo_batch_init(&b, &e->cmd, 0, 16);
	tempo_pkt_end(&b);
	for (unsigned int i = 0; i < TEMPO_ARRAY_SIZE(syncs); i++)
		syncs[i] = (struct drm_tempo_sync){
			.handle = 0x7fff0000u + i,
			.point = 0xffff888000000010ull + 0x1000ull * i,
		};
	for (int round = 0; round < 2000; round++) {
		struct drm_tempo_exec x = {
			.ctx_id = e->ctx, .num_batches = 1,
			.batches = TEMPO_PTR(&b.va),
			.num_in_syncs = TEMPO_ARRAY_SIZE(syncs),
			.in_syncs = TEMPO_PTR(syncs),
			.num_out_syncs = TEMPO_ARRAY_SIZE(syncs),
			.out_syncs = TEMPO_PTR(syncs), .out_fence_fd = -1,
		};
		struct drm_tempo_ctx_create c = { .flags = 1 };

		ASSERT_EQ(-ENOENT, tempo_ioctl_raw(e->fd, DRM_IOCTL_TEMPO_EXEC,
						   &x));
		ASSERT_EQ(-EINVAL, tempo_ioctl_raw(e->fd,
						   DRM_IOCTL_TEMPO_CTX_CREATE,
						   &c));
	}
	ASSERT_EQ(1, tempo_run(_metadata, e->fd, e->ctx, 0, b.va));
}

/* ------------------------------------------------------------------------ */
/* Races on published ids */

static unsigned int race_seconds(void)
{
	const char *s = getenv("TEMPO_RACE_SECONDS");

	return s && atoi(s) > 0 ? (unsigned int)atoi(s) : 10;
}

struct race {
	int fd;
	int other;		/* a second file of the process */
	uint64_t end_ns;
	uint64_t batch;		/* a NOP batch, for exec */
	uint64_t va;		/* the fixed range of the mapping race */
	uint32_t handle;	/* its buffer */
	volatile int bad;	/* an errno nobody documents */
	volatile long ops;
	/* the extension header of the extension race */
	struct drm_tempo_user_extension *volatile ext;
	unsigned int seconds;	/* how long, when not race_seconds() */
};

/* One call of a racing thread; @i counts its calls. */
typedef void (*race_call)(struct race *r, uint32_t i);

struct racer {
	pthread_t thread;
	struct race *r;
	race_call call;
};

/* A raw ioctl of the race: any errno but @ok1, @ok2 and EINTR is bad. */
static void race_ioctl(struct race *r, unsigned long request, void *arg,
		       int ok1, int ok2)
{
	int ret = tempo_ioctl_raw(r->fd, request, arg);

	if (ret && -ret != ok1 && -ret != ok2 && ret != -EINTR)
		r->bad = -ret;
	__atomic_add_fetch(&r->ops, 1, __ATOMIC_RELAXED);
}

static void *race_loop(void *arg)
{
	struct racer *t = arg;

	for (uint32_t i = 0; tempo_now_ns() < t->r->end_ns && !t->r->bad; i++)
		t->call(t->r, i);
	return NULL;
}

static void race_run(struct race *r, const race_call *calls, int n)
{
	struct racer t[8];

	r->end_ns = tempo_now_ns() +
		    (r->seconds ?: race_seconds()) * 1000000000ull;
	for (int i = 0; i < n; i++) {
		t[i] = (struct racer){ .r = r, .call = calls[i] };
		if (pthread_create(&t[i].thread, NULL, race_loop, &t[i]))
			abort();
	}
	for (int i = 0; i < n; i++)
		pthread_join(t[i].thread, NULL);
}

static void ctx_create_call(struct race *r, uint32_t i)
{
	struct drm_tempo_ctx_create c = { .priority = -1 };

	(void)i;
	race_ioctl(r, DRM_IOCTL_TEMPO_CTX_CREATE, &c, ENOSPC, ENOSPC);
}

/* Ids are the lowest free ones: destroy them as soon as they appear. */
static void ctx_destroy_call(struct race *r, uint32_t i)
{
	struct drm_tempo_ctx_destroy d = { .ctx_id = i % 8 + 1 };

	race_ioctl(r, DRM_IOCTL_TEMPO_CTX_DESTROY, &d, ENOENT, ENOENT);
}

static void ctx_use_call(struct race *r, uint32_t i)
{
	struct drm_tempo_ctx_param p = {
		.ctx_id = i % 8 + 1,
		.param = DRM_TEMPO_CTX_PARAM_PRIORITY,
		.value = -2,
	};
	struct drm_tempo_exec x = {
		.ctx_id = i % 8 + 1,
		.num_batches = 1,
		.batches = TEMPO_PTR(&r->batch),
		.out_fence_fd = -1,
	};

	race_ioctl(r, DRM_IOCTL_TEMPO_CTX_SET_PARAM, &p, ENOENT, ENOENT);
	race_ioctl(r, DRM_IOCTL_TEMPO_EXEC, &x, ENOENT, EAGAIN);
}

/* A privileged caller's file override, set and cleared all along. */
static void file_override_call(struct race *r, uint32_t i)
{
	struct drm_tempo_sched s = {
		.op = DRM_TEMPO_SCHED_FILE_PRIORITY_OVERRIDE,
		.fd = r->fd,
		.priority = i % 2 ? DRM_TEMPO_PRIORITY_UNSET :
				    DRM_TEMPO_PRIORITY_LOW,
	};
	int ret = tempo_ioctl_raw(r->other, DRM_IOCTL_TEMPO_SCHED, &s);

	if (ret && ret != -EACCES && ret != -EINTR)
		r->bad = -ret;
	__atomic_add_fetch(&r->ops, 1, __ATOMIC_RELAXED);
}

TEMPO_ENV_FIXTURE(race)

/*
 * Threads of one file create contexts while others destroy, use and
 * reprioritise the ids they get, and a privileged file overrides them
 * all: a context must be complete before its id is published.
 */
TEST_F_TIMEOUT(race, ctx_create_against_destroy_of_its_ids, 300)
{
	static const race_call calls[] = {
		ctx_create_call, ctx_create_call, ctx_destroy_call,
		ctx_destroy_call, ctx_use_call, file_override_call,
	};
	struct tempo_env *e = &self->env;
	struct race r = { .fd = e->fd, .other = tempo_device_open() };
	struct tempo_batch b;

	ASSERT_LE(0, r.other);
	tempo_batch_init(&b, &e->cmd, 0, 16);
	tempo_pkt_end(&b);
	r.batch = b.va;
	race_run(&r, calls, TEMPO_ARRAY_SIZE(calls));
	TH_LOG("%ld calls in %u s", r.ops, race_seconds());
	close(r.other);
	ASSERT_EQ(0, r.bad);
	/*
	 * The racers destroyed the fixture's context (id 1) too, and filled
	 * the file up to its limit: free id 1 and run on a new context.
	 */
	tempo_ctx_destroy(e->fd, 1);
	ASSERT_EQ(0, tempo_ctx_create(e->fd, DRM_TEMPO_PRIORITY_NORMAL, NULL, 0,
				      &e->ctx));
	ASSERT_EQ(1, tempo_run(_metadata, e->fd, e->ctx, 0, b.va));
}

static void vm_map_call(struct race *r, uint32_t i)
{
	struct drm_tempo_vm_map m = {
		.handle = r->handle, .va = r->va, .size = 65536,
	};

	(void)i;
	race_ioctl(r, DRM_IOCTL_TEMPO_VM_MAP, &m, ENOSPC, ENOSPC);
}

static void vm_unmap_call(struct race *r, uint32_t i)
{
	struct drm_tempo_vm_unmap u = { .va = r->va, .size = 65536 };

	(void)i;
	race_ioctl(r, DRM_IOCTL_TEMPO_VM_UNMAP, &u, ENOENT, ENOENT);
}

/* The buffer's references stay right: closing it frees it, once. */
TEST_F_TIMEOUT(race, vm_map_against_unmap_of_its_range, 300)
{
	static const race_call calls[] = {
		vm_map_call, vm_map_call, vm_unmap_call, vm_unmap_call,
	};
	struct tempo_env *e = &self->env;
	struct race r = { .fd = e->fd };

	ASSERT_EQ(0, tempo_bo_create(e->fd, 65536, &r.handle));
	r.va = e->dev.va_end - (1ull << 30);
	race_run(&r, calls, TEMPO_ARRAY_SIZE(calls));
	TH_LOG("%ld calls in %u s", r.ops, race_seconds());
	ASSERT_EQ(0, r.bad);
	tempo_vm_unmap(e->fd, r.va, 65536);
	ASSERT_EQ(0, tempo_gem_close(e->fd, r.handle));
	ASSERT_EQ(-ENOENT, tempo_vm_unmap(e->fd, r.va, 65536));
}

/* A header whose name another thread flips: LOAD_BALANCE, then unknown. */
static void ext_flip_call(struct race *r, uint32_t i)
{
	r->ext->name = i & 1 ? 0x7fffffff : DRM_TEMPO_CTX_EXT_LOAD_BALANCE;
	__atomic_add_fetch(&r->ops, 1, __ATOMIC_RELAXED);
}

/* A zeroed load-balance extension fails its own checks with -EINVAL. */
static void ctx_create_ext_call(struct race *r, uint32_t i)
{
	struct drm_tempo_ctx_create c = { .extensions = TEMPO_PTR(r->ext) };

	(void)i;
	race_ioctl(r, DRM_IOCTL_TEMPO_CTX_CREATE, &c, EINVAL, EINVAL);
}

/*
 * The kernel reads an extension's header to learn its size, then the
 * whole extension: a name changed between the two reads must fail the
 * ioctl, never reach the extension table with the unchecked name.
 */
TEST_F_TIMEOUT(race, extension_header_changed_while_read_fails_einval, 120)
{
	static const race_call calls[] = {
		ext_flip_call, ctx_create_ext_call, ctx_create_ext_call,
	};
	struct drm_tempo_ctx_ext_load_balance lb = { 0 };
	struct race r = { .fd = self->env.fd, .ext = &lb.base, .seconds = 3 };

	race_run(&r, calls, TEMPO_ARRAY_SIZE(calls));
	TH_LOG("%ld calls in %u s", r.ops, r.seconds);
	ASSERT_EQ(0, r.bad);
	lb.base.name = DRM_TEMPO_CTX_EXT_LOAD_BALANCE;
	ASSERT_EQ(-EINVAL, tempo_ioctl_raw(self->env.fd,
					   DRM_IOCTL_TEMPO_CTX_CREATE,
					   &(struct drm_tempo_ctx_create){
						   .extensions = TEMPO_PTR(&lb),
					   }));
}

/* race.waits_on_a_deep_timeline_while_its_points_end */
#define DEEP_POINTS	1000	/* points queued behind each round's gate */
#define DEEP_WAITERS	3	/* threads waiting for the newest point */
#define DEEP_KEPT	32	/* jobs a waiter keeps in flight */

struct deep_timeline {
	int fd;
	uint32_t handle;	/* the timeline */
	uint64_t last;		/* its newest point submitted, atomic */
	uint64_t nop;		/* a NOP batch */
	uint64_t end_ns;
	volatile int bad;	/* the first unexpected errno or status */
	long waits;		/* execs that waited for a point, atomic */
};

struct deep_waiter {
	pthread_t thread;
	struct deep_timeline *t;
	uint32_t ctx;
	uint32_t slot;
	bool bystander;		/* waits for nothing, each job at once */
};

/* Every job of @fences must end well, within TEMPO_WAIT_MS. */
static void deep_retire(struct deep_timeline *t, int *fences, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		int status = tempo_fence_wait(fences[i], TEMPO_WAIT_MS);

		if (status != 1 && !t->bad)
			t->bad = status ? status : -ETIME;
		close(fences[i]);
	}
}

static void *deep_wait_loop(void *arg)
{
	struct deep_waiter *w = arg;
	struct deep_timeline *t = w->t;
	uint32_t kept = w->bystander ? 1 : DEEP_KEPT;
	int fences[DEEP_KEPT];
	uint32_t n = 0;

	while (tempo_now_ns() < t->end_ns && !t->bad) {
		struct drm_tempo_sync in = {
			.handle = t->handle,
			.point = __atomic_load_n(&t->last, __ATOMIC_ACQUIRE),
		};
		bool waits = !w->bystander && in.point;
		int ret;

		ret = tempo_exec_flags(t->fd, w->ctx, w->slot, t->nop,
				       waits ? &in : NULL,
				       DRM_TEMPO_EXEC_INHERIT_PRIORITY,
				       &fences[n]);
		if (ret == -EAGAIN) {
			usleep(1000);
			continue;
		}
		if (ret) {
			t->bad = -ret;
			break;
		}
		if (waits)
			__atomic_add_fetch(&t->waits, 1, __ATOMIC_RELAXED);
		if (++n == kept) {
			deep_retire(t, fences, n);
			n = 0;
		}
	}
	deep_retire(t, fences, n);
	return NULL;
}

/*
 * One round: @DEEP_POINTS timeline points queued on @slot of the LOW
 * context @low behind a job waiting for the gate to reach @round (fewer
 * where queuing them takes a quarter of the job timeout: a slow kernel),
 * the gate opened while the waiters look through them, the last point
 * waited for. 0 or -errno.
 */
static int deep_round(struct tempo_env *e, struct deep_timeline *t,
		      uint32_t low, uint32_t slot, uint64_t round)
{
	uint64_t until = tempo_now_ns() +
			 e->dev.job_timeout_ms * 1000000ull / 4;
	struct drm_tempo_sync out = { .handle = t->handle };
	struct tempo_batch b;
	int ret;

	tempo_batch_init(&b, &e->cmd, 256, 32);
	tempo_pkt_wait_gate(&b, e, round);
	tempo_pkt_end(&b);
	ret = tempo_exec(e->fd, low, slot, b.va, NULL, 0, NULL, 0, NULL);
	for (uint32_t i = 0; !ret && i < DEEP_POINTS &&
	     tempo_now_ns() < until; i++) {
		out.point = t->last + 1;
		ret = tempo_exec(e->fd, low, slot, t->nop, NULL, 0, &out, 1,
				 NULL);
		if (!ret)
			__atomic_store_n(&t->last, out.point, __ATOMIC_RELEASE);
	}
	if (ret)
		return ret;
	usleep(20000);
	tempo_gate_set(e, round);
	return tempo_syncobj_wait(e->fd, t->handle, t->last, TEMPO_WAIT_MS);
}

/*
 * Priority inheritance looks through every point of a timeline not
 * signalled yet: threads of a NORMAL context that ask for it
 * (DRM_TEMPO_EXEC_INHERIT_PRIORITY) keep waiting for the newest
 * point of a timeline a thousand points deep, queued on a LOW context,
 * while those points end and their jobs are freed, round after round. No
 * job may be looked at once freed (the debug kernel reports it), every
 * job ends well, and a bystander on another engine gets each of its jobs
 * done in time meanwhile.
 */
TEST_F_TIMEOUT(race, waits_on_a_deep_timeline_while_its_points_end, 300)
{
	struct tempo_env *e = &self->env;
	struct deep_timeline t = { .fd = e->fd };
	struct deep_waiter w[DEEP_WAITERS + 1];
	struct tempo_batch b;
	uint32_t low, normal;
	uint64_t round = 0;
	int ret = 0;

	if (tempo_count_class(e->engines, DRM_TEMPO_ENGINE_CLASS_COMPUTE) < 3)
		SKIP(return, "needs 3 compute engines");
	if (!tempo_env_can_block(e))
		SKIP(return, "job timeout too short for a gated job");
	ASSERT_EQ(0, drmSyncobjCreate(e->fd, 0, &t.handle));
	ASSERT_EQ(0, tempo_ctx_create(e->fd, DRM_TEMPO_PRIORITY_LOW, NULL, 0,
				      &low));
	ASSERT_EQ(0, tempo_ctx_create(e->fd, DRM_TEMPO_PRIORITY_NORMAL, NULL,
				      0, &normal));
	tempo_batch_init(&b, &e->cmd, 0, 16);
	tempo_pkt_nop(&b, 0);
	tempo_pkt_end(&b);
	t.nop = b.va;
	t.end_ns = tempo_now_ns() + race_seconds() * 1000000000ull;
	for (int i = 0; i <= DEEP_WAITERS; i++) {
		bool bystander = i == DEEP_WAITERS;

		w[i] = (struct deep_waiter){
			.t = &t, .ctx = bystander ? e->ctx : normal,
			.slot = (uint32_t)tempo_default_slot(e->engines,
				DRM_TEMPO_ENGINE_CLASS_COMPUTE, bystander ? 2 : 1),
			.bystander = bystander,
		};
		ASSERT_EQ(0, pthread_create(&w[i].thread, NULL, deep_wait_loop,
					    &w[i]));
	}
	while (!ret && !t.bad && tempo_now_ns() < t.end_ns)
		ret = deep_round(e, &t, low,
				 (uint32_t)tempo_default_slot(e->engines,
					DRM_TEMPO_ENGINE_CLASS_COMPUTE, 0),
				 ++round);
	tempo_gate_set(e, UINT64_MAX);
	for (int i = 0; i <= DEEP_WAITERS; i++)
		pthread_join(w[i].thread, NULL);
	TH_LOG("%llu rounds, %llu points, %ld waits for the newest point",
	       (unsigned long long)round, (unsigned long long)t.last, t.waits);
	ASSERT_EQ(0, ret);
	ASSERT_EQ(0, t.bad);
	ASSERT_LT(0, t.waits);
	ASSERT_EQ(0, tempo_ctx_destroy(e->fd, normal));
	ASSERT_EQ(0, tempo_ctx_destroy(e->fd, low));
	drmSyncobjDestroy(e->fd, t.handle);
}

/* ------------------------------------------------------------------------ */
/* Guilt and hangs */

FIXTURE(guilt) {
	struct tempo_env env;
	struct tempo_env other;	/* another file */
	unsigned int timeout_ms;
};

FIXTURE_SETUP(guilt)
{
	TEMPO_ENV_SETUP(&self->env);
	tempo_env_init(_metadata, &self->other, tempo_device_open());
	self->timeout_ms = self->env.dev.job_timeout_ms;
	TEMPO_NEED_TIMEOUT_WITHIN(&self->env, 7000);
	if (tempo_count_class(self->env.engines,
			      DRM_TEMPO_ENGINE_CLASS_COMPUTE) < 3 ||
	    tempo_count_class(self->env.engines, DRM_TEMPO_ENGINE_CLASS_GFX) < 1)
		SKIP(return, "needs a gfx and 3 compute engines");
}

FIXTURE_TEARDOWN(guilt)
{
	tempo_env_fini(&self->other);
	tempo_env_fini(&self->env);
}

static uint64_t ts_at(const struct tempo_env *e, uint32_t off)
{
	return __atomic_load_n(tempo_u64(&e->data, off), __ATOMIC_SEQ_CST);
}

static int64_t reset_status(int fd, uint32_t ctx)
{
	int64_t value;

	return tempo_ctx_get_param(fd, ctx, DRM_TEMPO_CTX_PARAM_RESET_STATUS,
				   &value) ? -1 : value;
}

/*
 * A batch at @offset that writes the timestamp at data offset @ts, makes a
 * DISPATCH of @kernel over @groups groups, writes the timestamp at @ts + 8.
 */
static uint64_t timed_dispatch(struct tempo_env *e, uint32_t offset,
			       uint32_t ts, uint32_t kernel, uint32_t groups,
			       const uint32_t *args, uint32_t nargs)
{
	struct tempo_batch b;

	tempo_batch_init(&b, &e->cmd, offset, 64);
	tempo_pkt_write_timestamp(&b, e->data.va + ts);
	tempo_pkt_dispatch(&b, kernel, groups, 1, 1, args, nargs);
	tempo_pkt_write_timestamp(&b, e->data.va + ts + 8);
	tempo_pkt_end(&b);
	return b.va;
}

/*
 * One file keeps every CU busy with dispatches on three compute engines,
 * each 0.6 of the job timeout long: no job of it is hung. A dispatch of
 * another file on gfx waits for CUs longer than the job timeout: it
 * completes, late, and its context is not guilty.
 */
TEST_F_TIMEOUT(guilt, job_waiting_for_cus_another_file_holds_is_innocent, 120)
{
	struct tempo_env *hog = &self->other, *e = &self->env;
	uint32_t spin[] = { self->timeout_ms * 600000u };
	uint32_t fill[] = { TEMPO_ARG_VA(e->data.va + 0x10000), 7, 4096 };
	int fences[3], victim, status;

	for (int i = 0; i < 3; i++) {
		uint64_t va = timed_dispatch(hog, 256 * i, TS + 16 * i,
					     DRM_TEMPO_KERNEL_SPIN,
					     hog->dev.num_cus, spin, 1);

		fences[i] = tempo_submit(_metadata, hog->fd, hog->ctx,
					 tempo_default_slot(hog->engines,
						DRM_TEMPO_ENGINE_CLASS_COMPUTE, i),
					 va);
		tempo_wait_nonzero(_metadata, &hog->data, TS + 16 * i);
	}
	tempo_sleep_ms(20);

	victim = tempo_submit(_metadata, e->fd, e->ctx,
			      tempo_default_slot(e->engines,
						 DRM_TEMPO_ENGINE_CLASS_GFX, 0),
			      timed_dispatch(e, 0, TS, DRM_TEMPO_KERNEL_FILL, 1,
					     fill, 4));
	status = tempo_fence_wait(victim, 4 * self->timeout_ms + TEMPO_WAIT_MS);
	TH_LOG("victim held %.0f ms for a job timeout of %u ms",
	       (ts_at(e, TS + 8) - ts_at(e, TS)) / 1e6, self->timeout_ms);
	ASSERT_EQ(1, status);
	ASSERT_EQ(7u, *tempo_u32(&e->data, 0x10000 + 4092));
	ASSERT_EQ(0, reset_status(e->fd,
				  e->ctx) & DRM_TEMPO_RESET_STATUS_GUILTY);
	/* It was held past its timeout: the point of the test. */
	ASSERT_LT((uint64_t)self->timeout_ms * 1000000ull,
		  ts_at(e, TS + 8) - ts_at(e, TS));
	for (int i = 0; i < 3; i++)
		tempo_fence_expect(_metadata, fences[i], 1, TEMPO_WAIT_MS);
	close(victim);
}

/*
 * An endless batch, and a stream of jobs of the same file on its engine,
 * each of which re-arms drm_sched's timer: the batch is still stopped
 * within one job timeout of running time (plus the checks' slack).
 */
TEST_F_TIMEOUT(guilt, endless_batch_is_stopped_while_jobs_keep_coming, 120)
{
	struct tempo_env *e = &self->env;
	int slot = tempo_default_slot(e->engines, DRM_TEMPO_ENGINE_CLASS_GFX, 0);
	struct tempo_batch loop, entry, nop;
	int endless, status, n = 0;
	uint32_t other;
	uint64_t ended = 0;

	tempo_batch_init(&loop, &e->cmd, 1024, 64);
	tempo_pkt_nop(&loop, 2);
	tempo_pkt_batch_start(&loop, loop.va, DRM_TEMPO_BATCH_CHAIN);
	tempo_batch_init(&entry, &e->cmd, 0, 64);
	tempo_pkt_write_timestamp(&entry, e->data.va + TS);
	tempo_pkt_batch_start(&entry, loop.va, DRM_TEMPO_BATCH_CHAIN);
	tempo_batch_init(&nop, &e->cmd, 2048, 16);
	tempo_pkt_end(&nop);
	ASSERT_EQ(0, tempo_ctx_create(e->fd, 0, NULL, 0, &other));

	endless = tempo_submit(_metadata, e->fd, e->ctx, slot, entry.va);
	tempo_wait_nonzero(_metadata, &e->data, TS);
	while (tempo_now_ns() < ts_at(e, TS) + 3ull * self->timeout_ms * 1000000) {
		int f = tempo_submit(_metadata, e->fd, other, slot, nop.va);

		n++;
		close(f);
		status = tempo_fence_wait(endless, 50);
		if (status) {
			ended = tempo_now_ns();
			break;
		}
	}
	TH_LOG("%d jobs submitted behind it; it ended after %.0f ms", n,
	       ended ? (ended - ts_at(e, TS)) / 1e6 : -1.0);
	ASSERT_EQ(-ETIMEDOUT, status);
	ASSERT_GT(ts_at(e, TS) + (self->timeout_ms + 500ull) * 1000000, ended);
	ASSERT_EQ(1, tempo_run(_metadata, e->fd, other, slot, nop.va));
	close(endless);
}

/* A FILL or COPY of @size over @dst (and @src) on compute 0. */
static uint64_t mem_batch(struct tempo_env *e, uint32_t off, bool fill,
			  uint64_t dst, uint64_t src, uint32_t size)
{
	struct tempo_batch b;

	tempo_batch_init(&b, &e->cmd, off, 64);
	tempo_pkt_write_timestamp(&b, e->data.va + TS);
	if (fill)
		tempo_pkt_fill(&b, dst, 0x5a5a5a5a, size);
	else
		tempo_pkt_copy(&b, dst, src, size);
	tempo_pkt_write_timestamp(&b, e->data.va + TS + 8);
	tempo_pkt_end(&b);
	return b.va;
}

/*
 * A VERY_HIGH job submitted while one FILL (64 MiB) or COPY (16 MiB) runs
 * on its engine runs before the packet ends: it is preempted between two
 * chunks. The high-priority job copies the last dword of the packet's
 * destination, which must not be written yet, and the packet's result is
 * still exact.
 */
static void preempt_mem_op(struct __test_metadata *_metadata,
			   struct tempo_env *e, bool fill)
{
	const uint64_t size = (fill ? 64ull : 16ull) << 20;
	const uint32_t expect = fill ? 0x5a5a5a5au : 0x3c3c3c3cu;
	int slot = tempo_default_slot(e->engines,
				      DRM_TEMPO_ENGINE_CLASS_COMPUTE, 0);
	struct tempo_bo dst, src;
	struct tempo_batch h;
	uint32_t high;
	int low, hi;

	if (!tempo_has_cap_sys_nice())
		SKIP(return, "needs CAP_SYS_NICE for a VERY_HIGH context");
	ASSERT_EQ(0, tempo_bo_new(e->fd, size, 0, &dst));
	ASSERT_EQ(0, tempo_bo_new(e->fd, size, 0, &src));
	memset(src.map, 0x3c, size);
	*tempo_u32(&e->data, MARK) = 0xffffffff;
	ASSERT_EQ(0, tempo_ctx_create(e->fd, DRM_TEMPO_PRIORITY_VERY_HIGH,
				      NULL, 0, &high));
	tempo_batch_init(&h, &e->cmd, 4096, 64);
	tempo_pkt_copy(&h, e->data.va + MARK, dst.va + size - 4, 4);
	tempo_pkt_end(&h);

	low = tempo_submit(_metadata, e->fd, e->ctx, slot,
			   mem_batch(e, 0, fill, dst.va, src.va,
				     (uint32_t)size));
	tempo_wait_nonzero(_metadata, &e->data, TS);
	hi = tempo_submit(_metadata, e->fd, high, slot, h.va);
	ASSERT_EQ(1, tempo_fence_wait(hi, TEMPO_WAIT_MS));
	ASSERT_EQ(1, tempo_fence_wait(low, 10 * TEMPO_WAIT_MS));
	TH_LOG("the packet took %.1f ms", (ts_at(e, TS + 8) - ts_at(e, TS)) / 1e6);
	ASSERT_EQ(0u, *tempo_u32(&e->data, MARK));
	for (uint64_t i = 0; i < size / 4; i += 997)
		ASSERT_EQ(expect, *tempo_u32(&dst, 4 * i));
	ASSERT_EQ(expect, *tempo_u32(&dst, size - 4));
	close(low);
	close(hi);
	tempo_bo_del(e->fd, &dst);
	tempo_bo_del(e->fd, &src);
}

TEST_F_TIMEOUT(guilt, fill_is_preempted_within_a_chunk, 120)
{
	preempt_mem_op(_metadata, &self->env, true);
}

TEST_F_TIMEOUT(guilt, copy_is_preempted_within_a_chunk, 120)
{
	preempt_mem_op(_metadata, &self->env, false);
}

/*
 * A job of FILLs (or COPYs) of nearly 4 GiB each, over one 64 MiB buffer
 * mapped 64 times: stopped with -ETIMEDOUT within the job timeout plus a
 * chunk's slack, not at the end of a packet.
 */
static void stop_mem_op(struct __test_metadata *_metadata, struct tempo_env *e,
			unsigned int timeout_ms, bool fill)
{
	const uint64_t part = 64ull << 20, span = 64 * part;
	int slot = tempo_default_slot(e->engines,
				      DRM_TEMPO_ENGINE_CLASS_COMPUTE, 1);
	uint64_t base = 1ull << 34, t0;
	struct tempo_batch b;
	uint32_t handle;
	int fence, status;

	ASSERT_EQ(0, tempo_bo_create(e->fd, part, &handle));
	for (uint64_t i = 0; i < 64; i++) {
		uint64_t va = base + i * part;

		ASSERT_EQ(0, tempo_vm_map(e->fd, handle, 0, &va, 0, part));
	}
	tempo_batch_init(&b, &e->cmd, 0, 256);
	for (int i = 0; i < 8; i++) {
		if (fill)
			tempo_pkt_fill(&b, base, 0x11111111, (uint32_t)(span - 4));
		else
			tempo_pkt_copy(&b, base + part, base,
				       (uint32_t)(span - part));
	}
	tempo_pkt_end(&b);
	t0 = tempo_now_ns();
	fence = tempo_submit(_metadata, e->fd, e->ctx, slot, b.va);
	status = tempo_fence_wait(fence, 10 * timeout_ms + TEMPO_WAIT_MS);
	TH_LOG("stopped after %.0f ms for a job timeout of %u ms",
	       (tempo_now_ns() - t0) / 1e6, timeout_ms);
	ASSERT_EQ(-ETIMEDOUT, status);
	ASSERT_GT(t0 + (timeout_ms + 1000ull) * 1000000, tempo_now_ns());
	close(fence);
	for (uint64_t i = 0; i < 64; i++)
		ASSERT_EQ(0, tempo_vm_unmap(e->fd, base + i * part, part));
	ASSERT_EQ(0, tempo_gem_close(e->fd, handle));
}

TEST_F_TIMEOUT(guilt, fill_past_the_timeout_is_stopped_by_it, 300)
{
	stop_mem_op(_metadata, &self->env, self->timeout_ms, true);
}

TEST_F_TIMEOUT(guilt, copy_past_the_timeout_is_stopped_by_it, 300)
{
	stop_mem_op(_metadata, &self->env, self->timeout_ms, false);
}

/*
 * A busy host: busy loops at nice 0, two per CPU, that never touch the
 * GPU, slow the emulation down (its threads run at nice 10 and 19) by 20
 * to 140 times. A job is judged on the GPU time it used, not on the wall
 * time the host made it take: a job of FILL packets (command-processor
 * work) of an eighth of the job timeout and one of one-workgroup FILL
 * DISPATCHes (compute-unit work) of a twenty-fifth, as measured on the
 * idle host, both complete under the load, and their context is not
 * banned. When the watchdog counted wall time both were stopped with
 * -ETIMEDOUT, after a job timeout of it.
 */
#define LOAD_BUF		(16u << 20)
#define LOAD_MAX_PACKETS	200
#define LOAD_VALUE		0x6b6b6b6bu

/* What each job of the case runs, and where it records its times. */
struct load_job {
	uint32_t slot;
	uint32_t batch;		/* offset of its batch in the command buffer */
	uint32_t ts;		/* data offset of its start and end times */
	bool dispatch;
	struct tempo_bo dst;
};

/* @n packets, each filling @dst whole, between two timestamps. */
static uint64_t load_batch(struct tempo_env *e, const struct load_job *j,
			   uint32_t n)
{
	uint32_t args[] = { TEMPO_ARG_VA(j->dst.va), LOAD_VALUE, LOAD_BUF };
	struct tempo_batch b;

	tempo_batch_init(&b, &e->cmd, j->batch, 16 + 9 * LOAD_MAX_PACKETS);
	tempo_pkt_write_timestamp(&b, e->data.va + j->ts);
	for (uint32_t i = 0; i < n; i++) {
		if (j->dispatch)
			tempo_pkt_dispatch(&b, DRM_TEMPO_KERNEL_FILL, 1, 1, 1,
					   args, 4);
		else
			tempo_pkt_fill(&b, j->dst.va, LOAD_VALUE, LOAD_BUF);
	}
	tempo_pkt_write_timestamp(&b, e->data.va + j->ts + 8);
	tempo_pkt_end(&b);
	return b.va;
}

/* The GPU-side duration of the job's last run, in nanoseconds. */
static uint64_t load_took(const struct tempo_env *e, const struct load_job *j)
{
	return ts_at(e, j->ts + 8) - ts_at(e, j->ts);
}

/* How many packets make the job last @target_ns on the idle host. */
static uint32_t load_size(struct __test_metadata *_metadata,
			  struct tempo_env *e, const struct load_job *j,
			  uint64_t target_ns)
{
	uint64_t va = load_batch(e, j, 2), per;

	/* The first run makes the pages; the second is timed. */
	for (int i = 0; i < 2; i++)
		ASSERT_EQ(1, tempo_run(_metadata, e->fd, e->ctx, j->slot, va));
	per = load_took(e, j) / 2 + 1;
	return (uint32_t)(target_ns / per < 1 ? 1 :
			  target_ns / per > LOAD_MAX_PACKETS ? LOAD_MAX_PACKETS :
			  target_ns / per);
}

/* The file's engine time on gfx or compute (fdinfo), in nanoseconds. */
static int64_t engine_ns(int fd, bool compute)
{
	const char *key = compute ? "drm-engine-compute:" : "drm-engine-gfx:";
	FILE *f = tempo_fopen("r", "/proc/self/fdinfo/%d", fd);
	long long v = -1;
	char line[256];

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)))
			sscanf(line + strlen(key), "%lld", &v);
	if (f)
		fclose(f);
	return v;
}

static void hogs_start(pid_t *pids, int n)
{
	for (int i = 0; i < n; i++) {
		pids[i] = fork();
		if (!pids[i]) {
			volatile unsigned long spin = 0;

			/* Never outlive the test, however it ends. */
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() == 1)
				_exit(0);
			setpriority(PRIO_PROCESS, 0, 0);
			for (;;)
				spin++;
		}
	}
}

static void hogs_stop(pid_t *pids, int n)
{
	for (int i = 0; i < n; i++) {
		if (pids[i] > 0) {
			kill(pids[i], SIGKILL);
			waitpid(pids[i], NULL, 0);
		}
	}
}

#define LOAD_MAX_HOGS		64

TEST_F_TIMEOUT(guilt, a_busy_host_does_not_time_out_jobs_within_their_budget, 300)
{
	struct tempo_env *e = &self->env;
	struct load_job jobs[2] = {
		{ .slot = tempo_default_slot(e->engines,
					     DRM_TEMPO_ENGINE_CLASS_GFX, 0),
		  .batch = 0, .ts = TS },
		{ .slot = tempo_default_slot(e->engines,
					     DRM_TEMPO_ENGINE_CLASS_COMPUTE, 0),
		  .batch = 0x4000, .ts = TS + 16, .dispatch = true },
	};
	const uint64_t target[2] = { self->timeout_ms * 1000000ull / 8,
				     self->timeout_ms * 1000000ull / 25 };
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int nhogs = (int)(cpus < 1 ? 2 : cpus > LOAD_MAX_HOGS / 2 ?
			  LOAD_MAX_HOGS : 2 * cpus);
	pid_t hogs[LOAD_MAX_HOGS] = { 0 };
	uint32_t n[2];
	uint64_t va[2];
	int64_t gpu[2];
	int fences[2], status[2];

	for (int k = 0; k < 2; k++) {
		ASSERT_EQ(0, tempo_bo_new(e->fd, LOAD_BUF, 0, &jobs[k].dst));
		n[k] = load_size(_metadata, e, &jobs[k], target[k]);
		va[k] = load_batch(e, &jobs[k], n[k]);
		TH_LOG("%s: %u packets, %.0f ms alone", k ? "dispatch" : "fill",
		       n[k], n[k] * (load_took(e, &jobs[k]) / 2) / 1e6);
	}
	hogs_start(hogs, nhogs);
	for (int k = 0; k < 2; k++) {
		gpu[k] = engine_ns(e->fd, jobs[k].dispatch);
		*tempo_u64(&e->data, jobs[k].ts + 8) = 0;
		fences[k] = tempo_submit(_metadata, e->fd, e->ctx, jobs[k].slot,
					 va[k]);
	}
	for (int k = 0; k < 2; k++)
		status[k] = tempo_fence_wait(fences[k], 240 * 1000);
	hogs_stop(hogs, nhogs);
	for (int k = 0; k < 2; k++) {
		TH_LOG("%s beside %d busy loops: status %d, %.0f ms, %.0f ms of GPU time",
		       k ? "dispatch" : "fill", nhogs, status[k],
		       ts_at(e, jobs[k].ts + 8) ?
		       load_took(e, &jobs[k]) / 1e6 : -1.0,
		       (engine_ns(e->fd, jobs[k].dispatch) - gpu[k]) / 1e6);
		close(fences[k]);
	}
	ASSERT_EQ(1, status[0]);
	ASSERT_EQ(1, status[1]);
	ASSERT_EQ(0, reset_status(e->fd, e->ctx) &
		     DRM_TEMPO_RESET_STATUS_GUILTY);
	for (int k = 0; k < 2; k++) {
		ASSERT_EQ(LOAD_VALUE, *tempo_u32(&jobs[k].dst, LOAD_BUF - 4));
		ASSERT_EQ(1, tempo_run(_metadata, e->fd, e->ctx, jobs[k].slot,
				       load_batch(e, &jobs[k], 1)));
		tempo_bo_del(e->fd, &jobs[k].dst);
	}
}

/* ------------------------------------------------------------------------ */
/* Another process */

/*
 * The client: a ring of gated jobs, then @n SPIN jobs queued behind it;
 * sends the first job's sync_file, a dma-buf of its data buffer (the
 * gate), the last job's sync_file and its DRM file, and exits.
 */
static int client_main(int sock, void *arg)
{
	uint32_t n = *(const uint32_t *)arg;
	struct tempo_env c;
	struct tempo_batch spin;
	uint32_t args[] = { 1000000 };
	int f;

	if (tempo_env_open(&c, TEMPO_DATA_SIZE))
		return 10;
	if (block_ring(&c, 0, &f) || tempo_send_fds(sock, &f, 1))
		return 11;
	close(f);
	if (drmPrimeHandleToFD(c.fd, c.data.handle, DRM_CLOEXEC | DRM_RDWR,
			       &f) || tempo_send_fds(sock, &f, 1))
		return 14;
	close(f);
	tempo_batch_init(&spin, &c.cmd, 256, 64);
	tempo_pkt_dispatch(&spin, DRM_TEMPO_KERNEL_SPIN, 1, 1, 1, args, 1);
	tempo_pkt_end(&spin);
	for (uint32_t i = 0; i < n; i++) {
		if (tempo_exec(c.fd, c.ctx, 0, spin.va, NULL, 0, NULL, 0,
			       i == n - 1 ? &f : NULL))
			return 12;
	}
	if (tempo_send_fds(sock, &f, 1) || tempo_send_fds(sock, &c.fd, 1))
		return 13;
	return 0;
}

/*
 * A client queues thousands of jobs behind a ring of jobs that never end
 * by themselves, hands its file to a "compositor" and exits; the
 * compositor's close() returns within close_wait_ms (plus slack), and
 * every fence still ends with a documented status: the jobs left queued
 * are dropped (-ESRCH). The gate, in a buffer the client shared as a
 * dma-buf, is opened once the file is closed.
 */
TEST_F_TIMEOUT(guilt, closing_a_clients_file_is_bounded, 300)
{
	struct tempo_env *e = &self->env;
	struct drm_tempo_query_limits l;
	int sock, client_fd, first, last, status, dmabuf;
	volatile uint64_t *gate;
	uint32_t n;
	uint64_t t0, took;
	pid_t pid;

	ASSERT_EQ(0, tempo_query_limits(e->fd, &l));
	n = l.max_jobs > 3000 + e->dev.ring_size ? 3000 :
	    l.max_jobs - e->dev.ring_size;
	sock = tempo_fork_child(client_main, &n, &pid);
	ASSERT_LE(0, sock);
	ASSERT_EQ(0, tempo_recv_fds(sock, &first, 1));
	ASSERT_EQ(0, tempo_recv_fds(sock, &dmabuf, 1));
	ASSERT_EQ(0, tempo_recv_fds(sock, &last, 1));
	ASSERT_EQ(0, tempo_recv_fds(sock, &client_fd, 1));
	gate = mmap(NULL, TEMPO_DATA_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		    dmabuf, 0);
	ASSERT_NE(MAP_FAILED, (void *)gate);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
		TH_LOG("client: status %#x", status);

	t0 = tempo_now_ns();
	close(client_fd);
	took = tempo_now_ns() - t0;
	TH_LOG("close() with %u jobs queued took %.0f ms (bound %u ms)", n,
	       took / 1e6, l.close_wait_ms);
	__atomic_store_n(&gate[TEMPO_GATE / 8], 1, __ATOMIC_SEQ_CST);
	ASSERT_GT((l.close_wait_ms + 1000ull) * 1000000, took);
	status = tempo_fence_wait(first, 2 * self->timeout_ms + TEMPO_WAIT_MS);
	ASSERT_TRUE(status == 1 || status == -ETIMEDOUT) TH_LOG("first: %d", status);
	/*
	 * drm_sched cancels the queued jobs one after the other, in its own
	 * work items: thousands take seconds on the debug kernel.
	 */
	ASSERT_EQ(-ESRCH, tempo_fence_wait(last, 60000));
	munmap((void *)gate, TEMPO_DATA_SIZE);
	close(dmabuf);
	close(first);
	close(last);
	close(sock);
}

/* ------------------------------------------------------------------------ */
/* The host's CPUs */

static uint64_t cpu_time_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/*
 * A bystander process: spins for @ms and writes the share of that time it
 * was given a CPU, in thousandths. Its CPU time, not its loop count: how
 * much CPU the host gives the VM's CPUs varies with the host's own load,
 * what the guest's scheduler gives the bystander does not.
 */
static pid_t bystander_start(int out, unsigned int ms)
{
	pid_t pid = fork();

	if (!pid) {
		uint64_t start = tempo_now_ns(), cpu = cpu_time_ns(), share;

		while (tempo_now_ns() < start + ms * 1000000ull)
			;
		share = (cpu_time_ns() - cpu) * 1000 / (tempo_now_ns() - start);
		_exit(write(out, &share, sizeof(share)) == sizeof(share) ? 0 : 1);
	}
	return pid;
}

static uint64_t bystander_run(unsigned int ms)
{
	uint64_t n = 0;
	int p[2];
	pid_t pid;

	if (pipe(p))
		return 0;
	pid = bystander_start(p[1], ms);
	if (read(p[0], &n, sizeof(n)) != sizeof(n))
		n = 0;
	waitpid(pid, NULL, 0);
	close(p[0]);
	close(p[1]);
	return n;
}

/*
 * Unless its last job still runs, give engine slot @i an endless job: a
 * NOP loop, or a loop of FILL dispatches over all CUs on a compute
 * engine, in a new context (a job that fails bans its context).
 */
static int saturate_engine(struct tempo_env *e, uint32_t i, int *fence)
{
	uint32_t args[] = { TEMPO_ARG_VA(e->data.va), 0, 65536 };
	struct tempo_batch b;

	if (*fence >= 0 && !tempo_fence_status(*fence))
		return 0;
	if (*fence >= 0)
		close(*fence);
	if (tempo_ctx_create(e->fd, 0, NULL, 0, &e->ctx))
		return 12;
	tempo_batch_init(&b, &e->cmd, 1024 * i, 256);
	if (e->engines->engines[i].engine_class ==
	    DRM_TEMPO_ENGINE_CLASS_COMPUTE)
		tempo_pkt_dispatch(&b, DRM_TEMPO_KERNEL_FILL,
				   e->dev.num_cus * 4, 1, 1, args, 4);
	else
		tempo_pkt_nop(&b, 8);
	tempo_pkt_batch_start(&b, b.va, DRM_TEMPO_BATCH_CHAIN);
	return tempo_exec(e->fd, e->ctx, i, b.va, NULL, 0, NULL, 0, fence) ?
	       13 : 0;
}

/*
 * Flip the priority of context @ctx between LOW and NORMAL for @ms: each
 * change reprograms the HQDs that hold the file's jobs.
 */
static int flip_priority(struct tempo_env *e, uint32_t ctx, unsigned int ms)
{
	uint64_t end_ns = tempo_now_ns() + ms * 1000000ull;
	bool low = true;

	while (tempo_now_ns() < end_ns) {
		if (tempo_ctx_set_priority(e->fd, ctx, low ?
					   DRM_TEMPO_PRIORITY_LOW :
					   DRM_TEMPO_PRIORITY_NORMAL))
			return 14;
		low = !low;
	}
	return 0;
}

/*
 * Keep every engine busy until @end_ns, as the unprivileged user. With
 * @flip, flip the priority of its last context all the while instead of
 * sleeping between two checks of its jobs.
 */
static void saturate(const struct unpriv *u, uint64_t end_ns, bool flip)
{
	struct tempo_env e;
	int fences[16];
	uint32_t n;

	if (unpriv_become(u) || tempo_env_open(&e, 16 << 20))
		_exit(10);
	n = e.engines->num_engines < 16 ? e.engines->num_engines : 16;
	for (uint32_t i = 0; i < n; i++)
		fences[i] = -1;
	while (tempo_now_ns() < end_ns) {
		int ret = 0;

		for (uint32_t i = 0; i < n && !ret; i++)
			ret = saturate_engine(&e, i, &fences[i]);
		if (!ret && flip)
			ret = flip_priority(&e, e.ctx, 20);
		else if (!ret)
			tempo_sleep_ms(20);
		if (ret)
			_exit(ret);
	}
	/*
	 * The endless jobs end at the job timeout, counted in the GPU's
	 * time: on a busy host that is longer than the timeout on the
	 * host's clock. Leave no job to the tests after this one.
	 */
	for (uint32_t i = 0; i < n; i++)
		if (fences[i] >= 0 && tempo_fence_wait(fences[i], 120000) == 0)
			_exit(14);
	_exit(0);
}

/*
 * The emulated GPU runs in kernel threads outside the user's cgroup: they
 * must not take the host from other users. Three rounds of a bystander
 * alone then beside the saturating user (@flip: who also flips a
 * context's priority without pause); medians compared.
 */
static void bystander_beside(struct __test_metadata *_metadata, bool flip)
{
	const unsigned int ms = 1500;
	uint64_t solo[3], loaded[3], alone, beside;
	struct unpriv u;

	if (!unpriv_lookup(&u))
		SKIP(return, "needs root and an unprivileged user");
	for (int round = 0; round < 3; round++) {
		int status;
		pid_t pid;

		solo[round] = bystander_run(ms);
		pid = fork();
		ASSERT_LE(0, pid);
		if (!pid)
			saturate(&u, tempo_now_ns() + (ms + 1500) * 1000000ull,
				 flip);
		tempo_sleep_ms(700);
		loaded[round] = bystander_run(ms);
		/* Its loops run on until the job timeout stops them. */
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		ASSERT_TRUE(WIFEXITED(status));
		ASSERT_EQ(0, WEXITSTATUS(status));
	}
	alone = tempo_median_u64(solo, 3);
	beside = tempo_median_u64(loaded, 3);
	TH_LOG("bystander's CPU share, median of 3: %.3f alone, %.3f beside the saturated GPU%s (%.2f)",
	       alone / 1000.0, beside / 1000.0,
	       flip ? " and the priority flips" : "",
	       (double)beside / alone);
	ASSERT_LE(alone, 2 * beside);
}

TEST_F_TIMEOUT(guilt, bystander_keeps_half_its_cpu_beside_a_saturated_gpu, 600)
{
	bystander_beside(_metadata, false);
}

/*
 * A change of priority reprograms every HQD that holds jobs, with
 * interrupts off for each: a user who changes priorities without pause
 * must not take more of the host than one busy process.
 */
TEST_F_TIMEOUT(guilt, bystander_keeps_half_its_cpu_beside_priority_flips, 600)
{
	bystander_beside(_metadata, true);
}

/*
 * A compute unit runs a workgroup of a queue of the high pipe priority at
 * the command processors' CPU priority (hw_nice), which only privileged
 * priorities reach: the saturating user, flipping its context between LOW
 * and NORMAL, leaves every CU thread at the CUs' own level all the while.
 */
TEST_F_TIMEOUT(guilt, a_saturating_user_leaves_the_cus_at_their_cpu_priority, 120)
{
	long long cp_nice = tempo_module_param("hw_nice");
	int cu_nice = cp_nice + 9 < 19 ? cp_nice + 9 : 19;
	int pids[64], n, status, readings = 0, raised = 0;
	struct unpriv u;
	uint64_t end;
	pid_t pid;

	if (!unpriv_lookup(&u))
		SKIP(return, "needs root and an unprivileged user");
	if (cp_nice < -20 || cp_nice >= cu_nice)
		SKIP(return, "needs hw_nice below 19");
	n = tempo_threads("tempo-cu", -1, pids, 64);
	ASSERT_LT(0, n);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		saturate(&u, tempo_now_ns() + 2500 * 1000000ull, true);
	tempo_sleep_ms(300);
	end = tempo_now_ns() + 1500 * 1000000ull;
	while (tempo_now_ns() < end) {
		for (int c = 0; c < n; c++) {
			int nice = tempo_thread_nice(pids[c]);

			ASSERT_NE(INT_MIN, nice);
			raised += nice != cu_nice;
		}
		readings++;
		tempo_sleep_ms(5);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	/* Its loops run on until the job timeout stops them. */
	tempo_sleep_ms(self->timeout_ms + 500);
	TH_LOG("%d readings of %d CU threads: %d not at nice %d", readings, n,
	       raised, cu_nice);
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	ASSERT_LT(10, readings);
	ASSERT_EQ(0, raised);
}

/* ------------------------------------------------------------------------ */
/* Privilege and limits of the smaller kind */

/*
 * Nobody holds DRM master on a device without a display, so the first
 * opener of the card node gets it (on a desktop, the seat's user may open
 * it). The node is opened before dropping privileges: the checks are made
 * against the caller of each ioctl.
 */
typedef int (*master_fn)(int card_fd);

/*
 * Run @fn in a child that opened the card node first, then became the
 * unprivileged user, when the module parameter master_priority is @param.
 * @fn returns 0 when all went as expected, else which step did not.
 */
static void as_master(struct __test_metadata *_metadata, int param,
		      master_fn fn)
{
	char card[32];
	struct unpriv u;
	int status, fd;
	pid_t pid;

	if (!unpriv_lookup(&u))
		SKIP(return, "needs root and an unprivileged user");
	if (tempo_device_card_path(card, sizeof(card)))
		SKIP(return, "no card node of the tempo device");
	if (tempo_module_param("master_priority") != param)
		SKIP(return, "needs the module parameter master_priority=%d",
		     param);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		fd = open(card, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			_exit(10);
		if (unpriv_become(&u))
			_exit(11);
		if (ioctl(fd, DRM_IOCTL_SET_MASTER, 0))
			_exit(12);	/* first opener: already master */
		_exit(fn(fd));
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
}

/*
 * The unprivileged client of the inheritance test: a NORMAL job on the
 * first compute engine that marks that it started, then waits for the
 * gate; its sync_file goes to the parent, which says when to open the
 * gate. 0, or where it failed.
 */
static int waited_for_client(int sock, void *arg)
{
	const struct unpriv *u = arg;
	struct tempo_env e;
	int fence, slot;
	char byte;

	if (unpriv_become(u) || tempo_env_open(&e, 1 << 20))
		return 10;
	slot = tempo_default_slot(e.engines, DRM_TEMPO_ENGINE_CLASS_COMPUTE, 0);
	if (slot < 0)
		return 11;
	*tempo_u64(&e.data, MARK) = 0;
	if (tempo_exec_flags(e.fd, e.ctx, slot,
			     tempo_started_gated_batch(&e, 0, MARK), NULL, 0,
			     &fence))
		return 12;
	while (!*tempo_u64(&e.data, MARK))
		tempo_sleep_ms(1);
	if (tempo_send_fds(sock, &fence, 1))
		return 13;
	if (read(sock, &byte, 1) != 1)
		return 14;
	tempo_gate_set(&e, 1);
	return tempo_fence_wait(fence, TEMPO_WAIT_MS) == 1 ? 0 : 15;
}

/*
 * A HIGH job of @high on @slot that writes @value at MARK + 8, from the
 * command buffer's @offset: how long it took from exec to its end, in ns.
 */
static uint64_t probe_ns(struct __test_metadata *_metadata,
			 struct tempo_env *e, uint32_t high, uint32_t slot,
			 uint32_t offset, uint32_t value)
{
	uint64_t start = tempo_now_ns();
	int probe;

	EXPECT_EQ(0, tempo_exec_flags(e->fd, high, slot,
				      tempo_mark_batch(e, offset, MARK + 8,
						       value),
				      NULL, 0, &probe));
	EXPECT_EQ(1, tempo_fence_wait(probe, TEMPO_WAIT_MS));
	close(probe);
	return tempo_now_ns() - start;
}

/*
 * The compositor's inversion turned into an attack: root's VERY_HIGH
 * context waits for the fence of an unprivileged client's job that never
 * ends on its own, first without asking for inheritance, then with
 * DRM_TEMPO_EXEC_INHERIT_PRIORITY. The client's job is lent nothing, then
 * no more than its own file may use, NORMAL: no HQD runs at VERY_HIGH's
 * programming (pipe 2, queue 15) beyond the high HQDs' own at load, and a
 * HIGH job of root on the same engine runs at once each time, before the
 * starvation bound would let it through, while the client's job runs on.
 */
TEST_F_TIMEOUT(device, a_privileged_waiter_lends_an_unprivileged_job_at_most_normal, 60)
{
	uint64_t starve_ns = tempo_module_param("starve_ms") * 1000000ull;
	struct drm_tempo_sync sync = { 0 };
	uint32_t very_high, high, flags;
	int sock, client, waiter[2], status, slot;
	unsigned int at_load;
	struct tempo_env e;
	struct unpriv u;
	uint64_t took;
	pid_t pid;

	if (!unpriv_lookup(&u))
		SKIP(return, "needs root and an unprivileged user");
	tempo_env_init(_metadata, &e, tempo_device_open());
	TEMPO_NEED_BLOCKING(&e);
	slot = tempo_default_slot(e.engines, DRM_TEMPO_ENGINE_CLASS_COMPUTE, 0);
	ASSERT_LE(0, slot);
	ASSERT_EQ(0, tempo_ctx_create(e.fd, DRM_TEMPO_PRIORITY_VERY_HIGH, NULL,
				      0, &very_high));
	ASSERT_EQ(0, tempo_ctx_create(e.fd, DRM_TEMPO_PRIORITY_HIGH, NULL, 0,
				      &high));
	at_load = tempo_hqds_at(_metadata, e.fd, 2, 15);
	sock = tempo_fork_child(waited_for_client, &u, &pid);
	ASSERT_LE(0, sock);
	ASSERT_EQ(0, tempo_recv_fds(sock, &client, 1));
	ASSERT_EQ(0, drmSyncobjCreate(e.fd, 0, &sync.handle));
	ASSERT_EQ(0, drmSyncobjImportSyncFile(e.fd, sync.handle, client));
	for (int i = 0; i < 2; i++) {
		flags = i ? DRM_TEMPO_EXEC_INHERIT_PRIORITY : 0;
		ASSERT_EQ(0, tempo_exec_flags(e.fd, very_high, slot,
					      tempo_mark_batch(&e, 256 * i,
							       MARK, i + 1),
					      &sync, flags, &waiter[i]));
		ASSERT_EQ(at_load, tempo_hqds_at(_metadata, e.fd, 2, 15));
		took = probe_ns(_metadata, &e, high, slot, 512 + 256 * i,
				i + 1);
		TH_LOG("%s: a HIGH job beside the client's took %.1f ms",
		       flags ? "inheritance asked" : "not asked", took / 1e6);
		ASSERT_GT(starve_ns, took);
		ASSERT_EQ(0, tempo_fence_wait(client, 0));
	}

	ASSERT_EQ(1, write(sock, "", 1));
	tempo_fence_expect(_metadata, client, 1, TEMPO_WAIT_MS);
	tempo_fence_expect(_metadata, waiter[0], 1, TEMPO_WAIT_MS);
	tempo_fence_expect(_metadata, waiter[1], 1, TEMPO_WAIT_MS);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	close(sock);
	drmSyncobjDestroy(e.fd, sync.handle);
	tempo_env_fini(&e);
}

/* Master grants neither a priority above normal nor SCHED. */
static int master_gets_nothing(int fd)
{
	struct drm_tempo_query_device dev;
	struct drm_tempo_sched s = {
		.op = DRM_TEMPO_SCHED_FILE_PRIORITY_OVERRIDE,
		.priority = DRM_TEMPO_PRIORITY_LOW,
		.fd = fd,
	};
	uint32_t ctx;

	if (tempo_query_device(fd, &dev) ||
	    dev.max_priority != DRM_TEMPO_PRIORITY_NORMAL)
		return 13;
	if (tempo_ctx_create(fd, DRM_TEMPO_PRIORITY_HIGH, NULL, 0,
			     &ctx) != -EACCES)
		return 14;
	if (tempo_ioctl(fd, DRM_IOCTL_TEMPO_SCHED, &s) != -EACCES)
		return 15;
	return 0;
}

TEST_F(device, master_of_the_card_node_grants_no_priority)
{
	as_master(_metadata, 0, master_gets_nothing);
}

/*
 * With master_priority=1 (a display server drives the device), master
 * grants what CAP_SYS_NICE does, and only while it is held: the same
 * process's file of the render node has nothing, nor has the card node's
 * file once it dropped master.
 */
static int master_raises_priority(int fd)
{
	struct drm_tempo_query_device dev;
	struct drm_tempo_sched s = {
		.op = DRM_TEMPO_SCHED_FILE_PRIORITY_OVERRIDE,
		.priority = DRM_TEMPO_PRIORITY_LOW,
	};
	int render = tempo_device_open();
	uint32_t ctx;

	if (render < 0)
		return 13;
	if (tempo_query_device(fd, &dev) ||
	    dev.max_priority != DRM_TEMPO_PRIORITY_VERY_HIGH)
		return 14;
	if (tempo_ctx_create(fd, DRM_TEMPO_PRIORITY_HIGH, NULL, 0, &ctx))
		return 15;
	s.fd = render;
	if (tempo_ioctl(fd, DRM_IOCTL_TEMPO_SCHED, &s))
		return 16;
	if (tempo_ctx_create(render, DRM_TEMPO_PRIORITY_HIGH, NULL, 0,
			     &ctx) != -EACCES)
		return 17;
	if (ioctl(fd, DRM_IOCTL_DROP_MASTER, 0))
		return 18;
	if (tempo_ctx_create(fd, DRM_TEMPO_PRIORITY_HIGH, NULL, 0,
			     &ctx) != -EACCES)
		return 19;
	if (tempo_ioctl(fd, DRM_IOCTL_TEMPO_SCHED, &s) != -EACCES)
		return 20;
	return 0;
}

TEST_F(device, master_of_the_card_node_raises_priority_with_master_priority)
{
	as_master(_metadata, 1, master_raises_priority);
}

TEST_F(device, dumb_buffer_over_the_size_cap_fails_einval)
{
	struct drm_mode_create_dumb big = {
		.width = 16384, .height = 16385, .bpp = 32,
	};
	struct drm_mode_create_dumb small = {
		.width = 64, .height = 64, .bpp = 32,
	};
	struct drm_mode_destroy_dumb d = { 0 };
	char card[32];
	int fd;

	if (tempo_device_card_path(card, sizeof(card)))
		SKIP(return, "no card node of the tempo device");
	fd = open(card, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(-EINVAL, tempo_ioctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &big));
	ASSERT_EQ(0, tempo_ioctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &small));
	d.handle = small.handle;
	ASSERT_EQ(0, tempo_ioctl(fd, DRM_IOCTL_MODE_DESTROY_DUMB, &d));
	close(fd);
}

/* 769546 * 494770 * 48448661 is 2^64 + 4: not 4 workgroups. */
TEST_F(device, dispatch_whose_group_count_wraps_is_illegal)
{
	struct tempo_env e;
	uint32_t args[4];
	struct tempo_batch b;

	TEMPO_ENV_SETUP(&e);
	args[0] = (uint32_t)(e.data.va + MARK);
	args[1] = (uint32_t)((e.data.va + MARK) >> 32);
	args[2] = 7;
	args[3] = 4;
	tempo_batch_init(&b, &e.cmd, 0, 64);
	tempo_pkt_dispatch(&b, DRM_TEMPO_KERNEL_FILL, 769546, 494770, 48448661,
			   args, 4);
	tempo_pkt_end(&b);
	ASSERT_EQ(-EILSEQ,
		  tempo_run(_metadata, e.fd, e.ctx,
			    tempo_default_slot(e.engines,
					       DRM_TEMPO_ENGINE_CLASS_COMPUTE, 0),
			    b.va));
	ASSERT_EQ(0u, *tempo_u32(&e.data, MARK));
	tempo_env_fini(&e);
}

/* HQDs of queue priority 15 the file @fd is shown, or -1. */
static int raised_hqds(int fd)
{
	struct drm_tempo_query_hqds *q;
	int n = 0;

	q = fd < 0 ? NULL : tempo_query_alloc(fd, DRM_TEMPO_QUERY_HQDS, NULL);
	if (!q)
		return -1;
	for (uint32_t i = 0; i < q->num_hqds; i++)
		n += q->hqds[i].queue_priority == 15;
	free(q);
	return n;
}

/*
 * With the dynamic HQD policy an HQD's live priority follows the jobs of
 * whoever uses it: an unprivileged caller sees the programming made at
 * load, a privileged one the live priority.
 */
TEST_F(device, query_hqds_shows_live_priorities_to_privileged_callers_only)
{
	struct tempo_env e;
	struct unpriv u;
	uint32_t high;
	int fence, status;
	int64_t deadline;
	pid_t pid;

	if (tempo_module_param("hqd_policy") != 1)
		SKIP(return, "needs the dynamic HQD policy (hqd_policy=1)");
	if (!unpriv_lookup(&u) || !tempo_has_cap_sys_nice())
		SKIP(return, "needs root and an unprivileged user");
	TEMPO_ENV_SETUP(&e);
	ASSERT_EQ(0, tempo_ctx_create(e.fd, DRM_TEMPO_PRIORITY_VERY_HIGH, NULL,
				      0, &high));
	fence = tempo_submit(_metadata, e.fd, high,
			     tempo_default_slot(e.engines,
						DRM_TEMPO_ENGINE_CLASS_COMPUTE, 0),
			     tempo_gated_batch(&e, 0, TEMPO_NO_MARK, 0));
	/* The job reaches an HQD when drm_sched runs it: maybe later. */
	deadline = tempo_deadline_ns(TEMPO_WAIT_MS);
	while (raised_hqds(e.fd) == 0 && (int64_t)tempo_now_ns() < deadline)
		tempo_sleep_ms(1);
	ASSERT_LT(0, raised_hqds(e.fd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		if (unpriv_become(&u))
			_exit(10);
		status = raised_hqds(tempo_device_open());
		_exit(status < 0 ? 11 : status ? 12 : 0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	tempo_gate_set(&e, 1);
	tempo_fence_expect(_metadata, fence, 1, TEMPO_WAIT_MS);
	tempo_env_fini(&e);
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
}

TEST_HARNESS_MAIN
