/* SPDX-License-Identifier: MIT */
/*
 * Static-inline Poly1305 block step in radix 2^64 (h = h0 + h1 2^64 +
 * h2 2^128, four 64 x 64 -> 128 multiplies per block instead of nine for
 * the 44-bit limbs of poly1305/x64.h), in inline assembly so that h stays
 * in general-purpose registers; MUL (any x86-64) and MULX (BMI2) forms;
 * conversions from and to struct poly1305_fast; r^(2^k) in the 44-bit
 * form. Shared by the stitched bodies of chacha20/avx2.c and
 * chacha20/sse128.h, which run it inside their vector rounds. Private to
 * src/crypto; not for Frama-C (__int128, inline assembly).
 * Spec: RFC 8439 section 2.5.1: h = (h + m + 2^128) * r mod 2^130 - 5.
 * Constant time: yes (multiplies, adds, shifts, masks only).
 * Not proved; tests/unit/test_kernels.c and fuzz/ compare the bodies that
 * use it with poly1305/ref.c.
 */
#ifndef VCRYPTFS_POLY1305_P64R_H
#define VCRYPTFS_POLY1305_P64R_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "crypto/ct.h"
#include "crypto/kernels.h"
#include "crypto/poly1305/x64.h"

/* Poly1305 state in radix 2^64 for the stitched seal: h = h0 + h1 2^64 +
 * h2 2^128 (h2 small), r = r0 + r1 2^64 (clamped, so r0, r1 < 2^60 and r1
 * is a multiple of 4), s1 = 5 r1 / 4. Four 64 x 64 multiplies per block
 * instead of nine for the 44-bit limbs. */
struct p64r {
	uint64_t h0, h1, h2, r0, r1, s1;
};

typedef unsigned __int128 p64r_u128;

/* h = (h + m + 2^128) r mod 2^130 - 5, partly reduced. Bounds: h2 <= 4
 * between blocks (p64r_from gives h2 < 4), so h2 <= 6 once m is added;
 * r0 < 2^60, s1 < 1.25 * 2^60: h0 r0 + h1 s1 < 2^126, h0 r1 + h1 r0 +
 * h2 s1 + (high word of the former) < 2^126, h2 r0 < 2^63, and the
 * folded 5 (d2 >> 2) + (d2 & ~3) < 2^64. */
static inline __attribute__((always_inline)) void p64r_block(
	uint64_t *h0, uint64_t *h1, uint64_t *h2, const struct p64r *p,
	const uint8_t *m)
{
	/*
	 * Inline assembly so that h stays in registers: GCC 12 sends the
	 * carries of unsigned __int128 sums through the stack, and the
	 * store-to-load latency then sits on the block-to-block chain.
	 * t1:t0 = h0 r0 + h1 s1, t3:t2 = h0 r1 + h1 r0 + h2 s1 + t1,
	 * d2 = t3 + h2 r0; h = t0 + t2 2^64 + d2 2^128 reduced at 2^130.
	 */
	uint64_t a0 = *h0, a1 = *h1, a2 = *h2, t0, t1, t2, t3, ra, rd;

	__asm__("addq (%[m]), %[a0]\n\t"
		"adcq 8(%[m]), %[a1]\n\t"
		"adcq $1, %[a2]\n\t"
		"movq %[a0], %%rax\n\t"
		"mulq %[r0]\n\t"
		"movq %%rax, %[t0]\n\t"
		"movq %%rdx, %[t1]\n\t"
		"movq %[a1], %%rax\n\t"
		"mulq %[s1]\n\t"
		"addq %%rax, %[t0]\n\t"
		"adcq %%rdx, %[t1]\n\t"
		"movq %[a0], %%rax\n\t"
		"mulq %[r1]\n\t"
		"movq %%rax, %[t2]\n\t"
		"movq %%rdx, %[t3]\n\t"
		"movq %[a1], %%rax\n\t"
		"mulq %[r0]\n\t"
		"addq %%rax, %[t2]\n\t"
		"adcq %%rdx, %[t3]\n\t"
		"movq %[a2], %%rax\n\t"
		"imulq %[s1], %%rax\n\t"
		"imulq %[r0], %[a2]\n\t"
		/* t1 < 2^62 and h2 s1 < 2^63: no carry out */
		"addq %[t1], %%rax\n\t"
		"addq %%rax, %[t2]\n\t"
		"adcq %[a2], %[t3]\n\t"
		/* d2 = t3: c = (d2 & ~3) + (d2 >> 2), h2 = d2 & 3 */
		"movq %[t3], %[a2]\n\t"
		"andq $3, %[a2]\n\t"
		"movq %[t3], %%rax\n\t"
		"shrq $2, %[t3]\n\t"
		"andq $-4, %%rax\n\t"
		"addq %%rax, %[t3]\n\t"
		"addq %[t3], %[t0]\n\t"
		"adcq $0, %[t2]\n\t"
		"adcq $0, %[a2]\n\t"
		"movq %[t0], %[a0]\n\t"
		"movq %[t2], %[a1]"
		: [a0] "+&r"(a0), [a1] "+&r"(a1), [a2] "+&r"(a2),
		  [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2),
		  [t3] "=&r"(t3), "=&a"(ra), "=&d"(rd)
		: [m] "r"(m), [r0] "m"(p->r0), [r1] "m"(p->r1), [s1] "m"(p->s1),
		  "m"(*(const uint8_t(*)[16])m)
		: "cc");
	*h0 = a0;
	*h1 = a1;
	*h2 = a2;
}

/* p64r_block with MULX (BMI2: any destination registers, so none of the
 * moves through MUL's fixed rdx:rax; 2% faster 4 KiB seals here); same
 * arithmetic and bounds */
static inline __attribute__((always_inline)) void p64r_block_x(
	uint64_t *h0, uint64_t *h1, uint64_t *h2, const struct p64r *p,
	const uint8_t *m)
{
	uint64_t a0 = *h0, a1 = *h1, a2 = *h2, t0, t1, t2, t3, u0, u1, rd;

	__asm__("addq (%[m]), %[a0]\n\t"
		"adcq 8(%[m]), %[a1]\n\t"
		"adcq $1, %[a2]\n\t"
		/* t1:t0 = h0 r0 + h1 s1, t3:t2 = h0 r1 + h1 r0 */
		"movq %[a0], %%rdx\n\t"
		"mulxq %[r0], %[t0], %[t1]\n\t"
		"mulxq %[r1], %[t2], %[t3]\n\t"
		"movq %[a1], %%rdx\n\t"
		"mulxq %[s1], %[u0], %[u1]\n\t"
		"addq %[u0], %[t0]\n\t"
		"adcq %[u1], %[t1]\n\t"
		"mulxq %[r0], %[u0], %[u1]\n\t"
		"addq %[u0], %[t2]\n\t"
		"adcq %[u1], %[t3]\n\t"
		/* t3:t2 += h2 s1 + t1 (no carry out of the low sum),
		 * t3 += h2 r0 */
		"movq %[a2], %[u0]\n\t"
		"imulq %[s1], %[u0]\n\t"
		"imulq %[r0], %[a2]\n\t"
		"addq %[t1], %[u0]\n\t"
		"addq %[u0], %[t2]\n\t"
		"adcq %[a2], %[t3]\n\t"
		/* d2 = t3: c = (d2 & ~3) + (d2 >> 2), h2 = d2 & 3 */
		"movq %[t3], %[a2]\n\t"
		"andq $3, %[a2]\n\t"
		"movq %[t3], %[u0]\n\t"
		"shrq $2, %[t3]\n\t"
		"andq $-4, %[u0]\n\t"
		"addq %[u0], %[t3]\n\t"
		"addq %[t3], %[t0]\n\t"
		"adcq $0, %[t2]\n\t"
		"adcq $0, %[a2]\n\t"
		"movq %[t0], %[a0]\n\t"
		"movq %[t2], %[a1]"
		: [a0] "+&r"(a0), [a1] "+&r"(a1), [a2] "+&r"(a2),
		  [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2),
		  [t3] "=&r"(t3), [u0] "=&r"(u0), [u1] "=&r"(u1), "=&d"(rd)
		: [m] "r"(m), [r0] "m"(p->r0), [r1] "m"(p->r1), [s1] "m"(p->s1),
		  "m"(*(const uint8_t(*)[16])m)
		: "cc");
	*h0 = a0;
	*h1 = a1;
	*h2 = a2;
}

/* struct poly1305_fast (44/44/42-bit limbs, partly reduced) to radix
 * 2^64 and back */
static inline void p64r_from(struct p64r *p, const struct poly1305_fast *mac)
{
	p64r_u128 v = (p64r_u128)mac->h[0] + ((p64r_u128)mac->h[1] << 44);

	p->h0 = (uint64_t)v;
	v = (v >> 64) + ((p64r_u128)mac->h[2] << 24);
	p->h1 = (uint64_t)v;
	p->h2 = (uint64_t)(v >> 64);
	p->r0 = mac->r[0] | (mac->r[1] << 44);
	p->r1 = (mac->r[1] >> 20) | (mac->r[2] << 24);
	p->s1 = p->r1 + (p->r1 >> 2);
}

static inline void p64r_to(struct poly1305_fast *mac, const struct p64r *p)
{
	uint64_t h0 = p->h0 & P64_M44;
	uint64_t h1 = ((p->h0 >> 44) | (p->h1 << 20)) & P64_M44;
	uint64_t h2 = (p->h1 >> 24) | (p->h2 << 40);
	uint64_t c;

	/* h2 < 5 * 2^40: fold the bits from 2^130 up back in, so that the
	 * limbs meet poly1305/x64.h's bounds (h2 < 2^42, h1 < 2^44 + 2^8) */
	c = h2 >> 42;
	h2 &= P64_M42;
	h0 += c * 5;
	h1 += h0 >> 44;
	h0 &= P64_M44;
	mac->h[0] = h0;
	mac->h[1] = h1;
	mac->h[2] = h2;
}

/* radix 2^64 (h2 < 8) to 44/44/42-bit limbs, h2 < 2^43 */
static inline void p64r_limbs(uint64_t h[3], uint64_t a0, uint64_t a1,
			      uint64_t a2)
{
	h[0] = a0 & P64_M44;
	h[1] = ((a0 >> 44) | (a1 << 20)) & P64_M44;
	h[2] = (a1 >> 24) | (a2 << 40);
}

/* one carry pass: 44-bit-form limbs below 2^46 in, poly1305/x64.h's bounds
 * out */
static inline void p44_carry(uint64_t h[3])
{
	h[1] += h[0] >> 44;
	h[0] &= P64_M44;
	h[2] += h[1] >> 44;
	h[1] &= P64_M44;
	h[0] += (h[2] >> 42) * 5;
	h[2] &= P64_M42;
	h[1] += h[0] >> 44;
	h[0] &= P64_M44;
}

/* out = r^(2^k) mod 2^130 - 5 in the 44-bit form (r^16 for k = 4): k
 * squarings with p64_block (zero message, no 2^128 bit; its bounds hold
 * for multipliers with limbs below 2^44 + 2^8) */
static inline void p44_pow2k(uint64_t out[3], const uint64_t r[3], int k)
{
	static const uint8_t zero[16];
	uint64_t sq[3];

	out[0] = r[0];
	out[1] = r[1];
	out[2] = r[2];
	for (int i = 0; i < k; i++) {
		sq[0] = out[0];
		sq[1] = out[1];
		sq[2] = out[2];
		p64_block(out, sq, zero, 0);
	}
	ct_wipe(sq, sizeof(sq));
}

/* p's h absorbs ad | pad16(ad) (RFC 8439 2.8), whole blocks in place and
 * the last partial one zero-padded; bmi2 (a constant at every call)
 * picks MULX */
static inline __attribute__((always_inline)) void p64r_absorb_padded(
	struct p64r *p, const uint8_t *ad, size_t adlen, int bmi2)
{
	uint8_t last[16];
	size_t i;

	for (i = 0; i + 16 <= adlen; i += 16) {
		if (bmi2)
			p64r_block_x(&p->h0, &p->h1, &p->h2, p, ad + i);
		else
			p64r_block(&p->h0, &p->h1, &p->h2, p, ad + i);
	}
	if (i < adlen) {
		memset(last, 0, sizeof(last));
		memcpy(last, ad + i, adlen - i);
		if (bmi2)
			p64r_block_x(&p->h0, &p->h1, &p->h2, p, last);
		else
			p64r_block(&p->h0, &p->h1, &p->h2, p, last);
	}
}

/*
 * mac = the Poly1305 state p after the 2n blocks at c (a body's last
 * step, which has no next step to hide in), as two independent chains
 * whose multiplies overlap: a = p's h over c_0..c_(n-1), b =
 * c_n..c_(2n-1) from 0, then h = a r^n + b (Horner's rule regrouped:
 * h r^2n + sum m_i r^(2n - i) = (h r^n + sum_{i<n} m_i r^(n - i)) r^n +
 * sum_{i>=n} m_i r^(2n - i); RFC 8439 2.5.1). rn = r^n from p44_pow2k;
 * bmi2 (a constant at every call) picks MULX.
 */
static inline __attribute__((always_inline)) void p64r_last2(
	struct poly1305_fast *mac, const struct p64r *p, const uint8_t *c,
	int n, const uint64_t rn[3], int bmi2)
{
	static const uint8_t zero[16];
	uint64_t a0 = p->h0, a1 = p->h1, a2 = p->h2, b0 = 0, b1 = 0, b2 = 0;
	uint64_t hb[3];
	const uint8_t *c2 = c + 16 * (size_t)n;

	for (int i = 0; i < n; i++) {
		if (bmi2) {
			p64r_block_x(&a0, &a1, &a2, p, c + 16 * i);
			p64r_block_x(&b0, &b1, &b2, p, c2 + 16 * i);
		} else {
			p64r_block(&a0, &a1, &a2, p, c + 16 * i);
			p64r_block(&b0, &b1, &b2, p, c2 + 16 * i);
		}
	}
	p64r_limbs(mac->h, a0, a1, a2);
	p44_carry(mac->h);
	p64_block(mac->h, rn, zero, 0);
	p64r_limbs(hb, b0, b1, b2);
	mac->h[0] += hb[0];
	mac->h[1] += hb[1];
	mac->h[2] += hb[2];
	p44_carry(mac->h);
}

#endif
