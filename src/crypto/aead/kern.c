/* SPDX-License-Identifier: MIT */
/*
 * The kern layer: each entry point calls through the dispatch table. See
 * aead/kern.h.
 * Spec: RFC 8439 sections 2.3-2.5 and 2.8; draft-irtf-cfrg-xchacha-03
 * section 2.2.
 * Depends on: aead/kern.h, dispatch.h, kernels.h, chacha20/ref.h, poly1305/ref.h, ct.h.
 * Intrinsics-free: Frama-C parses it (the per-thread counts aside).
 * Constant time: yes; every branch depends on the level or on lengths.
 * Contract: aead/kern.h, the ref functions' contracts (not proved here: the
 * dispatched kernels are trusted, tested against the ref functions).
 */
#include "crypto/aead/kern.h"
#include <stdlib.h>

#include "crypto/ct.h"
#include "crypto/dispatch.h"
#include "crypto/kernels.h"

#ifndef __FRAMAC__
static _Thread_local unsigned long kern_count[KERN_NTARGETS];
#define KERN_COUNT(t) (kern_count[(t)]++)

/* see aead/kern.h */
void kern_counts(unsigned long out[KERN_NTARGETS])
{
	for (int i = 0; i < KERN_NTARGETS; i++)
		out[i] = kern_count[i];
}

/* see aead/kern.h */
void kern_counts_reset(void)
{
	for (int i = 0; i < KERN_NTARGETS; i++)
		kern_count[i] = 0;
}
#else
#define KERN_COUNT(t) ((void)0)
#endif

/* see aead/kern.h */
uint32_t kern_chacha20_xor(uint8_t *out, const uint8_t *in, size_t len,
			   const uint8_t key[32], uint32_t counter,
			   const uint8_t nonce[12])
{
	const struct dispatch_choice *ch = dispatch_current();

	KERN_COUNT(ch->chacha20 == chacha20_xor ? KERN_CHACHA20_REF
						: KERN_CHACHA20_SIMD);
	return ch->chacha20(out, in, len, key, counter, nonce);
}

/* see aead/kern.h */
void kern_hchacha20(uint8_t out[32], const uint8_t key[32],
		    const uint8_t nonce[16])
{
	const struct dispatch_choice *ch = dispatch_current();

	KERN_COUNT(ch->hchacha20 == hchacha20 ? KERN_HCHACHA20_REF
					      : KERN_HCHACHA20_FAST);
	ch->hchacha20(out, key, nonce);
}

/* see aead/kern.h: the proved one at every level (a few stores) */
void kern_poly1305_init(struct poly1305 *st, const uint8_t key[32])
{
	KERN_COUNT(KERN_POLY_INIT_REF);
	poly1305_init(st, key);
}

/* shortest run of whole blocks handed to a vector blocks function (as
 * poly1305_fast_update: below it the scalar loop is as fast) */
#define VEC_MIN_BLOCKS 16

#define M26 0x3ffffffU
#define M42 0x3ffffffffffULL
#define M44 0xfffffffffffULL

/*
 * 26-bit limbs (limbs_ok: h[0], h[2..4] < 2^26, h[1] < 2^26 + 2^12) to
 * the 44/44/42-bit limbs of the block kernels, carried to their input
 * bounds (poly1305/x64.h: g0 < 2^44, g1 < 2^44 + 2^8, g2 < 2^42); the
 * value is kept mod p.
 */
static void to44(uint64_t g[3], const uint32_t h[5])
{
	uint64_t t, c;

	t = (uint64_t)h[0] + ((uint64_t)h[1] << 26); /* < 2^53 + 2^39 */
	g[0] = t & M44;
	c = t >> 44;
	/* h2 sits at 2^52 = 2^44 * 2^8, h3 at 2^78 = 2^44 * 2^34 */
	t = c + ((uint64_t)h[2] << 8) + ((uint64_t)h[3] << 34);
	g[1] = t & M44;
	c = t >> 44;
	/* h4 sits at 2^104 = 2^88 * 2^16 */
	t = c + ((uint64_t)h[4] << 16); /* < 2^42 + 2^17 */
	g[2] = t & M42;
	c = t >> 42; /* 2^130 = 5 mod p */
	g[0] += c * 5;
	c = g[0] >> 44;
	g[0] &= M44;
	g[1] += c; /* < 2^44 + 1 */
}

/*
 * 44/44/42-bit limbs as the block kernels leave them (g0 < 2^44,
 * g1 < 2^44 + 2^17, g2 < 2^42 + 2^17 at worst) back to 26-bit limbs
 * satisfying limbs_ok; the value is kept mod p.
 */
static void to26(uint32_t h[5], const uint64_t gin[3])
{
	uint64_t g0 = gin[0], g1 = gin[1], g2 = gin[2], c, t;
	uint64_t l0, l1;

	/* one carry pass: g0 < 2^44, g1 <= 2^44, g2 < 2^42 */
	c = g1 >> 44;
	g1 &= M44;
	g2 += c;
	c = g2 >> 42;
	g2 &= M42;
	g0 += c * 5;
	c = g0 >> 44;
	g0 &= M44;
	g1 += c;
	/* bits 0..25, 26..51 (g0's 18 high bits, g1's 8 low bits) */
	l0 = g0 & M26;
	l1 = (g0 >> 26) + ((g1 & 0xff) << 18); /* < 2^26 */
	/* bits 52..77: g1's bits 8..33 */
	t = g1 >> 8; /* <= 2^36 */
	h[2] = (uint32_t)(t & M26);
	/* bits 78..103: g1's bits 34.. and g2's 16 low bits */
	t = (t >> 26) + ((g2 & 0xffff) << 10); /* <= 2^26 */
	h[3] = (uint32_t)(t & M26);
	/* bits 104..129: g2's bits 16..41 */
	t = (t >> 26) + (g2 >> 16); /* <= 2^26 */
	h[4] = (uint32_t)(t & M26);
	l0 += (t >> 26) * 5; /* < 2^26 + 5 */
	l1 += l0 >> 26;	     /* < 2^26 + 1 */
	h[0] = (uint32_t)(l0 & M26);
	h[1] = (uint32_t)l1;
}

/* the clamped r words of struct poly1305 as 44/44/42-bit limbs */
static void r44(uint64_t r[3], const uint32_t w[4])
{
	uint64_t t0 = (uint64_t)w[0] | ((uint64_t)w[1] << 32);
	uint64_t t1 = (uint64_t)w[2] | ((uint64_t)w[3] << 32);

	r[0] = t0 & M44;
	r[1] = ((t0 >> 44) | (t1 << 20)) & M44;
	r[2] = (t1 >> 24) & M42;
}

/* see aead/kern.h */
void kern_poly1305_pad16(struct poly1305 *st, const uint8_t *m, size_t len)
{
	const struct dispatch_choice *ch = dispatch_current();
	size_t n = len / 16;

	if (ch->poly_blocks != NULL && n >= VEC_MIN_BLOCKS) {
		uint64_t g[3], r[3];

		KERN_COUNT(KERN_POLY_PAD16_VEC);
		to44(g, st->h);
		r44(r, st->r);
		ch->poly_blocks(g, r, m, n);
		to26(st->h, g);
		ct_wipe(g, sizeof(g));
		ct_wipe(r, sizeof(r));
		m += 16 * n;
		len -= 16 * n;
		if (len == 0)
			return;
	}
	KERN_COUNT(KERN_POLY_PAD16_REF);
	poly1305_pad16(st, m, len);
}

/* see aead/kern.h: the proved one at every level (one freeze per tag) */
void kern_poly1305_finish(struct poly1305 *st, uint8_t tag[16])
{
	KERN_COUNT(KERN_POLY_FINISH_REF);
	poly1305_finish(st, tag);
}

/* the RFC 8439 2.8 tail of a body's MAC (it leaves mac fed with ad |
 * pad16(ad) | c): pad16(c), le64(adlen) | le64(len), the tag */
static void body_tag(struct poly1305_fast *mac, uint8_t tag[16], size_t adlen,
		     size_t len)
{
	static const uint8_t zeros16[16];
	uint8_t lens[16];

	poly1305_fast_update(mac, zeros16, (16 - len % 16) % 16);
	store64_le(lens, (uint64_t)adlen);
	store64_le(lens + 8, (uint64_t)len);
	poly1305_fast_update(mac, lens, 16);
	poly1305_fast_final(mac, tag);
}

/* see aead/kern.h */
int kern_chachapoly_seal_body(uint8_t *c, uint8_t tag[16], const uint8_t *m,
			      size_t len, const uint8_t *ad, size_t adlen,
			      const uint8_t key[32], const uint8_t nonce[12])
{
	const struct dispatch_choice *ch = dispatch_current();
	struct poly1305_fast mac;

	if (ch->body == NULL || len < dispatch_body_min(ch))
		return 0;
	KERN_COUNT(KERN_SEAL_BODY);
	ch->body(c, m, len, ad, adlen, key, nonce, &mac);
	body_tag(&mac, tag, adlen, len);
	return 1;
}

/* see aead/kern.h */
int kern_chachapoly_open_body_avail(size_t len)
{
	const struct dispatch_choice *ch = dispatch_current();

	return ch->open_body != NULL && len >= dispatch_body_min(ch) &&
	       len <= KERN_OPEN_MAX;
}

/* see aead/kern.h: called only after kern_chachapoly_open_body_avail(len) */
void kern_chachapoly_open_body(uint8_t *m, uint8_t want[16], const uint8_t *c,
			       size_t len, const uint8_t *ad, size_t adlen,
			       const uint8_t key[32], const uint8_t nonce[12])
{
	const struct dispatch_choice *ch = dispatch_current();
	struct poly1305_fast mac;

	if (!kern_chachapoly_open_body_avail(len))
		abort(); /* a caller that did not ask: a bug, not an input */
	KERN_COUNT(KERN_OPEN_BODY);
	ch->open_body(m, c, len, ad, adlen, key, nonce, &mac);
	body_tag(&mac, want, adlen, len);
}
