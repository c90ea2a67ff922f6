/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the format layer and its OpenSSL wrappers: Wycheproof
 * AES-GCM (16- and 12-byte IVs) and AES-SIV-CMAC (64-byte keys), base64,
 * header, sizes of FORMAT.md 4.3/4.8, EME, name/content/symlink/xattr
 * vectors of FORMAT.md 7, 14.1 and 14.2, long names, holes, tampering.
 * Run one test: test_format NAME (the name table above main; --list prints it).
 * Over 600 lines on purpose: one binary for format/ with one name table
 * (STYLE.md 7); the banner sections are its topics (Wycheproof, names,
 * content, long names, threads), sharing the volume fixtures.
 */
#include <errno.h>
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/eme.h"
#include "crypto/kdf.h"
#include "crypto/ossl_aead.h"
#include "format/b64.h"
#include "format/content.h"
#include "format/header.h"
#include "format/names.h"
#include "th.h"
#include "vec.h"

/* ------------------------------------------------------------ helpers */

static size_t unhex(uint8_t *out, size_t cap, const char *hex)
{
	long n = th_unhex(out, cap, hex);

	if (n < 0) {
		th_fail("bad hex in test: %.40s", hex);
		return 0;
	}
	return (size_t)n;
}

/* A volume with the given cipher and keys (copied into static storage). */
static struct volume mkvol(enum content_cipher c, uint32_t flags,
			   const char *ckey_hex, const char *ekey_hex)
{
	static uint8_t ck[4][64], ek[4][32];
	static int slot;
	struct volume v;

	slot = (slot + 1) % 4;
	memset(&v, 0, sizeof(v));
	v.cipher = c;
	v.flags = flags;
	v.longnamemax = 255;
	v.content_key = ck[slot];
	v.content_key_len = c == CIPHER_AES_SIV ? 64 : 32;
	if (ckey_hex != NULL)
		unhex(ck[slot], 64, ckey_hex);
	else
		th_rand(ck[slot], 64);
	if (ekey_hex != NULL)
		unhex(ek[slot], 32, ekey_hex);
	else
		th_rand(ek[slot], 32);
	v.eme_key = ek[slot];
	return v;
}

#define VOL_DEFAULT                                                            \
	(VOL_HKDF | VOL_DIRIV | VOL_EMENAMES | VOL_LONGNAMES | VOL_RAW64)

/* ------------------------------------------------------- wycheproof */

static void test_wycheproof_gcm(void)
{
	json_t *j = vec_wycheproof("aes_gcm_test.json"), *groups, *g;
	size_t gi;
	int n16 = 0, n12 = 0, bad = 0, inval = 0;

	if (j == NULL)
		return;
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
			static uint8_t msg[1024], ct[1024], m2[1024];
			static uint8_t aad[1024];
			uint8_t key[32], iv[16], tag[16];
			size_t kl = unhex(key, sizeof(key), vec_jstr(t, "key"));
			size_t il = unhex(iv, sizeof(iv), vec_jstr(t, "iv"));
			size_t al = unhex(aad, sizeof(aad), vec_jstr(t, "aad"));
			size_t ml = unhex(msg, sizeof(msg), vec_jstr(t, "msg"));
			size_t cl = unhex(ct, sizeof(ct), vec_jstr(t, "ct"));
			size_t tl = unhex(tag, sizeof(tag), vec_jstr(t, "tag"));
			int valid =
				strcmp(vec_jstr(t, "result"), "invalid") != 0;
			int orc;

			if (kl != 32 || il != (size_t)ivs / 8 || tl != 16 ||
			    cl != ml) {
				bad++;
				continue;
			}
			orc = ossl_gcm_open(m2, ct, cl, tag, al ? aad : NULL,
					    al, key, iv, il);
			if (valid) {
				static uint8_t c2[1024];
				uint8_t t2[16];

				ossl_gcm_seal(c2, t2, msg, ml, al ? aad : NULL,
					      al, key, iv, il);
				if (memcmp(c2, ct, cl) != 0 ||
				    memcmp(t2, tag, 16) != 0 || orc != 0 ||
				    memcmp(m2, msg, ml) != 0)
					bad++;
			} else {
				inval++;
				if (orc != -1)
					bad++;
			}
			if (il == 16)
				n16++;
			else
				n12++;
		}
	}
	th_check(bad == 0 && n16 > 10 && n12 > 50,
		 "wycheproof aes_gcm: %d 16-byte-IV and %d 12-byte-IV cases "
		 "(%d invalid rejected), %d wrong",
		 n16, n12, inval, bad);
	json_decref(j);
}

static void test_wycheproof_siv(void)
{
	json_t *j = vec_wycheproof("aead_aes_siv_cmac_test.json"), *groups, *g;
	size_t gi;
	int n = 0, bad = 0, inval = 0;

	if (j == NULL)
		return;
	groups = json_object_get(j, "testGroups");
	json_array_foreach(groups, gi, g)
	{
		json_t *tests = json_object_get(g, "tests"), *t;
		size_t ti;

		if (json_integer_value(json_object_get(g, "keySize")) != 512)
			continue;
		json_array_foreach(tests, ti, t)
		{
			uint8_t key[64], iv[64], aad[1024], msg[1024], ct[1024],
				tag[16], m2[1024];
			size_t kl = unhex(key, sizeof(key), vec_jstr(t, "key"));
			size_t il = unhex(iv, sizeof(iv), vec_jstr(t, "iv"));
			size_t al = unhex(aad, sizeof(aad), vec_jstr(t, "aad"));
			size_t ml = unhex(msg, sizeof(msg), vec_jstr(t, "msg"));
			size_t cl = unhex(ct, sizeof(ct), vec_jstr(t, "ct"));
			size_t tl = unhex(tag, sizeof(tag), vec_jstr(t, "tag"));
			int valid =
				strcmp(vec_jstr(t, "result"), "invalid") != 0;
			int orc;

			n++;
			if (kl != 64 || tl != 16 || cl != ml) {
				bad++;
				continue;
			}
			orc = ossl_siv_open(m2, ct, cl, tag, aad, al, key, iv,
					    il);
			if (valid) {
				uint8_t c2[1024], t2[16];

				ossl_siv_seal(c2, t2, msg, ml, aad, al, key, iv,
					      il);
				if ((ml > 0 && memcmp(c2, ct, cl) != 0) ||
				    memcmp(t2, tag, 16) != 0 || orc != 0 ||
				    (ml > 0 && memcmp(m2, msg, ml) != 0))
					bad++;
			} else {
				inval++;
				if (orc != -1)
					bad++;
			}
		}
	}
	th_check(bad == 0 && n >= 300,
		 "wycheproof aead_aes_siv_cmac 512-bit keys: %d cases (%d "
		 "invalid rejected), %d wrong",
		 n, inval, bad);
	json_decref(j);
}

/* ------------------------------------------------------------ base64 */

static void test_b64(void)
{
	static const char *const raw[] = { "",	      "Zg",	"Zm8",
					   "Zm9v",    "Zm9vYg", "Zm9vYmE",
					   "Zm9vYmFy" };
	static const char *const pad[] = {
		"", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"
	};
	static const char *const bad_raw[] = {
		"Z",	"Zh",	"Zm9",	"Zm8=", "Zg==", "Zm9v\n",
		"Zm+v", "Zm/v", "Zm v", "Z\0g", "====", "Zm9vY"
	};
	static const char *const bad_pad[] = { "Zg",   "Zg=",  "Zh==", "Zm9=",
					       "Z===", "Zg=A", "=Zg=", "Zm+v" };
	uint8_t in[300], out[300];
	char enc[500];
	size_t ol = 0;
	int ok = 1;

	for (size_t i = 0; i < 7; i++) {
		b64_encode(enc, (const uint8_t *)"foobar", i, B64_URL_RAW);
		ok &= strcmp(enc, raw[i]) == 0;
		b64_encode(enc, (const uint8_t *)"foobar", i, B64_URL_PAD);
		ok &= strcmp(enc, pad[i]) == 0;
		ok &= b64_decode(out, sizeof(out), &ol, raw[i], strlen(raw[i]),
				 B64_URL_RAW) == 0 &&
		      ol == i && memcmp(out, "foobar", i) == 0;
		ok &= b64_decode(out, sizeof(out), &ol, pad[i], strlen(pad[i]),
				 B64_URL_PAD) == 0 &&
		      ol == i;
	}
	th_check(ok, "b64: RFC 4648 section 10 vectors, raw and padded");

	ok = 1;
	for (size_t n = 0; n < 260; n++) {
		static const unsigned fl[] = { B64_URL_RAW, B64_URL_PAD,
					       B64_STD_PAD, B64_STD };

		th_rand(in, n);
		for (int f = 0; f < 4; f++) {
			b64_encode(enc, in, n, fl[f]);
			ok &= strlen(enc) == b64_enc_len(n, fl[f]);
			ok &= b64_decode(out, sizeof(out), &ol, enc,
					 strlen(enc), fl[f]) == 0 &&
			      ol == n && memcmp(in, out, n) == 0;
			if (n > 0)
				ok &= b64_decode(out, n - 1, &ol, enc,
						 strlen(enc), fl[f]) == -ERANGE;
		}
	}
	th_check(ok, "b64: round trip 0..259 bytes, 4 variants, cap checked");

	ok = 1;
	for (size_t i = 0; i < sizeof(bad_raw) / sizeof(bad_raw[0]); i++) {
		size_t l = strlen(bad_raw[i]);

		if (i == 9)
			l = 3; /* embedded NUL */
		ok &= b64_decode(out, sizeof(out), &ol, bad_raw[i], l,
				 B64_URL_RAW) == -EINVAL;
	}
	for (size_t i = 0; i < sizeof(bad_pad) / sizeof(bad_pad[0]); i++)
		ok &= b64_decode(out, sizeof(out), &ol, bad_pad[i],
				 strlen(bad_pad[i]), B64_URL_PAD) == -EINVAL;
	/* every non-alphabet byte is rejected */
	for (int c = 0; c < 256; c++) {
		char s[4] = { 'A', 'A', 'A', (char)c };
		int alpha = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
			    (c >= '0' && c <= '9') || c == '-' || c == '_';

		ok &= (b64_decode(out, sizeof(out), &ol, s, 4, B64_URL_RAW) ==
		       0) == alpha;
	}
	th_check(ok, "b64: strict decoding rejects non-canonical tails, "
		     "padding errors, CR/LF, foreign alphabet, every bad byte");
}

/* ------------------------------------------------------------ header */

static void test_header(void)
{
	uint8_t id[16], h[18], got[16], keep[16];
	int ok;

	th_rand(id, 16);
	header_build(h, id);
	ok = h[0] == 0 && h[1] == 2 && header_parse(got, h) == 0 &&
	     memcmp(got, id, 16) == 0;
	memset(keep, 0xAA, 16);
	memcpy(got, keep, 16);
	h[1] = 1;
	ok &= header_parse(got, h) == -EIO;
	h[1] = 2;
	h[0] = 1;
	ok &= header_parse(got, h) == -EIO;
	memset(h, 0, 18);
	ok &= header_parse(got, h) == -EIO;
	h[1] = 2;
	ok &= header_parse(got, h) == -EIO; /* zero file ID */
	ok &= memcmp(got, keep, 16) == 0;
	th_check(ok, "header: build/parse; rejects zero, version 1/258, "
		     "zero file ID without writing");
}

/* ------------------------------------------------------------- sizes */

static void test_sizes(void)
{
	static const struct {
		enum content_cipher c;
		uint64_t p, cs;
	} t[] = {
		{ CIPHER_AES_GCM, 0, 0 },
		{ CIPHER_AES_GCM, 1, 51 },
		{ CIPHER_AES_SIV, 1, 51 },
		{ CIPHER_XCHACHA, 1, 59 },
		{ CIPHER_AES_GCM, 5000, 5082 },
		{ CIPHER_AES_SIV, 5000, 5082 },
		{ CIPHER_XCHACHA, 5000, 5098 },
		{ CIPHER_AES_GCM, 13, 63 },
		{ CIPHER_XCHACHA, 13, 71 },
		{ CIPHER_AES_GCM, 4096, 4146 },
		{ CIPHER_AES_GCM, 12291, 12437 },
		{ CIPHER_XCHACHA, 4097, 4195 },
	};
	int ok = 1;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		ok &= content_plain_to_cipher_size(t[i].c, t[i].p) == t[i].cs;
		ok &= content_cipher_to_plain_size(t[i].c, t[i].cs) == t[i].p;
	}
	th_check(ok, "sizes: FORMAT.md 4.3 examples (1 = 51/59, 5000 = "
		     "5082/5098, 13 = 63/71, sparse 12291 = 12437)");
	ok = content_cipher_to_plain_size(CIPHER_XCHACHA, 4174) == 4097 &&
	     content_cipher_to_plain_size(CIPHER_AES_GCM, 18) == 0 &&
	     content_cipher_to_plain_size(CIPHER_AES_GCM, 5) == 0 &&
	     content_cipher_to_plain_size(CIPHER_AES_GCM, 19) == 1 &&
	     content_cipher_to_plain_size(CIPHER_AES_GCM, 50) == 1 &&
	     content_cipher_to_plain_size(CIPHER_AES_GCM, 18 + 4128 + 1) ==
		     4097;
	th_check(ok, "sizes: odd tails (4174-byte XChaCha file -> 4097, "
		     "header-only -> 0, short tail -> 1 byte)");
	ok = 1;
	for (uint64_t p = 0; p < 3 * 4096 + 2; p++)
		for (int c = 1; c <= 3; c++)
			ok &= content_cipher_to_plain_size(
				      (enum content_cipher)c,
				      content_plain_to_cipher_size(
					      (enum content_cipher)c, p)) == p;
	ok &= content_block_cipher_off(CIPHER_AES_GCM, 2) == 18 + 2 * 4128 &&
	      content_block_cipher_off(CIPHER_XCHACHA, 1) == 18 + 4136 &&
	      content_block_no(4095) == 0 && content_block_no(4096) == 1;
	th_check(ok, "sizes: plain->cipher->plain identity for 0..12289, "
		     "block offsets");
}

/* ------------------------------------------------------------ vectors */

static void test_eme_vector(void)
{
	uint8_t key[32], zero[16] = { 0 }, l[16], iv[16], p[16], c[16],
			 want[16];
	struct volume v = mkvol(CIPHER_AES_GCM, VOL_DEFAULT,
				"d03d82292090fc452a259c6d36396862e3f805772977a8"
				"a0fb2353475238cb0b",
				"47678cb9811cb218cce689a6b4c0ef6edba96eece33f1b"
				"3b87b094485f4a1350");
	char enc[NAMES_BUF], dec[NAMES_BUF];
	size_t pl = 0;

	memcpy(key, v.eme_key, 32);
	ossl_aes256_ecb(l, zero, 1, key, 0);
	unhex(want, 16, "ffe6c491da26babe23157cff7db9d22e");
	th_check(memcmp(l, want, 16) == 0, "14.1: AES-256(EME key, 0) vector");
	unhex(iv, 16, "73bab98bfd6081c7dbfdc915dea9653d");
	names_pad16(p, &pl, (const uint8_t *)"hello.txt", 9);
	unhex(want, 16, "68656c6c6f2e74787407070707070707");
	th_check(pl == 16 && memcmp(p, want, 16) == 0,
		 "14.1: pad16(hello.txt)");
	eme_transform(c, p, 16, key, iv, 0);
	unhex(want, 16, "213ba63082774562302b221cb05a7a03");
	th_check(memcmp(c, want, 16) == 0, "14.1: EME(hello.txt) bytes");
	th_check(names_encrypt(&v, iv, "hello.txt", enc, sizeof(enc)) == 0 &&
			 strcmp(enc, "ITumMIJ3RWIwKyIcsFp6Aw") == 0,
		 "14.1: name hello.txt -> ITumMIJ3RWIwKyIcsFp6Aw");
	th_check(names_decrypt(&v, iv, "ITumMIJ3RWIwKyIcsFp6Aw", dec,
			       sizeof(dec)) == 0 &&
			 strcmp(dec, "hello.txt") == 0,
		 "14.1: name decrypts back");
	/* padded base64 variant of the same name */
	v.flags &= ~VOL_RAW64;
	th_check(names_encrypt(&v, iv, "hello.txt", enc, sizeof(enc)) == 0 &&
			 strcmp(enc, "ITumMIJ3RWIwKyIcsFp6Aw==") == 0 &&
			 names_decrypt(&v, iv, "ITumMIJ3RWIwKyIcsFp6Aw", dec,
				       sizeof(dec)) == -EIO,
		 "names: padded base64 without Raw64; raw refused there");
}

static void test_content_vectors(void)
{
	struct volume g = mkvol(CIPHER_AES_GCM, VOL_DEFAULT,
				"d03d82292090fc452a259c6d36396862e3f805772977a8"
				"a0fb2353475238cb0b",
				NULL);
	struct volume x = mkvol(CIPHER_XCHACHA, VOL_DEFAULT,
				"d95c8f8414fa3ccbc1940e473090e974b8af498382a3bd"
				"e5754bf0ae981310a3",
				NULL);
	uint8_t f[128], id[16], out[64], re[128];
	size_t fl, ol = 0;

	fl = unhex(f, sizeof(f),
		   "00020b88440bc4b933b83c7531294e4b4669"
		   "39cc1002ab2dbf92feb404ed777161bb"
		   "d620377b71fee7fa3aa4c1ad25"
		   "b0ab0beb48ad4ebb9282941b38a7a4a2");
	th_check(fl == 63 && header_parse(id, f) == 0 &&
			 content_block_open(&g, out, &ol, f + 18, fl - 18, 0,
					    id) == 0 &&
			 ol == 13 && memcmp(out, "hello, world\n", 13) == 0,
		 "14.1: AES-GCM hello.txt block decrypts");
	th_check(content_block_seal(&g, re, out, 13, 0, id, f + 18) == 0 &&
			 memcmp(re, f + 18, 45) == 0,
		 "14.1: AES-GCM re-seal with on-disk nonce is identical");
	th_check(content_block_open(&g, out, &ol, f + 18, fl - 18, 1, id) ==
			 -EIO,
		 "14.1: wrong block number (AAD) -> EIO");
	fl = unhex(f, sizeof(f),
		   "00025ec7ac1ef95eecb2dc1c22b4fc861c80"
		   "7e2a0bd95c7bb5704c4d16f98f19df993df2a04beb741e81"
		   "ba9e8f270be92f16ad27519d65"
		   "d70a4183c2b21891e9270c24da2a84cf");
	th_check(fl == 71 && header_parse(id, f) == 0 &&
			 content_block_open(&x, out, &ol, f + 18, fl - 18, 0,
					    id) == 0 &&
			 ol == 13 && memcmp(out, "hello, world\n", 13) == 0,
		 "14.2: XChaCha20-Poly1305 hello.txt block decrypts");
	th_check(content_block_seal(&x, re, out, 13, 0, id, f + 18) == 0 &&
			 memcmp(re, f + 18, 53) == 0,
		 "14.2: XChaCha re-seal with on-disk nonce is identical");
}

static void test_symlink_vector(void)
{
	struct volume g = mkvol(CIPHER_AES_GCM, VOL_DEFAULT,
				"d03d82292090fc452a259c6d36396862e3f805772977a8"
				"a0fb2353475238cb0b",
				NULL);
	static const char enc[] =
		"2Y8ujngb1V5qM95FSJ9M215kQFeCoQmrCPbZYKk4tF0i5LQjJ1JrWVM";
	uint8_t t[64], nonce[16];
	char re[128];
	size_t tl = 0;

	th_check(names_symlink_decrypt(&g, t, sizeof(t), &tl, enc) == 0 &&
			 tl == 9 && memcmp(t, "hello.txt", 10) == 0,
		 "14.1: symlink target decrypts to hello.txt");
	unhex(nonce, 16, "d98f2e8e781bd55e6a33de45489f4cdb");
	th_check(names_symlink_encrypt(&g, re, sizeof(re),
				       (const uint8_t *)"hello.txt", 9,
				       nonce) == 0 &&
			 strcmp(re, enc) == 0,
		 "14.1: symlink re-encrypts to the same text");
}

static void test_longname_vector(void)
{
	struct volume v = mkvol(CIPHER_AES_GCM, VOL_DEFAULT, NULL,
				"47678cb9811cb218cce689a6b4c0ef6edba96eece33f1b"
				"3b87b094485f4a1350");
	uint8_t iv[16], h[32], want[32];
	char name[256], enc[NAMES_BUF], hashed[NAMES_BUF], dec[NAMES_BUF];
	size_t n = 0;

	unhex(iv, 16, "73bab98bfd6081c7dbfdc915dea9653d");
	n += (size_t)snprintf(name, sizeof(name), "%s",
			      "this-is-a-very-long-file-name-");
	for (int i = 0; i < 16; i++)
		n += (size_t)snprintf(name + n, sizeof(name) - n, "%s",
				      "abcdefghij");
	snprintf(name + n, sizeof(name) - n, ".txt");
	th_check(strlen(name) == 194 &&
			 names_encrypt(&v, iv, name, enc, sizeof(enc)) == 0 &&
			 strlen(enc) == 278 &&
			 names_needs_long(&v, strlen(enc)),
		 "14.1: 194-byte name -> 278 characters, hashed");
	ossl_sha256(h, (const uint8_t *)enc, strlen(enc));
	unhex(want, 32,
	      "d13556a6837cce7d54d31ba0ec0b7c2d29f489b2e97aa2c5cd374138e604a87"
	      "5");
	th_check(memcmp(h, want, 32) == 0 &&
			 names_long_hash(&v, enc, hashed, sizeof(hashed)) ==
				 0 &&
			 strcmp(hashed, "gocryptfs.longname."
					"0TVWpoN8zn1U0xug7At8LSn0ibLpeqLFzTdBOO"
					"YEqHU") == 0,
		 "14.1: long-name hash vector (SHA-256 of the base64 text)");
	th_check(names_is_long(hashed) && !names_is_long_namefile(hashed) &&
			 names_is_long_namefile("gocryptfs.longname.x.name") &&
			 names_hidden(&v, "gocryptfs.longname.x.name", 0) &&
			 !names_hidden(&v, hashed, 0) &&
			 names_decrypt(&v, iv, enc, dec, sizeof(dec)) == 0 &&
			 strcmp(dec, name) == 0,
		 "names: long-name classification, .name hidden, decrypt");
}

static void test_xattr_vector(void)
{
	struct volume g = mkvol(CIPHER_AES_GCM, VOL_DEFAULT,
				"d03d82292090fc452a259c6d36396862e3f805772977a8"
				"a0fb2353475238cb0b",
				"47678cb9811cb218cce689a6b4c0ef6edba96eece33f1b"
				"3b87b094485f4a1350");
	uint8_t val[64], out[64], re[64];
	char s[NAMES_BUF], d[NAMES_BUF];
	size_t vl, ol = 0, rl = 0;

	th_check(names_xattr_name_encrypt(&g, "user.comment", s, sizeof(s)) ==
				 0 &&
			 strcmp(s, "user.gocryptfs.Vv1BdnufhpfUcE3XxhtUwA") ==
				 0 &&
			 names_xattr_name_decrypt(&g, s, d, sizeof(d)) == 0 &&
			 strcmp(d, "user.comment") == 0,
		 "7: xattr name user.comment -> user.gocryptfs.Vv1Bdnu...");
	vl = unhex(
		val, sizeof(val),
		"117a33f644fbea28e023d9bc1eb86cd2c67c3a18c0733a94189059455457"
		"62168e7620817e0d796e");
	th_check(vl == 40 &&
			 names_xattr_value_open(&g, out, sizeof(out), &ol, val,
						vl) == 0 &&
			 ol == 8 && memcmp(out, "vcryptfs", 8) == 0 &&
			 names_xattr_value_seal(&g, re, sizeof(re), &rl, out,
						ol, val) == 0 &&
			 rl == 40 && memcmp(re, val, 40) == 0,
		 "7: xattr value vector decrypts and re-seals identically");
	{
		char b64v[128];

		b64_encode(b64v, val, vl, B64_URL_RAW);
		ol = 0;
		th_check(names_xattr_value_open(&g, out, sizeof(out), &ol,
						(const uint8_t *)b64v,
						strlen(b64v)) == 0 &&
				 ol == 8 && memcmp(out, "vcryptfs", 8) == 0,
			 "7: base64-stored xattr value (old versions) opens");
		val[20] ^= 1;
		th_check(names_xattr_value_open(&g, out, sizeof(out), &ol, val,
						vl) == -EIO,
			 "7: tampered xattr value -> EIO");
	}
	th_check(
		names_xattr_name_encrypt(&g, "system.posix_acl_access", s,
					 sizeof(s)) == 0 &&
			strcmp(s, "system.posix_acl_access") == 0 &&
			names_xattr_name_decrypt(&g, "user.other", d,
						 sizeof(d)) == -ENOENT &&
			names_xattr_name_decrypt(&g, "trusted.x", d,
						 sizeof(d)) == -ENOENT &&
			names_xattr_value_seal(&g, re, sizeof(re), &rl, NULL, 0,
					       NULL) == 0 &&
			rl == 0,
		"7: ACL names pass through, foreign names hidden, empty value");
}

static void test_xchacha_names(void)
{
	static const char mk_hex[] = "678ed40f44831fef7e1b60a87dce50233a4105e4d"
				     "3a07eadd45782b2110dc03e";
	uint8_t mk[32], ek[32], ck[32], want[32], iv[16];
	struct volume x = mkvol(CIPHER_XCHACHA, VOL_DEFAULT, NULL, NULL);
	char enc[NAMES_BUF];

	unhex(mk, 32, mk_hex);
	unhex(want, 32,
	      "d95c8f8414fa3ccbc1940e473090e974b8af498382a3bde5754bf0ae981310a"
	      "3");
	if (kdf_hkdf_sha256(ek, 32, mk, 32, "EME filename encryption", 23) !=
		    0 ||
	    kdf_hkdf_sha256(ck, 32, mk, 32,
			    "XChaCha20-Poly1305 file content encryption",
			    42) != 0) {
		th_fail("14.2: HKDF");
		return;
	}
	th_check(memcmp(ck, want, 32) == 0, "14.2: XChaCha content key (HKDF)");
	memcpy(x.eme_key, ek, 32);
	unhex(iv, 16, "8ed0774d525a892ec7aec2b3a4c96ebc");
	th_check(names_encrypt(&x, iv, "hello.txt", enc, sizeof(enc)) == 0 &&
			 strcmp(enc, "AK0KKKR6Cb41Uav6nYg25Q") == 0,
		 "14.2: name hello.txt -> AK0KKKR6Cb41Uav6nYg25Q");
}

/* -------------------------------------------------------------- names */

static void test_names_rules(void)
{
	struct volume v = mkvol(CIPHER_AES_GCM, VOL_DEFAULT, NULL, NULL);
	uint8_t iv[16], pb[300];
	char name[300], enc[NAMES_BUF], dec[NAMES_BUF];
	size_t pl = 0;
	int ok = 1;

	th_rand(iv, 16);
	ok &= names_encrypt(&v, iv, "", enc, sizeof(enc)) == -EINVAL;
	ok &= names_encrypt(&v, iv, ".", enc, sizeof(enc)) == -EINVAL;
	ok &= names_encrypt(&v, iv, "..", enc, sizeof(enc)) == -EINVAL;
	ok &= names_encrypt(&v, iv, "a/b", enc, sizeof(enc)) == -EINVAL;
	memset(name, 'x', 256);
	name[256] = '\0';
	ok &= names_encrypt(&v, iv, name, enc, sizeof(enc)) == -ENAMETOOLONG;
	name[255] = '\0';
	ok &= names_encrypt(&v, iv, name, enc, sizeof(enc)) == 0 &&
	      strlen(enc) == 342;
	ok &= names_encrypt(&v, iv, name, enc, 100) == -ERANGE;
	th_check(ok, "names: empty . .. / rejected, 255 ok (342 chars), 256 "
		     "ENAMETOOLONG, small buffer ERANGE");

	/* FORMAT.md 5.7 length table */
	ok = 1;
	{
		static const size_t lens[][2] = {
			{ 1, 22 },    { 15, 22 },   { 16, 43 },	  { 31, 43 },
			{ 144, 214 }, { 159, 214 }, { 160, 235 }, { 175, 235 },
			{ 176, 256 }, { 191, 256 }, { 240, 342 }, { 255, 342 }
		};

		for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
			memset(name, 'n', lens[i][0]);
			name[lens[i][0]] = '\0';
			ok &= names_encrypt(&v, iv, name, enc, sizeof(enc)) ==
				      0 &&
			      strlen(enc) == lens[i][1] &&
			      names_needs_long(&v, strlen(enc)) ==
				      (lens[i][0] >= 176) &&
			      names_decrypt(&v, iv, enc, dec, sizeof(dec)) ==
				      0 &&
			      strcmp(dec, name) == 0;
		}
		v.longnamemax = 62;
		memset(name, 'n', 32);
		name[32] = '\0';
		ok &= names_encrypt(&v, iv, name, enc, sizeof(enc)) == 0 &&
		      names_needs_long(&v, strlen(enc));
		name[31] = '\0';
		ok &= names_encrypt(&v, iv, name, enc, sizeof(enc)) == 0 &&
		      !names_needs_long(&v, strlen(enc));
		v.longnamemax = 255;
	}
	th_check(ok, "names: FORMAT.md 5.7 length table; -longnamemax 62 "
		     "hashes names of 32+ bytes");

	ok = 1;
	ok &= names_unpad16(&pl, (const uint8_t *)"", 0) == -EIO;
	memset(pb, 16, 16);
	ok &= names_unpad16(&pl, pb, 16) == -EIO; /* k == len: empty name */
	memset(pb, 16, 32);
	ok &= names_unpad16(&pl, pb, 32) == 0 && pl == 16;
	pb[31] = 0;
	ok &= names_unpad16(&pl, pb, 32) == -EIO;
	pb[31] = 17;
	ok &= names_unpad16(&pl, pb, 32) == -EIO;
	memset(pb, 'a', 32);
	pb[31] = 3;
	pb[30] = 3;
	pb[29] = 4;
	ok &= names_unpad16(&pl, pb, 32) == -EIO;
	pb[29] = 3;
	ok &= names_unpad16(&pl, pb, 32) == 0 && pl == 29;
	ok &= names_unpad16(&pl, pb, 31) == -EIO;
	th_check(ok, "names: strict PKCS#7 unpad");

	/* undecryptable names: garbage, wrong IV, conflicted copies */
	ok = 1;
	names_encrypt(&v, iv, "file", enc, sizeof(enc));
	ok &= names_decrypt(&v, iv, "gocryptfs.diriv", dec, sizeof(dec)) ==
	      -EIO;
	ok &= names_decrypt(&v, iv, "ITumMIJ3RWIwKyIcsFp6Aw (conflicted copy)",
			    dec, sizeof(dec)) == -EIO;
	ok &= names_decrypt(&v, iv, "AAAA", dec, sizeof(dec)) == -EIO;
	iv[0] ^= 1;
	ok &= names_decrypt(&v, iv, enc, dec, sizeof(dec)) == -EIO;
	iv[0] ^= 1;
	ok &= names_decrypt(&v, iv, enc, dec, sizeof(dec)) == 0;
	th_check(ok, "names: garbage, conflicted copy and wrong diriv -> EIO");

	/* deterministic names: zero IV, same result everywhere */
	{
		uint8_t z[16] = { 0 };
		char e1[NAMES_BUF], e2[NAMES_BUF];
		struct volume dn = v;

		dn.flags &= ~VOL_DIRIV;
		ok = names_encrypt(&dn, z, "short", e1, sizeof(e1)) == 0 &&
		     names_encrypt(&dn, z, "short", e2, sizeof(e2)) == 0 &&
		     strcmp(e1, e2) == 0 &&
		     !names_hidden(&dn, "gocryptfs.diriv", 0) &&
		     names_hidden(&v, "gocryptfs.diriv", 0) &&
		     names_hidden(&v, "gocryptfs.conf", 1) &&
		     !names_hidden(&v, "gocryptfs.conf", 0);
		th_check(ok, "names: deterministic names, hidden/reserved "
			     "names per 5.8");
	}
	/* plaintext names */
	{
		struct volume pn =
			mkvol(CIPHER_AES_GCM, VOL_PLAINTEXTNAMES, NULL, NULL);
		char s[NAMES_BUF];
		uint8_t t[64];
		size_t tl = 0;

		ok = names_encrypt(&pn, iv, "Grüße", enc, sizeof(enc)) == 0 &&
		     strcmp(enc, "Grüße") == 0 &&
		     names_decrypt(&pn, iv, "x", dec, sizeof(dec)) == 0 &&
		     names_reserved(&pn, "gocryptfs.conf", 1) &&
		     !names_reserved(&pn, "gocryptfs.conf", 0) &&
		     !names_reserved(&v, "gocryptfs.conf", 1) &&
		     names_symlink_encrypt(&pn, s, sizeof(s),
					   (const uint8_t *)"../a", 4,
					   NULL) == 0 &&
		     strcmp(s, "../a") == 0 &&
		     names_symlink_decrypt(&pn, t, sizeof(t), &tl, s) == 0 &&
		     tl == 4 &&
		     names_xattr_name_encrypt(&pn, "user.x", s, sizeof(s)) ==
			     0 &&
		     strlen(s) == strlen("user.gocryptfs.") + 24 &&
		     s[strlen(s) - 1] == '=';
		th_check(ok, "names: PlaintextNames (names, symlinks plain; "
			     "xattr names padded base64; conf reserved)");
	}
}

/* --------------------------------------------------- content behaviour */

static void test_holes(void)
{
	static const enum content_cipher cs[] = { CIPHER_AES_GCM,
						  CIPHER_AES_SIV,
						  CIPHER_XCHACHA };
	uint8_t blk[CONTENT_MAX_CIPHER_BS], out[CONTENT_PLAIN_BS];
	uint8_t id[16];
	size_t ol = 0;
	int ok = 1;

	th_rand(id, 16);
	for (int i = 0; i < 3; i++) {
		struct volume v = mkvol(cs[i], VOL_DEFAULT, NULL, NULL);
		size_t cbs = content_cipher_bs(cs[i]);
		size_t nl = content_nonce_len(cs[i]);
		uint8_t p[100];

		memset(blk, 0, sizeof(blk));
		memset(out, 0xEE, sizeof(out));
		ok &= content_block_open(&v, out, &ol, blk, cbs, 7, id) == 0 &&
		      ol == 4096 && out[0] == 0 && out[4095] == 0;
		ok &= content_block_open(&v, out, &ol, blk, cbs - 1, 7, id) ==
		      -EIO;
		ok &= content_block_open(&v, out, &ol, blk, 60, 7, id) == -EIO;
		ok &= content_block_open(&v, out, &ol, blk, nl + 15, 0, id) ==
		      -EIO;
		/* a real block whose nonce was zeroed */
		th_rand(p, sizeof(p));
		content_block_seal(&v, blk, p, sizeof(p), 3, id, NULL);
		ok &= content_block_open(&v, out, &ol, blk, sizeof(p) + nl + 16,
					 3, id) == 0 &&
		      memcmp(out, p, sizeof(p)) == 0;
		memset(blk, 0, nl);
		ok &= content_block_open(&v, out, &ol, blk, sizeof(p) + nl + 16,
					 3, id) == -EIO;
	}
	th_check(ok, "holes: full-size zero block -> 4096 zeros; short zero "
		     "block, all-zero nonce, too short -> EIO (3 ciphers)");
}

/* Values sealed without file ID (xattrs) have no holes (issue 23 item 6):
 * a full-size zero value is EIO, a real value still opens. */
static void test_value_no_hole(void)
{
	static const enum content_cipher cs[] = { CIPHER_AES_GCM,
						  CIPHER_AES_SIV,
						  CIPHER_XCHACHA };
	uint8_t blk[CONTENT_MAX_CIPHER_BS], out[CONTENT_PLAIN_BS];
	uint8_t p[CONTENT_PLAIN_BS];
	size_t ol = 0;
	int ok = 1;

	for (int i = 0; i < 3; i++) {
		struct volume v = mkvol(cs[i], VOL_DEFAULT, NULL, NULL);
		size_t cbs = content_cipher_bs(cs[i]);

		memset(blk, 0, sizeof(blk));
		memset(out, 0xEE, sizeof(out));
		ok &= content_value_open(&v, out, &ol, blk, cbs) == -EIO &&
		      out[0] == 0xEE;
		ok &= content_value_open(&v, out, &ol, blk, 100) == -EIO;
		th_rand(p, sizeof(p));
		content_block_seal(&v, blk, p, sizeof(p), 0, NULL, NULL);
		ok &= content_value_open(&v, out, &ol, blk, cbs) == 0 &&
		      ol == sizeof(p) && memcmp(out, p, sizeof(p)) == 0;
	}
	th_check(ok, "values: a full-size zero value -> EIO (no hole rule), "
		     "a sealed 4096-byte value opens (3 ciphers)");
}

static void test_roundtrip_tamper(void)
{
	static const enum content_cipher cs[] = { CIPHER_AES_GCM,
						  CIPHER_AES_SIV,
						  CIPHER_XCHACHA };
	static const char *const cn[] = { "AES-GCM", "AES-SIV", "XChaCha" };
	static uint8_t p[4096], blk[CONTENT_MAX_CIPHER_BS],
		out[CONTENT_PLAIN_BS];
	uint8_t id[16], id2[16];

	th_rand(id, 16);
	memcpy(id2, id, 16);
	id2[15] ^= 0x80;
	for (int i = 0; i < 3; i++) {
		struct volume v = mkvol(cs[i], VOL_DEFAULT, NULL, NULL);
		size_t ov = content_overhead(cs[i]);
		static const size_t lens[] = {
			1, 2, 15, 16, 17, 100, 4095, 4096
		};
		int ok = 1, leak = 0;
		long flips = 0;

		for (size_t li = 0; li < sizeof(lens) / sizeof(lens[0]); li++) {
			size_t len = lens[li], bl = len + ov, ol = 0;
			size_t step = bl * 8 > 2048 ? bl * 8 / 509 : 1;

			th_rand(p, len);
			ok &= content_block_seal(&v, blk, p, len, 5, id,
						 NULL) == 0;
			ok &= content_block_open(&v, out, &ol, blk, bl, 5,
						 id) == 0 &&
			      ol == len && memcmp(out, p, len) == 0;
			ok &= content_block_open(&v, out, &ol, blk, bl, 4,
						 id) == -EIO;
			ok &= content_block_open(&v, out, &ol, blk, bl, 5,
						 id2) == -EIO;
			ok &= content_block_open(&v, out, &ol, blk, bl, 5,
						 NULL) == -EIO;
			ok &= content_block_open(&v, out, &ol, blk, bl - 1, 5,
						 id) == -EIO;
			for (size_t bit = 0; bit < bl * 8; bit += step) {
				blk[bit / 8] ^= (uint8_t)(1U << (bit % 8));
				memset(out, 0x55, len);
				if (content_block_open(&v, out, &ol, blk, bl, 5,
						       id) != -EIO)
					ok = 0;
				for (size_t k = 0; k < len && k < 64; k++)
					if (out[k] == p[k] && p[k] != 0 &&
					    out[k] != 0x55)
						leak++;
				blk[bit / 8] ^= (uint8_t)(1U << (bit % 8));
				flips++;
			}
		}
		th_check(ok && leak < 8,
			 "tamper %s: seal/open 1..4096 B; wrong block no, file "
			 "ID, length, and %ld single-bit flips -> EIO",
			 cn[i], flips);
	}
}

static void test_symlink_limits(void)
{
	struct volume g = mkvol(CIPHER_AES_GCM, VOL_DEFAULT, NULL, NULL);
	struct volume x = mkvol(CIPHER_XCHACHA, VOL_DEFAULT, NULL, NULL);
	struct volume s = mkvol(CIPHER_AES_SIV, VOL_DEFAULT, NULL, NULL);
	static uint8_t t[4000], back[4100];
	static char enc[4200];
	size_t bl = 0;
	int ok = 1;

	memset(t, 'a', sizeof(t));
	ok &= names_symlink_encrypt(&g, enc, sizeof(enc), t, 3039, NULL) == 0 &&
	      strlen(enc) <= 4095 &&
	      names_symlink_decrypt(&g, back, sizeof(back), &bl, enc) == 0 &&
	      bl == 3039 && memcmp(back, t, bl) == 0;
	ok &= names_symlink_encrypt(&g, enc, sizeof(enc), t, 3040, NULL) ==
	      -ENAMETOOLONG;
	ok &= names_symlink_encrypt(&x, enc, sizeof(enc), t, 3031, NULL) == 0;
	ok &= names_symlink_encrypt(&x, enc, sizeof(enc), t, 3032, NULL) ==
	      -ENAMETOOLONG;
	ok &= names_symlink_encrypt(&s, enc, sizeof(enc), t, 100, NULL) == 0 &&
	      names_symlink_decrypt(&s, back, sizeof(back), &bl, enc) == 0 &&
	      bl == 100;
	enc[10] = enc[10] == 'A' ? 'B' : 'A';
	ok &= names_symlink_decrypt(&s, back, sizeof(back), &bl, enc) == -EIO;
	ok &= names_symlink_encrypt(&g, enc, sizeof(enc), t, 0, NULL) ==
	      -EINVAL;
	th_check(ok, "symlinks: 3039 B ok / 3040 ENAMETOOLONG (GCM), 3031 / "
		     "3032 (XChaCha), SIV round trip, tampered text -> EIO");
}

static void test_eme_props(void)
{
	static uint8_t p[2048], c[2048], d[2048], c2[2048];
	uint8_t key[32], tw[16];
	int ok = 1, diffuse = 1;

	th_rand(key, 32);
	th_rand(tw, 16);
	for (size_t n = 16; n <= 2048; n += 16 * (1 + (n / 160))) {
		th_rand(p, n);
		eme_transform(c, p, n, key, tw, 0);
		eme_transform(d, c, n, key, tw, 1);
		ok &= memcmp(d, p, n) == 0;
		memcpy(d, p, n);
		eme_transform(d, d, n, key, tw, 0); /* in place */
		ok &= memcmp(d, c, n) == 0;
		p[n - 1] ^= 1;
		eme_transform(c2, p, n, key, tw, 0);
		diffuse &= memcmp(c2, c, 16) != 0; /* first block changes */
	}
	th_check(ok && diffuse, "EME: decipher(encipher(x)) == x for 16..2048 "
				"B, in place, last-byte change alters block 0");
}

/* Per-thread contexts: threads with different keys interleave and get the
 * same bytes as the main thread; thread exit frees their contexts (ASan's
 * leak check sees it in the sanitizer build). */
struct thr_arg {
	uint8_t key[64], nonce[16], in[300], out[3][332];
	int ok;
};

static void thr_work(struct thr_arg *a, uint8_t out[3][332])
{
	struct volume vg, vs;
	uint8_t back[300];
	size_t bl = 0;

	memset(&vg, 0, sizeof(vg));
	vg.cipher = CIPHER_AES_GCM;
	vg.content_key = a->key;
	vg.content_key_len = 32;
	vs = vg;
	vs.cipher = CIPHER_AES_SIV;
	vs.content_key_len = 64;
	a->ok = 1;
	for (int r = 0; r < 200; r++) {
		content_block_seal(&vg, out[0], a->in, 300, 1, NULL, a->nonce);
		content_block_seal(&vs, out[1], a->in, 300, 1, NULL, a->nonce);
		eme_transform(out[2], a->in, 288, a->key, a->nonce, 0);
		a->ok &= content_block_open(&vg, back, &bl, out[0], 332, 1,
					    NULL) == 0 &&
			 memcmp(back, a->in, 300) == 0;
		a->ok &= content_block_open(&vs, back, &bl, out[1], 332, 1,
					    NULL) == 0 &&
			 memcmp(back, a->in, 300) == 0;
	}
}

static void *thr_main(void *p)
{
	struct thr_arg *a = p;

	thr_work(a, a->out);
	return NULL;
}

static void test_threads(void)
{
	static struct thr_arg a[4];
	pthread_t th[4];
	uint8_t want[3][332];
	int ok = 1, started = 0;

	for (int i = 0; i < 4; i++) {
		th_rand(a[i].key, 64);
		th_rand(a[i].nonce, 16);
		th_rand(a[i].in, 300);
		if (pthread_create(&th[i], NULL, thr_main, &a[i]) == 0)
			started++;
		else
			ok = 0;
	}
	for (int i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	for (int i = 0; i < started; i++) {
		struct thr_arg b = a[i];

		memset(want, 0, sizeof(want)); /* EME fills 288 of 332 bytes */
		thr_work(&b, want);
		ok &= a[i].ok && b.ok &&
		      memcmp(want, a[i].out, sizeof(want)) == 0;
	}
	th_check(ok && started == 4,
		 "threads: 4 threads x 200 GCM/SIV/EME rounds with their own "
		 "keys agree with the main thread");
}

static const struct th_test unit_tests[] = {
	TH_TEST("wycheproof-gcm", test_wycheproof_gcm),
	TH_TEST("wycheproof-siv", test_wycheproof_siv),
	TH_TEST("b64", test_b64),
	TH_TEST("header", test_header),
	TH_TEST("sizes", test_sizes),
	TH_TEST("eme-vector", test_eme_vector),
	TH_TEST("content-vectors", test_content_vectors),
	TH_TEST("symlink-vector", test_symlink_vector),
	TH_TEST("longname-vector", test_longname_vector),
	TH_TEST("xattr-vector", test_xattr_vector),
	TH_TEST("xchacha-names", test_xchacha_names),
	TH_TEST("names-rules", test_names_rules),
	TH_TEST("holes", test_holes),
	TH_TEST("value-no-hole", test_value_no_hole),
	TH_TEST("tamper", test_roundtrip_tamper),
	TH_TEST("symlink-limits", test_symlink_limits),
	TH_TEST("eme-props", test_eme_props),
	TH_TEST("threads", test_threads),
};

int main(int argc, char **argv)
{
	return th_main(argc, argv, unit_tests, TH_COUNT(unit_tests),
		       ossl_aead_thread_cleanup);
}
