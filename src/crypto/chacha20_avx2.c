/* SPDX-License-Identifier: MIT */
/*
 * ChaCha20 keystream XOR, 8 blocks at a time in AVX2 registers (one block
 * per 32-bit lane), and the stitched seal step (chacha20_poly_fn) that runs
 * the scalar 64-bit Poly1305 of one 512-byte batch inside the rounds of the
 * next. See kernels.h; round body in chacha20_simd.h, Poly1305 block step
 * in poly1305_64.h.
 * Spec: RFC 8439 sections 2.1-2.5.
 * CPU feature: AVX2 with OS-saved YMM state (cpu.c checks XCR0); the only
 * file built with -mavx2 (Makefile).
 * Constant time: yes. Not proved; tests/unit/test_kernels.c compares it
 * with chacha20.c and poly1305.c.
 */
#include "crypto/kernels.h"
#include "crypto/cpu.h"

#if defined(__AVX2__) && !defined(__FRAMAC__)
#include <immintrin.h>

#define CS_VEC __m256i
#define CS_BLOCKS 8
#define CS_ADD(a, b) _mm256_add_epi32((a), (b))
#define CS_XOR(a, b) _mm256_xor_si256((a), (b))
#define CS_ROTS(a, n)                                                          \
	_mm256_or_si256(_mm256_slli_epi32((a), (n)),                           \
			_mm256_srli_epi32((a), 32 - (n)))
#define CS_ROT16(a)                                                            \
	_mm256_shuffle_epi8((a), _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10,  \
						  11, 8, 9, 14, 15, 12, 13, 2, \
						  3, 0, 1, 6, 7, 4, 5, 10, 11, \
						  8, 9, 14, 15, 12, 13))
#define CS_ROT8(a)                                                             \
	_mm256_shuffle_epi8((a), _mm256_setr_epi8(3, 0, 1, 2, 7, 4, 5, 6, 11,  \
						  8, 9, 10, 15, 12, 13, 14, 3, \
						  0, 1, 2, 7, 4, 5, 6, 11, 8,  \
						  9, 10, 15, 12, 13, 14))
#define CS_ROT12(a) CS_ROTS((a), 12)
#define CS_ROT7(a) CS_ROTS((a), 7)
#define CS_SET1(v) _mm256_set1_epi32((int)(v))
#define CS_LANES _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)
#define CS_UNPACKLO32 _mm256_unpacklo_epi32
#define CS_UNPACKHI32 _mm256_unpackhi_epi32
#define CS_UNPACKLO64 _mm256_unpacklo_epi64
#define CS_UNPACKHI64 _mm256_unpackhi_epi64

#include "crypto/chacha20_simd.h"
#include "crypto/poly1305_64.h"

static inline void xor32(uint8_t *out, const uint8_t *in, __m256i ks)
{
	__m256i v = _mm256_loadu_si256((const __m256i *)in);

	_mm256_storeu_si256((__m256i *)out, _mm256_xor_si256(v, ks));
}

/* t[g][k]: lane 0 = words 4g..4g+3 of block k, lane 1 = of block k + 4 */
CS_INLINE void cs_store(uint8_t *out, const uint8_t *in, CS_VEC t[4][4])
{
	for (int k = 0; k < 4; k++) {
		size_t lo = 64 * (size_t)k, hi = lo + 256;

		xor32(out + lo, in + lo,
		      _mm256_permute2x128_si256(t[0][k], t[1][k], 0x20));
		xor32(out + lo + 32, in + lo + 32,
		      _mm256_permute2x128_si256(t[2][k], t[3][k], 0x20));
		xor32(out + hi, in + hi,
		      _mm256_permute2x128_si256(t[0][k], t[1][k], 0x31));
		xor32(out + hi + 32, in + hi + 32,
		      _mm256_permute2x128_si256(t[2][k], t[3][k], 0x31));
	}
}

static uint32_t chacha20_avx2_xor(uint8_t *out, const uint8_t *in, size_t len,
				  const uint8_t key[32], uint32_t counter,
				  const uint8_t nonce[12])
{
	return cs_xor(out, in, len, key, counter, nonce);
}

/*
 * One 8-block step with the Poly1305 of nmac earlier ciphertext blocks
 * (mac[0 .. 16 * nmac - 1]) spread over the ten double rounds: the scalar
 * multiplies run on the integer units while the vector rounds run.
 */
CS_INLINE void batch_mac(uint8_t *out, const uint8_t *in, const uint32_t st[16],
			 uint32_t counter, uint64_t h[3], const uint64_t r[3],
			 const uint8_t *mac, size_t nmac)
{
	CS_VEC x[16], t[4][4];
	CS_VEC ctr;
	uint64_t hh[3] = { h[0], h[1], h[2] };
	size_t done = 0;

	cs_load_state(x, st, counter);
	ctr = x[12];
	for (int i = 0; i < 10; i++) {
		size_t upto = nmac * (size_t)(i + 1) / 10;

		cs_double_round(x);
		for (; done < upto; done++)
			p64_block(hh, r, mac + 16 * done, 1ULL << 40);
	}
	for (int i = 0; i < 16; i++)
		x[i] = CS_ADD(x[i], i == 12 ? ctr : CS_SET1(st[i]));
	cs_transpose(t, x);
	cs_store(out, in, t);
	h[0] = hh[0];
	h[1] = hh[1];
	h[2] = hh[2];
}

/* see kernels.h (chacha20_poly_fn) */
static uint32_t chacha20_poly_avx2(uint8_t *c, const uint8_t *m, size_t len,
				   const uint8_t key[32], uint32_t counter,
				   const uint8_t nonce[12],
				   struct poly1305_fast *mac)
{
	uint32_t st[16];
	uint64_t h[3] = { mac->h[0], mac->h[1], mac->h[2] };
	const uint8_t *pending = c;
	size_t npending = 0;

	cs_init(st, key, nonce);
	while (len >= 64 * CS_BLOCKS) {
		batch_mac(c, m, st, counter, h, mac->r, pending, npending);
		/* this batch's ciphertext is MACed during the next one */
		pending = c;
		npending = 4 * CS_BLOCKS;
		counter += CS_BLOCKS;
		c += 64 * CS_BLOCKS;
		m += 64 * CS_BLOCKS;
		len -= 64 * CS_BLOCKS;
	}
	p64_blocks(h, mac->r, pending, npending);
	mac->h[0] = h[0];
	mac->h[1] = h[1];
	mac->h[2] = h[2];
	if (len > 0) {
		counter = cs_tail(c, m, len, st, counter);
		poly1305_fast_update(mac, c, len);
	}
	ct_wipe(st, sizeof(st));
	return counter;
}

/* see kernels.h */
chacha20_poly_fn chacha20_poly_avx2_get(void)
{
	if (!(cpu_features() & CPU_AVX2))
		return NULL;
	return chacha20_poly_avx2;
}

/* see kernels.h */
chacha20_xor_fn chacha20_avx2_get(void)
{
	if (!(cpu_features() & CPU_AVX2))
		return NULL;
	return chacha20_avx2_xor;
}
#else
/* see kernels.h: built without AVX2 support */
chacha20_xor_fn chacha20_avx2_get(void)
{
	return NULL;
}

/* see kernels.h: built without AVX2 support */
chacha20_poly_fn chacha20_poly_avx2_get(void)
{
	return NULL;
}
#endif
