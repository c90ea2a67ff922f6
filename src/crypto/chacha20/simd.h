/* SPDX-License-Identifier: MIT */
/*
 * ChaCha20 round body and keystream-XOR driver shared by the SIMD kernels
 * (chacha20/ssse3.c, chacha20/avx2.c, chacha20/avx512.c); each includes it
 * after defining its vector type and operations. Included ONLY by those ISA
 * files, never by generic code.
 * Spec: RFC 8439 sections 2.1-2.4. Layout: vector i holds state word i of
 * CS_BLOCKS consecutive blocks (one block per 32-bit lane), so a quarter
 * round is 12 vector operations for CS_BLOCKS blocks.
 * The includer defines: CS_VEC, CS_BLOCKS, CS_ADD, CS_XOR, CS_ROT16,
 * CS_ROT12, CS_ROT8, CS_ROT7 (rotate each 32-bit lane left), CS_SET1(u32),
 * CS_LANES (vector 0, 1, ..., CS_BLOCKS - 1), CS_UNPACKLO32, CS_UNPACKHI32,
 * CS_UNPACKLO64, CS_UNPACKHI64 (per 128-bit lane, as SSE2 does), and
 * static void cs_store(uint8_t *out, const uint8_t *in, CS_VEC t[4][4]):
 * out = in ^ keystream, from the per-128-bit-lane transposed words.
 * Optional: CS_PAIRED_QR (two quarter rounds at a time, for 16-register
 * ISAs); CS_BATCH(out, in, st, counter), a whole CS_BLOCKS step of the
 * includer's own (chacha20/avx2.c: rounds in inline assembly), which
 * replaces cs_batch's body and then cs_store is not needed.
 * Constant time: yes. Not proved; checked against chacha20/ref.c.
 */
#ifndef VCRYPTFS_CHACHA20_SIMD_H
#define VCRYPTFS_CHACHA20_SIMD_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/chacha20/simd_row.h"
#include "crypto/ct.h"

/* GCC would otherwise keep the round and the store out of line, with the
 * 16 state vectors going through memory on every call. */
#define CS_INLINE static inline __attribute__((always_inline))

#define CS_QR(a, b, c, d)                                                      \
	do {                                                                   \
		(a) = CS_ADD((a), (b));                                        \
		(d) = CS_ROT16(CS_XOR((d), (a)));                              \
		(c) = CS_ADD((c), (d));                                        \
		(b) = CS_ROT12(CS_XOR((b), (c)));                              \
		(a) = CS_ADD((a), (b));                                        \
		(d) = CS_ROT8(CS_XOR((d), (a)));                               \
		(c) = CS_ADD((c), (d));                                        \
		(b) = CS_ROT7(CS_XOR((b), (c)));                               \
	} while (0)

/* One step (add, xor, rotate) of four independent quarter rounds, so that
 * the four dependency chains interleave in the instruction stream. */
#define CS_STEP4(a0, a1, a2, a3, b0, b1, b2, b3, d0, d1, d2, d3, ROT)          \
	do {                                                                   \
		(a0) = CS_ADD((a0), (b0));                                     \
		(a1) = CS_ADD((a1), (b1));                                     \
		(a2) = CS_ADD((a2), (b2));                                     \
		(a3) = CS_ADD((a3), (b3));                                     \
		(d0) = ROT(CS_XOR((d0), (a0)));                                \
		(d1) = ROT(CS_XOR((d1), (a1)));                                \
		(d2) = ROT(CS_XOR((d2), (a2)));                                \
		(d3) = ROT(CS_XOR((d3), (a3)));                                \
	} while (0)

/* Quarter rounds (a_i, b_i, c_i, d_i), i = 0..3, interleaved. */
#define CS_QR4(a0, a1, a2, a3, b0, b1, b2, b3, c0, c1, c2, c3, d0, d1, d2, d3) \
	do {                                                                   \
		CS_STEP4(a0, a1, a2, a3, b0, b1, b2, b3, d0, d1, d2, d3,       \
			 CS_ROT16);                                            \
		CS_STEP4(c0, c1, c2, c3, d0, d1, d2, d3, b0, b1, b2, b3,       \
			 CS_ROT12);                                            \
		CS_STEP4(a0, a1, a2, a3, b0, b1, b2, b3, d0, d1, d2, d3,       \
			 CS_ROT8);                                             \
		CS_STEP4(c0, c1, c2, c3, d0, d1, d2, d3, b0, b1, b2, b3,       \
			 CS_ROT7);                                             \
	} while (0)

/* One step (add, xor, rotate) of two independent quarter rounds. */
#define CS_STEP2(a0, a1, b0, b1, d0, d1, ROT)                                  \
	do {                                                                   \
		(a0) = CS_ADD((a0), (b0));                                     \
		(a1) = CS_ADD((a1), (b1));                                     \
		(d0) = ROT(CS_XOR((d0), (a0)));                                \
		(d1) = ROT(CS_XOR((d1), (a1)));                                \
	} while (0)

/* Quarter rounds (a_i, b_i, c_i, d_i), i = 0..1, interleaved. */
#define CS_QR2(a0, a1, b0, b1, c0, c1, d0, d1)                                 \
	do {                                                                   \
		CS_STEP2(a0, a1, b0, b1, d0, d1, CS_ROT16);                    \
		CS_STEP2(c0, c1, d0, d1, b0, b1, CS_ROT12);                    \
		CS_STEP2(a0, a1, b0, b1, d0, d1, CS_ROT8);                     \
		CS_STEP2(c0, c1, d0, d1, b0, b1, CS_ROT7);                     \
	} while (0)

/*
 * One column round and one diagonal round over all lanes. With 16
 * registers (SSSE3, AVX2; the includer defines CS_PAIRED_QR) two quarter
 * rounds at a time: four interleaved ones keep more than 16 vectors live
 * and GCC 12 then spills about a third of the round to the stack (AVX2
 * ChaCha20 alone: 1900 -> 2100 MB/s here); the out-of-order core still
 * overlaps the next pair. With 32 registers (AVX-512) four at a time.
 */
CS_INLINE void cs_double_round(CS_VEC x[16])
{
#ifdef CS_PAIRED_QR
	CS_QR2(x[0], x[1], x[4], x[5], x[8], x[9], x[12], x[13]);
	CS_QR2(x[2], x[3], x[6], x[7], x[10], x[11], x[14], x[15]);
	CS_QR2(x[0], x[1], x[5], x[6], x[10], x[11], x[15], x[12]);
	CS_QR2(x[2], x[3], x[7], x[4], x[8], x[9], x[13], x[14]);
#else
	CS_QR4(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[8], x[9],
	       x[10], x[11], x[12], x[13], x[14], x[15]);
	CS_QR4(x[0], x[1], x[2], x[3], x[5], x[6], x[7], x[4], x[10], x[11],
	       x[8], x[9], x[15], x[12], x[13], x[14]);
#endif
}

/* x = initial state of blocks counter .. counter + CS_BLOCKS - 1 */
CS_INLINE void cs_load_state(CS_VEC x[16], const uint32_t st[16],
			     uint32_t counter)
{
	for (int i = 0; i < 16; i++)
		x[i] = CS_SET1(st[i]);
	/* 32-bit lanes: the counter wraps mod 2^32 per block, as in RFC 8439 */
	x[12] = CS_ADD(CS_SET1(counter), CS_LANES);
}

/* Rows of 4 state words (4g .. 4g + 3) transposed per 128-bit lane: t[g][k]
 * holds words 4g..4g+3 of blocks k, k + 4, k + 8, k + 12 (one per lane). */
CS_INLINE void cs_transpose(CS_VEC t[4][4], const CS_VEC x[16])
{
	for (int g = 0; g < 4; g++) {
		CS_VEC a0 = CS_UNPACKLO32(x[4 * g], x[4 * g + 1]);
		CS_VEC a1 = CS_UNPACKLO32(x[4 * g + 2], x[4 * g + 3]);
		CS_VEC a2 = CS_UNPACKHI32(x[4 * g], x[4 * g + 1]);
		CS_VEC a3 = CS_UNPACKHI32(x[4 * g + 2], x[4 * g + 3]);

		t[g][0] = CS_UNPACKLO64(a0, a1);
		t[g][1] = CS_UNPACKHI64(a0, a1);
		t[g][2] = CS_UNPACKLO64(a2, a3);
		t[g][3] = CS_UNPACKHI64(a2, a3);
	}
}

#ifndef CS_BATCH
CS_INLINE void cs_store(uint8_t *out, const uint8_t *in, CS_VEC t[4][4]);

/* The end of a step whose rounds are done: x += the input state of blocks
 * counter .. counter + CS_BLOCKS - 1 (re-broadcast from st[], not kept
 * live across the rounds), then out = in ^ x through the transpose. */
CS_INLINE void cs_finish(uint8_t *out, const uint8_t *in, CS_VEC x[16],
			 const uint32_t st[16], uint32_t counter)
{
	CS_VEC t[4][4];
	CS_VEC ctr = CS_ADD(CS_SET1(counter), CS_LANES);

	for (int i = 0; i < 16; i++)
		x[i] = CS_ADD(x[i], i == 12 ? ctr : CS_SET1(st[i]));
	cs_transpose(t, x);
	cs_store(out, in, t);
}
#endif

/* out[0 .. 64 * CS_BLOCKS - 1] = in ^ keystream of CS_BLOCKS blocks. The
 * input state is re-broadcast from st[] for the final addition instead of
 * being kept in registers (16 fewer live vectors across the rounds). */
CS_INLINE void cs_batch(uint8_t *out, const uint8_t *in, const uint32_t st[16],
			uint32_t counter)
{
#ifdef CS_BATCH
	CS_BATCH(out, in, st, counter);
#else
	CS_VEC x[16];

	cs_load_state(x, st, counter);
	for (int i = 0; i < 10; i++)
		cs_double_round(x);
	cs_finish(out, in, x, st, counter);
#endif
}

static inline void cs_init(uint32_t st[16], const uint8_t key[32],
			   const uint8_t nonce[12])
{
	st[0] = 0x61707865U;
	st[1] = 0x3320646eU;
	st[2] = 0x79622d32U;
	st[3] = 0x6b206574U;
	for (int i = 0; i < 8; i++)
		st[4 + i] = load32_le(key + 4 * i);
	st[12] = 0;
	for (int i = 0; i < 3; i++)
		st[13 + i] = load32_le(nonce + 4 * i);
}

/* The last len < 64 * CS_BLOCKS bytes, via a keystream buffer: one SIMD
 * step, or one-block row code (chacha20/simd_row.h) when at most two
 * blocks remain (a whole SIMD step would cost more). */
static inline uint32_t cs_tail(uint8_t *out, const uint8_t *in, size_t len,
			       const uint32_t st[16], uint32_t counter)
{
	uint8_t ks[64 * CS_BLOCKS];
	size_t nblocks = (len + 63) / 64;

	for (size_t i = 0; i < sizeof(ks); i++)
		ks[i] = 0;
	if (nblocks <= 2 && CS_BLOCKS > 2) {
		for (size_t b = 0; b < nblocks; b++)
			row_block(ks + 64 * b, st, counter + (uint32_t)b);
	} else {
		cs_batch(ks, ks, st, counter);
	}
	for (size_t i = 0; i < len; i++)
		out[i] = (uint8_t)(in[i] ^ ks[i]);
	ct_wipe(ks, sizeof(ks));
	return counter + (uint32_t)nblocks;
}

/* out = in ^ the keystream of the state st from block counter on (whole
 * steps, then the tail); returns the next block counter */
static inline uint32_t cs_run(uint8_t *out, const uint8_t *in, size_t len,
			      const uint32_t st[16], uint32_t counter)
{
	while (len >= 64 * CS_BLOCKS) {
		cs_batch(out, in, st, counter);
		counter += CS_BLOCKS;
		out += 64 * CS_BLOCKS;
		in += 64 * CS_BLOCKS;
		len -= 64 * CS_BLOCKS;
	}
	if (len > 0)
		counter = cs_tail(out, in, len, st, counter);
	return counter;
}

/* chacha20_xor contract (chacha20/ref.h) with CS_BLOCKS blocks per step */
static inline uint32_t cs_xor(uint8_t *out, const uint8_t *in, size_t len,
			      const uint8_t key[32], uint32_t counter,
			      const uint8_t nonce[12])
{
	uint32_t st[16];

	cs_init(st, key, nonce);
	counter = cs_run(out, in, len, st, counter);
	ct_wipe(st, sizeof(st));
	return counter;
}

#endif
