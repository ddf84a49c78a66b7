// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The tempo authors
 */

/**
 * DOC: Packet decoding
 *
 * The command processor fetches a header dword, checks it, fetches the rest
 * of the packet and checks the packet's length and fields before executing
 * anything. Decoding is pure: no memory is touched here, which keeps it
 * testable on its own. A packet that fails these checks is illegal and
 * fails the job with -EILSEQ.
 */

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/nospec.h>
#include <linux/overflow.h>

#include <drm/tempo_drm.h>

#include "tempo_hw_priv.h"

/*
 * Each known packet's length in dwords, header included: exactly @dw, or at
 * least @dw for a packet with a variable payload (@open). The table is what
 * makes an opcode known.
 */
static const struct packet_len {
	u8 dw;
	bool open;
} packet_len[] = {
	[DRM_TEMPO_PKT_NOP] = { DRM_TEMPO_PKT_NOP_MIN_DW, true },
	[DRM_TEMPO_PKT_WRITE_DATA] = { DRM_TEMPO_PKT_WRITE_DATA_MIN_DW, true },
	[DRM_TEMPO_PKT_WRITE_TIMESTAMP] = { DRM_TEMPO_PKT_WRITE_TIMESTAMP_DW },
	[DRM_TEMPO_PKT_COPY] = { DRM_TEMPO_PKT_COPY_DW },
	[DRM_TEMPO_PKT_FILL] = { DRM_TEMPO_PKT_FILL_DW },
	[DRM_TEMPO_PKT_ATOMIC] = { DRM_TEMPO_PKT_ATOMIC_DW },
	[DRM_TEMPO_PKT_WAIT_MEM] = { DRM_TEMPO_PKT_WAIT_MEM_DW },
	[DRM_TEMPO_PKT_DISPATCH] = { DRM_TEMPO_PKT_DISPATCH_MIN_DW, true },
	[DRM_TEMPO_PKT_BATCH_START] = { DRM_TEMPO_PKT_BATCH_START_DW },
	[DRM_TEMPO_PKT_END] = { DRM_TEMPO_PKT_END_DW },
	[DRM_TEMPO_PKT_WRITE_ENGINE_ID] = { DRM_TEMPO_PKT_WRITE_ENGINE_ID_DW },
	[DRM_TEMPO_PKT_WRITE_JOB_TIMES] = { DRM_TEMPO_PKT_WRITE_JOB_TIMES_DW },
};

/* Arguments of each built-in kernel, in dwords. */
static const u8 kernel_args[] = {
	[DRM_TEMPO_KERNEL_FILL] = 4,
	[DRM_TEMPO_KERNEL_COPY] = 5,
	[DRM_TEMPO_KERNEL_ATOMIC_INC] = 3,
	[DRM_TEMPO_KERNEL_CHECKSUM] = 5,
	[DRM_TEMPO_KERNEL_SPIN] = 1,
};

/**
 * tempo_isa_check_header() - split and check a packet header
 * @header: the first dword of a packet
 * @op: out: its opcode
 * @len: out: its length in dwords, header included
 *
 * Context: any.
 * Return: 0, or -EILSEQ for non-zero reserved bits, an unknown opcode or a
 * length of 0 or above %TEMPO_HW_MAX_PACKET_DW.
 */
int tempo_isa_check_header(u32 header, u32 *op, u32 *len)
{
	*op = header & DRM_TEMPO_PKT_OP_MASK;
	*len = header >> DRM_TEMPO_PKT_LEN_SHIFT;

	if (header & DRM_TEMPO_PKT_MBZ_MASK)
		return -EILSEQ;
	if (*op >= ARRAY_SIZE(packet_len))
		return -EILSEQ;
	*op = array_index_nospec(*op, ARRAY_SIZE(packet_len));
	if (*len == 0 || *len > TEMPO_HW_MAX_PACKET_DW)
		return -EILSEQ;
	return 0;
}

/**
 * tempo_isa_qword() - read a 64-bit field of a packet
 * @pkt: the packet
 * @index: dword index of the low half
 *
 * Context: any.
 * Return: the value.
 */
u64 tempo_isa_qword(const struct tempo_packet *pkt, u32 index)
{
	return (u64)pkt->dw[index] | ((u64)pkt->dw[index + 1] << 32);
}

static bool len_ok(const struct tempo_packet *pkt)
{
	const struct packet_len *l;

	if (pkt->op >= ARRAY_SIZE(packet_len))
		return false;
	l = &packet_len[array_index_nospec(pkt->op, ARRAY_SIZE(packet_len))];
	return l->open ? pkt->len >= l->dw : pkt->len == l->dw;
}

/* The argument count of @kernel, or U32_MAX for an unknown kernel. */
static u32 kernel_num_args(u32 kernel)
{
	if (kernel >= ARRAY_SIZE(kernel_args))
		return U32_MAX;
	return kernel_args[array_index_nospec(kernel, ARRAY_SIZE(kernel_args))];
}

static bool dispatch_ok(const struct tempo_packet *pkt, u32 engine_class)
{
	u64 groups;

	if (engine_class == TEMPO_HW_CLASS_COPY)
		return false;
	if (kernel_num_args(pkt->dw[DRM_TEMPO_DISPATCH_KERNEL]) !=
	    pkt->len - DRM_TEMPO_DISPATCH_ARGS)
		return false;
	/* Three 32-bit counts: their product can pass 2^64. */
	if (check_mul_overflow((u64)pkt->dw[DRM_TEMPO_DISPATCH_GROUPS_X] *
			       pkt->dw[DRM_TEMPO_DISPATCH_GROUPS_Y],
			       (u64)pkt->dw[DRM_TEMPO_DISPATCH_GROUPS_Z],
			       &groups))
		return false;
	return groups > 0 && groups <= TEMPO_HW_MAX_GROUPS;
}

static bool fields_ok(const struct tempo_packet *pkt, u32 engine_class)
{
	switch (pkt->op) {
	case DRM_TEMPO_PKT_ATOMIC:
		if (pkt->dw[DRM_TEMPO_ATOMIC_OP] == DRM_TEMPO_ATOMIC_INC)
			return !tempo_isa_qword(pkt, DRM_TEMPO_ATOMIC_VALUE);
		return pkt->dw[DRM_TEMPO_ATOMIC_OP] == DRM_TEMPO_ATOMIC_ADD;
	case DRM_TEMPO_PKT_WAIT_MEM:
		return pkt->dw[DRM_TEMPO_WAIT_MEM_COMPARE] <= DRM_TEMPO_COMPARE_GE;
	case DRM_TEMPO_PKT_DISPATCH:
		return dispatch_ok(pkt, engine_class);
	case DRM_TEMPO_PKT_BATCH_START:
		return !(pkt->dw[DRM_TEMPO_BATCH_START_FLAGS] &
			 ~DRM_TEMPO_BATCH_CHAIN);
	}
	return true;
}

/**
 * tempo_isa_check_packet() - check a whole packet before it executes
 * @pkt: the packet, header already checked
 * @engine_class: class of the engine about to execute it
 *
 * Context: any.
 * Return: 0, or -EILSEQ for a wrong length, an unknown sub-operation or
 * kernel, wrong kernel arguments, a bad workgroup count, reserved flags or
 * a packet the engine class cannot execute.
 */
int tempo_isa_check_packet(const struct tempo_packet *pkt, u32 engine_class)
{
	if (!len_ok(pkt) || !fields_ok(pkt, engine_class))
		return -EILSEQ;
	return 0;
}

/**
 * tempo_isa_compare() - evaluate a WAIT_MEM compare function
 * @func: &enum drm_tempo_compare
 * @value: the masked memory value
 * @ref: the reference
 *
 * Context: any.
 * Return: whether the wait is over.
 */
bool tempo_isa_compare(u32 func, u64 value, u64 ref)
{
	switch (func) {
	case DRM_TEMPO_COMPARE_EQ:
		return value == ref;
	case DRM_TEMPO_COMPARE_NE:
		return value != ref;
	case DRM_TEMPO_COMPARE_LT:
		return value < ref;
	case DRM_TEMPO_COMPARE_LE:
		return value <= ref;
	case DRM_TEMPO_COMPARE_GT:
		return value > ref;
	case DRM_TEMPO_COMPARE_GE:
		return value >= ref;
	}
	return false;
}
