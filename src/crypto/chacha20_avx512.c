/* SPDX-License-Identifier: MIT */
/*
 * ChaCha20 keystream XOR, 16 blocks at a time in AVX-512 registers (one
 * block per 32-bit lane). See kernels.h; round body in chacha20_simd.h.
 * Spec: RFC 8439 sections 2.1-2.4.
 * CPU feature: AVX-512F/VL/BW with OS-saved opmask and ZMM state (cpu.c
 * checks XCR0 bits 5-7); the only file built with -mavx512f -mavx512vl
 * -mavx512bw (Makefile).
 * UNTESTED ON THIS PROJECT'S MACHINES: the development CPU has no AVX-512
 * and qemu-user 7.2 cannot emulate it, so this file is compiled and linted
 * but never run here; test_kernels prints SKIP for it. It shares its round
 * body and driver with the tested SSSE3 and AVX2 kernels; only the final
 * 128-bit-lane transpose (cs_store) is specific to it.
 * Constant time: yes. Not proved.
 */
#include "crypto/kernels.h"
#include "crypto/cpu.h"

#if defined(__AVX512F__) && !defined(__FRAMAC__)
#include <immintrin.h>

#define CS_VEC __m512i
#define CS_BLOCKS 16
#define CS_ADD(a, b) _mm512_add_epi32((a), (b))
#define CS_XOR(a, b) _mm512_xor_si512((a), (b))
#define CS_ROT16(a) _mm512_rol_epi32((a), 16)
#define CS_ROT12(a) _mm512_rol_epi32((a), 12)
#define CS_ROT8(a) _mm512_rol_epi32((a), 8)
#define CS_ROT7(a) _mm512_rol_epi32((a), 7)
#define CS_SET1(v) _mm512_set1_epi32((int)(v))
#define CS_LANES                                                               \
	_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
#define CS_UNPACKLO32 _mm512_unpacklo_epi32
#define CS_UNPACKHI32 _mm512_unpackhi_epi32
#define CS_UNPACKLO64 _mm512_unpacklo_epi64
#define CS_UNPACKHI64 _mm512_unpackhi_epi64

#include "crypto/chacha20_simd.h"

static inline void xor64(uint8_t *out, const uint8_t *in, __m512i ks)
{
	__m512i v = _mm512_loadu_si512((const void *)in);

	_mm512_storeu_si512((void *)out, _mm512_xor_si512(v, ks));
}

/*
 * t[g][k], 128-bit lane L: words 4g..4g+3 of block 4L + k. For each k a
 * 4 x 4 transpose of 128-bit lanes gives the four whole blocks 4L + k:
 * a = (t0.l0 t0.l1 t1.l0 t1.l1), b = (t2.l0 t2.l1 t3.l0 t3.l1),
 * c, d likewise with lanes 2 and 3; block k = (a.l0 a.l2 b.l0 b.l2) etc.
 */
CS_INLINE void cs_store(uint8_t *out, const uint8_t *in, CS_VEC t[4][4])
{
	for (int k = 0; k < 4; k++) {
		__m512i a = _mm512_shuffle_i32x4(t[0][k], t[1][k], 0x44);
		__m512i b = _mm512_shuffle_i32x4(t[2][k], t[3][k], 0x44);
		__m512i c = _mm512_shuffle_i32x4(t[0][k], t[1][k], 0xee);
		__m512i d = _mm512_shuffle_i32x4(t[2][k], t[3][k], 0xee);
		size_t o0 = 64 * (size_t)k, o1 = o0 + 256;
		size_t o2 = o0 + 512, o3 = o0 + 768;

		xor64(out + o0, in + o0, _mm512_shuffle_i32x4(a, b, 0x88));
		xor64(out + o1, in + o1, _mm512_shuffle_i32x4(a, b, 0xdd));
		xor64(out + o2, in + o2, _mm512_shuffle_i32x4(c, d, 0x88));
		xor64(out + o3, in + o3, _mm512_shuffle_i32x4(c, d, 0xdd));
	}
}

static uint32_t chacha20_avx512_xor(uint8_t *out, const uint8_t *in, size_t len,
				    const uint8_t key[32], uint32_t counter,
				    const uint8_t nonce[12])
{
	return cs_xor(out, in, len, key, counter, nonce);
}

/* see kernels.h */
chacha20_xor_fn chacha20_avx512_get(void)
{
	if ((cpu_features() & CPU_AVX512_ALL) != CPU_AVX512_ALL)
		return NULL;
	return chacha20_avx512_xor;
}
#else
/* see kernels.h: built without AVX-512 support */
chacha20_xor_fn chacha20_avx512_get(void)
{
	return NULL;
}
#endif
