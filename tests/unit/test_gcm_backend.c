/* SPDX-License-Identifier: MIT */
/*
 * Tests of the libgcrypt AES-256-GCM backend (crypto/gcm_backend_gcrypt.h),
 * the faster implementation meant to sit behind ossl_gcm_seal/open (issue
 * 21): it must give the wrapper's bytes exactly and reject what the
 * wrapper rejects.
 * Sources: the AES-256 test cases 13-16 of the GCM specification
 * (McGrew and Viega, "The Galois/Counter Mode of Operation", 2005, also in
 * NIST's GCM validation); Wycheproof aes_gcm_test.json (256-bit keys,
 * 96- and 128-bit IVs, ../shared/vectors/wycheproof); random differential
 * runs against the OpenSSL wrapper (ossl_aead.h), the gocryptfs block
 * (16-byte IV, 24-byte AD, 4096 bytes) among them.
 * Usage: test_gcm_backend [NAME-SUBSTRING...] (th.c's name table). Random
 * inputs come from th_rand (deterministic).
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/gcm_backend_gcrypt.h"
#include "crypto/ossl_aead.h"
#include "th.h"
#include "vec.h"
#include "crypto_th.h"

static struct gcm_gcrypt st; /* this thread's backend state */

/* ------------------------------------------------------ NIST vectors */

static const struct {
	const char *name, *key, *iv, *ad, *pt, *ct, *tag;
} nist[] = {
	{ "13",
	  "0000000000000000000000000000000000000000000000000000000000000000",
	  "000000000000000000000000", "", "", "",
	  "530f8afbc74536b9a963b4f1c4cb738b" },
	{ "14",
	  "0000000000000000000000000000000000000000000000000000000000000000",
	  "000000000000000000000000", "", "00000000000000000000000000000000",
	  "cea7403d4d606b6e074ec5d3baf39d18",
	  "d0d1c8a799996bf0265b98b5d48ab919" },
	{ "15",
	  "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308",
	  "cafebabefacedbaddecaf888", "",
	  "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
	  "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255",
	  "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
	  "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad",
	  "b094dac5d93471bdec1a502270e3cc6c" },
	{ "16",
	  "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308",
	  "cafebabefacedbaddecaf888",
	  "feedfacedeadbeeffeedfacedeadbeefabaddad2",
	  "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"
	  "1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39",
	  "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa"
	  "8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662",
	  "76fc6ece0f4e1768cddf8853bb2d551b" },
};

static void t_nist(void)
{
	struct chk k;

	chk_init(&k, "gcm spec test cases 13-16 (AES-256): backend and "
		     "wrapper give the published bytes, open inverts, a "
		     "flipped tag bit is rejected");
	for (size_t i = 0; i < sizeof(nist) / sizeof(nist[0]); i++) {
		size_t kl, il, al, pl, cl, tl;
		uint8_t *key = hexdup(nist[i].key, &kl);
		uint8_t *iv = hexdup(nist[i].iv, &il);
		uint8_t *ad = hexdup(nist[i].ad, &al);
		uint8_t *pt = hexdup(nist[i].pt, &pl);
		uint8_t *ct = hexdup(nist[i].ct, &cl);
		uint8_t *tag = hexdup(nist[i].tag, &tl);
		uint8_t *c = xalloc(pl), *m = xalloc(pl), t[16], tw[16];

		if (key == NULL || iv == NULL || ad == NULL || pt == NULL ||
		    ct == NULL || tag == NULL || kl != 32 || tl != 16 ||
		    cl != pl) {
			chk(&k, 0, "case %s: bad vector", nist[i].name);
			goto next;
		}
		ossl_gcm_seal(c, tw, pt, pl, ad, al, key, iv, il);
		chk(&k, eq(c, ct, cl) && eq(tw, tag, 16),
		    "case %s: the wrapper disagrees with the vector",
		    nist[i].name);
		gcm_gcrypt_seal(&st, c, t, pt, pl, ad, al, key, iv, il);
		chk(&k, eq(c, ct, cl) && eq(t, tag, 16),
		    "case %s: backend seal differs: %s", nist[i].name,
		    th_hex(t, 16));
		chk(&k,
		    gcm_gcrypt_open(&st, m, ct, cl, tag, ad, al, key, iv, il) ==
				    0 &&
			    eq(m, pt, pl),
		    "case %s: backend open failed", nist[i].name);
		t[15] = tag[15] ^ 0x80;
		memcpy(t, tag, 15);
		chk(&k,
		    gcm_gcrypt_open(&st, m, ct, cl, t, ad, al, key, iv, il) ==
				    -1 &&
			    all_bytes(m, pl, 0),
		    "case %s: a flipped tag bit was accepted", nist[i].name);
	next:
		free(key);
		free(iv);
		free(ad);
		free(pt);
		free(ct);
		free(tag);
		free(c);
		free(m);
	}
	chk_done(&k);
}

/* -------------------------------------------------------- Wycheproof */

/* One Wycheproof case t (IV of ivbytes); counts into *n16 / *n12. */
static void wp_case(struct chk *k, json_t *t, size_t ivbytes, int *n16,
		    int *n12, int *inval)
{
	size_t kl, il, al, ml, cl, tl;
	uint8_t *key = hexdup(vec_jstr(t, "key"), &kl);
	uint8_t *iv = hexdup(vec_jstr(t, "iv"), &il);
	uint8_t *ad = hexdup(vec_jstr(t, "aad"), &al);
	uint8_t *msg = hexdup(vec_jstr(t, "msg"), &ml);
	uint8_t *ct = hexdup(vec_jstr(t, "ct"), &cl);
	uint8_t *tag = hexdup(vec_jstr(t, "tag"), &tl);
	json_int_t id = json_integer_value(json_object_get(t, "tcId"));
	int valid = strcmp(vec_jstr(t, "result"), "invalid") != 0;
	uint8_t *c = NULL, *m = NULL, t2[16];
	int rc;

	if (key == NULL || iv == NULL || ad == NULL || msg == NULL ||
	    ct == NULL || tag == NULL || kl != 32 || il != ivbytes ||
	    tl != 16 || cl != ml) {
		chk(k, 0, "tcId %lld: unusable case", (long long)id);
		goto out;
	}
	c = xalloc(ml);
	m = xalloc(ml);
	rc = gcm_gcrypt_open(&st, m, ct, cl, tag, ad, al, key, iv, il);
	if (valid) {
		gcm_gcrypt_seal(&st, c, t2, msg, ml, ad, al, key, iv, il);
		chk(k,
		    eq(c, ct, cl) && eq(t2, tag, 16) && rc == 0 &&
			    eq(m, msg, ml),
		    "tcId %lld: valid case not reproduced", (long long)id);
	} else {
		(*inval)++;
		chk(k, rc == -1 && all_bytes(m, ml, 0),
		    "tcId %lld: invalid case accepted", (long long)id);
	}
	if (il == 16)
		(*n16)++;
	else
		(*n12)++;
out:
	free(key);
	free(iv);
	free(ad);
	free(msg);
	free(ct);
	free(tag);
	free(c);
	free(m);
}

static void t_wycheproof(void)
{
	json_t *j = vec_wycheproof("aes_gcm_test.json"), *groups, *g;
	size_t gi;
	int n16 = 0, n12 = 0, inval = 0;
	struct chk k;

	if (j == NULL)
		return;
	chk_init(&k, "wycheproof aes_gcm, 256-bit keys, 96/128-bit IVs");
	groups = json_object_get(j, "testGroups");
	json_array_foreach(groups, gi, g)
	{
		json_int_t ks =
			json_integer_value(json_object_get(g, "keySize"));
		json_int_t ivs =
			json_integer_value(json_object_get(g, "ivSize"));
		json_t *tests = json_object_get(g, "tests"), *t;
		size_t ti;

		if (ks != 256 || (ivs != 128 && ivs != 96))
			continue;
		json_array_foreach(tests, ti, t)
		{
			wp_case(&k, t, (size_t)ivs / 8, &n16, &n12, &inval);
		}
	}
	chk(&k, n16 > 10 && n12 > 50 && inval > 10,
	    "too few cases: %d 16-byte-IV, %d 12-byte-IV, %d invalid", n16, n12,
	    inval);
	chk_done(&k);
	json_decref(j);
}

/* ------------------------------------------- differential vs wrapper */

static const size_t diff_lens[] = { 0,	1,  15,	 16,  17,   63,	  64,	95,
				    96, 97, 255, 256, 4095, 4096, 4097, 8192 };

/* One random case of length len: backend == wrapper, opens cross, and a
 * flipped bit (ciphertext, tag or AD, by `which`) is rejected. */
static void diff_one(struct chk *k, const uint8_t *key, size_t len,
		     size_t ivlen, size_t adlen, unsigned which)
{
	uint8_t *m = xalloc(len), *c1 = xalloc(len), *c2 = xalloc(len);
	uint8_t *out = xalloc(len), *ad = xalloc(adlen);
	uint8_t iv[16], t1[16], t2[16];

	th_rand(m, len);
	th_rand(ad, adlen);
	th_rand(iv, ivlen);
	ossl_gcm_seal(c1, t1, m, len, ad, adlen, key, iv, ivlen);
	gcm_gcrypt_seal(&st, c2, t2, m, len, ad, adlen, key, iv, ivlen);
	if (!chk(k, eq(c1, c2, len) && eq(t1, t2, 16),
		 "len %zu ivlen %zu adlen %zu: seal differs from the wrapper",
		 len, ivlen, adlen))
		goto out;
	chk(k,
	    gcm_gcrypt_open(&st, out, c1, len, t1, ad, adlen, key, iv, ivlen) ==
			    0 &&
		    eq(out, m, len),
	    "len %zu: backend cannot open the wrapper's block", len);
	chk(k,
	    ossl_gcm_open(out, c2, len, t2, ad, adlen, key, iv, ivlen) == 0 &&
		    eq(out, m, len),
	    "len %zu: the wrapper cannot open the backend's block", len);
	if (which == 0 && len > 0)
		c2[th_rand32() % len] ^= (uint8_t)(1u << (th_rand32() % 8));
	else if (which == 1 && adlen > 0)
		ad[th_rand32() % adlen] ^= (uint8_t)(1u << (th_rand32() % 8));
	else
		t2[th_rand32() % 16] ^= (uint8_t)(1u << (th_rand32() % 8));
	memset(out, 0xa5, len);
	chk(k,
	    gcm_gcrypt_open(&st, out, c2, len, t2, ad, adlen, key, iv, ivlen) ==
			    -1 &&
		    all_bytes(out, len, 0),
	    "len %zu adlen %zu: a flipped bit (%u) was accepted or the "
	    "output not zeroed",
	    len, adlen, which);
out:
	free(m);
	free(c1);
	free(c2);
	free(out);
	free(ad);
}

static void t_diff(void)
{
	uint8_t keys[3][32];
	struct chk k;

	th_rand(&keys[0][0], sizeof(keys));
	chk_init(&k, "random differential against ossl_gcm_seal/open: "
		     "lengths 0..8192, IV 12/16, AD 0..64, three keys "
		     "interleaved (re-keying), flipped bits rejected");
	for (int i = 0; i < 1500; i++) {
		size_t nl = sizeof(diff_lens) / sizeof(diff_lens[0]);
		size_t len = i % 2 ? diff_lens[(size_t)i / 2 % nl]
				   : th_rand32() % 600;
		size_t ivlen = i % 5 == 0 ? 12 : 16;
		size_t adlen = i % 3 == 0 ? 24 : th_rand32() % 65;

		diff_one(&k, keys[th_rand32() % 3], len, ivlen, adlen,
			 (unsigned)i % 3);
	}
	chk_done(&k);
}

/* The gocryptfs block, in place both ways: c == m for seal and open. */
static void t_inplace(void)
{
	uint8_t key[32], iv[16], ad[24], t1[16], t2[16];
	uint8_t *m = xalloc(4096), *a = xalloc(4096), *b = xalloc(4096);
	struct chk k;

	chk_init(&k, "gocryptfs block (4096, IV16, AD24) sealed and opened "
		     "in place");
	for (int i = 0; i < 50; i++) {
		th_rand(key, sizeof(key));
		th_rand(iv, sizeof(iv));
		th_rand(ad, sizeof(ad));
		th_rand(m, 4096);
		memcpy(a, m, 4096);
		memcpy(b, m, 4096);
		ossl_gcm_seal(a, t1, a, 4096, ad, 24, key, iv, 16);
		gcm_gcrypt_seal(&st, b, t2, b, 4096, ad, 24, key, iv, 16);
		chk(&k, eq(a, b, 4096) && eq(t1, t2, 16),
		    "round %d: in-place seal differs", i);
		chk(&k,
		    gcm_gcrypt_open(&st, b, b, 4096, t2, ad, 24, key, iv, 16) ==
				    0 &&
			    eq(b, m, 4096),
		    "round %d: in-place open failed", i);
	}
	free(m);
	free(a);
	free(b);
	chk_done(&k);
}

/* Two states (two threads' worth) with different keys, interleaved, and
 * a released state used again: each seals with its own key. */
static void t_states(void)
{
	static struct gcm_gcrypt other;
	uint8_t key[2][32], iv[16], m[100], c[2][100], t[2][16], cw[100],
		tw[16];
	struct chk k;

	chk_init(&k, "two states with their own keys, release and reuse");
	th_rand(&key[0][0], sizeof(key));
	for (int i = 0; i < 20; i++) {
		th_rand(iv, sizeof(iv));
		th_rand(m, sizeof(m));
		gcm_gcrypt_seal(&st, c[0], t[0], m, sizeof(m), NULL, 0, key[0],
				iv, 16);
		gcm_gcrypt_seal(&other, c[1], t[1], m, sizeof(m), NULL, 0,
				key[1], iv, 16);
		for (int s = 0; s < 2; s++) {
			ossl_gcm_seal(cw, tw, m, sizeof(m), NULL, 0, key[s], iv,
				      16);
			chk(&k, eq(cw, c[s], sizeof(m)) && eq(tw, t[s], 16),
			    "round %d state %d: wrong key used", i, s);
		}
		if (i == 10) {
			gcm_gcrypt_release(&other);
			chk(&k,
			    all_bytes((const uint8_t *)&other, sizeof(other),
				      0),
			    "release leaves the state zeroed");
		}
	}
	gcm_gcrypt_release(&other);
	chk_done(&k);
}

static const struct th_test unit_tests[] = {
	TH_TEST("nist-gcm-256", t_nist),
	TH_TEST("wycheproof-gcm-256", t_wycheproof),
	TH_TEST("diff-wrapper", t_diff),
	TH_TEST("in-place", t_inplace),
	TH_TEST("states", t_states),
};

static void done(void)
{
	gcm_gcrypt_release(&st);
	ossl_aead_thread_cleanup();
}

int main(int argc, char **argv)
{
	if (gcm_gcrypt_init() != 0) {
		th_fail("gcm_gcrypt_init: libgcrypt unusable");
		return th_exit();
	}
	return th_main(argc, argv, unit_tests, TH_COUNT(unit_tests), done);
}
