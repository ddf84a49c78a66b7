// SPDX-License-Identifier: GPL-2.0-only
/*
 * Random numbers and the edge values every integer field is tried with.
 */
#include <limits.h>
#include <string.h>

#include "fuzz.h"

uint64_t fz_mix(uint64_t seed, uint64_t n)
{
	uint64_t z = seed + (n + 1) * 0x9e3779b97f4a7c15ull;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* xorshift64* */
uint64_t fz_rand(struct fz_rng *r)
{
	uint64_t x = r->s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	r->s = x;
	return x * 0x2545f4914f6cdd1dull;
}

uint32_t fz_below(struct fz_rng *r, uint32_t n)
{
	if (n <= 1)
		return 0;
	return (uint32_t)(((fz_rand(r) >> 32) * (uint64_t)n) >> 32);
}

bool fz_chance(struct fz_rng *r, uint32_t one_in)
{
	return fz_below(r, one_in) == 0;
}

static const uint64_t edges64[] = {
	0, 1, 2, 3, 4, 7, 8, 15, 16, 63, 64, 255, 256,
	4095, 4096, 4097, 8192, 65535, 65536, 1ull << 20, (1ull << 20) + 4096,
	(1ull << 30) - 1, 1ull << 30, (1ull << 30) + 1, (1ull << 30) + 4096,
	INT_MAX, (uint64_t)INT_MAX + 1, UINT_MAX, (uint64_t)UINT_MAX + 1,
	1ull << 40, (1ull << 40) - 4096, (1ull << 40) + 4096,
	(uint64_t)LLONG_MAX, (uint64_t)LLONG_MIN, (uint64_t)INT_MIN,
	(uint64_t)(int64_t)INT_MIN, UINT64_MAX, UINT64_MAX - 1,
	UINT64_MAX - 4095, UINT64_MAX - 4096, 0x8000000000000000ull,
	0xffff800000000000ull, 0x00007ffffffff000ull,
	(uint64_t)-1023, (uint64_t)-1024, 1023, 1024, (uint64_t)-2048,
	(uint64_t)-512, 512,
};

static const uint32_t edges32[] = {
	0, 1, 2, 3, 4, 5, 7, 8, 15, 16, 31, 32, 33, 63, 64, 65, 255, 256,
	4095, 4096, 4097, 65535, 65536, 0xffff, 0x10000, 1u << 20,
	(1u << 20) + 1, INT_MAX, 0x80000000u, UINT_MAX, UINT_MAX - 1,
	(uint32_t)-1023, (uint32_t)-1024, 1023, 1024, (uint32_t)-2048,
	(uint32_t)-512, 512,
};

uint64_t fz_edge64(struct fz_rng *r)
{
	switch (fz_below(r, 6)) {
	case 0:
		return fz_rand(r);
	case 1:
		return fz_rand(r) & 0xffff;
	case 2:
		return 1ull << fz_below(r, 64);
	case 3:
		return edges64[fz_below(r, ARRAY_SIZE(edges64))] +
		       (fz_chance(r, 4) ? fz_below(r, 3) - 1 : 0);
	default:
		return edges64[fz_below(r, ARRAY_SIZE(edges64))];
	}
}

uint32_t fz_edge32(struct fz_rng *r)
{
	switch (fz_below(r, 5)) {
	case 0:
		return (uint32_t)fz_rand(r);
	case 1:
		return fz_below(r, 128);
	case 2:
		return 1u << fz_below(r, 32);
	default:
		return edges32[fz_below(r, ARRAY_SIZE(edges32))];
	}
}

/*
 * A count or a size: an edge value one time in @one_in, 0 one time in
 * @one_in, else @usual (which the caller drew).
 */
uint32_t fz_count32(struct fz_rng *r, uint32_t one_in, uint32_t usual)
{
	uint32_t pick = fz_below(r, one_in);

	if (pick > 1)
		return usual;
	return pick ? 0 : fz_edge32(r);
}

void fz_fill(struct fz_rng *r, void *p, size_t n)
{
	uint8_t *b = p;

	while (n >= 8) {
		uint64_t v = fz_rand(r);

		memcpy(b, &v, 8);
		b += 8;
		n -= 8;
	}
	while (n--)
		*b++ = (uint8_t)fz_rand(r);
}
