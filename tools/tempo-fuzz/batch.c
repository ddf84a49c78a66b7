// SPDX-License-Identifier: GPL-2.0-only
/*
 * Random batch buffers: mostly well-formed packets aimed at the file's own
 * buffers, mixed with packets aimed at read-only, unmapped and foreign
 * addresses, malformed packets and garbage. Well-formed packets are
 * written with tools/lib/tempo-uapi's packet writers, malformed ones a
 * dword at a time (tempo_emit()).
 *
 * A job that may run until the driver's job timeout is "risky": a WAIT_MEM
 * whose condition may never hold (the gate included: the fuzzer opens it
 * now and then and always before it leaves), a long SPIN, a big
 * ATOMIC_INC, a huge workgroup count, a jump that may loop, garbage that
 * may decode into any of those. The caller keeps only a few risky jobs in
 * flight, since each may hold its hardware queue for the whole timeout.
 */
#include <string.h>

#include "fuzz.h"

/* One batch being generated. */
struct gen {
	struct fz_child *c;
	struct fz_file *f;
	struct fz_rng *r;
	struct tempo_batch b;	/* every generator checks its room first */
	bool allow_risky;
	bool risky;
	/* Payloads of NOP and WRITE_DATA: room for a whole batch. */
	uint32_t words[FZ_BATCH_SLOT / 4];
};

static uint32_t hdr(uint32_t op, uint32_t len)
{
	return DRM_TEMPO_PKT_HEADER(op, len);
}

/* Is there room for @len more dwords (and the END that closes)? */
static bool fits(const struct gen *g, uint32_t len)
{
	return len <= tempo_batch_room(&g->b);
}

/*
 * A GPU address for an access of @len bytes aligned to @align: mostly in
 * the data arena (past the gate), sometimes read-only, unmapped, another
 * file's, misaligned or anything.
 */
static uint64_t target(struct gen *g, uint32_t len, uint32_t align,
		       bool write)
{
	struct fz_file *f = g->f;
	struct fz_rng *r = g->r;
	uint64_t span = FZ_DATA_SIZE - 64 - (len < FZ_DATA_SIZE - 64 ? len : 0);
	uint64_t off = 64 + fz_below(r, (uint32_t)span);

	off &= ~(uint64_t)(align - 1);
	switch (fz_below(r, 16)) {
	case 0:
		return f->ro_va + off;		/* faults for writes */
	case 1:
		return f->hole_va + (off & 4095);
	case 2:	/* the other file's arena: not in this address space */
		return g->c->files[f == &g->c->files[0]].data.va + off +
		       (fz_chance(r, 2) ? 0x10000000ull : 0);
	case 3:
		return f->data.va + off + 1 + fz_below(r, align > 1 ? align - 1 : 3);
	case 4:
		return fz_edge64(r) & ~(uint64_t)(align - 1);
	case 5:	/* right at the end of the arena, running past it */
		return f->data.va + FZ_DATA_SIZE - align;
	case 6:
		return write ? f->data.va + off : f->cmd.va + (off % FZ_CMD_SIZE);
	default:
		return f->data.va + off;
	}
}

static uint32_t small_size(struct fz_rng *r, uint32_t align)
{
	uint32_t s = fz_count32(r, 8, fz_below(r, 16384));

	if (!fz_chance(r, 8))
		s &= ~(align - 1);
	return s;
}

/* ------------------------------------------------------------------------ */
/* Packets, well-formed or nearly */

/* @n random dwords, in g->words. */
static const uint32_t *random_words(struct gen *g, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		g->words[i] = (uint32_t)fz_rand(g->r);
	return g->words;
}

static void gen_nop(struct gen *g)
{
	uint32_t len = 1 + fz_below(g->r, g->c->dev.max_packet_dwords);
	uint32_t n = len - DRM_TEMPO_PKT_NOP_MIN_DW;

	if (fits(g, len))
		tempo_pkt_nop_data(&g->b, random_words(g, n), n);
}

static void gen_write_data(struct gen *g)
{
	uint32_t n = 1 + fz_below(g->r, g->c->dev.max_packet_dwords - 3);
	uint64_t va;

	if (!fits(g, DRM_TEMPO_WRITE_DATA_DATA + n))
		return;
	va = target(g, 4 * n, 4, true);
	tempo_pkt_write_data(&g->b, va, random_words(g, n), n);
}

static void gen_write_timestamp(struct gen *g)
{
	if (fits(g, DRM_TEMPO_PKT_WRITE_TIMESTAMP_DW))
		tempo_pkt_write_timestamp(&g->b, target(g, 8, 8, true));
}

static void gen_copy(struct gen *g)
{
	uint32_t size = small_size(g->r, 1);
	uint64_t dst, src;

	if (!fits(g, DRM_TEMPO_PKT_COPY_DW))
		return;
	dst = target(g, size, 1, true);
	src = target(g, size, 1, false);
	tempo_pkt_copy(&g->b, dst, src, size);
}

static void gen_fill(struct gen *g)
{
	uint32_t size = small_size(g->r, 4);
	uint64_t dst;

	if (!fits(g, DRM_TEMPO_PKT_FILL_DW))
		return;
	dst = target(g, size, 4, true);
	tempo_pkt_fill(&g->b, dst, (uint32_t)fz_rand(g->r), size);
}

static void gen_atomic(struct gen *g)
{
	struct fz_rng *r = g->r;
	uint32_t op = fz_below(r, 2);
	uint64_t v = op == DRM_TEMPO_ATOMIC_INC ? 0 : fz_edge64(r);

	if (!fits(g, DRM_TEMPO_PKT_ATOMIC_DW))
		return;
	if (fz_chance(r, 16))
		op = fz_edge32(r);
	if (fz_chance(r, 16))
		v = fz_edge64(r);
	tempo_pkt_atomic(&g->b, target(g, 8, 8, true), op, v);
}

static void gen_wait_mem(struct gen *g)
{
	struct fz_rng *r = g->r;
	uint64_t va, ref = 0, mask = 0;
	uint32_t cmp = DRM_TEMPO_COMPARE_EQ;

	if (!fits(g, DRM_TEMPO_PKT_WAIT_MEM_DW))
		return;
	switch (g->allow_risky ? fz_below(r, 4) : 3) {
	case 0:	/* the gate */
		va = g->f->data.va + FZ_GATE;
		cmp = DRM_TEMPO_COMPARE_GE;
		ref = 1;
		mask = UINT64_MAX;
		g->risky = true;
		break;
	case 1:	/* anything */
		va = target(g, 8, 8, false);
		cmp = fz_below(r, 7);
		ref = fz_edge64(r);
		mask = fz_edge64(r);
		g->risky = true;
		break;
	case 2:	/* an illegal compare function: fails before waiting */
		va = target(g, 8, 8, false);
		cmp = 6 + fz_below(r, 1000);
		break;
	default: /* holds at once: (mem & 0) == 0, or faults */
		va = target(g, 8, 8, false);
		break;
	}
	tempo_pkt_wait_mem(&g->b, va, cmp, ref, mask);
}

/*
 * A packet of @len dwords, the header and a GPU address for an access of
 * @size bytes aligned to @size, written by @write: now and then with a
 * header that says one dword less or more (illegal) or @len, and the same
 * dwords following.
 */
static void gen_va_packet(struct gen *g, uint32_t op, uint32_t len,
			  uint32_t size,
			  int (*write)(struct tempo_batch *b, uint64_t va))
{
	uint32_t hdr_len = len;
	uint64_t va;

	if (!fits(g, len))
		return;
	if (fz_chance(g->r, 16))
		hdr_len = len - 1 + fz_below(g->r, 3);
	va = target(g, size, size, true);
	if (hdr_len == len) {
		write(&g->b, va);
		return;
	}
	tempo_emit(&g->b, hdr(op, hdr_len));
	tempo_emit_u64(&g->b, va);
}

static void gen_write_engine_id(struct gen *g)
{
	gen_va_packet(g, DRM_TEMPO_PKT_WRITE_ENGINE_ID,
		      DRM_TEMPO_PKT_WRITE_ENGINE_ID_DW, 4,
		      tempo_pkt_write_engine_id);
}

static void gen_write_job_times(struct gen *g)
{
	gen_va_packet(g, DRM_TEMPO_PKT_WRITE_JOB_TIMES,
		      DRM_TEMPO_PKT_WRITE_JOB_TIMES_DW, 32,
		      tempo_pkt_write_job_times);
}

/* ------------------------------------------------------------------------ */
/* DISPATCH */

/* Groups of a DISPATCH: a few, or (risky) edge and wrapping counts. */
static uint64_t dispatch_groups(struct gen *g, uint32_t *gx, uint32_t *gy,
				uint32_t *gz)
{
	struct fz_rng *r = g->r;
	uint32_t max = g->c->dev.max_groups;

	*gx = 1 + fz_below(r, 4);
	*gy = fz_chance(r, 4) ? 1 + fz_below(r, 3) : 1;
	*gz = 1;
	if (g->allow_risky && fz_chance(r, 16)) {
		switch (fz_below(r, 4)) {
		case 0:
			*gx = fz_edge32(r);
			break;
		case 1:	/* 2^64 + 851926 groups: wraps around 64 bits */
			*gx = 0xffff0007u;
			*gy = 0x80007ffdu;
			*gz = 2;
			break;
		default:
			*gx = max + fz_below(r, 2);
			break;
		}
	} else if (fz_chance(r, 32)) {
		*gx = 0;
	}
	return (uint64_t)*gx * *gy * *gz;
}

/* Bytes per workgroup of FILL, COPY and CHECKSUM: mostly sane. */
static uint32_t group_bytes(struct gen *g, uint32_t bytes)
{
	return fz_chance(g->r, 16) ? fz_edge32(g->r) : bytes;
}

/* The arguments of @kernel over @groups groups: their number. */
static uint32_t dispatch_args(struct gen *g, uint32_t kernel, uint64_t groups,
			      uint32_t *args)
{
	struct fz_rng *r = g->r;
	uint32_t bytes = (1 + fz_below(r, 64)) * 4, n = 0;
	uint64_t a, d;

	switch (kernel) {
	case DRM_TEMPO_KERNEL_FILL:
		a = target(g, bytes * (uint32_t)(groups < 64 ? groups : 64), 4,
			   true);
		args[n++] = (uint32_t)a;
		args[n++] = (uint32_t)(a >> 32);
		args[n++] = (uint32_t)fz_rand(r);
		args[n++] = group_bytes(g, bytes);
		return n;
	case DRM_TEMPO_KERNEL_COPY:
	case DRM_TEMPO_KERNEL_CHECKSUM:
		a = target(g, bytes * 4, 4, true);
		d = target(g, bytes * 4, 8, true);
		args[n++] = (uint32_t)a;
		args[n++] = (uint32_t)(a >> 32);
		args[n++] = (uint32_t)d;
		args[n++] = (uint32_t)(d >> 32);
		args[n++] = group_bytes(g, bytes);
		return n;
	case DRM_TEMPO_KERNEL_ATOMIC_INC:
		a = target(g, 8, 8, true);
		args[n++] = (uint32_t)a;
		args[n++] = (uint32_t)(a >> 32);
		args[n++] = 1 + fz_below(r, 64);
		if (g->allow_risky && fz_chance(r, 32)) {
			args[n - 1] = fz_edge32(r);
			g->risky = true;
		}
		return n;
	default:	/* SPIN: nanoseconds per group */
		args[n++] = 1000 + fz_below(r, 50000);
		if (g->allow_risky && fz_chance(r, 32)) {
			args[0] = fz_edge32(r);
			g->risky = true;
		}
		if (groups * args[0] > 10000000ull)
			g->risky = true;
		return n;
	}
}

static void gen_dispatch(struct gen *g)
{
	struct fz_rng *r = g->r;
	uint32_t kernel = fz_below(r, 5);
	uint32_t gx, gy, gz, args[8] = { 0 }, nargs;
	uint64_t groups = dispatch_groups(g, &gx, &gy, &gz);

	if (groups > 4096)
		g->risky = true;
	nargs = dispatch_args(g, kernel, groups, args);
	/*
	 * Wrong argument counts and unknown kernels are illegal (-EILSEQ). A
	 * count above what dispatch_args() filled sends zeros, so that a run
	 * is the same again from its seed.
	 */
	if (fz_chance(r, 32))
		nargs = fz_below(r, 8);
	if (fz_chance(r, 32))
		kernel = fz_edge32(r);
	if (fits(g, DRM_TEMPO_PKT_DISPATCH_MIN_DW + nargs))
		tempo_pkt_dispatch(&g->b, kernel, gx, gy, gz, args, nargs);
}

/* ------------------------------------------------------------------------ */
/* Jumps and garbage */

static void gen_batch_start(struct gen *g)
{
	struct fz_rng *r = g->r;
	uint64_t self = g->b.va, next, va;
	uint32_t flags = 0;

	/* Room for an END after it, where the "return at once" jump goes. */
	if (!fits(g, DRM_TEMPO_PKT_BATCH_START_DW + DRM_TEMPO_PKT_END_DW))
		return;
	next = tempo_batch_here(&g->b) + 4 * DRM_TEMPO_PKT_BATCH_START_DW;
	switch (fz_below(r, 4)) {
	case 0:	/* call itself: nests until -ELOOP */
		va = self;
		break;
	case 1:	/* an older batch of the arena: whatever it does */
		if (!g->allow_risky)
			return;
		va = g->f->cmd.va + FZ_BATCH_SLOT * fz_below(r, FZ_BATCH_SLOTS);
		g->risky = true;
		break;
	case 2:
		va = target(g, 4, 4, false);
		g->risky = true;
		break;
	default: /* an END right after this packet: returns at once */
		va = next;
		break;
	}
	if (fz_chance(r, 4)) {
		flags = DRM_TEMPO_BATCH_CHAIN;
		/* Chaining to itself or to older batches may loop forever. */
		if (!g->allow_risky)
			return;
		g->risky = true;
	}
	if (fz_chance(r, 16))
		flags = fz_edge32(r);
	tempo_pkt_batch_start(&g->b, va, flags);
	if (va == next)
		tempo_pkt_end(&g->b);
}

/* Malformed headers, and garbage that decodes into anything. */
static void gen_bad(struct gen *g)
{
	struct fz_rng *r = g->r;
	uint32_t ops = DRM_TEMPO_PKT_WRITE_JOB_TIMES + 1;
	uint32_t max = g->c->dev.max_packet_dwords;

	if (!fits(g, 1))
		return;
	switch (fz_below(r, 5)) {
	case 0:	/* reserved header bits */
		tempo_emit(&g->b, hdr(fz_below(r, ops), 1) |
				  (1u + fz_below(r, 255)) << 8);
		break;
	case 1:	/* length 0 */
		tempo_emit(&g->b, hdr(fz_below(r, ops), 0));
		break;
	case 2:	/* longer than max_packet_dwords */
		tempo_emit(&g->b, hdr(fz_below(r, ops),
				      max + 1 + fz_below(r, 0xffff - max)));
		break;
	case 3:	/* unknown opcode */
		tempo_emit(&g->b, hdr(ops + fz_below(r, 255 - ops + 1),
				      1 + fz_below(r, 8)));
		break;
	default:
		if (!g->allow_risky)
			return;
		for (uint32_t i = 1 + fz_below(r, 16); i && fits(g, 1); i--)
			tempo_emit(&g->b, (uint32_t)fz_rand(r));
		g->risky = true;
		break;
	}
}

/* ------------------------------------------------------------------------ */

typedef void (*gen_fn)(struct gen *g);

/* The packets of a random batch, DISPATCH twice as likely as the rest. */
static const gen_fn generators[] = {
	gen_nop, gen_write_data, gen_write_timestamp, gen_copy, gen_fill,
	gen_atomic, gen_wait_mem, gen_dispatch, gen_dispatch, gen_batch_start,
	gen_write_engine_id, gen_write_job_times, gen_bad,
};

uint64_t fz_batch(struct fz_child *c, struct fz_file *f, bool allow_risky,
		  bool *risky)
{
	struct gen g = {
		.c = c, .f = f, .r = &c->rng, .allow_risky = allow_risky,
	};
	unsigned int slot = c->batch_next++ % FZ_BATCH_SLOTS;
	unsigned int n = 1 + fz_below(g.r, 8);

	tempo_batch_init(&g.b, &f->cmd, (uint64_t)slot * FZ_BATCH_SLOT,
			 FZ_BATCH_SLOT / 4);
	for (unsigned int i = 0; i < n; i++)
		generators[fz_below(g.r, ARRAY_SIZE(generators))](&g);
	/* Without END the command processor runs on into what follows. */
	if (allow_risky && fz_chance(g.r, 32))
		g.risky = true;
	else
		tempo_pkt_end(&g.b);
	*risky = g.risky;
	return g.b.va;
}
