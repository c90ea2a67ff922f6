/* SPDX-License-Identifier: MIT */
/*
 * Tests of the portable crypto core (src/crypto): ChaCha20, HChaCha20,
 * XChaCha20, Poly1305, the two AEADs and the constant-time helpers.
 * Sources: RFC 8439 sections 2.3.2-2.8.2 and appendix A (tests/vectors);
 * draft-irtf-cfrg-xchacha-03 2.2.1 and A.3; Wycheproof chacha20_poly1305
 * and xchacha20_poly1305 (../shared/vectors/wycheproof); differential runs
 * against OpenSSL 3 (EVP_chacha20, EVP_chacha20_poly1305, EVP_MAC
 * POLY1305); properties (split updates, keystream = blocks, counter wrap,
 * bit flips, ct_compare/ct_wipe).
 * Usage: test_crypto [NAME-SUBSTRING...] runs the tests whose name contains
 * one of the arguments (all without arguments); the slow
 * ct-compare-all-2byte (all 2^32 pairs, ~15 s) runs only when named in
 * full. One PASS/FAIL line per vector, group or logical check; details of
 * the first failures go to stdout as plain lines. Random inputs come from
 * th_rand (deterministic). SIMD kernels are tested in test_kernels.c.
 * Over 600 lines on purpose: one binary per module with one name table
 * (STYLE.md 7); the banner sections below are its topics (vectors,
 * Wycheproof, OpenSSL differential, properties, constant time), which
 * share the check counters and vector loaders.
 */
#include <jansson.h>
#include <openssl/evp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/aead_xchacha.h"
#include "crypto/chacha20.h"
#include "crypto/ct.h"
#include "crypto/poly1305.h"
#include "th.h"
#include "vec.h"

/* ====================================================================
 * Check accounting: one PASS/FAIL line per logical check
 * ==================================================================== */

#define CHK_DETAILS 8 /* detail lines printed per check */

struct chk {
	char name[256];
	unsigned long n;   /* sub-checks run */
	unsigned long bad; /* sub-checks failed */
	char first[320];   /* first failure, repeated in the FAIL line */
};

__attribute__((format(printf, 2, 3))) static void chk_init(struct chk *k,
							   const char *fmt, ...)
{
	va_list ap;

	memset(k, 0, sizeof(*k));
	va_start(ap, fmt);
	vsnprintf(k->name, sizeof(k->name), fmt, ap);
	va_end(ap);
}

/* Count one sub-check; on failure keep the message (ok == 0). */
__attribute__((format(printf, 3, 4))) static int chk(struct chk *k, int ok,
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

static void chk_done(const struct chk *k)
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

static uint8_t *xalloc(size_t n)
{
	uint8_t *p = malloc(n != 0 ? n : 1);

	if (p == NULL) {
		perror("malloc");
		abort();
	}
	return p;
}

static uint8_t *xdup(const uint8_t *src, size_t n)
{
	uint8_t *p = xalloc(n);

	if (n != 0)
		memcpy(p, src, n);
	return p;
}

/* Decode a hex string into a fresh exact-size buffer; NULL if not hex. */
static uint8_t *hexdup(const char *hex, size_t *len)
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

static int all_bytes(const uint8_t *p, size_t n, uint8_t v)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != v)
			return 0;
	return 1;
}

static int eq(const void *a, const void *b, size_t n)
{
	return n == 0 || memcmp(a, b, n) == 0;
}

static uint32_t blocks_of(size_t len)
{
	return (uint32_t)((len + 63) / 64);
}

/* OpenSSL ChaCha20-Poly1305: enc seals (writes tag), !enc opens (checks
 * tag). Returns 0, or -1 on a bad tag or an OpenSSL error. */
static int ossl_aead(int enc, uint8_t *out, uint8_t tag[16], const uint8_t *in,
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
static int ossl_chacha20(uint8_t *out, const uint8_t *in, size_t len,
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
static int ossl_hchacha20(uint8_t out[32], const uint8_t key[32],
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

static int ossl_poly1305(uint8_t tag[16], const uint8_t *m, size_t len,
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
static void xnonce12(uint8_t n12[12], const uint8_t n24[24])
{
	memset(n12, 0, 4);
	memcpy(n12 + 4, n24 + 16, 8);
}

/* ====================================================================
 * Known-answer vectors: tests/vectors/NAME.vec
 * ==================================================================== */

#define VBUF 1024 /* larger than any vector field */

typedef void (*case_fn)(const struct vec_case *c, struct chk *k);

/* Fetch hex field `name`; want == 0 accepts any length. */
static long field(const struct vec_case *c, struct chk *k, const char *name,
		  uint8_t *out, size_t want)
{
	long n = vec_hex(c, name, out, VBUF);

	if (n < 0 || (want != 0 && (size_t)n != want)) {
		if (want == 0)
			chk(k, 0, "field '%s' missing or not hex", name);
		else
			chk(k, 0,
			    "field '%s' missing, not hex or not %zu bytes",
			    name, want);
		return -1;
	}
	return n;
}

/* Run fn on every case of file; `want` cases must be there, so a truncated
 * file cannot pass quietly. */
static void run_vec_file(const char *file, const char *label, case_fn fn,
			 int want)
{
	struct vec_file vf;
	struct vec_case c;
	int rc, n = 0;

	memset(&c, 0, sizeof(c));
	rc = vec_open(&vf, file);
	if (rc != 0) {
		th_fail("%s: cannot open %s: %s", label, vf.path,
			strerror(-rc));
		return;
	}
	while ((rc = vec_next(&vf, &c)) == 1) {
		struct chk k;

		chk_init(&k, "%s [%s]", label, c.source);
		fn(&c, &k);
		chk_done(&k);
		n++;
	}
	if (rc < 0)
		th_fail("%s: syntax error in %s", label, vf.path);
	else if (n != want)
		th_fail("%s: %d cases in %s, expected %d", label, n, vf.path,
			want);
	vec_case_free(&c);
	vec_close(&vf);
}

static void case_block(const struct vec_case *c, struct chk *k)
{
	uint8_t key[VBUF], nonce[VBUF], want[VBUF], out[64];
	uint8_t zero[64] = { 0 };
	uint32_t ctr;

	if (field(c, k, "key", key, 32) < 0 ||
	    field(c, k, "nonce", nonce, 12) < 0 ||
	    field(c, k, "block", want, 64) < 0 ||
	    !chk(k, vec_u32(c, "counter", &ctr) == 0, "bad counter"))
		return;
	chacha20_block(out, key, ctr, nonce);
	chk(k, eq(out, want, 64), "chacha20_block: got %s", th_hex(out, 64));
	chk(k, chacha20_xor(out, zero, 64, key, ctr, nonce) == ctr + 1,
	    "chacha20_xor returned the wrong next counter");
	chk(k, eq(out, want, 64), "chacha20_xor keystream: got %s",
	    th_hex(out, 64));
}

static void case_stream(const struct vec_case *c, struct chk *k)
{
	uint8_t key[VBUF], nonce[VBUF], pt[VBUF], ct[VBUF], out[VBUF];
	long n1, n2;
	size_t len;
	uint32_t ctr;

	if (field(c, k, "key", key, 32) < 0 ||
	    field(c, k, "nonce", nonce, 12) < 0 ||
	    (n1 = field(c, k, "plain", pt, 0)) < 0 ||
	    (n2 = field(c, k, "cipher", ct, 0)) < 0 ||
	    !chk(k, n1 == n2, "plain and cipher lengths differ") ||
	    !chk(k, vec_u32(c, "counter", &ctr) == 0, "bad counter"))
		return;
	len = (size_t)n1;
	chk(k,
	    chacha20_xor(out, pt, len, key, ctr, nonce) == ctr + blocks_of(len),
	    "wrong next counter");
	chk(k, eq(out, ct, len), "encrypt: got %s", th_hex(out, len));
	memcpy(out, ct, len);
	chacha20_xor(out, out, len, key, ctr, nonce);
	chk(k, eq(out, pt, len), "decrypt in place: got %s", th_hex(out, len));
	/* the same stream in two calls, split at each block boundary */
	for (size_t cut = 64; cut < len; cut += 64) {
		uint32_t next = chacha20_xor(out, pt, cut, key, ctr, nonce);

		chacha20_xor(out + cut, pt + cut, len - cut, key, next, nonce);
		chk(k, eq(out, ct, len), "split at %zu differs", cut);
	}
}

static void case_poly(const struct vec_case *c, struct chk *k)
{
	uint8_t key[VBUF], msg[VBUF], want[VBUF], tag[16];
	struct poly1305 st;
	long n;

	if (field(c, k, "key", key, 32) < 0 ||
	    (n = field(c, k, "msg", msg, 0)) < 0 ||
	    field(c, k, "tag", want, 16) < 0)
		return;
	poly1305_mac(tag, msg, (size_t)n, key);
	chk(k, eq(tag, want, 16), "poly1305_mac: got %s", th_hex(tag, 16));
	poly1305_init(&st, key);
	for (long i = 0; i < n; i++)
		poly1305_update(&st, msg + i, 1);
	poly1305_final(&st, tag);
	chk(k, eq(tag, want, 16), "byte-wise updates: got %s", th_hex(tag, 16));
}

static void case_keygen(const struct vec_case *c, struct chk *k)
{
	uint8_t key[VBUF], nonce[VBUF], want[VBUF], blk[64];

	if (field(c, k, "key", key, 32) < 0 ||
	    field(c, k, "nonce", nonce, 12) < 0 ||
	    field(c, k, "otk", want, 32) < 0)
		return;
	chacha20_block(blk, key, 0, nonce);
	chk(k, eq(blk, want, 32), "block 0 prefix: got %s", th_hex(blk, 32));
}

/* Seal and open one AEAD vector; xchacha selects the 24-byte variant. */
static void aead_vector(const struct vec_case *c, struct chk *k, int xchacha)
{
	uint8_t key[VBUF], nonce[VBUF], ad[VBUF], pt[VBUF], ct[VBUF];
	uint8_t want[VBUF], otk[VBUF], out[VBUF], tag[16], blk[64];
	long adl, n1, n2;
	size_t len, nlen = xchacha ? 24 : 12;
	int rc;

	if (field(c, k, "key", key, 32) < 0 ||
	    field(c, k, "nonce", nonce, nlen) < 0 ||
	    (adl = field(c, k, "aad", ad, 0)) < 0 ||
	    (n1 = field(c, k, "plain", pt, 0)) < 0 ||
	    (n2 = field(c, k, "cipher", ct, 0)) < 0 ||
	    field(c, k, "tag", want, 16) < 0 ||
	    !chk(k, n1 == n2, "plain and cipher lengths differ"))
		return;
	len = (size_t)n1;
	if (xchacha)
		xchachapoly_seal(out, tag, pt, len, ad, (size_t)adl, key,
				 nonce);
	else
		chachapoly_seal(out, tag, pt, len, ad, (size_t)adl, key, nonce);
	chk(k, eq(out, ct, len), "seal ciphertext: got %s", th_hex(out, len));
	chk(k, eq(tag, want, 16), "seal tag: got %s", th_hex(tag, 16));
	memset(out, 0xa5, len);
	rc = xchacha ? xchachapoly_open(out, ct, len, want, ad, (size_t)adl,
					key, nonce)
		     : chachapoly_open(out, ct, len, want, ad, (size_t)adl, key,
				       nonce);
	chk(k, rc == 0, "open rejected the vector");
	chk(k, eq(out, pt, len), "open plaintext: got %s", th_hex(out, len));
	if (vec_get(c, "otk") == NULL)
		return;
	if (field(c, k, "otk", otk, 32) < 0)
		return;
	if (xchacha) {
		uint8_t subkey[32], n12[12];

		hchacha20(subkey, key, nonce);
		xnonce12(n12, nonce);
		chacha20_block(blk, subkey, 0, n12);
	} else {
		chacha20_block(blk, key, 0, nonce);
	}
	chk(k, eq(blk, otk, 32), "Poly1305 one-time key: got %s",
	    th_hex(blk, 32));
}

static void case_aead(const struct vec_case *c, struct chk *k)
{
	aead_vector(c, k, 0);
}

static void case_xaead(const struct vec_case *c, struct chk *k)
{
	aead_vector(c, k, 1);
}

static void case_hchacha(const struct vec_case *c, struct chk *k)
{
	uint8_t key[VBUF], nonce[VBUF], want[VBUF], out[32], buf[32];

	if (field(c, k, "key", key, 32) < 0 ||
	    field(c, k, "nonce", nonce, 16) < 0 ||
	    field(c, k, "subkey", want, 32) < 0)
		return;
	hchacha20(out, key, nonce);
	chk(k, eq(out, want, 32), "hchacha20: got %s", th_hex(out, 32));
	memcpy(buf, key, 32);
	hchacha20(buf, buf, nonce);
	chk(k, eq(buf, want, 32), "hchacha20 with out == key: got %s",
	    th_hex(buf, 32));
	chk(k, ossl_hchacha20(out, key, nonce) == 0 && eq(out, want, 32),
	    "HChaCha20 derived from OpenSSL's block: got %s", th_hex(out, 32));
}

static void case_xstream(const struct vec_case *c, struct chk *k)
{
	uint8_t key[VBUF], nonce[VBUF], pt[VBUF], ct[VBUF], ks[VBUF];
	uint8_t out[VBUF], zero[VBUF];
	long n1, n2, n3;
	size_t len;
	uint32_t ctr;

	if (field(c, k, "key", key, 32) < 0 ||
	    field(c, k, "nonce", nonce, 24) < 0 ||
	    (n1 = field(c, k, "plain", pt, 0)) < 0 ||
	    (n2 = field(c, k, "cipher", ct, 0)) < 0 ||
	    (n3 = field(c, k, "keystream", ks, 0)) < 0 ||
	    !chk(k, n1 == n2 && n1 == n3, "field lengths differ") ||
	    !chk(k, vec_u32(c, "counter", &ctr) == 0, "bad counter"))
		return;
	len = (size_t)n1;
	memset(zero, 0, len);
	chk(k,
	    xchacha20_xor(out, zero, len, key, ctr, nonce) ==
		    ctr + blocks_of(len),
	    "wrong next counter");
	chk(k, eq(out, ks, len), "keystream: got %s", th_hex(out, len));
	xchacha20_xor(out, pt, len, key, ctr, nonce);
	chk(k, eq(out, ct, len), "encrypt: got %s", th_hex(out, len));
	xchacha20_xor(out, out, len, key, ctr, nonce);
	chk(k, eq(out, pt, len), "decrypt in place: got %s", th_hex(out, len));
}

static void t_rfc_block(void)
{
	run_vec_file("chacha20_block.vec", "chacha20_block", case_block, 6);
}

static void t_rfc_stream(void)
{
	run_vec_file("chacha20.vec", "chacha20_xor", case_stream, 4);
}

static void t_rfc_poly(void)
{
	run_vec_file("poly1305.vec", "poly1305", case_poly, 12);
}

static void t_rfc_keygen(void)
{
	run_vec_file("poly1305_keygen.vec", "poly1305 key generation",
		     case_keygen, 4);
}

static void t_rfc_aead(void)
{
	run_vec_file("chachapoly.vec", "chachapoly seal/open", case_aead, 2);
}

static void t_x_hchacha(void)
{
	run_vec_file("hchacha20.vec", "hchacha20", case_hchacha, 1);
}

static void t_x_stream(void)
{
	run_vec_file("xchacha20.vec", "xchacha20_xor", case_xstream, 2);
}

static void t_x_aead(void)
{
	run_vec_file("xchachapoly.vec", "xchachapoly seal/open", case_xaead, 1);
}

/* ====================================================================
 * Wycheproof AEAD vectors (../shared/vectors/wycheproof/NAME.json)
 * ==================================================================== */

typedef void (*seal_fn)(uint8_t *c, uint8_t *tag, const uint8_t *m, size_t len,
			const uint8_t *ad, size_t adlen, const uint8_t *key,
			const uint8_t *nonce);
typedef int (*open_fn)(uint8_t *m, const uint8_t *c, size_t len,
		       const uint8_t *tag, const uint8_t *ad, size_t adlen,
		       const uint8_t *key, const uint8_t *nonce);

struct wp_alg {
	const char *file;
	const char *label;
	size_t nonce_len;
	seal_fn seal;
	open_fn open;
};

struct wp_case {
	long id;
	const char *comment;
	int valid;
	uint8_t *key, *iv, *aad, *msg, *ct, *tag;
	size_t keylen, ivlen, aadlen, msglen, ctlen, taglen;
};

/* The fixed-size API cannot take another key, nonce or tag length: a
 * caller must refuse those before calling, as this wrapper does. */
static int wp_sizes_ok(const struct wp_alg *a, const struct wp_case *t)
{
	return t->keylen == 32 && t->ivlen == a->nonce_len && t->taglen == 16 &&
	       t->ctlen == t->msglen;
}

static void wp_valid(const struct wp_alg *a, const struct wp_case *t,
		     struct chk *k)
{
	size_t len = t->msglen;
	uint8_t *c = xalloc(len), *m = xalloc(len), *tag = xalloc(16);
	long id = t->id;
	const char *cm = t->comment;

	if (!chk(k, wp_sizes_ok(a, t),
		 "tcId %ld (%s): valid case with sizes "
		 "the API cannot take",
		 id, cm))
		goto out;
	a->seal(c, tag, t->msg, len, t->aad, t->aadlen, t->key, t->iv);
	chk(k, eq(c, t->ct, len), "tcId %ld (%s): seal ciphertext %s", id, cm,
	    th_hex(c, len));
	chk(k, eq(tag, t->tag, 16), "tcId %ld (%s): seal tag %s", id, cm,
	    th_hex(tag, 16));
	memcpy(c, t->msg, len == 0 ? 0 : len);
	a->seal(c, tag, c, len, t->aad, t->aadlen, t->key, t->iv);
	chk(k, eq(c, t->ct, len) && eq(tag, t->tag, 16),
	    "tcId %ld (%s): in-place seal differs", id, cm);
	memset(m, 0xa5, len);
	chk(k,
	    a->open(m, t->ct, len, t->tag, t->aad, t->aadlen, t->key, t->iv) ==
			    0 &&
		    eq(m, t->msg, len),
	    "tcId %ld (%s): open failed or wrong plaintext", id, cm);
	memcpy(c, t->ct, len == 0 ? 0 : len);
	chk(k,
	    a->open(c, c, len, t->tag, t->aad, t->aadlen, t->key, t->iv) == 0 &&
		    eq(c, t->msg, len),
	    "tcId %ld (%s): in-place open failed or wrong plaintext", id, cm);
out:
	free(c);
	free(m);
	free(tag);
}

static void wp_invalid(const struct wp_alg *a, const struct wp_case *t,
		       struct chk *k)
{
	size_t len = t->ctlen;
	uint8_t *m = xalloc(len), *c = xdup(t->ct, len), *tag = xalloc(16);
	long id = t->id;
	const char *cm = t->comment;

	if (!wp_sizes_ok(a, t)) {
		/* rejected before the call; nothing to run */
		chk(k, 1, "size check");
		goto out;
	}
	memset(m, 0xa5, len);
	chk(k,
	    a->open(m, t->ct, len, t->tag, t->aad, t->aadlen, t->key, t->iv) ==
		    -1,
	    "tcId %ld (%s): open accepted an invalid case", id, cm);
	chk(k, all_bytes(m, len, 0xa5),
	    "tcId %ld (%s): failed open wrote to the output", id, cm);
	chk(k,
	    a->open(c, c, len, t->tag, t->aad, t->aadlen, t->key, t->iv) ==
			    -1 &&
		    eq(c, t->ct, len),
	    "tcId %ld (%s): in-place open accepted or changed the buffer", id,
	    cm);
	/* sealing the message must not reproduce the rejected pair */
	a->seal(c, tag, t->msg, len, t->aad, t->aadlen, t->key, t->iv);
	chk(k, !(eq(c, t->ct, len) && eq(tag, t->tag, 16)),
	    "tcId %ld (%s): seal reproduces the invalid ciphertext", id, cm);
out:
	free(m);
	free(c);
	free(tag);
}

static uint8_t *wp_hex(json_t *test, const char *name, size_t *len)
{
	const char *s = json_string_value(json_object_get(test, name));

	if (s == NULL)
		return NULL;
	return hexdup(s, len);
}

static void wp_case_free(struct wp_case *t)
{
	free(t->key);
	free(t->iv);
	free(t->aad);
	free(t->msg);
	free(t->ct);
	free(t->tag);
	memset(t, 0, sizeof(*t));
}

static void wp_group(const struct wp_alg *a, json_t *group, size_t gi)
{
	json_t *list = json_object_get(group, "tests");
	long ivbits =
		(long)json_integer_value(json_object_get(group, "ivSize"));
	size_t nvalid = 0, ninvalid = 0, nsize = 0;
	struct chk k;

	chk_init(&k, "wycheproof %s group %zu (iv %ld bits)", a->label, gi + 1,
		 ivbits);
	for (size_t i = 0; i < json_array_size(list); i++) {
		json_t *test = json_array_get(list, i);
		const char *res =
			json_string_value(json_object_get(test, "result"));
		struct wp_case t;

		memset(&t, 0, sizeof(t));
		t.id = (long)json_integer_value(json_object_get(test, "tcId"));
		t.comment = json_string_value(json_object_get(test, "comment"));
		if (t.comment == NULL)
			t.comment = "";
		t.key = wp_hex(test, "key", &t.keylen);
		t.iv = wp_hex(test, "iv", &t.ivlen);
		t.aad = wp_hex(test, "aad", &t.aadlen);
		t.msg = wp_hex(test, "msg", &t.msglen);
		t.ct = wp_hex(test, "ct", &t.ctlen);
		t.tag = wp_hex(test, "tag", &t.taglen);
		if (res == NULL || t.key == NULL || t.iv == NULL ||
		    t.aad == NULL || t.msg == NULL || t.ct == NULL ||
		    t.tag == NULL) {
			chk(&k, 0, "tcId %ld: malformed test", t.id);
			wp_case_free(&t);
			continue;
		}
		/* "acceptable" never occurs in these files; treat as valid */
		t.valid = strcmp(res, "invalid") != 0;
		if (t.valid) {
			nvalid++;
			wp_valid(a, &t, &k);
		} else {
			ninvalid++;
			nsize += !wp_sizes_ok(a, &t);
			wp_invalid(a, &t, &k);
		}
		wp_case_free(&t);
	}
	if (nvalid + ninvalid == 0) {
		th_fail("%s: no tests", k.name);
		return;
	}
	snprintf(k.name + strlen(k.name), sizeof(k.name) - strlen(k.name),
		 ": %zu valid, %zu invalid%s", nvalid, ninvalid,
		 nsize == ninvalid && nsize > 0
			 ? " (refused by the nonce/tag size check)"
			 : "");
	chk_done(&k);
}

static void wycheproof(const struct wp_alg *a)
{
	char path[4096];
	json_error_t err;
	json_t *root, *groups;

	snprintf(path, sizeof(path), "%s/vectors/wycheproof/%s",
		 th_shared_dir(), a->file);
	root = json_load_file(path, 0, &err);
	if (root == NULL) {
		th_fail("wycheproof %s: cannot load %s: %s (line %d)", a->label,
			path, err.text, err.line);
		return;
	}
	groups = json_object_get(root, "testGroups");
	if (json_array_size(groups) == 0)
		th_fail("wycheproof %s: no testGroups in %s", a->label, path);
	for (size_t g = 0; g < json_array_size(groups); g++)
		wp_group(a, json_array_get(groups, g), g);
	json_decref(root);
}

static void t_wp_chacha(void)
{
	static const struct wp_alg a = { "chacha20_poly1305_test.json",
					 "chacha20-poly1305", 12,
					 chachapoly_seal, chachapoly_open };

	wycheproof(&a);
}

static void t_wp_xchacha(void)
{
	static const struct wp_alg a = { "xchacha20_poly1305_test.json",
					 "xchacha20-poly1305", 24,
					 xchachapoly_seal, xchachapoly_open };

	wycheproof(&a);
}

/* ====================================================================
 * Differential tests against OpenSSL 3
 * ==================================================================== */

#define DIFF_MAX_LEN 9000

static void t_diff_aead(void)
{
	struct chk ks[4];

	chk_init(&ks[0],
		 "openssl chachapoly_seal == EVP_chacha20_poly1305, "
		 "lengths 0..%d, unaligned in/out (offsets 1..7)",
		 DIFF_MAX_LEN);
	chk_init(&ks[1],
		 "openssl chachapoly_seal in place == OpenSSL, "
		 "lengths 0..%d",
		 DIFF_MAX_LEN);
	chk_init(&ks[2],
		 "openssl chachapoly_open of OpenSSL output, "
		 "lengths 0..%d, unaligned",
		 DIFF_MAX_LEN);
	chk_init(&ks[3], "openssl chachapoly_open in place, lengths 0..%d",
		 DIFF_MAX_LEN);
	for (size_t len = 0; len <= DIFF_MAX_LEN; len++) {
		size_t oin = 1 + len % 7, oout = 1 + (len / 7) % 7;
		size_t adlen =
			len % 50 == 0 ? th_rand32() % 600 : th_rand32() % 34;
		uint8_t key[32], nonce[12], rtag[16];
		uint8_t *ad = xalloc(adlen), *ref = xalloc(len);
		uint8_t *min = xalloc(oin + len), *m = min + oin;
		uint8_t *cout = xalloc(oout + len + 16), *c = cout + oout;
		uint8_t *ib = xalloc(oin + len + 16), *ip = ib + oin;
		const uint8_t *adp = adlen == 0 && len % 2 == 0 ? NULL : ad;

		th_rand(key, 32);
		th_rand(nonce, 12);
		th_rand(ad, adlen);
		th_rand(m, len);
		if (ossl_aead(1, ref, rtag, m, len, ad, adlen, key, nonce) !=
		    0) {
			chk(&ks[0], 0, "OpenSSL seal failed at length %zu",
			    len);
			goto next;
		}
		/* tag right after the ciphertext, as gocryptfs lays it out */
		chachapoly_seal(c, c + len, m, len, adp, adlen, key, nonce);
		chk(&ks[0], eq(c, ref, len) && eq(c + len, rtag, 16),
		    "length %zu adlen %zu differs", len, adlen);
		memcpy(ip, m, len);
		chachapoly_seal(ip, ip + len, ip, len, adp, adlen, key, nonce);
		chk(&ks[1], eq(ip, ref, len) && eq(ip + len, rtag, 16),
		    "length %zu adlen %zu differs", len, adlen);
		memset(c, 0x5a, len);
		chk(&ks[2],
		    chachapoly_open(c, ref, len, rtag, adp, adlen, key,
				    nonce) == 0 &&
			    eq(c, m, len),
		    "length %zu adlen %zu: open failed or wrong plaintext", len,
		    adlen);
		chk(&ks[3],
		    chachapoly_open(ip, ip, len, ip + len, adp, adlen, key,
				    nonce) == 0 &&
			    eq(ip, m, len),
		    "length %zu adlen %zu: open failed or wrong plaintext", len,
		    adlen);
	next:
		free(ad);
		free(ref);
		free(min);
		free(cout);
		free(ib);
	}
	for (int i = 0; i < 4; i++)
		chk_done(&ks[i]);
}

/* XChaCha20-Poly1305 = OpenSSL's IETF AEAD under an OpenSSL-derived
 * HChaCha20 subkey: nothing of ours on the reference side. */
static void t_diff_xaead(void)
{
	struct chk ks[2];

	chk_init(&ks[0],
		 "openssl xchachapoly_seal == HChaCha20 + "
		 "EVP_chacha20_poly1305, lengths 0..1100 and every "
		 "31st to %d",
		 DIFF_MAX_LEN);
	chk_init(&ks[1], "openssl xchachapoly_open of the OpenSSL output");
	for (size_t len = 0; len <= DIFF_MAX_LEN; len += len < 1100 ? 1 : 31) {
		size_t off = 1 + len % 7, adlen = th_rand32() % 40;
		uint8_t key[32], nonce[24], subkey[32], n12[12], rtag[16];
		uint8_t *ad = xalloc(adlen), *ref = xalloc(len);
		uint8_t *mb = xalloc(off + len), *m = mb + off;
		uint8_t *c = xalloc(len), *tag = xalloc(16);

		th_rand(key, 32);
		th_rand(nonce, 24);
		th_rand(ad, adlen);
		th_rand(m, len);
		xnonce12(n12, nonce);
		if (ossl_hchacha20(subkey, key, nonce) != 0 ||
		    ossl_aead(1, ref, rtag, m, len, ad, adlen, subkey, n12) !=
			    0) {
			chk(&ks[0], 0, "OpenSSL failed at length %zu", len);
			goto next;
		}
		xchachapoly_seal(c, tag, m, len, ad, adlen, key, nonce);
		chk(&ks[0], eq(c, ref, len) && eq(tag, rtag, 16),
		    "length %zu adlen %zu differs", len, adlen);
		memset(c, 0x5a, len);
		chk(&ks[1],
		    xchachapoly_open(c, ref, len, rtag, ad, adlen, key,
				     nonce) == 0 &&
			    eq(c, m, len),
		    "length %zu: open failed or wrong plaintext", len);
	next:
		free(ad);
		free(ref);
		free(mb);
		free(c);
		free(tag);
	}
	chk_done(&ks[0]);
	chk_done(&ks[1]);
}

static void t_diff_chacha20(void)
{
	struct chk k;

	chk_init(&k, "openssl chacha20_xor == EVP_chacha20, lengths 0..2000, "
		     "random counters, unaligned");
	for (size_t len = 0; len <= 2000; len++) {
		size_t oin = 1 + len % 7, oout = 1 + (len / 3) % 7;
		uint8_t key[32], nonce[12];
		uint32_t ctr = th_rand32() % 0xffff0000u, next;
		uint8_t *ib = xalloc(oin + len), *in = ib + oin;
		uint8_t *ob = xalloc(oout + len), *out = ob + oout;
		uint8_t *ref = xalloc(len);

		th_rand(key, 32);
		th_rand(nonce, 12);
		th_rand(in, len);
		if (len % 5 == 0)
			ctr = len % 2 ? 0 : 1;
		if (!chk(&k, ossl_chacha20(ref, in, len, key, ctr, nonce) == 0,
			 "OpenSSL failed"))
			goto next;
		next = chacha20_xor(out, in, len, key, ctr, nonce);
		chk(&k, eq(out, ref, len) && next == ctr + blocks_of(len),
		    "length %zu counter %u differs", len, ctr);
	next:
		free(ib);
		free(ob);
		free(ref);
	}
	chk_done(&k);
}

static void t_diff_poly1305(void)
{
	struct chk k;

	chk_init(&k, "openssl poly1305_mac == EVP_MAC POLY1305, lengths "
		     "0..2000, unaligned");
	for (size_t len = 0; len <= 2000; len++) {
		size_t off = 1 + len % 7;
		uint8_t key[32], ref[16];
		uint8_t *mb = xalloc(off + len), *m = mb + off;

		th_rand(key, 32);
		th_rand(m, len);
		if (len % 100 == 0) /* limbs at their extremes */
			memset(key + 16 * (len / 100 % 2), 0xff, 16);
		if (len % 300 == 0)
			memset(m, 0xff, len);
		if (chk(&k, ossl_poly1305(ref, m, len, key) == 0,
			"OpenSSL EVP_MAC POLY1305 failed")) {
			uint8_t tag[16];

			poly1305_mac(tag, m, len, key);
			chk(&k, eq(tag, ref, 16), "length %zu: got %s", len,
			    th_hex(tag, 16));
		}
		free(mb);
	}
	chk_done(&k);
}

static void t_diff_hchacha20(void)
{
	struct chk k;

	chk_init(&k, "openssl hchacha20 == OpenSSL-derived HChaCha20, "
		     "2000 random inputs");
	for (int i = 0; i < 2000; i++) {
		uint8_t key[32], nonce[16], out[32], ref[32];

		th_rand(key, 32);
		th_rand(nonce, 16);
		if (i < 4)
			memset(nonce, i % 2 ? 0xff : 0, 16);
		if (!chk(&k, ossl_hchacha20(ref, key, nonce) == 0,
			 "OpenSSL failed"))
			continue;
		hchacha20(out, key, nonce);
		chk(&k, eq(out, ref, 32), "input %d: got %s", i,
		    th_hex(out, 32));
	}
	chk_done(&k);
}

/* ====================================================================
 * Properties
 * ==================================================================== */

#define PROP_MAX_LEN 300

static void mac_parts(uint8_t tag[16], const uint8_t key[32], const uint8_t *m,
		      size_t i, size_t j, size_t n)
{
	struct poly1305 st;

	poly1305_init(&st, key);
	poly1305_update(&st, m, i);
	poly1305_update(&st, m + i, j - i);
	poly1305_update(&st, m + j, n - j);
	poly1305_final(&st, tag);
}

static void t_prop_poly_split(void)
{
	/* every 3-way split for these lengths (block edges and 300) */
	static const size_t three[] = { 0,   1,	  2,   15,  16,	 17, 31,  32,
					33,  47,  48,  63,  64,	 65, 100, 127,
					128, 129, 255, 256, 257, 300 };
	struct chk k2, k3, k1, kw;

	chk_init(&k2,
		 "poly1305 split in 2 updates at every point, lengths "
		 "0..%d",
		 PROP_MAX_LEN);
	chk_init(&k3,
		 "poly1305 split in 3 updates at every point pair, %zu "
		 "lengths up to %d, plus 40 random pairs for the others",
		 sizeof(three) / sizeof(three[0]), PROP_MAX_LEN);
	chk_init(&k1,
		 "poly1305 byte-wise updates with empty updates between, "
		 "lengths 0..%d",
		 PROP_MAX_LEN);
	chk_init(&kw, "poly1305_final wipes the state");
	for (size_t n = 0; n <= PROP_MAX_LEN; n++) {
		uint8_t key[32], ref[16], tag[16];
		uint8_t *m = xalloc(n);
		struct poly1305 st;
		int exhaustive = 0;

		th_rand(key, 32);
		th_rand(m, n);
		poly1305_mac(ref, m, n, key);
		for (size_t i = 0; i <= n; i++) {
			mac_parts(tag, key, m, i, i, n);
			chk(&k2, eq(tag, ref, 16), "length %zu split at %zu", n,
			    i);
		}
		for (size_t s = 0; s < sizeof(three) / sizeof(three[0]); s++)
			exhaustive |= three[s] == n;
		if (exhaustive) {
			for (size_t i = 0; i <= n; i++)
				for (size_t j = i; j <= n; j++) {
					mac_parts(tag, key, m, i, j, n);
					chk(&k3, eq(tag, ref, 16),
					    "length %zu split at %zu, %zu", n,
					    i, j);
				}
		} else {
			for (int r = 0; r < 40; r++) {
				size_t i = th_rand32() % (n + 1);
				size_t j = i + th_rand32() % (n - i + 1);

				mac_parts(tag, key, m, i, j, n);
				chk(&k3, eq(tag, ref, 16),
				    "length %zu split at %zu, %zu", n, i, j);
			}
		}
		poly1305_init(&st, key);
		for (size_t i = 0; i < n; i++) {
			poly1305_update(&st, m + i, 1);
			poly1305_update(&st, m, 0);
		}
		poly1305_final(&st, tag);
		chk(&k1, eq(tag, ref, 16), "length %zu", n);
		chk(&kw, all_bytes((const uint8_t *)&st, sizeof(st), 0),
		    "state not zero after final (length %zu)", n);
		free(m);
	}
	chk_done(&k2);
	chk_done(&k3);
	chk_done(&k1);
	chk_done(&kw);
}

/* Reference keystream from chacha20_block: block i uses counter ctr + i,
 * wrapping mod 2^32, always with the same nonce. */
static void keystream_ref(uint8_t *ks, size_t len, const uint8_t key[32],
			  uint32_t ctr, const uint8_t nonce[12])
{
	uint8_t blk[64];

	for (size_t off = 0; off < len; off += 64) {
		size_t n = len - off < 64 ? len - off : 64;

		chacha20_block(blk, key, ctr++, nonce);
		memcpy(ks + off, blk, n);
	}
}

static void t_prop_keystream(void)
{
	static const uint32_t ctrs[] = { 0,	     1,		 0x7fffffff,
					 0xfffffff8, 0xfffffffb, 0xfffffffc,
					 0xfffffffd, 0xfffffffe, 0xffffffff };

	for (size_t ci = 0; ci < sizeof(ctrs) / sizeof(ctrs[0]); ci++) {
		uint32_t ctr = ctrs[ci];
		struct chk k;

		chk_init(&k,
			 "chacha20_xor == chacha20_block keystream, "
			 "counter 0x%08x, lengths 0..%d, in place and not",
			 ctr, PROP_MAX_LEN);
		for (size_t len = 0; len <= PROP_MAX_LEN; len++) {
			uint8_t key[32], nonce[12], nonce0[12];
			uint8_t *in = xalloc(len), *out = xalloc(len);
			uint8_t *ks = xalloc(len), *want = xalloc(len);
			uint32_t next;

			th_rand(key, 32);
			th_rand(nonce, 12);
			memcpy(nonce0, nonce, 12);
			th_rand(in, len);
			keystream_ref(ks, len, key, ctr, nonce);
			for (size_t i = 0; i < len; i++)
				want[i] = in[i] ^ ks[i];
			next = chacha20_xor(out, in, len, key, ctr, nonce);
			chk(&k, next == (uint32_t)(ctr + blocks_of(len)),
			    "length %zu: next counter 0x%08x", len, next);
			chk(&k, eq(out, want, len), "length %zu differs", len);
			chk(&k, eq(nonce, nonce0, 12),
			    "length %zu: nonce changed", len);
			memcpy(out, in, len);
			next = chacha20_xor(out, out, len, key, ctr, nonce);
			chk(&k,
			    eq(out, want, len) &&
				    next == (uint32_t)(ctr + blocks_of(len)),
			    "length %zu in place differs", len);
			free(in);
			free(out);
			free(ks);
			free(want);
		}
		chk_done(&k);
	}
}

/* The block after 0xffffffff is block 0 of the same nonce, checked against
 * OpenSSL (which is only asked for counter 0 itself). */
static void t_prop_wrap(void)
{
	struct chk k;

	chk_init(&k, "chacha20_xor wraps 0xffffffff -> 0 with the nonce "
		     "unchanged (OpenSSL block 0 as reference)");
	for (int i = 0; i < 64; i++) {
		uint8_t key[32], nonce[12], zero[192] = { 0 }, out[192];
		uint8_t ref[128];
		uint32_t next;

		th_rand(key, 32);
		th_rand(nonce, 12);
		next = chacha20_xor(out, zero, 192, key, 0xffffffff, nonce);
		chk(&k, next == 2, "next counter %u, want 2", next);
		if (!chk(&k, ossl_chacha20(ref, zero, 128, key, 0, nonce) == 0,
			 "OpenSSL failed"))
			continue;
		chk(&k, eq(out + 64, ref, 128), "blocks after the wrap differ");
	}
	chk_done(&k);
}

static void t_prop_xchacha(void)
{
	static const uint32_t ctrs[] = { 0, 1, 0xfffffffe, 0xffffffff };
	struct chk k;

	chk_init(&k,
		 "xchacha20_xor == chacha20_xor under the HChaCha20 "
		 "subkey (OpenSSL-derived), lengths 0..%d, counters 0, 1, "
		 "0xfffffffe, 0xffffffff",
		 PROP_MAX_LEN);
	for (size_t ci = 0; ci < sizeof(ctrs) / sizeof(ctrs[0]); ci++) {
		for (size_t len = 0; len <= PROP_MAX_LEN; len++) {
			uint8_t key[32], nonce[24], subkey[32], n12[12];
			uint8_t *in = xalloc(len), *out = xalloc(len);
			uint8_t *ref = xalloc(len);

			th_rand(key, 32);
			th_rand(nonce, 24);
			th_rand(in, len);
			xnonce12(n12, nonce);
			if (chk(&k, ossl_hchacha20(subkey, key, nonce) == 0,
				"OpenSSL failed")) {
				uint32_t a = xchacha20_xor(out, in, len, key,
							   ctrs[ci], nonce);
				uint32_t b = chacha20_xor(ref, in, len, subkey,
							  ctrs[ci], n12);
				chk(&k, a == b && eq(out, ref, len),
				    "counter 0x%08x length %zu differs",
				    ctrs[ci], len);
			}
			free(in);
			free(out);
			free(ref);
		}
	}
	chk_done(&k);
}

/* Every one-bit change of ciphertext, tag, AD or nonce must make open fail
 * without writing (out of place) or changing (in place) a byte. */
static void bitflip(int xchacha)
{
	static const size_t lens[] = { 0, 1, 15, 16, 17, 63, 64, 65, 200 };
	static const size_t adlens[] = { 0, 1, 13, 16, 17 };
	static const char *const what[4] = { "ciphertext", "tag", "AD",
					     "nonce" };
	const char *name = xchacha ? "xchachapoly_open" : "chachapoly_open";
	size_t nlen = xchacha ? 24 : 12;
	struct chk ks[4];

	for (int r = 0; r < 4; r++)
		chk_init(&ks[r],
			 "%s rejects every 1-bit flip of the %s and "
			 "writes nothing",
			 name, what[r]);
	for (size_t li = 0; li < sizeof(lens) / sizeof(lens[0]); li++) {
		for (size_t ai = 0; ai < sizeof(adlens) / sizeof(adlens[0]);
		     ai++) {
			size_t len = lens[li], adlen = adlens[ai];
			uint8_t key[32], nonce[24], tag[16];
			uint8_t *m = xalloc(len), *c = xalloc(len);
			uint8_t *ad = xalloc(adlen), *out = xalloc(len);
			uint8_t *reg[4] = { c, tag, ad, nonce };
			const size_t rlen[4] = { len, 16, adlen, nlen };

			th_rand(key, 32);
			th_rand(nonce, 24);
			th_rand(m, len);
			th_rand(ad, adlen);
			if (xchacha)
				xchachapoly_seal(c, tag, m, len, ad, adlen, key,
						 nonce);
			else
				chachapoly_seal(c, tag, m, len, ad, adlen, key,
						nonce);
			for (int r = 0; r < 4; r++) {
				for (size_t bit = 0; bit < 8 * rlen[r]; bit++) {
					uint8_t flip =
						(uint8_t)(1u << (bit % 8));
					open_fn op = xchacha ? xchachapoly_open
							     : chachapoly_open;
					int rc1, rc2;
					uint8_t *cc;

					reg[r][bit / 8] ^= flip;
					memset(out, 0x5a, len);
					rc1 = op(out, c, len, tag, ad, adlen,
						 key, nonce);
					cc = xdup(c, len);
					rc2 = op(cc, cc, len, tag, ad, adlen,
						 key, nonce);
					chk(&ks[r],
					    rc1 == -1 && rc2 == -1 &&
						    all_bytes(out, len, 0x5a) &&
						    eq(cc, c, len),
					    "length %zu adlen %zu bit %zu: "
					    "rc %d/%d or output touched",
					    len, adlen, bit, rc1, rc2);
					free(cc);
					reg[r][bit / 8] ^= flip;
				}
			}
			/* and the unmodified message still opens */
			chk(&ks[0],
			    (xchacha ? xchachapoly_open(out, c, len, tag, ad,
							adlen, key, nonce)
				     : chachapoly_open(out, c, len, tag, ad,
						       adlen, key, nonce)) ==
					    0 &&
				    eq(out, m, len),
			    "length %zu adlen %zu: genuine message rejected",
			    len, adlen);
			free(m);
			free(c);
			free(ad);
			free(out);
		}
	}
	for (int r = 0; r < 4; r++)
		chk_done(&ks[r]);
}

static void t_prop_bitflip(void)
{
	bitflip(0);
	bitflip(1);
}

/* ====================================================================
 * Constant-time helpers
 * ==================================================================== */

static int ct_ok(int got, int equal)
{
	return equal ? got == 0 : got == -1;
}

static void t_ct_compare(void)
{
	struct chk k1, k2, k3, kr;
	uint8_t a[64], b[64];

	chk_init(&k1, "ct_compare exhaustive over 1-byte buffers (all 65536 "
		      "pairs) and n = 0");
	chk(&k1, ct_compare(a, b, 0) == 0, "n = 0 must compare equal");
	for (unsigned x = 0; x < 256; x++)
		for (unsigned y = 0; y < 256; y++) {
			a[0] = (uint8_t)x;
			b[0] = (uint8_t)y;
			chk(&k1, ct_ok(ct_compare(a, b, 1), x == y),
			    "%02x vs %02x", x, y);
		}
	chk_done(&k1);

	chk_init(&k2, "ct_compare over 2-byte buffers: every value against "
		      "every one-byte change (33.5M pairs)");
	for (unsigned x = 0; x < 65536; x++) {
		a[0] = (uint8_t)x;
		a[1] = (uint8_t)(x >> 8);
		for (unsigned pos = 0; pos < 2; pos++)
			for (unsigned v = 0; v < 256; v++) {
				b[0] = a[0];
				b[1] = a[1];
				b[pos] = (uint8_t)v;
				chk(&k2,
				    ct_ok(ct_compare(a, b, 2),
					  a[0] == b[0] && a[1] == b[1]),
				    "%02x%02x vs %02x%02x", a[0], a[1], b[0],
				    b[1]);
			}
	}
	chk_done(&k2);

	chk_init(&k3, "ct_compare over 2-byte buffers: every difference "
		      "pattern (65536) on 256 bases");
	for (unsigned base = 0; base < 256; base++) {
		unsigned x = base * 257u ^ th_rand32();

		for (unsigned d = 0; d < 65536; d++) {
			a[0] = (uint8_t)x;
			a[1] = (uint8_t)(x >> 8);
			b[0] = (uint8_t)(a[0] ^ d);
			b[1] = (uint8_t)(a[1] ^ (d >> 8));
			chk(&k3, ct_ok(ct_compare(a, b, 2), d == 0),
			    "%02x%02x vs %02x%02x", a[0], a[1], b[0], b[1]);
		}
	}
	chk_done(&k3);

	chk_init(&kr, "ct_compare random buffers of 0..64 bytes, equal or "
		      "one byte off anywhere");
	for (int i = 0; i < 200000; i++) {
		size_t n = th_rand32() % 65;
		int same = i % 2;

		th_rand(a, n);
		memcpy(b, a, n);
		if (!same && n > 0)
			b[th_rand32() % n] ^= (uint8_t)(1 + th_rand32() % 255);
		chk(&kr, ct_ok(ct_compare(a, b, n), same || n == 0),
		    "n %zu: %s", n, th_hex(b, n));
	}
	chk_done(&kr);
}

/* All 2^32 pairs of 2-byte buffers: ~15 s of CPU at -O2, so it only runs
 * when named on the command line (see tests[]). */
static void t_ct_compare_all(void)
{
	struct chk k;
	unsigned long bad = 0;

	chk_init(&k, "ct_compare exhaustive over 2-byte buffers (all 2^32 "
		     "pairs)");
	for (uint32_t x = 0; x < 65536; x++) {
		uint8_t a[2] = { (uint8_t)x, (uint8_t)(x >> 8) }, b[2];

		for (uint32_t y = 0; y < 65536; y++) {
			b[0] = (uint8_t)y;
			b[1] = (uint8_t)(y >> 8);
			bad += !ct_ok(ct_compare(a, b, 2), x == y);
		}
		chk(&k, bad == 0, "first wrong result with a = %04x", x);
		if (bad != 0)
			break;
	}
	chk_done(&k);
}

static void t_ct_wipe(void)
{
	struct chk k;

	chk_init(&k, "ct_wipe zeroes exactly [p, p + n), n 0..300, offsets "
		     "0..7");
	for (size_t n = 0; n <= PROP_MAX_LEN; n++) {
		for (size_t off = 0; off < 8; off++) {
			uint8_t *buf = xalloc(off + n + 8);

			memset(buf, 0xa5, off + n + 8);
			ct_wipe(buf + off, n);
			chk(&k,
			    all_bytes(buf, off, 0xa5) &&
				    all_bytes(buf + off, n, 0) &&
				    all_bytes(buf + off + n, 8, 0xa5),
			    "n %zu offset %zu", n, off);
			free(buf);
		}
	}
	chk_done(&k);
}

static void t_ct_endian(void)
{
	static const uint8_t le[8] = { 0x01, 0x02, 0x03, 0x04,
				       0x05, 0x06, 0x07, 0x08 };
	struct chk k;
	uint8_t b[8];

	chk_init(&k, "load/store 32/64 little- and big-endian");
	chk(&k, load32_le(le) == 0x04030201u, "load32_le");
	chk(&k, load64_be(le) == 0x0102030405060708ull, "load64_be");
	store32_le(b, 0x04030201u);
	chk(&k, eq(b, le, 4), "store32_le");
	store64_le(b, 0x0807060504030201ull);
	chk(&k, eq(b, le, 8), "store64_le");
	store64_be(b, 0x0102030405060708ull);
	chk(&k, eq(b, le, 8), "store64_be");
	for (int i = 0; i < 10000; i++) {
		uint64_t v = (uint64_t)th_rand32() << 32 | th_rand32();

		store64_be(b, v);
		chk(&k, load64_be(b) == v, "64-bit big-endian round trip");
		store64_le(b, v);
		chk(&k,
		    load32_le(b) == (uint32_t)v &&
			    load32_le(b + 4) == (uint32_t)(v >> 32),
		    "64-bit little-endian halves");
	}
	chk_done(&k);
}

/* ====================================================================
 * Test table and main
 * ==================================================================== */

/* TH_SLOW rows run only when their full name is given (th.h) */
static const struct th_test unit_tests[] = {
	TH_TEST("rfc8439-chacha20-block", t_rfc_block),
	TH_TEST("rfc8439-chacha20-xor", t_rfc_stream),
	TH_TEST("rfc8439-poly1305", t_rfc_poly),
	TH_TEST("rfc8439-poly1305-keygen", t_rfc_keygen),
	TH_TEST("rfc8439-aead", t_rfc_aead),
	TH_TEST("xchacha-draft-hchacha20", t_x_hchacha),
	TH_TEST("xchacha-draft-xchacha20", t_x_stream),
	TH_TEST("xchacha-draft-aead", t_x_aead),
	TH_TEST("wycheproof-chacha20-poly1305", t_wp_chacha),
	TH_TEST("wycheproof-xchacha20-poly1305", t_wp_xchacha),
	TH_TEST("openssl-chacha20", t_diff_chacha20),
	TH_TEST("openssl-poly1305", t_diff_poly1305),
	TH_TEST("openssl-hchacha20", t_diff_hchacha20),
	TH_TEST("openssl-chacha20-poly1305", t_diff_aead),
	TH_TEST("openssl-xchacha20-poly1305", t_diff_xaead),
	TH_TEST("prop-poly1305-split", t_prop_poly_split),
	TH_TEST("prop-chacha20-keystream", t_prop_keystream),
	TH_TEST("prop-chacha20-wrap", t_prop_wrap),
	TH_TEST("prop-xchacha20-subkey", t_prop_xchacha),
	TH_TEST("prop-aead-bitflip", t_prop_bitflip),
	TH_TEST("ct-compare", t_ct_compare),
	TH_SLOW("ct-compare-all-2byte", t_ct_compare_all),
	TH_TEST("ct-wipe", t_ct_wipe),
	TH_TEST("ct-endian", t_ct_endian),
};

int main(int argc, char **argv)
{
	return th_main(argc, argv, unit_tests, TH_COUNT(unit_tests), NULL);
}
