/* SPDX-License-Identifier: MIT */
/*
 * Portable Poly1305 (RFC 8439 section 2.5): 32-bit words with 64-bit
 * products in the block loop, 26-bit limbs between calls, so that Frama-C
 * can parse and prove it (no __int128). This is the reference for the
 * faster poly1305_*.c kernels.
 * Depends on: ct.h only.
 * Constant time: no secret-dependent branch or index.
 * Contracts: spec/poly1305.acsl, proved by Frama-C WP (proofs/).
 */
#ifndef VCRYPTFS_POLY1305_H
#define VCRYPTFS_POLY1305_H

#include <stddef.h>
#include <stdint.h>

#ifdef __FRAMAC__
#include "crypto/ct.h"
#endif

#define POLY1305_KEY_LEN 32
#define POLY1305_TAG_LEN 16
#define POLY1305_BLOCK_LEN 16

/* Incremental state. Treat as opaque; wiped by poly1305_final. */
struct poly1305 {
	uint32_t r[4];	 /* clamped r, little-endian words (each < 2^28) */
	uint32_t h[5];	 /* accumulator, limbs < 2^26 (h[1] < 2^26 + 2^12) */
	uint32_t s[4];	 /* second key half, little-endian words */
	uint8_t buf[16]; /* pending partial block */
	size_t buflen;	 /* 0..15 bytes pending in buf */
};

#ifdef __FRAMAC__
#include "../../../spec/poly1305.acsl"
#include "../../../spec/poly1305_model.acsl"
#endif

/* Start a MAC with the one-time key (r | s). "limbs" is limbs_ok(st)
 * spelled out (so that it is checked field by field after the stores).
 * buf is not written (nothing reads it before update fills it): the
 * AEAD composition's bytes stay as they are for WP. */
/*@ requires valid_st: \valid(st);
    requires valid_key: \valid_read(key + (0 .. 31));
    requires sep: \separated(st, key + (0 .. 31));
    assigns st->r[0 .. 3], st->h[0 .. 4], st->s[0 .. 3], st->buflen;
    ensures buflen: st->buflen == 0;
    ensures limbs: st->h[0] < 67108864 && st->h[1] < 67108864 + 4096 &&
                   st->h[2] < 67108864 && st->h[3] < 67108864 &&
                   st->h[4] < 67108864 && st->r[0] <= 0x0fffffff &&
                   st->r[1] <= 0x0ffffffc && st->r[2] <= 0x0ffffffc &&
                   st->r[3] <= 0x0ffffffc;
    ensures zero: st->h[0] == 0 && st->h[1] == 0 && st->h[2] == 0 &&
                  st->h[3] == 0 && st->h[4] == 0;
    ensures s: st->s[0] == \old(LE32(key[16], key[17], key[18], key[19])) &&
               st->s[1] == \old(LE32(key[20], key[21], key[22], key[23])) &&
               st->s[2] == \old(LE32(key[24], key[25], key[26], key[27])) &&
               st->s[3] == \old(LE32(key[28], key[29], key[30], key[31]));
    ensures clamp:
      st->r[0] == CLAMP0(\old(LE32(key[0], key[1], key[2], key[3]))) &&
      st->r[1] == CLAMPW(\old(LE32(key[4], key[5], key[6], key[7]))) &&
      st->r[2] == CLAMPW(\old(LE32(key[8], key[9], key[10], key[11]))) &&
      st->r[3] == CLAMPW(\old(LE32(key[12], key[13], key[14], key[15])));
    ensures mul4: st->r[1] % 4 == 0 && st->r[2] % 4 == 0 &&
                st->r[3] % 4 == 0;
 */
void poly1305_init(struct poly1305 *st, const uint8_t key[32]);

/*
 * Absorb m[0..len-1]. Any number of calls, any lengths (0 included); the
 * tag depends only on the concatenation of all messages.
 */
/*@ requires valid_st: \valid(st);
    requires buflen: st->buflen < 16;
    requires limbs: limbs_ok(st);
    requires valid_m: \valid_read(m + (0 .. len - 1));
    requires sep: \separated(st, m + (0 .. len - 1));
    requires mul4: st_mul4(st);
    assigns st->h[0 .. 4], st->buf[0 .. 15], st->buflen;
    ensures buflen: st->buflen < 16;
    ensures limbs: limbs_ok(st);
    ensures mul4: st_mul4(st);
 */
void poly1305_update(struct poly1305 *st, const uint8_t *m, size_t len);

/* Write the 16-byte tag and wipe the state. */
/*@ requires valid_st: \valid(st);
    requires buflen: st->buflen < 16;
    requires limbs: limbs_ok(st);
    requires valid_tag: \valid(tag + (0 .. 15));
    requires sep: \separated(st, tag + (0 .. 15));
    requires mul4: st_mul4(st);
    assigns *st, tag[0 .. 15];
 */
void poly1305_final(struct poly1305 *st, uint8_t tag[16]);

/*
 * Absorb m[0..len-1] zero-padded to a multiple of 16 bytes, every block
 * with its 2^128 bit: the pad16 of RFC 8439 section 2.8, used by the AEAD
 * composition for the AD, the ciphertext and the length block. Whole
 * blocks only: nothing may be pending from poly1305_update (buflen == 0).
 * m may be NULL when len is 0.
 */
/*@ requires valid_st: \valid(st);
    requires buflen: st->buflen == 0;
    requires limbs: limbs_ok(st);
    requires valid_m: \valid_read(m + (0 .. len - 1));
    requires sep: \separated(st, m + (0 .. len - 1));
    requires mul4: st_mul4(st);
    assigns st->h[0 .. 4];
    ensures limbs: limbs_ok(st);
    ensures mul4: st_mul4(st);
    ensures acc: H5(st->h[0], st->h[1], st->h[2], st->h[3], st->h[4]) %
      POLY_P == \old(POLY_PAD(H5(st->h[0], st->h[1], st->h[2], st->h[3],
      st->h[4]), m, len, S4(st->r[0], st->r[1], st->r[2], st->r[3]))) %
      POLY_P;
    ensures acc_nonneg: 0 <= \old(POLY_PAD(H5(st->h[0], st->h[1], st->h[2],
      st->h[3], st->h[4]), m, len, S4(st->r[0], st->r[1], st->r[2],
      st->r[3])));
 */
void poly1305_pad16(struct poly1305 *st, const uint8_t *m, size_t len);

/*
 * The tag of whole blocks absorbed so far (buflen == 0: only
 * poly1305_pad16, or updates of multiples of 16 bytes), (h mod p + s) mod
 * 2^128 little-endian; then wipe the state.
 */
/*@ requires valid_st: \valid(st);
    requires buflen: st->buflen == 0;
    requires limbs: limbs_ok(st);
    requires valid_tag: \valid(tag + (0 .. 15));
    requires sep: \separated(st, tag + (0 .. 15));
    assigns *st, tag[0 .. 15];
    ensures tag: \forall integer i; 0 <= i < 16 ==>
      tag[i] == TAG_BYTE(\old((H5(st->h[0], st->h[1], st->h[2], st->h[3],
        st->h[4]) % POLY_P + S4(st->s[0], st->s[1], st->s[2], st->s[3])) %
        P2_128), i);
 */
void poly1305_finish(struct poly1305 *st, uint8_t tag[16]);

/* One-shot: tag = Poly1305(key, m). mac_tag: the tag is the 16
 * little-endian bytes of the model's POLY1305(m, len, key)
 * (spec/poly1305_model.acsl; component poly1305-mac). */
/*@ requires valid_tag: \valid(tag + (0 .. 15));
    requires valid_m: \valid_read(m + (0 .. len - 1));
    requires valid_key: \valid_read(key + (0 .. 31));
    assigns tag[0 .. 15];
    ensures mac_tag: \forall integer i; 0 <= i < 16 ==>
      tag[i] == TAG_BYTE(\old(POLY1305(m, len, key)), i);
 */
void poly1305_mac(uint8_t tag[16], const uint8_t *m, size_t len,
		  const uint8_t key[32]);

#endif
