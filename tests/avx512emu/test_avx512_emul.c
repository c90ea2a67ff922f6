/* SPDX-License-Identifier: MIT */
/*
 * Runs chacha20/avx512.c and poly1305/ifma.c, compiled against the scalar
 * intrinsic stand-ins of tests/avx512emu/immintrin.h (rules in
 * mk/tests.mk): the ChaCha20 kernel against the portable chacha20_xor
 * (every length 0..2100, in place, odd alignment, counters near the 2^32
 * wrap), the IFMA Poly1305 blocks through poly1305_fast against the proved
 * poly1305_mac (every length 0..2100, random splits and whole-text
 * updates, all-ones texts and keys) and called directly against the scalar
 * p64_blocks (0..160 blocks, h at its limb bounds); and the avx512 seal
 * and open bodies (with IFMA: the IFMA Poly1305 of each step inside the
 * next step's rounds; with IFMA hidden: the radix-2^64 Poly1305 with
 * MULX inside the rounds) against
 * the proved chachapoly_seal (aead/chachapoly.c on kern_ref.c: the
 * ref functions, no stitched body), lengths 0..3300
 * and AD lengths 0..40, when this CPU has BMI2 (MULX runs natively; every
 * AVX-512 CPU has it). Checks the kernels' data flow on CPUs without
 * AVX-512 or IFMA; it cannot show that real AVX-512 hardware agrees.
 */
#include <immintrin.h> /* the stand-ins (tests/avx512emu), for test_mul52 */
#include <string.h>

#include "crypto/aead/chachapoly.h"
#include "crypto/chacha20/ref.h"
#include "crypto/cpu.h"
#include "crypto/kernels.h"
#include "crypto/poly1305/ref.h"
#include "crypto/poly1305/x64.h"
#include "hchacha_check.h"
#include "th.h"

/* the emulated kernels' getters ask for these: claim every feature
 * (AVX-512F/VL/BW and IFMA among them), BMI2 only when the CPU has it
 * (MULX is not emulated) */
static unsigned hidden; /* bits test_bodies hides, as cpu_mask would */

unsigned cpu_features(void)
{
	unsigned f =
		__builtin_cpu_supports("bmi2") ? CPU_ALL : CPU_ALL & ~CPU_BMI2;

	return f & ~hidden;
}

/* the AVX2 kernel and bodies, to which the avx512 ones hand texts shorter
 * than one 16-block step: absent here, so that the emulated avx512 code
 * runs every length itself (and no AVX2 instruction runs on a CPU that may
 * lack it); test_kernels checks the hand-over on AVX-512 machines */
chacha20_xor_fn chacha20_avx2_get(void)
{
	return NULL;
}

chachapoly_body_fn chachapoly_body_avx2_get(void)
{
	return NULL;
}

chachapoly_body_fn chachapoly_open_body_avx2_get(void)
{
	return NULL;
}

/* the stand-in's 52 x 52-bit product against 128-bit arithmetic */
static void test_mul52(void)
{
	int bad = 0;

	for (int i = 0; i < 100000; i++) {
		__m512i a = _mm512_setzero_si512(), b, c, lo, hi;
		uint64_t x = ((uint64_t)th_rand32() << 32) | th_rand32();
		uint64_t y = ((uint64_t)th_rand32() << 32) | th_rand32();
		uint64_t m52 = (1ULL << 52) - 1;
		unsigned __int128 p;

		if (i < 4) { /* all-ones operands */
			x |= i & 1 ? m52 : 0;
			y |= i & 2 ? m52 : 0;
		}
		p = (unsigned __int128)(x & m52) * (y & m52);
		b = _mm512_set1_epi64((long long)x);
		c = _mm512_set1_epi64((long long)y);
		a.q[3] = 7;
		lo = _mm512_madd52lo_epu64(a, b, c);
		hi = _mm512_madd52hi_epu64(a, b, c);
		if (lo.q[0] != ((uint64_t)p & m52) ||
		    hi.q[0] != (uint64_t)(p >> 52) ||
		    lo.q[3] != 7 + ((uint64_t)p & m52) ||
		    hi.q[3] != 7 + (uint64_t)(p >> 52))
			bad++;
	}
	th_check(bad == 0,
		 "emulated madd52lo/madd52hi == 128-bit product, 100000 "
		 "random operands (upper 12 bits ignored)");
}

/* the emulated IFMA Poly1305 blocks through poly1305_fast against the
 * proved poly1305_mac */
static void test_ifma(void)
{
	static uint8_t msg[2100];
	poly1305_blocks_fn fn = poly1305_ifma_get();
	int bad = 0, cases = 0;

	if (fn == NULL) {
		th_fail("poly1305-ifma (emulated): not compiled in");
		return;
	}
	for (size_t len = 0; len <= sizeof(msg); len++) {
		uint8_t key[32], t1[16], t2[16];
		struct poly1305_fast st;
		size_t off = 0;
		int kind = (int)(len % 5);

		th_rand(key, 32);
		th_rand(msg, len);
		if (kind == 1) {
			memset(key, 0xff, 32);
			memset(msg, 0xff, len);
		} else if (kind == 2) {
			memset(key, 0xff, 16); /* r: every clamp bit set */
		}
		poly1305_mac(t1, msg, len, key);
		poly1305_fast_init(&st, key);
		poly1305_fast_use(&st, fn);
		while (off < len) {
			size_t n = kind < 3 ? len : (size_t)(th_rand32() % 900);

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
		 "poly1305-ifma with emulated intrinsics == portable "
		 "poly1305, %d messages (lengths 0..2100, random splits, "
		 "all-ones keys and texts)",
		 cases);
	bad = 0;
	cases = 0;
	for (size_t n = 0; n <= 160; n++) {
		for (int kind = 0; kind < 2; kind++) {
			struct poly1305_fast a, b;
			uint8_t key[32], t1[16], t2[16];

			th_rand(key, 32);
			th_rand(msg, 16 * n);
			poly1305_fast_init(&a, key);
			if (kind == 1) {
				memset(key, 0xff, 32);
				memset(msg, 0xff, 16 * n);
				poly1305_fast_init(&a, key);
				a.h[0] = (1ULL << 44) - 1;
				a.h[1] = (1ULL << 44) + (1ULL << 8) - 1;
				a.h[2] = (1ULL << 42) - 1;
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
		 "poly1305-ifma blocks with emulated intrinsics == scalar "
		 "blocks, %d runs of 0..160 blocks (h at its bounds, "
		 "all-ones r and blocks)",
		 cases);
}

/* tag = the body's MAC finished as RFC 8439 2.8 (pad16(c), le64 lengths) */
static void finish(struct poly1305_fast *mac, uint8_t tag[16], size_t adlen,
		   size_t len)
{
	static const uint8_t zeros[16];
	uint8_t lens[16];

	poly1305_fast_update(mac, zeros, (16 - len % 16) % 16);
	for (int i = 0; i < 8; i++) {
		lens[i] = (uint8_t)((uint64_t)adlen >> (8 * i));
		lens[8 + i] = (uint8_t)((uint64_t)len >> (8 * i));
	}
	poly1305_fast_update(mac, lens, 16);
	poly1305_fast_final(mac, tag);
}

/* the seal and open bodies against chachapoly_seal: with IFMA
 * (ChaCha20, block 0 in general-purpose registers, then the IFMA
 * Poly1305), and with IFMA hidden (the stitched radix-2^64 bodies) */
static void test_bodies(unsigned hide, const char *what)
{
	static uint8_t m[3400], want[3400], got[3400], back[3400];
	chachapoly_body_fn seal, open;
	int bad = 0, cases = 0;

	hidden = hide;
	seal = chachapoly_body_avx512_get();
	open = chachapoly_open_body_avx512_get();
	hidden = 0;
	if (hide == 0 && seal != NULL && open != NULL) {
		/* the IFMA bodies run on any CPU (no MULX in them) */
	} else if (!(cpu_features() & CPU_BMI2)) {
		th_skip("avx512 bodies (emulated): this CPU has no BMI2");
		return;
	}
	if (seal == NULL || open == NULL) {
		th_fail("avx512 (emulated): bodies not compiled in");
		return;
	}
	for (size_t len = 0; len <= 3300; len += 1 + len % 7) {
		uint8_t key[32], nonce[12], ad[40], wtag[16], tag[16], otag[16];
		size_t adlen = len % 41;
		struct poly1305_fast mac;

		th_rand(key, 32);
		th_rand(nonce, 12);
		th_rand(ad, sizeof(ad));
		th_rand(m, len);
		chachapoly_seal(want, wtag, m, len, ad, adlen, key, nonce);
		seal(got, m, len, ad, adlen, key, nonce, &mac);
		finish(&mac, tag, adlen, len);
		open(back, got, len, ad, adlen, key, nonce, &mac);
		finish(&mac, otag, adlen, len);
		cases++;
		if (memcmp(want, got, len) != 0 || memcmp(wtag, tag, 16) != 0 ||
		    memcmp(back, m, len) != 0 || memcmp(otag, wtag, 16) != 0)
			bad++;
	}
	th_check(bad == 0,
		 "avx512 seal and open bodies (%s) with emulated intrinsics "
		 "== chachapoly_seal, %d cases (lengths 0..3300, AD 0..40)",
		 what, cases);
}

/* the avx512 level's HChaCha20 (128-bit rows) against the proved one */
static void test_hchacha(void)
{
	hchacha20_fn fn = hchacha20_avx512_get();

	if (fn == NULL) {
		th_fail("hchacha20-avx512 (emulated): not compiled in");
		return;
	}
	th_check(hchacha_mismatches(fn, 500) == 0,
		 "hchacha20-avx512 with emulated intrinsics == hchacha20 "
		 "(500 cases, all-ones key and nonce)");
}

int main(void)
{
	static uint8_t in[2200], want[2200], got[2200];
	chacha20_xor_fn fn = chacha20_avx512_get();
	int bad = 0, cases = 0;

	test_mul52();
	test_ifma();
	test_hchacha();
	if (fn == NULL) {
		th_fail("avx512 (emulated): kernel not compiled in");
		return th_exit();
	}
	for (size_t len = 0; len <= 2100; len++) {
		for (int wrap = 0; wrap < 2; wrap++) {
			uint8_t key[32], nonce[12];
			uint32_t ctr = wrap ? 0xfffffff0U + (uint32_t)(len % 17)
					    : th_rand32();

			th_rand(key, 32);
			th_rand(nonce, 12);
			th_rand(in + 1, len);
			memcpy(got + 3, in + 1, len);
			cases++;
			if (chacha20_xor(want, in + 1, len, key, ctr, nonce) !=
				    fn(got + 3, got + 3, len, key, ctr,
				       nonce) ||
			    memcmp(want, got + 3, len) != 0)
				bad++;
		}
	}
	th_check(bad == 0,
		 "avx512 kernel with emulated intrinsics == portable, %d "
		 "cases (lengths 0..2100, in place, counter wrap)",
		 cases);
	test_bodies(0, "the IFMA Poly1305 of each step inside the next one");
	test_bodies(CPU_AVX512IFMA,
		    "stitched radix-2^64 Poly1305, IFMA hidden");
	return th_exit();
}
