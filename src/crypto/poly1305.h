/* SPDX-License-Identifier: MIT */
/*
 * Portable Poly1305 (RFC 8439 section 2.5), 5 x 26-bit limbs with 64-bit
 * products so that Frama-C can parse and prove it (no __int128). This is the
 * reference for the faster poly1305_*.c kernels.
 * Depends on: ct.h only.
 * Constant time: no secret-dependent branch or index.
 * Contracts: spec/poly1305.acsl, proved by Frama-C WP (proofs/).
 */
#ifndef VCRYPTFS_POLY1305_H
#define VCRYPTFS_POLY1305_H

#include <stddef.h>
#include <stdint.h>

#define POLY1305_KEY_LEN 32
#define POLY1305_TAG_LEN 16
#define POLY1305_BLOCK_LEN 16

/* Incremental state. Treat as opaque; wiped by poly1305_final. */
struct poly1305 {
	uint32_t r[5];	 /* clamped r in 26-bit limbs */
	uint32_t h[5];	 /* accumulator, limbs < 2^26 (+ small carry) */
	uint32_t s[4];	 /* second key half, little-endian words */
	uint8_t buf[16]; /* pending partial block */
	size_t buflen;	 /* 0..15 bytes pending in buf */
};

/* Start a MAC with the one-time key (r | s). */
void poly1305_init(struct poly1305 *st, const uint8_t key[32]);

/*
 * Absorb m[0..len-1]. Any number of calls, any lengths (0 included); the
 * tag depends only on the concatenation of all messages.
 */
void poly1305_update(struct poly1305 *st, const uint8_t *m, size_t len);

/* Write the 16-byte tag and wipe the state. */
void poly1305_final(struct poly1305 *st, uint8_t tag[16]);

/* One-shot: tag = Poly1305(key, m). */
void poly1305_mac(uint8_t tag[16], const uint8_t *m, size_t len,
		  const uint8_t key[32]);

#endif
