/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the crypto unit tests (test_crypto.c, test_crypto_diff.c,
 * test_ct.c): check accounting (one PASS/FAIL line per logical check made
 * of many sub-checks), exact-size heap buffers (so ASan sees any overrun)
 * and reference implementations through OpenSSL 3, independent of our
 * code. Test code only; not proved.
 */
#ifndef VCRYPTFS_CRYPTO_TH_H
#define VCRYPTFS_CRYPTO_TH_H

#include <stddef.h>
#include <stdint.h>

#define CHK_DETAILS 8	 /* detail lines printed per check */
#define PROP_MAX_LEN 300 /* the property and ct sweeps: lengths 0..this */

struct chk {
	char name[256];
	unsigned long n;   /* sub-checks run */
	unsigned long bad; /* sub-checks failed */
	char first[320];   /* first failure, repeated in the FAIL line */
};

/* Start check k named by fmt. */
void chk_init(struct chk *k, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Count one sub-check; on failure (ok == 0) keep the message, print the
 * first CHK_DETAILS of them. Returns ok != 0. */
int chk(struct chk *k, int ok, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The one PASS/FAIL line of check k (a FAIL when no sub-check ran). */
void chk_done(const struct chk *k);

/* malloc of exactly n bytes (1 for n == 0); aborts on failure. */
uint8_t *xalloc(size_t n);
/* xalloc'd copy of src[0..n). */
uint8_t *xdup(const uint8_t *src, size_t n);
/* xalloc'd bytes of a hex string, their count in *len; NULL on bad hex. */
uint8_t *hexdup(const char *hex, size_t *len);
/* 1 when all n bytes of p are v. */
int all_bytes(const uint8_t *p, size_t n, uint8_t v);
/* 1 when a and b hold the same n bytes. */
int eq(const void *a, const void *b, size_t n);
/* 64-byte ChaCha20 blocks needed for len bytes. */
uint32_t blocks_of(size_t len);

/* OpenSSL ChaCha20-Poly1305: enc seals (writes tag), !enc opens (checks
 * tag). 0, or -1 on a bad tag or an OpenSSL error. */
int ossl_aead(int enc, uint8_t *out, uint8_t tag[16], const uint8_t *in,
	      size_t len, const uint8_t *ad, size_t adlen,
	      const uint8_t key[32], const uint8_t nonce[12]);
/* OpenSSL ChaCha20 from block counter; the run must not cross 2^32
 * blocks (OpenSSL carries into the nonce there). 0 or -1. */
int ossl_chacha20(uint8_t *out, const uint8_t *in, size_t len,
		  const uint8_t key[32], uint32_t counter,
		  const uint8_t nonce[12]);
/* HChaCha20 from OpenSSL's ChaCha20 block (draft-irtf-cfrg-xchacha-03
 * 2.2). 0 or -1. */
int ossl_hchacha20(uint8_t out[32], const uint8_t key[32],
		   const uint8_t nonce[16]);
/* OpenSSL's EVP_MAC POLY1305 of m[0..len) under key. 0 or -1. */
int ossl_poly1305(uint8_t tag[16], const uint8_t *m, size_t len,
		  const uint8_t key[32]);
/* The 12-byte nonce XChaCha20 uses under the subkey: 0^4 | nonce[16..23] */
void xnonce12(uint8_t n12[12], const uint8_t n24[24]);

/* The AEAD seal/open signatures of aead/chachapoly.h, for tables of both. */
typedef void (*seal_fn)(uint8_t *c, uint8_t *tag, const uint8_t *m, size_t len,
			const uint8_t *ad, size_t adlen, const uint8_t *key,
			const uint8_t *nonce);
typedef int (*open_fn)(uint8_t *m, const uint8_t *c, size_t len,
		       const uint8_t *tag, const uint8_t *ad, size_t adlen,
		       const uint8_t *key, const uint8_t *nonce);

#endif
