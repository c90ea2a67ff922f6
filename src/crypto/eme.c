/* SPDX-License-Identifier: MIT */
/*
 * EME over AES-256. See eme.h. Spec: ../shared/FORMAT.md 5.1.
 * Depends on: ossl_aead.h, ct.h. Not proved.
 */
#include "crypto/eme.h"

#include <assert.h>
#include <string.h>

#include "crypto/ct.h"
#include "crypto/ossl_aead.h"

/* Doubling in GF(2^128), X read as a little-endian integer (X[0] lowest). */
static void mul2(uint8_t out[16], const uint8_t in[16])
{
	uint8_t top = in[15];

	for (int j = 15; j > 0; j--)
		out[j] = (uint8_t)((in[j] << 1) | (in[j - 1] >> 7));
	out[0] = (uint8_t)((in[0] << 1) ^ (top >= 0x80 ? 0x87 : 0));
}

static void xor16(uint8_t *d, const uint8_t *a, const uint8_t *b)
{
	for (int i = 0; i < 16; i++)
		d[i] = (uint8_t)(a[i] ^ b[i]);
}

void eme_transform(uint8_t *out, const uint8_t *in, size_t len,
		   const uint8_t key[32], const uint8_t tweak[16], int decrypt)
{
	static const uint8_t zero[16];
	uint8_t lj[EME_MAX_BLOCKS][16];
	uint8_t buf[EME_MAX_BLOCKS * 16];
	uint8_t l[16], mp[16], mc[16], m[16];
	size_t nb = len / 16;

	assert(len % 16 == 0 && nb >= 1 && nb <= EME_MAX_BLOCKS);

	ossl_aes256_ecb(l, zero, 1, key, 0);
	for (size_t j = 0; j < nb; j++) {
		mul2(l, l);
		memcpy(lj[j], l, 16);
	}

	/* PPP[j] = AES(P[j] ^ Lj[j]) */
	for (size_t j = 0; j < nb; j++)
		xor16(buf + 16 * j, in + 16 * j, lj[j]);
	ossl_aes256_ecb(buf, buf, nb, key, decrypt);

	/* MP = T ^ xor of all PPP; MC = AES(MP); M = MP ^ MC */
	memcpy(mp, tweak, 16);
	for (size_t j = 0; j < nb; j++)
		xor16(mp, mp, buf + 16 * j);
	ossl_aes256_ecb(mc, mp, 1, key, decrypt);
	xor16(m, mp, mc);

	/* CCC[j] = PPP[j] ^ 2^j M for j >= 1; CCC[0] = MC ^ T ^ xor CCC[j] */
	for (size_t j = 1; j < nb; j++) {
		mul2(m, m);
		xor16(buf + 16 * j, buf + 16 * j, m);
	}
	xor16(buf, mc, tweak);
	for (size_t j = 1; j < nb; j++)
		xor16(buf, buf, buf + 16 * j);

	/* C[j] = AES(CCC[j]) ^ Lj[j] */
	ossl_aes256_ecb(buf, buf, nb, key, decrypt);
	for (size_t j = 0; j < nb; j++)
		xor16(out + 16 * j, buf + 16 * j, lj[j]);

	ct_wipe(buf, sizeof(buf));
	ct_wipe(lj, sizeof(lj));
	ct_wipe(l, sizeof(l));
	ct_wipe(mp, sizeof(mp));
	ct_wipe(mc, sizeof(mc));
	ct_wipe(m, sizeof(m));
}
