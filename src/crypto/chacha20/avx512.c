/* SPDX-License-Identifier: MIT */
/*
 * ChaCha20 keystream XOR, 16 blocks at a time in AVX-512 registers (one
 * block per 32-bit lane), and the seal and open bodies (kernels.h
 * chachapoly_body_fn) that run the Poly1305 of each 1024-byte step during
 * the next step's vector rounds: on IFMA CPUs the 8-lane IFMA one
 * (poly1305/ifma.h, in functions with the avx512ifma target attribute),
 * else the radix-2^64 one (poly1305/p64r.h, MULX) in the general-purpose
 * registers; block 0 in general-purpose registers during the first step.
 * See kernels.h; round body and driver in chacha20/simd.h.
 * Spec: RFC 8439 sections 2.1-2.5.
 * CPU feature: AVX-512F/VL/BW with OS-saved opmask and ZMM state (cpu.c
 * checks XCR0 bits 5-7), and IFMA or BMI2 for the bodies; the only file
 * built with -mavx512f -mavx512vl -mavx512bw (Makefile; MULX is inline
 * assembly; the IFMA body's functions carry target("avx512ifma"), and
 * no other function of the file has IFMA instructions).
 * Checked on AVX-512 machines by every unit test and fuzz target that
 * runs the dispatched kernels (tests/unit/test_kernels.c, fuzz/), and on
 * any machine by tests/avx512emu (this file compiled against scalar
 * stand-ins for its intrinsics: the kernel and both bodies against the
 * portable and proved code).
 * Constant time: yes (no table, no secret-dependent branch). Not proved;
 * valgrind 3.19 cannot run it (tests/ct reports it as not checkable) and
 * make ct-timing times it.
 */
#include "crypto/kernels.h"
#include "crypto/cpu.h"

#if defined(__AVX512F__) && !defined(__FRAMAC__)
#include <immintrin.h>
#include <string.h>

#define CS_VEC __m512i
#define CS_BLOCKS 16
#define CS_ADD(a, b) _mm512_add_epi32((a), (b))
#define CS_XOR(a, b) _mm512_xor_si512((a), (b))
#define CS_ROT16(a) _mm512_rol_epi32((a), 16)
#define CS_ROT12(a) _mm512_rol_epi32((a), 12)
#define CS_ROT8(a) _mm512_rol_epi32((a), 8)
#define CS_ROT7(a) _mm512_rol_epi32((a), 7)
#define CS_SET1(v) _mm512_set1_epi32((int)(v))
#define CS_LANES                                                               \
	_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
#define CS_UNPACKLO32 _mm512_unpacklo_epi32
#define CS_UNPACKHI32 _mm512_unpackhi_epi32
#define CS_UNPACKLO64 _mm512_unpacklo_epi64
#define CS_UNPACKHI64 _mm512_unpackhi_epi64
/* chacha20/simd_row.h's one-block rows (tails, HChaCha20): AVX-512VL's
 * rotate */
#define ROW_ROTL(v, n) _mm_rol_epi32((v), (n))

#include "crypto/chacha20/fastblock.h"
#include "crypto/chacha20/simd.h"
#include "crypto/poly1305/p64r.h"

static inline void xor64(uint8_t *out, const uint8_t *in, __m512i ks)
{
	__m512i v = _mm512_loadu_si512((const void *)in);

	_mm512_storeu_si512((void *)out, _mm512_xor_si512(v, ks));
}

/*
 * t[g][k], 128-bit lane L: words 4g..4g+3 of block 4L + k. For each k a
 * 4 x 4 transpose of 128-bit lanes gives the four whole blocks 4L + k:
 * a = (t0.l0 t0.l1 t1.l0 t1.l1), b = (t2.l0 t2.l1 t3.l0 t3.l1),
 * c, d likewise with lanes 2 and 3; block k = (a.l0 a.l2 b.l0 b.l2) etc.
 */
CS_INLINE void cs_store(uint8_t *out, const uint8_t *in, CS_VEC t[4][4])
{
	for (int k = 0; k < 4; k++) {
		__m512i a = _mm512_shuffle_i32x4(t[0][k], t[1][k], 0x44);
		__m512i b = _mm512_shuffle_i32x4(t[2][k], t[3][k], 0x44);
		__m512i c = _mm512_shuffle_i32x4(t[0][k], t[1][k], 0xee);
		__m512i d = _mm512_shuffle_i32x4(t[2][k], t[3][k], 0xee);
		size_t o0 = 64 * (size_t)k, o1 = o0 + 256;
		size_t o2 = o0 + 512, o3 = o0 + 768;

		xor64(out + o0, in + o0, _mm512_shuffle_i32x4(a, b, 0x88));
		xor64(out + o1, in + o1, _mm512_shuffle_i32x4(a, b, 0xdd));
		xor64(out + o2, in + o2, _mm512_shuffle_i32x4(c, d, 0x88));
		xor64(out + o3, in + o3, _mm512_shuffle_i32x4(c, d, 0xdd));
	}
}

static uint32_t chacha20_avx512_xor(uint8_t *out, const uint8_t *in, size_t len,
				    const uint8_t key[32], uint32_t counter,
				    const uint8_t nonce[12])
{
	chacha20_xor_fn half = chacha20_avx2_get();

	/* below one 16-block step the 8-block AVX2 kernel (every AVX-512
	 * CPU has AVX2): a 16-block step for 2..15 blocks computes 16 */
	if (len < 64 * CS_BLOCKS && half != NULL)
		return half(out, in, len, key, counter, nonce);
	return cs_xor(out, in, len, key, counter, nonce);
}

#define Z_MAC()                                                                \
	do {                                                                   \
		p64r_block_x(&h0, &h1, &h2, p, pm);                            \
		pm += 16;                                                      \
	} while (0)

/*
 * out[0 .. 1023] = in ^ keystream blocks counter .. counter + 15
 * (cs_batch), with, when pm is not NULL, the 64 radix-2^64 Poly1305
 * blocks at pm[0 .. 1023] (MULX) in general-purpose registers inside the
 * vector rounds, 7 per double round in the first 4 and 6 in the last 6;
 * and when ks1 is not NULL, ks1 = keystream block 0 in general-purpose
 * registers (chacha20/fastblock.h) inside the rounds.
 */
CS_INLINE void z_step(uint8_t *out, const uint8_t *in, const uint32_t st[16],
		      uint32_t counter, uint8_t *ks1, struct p64r *p,
		      const uint8_t *pm)
{
	uint64_t h0 = 0, h1 = 0, h2 = 0;
	uint32_t s0 = st[0], s1 = st[1], s2 = st[2], s3 = st[3];
	uint32_t s4 = st[4], s5 = st[5], s6 = st[6], s7 = st[7];
	uint32_t s8 = st[8], s9 = st[9], s10 = st[10], s11 = st[11];
	uint32_t s12 = 0, s13 = st[13], s14 = st[14], s15 = st[15];
	CS_VEC x[16];

	if (pm != NULL) {
		h0 = p->h0;
		h1 = p->h1;
		h2 = p->h2;
	}
	cs_load_state(x, st, counter);
	for (int i = 0; i < 10; i++) {
		cs_double_round(x);
		if (pm != NULL) {
			for (int j = 0; j < 6; j++)
				Z_MAC();
			if (i < 4)
				Z_MAC();
		}
		if (ks1 != NULL)
			FB_DOUBLE_ROUND(s0, s1, s2, s3, s4, s5, s6, s7, s8, s9,
					s10, s11, s12, s13, s14, s15);
	}
	if (pm != NULL) {
		p->h0 = h0;
		p->h1 = h1;
		p->h2 = h2;
	}
	if (ks1 != NULL)
		FB_STORE_BLOCK(ks1, st, 0U, s0, s1, s2, s3, s4, s5, s6, s7, s8,
			       s9, s10, s11, s12, s13, s14, s15);
	cs_finish(out, in, x, st, counter);
}

/*
 * kernels.h chachapoly_body_fn for seal (mac_in 0: MAC over out; out may
 * equal in) and open (mac_in 1: MAC over in; out must not overlap in,
 * which is read one step after out was written): block 0 in
 * general-purpose registers during the first 16-block step, each step's
 * Poly1305 during the next one, the last step's as two chains of 32
 * blocks (p64r_last2 with r^32), the tail (< 16 blocks) last.
 */
static inline void z_body(uint8_t *out, const uint8_t *in, size_t len,
			  const uint8_t *ad, size_t adlen,
			  const uint8_t key[32], const uint8_t nonce[12],
			  struct poly1305_fast *mac, int mac_in)
{
	uint32_t st[16];
	uint8_t otk[64];
	uint64_t r32[3] = { 0, 0, 0 };
	struct p64r p;
	uint32_t counter = 1;
	const uint8_t *pending = NULL;

	cs_init(st, key, nonce);
	if (len >= 64 * CS_BLOCKS) {
		z_step(out, in, st, counter, otk, NULL, NULL);
		pending = mac_in ? in : out;
		counter += CS_BLOCKS;
		out += 64 * CS_BLOCKS;
		in += 64 * CS_BLOCKS;
		len -= 64 * CS_BLOCKS;
	} else {
		row_block(otk, st, 0);
	}
	poly1305_fast_init(mac, otk);
	ct_wipe(otk, sizeof(otk));
	p64r_from(&p, mac);
	/* ad | pad16(ad) straight in radix 2^64 */
	p64r_absorb_padded(&p, ad, adlen, 1);
	if (pending != NULL)
		p44_pow2k(r32, mac->r, 5);
	while (len >= 64 * CS_BLOCKS) {
		z_step(out, in, st, counter, NULL, &p, pending);
		pending = mac_in ? in : out;
		counter += CS_BLOCKS;
		out += 64 * CS_BLOCKS;
		in += 64 * CS_BLOCKS;
		len -= 64 * CS_BLOCKS;
	}
	if (pending != NULL) {
		p64r_last2(mac, &p, pending, 32, r32, 1);
		ct_wipe(r32, sizeof(r32));
	} else {
		p64r_to(mac, &p);
	}
	if (len > 0) {
		cs_tail(out, in, len, st, counter);
		poly1305_fast_update(mac, mac_in ? in : out, len);
	}
	ct_wipe(st, sizeof(st));
	ct_wipe(&p, sizeof(p));
}

/*
 * The IFMA bodies. This file is built without -mavx512ifma (its kernel
 * and the bodies above run on AVX-512 CPUs without IFMA), so the code
 * below carries the target attribute and runs only after ifma_ok(); the
 * emulation test (tests/avx512emu) builds it on scalar stand-ins,
 * without the attribute.
 */
#ifndef VCRYPTFS_AVX512EMU_IMMINTRIN_H
#define IFMA_TARGET __attribute__((target("avx512ifma")))
#endif
#include "crypto/poly1305/ifma.h"

/*
 * out[0 .. 1023] = in ^ keystream blocks counter .. counter + 15
 * (cs_batch), with the four IFMA Poly1305 steps of pm[0 .. 1023] (64
 * blocks, not the message's last 16) in acc, one after each of the
 * first four even double rounds: the IFMA multiply-adds fill the vector
 * ports between the rounds' dependent operations (4 KiB seal: 1180 ->
 * 1110 ns here against ChaCha20 and then the Poly1305).
 */
CS_INLINE IFMA_TARGET void zi_step(uint8_t *out, const uint8_t *in,
				   const uint32_t st[16], uint32_t counter,
				   struct ifma_acc *acc, const uint8_t *pm)
{
	CS_VEC x[16];

	cs_load_state(x, st, counter);
	for (int i = 0; i < 10; i++) {
		cs_double_round(x);
		if (i % 2 == 0 && i < 8) {
			ifma_step(acc, pm);
			pm += 256;
		}
	}
	cs_finish(out, in, x, st, counter);
}

/*
 * The body of AVX-512 CPUs with IFMA (mac_in as for z_body): block 0
 * (the one-time key) in general-purpose registers during the first
 * 16-block step (a lone 1-block ChaCha20 is a latency-bound chain of its
 * own), ad | pad16(ad) on the scalar path, then each step's ciphertext
 * through the 8-lane IFMA Poly1305 (poly1305/ifma.h) inside the next
 * step's rounds (zi_step); the last step's and the tail's 16-block groups
 * after the rounds, the last group with the final powers, fewer than 16
 * blocks on the scalar path. Any len (below one step: ChaCha20, then the
 * Poly1305 with the IFMA blocks function; the wrappers below hand such
 * texts to the AVX2 bodies when there are any). acc lives in vector
 * registers; like every SIMD temporary of the kernels, spill slots (if
 * the compiler makes any) are not wiped.
 */
static IFMA_TARGET void z_body_ifma(uint8_t *out, const uint8_t *in, size_t len,
				    const uint8_t *ad, size_t adlen,
				    const uint8_t key[32],
				    const uint8_t nonce[12],
				    struct poly1305_fast *mac, int mac_in)
{
	static const uint8_t zeros[16];
	uint32_t st[16];
	uint8_t otk[64];
	struct ifma_acc acc;
	const uint8_t *ct = mac_in ? in : out;
	const size_t step = 64 * CS_BLOCKS;
	size_t groups = len / 256, done = 0, rest;
	uint32_t counter = 1 + CS_BLOCKS;

	cs_init(st, key, nonce);
	if (len < step) {
		row_block(otk, st, 0);
		cs_run(out, in, len, st, 1);
		ct_wipe(st, sizeof(st));
		poly1305_fast_init(mac, otk);
		ct_wipe(otk, sizeof(otk));
		poly1305_fast_use(mac, poly1305_ifma_get());
		poly1305_fast_update(mac, ad, adlen);
		poly1305_fast_update(mac, zeros, (16 - adlen % 16) % 16);
		poly1305_fast_update(mac, ct, len);
		return;
	}
	z_step(out, in, st, 1, otk, NULL, NULL);
	poly1305_fast_init(mac, otk);
	ct_wipe(otk, sizeof(otk));
	poly1305_fast_update(mac, ad, adlen);
	poly1305_fast_update(mac, zeros, (16 - adlen % 16) % 16);
	ifma_begin(&acc, mac->r, mac->h);
	/* step k's ciphertext (4 groups) inside step k + 1's rounds; each
	 * step leaves at least its own 4 groups for later, so none of
	 * these is the last */
	for (rest = len - step; rest >= step; rest -= step) {
		zi_step(out + (len - rest), in + (len - rest), st, counter,
			&acc, ct + 256 * done);
		done += 4;
		counter += CS_BLOCKS;
	}
	if (rest > 0)
		cs_tail(out + (len - rest), in + (len - rest), rest, st,
			counter);
	ct_wipe(st, sizeof(st));
	for (; done + 1 < groups; done++)
		ifma_step(&acc, ct + 256 * done);
	ifma_last(&acc, ct + 256 * done);
	done++;
	ifma_end(&acc, mac->h);
	/* fewer than 16 blocks: the scalar path (mac->blocks is NULL) */
	poly1305_fast_update(mac, ct + 256 * done, len - 256 * done);
}

/*
 * The seal (open 0) or open (open 1) body of this level: a text shorter
 * than one 16-block step goes to the AVX2 body (every AVX-512 CPU has
 * AVX2, and a 16-block step for 8..15 blocks computes 16), else with IFMA
 * z_body_ifma, without it the stitched z_body.
 */
static inline void z_any(uint8_t *out, const uint8_t *in, size_t len,
			 const uint8_t *ad, size_t adlen, const uint8_t key[32],
			 const uint8_t nonce[12], struct poly1305_fast *mac,
			 int open, int ifma)
{
	chachapoly_body_fn half = open ? chachapoly_open_body_avx2_get()
				       : chachapoly_body_avx2_get();

	if (len < 64 * CS_BLOCKS && half != NULL)
		half(out, in, len, ad, adlen, key, nonce, mac);
	else if (ifma)
		z_body_ifma(out, in, len, ad, adlen, key, nonce, mac, open);
	else
		z_body(out, in, len, ad, adlen, key, nonce, mac, open);
}

static void chachapoly_body_avx512_ifma(uint8_t *c, const uint8_t *m,
					size_t len, const uint8_t *ad,
					size_t adlen, const uint8_t key[32],
					const uint8_t nonce[12],
					struct poly1305_fast *mac)
{
	z_any(c, m, len, ad, adlen, key, nonce, mac, 0, 1);
}

static void chachapoly_open_body_avx512_ifma(uint8_t *m, const uint8_t *c,
					     size_t len, const uint8_t *ad,
					     size_t adlen,
					     const uint8_t key[32],
					     const uint8_t nonce[12],
					     struct poly1305_fast *mac)
{
	z_any(m, c, len, ad, adlen, key, nonce, mac, 1, 1);
}

/* see kernels.h (chachapoly_body_fn): seal and open bodies */
static void chachapoly_body_avx512(uint8_t *c, const uint8_t *m, size_t len,
				   const uint8_t *ad, size_t adlen,
				   const uint8_t key[32],
				   const uint8_t nonce[12],
				   struct poly1305_fast *mac)
{
	z_any(c, m, len, ad, adlen, key, nonce, mac, 0, 0);
}

static void chachapoly_open_body_avx512(uint8_t *m, const uint8_t *c,
					size_t len, const uint8_t *ad,
					size_t adlen, const uint8_t key[32],
					const uint8_t nonce[12],
					struct poly1305_fast *mac)
{
	z_any(m, c, len, ad, adlen, key, nonce, mac, 1, 0);
}

/* the bodies need BMI2 (MULX) besides AVX-512F/VL/BW; every AVX-512 CPU
 * has it, but cpu_mask can hide it */
static int body_ok(void)
{
	unsigned want = CPU_AVX512_ALL | CPU_BMI2;

	return (cpu_features() & want) == want;
}

/* the IFMA bodies need AVX-512F/VL/BW and the IFMA Poly1305 (no BMI2) */
static int ifma_ok(void)
{
	return (cpu_features() & CPU_AVX512_ALL) == CPU_AVX512_ALL &&
	       poly1305_ifma_get() != NULL;
}

/* see kernels.h */
chachapoly_body_fn chachapoly_body_avx512_get(void)
{
	if (ifma_ok())
		return chachapoly_body_avx512_ifma;
	return body_ok() ? chachapoly_body_avx512 : NULL;
}

/* see kernels.h */
chachapoly_body_fn chachapoly_open_body_avx512_get(void)
{
	if (ifma_ok())
		return chachapoly_open_body_avx512_ifma;
	return body_ok() ? chachapoly_open_body_avx512 : NULL;
}

/*
 * HChaCha20 (draft-irtf-cfrg-xchacha-03 section 2.2; same output as
 * hchacha20 in chacha20/ref.h) on the four 128-bit rows of
 * chacha20/simd_row.h (constants, key words 0..3, key words 4..7, nonce),
 * with the VPROLD rotates defined above. One block is one dependency
 * chain, shorter with one-cycle rotates than in general-purpose registers
 * (dispatch.c).
 */
static void hchacha20_avx512(uint8_t out[32], const uint8_t key[32],
			     const uint8_t nonce[16])
{
	__m128i a =
		_mm_setr_epi32(0x61707865, 0x3320646e, 0x79622d32, 0x6b206574);
	__m128i b = _mm_loadu_si128((const void *)key);
	__m128i c = _mm_loadu_si128((const void *)(key + 16));
	__m128i d = _mm_loadu_si128((const void *)nonce);

	row_rounds(&a, &b, &c, &d);
	/* words 0..3 and 12..15, little-endian */
	_mm_storeu_si128((void *)out, a);
	_mm_storeu_si128((void *)(out + 16), d);
}

/* see kernels.h */
hchacha20_fn hchacha20_avx512_get(void)
{
	if ((cpu_features() & CPU_AVX512_ALL) != CPU_AVX512_ALL)
		return NULL;
	return hchacha20_avx512;
}

/* see kernels.h */
chacha20_xor_fn chacha20_avx512_get(void)
{
	if ((cpu_features() & CPU_AVX512_ALL) != CPU_AVX512_ALL)
		return NULL;
	return chacha20_avx512_xor;
}
#else
/* see kernels.h: built without AVX-512 support */
chacha20_xor_fn chacha20_avx512_get(void)
{
	return NULL;
}

/* see kernels.h: built without AVX-512 support */
hchacha20_fn hchacha20_avx512_get(void)
{
	return NULL;
}

/* see kernels.h: built without AVX-512 support */
chachapoly_body_fn chachapoly_body_avx512_get(void)
{
	return NULL;
}

/* see kernels.h: built without AVX-512 support */
chachapoly_body_fn chachapoly_open_body_avx512_get(void)
{
	return NULL;
}
#endif
