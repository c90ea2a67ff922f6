/* SPDX-License-Identifier: MIT */
/*
 * One ChaCha20 block in four 128-bit rows: the state rows
 * a = words 0-3, b = 4-7, c = 8-11, d = 12-15 sit in one SSE register each,
 * a column round is one quarter round on whole rows and word rotations
 * of b, c, d turn the diagonals into columns. Used for the one- and
 * two-block tails of the SIMD kernels, where a multi-block SIMD step would
 * be wasted, and for the avx512 level's HChaCha20. Static inline;
 * included ONLY by the ISA files (chacha20/ssse3.c, chacha20/avx2.c,
 * chacha20/avx512.c), which are all built with SSSE3 or more.
 * Spec: RFC 8439 sections 2.1-2.3; draft-irtf-cfrg-xchacha-03 2.2.
 * Constant time: yes. Not proved; checked against chacha20/ref.c by
 * tests/unit/test_kernels.c (tails of every length).
 */
#ifndef VCRYPTFS_CHACHA20_SIMD_ROW_H
#define VCRYPTFS_CHACHA20_SIMD_ROW_H

#include <stdint.h>
#include <tmmintrin.h>

/* Rotates of the 32-bit lanes: an includer with a rotate instruction
 * defines ROW_ROTL(v, n) first (chacha20/avx512.c: AVX-512VL VPROLD, one
 * cycle, which shortens the one-block chain); else SSSE3 byte shuffles
 * for 16 and 8, two shifts for the others. */
#ifdef ROW_ROTL
#define ROW_ROT(v, n) ROW_ROTL((v), (n))
#define ROW_ROT16(v) ROW_ROTL((v), 16)
#define ROW_ROT8(v) ROW_ROTL((v), 8)
#else
#define ROW_ROT(v, n)                                                          \
	_mm_or_si128(_mm_slli_epi32((v), (n)), _mm_srli_epi32((v), 32 - (n)))
#define ROW_ROT16(v)                                                           \
	_mm_shuffle_epi8((v), _mm_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, \
					    9, 14, 15, 12, 13))
#define ROW_ROT8(v)                                                            \
	_mm_shuffle_epi8((v), _mm_setr_epi8(3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9,  \
					    10, 15, 12, 13, 14))
#endif

/* a quarter round on the four columns (or, rotated, the diagonals) */
#define ROW_QR(a, b, c, d)                                                     \
	do {                                                                   \
		(a) = _mm_add_epi32((a), (b));                                 \
		(d) = ROW_ROT16(_mm_xor_si128((d), (a)));                      \
		(c) = _mm_add_epi32((c), (d));                                 \
		(b) = ROW_ROT(_mm_xor_si128((b), (c)), 12);                    \
		(a) = _mm_add_epi32((a), (b));                                 \
		(d) = ROW_ROT8(_mm_xor_si128((d), (a)));                       \
		(c) = _mm_add_epi32((c), (d));                                 \
		(b) = ROW_ROT(_mm_xor_si128((b), (c)), 7);                     \
	} while (0)

/* 20 rounds on the rows, no final addition */
static inline __attribute__((always_inline)) void row_rounds(__m128i *a,
							     __m128i *b,
							     __m128i *c,
							     __m128i *d)
{
	__m128i ra = *a, rb = *b, rc = *c, rd = *d;

	for (int i = 0; i < 10; i++) {
		ROW_QR(ra, rb, rc, rd);
		/* diagonals to columns: b <<< 1 word, c <<< 2, d <<< 3 */
		rb = _mm_shuffle_epi32(rb, 0x39);
		rc = _mm_shuffle_epi32(rc, 0x4e);
		rd = _mm_shuffle_epi32(rd, 0x93);
		ROW_QR(ra, rb, rc, rd);
		rb = _mm_shuffle_epi32(rb, 0x93);
		rc = _mm_shuffle_epi32(rc, 0x4e);
		rd = _mm_shuffle_epi32(rd, 0x39);
	}
	*a = ra;
	*b = rb;
	*c = rc;
	*d = rd;
}

/* ks = keystream block `counter` of the state st (st[12] ignored) */
static inline void row_block(uint8_t ks[64], const uint32_t st[16],
			     uint32_t counter)
{
	__m128i a0 = _mm_loadu_si128((const __m128i *)st);
	__m128i b0 = _mm_loadu_si128((const __m128i *)(st + 4));
	__m128i c0 = _mm_loadu_si128((const __m128i *)(st + 8));
	__m128i d0 = _mm_setr_epi32((int)counter, (int)st[13], (int)st[14],
				    (int)st[15]);
	__m128i a = a0, b = b0, c = c0, d = d0;

	row_rounds(&a, &b, &c, &d);
	_mm_storeu_si128((__m128i *)ks, _mm_add_epi32(a, a0));
	_mm_storeu_si128((__m128i *)(ks + 16), _mm_add_epi32(b, b0));
	_mm_storeu_si128((__m128i *)(ks + 32), _mm_add_epi32(c, c0));
	_mm_storeu_si128((__m128i *)(ks + 48), _mm_add_epi32(d, d0));
}

#endif
