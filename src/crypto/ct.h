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

#ifdef __FRAMAC__
#include "../../spec/ct.acsl"
#endif

/*
 * ct_public(p, n): the n bytes at p are public by design from here on (a
 * ciphertext, the accept/reject of a tag compare). A no-op, except in the
 * constant-time check build (-DVCRYPTFS_CT_CHECK, tests/ct/), where the
 * secrets are undefined for valgrind's memcheck and this marks the bytes
 * defined again, so branching on them is allowed.
 */
#if defined(VCRYPTFS_CT_CHECK) && !defined(__FRAMAC__)
#include <valgrind/memcheck.h>
#define ct_public(p, n) ((void)VALGRIND_MAKE_MEM_DEFINED((p), (n)))
#else
#define ct_public(p, n) ((void)0)
#endif

/*
 * Compare a[0..n-1] with b[0..n-1] in time that depends only on n; reads
 * (ghost, proof only): every call reads all n byte pairs, no early exit.
 * Returns 0 when every byte is equal, else -1; public (ct_public).
 */
/*@ requires valid_a: \valid_read(a + (0 .. n - 1));
    requires valid_b: \valid_read(b + (0 .. n - 1)); requires valid_reads: \valid(reads);
    assigns *reads;
    ensures range: \result == 0 || \result == -1;
    ensures equal: \result == 0 <==> ct_equal(a, b, n); ensures reads: *reads == n;
 */ // clang-format off
int ct_compare(const uint8_t *a, const uint8_t *b, size_t n) /*@ ghost (size_t \ghost *reads) */; // clang-format on

/* Set p[0..n-1] to zero in a way the optimiser may not drop. */
/*@ requires valid: \valid((uint8_t *)p + (0 .. n - 1));
    assigns ((uint8_t *)p)[0 .. n - 1];
    ensures zero: \forall integer i; 0 <= i < n ==> ((uint8_t *)p)[i] == 0;
 */
void ct_wipe(void *p, size_t n);

/*@ requires valid: \valid_read(p + (0 .. 3));
    assigns \nothing;
    ensures value: \result == LE32(p[0], p[1], p[2], p[3]);
 */
static inline uint32_t load32_le(const uint8_t p[4])
{
	/* + rather than |: the bytes do not overlap, and + is plain
	 * arithmetic for the provers */
	return (uint32_t)p[0] + ((uint32_t)p[1] << 8) + ((uint32_t)p[2] << 16) +
	       ((uint32_t)p[3] << 24);
}

/*@ requires valid: \valid(p + (0 .. 3));
    assigns p[0 .. 3];
    ensures bytes: p[0] == BYTE0(v) && p[1] == BYTE1(v) &&
                   p[2] == BYTE2(v) && p[3] == BYTE3(v);
 */
static inline void store32_le(uint8_t p[4], uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/*@ requires valid: \valid(p + (0 .. 7));
    assigns p[0 .. 7];
 */
static inline void store64_le(uint8_t p[8], uint64_t v)
{
	store32_le(p, (uint32_t)v);
	store32_le(p + 4, (uint32_t)(v >> 32));
}

/*@ requires valid: \valid_read(p + (0 .. 7));
    assigns \nothing;
 */
static inline uint64_t load64_be(const uint8_t p[8])
{
	uint64_t v = 0;
	/*@ loop invariant 0 <= i <= 8;
	    loop assigns i, v;
	    loop variant 8 - i;
	 */
	for (int i = 0; i < 8; i++)
		v = (v << 8) | p[i];
	return v;
}

/*@ requires valid: \valid(p + (0 .. 7));
    assigns p[0 .. 7];
 */
static inline void store64_be(uint8_t p[8], uint64_t v)
{
	/*@ loop invariant -1 <= i <= 7;
	    loop assigns i, v, p[0 .. 7];
	    loop variant i + 1;
	 */
	for (int i = 7; i >= 0; i--) {
		p[i] = (uint8_t)v;
		v >>= 8;
	}
}

#endif
