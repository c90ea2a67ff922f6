/* SPDX-License-Identifier: MIT */
/*
 * The kern layer: the entry points through which the one AEAD composition
 * (aead/chachapoly.c: ChaCha20-Poly1305 and XChaCha20-Poly1305, the content
 * blocks, xattr values and symlink targets of the mount at every CPU
 * level) reaches the kernels chosen at run time (dispatch.h).
 * Each entry point has the signature of the proved reference function it
 * stands for and a copy of its ACSL contract in the model's terms:
 *   kern_chacha20_xor     as chacha20_xor (chacha20/ref.h; the functional
 *                         clauses under CHACHA_XOR_SPEC, as there)
 *   kern_hchacha20        as hchacha20 (w0..w7)
 *   kern_poly1305_init, kern_poly1305_pad16, kern_poly1305_finish
 *                         as poly1305_init/pad16/finish (poly1305/ref.h) over
 *                         the same struct poly1305 at every level
 * and two whole-AEAD entry points for the stitched kernels (ChaCha20 and
 * Poly1305 in one pass, kernels.h chachapoly_body_fn), each with a
 * contract of its own stated over RFC 8439 2.8 (the keystream from
 * counter 1 and EXPECTED_TAG of spec/aead.acsl):
 *   kern_chachapoly_seal_body  c and the tag, or 0 (nothing written) when
 *                              the level has no body for this length
 *   kern_chachapoly_open_body  the plaintext into a private buffer and the
 *                              expected tag, when
 *                              kern_chachapoly_open_body_avail says the
 *                              level has one for the length; the
 *                              composition compares the tags, then copies
 *                              or wipes
 * WP proves the composition against these prototypes (a function with a
 * contract and no body is taken as its contract says). Each body in
 * aead/kern.c calls through the dispatch table: that one indirection is the
 * trusted step, tied down by tests/unit/test_kernels.c, test_kern.c and
 * fuzz/fuzz_diff_aead.c (every kernel against the proved ref functions).
 * At the portable level every entry point runs the proved ref function
 * itself (chacha20_xor, hchacha20, poly1305_init/pad16/finish).
 * Spec: RFC 8439 sections 2.3-2.5 and 2.8; draft-irtf-cfrg-xchacha-03 2.2.
 * Depends on: chacha20/ref.h, poly1305/ref.h (types, contracts), dispatch.h and
 * kernels.h (in aead/kern.c only).
 * Constant time: yes (every kernel is; no secret-dependent branch here:
 * the choices depend on the level and the lengths only).
 * Thread-safety: reentrant once dispatch_init() has run; the call counts
 * are per thread.
 * Not proved (the bodies); the contracts are the obligations the kernels
 * are tested against.
 */
#ifndef VCRYPTFS_KERN_H
#define VCRYPTFS_KERN_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/chacha20/ref.h"
#include "crypto/poly1305/ref.h"

#ifdef __FRAMAC__
/* EXPECTED_TAG and tag_ok (spec/aead.acsl, included there once) */
#include "crypto/aead/chachapoly.h"
#endif

/* Longest open that goes through kern_chachapoly_open_body: one
 * gocryptfs content block (the composition keeps its plaintext on the
 * stack until the tag verifies). */
#define KERN_OPEN_MAX 4096

/* As chacha20_xor (chacha20/ref.h): the dispatched ChaCha20 kernel. */
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
uint32_t kern_chacha20_xor(uint8_t *out, const uint8_t *in, size_t len,
			   const uint8_t key[32], uint32_t counter,
			   const uint8_t nonce[12]);

/* As hchacha20 (chacha20/ref.h): the dispatched HChaCha20 (the proved one at
 * the portable level). */
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
void kern_hchacha20(uint8_t out[32], const uint8_t key[32],
		    const uint8_t nonce[16]);

/* As poly1305_init (poly1305/ref.h); the proved one at every level. */
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
void kern_poly1305_init(struct poly1305 *st, const uint8_t key[32]);

/*
 * As poly1305_pad16 (poly1305/ref.h). With a vector Poly1305 (AVX2, IFMA) and
 * 16 whole blocks or more: the accumulator goes from the 26-bit limbs to
 * the 44/44/42-bit limbs of the block kernels once per call, the whole
 * blocks run through the dispatched blocks function, and it comes back
 * in limbs that satisfy limbs_ok; the zero-padded tail and every shorter
 * run go to the proved poly1305_pad16.
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
void kern_poly1305_pad16(struct poly1305 *st, const uint8_t *m, size_t len);

/* As poly1305_finish (poly1305/ref.h); the proved one at every level. */
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
void kern_poly1305_finish(struct poly1305 *st, uint8_t tag[16]);

/*
 * The whole ChaCha20-Poly1305 seal (RFC 8439 2.8) in one stitched pass,
 * when the level has a seal body and len is at least one of its SIMD
 * steps: c = m xor the keystream from counter 1, tag = the tag of
 * (key, nonce, ad, c); returns 1. Otherwise returns 0 and writes nothing
 * (the caller then runs the generic ChaCha20 and Poly1305 path). c may
 * equal m; ad may be NULL when adlen is 0.
 */
#ifdef CHACHA_XOR_SPEC
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
    ensures result: \result == 0 || \result == 1;
    ensures none: \result == 0 ==>
      (\forall integer i; 0 <= i < len ==> c[i] == \old(c[i])) &&
      (\forall integer i; 0 <= i < 16 ==> tag[i] == \old(tag[i]));
    ensures tag: \result == 1 ==> \forall integer i; 0 <= i < 16 ==>
      tag[i] == EXPECTED_TAG(i, key, nonce, ad, adlen, c, len);
    ensures x0: \result == 1 ==>
      \forall integer k, j; 0 <= k && 0 <= j < 16 &&
      64 * k + 4 * j < len ==>
      c[64 * k + 4 * j] == (uint8_t)(\old(m[64 * k + 4 * j]) ^
        BYTE0(\old(CHACHA(j, KW(key, 0), KW(key, 1), KW(key, 2),
          KW(key, 3), KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7),
          CTR(1, k), KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)))));
    ensures x1: \result == 1 ==>
      \forall integer k, j; 0 <= k && 0 <= j < 16 &&
      64 * k + 4 * j + 1 < len ==>
      c[64 * k + 4 * j + 1] == (uint8_t)(\old(m[64 * k + 4 * j + 1]) ^
        BYTE1(\old(CHACHA(j, KW(key, 0), KW(key, 1), KW(key, 2),
          KW(key, 3), KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7),
          CTR(1, k), KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)))));
    ensures x2: \result == 1 ==>
      \forall integer k, j; 0 <= k && 0 <= j < 16 &&
      64 * k + 4 * j + 2 < len ==>
      c[64 * k + 4 * j + 2] == (uint8_t)(\old(m[64 * k + 4 * j + 2]) ^
        BYTE2(\old(CHACHA(j, KW(key, 0), KW(key, 1), KW(key, 2),
          KW(key, 3), KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7),
          CTR(1, k), KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)))));
    ensures x3: \result == 1 ==>
      \forall integer k, j; 0 <= k && 0 <= j < 16 &&
      64 * k + 4 * j + 3 < len ==>
      c[64 * k + 4 * j + 3] == (uint8_t)(\old(m[64 * k + 4 * j + 3]) ^
        BYTE3(\old(CHACHA(j, KW(key, 0), KW(key, 1), KW(key, 2),
          KW(key, 3), KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7),
          CTR(1, k), KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)))));
 */
#else
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
    ensures result: \result == 0 || \result == 1;
    ensures none: \result == 0 ==>
      (\forall integer i; 0 <= i < len ==> c[i] == \old(c[i])) &&
      (\forall integer i; 0 <= i < 16 ==> tag[i] == \old(tag[i]));
    ensures tag: \result == 1 ==> \forall integer i; 0 <= i < 16 ==>
      tag[i] == EXPECTED_TAG(i, key, nonce, ad, adlen, c, len);
 */
#endif
int kern_chachapoly_seal_body(uint8_t *c, uint8_t tag[16], const uint8_t *m,
			      size_t len, const uint8_t *ad, size_t adlen,
			      const uint8_t key[32], const uint8_t nonce[12]);

/*
 * Whether the level has a stitched open body for len bytes (len between
 * one of its SIMD steps and KERN_OPEN_MAX): KERN_OPEN_AVAIL(len), a fact
 * of the level chosen at run time that the composition only tests.
 */
/*@ axiomatic KernOpen {
      predicate KERN_OPEN_AVAIL(integer len);
    }
 */
/*@ assigns \nothing;
    ensures avail: \result != 0 <==> KERN_OPEN_AVAIL(len);
    ensures small: \result != 0 ==> len <= 4096;
 */
int kern_chachapoly_open_body_avail(size_t len);
/*
 * The body of a ChaCha20-Poly1305 open in one stitched pass, when
 * kern_chachapoly_open_body_avail(len) said so: m = c xor the keystream
 * from counter 1 (m is the caller's private buffer: it must not overlap
 * c) and want = the tag that (key, nonce, ad, c) should carry. The caller
 * compares want with the tag it was given and releases m only when they
 * match (and wipes it either way). (What m holds is not in the contract:
 * the composition's contract says nothing of the plaintext's bytes.)
 */
/*@ requires avail: KERN_OPEN_AVAIL(len);
    requires valid_m: \valid(m + (0 .. len - 1));
    requires valid_want: \valid(want + (0 .. 15));
    requires valid_c: \valid_read(c + (0 .. len - 1));
    requires valid_ad: \valid_read(ad + (0 .. adlen - 1));
    requires valid_key: \valid_read(key + (0 .. 31));
    requires valid_nonce: \valid_read(nonce + (0 .. 11));
    requires sep_m: \separated(m + (0 .. len - 1), c + (0 .. len - 1)) &&
                    \separated(m + (0 .. len - 1), want + (0 .. 15)) &&
                    \separated(m + (0 .. len - 1), ad + (0 .. adlen - 1)) &&
                    \separated(m + (0 .. len - 1), key + (0 .. 31)) &&
                    \separated(m + (0 .. len - 1), nonce + (0 .. 11));
    requires sep_want: \separated(want + (0 .. 15), c + (0 .. len - 1)) &&
                       \separated(want + (0 .. 15), ad + (0 .. adlen - 1)) &&
                       \separated(want + (0 .. 15), key + (0 .. 31)) &&
                       \separated(want + (0 .. 15), nonce + (0 .. 11));
    assigns m[0 .. len - 1], want[0 .. 15];
    ensures want: \forall integer i; 0 <= i < 16 ==>
      want[i] == \old(EXPECTED_TAG(i, key, nonce, ad, adlen, c, len));
 */
void kern_chachapoly_open_body(uint8_t *m, uint8_t want[16], const uint8_t *c,
			       size_t len, const uint8_t *ad, size_t adlen,
			       const uint8_t key[32], const uint8_t nonce[12]);

#ifndef __FRAMAC__
/*
 * Which code ran: per-thread counts of the targets the entry points
 * reached (tests; always compiled, a thread-local increment each).
 */
enum kern_target {
	KERN_CHACHA20_REF,    /* chacha20_xor (chacha20/ref.c, proved) */
	KERN_CHACHA20_SIMD,   /* a SIMD ChaCha20 kernel */
	KERN_HCHACHA20_REF,   /* hchacha20 (chacha20/ref.c, proved) */
	KERN_HCHACHA20_FAST,  /* the scalar core of chacha20/fastblock.h */
	KERN_POLY_INIT_REF,   /* poly1305_init (poly1305/ref.c, proved) */
	KERN_POLY_PAD16_REF,  /* poly1305_pad16 (poly1305/ref.c, proved) */
	KERN_POLY_PAD16_VEC,  /* a vector blocks function (AVX2, IFMA) */
	KERN_POLY_FINISH_REF, /* poly1305_finish (poly1305/ref.c, proved) */
	KERN_SEAL_BODY,	      /* a stitched seal body */
	KERN_OPEN_BODY,	      /* a stitched open body */
	KERN_NTARGETS
};

/* This thread's counts since its start or the last kern_counts_reset(). */
void kern_counts(unsigned long out[KERN_NTARGETS]);
void kern_counts_reset(void);
#endif

#endif
