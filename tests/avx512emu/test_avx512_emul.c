/* SPDX-License-Identifier: MIT */
/*
 * Runs chacha20_avx512.c, compiled against the scalar intrinsic stand-ins
 * of tests/avx512emu/immintrin.h (rule in mk/tests.mk), against the portable
 * chacha20_xor: every length 0..2100, in place, odd alignment, counters
 * near the 2^32 wrap; and its seal and open bodies (the radix-2^64
 * Poly1305 with MULX inside the rounds) against the proved
 * chachapoly_seal (aead_xchacha.c) for lengths 0..3300 and AD lengths
 * 0..40, when this CPU has BMI2 (MULX runs natively; every AVX-512 CPU
 * has it). Checks the kernel's data flow on CPUs without AVX-512; it
 * cannot show that real AVX-512 hardware agrees.
 */
#include <string.h>

#include "crypto/aead_xchacha.h"
#include "crypto/chacha20.h"
#include "crypto/cpu.h"
#include "crypto/kernels.h"
#include "th.h"

/* the emulated kernel's getters ask for these: claim AVX-512F/VL/BW, and
 * BMI2 when the CPU has it (MULX is not emulated) */
unsigned cpu_features(void)
{
	return CPU_AVX512_ALL | CPU_SSSE3 |
	       (__builtin_cpu_supports("bmi2") ? CPU_BMI2 : 0U);
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

/* the seal and open bodies against chachapoly_seal */
static void test_bodies(void)
{
	static uint8_t m[3400], want[3400], got[3400], back[3400];
	chachapoly_body_fn seal = chachapoly_body_avx512_get();
	chachapoly_body_fn open = chachapoly_open_body_avx512_get();
	int bad = 0, cases = 0;

	if (!(cpu_features() & CPU_BMI2)) {
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
		 "avx512 seal and open bodies with emulated intrinsics == "
		 "chachapoly_seal, %d cases (lengths 0..3300, AD 0..40)",
		 cases);
}

int main(void)
{
	static uint8_t in[2200], want[2200], got[2200];
	chacha20_xor_fn fn = chacha20_avx512_get();
	int bad = 0, cases = 0;

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
	test_bodies();
	return th_exit();
}
