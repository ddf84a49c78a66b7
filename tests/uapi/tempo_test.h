/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers shared by the tempo uAPI tests: finding the render node, queries,
 * buffer objects and GPU mappings, contexts, batch building, submission and
 * fence waits. Everything here is written against uapi/drm/tempo_drm.h.
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
#include <linux/sync_file.h>
#include <xf86drm.h>
#include <drm/tempo_drm.h>

/* The harness itself is not -Wextra clean (unused parameters). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "kselftest_harness.h"
#pragma GCC diagnostic pop
/*
 * TEST_F() expands to a setjmp() in the test file; -Wextra then warns that
 * the harness's own locals might be clobbered, which they are not.
 */
#pragma GCC diagnostic ignored "-Wclobbered"

/* Longest a test waits for a job that is expected to complete. */
#define TEMPO_WAIT_MS		5000
/* How long a job that must stay blocked is watched before going on. */
#define TEMPO_BLOCKED_MS	100

#define TEMPO_ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define TEMPO_NO_DEVICE	"no usable tempo render node: %s"

/* ------------------------------------------------------------------------ */
/* Device */

static inline bool tempo_is_tempo(int fd)
{
	drmVersionPtr v = drmGetVersion(fd);
	bool ret;

	if (!v)
		return false;
	ret = v->name && !strcmp(v->name, "tempo");
	drmFreeVersion(v);
	return ret;
}

static inline int tempo_render_filter(const struct dirent *d)
{
	return !strncmp(d->d_name, "renderD", 7);
}

/*
 * Open the first render node whose driver is tempo (TEMPO_RENDER_NODE
 * overrides the search). Returns the fd, or -ENODEV when there is none, or
 * the -errno of a render node that could not be opened.
 */
static inline int tempo_open_render(void)
{
	const char *path = getenv("TEMPO_RENDER_NODE");
	struct dirent **names;
	int ret = -ENODEV;
	int i, n, fd;

	if (path && *path) {
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		if (tempo_is_tempo(fd))
			return fd;
		close(fd);
		return -ENODEV;
	}

	n = scandir("/dev/dri", &names, tempo_render_filter, alphasort);
	if (n < 0)
		return -ENODEV;
	for (i = 0; i < n; i++) {
		char node[300];

		if (ret >= 0) {
			free(names[i]);
			continue;
		}
		snprintf(node, sizeof(node), "/dev/dri/%s", names[i]->d_name);
		free(names[i]);
		fd = open(node, O_RDWR | O_CLOEXEC);
		if (fd < 0) {
			ret = -errno;
			continue;
		}
		if (tempo_is_tempo(fd)) {
			ret = fd;
			continue;
		}
		close(fd);
	}
	free(names);
	return ret;
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

static inline uint64_t tempo_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* Absolute CLOCK_MONOTONIC deadline, as the syncobj wait ioctls take it. */
static inline int64_t tempo_deadline_ns(int timeout_ms)
{
	return (int64_t)(tempo_now_ns() + (uint64_t)timeout_ms * 1000000ull);
}

static inline void tempo_sleep_ms(int ms)
{
	struct timespec ts = {
		.tv_sec = ms / 1000,
		.tv_nsec = (long)(ms % 1000) * 1000000l,
	};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
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

/* ioctl() that restarts on EINTR/EAGAIN; returns 0 or -errno. */
static inline int tempo_ioctl(int fd, unsigned long request, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, request, arg);
	} while (ret == -1 && (errno == EINTR || errno == EAGAIN));
	return ret ? -errno : 0;
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
		char path[320], name[64] = "";
		FILE *f;

		snprintf(path, sizeof(path), "/sys/kernel/debug/dri/%s/name",
			 de->d_name);
		f = fopen(path, "r");
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
	char path[320], line[512];
	long long value = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/hqds", dir);
	f = fopen(path, "r");
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

/* ------------------------------------------------------------------------ */
/* Queries */

static inline int tempo_query(int fd, uint32_t query, void *data,
			      uint32_t *size)
{
	struct drm_tempo_query q = {
		.query = query,
		.size = *size,
		.data = (uint64_t)(uintptr_t)data,
	};
	int ret;

	ret = tempo_ioctl(fd, DRM_IOCTL_TEMPO_QUERY, &q);
	if (!ret)
		*size = q.size;
	return ret;
}

/* Size probe, allocation and read; the caller frees the answer. */
static inline void *tempo_query_alloc(int fd, uint32_t query, uint32_t *size)
{
	uint32_t sz = 0;
	void *data;

	if (tempo_query(fd, query, NULL, &sz) || !sz)
		return NULL;
	data = calloc(1, sz);
	if (!data)
		return NULL;
	if (tempo_query(fd, query, data, &sz)) {
		free(data);
		return NULL;
	}
	if (size)
		*size = sz;
	return data;
}

static inline int tempo_query_device(int fd, struct drm_tempo_query_device *dev)
{
	uint32_t size = sizeof(*dev);

	memset(dev, 0, sizeof(*dev));
	return tempo_query(fd, DRM_TEMPO_QUERY_DEVICE, dev, &size);
}

static inline struct drm_tempo_query_engines *tempo_query_engines(int fd)
{
	return tempo_query_alloc(fd, DRM_TEMPO_QUERY_ENGINES, NULL);
}

/*
 * Slot of the nth engine of a class in the default engine map (which is
 * the QUERY_ENGINES order), or -1.
 */
static inline int tempo_default_slot(const struct drm_tempo_query_engines *e,
				     unsigned int engine_class, unsigned int nth)
{
	uint32_t i;

	for (i = 0; i < e->num_engines; i++) {
		if (e->engines[i].engine_class != engine_class)
			continue;
		if (!nth--)
			return (int)i;
	}
	return -1;
}

static inline unsigned int
tempo_count_class(const struct drm_tempo_query_engines *e,
		  unsigned int engine_class)
{
	unsigned int n = 0;
	uint32_t i;

	for (i = 0; i < e->num_engines; i++)
		n += e->engines[i].engine_class == engine_class;
	return n;
}

/* ------------------------------------------------------------------------ */
/* Buffer objects and the GPU address space */

struct tempo_bo {
	uint32_t handle;
	uint64_t size;
	uint64_t va;
	void *map;
};

static inline int tempo_bo_create(int fd, uint64_t size, uint32_t *handle)
{
	struct drm_tempo_bo_create c = { .size = size };
	int ret;

	ret = tempo_ioctl(fd, DRM_IOCTL_TEMPO_BO_CREATE, &c);
	if (!ret)
		*handle = c.handle;
	return ret;
}

static inline int tempo_gem_close(int fd, uint32_t handle)
{
	struct drm_gem_close c = { .handle = handle };

	return tempo_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &c);
}

static inline int tempo_bo_mmap_offset(int fd, uint32_t handle,
				       uint64_t *offset)
{
	struct drm_tempo_bo_mmap_offset m = { .handle = handle };
	int ret;

	ret = tempo_ioctl(fd, DRM_IOCTL_TEMPO_BO_MMAP_OFFSET, &m);
	if (!ret)
		*offset = m.offset;
	return ret;
}

/* CPU mapping of a whole buffer; NULL (errno set) on failure. */
static inline void *tempo_bo_mmap(int fd, uint32_t handle, uint64_t size)
{
	uint64_t offset;
	void *p;
	int ret;

	ret = tempo_bo_mmap_offset(fd, handle, &offset);
	if (ret) {
		errno = -ret;
		return NULL;
	}
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 (off_t)offset);
	return p == MAP_FAILED ? NULL : p;
}

/* *va is the address to map at (0 with AUTO_VA) and receives the result. */
static inline int tempo_vm_map(int fd, uint32_t handle, uint32_t flags,
			       uint64_t *va, uint64_t bo_offset, uint64_t size)
{
	struct drm_tempo_vm_map m = {
		.handle = handle,
		.flags = flags,
		.va = *va,
		.bo_offset = bo_offset,
		.size = size,
	};
	int ret;

	ret = tempo_ioctl(fd, DRM_IOCTL_TEMPO_VM_MAP, &m);
	if (!ret)
		*va = m.va;
	return ret;
}

static inline int tempo_vm_unmap(int fd, uint64_t va, uint64_t size)
{
	struct drm_tempo_vm_unmap u = { .va = va, .size = size };

	return tempo_ioctl(fd, DRM_IOCTL_TEMPO_VM_UNMAP, &u);
}

/*
 * Create a buffer, map it on the CPU and at a kernel-chosen GPU address
 * (with extra vm_flags, e.g. READONLY). Returns 0 or -errno.
 */
static inline int tempo_bo_new(int fd, uint64_t size, uint32_t vm_flags,
			       struct tempo_bo *bo)
{
	int ret;

	memset(bo, 0, sizeof(*bo));
	bo->size = size;
	ret = tempo_bo_create(fd, size, &bo->handle);
	if (ret)
		return ret;
	bo->map = tempo_bo_mmap(fd, bo->handle, size);
	if (!bo->map) {
		ret = -errno;
		goto err_close;
	}
	ret = tempo_vm_map(fd, bo->handle, vm_flags | DRM_TEMPO_VM_MAP_AUTO_VA,
			   &bo->va, 0, size);
	if (ret)
		goto err_unmap;
	return 0;

err_unmap:
	munmap(bo->map, size);
err_close:
	tempo_gem_close(fd, bo->handle);
	memset(bo, 0, sizeof(*bo));
	return ret;
}

static inline void tempo_bo_del(int fd, struct tempo_bo *bo)
{
	if (bo->va)
		tempo_vm_unmap(fd, bo->va, bo->size);
	if (bo->map)
		munmap(bo->map, bo->size);
	if (bo->handle)
		tempo_gem_close(fd, bo->handle);
	memset(bo, 0, sizeof(*bo));
}

/* CPU pointers into a buffer, by byte offset. */
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

/* ------------------------------------------------------------------------ */
/* Contexts */

static inline int tempo_ctx_create(int fd, int32_t priority,
				   const struct drm_tempo_engine *slots,
				   uint32_t num_slots, uint32_t *ctx_id)
{
	struct drm_tempo_ctx_create c = {
		.priority = priority,
		.num_slots = num_slots,
		.slots = (uint64_t)(uintptr_t)slots,
	};
	int ret;

	ret = tempo_ioctl(fd, DRM_IOCTL_TEMPO_CTX_CREATE, &c);
	if (!ret)
		*ctx_id = c.ctx_id;
	return ret;
}

static inline int tempo_ctx_destroy(int fd, uint32_t ctx_id)
{
	struct drm_tempo_ctx_destroy d = { .ctx_id = ctx_id };

	return tempo_ioctl(fd, DRM_IOCTL_TEMPO_CTX_DESTROY, &d);
}

static inline int tempo_ctx_get_priority(int fd, uint32_t ctx_id,
					 int64_t *value)
{
	struct drm_tempo_ctx_param p = {
		.ctx_id = ctx_id,
		.param = DRM_TEMPO_CTX_PARAM_PRIORITY,
	};
	int ret;

	ret = tempo_ioctl(fd, DRM_IOCTL_TEMPO_CTX_GET_PARAM, &p);
	if (!ret)
		*value = p.value;
	return ret;
}

static inline int tempo_ctx_set_priority(int fd, uint32_t ctx_id,
					 int64_t value)
{
	struct drm_tempo_ctx_param p = {
		.ctx_id = ctx_id,
		.param = DRM_TEMPO_CTX_PARAM_PRIORITY,
		.value = value,
	};

	return tempo_ioctl(fd, DRM_IOCTL_TEMPO_CTX_SET_PARAM, &p);
}

/* ------------------------------------------------------------------------ */
/* Batch building */

struct tempo_batch {
	uint32_t *cs;	/* CPU address of the first dword */
	uint64_t va;	/* GPU address of the first dword */
	uint32_t len;	/* dwords emitted */
	uint32_t max;	/* room, in dwords */
};

/* A batch at byte offset @offset of @bo, with room for @max_dw dwords. */
static inline void tempo_batch_init(struct tempo_batch *b,
				    const struct tempo_bo *bo,
				    uint64_t offset, uint32_t max_dw)
{
	if (offset + (uint64_t)max_dw * 4 > bo->size || offset % 4) {
		fprintf(stderr, "# batch at %#llx does not fit its buffer\n",
			(unsigned long long)offset);
		abort();
	}
	b->cs = (uint32_t *)((char *)bo->map + offset);
	b->va = bo->va + offset;
	b->len = 0;
	b->max = max_dw;
}

/* GPU address of the next dword to be emitted. */
static inline uint64_t tempo_batch_here(const struct tempo_batch *b)
{
	return b->va + (uint64_t)b->len * 4;
}

static inline void tempo_emit(struct tempo_batch *b, uint32_t dw)
{
	if (b->len >= b->max) {
		fprintf(stderr, "# batch overflow (%u dwords)\n", b->max);
		abort();
	}
	b->cs[b->len++] = dw;
}

static inline void tempo_emit_u64(struct tempo_batch *b, uint64_t v)
{
	tempo_emit(b, (uint32_t)v);
	tempo_emit(b, (uint32_t)(v >> 32));
}

static inline void tempo_pkt_nop(struct tempo_batch *b, uint32_t payload)
{
	tempo_emit(b, DRM_TEMPO_PKT_HEADER(DRM_TEMPO_PKT_NOP, 1 + payload));
	while (payload--)
		tempo_emit(b, 0xdeadbeef);
}

static inline void tempo_pkt_write_data(struct tempo_batch *b, uint64_t va,
					const uint32_t *data, uint32_t n)
{
	uint32_t i;

	tempo_emit(b, DRM_TEMPO_PKT_HEADER(DRM_TEMPO_PKT_WRITE_DATA, 3 + n));
	tempo_emit_u64(b, va);
	for (i = 0; i < n; i++)
		tempo_emit(b, data[i]);
}

static inline void tempo_pkt_write32(struct tempo_batch *b, uint64_t va,
				     uint32_t value)
{
	tempo_pkt_write_data(b, va, &value, 1);
}

static inline void tempo_pkt_write_timestamp(struct tempo_batch *b,
					     uint64_t va)
{
	tempo_emit(b, DRM_TEMPO_PKT_HEADER(DRM_TEMPO_PKT_WRITE_TIMESTAMP, 3));
	tempo_emit_u64(b, va);
}

static inline void tempo_pkt_copy(struct tempo_batch *b, uint64_t dst,
				  uint64_t src, uint32_t size)
{
	tempo_emit(b, DRM_TEMPO_PKT_HEADER(DRM_TEMPO_PKT_COPY, 6));
	tempo_emit_u64(b, dst);
	tempo_emit_u64(b, src);
	tempo_emit(b, size);
}

static inline void tempo_pkt_fill(struct tempo_batch *b, uint64_t dst,
				  uint32_t value, uint32_t size)
{
	tempo_emit(b, DRM_TEMPO_PKT_HEADER(DRM_TEMPO_PKT_FILL, 5));
	tempo_emit_u64(b, dst);
	tempo_emit(b, value);
	tempo_emit(b, size);
}

static inline void tempo_pkt_atomic(struct tempo_batch *b, uint64_t va,
				    uint32_t op, uint64_t value)
{
	tempo_emit(b, DRM_TEMPO_PKT_HEADER(DRM_TEMPO_PKT_ATOMIC, 6));
	tempo_emit_u64(b, va);
	tempo_emit(b, op);
	tempo_emit_u64(b, value);
}

static inline void tempo_pkt_wait_mem(struct tempo_batch *b, uint64_t va,
				      uint32_t compare, uint64_t ref,
				      uint64_t mask)
{
	tempo_emit(b, DRM_TEMPO_PKT_HEADER(DRM_TEMPO_PKT_WAIT_MEM, 8));
	tempo_emit_u64(b, va);
	tempo_emit(b, compare);
	tempo_emit_u64(b, ref);
	tempo_emit_u64(b, mask);
}

static inline void tempo_pkt_dispatch(struct tempo_batch *b, uint32_t kernel,
				      uint32_t gx, uint32_t gy, uint32_t gz,
				      const uint32_t *args, uint32_t nargs)
{
	uint32_t i;

	tempo_emit(b, DRM_TEMPO_PKT_HEADER(DRM_TEMPO_PKT_DISPATCH, 5 + nargs));
	tempo_emit(b, kernel);
	tempo_emit(b, gx);
	tempo_emit(b, gy);
	tempo_emit(b, gz);
	for (i = 0; i < nargs; i++)
		tempo_emit(b, args[i]);
}

static inline void tempo_pkt_batch_start(struct tempo_batch *b, uint64_t va,
					 uint32_t flags)
{
	tempo_emit(b, DRM_TEMPO_PKT_HEADER(DRM_TEMPO_PKT_BATCH_START, 4));
	tempo_emit_u64(b, va);
	tempo_emit(b, flags);
}

static inline void tempo_pkt_end(struct tempo_batch *b)
{
	tempo_emit(b, DRM_TEMPO_PKT_HEADER(DRM_TEMPO_PKT_END, 1));
}

/* Kernel arguments: a 64-bit address is two dwords, low first. */
#define TEMPO_ARG_VA(va)	(uint32_t)(va), (uint32_t)((uint64_t)(va) >> 32)

/* ------------------------------------------------------------------------ */
/* Submission and fences */

/*
 * Submit one batch. With @fence_fd non-NULL a sync_file is requested and
 * returned there. Returns 0 or -errno.
 */
static inline int tempo_exec(int fd, uint32_t ctx_id, uint32_t slot,
			     uint64_t batch_va,
			     const struct drm_tempo_sync *in, uint32_t num_in,
			     const struct drm_tempo_sync *out, uint32_t num_out,
			     int *fence_fd)
{
	struct drm_tempo_exec x = {
		.ctx_id = ctx_id,
		.slot = slot,
		.flags = fence_fd ? DRM_TEMPO_EXEC_OUT_SYNC_FILE : 0,
		.num_batches = 1,
		.batches = (uint64_t)(uintptr_t)&batch_va,
		.num_in_syncs = num_in,
		.num_out_syncs = num_out,
		.in_syncs = (uint64_t)(uintptr_t)in,
		.out_syncs = (uint64_t)(uintptr_t)out,
		.out_fence_fd = -1,
	};
	int ret;

	ret = tempo_ioctl(fd, DRM_IOCTL_TEMPO_EXEC, &x);
	if (!ret && fence_fd)
		*fence_fd = x.out_fence_fd;
	return ret;
}

/* Status of a sync_file: 1 signalled, 0 active, < 0 the fence error. */
static inline int tempo_fence_status(int fence_fd)
{
	struct sync_file_info info;

	memset(&info, 0, sizeof(info));
	if (ioctl(fence_fd, SYNC_IOC_FILE_INFO, &info))
		return -1000 - errno;	/* not a fence status: fails any check */
	return info.status;
}

/* Wait up to @timeout_ms for a sync_file; returns tempo_fence_status(). */
static inline int tempo_fence_wait(int fence_fd, int timeout_ms)
{
	struct pollfd p = { .fd = fence_fd, .events = POLLIN };
	uint64_t end = tempo_now_ns() + (uint64_t)timeout_ms * 1000000ull;

	for (;;) {
		uint64_t now = tempo_now_ns();
		int ret;

		if (now >= end)
			break;
		ret = poll(&p, 1, (int)((end - now + 999999) / 1000000));
		if (ret > 0 || (ret < 0 && errno != EINTR))
			break;
	}
	return tempo_fence_status(fence_fd);
}

/*
 * Does a syncobj (or timeline point) have a fence? Exporting a sync_file
 * needs one.
 */
static inline bool tempo_syncobj_has_fence(int fd, uint32_t handle)
{
	int sf = -1;

	if (drmSyncobjExportSyncFile(fd, handle, &sf))
		return false;
	close(sf);
	return true;
}

/*
 * Wait up to @timeout_ms for a binary syncobj's fence and return its status
 * as for a sync_file; -ENOENT when the syncobj has no fence.
 */
static inline int tempo_syncobj_status(int fd, uint32_t handle, int timeout_ms)
{
	int sf = -1;
	int ret;

	if (drmSyncobjExportSyncFile(fd, handle, &sf))
		return -ENOENT;
	ret = tempo_fence_wait(sf, timeout_ms);
	close(sf);
	return ret;
}

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

/* ------------------------------------------------------------------------ */
/* A ready-to-use environment: device, default context, buffers */

#define TEMPO_DATA_SIZE		(1024 * 1024)
#define TEMPO_CMD_SIZE		(256 * 1024)
/*
 * The first qword of the data buffer is a gate that blocked jobs wait on
 * with WAIT_MEM GE; tempo_env_fini() opens it fully so nothing stays stuck.
 */
#define TEMPO_GATE		0

struct tempo_env {
	int fd;
	struct drm_tempo_query_device dev;
	struct drm_tempo_query_engines *engines;
	uint32_t ctx;
	struct tempo_bo data;
	struct tempo_bo cmd;
};

static inline void tempo_env_init(struct __test_metadata *_metadata,
				  struct tempo_env *e, int fd)
{
	e->fd = fd;
	ASSERT_EQ(0, tempo_query_device(fd, &e->dev));
	e->engines = tempo_query_engines(fd);
	ASSERT_TRUE(e->engines != NULL);
	ASSERT_EQ(0, tempo_ctx_create(fd, DRM_TEMPO_PRIORITY_NORMAL, NULL, 0,
				      &e->ctx));
	ASSERT_EQ(0, tempo_bo_new(fd, TEMPO_DATA_SIZE, 0, &e->data));
	ASSERT_EQ(0, tempo_bo_new(fd, TEMPO_CMD_SIZE, 0, &e->cmd));
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
 * Tests that keep a job blocked for TEMPO_BLOCKED_MS and more need the job
 * timeout to be well above that.
 */
static inline bool tempo_env_can_block(const struct tempo_env *e)
{
	return e->dev.job_timeout_ms >= 10 * TEMPO_BLOCKED_MS;
}

#endif /* TEMPO_TEST_H */
