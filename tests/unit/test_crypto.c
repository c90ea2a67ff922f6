/* SPDX-License-Identifier: MIT */
/*
 * Known-answer tests of the portable crypto core (src/crypto): ChaCha20,
 * HChaCha20, XChaCha20, Poly1305 and the two AEADs.
 * Sources: RFC 8439 sections 2.3.2-2.8.2 and appendix A (tests/vectors);
 * draft-irtf-cfrg-xchacha-03 2.2.1 and A.3; Wycheproof chacha20_poly1305
 * and xchacha20_poly1305 (../shared/vectors/wycheproof).
 * Usage: test_crypto [NAME-SUBSTRING...] runs the tests whose name contains
 * one of the arguments (all without arguments; th.c's name table). One
 * PASS/FAIL line per vector file, group or logical check; details of the
 * first failures go to stdout as plain lines. The differential runs
 * against OpenSSL and the properties are test_crypto_diff.c, the
 * constant-time helpers test_ct.c, the SIMD kernels test_kernels.c; the
 * shared helpers crypto_th.h.
 */
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

#include "crypto/aead/chachapoly.h"
#include "crypto/chacha20/ref.h"
#include "crypto/ct.h"
#include "crypto/poly1305/ref.h"
#include "th.h"
#include "crypto_th.h"
#include "vec.h"

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
};

int main(int argc, char **argv)
{
	return th_main(argc, argv, unit_tests, TH_COUNT(unit_tests), NULL);
}
