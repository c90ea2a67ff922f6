/* SPDX-License-Identifier: MIT */
/*
 * Static-inline scalar ChaCha20 core written for the register allocator
 * (16 local words, constant rotations): the HChaCha20 of the fast AEAD
 * (aead/kern.c) and the one- and two-block tails of the SIMD kernels.
 * Plain C, no intrinsics; private to src/crypto.
 * Spec: RFC 8439 sections 2.1-2.3; draft-irtf-cfrg-xchacha-03 2.2.
 * Constant time: yes. Not proved; checked against chacha20/ref.c through the
 * kernels and the XChaCha20 vectors in tests/unit/test_kernels.c.
 */
#ifndef VCRYPTFS_CHACHA20_FASTBLOCK_H
#define VCRYPTFS_CHACHA20_FASTBLOCK_H

#include <stdint.h>

#include "crypto/ct.h"

#define FB_ROTL(v, c) (((v) << (c)) | ((v) >> (32 - (c))))
#define FB_QR(a, b, c, d)                                                      \
	do {                                                                   \
		(a) += (b);                                                    \
		(d) = FB_ROTL((d) ^ (a), 16);                                  \
		(c) += (d);                                                    \
		(b) = FB_ROTL((b) ^ (c), 12);                                  \
		(a) += (b);                                                    \
		(d) = FB_ROTL((d) ^ (a), 8);                                   \
		(c) += (d);                                                    \
		(b) = FB_ROTL((b) ^ (c), 7);                                   \
	} while (0)

/* one column round and one diagonal round on 16 local words */
#define FB_DOUBLE_ROUND(x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, \
			x13, x14, x15)                                         \
	do {                                                                   \
		FB_QR(x0, x4, x8, x12);                                        \
		FB_QR(x1, x5, x9, x13);                                        \
		FB_QR(x2, x6, x10, x14);                                       \
		FB_QR(x3, x7, x11, x15);                                       \
		FB_QR(x0, x5, x10, x15);                                       \
		FB_QR(x1, x6, x11, x12);                                       \
		FB_QR(x2, x7, x8, x13);                                        \
		FB_QR(x3, x4, x9, x14);                                        \
	} while (0)

/* out = the keystream block: word i of the rounds x_i plus st[i], word 12
 * plus ctr (the block's counter) */
#define FB_STORE_BLOCK(out, st, ctr, x0, x1, x2, x3, x4, x5, x6, x7, x8, x9,   \
		       x10, x11, x12, x13, x14, x15)                           \
	do {                                                                   \
		store32_le((out), (x0) + (st)[0]);                             \
		store32_le((out) + 4, (x1) + (st)[1]);                         \
		store32_le((out) + 8, (x2) + (st)[2]);                         \
		store32_le((out) + 12, (x3) + (st)[3]);                        \
		store32_le((out) + 16, (x4) + (st)[4]);                        \
		store32_le((out) + 20, (x5) + (st)[5]);                        \
		store32_le((out) + 24, (x6) + (st)[6]);                        \
		store32_le((out) + 28, (x7) + (st)[7]);                        \
		store32_le((out) + 32, (x8) + (st)[8]);                        \
		store32_le((out) + 36, (x9) + (st)[9]);                        \
		store32_le((out) + 40, (x10) + (st)[10]);                      \
		store32_le((out) + 44, (x11) + (st)[11]);                      \
		store32_le((out) + 48, (x12) + (ctr));                         \
		store32_le((out) + 52, (x13) + (st)[13]);                      \
		store32_le((out) + 56, (x14) + (st)[14]);                      \
		store32_le((out) + 60, (x15) + (st)[15]);                      \
	} while (0)

/* x = 20 rounds of x (no final addition) */
static inline void fb_rounds(uint32_t x[16])
{
	uint32_t x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3];
	uint32_t x4 = x[4], x5 = x[5], x6 = x[6], x7 = x[7];
	uint32_t x8 = x[8], x9 = x[9], x10 = x[10], x11 = x[11];
	uint32_t x12 = x[12], x13 = x[13], x14 = x[14], x15 = x[15];

	for (int i = 0; i < 10; i++)
		FB_DOUBLE_ROUND(x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10,
				x11, x12, x13, x14, x15);
	x[0] = x0;
	x[1] = x1;
	x[2] = x2;
	x[3] = x3;
	x[4] = x4;
	x[5] = x5;
	x[6] = x6;
	x[7] = x7;
	x[8] = x8;
	x[9] = x9;
	x[10] = x10;
	x[11] = x11;
	x[12] = x12;
	x[13] = x13;
	x[14] = x14;
	x[15] = x15;
}

/* HChaCha20 (same output as hchacha20 in chacha20/ref.h) */
static inline void fb_hchacha20(uint8_t out[32], const uint8_t key[32],
				const uint8_t nonce[16])
{
	uint32_t x[16];

	x[0] = 0x61707865U;
	x[1] = 0x3320646eU;
	x[2] = 0x79622d32U;
	x[3] = 0x6b206574U;
	for (int i = 0; i < 8; i++)
		x[4 + i] = load32_le(key + 4 * i);
	for (int i = 0; i < 4; i++)
		x[12 + i] = load32_le(nonce + 4 * i);
	fb_rounds(x);
	for (int i = 0; i < 4; i++) {
		store32_le(out + 4 * i, x[i]);
		store32_le(out + 16 + 4 * i, x[12 + i]);
	}
	ct_wipe(x, sizeof(x));
}

/* ks = keystream block `counter` of the state st (st[12] ignored) */
static inline void fb_block(uint8_t ks[64], const uint32_t st[16],
			    uint32_t counter)
{
	uint32_t x[16];

	for (int i = 0; i < 16; i++)
		x[i] = st[i];
	x[12] = counter;
	fb_rounds(x);
	for (int i = 0; i < 16; i++)
		store32_le(ks + 4 * i, x[i] + (i == 12 ? counter : st[i]));
	ct_wipe(x, sizeof(x));
}

#endif
