// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The tempo authors
 *
 * KUnit suite of packet decoding (tempo_isa.c).
 */

#include <kunit/test.h>

#include <drm/tempo_drm.h>

#include "../tempo_kunit.h"
#include "tempo_hw_priv.h"

static void pkt(struct tempo_packet *p, u32 op, u32 len)
{
	memset(p, 0, sizeof(*p));
	p->op = op;
	p->len = len;
	p->dw[0] = DRM_TEMPO_PKT_HEADER(op, len);
}

static int header(u32 dw)
{
	u32 op, len;

	return tempo_isa_check_header(dw, &op, &len);
}

static void isa_header(struct kunit *test)
{
	u32 op, len, nop = DRM_TEMPO_PKT_HEADER(DRM_TEMPO_PKT_NOP, 1);

	KUNIT_EXPECT_EQ(test, 0, tempo_isa_check_header(nop, &op, &len));
	KUNIT_EXPECT_EQ(test, (u32)DRM_TEMPO_PKT_NOP, op);
	KUNIT_EXPECT_EQ(test, 1u, len);
	/* reserved bits, unknown opcode, zero and oversized lengths */
	KUNIT_EXPECT_EQ(test, -EILSEQ, header(nop | 0x100));
	KUNIT_EXPECT_EQ(test, -EILSEQ,
			header(DRM_TEMPO_PKT_HEADER(DRM_TEMPO_PKT_WRITE_JOB_TIMES + 1, 1)));
	KUNIT_EXPECT_EQ(test, -EILSEQ,
			header(DRM_TEMPO_PKT_HEADER(DRM_TEMPO_PKT_NOP, 0)));
	KUNIT_EXPECT_EQ(test, -EILSEQ,
			header(DRM_TEMPO_PKT_HEADER(DRM_TEMPO_PKT_NOP,
						    TEMPO_HW_MAX_PACKET_DW + 1)));
}

static void isa_lengths(struct kunit *test)
{
	static const struct { u32 op, good, bad; } cases[] = {
		{ DRM_TEMPO_PKT_WRITE_DATA, 4, 3 },
		{ DRM_TEMPO_PKT_WRITE_TIMESTAMP, 3, 4 },
		{ DRM_TEMPO_PKT_COPY, 6, 5 },
		{ DRM_TEMPO_PKT_FILL, 5, 6 },
		{ DRM_TEMPO_PKT_ATOMIC, 6, 7 },
		{ DRM_TEMPO_PKT_WAIT_MEM, 8, 7 },
		{ DRM_TEMPO_PKT_BATCH_START, 4, 3 },
		{ DRM_TEMPO_PKT_END, 1, 2 },
		{ DRM_TEMPO_PKT_WRITE_ENGINE_ID, 3, 2 },
		{ DRM_TEMPO_PKT_WRITE_JOB_TIMES, 3, 4 },
	};
	struct tempo_packet p;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		pkt(&p, cases[i].op, cases[i].good);
		KUNIT_EXPECT_EQ_MSG(test, 0,
				    tempo_isa_check_packet(&p, TEMPO_HW_CLASS_GFX),
				    "op %u", cases[i].op);
		pkt(&p, cases[i].op, cases[i].bad);
		KUNIT_EXPECT_EQ_MSG(test, -EILSEQ,
				    tempo_isa_check_packet(&p, TEMPO_HW_CLASS_GFX),
				    "op %u", cases[i].op);
	}
}

static void isa_fields(struct kunit *test)
{
	struct tempo_packet p;

	pkt(&p, DRM_TEMPO_PKT_ATOMIC, 6);
	p.dw[3] = DRM_TEMPO_ATOMIC_INC;
	p.dw[4] = 1;	/* INC takes no value */
	KUNIT_EXPECT_EQ(test, -EILSEQ, tempo_isa_check_packet(&p, 0));
	p.dw[3] = 7;	/* unknown op */
	p.dw[4] = 0;
	KUNIT_EXPECT_EQ(test, -EILSEQ, tempo_isa_check_packet(&p, 0));
	pkt(&p, DRM_TEMPO_PKT_WAIT_MEM, 8);
	p.dw[3] = DRM_TEMPO_COMPARE_GE + 1;
	KUNIT_EXPECT_EQ(test, -EILSEQ, tempo_isa_check_packet(&p, 0));
	pkt(&p, DRM_TEMPO_PKT_BATCH_START, 4);
	p.dw[3] = DRM_TEMPO_BATCH_CHAIN << 1;
	KUNIT_EXPECT_EQ(test, -EILSEQ, tempo_isa_check_packet(&p, 0));
}

static void isa_dispatch(struct kunit *test)
{
	struct tempo_packet p;

	pkt(&p, DRM_TEMPO_PKT_DISPATCH, 6);
	p.dw[1] = DRM_TEMPO_KERNEL_SPIN;
	p.dw[2] = 2;
	p.dw[3] = 3;
	p.dw[4] = 4;
	KUNIT_EXPECT_EQ(test, 0, tempo_isa_check_packet(&p, TEMPO_HW_CLASS_COMPUTE));
	/* no DISPATCH on a copy engine */
	KUNIT_EXPECT_EQ(test, -EILSEQ, tempo_isa_check_packet(&p, TEMPO_HW_CLASS_COPY));
	/* wrong argument count for the kernel */
	p.dw[1] = DRM_TEMPO_KERNEL_COPY;
	KUNIT_EXPECT_EQ(test, -EILSEQ, tempo_isa_check_packet(&p, TEMPO_HW_CLASS_COMPUTE));
	/* zero groups, and a product that wraps 32 bits */
	p.dw[1] = DRM_TEMPO_KERNEL_SPIN;
	p.dw[3] = 0;
	KUNIT_EXPECT_EQ(test, -EILSEQ, tempo_isa_check_packet(&p, TEMPO_HW_CLASS_COMPUTE));
	p.dw[2] = 0x10000;
	p.dw[3] = 0x10000;
	p.dw[4] = 1;
	KUNIT_EXPECT_EQ(test, -EILSEQ, tempo_isa_check_packet(&p, TEMPO_HW_CLASS_COMPUTE));
}

static void isa_compare(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, tempo_isa_compare(DRM_TEMPO_COMPARE_EQ, 5, 5));
	KUNIT_EXPECT_FALSE(test, tempo_isa_compare(DRM_TEMPO_COMPARE_NE, 5, 5));
	KUNIT_EXPECT_TRUE(test, tempo_isa_compare(DRM_TEMPO_COMPARE_LT, 4, 5));
	KUNIT_EXPECT_TRUE(test, tempo_isa_compare(DRM_TEMPO_COMPARE_LE, 5, 5));
	KUNIT_EXPECT_TRUE(test, tempo_isa_compare(DRM_TEMPO_COMPARE_GT, ~0ull, 5));
	KUNIT_EXPECT_FALSE(test, tempo_isa_compare(DRM_TEMPO_COMPARE_GE, 4, 5));
	KUNIT_EXPECT_FALSE(test, tempo_isa_compare(99, 5, 5));
}

TEMPO_KUNIT_SUITE(isa, NULL, NULL,
		  KUNIT_CASE(isa_header),
		  KUNIT_CASE(isa_lengths),
		  KUNIT_CASE(isa_fields),
		  KUNIT_CASE(isa_dispatch),
		  KUNIT_CASE(isa_compare));
