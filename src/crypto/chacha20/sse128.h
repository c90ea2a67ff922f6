/* SPDX-License-Identifier: MIT */
/*
 * The 4-block, 128-bit ChaCha20 kernel body shared by chacha20/ssse3.c
 * (built with -mssse3: legacy SSE encoding, two-operand) and
 * chacha20/avx.c (the same source built with -mavx: VEX encoding, whose
 * three-operand forms save the register copies before the shifts; Sandy
 * Bridge, Ivy Bridge and Bulldozer have AVX but not AVX2). One source,
 * two encodings, so the two kernels cannot drift apart.
 * The rounds are inline assembly, two quarter rounds per statement (8
 * state vectors and 2 scratch registers as operands, the shuffle masks
 * read from memory), as in chacha20/avx2.c, and the ten double rounds
 * are unrolled: with the loop kept, GCC 12 sent most of the 16 state
 * vectors through the stack at every back edge (ChaCha20 alone 1215 ->
 * 1540 MB/s here, OpenSSL's SSSE3 code 1529). One assembly statement for
 * a whole step, every register fixed and the Poly1305 text placed
 * inside, measured no faster, so the compiler keeps the schedule.
 * s128_step is one 4-block step with, inside its rounds, up to 16
 * radix-2^64 Poly1305 blocks (poly1305/p64r.h: MUL, no BMI2, which these
 * CPUs lack) of the previous step's ciphertext, or one ChaCha20 block in
 * general-purpose registers (block 0, the one-time key, during the first
 * step), so the integer and vector units work at the same time (as Go's
 * SSSE3 code interleaves them). s128_body is the seal and open body
 * (kernels.h chachapoly_body_fn) built on it; cs_xor (chacha20/simd.h)
 * runs the same step without the MAC.
 * Included ONLY by those two ISA files, after checking __SSSE3__ (which
 * -mavx implies). Spec: RFC 8439 sections 2.1-2.5.
 * Constant time: yes. Not proved; tests/unit/test_kernels.c compares both
 * kernels with chacha20/ref.c and poly1305/ref.c.
 */
#ifndef VCRYPTFS_CHACHA20_SSE128_H
#define VCRYPTFS_CHACHA20_SSE128_H

#include <string.h>
#include <tmmintrin.h>

#include "crypto/chacha20/fastblock.h"
#include "crypto/chacha20/simd_row.h"
#include "crypto/ct.h"
#include "crypto/kernels.h"
#include "crypto/poly1305/x64.h"
#include "crypto/poly1305/p64r.h"

#define CS_VEC __m128i
#define CS_PAIRED_QR 1
#define CS_BLOCKS 4
#define CS_ADD(a, b) _mm_add_epi32((a), (b))
#define CS_XOR(a, b) _mm_xor_si128((a), (b))
#define CS_ROTS(a, n)                                                          \
	_mm_or_si128(_mm_slli_epi32((a), (n)), _mm_srli_epi32((a), 32 - (n)))
#define CS_ROT16(a)                                                            \
	_mm_shuffle_epi8((a), _mm_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, \
					    9, 14, 15, 12, 13))
#define CS_ROT8(a)                                                             \
	_mm_shuffle_epi8((a), _mm_setr_epi8(3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9,  \
					    10, 15, 12, 13, 14))
#define CS_ROT12(a) CS_ROTS((a), 12)
#define CS_ROT7(a) CS_ROTS((a), 7)
#define CS_SET1(v) _mm_set1_epi32((int)(v))
#define CS_LANES _mm_setr_epi32(0, 1, 2, 3)
#define CS_UNPACKLO32 _mm_unpacklo_epi32
#define CS_UNPACKHI32 _mm_unpackhi_epi32
#define CS_UNPACKLO64 _mm_unpacklo_epi64
#define CS_UNPACKHI64 _mm_unpackhi_epi64

/*
 * Two quarter rounds (a_i, b_i, c_i, d_i), i = 0, 1, interleaved: each
 * step is a += b, d ^= a, d <<<= n for both. Rotations by 16 and 8 are
 * pshufb with a mask from memory, by 12 and 7 two shifts and an or.
 */
/* (clang-format would break the string concatenations apart) */
/* clang-format off */
#ifdef __AVX__
#define S2_STEP(a0, a1, b0, b1, d0, d1, ROT)                                   \
	"vpaddd %[" #b0 "], %[" #a0 "], %[" #a0 "]\n\t"                        \
	"vpaddd %[" #b1 "], %[" #a1 "], %[" #a1 "]\n\t"                        \
	"vpxor %[" #a0 "], %[" #d0 "], %[" #d0 "]\n\t"                         \
	"vpxor %[" #a1 "], %[" #d1 "], %[" #d1 "]\n\t" ROT(d0, d1)
#define S2_SHUF(d0, d1, MASK)                                                  \
	"vpshufb %[" #MASK "], %[" #d0 "], %[" #d0 "]\n\t"                     \
	"vpshufb %[" #MASK "], %[" #d1 "], %[" #d1 "]\n\t"
#define S2_SHIFT1(d, t, L, RR)                                                 \
	"vpsrld $" #RR ", %[" #d "], %[" #t "]\n\t"                            \
	"vpslld $" #L ", %[" #d "], %[" #d "]\n\t"                             \
	"vpor %[" #t "], %[" #d "], %[" #d "]\n\t"
#else
#define S2_STEP(a0, a1, b0, b1, d0, d1, ROT)                                   \
	"paddd %[" #b0 "], %[" #a0 "]\n\t"                                     \
	"paddd %[" #b1 "], %[" #a1 "]\n\t"                                     \
	"pxor %[" #a0 "], %[" #d0 "]\n\t"                                      \
	"pxor %[" #a1 "], %[" #d1 "]\n\t" ROT(d0, d1)
#define S2_SHUF(d0, d1, MASK)                                                  \
	"pshufb %[" #MASK "], %[" #d0 "]\n\t"                                  \
	"pshufb %[" #MASK "], %[" #d1 "]\n\t"
#define S2_SHIFT1(d, t, L, RR)                                                 \
	"movdqa %[" #d "], %[" #t "]\n\t"                                      \
	"psrld $" #RR ", %[" #t "]\n\t"                                        \
	"pslld $" #L ", %[" #d "]\n\t"                                         \
	"por %[" #t "], %[" #d "]\n\t"
#endif
/* each rotation through its own scratch (t0 for d0, t1 for d1) */
#define S2_SHIFT(d0, d1, L, RR)                                                \
	S2_SHIFT1(d0, t0, L, RR) S2_SHIFT1(d1, t1, L, RR)
#define S2_R16(d0, d1) S2_SHUF(d0, d1, r16)
#define S2_R8(d0, d1) S2_SHUF(d0, d1, r8)
#define S2_R12(d0, d1) S2_SHIFT(d0, d1, 12, 20)
#define S2_R7(d0, d1) S2_SHIFT(d0, d1, 7, 25)
/* quarter rounds (a_i, b_i, c_i, d_i), i = 0, 1 */
#define S2_QR2(a0, a1, b0, b1, c0, c1, d0, d1)                                 \
	S2_STEP(a0, a1, b0, b1, d0, d1, S2_R16)                                \
	S2_STEP(c0, c1, d0, d1, b0, b1, S2_R12)                                \
	S2_STEP(a0, a1, b0, b1, d0, d1, S2_R8)                                 \
	S2_STEP(c0, c1, d0, d1, b0, b1, S2_R7)
/* clang-format on */
/* 16-byte aligned (legacy SSE memory operands must be) */
static const __m128i s2_rot16 = { 0x0504070601000302LL, 0x0d0c0f0e09080b0aLL };
static const __m128i s2_rot8 = { 0x0605040702010003LL, 0x0e0d0c0f0a09080bLL };

/* two quarter rounds on registers (the compiler picks them) */
#define S2_ASM(a0, a1, b0, b1, c0, c1, d0, d1)                                 \
	__asm__(S2_QR2(a0, a1, b0, b1, c0, c1, d0, d1)                         \
		: [a0] "+x"(a0), [a1] "+x"(a1), [b0] "+x"(b0), [b1] "+x"(b1),  \
		  [c0] "+x"(c0), [c1] "+x"(c1), [d0] "+x"(d0), [d1] "+x"(d1),  \
		  [t0] "=&x"(t0), [t1] "=&x"(t1)                               \
		: [r16] "m"(s2_rot16), [r8] "m"(s2_rot8))

/* one Poly1305 block at pm, then pm moves on (when pm is not NULL) */
#define S2_MAC()                                                               \
	do {                                                                   \
		if (pm != NULL) {                                              \
			p64r_block(&h0, &h1, &h2, p, pm);                      \
			pm += 16;                                              \
		}                                                              \
	} while (0)

#define S2_B(i) _mm_set1_epi32((int)st[i])

/* 4 x 4 transpose of 32-bit words: in a_j word w of block j' = lane j'
 * ... out t[k] = words w..w+3 of block k */
static inline __attribute__((always_inline)) void s2_store4(
	uint8_t *out, const uint8_t *in, __m128i a0, __m128i a1, __m128i a2,
	__m128i a3)
{
	__m128i u0 = _mm_unpacklo_epi32(a0, a1);
	__m128i u1 = _mm_unpacklo_epi32(a2, a3);
	__m128i u2 = _mm_unpackhi_epi32(a0, a1);
	__m128i u3 = _mm_unpackhi_epi32(a2, a3);
	__m128i t[4];

	t[0] = _mm_unpacklo_epi64(u0, u1);
	t[1] = _mm_unpackhi_epi64(u0, u1);
	t[2] = _mm_unpacklo_epi64(u2, u3);
	t[3] = _mm_unpackhi_epi64(u2, u3);
	for (int k = 0; k < 4; k++) {
		__m128i v = _mm_loadu_si128((const __m128i *)(in + 64 * k));

		_mm_storeu_si128((__m128i *)(out + 64 * k),
				 _mm_xor_si128(v, t[k]));
	}
}

/*
 * out[0 .. 255] = in ^ keystream blocks counter .. counter + 3; with pm
 * (p the radix-2^64 state), also the 16 Poly1305 blocks at pm[0 .. 255],
 * 2 per double round in the first 6, 1 in the last 4; with ks1, also
 * ks1 = keystream block kctr in general-purpose registers (a separate
 * one-block step would be a long dependency chain of its own).
 */
static inline __attribute__((always_inline)) void s128_step(
	uint8_t *out, const uint8_t *in, const uint32_t st[16],
	uint32_t counter, uint8_t *ks1, uint32_t kctr, struct p64r *p,
	const uint8_t *pm)
{
	uint64_t h0 = 0, h1 = 0, h2 = 0;
	uint32_t s0 = st[0], s1 = st[1], s2 = st[2], s3 = st[3];
	uint32_t s4 = st[4], s5 = st[5], s6 = st[6], s7 = st[7];
	uint32_t s8 = st[8], s9 = st[9], s10 = st[10], s11 = st[11];
	uint32_t s12 = kctr, s13 = st[13], s14 = st[14], s15 = st[15];
	const __m128i lanes = _mm_setr_epi32(0, 1, 2, 3);
	__m128i x0 = S2_B(0), x1 = S2_B(1), x2 = S2_B(2), x3 = S2_B(3);
	__m128i x4 = S2_B(4), x5 = S2_B(5), x6 = S2_B(6), x7 = S2_B(7);
	__m128i x8 = S2_B(8), x9 = S2_B(9), x10 = S2_B(10), x11 = S2_B(11);
	__m128i x12 = _mm_add_epi32(_mm_set1_epi32((int)counter), lanes);
	__m128i x13 = S2_B(13), x14 = S2_B(14), x15 = S2_B(15);
	__m128i t0, t1;

	if (pm != NULL) {
		h0 = p->h0;
		h1 = p->h1;
		h2 = p->h2;
	}
#pragma GCC unroll 10
	for (int i = 0; i < 10; i++) {
		S2_ASM(x0, x1, x4, x5, x8, x9, x12, x13);
		S2_MAC();
		if (ks1 != NULL) {
			FB_QR(s0, s4, s8, s12);
			FB_QR(s1, s5, s9, s13);
		}
		S2_ASM(x2, x3, x6, x7, x10, x11, x14, x15);
		if (ks1 != NULL) {
			FB_QR(s2, s6, s10, s14);
			FB_QR(s3, s7, s11, s15);
		}
		S2_ASM(x0, x1, x5, x6, x10, x11, x15, x12);
		if (i < 6)
			S2_MAC();
		if (ks1 != NULL) {
			FB_QR(s0, s5, s10, s15);
			FB_QR(s1, s6, s11, s12);
		}
		S2_ASM(x2, x3, x7, x4, x8, x9, x13, x14);
		if (ks1 != NULL) {
			FB_QR(s2, s7, s8, s13);
			FB_QR(s3, s4, s9, s14);
		}
	}
	if (pm != NULL) {
		p->h0 = h0;
		p->h1 = h1;
		p->h2 = h2;
	}
	if (ks1 != NULL) {
		FB_STORE_BLOCK(ks1, st, kctr, s0, s1, s2, s3, s4, s5, s6, s7,
			       s8, s9, s10, s11, s12, s13, s14, s15);
	}
	x0 = _mm_add_epi32(x0, S2_B(0));
	x1 = _mm_add_epi32(x1, S2_B(1));
	x2 = _mm_add_epi32(x2, S2_B(2));
	x3 = _mm_add_epi32(x3, S2_B(3));
	s2_store4(out, in, x0, x1, x2, x3);
	x4 = _mm_add_epi32(x4, S2_B(4));
	x5 = _mm_add_epi32(x5, S2_B(5));
	x6 = _mm_add_epi32(x6, S2_B(6));
	x7 = _mm_add_epi32(x7, S2_B(7));
	s2_store4(out + 16, in + 16, x4, x5, x6, x7);
	x8 = _mm_add_epi32(x8, S2_B(8));
	x9 = _mm_add_epi32(x9, S2_B(9));
	x10 = _mm_add_epi32(x10, S2_B(10));
	x11 = _mm_add_epi32(x11, S2_B(11));
	s2_store4(out + 32, in + 32, x8, x9, x10, x11);
	x12 = _mm_add_epi32(x12,
			    _mm_add_epi32(_mm_set1_epi32((int)counter), lanes));
	x13 = _mm_add_epi32(x13, S2_B(13));
	x14 = _mm_add_epi32(x14, S2_B(14));
	x15 = _mm_add_epi32(x15, S2_B(15));
	s2_store4(out + 48, in + 48, x12, x13, x14, x15);
}

#define CS_BATCH(out, in, st, counter)                                         \
	s128_step(out, in, st, counter, NULL, 0, NULL, NULL)

#include "crypto/chacha20/simd.h"

/*
 * kernels.h chachapoly_body_fn for seal (mac_in 0: MAC over out, the
 * ciphertext; out may equal in) and open (mac_in 1: MAC over in, the
 * ciphertext; out must not overlap in, which is read one step after out
 * was written). Block 0 (the one-time key) in general-purpose registers
 * during the first step, then each step's Poly1305 inside the next
 * step's rounds, the last step's after the loop as two chains of 8 blocks
 * (p64r_last2 with r^8), the tail (< 4 blocks) last.
 */
static inline void s128_body(uint8_t *out, const uint8_t *in, size_t len,
			     const uint8_t *ad, size_t adlen,
			     const uint8_t key[32], const uint8_t nonce[12],
			     struct poly1305_fast *mac, int mac_in)
{
	uint32_t st[16];
	uint8_t otk[64];
	uint64_t r8[3] = { 0, 0, 0 };
	struct p64r p;
	uint32_t counter = 1;
	const uint8_t *pending = NULL;

	cs_init(st, key, nonce);
	if (len >= 64 * CS_BLOCKS) {
		s128_step(out, in, st, counter, otk, 0, NULL, NULL);
		pending = mac_in ? in : out;
		counter += CS_BLOCKS;
		out += 64 * CS_BLOCKS;
		in += 64 * CS_BLOCKS;
		len -= 64 * CS_BLOCKS;
	} else {
		row_block(otk, st, 0);
	}
	poly1305_fast_init(mac, otk);
	ct_wipe(otk, sizeof(otk));
	p64r_from(&p, mac);
	/* ad | pad16(ad) straight in radix 2^64 */
	p64r_absorb_padded(&p, ad, adlen, 0);
	if (pending != NULL)
		p44_pow2k(r8, mac->r, 3);
	while (len >= 64 * CS_BLOCKS) {
		s128_step(out, in, st, counter, NULL, 0, &p, pending);
		pending = mac_in ? in : out;
		counter += CS_BLOCKS;
		out += 64 * CS_BLOCKS;
		in += 64 * CS_BLOCKS;
		len -= 64 * CS_BLOCKS;
	}
	if (pending != NULL) {
		p64r_last2(mac, &p, pending, 8, r8, 0);
		ct_wipe(r8, sizeof(r8));
	} else {
		p64r_to(mac, &p);
	}
	if (len > 0) {
		cs_tail(out, in, len, st, counter);
		poly1305_fast_update(mac, mac_in ? in : out, len);
	}
	ct_wipe(st, sizeof(st));
	ct_wipe(&p, sizeof(p));
}

#endif
