/* SPDX-License-Identifier: MIT */
/*
 * Every entry of the dispatcher's tables the CPU offers against the
 * proved ref functions: each ChaCha20 kernel (dispatch_list) against
 * chacha20/ref.c; the 64-bit Poly1305 and each Poly1305 blocks entry
 * (dispatch_poly_list: poly1305/avx2.c, poly1305/ifma.c) against
 * poly1305/ref.c; each HChaCha20 entry (dispatch_hchacha_list) against
 * hchacha20; each seal and open body (dispatch_body_list), called
 * directly, against an RFC 8439 2.8 composition of the ref functions
 * written here (ref_seal); the lookup rules (which entries each level
 * takes, "tables"); and the AEAD composition (aead/chachapoly.c through
 * the aead/kern.h entry points) on each kernel, with and without the
 * stitched bodies, against ref_xseal and the Wycheproof
 * chacha20/xchacha20-poly1305 files. An entry the CPU lacks is reported
 * SKIP, never PASS.
 * Usage: test_kernels [quick] [test-name-substring...]; "quick" (or
 * VCRYPTFS_TEST_QUICK=1) trims the random sweeps for qemu runs.
 * Prints "cpu: <features>" and "chosen: <kernel>" lines for
 * tests/checks/40-qemu.sh.
 * Over 600 lines on purpose: every kernel goes through the same sweeps
 * (one name-table row per kernel, plus "poly" and "tables"), which share
 * the kernel list, the ref composition and the quick mode.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/aead/chachapoly.h"
#include "crypto/chacha20/ref.h"
#include "crypto/cpu.h"
#include "crypto/ct.h"
#include "crypto/dispatch.h"
#include "crypto/kernels.h"
#include "crypto/poly1305/ref.h"
#include "crypto/poly1305/x64.h"
#include "hchacha_check.h"
#include "th.h"

#define MAXLEN 2100
#define GUARD 16

static int quick;

/* XChaCha20-Poly1305 seal (draft-irtf-cfrg-xchacha-03 2.3 over RFC 8439
 * 2.8) from the ref functions alone, independent of the dispatch: the
 * reference of the AEAD tests below. c may equal m. */
static void ref_seal(uint8_t *c, uint8_t tag[16], const uint8_t *m, size_t len,
		     const uint8_t *ad, size_t adlen, const uint8_t key[32],
		     const uint8_t n12[12])
{
	static const uint8_t zeros[16];
	uint8_t otk[64], lens[16];
	struct poly1305 st;

	chacha20_block(otk, key, 0, n12);
	chacha20_xor(c, m, len, key, 1, n12);
	poly1305_init(&st, otk);
	poly1305_update(&st, ad, adlen);
	poly1305_update(&st, zeros, (16 - adlen % 16) % 16);
	poly1305_update(&st, c, len);
	poly1305_update(&st, zeros, (16 - len % 16) % 16);
	store64_le(lens, (uint64_t)adlen);
	store64_le(lens + 8, (uint64_t)len);
	poly1305_update(&st, lens, 16);
	poly1305_final(&st, tag);
}

/* ref_seal (RFC 8439 2.8) after HChaCha20: XChaCha20-Poly1305. */
static void ref_xseal(uint8_t *c, uint8_t tag[16], const uint8_t *m, size_t len,
		      const uint8_t *ad, size_t adlen, const uint8_t key[32],
		      const uint8_t nonce[24])
{
	uint8_t sub[32], n12[12] = { 0 };

	hchacha20(sub, key, nonce);
	memcpy(n12 + 4, nonce + 16, 8);
	ref_seal(c, tag, m, len, ad, adlen, sub, n12);
}

/* Known-answer vectors from RFC 8439: A.1 #1 and #2 (keystream) and
 * 2.4.2 (the "sunscreen" text). */
struct kat {
	const char *name, *key, *nonce, *pt, *ct;
	uint32_t counter;
};

static const char sunscreen[] =
	"Ladies and Gentlemen of the class of '99: If I could offer you only "
	"one tip for the future, sunscreen would be it.";

static const struct kat kats[] = {
	{ "RFC 8439 A.1 #1",
	  "0000000000000000000000000000000000000000000000000000000000000000",
	  "000000000000000000000000", NULL,
	  "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
	  "da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586",
	  0 },
	{ "RFC 8439 A.1 #2",
	  "0000000000000000000000000000000000000000000000000000000000000000",
	  "000000000000000000000000", NULL,
	  "9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed"
	  "29b721769ce64e43d57133b074d839d531ed1f28510afb45ace10a1f4b794d6f",
	  1 },
	{ "RFC 8439 2.4.2",
	  "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
	  "000000000000004a00000000", sunscreen,
	  "6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0b"
	  "f91b65c5524733ab8f593dabcd62b3571639d624e65152ab8f530c359f0861d8"
	  "07ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736"
	  "5af90bbf74a35be6b40b8eedf2785e42874d",
	  1 },
};

static void test_kat(const struct dispatch_kernel *k, chacha20_xor_fn fn)
{
	for (size_t i = 0; i < sizeof(kats) / sizeof(kats[0]); i++) {
		uint8_t key[32], nonce[12], pt[256] = { 0 }, ct[256], out[256];
		long n = th_unhex(ct, sizeof(ct), kats[i].ct);
		uint32_t next;
		int ok;

		if (n < 0 || th_unhex(key, 32, kats[i].key) != 32 ||
		    th_unhex(nonce, 12, kats[i].nonce) != 12) {
			th_fail("%s: bad vector %s", k->name, kats[i].name);
			continue;
		}
		if (kats[i].pt != NULL)
			memcpy(pt, kats[i].pt, (size_t)n);
		next = fn(out, pt, (size_t)n, key, kats[i].counter, nonce);
		ok = memcmp(out, ct, (size_t)n) == 0 &&
		     next == kats[i].counter +
				     (uint32_t)(((size_t)n + 63) / 64);
		th_check(ok, "%s: %s", k->name, kats[i].name);
	}
}

/* Random key, nonce, counter and text of every length 0..MAXLEN at odd
 * alignments, out of place and in place, against chacha20_xor; guard bytes
 * around the output must stay untouched. */
static void test_random(const struct dispatch_kernel *k, chacha20_xor_fn fn)
{
	static uint8_t in[MAXLEN + 64], want[MAXLEN + 64],
		got[MAXLEN + 2 * GUARD + 64];
	size_t step = quick ? 13 : 1;
	int bad = 0, cases = 0;

	for (size_t len = 0; len <= MAXLEN && bad < 5; len += step) {
		for (size_t al = 0; al < 4; al++) {
			uint8_t key[32], nonce[12];
			uint32_t ctr = th_rand32(), n1, n2;
			size_t ai = (al * 5) % 7, ao = 1 + 2 * al;
			int inplace = (al & 1) != 0;

			if (quick && al > 1)
				break;
			th_rand(key, 32);
			th_rand(nonce, 12);
			th_rand(in + ai, len);
			n1 = chacha20_xor(want, in + ai, len, key, ctr, nonce);
			memset(got, 0xa5, sizeof(got));
			if (inplace) {
				memcpy(got + GUARD + ao, in + ai, len);
				n2 = fn(got + GUARD + ao, got + GUARD + ao, len,
					key, ctr, nonce);
			} else {
				n2 = fn(got + GUARD + ao, in + ai, len, key,
					ctr, nonce);
			}
			cases++;
			if (n1 != n2 ||
			    memcmp(want, got + GUARD + ao, len) != 0 ||
			    got[GUARD + ao - 1] != 0xa5 ||
			    got[GUARD + ao + len] != 0xa5) {
				bad++;
				printf("  %s: mismatch len %zu align %zu/%zu "
				       "inplace %d\n",
				       k->name, len, ai, ao, inplace);
			}
		}
	}
	th_check(bad == 0,
		 "%s: %d random cases, lengths 0..%d step %zu, odd "
		 "alignments, in place and not",
		 k->name, cases, MAXLEN, step);
}

/* Counters around 2^32 - 1: the 32-bit counter wraps, the nonce stays. */
static void test_wrap(const struct dispatch_kernel *k, chacha20_xor_fn fn)
{
	static uint8_t in[40 * 64], want[40 * 64], got[40 * 64];
	int bad = 0;

	for (uint32_t back = 0; back < 20; back++) {
		uint8_t key[32], nonce[12];
		uint32_t ctr = 0xffffffffU - back;
		size_t len = (size_t)(th_rand32() % sizeof(in));

		if (back == 3)
			len = sizeof(in);
		th_rand(key, 32);
		th_rand(nonce, 12);
		th_rand(in, len);
		if (chacha20_xor(want, in, len, key, ctr, nonce) !=
			    fn(got, in, len, key, ctr, nonce) ||
		    memcmp(want, got, len) != 0)
			bad++;
	}
	th_check(bad == 0, "%s: counter wrap at 2^32 (20 cases)", k->name);
	th_check(fn(NULL, NULL, 0, in, 0xfffffffeU, in) == 0xfffffffeU,
		 "%s: len 0 with NULL buffers returns the counter", k->name);
}

static int hexfield(json_t *t, const char *f, uint8_t *out, size_t cap,
		    size_t *n)
{
	const char *s = json_string_value(json_object_get(t, f));
	long l;

	if (s == NULL)
		return -1;
	l = th_unhex(out, cap, s);
	if (l < 0)
		return -1;
	*n = (size_t)l;
	return 0;
}

/* One Wycheproof AEAD file through the AEAD composition on the current kernel.
 * Valid: exact ciphertext and tag, and open gives the text. Invalid: open
 * returns -1 and writes nothing. */
static void test_wycheproof(const char *kname, const char *file, int xchacha)
{
	char path[4096];
	json_error_t err;
	json_t *root, *groups;
	size_t gi, nvalid = 0, ninvalid = 0;
	int bad = 0;
	size_t noncelen = xchacha ? 24 : 12;

	snprintf(path, sizeof(path), "%s/vectors/wycheproof/%s",
		 th_shared_dir(), file);
	root = json_load_file(path, 0, &err);
	if (root == NULL) {
		th_fail("%s: cannot load %s: %s", kname, path, err.text);
		return;
	}
	groups = json_object_get(root, "testGroups");
	for (gi = 0; gi < json_array_size(groups); gi++) {
		json_t *g = json_array_get(groups, gi), *tests;
		size_t ti;

		if (json_integer_value(json_object_get(g, "ivSize")) !=
			    (json_int_t)noncelen * 8 ||
		    json_integer_value(json_object_get(g, "keySize")) != 256 ||
		    json_integer_value(json_object_get(g, "tagSize")) != 128)
			continue;
		tests = json_object_get(g, "tests");
		for (ti = 0; ti < json_array_size(tests); ti++) {
			json_t *t = json_array_get(tests, ti);
			static uint8_t msg[2048], ct[2048], aad[2048],
				out[2048], out2[2048];
			uint8_t key[32], iv[24], tag[16], tag2[16];
			size_t kl, il, ml, cl, al, tl;
			const char *res =
				json_string_value(json_object_get(t, "result"));
			int valid = res != NULL && strcmp(res, "valid") == 0;
			int rc;

			if (hexfield(t, "key", key, 32, &kl) ||
			    hexfield(t, "iv", iv, 24, &il) ||
			    hexfield(t, "msg", msg, sizeof(msg), &ml) ||
			    hexfield(t, "ct", ct, sizeof(ct), &cl) ||
			    hexfield(t, "aad", aad, sizeof(aad), &al) ||
			    hexfield(t, "tag", tag, 16, &tl) || kl != 32 ||
			    il != noncelen || tl != 16 || cl != ml) {
				bad++;
				continue;
			}
			memset(out2, 0x5a, cl + 1);
			if (xchacha) {
				xchachapoly_seal(out, tag2, msg, ml, aad, al,
						 key, iv);
				rc = xchachapoly_open(out2, ct, cl, tag, aad,
						      al, key, iv);
			} else {
				chachapoly_seal(out, tag2, msg, ml, aad, al,
						key, iv);
				rc = chachapoly_open(out2, ct, cl, tag, aad, al,
						     key, iv);
			}
			if (valid) {
				nvalid++;
				if (memcmp(out, ct, cl) != 0 ||
				    memcmp(tag, tag2, 16) != 0 || rc != 0 ||
				    memcmp(out2, msg, ml) != 0)
					bad++;
			} else {
				ninvalid++;
				for (size_t i = 0; i <= cl; i++)
					if (out2[i] != 0x5a)
						rc = 1;
				if (rc != -1)
					bad++;
			}
		}
	}
	json_decref(root);
	th_check(bad == 0 && nvalid > 0 && ninvalid > 0,
		 "%s: AEAD on %s (%zu valid, %zu invalid)", kname, file, nvalid,
		 ninvalid);
}

/* The AEAD vs the ref composition, random inputs, in place, and tampering. */
static void test_aead_random(const char *kname)
{
	static uint8_t m[MAXLEN + 8], c1[MAXLEN + 8], c2[MAXLEN + 8],
		back[MAXLEN + 8];
	size_t step = quick ? 61 : 7;
	int bad = 0, cases = 0;

	for (size_t len = 0; len <= MAXLEN; len += step) {
		uint8_t key[32], nonce[24], ad[40], t1[16], t2[16];
		size_t adlen = (size_t)(th_rand32() % sizeof(ad));

		th_rand(key, 32);
		th_rand(nonce, 24);
		th_rand(ad, adlen);
		th_rand(m + 1, len);
		ref_xseal(c1, t1, m + 1, len, ad, adlen, key, nonce);
		memcpy(c2 + 3, m + 1, len);
		xchachapoly_seal(c2 + 3, t2, c2 + 3, len, ad, adlen, key,
				 nonce);
		cases++;
		if (memcmp(c1, c2 + 3, len) != 0 || memcmp(t1, t2, 16) != 0)
			bad++;
		if (xchachapoly_open(back, c1, len, t1, ad, adlen, key,
				     nonce) != 0 ||
		    memcmp(back, m + 1, len) != 0)
			bad++;
		/* flip one bit of the ciphertext or the tag: rejected */
		memset(back, 0x33, len + 1);
		if (len > 0)
			c1[th_rand32() % len] ^= 0x01;
		else
			t1[th_rand32() % 16] ^= 0x80;
		if (xchachapoly_open(back, c1, len, t1, ad, adlen, key,
				     nonce) != -1)
			bad++;
		for (size_t i = 0; i <= len; i++)
			if (back[i] != 0x33)
				bad++;
	}
	th_check(bad == 0,
		 "%s: AEAD == ref composition, %d lengths, in place, open "
		 "round trip, bit flips rejected with output untouched",
		 kname, cases);
}

/*
 * Seal and open of every length 0..OPENLEN (quick: a stride) against the
 * ref composition, at odd alignments, disjoint and in place: on the AVX2
 * kernel lengths 512..4096 take the stitched open body (plaintext held
 * back until the tag verifies, kern_chachapoly_open_body), longer ones the
 * unstitched path. A flipped ciphertext, AD or tag bit is rejected with
 * the output untouched, in place too (the ciphertext stays).
 */
#define OPENLEN 4200
static void test_aead_open(const char *kname)
{
	static uint8_t m[OPENLEN + 8], c1[OPENLEN + 8], c2[OPENLEN + 8],
		back[OPENLEN + 8];
	size_t step = quick ? 53 : 1;
	int bad = 0, cases = 0;

	for (size_t len = 0; len <= OPENLEN && bad < 5; len += step) {
		uint8_t key[32], nonce[24], ad[24], t1[16], t2[16];
		size_t adlen = len % 25, al = 1 + len % 7;
		int rc;

		th_rand(key, 32);
		th_rand(nonce, 24);
		th_rand(ad, adlen);
		th_rand(m + al, len);
		ref_xseal(c1, t1, m + al, len, ad, adlen, key, nonce);
		xchachapoly_seal(c2 + al, t2, m + al, len, ad, adlen, key,
				 nonce);
		cases++;
		if (memcmp(c1, c2 + al, len) != 0 || memcmp(t1, t2, 16) != 0)
			bad++;
		/* disjoint open at another odd offset, guard bytes around */
		memset(back, 0x77, sizeof(back));
		rc = xchachapoly_open(back + 8 - al, c2 + al, len, t2, ad,
				      adlen, key, nonce);
		if (rc != 0 || memcmp(back + 8 - al, m + al, len) != 0 ||
		    back[7 - al] != 0x77 || back[8 - al + len] != 0x77)
			bad++;
		/* in place */
		rc = xchachapoly_open(c2 + al, c2 + al, len, t2, ad, adlen, key,
				      nonce);
		if (rc != 0 || memcmp(c2 + al, m + al, len) != 0)
			bad++;
		/* forgeries: output (in place: the ciphertext) untouched */
		for (int f = 0; f < 3; f++) {
			uint8_t tt[16];

			memcpy(c2 + al, c1, len);
			memcpy(tt, t1, 16);
			if (f == 0 && len > 0)
				c2[al + th_rand32() % len] ^= 0x04;
			else if (f == 1 && adlen > 0)
				ad[th_rand32() % adlen] ^= 0x10;
			else
				tt[th_rand32() % 16] ^= 0x01;
			memset(back, 0x77, sizeof(back));
			if (xchachapoly_open(back + 1, c2 + al, len, tt, ad,
					     adlen, key, nonce) != -1)
				bad++;
			for (size_t i = 0; i < sizeof(back); i++)
				if (back[i] != 0x77) {
					bad++;
					break;
				}
			memcpy(back, c2 + al, len);
			if (xchachapoly_open(c2 + al, c2 + al, len, tt, ad,
					     adlen, key, nonce) != -1 ||
			    memcmp(back, c2 + al, len) != 0)
				bad++;
		}
	}
	th_check(bad == 0,
		 "%s: seal/open == ref composition, %d lengths 0..%d, odd "
		 "alignments, disjoint and in place, forged ciphertext/AD/tag "
		 "rejected with the output untouched",
		 kname, cases, OPENLEN);
}

/*
 * Paths this CPU does not take by default, run by hiding a feature:
 * the AVX2 seal and open bodies have a MULX (BMI2) Poly1305 and a MUL
 * one, and this CPU runs the first; the avx512 level uses its stitched
 * bodies only without IFMA (with IFMA, ChaCha20 then the IFMA Poly1305
 * measured as fast). Run the AEAD tests again with the bit masked, then
 * restore the mask and the choice.
 */
static void test_without(const struct dispatch_kernel *k, unsigned bit,
			 const char *bitname)
{
	unsigned before = cpu_masked();
	char name[64];

	if (!(cpu_features() & bit)) {
		th_skip("%s: %s absent or masked: that path ran above", k->name,
			bitname);
		return;
	}
	snprintf(name, sizeof(name), "%s without %s", k->name, bitname);
	cpu_mask(bit);
	if (dispatch_force(k->name) != 0) {
		th_fail("%s: dispatch_force failed", name);
	} else {
		test_wycheproof(name, "chacha20_poly1305_test.json", 0);
		test_wycheproof(name, "xchacha20_poly1305_test.json", 1);
		test_aead_random(name);
		test_aead_open(name);
	}
	cpu_unmask_all();
	cpu_mask(before);
	if (dispatch_force(k->name) != 0)
		th_fail("%s: dispatch_force failed after unmasking", k->name);
}

/* The dispatched HChaCha20 against the portable one. */
static void test_hchacha(const char *kname)
{
	int bad = 0;

	for (int i = 0; i < 200; i++) {
		uint8_t key[32], nonce[16], a[32], b[32];

		th_rand(key, 32);
		th_rand(nonce, 16);
		if (i == 0) {
			memset(key, 0xff, 32);
			memset(nonce, 0xff, 16);
		}
		hchacha20(a, key, nonce);
		dispatch_current()->hchacha20(b, key, nonce);
		if (memcmp(a, b, 32) != 0)
			bad++;
	}
	th_check(bad == 0, "%s: dispatched HChaCha20 == portable (200 cases)",
		 kname);
}

/* Empty text and AD passed as NULL, as callers may do. */
static void test_aead_null(const char *kname)
{
	uint8_t key[32], nonce[24], t1[16], t2[16];
	int ok;

	th_rand(key, 32);
	th_rand(nonce, 24);
	ref_xseal(NULL, t1, NULL, 0, NULL, 0, key, nonce);
	xchachapoly_seal(NULL, t2, NULL, 0, NULL, 0, key, nonce);
	ok = memcmp(t1, t2, 16) == 0 &&
	     xchachapoly_open(NULL, NULL, 0, t1, NULL, 0, key, nonce) == 0;
	t1[0] ^= 1;
	ok = ok &&
	     xchachapoly_open(NULL, NULL, 0, t1, NULL, 0, key, nonce) == -1;
	th_check(ok, "%s: AEAD with empty NULL text and AD", kname);
}

/* poly1305_fast vs poly1305 with random splits, plus carry stressors. */
static void test_poly(void)
{
	static uint8_t msg[1100];
	int bad = 0, cases = 0;
	size_t maxlen = quick ? 300 : 1100;

	for (size_t len = 0; len <= maxlen; len += (len < 300 ? 1 : 17)) {
		uint8_t key[32], t1[16], t2[16];
		struct poly1305_fast st;
		size_t off = 0;
		int kind = (int)(len % 5);

		th_rand(key, 32);
		th_rand(msg, len);
		if (kind == 1) { /* maximal r and s, all-ones text */
			memset(key, 0xff, 32);
			memset(msg, 0xff, len);
		} else if (kind == 2) {
			memset(msg, 0xff, len);
		}
		poly1305_mac(t1, msg, len, key);
		poly1305_fast_init(&st, key);
		while (off < len) {
			size_t n = (size_t)(th_rand32() % 40);

			if (n > len - off)
				n = len - off;
			poly1305_fast_update(&st, msg + off, n);
			off += n;
		}
		poly1305_fast_update(&st, msg, 0);
		poly1305_fast_final(&st, t2);
		cases++;
		if (memcmp(t1, t2, 16) != 0)
			bad++;
	}
	th_check(bad == 0,
		 "poly1305-64 == portable poly1305, %d messages, random "
		 "splits, all-ones keys and texts",
		 cases);
}

/* RFC 8439 2.5.2 Poly1305 vector through poly1305_fast. */
static void test_poly_kat(void)
{
	static const char msg[] = "Cryptographic Forum Research Group";
	uint8_t key[32], want[16], tag[16];
	struct poly1305_fast st;

	th_unhex(key, 32,
		 "85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149"
		 "f51b");
	th_unhex(want, 16, "a8061dc1305136c6c22b8baf0c0127a9");
	poly1305_fast_init(&st, key);
	poly1305_fast_update(&st, (const uint8_t *)msg, sizeof(msg) - 1);
	poly1305_fast_final(&st, tag);
	th_check(memcmp(tag, want, 16) == 0, "poly1305-64: RFC 8439 2.5.2");
}

/* Poly1305 with a vector bulk kernel (name: poly1305-avx2 or
 * poly1305-ifma) against the portable one: every length 0..2100 (quick: a
 * stride), random splits or one update of the whole text (runs of up to
 * 131 blocks: the 16-block loop and the tail), all-ones texts, r with every
 * clamp bit set and all-ones keys. */
static void test_poly_vec(const char *name, poly1305_blocks_fn fn,
			  const char *need)
{
	static uint8_t msg[MAXLEN];
	size_t step = quick ? 37 : 1;
	int bad = 0, cases = 0;

	if (fn == NULL) {
		th_skip("%s: not run (CPU lacks %s or VCRYPTFS_IMPL capped "
			"it)",
			name, need);
		return;
	}
	for (size_t len = 0; len <= MAXLEN; len += step) {
		uint8_t key[32], t1[16], t2[16];
		struct poly1305_fast st;
		size_t off = 0;
		int kind = (int)(len % 7);

		th_rand(key, 32);
		th_rand(msg, len);
		if (kind == 1) {
			memset(key, 0xff, 32);
			memset(msg, 0xff, len);
		} else if (kind == 2) {
			memset(msg, 0xff, len);
		} else if (kind == 3) {
			memset(key, 0xff, 16);
		}
		poly1305_mac(t1, msg, len, key);
		poly1305_fast_init(&st, key);
		poly1305_fast_use(&st, fn);
		while (off < len) {
			/* mostly long runs, so the vector path is taken */
			size_t n = kind == 4 || kind == 1
					   ? len
					   : (size_t)(th_rand32() % 700);

			if (n > len - off)
				n = len - off;
			poly1305_fast_update(&st, msg + off, n);
			off += n;
		}
		poly1305_fast_final(&st, t2);
		cases++;
		if (memcmp(t1, t2, 16) != 0)
			bad++;
	}
	th_check(bad == 0,
		 "%s == portable poly1305, %d messages, random "
		 "splits, all-ones keys and texts",
		 name, cases);
}

/* The bulk kernel called directly on 0..160 blocks against the scalar
 * block loop, h entering at the top of poly1305/x64.h's bounds (h0 < 2^44,
 * h1 < 2^44 + 2^8, h2 < 2^42) or random, r random or with every clamp bit
 * set; the two states are compared through poly1305_fast_final. */
static void test_poly_vec_blocks(const char *name, poly1305_blocks_fn fn)
{
	static uint8_t msg[160 * 16];
	int bad = 0, cases = 0;

	if (fn == NULL)
		return; /* test_poly_vec reported the SKIP */
	for (size_t n = 0; n <= 160; n++) {
		for (int kind = 0; kind < 3; kind++) {
			uint8_t key[32], t1[16], t2[16];
			struct poly1305_fast a, b;

			th_rand(key, 32);
			th_rand(msg, 16 * n);
			if (kind > 0) {
				memset(key, 0xff, 16);
				memset(msg, 0xff, 16 * n);
			}
			poly1305_fast_init(&a, key);
			if (kind == 2) {
				a.h[0] = (1ULL << 44) - 1;
				a.h[1] = (1ULL << 44) + (1ULL << 8) - 1;
				a.h[2] = (1ULL << 42) - 1;
			} else {
				a.h[0] = th_rand32() & 0xfffffffffffULL;
				a.h[1] = ((uint64_t)th_rand32() << 12) ^
					 th_rand32();
				a.h[2] = th_rand32();
			}
			b = a;
			fn(a.h, a.r, msg, n);
			p64_blocks(b.h, b.r, msg, n);
			poly1305_fast_final(&a, t1);
			poly1305_fast_final(&b, t2);
			cases++;
			if (memcmp(t1, t2, 16) != 0)
				bad++;
		}
	}
	th_check(bad == 0,
		 "%s blocks == scalar blocks, %d runs of 0..160 blocks, h at "
		 "its bounds, r with every clamp bit set, all-ones blocks",
		 name, cases);
}

/* The stitched ChaCha20+Poly1305 seal step against its two halves. */
static void test_stitched(const struct dispatch_kernel *k)
{
	static uint8_t m[MAXLEN + 600], c1[MAXLEN + 600], c2[MAXLEN + 600];
	chacha20_poly_fn fn = dispatch_stitched_get(k);
	size_t step = quick ? 97 : 3;
	int bad = 0, cases = 0;

	if (fn == NULL) {
		th_skip("%s: stitched ChaCha20+Poly1305 not run (CPU lacks it "
			"or VCRYPTFS_IMPL capped it)",
			k->name);
		return;
	}
	for (size_t len = 0; len <= MAXLEN + 512; len += step) {
		uint8_t key[32], nonce[12], otk[32], t1[16], t2[16];
		struct poly1305_fast a, b;
		uint32_t ctr = len % 5 == 0 ? 0xfffffffdU : th_rand32();
		uint32_t n1, n2;

		th_rand(key, 32);
		th_rand(nonce, 12);
		th_rand(otk, 32);
		th_rand(m, len);
		poly1305_fast_init(&a, otk);
		poly1305_fast_init(&b, otk);
		n1 = chacha20_xor(c1, m, len, key, ctr, nonce);
		poly1305_fast_update(&a, c1, len);
		memcpy(c2, m, len);
		n2 = fn(c2, c2, len, key, ctr, nonce, &b);
		poly1305_fast_final(&a, t1);
		poly1305_fast_final(&b, t2);
		cases++;
		if (n1 != n2 || memcmp(c1, c2, len) != 0 ||
		    memcmp(t1, t2, 16) != 0)
			bad++;
	}
	th_check(bad == 0,
		 "%s: stitched ChaCha20+Poly1305 == separate, %d lengths "
		 "0..%d, in place, counter wrap",
		 k->name, cases, MAXLEN + 512);
}

/* The Poly1305 table (dispatch_poly_list): every entry with a blocks
 * function against the portable Poly1305 (the portable entry is the
 * proved poly1305_pad16 itself). */
static void test_polys(void)
{
	const struct dispatch_poly *t;
	size_t n;

	test_poly_kat();
	test_poly();
	t = dispatch_poly_list(&n);
	for (size_t i = 0; i < n; i++) {
		char name[48], need[64];
		poly1305_blocks_fn fn = dispatch_poly_get(&t[i]);

		if (t[i].get == NULL)
			continue;
		snprintf(name, sizeof(name), "poly1305-%s", t[i].name);
		cpu_feature_names(t[i].needs, need, sizeof(need));
		test_poly_vec(name, fn, need);
		test_poly_vec_blocks(name, fn);
	}
}

/* The HChaCha20 table (dispatch_hchacha_list): every entry against the
 * proved hchacha20, called directly (test_hchacha checks the dispatched
 * one per level). */
static void test_hchacha_table(void)
{
	size_t n;
	const struct dispatch_hchacha *t = dispatch_hchacha_list(&n);
	for (size_t i = 0; i < n; i++) {
		hchacha20_fn fn = dispatch_hchacha_get(&t[i]);

		if (fn == NULL) {
			/* tests/avx512emu runs the avx512 one on any CPU */
			printf("hchacha20-%s: not run, the CPU lacks it\n",
			       t[i].name);
			continue;
		}
		th_check(hchacha_mismatches(fn, 200) == 0,
			 "hchacha20-%s == hchacha20 (200 cases)", t[i].name);
	}
}

/* blocks per SIMD step of the ChaCha20 kernel of level l */
static size_t level_step(enum dispatch_level l)
{
	size_t n;
	const struct dispatch_kernel *k = dispatch_list(&n);

	for (size_t i = 0; i < n; i++)
		if (k[i].level == l)
			return 64 * (size_t)k[i].blocks;
	return 64;
}

/* finish a body's MAC as aead/kern.c does: pad16(c), lengths, tag */
static void body_finish(struct poly1305_fast *mac, uint8_t tag[16],
			size_t adlen, size_t len)
{
	static const uint8_t zeros16[16];
	uint8_t lens[16];

	poly1305_fast_update(mac, zeros16, (16 - len % 16) % 16);
	store64_le(lens, (uint64_t)adlen);
	store64_le(lens + 8, (uint64_t)len);
	poly1305_fast_update(mac, lens, 16);
	poly1305_fast_final(mac, tag);
}

/* The bodies table (dispatch_body_list): every entry the CPU runs, its
 * seal and open bodies called directly (not through the choice: the
 * avx512 ones too on an IFMA CPU, where the level does not use them)
 * against ref_seal, lengths from one SIMD step of the level to
 * KERN_OPEN_MAX (quick: a stride), odd alignments, seal in place. */
static void test_body_table(void)
{
	static uint8_t m[4096 + 8], c1[4096 + 8], c2[4096 + 8], back[4096 + 8];
	size_t n;
	const struct dispatch_body *t = dispatch_body_list(&n);
	for (size_t i = 0; i < n; i++) {
		chachapoly_body_fn seal = t[i].seal(), open = t[i].open();
		size_t step = quick ? 251 : 13, lo = level_step(t[i].level);
		int bad = 0, cases = 0;

		if (seal == NULL || open == NULL) {
			char need[64];

			th_skip("body-%s: not run (CPU lacks %s or "
				"VCRYPTFS_IMPL capped it)",
				t[i].name,
				cpu_feature_names(t[i].needs, need,
						  sizeof(need)));
			continue;
		}
		for (size_t len = lo; len <= 4096 && bad < 5; len += step) {
			uint8_t key[32], nonce[12], ad[40], t1[16], t2[16],
				t3[16];
			size_t adlen = len % 41, al = 1 + len % 7;
			struct poly1305_fast mac;

			th_rand(key, 32);
			th_rand(nonce, 12);
			th_rand(ad, adlen);
			th_rand(m + al, len);
			ref_seal(c1, t1, m + al, len, ad, adlen, key, nonce);
			memcpy(c2 + al, m + al, len);
			seal(c2 + al, c2 + al, len, ad, adlen, key, nonce,
			     &mac);
			body_finish(&mac, t2, adlen, len);
			memset(back, 0x5a, sizeof(back));
			open(back + 8 - al, c2 + al, len, ad, adlen, key, nonce,
			     &mac);
			body_finish(&mac, t3, adlen, len);
			cases++;
			if (memcmp(c1, c2 + al, len) != 0 ||
			    memcmp(t1, t2, 16) != 0 ||
			    memcmp(t1, t3, 16) != 0 ||
			    memcmp(back + 8 - al, m + al, len) != 0 ||
			    back[7 - al] != 0x5a || back[8 - al + len] != 0x5a)
				bad++;
		}
		th_check(bad == 0,
			 "body-%s: seal and open bodies == ref ChaCha20-"
			 "Poly1305, %d lengths %zu..4096",
			 t[i].name, cases, lo);
	}
}

/* The lookup rules: what each level takes from each table (as dispatch.c
 * documents them), and that dispatch_force puts exactly that in the
 * choice. */
static void test_lookup(void)
{
	size_t n;
	const struct dispatch_kernel *k = dispatch_list(&n);
	const struct dispatch_kernel *was = dispatch_current()->kernel;

	for (size_t i = 0; i < n; i++) {
		enum dispatch_level l = k[i].level;
		const struct dispatch_hchacha *h = dispatch_hchacha_for(l);
		const struct dispatch_poly *p = dispatch_poly_for(l);
		const struct dispatch_body *b = dispatch_body_for(l);
		int ifma = l == DISPATCH_AVX512 && poly1305_ifma_get() != NULL;
		const char *pw = ifma ? "ifma"
				 : l >= DISPATCH_AVX2 && poly1305_avx2_get()
					 ? "avx2"
					 : "portable";
		int ok;

		const char *hw =
			l == DISPATCH_PORTABLE ? "portable"
			: l == DISPATCH_AVX512 && hchacha20_avx512_get() != NULL
				? "avx512"
				: "fast";

		ok = strcmp(h->name, hw) == 0 && strcmp(p->name, pw) == 0 &&
		     (b == NULL ||
		      (b->level == l && strcmp(b->name, k[i].name) == 0)) &&
		     (l != DISPATCH_PORTABLE || b == NULL);
		/* a level the CPU runs has its bodies; avx512 has them with
		 * IFMA (the IFMA Poly1305 inside the rounds) or with BMI2 (the
		 * stitched radix-2^64 ones) */
		if (dispatch_kernel_get(&k[i]) != NULL)
			ok = ok &&
			     (b != NULL) == (l != DISPATCH_PORTABLE &&
					     (l != DISPATCH_AVX512 || ifma ||
					      (cpu_features() & CPU_BMI2)));
		if (ok && dispatch_force(k[i].name) == 0) {
			const struct dispatch_choice *ch = dispatch_current();

			ok = ch->kernel == &k[i] && ch->hkernel == h &&
			     ch->hchacha20 == dispatch_hchacha_get(h) &&
			     ch->pkernel == p &&
			     ch->poly_blocks == dispatch_poly_get(p) &&
			     ch->bkernel == b &&
			     ch->body == (b != NULL ? b->seal() : NULL) &&
			     ch->open_body == (b != NULL ? b->open() : NULL);
		}
		th_check(ok, "level %s takes hchacha20-%s, poly1305-%s, %s%s",
			 k[i].name, h->name, p->name,
			 b != NULL ? "body-" : "no bodies",
			 b != NULL ? b->name : "");
	}
	(void)dispatch_force(was->name);
}

/* Every table but ChaCha20's (whose entries are the per-kernel rows). */
static void test_tables(void)
{
	test_hchacha_table();
	test_body_table();
	test_lookup();
}

/* Every test of one ChaCha20 kernel (arg: its struct dispatch_kernel). */
static void test_kernel(const void *arg)
{
	const struct dispatch_kernel *k = arg;
	chacha20_xor_fn fn = dispatch_kernel_get(k);

	if (fn == NULL) {
		char need[64];

		th_skip("%s: kernel not run (CPU lacks %s or "
			"VCRYPTFS_IMPL capped it)",
			k->name,
			cpu_feature_names(k->needs, need, sizeof(need)));
		return;
	}
	test_kat(k, fn);
	test_random(k, fn);
	test_wrap(k, fn);
	if (k->stitched_get != NULL)
		test_stitched(k);
	if (dispatch_force(k->name) != 0) {
		th_fail("%s: dispatch_force failed", k->name);
		return;
	}
	test_wycheproof(k->name, "chacha20_poly1305_test.json", 0);
	test_wycheproof(k->name, "xchacha20_poly1305_test.json", 1);
	test_aead_random(k->name);
	test_aead_open(k->name);
	test_aead_null(k->name);
	test_hchacha(k->name);
	if (k->level == DISPATCH_AVX2)
		test_without(k, CPU_BMI2, "bmi2");
	if (k->level == DISPATCH_AVX512)
		test_without(k, CPU_AVX512IFMA, "avx512ifma");
	if (dispatch_current()->body != NULL ||
	    dispatch_current()->open_body != NULL) {
		char name[64];

		/* the generic ChaCha20 + Poly1305 path of the composition
		 * (kern_poly1305_pad16 on the vector Poly1305) at lengths
		 * the bodies take by default */
		snprintf(name, sizeof(name), "%s without bodies", k->name);
		dispatch_body(0);
		test_wycheproof(name, "xchacha20_poly1305_test.json", 1);
		test_aead_random(name);
		test_aead_open(name);
		dispatch_body(1);
	}
}

int main(int argc, char **argv)
{
	const struct dispatch_kernel *list;
	const char *q = getenv("VCRYPTFS_TEST_QUICK");
	struct th_test *tests;
	char feat[128];
	size_t n;
	int av = argc;
	char **ap = argv;

	if (argc > 1 && strcmp(argv[1], "quick") == 0) {
		quick = 1;
		av = argc - 1;
		ap = argv + 1;
		ap[0] = argv[0];
	}
	if (q != NULL && strcmp(q, "1") == 0)
		quick = 1;
	dispatch_init();
	printf("cpu: %s\n",
	       cpu_feature_names(cpu_features_seen(), feat, sizeof(feat)));
	printf("chosen: %s\n", dispatch_current()->kernel->name);
	printf("poly1305: %s\n", dispatch_current()->poly1305);
	fflush(stdout);
	/* the table: "poly", then one row per kernel, named after it */
	list = dispatch_list(&n);
	tests = calloc(n + 2, sizeof(*tests));
	if (tests == NULL) {
		th_fail("test_kernels: out of memory");
		return th_exit();
	}
	tests[0].name = "poly";
	tests[0].fn = test_polys;
	tests[1].name = "tables";
	tests[1].fn = test_tables;
	for (size_t i = 0; i < n; i++) {
		tests[i + 2].name = list[i].name;
		tests[i + 2].fn_arg = test_kernel;
		tests[i + 2].arg = &list[i];
	}
	th_run(av, ap, tests, n + 2);
	free(tests);
	return th_exit();
}
