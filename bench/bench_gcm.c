/* SPDX-License-Identifier: MIT */
/*
 * AES-256-GCM per-block benchmark (issue 21): what Debian's libraries give
 * for the gocryptfs content block, measured in one process. Every target
 * seals (or opens) a SIZE-byte block (default 4096) with a 16-byte IV that
 * changes per block, a 24-byte AD and a 16-byte tag, as the filesystem
 * does; MB/s = 10^6 bytes per second (of thread CPU time with -c).
 * Why: OpenSSL 3.0 pays a per-message setup (provider dispatch, OSSL_PARAM
 * round trips) that gocryptfs's Go code does not; this program finds the
 * cheapest per-message sequence each library offers.
 * Targets (seal unless the name ends in -open):
 *   wrap          our wrapper ossl_gcm_seal (src/crypto/ossl_aead.c)
 *   evp           the wrapper's EVP sequence, written directly: one context
 *                 keyed once with EVP_aes_256_gcm() and IV length 16,
 *                 EVP_EncryptInit_ex(ctx, NULL, NULL, NULL, iv) per block,
 *                 two EVP_EncryptUpdate, EVP_EncryptFinal_ex, ctrl GET_TAG
 *   evp-fetch     the same on a context keyed with a cipher fetched once
 *                 (EVP_CIPHER_fetch "AES-256-GCM", held: no implicit fetch)
 *   evp-init2     evp-fetch with EVP_EncryptInit_ex2(ctx,NULL,NULL,iv,NULL)
 *   evp-ivfixed   evp-fetch with the IV set by ctrl SET_IV_FIXED (-1, the
 *                 whole IV) instead of an init call
 *   evp-ptag      evp-fetch with the tag read by EVP_CIPHER_CTX_get_params
 *                 (OSSL_CIPHER_PARAM_AEAD_TAG) instead of ctrl GET_TAG
 *   evp-cipher    evp-fetch with the AD, data and final done by EVP_Cipher
 *                 (the provider's one-shot cipher call, no update checks)
 *   evp-lean      every shortcut at once: fetched cipher, init for the IV,
 *                 EVP_Cipher for AD/data/final, tag by get_params
 *   evp-copy      EVP_CIPHER_CTX_copy of a keyed template, then evp
 *   evp-stream    one running context, EVP_EncryptUpdate only: no IV, AD
 *                 or tag per block (the ceiling; not a valid per-block seal)
 *   nettle        nettle gcm_aes256_set_key once; per block
 *                 gcm_aes256_set_iv (16 bytes), _update (AD), _encrypt,
 *                 _digest
 *   gcrypt        libgcrypt, one handle opened and keyed once; per block
 *                 gcry_cipher_setiv, _authenticate, _encrypt, _gettag
 *   backend       crypto/gcm_backend_gcrypt.h, the libgcrypt backend behind
 *                 the mount's ossl_gcm_seal (key check, handles in secure
 *                 memory; "wrap" here stays on OpenSSL: not enabled)
 *   wrap-open, evp-open, evp-lean-open, nettle-open, gcrypt-open,
 *   backend-open:
 *                 decrypt + verify of a sealed block (reads are the common
 *                 case); each open checks its tag, a failure is an error
 * Before any timing every target is checked against the wrapper: same key,
 * IV, AD and plaintext (several lengths) give the same ciphertext and tag;
 * an open target recovers the plaintext and rejects a flipped tag bit. A
 * target that fails its check prints "check NAME FAILED" and is not timed
 * (a shortcut this OpenSSL does not honour); a failure while timing is an
 * error (exit 1).
 * Options: -c thread CPU time (else wall); -t SECS per measurement (0.3);
 * -s BYTES (4096); -r ROUNDS (1), alternating the target order per round;
 * -R start reversed; -l print the paths each library reports and exit.
 * Env: BENCH_GCRYPT_DISABLE_HWF=NAME[,NAME] masks libgcrypt hardware
 * features (GCRYCTL_DISABLE_HWF, e.g. intel-vaes-vpclmul) to show which
 * path its speed comes from.
 * Output: "round R TARGET MBPS" per measurement, then "median TARGET MBPS"
 * per target. Used by bench/bench_gcm.sh (make bench-gcm).
 * Over 600 lines on purpose: sixteen targets that must share one checked
 * setup and one timing loop to be compared in the same run.
 */
#include <gcrypt.h>
#include <nettle/gcm.h>
#include <nettle/memops.h>
#include <nettle/version.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "crypto/gcm_backend_gcrypt.h"
#include "crypto/ossl_aead.h"

#include "bench_util.h"

/* filler bytes: one sequence for the whole run */
static uint32_t fill_state = 0x9e3779b9U;

static void fill_bytes(uint8_t *p, size_t n)
{
	bench_fill(&fill_state, p, n);
}

#define MAXSIZE (1 << 20)
#define MAXROUNDS 64
#define NRING 8 /* pre-sealed blocks an open target cycles through */

static uint8_t buf[MAXSIZE + 16], out[MAXSIZE + 16];
static uint8_t ring_ct[NRING][MAXSIZE], ring_tag[NRING][16], ring_iv[NRING][16];
static uint8_t key[32], iv[16], ad[24], tag[16];
static size_t size = 4096;
static unsigned ring_pos;

/* ---------------------------------------------------------- OpenSSL */

static EVP_CIPHER *gcm_fetched;
/* [0] decrypt, [1] encrypt */
static EVP_CIPHER_CTX *c_legacy[2], *c_fetch[2], *c_tmpl, *c_work, *c_stream;

enum {
	F_INIT2 = 1,   /* IV by EVP_EncryptInit_ex2 */
	F_IVFIXED = 2, /* IV by ctrl SET_IV_FIXED -1 */
	F_CIPHER = 4,  /* AD, data, final by EVP_Cipher */
	F_PTAG = 8,    /* tag by get/set_params */
};

static int evp_set_iv(EVP_CIPHER_CTX *ctx, const uint8_t *v, int enc, int flags)
{
	if (flags & F_IVFIXED) {
		uint8_t vv[16];

		memcpy(vv, v, sizeof(vv));
		return EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IV_FIXED, -1,
					   vv) == 1;
	}
	if (flags & F_INIT2)
		return EVP_CipherInit_ex2(ctx, NULL, NULL, v, enc, NULL) == 1;
	return EVP_CipherInit_ex(ctx, NULL, NULL, NULL, v, enc) == 1;
}

static int evp_tag(EVP_CIPHER_CTX *ctx, uint8_t *t, int set, int flags)
{
	OSSL_PARAM p[2];

	if (!(flags & F_PTAG))
		return EVP_CIPHER_CTX_ctrl(ctx,
					   set ? EVP_CTRL_AEAD_SET_TAG
					       : EVP_CTRL_AEAD_GET_TAG,
					   16, t) == 1;
	p[0] = OSSL_PARAM_construct_octet_string(OSSL_CIPHER_PARAM_AEAD_TAG, t,
						 16);
	p[1] = OSSL_PARAM_construct_end();
	return set ? EVP_CIPHER_CTX_set_params(ctx, p) == 1
		   : EVP_CIPHER_CTX_get_params(ctx, p) == 1;
}

/* The data part (AD, payload, final) of one message on ctx, already set
 * up with its IV (and, to decrypt, its tag). 1 on success (decrypt: the
 * tag matched). */
static int evp_body(EVP_CIPHER_CTX *ctx, uint8_t *o, const uint8_t *in,
		    size_t n, int flags)
{
	int l = 0, l2 = 0;

	if (flags & F_CIPHER)
		return EVP_Cipher(ctx, NULL, ad, (unsigned)sizeof(ad)) >= 0 &&
		       EVP_Cipher(ctx, o, in, (unsigned)n) >= 0 &&
		       EVP_Cipher(ctx, NULL, NULL, 0) >= 0;
	if (EVP_CipherUpdate(ctx, NULL, &l, ad, (int)sizeof(ad)) != 1)
		return 0;
	l = 0;
	if (n > 0 && EVP_CipherUpdate(ctx, o, &l, in, (int)n) != 1)
		return 0;
	return EVP_CipherFinal_ex(ctx, o + l, &l2) == 1 &&
	       (size_t)l + (size_t)l2 == n;
}

static int evp_seal(EVP_CIPHER_CTX *ctx, uint8_t *c, uint8_t *t,
		    const uint8_t *m, size_t n, const uint8_t *v, int flags)
{
	return evp_set_iv(ctx, v, 1, flags) && evp_body(ctx, c, m, n, flags) &&
	       evp_tag(ctx, t, 0, flags);
}

static int evp_open(EVP_CIPHER_CTX *ctx, uint8_t *m, const uint8_t *c,
		    const uint8_t *t, size_t n, const uint8_t *v, int flags)
{
	uint8_t tt[16];

	memcpy(tt, t, 16);
	return evp_set_iv(ctx, v, 0, flags) && evp_tag(ctx, tt, 1, flags) &&
	       evp_body(ctx, m, c, n, flags);
}

static int evp_copy_seal(uint8_t *c, uint8_t *t, const uint8_t *m, size_t n,
			 const uint8_t *v)
{
	return EVP_CIPHER_CTX_copy(c_work, c_tmpl) == 1 &&
	       evp_seal(c_work, c, t, m, n, v, 0);
}

/* A context keyed for direction enc with IV length 16. */
static EVP_CIPHER_CTX *evp_keyed(const EVP_CIPHER *cipher, int enc)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();

	if (ctx == NULL ||
	    EVP_CipherInit_ex(ctx, cipher, NULL, NULL, NULL, enc) != 1 ||
	    EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, 16, NULL) != 1 ||
	    EVP_CipherInit_ex(ctx, NULL, NULL, key, NULL, enc) != 1) {
		EVP_CIPHER_CTX_free(ctx);
		return NULL;
	}
	return ctx;
}

static int evp_init(void)
{
	gcm_fetched = EVP_CIPHER_fetch(NULL, "AES-256-GCM", NULL);
	if (gcm_fetched == NULL)
		return 0;
	for (int e = 0; e < 2; e++) {
		c_legacy[e] = evp_keyed(EVP_aes_256_gcm(), e);
		c_fetch[e] = evp_keyed(gcm_fetched, e);
		if (c_legacy[e] == NULL || c_fetch[e] == NULL)
			return 0;
	}
	c_tmpl = evp_keyed(gcm_fetched, 1);
	c_work = EVP_CIPHER_CTX_new();
	c_stream = EVP_CIPHER_CTX_new();
	return c_tmpl != NULL && c_work != NULL && c_stream != NULL &&
	       EVP_EncryptInit_ex(c_stream, gcm_fetched, NULL, key, iv) == 1;
}

static void evp_done(void)
{
	for (int e = 0; e < 2; e++) {
		EVP_CIPHER_CTX_free(c_legacy[e]);
		EVP_CIPHER_CTX_free(c_fetch[e]);
	}
	EVP_CIPHER_CTX_free(c_tmpl);
	EVP_CIPHER_CTX_free(c_work);
	EVP_CIPHER_CTX_free(c_stream);
	EVP_CIPHER_free(gcm_fetched);
}

/* ----------------------------------------------------------- nettle */

static struct gcm_aes256_ctx nctx;

static int nettle_seal(uint8_t *c, uint8_t *t, const uint8_t *m, size_t n,
		       const uint8_t *v)
{
	gcm_aes256_set_iv(&nctx, 16, v);
	gcm_aes256_update(&nctx, sizeof(ad), ad);
	gcm_aes256_encrypt(&nctx, n, c, m);
	gcm_aes256_digest(&nctx, 16, t);
	return 1;
}

static int nettle_open(uint8_t *m, const uint8_t *c, const uint8_t *t, size_t n,
		       const uint8_t *v)
{
	uint8_t tt[16];

	gcm_aes256_set_iv(&nctx, 16, v);
	gcm_aes256_update(&nctx, sizeof(ad), ad);
	gcm_aes256_decrypt(&nctx, n, m, c);
	gcm_aes256_digest(&nctx, 16, tt);
	return memeql_sec(tt, t, 16);
}

/* ---------------------------------------------------------- gcrypt */

static gcry_cipher_hd_t gh[2]; /* [0] decrypt, [1] encrypt */
static struct gcm_gcrypt backend;

/* libgcrypt as the backend initialises it (secure memory for its own
 * handles), after the hardware features named in the environment are
 * masked; the gcrypt targets' handles are plain ones. */
static int gcrypt_init(void)
{
	const char *hwf = getenv("BENCH_GCRYPT_DISABLE_HWF");
	char names[256], *save = NULL;

	if (hwf != NULL && strlen(hwf) < sizeof(names)) {
		memcpy(names, hwf, strlen(hwf) + 1);
		for (char *n = strtok_r(names, ",", &save); n != NULL;
		     n = strtok_r(NULL, ",", &save))
			gcry_control(GCRYCTL_DISABLE_HWF, n, NULL);
	}
	if (gcm_gcrypt_init() != 0)
		return 0;
	for (int e = 0; e < 2; e++)
		if (gcry_cipher_open(&gh[e], GCRY_CIPHER_AES256,
				     GCRY_CIPHER_MODE_GCM, 0) != 0 ||
		    gcry_cipher_setkey(gh[e], key, 32) != 0)
			return 0;
	return 1;
}

static int gcrypt_seal(uint8_t *c, uint8_t *t, const uint8_t *m, size_t n,
		       const uint8_t *v)
{
	return gcry_cipher_setiv(gh[1], v, 16) == 0 &&
	       gcry_cipher_authenticate(gh[1], ad, sizeof(ad)) == 0 &&
	       (c == m ? gcry_cipher_encrypt(gh[1], c, n, NULL, 0)
		       : gcry_cipher_encrypt(gh[1], c, n, m, n)) == 0 &&
	       gcry_cipher_gettag(gh[1], t, 16) == 0;
}

static int gcrypt_open(uint8_t *m, const uint8_t *c, const uint8_t *t, size_t n,
		       const uint8_t *v)
{
	return gcry_cipher_setiv(gh[0], v, 16) == 0 &&
	       gcry_cipher_authenticate(gh[0], ad, sizeof(ad)) == 0 &&
	       gcry_cipher_decrypt(gh[0], m, n, c, n) == 0 &&
	       gcry_cipher_checktag(gh[0], t, 16) == 0;
}

/* --------------------------------------------------------- targets */

enum impl {
	I_WRAP,
	I_EVP,
	I_EVP_FETCH,
	I_EVP_COPY,
	I_STREAM,
	I_NETTLE,
	I_GCRYPT,
	I_BACKEND,
};

struct target {
	const char *name;
	enum impl impl;
	int flags; /* EVP shortcuts (F_*) */
	int open;
	int failed;
	int nres;
	double res[MAXROUNDS];
};

static struct target targets[] = {
	{ "wrap", I_WRAP, 0, 0, 0, 0, { 0 } },
	{ "evp", I_EVP, 0, 0, 0, 0, { 0 } },
	{ "evp-fetch", I_EVP_FETCH, 0, 0, 0, 0, { 0 } },
	{ "evp-init2", I_EVP_FETCH, F_INIT2, 0, 0, 0, { 0 } },
	{ "evp-ivfixed", I_EVP_FETCH, F_IVFIXED, 0, 0, 0, { 0 } },
	{ "evp-ptag", I_EVP_FETCH, F_PTAG, 0, 0, 0, { 0 } },
	{ "evp-cipher", I_EVP_FETCH, F_CIPHER, 0, 0, 0, { 0 } },
	{ "evp-lean", I_EVP_FETCH, F_CIPHER | F_PTAG, 0, 0, 0, { 0 } },
	{ "evp-copy", I_EVP_COPY, 0, 0, 0, 0, { 0 } },
	{ "evp-stream", I_STREAM, 0, 0, 0, 0, { 0 } },
	{ "nettle", I_NETTLE, 0, 0, 0, 0, { 0 } },
	{ "gcrypt", I_GCRYPT, 0, 0, 0, 0, { 0 } },
	{ "backend", I_BACKEND, 0, 0, 0, 0, { 0 } },
	{ "wrap-open", I_WRAP, 0, 1, 0, 0, { 0 } },
	{ "evp-open", I_EVP, 0, 1, 0, 0, { 0 } },
	{ "evp-lean-open", I_EVP_FETCH, F_CIPHER | F_PTAG, 1, 0, 0, { 0 } },
	{ "nettle-open", I_NETTLE, 0, 1, 0, 0, { 0 } },
	{ "gcrypt-open", I_GCRYPT, 0, 1, 0, 0, { 0 } },
	{ "backend-open", I_BACKEND, 0, 1, 0, 0, { 0 } },
};
#define NTARGETS (sizeof(targets) / sizeof(targets[0]))

/* Seal m[0..n-1] under IV v with target t's implementation. 1 on success. */
static int t_seal(const struct target *t, uint8_t *c, uint8_t *tg,
		  const uint8_t *m, size_t n, const uint8_t *v)
{
	int l = 0;

	switch (t->impl) {
	case I_WRAP:
		ossl_gcm_seal(c, tg, m, n, ad, sizeof(ad), key, v, 16);
		return 1;
	case I_EVP:
		return evp_seal(c_legacy[1], c, tg, m, n, v, t->flags);
	case I_EVP_FETCH:
		return evp_seal(c_fetch[1], c, tg, m, n, v, t->flags);
	case I_EVP_COPY:
		return evp_copy_seal(c, tg, m, n, v);
	case I_STREAM:
		return EVP_EncryptUpdate(c_stream, c, &l, m, (int)n) == 1;
	case I_NETTLE:
		return nettle_seal(c, tg, m, n, v);
	case I_GCRYPT:
		return gcrypt_seal(c, tg, m, n, v);
	case I_BACKEND:
		gcm_gcrypt_seal(&backend, c, tg, m, n, ad, sizeof(ad), key, v,
				16);
		return 1;
	}
	return 0;
}

/* Open c[0..n-1] with tag tg under IV v. 1 when the tag matched. */
static int t_open(const struct target *t, uint8_t *m, const uint8_t *c,
		  const uint8_t *tg, size_t n, const uint8_t *v)
{
	switch (t->impl) {
	case I_WRAP:
		return ossl_gcm_open(m, c, n, tg, ad, sizeof(ad), key, v, 16) ==
		       0;
	case I_EVP:
		return evp_open(c_legacy[0], m, c, tg, n, v, t->flags);
	case I_EVP_FETCH:
		return evp_open(c_fetch[0], m, c, tg, n, v, t->flags);
	case I_NETTLE:
		return nettle_open(m, c, tg, n, v);
	case I_GCRYPT:
		return gcrypt_open(m, c, tg, n, v);
	case I_BACKEND:
		return gcm_gcrypt_open(&backend, m, c, n, tg, ad, sizeof(ad),
				       key, v, 16) == 0;
	case I_EVP_COPY:
	case I_STREAM:
		break;
	}
	return 0;
}

static int one(const struct target *t)
{
	unsigned r;

	if (!t->open) {
		bench_next_iv(iv);
		return t_seal(t, buf, tag, buf, size, iv);
	}
	r = ring_pos++ % NRING;
	return t_open(t, out, ring_ct[r], ring_tag[r], size, ring_iv[r]);
}

/* The self-check of target t against the wrapper; 1 when it agrees. */
static int check(const struct target *t)
{
	static const size_t lens[] = { 0, 1, 15, 16, 17, 95, 96, 97, 1000 };
	static uint8_t m[4096 + 16], c1[4096 + 16], c2[4096 + 16];
	uint8_t v[16], t1[16], t2[16];

	if (t->impl == I_STREAM)
		return 1; /* no per-block seal to compare */
	for (size_t i = 0; i <= sizeof(lens) / sizeof(lens[0]); i++) {
		size_t n = i < sizeof(lens) / sizeof(lens[0]) ? lens[i] : size;

		if (n > 4096)
			n = 4096;
		fill_bytes(m, n);
		fill_bytes(v, sizeof(v));
		ossl_gcm_seal(c1, t1, m, n, ad, sizeof(ad), key, v, 16);
		if (!t->open) {
			if (!t_seal(t, c2, t2, m, n, v) ||
			    memcmp(c1, c2, n) != 0 || memcmp(t1, t2, 16) != 0)
				return 0;
			continue;
		}
		memset(c2, 0, sizeof(c2));
		if (!t_open(t, c2, c1, t1, n, v) || memcmp(c2, m, n) != 0)
			return 0;
		t1[i % 16] ^= 1;
		if (t_open(t, c2, c1, t1, n, v))
			return 0;
	}
	return 1;
}

/* MB/s of target t over about secs seconds, or -1 on a failure. Calls are
 * batched (about 256 KiB per clock read). */
static double measure(const struct target *t, double secs)
{
	double t0, t1;
	unsigned long iters = 0;
	int batch = size >= 262144 ? 1 : (int)(262144 / size);

	for (int i = 0; i < (batch < 16 ? batch : 16); i++)
		if (!one(t))
			return -1;
	t0 = bench_now();
	do {
		for (int i = 0; i < batch; i++)
			if (!one(t))
				return -1;
		iters += (unsigned long)batch;
		t1 = bench_now();
	} while (t1 - t0 < secs);
	return (double)size * (double)iters / 1e6 / (t1 - t0);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(const struct target *t)
{
	double v[MAXROUNDS];
	int n = t->nres;

	memcpy(v, t->res, (size_t)n * sizeof(v[0]));
	qsort(v, (size_t)n, sizeof(v[0]), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* -l: the code paths the libraries report for this CPU. */
static void print_paths(void)
{
	printf("libgcrypt %s config:\n", gcry_check_version(NULL));
	fflush(stdout);
	gcry_control(GCRYCTL_PRINT_CONFIG, stdout);
	printf("nettle %d.%d: run with NETTLE_FAT_VERBOSE=1 for its choice\n",
	       nettle_version_major(), nettle_version_minor());
}

/* Pre-seal the ring the open targets read. */
static void make_ring(void)
{
	for (int r = 0; r < NRING; r++) {
		fill_bytes(ring_iv[r], 16);
		fill_bytes(ring_ct[r], size);
		ossl_gcm_seal(ring_ct[r], ring_tag[r], ring_ct[r], size, ad,
			      sizeof(ad), key, ring_iv[r], 16);
	}
}

static int usage(void)
{
	fprintf(stderr, "usage: bench_gcm [-c] [-l] [-R] [-t SECS] [-s BYTES] "
			"[-r ROUNDS] [TARGET...]\n");
	return 1;
}

int main(int argc, char **argv)
{
	double secs = 0.3;
	int rounds = 1, rev = 0, list = 0, i = 1, rc = 0;
	int use[NTARGETS];

	for (; i < argc && argv[i][0] == '-'; i++) {
		const char *o = argv[i];

		if (strcmp(o, "-c") == 0)
			bench_clock = CLOCK_THREAD_CPUTIME_ID;
		else if (strcmp(o, "-R") == 0)
			rev = 1;
		else if (strcmp(o, "-l") == 0)
			list = 1;
		else if (i + 1 < argc && strcmp(o, "-t") == 0)
			secs = strtod(argv[++i], NULL);
		else if (i + 1 < argc && strcmp(o, "-s") == 0)
			size = strtoul(argv[++i], NULL, 10);
		else if (i + 1 < argc && strcmp(o, "-r") == 0)
			rounds = (int)strtol(argv[++i], NULL, 10);
		else
			return usage();
	}
	if (secs <= 0 || size == 0 || size > MAXSIZE || rounds < 1 ||
	    rounds > MAXROUNDS)
		return usage();
	for (size_t k = 0; k < NTARGETS; k++)
		use[k] = i == argc;
	for (; i < argc; i++) {
		size_t k = 0;

		while (k < NTARGETS && strcmp(argv[i], targets[k].name) != 0)
			k++;
		if (k == NTARGETS) {
			fprintf(stderr, "bench_gcm: unknown target %s\n",
				argv[i]);
			return usage();
		}
		use[k] = 1;
	}
	fill_bytes(key, sizeof(key));
	fill_bytes(iv, sizeof(iv));
	fill_bytes(ad, sizeof(ad));
	fill_bytes(buf, size);
	if (!evp_init() || !gcrypt_init()) {
		fprintf(stderr, "bench_gcm: library init failed\n");
		return 1;
	}
	gcm_aes256_set_key(&nctx, key);
	if (list) {
		print_paths();
		evp_done();
		return 0;
	}
	make_ring();
	for (size_t k = 0; k < NTARGETS; k++) {
		if (use[k] && !check(&targets[k])) {
			/* a shortcut this OpenSSL does not honour: shown,
			 * not timed, not an error of the run */
			targets[k].failed = 1;
			printf("check %s FAILED: differs from the wrapper, "
			       "not timed\n",
			       targets[k].name);
		}
	}
	for (int r = 0; r < rounds; r++) {
		int back = (r % 2) != rev;

		for (size_t j = 0; j < NTARGETS; j++) {
			struct target *t =
				&targets[back ? NTARGETS - 1 - j : j];
			double v;

			if (!use[t - targets] || t->failed)
				continue;
			v = measure(t, secs);
			if (v < 0) {
				t->failed = 1;
				printf("round %d %s FAILED\n", r + 1, t->name);
				rc = 1;
				continue;
			}
			t->res[t->nres++] = v;
			printf("round %d %s %.1f\n", r + 1, t->name, v);
			fflush(stdout);
		}
	}
	for (size_t k = 0; k < NTARGETS; k++)
		if (use[k] && !targets[k].failed && targets[k].nres > 0)
			printf("median %s %.1f\n", targets[k].name,
			       median(&targets[k]));
	ossl_aead_thread_cleanup();
	evp_done();
	for (int e = 0; e < 2; e++)
		gcry_cipher_close(gh[e]);
	gcm_gcrypt_release(&backend);
	return rc;
}
