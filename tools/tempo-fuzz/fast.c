// SPDX-License-Identifier: GPL-2.0-only
/*
 * Cheap calls, many of them between two regular operations: one random
 * word decides everything, the argument is mostly valid with one field
 * wrong (or right), so that the kernel's checks and lookups run millions
 * of times without allocating much. The errno checks are the same as for
 * every other call (fz_ioctl()).
 */
#include <string.h>
#include <sys/ioctl.h>

#include "fuzz.h"

static uint32_t some(const uint32_t *pool, unsigned int n, uint64_t r)
{
	return n ? pool[r % n] : (uint32_t)r;
}

/* An id no file ever gets in a chunk: mostly ENOENT. */
static uint32_t unknown_id(uint64_t r)
{
	return 0x100000u + (uint32_t)(r & 0xfffff);
}

static void fast_query(struct fz_child *c, struct fz_file *f, uint64_t r)
{
	static const uint32_t sizes[] = { 0, 1, 8, 16, 64, 4096 };
	struct drm_tempo_query q = { .query = (uint32_t)(r & 3) };
	unsigned int flags = 0;

	q.size = r & 4 ? 0 : sizes[(r >> 3) % 6];
	if (q.query == DRM_TEMPO_QUERY_DEVICE && (r & 0x40))
		q.size = sizeof(c->dev);
	q.data = (uint64_t)(uintptr_t)c->junk;
	if (!(r & 0x3f00)) {
		q.flags = 1;
		flags |= FZ_MUST_FAIL;
	}
	fz_ioctl(c, FZ_QUERY, f->fd, DRM_IOCTL_TEMPO_QUERY, &q, sizeof(q),
		 flags);
}

/* A live context, or an unknown one. */
static uint32_t some_ctx(struct fz_file *f, uint64_t r)
{
	return r & 1 ? some(f->ctxs, f->nctxs, r >> 1) : unknown_id(r >> 1);
}

static void fast_get_param(struct fz_child *c, struct fz_file *f, uint64_t r)
{
	struct drm_tempo_ctx_param p = {
		.ctx_id = some_ctx(f, r),
		.param = (uint32_t)((r >> 24) % 4),
	};

	fz_ioctl(c, FZ_CTX_GET_PARAM, f->fd, DRM_IOCTL_TEMPO_CTX_GET_PARAM, &p,
		 sizeof(p),
		 p.param > DRM_TEMPO_CTX_PARAM_RESET_COUNT ? FZ_MUST_FAIL : 0);
}

static void fast_set_param(struct fz_child *c, struct fz_file *f, uint64_t r)
{
	struct drm_tempo_ctx_param p = {
		.ctx_id = some_ctx(f, r),
		.param = (uint32_t)((r >> 24) % 3),
		.value = -(int64_t)((r >> 32) % 1024),
	};

	fz_ioctl(c, FZ_CTX_SET_PARAM, f->fd, DRM_IOCTL_TEMPO_CTX_SET_PARAM, &p,
		 sizeof(p),
		 p.param != DRM_TEMPO_CTX_PARAM_PRIORITY ? FZ_MUST_FAIL : 0);
}

static void fast_ctx_destroy(struct fz_child *c, struct fz_file *f,
			     uint64_t r)
{
	struct drm_tempo_ctx_destroy d = { .ctx_id = unknown_id(r) };
	unsigned int flags = 0;

	if (r & 0x100000) {	/* a live context, with pad set */
		d.ctx_id = some(f->ctxs, f->nctxs, r >> 21);
		d.pad = 1;
		flags |= FZ_MUST_FAIL;
	}
	fz_ioctl(c, FZ_CTX_DESTROY, f->fd, DRM_IOCTL_TEMPO_CTX_DESTROY, &d,
		 sizeof(d), flags);
}

static void fast_mmap_offset(struct fz_child *c, struct fz_file *f,
			     uint64_t r)
{
	struct drm_tempo_bo_mmap_offset m = {
		.handle = r & 1 ? some(f->bos, f->nbos, r >> 1) :
				  unknown_id(r >> 1),
	};

	fz_ioctl(c, FZ_BO_MMAP_OFFSET, f->fd, DRM_IOCTL_TEMPO_BO_MMAP_OFFSET,
		 &m, sizeof(m), 0);
}

static void fast_gem_close(struct fz_child *c, struct fz_file *f, uint64_t r)
{
	struct drm_gem_close g = { .handle = unknown_id(r) };

	fz_ioctl(c, FZ_GEM_CLOSE, f->fd, DRM_IOCTL_GEM_CLOSE, &g, sizeof(g), 0);
}

static void fast_vm_unmap(struct fz_child *c, struct fz_file *f, uint64_t r)
{
	struct drm_tempo_vm_unmap u = {
		.va = c->dev.va_start + ((r & 0xffff) << 12),
		.size = ((r >> 16) & 0xff) << 12,
	};
	unsigned int flags = 0;

	if (!(r & 0x3000000)) {
		u.flags = 1;
		flags |= FZ_MUST_FAIL;
	}
	/* A pool mapping must not go away behind the pool's back. */
	for (unsigned int i = 0; i < f->nmaps; i++)
		if (f->maps[i].va == u.va)
			u.va += 4096;
	fz_ioctl(c, FZ_VM_UNMAP, f->fd, DRM_IOCTL_TEMPO_VM_UNMAP, &u, sizeof(u),
		 flags);
}

static void fast_vm_map(struct fz_child *c, struct fz_file *f, uint64_t r)
{
	struct drm_tempo_vm_map m = {
		.handle = r & 1 ? some(f->bos, f->nbos, r >> 1) :
				  unknown_id(r >> 1),
		.flags = DRM_TEMPO_VM_MAP_AUTO_VA,
		.size = 4097 + (r >> 40) % 4095,	/* misaligned */
	};

	if (r & 0x10000)
		m.flags |= 1u << (2 + (r >> 17) % 30);
	fz_ioctl(c, FZ_VM_MAP, f->fd, DRM_IOCTL_TEMPO_VM_MAP, &m, sizeof(m),
		 FZ_MUST_FAIL);
}

/* One thing wrong, caught before anything is allocated. */
static void fast_exec(struct fz_child *c, struct fz_file *f, uint64_t r)
{
	uint64_t batch = f->cmd.va;
	struct drm_tempo_exec x = {
		.ctx_id = some(f->ctxs, f->nctxs, r),
		.num_batches = 1,
		.batches = (uint64_t)(uintptr_t)&batch,
		.out_fence_fd = -1,
	};

	switch ((r >> 16) % 6) {
	case 0:	/* a bit above every defined flag */
		x.flags = (DRM_TEMPO_EXEC_FLAGS + 1) << (r >> 20) % 30;
		break;
	case 1:
		x.pad = 1;
		break;
	case 2:
		x.ctx_id = unknown_id(r >> 20);
		break;
	case 3:
		x.slot = 64 + (uint32_t)(r >> 20 & 0xffff);
		break;
	case 4:
		x.num_batches = r & 0x100000 ? 0 : 1000;
		break;
	default:
		x.num_in_syncs = c->dev.max_syncs + 1;
		break;
	}
	fz_ioctl(c, FZ_EXEC, f->fd, DRM_IOCTL_TEMPO_EXEC, &x, sizeof(x),
		 FZ_MUST_FAIL);
}

static void fast_sched(struct fz_child *c, struct fz_file *f, uint64_t r)
{
	struct drm_tempo_sched s = {
		.op = (uint32_t)(r & 1),
		.fd = r & 2 ? -1 : c->files[!(r & 1)].fd,
		.ctx_id = 0,
		.priority = DRM_TEMPO_PRIORITY_UNSET,
	};
	unsigned int flags = 0;

	if (r & 4) {	/* reaches only the checks */
		s.op = 2 + (uint32_t)(r >> 3 & 0xff);
		flags |= FZ_MUST_FAIL;
	}
	if (s.op == DRM_TEMPO_SCHED_CTX_PRIORITY_OVERRIDE)
		s.ctx_id = unknown_id(r >> 12);
	fz_ioctl(c, FZ_SCHED, f->fd, DRM_IOCTL_TEMPO_SCHED, &s, sizeof(s),
		 flags);
}

static void fast_syncobj_wait(struct fz_child *c, struct fz_file *f,
			      uint64_t r)
{
	uint32_t h = some(f->syncs, f->nsyncs, r);
	struct drm_syncobj_wait w = {
		.handles = (uint64_t)(uintptr_t)&h,
		.count_handles = 1,
		.flags = (uint32_t)(r >> 12 & 1),
	};

	fz_ioctl(c, FZ_SYNCOBJ_WAIT, f->fd, DRM_IOCTL_SYNCOBJ_WAIT, &w,
		 sizeof(w), 0);
}

static void fast_syncobj_destroy(struct fz_child *c, struct fz_file *f,
				 uint64_t r)
{
	struct drm_syncobj_destroy d = { .handle = unknown_id(r) };

	fz_ioctl(c, FZ_SYNCOBJ_DESTROY, f->fd, DRM_IOCTL_SYNCOBJ_DESTROY, &d,
		 sizeof(d), 0);
}

static void fast_syncobj_array(struct fz_child *c, struct fz_file *f,
			       uint64_t r)
{
	bool reset = r & 0x100000;
	uint32_t h = unknown_id(r);
	struct drm_syncobj_array a = {
		.handles = (uint64_t)(uintptr_t)&h,
		.count_handles = 1,
	};

	fz_ioctl(c, reset ? FZ_SYNCOBJ_RESET : FZ_SYNCOBJ_SIGNAL, f->fd,
		 reset ? DRM_IOCTL_SYNCOBJ_RESET : DRM_IOCTL_SYNCOBJ_SIGNAL,
		 &a, sizeof(a), 0);
}

/* An unused number of the driver range, any direction. */
static void fast_raw_unknown(struct fz_child *c, struct fz_file *f,
			     uint64_t r)
{
	unsigned int nr = DRM_COMMAND_BASE + 0x0b +
			  (unsigned int)(r % (DRM_COMMAND_END -
					      DRM_COMMAND_BASE - 0x0b));
	uint64_t arg[4] = { 0 };

	fz_ioctl(c, FZ_RAW_UNKNOWN, f->fd,
		 _IOC((unsigned int)(r >> 8) & 3, DRM_IOCTL_BASE, nr,
		      sizeof(arg)),
		 arg, sizeof(arg), FZ_RAW);
}

typedef void (*fast_fn)(struct fz_child *c, struct fz_file *f, uint64_t r);

/* The cheap calls, each as likely as the others (16 entries). */
static const fast_fn fast_calls[16] = {
	fast_query, fast_get_param, fast_get_param, fast_set_param,
	fast_ctx_destroy, fast_mmap_offset, fast_gem_close, fast_vm_unmap,
	fast_vm_map, fast_exec, fast_exec, fast_sched, fast_syncobj_wait,
	fast_syncobj_destroy, fast_syncobj_array, fast_raw_unknown,
};

/* One random word picks the file, the call and its argument. */
static void fast_one(struct fz_child *c)
{
	uint64_t r = fz_rand(&c->rng);
	struct fz_file *f = &c->files[r & 1];

	fast_calls[(r >> 1) % 16](c, f, r >> 8);
}

void fz_fast(struct fz_child *c, unsigned int n)
{
	while (n--)
		fast_one(c);
}
