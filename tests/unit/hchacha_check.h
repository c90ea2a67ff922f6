/* SPDX-License-Identifier: MIT */
/*
 * An HChaCha20 against the proved hchacha20 (chacha20/ref.h) on n random
 * key and nonce pairs, the first of them all ones. Shared by
 * tests/unit/test_kernels.c (every entry of the dispatch table) and
 * tests/avx512emu/test_avx512_emul.c (the avx512 one on emulated
 * intrinsics); static inline, as both programs link chacha20/ref.c and
 * tests/unit/th.c. Test code only.
 */
#ifndef VCRYPTFS_HCHACHA_CHECK_H
#define VCRYPTFS_HCHACHA_CHECK_H

#include <stdint.h>
#include <string.h>

#include "crypto/chacha20/ref.h"
#include "crypto/kernels.h"
#include "th.h"

/* the number of the n pairs on which fn and hchacha20 differ */
static inline int hchacha_mismatches(hchacha20_fn fn, int n)
{
	int bad = 0;

	for (int j = 0; j < n; j++) {
		uint8_t key[32], nonce[16], a[32], b[32];

		th_rand(key, 32);
		th_rand(nonce, 16);
		if (j == 0) {
			memset(key, 0xff, 32);
			memset(nonce, 0xff, 16);
		}
		hchacha20(a, key, nonce);
		fn(b, key, nonce);
		if (memcmp(a, b, 32) != 0)
			bad++;
	}
	return bad;
}

#endif
