/* SPDX-License-Identifier: MIT */
/*
 * ChaCha20 keystream XOR, 4 blocks at a time in SSE registers (one block
 * per 32-bit lane), and HChaCha20 in four SSE rows. See kernels.h; round
 * bodies in chacha20_simd.h and chacha20_simd_row.h.
 * Spec: RFC 8439 sections 2.1-2.4.
 * CPU feature: SSSE3 (pshufb for the 16- and 8-bit rotations); the only
 * file built with -mssse3 (Makefile). Called only after cpu.c saw SSSE3.
 * Constant time: yes. Not proved; tests/unit/test_kernels.c compares it
 * with chacha20.c.
 */
#include "crypto/kernels.h"
#include "crypto/cpu.h"

#if defined(__SSSE3__) && !defined(__FRAMAC__)
#include <tmmintrin.h>

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

static uint32_t chacha20_ssse3_xor(uint8_t *out, const uint8_t *in, size_t len,
				   const uint8_t key[32], uint32_t counter,
				   const uint8_t nonce[12])
{
	return cs_xor(out, in, len, key, counter, nonce);
}

static void hchacha20_ssse3(uint8_t out[32], const uint8_t key[32],
			    const uint8_t nonce[16])
{
	row_hchacha20(out, key, nonce);
}

/* see kernels.h */
hchacha20_fn hchacha20_ssse3_get(void)
{
	if (!(cpu_features() & CPU_SSSE3))
		return NULL;
	return hchacha20_ssse3;
}

/* see kernels.h */
chacha20_xor_fn chacha20_ssse3_get(void)
{
	if (!(cpu_features() & CPU_SSSE3))
		return NULL;
	return chacha20_ssse3_xor;
}
#else
/* see kernels.h: built without SSSE3 support */
chacha20_xor_fn chacha20_ssse3_get(void)
{
	return NULL;
}

/* see kernels.h: built without SSSE3 support */
hchacha20_fn hchacha20_ssse3_get(void)
{
	return NULL;
}
#endif
