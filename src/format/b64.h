/* SPDX-License-Identifier: MIT */
/*
 * Base64 (RFC 4648) for the gocryptfs format: URL-safe alphabet (section 5)
 * for names, long-name hashes, symlink targets and xattr names, raw (no '=')
 * with the Raw64 flag or padded without it; the standard alphabet (section
 * 4, padded) for gocryptfs.conf members.
 * Spec: ../shared/FORMAT.md 5.3 (strict, canonical decoding), 2.2.
 * Depends on: nothing (pure C, no libc calls, no OpenSSL); used by names.c
 * and config.c. Written for Frama-C WP: branching character map, fixed
 * loops, no pointer casts. Not constant time (names are not secret here).
 * Contracts: this header (spec/b64.acsl), proved by Frama-C WP (proofs/,
 * component b64).
 */
#ifndef VCRYPTFS_B64_H
#define VCRYPTFS_B64_H

#include <stddef.h>
#include <stdint.h>

#ifdef __FRAMAC__
#include <errno.h>
#include "../../spec/b64.acsl"
#endif

/* flags for b64_* */
#define B64_PAD 1U /* '=' padding to a multiple of 4 characters */
#define B64_STD 2U /* standard alphabet "+/" instead of URL-safe "-_" */

/* gocryptfs' two name variants */
#define B64_URL_RAW 0U
#define B64_URL_PAD B64_PAD
#define B64_STD_PAD (B64_STD | B64_PAD)

/* Largest inputs: B64_MAX_BIN bytes to encode, B64_MAX_TXT characters to
 * decode (counters are int, as WP prefers). */
#define B64_MAX_BIN ((size_t)1 << 24)
#define B64_MAX_TXT ((size_t)1 << 25)

/*
 * Number of characters b64_encode writes for n input bytes (without the
 * terminating NUL). Precondition: n <= B64_MAX_BIN.
 */
/*@ requires max: n <= B64_MAX_BIN;
    assigns \nothing;
    ensures len: \result == ENC_LEN(n, flags);
 */
size_t b64_enc_len(size_t n, unsigned flags);

/*
 * Encode in[0..n-1] into out: b64_enc_len(n, flags) characters followed by
 * a NUL, so out must hold b64_enc_len(n, flags) + 1 bytes. in may be NULL
 * when n is 0. No overlap between in and out. Precondition n <=
 * B64_MAX_BIN (a larger n is a caller bug: out becomes "").
 */
/*@ requires max: n <= B64_MAX_BIN;
    requires valid_out: \valid(out + (0 .. ENC_LEN(n, flags)));
    requires valid_in: \valid_read(in + (0 .. n - 1));
    requires sep: \separated(out + (0 .. ENC_LEN(n, flags)), in + (0 .. n - 1));
    assigns out[0 .. ENC_LEN(n, flags)];
    ensures nul: out[ENC_LEN(n, flags)] == 0;
    // level 2 (decode inverts encode): the groups, the tail, the padding
    ensures groups: \forall integer g; 0 <= g < n / 3 ==>
      G3(in, out, g, flags);
    ensures tail1: n % 3 == 1 ==>
      GRP(in[3 * (n / 3)], 0, 0, VAL(out[4 * (n / 3)], flags),
          VAL(out[4 * (n / 3) + 1], flags), 0, 0);
    ensures tail2: n % 3 == 2 ==>
      GRP(in[3 * (n / 3)], in[3 * (n / 3) + 1], 0,
          VAL(out[4 * (n / 3)], flags), VAL(out[4 * (n / 3) + 1], flags),
          VAL(out[4 * (n / 3) + 2], flags), 0);
    ensures pad: (flags & 1) != 0 ==> \forall integer k;
      ENC_BODY(n) <= k < ENC_LEN(n, flags) ==> out[k] == '=';
    ensures alpha: \forall integer k; 0 <= k < ENC_BODY(n) ==>
      B64_ALPHA(out[k], flags);
 */
void b64_encode(char *out, const uint8_t *in, size_t n, unsigned flags);

/*
 * Strict decode of in[0..len-1] (no NUL needed): only alphabet characters;
 * with B64_PAD len % 4 == 0 and at most two trailing '='; without it no '='
 * at all and len % 4 != 1; the unused low bits of the last character must
 * be zero (canonical). On success writes *outlen bytes to out (at most cap)
 * and returns 0. Errors: -EINVAL (not canonical base64), -ERANGE (more than
 * cap bytes); then out and *outlen are untouched. len 0 decodes to 0 bytes;
 * len above B64_MAX_TXT is -EINVAL.
 */
/*@ requires valid_out: \valid(out + (0 .. cap - 1));
    requires valid_outlen: \valid(outlen);
    requires valid_in: \valid_read(in + (0 .. len - 1));
    requires sep: \separated(out + (0 .. cap - 1), outlen) &&
                  \separated(out + (0 .. cap - 1), in + (0 .. len - 1)) &&
                  \separated(outlen, in + (0 .. len - 1));
    assigns out[0 .. cap - 1], *outlen;
    ensures result: \result == 0 || \result == -EINVAL ||
                    \result == -ERANGE;
    ensures outlen: \result == 0 ==> *outlen <= cap;
    ensures untouched: \result != 0 ==> *outlen == \old(*outlen);
    // level 2: the byte count, the groups and the tail of what it accepts
    ensures count: \result == 0 ==>
      *outlen == DEC_N(BODY(in, len, flags));
    ensures groups: \result == 0 ==> \forall integer g;
      0 <= g < BODY(in, len, flags) / 4 ==> G3(out, in, g, flags);
    ensures tail: \result == 0 ==> \let f = BODY(in, len, flags) / 4;
      (BODY(in, len, flags) % 4 == 2 ==>
        GRP(out[3 * f], 0, 0, VAL(in[4 * f], flags),
            VAL(in[4 * f + 1], flags), 0, 0)) &&
      (BODY(in, len, flags) % 4 == 3 ==>
        GRP(out[3 * f], out[3 * f + 1], 0, VAL(in[4 * f], flags),
            VAL(in[4 * f + 1], flags), VAL(in[4 * f + 2], flags), 0));
    behavior canonical:
      assumes len <= B64_MAX_TXT && CANONICAL(in, len, flags) &&
              DEC_N(BODY(in, len, flags)) <= cap;
      ensures accepted: \result == 0;
 */
int b64_decode(uint8_t *out, size_t cap, size_t *outlen, const char *in,
	       size_t len, unsigned flags);

#ifdef __FRAMAC__
/*
 * Proof only (never built): encodes x[0..n-1] into buf, decodes buf into
 * out; the contract says the round trip succeeds and gives back exactly x.
 * WP proves it from the two contracts above.
 */
/*@ requires max: n <= B64_MAX_BIN;
    requires valid: \valid(buf + (0 .. ENC_LEN(n, flags))) &&
                    \valid(out + (0 .. n - 1)) && \valid(outlen) &&
                    \valid_read(x + (0 .. n - 1));
    requires sep: \separated(buf + (0 .. ENC_LEN(n, flags)),
                             x + (0 .. n - 1)) &&
                  \separated(out + (0 .. n - 1), x + (0 .. n - 1)) &&
                  \separated(out + (0 .. n - 1), outlen) &&
                  \separated(out + (0 .. n - 1),
                             buf + (0 .. ENC_LEN(n, flags))) &&
                  \separated(outlen, buf + (0 .. ENC_LEN(n, flags))) &&
                  \separated(outlen, x + (0 .. n - 1));
    assigns buf[0 .. ENC_LEN(n, flags)], out[0 .. n - 1], *outlen;
    ensures ok: \result == 0;
    ensures length: *outlen == n;
    ensures same: \forall integer i; 0 <= i < n ==> out[i] == x[i];
 */
int b64_roundtrip_check(uint8_t *out, size_t *outlen, char *buf,
			const uint8_t *x, size_t n, unsigned flags);
#endif

#endif
