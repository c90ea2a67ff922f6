/* SPDX-License-Identifier: MIT */
/*
 * Scalar stand-ins for the AVX-512F intrinsics that chacha20/avx512.c
 * uses (and SSE2 ones for AVX-512VL's 128-bit rotate), so that its data flow (round body, lane transposes, 128-bit-lane
 * shuffles) can be run on CPUs without AVX-512 (this machine, qemu 7.2),
 * and for the AVX-512F and IFMA ones of poly1305/ifma.c (64-bit lanes,
 * 52-bit multiply-adds, permutes).
 * Semantics from the Intel Intrinsics Guide: unpack* work per 128-bit lane
 * as in SSE2; _mm512_shuffle_i32x4 takes lanes 0-1 from a and 2-3 from b,
 * each chosen by two bits of imm; madd52lo/hi add bits 51:0 / 103:52 of
 * the 104-bit product of the low 52 bits of b and c to a; permutexvar
 * takes a[idx & 7], permutex2var bit 3 of idx choosing b over a; shifts
 * by more than 63 give 0. Found only through -Itests/avx512emu in
 * the mk/tests.mk rules for test_avx512_emul; never used by the real build.
 * It checks the kernel's logic, not the CPU: real AVX-512 hardware is still
 * needed to run the kernel itself.
 */
#ifndef VCRYPTFS_AVX512EMU_IMMINTRIN_H
#define VCRYPTFS_AVX512EMU_IMMINTRIN_H

#include <emmintrin.h>
#include <stdint.h>
#include <string.h>

/* 16 dwords or 8 qwords (lane i of the qwords is dwords 2i, 2i + 1, as
 * in a ZMM register on this little-endian target) */
typedef union {
	uint32_t v[16];
	uint64_t q[8];
} __m512i;

static inline __m512i _mm512_add_epi32(__m512i a, __m512i b)
{
	for (int i = 0; i < 16; i++)
		a.v[i] += b.v[i];
	return a;
}

static inline __m512i _mm512_xor_si512(__m512i a, __m512i b)
{
	for (int i = 0; i < 16; i++)
		a.v[i] ^= b.v[i];
	return a;
}

/* AVX-512VL's 128-bit rotate (the avx512 level's HChaCha20 rows), on
 * SSE2's real type and shifts */
static inline __m128i _mm_rol_epi32(__m128i a, int c)
{
	return _mm_or_si128(_mm_slli_epi32(a, c), _mm_srli_epi32(a, 32 - c));
}

static inline __m512i _mm512_rol_epi32(__m512i a, int c)
{
	for (int i = 0; i < 16; i++)
		a.v[i] = (a.v[i] << c) | (a.v[i] >> (32 - c));
	return a;
}

static inline __m512i _mm512_set1_epi32(int x)
{
	__m512i r;

	for (int i = 0; i < 16; i++)
		r.v[i] = (uint32_t)x;
	return r;
}

static inline __m512i _mm512_setr_epi32(int e0, int e1, int e2, int e3, int e4,
					int e5, int e6, int e7, int e8, int e9,
					int e10, int e11, int e12, int e13,
					int e14, int e15)
{
	const int e[16] = { e0, e1, e2,	 e3,  e4,  e5,	e6,  e7,
			    e8, e9, e10, e11, e12, e13, e14, e15 };
	__m512i r;

	for (int i = 0; i < 16; i++)
		r.v[i] = (uint32_t)e[i];
	return r;
}

/* per 128-bit lane: lo32 (a0 b0 a1 b1), hi32 (a2 b2 a3 b3),
 * lo64 (a0 a1 b0 b1), hi64 (a2 a3 b2 b3) */
static inline __m512i emu_unpack(__m512i a, __m512i b, const int pick[4])
{
	__m512i r;

	for (int l = 0; l < 4; l++)
		for (int i = 0; i < 4; i++)
			r.v[4 * l + i] = pick[i] >= 4 ? b.v[4 * l + pick[i] - 4]
						      : a.v[4 * l + pick[i]];
	return r;
}

static inline __m512i _mm512_unpacklo_epi32(__m512i a, __m512i b)
{
	static const int p[4] = { 0, 4, 1, 5 };

	return emu_unpack(a, b, p);
}

static inline __m512i _mm512_unpackhi_epi32(__m512i a, __m512i b)
{
	static const int p[4] = { 2, 6, 3, 7 };

	return emu_unpack(a, b, p);
}

static inline __m512i _mm512_unpacklo_epi64(__m512i a, __m512i b)
{
	static const int p[4] = { 0, 1, 4, 5 };

	return emu_unpack(a, b, p);
}

static inline __m512i _mm512_unpackhi_epi64(__m512i a, __m512i b)
{
	static const int p[4] = { 2, 3, 6, 7 };

	return emu_unpack(a, b, p);
}

static inline __m512i _mm512_shuffle_i32x4(__m512i a, __m512i b, int imm)
{
	__m512i r;

	for (int l = 0; l < 4; l++) {
		int s = (imm >> (2 * l)) & 3;
		const __m512i *src = l < 2 ? &a : &b;

		memcpy(&r.v[4 * l], &src->v[4 * s], 16);
	}
	return r;
}

static inline __m512i _mm512_loadu_si512(const void *p)
{
	__m512i r;

	memcpy(r.v, p, 64);
	return r;
}

static inline void _mm512_storeu_si512(void *p, __m512i a)
{
	memcpy(p, a.v, 64);
}

/* --- 64-bit lanes (poly1305/ifma.c) --- */

static inline __m512i _mm512_setzero_si512(void)
{
	__m512i r;

	memset(&r, 0, sizeof(r));
	return r;
}

static inline __m512i _mm512_set1_epi64(long long x)
{
	__m512i r;

	for (int i = 0; i < 8; i++)
		r.q[i] = (uint64_t)x;
	return r;
}

/* e7 goes to lane 7, e0 to lane 0 */
static inline __m512i _mm512_set_epi64(long long e7, long long e6, long long e5,
				       long long e4, long long e3, long long e2,
				       long long e1, long long e0)
{
	const long long e[8] = { e0, e1, e2, e3, e4, e5, e6, e7 };
	__m512i r;

	for (int i = 0; i < 8; i++)
		r.q[i] = (uint64_t)e[i];
	return r;
}

static inline __m512i _mm512_add_epi64(__m512i a, __m512i b)
{
	for (int i = 0; i < 8; i++)
		a.q[i] += b.q[i];
	return a;
}

static inline __m512i _mm512_and_si512(__m512i a, __m512i b)
{
	for (int i = 0; i < 8; i++)
		a.q[i] &= b.q[i];
	return a;
}

static inline __m512i _mm512_or_si512(__m512i a, __m512i b)
{
	for (int i = 0; i < 8; i++)
		a.q[i] |= b.q[i];
	return a;
}

static inline __m512i _mm512_slli_epi64(__m512i a, unsigned int c)
{
	for (int i = 0; i < 8; i++)
		a.q[i] = c > 63 ? 0 : a.q[i] << c;
	return a;
}

static inline __m512i _mm512_srli_epi64(__m512i a, unsigned int c)
{
	for (int i = 0; i < 8; i++)
		a.q[i] = c > 63 ? 0 : a.q[i] >> c;
	return a;
}

/* dst[i] = a[idx[i] & 7] */
static inline __m512i _mm512_permutexvar_epi64(__m512i idx, __m512i a)
{
	__m512i r;

	for (int i = 0; i < 8; i++)
		r.q[i] = a.q[idx.q[i] & 7];
	return r;
}

/* dst[i] = (idx[i] & 8 ? b : a)[idx[i] & 7] */
static inline __m512i _mm512_permutex2var_epi64(__m512i a, __m512i idx,
						__m512i b)
{
	__m512i r;

	for (int i = 0; i < 8; i++)
		r.q[i] = (idx.q[i] & 8) ? b.q[idx.q[i] & 7] : a.q[idx.q[i] & 7];
	return r;
}

/* the 104-bit product of bits 51:0 of b and c, as low (bits 51:0) and high
 * (bits 103:52) halves: four 26 x 26-bit partial products, so the stand-in
 * does not rest on the compiler's 128-bit arithmetic */
static inline void emu_mul52(uint64_t b, uint64_t c, uint64_t *lo, uint64_t *hi)
{
	const uint64_t m26 = (1ULL << 26) - 1, m52 = (1ULL << 52) - 1;
	uint64_t b0 = b & m26, b1 = (b >> 26) & m26;
	uint64_t c0 = c & m26, c1 = (c >> 26) & m26;
	/* weights 2^0, 2^26 (two terms), 2^52; each term < 2^52 */
	uint64_t p00 = b0 * c0, p01 = b0 * c1, p10 = b1 * c0, p11 = b1 * c1;
	uint64_t mid = p01 + p10;		  /* < 2^53 */
	uint64_t low = p00 + ((mid & m26) << 26); /* < 2^53 */

	*lo = low & m52;
	*hi = p11 + (mid >> 26) + (low >> 52);
}

/* dst[i] = a[i] + bits 51:0 of b[i][51:0] * c[i][51:0] */
static inline __m512i _mm512_madd52lo_epu64(__m512i a, __m512i b, __m512i c)
{
	for (int i = 0; i < 8; i++) {
		uint64_t lo, hi;

		emu_mul52(b.q[i], c.q[i], &lo, &hi);
		a.q[i] += lo;
	}
	return a;
}

/* dst[i] = a[i] + bits 103:52 of b[i][51:0] * c[i][51:0] */
static inline __m512i _mm512_madd52hi_epu64(__m512i a, __m512i b, __m512i c)
{
	for (int i = 0; i < 8; i++) {
		uint64_t lo, hi;

		emu_mul52(b.q[i], c.q[i], &lo, &hi);
		a.q[i] += hi;
	}
	return a;
}

#endif
