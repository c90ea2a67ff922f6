/* SPDX-License-Identifier: MIT */
/*
 * Portable ChaCha20 (RFC 8439 sections 2.1-2.4), HChaCha20 and XChaCha20
 * (draft-irtf-cfrg-xchacha-03 section 2.2). This is the reference that every
 * SIMD kernel (chacha20_*.c) is checked against.
 * Depends on: ct.h only. Never on SIMD files, OpenSSL or anything outside
 * src/crypto.
 * Constant time: no secret-dependent branch or index.
 * Contracts: spec/chacha.acsl, proved by Frama-C WP (proofs/).
 */
#ifndef VCRYPTFS_CHACHA20_H
#define VCRYPTFS_CHACHA20_H

#include <stddef.h>
#include <stdint.h>

#ifdef __FRAMAC__
#include "crypto/ct.h"
#include "../../../spec/chacha.acsl"
#endif

#define CHACHA20_KEY_LEN 32
#define CHACHA20_NONCE_LEN 12
#define CHACHA20_BLOCK_LEN 64
#define HCHACHA20_NONCE_LEN 16
#define XCHACHA20_NONCE_LEN 24

/*
 * One ChaCha20 block (RFC 8439 2.3): out = serialize(state + rounds(state))
 * for state = constants | key | counter | nonce.
 */
/*@ requires valid_out: \valid(out + (0 .. 63));
    requires valid_key: \valid_read(key + (0 .. 31));
    requires valid_nonce: \valid_read(nonce + (0 .. 11));
    requires sep_key: \separated(out + (0 .. 63), key + (0 .. 31));
    requires sep_nonce: \separated(out + (0 .. 63), nonce + (0 .. 11));
    assigns out[0 .. 63];
    check ensures b0: \let w = \old(ADD(ROUNDS(10, 0, 0x61707865, 0x3320646e,
          0x79622d32, 0x6b206574, KW(key, 0), KW(key, 1), KW(key, 2),
          KW(key, 3), KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7),
          counter, KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)),
        0x61707865));
      out[0] == BYTE0(w) && out[1] == BYTE1(w) && out[2] == BYTE2(w) &&
      out[3] == BYTE3(w);
    check ensures b1: \let w = \old(ADD(ROUNDS(10, 1, 0x61707865, 0x3320646e,
          0x79622d32, 0x6b206574, KW(key, 0), KW(key, 1), KW(key, 2),
          KW(key, 3), KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7),
          counter, KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)),
        0x3320646e));
      out[4] == BYTE0(w) && out[5] == BYTE1(w) && out[6] == BYTE2(w) &&
      out[7] == BYTE3(w);
    check ensures b2: \let w = \old(ADD(ROUNDS(10, 2, 0x61707865, 0x3320646e,
          0x79622d32, 0x6b206574, KW(key, 0), KW(key, 1), KW(key, 2),
          KW(key, 3), KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7),
          counter, KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)),
        0x79622d32));
      out[8] == BYTE0(w) && out[9] == BYTE1(w) && out[10] == BYTE2(w) &&
      out[11] == BYTE3(w);
    check ensures b3: \let w = \old(ADD(ROUNDS(10, 3, 0x61707865, 0x3320646e,
          0x79622d32, 0x6b206574, KW(key, 0), KW(key, 1), KW(key, 2),
          KW(key, 3), KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7),
          counter, KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)),
        0x6b206574));
      out[12] == BYTE0(w) && out[13] == BYTE1(w) && out[14] == BYTE2(w) &&
      out[15] == BYTE3(w);
    check ensures b4: \let w = \old(ADD(ROUNDS(10, 4, 0x61707865, 0x3320646e,
          0x79622d32, 0x6b206574, KW(key, 0), KW(key, 1), KW(key, 2),
          KW(key, 3), KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7),
          counter, KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)),
        LE32(key[0], key[1], key[2], key[3])));
      out[16] == BYTE0(w) && out[17] == BYTE1(w) && out[18] == BYTE2(w) &&
      out[19] == BYTE3(w);
    check ensures b5: \let w = \old(ADD(ROUNDS(10, 5, 0x61707865, 0x3320646e,
          0x79622d32, 0x6b206574, KW(key, 0), KW(key, 1), KW(key, 2),
          KW(key, 3), KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7),
          counter, KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)),
        LE32(key[4], key[5], key[6], key[7])));
      out[20] == BYTE0(w) && out[21] == BYTE1(w) && out[22] == BYTE2(w) &&
      out[23] == BYTE3(w);
    check ensures b6: \let w = \old(ADD(ROUNDS(10, 6, 0x61707865, 0x3320646e,
          0x79622d32, 0x6b206574, KW(key, 0), KW(key, 1), KW(key, 2),
          KW(key, 3), KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7),
          counter, KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)),
        LE32(key[8], key[9], key[10], key[11])));
      out[24] == BYTE0(w) && out[25] == BYTE1(w) && out[26] == BYTE2(w) &&
      out[27] == BYTE3(w);
    check ensures b7: \let w = \old(ADD(ROUNDS(10, 7, 0x61707865, 0x3320646e,
          0x79622d32, 0x6b206574, KW(key, 0), KW(key, 1), KW(key, 2),
          KW(key, 3), KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7),
          counter, KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)),
        LE32(key[12], key[13], key[14], key[15])));
      out[28] == BYTE0(w) && out[29] == BYTE1(w) && out[30] == BYTE2(w) &&
      out[31] == BYTE3(w);
    check ensures b8: \let w = \old(ADD(ROUNDS(10, 8, 0x61707865, 0x3320646e,
          0x79622d32, 0x6b206574, KW(key, 0), KW(key, 1), KW(key, 2),
          KW(key, 3), KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7),
          counter, KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)),
        LE32(key[16], key[17], key[18], key[19])));
      out[32] == BYTE0(w) && out[33] == BYTE1(w) && out[34] == BYTE2(w) &&
      out[35] == BYTE3(w);
    check ensures b9: \let w = \old(ADD(ROUNDS(10, 9, 0x61707865, 0x3320646e,
          0x79622d32, 0x6b206574, KW(key, 0), KW(key, 1), KW(key, 2),
          KW(key, 3), KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7),
          counter, KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)),
        LE32(key[20], key[21], key[22], key[23])));
      out[36] == BYTE0(w) && out[37] == BYTE1(w) && out[38] == BYTE2(w) &&
      out[39] == BYTE3(w);
    check ensures b10: \let w = \old(ADD(ROUNDS(10, 10, 0x61707865, 0x3320646e,
          0x79622d32, 0x6b206574, KW(key, 0), KW(key, 1), KW(key, 2),
          KW(key, 3), KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7),
          counter, KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)),
        LE32(key[24], key[25], key[26], key[27])));
      out[40] == BYTE0(w) && out[41] == BYTE1(w) && out[42] == BYTE2(w) &&
      out[43] == BYTE3(w);
    check ensures b11: \let w = \old(ADD(ROUNDS(10, 11, 0x61707865, 0x3320646e,
          0x79622d32, 0x6b206574, KW(key, 0), KW(key, 1), KW(key, 2),
          KW(key, 3), KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7),
          counter, KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)),
        LE32(key[28], key[29], key[30], key[31])));
      out[44] == BYTE0(w) && out[45] == BYTE1(w) && out[46] == BYTE2(w) &&
      out[47] == BYTE3(w);
    check ensures b12: \let w = \old(ADD(ROUNDS(10, 12, 0x61707865,
          0x3320646e, 0x79622d32, 0x6b206574, KW(key, 0), KW(key, 1),
          KW(key, 2), KW(key, 3), KW(key, 4), KW(key, 5), KW(key, 6),
          KW(key, 7), counter, KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)),
        counter));
      out[48] == BYTE0(w) && out[49] == BYTE1(w) && out[50] == BYTE2(w) &&
      out[51] == BYTE3(w);
    check ensures b13: \let w = \old(ADD(ROUNDS(10, 13, 0x61707865, 0x3320646e,
          0x79622d32, 0x6b206574, KW(key, 0), KW(key, 1), KW(key, 2),
          KW(key, 3), KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7),
          counter, KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)),
        LE32(nonce[0], nonce[1], nonce[2], nonce[3])));
      out[52] == BYTE0(w) && out[53] == BYTE1(w) && out[54] == BYTE2(w) &&
      out[55] == BYTE3(w);
    check ensures b14: \let w = \old(ADD(ROUNDS(10, 14, 0x61707865, 0x3320646e,
          0x79622d32, 0x6b206574, KW(key, 0), KW(key, 1), KW(key, 2),
          KW(key, 3), KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7),
          counter, KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)),
        LE32(nonce[4], nonce[5], nonce[6], nonce[7])));
      out[56] == BYTE0(w) && out[57] == BYTE1(w) && out[58] == BYTE2(w) &&
      out[59] == BYTE3(w);
    check ensures b15: \let w = \old(ADD(ROUNDS(10, 15, 0x61707865, 0x3320646e,
          0x79622d32, 0x6b206574, KW(key, 0), KW(key, 1), KW(key, 2),
          KW(key, 3), KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7),
          counter, KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)),
        LE32(nonce[8], nonce[9], nonce[10], nonce[11])));
      out[60] == BYTE0(w) && out[61] == BYTE1(w) && out[62] == BYTE2(w) &&
      out[63] == BYTE3(w);
 */
void chacha20_block(uint8_t out[64], const uint8_t key[32], uint32_t counter,
		    const uint8_t nonce[12]);

/*
 * Keystream XOR (RFC 8439 2.4): out[i] = in[i] ^ keystream[i] for
 * i < len, the keystream starting at block `counter`. The block counter is a
 * 32-bit word that wraps modulo 2^32 (the nonce is never touched).
 * out may equal in (in place); otherwise the buffers must not overlap.
 * len may be 0. Returns the counter of the next unused block
 * (counter + ceil(len / 64), mod 2^32). No alignment needed.
 * Functional contract (CHACHA_XOR_SPEC, set by the gate components chacha
 * and chacha-xor): byte i = 64 m + 4 j + b of out is byte i of in xor byte
 * b (clause xb) of word j of ChaCha20 block counter + m (mod 2^32: CTR).
 */
#ifdef CHACHA_XOR_SPEC
/*@ requires valid_out: \valid(out + (0 .. len - 1));
    requires valid_in: \valid_read(in + (0 .. len - 1));
    requires valid_key: \valid_read(key + (0 .. 31));
    requires valid_nonce: \valid_read(nonce + (0 .. 11));
    requires in_place: out == in ||
                       \separated(out + (0 .. len - 1), in + (0 .. len - 1));
    requires sep_key: \separated(out + (0 .. len - 1), key + (0 .. 31));
    requires sep_nonce: \separated(out + (0 .. len - 1), nonce + (0 .. 11));
    assigns out[0 .. len - 1];
    ensures next: \result == CTR(counter, (len + 63) / 64);
    ensures x0: \forall integer m, j; 0 <= m && 0 <= j < 16 &&
      64 * m + 4 * j < len ==>
      out[64 * m + 4 * j] == (uint8_t)(\old(in[64 * m + 4 * j]) ^
        BYTE0(\old(CHACHA(j, KW(key, 0), KW(key, 1), KW(key, 2),
          KW(key, 3), KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7),
          CTR(counter, m), KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)))));
    ensures x1: \forall integer m, j; 0 <= m && 0 <= j < 16 &&
      64 * m + 4 * j + 1 < len ==>
      out[64 * m + 4 * j + 1] == (uint8_t)(\old(in[64 * m + 4 * j + 1]) ^
        BYTE1(\old(CHACHA(j, KW(key, 0), KW(key, 1), KW(key, 2),
          KW(key, 3), KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7),
          CTR(counter, m), KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)))));
    ensures x2: \forall integer m, j; 0 <= m && 0 <= j < 16 &&
      64 * m + 4 * j + 2 < len ==>
      out[64 * m + 4 * j + 2] == (uint8_t)(\old(in[64 * m + 4 * j + 2]) ^
        BYTE2(\old(CHACHA(j, KW(key, 0), KW(key, 1), KW(key, 2),
          KW(key, 3), KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7),
          CTR(counter, m), KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)))));
    ensures x3: \forall integer m, j; 0 <= m && 0 <= j < 16 &&
      64 * m + 4 * j + 3 < len ==>
      out[64 * m + 4 * j + 3] == (uint8_t)(\old(in[64 * m + 4 * j + 3]) ^
        BYTE3(\old(CHACHA(j, KW(key, 0), KW(key, 1), KW(key, 2),
          KW(key, 3), KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7),
          CTR(counter, m), KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)))));
 */
#else
/*@ requires valid_out: \valid(out + (0 .. len - 1));
    requires valid_in: \valid_read(in + (0 .. len - 1));
    requires valid_key: \valid_read(key + (0 .. 31));
    requires valid_nonce: \valid_read(nonce + (0 .. 11));
    requires in_place: out == in ||
                       \separated(out + (0 .. len - 1), in + (0 .. len - 1));
    requires sep_key: \separated(out + (0 .. len - 1), key + (0 .. 31));
    requires sep_nonce: \separated(out + (0 .. len - 1), nonce + (0 .. 11));
    assigns out[0 .. len - 1];
 */
#endif
uint32_t chacha20_xor(uint8_t *out, const uint8_t *in, size_t len,
		      const uint8_t key[32], uint32_t counter,
		      const uint8_t nonce[12]);

/*
 * HChaCha20: the 20 rounds over constants | key | nonce[0..15] without the
 * final addition; out = words 0..3 and 12..15, little-endian.
 * out may equal key.
 */
/*@ requires valid_out: \valid(out + (0 .. 31));
    requires valid_key: \valid_read(key + (0 .. 31));
    requires valid_nonce: \valid_read(nonce + (0 .. 15));
    requires in_place: out == key ||
                       \separated(out + (0 .. 31), key + (0 .. 31));
    requires sep_nonce: \separated(out + (0 .. 31), nonce + (0 .. 15));
    assigns out[0 .. 31];
    ensures w0: \let w = \old(HC(0, key, nonce));
      out[0] == BYTE0(w) && out[1] == BYTE1(w) && out[2] == BYTE2(w) &&
      out[3] == BYTE3(w);
    ensures w1: \let w = \old(HC(1, key, nonce));
      out[4] == BYTE0(w) && out[5] == BYTE1(w) && out[6] == BYTE2(w) &&
      out[7] == BYTE3(w);
    ensures w2: \let w = \old(HC(2, key, nonce));
      out[8] == BYTE0(w) && out[9] == BYTE1(w) && out[10] == BYTE2(w) &&
      out[11] == BYTE3(w);
    ensures w3: \let w = \old(HC(3, key, nonce));
      out[12] == BYTE0(w) && out[13] == BYTE1(w) && out[14] == BYTE2(w) &&
      out[15] == BYTE3(w);
    ensures w4: \let w = \old(HC(4, key, nonce));
      out[16] == BYTE0(w) && out[17] == BYTE1(w) && out[18] == BYTE2(w) &&
      out[19] == BYTE3(w);
    ensures w5: \let w = \old(HC(5, key, nonce));
      out[20] == BYTE0(w) && out[21] == BYTE1(w) && out[22] == BYTE2(w) &&
      out[23] == BYTE3(w);
    ensures w6: \let w = \old(HC(6, key, nonce));
      out[24] == BYTE0(w) && out[25] == BYTE1(w) && out[26] == BYTE2(w) &&
      out[27] == BYTE3(w);
    ensures w7: \let w = \old(HC(7, key, nonce));
      out[28] == BYTE0(w) && out[29] == BYTE1(w) && out[30] == BYTE2(w) &&
      out[31] == BYTE3(w);
 */
void hchacha20(uint8_t out[32], const uint8_t key[32], const uint8_t nonce[16]);

/*
 * XChaCha20 keystream XOR: ChaCha20 under HChaCha20(key, nonce[0..15]) with
 * the 12-byte nonce 0^4 | nonce[16..23]. Same aliasing rules and return
 * value as chacha20_xor.
 */
/*@ requires valid_out: \valid(out + (0 .. len - 1));
    requires valid_in: \valid_read(in + (0 .. len - 1));
    requires valid_key: \valid_read(key + (0 .. 31));
    requires valid_nonce: \valid_read(nonce + (0 .. 23));
    requires in_place: out == in ||
                       \separated(out + (0 .. len - 1), in + (0 .. len - 1));
    requires sep_key: \separated(out + (0 .. len - 1), key + (0 .. 31));
    requires sep_nonce: \separated(out + (0 .. len - 1), nonce + (0 .. 23));
    assigns out[0 .. len - 1];
 */
uint32_t xchacha20_xor(uint8_t *out, const uint8_t *in, size_t len,
		       const uint8_t key[32], uint32_t counter,
		       const uint8_t nonce[24]);

#endif
