/* SPDX-License-Identifier: MIT */
/*
 * Portable Poly1305 in 5 x 26-bit limbs. See poly1305.h.
 * Spec: RFC 8439 section 2.5 (clamp, h = (h + m) * r mod 2^130-5, tag =
 * (h + s) mod 2^128).
 * Depends on: ct.h. Written for Frama-C WP: no __int128, one function per
 * stage (limb load, multiply, carry, freeze) with limb bounds in contracts.
 * Limb bounds kept between blocks: h[0], h[2..4] < 2^26, h[1] < 2^26 + 2^6;
 * r[i] < 2^26, so 5 * r[i] < 2^29. After adding a message block each h limb
 * is < 2^27, so every product sum below is < 5 * 2^27 * 2^29 < 2^64.
 * Constant time: no secret-dependent branch; the final reduction selects
 * with a mask.
 */
#include "crypto/poly1305.h"
#include "crypto/ct.h"

/* poly1305_block keeps its own contract for WP, but the compiler inlines it
 * into the update loop. Frama-C sees a plain static function. */
#ifdef __FRAMAC__
#define POLY_INLINE
#else
#define POLY_INLINE __attribute__((always_inline)) inline
#endif

#define M26 0x3ffffffU

/* see poly1305.h */
void poly1305_init(struct poly1305 *st, const uint8_t key[32])
{
	uint32_t t0 = load32_le(key);
	uint32_t t1 = load32_le(key + 4);
	uint32_t t2 = load32_le(key + 8);
	uint32_t t3 = load32_le(key + 12);

	/* r &= 0x0ffffffc0ffffffc0ffffffc0fffffff, split into 26-bit limbs */
	st->r[0] = t0 & 0x3ffffffU;
	st->r[1] = ((t0 >> 26) | (t1 << 6)) & 0x3ffff03U;
	st->r[2] = ((t1 >> 20) | (t2 << 12)) & 0x3ffc0ffU;
	st->r[3] = ((t2 >> 14) | (t3 << 18)) & 0x3f03fffU;
	st->r[4] = (t3 >> 8) & 0x00fffffU;
	/*@ loop invariant 0 <= i <= 5;
	    loop assigns i, st->h[0 .. 4];
	    loop variant 5 - i;
	 */
	for (int i = 0; i < 5; i++)
		st->h[i] = 0;
	/*@ loop invariant 0 <= i <= 4;
	    loop assigns i, st->s[0 .. 3];
	    loop variant 4 - i;
	 */
	for (int i = 0; i < 4; i++)
		st->s[i] = load32_le(key + 16 + 4 * i);
	/*@ loop invariant 0 <= i <= 16;
	    loop assigns i, st->buf[0 .. 15];
	    loop variant 16 - i;
	 */
	for (int i = 0; i < 16; i++)
		st->buf[i] = 0;
	st->buflen = 0;
}

/*@ requires valid: \valid(h + (0 .. 4)) && \valid_read(r + (0 .. 4)) &&
                    \valid_read(m + (0 .. 15));
    requires sep: \separated(h + (0 .. 4), r + (0 .. 4)) &&
                  \separated(h + (0 .. 4), m + (0 .. 15));
    assigns h[0 .. 4];
 */
/* h += m (16 bytes, with 2^128 added when hibit is 1 << 24), then
 * h *= r mod 2^130-5, partially reduced. */
static POLY_INLINE void poly1305_block(uint32_t h[5], const uint32_t r[5],
				       const uint8_t m[16], uint32_t hibit)
{
	uint32_t t0 = load32_le(m);
	uint32_t t1 = load32_le(m + 4);
	uint32_t t2 = load32_le(m + 8);
	uint32_t t3 = load32_le(m + 12);
	uint64_t h0 = h[0] + (t0 & M26);
	uint64_t h1 = h[1] + (((t0 >> 26) | (t1 << 6)) & M26);
	uint64_t h2 = h[2] + (((t1 >> 20) | (t2 << 12)) & M26);
	uint64_t h3 = h[3] + (((t2 >> 14) | (t3 << 18)) & M26);
	uint64_t h4 = h[4] + ((t3 >> 8) | hibit);
	uint64_t r0 = r[0], r1 = r[1], r2 = r[2], r3 = r[3], r4 = r[4];
	uint64_t s1 = r1 * 5, s2 = r2 * 5, s3 = r3 * 5, s4 = r4 * 5;
	uint64_t d0 = h0 * r0 + h1 * s4 + h2 * s3 + h3 * s2 + h4 * s1;
	uint64_t d1 = h0 * r1 + h1 * r0 + h2 * s4 + h3 * s3 + h4 * s2;
	uint64_t d2 = h0 * r2 + h1 * r1 + h2 * r0 + h3 * s4 + h4 * s3;
	uint64_t d3 = h0 * r3 + h1 * r2 + h2 * r1 + h3 * r0 + h4 * s4;
	uint64_t d4 = h0 * r4 + h1 * r3 + h2 * r2 + h3 * r1 + h4 * r0;
	uint64_t c;

	c = d0 >> 26;
	h0 = d0 & M26;
	d1 += c;
	c = d1 >> 26;
	h1 = d1 & M26;
	d2 += c;
	c = d2 >> 26;
	h2 = d2 & M26;
	d3 += c;
	c = d3 >> 26;
	h3 = d3 & M26;
	d4 += c;
	c = d4 >> 26;
	h4 = d4 & M26;
	h0 += c * 5;
	c = h0 >> 26;
	h0 &= M26;
	h1 += c;
	h[0] = (uint32_t)h0;
	h[1] = (uint32_t)h1;
	h[2] = (uint32_t)h2;
	h[3] = (uint32_t)h3;
	h[4] = (uint32_t)h4;
}

/* see poly1305.h */
void poly1305_update(struct poly1305 *st, const uint8_t *m, size_t len)
{
	size_t off = 0;

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
		poly1305_block(st->h, st->r, st->buf, 1U << 24);
		st->buflen = 0;
	}
	/*@ loop invariant off: off <= len;
	    loop invariant buflen: st->buflen == 0;
	    loop assigns off, st->h[0 .. 4];
	    loop variant len - off;
	 */
	while (len - off >= 16) {
		poly1305_block(st->h, st->r, m + off, 1U << 24);
		off += 16;
	}
	/*@ loop invariant off: off <= len;
	    loop invariant room: st->buflen + (len - off) <= 15;
	    loop assigns off, st->buflen, st->buf[0 .. 15];
	    loop variant len - off;
	 */
	while (off < len)
		st->buf[st->buflen++] = m[off++];
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
	uint32_t h0, h1, h2, h3, h4, c;
	uint32_t g0, g1, g2, g3, g4, mask;
	uint64_t f;

	if (st->buflen > 0) {
		/* last partial block: append 0x01, pad with zeros, no 2^128 */
		st->buf[st->buflen] = 1;
		/*@ loop invariant st->buflen + 1 <= i <= 16;
		    loop assigns i, st->buf[0 .. 15];
		    loop variant 16 - i;
		 */
		for (size_t i = st->buflen + 1; i < 16; i++)
			st->buf[i] = 0;
		poly1305_block(st->h, st->r, st->buf, 0);
	}
	h0 = st->h[0];
	h1 = st->h[1];
	h2 = st->h[2];
	h3 = st->h[3];
	h4 = st->h[4];
	/* full carry so that every limb is < 2^26 */
	c = h1 >> 26;
	h1 &= M26;
	h2 += c;
	c = h2 >> 26;
	h2 &= M26;
	h3 += c;
	c = h3 >> 26;
	h3 &= M26;
	h4 += c;
	c = h4 >> 26;
	h4 &= M26;
	h0 += c * 5;
	c = h0 >> 26;
	h0 &= M26;
	h1 += c;
	/* g = h + 5 - 2^130; keep g when it does not borrow (h >= p) */
	g0 = h0 + 5;
	c = g0 >> 26;
	g0 &= M26;
	g1 = h1 + c;
	c = g1 >> 26;
	g1 &= M26;
	g2 = h2 + c;
	c = g2 >> 26;
	g2 &= M26;
	g3 = h3 + c;
	c = g3 >> 26;
	g3 &= M26;
	g4 = h4 + c - (1U << 26);
	mask = (g4 >> 31) - 1U; /* all ones when g4 did not borrow */
	h0 = (h0 & ~mask) | (g0 & mask);
	h1 = (h1 & ~mask) | (g1 & mask);
	h2 = (h2 & ~mask) | (g2 & mask);
	h3 = (h3 & ~mask) | (g3 & mask);
	h4 = (h4 & ~mask) | (g4 & mask);
	/* h mod 2^128 as four 32-bit words, plus s, carrying */
	f = (uint64_t)(h0 | (h1 << 26)) + st->s[0];
	store32_le(tag, (uint32_t)f);
	f = (uint64_t)((h1 >> 6) | (h2 << 20)) + st->s[1] + (f >> 32);
	store32_le(tag + 4, (uint32_t)f);
	f = (uint64_t)((h2 >> 12) | (h3 << 14)) + st->s[2] + (f >> 32);
	store32_le(tag + 8, (uint32_t)f);
	f = (uint64_t)((h3 >> 18) | (h4 << 8)) + st->s[3] + (f >> 32);
	store32_le(tag + 12, (uint32_t)f);
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
