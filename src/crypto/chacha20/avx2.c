/* SPDX-License-Identifier: MIT */
/*
 * ChaCha20 keystream XOR, 8 blocks at a time in AVX2 registers (one block
 * per 32-bit lane), the rounds in inline assembly with a fixed register
 * plan (GCC 12 spilled a third of the intrinsics version); the whole-seal
 * body (chachapoly_body_fn, the default AVX2 seal of 512 bytes or more),
 * the same body for opens (ChaCha20 of the ciphertext into a private
 * buffer, Poly1305 of the ciphertext) and the older stitched seal step
 * (chacha20_poly_fn), all of which run a radix-2^64 Poly1305 (inline
 * assembly, general-purpose registers; MULX when the CPU has BMI2) of one
 * 512-byte step of ciphertext inside the vector rounds of the next.
 * See kernels.h; driver and tails in chacha20/simd.h.
 * Spec: RFC 8439 sections 2.1-2.5.
 * CPU feature: AVX2 with OS-saved YMM state (cpu.c checks XCR0), BMI2 for
 * the MULX bodies (chosen at run time); the only file built with -mavx2
 * (Makefile; MULX is inline assembly, no -mbmi2).
 * Constant time: yes. Not proved; tests/unit/test_kernels.c compares it
 * with chacha20/ref.c and poly1305/ref.c.
 * Longer than ~600 lines: one ISA per file (STYLE.md 6), and the seal and
 * open bodies share one register plan; issue 20 re-lays out src/crypto.
 */
#include "crypto/kernels.h"
#include "crypto/cpu.h"

#if defined(__AVX2__) && !defined(__FRAMAC__)
#include <immintrin.h>
#include <string.h>

#include "crypto/chacha20/fastblock.h"
#include "crypto/poly1305/p64r.h"

#define CS_VEC __m256i
#define CS_PAIRED_QR 1
#define CS_BLOCKS 8
#define CS_ADD(a, b) _mm256_add_epi32((a), (b))
#define CS_XOR(a, b) _mm256_xor_si256((a), (b))
#define CS_ROTS(a, n)                                                          \
	_mm256_or_si256(_mm256_slli_epi32((a), (n)),                           \
			_mm256_srli_epi32((a), 32 - (n)))
#define CS_ROT16(a)                                                            \
	_mm256_shuffle_epi8((a), _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10,  \
						  11, 8, 9, 14, 15, 12, 13, 2, \
						  3, 0, 1, 6, 7, 4, 5, 10, 11, \
						  8, 9, 14, 15, 12, 13))
#define CS_ROT8(a)                                                             \
	_mm256_shuffle_epi8((a), _mm256_setr_epi8(3, 0, 1, 2, 7, 4, 5, 6, 11,  \
						  8, 9, 10, 15, 12, 13, 14, 3, \
						  0, 1, 2, 7, 4, 5, 6, 11, 8,  \
						  9, 10, 15, 12, 13, 14))
#define CS_ROT12(a) CS_ROTS((a), 12)
#define CS_ROT7(a) CS_ROTS((a), 7)
#define CS_SET1(v) _mm256_set1_epi32((int)(v))
#define CS_LANES _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)
#define CS_UNPACKLO32 _mm256_unpacklo_epi32
#define CS_UNPACKHI32 _mm256_unpackhi_epi32
#define CS_UNPACKLO64 _mm256_unpacklo_epi64
#define CS_UNPACKHI64 _mm256_unpackhi_epi64

/*
 * The rounds as inline assembly, two quarter rounds per statement (8 state
 * vectors and 2 scratch registers as operands, the shuffle masks read from
 * memory): with intrinsics GCC 12 spilled a third of every double round
 * to the stack, and the spill stores compete with the shifts and shuffles
 * for the two vector ports that bound ChaCha20 here. Between statements
 * GCC now keeps 14 of the 16 state vectors in registers and moves 2 (about
 * 4 stores and 4 loads per double round). Rotations by 16 and 8 are
 * vpshufb, by 12 and 7 two shifts and an or.
 */
#define A2_STEP(a0, a1, b0, b1, d0, d1, ROT)                                   \
	"vpaddd %[" #b0 "], %[" #a0 "], %[" #a0 "]\n\t"                        \
	"vpaddd %[" #b1 "], %[" #a1 "], %[" #a1 "]\n\t"                        \
	"vpxor %[" #a0 "], %[" #d0 "], %[" #d0 "]\n\t"                         \
	"vpxor %[" #a1 "], %[" #d1 "], %[" #d1 "]\n\t" ROT(d0, d1)
#define A2_SHUF(d0, d1, MASK)                                                  \
	"vpshufb %[" #MASK "], %[" #d0 "], %[" #d0 "]\n\t"                     \
	"vpshufb %[" #MASK "], %[" #d1 "], %[" #d1 "]\n\t"
#define A2_SHIFT(d0, d1, L, R)                                                 \
	"vpsrld $" #R ", %[" #d0 "], %[t0]\n\t"                                \
	"vpsrld $" #R ", %[" #d1 "], %[t1]\n\t"                                \
	"vpslld $" #L ", %[" #d0 "], %[" #d0 "]\n\t"                           \
	"vpslld $" #L ", %[" #d1 "], %[" #d1 "]\n\t"                           \
	"vpor %[t0], %[" #d0 "], %[" #d0 "]\n\t"                               \
	"vpor %[t1], %[" #d1 "], %[" #d1 "]\n\t"
#define A2_R16(d0, d1) A2_SHUF(d0, d1, r16)
#define A2_R8(d0, d1) A2_SHUF(d0, d1, r8)
#define A2_R12(d0, d1) A2_SHIFT(d0, d1, 12, 20)
#define A2_R7(d0, d1) A2_SHIFT(d0, d1, 7, 25)
/* two quarter rounds (a_i, b_i, c_i, d_i), i = 0, 1, interleaved */
#define A2_QR2(a0, a1, b0, b1, c0, c1, d0, d1)                                 \
	A2_STEP(a0, a1, b0, b1, d0, d1, A2_R16)                                \
	A2_STEP(c0, c1, d0, d1, b0, b1, A2_R12)                                \
	A2_STEP(a0, a1, b0, b1, d0, d1, A2_R8)                                 \
	A2_STEP(c0, c1, d0, d1, b0, b1, A2_R7)
static const __m256i a2_rot16 = { 0x0504070601000302LL, 0x0d0c0f0e09080b0aLL,
				  0x0504070601000302LL, 0x0d0c0f0e09080b0aLL };
static const __m256i a2_rot8 = { 0x0605040702010003LL, 0x0e0d0c0f0a09080bLL,
				 0x0605040702010003LL, 0x0e0d0c0f0a09080bLL };

/* two quarter rounds on registers (the compiler picks them) */
#define A2_ASM(a0, a1, b0, b1, c0, c1, d0, d1)                                 \
	__asm__(A2_QR2(a0, a1, b0, b1, c0, c1, d0, d1)                         \
		: [a0] "+x"(a0), [a1] "+x"(a1), [b0] "+x"(b0), [b1] "+x"(b1),  \
		  [c0] "+x"(c0), [c1] "+x"(c1), [d0] "+x"(d0), [d1] "+x"(d1),  \
		  [t0] "=&x"(t0), [t1] "=&x"(t1)                               \
		: [r16] "m"(a2_rot16), [r8] "m"(a2_rot8))

static inline void xor32(uint8_t *out, const uint8_t *in, __m256i ks)
{
	__m256i v = _mm256_loadu_si256((const __m256i *)in);

	_mm256_storeu_si256((__m256i *)out, _mm256_xor_si256(v, ks));
}

/* 4 x 4 transpose of 32-bit words in each 128-bit lane: in a[i] lane j
 * word k of block k + 4j ... out t[k]: words 0..3 of block k (lane 0) and
 * of block k + 4 (lane 1) */
static inline __attribute__((always_inline)) void a2_transpose(
	__m256i t[4], __m256i a0, __m256i a1, __m256i a2, __m256i a3)
{
	__m256i u0 = _mm256_unpacklo_epi32(a0, a1);
	__m256i u1 = _mm256_unpacklo_epi32(a2, a3);
	__m256i u2 = _mm256_unpackhi_epi32(a0, a1);
	__m256i u3 = _mm256_unpackhi_epi32(a2, a3);

	t[0] = _mm256_unpacklo_epi64(u0, u1);
	t[1] = _mm256_unpackhi_epi64(u0, u1);
	t[2] = _mm256_unpacklo_epi64(u2, u3);
	t[3] = _mm256_unpackhi_epi64(u2, u3);
}

/* out = in ^ keystream words w..w+7 of the 8 blocks (out, in point at word
 * w of block 0): a = words w..w+3, b = words w+4..w+7 */
static inline __attribute__((always_inline)) void a2_store8(
	uint8_t *out, const uint8_t *in, __m256i a0, __m256i a1, __m256i a2,
	__m256i a3, __m256i b0, __m256i b1, __m256i b2, __m256i b3)
{
	__m256i ta[4], tb[4];

	a2_transpose(ta, a0, a1, a2, a3);
	a2_transpose(tb, b0, b1, b2, b3);
	for (int k = 0; k < 4; k++) {
		size_t lo = 64 * (size_t)k, hi = lo + 256;

		xor32(out + lo, in + lo,
		      _mm256_permute2x128_si256(ta[k], tb[k], 0x20));
		xor32(out + hi, in + hi,
		      _mm256_permute2x128_si256(ta[k], tb[k], 0x31));
	}
}

#define A2_B(i) _mm256_set1_epi32((int)st[i])

/* one block with MULX (bmi2, a constant at every call) or MUL */
#define P64R(PM)                                                               \
	do {                                                                   \
		if (bmi2)                                                      \
			p64r_block_x(&h0, &h1, &h2, p, (PM));                  \
		else                                                           \
			p64r_block(&h0, &h1, &h2, p, (PM));                    \
	} while (0)

/* One double round of the 8 vector blocks, with (MI) 3 Poly1305 blocks
 * at PM (and a 4th if MI4) and (ks1 != NULL) the one scalar block
 * interleaved; the body of avx2_batch. */
#define A2_DOUBLE_ROUND(MI, PM, MI4)                                           \
	do {                                                                   \
		A2_ASM(x0, x1, x4, x5, x8, x9, x12, x13);                      \
		if (MI)                                                        \
			P64R(PM);                                              \
		if (ks1 != NULL) {                                             \
			FB_QR(s0, s4, s8, s12);                                \
			FB_QR(s1, s5, s9, s13);                                \
		}                                                              \
		A2_ASM(x2, x3, x6, x7, x10, x11, x14, x15);                    \
		if (MI)                                                        \
			P64R((PM) + 16);                                       \
		if (ks1 != NULL) {                                             \
			FB_QR(s2, s6, s10, s14);                               \
			FB_QR(s3, s7, s11, s15);                               \
		}                                                              \
		A2_ASM(x0, x1, x5, x6, x10, x11, x15, x12);                    \
		if (MI)                                                        \
			P64R((PM) + 32);                                       \
		if (ks1 != NULL) {                                             \
			FB_QR(s0, s5, s10, s15);                               \
			FB_QR(s1, s6, s11, s12);                               \
		}                                                              \
		A2_ASM(x2, x3, x7, x4, x8, x9, x13, x14);                      \
		if (MI4)                                                       \
			P64R((PM) + 48);                                       \
		if (ks1 != NULL) {                                             \
			FB_QR(s2, s7, s8, s13);                                \
			FB_QR(s3, s4, s9, s14);                                \
		}                                                              \
	} while (0)

/*
 * out[0 .. 511] = in ^ keystream blocks counter .. counter + 7; when ks1
 * is not NULL, also ks1 = keystream block kctr, computed in
 * general-purpose registers (chacha20/fastblock.h) interleaved with the
 * vector rounds: the integer units are idle otherwise, whereas a separate
 * one-block step afterwards is a long dependency chain (about as costly as
 * a whole 8-block step).
 */
static inline __attribute__((always_inline)) void avx2_batch(
	uint8_t *out, const uint8_t *in, const uint32_t st[16],
	uint32_t counter, uint8_t *ks1, uint32_t kctr, struct p64r *p,
	const uint8_t *mac, int bmi2)
{
	uint64_t h0 = 0, h1 = 0, h2 = 0;
	uint32_t s0 = st[0], s1 = st[1], s2 = st[2], s3 = st[3];
	uint32_t s4 = st[4], s5 = st[5], s6 = st[6], s7 = st[7];
	uint32_t s8 = st[8], s9 = st[9], s10 = st[10], s11 = st[11];
	uint32_t s12 = kctr, s13 = st[13], s14 = st[14], s15 = st[15];
	const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
	__m256i x0 = A2_B(0), x1 = A2_B(1), x2 = A2_B(2), x3 = A2_B(3);
	__m256i x4 = A2_B(4), x5 = A2_B(5), x6 = A2_B(6), x7 = A2_B(7);
	__m256i x8 = A2_B(8), x9 = A2_B(9), x10 = A2_B(10), x11 = A2_B(11);
	__m256i x12 = _mm256_add_epi32(_mm256_set1_epi32((int)counter), lanes);
	__m256i x13 = A2_B(13), x14 = A2_B(14), x15 = A2_B(15);
	__m256i t0, t1;

	if (mac != NULL) {
		h0 = p->h0;
		h1 = p->h1;
		h2 = p->h2;
	}
	/* 30 Poly1305 blocks, 3 per double round, then the last 2 */
	for (int i = 0; i < 10; i += 2) {
		A2_DOUBLE_ROUND(mac != NULL, mac + 48 * i, 0);
		A2_DOUBLE_ROUND(mac != NULL, mac + 48 * i + 48, 0);
	}
	if (mac != NULL) {
		P64R(mac + 480);
		P64R(mac + 496);
	}
	if (mac != NULL) {
		p->h0 = h0;
		p->h1 = h1;
		p->h2 = h2;
	}
	if (ks1 != NULL) {
		FB_STORE_BLOCK(ks1, st, kctr, s0, s1, s2, s3, s4, s5, s6, s7,
			       s8, s9, s10, s11, s12, s13, s14, s15);
	}
	x0 = _mm256_add_epi32(x0, A2_B(0));
	x1 = _mm256_add_epi32(x1, A2_B(1));
	x2 = _mm256_add_epi32(x2, A2_B(2));
	x3 = _mm256_add_epi32(x3, A2_B(3));
	x4 = _mm256_add_epi32(x4, A2_B(4));
	x5 = _mm256_add_epi32(x5, A2_B(5));
	x6 = _mm256_add_epi32(x6, A2_B(6));
	x7 = _mm256_add_epi32(x7, A2_B(7));
	a2_store8(out, in, x0, x1, x2, x3, x4, x5, x6, x7);
	x8 = _mm256_add_epi32(x8, A2_B(8));
	x9 = _mm256_add_epi32(x9, A2_B(9));
	x10 = _mm256_add_epi32(x10, A2_B(10));
	x11 = _mm256_add_epi32(x11, A2_B(11));
	x12 = _mm256_add_epi32(
		x12, _mm256_add_epi32(_mm256_set1_epi32((int)counter), lanes));
	x13 = _mm256_add_epi32(x13, A2_B(13));
	x14 = _mm256_add_epi32(x14, A2_B(14));
	x15 = _mm256_add_epi32(x15, A2_B(15));
	a2_store8(out + 32, in + 32, x8, x9, x10, x11, x12, x13, x14, x15);
}

#define CS_BATCH(out, in, st, counter)                                         \
	avx2_batch(out, in, st, counter, NULL, 0, NULL, NULL, 0)

#include "crypto/chacha20/simd.h"
#include "crypto/poly1305/x64.h"

/* cs_xor (chacha20/simd.h), except that a last block after the last
 * whole 8-block step rides along with it (avx2_batch with ks1) */
static uint32_t chacha20_avx2_xor(uint8_t *out, const uint8_t *in, size_t len,
				  const uint8_t key[32], uint32_t counter,
				  const uint8_t nonce[12])
{
	uint32_t st[16];
	uint8_t ks[64];

	cs_init(st, key, nonce);
	while (len >= 64 * CS_BLOCKS) {
		if (len > 64 * CS_BLOCKS && len <= 64 * CS_BLOCKS + 64) {
			avx2_batch(out, in, st, counter, ks,
				   counter + CS_BLOCKS, NULL, NULL, 0);
			for (size_t i = 0; i < len - 64 * CS_BLOCKS; i++)
				out[64 * CS_BLOCKS + i] =
					(uint8_t)(in[64 * CS_BLOCKS + i] ^
						  ks[i]);
			ct_wipe(ks, sizeof(ks));
			counter += CS_BLOCKS + 1;
			len = 0;
			break;
		}
		avx2_batch(out, in, st, counter, NULL, 0, NULL, NULL, 0);
		counter += CS_BLOCKS;
		out += 64 * CS_BLOCKS;
		in += 64 * CS_BLOCKS;
		len -= 64 * CS_BLOCKS;
	}
	if (len > 0)
		counter = cs_tail(out, in, len, st, counter);
	ct_wipe(st, sizeof(st));
	return counter;
}

/* see kernels.h (chacha20_poly_fn): the radix-2^64 Poly1305 of each
 * 512-byte step of ciphertext runs in the integer units during the vector
 * rounds of the next step */
static uint32_t chacha20_poly_avx2(uint8_t *c, const uint8_t *m, size_t len,
				   const uint8_t key[32], uint32_t counter,
				   const uint8_t nonce[12],
				   struct poly1305_fast *mac)
{
	uint32_t st[16];
	struct p64r p;
	const uint8_t *pending = NULL;

	cs_init(st, key, nonce);
	p64r_from(&p, mac);
	while (len >= 64 * CS_BLOCKS) {
		if (pending != NULL)
			avx2_batch(c, m, st, counter, NULL, 0, &p, pending, 0);
		else
			avx2_batch(c, m, st, counter, NULL, 0, NULL, NULL, 0);
		/* this step's ciphertext is MACed during the next one */
		pending = c;
		counter += CS_BLOCKS;
		c += 64 * CS_BLOCKS;
		m += 64 * CS_BLOCKS;
		len -= 64 * CS_BLOCKS;
	}
	p64r_to(mac, &p);
	if (pending != NULL)
		poly1305_fast_update(mac, pending, 64 * CS_BLOCKS);
	if (len > 0) {
		counter = cs_tail(c, m, len, st, counter);
		poly1305_fast_update(mac, c, len);
	}
	ct_wipe(st, sizeof(st));
	ct_wipe(&p, sizeof(p));
	return counter;
}

/*
 * The body of a seal (mac_in 0: MAC over out, the ciphertext) or of an
 * open (mac_in 1: MAC over in, the ciphertext; out must not overlap in,
 * since in is read one step after out was written): block 0 (the
 * one-time key) in general-purpose registers during the first 8-block
 * step, then the Poly1305 of each step's ciphertext during the next step
 * (the last step's as two chains of 16, p64r_last2).
 */
static inline __attribute__((always_inline)) void body_core(
	uint8_t *out, const uint8_t *in, size_t len, const uint8_t *ad,
	size_t adlen, const uint8_t key[32], const uint8_t nonce[12],
	struct poly1305_fast *mac, int mac_in, int bmi2)
{
	uint32_t st[16];
	uint8_t otk[64];
	uint64_t r16[3] = { 0, 0, 0 };
	struct p64r p;
	uint32_t counter = 1;
	const uint8_t *pending = NULL;

	cs_init(st, key, nonce);
	if (len >= 64 * CS_BLOCKS) {
		avx2_batch(out, in, st, counter, otk, 0, NULL, NULL, 0);
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
	poly1305_fast_use(mac, poly1305_avx2_get());
	p64r_from(&p, mac);
	/* ad | pad16(ad) straight in radix 2^64: a shorter chain before
	 * the first MAC step than the 44-bit update (2% here) */
	p64r_absorb_padded(&p, ad, adlen, 0);
	if (pending != NULL)
		p44_pow2k(r16, mac->r, 4);
	while (len >= 64 * CS_BLOCKS && pending != NULL) {
		avx2_batch(out, in, st, counter, NULL, 0, &p, pending, bmi2);
		pending = mac_in ? in : out;
		counter += CS_BLOCKS;
		out += 64 * CS_BLOCKS;
		in += 64 * CS_BLOCKS;
		len -= 64 * CS_BLOCKS;
	}
	if (pending != NULL) {
		p64r_last2(mac, &p, pending, 16, r16, bmi2);
		ct_wipe(r16, sizeof(r16));
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

/* see kernels.h (chachapoly_body_fn); the _x ones with MULX (BMI2) */
static void chachapoly_body_avx2(uint8_t *c, const uint8_t *m, size_t len,
				 const uint8_t *ad, size_t adlen,
				 const uint8_t key[32], const uint8_t nonce[12],
				 struct poly1305_fast *mac)
{
	body_core(c, m, len, ad, adlen, key, nonce, mac, 0, 0);
}

static void chachapoly_body_avx2_x(uint8_t *c, const uint8_t *m, size_t len,
				   const uint8_t *ad, size_t adlen,
				   const uint8_t key[32],
				   const uint8_t nonce[12],
				   struct poly1305_fast *mac)
{
	body_core(c, m, len, ad, adlen, key, nonce, mac, 0, 1);
}

/* see kernels.h (chachapoly_open_body_avx2_get) */
static void chachapoly_open_body_avx2(uint8_t *m, const uint8_t *c, size_t len,
				      const uint8_t *ad, size_t adlen,
				      const uint8_t key[32],
				      const uint8_t nonce[12],
				      struct poly1305_fast *mac)
{
	body_core(m, c, len, ad, adlen, key, nonce, mac, 1, 0);
}

static void chachapoly_open_body_avx2_x(uint8_t *m, const uint8_t *c,
					size_t len, const uint8_t *ad,
					size_t adlen, const uint8_t key[32],
					const uint8_t nonce[12],
					struct poly1305_fast *mac)
{
	body_core(m, c, len, ad, adlen, key, nonce, mac, 1, 1);
}

/* see kernels.h */
chachapoly_body_fn chachapoly_open_body_avx2_get(void)
{
	if (!(cpu_features() & CPU_AVX2))
		return NULL;
	return (cpu_features() & CPU_BMI2) ? chachapoly_open_body_avx2_x
					   : chachapoly_open_body_avx2;
}

/* see kernels.h */
chachapoly_body_fn chachapoly_body_avx2_get(void)
{
	if (!(cpu_features() & CPU_AVX2))
		return NULL;
	return (cpu_features() & CPU_BMI2) ? chachapoly_body_avx2_x
					   : chachapoly_body_avx2;
}

/* see kernels.h */
chacha20_poly_fn chacha20_poly_avx2_get(void)
{
	if (!(cpu_features() & CPU_AVX2))
		return NULL;
	return chacha20_poly_avx2;
}

/* see kernels.h */
chacha20_xor_fn chacha20_avx2_get(void)
{
	if (!(cpu_features() & CPU_AVX2))
		return NULL;
	return chacha20_avx2_xor;
}
#else
/* see kernels.h: built without AVX2 support */
chacha20_xor_fn chacha20_avx2_get(void)
{
	return NULL;
}

/* see kernels.h: built without AVX2 support */
chacha20_poly_fn chacha20_poly_avx2_get(void)
{
	return NULL;
}

/* see kernels.h: built without AVX2 support */
chachapoly_body_fn chachapoly_body_avx2_get(void)
{
	return NULL;
}

/* see kernels.h: built without AVX2 support */
chachapoly_body_fn chachapoly_open_body_avx2_get(void)
{
	return NULL;
}
#endif
