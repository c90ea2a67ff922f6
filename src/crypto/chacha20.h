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
#include "../../spec/chacha.acsl"
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
    ensures block:
      \let k0 = \old(LE32(key[0], key[1], key[2], key[3]));
      \let k1 = \old(LE32(key[4], key[5], key[6], key[7]));
      \let k2 = \old(LE32(key[8], key[9], key[10], key[11]));
      \let k3 = \old(LE32(key[12], key[13], key[14], key[15]));
      \let k4 = \old(LE32(key[16], key[17], key[18], key[19]));
      \let k5 = \old(LE32(key[20], key[21], key[22], key[23]));
      \let k6 = \old(LE32(key[24], key[25], key[26], key[27]));
      \let k7 = \old(LE32(key[28], key[29], key[30], key[31]));
      \let n0 = \old(LE32(nonce[0], nonce[1], nonce[2], nonce[3]));
      \let n1 = \old(LE32(nonce[4], nonce[5], nonce[6], nonce[7]));
      \let n2 = \old(LE32(nonce[8], nonce[9], nonce[10], nonce[11]));
      \forall integer j; IN16(j) ==>
        \let w = BLOCK(j, 0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
                       k0, k1, k2, k3, k4, k5, k6, k7, counter, n0, n1, n2);
        out[4 * j] == BYTE0(w) && out[4 * j + 1] == BYTE1(w) &&
        out[4 * j + 2] == BYTE2(w) && out[4 * j + 3] == BYTE3(w);
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
 */
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
    ensures words:
      \let k0 = \old(LE32(key[0], key[1], key[2], key[3]));
      \let k1 = \old(LE32(key[4], key[5], key[6], key[7]));
      \let k2 = \old(LE32(key[8], key[9], key[10], key[11]));
      \let k3 = \old(LE32(key[12], key[13], key[14], key[15]));
      \let k4 = \old(LE32(key[16], key[17], key[18], key[19]));
      \let k5 = \old(LE32(key[20], key[21], key[22], key[23]));
      \let k6 = \old(LE32(key[24], key[25], key[26], key[27]));
      \let k7 = \old(LE32(key[28], key[29], key[30], key[31]));
      \let n0 = \old(LE32(nonce[0], nonce[1], nonce[2], nonce[3]));
      \let n1 = \old(LE32(nonce[4], nonce[5], nonce[6], nonce[7]));
      \let n2 = \old(LE32(nonce[8], nonce[9], nonce[10], nonce[11]));
      \let n3 = \old(LE32(nonce[12], nonce[13], nonce[14], nonce[15]));
      \forall integer j; 0 <= j < 4 ==>
        \let lo = ROUNDS(10, j, 0x61707865, 0x3320646e, 0x79622d32,
                       0x6b206574, k0, k1, k2, k3, k4, k5, k6, k7,
                       n0, n1, n2, n3);
        \let hi = ROUNDS(10, j + 12, 0x61707865, 0x3320646e, 0x79622d32,
                       0x6b206574, k0, k1, k2, k3, k4, k5, k6, k7,
                       n0, n1, n2, n3);
        out[4 * j] == BYTE0(lo) && out[4 * j + 1] == BYTE1(lo) &&
        out[4 * j + 2] == BYTE2(lo) && out[4 * j + 3] == BYTE3(lo) &&
        out[16 + 4 * j] == BYTE0(hi) && out[16 + 4 * j + 1] == BYTE1(hi) &&
        out[16 + 4 * j + 2] == BYTE2(hi) && out[16 + 4 * j + 3] == BYTE3(hi);
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
