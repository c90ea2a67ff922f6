/* SPDX-License-Identifier: MIT */
/*
 * Constant-time helpers: buffer compare, a wipe the compiler cannot remove,
 * and explicit little/big-endian loads and stores.
 * Spec: none beyond the obvious; ct_compare and ct_wipe are proved by WP
 * (spec/ct.acsl, proofs/).
 * Depends on: libc only. Everything in src/ may use it.
 * Constant time: ct_compare's time depends on n only, never on the bytes.
 */
#ifndef VCRYPTFS_CT_H
#define VCRYPTFS_CT_H

#include <stddef.h>
#include <stdint.h>

/*
 * Compare a[0..n-1] with b[0..n-1] in time that depends only on n.
 * Returns 0 when every byte is equal, -1 otherwise. n may be 0 (returns 0).
 */
int ct_compare(const uint8_t *a, const uint8_t *b, size_t n);

/* Set p[0..n-1] to zero in a way the optimiser may not drop. */
void ct_wipe(void *p, size_t n);

static inline uint32_t load32_le(const uint8_t p[4])
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
	       ((uint32_t)p[3] << 24);
}

static inline void store32_le(uint8_t p[4], uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static inline void store64_le(uint8_t p[8], uint64_t v)
{
	store32_le(p, (uint32_t)v);
	store32_le(p + 4, (uint32_t)(v >> 32));
}

static inline uint64_t load64_be(const uint8_t p[8])
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = (v << 8) | p[i];
	return v;
}

static inline void store64_be(uint8_t p[8], uint64_t v)
{
	for (int i = 7; i >= 0; i--) {
		p[i] = (uint8_t)v;
		v >>= 8;
	}
}

#endif
