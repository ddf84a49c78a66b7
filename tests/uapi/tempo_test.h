/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the tempo uAPI tests share beyond tools/lib/tempo-uapi (device,
 * ioctls, buffers, packets, fences): the kselftest harness, the fixtures'
 * set-up, the environment most tests run in (a context and two buffers)
 * and the checks only tests make.
 *
 * Helpers that take a struct __test_metadata pointer may ASSERT_*(); the
 * others return 0 or a negative errno and leave the verdict to the test.
 */
#ifndef TEMPO_TEST_H
#define TEMPO_TEST_H

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>

#include <linux/capability.h>
#include <xf86drm.h>

#include "tempo_uapi.h"

/* The harness itself is not -Wextra clean (unused parameters). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"
#pragma GCC diagnostic pop
/*
 * TEST_F() expands to a setjmp() in the test file; -Wextra then warns that
 * the harness's own locals might be clobbered, which they are not.
 */
#ifndef __clang__
#pragma GCC diagnostic ignored "-Wclobbered"
#endif

/* Longest a test waits for a job that is expected to complete. */
#define TEMPO_WAIT_MS		5000
/* How long a job that must stay blocked is watched before going on. */
#define TEMPO_BLOCKED_MS	100

#define TEMPO_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define TEMPO_PTR(p)		((uint64_t)(uintptr_t)(p))

#define TEMPO_NO_DEVICE	"no usable tempo render node: %s"

/* ------------------------------------------------------------------------ */
/* Fixtures */

/* In FIXTURE_SETUP(): open the device into @fd, or SKIP without one. */
#define TEMPO_OPEN_SETUP(fd) do {					\
	(fd) = tempo_device_open();					\
	if ((fd) < 0)							\
		SKIP(return, TEMPO_NO_DEVICE, strerror(-(fd)));		\
} while (0)

/*
 * In FIXTURE_SETUP(): open the device and set up the environment @env on
 * it (struct tempo_env below), or SKIP without a device.
 */
#define TEMPO_ENV_SETUP(env) do {					\
	int tempo_fd_;							\
									\
	TEMPO_OPEN_SETUP(tempo_fd_);					\
	tempo_env_init(_metadata, (env), tempo_fd_);			\
} while (0)

/* A fixture of the environment alone: self->env, set up or SKIPped. */
#define TEMPO_ENV_FIXTURE(name)						\
	FIXTURE(name) {							\
		struct tempo_env env;					\
	};								\
	FIXTURE_SETUP(name)						\
	{								\
		TEMPO_ENV_SETUP(&self->env);				\
	}								\
	FIXTURE_TEARDOWN(name)						\
	{								\
		tempo_env_fini(&self->env);				\
	}

/* SKIP unless the caller holds CAP_SYS_NICE, or unless it does not. */
#define TEMPO_NEED_NICE() do {						\
	if (!tempo_has_cap_sys_nice())					\
		SKIP(return, "needs CAP_SYS_NICE (euid %u)", geteuid());	\
} while (0)

#define TEMPO_NEED_NOT_NICE() do {					\
	if (tempo_has_cap_sys_nice())					\
		SKIP(return, "needs a caller without CAP_SYS_NICE (euid %u)", \
		     geteuid());					\
} while (0)

/* SKIP when a job must stay blocked longer than the job timeout allows. */
#define TEMPO_NEED_BLOCKING(e) do {					\
	if (!tempo_env_can_block(e))					\
		SKIP(return, "job timeout %u ms is too short",		\
		     (e)->dev.job_timeout_ms);				\
} while (0)

/* SKIP when waiting for a hang takes more than @ms of job timeout. */
#define TEMPO_NEED_TIMEOUT_WITHIN(e, ms) do {				\
	if ((e)->dev.job_timeout_ms > (ms))				\
		SKIP(return, "job timeout %u ms is too long to wait for", \
		     (e)->dev.job_timeout_ms);				\
} while (0)

/* ------------------------------------------------------------------------ */
/* The process and the host */

/* fopen() of the path printf() makes of @fmt, or NULL. */
static inline __attribute__((format(printf, 2, 3)))
FILE *tempo_fopen(const char *mode, const char *fmt, ...)
{
	char path[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	return fopen(path, mode);
}

/* Does the calling process hold CAP_SYS_NICE in its effective set? */
static inline bool tempo_has_cap_sys_nice(void)
{
	unsigned long long eff = 0;
	char line[256];
	bool found = false;
	FILE *f;

	f = fopen("/proc/self/status", "re");
	if (!f)
		return geteuid() == 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "CapEff: %llx", &eff) == 1) {
			found = true;
			break;
		}
	}
	fclose(f);
	if (!found)
		return geteuid() == 0;
	return eff & (1ull << CAP_SYS_NICE);
}

static inline uint64_t tempo_page_size(void)
{
	return (uint64_t)sysconf(_SC_PAGESIZE);
}

/*
 * An address user space cannot read: the start of a PROT_NONE page that
 * follows a readable page, so that an array can also be made to straddle
 * the boundary (tempo_bad_ptr() - sizeof(entry)).
 */
static inline uint64_t tempo_bad_ptr(void)
{
	static char *guard;

	if (!guard) {
		long page = sysconf(_SC_PAGESIZE);
		char *p = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			abort();
		memset(p, 0, page);
		if (mprotect(p + page, page, PROT_NONE))
			abort();
		guard = p + page;
	}
	return (uint64_t)(uintptr_t)guard;
}

/*
 * The value of a module parameter of tempo: Y and N as 1 and 0, or -1
 * when the module does not have it.
 */
static inline long long tempo_module_param(const char *name)
{
	FILE *f = tempo_fopen("re", "/sys/module/tempo/parameters/%s", name);
	char buf[32] = "";

	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	if (buf[0] == 'Y')
		return 1;
	if (buf[0] == 'N')
		return 0;
	return buf[0] ? strtoll(buf, NULL, 10) : -1;
}

/*
 * Write @value to a module parameter of tempo: false when it cannot be
 * written (absent, read-only, or the caller is not root).
 */
static inline bool tempo_set_module_param(const char *name, const char *value)
{
	FILE *f = tempo_fopen("we", "/sys/module/tempo/parameters/%s", name);
	bool ok;

	if (!f)
		return false;
	ok = fputs(value, f) >= 0;
	return !fclose(f) && ok;
}

/*
 * The emulation's threads named @prefix and a number (only @number when it
 * is not negative), such as "tempo-cp" for the command processors and
 * "tempo-cu" for the compute units: stores at most @max pids in @pids and
 * returns how many it found.
 */
static inline int tempo_threads(const char *prefix, int number, int *pids,
				int max)
{
	size_t len = strlen(prefix);
	DIR *proc = opendir("/proc");
	struct dirent *d;
	int found = 0;

	while (proc && found < max && (d = readdir(proc))) {
		FILE *f = tempo_fopen("re", "/proc/%s/comm", d->d_name);
		char comm[32], *end;
		long n;

		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) &&
		    !strncmp(comm, prefix, len) &&
		    isdigit((unsigned char)comm[len])) {
			n = strtol(comm + len, &end, 10);
			if (!strcmp(end, "\n") && (number < 0 || n == number))
				pids[found++] = atoi(d->d_name);
		}
		fclose(f);
	}
	if (proc)
		closedir(proc);
	return found;
}

/*
 * The nice level of thread @pid, the 19th field of /proc/<pid>/stat (the
 * fields after the name, which may hold spaces, counted from 3), or
 * INT_MIN when it cannot be read.
 */
static inline int tempo_thread_nice(int pid)
{
	FILE *f = tempo_fopen("re", "/proc/%d/stat", pid);
	int field, nice = INT_MIN;
	char line[512];
	const char *p;

	if (!f)
		return INT_MIN;
	p = fgets(line, sizeof(line), f) ? strrchr(line, ')') : NULL;
	fclose(f);
	for (field = 2; p && field < 19; field++)
		p = strchr(p + 1, ' ');
	if (!p || sscanf(p, "%d", &nice) != 1)
		return INT_MIN;
	return nice;
}

/*
 * The debugfs directory of the tempo device (root only), or "" when none
 * is found.
 */
static inline void tempo_debugfs_dir(char *dir, size_t len)
{
	DIR *d = opendir("/sys/kernel/debug/dri");
	struct dirent *de;

	dir[0] = 0;
	if (!d)
		return;
	while ((de = readdir(d))) {
		FILE *f = tempo_fopen("r", "/sys/kernel/debug/dri/%s/name",
				      de->d_name);
		char name[64] = "";

		if (!f)
			continue;
		if (fgets(name, sizeof(name), f) && !strncmp(name, "tempo", 5)) {
			snprintf(dir, len, "/sys/kernel/debug/dri/%.200s",
				 de->d_name);
			fclose(f);
			break;
		}
		fclose(f);
	}
	closedir(d);
}

/*
 * Column @col (0 is the engine's name, 1 the queue) of the debugfs hqds
 * line of queue @queue of @engine ("copy1"), or -1.
 */
static inline long long tempo_debugfs_hqd(const char *dir, const char *engine,
					  unsigned int queue, int col)
{
	FILE *f = tempo_fopen("r", "%s/hqds", dir);
	long long value = -1;
	char line[512];

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *words[16], *save = NULL;
		int n = 0;

		for (char *w = strtok_r(line, " \t\n", &save); w && n < 16;
		     w = strtok_r(NULL, " \t\n", &save))
			words[n++] = w;
		if (n <= col || strcmp(words[0], engine) ||
		    strtoul(words[1], NULL, 0) != queue)
			continue;
		value = strtoll(words[col], NULL, 0);
		break;
	}
	fclose(f);
	return value;
}

/*
 * Pass up to 8 descriptors over a UNIX socket (SCM_RIGHTS), with one byte
 * of data; the receiver must expect exactly @n. 0, or -1.
 */
static inline int tempo_send_fds(int sock, const int *fds, int n)
{
	char buf[CMSG_SPACE(8 * sizeof(int))];
	char byte = 0;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = buf,
		.msg_controllen = CMSG_SPACE(n * sizeof(int)),
	};
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);

	memset(buf, 0, sizeof(buf));
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(n * sizeof(int));
	memcpy(CMSG_DATA(c), fds, n * sizeof(int));
	return sendmsg(sock, &msg, 0) == 1 ? 0 : -1;
}

static inline int tempo_recv_fds(int sock, int *fds, int n)
{
	char buf[CMSG_SPACE(8 * sizeof(int))];
	char byte;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = buf,
		.msg_controllen = sizeof(buf),
	};
	struct cmsghdr *c;

	if (recvmsg(sock, &msg, 0) != 1)
		return -1;
	c = CMSG_FIRSTHDR(&msg);
	if (!c || c->cmsg_type != SCM_RIGHTS ||
	    c->cmsg_len != CMSG_LEN(n * sizeof(int)))
		return -1;
	memcpy(fds, CMSG_DATA(c), n * sizeof(int));
	return 0;
}

/*
 * Fork a child that runs @child_main(its end of a new UNIX socket pair,
 * @arg) and exits with what it returns. The parent's end of the pair, the
 * child's pid in @pid; or -1 (with @pid < 0 when fork() failed).
 */
static inline int tempo_fork_child(int (*child_main)(int sock, void *arg),
				   void *arg, pid_t *pid)
{
	int sv[2];

	*pid = -1;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -1;
	*pid = fork();
	if (!*pid) {
		close(sv[0]);
		_exit(child_main(sv[1], arg));
	}
	close(sv[1]);
	if (*pid < 0) {
		close(sv[0]);
		return -1;
	}
	return sv[0];
}

/* ------------------------------------------------------------------------ */
/* Buffers, as the CPU sees them */

static inline volatile uint32_t *tempo_u32(const struct tempo_bo *bo,
					   uint64_t offset)
{
	return (volatile uint32_t *)((char *)bo->map + offset);
}

static inline volatile uint64_t *tempo_u64(const struct tempo_bo *bo,
					   uint64_t offset)
{
	return (volatile uint64_t *)((char *)bo->map + offset);
}

/* Is [offset, offset + size) of the buffer all zero? */
static inline bool tempo_bo_is_zero(const struct tempo_bo *bo,
				    uint64_t offset, uint64_t size)
{
	const unsigned char *p = (const unsigned char *)bo->map + offset;
	uint64_t i;

	for (i = 0; i < size; i++)
		if (p[i])
			return false;
	return true;
}

static inline int tempo_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Sorts the @n values of @v and returns their median (the upper one). */
static inline uint64_t tempo_median_u64(uint64_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), tempo_cmp_u64);
	return v[n / 2];
}

/* Wait until the qword at @offset of @bo is not zero (TEMPO_WAIT_MS). */
static inline void tempo_wait_nonzero(struct __test_metadata *_metadata,
				      const struct tempo_bo *bo,
				      uint64_t offset)
{
	int64_t deadline = tempo_deadline_ns(TEMPO_WAIT_MS);

	while (!__atomic_load_n(tempo_u64(bo, offset), __ATOMIC_SEQ_CST)) {
		ASSERT_LT((int64_t)tempo_now_ns(), deadline);
		tempo_sleep_ms(1);
	}
}

/* ------------------------------------------------------------------------ */
/* Submission */

/* Submit one batch and return its sync_file; the exec must succeed. */
static inline int tempo_submit(struct __test_metadata *_metadata, int fd,
			       uint32_t ctx_id, uint32_t slot, uint64_t batch_va)
{
	int fence = -1;

	ASSERT_EQ(0, tempo_exec(fd, ctx_id, slot, batch_va, NULL, 0, NULL, 0,
				&fence));
	ASSERT_LE(0, fence);
	return fence;
}

/*
 * A context of priority @prio and one slot, parallel: @width batches,
 * batch i on one of the @n engines @engines[i * @n .. i * @n + @n - 1].
 * 0 or -errno; the context's id in *@id.
 */
static inline int tempo_parallel_ctx_prio(int fd, int32_t prio,
					  uint16_t width, uint16_t n,
					  const struct drm_tempo_engine *engines,
					  uint32_t *id)
{
	struct drm_tempo_engine slots[] = {
		{ 0, DRM_TEMPO_ENGINE_INSTANCE_NONE },
	};
	struct drm_tempo_ctx_ext_parallel ext = {
		.base.name = DRM_TEMPO_CTX_EXT_PARALLEL,
		.width = width,
		.num_siblings = n,
		.engines = TEMPO_PTR(engines),
	};
	struct drm_tempo_ctx_create c = {
		.extensions = TEMPO_PTR(&ext),
		.priority = prio,
		.num_slots = 1,
		.slots = TEMPO_PTR(slots),
	};
	int ret = tempo_ioctl(fd, DRM_IOCTL_TEMPO_CTX_CREATE, &c);

	*id = c.ctx_id;
	return ret;
}

/* The same, NORMAL. */
static inline int tempo_parallel_ctx(int fd, uint16_t width, uint16_t n,
				     const struct drm_tempo_engine *engines,
				     uint32_t *id)
{
	return tempo_parallel_ctx_prio(fd, DRM_TEMPO_PRIORITY_NORMAL, width, n,
				       engines, id);
}

/*
 * &DRM_IOCTL_TEMPO_EXEC of one batch with @flags (a sync_file is always
 * asked for, returned in *@fence, else -1), waiting for @in unless NULL:
 * 0 or -errno.
 */
static inline int tempo_exec_flags(int fd, uint32_t ctx_id, uint32_t slot,
				   uint64_t batch_va,
				   const struct drm_tempo_sync *in,
				   uint32_t flags, int *fence)
{
	struct drm_tempo_exec x = {
		.ctx_id = ctx_id,
		.slot = slot,
		.flags = flags | DRM_TEMPO_EXEC_OUT_SYNC_FILE,
		.num_batches = 1,
		.batches = TEMPO_PTR(&batch_va),
		.num_in_syncs = in ? 1 : 0,
		.in_syncs = TEMPO_PTR(in),
	};
	int ret = tempo_ioctl(fd, DRM_IOCTL_TEMPO_EXEC, &x);

	*fence = ret ? -1 : x.out_fence_fd;
	return ret;
}

/*
 * Submit one batch, wait for it (TEMPO_WAIT_MS at most) and return the
 * fence status: 1 for success, the job's -errno, 0 if it did not finish.
 */
static inline int tempo_run(struct __test_metadata *_metadata, int fd,
			    uint32_t ctx_id, uint32_t slot, uint64_t batch_va)
{
	int fence = tempo_submit(_metadata, fd, ctx_id, slot, batch_va);
	int status = tempo_fence_wait(fence, TEMPO_WAIT_MS);

	close(fence);
	return status;
}

/* Wait for a sync_file (@timeout_ms), check its status and close it. */
static inline void tempo_fence_expect(struct __test_metadata *_metadata,
				      int fence, int status, int timeout_ms)
{
	ASSERT_EQ(status, tempo_fence_wait(fence, timeout_ms));
	close(fence);
}

/* How many of the HQDs run at pipe priority @pipe, queue priority @queue. */
static inline unsigned int tempo_hqds_at(struct __test_metadata *_metadata,
					 int fd, unsigned int pipe,
					 unsigned int queue)
{
	struct drm_tempo_query_hqds *q;
	unsigned int n = 0;
	uint32_t size;

	q = tempo_query_alloc(fd, DRM_TEMPO_QUERY_HQDS, &size);
	EXPECT_TRUE(q != NULL);
	for (uint32_t i = 0; q && i < q->num_hqds; i++)
		n += q->hqds[i].pipe_priority == pipe &&
		     q->hqds[i].queue_priority == queue;
	free(q);
	return n;
}

/* Wait (TEMPO_WAIT_MS at most) until @n HQDs run at (@pipe, @queue). */
static inline void tempo_wait_hqds_at(struct __test_metadata *_metadata,
				      int fd, unsigned int pipe,
				      unsigned int queue, unsigned int n)
{
	int64_t deadline = tempo_deadline_ns(TEMPO_WAIT_MS);

	while (tempo_hqds_at(_metadata, fd, pipe, queue) != n) {
		ASSERT_LT((int64_t)tempo_now_ns(), deadline)
			TH_LOG("%u HQDs at (%u, %u), not %u",
			       tempo_hqds_at(_metadata, fd, pipe, queue), pipe,
			       queue, n);
		tempo_sleep_ms(1);
	}
}

/* ------------------------------------------------------------------------ */
/* A ready-to-use environment: device, default context, buffers */

#define TEMPO_DATA_SIZE		(1024 * 1024)
#define TEMPO_CMD_SIZE		(256 * 1024)
/*
 * The first qword of the data buffer is a gate that blocked jobs wait on
 * with WAIT_MEM GE; tempo_env_fini() opens it fully so nothing stays stuck.
 */
#define TEMPO_GATE		0
/* No mark for tempo_gated_batch(). */
#define TEMPO_NO_MARK		UINT64_MAX

struct tempo_env {
	int fd;
	struct drm_tempo_query_device dev;
	struct drm_tempo_query_engines *engines;
	uint32_t ctx;
	struct tempo_bo data;
	struct tempo_bo cmd;
};

/*
 * Set up @e on the DRM file @fd, with a data buffer of @data_size bytes:
 * 0, or -errno (what was set up is then for tempo_env_fini()).
 */
static inline int tempo_env_setup(struct tempo_env *e, int fd,
				  uint64_t data_size)
{
	int ret;

	e->fd = fd;
	ret = tempo_query_device(fd, &e->dev);
	if (ret)
		return ret;
	e->engines = tempo_query_engines(fd);
	if (!e->engines)
		return -errno;
	ret = tempo_ctx_create(fd, DRM_TEMPO_PRIORITY_NORMAL, NULL, 0, &e->ctx);
	if (!ret)
		ret = tempo_bo_new(fd, data_size, 0, &e->data);
	if (!ret)
		ret = tempo_bo_new(fd, TEMPO_CMD_SIZE, 0, &e->cmd);
	return ret;
}

/* Open the device and set @e up on it, outside the harness: 0 or -errno. */
static inline int tempo_env_open(struct tempo_env *e, uint64_t data_size)
{
	int fd = tempo_device_open();

	memset(e, 0, sizeof(*e));
	e->fd = -1;
	return fd < 0 ? fd : tempo_env_setup(e, fd, data_size);
}

static inline void tempo_env_init(struct __test_metadata *_metadata,
				  struct tempo_env *e, int fd)
{
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, tempo_env_setup(e, fd, TEMPO_DATA_SIZE));
}

static inline void tempo_env_fini(struct tempo_env *e)
{
	if (e->data.map)
		__atomic_store_n(tempo_u64(&e->data, TEMPO_GATE), UINT64_MAX,
				 __ATOMIC_SEQ_CST);
	if (e->data.map)
		munmap(e->data.map, e->data.size);
	if (e->cmd.map)
		munmap(e->cmd.map, e->cmd.size);
	free(e->engines);
	if (e->fd >= 0)
		close(e->fd);
	memset(e, 0, sizeof(*e));
	e->fd = -1;
}

static inline uint64_t tempo_gate_va(const struct tempo_env *e)
{
	return e->data.va + TEMPO_GATE;
}

static inline void tempo_gate_set(struct tempo_env *e, uint64_t value)
{
	__atomic_store_n(tempo_u64(&e->data, TEMPO_GATE), value,
			 __ATOMIC_SEQ_CST);
}

/* A packet that blocks until the gate is >= @value. */
static inline void tempo_pkt_wait_gate(struct tempo_batch *b,
				       const struct tempo_env *e,
				       uint64_t value)
{
	tempo_pkt_wait_mem(b, tempo_gate_va(e), DRM_TEMPO_COMPARE_GE, value,
			   UINT64_MAX);
}

/*
 * A batch at byte @offset of the command buffer: with @gated, a wait for
 * the gate to be 1; unless @mark is TEMPO_NO_MARK, a write of @value at
 * offset @mark of the data buffer; END. Returns its GPU address.
 */
static inline uint64_t tempo_mark_batch_at(struct tempo_env *e,
					   uint64_t offset, bool gated,
					   uint64_t mark, uint32_t value)
{
	struct tempo_batch b;

	tempo_batch_init(&b, &e->cmd, offset, 32);
	if (gated)
		tempo_pkt_wait_gate(&b, e, 1);
	if (mark != TEMPO_NO_MARK)
		tempo_pkt_write32(&b, e->data.va + mark, value);
	tempo_pkt_end(&b);
	return b.va;
}

/* A batch that writes @value at data offset @mark. */
static inline uint64_t tempo_mark_batch(struct tempo_env *e, uint64_t offset,
					uint64_t mark, uint32_t value)
{
	return tempo_mark_batch_at(e, offset, false, mark, value);
}

/* The same once the gate is open (TEMPO_NO_MARK: only the wait). */
static inline uint64_t tempo_gated_batch(struct tempo_env *e, uint64_t offset,
					 uint64_t mark, uint32_t value)
{
	return tempo_mark_batch_at(e, offset, true, mark, value);
}

/*
 * A batch at byte @offset of the command buffer that writes 1 at data
 * offset @started as soon as it runs (a qword the caller zeroed, for
 * tempo_wait_nonzero()), then waits for the gate. Returns its GPU address.
 */
static inline uint64_t tempo_started_gated_batch(struct tempo_env *e,
						 uint64_t offset,
						 uint64_t started)
{
	struct tempo_batch b;

	tempo_batch_init(&b, &e->cmd, offset, 32);
	tempo_pkt_write32(&b, e->data.va + started, 1);
	tempo_pkt_wait_gate(&b, e, 1);
	tempo_pkt_end(&b);
	return b.va;
}

/*
 * Tests that keep a job blocked for TEMPO_BLOCKED_MS and more need the job
 * timeout to be well above that.
 */
static inline bool tempo_env_can_block(const struct tempo_env *e)
{
	return e->dev.job_timeout_ms >= 10 * TEMPO_BLOCKED_MS;
}

#endif /* TEMPO_TEST_H */
