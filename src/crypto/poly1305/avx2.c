/* SPDX-License-Identifier: MIT */
/*
 * Poly1305 bulk blocks, 4 blocks per step in AVX2 registers: 5 x 26-bit
 * limbs per 64-bit lane, one message block per lane, one accumulator of
 * 4 lanes, Horner's rule with r^4 (lane i accumulates blocks i, i + 4,
 * ...; the last step multiplies the lanes by r^4 .. r^1 and all lanes are
 * summed). Two accumulators with r^8 kept 20 vectors live and GCC 12
 * spilled half the loop to the stack (4100 -> 4300 MB/s). See kernels.h
 * (poly1305_blocks_fn: same contract as the scalar 44-bit block loop).
 * Spec: RFC 8439 section 2.5.1; h = sum of (m_i + 2^128) * r^(n - i).
 * Limb bounds: between steps every lane limb is < 2^26 + 2^11;
 * adding a message keeps it < 2^28; r^k limbs < 2^26, 5 * r^k < 2^29, so
 * every 32 x 32 product is < 2^57 and each sum of five < 2^60.
 * CPU feature: AVX2 with OS-saved YMM state; the only Poly1305 file built
 * with -mavx2 (Makefile). Constant time: yes (no secret-dependent branch or
 * index). Not proved; tests/unit/test_kernels.c compares it with
 * poly1305/ref.c.
 */
#include "crypto/kernels.h"
#include "crypto/cpu.h"

#if defined(__AVX2__) && !defined(__FRAMAC__)
#include <immintrin.h>
#include <string.h>

#include "crypto/ct.h"
#include "crypto/poly1305/x64.h"

#define M26 0x3ffffffULL

/* a = a * b mod 2^130 - 5 on 26-bit limbs, fully carried (< 2^26 each,
 * limb 1 < 2^26 + 2^8) */
static void mul26(uint64_t a[5], const uint64_t b[5])
{
	uint64_t s1 = b[1] * 5, s2 = b[2] * 5, s3 = b[3] * 5, s4 = b[4] * 5;
	uint64_t d[5], c;

	d[0] = a[0] * b[0] + a[1] * s4 + a[2] * s3 + a[3] * s2 + a[4] * s1;
	d[1] = a[0] * b[1] + a[1] * b[0] + a[2] * s4 + a[3] * s3 + a[4] * s2;
	d[2] = a[0] * b[2] + a[1] * b[1] + a[2] * b[0] + a[3] * s4 + a[4] * s3;
	d[3] = a[0] * b[3] + a[1] * b[2] + a[2] * b[1] + a[3] * b[0] +
	       a[4] * s4;
	d[4] = a[0] * b[4] + a[1] * b[3] + a[2] * b[2] + a[3] * b[1] +
	       a[4] * b[0];
	c = 0;
	for (int i = 0; i < 5; i++) {
		d[i] += c;
		c = d[i] >> 26;
		a[i] = d[i] & M26;
	}
	a[0] += c * 5;
	a[1] += a[0] >> 26;
	a[0] &= M26;
}

/* 44/44/42-bit limbs (each may exceed its width a little) to 26-bit limbs
 * with the same value; every output limb < 2^28 */
static void to26(uint64_t a[5], const uint64_t h[3])
{
	a[0] = h[0] & M26;
	a[1] = (h[0] >> 26) + ((h[1] << 18) & M26);
	a[2] = (h[1] >> 8) & M26;
	a[3] = (h[1] >> 34) + ((h[2] << 10) & M26);
	a[4] = h[2] >> 16;
}

/* 26-bit limbs (< 2^29) to the 44/44/42-bit form, partially carried */
static void to44(uint64_t h[3], uint64_t a[5])
{
	uint64_t c = 0;

	for (int i = 0; i < 5; i++) {
		a[i] += c;
		c = a[i] >> 26;
		a[i] &= M26;
	}
	a[0] += c * 5;
	a[1] += a[0] >> 26;
	a[0] &= M26;
	/* bit offsets 0, 26, 52, 78, 104 into 0, 44, 88 */
	h[0] = a[0] + ((a[1] << 26) & P64_M44);
	h[1] = (a[1] >> 18) + (a[2] << 8) + ((a[3] << 34) & P64_M44);
	h[2] = (a[3] >> 10) + (a[4] << 16);
}

/* d = h * (r, s = 5 r) per lane, then one carry pass back to 26 bits */
static inline __attribute__((always_inline)) void vmul(__m256i h[5],
						       const __m256i r[5],
						       const __m256i s[5])
{
	const __m256i m = _mm256_set1_epi64x((long long)M26);
	__m256i d0, d1, d2, d3, d4, c;

	d0 = _mm256_mul_epu32(h[0], r[0]);
	d1 = _mm256_mul_epu32(h[0], r[1]);
	d2 = _mm256_mul_epu32(h[0], r[2]);
	d3 = _mm256_mul_epu32(h[0], r[3]);
	d4 = _mm256_mul_epu32(h[0], r[4]);
	d0 = _mm256_add_epi64(d0, _mm256_mul_epu32(h[1], s[4]));
	d1 = _mm256_add_epi64(d1, _mm256_mul_epu32(h[1], r[0]));
	d2 = _mm256_add_epi64(d2, _mm256_mul_epu32(h[1], r[1]));
	d3 = _mm256_add_epi64(d3, _mm256_mul_epu32(h[1], r[2]));
	d4 = _mm256_add_epi64(d4, _mm256_mul_epu32(h[1], r[3]));
	d0 = _mm256_add_epi64(d0, _mm256_mul_epu32(h[2], s[3]));
	d1 = _mm256_add_epi64(d1, _mm256_mul_epu32(h[2], s[4]));
	d2 = _mm256_add_epi64(d2, _mm256_mul_epu32(h[2], r[0]));
	d3 = _mm256_add_epi64(d3, _mm256_mul_epu32(h[2], r[1]));
	d4 = _mm256_add_epi64(d4, _mm256_mul_epu32(h[2], r[2]));
	d0 = _mm256_add_epi64(d0, _mm256_mul_epu32(h[3], s[2]));
	d1 = _mm256_add_epi64(d1, _mm256_mul_epu32(h[3], s[3]));
	d2 = _mm256_add_epi64(d2, _mm256_mul_epu32(h[3], s[4]));
	d3 = _mm256_add_epi64(d3, _mm256_mul_epu32(h[3], r[0]));
	d4 = _mm256_add_epi64(d4, _mm256_mul_epu32(h[3], r[1]));
	d0 = _mm256_add_epi64(d0, _mm256_mul_epu32(h[4], s[1]));
	d1 = _mm256_add_epi64(d1, _mm256_mul_epu32(h[4], s[2]));
	d2 = _mm256_add_epi64(d2, _mm256_mul_epu32(h[4], s[3]));
	d3 = _mm256_add_epi64(d3, _mm256_mul_epu32(h[4], s[4]));
	d4 = _mm256_add_epi64(d4, _mm256_mul_epu32(h[4], r[0]));
	/* two interleaved carry chains: 0->1->2 and 3->4->0->1 */
	c = _mm256_srli_epi64(d0, 26);
	d0 = _mm256_and_si256(d0, m);
	d1 = _mm256_add_epi64(d1, c);
	c = _mm256_srli_epi64(d3, 26);
	d3 = _mm256_and_si256(d3, m);
	d4 = _mm256_add_epi64(d4, c);
	c = _mm256_srli_epi64(d1, 26);
	d1 = _mm256_and_si256(d1, m);
	d2 = _mm256_add_epi64(d2, c);
	c = _mm256_srli_epi64(d4, 26);
	d4 = _mm256_and_si256(d4, m);
	d0 = _mm256_add_epi64(d0, _mm256_add_epi64(c, _mm256_slli_epi64(c, 2)));
	c = _mm256_srli_epi64(d2, 26);
	d2 = _mm256_and_si256(d2, m);
	d3 = _mm256_add_epi64(d3, c);
	c = _mm256_srli_epi64(d0, 26);
	d0 = _mm256_and_si256(d0, m);
	d1 = _mm256_add_epi64(d1, c);
	c = _mm256_srli_epi64(d3, 26);
	d3 = _mm256_and_si256(d3, m);
	d4 = _mm256_add_epi64(d4, c);
	h[0] = d0;
	h[1] = d1;
	h[2] = d2;
	h[3] = d3;
	h[4] = d4;
}

/* h += blocks p[0..63] as 26-bit limbs; lanes hold blocks 0, 2, 1, 3 */
static inline __attribute__((always_inline)) void vload(__m256i h[5],
							const uint8_t *p)
{
	const __m256i m = _mm256_set1_epi64x((long long)M26);
	__m256i a = _mm256_loadu_si256((const __m256i *)p);
	__m256i b = _mm256_loadu_si256((const __m256i *)(p + 32));
	__m256i lo = _mm256_unpacklo_epi64(a, b);
	__m256i hi = _mm256_unpackhi_epi64(a, b);
	__m256i t;

	h[0] = _mm256_add_epi64(h[0], _mm256_and_si256(lo, m));
	h[1] = _mm256_add_epi64(h[1],
				_mm256_and_si256(_mm256_srli_epi64(lo, 26), m));
	t = _mm256_or_si256(_mm256_srli_epi64(lo, 52),
			    _mm256_slli_epi64(hi, 12));
	h[2] = _mm256_add_epi64(h[2], _mm256_and_si256(t, m));
	h[3] = _mm256_add_epi64(h[3],
				_mm256_and_si256(_mm256_srli_epi64(hi, 14), m));
	t = _mm256_or_si256(_mm256_srli_epi64(hi, 40),
			    _mm256_set1_epi64x(1LL << 24));
	h[4] = _mm256_add_epi64(h[4], t);
}

static uint64_t hsum(__m256i v)
{
	__m128i x = _mm_add_epi64(_mm256_castsi256_si128(v),
				  _mm256_extracti128_si256(v, 1));

	x = _mm_add_epi64(x, _mm_unpackhi_epi64(x, x));
	return (uint64_t)_mm_cvtsi128_si64(x);
}

/* lanes (0, 2, 1, 3) of a 4-block load: r^p0, r^p2, r^p1, r^p3 */
static void lanes(__m256i v[5], __m256i vs5[5], const uint64_t rp[5][5], int p0,
		  int p1, int p2, int p3)
{
	for (int i = 0; i < 5; i++) {
		v[i] = _mm256_setr_epi64x(
			(long long)rp[p0][i], (long long)rp[p2][i],
			(long long)rp[p1][i], (long long)rp[p3][i]);
		vs5[i] = _mm256_setr_epi64x(
			(long long)rp[p0][i] * 5, (long long)rp[p2][i] * 5,
			(long long)rp[p1][i] * 5, (long long)rp[p3][i] * 5);
	}
}

/*
 * One accumulator of 4 lanes over 4-block steps, multiplied by r^4 (its
 * limbs and 5 times them read from memory as multiply operands, so the
 * 5 accumulator limbs and the temporaries stay in registers); the last
 * step multiplies the lanes by r^4 .. r^1. Fewer than 4 trailing blocks
 * go to the scalar loop.
 */
static void poly1305_avx2_blocks(uint64_t h[3], const uint64_t r[3],
				 const uint8_t *m, size_t nblocks)
{
	uint64_t rp[5][5], a[5];
	__m256i va[5], vr[5], vs[5], fr[5], fs[5];
	size_t steps = nblocks / 4;

	if (steps < 2) {
		p64_blocks(h, r, m, nblocks);
		return;
	}
	/* rp[k] = r^k, k = 1..4 (rp[0] unused) */
	memset(rp, 0, sizeof(rp));
	to26(rp[1], r);
	for (int k = 2; k <= 4; k++) {
		for (int i = 0; i < 5; i++)
			rp[k][i] = rp[k - 1][i];
		mul26(rp[k], rp[1]);
	}
	to26(a, h);
	lanes(fr, fs, rp, 4, 3, 2, 1);
	for (int i = 0; i < 5; i++) {
		vr[i] = _mm256_set1_epi64x((long long)rp[4][i]);
		vs[i] = _mm256_set1_epi64x((long long)rp[4][i] * 5);
		va[i] = _mm256_setr_epi64x((long long)a[i], 0, 0, 0);
	}
	for (size_t g = 0; g + 1 < steps; g++) {
		vload(va, m + 64 * g);
		vmul(va, vr, vs);
	}
	vload(va, m + 64 * (steps - 1));
	vmul(va, fr, fs);
	for (int i = 0; i < 5; i++)
		a[i] = hsum(va[i]);
	to44(h, a);
	p64_blocks(h, r, m + 64 * steps, nblocks - 4 * steps);
	ct_wipe(rp, sizeof(rp));
}

/* see kernels.h */
poly1305_blocks_fn poly1305_avx2_get(void)
{
	if (!(cpu_features() & CPU_AVX2))
		return NULL;
	return poly1305_avx2_blocks;
}
#else
/* see kernels.h: built without AVX2 support */
poly1305_blocks_fn poly1305_avx2_get(void)
{
	return NULL;
}
#endif
