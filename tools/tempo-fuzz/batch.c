// SPDX-License-Identifier: GPL-2.0-only
/*
 * Random batch buffers: mostly well-formed packets aimed at the file's own
 * buffers, mixed with packets aimed at read-only, unmapped and foreign
 * addresses, malformed packets and garbage.
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

struct fz_cs {
	uint32_t *cs;
	uint32_t len;
	uint32_t max;
};

static void emit(struct fz_cs *b, uint32_t dw)
{
	if (b->len < b->max)
		b->cs[b->len++] = dw;
}

static void emit64(struct fz_cs *b, uint64_t v)
{
	emit(b, (uint32_t)v);
	emit(b, (uint32_t)(v >> 32));
}

static uint32_t hdr(uint32_t op, uint32_t len)
{
	return DRM_TEMPO_PKT_HEADER(op, len);
}

/* Room left, in dwords, keeping one for END. */
static uint32_t room(const struct fz_cs *b)
{
	return b->len + 1 < b->max ? b->max - b->len - 1 : 0;
}

/*
 * A GPU address for an access of @len bytes aligned to @align: mostly in
 * the data arena (past the gate), sometimes read-only, unmapped, another
 * file's, misaligned or anything.
 */
static uint64_t target(struct fz_child *c, struct fz_file *f, uint32_t len,
		       uint32_t align, bool write)
{
	struct fz_rng *r = &c->rng;
	uint64_t span = FZ_DATA_SIZE - 64 - (len < FZ_DATA_SIZE - 64 ? len : 0);
	uint64_t off = 64 + fz_below(r, (uint32_t)span);

	off &= ~(uint64_t)(align - 1);
	switch (fz_below(r, 16)) {
	case 0:
		return f->ro_va + off;		/* faults for writes */
	case 1:
		return f->hole_va + (off & 4095);
	case 2:	/* the other file's arena: not in this address space */
		return c->files[f == &c->files[0]].data.va + off +
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
	uint32_t s;

	switch (fz_below(r, 8)) {
	case 0:
		s = fz_edge32(r);
		break;
	case 1:
		s = 0;
		break;
	default:
		s = fz_below(r, 16384);
		break;
	}
	if (!fz_chance(r, 8))
		s &= ~(align - 1);
	return s;
}

static void pkt_write_data(struct fz_child *c, struct fz_file *f,
			   struct fz_cs *b)
{
	uint32_t n = 1 + fz_below(&c->rng, c->dev.max_packet_dwords - 3);

	if (n + 3 > room(b))
		return;
	emit(b, hdr(DRM_TEMPO_PKT_WRITE_DATA, 3 + n));
	emit64(b, target(c, f, 4 * n, 4, true));
	for (uint32_t i = 0; i < n; i++)
		emit(b, (uint32_t)fz_rand(&c->rng));
}

/* Bytes per workgroup of FILL, COPY and CHECKSUM: any. */
static uint32_t group_bytes(struct fz_child *c)
{
	return fz_edge32(&c->rng);
}

static void pkt_dispatch(struct fz_child *c, struct fz_file *f,
			 struct fz_cs *b, bool allow_risky, bool *risky)
{
	struct fz_rng *r = &c->rng;
	uint32_t kernel = fz_below(r, 5);
	uint32_t gx = 1 + fz_below(r, 4), gy = 1, gz = 1;
	uint32_t args[8], nargs = 0;
	uint32_t bytes = (1 + fz_below(r, 64)) * 4;
	uint64_t groups;

	if (fz_chance(r, 4))
		gy = 1 + fz_below(r, 3);
	if (allow_risky && fz_chance(r, 16)) {
		switch (fz_below(r, 4)) {
		case 0:
			gx = fz_edge32(r);
			break;
		case 1:	/* 2^64 + 851926 groups: wraps around 64 bits */
			gx = 0xffff0007u;
			gy = 0x80007ffdu;
			gz = 2;
			break;
		case 2:
			gx = c->dev.max_groups;
			break;
		default:
			gx = c->dev.max_groups + 1;
			break;
		}
	} else if (fz_chance(r, 32)) {
		gx = 0;
	}
	groups = (uint64_t)gx * gy * gz;
	if (groups > 4096)
		*risky = true;

	switch (kernel) {
	case DRM_TEMPO_KERNEL_FILL: {
		uint64_t va = target(c, f, bytes * (uint32_t)(groups < 64 ? groups : 64), 4, true);

		args[nargs++] = (uint32_t)va;
		args[nargs++] = (uint32_t)(va >> 32);
		args[nargs++] = (uint32_t)fz_rand(r);
		args[nargs++] = fz_chance(r, 16) ? group_bytes(c) : bytes;
		break;
	}
	case DRM_TEMPO_KERNEL_COPY:
	case DRM_TEMPO_KERNEL_CHECKSUM: {
		uint64_t a = target(c, f, bytes * 4, 4, true);
		uint64_t d = target(c, f, bytes * 4, 8, true);

		args[nargs++] = (uint32_t)a;
		args[nargs++] = (uint32_t)(a >> 32);
		args[nargs++] = (uint32_t)d;
		args[nargs++] = (uint32_t)(d >> 32);
		args[nargs++] = fz_chance(r, 16) ? group_bytes(c) : bytes;
		break;
	}
	case DRM_TEMPO_KERNEL_ATOMIC_INC: {
		uint64_t va = target(c, f, 8, 8, true);
		uint32_t count = 1 + fz_below(r, 64);

		if (allow_risky && fz_chance(r, 32)) {
			count = fz_edge32(r);
			*risky = true;
		}
		args[nargs++] = (uint32_t)va;
		args[nargs++] = (uint32_t)(va >> 32);
		args[nargs++] = count;
		break;
	}
	default: {	/* SPIN */
		uint32_t ns = 1000 + fz_below(r, 50000);

		if (allow_risky && fz_chance(r, 32)) {
			ns = fz_edge32(r);
			*risky = true;
		}
		if (groups * ns > 10000000ull)
			*risky = true;
		args[nargs++] = ns;
		break;
	}
	}
	/* Wrong argument counts and unknown kernels are illegal (-EILSEQ). */
	if (fz_chance(r, 32))
		nargs = fz_below(r, 8);
	if (fz_chance(r, 32))
		kernel = fz_edge32(r);
	if (5 + nargs > room(b))
		return;
	emit(b, hdr(DRM_TEMPO_PKT_DISPATCH, 5 + nargs));
	emit(b, kernel);
	emit(b, gx);
	emit(b, gy);
	emit(b, gz);
	for (uint32_t i = 0; i < nargs; i++)
		emit(b, args[i]);
}

static void pkt_wait_mem(struct fz_child *c, struct fz_file *f,
			 struct fz_cs *b, bool allow_risky, bool *risky)
{
	struct fz_rng *r = &c->rng;
	uint64_t va, ref = 0, mask = 0;
	uint32_t cmp = DRM_TEMPO_COMPARE_EQ;

	if (room(b) < 8)
		return;
	switch (allow_risky ? fz_below(r, 4) : 3) {
	case 0:	/* the gate */
		va = f->data.va + FZ_GATE;
		cmp = DRM_TEMPO_COMPARE_GE;
		ref = 1;
		mask = UINT64_MAX;
		*risky = true;
		break;
	case 1:	/* anything */
		va = target(c, f, 8, 8, false);
		cmp = fz_below(r, 7);
		ref = fz_edge64(r);
		mask = fz_edge64(r);
		*risky = true;
		break;
	case 2:	/* an illegal compare function: fails before waiting */
		va = target(c, f, 8, 8, false);
		cmp = 6 + fz_below(r, 1000);
		break;
	default: /* holds at once: (mem & 0) == 0, or faults */
		va = target(c, f, 8, 8, false);
		break;
	}
	emit(b, hdr(DRM_TEMPO_PKT_WAIT_MEM, 8));
	emit64(b, va);
	emit(b, cmp);
	emit64(b, ref);
	emit64(b, mask);
}

static void pkt_batch_start(struct fz_child *c, struct fz_file *f,
			    struct fz_cs *b, uint64_t self, bool allow_risky,
			    bool *risky)
{
	struct fz_rng *r = &c->rng;
	uint32_t flags = 0;
	uint64_t va;

	if (room(b) < 4)
		return;
	switch (fz_below(r, 4)) {
	case 0:	/* call itself: nests until -ELOOP */
		va = self;
		break;
	case 1:	/* an older batch of the arena: whatever it does */
		if (!allow_risky)
			return;
		va = f->cmd.va + FZ_BATCH_SLOT * fz_below(r, FZ_BATCH_SLOTS);
		*risky = true;
		break;
	case 2:
		va = target(c, f, 4, 4, false);
		*risky = true;
		break;
	default: /* an END right after this packet: returns at once */
		va = self + 4 * (b->len + 4);
		break;
	}
	if (fz_chance(r, 4)) {
		flags = DRM_TEMPO_BATCH_CHAIN;
		/* Chaining to itself or to older batches may loop forever. */
		if (!allow_risky)
			return;
		*risky = true;
	}
	if (fz_chance(r, 16))
		flags = fz_edge32(r);
	emit(b, hdr(DRM_TEMPO_PKT_BATCH_START, 4));
	emit64(b, va);
	emit(b, flags);
	if (va == self + 4 * b->len)
		emit(b, hdr(DRM_TEMPO_PKT_END, 1));
}

static void pkt_bad(struct fz_child *c, struct fz_cs *b, bool allow_risky,
		    bool *risky)
{
	struct fz_rng *r = &c->rng;

	switch (fz_below(r, 5)) {
	case 0:	/* reserved header bits */
		emit(b, hdr(fz_below(r, DRM_TEMPO_PKT_WRITE_ENGINE_ID + 1), 1) | (1u + fz_below(r, 255)) << 8);
		break;
	case 1:	/* length 0 */
		emit(b, hdr(fz_below(r, DRM_TEMPO_PKT_WRITE_ENGINE_ID + 1), 0));
		break;
	case 2:	/* longer than max_packet_dwords */
		emit(b, hdr(fz_below(r, DRM_TEMPO_PKT_WRITE_ENGINE_ID + 1), c->dev.max_packet_dwords + 1 +
					      fz_below(r, 0xffff - c->dev.max_packet_dwords)));
		break;
	case 3:	/* unknown opcode */
		emit(b, hdr(DRM_TEMPO_PKT_WRITE_ENGINE_ID + 1 +
			    fz_below(r, 255 - DRM_TEMPO_PKT_WRITE_ENGINE_ID),
			    1 + fz_below(r, 8)));
		break;
	default: /* garbage: decodes into anything */
		if (!allow_risky)
			return;
		for (uint32_t i = 1 + fz_below(r, 16); i && room(b); i--)
			emit(b, (uint32_t)fz_rand(r));
		*risky = true;
		break;
	}
}

uint64_t fz_batch(struct fz_child *c, struct fz_file *f, bool allow_risky,
		  bool *risky)
{
	struct fz_rng *r = &c->rng;
	unsigned int slot = c->batch_next++ % FZ_BATCH_SLOTS;
	uint64_t va = f->cmd.va + (uint64_t)slot * FZ_BATCH_SLOT;
	struct fz_cs b = {
		.cs = (uint32_t *)((uint8_t *)f->cmd.map + (size_t)slot * FZ_BATCH_SLOT),
		.max = FZ_BATCH_SLOT / 4,
	};
	unsigned int n = 1 + fz_below(r, 8);

	*risky = false;
	for (unsigned int i = 0; i < n; i++) {
		switch (fz_below(r, 12)) {
		case 0:
			if (room(&b) >= 1) {
				uint32_t len = 1 + fz_below(r, c->dev.max_packet_dwords);

				if (len > room(&b))
					break;
				emit(&b, hdr(DRM_TEMPO_PKT_NOP, len));
				while (--len)
					emit(&b, (uint32_t)fz_rand(r));
			}
			break;
		case 1:
			pkt_write_data(c, f, &b);
			break;
		case 2:
			if (room(&b) >= 3) {
				emit(&b, hdr(DRM_TEMPO_PKT_WRITE_TIMESTAMP, 3));
				emit64(&b, target(c, f, 8, 8, true));
			}
			break;
		case 3:
			if (room(&b) >= 6) {
				uint32_t size = small_size(r, 1);

				emit(&b, hdr(DRM_TEMPO_PKT_COPY, 6));
				emit64(&b, target(c, f, size, 1, true));
				emit64(&b, target(c, f, size, 1, false));
				emit(&b, size);
			}
			break;
		case 4:
			if (room(&b) >= 5) {
				uint32_t size = small_size(r, 4);

				emit(&b, hdr(DRM_TEMPO_PKT_FILL, 5));
				emit64(&b, target(c, f, size, 4, true));
				emit(&b, (uint32_t)fz_rand(r));
				emit(&b, size);
			}
			break;
		case 5:
			if (room(&b) >= 6) {
				uint32_t op = fz_below(r, 2);
				uint64_t v = op == DRM_TEMPO_ATOMIC_INC ? 0 : fz_edge64(r);

				if (fz_chance(r, 16))
					op = fz_edge32(r);
				if (fz_chance(r, 16))
					v = fz_edge64(r);
				emit(&b, hdr(DRM_TEMPO_PKT_ATOMIC, 6));
				emit64(&b, target(c, f, 8, 8, true));
				emit(&b, op);
				emit64(&b, v);
			}
			break;
		case 6:
			pkt_wait_mem(c, f, &b, allow_risky, risky);
			break;
		case 7:
		case 8:
			pkt_dispatch(c, f, &b, allow_risky, risky);
			break;
		case 9:
			pkt_batch_start(c, f, &b, va, allow_risky, risky);
			break;
		case 10:
			if (room(&b) >= 3) {
				emit(&b, hdr(DRM_TEMPO_PKT_WRITE_ENGINE_ID,
					     fz_chance(r, 16) ? 2 + fz_below(r, 3) : 3));
				emit64(&b, target(c, f, 4, 4, true));
			}
			break;
		default:
			pkt_bad(c, &b, allow_risky, risky);
			break;
		}
	}
	/* Without END the command processor runs on into what follows. */
	if (allow_risky && fz_chance(r, 32))
		*risky = true;
	else
		b.cs[b.len++] = hdr(DRM_TEMPO_PKT_END, 1);
	return va;
}
