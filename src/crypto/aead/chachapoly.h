/* SPDX-License-Identifier: MIT */
/*
 * ChaCha20-Poly1305 AEAD (RFC 8439 section 2.8) and XChaCha20-Poly1305
 * (draft-irtf-cfrg-xchacha-03 section 2.3, the construction gocryptfs uses
 * for -xchacha): portable, built on chacha20/ref.c and poly1305/ref.c.
 * Depends on: chacha20/ref.h, poly1305/ref.h, ct.h.
 * Tags are detached so callers can lay out nonce | ciphertext | tag as
 * gocryptfs does (pass tag = c + len).
 * Constant time: tag comparison is constant time; open checks the tag
 * before it writes a single byte of plaintext.
 * Contracts: spec/aead.acsl (open writes nothing unless the tag verifies).
 */
#ifndef VCRYPTFS_AEAD_XCHACHA_H
#define VCRYPTFS_AEAD_XCHACHA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __FRAMAC__
#include "crypto/chacha20/ref.h"
#include "crypto/poly1305/ref.h"
#include "../../../spec/aead.acsl"
#endif

#define AEAD_TAG_LEN 16

/*
 * Seal: c[0..len-1] = ChaCha20(key, nonce, counter 1) ^ m, and
 * tag = Poly1305(ad | pad | c | pad | len(ad) | len(c)).
 * c may equal m (in place); no other overlap. ad may be NULL when adlen is 0.
 */
/*@ requires valid_c: \valid(c + (0 .. len - 1));
    requires valid_m: \valid_read(m + (0 .. len - 1));
    requires valid_tag: \valid(tag + (0 .. 15));
    requires valid_ad: \valid_read(ad + (0 .. adlen - 1));
    requires valid_key: \valid_read(key + (0 .. 31));
    requires valid_nonce: \valid_read(nonce + (0 .. 11));
    requires in_place: c == m ||
                       \separated(c + (0 .. len - 1), m + (0 .. len - 1));
    requires sep_c: \separated(c + (0 .. len - 1), tag + (0 .. 15)) &&
                    \separated(c + (0 .. len - 1), ad + (0 .. adlen - 1)) &&
                    \separated(c + (0 .. len - 1), key + (0 .. 31)) &&
                    \separated(c + (0 .. len - 1), nonce + (0 .. 11));
    requires sep_tag: \separated(tag + (0 .. 15), m + (0 .. len - 1)) &&
                      \separated(tag + (0 .. 15), ad + (0 .. adlen - 1)) &&
                      \separated(tag + (0 .. 15), key + (0 .. 31)) &&
                      \separated(tag + (0 .. 15), nonce + (0 .. 11));
    assigns c[0 .. len - 1], tag[0 .. 15];
    ensures tag: tag_ok(key, nonce, ad, adlen, c, len, tag);
 */
void chachapoly_seal(uint8_t *c, uint8_t tag[16], const uint8_t *m, size_t len,
		     const uint8_t *ad, size_t adlen, const uint8_t key[32],
		     const uint8_t nonce[12]);

/*
 * Open: verifies tag over (ad, c) in constant time; only if it matches,
 * writes m[0..len-1] and returns 0. On mismatch returns -1 and leaves m
 * untouched. m may equal c (in place).
 */
/*@ requires valid_m: \valid(m + (0 .. len - 1));
    requires valid_c: \valid_read(c + (0 .. len - 1));
    requires valid_tag: \valid_read(tag + (0 .. 15));
    requires valid_ad: \valid_read(ad + (0 .. adlen - 1));
    requires valid_key: \valid_read(key + (0 .. 31));
    requires valid_nonce: \valid_read(nonce + (0 .. 11));
    requires in_place: m == c ||
                       \separated(m + (0 .. len - 1), c + (0 .. len - 1));
    requires sep_m: \separated(m + (0 .. len - 1), tag + (0 .. 15)) &&
                    \separated(m + (0 .. len - 1), ad + (0 .. adlen - 1)) &&
                    \separated(m + (0 .. len - 1), key + (0 .. 31)) &&
                    \separated(m + (0 .. len - 1), nonce + (0 .. 11));
    assigns m[0 .. len - 1];
    ensures result: \result == 0 || \result == -1;
    ensures unchanged: \result != 0 ==>
      \forall integer i; 0 <= i < len ==> m[i] == \old(m[i]);
    behavior forged:
      assumes !tag_ok(key, nonce, ad, adlen, c, len, tag);
      assigns \nothing;
      ensures rejected: \result == -1;
    behavior authentic:
      assumes tag_ok(key, nonce, ad, adlen, c, len, tag);
      assigns m[0 .. len - 1];
      ensures accepted: \result == 0;
    complete behaviors;
    disjoint behaviors;
 */
int chachapoly_open(uint8_t *m, const uint8_t *c, size_t len,
		    const uint8_t tag[16], const uint8_t *ad, size_t adlen,
		    const uint8_t key[32], const uint8_t nonce[12]);

/* XChaCha20-Poly1305: subkey = HChaCha20(key, nonce[0..15]), then the IETF
 * AEAD above with nonce 0^4 | nonce[16..23]. Same rules as above. */
/*@ requires valid_c: \valid(c + (0 .. len - 1));
    requires valid_m: \valid_read(m + (0 .. len - 1));
    requires valid_tag: \valid(tag + (0 .. 15));
    requires valid_ad: \valid_read(ad + (0 .. adlen - 1));
    requires valid_key: \valid_read(key + (0 .. 31));
    requires valid_nonce: \valid_read(nonce + (0 .. 23));
    requires in_place: c == m ||
                       \separated(c + (0 .. len - 1), m + (0 .. len - 1));
    requires sep_c: \separated(c + (0 .. len - 1), tag + (0 .. 15)) &&
                    \separated(c + (0 .. len - 1), ad + (0 .. adlen - 1)) &&
                    \separated(c + (0 .. len - 1), key + (0 .. 31)) &&
                    \separated(c + (0 .. len - 1), nonce + (0 .. 23));
    requires sep_tag: \separated(tag + (0 .. 15), m + (0 .. len - 1)) &&
                      \separated(tag + (0 .. 15), ad + (0 .. adlen - 1)) &&
                      \separated(tag + (0 .. 15), key + (0 .. 31)) &&
                      \separated(tag + (0 .. 15), nonce + (0 .. 23));
    assigns c[0 .. len - 1], tag[0 .. 15];
 */
void xchachapoly_seal(uint8_t *c, uint8_t tag[16], const uint8_t *m, size_t len,
		      const uint8_t *ad, size_t adlen, const uint8_t key[32],
		      const uint8_t nonce[24]);

/*@ requires valid_m: \valid(m + (0 .. len - 1));
    requires valid_c: \valid_read(c + (0 .. len - 1));
    requires valid_tag: \valid_read(tag + (0 .. 15));
    requires valid_ad: \valid_read(ad + (0 .. adlen - 1));
    requires valid_key: \valid_read(key + (0 .. 31));
    requires valid_nonce: \valid_read(nonce + (0 .. 23));
    requires in_place: m == c ||
                       \separated(m + (0 .. len - 1), c + (0 .. len - 1));
    requires sep_m: \separated(m + (0 .. len - 1), tag + (0 .. 15)) &&
                    \separated(m + (0 .. len - 1), ad + (0 .. adlen - 1)) &&
                    \separated(m + (0 .. len - 1), key + (0 .. 31)) &&
                    \separated(m + (0 .. len - 1), nonce + (0 .. 23));
    assigns m[0 .. len - 1];
    ensures result: \result == 0 || \result == -1;
    ensures unchanged: \result != 0 ==>
      \forall integer i; 0 <= i < len ==> m[i] == \old(m[i]);
 */
int xchachapoly_open(uint8_t *m, const uint8_t *c, size_t len,
		     const uint8_t tag[16], const uint8_t *ad, size_t adlen,
		     const uint8_t key[32], const uint8_t nonce[24]);

#endif
