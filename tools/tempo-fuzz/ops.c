// SPDX-License-Identifier: GPL-2.0-only
/*
 * One random operation per call of fz_one(): pick an ioctl by weight, fill
 * its argument with a mix of valid values (from the file's pools of
 * handles, contexts, syncobjs and mappings), stale and guessed ones, edge
 * values and bad pointers, call it through fz_ioctl() and keep the pools
 * up to date with what succeeded.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/time.h>

#include <linux/sync_file.h>

#include "fuzz.h"

#define R (&c->rng)
#define PTR(p) ((uint64_t)(uintptr_t)(p))

/* Scratch layout: one area per kind of array of a call. */
#define SC_BATCHES	0
#define SC_IN		1024
#define SC_OUT		4096
#define SC_EXT		8192
#define SC_SLOTS	16384
#define SC_HANDLES	24576
#define SC_POINTS	40960

static bool privileged(const struct fz_child *c)
{
	return c->dev.max_priority > DRM_TEMPO_PRIORITY_NORMAL;
}

static struct fz_file *pick_file(struct fz_child *c)
{
	return &c->files[fz_below(R, FZ_FILES)];
}

static struct fz_file *other_file(struct fz_child *c, struct fz_file *f)
{
	return &c->files[f == &c->files[0]];
}

/* ------------------------------------------------------------------------ */
/* Pools */

static void stale_push(uint32_t *stale, unsigned int *n, uint32_t v)
{
	if (*n < FZ_STALE)
		stale[(*n)++] = v;
	else
		stale[v % FZ_STALE] = v;
}

static uint32_t pick_id(struct fz_child *c, const uint32_t *pool,
			unsigned int n, const uint32_t *stale,
			unsigned int nstale, const uint32_t *foreign,
			unsigned int nforeign)
{
	switch (fz_below(R, 10)) {
	case 0:
		return nstale ? stale[fz_below(R, nstale)] : 0;
	case 1:
		return nforeign ? foreign[fz_below(R, nforeign)] : 1;
	case 2:
		return fz_edge32(R);
	case 3:
		return fz_below(R, 80);
	default:
		return n ? pool[fz_below(R, n)] : fz_below(R, 8);
	}
}

static uint32_t pick_bo(struct fz_child *c, struct fz_file *f)
{
	struct fz_file *o = other_file(c, f);

	return pick_id(c, f->bos, f->nbos, f->stale_bos, f->nstale_bos,
		       o->bos, o->nbos);
}

static uint32_t pick_ctx(struct fz_child *c, struct fz_file *f)
{
	struct fz_file *o = other_file(c, f);

	return pick_id(c, f->ctxs, f->nctxs, f->stale_ctxs, f->nstale_ctxs,
		       o->ctxs, o->nctxs);
}

static uint32_t pick_sync(struct fz_child *c, struct fz_file *f)
{
	struct fz_file *o = other_file(c, f);

	return pick_id(c, f->syncs, f->nsyncs, f->stale_syncs,
		       f->nstale_syncs, o->syncs, o->nsyncs);
}

static int find(const uint32_t *pool, unsigned int n, uint32_t v)
{
	for (unsigned int i = 0; i < n; i++)
		if (pool[i] == v)
			return (int)i;
	return -1;
}

/* Drop @v from a pool (it was closed or destroyed) and remember it. */
static void retire(uint32_t *pool, unsigned int *n, uint32_t *stale,
		   unsigned int *nstale, uint32_t v, uint64_t *sizes)
{
	int i = find(pool, *n, v);

	if (i < 0)
		return;
	pool[i] = pool[*n - 1];
	if (sizes)
		sizes[i] = sizes[*n - 1];
	(*n)--;
	stale_push(stale, nstale, v);
}

static uint64_t bo_size_of(struct fz_file *f, uint32_t handle)
{
	int i = find(f->bos, f->nbos, handle);

	return i < 0 ? 4096 : f->bo_sizes[i];
}

/* ------------------------------------------------------------------------ */
/* Common argument pieces */

static uint32_t mbz32(struct fz_child *c, unsigned int *flags)
{
	if (!fz_chance(R, 12))
		return 0;
	*flags |= FZ_MUST_FAIL;
	return fz_edge32(R) | 1u << fz_below(R, 32);
}

static int32_t pick_priority(struct fz_child *c)
{
	static const int32_t valid[] = {
		DRM_TEMPO_PRIORITY_VERY_LOW, DRM_TEMPO_PRIORITY_LOW,
		DRM_TEMPO_PRIORITY_NORMAL, DRM_TEMPO_PRIORITY_HIGH,
		DRM_TEMPO_PRIORITY_VERY_HIGH, 1, -1,
	};

	if (fz_chance(R, 4))
		return (int32_t)fz_edge32(R);
	return valid[fz_below(R, ARRAY_SIZE(valid))];
}

/*
 * An extension chain in scratch, of headers only. Unless every name is
 * one of the ioctl's @num_names and every pad is zero, or the chain ends
 * on a misaligned link (whose header is anything), the call must fail:
 * -EINVAL, -EFAULT or -E2BIG.
 */
static uint64_t ext_chain(struct fz_child *c, unsigned int *flags,
			  uint32_t num_names)
{
	struct drm_tempo_user_extension *e = (void *)(c->scratch + SC_EXT);
	bool invalid = false;
	unsigned int n, i;

	if (!fz_chance(R, 8))
		return 0;
	if (fz_chance(R, 8)) {
		*flags |= FZ_MUST_FAIL;
		return fz_ptr_bad(c) ?: 1;
	}
	n = 1 + fz_below(R, DRM_TEMPO_MAX_EXTENSIONS + 4);
	for (i = 0; i < n; i++) {
		e[i].name = fz_chance(R, 2) ? fz_below(R, 4) : fz_edge32(R);
		e[i].pad = fz_chance(R, 4) ? fz_edge32(R) : 0;
		e[i].next = i + 1 < n ? PTR(&e[i + 1]) : 0;
		if (i < DRM_TEMPO_MAX_EXTENSIONS &&
		    (e[i].name >= num_names || e[i].pad))
			invalid = true;
	}
	if (n > DRM_TEMPO_MAX_EXTENSIONS)
		invalid = true;
	switch (fz_below(R, 5)) {
	case 0:	/* a loop: too long, unless a header fails first */
		e[n - 1].next = PTR(&e[fz_below(R, n)]);
		invalid = true;
		break;
	case 1:
		e[n - 1].next = fz_ptr_bad(c);
		invalid = true;
		break;
	case 2:	/* misaligned link: its header is whatever the bytes say */
		e[n - 1].next = PTR(&e[0]) + 1 + fz_below(R, 7);
		break;
	default:
		break;
	}
	if (invalid)
		*flags |= FZ_MUST_FAIL;
	return PTR(&e[0]);
}

/* Engines of one class, from the query. */
static unsigned int class_engines(struct fz_child *c, unsigned int cls,
				  struct drm_tempo_engine *out)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < c->num_engines; i++)
		if (c->engines[i].engine_class == cls)
			out[n++] = c->engines[i];
	return n;
}

/*
 * A load-balancing extension for slot @slot in @ext, over @siblings,
 * mostly valid: the width of the slot (1) and siblings per batch in @n.
 */
static unsigned int ext_load_balance(struct fz_child *c, void *ext,
				     uint32_t slot, unsigned int k,
				     struct drm_tempo_engine *siblings,
				     unsigned int *n)
{
	struct drm_tempo_ctx_ext_load_balance lb = {
		.base.name = DRM_TEMPO_CTX_EXT_LOAD_BALANCE,
		.slot = fz_chance(R, 16) ? fz_edge32(R) : slot,
		.num_siblings = 1 + fz_below(R, k),
		.siblings = PTR(siblings),
	};

	*n = lb.num_siblings;
	if (fz_chance(R, 16))
		lb.num_siblings = fz_edge32(R);
	if (fz_chance(R, 24))
		lb.flags = fz_edge32(R);
	memcpy(ext, &lb, sizeof(lb));
	return 1;
}

/* The same for a parallel extension: its width, capped at 8. */
static unsigned int ext_parallel(struct fz_child *c, void *ext, uint32_t slot,
				 struct drm_tempo_engine *engines,
				 unsigned int *n)
{
	struct drm_tempo_ctx_ext_parallel par = {
		.base.name = DRM_TEMPO_CTX_EXT_PARALLEL,
		.slot = fz_chance(R, 16) ? fz_edge32(R) : slot,
		.width = (uint16_t)(2 + fz_below(R, 3)),
		.num_siblings = (uint16_t)(1 + fz_below(R, 2)),
		.engines = PTR(engines),
	};

	if (fz_chance(R, 16))
		par.width = (uint16_t)fz_edge32(R);
	if (fz_chance(R, 24))
		par.mbz = fz_edge32(R);
	*n = par.num_siblings;
	memcpy(ext, &par, sizeof(par));
	return par.width < 8 ? par.width : 8;
}

/*
 * One engine-map extension for slot @slot at @ext, over engines of one
 * class written from @engines[*next]: columns of distinct engines of
 * the class, rotated, sometimes spoiled. false when the class has none.
 */
static bool slot_ext(struct fz_child *c, void *ext, uint32_t slot,
		     struct drm_tempo_engine *engines, unsigned int *next,
		     unsigned int *flags)
{
	struct drm_tempo_engine cls[64];
	unsigned int k, width, n;

	k = class_engines(c, fz_below(R, 3), cls);
	if (!k)
		return false;
	if (fz_chance(R, 2))
		width = ext_load_balance(c, ext, slot, k, engines + *next, &n);
	else
		width = ext_parallel(c, ext, slot, engines + *next, &n);
	for (unsigned int w = 0; w < width; w++)
		for (unsigned int j = 0; j < n && *next < 500; j++)
			engines[(*next)++] = cls[(w + j) % k];
	if (fz_chance(R, 16) && *next)
		engines[*next - 1] = c->engines[fz_below(R, c->num_engines)];
	if (fz_chance(R, 32)) {
		((struct drm_tempo_user_extension *)ext)->pad = 1;
		*flags |= FZ_MUST_FAIL;
	}
	return true;
}

/*
 * Engine-map extensions of CTX_CREATE for the slots listed as
 * { 0, INSTANCE_NONE }: load-balanced or parallel slots over engines of
 * one class, mostly valid, sometimes spoiled. Outcomes depend on the
 * contents, so only an unknown name or a non-zero pad makes the call one
 * that must fail.
 */
static uint64_t ctx_exts(struct fz_child *c, struct drm_tempo_engine *slots,
			 uint32_t num_slots, unsigned int *flags)
{
	uint8_t *area = c->scratch + SC_EXT;
	struct drm_tempo_engine *engines = (void *)(area + 4096);
	unsigned int next_engine = 0, nexts = 0;
	__u64 first = 0, *link = &first;

	if (fz_chance(R, 8))
		return ext_chain(c, flags, DRM_TEMPO_CTX_EXT_PARALLEL + 1);
	for (uint32_t i = 0; i < num_slots && i < 96 && nexts < 24; i++) {
		bool none = slots[i].engine_class == 0 &&
			    slots[i].engine_instance == DRM_TEMPO_ENGINE_INSTANCE_NONE;
		void *e = area + 48 * nexts;

		if (!none || fz_chance(R, 16) ||
		    !slot_ext(c, e, i, engines, &next_engine, flags))
			continue;
		*link = PTR(e);
		link = &((struct drm_tempo_user_extension *)e)->next;
		*link = 0;
		nexts++;
	}
	return first;
}

/*
 * The argument pointer: usually @arg; sometimes a bad pointer (any ioctl
 * may then fail with -EFAULT) or, for structures the kernel writes back,
 * a read-only copy (the ioctl runs, copying the result out fails).
 */
static void *arg_ptr(struct fz_child *c, void *arg, size_t size,
		     bool readonly_ok, unsigned int *flags)
{
	(void)flags;
	if (!fz_chance(R, 64))
		return arg;
	/* fz_ioctl() adds FZ_BAD_ARG: argument order is unspecified. */
	c->bad_arg = true;
	if (readonly_ok && fz_chance(R, 2) && size <= 4096 &&
	    !mprotect(c->ro_page, 4096, PROT_READ | PROT_WRITE)) {
		/* The same bytes in a read-only page: copied in, not out. */
		memcpy(c->ro_page, arg, size);
		mprotect(c->ro_page, 4096, PROT_READ);
		return c->ro_page;
	}
	return (void *)(uintptr_t)fz_ptr_bad(c);
}

/* ------------------------------------------------------------------------ */
/* Tempo ioctls */

static void op_query(struct fz_child *c)
{
	struct fz_file *f = pick_file(c);
	struct drm_tempo_query q = { 0 };
	unsigned int flags = 0;
	uint32_t sizes[4] = {
		sizeof(struct drm_tempo_query_device),
		8 + 8 * c->num_engines,
		8 + 8 * c->dev.num_hqds,
		sizeof(struct drm_tempo_query_limits),
	};

	q.query = fz_chance(R, 6) ? fz_edge32(R) : fz_below(R, 4);
	q.size = fz_count32(R, 5, sizes[q.query % 4]);
	if (fz_chance(R, 5))	/* near the answer's size */
		q.size = sizes[q.query % 4] + fz_below(R, 17) - 8;
	q.data = fz_chance(R, 5) ? fz_ptr_bad(c) :
		 fz_ptr_junk(c, q.size < FZ_JUNK_SIZE ? q.size : 0);
	if (fz_chance(R, 16)) {
		/* QUERY takes no extension at all. */
		q.extensions = fz_edge64(R) | 1;
		flags |= FZ_MUST_FAIL;
	}
	q.flags = mbz32(c, &flags);
	q.pad = mbz32(c, &flags);
	fz_ioctl(c, FZ_QUERY, f->fd, DRM_IOCTL_TEMPO_QUERY,
		 arg_ptr(c, &q, sizeof(q), false, &flags), sizeof(q), flags);
}

static void gem_close(struct fz_child *c, struct fz_file *f, uint32_t handle)
{
	struct drm_gem_close gc = { .handle = handle };

	if (!fz_ioctl(c, FZ_GEM_CLOSE, f->fd, DRM_IOCTL_GEM_CLOSE, &gc,
		      sizeof(gc), 0))
		retire(f->bos, &f->nbos, f->stale_bos, &f->nstale_bos, handle,
		       f->bo_sizes);
}

static void op_bo_create(struct fz_child *c)
{
	struct fz_file *f = pick_file(c);
	struct drm_tempo_bo_create bc = { 0 };
	unsigned int flags = 0;
	void *arg;

	bc.size = fz_chance(R, 3) ? fz_edge64(R) : 1 + fz_below(R, 128 * 1024);
	bc.flags = fz_below(R, 2);	/* shared or private to the file's VM */
	if (fz_chance(R, 12)) {
		bc.flags = fz_edge32(R);
		if (bc.flags & ~DRM_TEMPO_BO_CREATE_FLAGS)
			flags |= FZ_MUST_FAIL;
	}
	bc.handle = fz_edge32(R);	/* output: ignored */
	arg = arg_ptr(c, &bc, sizeof(bc), false, &flags);
	if (fz_ioctl(c, FZ_BO_CREATE, f->fd, DRM_IOCTL_TEMPO_BO_CREATE, arg,
		     sizeof(bc), flags) || arg != &bc)
		return;
	/* Big ones are never mapped: a GPU mapping pins the whole buffer. */
	if (bc.size > 1024 * 1024 || f->nbos == FZ_MAX_BOS) {
		gem_close(c, f, bc.handle);
		return;
	}
	f->bo_sizes[f->nbos] = (bc.size + 4095) & ~4095ull;
	f->bos[f->nbos++] = bc.handle;
}

static void op_gem_close(struct fz_child *c)
{
	struct fz_file *f = pick_file(c);

	gem_close(c, f, pick_bo(c, f));
}

static void op_bo_mmap_offset(struct fz_child *c)
{
	struct fz_file *f = pick_file(c);
	struct drm_tempo_bo_mmap_offset mo = { .handle = pick_bo(c, f) };
	unsigned int flags = 0;
	void *arg;

	mo.flags = mbz32(c, &flags);
	arg = arg_ptr(c, &mo, sizeof(mo), false, &flags);
	if (fz_ioctl(c, FZ_BO_MMAP_OFFSET, f->fd,
		     DRM_IOCTL_TEMPO_BO_MMAP_OFFSET, arg, sizeof(mo), flags) ||
	    arg != &mo || !fz_chance(R, 8))
		return;
	/* Map it, touch it, unmap it; sizes past the end must fail. */
	{
		uint64_t size = bo_size_of(f, mo.handle);
		uint8_t *p;

		if (fz_chance(R, 8))
			size += 4096 * (1 + fz_below(R, 4));
		p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, f->fd,
			 (off_t)mo.offset);
		if (p == MAP_FAILED)
			return;
		if (size <= bo_size_of(f, mo.handle) &&
		    find(f->bos, f->nbos, mo.handle) >= 0) {
			p[0] ^= 1;
			p[size - 1] ^= 1;
		}
		munmap(p, size);
	}
}

static void vm_unmap(struct fz_child *c, struct fz_file *f, uint64_t va,
		     uint64_t size, unsigned int flags)
{
	struct drm_tempo_vm_unmap u = { .va = va, .size = size };

	if (fz_ioctl(c, FZ_VM_UNMAP, f->fd, DRM_IOCTL_TEMPO_VM_UNMAP, &u,
		     sizeof(u), flags))
		return;
	for (unsigned int i = 0; i < f->nmaps; i++) {
		if (f->maps[i].va == va && f->maps[i].size == size) {
			f->maps[i] = f->maps[--f->nmaps];
			if (f->nstale_maps < FZ_STALE)
				f->stale_maps[f->nstale_maps++] =
					(struct fz_map){ va, size };
			break;
		}
	}
}

/* Where VM_MAP maps: mostly free room, sometimes anything, or AUTO_VA. */
static uint64_t map_va(struct fz_child *c, uint32_t map_flags,
		       unsigned int *flags)
{
	uint64_t va = 0;

	if (!(map_flags & DRM_TEMPO_VM_MAP_AUTO_VA))
		return fz_chance(R, 4) ? fz_edge64(R) :
		       c->dev.va_start + 4096ull * fz_below(R, 1u << 20) * 64;
	if (fz_chance(R, 12))
		va = fz_edge64(R);
	if (va)
		*flags |= FZ_MUST_FAIL;	/* MBZ with AUTO_VA */
	return va;
}

/* The range of a buffer of @bo_size bytes that VM_MAP maps. */
static void map_range(struct fz_child *c, uint64_t bo_size,
		      struct drm_tempo_vm_map *m)
{
	uint32_t pick = fz_below(R, 6);

	m->bo_offset = 0;
	if (pick == 0)
		m->bo_offset = fz_edge64(R);
	else if (pick == 1)
		m->bo_offset = 4096ull * fz_below(R, (uint32_t)(bo_size / 4096) +
						      1);
	pick = fz_below(R, 6);
	m->size = bo_size > m->bo_offset ? bo_size - m->bo_offset : 4096;
	if (pick == 0)
		m->size = fz_edge64(R);
	else if (pick == 1)
		m->size = 4096ull * (1 + fz_below(R, 16));
}

static void op_vm_map(struct fz_child *c)
{
	struct fz_file *f = pick_file(c);
	struct drm_tempo_vm_map m = { 0 };
	unsigned int flags = 0;
	void *arg;

	m.handle = pick_bo(c, f);
	m.flags = fz_below(R, 4);
	if (fz_chance(R, 12)) {
		m.flags = fz_edge32(R);
		if (m.flags & ~DRM_TEMPO_VM_MAP_FLAGS)
			flags |= FZ_MUST_FAIL;
	}
	m.va = map_va(c, m.flags, &flags);
	map_range(c, bo_size_of(f, m.handle), &m);
	arg = arg_ptr(c, &m, sizeof(m), true, &flags);
	if (fz_ioctl(c, FZ_VM_MAP, f->fd, DRM_IOCTL_TEMPO_VM_MAP, arg,
		     sizeof(m), flags) || arg != &m)
		return;
	if (f->nmaps == FZ_MAX_MAPS) {
		vm_unmap(c, f, m.va, m.size, 0);
		return;
	}
	f->maps[f->nmaps++] = (struct fz_map){ m.va, m.size };
}

static void op_vm_unmap(struct fz_child *c)
{
	struct fz_file *f = pick_file(c);
	struct drm_tempo_vm_unmap u = { 0 };
	unsigned int flags = 0;

	if (f->nmaps && fz_chance(R, 2)) {
		struct fz_map *m = &f->maps[fz_below(R, f->nmaps)];

		u.va = m->va;
		u.size = m->size;
		if (fz_chance(R, 4)) {	/* part of it, or more */
			if (fz_chance(R, 2))
				u.va += 4096;
			else
				u.size += fz_chance(R, 2) ? 4096 : -4096ull;
		}
	} else if (f->nstale_maps && fz_chance(R, 2)) {
		u.va = f->stale_maps[fz_below(R, f->nstale_maps)].va;
		u.size = f->stale_maps[fz_below(R, f->nstale_maps)].size;
	} else {
		u.va = fz_edge64(R);
		u.size = fz_edge64(R);
	}
	u.flags = mbz32(c, &flags);
	u.pad = mbz32(c, &flags);
	if (fz_ioctl(c, FZ_VM_UNMAP, f->fd, DRM_IOCTL_TEMPO_VM_UNMAP,
		     arg_ptr(c, &u, sizeof(u), false, &flags), sizeof(u),
		     flags))
		return;
	for (unsigned int i = 0; i < f->nmaps; i++) {
		if (f->maps[i].va == u.va && f->maps[i].size == u.size) {
			f->maps[i] = f->maps[--f->nmaps];
			if (f->nstale_maps < FZ_STALE)
				f->stale_maps[f->nstale_maps++] =
					(struct fz_map){ u.va, u.size };
			break;
		}
	}
}

static void ctx_destroy(struct fz_child *c, struct fz_file *f, uint32_t id,
			unsigned int flags, uint32_t pad)
{
	struct drm_tempo_ctx_destroy d = { .ctx_id = id, .pad = pad };

	if (!fz_ioctl(c, FZ_CTX_DESTROY, f->fd, DRM_IOCTL_TEMPO_CTX_DESTROY, &d,
		      sizeof(d), flags))
		retire(f->ctxs, &f->nctxs, f->stale_ctxs, &f->nstale_ctxs, id,
		       NULL);
}

static void op_ctx_create(struct fz_child *c)
{
	struct fz_file *f = pick_file(c);
	struct drm_tempo_ctx_create cc = { 0 };
	struct drm_tempo_engine *slots = (void *)(c->scratch + SC_SLOTS);
	unsigned int flags = 0;
	void *arg;

	cc.flags = mbz32(c, &flags);
	cc.priority = pick_priority(c);
	cc.num_slots = fz_count32(R, 6, 1 + fz_below(R, 8));
	if (fz_chance(R, 6))	/* at the limit or one over */
		cc.num_slots = c->dev.max_slots + fz_below(R, 2);
	for (uint32_t i = 0; i < 96; i++) {
		slots[i] = c->engines[fz_below(R, c->num_engines)];
		if (fz_chance(R, 3))
			slots[i] = (struct drm_tempo_engine){
				0, DRM_TEMPO_ENGINE_INSTANCE_NONE };
		if (fz_chance(R, 48)) {
			slots[i].engine_class = (uint16_t)fz_edge32(R);
			slots[i].engine_instance = fz_chance(R, 2) ?
				DRM_TEMPO_ENGINE_INSTANCE_NONE : (uint16_t)fz_edge32(R);
		}
	}
	cc.slots = fz_chance(R, 10) ? fz_ptr_bad(c) : PTR(slots);
	cc.extensions = fz_chance(R, 3) ? ctx_exts(c, slots, cc.num_slots, &flags) : 0;
	cc.ctx_id = fz_edge32(R);	/* output */
	arg = arg_ptr(c, &cc, sizeof(cc), false, &flags);
	if (fz_ioctl(c, FZ_CTX_CREATE, f->fd, DRM_IOCTL_TEMPO_CTX_CREATE, arg,
		     sizeof(cc), flags) || arg != &cc)
		return;
	if (!privileged(c) && cc.priority > DRM_TEMPO_PRIORITY_NORMAL)
		fz_violation(c, FZ_CTX_CREATE, 0,
			     "an unprivileged file got a priority above normal",
			     &cc, sizeof(cc));
	if (cc.ctx_id == 0)
		fz_violation(c, FZ_CTX_CREATE, 0, "context id 0", &cc,
			     sizeof(cc));
	if (f->nctxs == FZ_MAX_CTX)
		ctx_destroy(c, f, f->ctxs[fz_below(R, f->nctxs)], 0, 0);
	if (f->nctxs < FZ_MAX_CTX)
		f->ctxs[f->nctxs++] = cc.ctx_id;
	else
		ctx_destroy(c, f, cc.ctx_id, 0, 0);
}

static void op_ctx_destroy(struct fz_child *c)
{
	struct fz_file *f = pick_file(c);
	unsigned int flags = 0;
	uint32_t pad = mbz32(c, &flags);

	uint32_t id = pick_ctx(c, f);

	/* Keep one context per file for the exec path. */
	if (f->nctxs <= 1 && !pad)
		return;
	ctx_destroy(c, f, id, flags, pad);
}

static void op_ctx_param(struct fz_child *c, bool set)
{
	struct fz_file *f = pick_file(c);
	struct drm_tempo_ctx_param p = { 0 };
	unsigned int flags = 0;
	enum fz_op op = set ? FZ_CTX_SET_PARAM : FZ_CTX_GET_PARAM;

	p.ctx_id = pick_ctx(c, f);
	p.param = fz_chance(R, 6) ? fz_edge32(R) : fz_below(R, 3);
	if (set && p.param != DRM_TEMPO_CTX_PARAM_PRIORITY)
		flags |= FZ_MUST_FAIL;
	if (!set && p.param > DRM_TEMPO_CTX_PARAM_RESET_COUNT)
		flags |= FZ_MUST_FAIL;
	p.value = fz_chance(R, 3) ? (int64_t)fz_edge64(R) : pick_priority(c);
	if (fz_chance(R, 12)) {
		p.pad = fz_edge64(R) | 1;
		flags |= FZ_MUST_FAIL;
	}
	if (fz_ioctl(c, op, f->fd, set ? DRM_IOCTL_TEMPO_CTX_SET_PARAM :
					 DRM_IOCTL_TEMPO_CTX_GET_PARAM,
		     arg_ptr(c, &p, sizeof(p), !set, &flags), sizeof(p), flags))
		return;
	if (set && !privileged(c) && p.value > DRM_TEMPO_PRIORITY_NORMAL)
		fz_violation(c, op, 0,
			     "an unprivileged file raised a priority above normal",
			     &p, sizeof(p));
}

static int any_fence(struct fz_child *c)
{
	return c->njobs ? c->jobs[fz_below(R, c->njobs)].fence : -1;
}

static void op_sched(struct fz_child *c)
{
	struct fz_file *f = pick_file(c);
	struct fz_file *t = fz_chance(R, 4) ? f : other_file(c, f);
	struct drm_tempo_sched s = { 0 };
	unsigned int flags = 0;

	s.flags = mbz32(c, &flags);
	s.pad = mbz32(c, &flags);
	s.op = fz_chance(R, 8) ? fz_edge32(R) : fz_below(R, 2);
	if (s.op > DRM_TEMPO_SCHED_CTX_PRIORITY_OVERRIDE)
		flags |= FZ_MUST_FAIL;
	switch (fz_below(R, 8)) {
	case 0:
		s.fd = c->other_fd;
		break;
	case 1:
		s.fd = any_fence(c);
		break;
	case 2:
		s.fd = (int32_t)fz_edge32(R);
		break;
	case 3:
		s.fd = 1000 + (int32_t)fz_below(R, 1000);
		break;
	default:
		s.fd = t->fd;
		break;
	}
	if (s.op == DRM_TEMPO_SCHED_CTX_PRIORITY_OVERRIDE) {
		s.ctx_id = pick_ctx(c, t);
	} else if (fz_chance(R, 12)) {
		s.ctx_id = fz_edge32(R) | 1;
		flags |= FZ_MUST_FAIL;
	}
	s.priority = fz_chance(R,
			       4) ? DRM_TEMPO_PRIORITY_UNSET : pick_priority(c);
	if (fz_ioctl(c, FZ_SCHED, f->fd, DRM_IOCTL_TEMPO_SCHED,
		     arg_ptr(c, &s, sizeof(s), false, &flags), sizeof(s),
		     flags))
		return;
	if (!privileged(c))
		fz_violation(c, FZ_SCHED, 0,
			     "an unprivileged file overrode priorities", &s,
			     sizeof(s));
}

/* ------------------------------------------------------------------------ */
/* Exec */

static void job_add(struct fz_child *c, int fence, bool risky)
{
	if (fence < 0)
		return;
	if (c->njobs == FZ_MAX_JOBS)
		fz_reap(c, false, 0);
	if (c->njobs == FZ_MAX_JOBS) {
		/* Should not happen: the caller made room. */
		close(fence);
		return;
	}
	c->jobs[c->njobs++] = (struct fz_job){ fence, risky };
	c->nrisky += risky;
	c->sh->jobs_submitted++;
}

static void job_done(struct fz_child *c, unsigned int i)
{
	int status = tempo_fence_status(c->jobs[i].fence);

	if (status == 1) {
		fz_count(c, FZ_FENCE, 0);
	} else if (status < 0 && status > TEMPO_FENCE_UNREADABLE) {
		fz_count(c, FZ_FENCE, -status);
		if (!fz_errno_allowed(FZ_FENCE, -status, 0))
			fz_violation(c, FZ_FENCE, -status,
				     "job fence error outside the documented set",
				     NULL, 0);
	} else {
		fz_violation(c, FZ_FENCE,
			     status < TEMPO_FENCE_UNREADABLE ?
			     TEMPO_FENCE_UNREADABLE - status : 0,
			     "sync_file of a completed job has no valid status",
			     NULL, 0);
	}
	close(c->jobs[i].fence);
	c->nrisky -= c->jobs[i].risky;
	c->jobs[i] = c->jobs[--c->njobs];
	c->sh->jobs_reaped++;
}

void fz_reap(struct fz_child *c, bool wait_all, int timeout_ms)
{
	uint64_t end = tempo_now_ns() + (uint64_t)timeout_ms * 1000000ull;
	struct pollfd p[FZ_MAX_JOBS];

	for (;;) {
		uint64_t now;
		int ret;

		for (unsigned int i = 0; i < c->njobs; i++)
			p[i] = (struct pollfd){ .fd = c->jobs[i].fence,
						.events = POLLIN };
		ret = poll(p, c->njobs, 0);
		if (ret > 0) {
			for (unsigned int i = c->njobs; i--;)
				if (p[i].revents)
					job_done(c, i);
		}
		if (!c->njobs || !wait_all)
			return;
		now = tempo_now_ns();
		if (now >= end)
			break;
		for (unsigned int i = 0; i < c->njobs; i++)
			p[i] = (struct pollfd){ .fd = c->jobs[i].fence,
						.events = POLLIN };
		poll(p, c->njobs, (int)((end - now) / 1000000ull) + 1);
	}
	fz_violation(c, FZ_FENCE, 0, "jobs still running long after the job timeout",
		     NULL, 0);
	fprintf(stderr, "tempo-fuzz: %u jobs did not end within %d ms\n",
		c->njobs, timeout_ms);
}

/* Pool syncobj array entries: mostly valid handles, points 0 or small. */
static void fill_syncs(struct fz_child *c, struct fz_file *f,
		       struct drm_tempo_sync *s, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		s[i].handle = pick_sync(c, f);
		s[i].flags = fz_chance(R, 24) ? fz_edge32(R) : 0;
		s[i].point = fz_chance(R, 2) ? 0 : fz_below(R, 8);
		if (fz_chance(R, 16))
			s[i].point = fz_edge64(R);
	}
}

/* An exec that looks right: a valid context, a generated batch. */
static void exec_valid(struct fz_child *c)
{
	struct fz_file *f = pick_file(c);
	struct drm_tempo_exec x = { 0 };
	uint64_t *batches = (void *)(c->scratch + SC_BATCHES);
	struct drm_tempo_sync *in = (void *)(c->scratch + SC_IN);
	struct drm_tempo_sync *out = (void *)(c->scratch + SC_OUT);
	bool risky;
	int ret;

	if (c->njobs >= FZ_MAX_JOBS - 1)
		fz_reap(c, false, 0);
	if (c->njobs >= FZ_MAX_JOBS - 1)
		return;
	if (!f->nctxs)
		return;
	batches[0] = fz_batch(c, f, c->nrisky < FZ_MAX_RISKY, &risky);
	x.ctx_id = f->ctxs[fz_below(R, f->nctxs)];
	x.slot = fz_chance(R, 16) ? fz_edge32(R) : fz_below(R, 8);
	x.flags = DRM_TEMPO_EXEC_OUT_SYNC_FILE;
	x.num_batches = 1;
	/*
	 * Parallel slots take their width in batches: the other batches are
	 * never risky, so a gang holds at most one member that may hang.
	 */
	if (fz_chance(R, 4) && c->dev.max_batches > 1) {
		bool r2;

		x.num_batches = 2 + fz_below(R, c->dev.max_batches - 1);
		for (uint32_t i = 1; i < x.num_batches; i++)
			batches[i] = fz_batch(c, f, false, &r2);
	}
	x.batches = PTR(batches);
	x.num_in_syncs = fz_chance(R, 3) ? fz_below(R, 3) : 0;
	x.num_out_syncs = fz_chance(R, 3) ? fz_below(R, 3) : 0;
	fill_syncs(c, f, in, x.num_in_syncs);
	fill_syncs(c, f, out, x.num_out_syncs);
	x.in_syncs = PTR(in);
	x.out_syncs = PTR(out);
	x.out_fence_fd = -1;
	ret = fz_ioctl(c, FZ_EXEC, f->fd, DRM_IOCTL_TEMPO_EXEC, &x, sizeof(x),
		       0);
	if (ret == ECANCELED) {
		/* Banned by an earlier job: replace it by a fresh context. */
		struct drm_tempo_ctx_create cc = { 0 };

		ctx_destroy(c, f, x.ctx_id, 0, 0);
		if (f->nctxs < FZ_MAX_CTX &&
		    !fz_ioctl(c, FZ_CTX_CREATE, f->fd,
			      DRM_IOCTL_TEMPO_CTX_CREATE, &cc, sizeof(cc), 0))
			f->ctxs[f->nctxs++] = cc.ctx_id;
	}
	if (ret)
		return;
	job_add(c, x.out_fence_fd, risky);
}

/* Anything goes; a success (rare) is tracked when it returned a fence. */
static void exec_random(struct fz_child *c)
{
	unsigned int flags = 0;
	void *arg;
	struct fz_file *f = pick_file(c);
	struct drm_tempo_exec x = { 0 };
	uint64_t *batches = (void *)(c->scratch + SC_BATCHES);
	struct drm_tempo_sync *in = (void *)(c->scratch + SC_IN);
	struct drm_tempo_sync *out = (void *)(c->scratch + SC_OUT);

	if (c->njobs >= FZ_MAX_JOBS - 1)
		fz_reap(c, false, 0);
	x.extensions = ext_chain(c, &flags, 0);
	x.ctx_id = pick_ctx(c, f);
	x.slot = fz_chance(R, 3) ? fz_edge32(R) : fz_below(R, c->num_engines);
	x.flags = DRM_TEMPO_EXEC_OUT_SYNC_FILE;
	if (fz_chance(R, 10)) {
		x.flags = fz_edge32(R);
		if (x.flags & ~DRM_TEMPO_EXEC_FLAGS)
			flags |= FZ_MUST_FAIL;
	}
	x.num_batches = fz_chance(R, 4) ? fz_edge32(R) : 1;
	/* Batches of valid-looking exec: unmapped, foreign or garbage. */
	batches[0] = fz_chance(R, 2) ? fz_edge64(R) :
		     other_file(c, f)->cmd.va + FZ_BATCH_SLOT * fz_below(R, 4);
	batches[1] = fz_edge64(R);
	x.batches = fz_chance(R, 6) ? fz_ptr_bad(c) : PTR(batches);
	x.num_in_syncs = fz_chance(R, 4) ? fz_edge32(R) : fz_below(R, 4);
	x.num_out_syncs = fz_chance(R, 4) ? fz_edge32(R) : fz_below(R, 4);
	fill_syncs(c, f, in, 80);
	fill_syncs(c, f, out, 80);
	x.in_syncs = fz_chance(R, 6) ? fz_ptr_bad(c) : PTR(in);
	x.out_syncs = fz_chance(R, 6) ? fz_ptr_bad(c) : PTR(out);
	x.out_fence_fd = (int32_t)fz_edge32(R);
	x.pad = mbz32(c, &flags);
	/* Not a read-only argument: a lost sync_file fd would leak. */
	arg = arg_ptr(c, &x, sizeof(x), false, &flags);
	if (fz_ioctl(c, FZ_EXEC, f->fd, DRM_IOCTL_TEMPO_EXEC, arg, sizeof(x),
		     flags) || arg != &x)
		return;
	if (x.flags & DRM_TEMPO_EXEC_OUT_SYNC_FILE)
		job_add(c, x.out_fence_fd, true);
}

/* ------------------------------------------------------------------------ */
/* DRM core: GEM close (above) and syncobjs */

static void op_syncobj_create(struct fz_child *c)
{
	struct fz_file *f = pick_file(c);
	struct drm_syncobj_create sc = { 0 };
	unsigned int flags = 0;
	void *arg;

	sc.flags = fz_below(R, 2) ? DRM_SYNCOBJ_CREATE_SIGNALED : 0;
	if (fz_chance(R, 12)) {
		sc.flags = fz_edge32(R);
		if (sc.flags & ~DRM_SYNCOBJ_CREATE_SIGNALED)
			flags |= FZ_MUST_FAIL;
	}
	arg = arg_ptr(c, &sc, sizeof(sc), false, &flags);
	if (fz_ioctl(c, FZ_SYNCOBJ_CREATE, f->fd, DRM_IOCTL_SYNCOBJ_CREATE, arg,
		     sizeof(sc), flags) || arg != &sc)
		return;
	if (f->nsyncs < FZ_MAX_SYNCS) {
		f->syncs[f->nsyncs++] = sc.handle;
	} else {
		struct drm_syncobj_destroy sd = { .handle = sc.handle };

		fz_ioctl(c, FZ_SYNCOBJ_DESTROY, f->fd,
			 DRM_IOCTL_SYNCOBJ_DESTROY, &sd, sizeof(sd), 0);
	}
}

static void op_syncobj_destroy(struct fz_child *c)
{
	struct fz_file *f = pick_file(c);
	struct drm_syncobj_destroy sd = { 0 };
	unsigned int flags = 0;

	sd.handle = pick_sync(c, f);
	sd.pad = mbz32(c, &flags);
	if (!fz_ioctl(c, FZ_SYNCOBJ_DESTROY, f->fd, DRM_IOCTL_SYNCOBJ_DESTROY,
		      arg_ptr(c, &sd, sizeof(sd), false, &flags), sizeof(sd),
		      flags))
		retire(f->syncs, &f->nsyncs, f->stale_syncs, &f->nstale_syncs,
		       sd.handle, NULL);
}

/*
 * A syncobj array: a count (huge counts are capped unless asked for: the
 * 6.12 core kmalloc()s count entries before looking at them, and a
 * multi-gigabyte kmalloc() warns) and a handle array.
 */
static uint32_t sync_count(struct fz_child *c)
{
	uint32_t n = fz_count32(R, 8, 1 + fz_below(R, 4));

	if (!c->huge_core_counts && n > (1u << 18))
		n = (1u << 18) + fz_below(R, 16);
	return n;
}

static uint64_t sync_handles(struct fz_child *c, struct fz_file *f,
			     uint32_t n)
{
	uint32_t *h = (void *)(c->scratch + SC_HANDLES);
	uint32_t room = (FZ_SCRATCH_SIZE - SC_HANDLES) / 4;

	if (fz_chance(R, 8))
		return fz_ptr_bad(c);
	for (uint32_t i = 0; i < n && i < room; i++)
		h[i] = pick_sync(c, f);
	return PTR(h);
}

/*
 * Debian 12's libdrm has the 32-byte drm_syncobj_wait of older kernels;
 * 6.12's has deadline_nsec after it. Both sizes are used: the core zero-
 * fills what the caller did not pass.
 */
struct fz_syncobj_wait {
	__u64 handles;
	__s64 timeout_nsec;
	__u32 count_handles;
	__u32 flags;
	__u32 first_signaled;
	__u32 pad;
	__u64 deadline_nsec;
};

#define FZ_WAIT_DEADLINE	(1u << 3)
#define FZ_WAIT_FLAGS		(DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL | \
				 DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT | \
				 FZ_WAIT_DEADLINE)
#define FZ_IOCTL_SYNCOBJ_WAIT	DRM_IOWR(0xC3, struct fz_syncobj_wait)

static void op_syncobj_wait(struct fz_child *c)
{
	static const uint32_t valid[] = {
		0, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL,
		DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT, FZ_WAIT_DEADLINE,
		DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL | DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT,
		FZ_WAIT_FLAGS,
	};
	struct fz_file *f = pick_file(c);
	struct fz_syncobj_wait w = { 0 };
	unsigned int flags = 0;
	struct itimerval it = { .it_value = { .tv_usec = 10000 } };
	struct itimerval off = { 0 };
	int64_t now = (int64_t)tempo_now_ns();
	bool big = fz_chance(R, 2);
	bool armed = false;

	w.count_handles = sync_count(c);
	w.handles = sync_handles(c, f, w.count_handles);
	w.flags = valid[fz_below(R, ARRAY_SIZE(valid))];
	if (fz_chance(R, 12))
		w.flags = fz_edge32(R);
	if (w.flags & ~FZ_WAIT_FLAGS)
		flags |= FZ_MUST_FAIL;	/* checked before anything else */
	switch (fz_below(R, 6)) {
	case 0:
		w.timeout_nsec = now + 1000000 + fz_below(R, 5000000);
		break;
	case 1:
		w.timeout_nsec = (int64_t)fz_edge64(R);
		break;
	case 2:
		w.timeout_nsec = now - 1000000;
		break;
	default:
		w.timeout_nsec = 0;	/* poll */
		break;
	}
	w.deadline_nsec = fz_chance(R, 2) ? (uint64_t)now : fz_edge64(R);
	w.first_signaled = fz_edge32(R);
	/* Any wait that may block ends with EINTR after 10 ms at most. */
	if (w.timeout_nsec > now) {
		setitimer(ITIMER_REAL, &it, NULL);
		armed = true;
	}
	fz_ioctl(c, FZ_SYNCOBJ_WAIT, f->fd,
		 big ? FZ_IOCTL_SYNCOBJ_WAIT : DRM_IOCTL_SYNCOBJ_WAIT,
		 arg_ptr(c, &w, big ? sizeof(w) : sizeof(struct drm_syncobj_wait),
			 true, &flags),
		 big ? sizeof(w) : sizeof(struct drm_syncobj_wait), flags);
	if (armed)
		setitimer(ITIMER_REAL, &off, NULL);
}

static void op_syncobj_array(struct fz_child *c, bool reset)
{
	struct fz_file *f = pick_file(c);
	struct drm_syncobj_array a = { 0 };
	unsigned int flags = 0;
	enum fz_op op = reset ? FZ_SYNCOBJ_RESET : FZ_SYNCOBJ_SIGNAL;

	a.count_handles = sync_count(c);
	a.handles = sync_handles(c, f, a.count_handles);
	a.pad = mbz32(c, &flags);
	fz_ioctl(c, op, f->fd,
		 reset ? DRM_IOCTL_SYNCOBJ_RESET : DRM_IOCTL_SYNCOBJ_SIGNAL,
		 arg_ptr(c, &a, sizeof(a), false, &flags), sizeof(a), flags);
}

static void op_syncobj_timeline_signal(struct fz_child *c)
{
	struct fz_file *f = pick_file(c);
	struct drm_syncobj_timeline_array a = { 0 };
	uint64_t *points = (void *)(c->scratch + SC_POINTS);
	uint32_t room = (FZ_SCRATCH_SIZE - SC_POINTS) / 8;
	unsigned int flags = 0;

	a.count_handles = sync_count(c);
	a.handles = sync_handles(c, f, a.count_handles);
	for (uint32_t i = 0; i < a.count_handles && i < room; i++)
		points[i] = fz_chance(R, 2) ? fz_below(R, 16) : fz_edge64(R);
	a.points = fz_chance(R, 8) ? fz_ptr_bad(c) :
		   fz_chance(R, 8) ? 0 : PTR(points);
	a.flags = mbz32(c, &flags);
	fz_ioctl(c, FZ_SYNCOBJ_TIMELINE_SIGNAL, f->fd,
		 DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL,
		 arg_ptr(c, &a, sizeof(a), false, &flags), sizeof(a), flags);
}

/* ------------------------------------------------------------------------ */
/* Raw numbers: the driver's ioctls with any size and direction */

/* A size for raw number @op: any, near its structure's, or small. */
static unsigned int raw_size(struct fz_child *c, enum fz_op op)
{
	uint32_t pick = fz_below(R, 4);

	if (pick == 0)
		return fz_below(R, 0x4000);
	if (pick > 1)
		return fz_below(R, 129);
	if (op == FZ_RAW_UNKNOWN)
		return 8;
	return (_IOC_SIZE(fz_ops[op].request) + fz_below(R, 17) - 8) & 0x3fff;
}

/* Random bytes for raw number @op, with a few fields kept sane. */
static uint8_t *raw_arg(struct fz_child *c, struct fz_file *f, enum fz_op op,
			unsigned int size)
{
	uint8_t *buf = (uint8_t *)(uintptr_t)fz_ptr_junk(c, size);

	fz_fill(R, buf, size < 256 ? size : 256);
	if (op == FZ_BO_CREATE && size >= 8) {
		/* Keep random buffer sizes small: nothing tracks them. */
		uint64_t s = fz_below(R, 65536);

		memcpy(buf, &s, sizeof(s));
	}
	if (op == FZ_SCHED && size >= 8 && fz_chance(R, 2)) {
		int32_t fd = f->fd;

		memcpy(buf + 4, &fd, sizeof(fd));
	}
	return buf;
}

/*
 * A buffer that a raw BO_CREATE made is not tracked: it is closed so that
 * nothing big is left for a guessed handle to map.
 */
static void raw_close_bo(struct fz_child *c, struct fz_file *f,
			 const uint8_t *buf)
{
	const struct drm_tempo_bo_create *bc = (const void *)buf;

	if (find(f->bos, f->nbos, bc->handle) < 0 &&
	    find(other_file(c, f)->bos, other_file(c, f)->nbos, bc->handle) < 0)
		tempo_gem_close(f->fd, bc->handle);
}

static void op_raw(struct fz_child *c)
{
	struct fz_file *f = pick_file(c);
	unsigned int nr, dir, size, flags = FZ_RAW;
	enum fz_op op;
	uint8_t *buf;
	void *arg;

	if (fz_chance(R, 4))
		nr = DRM_COMMAND_BASE + 0x0b + fz_below(R, DRM_COMMAND_END -
						       DRM_COMMAND_BASE - 0x0b);
	else
		nr = DRM_COMMAND_BASE + fz_below(R, 0x0b);
	op = fz_op_of_nr(nr);
	dir = fz_below(R, 4);
	size = raw_size(c, op);
	arg = buf = raw_arg(c, f, op, size);
	if (fz_chance(R, 8)) {
		arg = (void *)(uintptr_t)fz_ptr_bad(c);
		flags |= FZ_BAD_ARG;
	} else if ((dir & _IOC_READ) && fz_chance(R, 16) && size <= 4096) {
		arg = c->ro_page;
		flags |= FZ_BAD_ARG;
	}
	fz_ioctl(c, op, f->fd, _IOC(dir, DRM_IOCTL_BASE, nr, size), arg, size,
		 flags);
	if (op == FZ_BO_CREATE && arg == buf && (dir & _IOC_READ) &&
	    size >= sizeof(struct drm_tempo_bo_create))
		raw_close_bo(c, f, buf);
}

/* ------------------------------------------------------------------------ */

static void op_gate(struct fz_child *c)
{
	struct fz_file *f = pick_file(c);
	static const uint64_t values[] = { 0, 1, UINT64_MAX };

	__atomic_store_n((uint64_t *)f->data.map + FZ_GATE / 8,
			 values[fz_below(R, 3)], __ATOMIC_SEQ_CST);
	fz_reap(c, false, 0);
}

struct fz_weighted {
	void (*fn)(struct fz_child *c);
	unsigned int weight;
	bool exec;	/* submits jobs: off with --no-exec */
};

static void op_get_param(struct fz_child *c) { op_ctx_param(c, false); }
static void op_set_param(struct fz_child *c) { op_ctx_param(c, true); }
static void op_reset(struct fz_child *c) { op_syncobj_array(c, true); }
static void op_signal(struct fz_child *c) { op_syncobj_array(c, false); }

static const struct fz_weighted table[] = {
	{ op_query, 10, false },
	{ op_bo_create, 3, false },
	{ op_gem_close, 4, false },
	{ op_bo_mmap_offset, 6, false },
	{ op_vm_map, 5, false },
	{ op_vm_unmap, 4, false },
	{ op_ctx_create, 2, false },
	{ op_ctx_destroy, 3, false },
	{ op_get_param, 10, false },
	{ op_set_param, 5, false },
	{ op_sched, 5, false },
	{ exec_random, 12, false },
	{ exec_valid, 3, true },
	{ op_syncobj_create, 2, false },
	{ op_syncobj_destroy, 3, false },
	{ op_syncobj_wait, 4, false },
	{ op_reset, 2, false },
	{ op_signal, 2, false },
	{ op_syncobj_timeline_signal, 2, false },
	{ op_raw, 10, false },
	{ op_gate, 1, false },
};

void fz_one(struct fz_child *c)
{
	static unsigned int total;
	unsigned int w;

	if (!total)
		for (unsigned int i = 0; i < ARRAY_SIZE(table); i++)
			total += table[i].weight;
	w = fz_below(R, total);
	for (unsigned int i = 0; i < ARRAY_SIZE(table); i++) {
		if (w < table[i].weight) {
			if (!(table[i].exec && c->no_exec))
				table[i].fn(c);
			return;
		}
		w -= table[i].weight;
	}
}
