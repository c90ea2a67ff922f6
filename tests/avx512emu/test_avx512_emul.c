/* SPDX-License-Identifier: MIT */
/*
 * Runs chacha20_avx512.c, compiled against the scalar intrinsic stand-ins
 * of tests/avx512emu/immintrin.h (rule in mk/tests.mk), against the portable
 * chacha20_xor: every length 0..2100, in place, odd alignment, counters
 * near the 2^32 wrap. Checks the kernel's data flow on CPUs without
 * AVX-512; it cannot show that real AVX-512 hardware agrees.
 */
#include <string.h>

#include "crypto/chacha20.h"
#include "crypto/kernels.h"
#include "th.h"

/* the emulated kernel's getter asks for these: claim AVX-512F/VL/BW */
unsigned cpu_features(void)
{
	return 0xffU;
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
	return th_exit();
}
