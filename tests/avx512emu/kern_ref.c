/* SPDX-License-Identifier: MIT */
/*
 * The aead/kern.h entry points on the proved ref functions alone, no dispatch
 * (test_avx512_emul links the emulated AVX-512 kernels, so it cannot link
 * dispatch.c and the real ones): aead/chachapoly.c linked with this file is
 * the portable composition, the reference of the emulated bodies. The
 * stitched entry points report "no body" (0), as at the portable level.
 * Test code: not proved itself (each function is its ref function).
 */
#include <stdlib.h>
#include "crypto/aead/kern.h"

uint32_t kern_chacha20_xor(uint8_t *out, const uint8_t *in, size_t len,
			   const uint8_t key[32], uint32_t counter,
			   const uint8_t nonce[12])
{
	return chacha20_xor(out, in, len, key, counter, nonce);
}

void kern_hchacha20(uint8_t out[32], const uint8_t key[32],
		    const uint8_t nonce[16])
{
	hchacha20(out, key, nonce);
}

void kern_poly1305_init(struct poly1305 *st, const uint8_t key[32])
{
	poly1305_init(st, key);
}

void kern_poly1305_pad16(struct poly1305 *st, const uint8_t *m, size_t len)
{
	poly1305_pad16(st, m, len);
}

void kern_poly1305_finish(struct poly1305 *st, uint8_t tag[16])
{
	poly1305_finish(st, tag);
}

int kern_chachapoly_seal_body(uint8_t *c, uint8_t tag[16], const uint8_t *m,
			      size_t len, const uint8_t *ad, size_t adlen,
			      const uint8_t key[32], const uint8_t nonce[12])
{
	(void)c, (void)tag, (void)m, (void)len, (void)ad, (void)adlen;
	(void)key, (void)nonce;
	return 0;
}

int kern_chachapoly_open_body_avail(size_t len)
{
	(void)len;
	return 0;
}

void kern_chachapoly_open_body(uint8_t *m, uint8_t want[16], const uint8_t *c,
			       size_t len, const uint8_t *ad, size_t adlen,
			       const uint8_t key[32], const uint8_t nonce[12])
{
	(void)m, (void)want, (void)c, (void)len, (void)ad, (void)adlen;
	(void)key, (void)nonce;
	abort();
}
