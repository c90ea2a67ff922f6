/* SPDX-License-Identifier: MIT */
/*
 * The portable crypto core (src/crypto) against OpenSSL 3, and its
 * properties: ChaCha20, HChaCha20, Poly1305 and both AEADs beside
 * EVP_chacha20, EVP_chacha20_poly1305 and EVP_MAC POLY1305 at every length
 * up to a few blocks; split Poly1305 updates, keystream = blocks, counter
 * wrap, the XChaCha20 subkey, a one-bit flip anywhere failing the open.
 * Usage: test_crypto_diff [NAME-SUBSTRING...] (th.c's name table). The
 * known-answer and Wycheproof tests are test_crypto.c, the constant-time
 * helpers test_ct.c; the shared helpers crypto_th.h.
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
 * Test table and main
 * ==================================================================== */

/* TH_SLOW rows run only when their full name is given (th.h) */
static const struct th_test unit_tests[] = {
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
};

int main(int argc, char **argv)
{
	return th_main(argc, argv, unit_tests, TH_COUNT(unit_tests), NULL);
}
