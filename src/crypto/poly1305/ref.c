/* SPDX-License-Identifier: MIT */
/*
 * Portable Poly1305: radix-2^32 block loop, 26-bit limbs between calls.
 * See poly1305/ref.h.
 * Spec: RFC 8439 section 2.5 (clamp, h = (h + m) * r mod 2^130-5, tag =
 * (h + s) mod 2^128).
 * Depends on: ct.h. Written for Frama-C WP: no __int128, one function per
 * stage (product columns, radix changes, block loop, freeze, tag) with
 * bounds in their contracts (spec/poly1305.acsl: r_ok, h_ok, limbs_ok).
 * Limb arithmetic is written as x / 2^k and x % 2^k on unsigned values:
 * the compiler emits the same shifts and masks, and the provers see linear
 * arithmetic (no unsigned << at all, so nothing can wrap: proved with
 * -warn-unsigned-overflow).
 * Two radixes. Between calls the accumulator is kept in 26-bit limbs
 * (h_ok: h[0], h[2..4] < 2^26, h[1] < 2^26 + 2^12), which the freeze and
 * the tag read. The block loop runs in radix 2^32: h as four 32-bit words
 * plus a small fifth word, r as the four clamped key words. The clamp
 * leaves r[i] < 2^28 and r[1..3] divisible by 4, so 2^128 * r[i] ==
 * 5/4 r[i] (mod 2^130-5) folds with the exact multiplier r[i] + r[i] / 4
 * (< 2^28 + 2^26): 16 + 4 products per block instead of 25, and the
 * message words enter without any limb split. The carries of a block are
 * taken in parallel (each column keeps its low word and takes the high
 * part of the column below), so the words stay above 2^32 between
 * blocks: the bounds (block loop invariant) are a fixed point, computed
 * for the worst case and checked by the provers; every column sum stays
 * below 2^64 (dot5).
 * Constant time: no secret-dependent branch or index; the final
 * reduction selects by multiplying with 0/1.
 */
#include "crypto/poly1305/ref.h"
#include "crypto/ct.h"

/* The stage functions keep their own contracts for WP, but the compiler
 * inlines them into the loops. Frama-C sees plain static functions. */
#ifdef __FRAMAC__
#define POLY_INLINE
#else
#define POLY_INLINE __attribute__((always_inline)) inline
#endif

/* 2^26, the limb radix: x / P26 is x >> 26, x % P26 is x & 0x3ffffff */
#define P26 67108864U
/* 2^32, the word radix and one tag word */
#define W32 UINT64_C(0x100000000)

/* a0 * b0 + ... + a4 * b4, one column of the product h * r in radix 2^32:
 * a is an accumulator word plus a message word (a0 the word 0, always
 * times a key word; a4 the small top word), b a key word or its folded
 * multiple r + r / 4 (0 where the column has no such term) */
/*@ requires a: a0 < 0x3a0000000 && a1 < 0x2f0000000 &&
                a2 < 0x2f0000000 && a3 < 0x2f0000000 && a4 < 6;
    requires b: b0 < 0x10000000 && b1 < 0x14000000 && b2 < 0x14000000 &&
                b3 < 0x14000000 && b4 < 0x14000000;
    assigns \nothing;
    ensures bound: \result < 0xea40000100000000;
    ensures value: \result == DOT5(a0, b0, a1, b1, a2, b2, a3, b3, a4, b4);
 */
static POLY_INLINE uint64_t dot5(uint64_t a0, uint64_t b0, uint64_t a1,
				 uint64_t b1, uint64_t a2, uint64_t b2,
				 uint64_t a3, uint64_t b3, uint64_t a4,
				 uint64_t b4)
{
	uint64_t p0 = a0 * b0;
	uint64_t p1 = a1 * b1;
	uint64_t p2 = a2 * b2;
	uint64_t p3 = a3 * b3;
	uint64_t p4 = a4 * b4;

	/*@ assert products: p0 < 0x3a00000000000000 &&
	                     p1 < 0x3ac0000000000000 &&
	                     p2 < 0x3ac0000000000000 &&
	                     p3 < 0x3ac0000000000000 && p4 < 0x78000000;
	 */
	return p0 + p1 + p2 + p3 + p4;
}

/* a4 * r0, the column at 2^128: the small top word times key word 0 */
/*@ requires a: a4 < 6;
    requires b: r0 < 0x10000000;
    assigns \nothing;
    ensures bound: \result < 0x60000000;
    ensures value: \result == a4 * r0;
 */
static POLY_INLINE uint64_t top1(uint64_t a4, uint64_t r0)
{
	return a4 * r0;
}

/* 26-bit limbs (h_ok) to words: w[0..3] < 2^32, w[4] <= 4, same value */
/*@ requires valid: \valid(w + (0 .. 4)) && \valid_read(h + (0 .. 4));
    requires sep: \separated(w + (0 .. 4), h + (0 .. 4));
    requires h_ok: h_ok(h);
    assigns w[0 .. 4];
    ensures w: w[0] < 0x100000000 && w[1] < 0x100000000 &&
               w[2] < 0x100000000 && w[3] < 0x100000000 && w[4] <= 4;
    ensures value: W5(w[0], w[1], w[2], w[3], w[4]) ==
                   H5(h[0], h[1], h[2], h[3], h[4]);
 */
static POLY_INLINE void limbs_to_words(uint64_t w[5], const uint32_t h[5])
{
	uint64_t h0 = h[0], h1 = h[1], h2 = h[2], h3 = h[3], h4 = h[4];
	uint64_t t0 = h0 + h1 * P26;
	uint64_t t1 = t0 / W32 + h2 * 1048576U;
	uint64_t t2 = t1 / W32 + h3 * 16384U;
	uint64_t t3 = t2 / W32 + h4 * 256U;

	w[0] = t0 % W32;
	w[1] = t1 % W32;
	w[2] = t2 % W32;
	w[3] = t3 % W32;
	w[4] = t3 / W32;
}

/* words (as the block loop leaves them) back to 26-bit limbs, h_ok; a
 * carry out of 2^130 re-enters limb 0 times 5 */
/*@ requires valid: \valid(h + (0 .. 4)) && \valid_read(w + (0 .. 4));
    requires sep: \separated(w + (0 .. 4), h + (0 .. 4));
    requires w: w[0] < 0x2a0000000 && w[1] < 0x1f0000000 &&
                w[2] < 0x1f0000000 && w[3] < 0x1f0000000 && w[4] <= 4;
    assigns h[0 .. 4];
    ensures h_ok: h_ok(h);
    ensures modp: CONG(H5(h[0], h[1], h[2], h[3], h[4]),
                       W5(w[0], w[1], w[2], w[3], w[4]));
 */
static POLY_INLINE void words_to_limbs(uint32_t h[5], const uint64_t w[5])
{
	uint64_t t1 = w[0] / P26 + w[1] * 64U;
	uint64_t t2 = t1 / P26 + w[2] * 4096U;
	uint64_t t3 = t2 / P26 + w[3] * 262144U;
	uint64_t t4 = t3 / P26 + w[4] * 16777216U;
	uint64_t l0 = w[0] % P26 + t4 / P26 * 5;

	h[0] = (uint32_t)(l0 % P26);
	h[1] = (uint32_t)(t1 % P26 + l0 / P26);
	h[2] = (uint32_t)(t2 % P26);
	h[3] = (uint32_t)(t3 % P26);
	h[4] = (uint32_t)(t4 % P26);
	/*@ assert val: H5(h[0], h[1], h[2], h[3], h[4]) + POLY_P * (t4 / P26) ==
	                W5(w[0], w[1], w[2], w[3], w[4]);
	 */
	/*@ assert w: CONGW(H5(h[0], h[1], h[2], h[3], h[4]),
	                    W5(w[0], w[1], w[2], w[3], w[4]), -(t4 / P26));
	 */
}

#ifdef __FRAMAC__
/* Proof only (no code): the product fold of one block, the lemma fold of
 * spec/poly1305_model.acsl for the block loop's values (a call gives
 * the instance directly; the solvers need not find it by matching). */
/*@ assigns \nothing;
    ensures fold_l: W5(a0, a1, a2, a3, a4) * S4(r0, 4 * k1, 4 * k2, 4 * k3) ==
      W5(DOT5(a0, r0, a1, 5 * k3, a2, 5 * k2, a3, 5 * k1, a4, 0),
         DOT5(a0, 4 * k1, a1, r0, a2, 5 * k3, a3, 5 * k2, a4, 5 * k1),
         DOT5(a0, 4 * k2, a1, 4 * k1, a2, r0, a3, 5 * k3, a4, 5 * k2),
         DOT5(a0, 4 * k3, a1, 4 * k2, a2, 4 * k1, a3, r0, a4, 5 * k3),
         a4 * r0) +
      POLY_P * FOLDQ(a1, a2, a3, a4, k1, k2, k3);
 */
static void fold_lemma(uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3,
		       uint64_t a4, uint64_t r0, uint64_t k1, uint64_t k2,
		       uint64_t k3)
{
}
#endif

/*
 * For each full 16-byte block of m[0..len-1] (a tail of len % 16 bytes is
 * ignored): h += block + hibit * 2^128, then h *= r mod 2^130-5, partially
 * reduced. hibit is 1 (the pad bit of a full block) or 0 (the final
 * partial block, already padded). The words of h, r and the folded
 * multipliers stay in locals across blocks (through st->h the compiler
 * would reload them: uint8_t loads may alias anything).
 * Loop invariant (words): h0 < 2.625 * 2^32, h1..h3 < 1.9375 * 2^32,
 * h4 <= 4; the worst case of a block gives h0 < 0x29cd00001 and
 * h1..h3 < 0x1ea400001 (columns < 0xea40000100000000).
 * Value (modp): h' == the model of every full block, each
 * (h + block + hibit * 2^128) * r mod p (POLY_BLKS); proved in component
 * poly1305-modp, which poly1305_pad16's acc rests on.
 */
/*@ requires valid: \valid(h + (0 .. 4)) && \valid_read(r + (0 .. 3));
    requires valid_m: \valid_read(m + (0 .. len - 1));
    requires sep: \separated(h + (0 .. 4), r + (0 .. 3)) &&
                  \separated(h + (0 .. 4), m + (0 .. len - 1));
    requires hibit: hibit == 0 || hibit == 1;
    requires h_ok: h_ok(h);
    requires r_ok: r_ok(r);
    assigns h[0 .. 4];
    ensures h_ok: h_ok(h);
    ensures modp: H5(h[0], h[1], h[2], h[3], h[4]) % POLY_P ==
      \old(POLY_BLKS(H5(h[0], h[1], h[2], h[3], h[4]), m, len / 16, hibit,
                     S4(r[0], r[1], r[2], r[3]))) % POLY_P;
 */
static POLY_INLINE void poly1305_blocks(uint32_t h[5], const uint32_t r[4],
					const uint8_t *m, size_t len,
					uint32_t hibit)
{
	/* r[1..3] are multiples of 4 (the clamp): r[j] = 4 k[j], and the
	 * folded multiplier r[j] + r[j] / 4 is 5 k[j] */
	uint64_t k1 = r[1] / 4, k2 = r[2] / 4, k3 = r[3] / 4;
	uint64_t r0 = r[0], r1 = k1 * 4, r2 = k2 * 4, r3 = k3 * 4;
	uint64_t s1 = k1 * 5, s2 = k2 * 5, s3 = k3 * 5;
	uint64_t w[5];
	uint64_t h0, h1, h2, h3, h4;
	size_t off = 0;
	/*@ ghost size_t nb = 0; */

	limbs_to_words(w, h);
	h0 = w[0];
	h1 = w[1];
	h2 = w[2];
	h3 = w[3];
	h4 = w[4];
	/*@ loop invariant off: off <= len;
	    loop invariant h0: h0 < 0x2a0000000;
	    loop invariant h1: h1 < 0x1f0000000;
	    loop invariant h2: h2 < 0x1f0000000;
	    loop invariant h3: h3 < 0x1f0000000;
	    loop invariant h4: h4 <= 4;
	    loop invariant nb: off == 16 * nb;
	    loop invariant pos: 0 <= POLY_BLKS(\at(H5(h[0], h[1], h[2], h[3],
	      h[4]), Pre), m, nb, hibit, S4(r0, r1, r2, r3));
	    loop invariant modp: CONG(W5(h0, h1, h2, h3, h4),
	      POLY_BLKS(\at(H5(h[0], h[1], h[2], h[3], h[4]), Pre), m, nb,
	                hibit, S4(r0, r1, r2, r3)));
	    loop assigns off, h0, h1, h2, h3, h4, nb;
	    loop variant len - off;
	 */
	while (len - off >= 16) {
		uint64_t a0 = h0 + load32_le(m + off);
		uint64_t a1 = h1 + load32_le(m + off + 4);
		uint64_t a2 = h2 + load32_le(m + off + 8);
		uint64_t a3 = h3 + load32_le(m + off + 12);
		uint64_t a4 = h4 + hibit;
		/* schoolbook product; a[i] r[j] with i + j >= 4 sits at
		 * 2^128 2^(32 (i + j - 4)), folded as (r[j] + r[j] / 4) */
		uint64_t d0 = dot5(a0, r0, a1, s3, a2, s2, a3, s1, a4, 0);
		uint64_t d1 = dot5(a0, r1, a1, r0, a2, s3, a3, s2, a4, s1);
		uint64_t d2 = dot5(a0, r2, a1, r1, a2, r0, a3, s3, a4, s2);
		uint64_t d3 = dot5(a0, r3, a1, r2, a2, r1, a3, r0, a4, s3);
		uint64_t d4 = top1(a4, r0) + d3 / W32;
		uint64_t c0 = d0 / W32, c1 = d1 / W32, c2 = d2 / W32;

		/* h + block == a; a * r == d (the folded columns) mod p: the
		 * product fold (fold_lemma, the lemma fold for these values),
		 * then over the loop's names */
#ifdef __FRAMAC__
		fold_lemma(a0, a1, a2, a3, a4, r0, k1, k2, k3);
#endif
		/*@ assert fold: W5(a0, a1, a2, a3, a4) * S4(r0, r1, r2, r3) ==
		      W5(d0, d1, d2, d3, a4 * r0) +
		      POLY_P * FOLDQ(a1, a2, a3, a4, k1, k2, k3);
		 */
		/*@ assert blk: W5(a0, a1, a2, a3, a4) == W5(h0, h1, h2, h3, h4) +
		                WBLK(m, off) + hibit * P2_128;
		 */
		/*@ assert step: \let M = POLY_BLKS(\at(H5(h[0], h[1], h[2], h[3],
		        h[4]), Pre), m, nb, hibit, S4(r0, r1, r2, r3));
		      \let B = WBLK(m, off) + hibit * P2_128;
		      \let R = S4(r0, r1, r2, r3);
		      (W5(h0, h1, h2, h3, h4) + B) * R ==
		        POLY_STEP(M, B, R) +
		        POLY_P * STEPQ(W5(h0, h1, h2, h3, h4), M, B, R);
		 */
		/*@ assert ar: W5(a0, a1, a2, a3, a4) * S4(r0, r1, r2, r3) ==
		      (W5(h0, h1, h2, h3, h4) + (WBLK(m, off) + hibit * P2_128)) *
		      S4(r0, r1, r2, r3);
		 */
		/*@ assert pos: \let M = POLY_BLKS(\at(H5(h[0], h[1], h[2], h[3],
		        h[4]), Pre), m, nb, hibit, S4(r0, r1, r2, r3));
		      0 <= POLY_STEP(M, WBLK(m, off) + hibit * P2_128,
		                     S4(r0, r1, r2, r3));
		 */
		uint64_t n1 = d1 % W32 + c0;
		uint64_t n2 = d2 % W32 + c1;
		uint64_t n3 = d3 % W32 + c2;
		uint64_t n0 = d0 % W32 + d4 / 4 * 5;
		uint64_t n4 = d4 % 4;
		/*@ assert carry: W5(n0, n1, n2, n3, n4) + POLY_P * (d4 / 4) ==
		                  W5(d0, d1, d2, d3, a4 * r0);
		 */
		/*@ assert e: \let M = POLY_BLKS(\at(H5(h[0], h[1], h[2], h[3],
		        h[4]), Pre), m, nb, hibit, S4(r0, r1, r2, r3));
		      \let B = WBLK(m, off) + hibit * P2_128;
		      \let R = S4(r0, r1, r2, r3);
		      \let X = W5(h0, h1, h2, h3, h4);
		      W5(n0, n1, n2, n3, n4) == POLY_STEP(M, B, R) + POLY_P *
		        (STEPQ(X, M, B, R) -
		         FOLDQ(a1, a2, a3, a4, k1, k2, k3) - d4 / 4);
		 */
		/*@ assert c4: \let M = POLY_BLKS(\at(H5(h[0], h[1], h[2], h[3],
		        h[4]), Pre), m, nb, hibit, S4(r0, r1, r2, r3));
		      \let B = WBLK(m, off) + hibit * P2_128;
		      \let R = S4(r0, r1, r2, r3);
		      \let X = W5(h0, h1, h2, h3, h4);
		      CONGW(W5(n0, n1, n2, n3, n4), POLY_STEP(M, B, R),
		        STEPQ(X, M, B, R) -
		        FOLDQ(a1, a2, a3, a4, k1, k2, k3) - d4 / 4);
		 */
		h0 = n0;
		h1 = n1;
		h2 = n2;
		h3 = n3;
		h4 = n4;
		off += 16;
		/*@ ghost nb++; */
	}
	/*@ assert nb_end: nb == len / 16; */
	w[0] = h0;
	w[1] = h1;
	w[2] = h2;
	w[3] = h3;
	w[4] = h4;
	words_to_limbs(h, w);
	/*@ assert fin: CONG(H5(h[0], h[1], h[2], h[3], h[4]),
	      POLY_BLKS(\at(H5(h[0], h[1], h[2], h[3], h[4]), Pre), m, nb,
	                hibit, S4(r0, r1, r2, r3)));
	 */
}

/* key word 1..3 clamped: bits 2..27 (the low 2 bits cleared, so a multiple
 * of 4: the block loop's fold multiplier r + r / 4 is exact) */
/*@ assigns \nothing;
    ensures clamp: \result == CLAMPW(t);
    ensures bound: \result <= 0x0ffffffc;
    ensures clamp_mul4: \result % 4 == 0;
 */
static POLY_INLINE uint32_t clampw(uint32_t t)
{
	/* t & 0x0ffffffc, written as bits 2..27 times 4 (the compiler emits
	 * the and; the provers see a multiple of 4) */
	return t / 4U % 0x4000000U * 4U;
}

/* see poly1305/ref.h */
void poly1305_init(struct poly1305 *st, const uint8_t key[32])
{
	uint32_t t0 = load32_le(key);
	uint32_t t1 = load32_le(key + 4);
	uint32_t t2 = load32_le(key + 8);
	uint32_t t3 = load32_le(key + 12);
	uint32_t k0 = load32_le(key + 16);
	uint32_t k1 = load32_le(key + 20);
	uint32_t k2 = load32_le(key + 24);
	uint32_t k3 = load32_le(key + 28);
	/* r &= 0x0ffffffc0ffffffc0ffffffc0fffffff, word by word */
	uint32_t r0 = t0 & 0x0fffffffU;
	uint32_t r1 = clampw(t1);
	uint32_t r2 = clampw(t2);
	uint32_t r3 = clampw(t3);

	st->buflen = 0;
	/*@ assert r_bounds: r0 <= 0x0fffffff && r1 <= 0x0ffffffc &&
	                     r2 <= 0x0ffffffc && r3 <= 0x0ffffffc;
	 */
	st->r[0] = r0;
	st->r[1] = r1;
	st->r[2] = r2;
	st->r[3] = r3;
	st->h[0] = 0;
	st->h[1] = 0;
	st->h[2] = 0;
	st->h[3] = 0;
	st->h[4] = 0;
	st->s[0] = k0;
	st->s[1] = k1;
	st->s[2] = k2;
	st->s[3] = k3;
	/*@ assert limbs: st->h[0] == 0 && st->h[1] == 0 && st->h[2] == 0 &&
	                  st->h[3] == 0 && st->h[4] == 0 &&
	                  st->r[0] <= 0x0fffffff && st->r[1] <= 0x0ffffffc &&
	                  st->r[2] <= 0x0ffffffc && st->r[3] <= 0x0ffffffc;
	 */
}

/* see poly1305/ref.h */
void poly1305_update(struct poly1305 *st, const uint8_t *m, size_t len)
{
	size_t off = 0;
	size_t full;

	if (st->buflen > 0) {
		/*@ loop invariant off: off <= len;
		    loop invariant buflen: st->buflen <= 16;
		    loop assigns off, st->buflen, st->buf[0 .. 15];
		    loop variant len - off;
		 */
		while (off < len && st->buflen < 16)
			st->buf[st->buflen++] = m[off++];
		if (st->buflen < 16) {
			/*@ assert r_same: st->r[0] == \at(st->r[0], Pre) &&
			      st->r[1] == \at(st->r[1], Pre) &&
			      st->r[2] == \at(st->r[2], Pre) &&
			      st->r[3] == \at(st->r[3], Pre);
			 */
			return;
		}
		poly1305_blocks(st->h, st->r, st->buf, 16, 1);
		st->buflen = 0;
	}
	full = (len - off) / 16 * 16;
	if (full > 0) { /* m may be NULL when len is 0 */
		poly1305_blocks(st->h, st->r, m + off, full, 1);
		off += full;
	}
	/*@ loop invariant off: off <= len;
	    loop invariant room: st->buflen + (len - off) <= 15;
	    loop assigns off, st->buflen, st->buf[0 .. 15];
	    loop variant len - off;
	 */
	while (off < len)
		st->buf[st->buflen++] = m[off++];
	/* the key words are not written (limbs, mul4) */
	/*@ assert r_same: st->r[0] == \at(st->r[0], Pre) &&
	                   st->r[1] == \at(st->r[1], Pre) &&
	                   st->r[2] == \at(st->r[2], Pre) &&
	                   st->r[3] == \at(st->r[3], Pre);
	 */
	/*@ assert h_kept: st->h[0] < 67108864 && st->h[1] < 67108864 + 4096 &&
	                   st->h[2] < 67108864 && st->h[3] < 67108864 &&
	                   st->h[4] < 67108864;
	 */
}

/*
 * Fully reduce h: afterwards h is the unique representative of the old
 * value modulo p = 2^130 - 5, in limbs < 2^26. sel (ghost, proof only)
 * counts the masked selects: every call makes all five, whether h >= p
 * or not (no branch and no early exit on that secret bit; the constant-
 * time check, tests/ct, sees the machine code).
 */
/*@ requires valid: \valid(h + (0 .. 4));
    requires valid_sel: \valid(sel) && \separated(sel, h + (0 .. 4));
    requires h_ok: h_ok(h);
    assigns h[0 .. 4], *sel;
    ensures selects: *sel == 5;
    ensures limbs: h[0] < 67108864 && h[1] < 67108864 && h[2] < 67108864 &&
                   h[3] < 67108864 && h[4] < 67108864;
    ensures lt_p: H5(h[0], h[1], h[2], h[3], h[4]) < POLY_P;
    ensures mod_p: H5(h[0], h[1], h[2], h[3], h[4]) ==
                   H5(\old(h[0]), \old(h[1]), \old(h[2]), \old(h[3]),
                      \old(h[4])) % POLY_P;
 */
static void poly1305_freeze(uint32_t h[5])
/*@ ghost (unsigned \ghost *sel) */
{
	uint32_t h0 = h[0], h1 = h[1], h2 = h[2], h3 = h[3], h4 = h[4];
	uint32_t c0, c1, c2, c3, c4, g0, g1, g2, g3, g4, b;
	uint32_t f0, f1, f2, f3, f4;

	/* full carry: limbs < 2^26, the value changes by a multiple of p */
	c1 = h1 / P26;
	h1 %= P26;
	h2 += c1;
	c2 = h2 / P26;
	h2 %= P26;
	h3 += c2;
	c3 = h3 / P26;
	h3 %= P26;
	h4 += c3;
	c4 = h4 / P26;
	h4 %= P26;
	h0 += c4 * 5;
	c0 = h0 / P26;
	h0 %= P26;
	h1 += c0;
	/*@ assert carried: H5(h0, h1, h2, h3, h4) ==
	                    H5(h[0], h[1], h[2], h[3], h[4]) - c4 * POLY_P;
	 */
	/* a top carry needs a carry out of h[1], which leaves h1 < 2^12 */
	/*@ assert chain: c4 == 0 || c1 == 1; */
	/*@ assert small: h1 < 67108864; */
	/* g = h + 5 with carries; g >= 2^130 (bit 26 of g4) iff h >= p */
	g0 = h0 + 5;
	g1 = h1 + g0 / P26;
	g0 %= P26;
	g2 = h2 + g1 / P26;
	g1 %= P26;
	g3 = h3 + g2 / P26;
	g2 %= P26;
	g4 = h4 + g3 / P26;
	g3 %= P26;
	b = g4 / P26;
	g4 %= P26;
	/*@ assert b: b == 0 || b == 1; */
	/*@ assert g: H5(g0, g1, g2, g3, g4) +
	      b * 0x400000000000000000000000000000000 ==
	      H5(h0, h1, h2, h3, h4) + 5; */
	/*@ assert ge: b == 1 <==> H5(h0, h1, h2, h3, h4) >= POLY_P; */
	/* select g (that is, h - p) when b is 1, else h */
	/*@ ghost *sel = 0; */
	f0 = h0 * (1U - b) + g0 * b;
	/*@ ghost (*sel)++; */
	f1 = h1 * (1U - b) + g1 * b;
	/*@ ghost (*sel)++; */
	f2 = h2 * (1U - b) + g2 * b;
	/*@ ghost (*sel)++; */
	f3 = h3 * (1U - b) + g3 * b;
	/*@ ghost (*sel)++; */
	f4 = h4 * (1U - b) + g4 * b;
	/*@ ghost (*sel)++; */
	/*@ assert keep: b == 0 ==> f0 == h0 && f1 == h1 && f2 == h2 &&
	                            f3 == h3 && f4 == h4;
	 */
	/*@ assert take: b == 1 ==> f0 == g0 && f1 == g1 && f2 == g2 &&
	                            f3 == g3 && f4 == g4;
	 */
	/*@ assert f_lt_p: H5(f0, f1, f2, f3, f4) < POLY_P; */
	/*@ assert f_val: H5(f0, f1, f2, f3, f4) ==
	                  H5(h0, h1, h2, h3, h4) - b * POLY_P;
	 */
	/*@ assert f_mod: H5(f0, f1, f2, f3, f4) ==
	                  H5(h[0], h[1], h[2], h[3], h[4]) % POLY_P;
	 */
	h[0] = f0;
	h[1] = f1;
	h[2] = f2;
	h[3] = f3;
	h[4] = f4;
}

/* tag = (H5(h) + S4(s)) mod 2^128 as four little-endian words */
/*@ requires valid: \valid(tag + (0 .. 15)) && \valid_read(h + (0 .. 4)) &&
                    \valid_read(s + (0 .. 3));
    requires sep: \separated(tag + (0 .. 15), h + (0 .. 4)) &&
                  \separated(tag + (0 .. 15), s + (0 .. 3));
    requires limbs: h[0] < 67108864 && h[1] < 67108864 && h[2] < 67108864 &&
                    h[3] < 67108864 && h[4] < 67108864;
    assigns tag[0 .. 15];
    ensures w0: STORED32(tag, TW0(H5(h[0], h[1], h[2], h[3], h[4]) +
                                  S4(s[0], s[1], s[2], s[3])));
    ensures w1: STORED32(tag + 4, TW1(H5(h[0], h[1], h[2], h[3], h[4]) +
                                      S4(s[0], s[1], s[2], s[3])));
    ensures w2: STORED32(tag + 8, TW2(H5(h[0], h[1], h[2], h[3], h[4]) +
                                      S4(s[0], s[1], s[2], s[3])));
    ensures w3: STORED32(tag + 12, TW3(H5(h[0], h[1], h[2], h[3], h[4]) +
                                       S4(s[0], s[1], s[2], s[3])));
 */
static void poly1305_tag(uint8_t tag[16], const uint32_t h[5],
			 const uint32_t s[4])
{
	uint64_t h0 = h[0], h1 = h[1], h2 = h[2], h3 = h[3], h4 = h[4];
	uint64_t s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];
	/* h + s, 32 bits at a time with the carry in f (bits of h above 2^128
	 * end in f3 / 2^32, which is dropped) */
	uint64_t f0 = h0 + h1 * 67108864U + s0;
	uint64_t f1 = f0 / W32 + h2 * 1048576U + s1;
	uint64_t f2 = f1 / W32 + h3 * 16384U + s2;
	uint64_t f3 = f2 / W32 + h4 * 256U + s3;

	/* the value split off one word at a time: H + S = w0 + 2^32 x1,
	 * x1 = w1 + 2^32 x2, x2 = w2 + 2^32 f3 (w = f % 2^32) */
	/*@ assert x0: H5(h0, h1, h2, h3, h4) + S4(s0, s1, s2, s3) ==
	      f0 % 0x100000000 + 0x100000000 * (f1 + 0x100000000 *
	      (h3 * 16384 + s2 + 0x100000000 * (h4 * 256 + s3)));
	 */
	/*@ assert x0d: (H5(h0, h1, h2, h3, h4) + S4(s0, s1, s2, s3)) /
	                0x100000000 == f1 + 0x100000000 * (h3 * 16384 + s2 +
	                0x100000000 * (h4 * 256 + s3));
	 */
	/*@ assert x0m: (H5(h0, h1, h2, h3, h4) + S4(s0, s1, s2, s3)) %
	                0x100000000 == f0 % 0x100000000;
	 */
	/*@ assert x1: f1 + 0x100000000 * (h3 * 16384 + s2 + 0x100000000 *
	               (h4 * 256 + s3)) == f1 % 0x100000000 + 0x100000000 *
	               (f2 + 0x100000000 * (h4 * 256 + s3));
	 */
	/*@ assert x1d: (f1 + 0x100000000 * (h3 * 16384 + s2 + 0x100000000 *
	                (h4 * 256 + s3))) / 0x100000000 ==
	                f2 + 0x100000000 * (h4 * 256 + s3);
	 */
	/*@ assert x1m: (f1 + 0x100000000 * (h3 * 16384 + s2 + 0x100000000 *
	                (h4 * 256 + s3))) % 0x100000000 == f1 % 0x100000000;
	 */
	/*@ assert x2: f2 + 0x100000000 * (h4 * 256 + s3) ==
	               f2 % 0x100000000 + 0x100000000 * f3;
	 */
	/*@ assert x2d: (f2 + 0x100000000 * (h4 * 256 + s3)) / 0x100000000 ==
	                f3;
	 */
	/*@ assert x2m: (f2 + 0x100000000 * (h4 * 256 + s3)) % 0x100000000 ==
	                f2 % 0x100000000;
	 */
	store32_le(tag, (uint32_t)(f0 % W32));
	store32_le(tag + 4, (uint32_t)(f1 % W32));
	store32_le(tag + 8, (uint32_t)(f2 % W32));
	store32_le(tag + 12, (uint32_t)(f3 % W32));
}

/* the four bytes of a word w < 2^32, little-endian, as base-256 digits */
/*@ requires valid: \valid(p + (0 .. 3));
    requires w: w < 0x100000000;
    assigns p[0 .. 3];
    ensures b0: p[0] == w % 256;
    ensures b1: p[1] == w / 0x100 % 256;
    ensures b2: p[2] == w / 0x10000 % 256;
    ensures b3: p[3] == w / 0x1000000 % 256;
 */
static void put32_digits(uint8_t p[4], uint64_t w)
{
	p[0] = (uint8_t)(w % 256U);
	p[1] = (uint8_t)(w / 0x100U % 256U);
	p[2] = (uint8_t)(w / 0x10000U % 256U);
	p[3] = (uint8_t)(w / 0x1000000U % 256U);
}

/* the tag (H5(h) + S4(s)) mod 2^128 as its 16 little-endian bytes
 * (poly1305_tag's sum, stored as base-256 digits: TAG_BYTE) */
/*@ requires valid: \valid(tag + (0 .. 15)) && \valid_read(h + (0 .. 4)) &&
                    \valid_read(s + (0 .. 3));
    requires sep: \separated(tag + (0 .. 15), h + (0 .. 4)) &&
                  \separated(tag + (0 .. 15), s + (0 .. 3));
    requires limbs: h[0] < 67108864 && h[1] < 67108864 && h[2] < 67108864 &&
                    h[3] < 67108864 && h[4] < 67108864;
    assigns tag[0 .. 15];
    ensures tag: \forall integer i; 0 <= i < 16 ==>
      tag[i] == TAG_BYTE((H5(h[0], h[1], h[2], h[3], h[4]) +
                          S4(s[0], s[1], s[2], s[3])) % P2_128, i);
 */
static void poly1305_tag_bytes(uint8_t tag[16], const uint32_t h[5],
			       const uint32_t s[4])
{
	uint64_t h0 = h[0], h1 = h[1], h2 = h[2], h3 = h[3], h4 = h[4];
	uint64_t s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];
	uint64_t f0 = h0 + h1 * 67108864U + s0;
	uint64_t f1 = f0 / W32 + h2 * 1048576U + s1;
	uint64_t f2 = f1 / W32 + h3 * 16384U + s2;
	uint64_t f3 = f2 / W32 + h4 * 256U + s3;
	uint64_t w0 = f0 % W32, w1 = f1 % W32, w2 = f2 % W32, w3 = f3 % W32;

	/*@ assert x0: H5(h0, h1, h2, h3, h4) + S4(s0, s1, s2, s3) ==
	      f0 % 0x100000000 + 0x100000000 * (f1 + 0x100000000 *
	      (h3 * 16384 + s2 + 0x100000000 * (h4 * 256 + s3)));
	 */
	/*@ assert x1: f1 + 0x100000000 * (h3 * 16384 + s2 + 0x100000000 *
	               (h4 * 256 + s3)) == f1 % 0x100000000 + 0x100000000 *
	               (f2 + 0x100000000 * (h4 * 256 + s3));
	 */
	/*@ assert x2: f2 + 0x100000000 * (h4 * 256 + s3) ==
	               f2 % 0x100000000 + 0x100000000 * f3;
	 */
	/*@ assert v: H5(h0, h1, h2, h3, h4) + S4(s0, s1, s2, s3) ==
	      V4(w0, w1, w2, w3) + P2_128 * (f3 / W32);
	 */
	/*@ assert vb: 0 <= V4(w0, w1, w2, w3) < P2_128; */
	/*@ assert vm: (H5(h0, h1, h2, h3, h4) + S4(s0, s1, s2, s3)) % P2_128 ==
	      V4(w0, w1, w2, w3);
	 */
	put32_digits(tag, w0);
	put32_digits(tag + 4, w1);
	put32_digits(tag + 8, w2);
	put32_digits(tag + 12, w3);
	/*@ assert bytes0: tag[0] == TAG_BYTE(V4(w0, w1, w2, w3), 0) &&
	      tag[1] == TAG_BYTE(V4(w0, w1, w2, w3), 1) &&
	      tag[2] == TAG_BYTE(V4(w0, w1, w2, w3), 2) &&
	      tag[3] == TAG_BYTE(V4(w0, w1, w2, w3), 3);
	 */
	/*@ assert bytes1: tag[4] == TAG_BYTE(V4(w0, w1, w2, w3), 4) &&
	      tag[5] == TAG_BYTE(V4(w0, w1, w2, w3), 5) &&
	      tag[6] == TAG_BYTE(V4(w0, w1, w2, w3), 6) &&
	      tag[7] == TAG_BYTE(V4(w0, w1, w2, w3), 7);
	 */
	/*@ assert bytes2: tag[8] == TAG_BYTE(V4(w0, w1, w2, w3), 8) &&
	      tag[9] == TAG_BYTE(V4(w0, w1, w2, w3), 9) &&
	      tag[10] == TAG_BYTE(V4(w0, w1, w2, w3), 10) &&
	      tag[11] == TAG_BYTE(V4(w0, w1, w2, w3), 11);
	 */
	/*@ assert bytes3: tag[12] == TAG_BYTE(V4(w0, w1, w2, w3), 12) &&
	      tag[13] == TAG_BYTE(V4(w0, w1, w2, w3), 13) &&
	      tag[14] == TAG_BYTE(V4(w0, w1, w2, w3), 14) &&
	      tag[15] == TAG_BYTE(V4(w0, w1, w2, w3), 15);
	 */
}

/* ct_wipe(st, sizeof(*st)), as WP sees it: field by field (the typed
 * memory model does not view a struct as bytes) */
/*@ requires valid: \valid(st);
    assigns *st;
 */
static void wipe_state(struct poly1305 *st)
{
#ifdef __FRAMAC__
	/*@ loop invariant 0 <= i <= 5;
	    loop assigns i, st->h[0 .. 4];
	    loop variant 5 - i;
	 */
	for (int i = 0; i < 5; i++)
		st->h[i] = 0;
	/*@ loop invariant 0 <= i <= 4;
	    loop assigns i, st->r[0 .. 3], st->s[0 .. 3];
	    loop variant 4 - i;
	 */
	for (int i = 0; i < 4; i++) {
		st->r[i] = 0;
		st->s[i] = 0;
	}
	/*@ loop invariant 0 <= i <= 16;
	    loop assigns i, st->buf[0 .. 15];
	    loop variant 16 - i;
	 */
	for (int i = 0; i < 16; i++)
		st->buf[i] = 0;
	st->buflen = 0;
#else
	ct_wipe(st, sizeof(*st));
#endif
}

/* see poly1305/ref.h */
void poly1305_final(struct poly1305 *st, uint8_t tag[16])
{
	/*@ ghost unsigned sel; */

	if (st->buflen > 0) {
		/* last partial block: append 0x01, pad with zeros, no 2^128 */
		st->buf[st->buflen] = 1;
		/*@ loop invariant st->buflen + 1 <= i <= 16;
		    loop assigns i, st->buf[0 .. 15];
		    loop variant 16 - i;
		 */
		for (size_t i = st->buflen + 1; i < 16; i++)
			st->buf[i] = 0;
		poly1305_blocks(st->h, st->r, st->buf, 16, 0);
	}
	poly1305_freeze(st->h) /*@ ghost (&sel) */;
	poly1305_tag(tag, st->h, st->s);
	wipe_state(st);
}

#ifdef __FRAMAC__
/* Proof only (no code): lemmas of poly1305_pad16's acc, as functions so
 * that each goal has a small context (component poly1305-pad). */

/* the full blocks as the block loop reads them (POLY_BLKS) are the
 * model's zero-padded blocks (POLY_PADN), mod p: induction on i */
/*@ requires valid: \valid_read(h + (0 .. 4)) && \valid_read(r + (0 .. 3));
    assigns \nothing;
    ensures acc_bpos: 0 <= POLY_PADN(H5(h[0], h[1], h[2], h[3], h[4]) % POLY_P,
      m, len, S4(r[0], r[1], r[2], r[3]), len / 16);
    ensures acc_beq: POLY_BLKS(H5(h[0], h[1], h[2], h[3], h[4]), m, len / 16, 1,
      S4(r[0], r[1], r[2], r[3])) % POLY_P ==
      POLY_PADN(H5(h[0], h[1], h[2], h[3], h[4]) % POLY_P, m, len,
      S4(r[0], r[1], r[2], r[3]), len / 16) % POLY_P;
 */
static void blks_padn(const uint8_t *m, size_t len, const uint32_t h[5],
		      const uint32_t r[4])
{
	/*@ loop invariant acc_i: 0 <= i <= len / 16;
	    loop invariant acc_pos: \let H = H5(h[0], h[1], h[2], h[3], h[4]);
	      \let R = S4(r[0], r[1], r[2], r[3]);
	      0 <= POLY_BLKS(H, m, i, 1, R) &&
	      0 <= POLY_PADN(H % POLY_P, m, len, R, i);
	    loop invariant acc_eq: \let H = H5(h[0], h[1], h[2], h[3], h[4]);
	      \let R = S4(r[0], r[1], r[2], r[3]);
	      POLY_BLKS(H, m, i, 1, R) % POLY_P ==
	      POLY_PADN(H % POLY_P, m, len, R, i) % POLY_P;
	    loop assigns i;
	    loop variant len / 16 - i;
	 */
	for (size_t i = 0; i < len / 16; i++) {
		/*@ assert acc_s: 0 <= WBLK(m, 16 * i) + P2_128 &&
		      0 <= S4(r[0], r[1], r[2], r[3]);
		 */
		/*@ assert acc_s: \let H = H5(h[0], h[1], h[2], h[3], h[4]);
		      \let R = S4(r[0], r[1], r[2], r[3]);
		      POLY_BLKS(H, m, i + 1, 1, R) ==
		        POLY_STEP(POLY_BLKS(H, m, i, 1, R),
		                  WBLK(m, 16 * i) + 1 * P2_128, R);
		 */
		/*@ assert acc_s: \let H = H5(h[0], h[1], h[2], h[3], h[4]);
		      \let R = S4(r[0], r[1], r[2], r[3]);
		      POLY_PADN(H % POLY_P, m, len, R, i + 1) ==
		        POLY_STEP(POLY_PADN(H % POLY_P, m, len, R, i),
		                  PAD_BLOCK(m, len, i), R);
		 */
		/*@ assert acc_s: PAD_BLOCK(m, len, i) == WBLK(m, 16 * i) + P2_128;
		 */
	}
}

/* the zero-padded copy of the last k bytes is the model's last block */
/*@ requires k: 0 < k < 16;
    requires copy: \forall integer j; 0 <= j < k ==> last[j] == p[o + j];
    requires zero: \forall integer j; k <= j < 16 ==> last[j] == 0;
    assigns \nothing;
    ensures acc_tblk: WBLK(last, 0) == ZLEN16(p, o, k);
 */
static void tail_block(const uint8_t last[16], const uint8_t *p, size_t o,
		       size_t k)
{
}
#endif

/* The k bytes (1..15) at p into last[0 .. k - 1]; last[k .. 15] stay as
 * they are (zero). A function of its own so that the provers see only the
 * copy, not pad_tail's Poly1305 state (the loop's goal in pad_tail timed
 * out or not depending on unrelated hypotheses). */
/*@ requires k: 0 < k < 16;
    requires valid_last: \valid(last + (0 .. 15));
    requires valid_p: \valid_read(p + (0 .. k - 1));
    requires sep: \separated(last + (0 .. 15), p + (0 .. k - 1));
    requires zero: \forall integer j; 0 <= j < 16 ==> last[j] == 0;
    assigns last[0 .. k - 1];
    ensures copy: \forall integer j; 0 <= j < k ==> last[j] == p[j];
    ensures zero: \forall integer j; k <= j < 16 ==> last[j] == 0;
 */
static POLY_INLINE void copy_tail(uint8_t last[16], const uint8_t *p, size_t k)
{
	/*@ loop invariant 0 <= i <= k;
	    loop invariant copy: \forall integer j; 0 <= j < i ==>
	      last[j] == p[j];
	    loop assigns i, last[0 .. k - 1];
	    loop variant k - i;
	 */
	for (size_t i = 0; i < k; i++)
		last[i] = p[i];
}

/* Absorb the k bytes (1..15) at m + o zero-padded to a block, with its
 * 2^128 bit: the last block of poly1305_pad16 (acc_tail: one model step
 * with the model's zero-padded block ZLEN16). */
/*@ requires valid_st: \valid(st);
    requires limbs: limbs_ok(st);
    requires mul4: st_mul4(st);
    requires k: 0 < k < 16;
    requires room: o + k <= SIZE_MAX;
    requires valid_m: \valid_read(m + (o .. o + k - 1));
    requires sep: \separated(st, m + (o .. o + k - 1));
    assigns st->h[0 .. 4];
    ensures limbs: limbs_ok(st);
    ensures mul4: st_mul4(st);
    ensures acc_tail: H5(st->h[0], st->h[1], st->h[2], st->h[3], st->h[4]) %
      POLY_P == POLY_STEP(\old(H5(st->h[0], st->h[1], st->h[2], st->h[3],
      st->h[4])), \old(ZLEN16(m, o, k)) + P2_128,
      S4(st->r[0], st->r[1], st->r[2], st->r[3])) % POLY_P;
 */
static POLY_INLINE void pad_tail(struct poly1305 *st, const uint8_t *m,
				 size_t o, size_t k)
{
	uint8_t last[16] = { 0 };

	copy_tail(last, m + o, k);
	/*@ assert mframe: \forall integer j; 0 <= j < k ==>
	      m[o + j] == \at(m[o + j], Pre);
	 */
#ifdef __FRAMAC__
	tail_block(last, m, o, k);
#endif
	/*@ assert acc_fr: ZLEN16(m, o, k) == \at(ZLEN16(m, o, k), Pre); */
	/*@ assert acc_one: \let H = H5(st->h[0], st->h[1], st->h[2], st->h[3],
	      st->h[4]); \let R = S4(st->r[0], st->r[1], st->r[2], st->r[3]);
	      POLY_BLKS(H, &last[0], 1, 1, R) ==
	      POLY_STEP(H, \at(ZLEN16(m, o, k), Pre) + P2_128, R);
	 */
	poly1305_blocks(st->h, st->r, last, 16, 1);
}

/* see poly1305/ref.h */
void poly1305_pad16(struct poly1305 *st, const uint8_t *m, size_t len)
{
	size_t full = len / 16 * 16;

#ifdef __FRAMAC__
	blks_padn(m, len, st->h, st->r);
#endif
	if (full > 0) /* m may be NULL when len is 0 */
		poly1305_blocks(st->h, st->r, m, full, 1);
	/*@ assert acc_mid: \let H = \at(H5(st->h[0], st->h[1], st->h[2], st->h[3], st->h[4]), Pre);
	      \let R = S4(st->r[0], st->r[1], st->r[2], st->r[3]);
	      H5(st->h[0], st->h[1], st->h[2], st->h[3], st->h[4]) % POLY_P ==
	      POLY_PADN(H % POLY_P, m, len, R, len / 16) % POLY_P;
	 */
	if (len > full) {
#ifdef __FRAMAC__
	tail:
#endif
		pad_tail(st, m, full, len - full);
		/*@ assert acc_t3: 0 <= ZLEN16(m, full, len - full) + P2_128 &&
		      0 <= \at(H5(st->h[0], st->h[1], st->h[2], st->h[3], st->h[4]), tail) && 0 <= S4(st->r[0], st->r[1], st->r[2], st->r[3]);
		 */
		/*@ assert acc_t3: \let H = \at(H5(st->h[0], st->h[1], st->h[2], st->h[3], st->h[4]), Pre);
		      \let R = S4(st->r[0], st->r[1], st->r[2], st->r[3]);
		      \let B = ZLEN16(m, full, len - full) + P2_128;
		      POLY_STEP(\at(H5(st->h[0], st->h[1], st->h[2], st->h[3], st->h[4]), tail), B, R) == POLY_STEP(\at(H5(st->h[0], st->h[1], st->h[2], st->h[3], st->h[4]), tail) % POLY_P, B, R) &&
		      POLY_STEP(POLY_PADN(H % POLY_P, m, len, R, len / 16), B, R) ==
		      POLY_STEP(POLY_PADN(H % POLY_P, m, len, R, len / 16) % POLY_P,
		        B, R);
		 */
		/*@ assert acc_t3: \let H = \at(H5(st->h[0], st->h[1], st->h[2], st->h[3], st->h[4]), Pre);
		      \let R = S4(st->r[0], st->r[1], st->r[2], st->r[3]);
		      \let B = ZLEN16(m, full, len - full) + P2_128;
		      POLY_STEP(\at(H5(st->h[0], st->h[1], st->h[2], st->h[3], st->h[4]), tail), B, R) ==
		      POLY_STEP(POLY_PADN(H % POLY_P, m, len, R, len / 16), B, R);
		 */
		/*@ assert acc_t2: \let H = \at(H5(st->h[0], st->h[1], st->h[2], st->h[3], st->h[4]), Pre);
		      \let R = S4(st->r[0], st->r[1], st->r[2], st->r[3]);
		      POLY_PADN(H % POLY_P, m, len, R, len / 16 + 1) ==
		      POLY_STEP(POLY_PADN(H % POLY_P, m, len, R, len / 16),
		        PAD_BLOCK(m, len, len / 16), R);
		 */
		/*@ assert acc_t2: PAD_BLOCK(m, len, len / 16) ==
		      ZLEN16(m, full, len - full) + P2_128;
		 */
		/*@ assert acc_t2: NBLK(len) == len / 16 + 1; */
		/*@ assert acc_t2: \let H = \at(H5(st->h[0], st->h[1], st->h[2], st->h[3], st->h[4]), Pre);
		      \let R = S4(st->r[0], st->r[1], st->r[2], st->r[3]);
		      H5(st->h[0], st->h[1], st->h[2], st->h[3], st->h[4]) %
		      POLY_P == POLY_PADN(H % POLY_P, m, len, R, NBLK(len)) %
		      POLY_P;
		 */
		/*@ assert acc_t2: \let H = \at(H5(st->h[0], st->h[1], st->h[2], st->h[3], st->h[4]), Pre);
		      \let R = S4(st->r[0], st->r[1], st->r[2], st->r[3]);
		      0 <= POLY_PADN(H % POLY_P, m, len, R, NBLK(len));
		 */
	} else {
		/*@ assert acc_t2: NBLK(len) == len / 16; */
	}
}

/* see poly1305/ref.h */
void poly1305_finish(struct poly1305 *st, uint8_t tag[16])
{
	/*@ ghost unsigned sel; */

	poly1305_freeze(st->h) /*@ ghost (&sel) */;
	poly1305_tag_bytes(tag, st->h, st->s);
	wipe_state(st);
}

#ifdef __FRAMAC__
/* Proof only (no code): the lemmas of poly1305_mac's mac_tag, as functions
 * so that each goal has a small context (component poly1305-mac). */

/* 256^k for k = 0 .. 16: one unfolding of POW256 each */
/*@ assigns \nothing;
    ensures mac_pow: POW256(16) == P2_128;
 */
static void pow256_16(void)
{
	/*@ assert mac_pw: POW256(0) == 1; */
	/*@ assert mac_pw: POW256(1) == 0x100; */
	/*@ assert mac_pw: POW256(2) == 0x10000; */
	/*@ assert mac_pw: POW256(3) == 0x1000000; */
	/*@ assert mac_pw: POW256(4) == 0x100000000; */
	/*@ assert mac_pw: POW256(5) == 0x10000000000; */
	/*@ assert mac_pw: POW256(6) == 0x1000000000000; */
	/*@ assert mac_pw: POW256(7) == 0x100000000000000; */
	/*@ assert mac_pw: POW256(8) == 0x10000000000000000; */
	/*@ assert mac_pw: POW256(9) == 0x1000000000000000000; */
	/*@ assert mac_pw: POW256(10) == 0x100000000000000000000; */
	/*@ assert mac_pw: POW256(11) == 0x10000000000000000000000; */
	/*@ assert mac_pw: POW256(12) == 0x1000000000000000000000000; */
	/*@ assert mac_pw: POW256(13) == 0x100000000000000000000000000; */
	/*@ assert mac_pw: POW256(14) == 0x10000000000000000000000000000; */
	/*@ assert mac_pw: POW256(15) == 0x1000000000000000000000000000000; */
}

/* a little-endian word of four bytes (LE32, as load32_le computes it) is
 * their little-endian integer (the byte lemmas of why3/bytelemmas.mlw
 * turn each shift of a byte into a product) */
/*@ requires valid: \valid_read(p + (0 .. 3));
    assigns \nothing;
    ensures mac_le: LE32(p[0], p[1], p[2], p[3]) ==
      p[0] + 0x100 * p[1] + 0x10000 * p[2] + 0x1000000 * p[3];
 */
static void le32_len(const uint8_t *p)
{
}

/* one unfolding of LEN */
/*@ requires n: 0 < n;
    assigns \nothing;
    ensures mac_ls: LEN(b, n) == b[0] + 256 * LEN(b + 1, n - 1);
 */
static void len_step(const uint8_t *b, size_t n)
{
}

/* the first four of n >= 4 bytes at b: one little-endian word (LE32) */
/*@ requires n: 4 <= n;
    requires valid: \valid_read(b + (0 .. 3));
    assigns \nothing;
    ensures mac_l4: LEN(b, n) == LE32(b[0], b[1], b[2], b[3]) +
      0x100000000 * LEN(b + 4, n - 4);
 */
static void len4(const uint8_t *b, size_t n)
{
	le32_len(b);
	len_step(b, n);
	len_step(b + 1, n - 1);
	len_step(b + 2, n - 2);
	len_step(b + 3, n - 3);
}

/* the 16 bytes at m + o as the block loop reads them (WBLK: four
 * little-endian words) are their little-endian integer (LEN), which the
 * model's blocks and s are made of */
/*@ requires valid: \valid_read(m + (o .. o + 15));
    requires room: o + 16 <= SIZE_MAX;
    assigns \nothing;
    ensures mac_wl: WBLK(m, o) == LEN(m + o, 16);
    ensures mac_wp: 0 <= LEN(m + o, 16);
 */
static void wblk_len(const uint8_t *m, size_t o)
{
	len4(m + o, 16);
	len4(m + o + 4, 12);
	len4(m + o + 8, 8);
	len4(m + o + 12, 4);
	/*@ assert mac_wz: LEN(m + o + 16, 0) == 0; */
}

/* the model's accumulator over the first n full blocks of m (POLY_ACC)
 * is the block loop's (POLY_BLKS from 0, each block plus 2^128):
 * induction on i */
/*@ requires n: n <= SIZE_MAX / 16;
    requires valid_m: \valid_read(m + (0 .. 16 * n - 1));
    requires valid_r: \valid_read(r + (0 .. 3));
    assigns \nothing;
    ensures mac_fe: POLY_ACC(m, 16 * n, S4(r[0], r[1], r[2], r[3])) ==
      POLY_BLKS(0, m, n, 1, S4(r[0], r[1], r[2], r[3]));
    ensures mac_fp: 0 <= POLY_ACC(m, 16 * n, S4(r[0], r[1], r[2], r[3]));
 */
static void acc_full(const uint8_t *m, size_t n, const uint32_t r[4])
{
	pow256_16();
	/*@ loop invariant mac_fi: 0 <= i <= n;
	    loop invariant mac_fe: \let R = S4(r[0], r[1], r[2], r[3]);
	      POLY_ACC(m, 16 * i, R) == POLY_BLKS(0, m, i, 1, R);
	    loop invariant mac_fp: \let R = S4(r[0], r[1], r[2], r[3]);
	      0 <= POLY_ACC(m, 16 * i, R);
	    loop assigns i;
	    loop variant n - i;
	 */
	for (size_t i = 0; i < n; i++) {
		wblk_len(m, 16 * i);
		/*@ assert mac_fs: POLY_LAST(16 * i + 16) == 16; */
		/*@ assert mac_fs: \let R = S4(r[0], r[1], r[2], r[3]);
		      POLY_ACC(m, 16 * i + 16, R) ==
		      POLY_STEP(POLY_ACC(m, 16 * i, R), POLY_BLOCK(m + 16 * i, 16), R);
		 */
		/*@ assert mac_fs: POLY_BLOCK(m + 16 * i, 16) ==
		      WBLK(m, 16 * i) + 1 * P2_128;
		 */
		/*@ assert mac_fs: \let R = S4(r[0], r[1], r[2], r[3]);
		      POLY_BLKS(0, m, i + 1, 1, R) ==
		      POLY_STEP(POLY_BLKS(0, m, i, 1, R), WBLK(m, 16 * i) + 1 * P2_128, R);
		 */
		/*@ assert mac_fs: 0 <= POLY_ACC(m, 16 * i, S4(r[0], r[1], r[2], r[3])) +
		      POLY_BLOCK(m + 16 * i, 16) && 0 <= S4(r[0], r[1], r[2], r[3]);
		 */
	}
}

/* the last block as poly1305_mac builds it (the k bytes at p + o, then
 * 0x01, then zeros) is the model's POLY_BLOCK(p + o, k): LEN from the
 * top byte down, one unfolding per byte */
/*@ requires k: 0 < k < 16;
    requires copy: \forall integer j; 0 <= j < k ==> last[j] == p[o + j];
    requires one: last[k] == 1;
    requires zero: \forall integer j; k < j < 16 ==> last[j] == 0;
    assigns \nothing;
    ensures mac_lb: LEN(last, 16) == POLY_BLOCK(p + o, k);
 */
static void last_len(const uint8_t last[16], const uint8_t *p, size_t o,
		     size_t k)
{
	/*@ loop invariant mac_li: 0 <= i <= 16;
	    loop invariant mac_lz: k < i ==> LEN(last + i, 16 - i) == 0;
	    loop invariant mac_lk: i <= k ==>
	      LEN(last + i, 16 - i) == LEN(p + (o + i), k - i) + POW256(k - i);
	    loop assigns i;
	    loop variant i;
	 */
	for (size_t i = 16; i > 0; i--) {
		/*@ assert mac_lu: LEN(last + (i - 1), 17 - i) ==
		      last[i - 1] + 256 * LEN(last + i, 16 - i);
		 */
		/*@ assert mac_lu: i - 1 < k ==>
		      LEN(p + (o + (i - 1)), k - (i - 1)) ==
		      p[o + (i - 1)] + 256 * LEN(p + (o + i), k - i);
		 */
		/*@ assert mac_lu: i - 1 < k ==>
		      POW256(k - (i - 1)) == 256 * POW256(k - i);
		 */
		/*@ assert mac_lu: i - 1 == k ==>
		      LEN(p + (o + k), 0) + POW256(0) == 1;
		 */
	}
}
#endif

/* Absorb the k bytes (1..15) at m + o as a message's last block (RFC 8439
 * 2.5.1): the bytes, then 0x01, then zeros, without the 2^128 bit. */
/*@ requires valid_st: \valid(st);
    requires mac_lim: limbs_ok(st);
    requires mul4: st_mul4(st);
    requires k: 0 < k < 16;
    requires room: o + k <= SIZE_MAX;
    requires valid_m: \valid_read(m + (o .. o + k - 1));
    requires sep: \separated(st, m + (o .. o + k - 1));
    assigns st->h[0 .. 4];
    ensures mac_lim: limbs_ok(st);
    ensures mul4: st_mul4(st);
    ensures mac_last: H5(st->h[0], st->h[1], st->h[2], st->h[3], st->h[4]) %
      POLY_P == POLY_STEP(\old(H5(st->h[0], st->h[1], st->h[2], st->h[3],
      st->h[4])), POLY_BLOCK(m + o, k),
      S4(st->r[0], st->r[1], st->r[2], st->r[3])) % POLY_P;
    ensures mac_lp: 0 <= POLY_BLOCK(m + o, k);
 */
static POLY_INLINE void last_block(struct poly1305 *st, const uint8_t *m,
				   size_t o, size_t k)
{
	uint8_t last[16] = { 0 };

	copy_tail(last, m + o, k);
	last[k] = 1;
#ifdef __FRAMAC__
	last_len(last, m, o, k);
	wblk_len(last, 0);
#endif
	/*@ assert mac_l1: \let H = H5(st->h[0], st->h[1], st->h[2], st->h[3],
	      st->h[4]); \let R = S4(st->r[0], st->r[1], st->r[2], st->r[3]);
	      POLY_BLKS(H, &last[0], 1, 0, R) == POLY_STEP(H, POLY_BLOCK(m + o, k), R) &&
	      0 <= POLY_BLOCK(m + o, k);
	 */
	poly1305_blocks(st->h, st->r, last, 16, 0);
}

/* Absorb all of m[0 .. len - 1] into a fresh accumulator: the full
 * blocks, then the last partial one (mac_acc: the model's POLY_ACC) */
/*@ requires valid_st: \valid(st);
    requires mac_lim: limbs_ok(st);
    requires mul4: st_mul4(st);
    requires zero: st->h[0] == 0 && st->h[1] == 0 && st->h[2] == 0 &&
                   st->h[3] == 0 && st->h[4] == 0;
    requires valid_m: \valid_read(m + (0 .. len - 1));
    requires sep: \separated(st, m + (0 .. len - 1));
    assigns st->h[0 .. 4];
    ensures mac_lim: limbs_ok(st);
    ensures mul4: st_mul4(st);
    ensures mac_acc: \let R = S4(st->r[0], st->r[1], st->r[2], st->r[3]);
      H5(st->h[0], st->h[1], st->h[2], st->h[3], st->h[4]) % POLY_P ==
      POLY_ACC(m, len, R) && 0 <= POLY_ACC(m, len, R) < POLY_P;
 */
static POLY_INLINE void mac_absorb(struct poly1305 *st, const uint8_t *m,
				   size_t len)
{
	size_t full = len / 16 * 16;

#ifdef __FRAMAC__
	acc_full(m, len / 16, st->r);
#endif
	if (full > 0) /* m may be NULL when len is 0 */
		poly1305_blocks(st->h, st->r, m, full, 1);
	/*@ assert mac_mid: S4(st->r[0], st->r[1], st->r[2], st->r[3]) ==
	      \at(S4(st->r[0], st->r[1], st->r[2], st->r[3]), Pre);
	 */
	/*@ assert mac_mid: full == 16 * (len / 16); */
	/*@ assert mac_mid: \let R = S4(st->r[0], st->r[1], st->r[2], st->r[3]);
	      POLY_ACC(m, full, R) == POLY_BLKS(0, m, len / 16, 1, R) &&
	      0 <= POLY_ACC(m, full, R);
	 */
	/*@ assert mac_mid: \let R = S4(st->r[0], st->r[1], st->r[2], st->r[3]);
	      H5(st->h[0], st->h[1], st->h[2], st->h[3], st->h[4]) % POLY_P ==
	      POLY_BLKS(0, m, len / 16, 1, R) % POLY_P;
	 */
	/*@ assert mac_mid: \let R = S4(st->r[0], st->r[1], st->r[2], st->r[3]);
	      H5(st->h[0], st->h[1], st->h[2], st->h[3], st->h[4]) % POLY_P ==
	      POLY_ACC(m, full, R) % POLY_P;
	 */
	if (len > full) {
#ifdef __FRAMAC__
	mid:
#endif
		last_block(st, m, full, len - full);
		/*@ assert mac_u: POLY_LAST(len) == len - full; */
		/*@ assert mac_u: \let R = S4(st->r[0], st->r[1], st->r[2], st->r[3]);
		      POLY_ACC(m, len, R) == POLY_STEP(POLY_ACC(m, full, R),
		        POLY_BLOCK(m + full, len - full), R);
		 */
		/*@ assert mac_u: \let R = S4(st->r[0], st->r[1], st->r[2], st->r[3]);
		      \let B = POLY_BLOCK(m + full, len - full);
		      \let H = \at(H5(st->h[0], st->h[1], st->h[2], st->h[3], st->h[4]), mid);
		      0 <= H && 0 <= B && 0 <= R &&
		      POLY_STEP(H, B, R) == POLY_STEP(H % POLY_P, B, R) &&
		      POLY_STEP(POLY_ACC(m, full, R), B, R) ==
		      POLY_STEP(POLY_ACC(m, full, R) % POLY_P, B, R);
		 */
		/*@ assert mac_u: \let R = S4(st->r[0], st->r[1], st->r[2], st->r[3]);
		      H5(st->h[0], st->h[1], st->h[2], st->h[3], st->h[4]) % POLY_P ==
		      POLY_ACC(m, len, R) % POLY_P;
		 */
	}
	/*@ assert mac_u: \let R = S4(st->r[0], st->r[1], st->r[2], st->r[3]);
	      0 <= POLY_ACC(m, len, R) < POLY_P;
	 */
}

/* see poly1305/ref.h: the full blocks, then the last partial one, then
 * the freeze and the tag (the streaming update/final give the same tag;
 * the differential tests compare them) */
void poly1305_mac(uint8_t tag[16], const uint8_t *m, size_t len,
		  const uint8_t key[32])
{
	struct poly1305 st;

	poly1305_init(&st, key);
#ifdef __FRAMAC__
	wblk_len(key, 16);
#endif
	/*@ assert mac_r: S4(st.r[0], st.r[1], st.r[2], st.r[3]) ==
	      \at(POLY_R(key), Pre);
	 */
	/*@ assert mac_s: S4(st.s[0], st.s[1], st.s[2], st.s[3]) ==
	      \at(POLY_S(key), Pre);
	 */
	mac_absorb(&st, m, len);
	/*@ assert mac_rs: S4(st.r[0], st.r[1], st.r[2], st.r[3]) ==
	      \at(POLY_R(key), Pre) &&
	      S4(st.s[0], st.s[1], st.s[2], st.s[3]) == \at(POLY_S(key), Pre);
	 */
	/*@ assert mac_fin: (H5(st.h[0], st.h[1], st.h[2], st.h[3], st.h[4]) %
	      POLY_P + S4(st.s[0], st.s[1], st.s[2], st.s[3])) % P2_128 ==
	      \at(POLY1305(m, len, key), Pre);
	 */
	poly1305_finish(&st, tag);
}
