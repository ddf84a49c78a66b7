// SPDX-License-Identifier: MIT
/*
 * Copyright (c) 2026 The tempo authors
 *
 * Batch buffers: one writer per packet, each putting its fields at the
 * dword offsets of the uAPI's "Packet layout" (DRM_TEMPO_COPY_SRC, ...).
 */
#include <errno.h>
#include <string.h>

#include "tempo_uapi.h"

int tempo_batch_init(struct tempo_batch *b, const struct tempo_bo *bo,
		     uint64_t offset, uint32_t max_dw)
{
	bool fits = offset % 4 == 0 && offset <= bo->size &&
		    (uint64_t)max_dw * 4 <= bo->size - offset;

	b->cs = (uint32_t *)((char *)bo->map + offset);
	b->va = bo->va + offset;
	b->len = 0;
	b->max = fits ? max_dw : 0;
	b->overflow = !fits;
	return fits ? 0 : -EINVAL;
}

/*
 * Room for @len dwords: the first of them, or NULL (and the batch full
 * from now on) when they do not fit.
 */
static uint32_t *reserve(struct tempo_batch *b, uint32_t len)
{
	uint32_t *p;

	if (b->overflow || len > b->max - b->len) {
		b->overflow = true;
		return NULL;
	}
	p = b->cs + b->len;
	b->len += len;
	return p;
}

/* A packet of @len dwords, its header written: or NULL. */
static uint32_t *pkt(struct tempo_batch *b, uint32_t op, uint32_t len)
{
	uint32_t *p = reserve(b, len);

	if (p)
		p[0] = DRM_TEMPO_PKT_HEADER(op, len);
	return p;
}

/* A 64-bit field at dword @dw of a packet: low dword first. */
static void put64(uint32_t *p, unsigned int dw, uint64_t v)
{
	p[dw] = (uint32_t)v;
	p[dw + 1] = (uint32_t)(v >> 32);
}

/*
 * Designated initializers of a packet's dwords: a 64-bit field at dword
 * @dw of the layout, low dword first.
 */
#define FIELD64(dw, v) \
	[dw] = (uint32_t)(v), [(dw) + 1] = (uint32_t)((v) >> 32)

/* A packet of fixed length @len, whose dwords but the header are @dw. */
static int put(struct tempo_batch *b, uint32_t op, const uint32_t *dw,
	       uint32_t len)
{
	uint32_t *p = pkt(b, op, len);

	if (!p)
		return -ENOSPC;
	for (uint32_t i = 1; i < len; i++)
		p[i] = dw[i];
	return 0;
}

int tempo_emit(struct tempo_batch *b, uint32_t dw)
{
	uint32_t *p = reserve(b, 1);

	if (!p)
		return -ENOSPC;
	*p = dw;
	return 0;
}

int tempo_emit_u64(struct tempo_batch *b, uint64_t v)
{
	uint32_t *p = reserve(b, 2);

	if (p)
		put64(p, 0, v);
	return p ? 0 : -ENOSPC;
}

int tempo_pkt_nop(struct tempo_batch *b, uint32_t payload)
{
	uint32_t len = DRM_TEMPO_PKT_NOP_MIN_DW + payload;
	uint32_t *p = pkt(b, DRM_TEMPO_PKT_NOP, len);

	for (uint32_t i = DRM_TEMPO_PKT_NOP_MIN_DW; p && i < len; i++)
		p[i] = 0xdeadbeef;
	return p ? 0 : -ENOSPC;
}

int tempo_pkt_nop_data(struct tempo_batch *b, const uint32_t *payload,
		       uint32_t n)
{
	uint32_t *p = pkt(b, DRM_TEMPO_PKT_NOP, DRM_TEMPO_PKT_NOP_MIN_DW + n);

	if (!p)
		return -ENOSPC;
	memcpy(p + DRM_TEMPO_PKT_NOP_MIN_DW, payload, n * sizeof(*payload));
	return 0;
}

int tempo_pkt_write_data(struct tempo_batch *b, uint64_t va,
			 const uint32_t *data, uint32_t n)
{
	uint32_t *p = pkt(b, DRM_TEMPO_PKT_WRITE_DATA,
			  DRM_TEMPO_WRITE_DATA_DATA + n);

	if (!p)
		return -ENOSPC;
	put64(p, DRM_TEMPO_WRITE_DATA_VA, va);
	memcpy(p + DRM_TEMPO_WRITE_DATA_DATA, data, n * sizeof(*data));
	return 0;
}

int tempo_pkt_write32(struct tempo_batch *b, uint64_t va, uint32_t value)
{
	return tempo_pkt_write_data(b, va, &value, 1);
}

int tempo_pkt_write_timestamp(struct tempo_batch *b, uint64_t va)
{
	const uint32_t dw[DRM_TEMPO_PKT_WRITE_TIMESTAMP_DW] = {
		FIELD64(DRM_TEMPO_WRITE_TIMESTAMP_VA, va),
	};

	return put(b, DRM_TEMPO_PKT_WRITE_TIMESTAMP, dw,
		   DRM_TEMPO_PKT_WRITE_TIMESTAMP_DW);
}

int tempo_pkt_copy(struct tempo_batch *b, uint64_t dst, uint64_t src,
		   uint32_t size)
{
	const uint32_t dw[DRM_TEMPO_PKT_COPY_DW] = {
		FIELD64(DRM_TEMPO_COPY_DST, dst),
		FIELD64(DRM_TEMPO_COPY_SRC, src),
		[DRM_TEMPO_COPY_SIZE] = size,
	};

	return put(b, DRM_TEMPO_PKT_COPY, dw, DRM_TEMPO_PKT_COPY_DW);
}

int tempo_pkt_fill(struct tempo_batch *b, uint64_t dst, uint32_t value,
		   uint32_t size)
{
	const uint32_t dw[DRM_TEMPO_PKT_FILL_DW] = {
		FIELD64(DRM_TEMPO_FILL_DST, dst),
		[DRM_TEMPO_FILL_VALUE] = value, [DRM_TEMPO_FILL_SIZE] = size,
	};

	return put(b, DRM_TEMPO_PKT_FILL, dw, DRM_TEMPO_PKT_FILL_DW);
}

int tempo_pkt_atomic(struct tempo_batch *b, uint64_t va, uint32_t op,
		     uint64_t value)
{
	const uint32_t dw[DRM_TEMPO_PKT_ATOMIC_DW] = {
		FIELD64(DRM_TEMPO_ATOMIC_VA, va), [DRM_TEMPO_ATOMIC_OP] = op,
		FIELD64(DRM_TEMPO_ATOMIC_VALUE, value),
	};

	return put(b, DRM_TEMPO_PKT_ATOMIC, dw, DRM_TEMPO_PKT_ATOMIC_DW);
}

int tempo_pkt_wait_mem(struct tempo_batch *b, uint64_t va, uint32_t compare,
		       uint64_t ref, uint64_t mask)
{
	const uint32_t dw[DRM_TEMPO_PKT_WAIT_MEM_DW] = {
		FIELD64(DRM_TEMPO_WAIT_MEM_VA, va),
		[DRM_TEMPO_WAIT_MEM_COMPARE] = compare,
		FIELD64(DRM_TEMPO_WAIT_MEM_REF, ref),
		FIELD64(DRM_TEMPO_WAIT_MEM_MASK, mask),
	};

	return put(b, DRM_TEMPO_PKT_WAIT_MEM, dw, DRM_TEMPO_PKT_WAIT_MEM_DW);
}

int tempo_pkt_dispatch(struct tempo_batch *b, uint32_t kernel, uint32_t gx,
		       uint32_t gy, uint32_t gz, const uint32_t *args,
		       uint32_t nargs)
{
	uint32_t *p = pkt(b, DRM_TEMPO_PKT_DISPATCH,
			  DRM_TEMPO_PKT_DISPATCH_MIN_DW + nargs);

	if (!p)
		return -ENOSPC;
	p[DRM_TEMPO_DISPATCH_KERNEL] = kernel;
	p[DRM_TEMPO_DISPATCH_GROUPS_X] = gx;
	p[DRM_TEMPO_DISPATCH_GROUPS_Y] = gy;
	p[DRM_TEMPO_DISPATCH_GROUPS_Z] = gz;
	memcpy(p + DRM_TEMPO_DISPATCH_ARGS, args, nargs * sizeof(*args));
	return 0;
}

int tempo_pkt_batch_start(struct tempo_batch *b, uint64_t va, uint32_t flags)
{
	const uint32_t dw[DRM_TEMPO_PKT_BATCH_START_DW] = {
		FIELD64(DRM_TEMPO_BATCH_START_VA, va),
		[DRM_TEMPO_BATCH_START_FLAGS] = flags,
	};

	return put(b, DRM_TEMPO_PKT_BATCH_START, dw,
		   DRM_TEMPO_PKT_BATCH_START_DW);
}

int tempo_pkt_end(struct tempo_batch *b)
{
	return pkt(b, DRM_TEMPO_PKT_END, DRM_TEMPO_PKT_END_DW) ? 0 : -ENOSPC;
}

int tempo_pkt_write_engine_id(struct tempo_batch *b, uint64_t va)
{
	const uint32_t dw[DRM_TEMPO_PKT_WRITE_ENGINE_ID_DW] = {
		FIELD64(DRM_TEMPO_WRITE_ENGINE_ID_VA, va),
	};

	return put(b, DRM_TEMPO_PKT_WRITE_ENGINE_ID, dw,
		   DRM_TEMPO_PKT_WRITE_ENGINE_ID_DW);
}

int tempo_pkt_write_job_times(struct tempo_batch *b, uint64_t va)
{
	const uint32_t dw[DRM_TEMPO_PKT_WRITE_JOB_TIMES_DW] = {
		FIELD64(DRM_TEMPO_WRITE_JOB_TIMES_VA, va),
	};

	return put(b, DRM_TEMPO_PKT_WRITE_JOB_TIMES, dw,
		   DRM_TEMPO_PKT_WRITE_JOB_TIMES_DW);
}
