/* SPDX-License-Identifier: MIT */
/*
 * The constant-time helpers of src/crypto/ct.c: ct_compare on equal and
 * unequal buffers of every length (and, named in full, on all 2^32 pairs
 * of two bytes: ct-compare-all-2byte, ~15 s), ct_wipe, the endian loads
 * and stores. Usage: test_ct [NAME-SUBSTRING...] (th.c's name table).
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
	TH_TEST("ct-compare", t_ct_compare),
	TH_SLOW("ct-compare-all-2byte", t_ct_compare_all),
	TH_TEST("ct-wipe", t_ct_wipe),
	TH_TEST("ct-endian", t_ct_endian),
};

int main(int argc, char **argv)
{
	return th_main(argc, argv, unit_tests, TH_COUNT(unit_tests), NULL);
}
