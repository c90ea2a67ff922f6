/* SPDX-License-Identifier: MIT */
/* Targets: poly1305_init, poly1305_update, poly1305_final, poly1305_mac,
 * poly1305_fast_init, poly1305_fast_update, poly1305_fast_final,
 * poly1305_fast_use with poly1305_avx2_get() and poly1305_ifma_get()
 * (kernels.h; each when the CPU has it), OpenSSL EVP_MAC
 * "POLY1305". */
/*
 * Differential fuzzing of Poly1305 (RFC 8439 2.5). The fuzzer picks the
 * one-time key, the message, and up to FZ_SPLITS cut points. Reference: the
 * proved portable one-shot poly1305_mac. Checked against it: the portable
 * incremental interface fed the message in fuzzer-chosen pieces (empty
 * pieces included), the same for each fast implementation, and OpenSSL's
 * EVP_MAC "POLY1305" (also fed in the same pieces).
 * Test code: not constant time, not proved.
 */
#include <openssl/core_names.h>
#include <openssl/evp.h>

#include "crypto/kernels.h"
#include "crypto/poly1305/ref.h"
#include "fuzz_util.h"

#define FZ_MAX_LEN 4200
#define FZ_SPLITS 4

static EVP_MAC *fz_mac;

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a;
	size_t y = *(const size_t *)b;

	return (x > y) - (x < y);
}

static void mac_openssl(uint8_t tag[16], const uint8_t *m,
			const size_t cut[FZ_SPLITS + 2], const uint8_t key[32])
{
	EVP_MAC_CTX *ctx;
	size_t outl = 0;

	if (fz_mac == NULL)
		fz_mac = EVP_MAC_fetch(NULL, "POLY1305", NULL);
	FZ_CHECK(fz_mac != NULL, "EVP_MAC_fetch POLY1305");
	ctx = EVP_MAC_CTX_new(fz_mac);
	FZ_CHECK(ctx != NULL, "EVP_MAC_CTX_new");
	FZ_CHECK(EVP_MAC_init(ctx, key, 32, NULL) == 1, "EVP_MAC_init");
	for (int i = 0; i <= FZ_SPLITS; i++)
		FZ_CHECK(EVP_MAC_update(ctx, m + cut[i], cut[i + 1] - cut[i]) ==
				 1,
			 "EVP_MAC_update");
	FZ_CHECK(EVP_MAC_final(ctx, tag, &outl, 16) == 1 && outl == 16,
		 "EVP_MAC_final");
	EVP_MAC_CTX_free(ctx);
}

static void mac_pieces(uint8_t tag[16], const uint8_t *m,
		       const size_t cut[FZ_SPLITS + 2], const uint8_t key[32])
{
	struct poly1305 st;

	poly1305_init(&st, key);
	for (int i = 0; i <= FZ_SPLITS; i++)
		poly1305_update(&st, m + cut[i], cut[i + 1] - cut[i]);
	poly1305_final(&st, tag);
}

static void mac_fast(uint8_t tag[16], const uint8_t *m,
		     const size_t cut[FZ_SPLITS + 2], const uint8_t key[32],
		     poly1305_blocks_fn bulk)
{
	struct poly1305_fast st;

	poly1305_fast_init(&st, key);
	poly1305_fast_use(&st, bulk);
	for (int i = 0; i <= FZ_SPLITS; i++)
		poly1305_fast_update(&st, m + cut[i], cut[i + 1] - cut[i]);
	poly1305_fast_final(&st, tag);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f;
	uint8_t key[32];
	uint8_t ref[16];
	uint8_t tag[16];
	size_t cut[FZ_SPLITS + 2];
	size_t len;
	uint8_t *m;

	fz_init(&f, data, size);
	fz_bytes(&f, key, sizeof(key));
	len = fz_len(&f, FZ_MAX_LEN);
	cut[0] = 0;
	for (int i = 1; i <= FZ_SPLITS; i++)
		cut[i] = fz_len(&f, len);
	cut[FZ_SPLITS + 1] = len;
	qsort(cut + 1, FZ_SPLITS, sizeof(cut[0]), cmp_size);
	/* exact-size buffer, so ASan sees any read past the message */
	m = malloc(len ? len : 1);
	FZ_CHECK(m != NULL, "malloc");
	fz_bytes(&f, m, len);

	poly1305_mac(ref, m, len, key);
	mac_pieces(tag, m, cut, key);
	FZ_CHECK(memcmp(tag, ref, 16) == 0,
		 "poly1305 incremental (pieces) != one-shot");
	mac_fast(tag, m, cut, key, NULL);
	FZ_CHECK(memcmp(tag, ref, 16) == 0,
		 "poly1305_fast (scalar) != portable");
	if (poly1305_avx2_get() != NULL) {
		mac_fast(tag, m, cut, key, poly1305_avx2_get());
		FZ_CHECK(memcmp(tag, ref, 16) == 0,
			 "poly1305_fast (avx2 blocks) != portable");
	}
	if (poly1305_ifma_get() != NULL) {
		mac_fast(tag, m, cut, key, poly1305_ifma_get());
		FZ_CHECK(memcmp(tag, ref, 16) == 0,
			 "poly1305_fast (ifma blocks) != portable");
	}
	mac_openssl(tag, m, cut, key);
	FZ_CHECK(memcmp(tag, ref, 16) == 0, "poly1305 != OpenSSL POLY1305");
	free(m);
	return 0;
}
