/* SPDX-License-Identifier: MIT */
/*
 * Scalar stand-ins for the AVX-512F intrinsics that chacha20_avx512.c
 * uses, so that its data flow (round body, lane transposes, 128-bit-lane
 * shuffles) can be run on CPUs without AVX-512 (this machine, qemu 7.2).
 * Semantics from the Intel Intrinsics Guide: unpack* work per 128-bit lane
 * as in SSE2; _mm512_shuffle_i32x4 takes lanes 0-1 from a and 2-3 from b,
 * each chosen by two bits of imm. Found only through -Itests/avx512emu in
 * the mk/tests.mk rule for test_avx512_emul; never used by the real build.
 * It checks the kernel's logic, not the CPU: real AVX-512 hardware is still
 * needed to run the kernel itself.
 */
#ifndef VCRYPTFS_AVX512EMU_IMMINTRIN_H
#define VCRYPTFS_AVX512EMU_IMMINTRIN_H

#include <stdint.h>
#include <string.h>

typedef struct {
	uint32_t v[16];
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

#endif
