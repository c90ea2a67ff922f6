/* SPDX-License-Identifier: MIT */
/*
 * Static-inline Poly1305 block step in 3 limbs (44, 44, 42 bits) with
 * unsigned __int128 products, shared by poly1305/x64.c and
 * poly1305/avx2.c (runs too short for the vector loop); poly1305/p64r.h
 * uses the masks to convert its radix-2^64 state back. Private to
 * src/crypto; not for Frama-C (WP cannot parse __int128:
 * ../shared/PROOFS-NOTES.md).
 * Spec: RFC 8439 section 2.5.1: h = (h + m + 2^128) * r mod 2^130 - 5.
 * Limb bounds between blocks (after the carry chain): h0 < 2^44,
 * h1 < 2^44 + 2^8, h2 < 2^42. Adding a message block keeps every limb
 * < 2^45; r limbs < 2^44, so 20 * r < 2^49 and each product sum is
 * < 3 * 2^45 * 2^49 < 2^96, far below 2^128.
 * Constant time: yes (multiplies, shifts, masks only).
 */
#ifndef VCRYPTFS_POLY1305_64_H
#define VCRYPTFS_POLY1305_64_H

#include <stdint.h>
#include <string.h>

#define P64_M44 0xfffffffffffULL
#define P64_M42 0x3ffffffffffULL

typedef unsigned __int128 p64_u128;

/* 64-bit little-endian load; one unaligned mov on x86-64 */
static inline uint64_t p64_load_le(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

/* h += m[0..15] (+ hibit << 128 as bit 40 of h2), h *= r, partly reduced */
static inline void p64_block(uint64_t h[3], const uint64_t r[3],
			     const uint8_t *m, uint64_t hibit)
{
	uint64_t t0 = p64_load_le(m);
	uint64_t t1 = p64_load_le(m + 8);
	uint64_t h0 = h[0] + (t0 & P64_M44);
	uint64_t h1 = h[1] + (((t0 >> 44) | (t1 << 20)) & P64_M44);
	uint64_t h2 = h[2] + (((t1 >> 24) & P64_M42) | hibit);
	uint64_t r0 = r[0], r1 = r[1], r2 = r[2];
	uint64_t s1 = r1 * 20, s2 = r2 * 20; /* 2^132 = 4 * 5 mod p */
	p64_u128 d0, d1, d2;
	uint64_t c;

	d0 = (p64_u128)h0 * r0 + (p64_u128)h1 * s2 + (p64_u128)h2 * s1;
	d1 = (p64_u128)h0 * r1 + (p64_u128)h1 * r0 + (p64_u128)h2 * s2;
	d2 = (p64_u128)h0 * r2 + (p64_u128)h1 * r1 + (p64_u128)h2 * r0;
	c = (uint64_t)(d0 >> 44);
	h0 = (uint64_t)d0 & P64_M44;
	d1 += c;
	c = (uint64_t)(d1 >> 44);
	h1 = (uint64_t)d1 & P64_M44;
	d2 += c;
	c = (uint64_t)(d2 >> 42);
	h2 = (uint64_t)d2 & P64_M42;
	h0 += c * 5;
	c = h0 >> 44;
	h0 &= P64_M44;
	h1 += c;
	h[0] = h0;
	h[1] = h1;
	h[2] = h2;
}

/* n full 16-byte blocks of m with the 2^128 bit */
static inline void p64_blocks(uint64_t h[3], const uint64_t r[3],
			      const uint8_t *m, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p64_block(h, r, m + 16 * i, 1ULL << 40);
}

#endif
