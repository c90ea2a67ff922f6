/* SPDX-License-Identifier: MIT */
/* Helpers of the crypto tests: check accounting, exact-size buffers,
 * OpenSSL references. See crypto_th.h. */
#include <openssl/evp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/ct.h"
#include "crypto_th.h"
#include "th.h"

/* ====================================================================
 * Check accounting: one PASS/FAIL line per logical check
 * ==================================================================== */

__attribute__((format(printf, 2, 3))) void chk_init(struct chk *k,
						    const char *fmt, ...)
{
	va_list ap;

	memset(k, 0, sizeof(*k));
	va_start(ap, fmt);
	vsnprintf(k->name, sizeof(k->name), fmt, ap);
	va_end(ap);
}

/* Count one sub-check; on failure keep the message (ok == 0). */
__attribute__((format(printf, 3, 4))) int chk(struct chk *k, int ok,
					      const char *fmt, ...)
{
	va_list ap;
	char msg[320];

	k->n++;
	if (ok)
		return 1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (k->bad < CHK_DETAILS)
		printf("  detail: %s: %s\n", k->name, msg);
	if (k->bad == 0)
		memcpy(k->first, msg, sizeof(msg));
	k->bad++;
	return 0;
}

void chk_done(const struct chk *k)
{
	if (k->n == 0) {
		th_fail("%s: no case ran", k->name);
		return;
	}
	if (k->bad == 0)
		th_check(1, "%s (%lu checks)", k->name, k->n);
	else
		th_check(0, "%s: %lu of %lu checks failed; first: %s", k->name,
			 k->bad, k->n, k->first);
}

/* ====================================================================
 * Helpers: exact-size buffers (so ASan sees any overrun), OpenSSL
 * ==================================================================== */

uint8_t *xalloc(size_t n)
{
	uint8_t *p = malloc(n != 0 ? n : 1);

	if (p == NULL) {
		perror("malloc");
		abort();
	}
	return p;
}

uint8_t *xdup(const uint8_t *src, size_t n)
{
	uint8_t *p = xalloc(n);

	if (n != 0)
		memcpy(p, src, n);
	return p;
}

/* Decode a hex string into a fresh exact-size buffer; NULL if not hex. */
uint8_t *hexdup(const char *hex, size_t *len)
{
	size_t n = strlen(hex) / 2;
	uint8_t *p = xalloc(n);
	long got = th_unhex(p, n, hex);

	if (got < 0) {
		free(p);
		return NULL;
	}
	*len = (size_t)got;
	return p;
}

int all_bytes(const uint8_t *p, size_t n, uint8_t v)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != v)
			return 0;
	return 1;
}

int eq(const void *a, const void *b, size_t n)
{
	return n == 0 || memcmp(a, b, n) == 0;
}

uint32_t blocks_of(size_t len)
{
	return (uint32_t)((len + 63) / 64);
}

/* OpenSSL ChaCha20-Poly1305: enc seals (writes tag), !enc opens (checks
 * tag). Returns 0, or -1 on a bad tag or an OpenSSL error. */
int ossl_aead(int enc, uint8_t *out, uint8_t tag[16], const uint8_t *in,
	      size_t len, const uint8_t *ad, size_t adlen,
	      const uint8_t key[32], const uint8_t nonce[12])
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	uint8_t fin[16];
	int l = 0, ok = 0;

	if (ctx == NULL || len > 1u << 30 || adlen > 1u << 30)
		goto out;
	if (EVP_CipherInit_ex(ctx, EVP_chacha20_poly1305(), NULL, key, nonce,
			      enc) != 1)
		goto out;
	if (!enc &&
	    EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16, tag) != 1)
		goto out;
	if (adlen > 0 && EVP_CipherUpdate(ctx, NULL, &l, ad, (int)adlen) != 1)
		goto out;
	if (len > 0 && EVP_CipherUpdate(ctx, out, &l, in, (int)len) != 1)
		goto out;
	if (EVP_CipherFinal_ex(ctx, fin, &l) != 1)
		goto out;
	if (enc &&
	    EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag) != 1)
		goto out;
	ok = 1;
out:
	EVP_CIPHER_CTX_free(ctx);
	return ok ? 0 : -1;
}

/* OpenSSL raw ChaCha20, IV = le32(counter) | nonce. Only for runs that do
 * not cross 2^32 blocks: OpenSSL carries into the nonce there. */
int ossl_chacha20(uint8_t *out, const uint8_t *in, size_t len,
		  const uint8_t key[32], uint32_t counter,
		  const uint8_t nonce[12])
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	uint8_t iv[16];
	int l = 0, ok = 0;

	store32_le(iv, counter);
	memcpy(iv + 4, nonce, 12);
	if (ctx == NULL || len > 1u << 30)
		goto out;
	if (EVP_EncryptInit_ex(ctx, EVP_chacha20(), NULL, key, iv) != 1)
		goto out;
	if (len > 0 && EVP_EncryptUpdate(ctx, out, &l, in, (int)len) != 1)
		goto out;
	ok = 1;
out:
	EVP_CIPHER_CTX_free(ctx);
	return ok ? 0 : -1;
}

/*
 * HChaCha20 from OpenSSL, independent of our code: the ChaCha20 block for
 * IV = nonce16 (counter word = nonce[0..3]) is rounds(state) + state, so
 * subtracting the input words from words 0..3 and 12..15 gives the
 * HChaCha20 output (draft-irtf-cfrg-xchacha-03 2.2).
 */
int ossl_hchacha20(uint8_t out[32], const uint8_t key[32],
		   const uint8_t nonce[16])
{
	static const uint32_t sigma[4] = { 0x61707865, 0x3320646e, 0x79622d32,
					   0x6b206574 };
	static const uint8_t zero[64];
	uint8_t blk[64];

	if (ossl_chacha20(blk, zero, 64, key, load32_le(nonce), nonce + 4) != 0)
		return -1;
	for (int i = 0; i < 4; i++) {
		store32_le(out + 4 * i, load32_le(blk + 4 * i) - sigma[i]);
		store32_le(out + 16 + 4 * i, load32_le(blk + 48 + 4 * i) -
						     load32_le(nonce + 4 * i));
	}
	return 0;
}

int ossl_poly1305(uint8_t tag[16], const uint8_t *m, size_t len,
		  const uint8_t key[32])
{
	static const uint8_t none[1];
	EVP_MAC *mac = EVP_MAC_fetch(NULL, "POLY1305", NULL);
	EVP_MAC_CTX *ctx = mac != NULL ? EVP_MAC_CTX_new(mac) : NULL;
	size_t outl = 0;
	int ok = 0;

	if (ctx != NULL && EVP_MAC_init(ctx, key, 32, NULL) == 1 &&
	    EVP_MAC_update(ctx, len != 0 ? m : none, len) == 1 &&
	    EVP_MAC_final(ctx, tag, &outl, 16) == 1 && outl == 16)
		ok = 1;
	EVP_MAC_CTX_free(ctx);
	EVP_MAC_free(mac);
	return ok ? 0 : -1;
}

/* The 12-byte nonce XChaCha20 uses under the subkey: 0^4 | nonce[16..23] */
void xnonce12(uint8_t n12[12], const uint8_t n24[24])
{
	memset(n12, 0, 4);
	memcpy(n12 + 4, n24 + 16, 8);
}
