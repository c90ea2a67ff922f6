/* SPDX-License-Identifier: MIT */
/*
 * The 4-block, 128-bit ChaCha20 kernel body shared by chacha20_ssse3.c
 * (built with -mssse3: legacy SSE encoding) and chacha20_avx.c (the same
 * source built with -mavx: VEX encoding, whose three-operand forms save
 * the register copies of the two-operand SSE code; Sandy Bridge, Ivy
 * Bridge and Bulldozer have AVX but not AVX2). One source, two encodings,
 * so the two kernels cannot drift apart. Defines the vector operations of
 * chacha20_simd.h, then includes it, and cs_store; and s128_body, the
 * seal and open bodies (kernels.h chachapoly_body_fn) that run the scalar
 * radix-2^44 Poly1305 (poly1305_64.h: 64x64->128 MUL, no BMI2) of one
 * 4-block step's ciphertext inside the vector rounds of the next step, two
 * 16-byte blocks per double round, so the integer and vector units work
 * at the same time (as Go's SSSE3 code interleaves them).
 * Included ONLY by those two ISA files, after checking __SSSE3__ (which
 * -mavx implies). Spec: RFC 8439 sections 2.1-2.4.
 * Constant time: yes. Not proved; tests/unit/test_kernels.c compares both
 * kernels with chacha20.c.
 */
#ifndef VCRYPTFS_CHACHA20_SSE128_H
#define VCRYPTFS_CHACHA20_SSE128_H

#include <tmmintrin.h>

#include "crypto/kernels.h"
#include "crypto/poly1305_64.h"

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

#include "crypto/chacha20_simd.h"

/* t[g][k]: words 4g..4g+3 of block k */
CS_INLINE void cs_store(uint8_t *out, const uint8_t *in, CS_VEC t[4][4])
{
	for (int k = 0; k < 4; k++) {
		for (int g = 0; g < 4; g++) {
			size_t o = 64 * (size_t)k + 16 * (size_t)g;
			__m128i v = _mm_loadu_si128((const __m128i *)(in + o));

			_mm_storeu_si128((__m128i *)(out + o),
					 _mm_xor_si128(v, t[g][k]));
		}
	}
}

/* one 4-block step as cs_batch, with the MAC of the 16 blocks at pm
 * (the previous step's ciphertext) inside the rounds */
CS_INLINE void s128_batch_mac(uint8_t *out, const uint8_t *in,
			      const uint32_t st[16], uint32_t counter,
			      uint64_t h[3], const uint64_t r[3],
			      const uint8_t *pm)
{
	CS_VEC x[16], t[4][4];
	CS_VEC ctr;

	cs_load_state(x, st, counter);
	for (int i = 0; i < 8; i++) {
		cs_double_round(x);
		p64_block(h, r, pm + 32 * i, 1ULL << 40);
		p64_block(h, r, pm + 32 * i + 16, 1ULL << 40);
	}
	cs_double_round(x);
	cs_double_round(x);
	ctr = CS_ADD(CS_SET1(counter), CS_LANES);
	for (int i = 0; i < 16; i++)
		x[i] = CS_ADD(x[i], i == 12 ? ctr : CS_SET1(st[i]));
	cs_transpose(t, x);
	cs_store(out, in, t);
}

/*
 * kernels.h chachapoly_body_fn for seal (mac_in 0: MAC over out, the
 * ciphertext; out may equal in) and open (mac_in 1: MAC over in, the
 * ciphertext; out must not overlap in, which is read one step after out
 * was written). Block 0 (the one-time key) by the row code, then each
 * step's Poly1305 inside the next step's rounds, the last step's after
 * the loop, the tail (< 4 blocks) last.
 */
static inline void s128_body(uint8_t *out, const uint8_t *in, size_t len,
			     const uint8_t *ad, size_t adlen,
			     const uint8_t key[32], const uint8_t nonce[12],
			     struct poly1305_fast *mac, int mac_in)
{
	static const uint8_t zeros[16];
	uint32_t st[16];
	uint8_t otk[64];
	uint32_t counter = 1;
	const uint8_t *pending = NULL;

	cs_init(st, key, nonce);
	row_block(otk, st, 0);
	poly1305_fast_init(mac, otk);
	ct_wipe(otk, sizeof(otk));
	poly1305_fast_update(mac, ad, adlen);
	/* buflen is 0 from here on: the steps feed mac->h directly */
	poly1305_fast_update(mac, zeros, (16 - adlen % 16) % 16);
	if (len >= 64 * CS_BLOCKS) {
		cs_batch(out, in, st, counter);
		pending = mac_in ? in : out;
		counter += CS_BLOCKS;
		out += 64 * CS_BLOCKS;
		in += 64 * CS_BLOCKS;
		len -= 64 * CS_BLOCKS;
	}
	while (len >= 64 * CS_BLOCKS) {
		s128_batch_mac(out, in, st, counter, mac->h, mac->r, pending);
		pending = mac_in ? in : out;
		counter += CS_BLOCKS;
		out += 64 * CS_BLOCKS;
		in += 64 * CS_BLOCKS;
		len -= 64 * CS_BLOCKS;
	}
	if (pending != NULL)
		p64_blocks(mac->h, mac->r, pending, 4 * CS_BLOCKS);
	if (len > 0) {
		cs_tail(out, in, len, st, counter);
		poly1305_fast_update(mac, mac_in ? in : out, len);
	}
	ct_wipe(st, sizeof(st));
}

#endif
