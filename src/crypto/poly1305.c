/* SPDX-License-Identifier: MIT */
/*
 * Portable Poly1305 in 5 x 26-bit limbs. See poly1305.h.
 * Spec: RFC 8439 section 2.5 (clamp, h = (h + m) * r mod 2^130-5, tag =
 * (h + s) mod 2^128).
 * Depends on: ct.h. Written for Frama-C WP: no __int128, one function per
 * stage (product sums, block loop, freeze, tag) with limb bounds in their
 * contracts (spec/poly1305.acsl: r_ok, h_ok, limbs_ok).
 * Limb arithmetic is written as x / 2^k and x % 2^k on unsigned values:
 * the compiler emits the same shifts and masks, and the provers see linear
 * arithmetic (no unsigned << at all, so nothing can wrap: proved with
 * -warn-unsigned-overflow).
 * Bounds kept between blocks (h_ok): h[0], h[2..4] < 2^26,
 * h[1] < 2^26 + 2^12; r[i] < 2^26, so 5 * r[i] < 2^29. After adding a
 * message block each limb is < 2^28, every product < 2^57 and every
 * product sum < 5 * 2^57 < 2^60; the carries then leave the bounds above.
 * Constant time: no secret-dependent branch or index; the final
 * reduction selects by multiplying with 0/1.
 */
#include "crypto/poly1305.h"
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
/* 2^32, one tag word */
#define W32 UINT64_C(0x100000000)

/* The 26-bit limbs 1..4 of a 128-bit little-endian value from its 32-bit
 * words (limb 0 is t0 % P26): bits disjoint, so + is | */
/*@ assigns \nothing;
    ensures value: \result == lo / 67108864 + hi % 1048576 * 64;
    ensures bound: \result < 67108864;
 */
static POLY_INLINE uint32_t limb1(uint32_t lo, uint32_t hi)
{
	return lo / P26 + hi % 1048576U * 64U;
}

/*@ assigns \nothing;
    ensures value: \result == lo / 1048576 + hi % 16384 * 4096;
    ensures bound: \result < 67108864;
 */
static POLY_INLINE uint32_t limb2(uint32_t lo, uint32_t hi)
{
	return lo / 1048576U + hi % 16384U * 4096U;
}

/*@ assigns \nothing;
    ensures value: \result == lo / 16384 + hi % 256 * 262144;
    ensures bound: \result < 67108864;
 */
static POLY_INLINE uint32_t limb3(uint32_t lo, uint32_t hi)
{
	return lo / 16384U + hi % 256U * 262144U;
}

/* limb 4 plus the pad bit (2^128 = 2^24 in limb 4) */
/*@ requires hibit: hibit == 0 || hibit == 0x1000000;
    assigns \nothing;
    ensures value: \result == t3 / 256 + hibit;
    ensures bound: \result < 0x2000000;
 */
static POLY_INLINE uint32_t limb4(uint32_t t3, uint32_t hibit)
{
	return t3 / 256U + hibit;
}

/* a0 * b0 + ... + a4 * b4, one column of the product h * r */
/*@ requires a: a0 < 0x10000000 && a1 < 0x10000000 && a2 < 0x10000000 &&
                a3 < 0x10000000 && a4 < 0x10000000;
    requires b: b0 < 0x20000000 && b1 < 0x20000000 && b2 < 0x20000000 &&
                b3 < 0x20000000 && b4 < 0x20000000;
    assigns \nothing;
    ensures bound: \result < 0xa00000000000000;
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

	/*@ assert products: p0 < 0x200000000000000 && p1 < 0x200000000000000 &&
	                     p2 < 0x200000000000000 && p3 < 0x200000000000000 &&
	                     p4 < 0x200000000000000;
	 */
	return p0 + p1 + p2 + p3 + p4;
}

/*
 * For each full 16-byte block of m[0..len-1] (a tail of len % 16 bytes is
 * ignored): h += block + hibit * 2^104, then h *= r mod 2^130-5, partially
 * reduced. hibit is 1 << 24 (the 2^128 pad bit of a full block) or 0 (the
 * final partial block, already padded). h, r and 5 r stay in locals
 * across blocks (through st->h the compiler would reload them: uint8_t
 * loads may alias anything).
 */
/*@ requires valid: \valid(h + (0 .. 4)) && \valid_read(r + (0 .. 4));
    requires valid_m: \valid_read(m + (0 .. len - 1));
    requires sep: \separated(h + (0 .. 4), r + (0 .. 4)) &&
                  \separated(h + (0 .. 4), m + (0 .. len - 1));
    requires hibit: hibit == 0 || hibit == 0x1000000;
    requires h_ok: h_ok(h);
    requires r_ok: r_ok(r);
    assigns h[0 .. 4];
    ensures h_ok: h_ok(h);
 */
static POLY_INLINE void poly1305_blocks(uint32_t h[5], const uint32_t r[5],
					const uint8_t *m, size_t len,
					uint32_t hibit)
{
	uint64_t r0 = r[0], r1 = r[1], r2 = r[2], r3 = r[3], r4 = r[4];
	uint64_t s1 = r1 * 5, s2 = r2 * 5, s3 = r3 * 5, s4 = r4 * 5;
	uint64_t h0 = h[0], h1 = h[1], h2 = h[2], h3 = h[3], h4 = h[4];
	size_t off = 0;

	/*@ loop invariant off: off <= len;
	    loop invariant h: h0 < 67108864 && h1 < 67108864 + 4096 &&
	                      h2 < 67108864 && h3 < 67108864 && h4 < 67108864;
	    loop assigns off, h0, h1, h2, h3, h4;
	    loop variant len - off;
	 */
	while (len - off >= 16) {
		uint32_t t0 = load32_le(m + off);
		uint32_t t1 = load32_le(m + off + 4);
		uint32_t t2 = load32_le(m + off + 8);
		uint32_t t3 = load32_le(m + off + 12);
		uint64_t a0 = h0 + t0 % P26;
		uint64_t a1 = h1 + limb1(t0, t1);
		uint64_t a2 = h2 + limb2(t1, t2);
		uint64_t a3 = h3 + limb3(t2, t3);
		uint64_t a4 = h4 + limb4(t3, hibit);
		/* schoolbook product, 2^130 folded as 5 */
		uint64_t d0 = dot5(a0, r0, a1, s4, a2, s3, a3, s2, a4, s1);
		uint64_t d1 = dot5(a0, r1, a1, r0, a2, s4, a3, s3, a4, s2);
		uint64_t d2 = dot5(a0, r2, a1, r1, a2, r0, a3, s4, a4, s3);
		uint64_t d3 = dot5(a0, r3, a1, r2, a2, r1, a3, r0, a4, s4);
		uint64_t d4 = dot5(a0, r4, a1, r3, a2, r2, a3, r1, a4, r0);

		/* one carry pass; the top carry re-enters limb 0 times 5 */
		d1 += d0 / P26;
		h0 = d0 % P26;
		d2 += d1 / P26;
		h1 = d1 % P26;
		d3 += d2 / P26;
		h2 = d2 % P26;
		d4 += d3 / P26;
		h3 = d3 % P26;
		h0 += d4 / P26 * 5;
		h4 = d4 % P26;
		h1 += h0 / P26;
		h0 %= P26;
		off += 16;
	}
	h[0] = (uint32_t)h0;
	h[1] = (uint32_t)h1;
	h[2] = (uint32_t)h2;
	h[3] = (uint32_t)h3;
	h[4] = (uint32_t)h4;
}

/* see poly1305.h */
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
	/* r &= 0x0ffffffc0ffffffc0ffffffc0fffffff, split into 26-bit limbs
	 * (limb 0 has no clamp bit) */
	uint32_t r0 = t0 % P26;
	uint32_t r1 = limb1(t0, t1) & 0x3ffff03U;
	uint32_t r2 = limb2(t1, t2) & 0x3ffc0ffU;
	uint32_t r3 = limb3(t2, t3) & 0x3f03fffU;
	uint32_t r4 = limb4(t3, 0) & 0x00fffffU;

	/*@ loop invariant 0 <= i <= 16;
	    loop assigns i, st->buf[0 .. 15];
	    loop variant 16 - i;
	 */
	for (int i = 0; i < 16; i++)
		st->buf[i] = 0;
	st->buflen = 0;
	/*@ assert r_bounds: r0 <= 0x3ffffff && r1 <= 0x3ffff03 &&
	                     r2 <= 0x3ffc0ff && r3 <= 0x3f03fff &&
	                     r4 <= 0x00fffff;
	 */
	st->r[0] = r0;
	st->r[1] = r1;
	st->r[2] = r2;
	st->r[3] = r3;
	st->r[4] = r4;
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
	                  st->r[0] <= 0x3ffffff && st->r[1] <= 0x3ffff03 &&
	                  st->r[2] <= 0x3ffc0ff && st->r[3] <= 0x3f03fff &&
	                  st->r[4] <= 0x00fffff;
	 */
}

/* see poly1305.h */
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
		if (st->buflen < 16)
			return;
		poly1305_blocks(st->h, st->r, st->buf, 16, 1U << 24);
		st->buflen = 0;
	}
	full = (len - off) / 16 * 16;
	if (full > 0) { /* m may be NULL when len is 0 */
		poly1305_blocks(st->h, st->r, m + off, full, 1U << 24);
		off += full;
	}
	/*@ loop invariant off: off <= len;
	    loop invariant room: st->buflen + (len - off) <= 15;
	    loop assigns off, st->buflen, st->buf[0 .. 15];
	    loop variant len - off;
	 */
	while (off < len)
		st->buf[st->buflen++] = m[off++];
}

/*
 * Fully reduce h: afterwards h is the unique representative of the old
 * value modulo p = 2^130 - 5, in limbs < 2^26.
 */
/*@ requires valid: \valid(h + (0 .. 4));
    requires h_ok: h_ok(h);
    assigns h[0 .. 4];
    ensures limbs: h[0] < 67108864 && h[1] < 67108864 && h[2] < 67108864 &&
                   h[3] < 67108864 && h[4] < 67108864;
    ensures lt_p: H5(h[0], h[1], h[2], h[3], h[4]) < POLY_P;
    ensures mod_p: H5(h[0], h[1], h[2], h[3], h[4]) ==
                   H5(\old(h[0]), \old(h[1]), \old(h[2]), \old(h[3]),
                      \old(h[4])) % POLY_P;
 */
static void poly1305_freeze(uint32_t h[5])
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
	f0 = h0 * (1U - b) + g0 * b;
	f1 = h1 * (1U - b) + g1 * b;
	f2 = h2 * (1U - b) + g2 * b;
	f3 = h3 * (1U - b) + g3 * b;
	f4 = h4 * (1U - b) + g4 * b;
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

/* ct_wipe(st, sizeof(*st)), as WP sees it: field by field (the typed
 * memory model does not view a struct as bytes) */
/*@ requires valid: \valid(st);
    assigns *st;
 */
static void wipe_state(struct poly1305 *st)
{
#ifdef __FRAMAC__
	/*@ loop invariant 0 <= i <= 5;
	    loop assigns i, st->r[0 .. 4], st->h[0 .. 4];
	    loop variant 5 - i;
	 */
	for (int i = 0; i < 5; i++) {
		st->r[i] = 0;
		st->h[i] = 0;
	}
	/*@ loop invariant 0 <= i <= 4;
	    loop assigns i, st->s[0 .. 3];
	    loop variant 4 - i;
	 */
	for (int i = 0; i < 4; i++)
		st->s[i] = 0;
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

/* see poly1305.h */
void poly1305_final(struct poly1305 *st, uint8_t tag[16])
{
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
	poly1305_freeze(st->h);
	poly1305_tag(tag, st->h, st->s);
	wipe_state(st);
}

/* see poly1305.h */
void poly1305_mac(uint8_t tag[16], const uint8_t *m, size_t len,
		  const uint8_t key[32])
{
	struct poly1305 st;

	poly1305_init(&st, key);
	poly1305_update(&st, m, len);
	poly1305_final(&st, tag);
}
