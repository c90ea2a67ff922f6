/* SPDX-License-Identifier: MIT */
/*
 * Crypto micro-benchmark: MB/s (10^6 bytes per second) of one seal per
 * SIZE-byte block (default 4096, the gocryptfs block), fixed random key,
 * nonce and 24-byte AD, as `gocryptfs -speed` measures.
 * Targets (any number, run in the order given):
 *   kernel:NAME   XChaCha20-Poly1305 via xchachapoly_seal (aead/chachapoly.c,
 *                 the one composition) on the dispatch kernel NAME
 *                 (portable, ssse3, avx, avx2, avx512), as the
 *                 filesystem uses it
 *   open:NAME     the same for xchachapoly_open of a sealed block (tag
 *                 checked, plaintext to a second buffer)
 *   stitch:NAME   N/A since the composition has no per-step stitched
 *                 seal (kept so that old command lines still parse)
 *   xor:NAME      ChaCha20 alone on kernel NAME (the keystream XOR of a
 *                 seal, from counter 1, no HChaCha20 and no MAC): the
 *                 ceiling of any seal on that kernel
 *   nobody:NAME   the same as kernel:NAME without the kernel's seal and
 *                 open bodies (ChaCha20, then Poly1305: what the bodies
 *                 are measured against)
 *   ref           xchachapoly_seal on the portable kernel (the proved
 *                 ref functions only)
 *   openssl       OpenSSL EVP_chacha20_poly1305 seal, one context reused,
 *                 only the IV changes per block (in-process)
 *   openssl-xor   OpenSSL EVP_chacha20 alone, in-process, one context,
 *                 a new IV per block: OpenSSL's ChaCha20 ceiling
 *   gcm           AES-256-GCM seal through our wrapper ossl_gcm_seal
 *                 (ossl_aead.c), the per-block path the filesystem uses:
 *                 16-byte IV changed per block, 24-byte AD, tag out
 *   gcm-evp       the same sequence written directly against EVP (one
 *                 keyed context, only the IV changes): the wrapper's floor
 *   gcm-stream    EVP_EncryptUpdate of SIZE bytes on one running GCM
 *                 context, no IV, AD or tag per block: what
 *                 `openssl speed -evp aes-256-gcm` measures
 * Options: -t SECS per measurement (default 0.3); -s BYTES[,BYTES...] block
 * sizes (1..1 MiB); -c measures thread CPU time instead of wall-clock time
 * (steadier on a loaded machine). Output: one line per target and size,
 * "NAME MBPS", or "NAME N/A" when the kernel is absent; with more than one
 * size NAME is "TARGET@SIZE", sizes looping inside each target.
 * Used by bench/bench_crypto.sh (make bench-crypto) and bench/bench.sh.
 */
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "crypto/aead/chachapoly.h"
#include "crypto/dispatch.h"
#include "crypto/ossl_aead.h"

#include "bench_util.h"

/* filler bytes: one sequence for the whole run */
static uint32_t fill_state = 0x12345678U;

static void fill_bytes(uint8_t *p, size_t n)
{
	bench_fill(&fill_state, p, n);
}

#define MAXSIZE (1 << 20)
#define MAXSIZES 8

static uint8_t buf[MAXSIZE + 16];
static uint8_t cbuf[MAXSIZE], ctag[16]; /* the block that open: opens */
static uint8_t key[32], nonce[24], ad[24], tag[16];
static uint8_t xiv[16] = { 1 }; /* EVP_chacha20: LE counter 1, nonce 0 */

enum target {
	T_FAST,
	T_OPEN,
	T_REF,
	T_XOR,
	T_OSSL,
	T_OSSL_XOR,
	T_GCM,
	T_GCM_EVP,
	T_GCM_STREAM
};

static EVP_CIPHER_CTX *octx, *xctx, *gctx, *sctx;

static int one_chacha_ossl(size_t size)
{
	int l = 0;

	return EVP_EncryptInit_ex(octx, NULL, NULL, NULL, nonce) == 1 &&
	       EVP_EncryptUpdate(octx, NULL, &l, ad, (int)sizeof(ad)) == 1 &&
	       EVP_EncryptUpdate(octx, buf, &l, buf, (int)size) == 1 &&
	       EVP_EncryptFinal_ex(octx, buf + l, &l) == 1 &&
	       EVP_CIPHER_CTX_ctrl(octx, EVP_CTRL_AEAD_GET_TAG, 16, tag) == 1;
}

static int one_gcm_evp(size_t size)
{
	int l = 0;

	bench_next_iv(nonce);
	return EVP_EncryptInit_ex(gctx, NULL, NULL, NULL, nonce) == 1 &&
	       EVP_EncryptUpdate(gctx, NULL, &l, ad, (int)sizeof(ad)) == 1 &&
	       EVP_EncryptUpdate(gctx, buf, &l, buf, (int)size) == 1 &&
	       EVP_EncryptFinal_ex(gctx, buf + l, &l) == 1 &&
	       EVP_CIPHER_CTX_ctrl(gctx, EVP_CTRL_AEAD_GET_TAG, 16, tag) == 1;
}

/* EVP_chacha20 alone: its 16-byte IV is the counter (1), then the nonce */
static int one_xor_ossl(size_t size)
{
	int l = 0;

	return EVP_EncryptInit_ex(xctx, NULL, NULL, NULL, xiv) == 1 &&
	       EVP_EncryptUpdate(xctx, buf, &l, buf, (int)size) == 1;
}

static int one(enum target t, size_t size)
{
	int l = 0;

	switch (t) {
	case T_FAST:
	case T_REF:
		xchachapoly_seal(buf, tag, buf, size, ad, sizeof(ad), key,
				 nonce);
		return 0;
	case T_OPEN:
		return xchachapoly_open(buf, cbuf, size, ctag, ad, sizeof(ad),
					key, nonce);
	case T_XOR:
		(void)dispatch_current()->chacha20(buf, buf, size, key, 1,
						   nonce);
		return 0;
	case T_OSSL:
		return one_chacha_ossl(size) ? 0 : -1;
	case T_OSSL_XOR:
		return one_xor_ossl(size) ? 0 : -1;
	case T_GCM:
		bench_next_iv(nonce);
		ossl_gcm_seal(buf, tag, buf, size, ad, sizeof(ad), key, nonce,
			      16);
		return 0;
	case T_GCM_EVP:
		return one_gcm_evp(size) ? 0 : -1;
	case T_GCM_STREAM:
		return EVP_EncryptUpdate(sctx, buf, &l, buf, (int)size) == 1
			       ? 0
			       : -1;
	}
	return -1;
}

/* MB/s of target t over about `secs` seconds, or a negative value. Calls
 * are batched (about 256 KiB per clock read) so that the clock costs
 * nothing at small sizes and 1 MiB blocks still give many samples. */
static double measure(enum target t, size_t size, double secs)
{
	double t0, t1;
	unsigned long iters = 0;
	int batch = size >= 262144 ? 1 : (int)(262144 / size);

	if (t == T_OPEN)
		xchachapoly_seal(cbuf, ctag, buf, size, ad, sizeof(ad), key,
				 nonce);
	for (int i = 0; i < (batch < 16 ? batch : 16); i++)
		if (one(t, size) != 0)
			return -1;
	t0 = bench_now();
	do {
		for (int i = 0; i < batch; i++)
			if (one(t, size) != 0)
				return -1;
		iters += (unsigned long)batch;
		t1 = bench_now();
	} while (t1 - t0 < secs);
	return (double)size * (double)iters / 1e6 / (t1 - t0);
}

/* Parse "N[,N...]" into sizes[]; returns the count, 0 on a bad list. */
static int parse_sizes(const char *s, size_t sizes[MAXSIZES])
{
	int n = 0;

	while (*s != 0) {
		char *end;
		unsigned long v = strtoul(s, &end, 10);

		if (end == s || v == 0 || v > MAXSIZE || n == MAXSIZES)
			return 0;
		sizes[n++] = (size_t)v;
		if (*end == ',')
			end++;
		else if (*end != 0)
			return 0;
		s = end;
	}
	return n;
}

static int ctx_init(void)
{
	octx = EVP_CIPHER_CTX_new();
	gctx = EVP_CIPHER_CTX_new();
	sctx = EVP_CIPHER_CTX_new();
	xctx = EVP_CIPHER_CTX_new();
	return octx != NULL && gctx != NULL && sctx != NULL && xctx != NULL &&
	       EVP_EncryptInit_ex(xctx, EVP_chacha20(), NULL, key, xiv) == 1 &&
	       EVP_EncryptInit_ex(octx, EVP_chacha20_poly1305(), NULL, key,
				  nonce) == 1 &&
	       EVP_EncryptInit_ex(gctx, EVP_aes_256_gcm(), NULL, NULL, NULL) ==
		       1 &&
	       EVP_CIPHER_CTX_ctrl(gctx, EVP_CTRL_AEAD_SET_IVLEN, 16, NULL) ==
		       1 &&
	       EVP_EncryptInit_ex(gctx, NULL, NULL, key, nonce) == 1 &&
	       EVP_EncryptInit_ex(sctx, EVP_aes_256_gcm(), NULL, key, nonce) ==
		       1;
}

/* Select target name a; returns its enum, or -1 (unknown), -2 (N/A). */
static int pick(const char *a)
{
	static const struct {
		const char *name;
		enum target t;
	} plain[] = {
		{ "openssl", T_OSSL },
		{ "openssl-xor", T_OSSL_XOR },
		{ "gcm", T_GCM },
		{ "gcm-evp", T_GCM_EVP },
		{ "gcm-stream", T_GCM_STREAM },
	};

	if (strncmp(a, "kernel:", 7) == 0)
		return dispatch_force(a + 7) == 0 ? (int)T_FAST : -2;
	if (strncmp(a, "open:", 5) == 0)
		return dispatch_force(a + 5) == 0 ? (int)T_OPEN : -2;
	if (strncmp(a, "xor:", 4) == 0)
		return dispatch_force(a + 4) == 0 ? (int)T_XOR : -2;
	if (strcmp(a, "ref") == 0)
		return dispatch_force("portable") == 0 ? (int)T_REF : -2;
	if (strncmp(a, "nobody:", 7) == 0) {
		if (dispatch_force(a + 7) != 0)
			return -2;
		dispatch_body(0);
		return (int)T_FAST;
	}
	if (strncmp(a, "stitch:", 7) == 0)
		return -2;
	for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++)
		if (strcmp(a, plain[i].name) == 0)
			return (int)plain[i].t;
	return -1;
}

int main(int argc, char **argv)
{
	double secs = 0.3;
	size_t sizes[MAXSIZES] = { 4096 };
	int nsizes = 1, i = 1, rc = 0;

	for (; i < argc && argv[i][0] == '-'; i += 2) {
		if (strcmp(argv[i], "-c") == 0) {
			bench_clock = CLOCK_THREAD_CPUTIME_ID;
			i--;
			continue;
		}
		if (i + 1 >= argc)
			break;
		if (strcmp(argv[i], "-t") == 0)
			secs = strtod(argv[i + 1], NULL);
		else if (strcmp(argv[i], "-s") == 0)
			nsizes = parse_sizes(argv[i + 1], sizes);
	}
	if (nsizes == 0 || secs <= 0) {
		fprintf(stderr, "usage: bench_crypto [-c] [-t SECS] "
				"[-s BYTES[,BYTES...]] kernel:NAME|"
				"open:NAME|xor:NAME|stitch:NAME|nobody:NAME|"
				"ref|openssl|openssl-xor|gcm|"
				"gcm-evp|"
				"gcm-stream...\n");
		return 1;
	}
	dispatch_init();
	fill_bytes(key, sizeof(key));
	fill_bytes(nonce, sizeof(nonce));
	fill_bytes(ad, sizeof(ad));
	memset(buf, 0, sizeof(buf));
	if (!ctx_init()) {
		fprintf(stderr, "bench_crypto: OpenSSL init failed\n");
		return 1;
	}
	for (; i < argc; i++) {
		const char *a = argv[i];
		int t = pick(a);

		if (t == -1) {
			fprintf(stderr, "bench_crypto: unknown target %s\n", a);
			rc = 1;
			continue;
		}
		for (int k = 0; k < nsizes; k++) {
			double mbps = t < 0 ? 0 : measure(t, sizes[k], secs);

			if (nsizes > 1)
				printf("%s@%zu ", a, sizes[k]);
			else
				printf("%s ", a);
			if (t == -2) {
				printf("N/A\n");
			} else if (mbps < 0) {
				printf("FAILED\n");
				fprintf(stderr, "bench_crypto: %s failed\n", a);
				rc = 1;
			} else {
				printf("%.1f\n", mbps);
			}
			fflush(stdout);
		}
	}
	ossl_aead_thread_cleanup();
	EVP_CIPHER_CTX_free(octx);
	EVP_CIPHER_CTX_free(xctx);
	EVP_CIPHER_CTX_free(gctx);
	EVP_CIPHER_CTX_free(sctx);
	return rc;
}
