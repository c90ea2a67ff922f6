/* SPDX-License-Identifier: MIT */
/*
 * Poly1305 bulk blocks with AVX-512 IFMA (52-bit multiply-add) in radix
 * 2^44: the 44/44/42-bit limbs of struct poly1305_fast, one message block
 * per 64-bit lane, 8 lanes per ZMM register, two independent accumulators
 * A and B, 16 blocks per step. Step i loads blocks 16 i .. 16 i + 7 into
 * A's lanes and 16 i + 8 .. 16 i + 15 into B's; both are multiplied by
 * r^16 (Horner's rule). The last step multiplies A's lane j by r^(16 - j)
 * and B's by r^(8 - j) instead, and the 16 lanes are summed. Fewer than 16
 * trailing blocks go to p64_blocks (poly1305/x64.h). r^1..r^8 come from
 * three vector products in the lanes (powers8), r^9..r^16 from one more,
 * r^8 * (r^8 .. r^1), once per call. See kernels.h
 * (poly1305_blocks_fn: same contract as poly1305_avx2_get()).
 * Spec: RFC 8439 section 2.5.1; h = sum of (m_i + 2^128) * r^(n - i).
 * Products: vpmadd52luq adds bits 0..51 and vpmadd52huq bits 52..103 of
 * the product of the low 52 bits of two lanes (Intel SDM vol. 2
 * VPMADD52LUQ / VPMADD52HUQ), so every multiplicand must be < 2^52.
 * Limb bounds: between steps h0 < 2^44, h1 < 2^44 + 2^17, h2 < 2^42; with a
 * message block h0 < 2^45, h1 < 2^45 + 2^17, h2 < 2^42 + 2^41. Powers r^k:
 * r0, r1 < 2^44 + 2^17, r2 < 2^42, so 20 r^k < 2^49 < 2^52 (2^130 = 5 and
 * 2^132 = 20 mod p). Each product is < 2^46 * 2^49 = 2^95: its low part
 * < 2^52, its high part < 2^43; three of each sum to < 2^54 and < 2^45,
 * far from 2^64 through the carry pass (vmul). Output: fully carried to
 * poly1305/x64.h's bounds (h0, h2 below their widths, h1 < 2^44 + 1).
 * CPU feature: AVX-512F, AVX-512VL and AVX-512IFMA with OS-saved ZMM and
 * opmask state; the only file built with -mavx512ifma (Makefile: the ifma.c of a primitive folder).
 * Constant time: yes (multiply-adds, shifts, masks, fixed permutes; no
 * secret-dependent branch or index; the loop count depends only on the
 * length). Not proved; tests/unit/test_kernels.c and
 * fuzz/fuzz_diff_poly1305.c compare it with poly1305/ref.c on IFMA CPUs, and
 * tests/avx512emu/test_avx512_emul.c runs it on scalar stand-ins for the
 * intrinsics on every CPU.
 */
#include "crypto/kernels.h"
#include "crypto/cpu.h"

#if defined(__AVX512F__) && defined(__AVX512VL__) &&                           \
	defined(__AVX512IFMA__) && !defined(__FRAMAC__)
#include <immintrin.h>

#include "crypto/poly1305/x64.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#error "poly1305/ifma.c: little-endian only (vector message loads)"
#endif

/* CPU bits the kernel needs */
#define IFMA_NEEDS (CPU_AVX512F | CPU_AVX512VL | CPU_AVX512IFMA)

/* 3 limbs of 8 lanes: a number per lane (h, a power of r, or 20 r) */
struct v3 {
	__m512i l0, l1, l2;
};

/* s = 20 r per lane (16 r + 4 r; < 2^49 under the bounds above) */
static inline __attribute__((always_inline)) struct v3 times20(struct v3 r)
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
static inline __attribute__((always_inline)) struct v3 vmul(struct v3 h,
							    struct v3 r,
							    struct v3 s)
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
static inline __attribute__((always_inline)) struct v3 vadd_msg(
	struct v3 h, const uint8_t *p)
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
static uint64_t hsum(__m512i v)
{
	uint64_t w[8], s = 0;

	_mm512_storeu_si512((void *)w, v);
	for (int i = 0; i < 8; i++)
		s += w[i];
	return s;
}

/* lane j of each limb = lane idx[j] of v */
static inline __attribute__((always_inline)) struct v3 vperm(struct v3 v,
							     __m512i idx)
{
	v.l0 = _mm512_permutexvar_epi64(idx, v.l0);
	v.l1 = _mm512_permutexvar_epi64(idx, v.l1);
	v.l2 = _mm512_permutexvar_epi64(idx, v.l2);
	return v;
}

/* lane j of each limb = lane idx[j] of a (idx < 8) or idx[j] - 8 of b */
static inline __attribute__((always_inline)) struct v3 vsel(struct v3 a,
							    __m512i idx,
							    struct v3 b)
{
	a.l0 = _mm512_permutex2var_epi64(a.l0, idx, b.l0);
	a.l1 = _mm512_permutex2var_epi64(a.l1, idx, b.l1);
	a.l2 = _mm512_permutex2var_epi64(a.l2, idx, b.l2);
	return a;
}

/* v = v * (lanes of v where idx takes them from b, 1 elsewhere) */
static inline __attribute__((always_inline)) struct v3 vpow_step(struct v3 v,
								 struct v3 one,
								 __m512i idx,
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
static void powers8(const uint64_t r[3], struct v3 *fb, struct v3 *r8)
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

/*
 * 16 blocks per step in two 8-lane accumulators (A: blocks 0..7 of each
 * step, B: 8..15), then the tail on the scalar path. nblocks < 16: all
 * scalar.
 */
static void poly1305_ifma_blocks(uint64_t h[3], const uint64_t r[3],
				 const uint8_t *m, size_t nblocks)
{
	uint64_t c;
	struct v3 a, b, fa, fas, fb, fbs, r16, s16, r8;
	size_t steps = nblocks / 16;
	const __m512i z = _mm512_setzero_si512();

	if (steps < 1) {
		p64_blocks(h, r, m, nblocks);
		return;
	}
	/* fb lanes: r^8 .. r^1; fa = fb * r^8: r^16 .. r^9 */
	powers8(r, &fb, &r8);
	fbs = times20(fb);
	fa = vmul(fb, r8, times20(r8));
	fas = times20(fa);
	r16 = vperm(fa, z); /* lane 0 of fa (r^16) in every lane */
	s16 = times20(r16);
	/* A starts with h in lane 0, B with zero */
	a.l0 = _mm512_set_epi64(0, 0, 0, 0, 0, 0, 0, (long long)h[0]);
	a.l1 = _mm512_set_epi64(0, 0, 0, 0, 0, 0, 0, (long long)h[1]);
	a.l2 = _mm512_set_epi64(0, 0, 0, 0, 0, 0, 0, (long long)h[2]);
	b.l0 = z;
	b.l1 = z;
	b.l2 = z;
	for (size_t g = 0; g + 1 < steps; g++) {
		a = vmul(vadd_msg(a, m + 256 * g), r16, s16);
		b = vmul(vadd_msg(b, m + 256 * g + 128), r16, s16);
	}
	a = vmul(vadd_msg(a, m + 256 * (steps - 1)), fa, fas);
	b = vmul(vadd_msg(b, m + 256 * (steps - 1) + 128), fb, fbs);
	/* 16 lanes, each limb < 2^44 + 2^17: sums < 2^49 */
	h[0] = hsum(_mm512_add_epi64(a.l0, b.l0));
	h[1] = hsum(_mm512_add_epi64(a.l1, b.l1));
	h[2] = hsum(_mm512_add_epi64(a.l2, b.l2));
	/* full carry pass back to poly1305/x64.h's bounds */
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
	p64_blocks(h, r, m + 256 * steps, nblocks - 16 * steps);
}

/* see kernels.h */
poly1305_blocks_fn poly1305_ifma_get(void)
{
	if ((cpu_features() & IFMA_NEEDS) != IFMA_NEEDS)
		return NULL;
	return poly1305_ifma_blocks;
}
#else
/* see kernels.h: built without AVX-512 IFMA support */
poly1305_blocks_fn poly1305_ifma_get(void)
{
	return NULL;
}
#endif
