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

#define CHACHA20_KEY_LEN 32
#define CHACHA20_NONCE_LEN 12
#define CHACHA20_BLOCK_LEN 64
#define HCHACHA20_NONCE_LEN 16
#define XCHACHA20_NONCE_LEN 24

/*
 * One ChaCha20 block (RFC 8439 2.3): out = serialize(state + rounds(state))
 * for state = constants | key | counter | nonce.
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
uint32_t chacha20_xor(uint8_t *out, const uint8_t *in, size_t len,
		      const uint8_t key[32], uint32_t counter,
		      const uint8_t nonce[12]);

/*
 * HChaCha20: the 20 rounds over constants | key | nonce[0..15] without the
 * final addition; out = words 0..3 and 12..15, little-endian.
 * out may equal key.
 */
void hchacha20(uint8_t out[32], const uint8_t key[32], const uint8_t nonce[16]);

/*
 * XChaCha20 keystream XOR: ChaCha20 under HChaCha20(key, nonce[0..15]) with
 * the 12-byte nonce 0^4 | nonce[16..23]. Same aliasing rules and return
 * value as chacha20_xor.
 */
uint32_t xchacha20_xor(uint8_t *out, const uint8_t *in, size_t len,
		       const uint8_t key[32], uint32_t counter,
		       const uint8_t nonce[24]);

#endif
