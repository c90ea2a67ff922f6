/* SPDX-License-Identifier: MIT */
/*
 * Poly1305 in radix 2^44 on AVX-512 IFMA, 16 blocks per step in two
 * 8-lane accumulators: the steps of poly1305/ifma.c (its header comment
 * gives the method and the limb bounds), in a header so that the IFMA
 * seal and open bodies of chacha20/avx512.c can run each step inside the
 * ChaCha20 rounds of the next 16 blocks.
 * Use: ifma_begin(acc, r, h) (powers of r, h into lane 0 of A), then
 * ifma_step() for every 16-block group of the message but the last,
 * ifma_last() for the last, ifma_end(acc, h) (the 16 lanes summed and
 * carried to poly1305/x64.h's bounds).
 * The includer has <immintrin.h> with AVX-512F/VL and IFMA available:
 * poly1305/ifma.c is built with -mavx512ifma; chacha20/avx512.c, built
 * without it (its other code runs on AVX-512 CPUs without IFMA), defines
 * IFMA_TARGET as __attribute__((target("avx512ifma"))) first, and calls
 * these only after its ifma_ok() check. Included only by those two files.
 * Constant time: yes (see poly1305/ifma.c). Not proved; checked as
 * poly1305/ifma.c and the avx512 bodies are.
 */
#ifndef VCRYPTFS_POLY1305_IFMA_H
#define VCRYPTFS_POLY1305_IFMA_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/poly1305/x64.h"

#ifndef IFMA_TARGET
#define IFMA_TARGET
#endif
#define IFMA_INLINE static inline __attribute__((always_inline)) IFMA_TARGET

/* 3 limbs of 8 lanes: a number per lane (h, a power of r, or 20 r) */
struct v3 {
	__m512i l0, l1, l2;
};

/* s = 20 r per lane (16 r + 4 r; < 2^49 under the bounds above) */
IFMA_INLINE struct v3 times20(struct v3 r)
{
	struct v3 s;

	s.l0 = _mm512_add_epi64(_mm512_slli_epi64(r.l0, 4),
				_mm512_slli_epi64(r.l0, 2));
	s.l1 = _mm512_add_epi64(_mm512_slli_epi64(r.l1, 4),
				_mm512_slli_epi64(r.l1, 2));
	s.l2 = _mm512_add_epi64(_mm512_slli_epi64(r.l2, 4),
				_mm512_slli_epi64(r.l2, 2));
	return s;
}

/*
 * h = h * r mod 2^130 - 5 per lane (s = 20 r), partly reduced:
 * d0 = h0 r0 + h1 s2 + h2 s1, d1 = h0 r1 + h1 r0 + h2 s2,
 * d2 = h0 r2 + h1 r1 + h2 r0; each dk as lo_k + hi_k 2^52, then one carry
 * pass in 44/44/42 bits (hi_k 2^52 is hi_k << 8 at the next 44-bit limb;
 * hi_2 2^(88 + 52) = hi_2 2^10 2^130, so 5 (hi_2 << 10) goes to limb 0).
 */
IFMA_INLINE struct v3 vmul(struct v3 h, struct v3 r, struct v3 s)
{
	const __m512i z = _mm512_setzero_si512();
	const __m512i m44 = _mm512_set1_epi64((long long)P64_M44);
	const __m512i m42 = _mm512_set1_epi64((long long)P64_M42);
	__m512i lo0, lo1, lo2, hi0, hi1, hi2, c;
	struct v3 o;

	lo0 = _mm512_madd52lo_epu64(z, h.l0, r.l0);
	hi0 = _mm512_madd52hi_epu64(z, h.l0, r.l0);
	lo1 = _mm512_madd52lo_epu64(z, h.l0, r.l1);
	hi1 = _mm512_madd52hi_epu64(z, h.l0, r.l1);
	lo2 = _mm512_madd52lo_epu64(z, h.l0, r.l2);
	hi2 = _mm512_madd52hi_epu64(z, h.l0, r.l2);
	lo0 = _mm512_madd52lo_epu64(lo0, h.l1, s.l2);
	hi0 = _mm512_madd52hi_epu64(hi0, h.l1, s.l2);
	lo1 = _mm512_madd52lo_epu64(lo1, h.l1, r.l0);
	hi1 = _mm512_madd52hi_epu64(hi1, h.l1, r.l0);
	lo2 = _mm512_madd52lo_epu64(lo2, h.l1, r.l1);
	hi2 = _mm512_madd52hi_epu64(hi2, h.l1, r.l1);
	lo0 = _mm512_madd52lo_epu64(lo0, h.l2, s.l1);
	hi0 = _mm512_madd52hi_epu64(hi0, h.l2, s.l1);
	lo1 = _mm512_madd52lo_epu64(lo1, h.l2, s.l2);
	hi1 = _mm512_madd52hi_epu64(hi1, h.l2, s.l2);
	lo2 = _mm512_madd52lo_epu64(lo2, h.l2, r.l0);
	hi2 = _mm512_madd52hi_epu64(hi2, h.l2, r.l0);
	/* the high halves move up by 8 (10 for limb 2) into the next limb */
	hi0 = _mm512_slli_epi64(hi0, 8);
	hi1 = _mm512_slli_epi64(hi1, 8);
	hi2 = _mm512_slli_epi64(hi2, 10);
	/* limb 0 -> 1 -> 2 -> 0 (times 5) -> 1 */
	c = _mm512_add_epi64(_mm512_srli_epi64(lo0, 44), hi0);
	lo0 = _mm512_and_si512(lo0, m44);
	lo1 = _mm512_add_epi64(lo1, c);
	c = _mm512_add_epi64(_mm512_srli_epi64(lo1, 44), hi1);
	lo1 = _mm512_and_si512(lo1, m44);
	lo2 = _mm512_add_epi64(lo2, c);
	c = _mm512_add_epi64(_mm512_srli_epi64(lo2, 42), hi2);
	lo2 = _mm512_and_si512(lo2, m42);
	lo0 = _mm512_add_epi64(lo0,
			       _mm512_add_epi64(c, _mm512_slli_epi64(c, 2)));
	c = _mm512_srli_epi64(lo0, 44);
	o.l0 = _mm512_and_si512(lo0, m44);
	o.l1 = _mm512_add_epi64(lo1, c);
	o.l2 = lo2;
	return o;
}

/* h += blocks p[0..127] (block j in lane j) as 44/44/42-bit limbs with
 * the 2^128 bit (bit 40 of limb 2) */
IFMA_INLINE struct v3 vadd_msg(struct v3 h, const uint8_t *p)
{
	const __m512i m44 = _mm512_set1_epi64((long long)P64_M44);
	const __m512i even = _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0);
	const __m512i odd = _mm512_set_epi64(15, 13, 11, 9, 7, 5, 3, 1);
	const __m512i hibit = _mm512_set1_epi64(1LL << 40);
	__m512i a = _mm512_loadu_si512((const void *)p);
	__m512i b = _mm512_loadu_si512((const void *)(p + 64));
	/* lo: bytes 0..7 of each block, hi: bytes 8..15 */
	__m512i lo = _mm512_permutex2var_epi64(a, even, b);
	__m512i hi = _mm512_permutex2var_epi64(a, odd, b);
	__m512i t;

	h.l0 = _mm512_add_epi64(h.l0, _mm512_and_si512(lo, m44));
	t = _mm512_or_si512(_mm512_srli_epi64(lo, 44),
			    _mm512_slli_epi64(hi, 20));
	h.l1 = _mm512_add_epi64(h.l1, _mm512_and_si512(t, m44));
	t = _mm512_or_si512(_mm512_srli_epi64(hi, 24), hibit);
	h.l2 = _mm512_add_epi64(h.l2, t);
	return h;
}

/* the lanes of one limb of v, summed */
IFMA_INLINE uint64_t hsum(__m512i v)
{
	uint64_t w[8], s = 0;

	_mm512_storeu_si512((void *)w, v);
	for (int i = 0; i < 8; i++)
		s += w[i];
	return s;
}

/* lane j of each limb = lane idx[j] of v */
IFMA_INLINE struct v3 vperm(struct v3 v, __m512i idx)
{
	v.l0 = _mm512_permutexvar_epi64(idx, v.l0);
	v.l1 = _mm512_permutexvar_epi64(idx, v.l1);
	v.l2 = _mm512_permutexvar_epi64(idx, v.l2);
	return v;
}

/* lane j of each limb = lane idx[j] of a (idx < 8) or idx[j] - 8 of b */
IFMA_INLINE struct v3 vsel(struct v3 a, __m512i idx, struct v3 b)
{
	a.l0 = _mm512_permutex2var_epi64(a.l0, idx, b.l0);
	a.l1 = _mm512_permutex2var_epi64(a.l1, idx, b.l1);
	a.l2 = _mm512_permutex2var_epi64(a.l2, idx, b.l2);
	return a;
}

/* v = v * (lanes of v where idx takes them from b, 1 elsewhere) */
IFMA_INLINE struct v3 vpow_step(struct v3 v, struct v3 one, __m512i idx,
				struct v3 b)
{
	struct v3 m = vsel(one, idx, b);

	return vmul(v, m, times20(m));
}

/*
 * fb lanes j = 0..7: r^(8 - j); r8: r^8 in every lane. In vector
 * registers only, three products deep: v = r in every lane; times r in
 * the odd lanes (r, r^2, r, r^2, ...); times r^2 in lanes 2, 3, 6, 7
 * (r .. r^4 twice); times r^4 in lanes 4..7 (lane j = r^(j + 1)); then
 * reversed. The multiplier's other lanes hold 1 (limbs 1, 0, 0). Bounds:
 * every operand is r, 1 or a vmul output (limbs < 2^44, 2^44 + 2^17,
 * 2^42), as vmul requires. Built in registers: powers computed in
 * general-purpose registers and moved lane by lane into vectors went
 * through the stack (a vector load of eight scalar stores, which store
 * forwarding cannot serve), about 100 ns of a 4 KiB seal here.
 */
IFMA_INLINE void powers8(const uint64_t r[3], struct v3 *fb, struct v3 *r8)
{
	struct v3 v, one;

	v.l0 = _mm512_set1_epi64((long long)r[0]);
	v.l1 = _mm512_set1_epi64((long long)r[1]);
	v.l2 = _mm512_set1_epi64((long long)r[2]);
	one.l0 = _mm512_set1_epi64(1);
	one.l1 = _mm512_setzero_si512();
	one.l2 = _mm512_setzero_si512();
	v = vpow_step(v, one, _mm512_set_epi64(15, 6, 13, 4, 11, 2, 9, 0), v);
	v = vpow_step(v, one, _mm512_set_epi64(15, 14, 5, 4, 11, 10, 1, 0),
		      vperm(v, _mm512_set1_epi64(1)));
	v = vpow_step(v, one, _mm512_set_epi64(15, 14, 13, 12, 3, 2, 1, 0),
		      vperm(v, _mm512_set1_epi64(3)));
	*r8 = vperm(v, _mm512_set1_epi64(7));
	*fb = vperm(v, _mm512_set_epi64(0, 1, 2, 3, 4, 5, 6, 7));
}

/* The two accumulators and the powers of r of one message */
struct ifma_acc {
	struct v3 a, b;	    /* A: blocks 0..7 of each step, B: 8..15 */
	struct v3 fa, fas;  /* r^16 .. r^9 per lane, and times 20 */
	struct v3 fb, fbs;  /* r^8 .. r^1 per lane, and times 20 */
	struct v3 r16, s16; /* r^16 in every lane, and times 20 */
};

/* powers of r; A starts with h in lane 0, B with zero */
IFMA_INLINE void ifma_begin(struct ifma_acc *acc, const uint64_t r[3],
			    const uint64_t h[3])
{
	const __m512i z = _mm512_setzero_si512();
	struct v3 r8;

	powers8(r, &acc->fb, &r8);
	acc->fbs = times20(acc->fb);
	acc->fa = vmul(acc->fb, r8, times20(r8));
	acc->fas = times20(acc->fa);
	acc->r16 = vperm(acc->fa, z); /* lane 0 of fa (r^16) in every lane */
	acc->s16 = times20(acc->r16);
	acc->a.l0 = _mm512_set_epi64(0, 0, 0, 0, 0, 0, 0, (long long)h[0]);
	acc->a.l1 = _mm512_set_epi64(0, 0, 0, 0, 0, 0, 0, (long long)h[1]);
	acc->a.l2 = _mm512_set_epi64(0, 0, 0, 0, 0, 0, 0, (long long)h[2]);
	acc->b.l0 = z;
	acc->b.l1 = z;
	acc->b.l2 = z;
}

/* 16 blocks m[0 .. 255] that are not the message's last: times r^16 */
IFMA_INLINE void ifma_step(struct ifma_acc *acc, const uint8_t *m)
{
	acc->a = vmul(vadd_msg(acc->a, m), acc->r16, acc->s16);
	acc->b = vmul(vadd_msg(acc->b, m + 128), acc->r16, acc->s16);
}

/* the last 16 blocks: lane j of A times r^(16 - j), of B times r^(8 - j) */
IFMA_INLINE void ifma_last(struct ifma_acc *acc, const uint8_t *m)
{
	acc->a = vmul(vadd_msg(acc->a, m), acc->fa, acc->fas);
	acc->b = vmul(vadd_msg(acc->b, m + 128), acc->fb, acc->fbs);
}

/* h = the sum of the 16 lanes, carried to poly1305/x64.h's bounds */
IFMA_INLINE void ifma_end(const struct ifma_acc *acc, uint64_t h[3])
{
	uint64_t c;

	/* 16 lanes, each limb < 2^44 + 2^17: sums < 2^49 */
	h[0] = hsum(_mm512_add_epi64(acc->a.l0, acc->b.l0));
	h[1] = hsum(_mm512_add_epi64(acc->a.l1, acc->b.l1));
	h[2] = hsum(_mm512_add_epi64(acc->a.l2, acc->b.l2));
	c = h[0] >> 44;
	h[0] &= P64_M44;
	h[1] += c;
	c = h[1] >> 44;
	h[1] &= P64_M44;
	h[2] += c;
	c = h[2] >> 42;
	h[2] &= P64_M42;
	h[0] += c * 5;
	c = h[0] >> 44;
	h[0] &= P64_M44;
	h[1] += c;
}

#endif
