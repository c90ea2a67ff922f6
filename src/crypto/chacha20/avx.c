/* SPDX-License-Identifier: MIT */
/*
 * The AVX level (issue 21): the SSSE3 kernel's source (chacha20/sse128.h,
 * 4 blocks in 128-bit registers, the stitched seal and open bodies)
 * compiled again
 * with -mavx, so every instruction is VEX-encoded and three-operand (no
 * movdqa copies before the shifts of each rotation), for CPUs with AVX
 * but no AVX2 (Sandy Bridge, Ivy Bridge, Bulldozer). 128-bit VEX code
 * leaves the upper YMM halves clean: no SSE/AVX transition penalty
 * beside the legacy-encoded code. See kernels.h.
 * Spec: RFC 8439 sections 2.1-2.5.
 * CPU feature: AVX with OSXSAVE and XCR0 saving XMM and YMM state (cpu.c
 * CPU_AVX); the only file built with -mavx (Makefile). Called only after
 * cpu.c saw it; the choice is by CPUID at run time, never by build flags.
 * Constant time: yes. Not proved; tests/unit/test_kernels.c compares it
 * with chacha20/ref.c.
 */
#include "crypto/kernels.h"
#include "crypto/cpu.h"

#if defined(__AVX__) && !defined(__FRAMAC__)
#include "crypto/chacha20/sse128.h"

static uint32_t chacha20_avx_xor(uint8_t *out, const uint8_t *in, size_t len,
				 const uint8_t key[32], uint32_t counter,
				 const uint8_t nonce[12])
{
	return cs_xor(out, in, len, key, counter, nonce);
}

/* see kernels.h (chachapoly_body_fn): seal and open bodies */
static void chachapoly_body_avx(uint8_t *c, const uint8_t *m, size_t len,
				const uint8_t *ad, size_t adlen,
				const uint8_t key[32], const uint8_t nonce[12],
				struct poly1305_fast *mac)
{
	s128_body(c, m, len, ad, adlen, key, nonce, mac, 0);
}

static void chachapoly_open_body_avx(uint8_t *m, const uint8_t *c, size_t len,
				     const uint8_t *ad, size_t adlen,
				     const uint8_t key[32],
				     const uint8_t nonce[12],
				     struct poly1305_fast *mac)
{
	s128_body(m, c, len, ad, adlen, key, nonce, mac, 1);
}

/* see kernels.h */
chachapoly_body_fn chachapoly_body_avx_get(void)
{
	if (!(cpu_features() & CPU_AVX))
		return NULL;
	return chachapoly_body_avx;
}

/* see kernels.h */
chachapoly_body_fn chachapoly_open_body_avx_get(void)
{
	if (!(cpu_features() & CPU_AVX))
		return NULL;
	return chachapoly_open_body_avx;
}

/* see kernels.h */
chacha20_xor_fn chacha20_avx_get(void)
{
	if (!(cpu_features() & CPU_AVX))
		return NULL;
	return chacha20_avx_xor;
}
#else
/* see kernels.h: built without AVX support */
chachapoly_body_fn chachapoly_body_avx_get(void)
{
	return NULL;
}

/* see kernels.h: built without AVX support */
chachapoly_body_fn chachapoly_open_body_avx_get(void)
{
	return NULL;
}

/* see kernels.h: built without AVX support */
chacha20_xor_fn chacha20_avx_get(void)
{
	return NULL;
}

#endif
