// SPDX-License-Identifier: GPL-2.0-only
/*
 * Buffer budgets: what one user's buffers may take of what every user of
 * the device shares (struct drm_tempo_query_buffer_limits).
 *
 * - creation: one user filling its budget of buffers, by count or by
 *   bytes, from many files, stops at the documented limits with -ENOSPC,
 *   and another user still creates, maps (CPU and GPU) and runs a job;
 * - resident buffers: one user whose buffers mapped on the GPU, or on
 *   the CPU, reach its share of the device's ceiling gets -ENOMEM, and
 *   another user still allocates and runs; every user's buffers together
 *   stop at the device's ceiling; a buffer counts once however many
 *   mappings (forked ones included) it had, until it is freed; fdinfo
 *   shows what each file holds.
 *
 * The users are two uids no account uses, with the group 'render' for
 * the device node; the tests need root to become them and to lower the
 * resident ceilings (module parameters writable at run time) for their
 * duration, and skip otherwise.
 */
#include <grp.h>
#include <sys/wait.h>

#include "tempo_test.h"

#define FILLER_UID	61000
#define OTHER_UID	61001
#define THIRD_UID	61002
#define MAX_FILES	64
#define MIB		(1ull << 20)
#define GIB		(1ull << 30)

/* Become @uid, in the group 'render' when there is one: 0 or -errno. */
static int become(uid_t uid)
{
	struct group *gr = getgrnam("render");
	gid_t render = gr ? gr->gr_gid : 0;

	if (setgroups(gr ? 1 : 0, &render) || setgid(uid) || setuid(uid))
		return -errno;
	return 0;
}

static int buffer_limits(int fd, struct drm_tempo_query_buffer_limits *l)
{
	return tempo_query_copy(fd, DRM_TEMPO_QUERY_BUFFER_LIMITS, l,
				sizeof(*l));
}

/* ------------------------------------------------------------------------ */
/* The filler: one user taking all it can */

struct fill_args {
	uid_t uid;
	uint64_t size;		/* of each buffer */
	bool map;		/* map each buffer on the GPU too */
	bool cpu;		/* map each buffer on the CPU, then unmap it */
	bool shrink;		/* on -ENOSPC, go on with buffers half as large */
	uint32_t max;		/* buffers to try at most */
};

struct fill_result {
	int ret;		/* 0, or where the child failed */
	int files;		/* files it opened */
	uint32_t first_file;	/* buffers the first file made */
	uint32_t total;		/* buffers all files made */
	int err;		/* errno of the failure that stopped it, or 0 */
	int64_t fdinfo_bos;	/* tempo-buffers of the first file */
	int64_t fdinfo_resident; /* tempo-resident-memory of the first file */
};

/* The value of @key in the fdinfo of @fd, units applied; -1 if absent. */
static int64_t fdinfo_get(int fd, const char *key)
{
	FILE *f = tempo_fopen("re", "/proc/self/fdinfo/%d", fd);
	int64_t value = -1;
	char line[256];

	while (f && fgets(line, sizeof(line), f)) {
		size_t n = strlen(key);
		unsigned long long v;
		char unit[16] = "";

		if (strncmp(line, key, n) || line[n] != ':')
			continue;
		if (sscanf(line + n + 1, "%llu %15s", &v, unit) >= 1)
			value = (int64_t)v << (!strcmp(unit, "KiB") ? 10 :
					       !strcmp(unit, "MiB") ? 20 : 0);
		break;
	}
	if (f)
		fclose(f);
	return value;
}

/*
 * One buffer, mapped on the GPU or the CPU when asked: 0 or -errno. With
 * @a->shrink, smaller and smaller ones down to a page in place of one
 * that fails with -ENOSPC, so that the buffers fill whatever room is left.
 */
static int fill_one(int fd, const struct fill_args *a)
{
	uint64_t size = a->size, va = 0;
	uint32_t handle;
	int ret;

	while ((ret = tempo_bo_create(fd, size, &handle)) == -ENOSPC &&
	       a->shrink && size > 4096)
		size /= 2;
	if (!ret && a->map)
		ret = tempo_vm_map(fd, handle, DRM_TEMPO_VM_MAP_AUTO_VA, &va, 0,
				   size);
	if (!ret && a->cpu) {
		void *p = tempo_bo_mmap(fd, handle, size);

		/* Its pages stay, in the buffer's shmem file. */
		if (!p || munmap(p, size))
			ret = -errno;
	}
	return ret;
}

/* Buffers from file after file until a new file can make none. */
static void fill(const struct fill_args *a, int *fds, struct fill_result *r)
{
	while (r->files < MAX_FILES && r->total < a->max) {
		uint32_t made = 0;
		int ret = 0;

		fds[r->files] = tempo_device_open();
		if (fds[r->files] < 0) {
			r->ret = 2;
			return;
		}
		while (r->total < a->max) {
			ret = fill_one(fds[r->files], a);
			if (ret)
				break;
			made++;
			r->total++;
		}
		if (!r->files++)
			r->first_file = made;
		r->err = -ret;
		if (!made)
			return;
	}
}

/*
 * As @arg's user: fill, report a struct fill_result on @sock, and keep
 * every file open until the parent writes a byte.
 */
static int filler_main(int sock, void *arg)
{
	const struct fill_args *a = arg;
	struct fill_result r = { 0 };
	int fds[MAX_FILES];
	char byte;

	if (become(a->uid))
		r.ret = 1;
	else
		fill(a, fds, &r);
	if (r.files) {
		r.fdinfo_bos = fdinfo_get(fds[0], "tempo-buffers");
		r.fdinfo_resident = fdinfo_get(fds[0], "tempo-resident-memory");
	}
	if (write(sock, &r, sizeof(r)) != sizeof(r))
		return 3;
	return read(sock, &byte, 1) == 1 ? 0 : 4;
}

struct filler {
	pid_t pid;
	int sock;
	struct fill_result r;
};

/* Start a filler and wait for its report. */
static void filler_start(struct __test_metadata *_metadata, struct filler *f,
			 struct fill_args *a)
{
	f->sock = tempo_fork_child(filler_main, a, &f->pid);
	ASSERT_LE(0, f->sock);
	ASSERT_EQ((ssize_t)sizeof(f->r), read(f->sock, &f->r, sizeof(f->r)));
	ASSERT_EQ(0, f->r.ret);
}

/* Let a filler close its files and exit. */
static void filler_stop(struct __test_metadata *_metadata, struct filler *f)
{
	int status;

	ASSERT_EQ(1, write(f->sock, "x", 1));
	close(f->sock);
	ASSERT_EQ(f->pid, waitpid(f->pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
}

/* ------------------------------------------------------------------------ */
/* The other user: creates, maps and runs */

/* Exit status: 0 when a job of a fresh file of @arg's user ran. */
static int other_main(int sock __attribute__((unused)), void *arg)
{
	const uid_t *uid = arg;
	struct tempo_env e;
	uint64_t va;
	int fence, ret;

	if (become(*uid))
		return 1;
	/* Creates a context and two buffers, maps them (CPU and GPU). */
	ret = tempo_env_open(&e, TEMPO_DATA_SIZE);
	if (ret)
		return ret == -ENOSPC ? 2 : ret == -ENOMEM ? 3 : 4;
	va = tempo_mark_batch(&e, 0, 64, 0x600d);
	if (tempo_exec(e.fd, e.ctx, 0, va, NULL, 0, NULL, 0, &fence))
		return 5;
	if (tempo_fence_wait(fence, TEMPO_WAIT_MS) != 1)
		return 6;
	if (*tempo_u32(&e.data, 64) != 0x600d)
		return 7;
	tempo_env_fini(&e);
	return 0;
}

/* Run other_main() as @uid: its exit status. */
static int other_run(uid_t uid)
{
	int status, sock;
	pid_t pid;

	sock = tempo_fork_child(other_main, &uid, &pid);
	if (sock < 0)
		return -1;
	close(sock);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* ------------------------------------------------------------------------ */
/* Budgets of buffers */

/*
 * A filler as FILLER_UID up to its limit, while another user creates,
 * maps and runs a job; then the filler's report.
 */
static void fill_beside_another_user(struct __test_metadata *_metadata,
				     struct filler *f, struct fill_args *a)
{
	filler_start(_metadata, f, a);
	ASSERT_EQ(0, other_run(OTHER_UID));
	filler_stop(_metadata, f);
}

FIXTURE(budget) {
	int fd;
	struct drm_tempo_query_buffer_limits l;
	int query;		/* what the query of the limits returned */
	long long resident;	/* the module parameters as they were */
	long long user_resident;
};

FIXTURE_SETUP(budget)
{
	if (geteuid())
		SKIP(return, "needs root to become other users");
	TEMPO_OPEN_SETUP(self->fd);
	self->query = buffer_limits(self->fd, &self->l);
	self->resident = tempo_module_param("max_resident_mib");
	self->user_resident = tempo_module_param("user_resident_mib");
}

FIXTURE_TEARDOWN(budget)
{
	char value[32];

	if (self->resident >= 0) {
		snprintf(value, sizeof(value), "%lld", self->resident);
		tempo_set_module_param("max_resident_mib", value);
	}
	if (self->user_resident >= 0) {
		snprintf(value, sizeof(value), "%lld", self->user_resident);
		tempo_set_module_param("user_resident_mib", value);
	}
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(budget, buffer_limits_are_the_module_parameters)
{
	ASSERT_EQ(0, self->query);
	ASSERT_EQ(tempo_module_param("max_bos"), (long long)self->l.max_bos);
	ASSERT_EQ(tempo_module_param("user_max_bos"),
		  (long long)self->l.user_max_bos);
	ASSERT_EQ(tempo_module_param("max_bo_mib") * MIB,
		  (unsigned long long)self->l.max_bo_bytes);
	ASSERT_EQ(tempo_module_param("user_max_bo_mib") * MIB,
		  (unsigned long long)self->l.user_max_bo_bytes);
	ASSERT_EQ(GIB, self->l.max_bo_size);
	/* The defaults: half of the RAM, half of that for each user. */
	if (!self->resident && !self->user_resident)
		ASSERT_EQ(self->l.max_resident_bytes / 2,
			  self->l.user_max_resident_bytes);
	ASSERT_LE(self->l.user_max_resident_bytes, self->l.max_resident_bytes);
}

/*
 * Buffers of the largest size from file after file, then smaller ones in
 * the room left: before the budgets, about 1,000 of them took the
 * device's whole mmap offset range and every other user's BO_CREATE
 * failed with -ENOSPC.
 */
TEST_F(budget, user_at_its_byte_budget_leaves_another_user_to_run)
{
	struct fill_args a = { .uid = FILLER_UID, .size = GIB, .shrink = true,
			       .max = 4096 };
	struct filler f;

	fill_beside_another_user(_metadata, &f, &a);

	ASSERT_EQ(ENOSPC, f.r.err);
	ASSERT_EQ(0, self->query);
	ASSERT_EQ(self->l.max_bo_bytes / GIB, f.r.first_file);
	ASSERT_EQ(self->l.user_max_bo_bytes / GIB, f.r.total);
	ASSERT_EQ((int64_t)f.r.first_file, f.r.fdinfo_bos);
}

/*
 * The counts lowered for the test (root may change them at run time):
 * the defaults mean 16,385 creations, minutes on the debug kernel.
 */
TEST_F(budget, user_at_its_buffer_count_leaves_another_user_to_run)
{
	struct fill_args a = { .uid = FILLER_UID, .size = 4096, .max = 65536 };
	long long file_max = tempo_module_param("max_bos");
	long long user_max = tempo_module_param("user_max_bos");
	bool set = tempo_set_module_param("max_bos", "64") &&
		   tempo_set_module_param("user_max_bos", "256");
	struct drm_tempo_query_buffer_limits l;
	struct filler f;
	char value[32];

	fill_beside_another_user(_metadata, &f, &a);
	ASSERT_EQ(0, buffer_limits(self->fd, &l));
	snprintf(value, sizeof(value), "%lld", file_max);
	tempo_set_module_param("max_bos", value);
	snprintf(value, sizeof(value), "%lld", user_max);
	tempo_set_module_param("user_max_bos", value);

	ASSERT_TRUE(set);
	ASSERT_EQ(64u, l.max_bos);
	ASSERT_EQ(256u, l.user_max_bos);
	ASSERT_EQ(ENOSPC, f.r.err);
	ASSERT_EQ(64u, f.r.first_file);
	ASSERT_EQ(256u, f.r.total);
	/* Out of range: refused, the value kept. */
	ASSERT_FALSE(tempo_set_module_param("max_bos", "0"));
	ASSERT_EQ(file_max, tempo_module_param("max_bos"));
}

/* Set the resident ceilings for the test, in MiB. */
static bool set_resident(unsigned int device, unsigned int user)
{
	char value[32];

	snprintf(value, sizeof(value), "%u", device);
	if (!tempo_set_module_param("max_resident_mib", value))
		return false;
	snprintf(value, sizeof(value), "%u", user);
	return tempo_set_module_param("user_resident_mib", value);
}

/*
 * 1 MiB buffers mapped on the GPU until refused: before the ceiling,
 * nothing refused them until the memory ran out and the OOM killer shot
 * processes that held none of it.
 */
TEST_F(budget, user_at_its_resident_share_leaves_another_user_to_run)
{
	struct fill_args a = { .uid = FILLER_UID, .size = MIB, .map = true,
			       .max = 64 };
	struct drm_tempo_query_buffer_limits l;
	bool set = set_resident(48, 16);
	struct filler f;

	fill_beside_another_user(_metadata, &f, &a);

	ASSERT_EQ(ENOMEM, f.r.err);
	ASSERT_EQ(16u, f.r.total);
	ASSERT_TRUE(set);
	ASSERT_EQ(0, buffer_limits(self->fd, &l));
	ASSERT_EQ(48 * MIB, l.max_resident_bytes);
	ASSERT_EQ(16 * MIB, l.user_max_resident_bytes);
	/* The buffer that could not be mapped is still the file's. */
	ASSERT_EQ(17, f.r.fdinfo_bos);
	ASSERT_EQ((int64_t)(16 * MIB), f.r.fdinfo_resident);
}

/*
 * The same with CPU mappings, each unmapped at once: the shmem helpers
 * allocate every page at the mmap() and the pages stay after it, so the
 * buffers count until freed, as they did not when only mapped buffers
 * counted.
 */
TEST_F(budget, user_at_its_resident_share_by_mmap_leaves_another_user_to_run)
{
	struct fill_args a = { .uid = FILLER_UID, .size = MIB, .cpu = true,
			       .max = 64 };
	bool set = set_resident(48, 16);
	struct filler f;

	fill_beside_another_user(_metadata, &f, &a);

	ASSERT_EQ(ENOMEM, f.r.err);
	ASSERT_EQ(16u, f.r.total);
	ASSERT_EQ((int64_t)(16 * MIB), f.r.fdinfo_resident);
	ASSERT_TRUE(set);
}

/*
 * Exit status 0 when a 4 MiB buffer counts as resident, once, from its
 * first mapping until it is freed, through a second mapping, a GPU
 * mapping, a fork and the end of all its mappings.
 */
static int mappings_main(int sock __attribute__((unused)), void *arg)
{
	const uid_t *uid = arg;
	uint64_t va = 0, size = 4 * MIB;
	uint32_t handle;
	void *p, *q;
	int fd, status;
	pid_t pid;

	if (become(*uid))
		return 1;
	fd = tempo_device_open();
	if (fd < 0 || tempo_bo_create(fd, size, &handle))
		return 2;
	p = tempo_bo_mmap(fd, handle, size);
	if (!p || fdinfo_get(fd, "tempo-resident-memory") != (int64_t)size)
		return 3;
	q = tempo_bo_mmap(fd, handle, size);
	if (!q || tempo_vm_map(fd, handle, DRM_TEMPO_VM_MAP_AUTO_VA, &va, 0,
			       size))
		return 4;
	pid = fork();
	if (!pid)
		_exit(0);
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 5;
	if (munmap(p, size) || tempo_vm_unmap(fd, va, size) || munmap(q, size) ||
	    fdinfo_get(fd, "tempo-resident-memory") != (int64_t)size)
		return 6;
	if (tempo_gem_close(fd, handle) ||
	    fdinfo_get(fd, "tempo-resident-memory"))
		return 7;
	return 0;
}

TEST_F(budget, a_buffer_counts_as_resident_once_until_it_is_freed)
{
	uid_t uid = FILLER_UID;
	int status, sock;
	pid_t pid;

	sock = tempo_fork_child(mappings_main, &uid, &pid);
	ASSERT_LE(0, sock);
	close(sock);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
}

TEST_F(budget, resident_buffers_of_all_users_stop_at_the_device_ceiling)
{
	struct fill_args a = { .uid = FILLER_UID, .size = MIB, .map = true,
			       .max = 64 };
	struct fill_args b = { .uid = THIRD_UID, .size = MIB, .map = true,
			       .max = 64 };
	bool set = set_resident(24, 16);
	struct filler f, g;

	filler_start(_metadata, &f, &a);
	filler_start(_metadata, &g, &b);
	filler_stop(_metadata, &g);
	filler_stop(_metadata, &f);

	ASSERT_EQ(16u, f.r.total);
	ASSERT_EQ(ENOMEM, g.r.err);
	ASSERT_EQ(8u, g.r.total);
	ASSERT_TRUE(set);
}

TEST_HARNESS_MAIN
