// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (c) 2026 The tempo authors
 */

/**
 * DOC: Memory accesses
 *
 * Every access the command processor or a compute unit makes goes through
 * the job's &struct tempo_hw_mmu, one page at a time, so an access that
 * crosses from one mapping into the next works and an access that leaves
 * every mapping faults (-EFAULT) before it touches anything beyond the
 * last mapped page. Translations are only used while the MMU is locked,
 * which is what lets software unmap a range while jobs run.
 */

#include <linux/atomic.h>
#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/string.h>

#include "tempo_hw_priv.h"

/* The bytes from @va to the end of its page, at most @len. */
static u32 chunk(u64 va, u64 len)
{
	return min_t(u64, len, PAGE_SIZE - offset_in_page(va));
}

static void *xlate(struct tempo_hw_mmu *mmu, u64 va, u32 len, bool write)
{
	return mmu->ops->translate(mmu, va, len, write);
}

static int access_chunk(struct tempo_hw_mmu *mmu, u64 va, void *buf, u32 len,
			bool write)
{
	void *p;

	mmu->ops->lock(mmu);
	p = xlate(mmu, va, len, write);
	if (p) {
		if (write)
			memcpy(p, buf, len);
		else
			memcpy(buf, p, len);
	}
	mmu->ops->unlock(mmu);
	return p ? 0 : -EFAULT;
}

static int access(struct tempo_hw_mmu *mmu, u64 va, void *buf, u32 len,
		  bool write)
{
	while (len) {
		u32 n = chunk(va, len);
		int ret = access_chunk(mmu, va, buf, n, write);

		if (ret)
			return ret;
		va += n;
		buf += n;
		len -= n;
	}
	return 0;
}

/**
 * tempo_mem_read() - read GPU memory
 * @mmu: address space
 * @va: GPU address
 * @buf: destination
 * @len: bytes
 *
 * Context: process; spins on the MMU lock.
 * Return: 0 or -EFAULT.
 */
int tempo_mem_read(struct tempo_hw_mmu *mmu, u64 va, void *buf, u32 len)
{
	return access(mmu, va, buf, len, false);
}

/**
 * tempo_mem_write() - write GPU memory
 * @mmu: address space
 * @va: GPU address
 * @buf: source
 * @len: bytes
 *
 * Context: process; spins on the MMU lock.
 * Return: 0 or -EFAULT.
 */
int tempo_mem_write(struct tempo_hw_mmu *mmu, u64 va, const void *buf, u32 len)
{
	return access(mmu, va, (void *)buf, len, true);
}

/**
 * tempo_mem_fill() - fill GPU memory with a 32-bit value
 * @mmu: address space
 * @va: GPU address, 4-byte aligned
 * @value: the pattern
 * @len: bytes, a multiple of 4
 *
 * Context: process; spins on the MMU lock.
 * Return: 0, -EFAULT, or -EILSEQ for bad alignment.
 */
int tempo_mem_fill(struct tempo_hw_mmu *mmu, u64 va, u32 value, u64 len)
{
	if ((va | len) & 3)
		return -EILSEQ;
	while (len) {
		u32 n = chunk(va, len);
		u32 *p;

		mmu->ops->lock(mmu);
		p = xlate(mmu, va, n, true);
		if (p)
			memset32(p, value, n / 4);
		mmu->ops->unlock(mmu);
		if (!p)
			return -EFAULT;
		va += n;
		len -= n;
		cond_resched();
	}
	return 0;
}

/**
 * tempo_mem_copy() - copy GPU memory; overlapping ranges copy as memmove
 *	would within a page and front to back across pages
 * @mmu: address space
 * @dst: destination GPU address
 * @src: source GPU address
 * @len: bytes
 *
 * Context: process; spins on the MMU lock.
 * Return: 0 or -EFAULT.
 */
int tempo_mem_copy(struct tempo_hw_mmu *mmu, u64 dst, u64 src, u64 len)
{
	while (len) {
		u32 n = min(chunk(dst, len), chunk(src, len));
		void *d, *s;

		mmu->ops->lock(mmu);
		s = xlate(mmu, src, n, false);
		d = s ? xlate(mmu, dst, n, true) : NULL;
		if (d)
			memmove(d, s, n);
		mmu->ops->unlock(mmu);
		if (!d)
			return -EFAULT;
		dst += n;
		src += n;
		len -= n;
		cond_resched();
	}
	return 0;
}

/**
 * tempo_mem_atomic_add() - add to a 64-bit value atomically
 * @mmu: address space
 * @va: GPU address, 8-byte aligned
 * @value: what to add
 *
 * Context: process; spins on the MMU lock.
 * Return: 0, -EFAULT, or -EILSEQ for bad alignment.
 */
int tempo_mem_atomic_add(struct tempo_hw_mmu *mmu, u64 va, u64 value)
{
	atomic64_t *p;

	if (va & 7)
		return -EILSEQ;
	mmu->ops->lock(mmu);
	p = xlate(mmu, va, sizeof(*p), true);
	if (p)
		atomic64_add(value, p);
	mmu->ops->unlock(mmu);
	return p ? 0 : -EFAULT;
}

/**
 * tempo_mem_read64() - read a 64-bit value in one access
 * @mmu: address space
 * @va: GPU address, 8-byte aligned
 * @value: out: the value
 *
 * Context: process; spins on the MMU lock.
 * Return: 0, -EFAULT, or -EILSEQ for bad alignment.
 */
int tempo_mem_read64(struct tempo_hw_mmu *mmu, u64 va, u64 *value)
{
	u64 *p;

	if (va & 7)
		return -EILSEQ;
	mmu->ops->lock(mmu);
	p = xlate(mmu, va, sizeof(*p), false);
	if (p)
		*value = READ_ONCE(*p);
	mmu->ops->unlock(mmu);
	return p ? 0 : -EFAULT;
}

/**
 * tempo_mem_sum32() - sum the 32-bit words of a range
 * @mmu: address space
 * @va: GPU address, 4-byte aligned
 * @len: bytes, a multiple of 4
 * @sum: out: the sum, modulo 2^64
 *
 * Context: process; spins on the MMU lock.
 * Return: 0, -EFAULT, or -EILSEQ for bad alignment.
 */
int tempo_mem_sum32(struct tempo_hw_mmu *mmu, u64 va, u64 len, u64 *sum)
{
	*sum = 0;
	if ((va | len) & 3)
		return -EILSEQ;
	while (len) {
		u32 n = chunk(va, len), i;
		const u32 *p;

		mmu->ops->lock(mmu);
		p = xlate(mmu, va, n, false);
		for (i = 0; p && i < n / 4; i++)
			*sum += p[i];
		mmu->ops->unlock(mmu);
		if (!p)
			return -EFAULT;
		va += n;
		len -= n;
	}
	return 0;
}
