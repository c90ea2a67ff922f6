/* SPDX-License-Identifier: MIT */
/* Smoke test: portable ChaCha20-Poly1305 seal agrees with OpenSSL's. */
#include <openssl/evp.h>
#include <string.h>

#include "crypto/aead_xchacha.h"
#include "th.h"

int main(void)
{
	uint8_t key[32], nonce[12], ad[13], m[1000], c[1000], c2[1000];
	uint8_t tag[16], tag2[16];
	int ok = 1;

	for (size_t len = 0; len < sizeof(m); len += 37) {
		EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
		int l = 0;

		th_rand(key, 32);
		th_rand(nonce, 12);
		th_rand(ad, sizeof(ad));
		th_rand(m, len);
		chachapoly_seal(c, tag, m, len, ad, sizeof(ad), key, nonce);
		EVP_EncryptInit_ex(ctx, EVP_chacha20_poly1305(), NULL, key,
				   nonce);
		EVP_EncryptUpdate(ctx, NULL, &l, ad, (int)sizeof(ad));
		EVP_EncryptUpdate(ctx, c2, &l, m, (int)len);
		EVP_EncryptFinal_ex(ctx, c2 + l, &l);
		EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag2);
		EVP_CIPHER_CTX_free(ctx);
		if (memcmp(c, c2, len) != 0 || memcmp(tag, tag2, 16) != 0)
			ok = 0;
	}
	th_check(ok, "smoke: chachapoly_seal == OpenSSL for 28 lengths");
	return th_exit();
}
