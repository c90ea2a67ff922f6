/* SPDX-License-Identifier: MIT */
/*
 * ChaCha20 keystream XOR, 4 blocks at a time in SSE registers (one block
 * per 32-bit lane), and the stitched seal and open bodies with the
 * radix-2^64 Poly1305. See kernels.h; the kernel body is
 * chacha20/sse128.h (shared with chacha20/avx.c), the driver and tails in
 * chacha20/simd.h and chacha20/simd_row.h.
 * Spec: RFC 8439 sections 2.1-2.5.
 * CPU feature: SSSE3 (pshufb for the 16- and 8-bit rotations); the only
 * file built with -mssse3 (Makefile). Called only after cpu.c saw SSSE3.
 * Constant time: yes. Not proved; tests/unit/test_kernels.c compares it
 * with chacha20/ref.c and poly1305/ref.c.
 */
#include "crypto/kernels.h"
#include "crypto/cpu.h"

#if defined(__SSSE3__) && !defined(__FRAMAC__)
#include "crypto/chacha20/sse128.h"

static uint32_t chacha20_ssse3_xor(uint8_t *out, const uint8_t *in, size_t len,
				   const uint8_t key[32], uint32_t counter,
				   const uint8_t nonce[12])
{
	return cs_xor(out, in, len, key, counter, nonce);
}

/* see kernels.h (chachapoly_body_fn): seal and open bodies */
static void chachapoly_body_ssse3(uint8_t *c, const uint8_t *m, size_t len,
				  const uint8_t *ad, size_t adlen,
				  const uint8_t key[32],
				  const uint8_t nonce[12],
				  struct poly1305_fast *mac)
{
	s128_body(c, m, len, ad, adlen, key, nonce, mac, 0);
}

static void chachapoly_open_body_ssse3(uint8_t *m, const uint8_t *c, size_t len,
				       const uint8_t *ad, size_t adlen,
				       const uint8_t key[32],
				       const uint8_t nonce[12],
				       struct poly1305_fast *mac)
{
	s128_body(m, c, len, ad, adlen, key, nonce, mac, 1);
}

/* see kernels.h */
chachapoly_body_fn chachapoly_body_ssse3_get(void)
{
	if (!(cpu_features() & CPU_SSSE3))
		return NULL;
	return chachapoly_body_ssse3;
}

/* see kernels.h */
chachapoly_body_fn chachapoly_open_body_ssse3_get(void)
{
	if (!(cpu_features() & CPU_SSSE3))
		return NULL;
	return chachapoly_open_body_ssse3;
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
chachapoly_body_fn chachapoly_body_ssse3_get(void)
{
	return NULL;
}

/* see kernels.h: built without SSSE3 support */
chachapoly_body_fn chachapoly_open_body_ssse3_get(void)
{
	return NULL;
}

/* see kernels.h: built without SSSE3 support */
chacha20_xor_fn chacha20_ssse3_get(void)
{
	return NULL;
}

#endif
