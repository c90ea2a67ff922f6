/* SPDX-License-Identifier: MIT */
/*
 * Poly1305 in 3 x 64-bit limbs (44/44/42 bits), unsigned __int128 products.
 * See kernels.h (struct poly1305_fast) and poly1305/x64.h (block step).
 * Spec: RFC 8439 section 2.5 (clamp r, h = (h + m) * r mod 2^130 - 5,
 * tag = (h + s) mod 2^128).
 * Depends on: ct.h, poly1305/x64.h. Baseline x86-64 (no ISA flag).
 * Constant time: yes; the final reduction selects with a mask.
 * Not proved (WP cannot parse __int128); checked against poly1305/ref.c by
 * tests/unit/test_kernels.c with random splits.
 */
#if !defined(__FRAMAC__)
#include "crypto/kernels.h"
#include "crypto/ct.h"
#include "crypto/poly1305/x64.h"

/* see kernels.h */
void poly1305_fast_init(struct poly1305_fast *st, const uint8_t key[32])
{
	uint64_t t0 = p64_load_le(key);
	uint64_t t1 = p64_load_le(key + 8);

	/* r &= 0x0ffffffc0ffffffc0ffffffc0fffffff, in 44/44/42-bit limbs */
	st->r[0] = t0 & 0xffc0fffffffULL;
	st->r[1] = ((t0 >> 44) | (t1 << 20)) & 0xfffffc0ffffULL;
	st->r[2] = (t1 >> 24) & 0x00ffffffc0fULL;
	st->h[0] = 0;
	st->h[1] = 0;
	st->h[2] = 0;
	st->pad[0] = p64_load_le(key + 16);
	st->pad[1] = p64_load_le(key + 24);
	for (int i = 0; i < 16; i++)
		st->buf[i] = 0;
	st->buflen = 0;
	st->blocks = NULL;
}

/* see kernels.h */
void poly1305_fast_use(struct poly1305_fast *st, poly1305_blocks_fn blocks)
{
	st->blocks = blocks;
}

/* see kernels.h */
void poly1305_fast_update(struct poly1305_fast *st, const uint8_t *m,
			  size_t len)
{
	size_t off = 0;
	size_t n;

	if (len == 0) /* m may be NULL then */
		return;
	if (st->buflen > 0) {
		while (off < len && st->buflen < 16)
			st->buf[st->buflen++] = m[off++];
		if (st->buflen < 16)
			return;
		p64_block(st->h, st->r, st->buf, 1ULL << 40);
		st->buflen = 0;
	}
	n = (len - off) / 16;
	if (st->blocks != NULL && n >= 16)
		st->blocks(st->h, st->r, m + off, n);
	else
		p64_blocks(st->h, st->r, m + off, n);
	off += 16 * n;
	while (off < len)
		st->buf[st->buflen++] = m[off++];
}

/* see kernels.h */
void poly1305_fast_final(struct poly1305_fast *st, uint8_t tag[16])
{
	uint64_t h0, h1, h2, g0, g1, g2, c, mask, t0, t1;

	if (st->buflen > 0) {
		/* last partial block: 0x01 then zeros, no 2^128 bit */
		st->buf[st->buflen] = 1;
		for (size_t i = st->buflen + 1; i < 16; i++)
			st->buf[i] = 0;
		p64_block(st->h, st->r, st->buf, 0);
	}
	h0 = st->h[0];
	h1 = st->h[1];
	h2 = st->h[2];
	/* two full carry passes: every limb below its width */
	for (int pass = 0; pass < 2; pass++) {
		c = h1 >> 44;
		h1 &= P64_M44;
		h2 += c;
		c = h2 >> 42;
		h2 &= P64_M42;
		h0 += c * 5;
		c = h0 >> 44;
		h0 &= P64_M44;
		h1 += c;
	}
	/* g = h + 5 - 2^130; keep g when it does not borrow (h >= p) */
	g0 = h0 + 5;
	c = g0 >> 44;
	g0 &= P64_M44;
	g1 = h1 + c;
	c = g1 >> 44;
	g1 &= P64_M44;
	g2 = h2 + c - (1ULL << 42);
	mask = (g2 >> 63) - 1; /* all ones when no borrow */
	h0 = (h0 & ~mask) | (g0 & mask);
	h1 = (h1 & ~mask) | (g1 & mask);
	h2 = (h2 & ~mask) | (g2 & mask);
	/* (h mod 2^128) + s */
	t0 = h0 | (h1 << 44);
	t1 = (h1 >> 20) | (h2 << 24);
	t0 += st->pad[0];
	c = t0 < st->pad[0];
	t1 += st->pad[1] + c;
	store64_le(tag, t0);
	store64_le(tag + 8, t1);
	ct_wipe(st, sizeof(*st));
}
#endif
