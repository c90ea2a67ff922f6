/* SPDX-License-Identifier: MIT */
/*
 * Crypto micro-benchmark: MB/s (10^6 bytes per second) of one seal per
 * SIZE-byte block (default 4096, the gocryptfs block), fixed random key,
 * nonce and 24-byte AD, as `gocryptfs -speed` measures.
 * Targets (any number, run in the order given):
 *   kernel:NAME   XChaCha20-Poly1305 via xchachapoly_seal_fast on the
 *                 dispatch kernel NAME (portable, ssse3, avx2, avx512),
 *                 as the filesystem uses it
 *   stitch:NAME   the same with the stitched seal (chacha20_poly_fn)
 *   ref           the proved portable xchachapoly_seal (aead_xchacha.c)
 *   openssl       OpenSSL EVP_chacha20_poly1305 seal, one context reused,
 *                 only the IV changes per block (in-process)
 * Option -c: measure thread CPU time instead of wall-clock time (steadier
 * on a loaded machine). Output: one line per target, "NAME MBPS", or "NAME N/A" when the kernel
 * is absent. Used by bench/bench_crypto.sh (make bench-crypto).
 */
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "crypto/aead_fast.h"
#include "crypto/aead_xchacha.h"
#include "crypto/dispatch.h"

#define MAXSIZE (1 << 20)

static uint8_t buf[MAXSIZE + 16];
static uint8_t key[32], nonce[24], ad[24], tag[16];

static clockid_t clock_id = CLOCK_MONOTONIC;

static double now(void)
{
	struct timespec ts;

	clock_gettime(clock_id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void fill(uint8_t *p, size_t n)
{
	static uint32_t x = 0x12345678U;

	for (size_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		p[i] = (uint8_t)x;
	}
}

enum target { T_FAST, T_REF, T_OSSL };

static EVP_CIPHER_CTX *octx;

static int one(enum target t, size_t size)
{
	int l = 0;

	switch (t) {
	case T_FAST:
		xchachapoly_seal_fast(buf, tag, buf, size, ad, sizeof(ad), key,
				      nonce);
		return 0;
	case T_REF:
		xchachapoly_seal(buf, tag, buf, size, ad, sizeof(ad), key,
				 nonce);
		return 0;
	case T_OSSL:
		if (EVP_EncryptInit_ex(octx, NULL, NULL, NULL, nonce) != 1 ||
		    EVP_EncryptUpdate(octx, NULL, &l, ad, (int)sizeof(ad)) !=
			    1 ||
		    EVP_EncryptUpdate(octx, buf, &l, buf, (int)size) != 1 ||
		    EVP_EncryptFinal_ex(octx, buf + l, &l) != 1 ||
		    EVP_CIPHER_CTX_ctrl(octx, EVP_CTRL_AEAD_GET_TAG, 16, tag) !=
			    1)
			return -1;
		return 0;
	}
	return -1;
}

/* MB/s of target t over about `secs` seconds, or a negative value */
static double measure(enum target t, size_t size, double secs)
{
	double t0, t1;
	unsigned long iters = 0;

	for (int i = 0; i < 16; i++)
		if (one(t, size) != 0)
			return -1;
	t0 = now();
	do {
		for (int i = 0; i < 64; i++)
			if (one(t, size) != 0)
				return -1;
		iters += 64;
		t1 = now();
	} while (t1 - t0 < secs);
	return (double)size * (double)iters / 1e6 / (t1 - t0);
}

int main(int argc, char **argv)
{
	double secs = 0.3;
	size_t size = 4096;
	int i = 1, rc = 0;

	for (; i < argc && argv[i][0] == '-'; i += 2) {
		if (strcmp(argv[i], "-c") == 0) {
			clock_id = CLOCK_THREAD_CPUTIME_ID;
			i--;
			continue;
		}
		if (i + 1 >= argc)
			break;
		if (strcmp(argv[i], "-t") == 0)
			secs = strtod(argv[i + 1], NULL);
		else if (strcmp(argv[i], "-s") == 0)
			size = (size_t)strtoul(argv[i + 1], NULL, 10);
	}
	if (size == 0 || size > MAXSIZE || secs <= 0) {
		fprintf(stderr, "usage: bench_crypto [-t SECS] [-s BYTES] "
				"kernel:NAME|stitch:NAME|ref|openssl...\n");
		return 1;
	}
	dispatch_init();
	fill(key, sizeof(key));
	fill(nonce, sizeof(nonce));
	fill(ad, sizeof(ad));
	memset(buf, 0, sizeof(buf));
	octx = EVP_CIPHER_CTX_new();
	if (octx == NULL || EVP_EncryptInit_ex(octx, EVP_chacha20_poly1305(),
					       NULL, key, nonce) != 1) {
		fprintf(stderr, "bench_crypto: OpenSSL init failed\n");
		return 1;
	}
	for (; i < argc; i++) {
		const char *a = argv[i];
		double mbps;

		if (strncmp(a, "kernel:", 7) == 0) {
			if (dispatch_force(a + 7) != 0) {
				printf("%s N/A\n", a);
				continue;
			}
			mbps = measure(T_FAST, size, secs);
		} else if (strncmp(a, "stitch:", 7) == 0) {
			if (dispatch_force(a + 7) == 0)
				dispatch_stitch(1);
			if (dispatch_current()->stitched == NULL) {
				printf("%s N/A\n", a);
				continue;
			}
			mbps = measure(T_FAST, size, secs);
		} else if (strcmp(a, "ref") == 0) {
			mbps = measure(T_REF, size, secs);
		} else if (strcmp(a, "openssl") == 0) {
			mbps = measure(T_OSSL, size, secs);
		} else {
			fprintf(stderr, "bench_crypto: unknown target %s\n", a);
			rc = 1;
			continue;
		}
		if (mbps < 0) {
			fprintf(stderr, "bench_crypto: %s failed\n", a);
			rc = 1;
			continue;
		}
		printf("%s %.1f\n", a, mbps);
		fflush(stdout);
	}
	EVP_CIPHER_CTX_free(octx);
	return rc;
}
