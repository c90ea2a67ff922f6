/* SPDX-License-Identifier: MIT */
/*
 * Portable ChaCha20, HChaCha20, XChaCha20. See chacha20/ref.h.
 * Spec: RFC 8439 sections 2.1-2.4; draft-irtf-cfrg-xchacha-03 2.2.
 * Depends on: ct.h. Written for Frama-C WP: int loop counters, fixed-size
 * array parameters, explicit little-endian loads and stores, one small
 * function per round step so each contract is a single spec step
 * (spec/chacha.acsl: ROTL, QR_*, DR, ROUNDS, BLOCK).
 * Constant time: yes (adds, xors, fixed rotations only).
 * Longer than ~600 lines on purpose: WP proves this file as one component
 * (proofs/run.sh: chacha, chacha-xor, chacha-word); issue 20 splits it
 * per primitive when it re-lays out src/crypto.
 */
#include "crypto/chacha20/ref.h"
#include "crypto/ct.h"

/*
 * The round helpers are separate functions so that each carries its own
 * contract for WP; the compiler must still see one straight-line block so
 * that the 16 state words live in registers (a call per quarter round made
 * the portable code 3x slower). Frama-C sees plain static functions.
 */
#ifdef __FRAMAC__
#define CHACHA_INLINE
#define CHACHA_NOINLINE
#else
#define CHACHA_INLINE __attribute__((always_inline)) inline
#define CHACHA_NOINLINE __attribute__((noinline))
#endif

/*@ requires range: 0 < c < 32;
    assigns \nothing;
    ensures rotl: \result == ROTL(v, c);
 */
static CHACHA_INLINE uint32_t rotl32(uint32_t v, int c)
{
	return ((uint32_t)(v << c)) | (v >> (32 - c));
}

/*@ requires valid: \valid(x + (0 .. 15));
    requires idx: 0 <= a < 16 && 0 <= b < 16 && 0 <= c < 16 && 0 <= d < 16;
    requires distinct: a != b && a != c && a != d && b != c && b != d &&
                       c != d;
    assigns x[a], x[b], x[c], x[d];
    ensures qa: x[a] == QR_A(\old(x[a]), \old(x[b]), \old(x[c]), \old(x[d]));
    ensures qb: x[b] == QR_B(\old(x[a]), \old(x[b]), \old(x[c]), \old(x[d]));
    ensures qc: x[c] == QR_C(\old(x[a]), \old(x[b]), \old(x[c]), \old(x[d]));
    ensures qd: x[d] == QR_D(\old(x[a]), \old(x[b]), \old(x[c]), \old(x[d]));
 */
static CHACHA_INLINE void quarter_round(uint32_t x[16], int a, int b, int c,
					int d)
{
	/* one local per step, named as in spec/chacha.acsl: the goals are
	 * about values, not about four aliasing-free array cells */
	uint32_t a1 = x[a] + x[b];
	uint32_t d1 = rotl32(x[d] ^ a1, 16);
	uint32_t c1 = x[c] + d1;
	uint32_t b1 = rotl32(x[b] ^ c1, 12);
	uint32_t a2 = a1 + b1;
	uint32_t d2 = rotl32(d1 ^ a2, 8);
	uint32_t c2 = c1 + d2;
	uint32_t b2 = rotl32(b1 ^ c2, 7);

	/*@ assert a1: a1 == QA1(x[a], x[b], x[c], x[d]); */
	/*@ assert d1: d1 == QD1(x[a], x[b], x[c], x[d]); */
	/*@ assert c1: c1 == QC1(x[a], x[b], x[c], x[d]); */
	/*@ assert b1: b1 == QB1(x[a], x[b], x[c], x[d]); */
	/*@ assert a2: a2 == QR_A(x[a], x[b], x[c], x[d]); */
	/*@ assert d2: d2 == QR_D(x[a], x[b], x[c], x[d]); */
	/*@ assert c2: c2 == QR_C(x[a], x[b], x[c], x[d]); */
	/*@ assert b2: b2 == QR_B(x[a], x[b], x[c], x[d]); */
	x[a] = a2;
	x[b] = b2;
	x[c] = c2;
	x[d] = d2;
}

/*@ requires valid: \valid(x + (0 .. 15));
    assigns x[0 .. 15];
    ensures dr: \forall integer j; IN16(j) ==>
	x[j] == DR(j, \old(x[0]), \old(x[1]), \old(x[2]), \old(x[3]),
		\old(x[4]), \old(x[5]), \old(x[6]), \old(x[7]),
		\old(x[8]), \old(x[9]), \old(x[10]), \old(x[11]),
		\old(x[12]), \old(x[13]), \old(x[14]), \old(x[15]));
 */
static CHACHA_INLINE void double_round(uint32_t x[16])
{
	quarter_round(x, 0, 4, 8, 12);
	quarter_round(x, 1, 5, 9, 13);
	quarter_round(x, 2, 6, 10, 14);
	quarter_round(x, 3, 7, 11, 15);
	quarter_round(x, 0, 5, 10, 15);
	quarter_round(x, 1, 6, 11, 12);
	quarter_round(x, 2, 7, 8, 13);
	quarter_round(x, 3, 4, 9, 14);
	/*@ assert w0: x[0] == DR(0,
		\at(x[0], Pre), \at(x[1], Pre), \at(x[2], Pre),
		\at(x[3], Pre), \at(x[4], Pre), \at(x[5], Pre),
		\at(x[6], Pre), \at(x[7], Pre), \at(x[8], Pre),
		\at(x[9], Pre), \at(x[10], Pre), \at(x[11], Pre),
		\at(x[12], Pre), \at(x[13], Pre), \at(x[14], Pre),
		\at(x[15], Pre));
	 */
	/*@ assert w1: x[1] == DR(1,
		\at(x[0], Pre), \at(x[1], Pre), \at(x[2], Pre),
		\at(x[3], Pre), \at(x[4], Pre), \at(x[5], Pre),
		\at(x[6], Pre), \at(x[7], Pre), \at(x[8], Pre),
		\at(x[9], Pre), \at(x[10], Pre), \at(x[11], Pre),
		\at(x[12], Pre), \at(x[13], Pre), \at(x[14], Pre),
		\at(x[15], Pre));
	 */
	/*@ assert w2: x[2] == DR(2,
		\at(x[0], Pre), \at(x[1], Pre), \at(x[2], Pre),
		\at(x[3], Pre), \at(x[4], Pre), \at(x[5], Pre),
		\at(x[6], Pre), \at(x[7], Pre), \at(x[8], Pre),
		\at(x[9], Pre), \at(x[10], Pre), \at(x[11], Pre),
		\at(x[12], Pre), \at(x[13], Pre), \at(x[14], Pre),
		\at(x[15], Pre));
	 */
	/*@ assert w3: x[3] == DR(3,
		\at(x[0], Pre), \at(x[1], Pre), \at(x[2], Pre),
		\at(x[3], Pre), \at(x[4], Pre), \at(x[5], Pre),
		\at(x[6], Pre), \at(x[7], Pre), \at(x[8], Pre),
		\at(x[9], Pre), \at(x[10], Pre), \at(x[11], Pre),
		\at(x[12], Pre), \at(x[13], Pre), \at(x[14], Pre),
		\at(x[15], Pre));
	 */
	/*@ assert w4: x[4] == DR(4,
		\at(x[0], Pre), \at(x[1], Pre), \at(x[2], Pre),
		\at(x[3], Pre), \at(x[4], Pre), \at(x[5], Pre),
		\at(x[6], Pre), \at(x[7], Pre), \at(x[8], Pre),
		\at(x[9], Pre), \at(x[10], Pre), \at(x[11], Pre),
		\at(x[12], Pre), \at(x[13], Pre), \at(x[14], Pre),
		\at(x[15], Pre));
	 */
	/*@ assert w5: x[5] == DR(5,
		\at(x[0], Pre), \at(x[1], Pre), \at(x[2], Pre),
		\at(x[3], Pre), \at(x[4], Pre), \at(x[5], Pre),
		\at(x[6], Pre), \at(x[7], Pre), \at(x[8], Pre),
		\at(x[9], Pre), \at(x[10], Pre), \at(x[11], Pre),
		\at(x[12], Pre), \at(x[13], Pre), \at(x[14], Pre),
		\at(x[15], Pre));
	 */
	/*@ assert w6: x[6] == DR(6,
		\at(x[0], Pre), \at(x[1], Pre), \at(x[2], Pre),
		\at(x[3], Pre), \at(x[4], Pre), \at(x[5], Pre),
		\at(x[6], Pre), \at(x[7], Pre), \at(x[8], Pre),
		\at(x[9], Pre), \at(x[10], Pre), \at(x[11], Pre),
		\at(x[12], Pre), \at(x[13], Pre), \at(x[14], Pre),
		\at(x[15], Pre));
	 */
	/*@ assert w7: x[7] == DR(7,
		\at(x[0], Pre), \at(x[1], Pre), \at(x[2], Pre),
		\at(x[3], Pre), \at(x[4], Pre), \at(x[5], Pre),
		\at(x[6], Pre), \at(x[7], Pre), \at(x[8], Pre),
		\at(x[9], Pre), \at(x[10], Pre), \at(x[11], Pre),
		\at(x[12], Pre), \at(x[13], Pre), \at(x[14], Pre),
		\at(x[15], Pre));
	 */
	/*@ assert w8: x[8] == DR(8,
		\at(x[0], Pre), \at(x[1], Pre), \at(x[2], Pre),
		\at(x[3], Pre), \at(x[4], Pre), \at(x[5], Pre),
		\at(x[6], Pre), \at(x[7], Pre), \at(x[8], Pre),
		\at(x[9], Pre), \at(x[10], Pre), \at(x[11], Pre),
		\at(x[12], Pre), \at(x[13], Pre), \at(x[14], Pre),
		\at(x[15], Pre));
	 */
	/*@ assert w9: x[9] == DR(9,
		\at(x[0], Pre), \at(x[1], Pre), \at(x[2], Pre),
		\at(x[3], Pre), \at(x[4], Pre), \at(x[5], Pre),
		\at(x[6], Pre), \at(x[7], Pre), \at(x[8], Pre),
		\at(x[9], Pre), \at(x[10], Pre), \at(x[11], Pre),
		\at(x[12], Pre), \at(x[13], Pre), \at(x[14], Pre),
		\at(x[15], Pre));
	 */
	/*@ assert w10: x[10] == DR(10,
		\at(x[0], Pre), \at(x[1], Pre), \at(x[2], Pre),
		\at(x[3], Pre), \at(x[4], Pre), \at(x[5], Pre),
		\at(x[6], Pre), \at(x[7], Pre), \at(x[8], Pre),
		\at(x[9], Pre), \at(x[10], Pre), \at(x[11], Pre),
		\at(x[12], Pre), \at(x[13], Pre), \at(x[14], Pre),
		\at(x[15], Pre));
	 */
	/*@ assert w11: x[11] == DR(11,
		\at(x[0], Pre), \at(x[1], Pre), \at(x[2], Pre),
		\at(x[3], Pre), \at(x[4], Pre), \at(x[5], Pre),
		\at(x[6], Pre), \at(x[7], Pre), \at(x[8], Pre),
		\at(x[9], Pre), \at(x[10], Pre), \at(x[11], Pre),
		\at(x[12], Pre), \at(x[13], Pre), \at(x[14], Pre),
		\at(x[15], Pre));
	 */
	/*@ assert w12: x[12] == DR(12,
		\at(x[0], Pre), \at(x[1], Pre), \at(x[2], Pre),
		\at(x[3], Pre), \at(x[4], Pre), \at(x[5], Pre),
		\at(x[6], Pre), \at(x[7], Pre), \at(x[8], Pre),
		\at(x[9], Pre), \at(x[10], Pre), \at(x[11], Pre),
		\at(x[12], Pre), \at(x[13], Pre), \at(x[14], Pre),
		\at(x[15], Pre));
	 */
	/*@ assert w13: x[13] == DR(13,
		\at(x[0], Pre), \at(x[1], Pre), \at(x[2], Pre),
		\at(x[3], Pre), \at(x[4], Pre), \at(x[5], Pre),
		\at(x[6], Pre), \at(x[7], Pre), \at(x[8], Pre),
		\at(x[9], Pre), \at(x[10], Pre), \at(x[11], Pre),
		\at(x[12], Pre), \at(x[13], Pre), \at(x[14], Pre),
		\at(x[15], Pre));
	 */
	/*@ assert w14: x[14] == DR(14,
		\at(x[0], Pre), \at(x[1], Pre), \at(x[2], Pre),
		\at(x[3], Pre), \at(x[4], Pre), \at(x[5], Pre),
		\at(x[6], Pre), \at(x[7], Pre), \at(x[8], Pre),
		\at(x[9], Pre), \at(x[10], Pre), \at(x[11], Pre),
		\at(x[12], Pre), \at(x[13], Pre), \at(x[14], Pre),
		\at(x[15], Pre));
	 */
	/*@ assert w15: x[15] == DR(15,
		\at(x[0], Pre), \at(x[1], Pre), \at(x[2], Pre),
		\at(x[3], Pre), \at(x[4], Pre), \at(x[5], Pre),
		\at(x[6], Pre), \at(x[7], Pre), \at(x[8], Pre),
		\at(x[9], Pre), \at(x[10], Pre), \at(x[11], Pre),
		\at(x[12], Pre), \at(x[13], Pre), \at(x[14], Pre),
		\at(x[15], Pre));
	 */
}

/*@ requires valid: \valid(x + (0 .. 15));
    assigns x[0 .. 15];
    ensures rounds: \forall integer j; 0 <= j < 16 ==>
	x[j] == ROUNDS(10, j, \old(x[0]), \old(x[1]), \old(x[2]), \old(x[3]),
		\old(x[4]), \old(x[5]), \old(x[6]), \old(x[7]),
		\old(x[8]), \old(x[9]), \old(x[10]), \old(x[11]),
		\old(x[12]), \old(x[13]), \old(x[14]), \old(x[15]));
 */
static CHACHA_INLINE void rounds20(uint32_t x[16])
{
	/*@ loop invariant count: 0 <= i <= 10;
	    loop invariant words: \forall integer j; 0 <= j < 16 ==>
		x[j] == ROUNDS(i, j,
		\at(x[0], Pre), \at(x[1], Pre), \at(x[2], Pre), \at(x[3], Pre),
		\at(x[4], Pre), \at(x[5], Pre), \at(x[6], Pre), \at(x[7], Pre),
		\at(x[8], Pre), \at(x[9], Pre), \at(x[10], Pre), \at(x[11], Pre),
		\at(x[12], Pre), \at(x[13], Pre), \at(x[14], Pre), \at(x[15], Pre));
	    loop assigns i, x[0 .. 15];
	    loop variant 10 - i;
	 */
	for (int i = 0; i < 10; i++)
		double_round(x);
}

/* state = "expand 32-byte k" | key | w12 | w13 w14 w15 (from nonce) */
/*@ requires valid_x: \valid(x + (0 .. 15));
    requires valid_key: \valid_read(key + (0 .. 31));
    requires valid_n: \valid_read(n + (0 .. 11));
    requires sep_key: \separated(x + (0 .. 15), key + (0 .. 31));
    requires sep_n: \separated(x + (0 .. 15), n + (0 .. 11));
    assigns x[0 .. 15];
    ensures c0: x[0] == 0x61707865 && x[1] == 0x3320646e &&
                x[2] == 0x79622d32 && x[3] == 0x6b206574;
    ensures k0: x[4] ==
		\old(LE32(key[0], key[1], key[2], key[3]));
    ensures k1: x[5] ==
		\old(LE32(key[4], key[5], key[6], key[7]));
    ensures k2: x[6] ==
		\old(LE32(key[8], key[9], key[10], key[11]));
    ensures k3: x[7] ==
		\old(LE32(key[12], key[13], key[14], key[15]));
    ensures k4: x[8] ==
		\old(LE32(key[16], key[17], key[18], key[19]));
    ensures k5: x[9] ==
		\old(LE32(key[20], key[21], key[22], key[23]));
    ensures k6: x[10] ==
		\old(LE32(key[24], key[25], key[26], key[27]));
    ensures k7: x[11] ==
		\old(LE32(key[28], key[29], key[30], key[31]));
    ensures w12: x[12] == w12;
    ensures n0: x[13] ==
		\old(LE32(n[0], n[1], n[2], n[3]));
    ensures n1: x[14] ==
		\old(LE32(n[4], n[5], n[6], n[7]));
    ensures n2: x[15] ==
		\old(LE32(n[8], n[9], n[10], n[11]));
 */
static CHACHA_INLINE void init_state(uint32_t x[16], const uint8_t key[32],
				     uint32_t w12, const uint8_t n[12])
{
	x[0] = 0x61707865U;
	x[1] = 0x3320646eU;
	x[2] = 0x79622d32U;
	x[3] = 0x6b206574U;
	x[4] = load32_le(key);
	x[5] = load32_le(key + 4);
	x[6] = load32_le(key + 8);
	x[7] = load32_le(key + 12);
	x[8] = load32_le(key + 16);
	x[9] = load32_le(key + 20);
	x[10] = load32_le(key + 24);
	x[11] = load32_le(key + 28);
	x[12] = w12;
	x[13] = load32_le(n);
	x[14] = load32_le(n + 4);
	x[15] = load32_le(n + 8);
}

/* out = the 16 words of w, little-endian */
/*@ requires valid: \valid(out + (0 .. 63)) && \valid_read(w + (0 .. 15));
    requires sep: \separated(out + (0 .. 63), w + (0 .. 15));
    assigns out[0 .. 63];
    ensures b0: out[0] == BYTE0(w[0]) && out[1] == BYTE1(w[0]) &&
      out[2] == BYTE2(w[0]) && out[3] == BYTE3(w[0]);
    ensures b1: out[4] == BYTE0(w[1]) && out[5] == BYTE1(w[1]) &&
      out[6] == BYTE2(w[1]) && out[7] == BYTE3(w[1]);
    ensures b2: out[8] == BYTE0(w[2]) && out[9] == BYTE1(w[2]) &&
      out[10] == BYTE2(w[2]) && out[11] == BYTE3(w[2]);
    ensures b3: out[12] == BYTE0(w[3]) && out[13] == BYTE1(w[3]) &&
      out[14] == BYTE2(w[3]) && out[15] == BYTE3(w[3]);
    ensures b4: out[16] == BYTE0(w[4]) && out[17] == BYTE1(w[4]) &&
      out[18] == BYTE2(w[4]) && out[19] == BYTE3(w[4]);
    ensures b5: out[20] == BYTE0(w[5]) && out[21] == BYTE1(w[5]) &&
      out[22] == BYTE2(w[5]) && out[23] == BYTE3(w[5]);
    ensures b6: out[24] == BYTE0(w[6]) && out[25] == BYTE1(w[6]) &&
      out[26] == BYTE2(w[6]) && out[27] == BYTE3(w[6]);
    ensures b7: out[28] == BYTE0(w[7]) && out[29] == BYTE1(w[7]) &&
      out[30] == BYTE2(w[7]) && out[31] == BYTE3(w[7]);
    ensures b8: out[32] == BYTE0(w[8]) && out[33] == BYTE1(w[8]) &&
      out[34] == BYTE2(w[8]) && out[35] == BYTE3(w[8]);
    ensures b9: out[36] == BYTE0(w[9]) && out[37] == BYTE1(w[9]) &&
      out[38] == BYTE2(w[9]) && out[39] == BYTE3(w[9]);
    ensures b10: out[40] == BYTE0(w[10]) && out[41] == BYTE1(w[10]) &&
      out[42] == BYTE2(w[10]) && out[43] == BYTE3(w[10]);
    ensures b11: out[44] == BYTE0(w[11]) && out[45] == BYTE1(w[11]) &&
      out[46] == BYTE2(w[11]) && out[47] == BYTE3(w[11]);
    ensures b12: out[48] == BYTE0(w[12]) && out[49] == BYTE1(w[12]) &&
      out[50] == BYTE2(w[12]) && out[51] == BYTE3(w[12]);
    ensures b13: out[52] == BYTE0(w[13]) && out[53] == BYTE1(w[13]) &&
      out[54] == BYTE2(w[13]) && out[55] == BYTE3(w[13]);
    ensures b14: out[56] == BYTE0(w[14]) && out[57] == BYTE1(w[14]) &&
      out[58] == BYTE2(w[14]) && out[59] == BYTE3(w[14]);
    ensures b15: out[60] == BYTE0(w[15]) && out[61] == BYTE1(w[15]) &&
      out[62] == BYTE2(w[15]) && out[63] == BYTE3(w[15]);
 */
static CHACHA_INLINE void store_words(uint8_t out[64], const uint32_t w[16])
{
	/* written out: each word's postcondition is one store (no quantifier
	 * to instantiate at a multiple of 4) */
	store32_le(out + 0, w[0]);
	store32_le(out + 4, w[1]);
	store32_le(out + 8, w[2]);
	store32_le(out + 12, w[3]);
	store32_le(out + 16, w[4]);
	store32_le(out + 20, w[5]);
	store32_le(out + 24, w[6]);
	store32_le(out + 28, w[7]);
	store32_le(out + 32, w[8]);
	store32_le(out + 36, w[9]);
	store32_le(out + 40, w[10]);
	store32_le(out + 44, w[11]);
	store32_le(out + 48, w[12]);
	store32_le(out + 52, w[13]);
	store32_le(out + 56, w[14]);
	store32_le(out + 60, w[15]);
}

/* ct_wipe of a word array, as WP sees it: ct_wipe's contract is on bytes
 * and the typed memory model keeps words and bytes apart */
/*@ requires valid: \valid(x + (0 .. 15));
    assigns x[0 .. 15];
 */
static void wipe_words(uint32_t x[16])
{
#ifdef __FRAMAC__
	/*@ loop invariant 0 <= i <= 16;
	    loop assigns i, x[0 .. 15];
	    loop variant 16 - i;
	 */
	for (int i = 0; i < 16; i++)
		x[i] = 0;
#else
	ct_wipe(x, 16 * sizeof(uint32_t));
#endif
}

/* see chacha20/ref.h */
void chacha20_block(uint8_t out[64], const uint8_t key[32], uint32_t counter,
		    const uint8_t nonce[12])
{
	uint32_t in[16];
	uint32_t x[16];

	/* two copies of the state, each with its own contract, so that no
	 * goal needs a copy loop: x goes through the rounds, in is added */
	init_state(in, key, counter, nonce);
	init_state(x, key, counter, nonce);
	rounds20(x);
	/* the 20 rounds over the key and nonce words, then word by word:
	 * every later goal is a syntactic match for Qed */
	/*@ assert rounds: \forall integer j; 0 <= j < 16 ==>
	      x[j] == ROUNDS(10, j,
	        0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
	        KW(key, 0), KW(key, 1), KW(key, 2), KW(key, 3),
	        KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), counter,
	        KW(nonce, 0), KW(nonce, 1), KW(nonce, 2));
	 */
	/*@ assert r0: x[0] == ROUNDS(10, 0,
	        0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
	        KW(key, 0), KW(key, 1), KW(key, 2), KW(key, 3),
	        KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), counter,
	        KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)); */
	/*@ assert r1: x[1] == ROUNDS(10, 1,
	        0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
	        KW(key, 0), KW(key, 1), KW(key, 2), KW(key, 3),
	        KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), counter,
	        KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)); */
	/*@ assert r2: x[2] == ROUNDS(10, 2,
	        0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
	        KW(key, 0), KW(key, 1), KW(key, 2), KW(key, 3),
	        KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), counter,
	        KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)); */
	/*@ assert r3: x[3] == ROUNDS(10, 3,
	        0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
	        KW(key, 0), KW(key, 1), KW(key, 2), KW(key, 3),
	        KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), counter,
	        KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)); */
	/*@ assert r4: x[4] == ROUNDS(10, 4,
	        0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
	        KW(key, 0), KW(key, 1), KW(key, 2), KW(key, 3),
	        KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), counter,
	        KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)); */
	/*@ assert r5: x[5] == ROUNDS(10, 5,
	        0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
	        KW(key, 0), KW(key, 1), KW(key, 2), KW(key, 3),
	        KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), counter,
	        KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)); */
	/*@ assert r6: x[6] == ROUNDS(10, 6,
	        0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
	        KW(key, 0), KW(key, 1), KW(key, 2), KW(key, 3),
	        KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), counter,
	        KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)); */
	/*@ assert r7: x[7] == ROUNDS(10, 7,
	        0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
	        KW(key, 0), KW(key, 1), KW(key, 2), KW(key, 3),
	        KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), counter,
	        KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)); */
	/*@ assert r8: x[8] == ROUNDS(10, 8,
	        0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
	        KW(key, 0), KW(key, 1), KW(key, 2), KW(key, 3),
	        KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), counter,
	        KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)); */
	/*@ assert r9: x[9] == ROUNDS(10, 9,
	        0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
	        KW(key, 0), KW(key, 1), KW(key, 2), KW(key, 3),
	        KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), counter,
	        KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)); */
	/*@ assert r10: x[10] == ROUNDS(10, 10,
	        0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
	        KW(key, 0), KW(key, 1), KW(key, 2), KW(key, 3),
	        KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), counter,
	        KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)); */
	/*@ assert r11: x[11] == ROUNDS(10, 11,
	        0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
	        KW(key, 0), KW(key, 1), KW(key, 2), KW(key, 3),
	        KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), counter,
	        KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)); */
	/*@ assert r12: x[12] == ROUNDS(10, 12,
	        0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
	        KW(key, 0), KW(key, 1), KW(key, 2), KW(key, 3),
	        KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), counter,
	        KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)); */
	/*@ assert r13: x[13] == ROUNDS(10, 13,
	        0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
	        KW(key, 0), KW(key, 1), KW(key, 2), KW(key, 3),
	        KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), counter,
	        KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)); */
	/*@ assert r14: x[14] == ROUNDS(10, 14,
	        0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
	        KW(key, 0), KW(key, 1), KW(key, 2), KW(key, 3),
	        KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), counter,
	        KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)); */
	/*@ assert r15: x[15] == ROUNDS(10, 15,
	        0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
	        KW(key, 0), KW(key, 1), KW(key, 2), KW(key, 3),
	        KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), counter,
	        KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)); */
	/* written out: each word's goal is one update of a local array */
	x[0] += in[0];
	x[1] += in[1];
	x[2] += in[2];
	x[3] += in[3];
	x[4] += in[4];
	x[5] += in[5];
	x[6] += in[6];
	x[7] += in[7];
	x[8] += in[8];
	x[9] += in[9];
	x[10] += in[10];
	x[11] += in[11];
	x[12] += in[12];
	x[13] += in[13];
	x[14] += in[14];
	x[15] += in[15];
	/*@ assert w0: x[0] == ADD(ROUNDS(10, 0,
	        0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
	        KW(key, 0), KW(key, 1), KW(key, 2), KW(key, 3),
	        KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), counter,
	        KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)),
	      0x61707865); */
	/*@ assert w1: x[1] == ADD(ROUNDS(10, 1,
	        0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
	        KW(key, 0), KW(key, 1), KW(key, 2), KW(key, 3),
	        KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), counter,
	        KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)),
	      0x3320646e); */
	/*@ assert w2: x[2] == ADD(ROUNDS(10, 2,
	        0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
	        KW(key, 0), KW(key, 1), KW(key, 2), KW(key, 3),
	        KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), counter,
	        KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)),
	      0x79622d32); */
	/*@ assert w3: x[3] == ADD(ROUNDS(10, 3,
	        0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
	        KW(key, 0), KW(key, 1), KW(key, 2), KW(key, 3),
	        KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), counter,
	        KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)),
	      0x6b206574); */
	/*@ assert w4: x[4] == ADD(ROUNDS(10, 4,
	        0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
	        KW(key, 0), KW(key, 1), KW(key, 2), KW(key, 3),
	        KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), counter,
	        KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)),
	      LE32(key[0], key[1], key[2], key[3])); */
	/*@ assert w5: x[5] == ADD(ROUNDS(10, 5,
	        0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
	        KW(key, 0), KW(key, 1), KW(key, 2), KW(key, 3),
	        KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), counter,
	        KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)),
	      LE32(key[4], key[5], key[6], key[7])); */
	/*@ assert w6: x[6] == ADD(ROUNDS(10, 6,
	        0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
	        KW(key, 0), KW(key, 1), KW(key, 2), KW(key, 3),
	        KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), counter,
	        KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)),
	      LE32(key[8], key[9], key[10], key[11])); */
	/*@ assert w7: x[7] == ADD(ROUNDS(10, 7,
	        0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
	        KW(key, 0), KW(key, 1), KW(key, 2), KW(key, 3),
	        KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), counter,
	        KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)),
	      LE32(key[12], key[13], key[14], key[15])); */
	/*@ assert w8: x[8] == ADD(ROUNDS(10, 8,
	        0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
	        KW(key, 0), KW(key, 1), KW(key, 2), KW(key, 3),
	        KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), counter,
	        KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)),
	      LE32(key[16], key[17], key[18], key[19])); */
	/*@ assert w9: x[9] == ADD(ROUNDS(10, 9,
	        0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
	        KW(key, 0), KW(key, 1), KW(key, 2), KW(key, 3),
	        KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), counter,
	        KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)),
	      LE32(key[20], key[21], key[22], key[23])); */
	/*@ assert w10: x[10] == ADD(ROUNDS(10, 10,
	        0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
	        KW(key, 0), KW(key, 1), KW(key, 2), KW(key, 3),
	        KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), counter,
	        KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)),
	      LE32(key[24], key[25], key[26], key[27])); */
	/*@ assert w11: x[11] == ADD(ROUNDS(10, 11,
	        0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
	        KW(key, 0), KW(key, 1), KW(key, 2), KW(key, 3),
	        KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), counter,
	        KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)),
	      LE32(key[28], key[29], key[30], key[31])); */
	/*@ assert w12: x[12] == ADD(ROUNDS(10, 12,
	        0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
	        KW(key, 0), KW(key, 1), KW(key, 2), KW(key, 3),
	        KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), counter,
	        KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)),
	      in[12]); */
	/*@ assert w13: x[13] == ADD(ROUNDS(10, 13,
	        0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
	        KW(key, 0), KW(key, 1), KW(key, 2), KW(key, 3),
	        KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), counter,
	        KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)),
	      LE32(nonce[0], nonce[1], nonce[2], nonce[3])); */
	/*@ assert w14: x[14] == ADD(ROUNDS(10, 14,
	        0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
	        KW(key, 0), KW(key, 1), KW(key, 2), KW(key, 3),
	        KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), counter,
	        KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)),
	      LE32(nonce[4], nonce[5], nonce[6], nonce[7])); */
	/*@ assert w15: x[15] == ADD(ROUNDS(10, 15,
	        0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
	        KW(key, 0), KW(key, 1), KW(key, 2), KW(key, 3),
	        KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), counter,
	        KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)),
	      LE32(nonce[8], nonce[9], nonce[10], nonce[11])); */
	store_words(out, x);
	wipe_words(x);
	wipe_words(in);
}

/* out[0..n-1] = in[0..n-1] ^ ks[0..n-1], n <= 64 */
/*@ requires n: n <= 64;
    requires valid: \valid(out + (0 .. n - 1)) &&
                    \valid_read(in + (0 .. n - 1)) &&
                    \valid_read(ks + (0 .. 63));
    requires in_place: out == in ||
                       \separated(out + (0 .. n - 1), in + (0 .. n - 1));
    requires sep: \separated(out + (0 .. n - 1), ks + (0 .. 63));
    assigns out[0 .. n - 1];
    ensures xor: \forall integer i; 0 <= i < n ==>
	out[i] == (uint8_t)(\old(in[i]) ^ ks[i]);
 */
static CHACHA_INLINE void xor_block(uint8_t *out, const uint8_t *in,
				    const uint8_t ks[64], size_t n)
{
	/*@ loop invariant 0 <= i <= n;
	    loop invariant \forall integer k; 0 <= k < i ==>
		out[k] == (uint8_t)(\at(in[k], Pre) ^ ks[k]);
	    loop invariant \forall integer k; i <= k < n ==>
		in[k] == \at(in[k], Pre);
	    loop assigns i, out[0 .. n - 1];
	    loop variant n - i;
	 */
	for (size_t i = 0; i < n; i++)
		out[i] = (uint8_t)(in[i] ^ ks[i]);
}

/* out[0..3] = in[0..3] ^ the little-endian bytes of w (out may equal in) */
/*@ requires valid: \valid(out + (0 .. 3)) && \valid_read(in + (0 .. 3));
    requires in_place: out == in ||
                       \separated(out + (0 .. 3), in + (0 .. 3));
    assigns out[0 .. 3];
    ensures x0: out[0] == (uint8_t)(\old(in[0]) ^ BYTE0(w));
    ensures x1: out[1] == (uint8_t)(\old(in[1]) ^ BYTE1(w));
    ensures x2: out[2] == (uint8_t)(\old(in[2]) ^ BYTE2(w));
    ensures x3: out[3] == (uint8_t)(\old(in[3]) ^ BYTE3(w));
 */
static CHACHA_INLINE void xor_word(uint8_t *out, const uint8_t *in, uint32_t w)
{
	/* load32_le and store32_le written out (gcc merges each into one
	 * 32-bit access): a function without calls, proved on its own in
	 * component chacha-word, with the byte lemmas of
	 * proofs/why3/bytelemmas.mlw that the rest of this file does without.
	 * The load comes first: out may equal in */
	uint32_t v = (uint32_t)in[0] + ((uint32_t)in[1] << 8) +
		     ((uint32_t)in[2] << 16) + ((uint32_t)in[3] << 24);

	/*@ assert v0: BYTE0(v) == in[0]; */
	/*@ assert v1: BYTE1(v) == in[1]; */
	/*@ assert v2: BYTE2(v) == in[2]; */
	/*@ assert v3: BYTE3(v) == in[3]; */
	v ^= w;
	/*@ assert y0: BYTE0(v) == (uint8_t)(\at(in[0], Pre) ^ BYTE0(w)); */
	/*@ assert y1: BYTE1(v) == (uint8_t)(\at(in[1], Pre) ^ BYTE1(w)); */
	/*@ assert y2: BYTE2(v) == (uint8_t)(\at(in[2], Pre) ^ BYTE2(w)); */
	/*@ assert y3: BYTE3(v) == (uint8_t)(\at(in[3], Pre) ^ BYTE3(w)); */
	out[0] = (uint8_t)v;
	out[1] = (uint8_t)(v >> 8);
	out[2] = (uint8_t)(v >> 16);
	out[3] = (uint8_t)(v >> 24);
}

/* out[0..63] = in[0..63] ^ the little-endian bytes of w[0..15] */
#ifdef CHACHA_XOR_SPEC
/*@ requires valid: \valid(out + (0 .. 63)) && \valid_read(in + (0 .. 63)) &&
                    \valid_read(w + (0 .. 15));
    requires in_place: out == in ||
                       \separated(out + (0 .. 63), in + (0 .. 63));
    requires sep: \separated(out + (0 .. 63), w + (0 .. 15));
    assigns out[0 .. 63];
    ensures x0: \forall integer j; 0 <= j < 16 ==>
      out[4 * j] == (uint8_t)(\old(in[4 * j]) ^ BYTE0(w[j]));
    ensures x1: \forall integer j; 0 <= j < 16 ==>
      out[4 * j + 1] == (uint8_t)(\old(in[4 * j + 1]) ^ BYTE1(w[j]));
    ensures x2: \forall integer j; 0 <= j < 16 ==>
      out[4 * j + 2] == (uint8_t)(\old(in[4 * j + 2]) ^ BYTE2(w[j]));
    ensures x3: \forall integer j; 0 <= j < 16 ==>
      out[4 * j + 3] == (uint8_t)(\old(in[4 * j + 3]) ^ BYTE3(w[j]));
 */
#else
/*@ requires valid: \valid(out + (0 .. 63)) && \valid_read(in + (0 .. 63)) &&
                    \valid_read(w + (0 .. 15));
    requires in_place: out == in ||
                       \separated(out + (0 .. 63), in + (0 .. 63));
    requires sep: \separated(out + (0 .. 63), w + (0 .. 15));
    assigns out[0 .. 63];
 */
#endif
static CHACHA_INLINE void xor_words(uint8_t *out, const uint8_t *in,
				    const uint32_t w[16])
{
#ifdef CHACHA_XOR_SPEC
	/*@ loop invariant 0 <= j <= 16;
	    loop invariant d0: \forall integer i; 0 <= i < j ==>
	      out[4 * i] == (uint8_t)(\at(in[4 * i], Pre) ^ BYTE0(w[i]));
	    loop invariant d1: \forall integer i; 0 <= i < j ==>
	      out[4 * i + 1] == (uint8_t)(\at(in[4 * i + 1], Pre) ^ BYTE1(w[i]));
	    loop invariant d2: \forall integer i; 0 <= i < j ==>
	      out[4 * i + 2] == (uint8_t)(\at(in[4 * i + 2], Pre) ^ BYTE2(w[i]));
	    loop invariant d3: \forall integer i; 0 <= i < j ==>
	      out[4 * i + 3] == (uint8_t)(\at(in[4 * i + 3], Pre) ^ BYTE3(w[i]));
	    loop invariant todo: \forall integer k; 4 * j <= k < 64 ==>
	      in[k] == \at(in[k], Pre);
	    loop assigns j, out[0 .. 63];
	    loop variant 16 - j;
	 */
#else
	/*@ loop invariant 0 <= j <= 16;
	    loop assigns j, out[0 .. 63];
	    loop variant 16 - j;
	 */
#endif
#ifndef __FRAMAC__
#pragma GCC unroll 16
#endif
	for (int j = 0; j < 16; j++) {
		xor_word(out + 4 * j, in + 4 * j, w[j]);
#ifdef CHACHA_XOR_SPEC
		/*@ assert keep: \forall integer k; 0 <= k < 4 * j ==>
		      out[k] == \at(out[k], LoopCurrent); */
		/*@ assert c0: \let k = 4 * j;
		      out[k] == (uint8_t)(\at(in[k], Pre) ^ BYTE0(w[j])); */
		/*@ assert c1: \let k = 4 * j + 1;
		      out[k] == (uint8_t)(\at(in[k], Pre) ^ BYTE1(w[j])); */
		/*@ assert c2: \let k = 4 * j + 2;
		      out[k] == (uint8_t)(\at(in[k], Pre) ^ BYTE2(w[j])); */
		/*@ assert c3: \let k = 4 * j + 3;
		      out[k] == (uint8_t)(\at(in[k], Pre) ^ BYTE3(w[j])); */
#endif
	}
}

/* out[0..63] = in[0..63] ^ the keystream block of state st. Not inlined:
 * one copy of the 20 rounds serves the block loop and the tail */
#ifdef CHACHA_XOR_SPEC
/*@ requires valid: \valid(out + (0 .. 63)) && \valid_read(in + (0 .. 63)) &&
                    \valid_read(st + (0 .. 15));
    requires in_place: out == in ||
                       \separated(out + (0 .. 63), in + (0 .. 63));
    requires sep: \separated(out + (0 .. 63), st + (0 .. 15));
    assigns out[0 .. 63];
    ensures ks0: \forall integer j; 0 <= j < 16 ==>
      out[4 * j] == (uint8_t)(\old(in[4 * j]) ^ BYTE0(BLOCK(j,
		st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
		st[8], st[9], st[10], st[11], st[12], st[13], st[14], st[15])));
    ensures ks1: \forall integer j; 0 <= j < 16 ==>
      out[4 * j + 1] == (uint8_t)(\old(in[4 * j + 1]) ^ BYTE1(BLOCK(j,
		st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
		st[8], st[9], st[10], st[11], st[12], st[13], st[14], st[15])));
    ensures ks2: \forall integer j; 0 <= j < 16 ==>
      out[4 * j + 2] == (uint8_t)(\old(in[4 * j + 2]) ^ BYTE2(BLOCK(j,
		st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
		st[8], st[9], st[10], st[11], st[12], st[13], st[14], st[15])));
    ensures ks3: \forall integer j; 0 <= j < 16 ==>
      out[4 * j + 3] == (uint8_t)(\old(in[4 * j + 3]) ^ BYTE3(BLOCK(j,
		st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
		st[8], st[9], st[10], st[11], st[12], st[13], st[14], st[15])));
 */
#else
/*@ requires valid: \valid(out + (0 .. 63)) && \valid_read(in + (0 .. 63)) &&
                    \valid_read(st + (0 .. 15));
    requires in_place: out == in ||
                       \separated(out + (0 .. 63), in + (0 .. 63));
    requires sep: \separated(out + (0 .. 63), st + (0 .. 15));
    assigns out[0 .. 63];
 */
#endif
static CHACHA_NOINLINE void xor_block64(uint8_t *out, const uint8_t *in,
					const uint32_t st[16])
{
	uint32_t x[16];
	uint32_t w[16];

	/* x is a local that never escapes: gcc keeps the 16 words in
	 * registers through the rounds (no wipe call that would pin it to
	 * the stack). The copy is written out here, not in a helper: x is a
	 * fresh local, so WP separates it from st without a range argument */
	x[0] = st[0];
	x[1] = st[1];
	x[2] = st[2];
	x[3] = st[3];
	x[4] = st[4];
	x[5] = st[5];
	x[6] = st[6];
	x[7] = st[7];
	x[8] = st[8];
	x[9] = st[9];
	x[10] = st[10];
	x[11] = st[11];
	x[12] = st[12];
	x[13] = st[13];
	x[14] = st[14];
	x[15] = st[15];
	rounds20(x);
	/* w = the keystream words (x stays scalar: no indexed access) */
	w[0] = x[0] + st[0];
	w[1] = x[1] + st[1];
	w[2] = x[2] + st[2];
	w[3] = x[3] + st[3];
	w[4] = x[4] + st[4];
	w[5] = x[5] + st[5];
	w[6] = x[6] + st[6];
	w[7] = x[7] + st[7];
	w[8] = x[8] + st[8];
	w[9] = x[9] + st[9];
	w[10] = x[10] + st[10];
	w[11] = x[11] + st[11];
	w[12] = x[12] + st[12];
	w[13] = x[13] + st[13];
	w[14] = x[14] + st[14];
	w[15] = x[15] + st[15];
#ifdef CHACHA_XOR_SPEC
	/*@ assert w0: w[0] == BLOCK(0,
		st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
		st[8], st[9], st[10], st[11], st[12], st[13], st[14], st[15]); */
	/*@ assert w1: w[1] == BLOCK(1,
		st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
		st[8], st[9], st[10], st[11], st[12], st[13], st[14], st[15]); */
	/*@ assert w2: w[2] == BLOCK(2,
		st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
		st[8], st[9], st[10], st[11], st[12], st[13], st[14], st[15]); */
	/*@ assert w3: w[3] == BLOCK(3,
		st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
		st[8], st[9], st[10], st[11], st[12], st[13], st[14], st[15]); */
	/*@ assert w4: w[4] == BLOCK(4,
		st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
		st[8], st[9], st[10], st[11], st[12], st[13], st[14], st[15]); */
	/*@ assert w5: w[5] == BLOCK(5,
		st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
		st[8], st[9], st[10], st[11], st[12], st[13], st[14], st[15]); */
	/*@ assert w6: w[6] == BLOCK(6,
		st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
		st[8], st[9], st[10], st[11], st[12], st[13], st[14], st[15]); */
	/*@ assert w7: w[7] == BLOCK(7,
		st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
		st[8], st[9], st[10], st[11], st[12], st[13], st[14], st[15]); */
	/*@ assert w8: w[8] == BLOCK(8,
		st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
		st[8], st[9], st[10], st[11], st[12], st[13], st[14], st[15]); */
	/*@ assert w9: w[9] == BLOCK(9,
		st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
		st[8], st[9], st[10], st[11], st[12], st[13], st[14], st[15]); */
	/*@ assert w10: w[10] == BLOCK(10,
		st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
		st[8], st[9], st[10], st[11], st[12], st[13], st[14], st[15]); */
	/*@ assert w11: w[11] == BLOCK(11,
		st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
		st[8], st[9], st[10], st[11], st[12], st[13], st[14], st[15]); */
	/*@ assert w12: w[12] == BLOCK(12,
		st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
		st[8], st[9], st[10], st[11], st[12], st[13], st[14], st[15]); */
	/*@ assert w13: w[13] == BLOCK(13,
		st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
		st[8], st[9], st[10], st[11], st[12], st[13], st[14], st[15]); */
	/*@ assert w14: w[14] == BLOCK(14,
		st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
		st[8], st[9], st[10], st[11], st[12], st[13], st[14], st[15]); */
	/*@ assert w15: w[15] == BLOCK(15,
		st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
		st[8], st[9], st[10], st[11], st[12], st[13], st[14], st[15]); */
	/*@ assert words: \forall integer j; 0 <= j < 16 ==>
	      w[j] == BLOCK(j,
		st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
		st[8], st[9], st[10], st[11], st[12], st[13], st[14], st[15]);
	 */
#endif
	xor_words(out, in, w);
}

/*
 * out[0..len-1] = in ^ the keystream of state st from block st[12] on;
 * st[12] ends as the next unused block counter (mod 2^32), the other words
 * are left as they are. Same aliasing rules as chacha20_xor.
 */
#ifdef CHACHA_XOR_SPEC
/*@ requires valid_out: \valid(out + (0 .. len - 1));
    requires valid_in: \valid_read(in + (0 .. len - 1));
    requires valid_st: \valid(st + (0 .. 15));
    requires in_place: out == in ||
                       \separated(out + (0 .. len - 1), in + (0 .. len - 1));
    requires sep_st: \separated(out + (0 .. len - 1), st + (0 .. 15));
    requires sep_in: \separated(in + (0 .. len - 1), st + (0 .. 15));
    assigns out[0 .. len - 1], st[12];
    ensures next: st[12] == CTR(\old(st[12]), (len + 63) / 64);
    ensures s0: \forall integer m, j; 0 <= m && 0 <= j < 16 &&
      64 * m + 4 * j < len ==>
      out[64 * m + 4 * j] == (uint8_t)(\old(in[64 * m + 4 * j]) ^
        BYTE0(BLOCK(j, \old(st[0]), \old(st[1]), \old(st[2]),
          \old(st[3]), \old(st[4]), \old(st[5]), \old(st[6]),
          \old(st[7]), \old(st[8]), \old(st[9]), \old(st[10]),
          \old(st[11]), CTR(\old(st[12]), m), \old(st[13]),
          \old(st[14]), \old(st[15]))));
    ensures s1: \forall integer m, j; 0 <= m && 0 <= j < 16 &&
      64 * m + 4 * j + 1 < len ==>
      out[64 * m + 4 * j + 1] == (uint8_t)(\old(in[64 * m + 4 * j + 1]) ^
        BYTE1(BLOCK(j, \old(st[0]), \old(st[1]), \old(st[2]),
          \old(st[3]), \old(st[4]), \old(st[5]), \old(st[6]),
          \old(st[7]), \old(st[8]), \old(st[9]), \old(st[10]),
          \old(st[11]), CTR(\old(st[12]), m), \old(st[13]),
          \old(st[14]), \old(st[15]))));
    ensures s2: \forall integer m, j; 0 <= m && 0 <= j < 16 &&
      64 * m + 4 * j + 2 < len ==>
      out[64 * m + 4 * j + 2] == (uint8_t)(\old(in[64 * m + 4 * j + 2]) ^
        BYTE2(BLOCK(j, \old(st[0]), \old(st[1]), \old(st[2]),
          \old(st[3]), \old(st[4]), \old(st[5]), \old(st[6]),
          \old(st[7]), \old(st[8]), \old(st[9]), \old(st[10]),
          \old(st[11]), CTR(\old(st[12]), m), \old(st[13]),
          \old(st[14]), \old(st[15]))));
    ensures s3: \forall integer m, j; 0 <= m && 0 <= j < 16 &&
      64 * m + 4 * j + 3 < len ==>
      out[64 * m + 4 * j + 3] == (uint8_t)(\old(in[64 * m + 4 * j + 3]) ^
        BYTE3(BLOCK(j, \old(st[0]), \old(st[1]), \old(st[2]),
          \old(st[3]), \old(st[4]), \old(st[5]), \old(st[6]),
          \old(st[7]), \old(st[8]), \old(st[9]), \old(st[10]),
          \old(st[11]), CTR(\old(st[12]), m), \old(st[13]),
          \old(st[14]), \old(st[15]))));
 */
#else
/*@ requires valid_out: \valid(out + (0 .. len - 1));
    requires valid_in: \valid_read(in + (0 .. len - 1));
    requires valid_st: \valid(st + (0 .. 15));
    requires in_place: out == in ||
                       \separated(out + (0 .. len - 1), in + (0 .. len - 1));
    requires sep_st: \separated(out + (0 .. len - 1), st + (0 .. 15));
    requires sep_in: \separated(in + (0 .. len - 1), st + (0 .. 15));
    assigns out[0 .. len - 1], st[12];
 */
#endif
static void xor_stream(uint8_t *out, const uint8_t *in, size_t len,
		       uint32_t st[16])
{
	size_t off = 0;

#ifdef CHACHA_XOR_SPEC
	/*@ ghost size_t blk = 0; */
	/*@ loop invariant off: off <= len && off % 64 == 0;
	    loop invariant blk: off == 64 * blk;
	    loop invariant ctr: st[12] == CTR(\at(st[12], Pre), off / 64);
	    loop invariant d0: \forall integer m, j; 0 <= m < blk &&
	      0 <= j < 16 ==> out[64 * m + 4 * j] ==
	        (uint8_t)(\at(in[64 * m + 4 * j], Pre) ^ BYTE0(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15])));
	    loop invariant d1: \forall integer m, j; 0 <= m < blk &&
	      0 <= j < 16 ==> out[64 * m + 4 * j + 1] ==
	        (uint8_t)(\at(in[64 * m + 4 * j + 1], Pre) ^ BYTE1(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15])));
	    loop invariant d2: \forall integer m, j; 0 <= m < blk &&
	      0 <= j < 16 ==> out[64 * m + 4 * j + 2] ==
	        (uint8_t)(\at(in[64 * m + 4 * j + 2], Pre) ^ BYTE2(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15])));
	    loop invariant d3: \forall integer m, j; 0 <= m < blk &&
	      0 <= j < 16 ==> out[64 * m + 4 * j + 3] ==
	        (uint8_t)(\at(in[64 * m + 4 * j + 3], Pre) ^ BYTE3(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15])));
	    loop invariant todo: \forall integer i; off <= i < len ==>
	      in[i] == \at(in[i], Pre);
	    loop assigns off, blk, st[12], out[0 .. len - 1];
	    loop variant len - off;
	 */
#else
	/*@ loop invariant off: off <= len && off % 64 == 0;
	    loop assigns off, st[12], out[0 .. len - 1];
	    loop variant len - off;
	 */
#endif
	while (len - off >= 64) {
#ifdef CHACHA_XOR_SPEC
		/*@ assert q: off / 64 == blk; */
#endif
		xor_block64(out + off, in + off, st);
#ifdef CHACHA_XOR_SPEC
		/*@ assert keep: \forall integer k; 0 <= k < off ==>
		      out[k] == \at(out[k], LoopCurrent); */
		/*@ assert n0: \forall integer m, j; m == blk && 0 <= j < 16 ==>
		      out[64 * m + 4 * j] ==
		        (uint8_t)(\at(in[64 * m + 4 * j], Pre) ^
		      BYTE0(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
		/*@ assert n1: \forall integer m, j; m == blk && 0 <= j < 16 ==>
		      out[64 * m + 4 * j + 1] ==
		        (uint8_t)(\at(in[64 * m + 4 * j + 1], Pre) ^
		      BYTE1(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
		/*@ assert n2: \forall integer m, j; m == blk && 0 <= j < 16 ==>
		      out[64 * m + 4 * j + 2] ==
		        (uint8_t)(\at(in[64 * m + 4 * j + 2], Pre) ^
		      BYTE2(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
		/*@ assert n3: \forall integer m, j; m == blk && 0 <= j < 16 ==>
		      out[64 * m + 4 * j + 3] ==
		        (uint8_t)(\at(in[64 * m + 4 * j + 3], Pre) ^
		      BYTE3(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
		/*@ assert o0: \forall integer m, j; 0 <= m < blk && 0 <= j < 16 ==>
		      out[64 * m + 4 * j] ==
		        (uint8_t)(\at(in[64 * m + 4 * j], Pre) ^
		      BYTE0(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
		/*@ assert o1: \forall integer m, j; 0 <= m < blk && 0 <= j < 16 ==>
		      out[64 * m + 4 * j + 1] ==
		        (uint8_t)(\at(in[64 * m + 4 * j + 1], Pre) ^
		      BYTE1(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
		/*@ assert o2: \forall integer m, j; 0 <= m < blk && 0 <= j < 16 ==>
		      out[64 * m + 4 * j + 2] ==
		        (uint8_t)(\at(in[64 * m + 4 * j + 2], Pre) ^
		      BYTE2(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
		/*@ assert o3: \forall integer m, j; 0 <= m < blk && 0 <= j < 16 ==>
		      out[64 * m + 4 * j + 3] ==
		        (uint8_t)(\at(in[64 * m + 4 * j + 3], Pre) ^
		      BYTE3(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
		/*@ assert p0: \forall integer m, j;
		      blk <= m <= blk && 0 <= j < 16 ==>
		      out[64 * m + 4 * j] ==
		        (uint8_t)(\at(in[64 * m + 4 * j], Pre) ^
		      BYTE0(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
		/*@ assert p1: \forall integer m, j;
		      blk <= m <= blk && 0 <= j < 16 ==>
		      out[64 * m + 4 * j + 1] ==
		        (uint8_t)(\at(in[64 * m + 4 * j + 1], Pre) ^
		      BYTE1(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
		/*@ assert p2: \forall integer m, j;
		      blk <= m <= blk && 0 <= j < 16 ==>
		      out[64 * m + 4 * j + 2] ==
		        (uint8_t)(\at(in[64 * m + 4 * j + 2], Pre) ^
		      BYTE2(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
		/*@ assert p3: \forall integer m, j;
		      blk <= m <= blk && 0 <= j < 16 ==>
		      out[64 * m + 4 * j + 3] ==
		        (uint8_t)(\at(in[64 * m + 4 * j + 3], Pre) ^
		      BYTE3(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
#endif
		st[12]++;
		off += 64;
#ifdef CHACHA_XOR_SPEC
		/*@ assert e0: \forall integer m, j;
		      0 <= m <= blk && 0 <= j < 16 ==>
		      out[64 * m + 4 * j] ==
		        (uint8_t)(\at(in[64 * m + 4 * j], Pre) ^
		      BYTE0(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
		/*@ assert e1: \forall integer m, j;
		      0 <= m <= blk && 0 <= j < 16 ==>
		      out[64 * m + 4 * j + 1] ==
		        (uint8_t)(\at(in[64 * m + 4 * j + 1], Pre) ^
		      BYTE1(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
		/*@ assert e2: \forall integer m, j;
		      0 <= m <= blk && 0 <= j < 16 ==>
		      out[64 * m + 4 * j + 2] ==
		        (uint8_t)(\at(in[64 * m + 4 * j + 2], Pre) ^
		      BYTE2(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
		/*@ assert e3: \forall integer m, j;
		      0 <= m <= blk && 0 <= j < 16 ==>
		      out[64 * m + 4 * j + 3] ==
		        (uint8_t)(\at(in[64 * m + 4 * j + 3], Pre) ^
		      BYTE3(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
		/*@ ghost blk++; */
#endif
	}
#ifdef CHACHA_XOR_SPEC
	/*@ assert c2: st[12] == CTR(\at(st[12], Pre), blk); */
	/*@ assert w0: \forall integer m, j;
	      off >= len && 0 <= m && 0 <= j < 16 &&
	      64 * m + 4 * j < len ==>
	      out[64 * m + 4 * j] == (uint8_t)(\at(in[64 * m + 4 * j], Pre) ^
	      BYTE0(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
	/*@ assert w1: \forall integer m, j;
	      off >= len && 0 <= m && 0 <= j < 16 &&
	      64 * m + 4 * j + 1 < len ==>
	      out[64 * m + 4 * j + 1] ==
	        (uint8_t)(\at(in[64 * m + 4 * j + 1], Pre) ^
	      BYTE1(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
	/*@ assert w2: \forall integer m, j;
	      off >= len && 0 <= m && 0 <= j < 16 &&
	      64 * m + 4 * j + 2 < len ==>
	      out[64 * m + 4 * j + 2] ==
	        (uint8_t)(\at(in[64 * m + 4 * j + 2], Pre) ^
	      BYTE2(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
	/*@ assert w3: \forall integer m, j;
	      off >= len && 0 <= m && 0 <= j < 16 &&
	      64 * m + 4 * j + 3 < len ==>
	      out[64 * m + 4 * j + 3] ==
	        (uint8_t)(\at(in[64 * m + 4 * j + 3], Pre) ^
	      BYTE3(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
#endif
	if (off < len) {
		/* the keystream block: the block xor over zeros */
		uint8_t ks[64] = { 0 };

		xor_block64(ks, ks, st);
#ifdef CHACHA_XOR_SPEC
		/*@ assert ks0: \forall integer j; 0 <= j < 16 ==>
		      ks[4 * j] == BYTE0(BLOCK(j, st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7], st[8], st[9],
		        st[10], st[11], st[12], st[13], st[14], st[15]));
		 */
		/*@ assert ks1: \forall integer j; 0 <= j < 16 ==>
		      ks[4 * j + 1] == BYTE1(BLOCK(j, st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7], st[8], st[9],
		        st[10], st[11], st[12], st[13], st[14], st[15]));
		 */
		/*@ assert ks2: \forall integer j; 0 <= j < 16 ==>
		      ks[4 * j + 2] == BYTE2(BLOCK(j, st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7], st[8], st[9],
		        st[10], st[11], st[12], st[13], st[14], st[15]));
		 */
		/*@ assert ks3: \forall integer j; 0 <= j < 16 ==>
		      ks[4 * j + 3] == BYTE3(BLOCK(j, st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7], st[8], st[9],
		        st[10], st[11], st[12], st[13], st[14], st[15]));
		 */
#endif
		xor_block(out + off, in + off, ks, len - off);
#ifdef CHACHA_XOR_SPEC
		/*@ assert kb0: \forall integer j; 0 <= j < 16 ==>
		      ks[4 * j] == BYTE0(BLOCK(j, st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7], st[8], st[9],
		        st[10], st[11], st[12], st[13], st[14], st[15]));
		 */
		/*@ assert kb1: \forall integer j; 0 <= j < 16 ==>
		      ks[4 * j + 1] == BYTE1(BLOCK(j, st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7], st[8], st[9],
		        st[10], st[11], st[12], st[13], st[14], st[15]));
		 */
		/*@ assert kb2: \forall integer j; 0 <= j < 16 ==>
		      ks[4 * j + 2] == BYTE2(BLOCK(j, st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7], st[8], st[9],
		        st[10], st[11], st[12], st[13], st[14], st[15]));
		 */
		/*@ assert kb3: \forall integer j; 0 <= j < 16 ==>
		      ks[4 * j + 3] == BYTE3(BLOCK(j, st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7], st[8], st[9],
		        st[10], st[11], st[12], st[13], st[14], st[15]));
		 */
		/*@ assert kc0: \forall integer j; 0 <= j < 16 ==>
		      ks[4 * j] == BYTE0(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), blk),
	        st[13], st[14], st[15])); */
		/*@ assert kc1: \forall integer j; 0 <= j < 16 ==>
		      ks[4 * j + 1] == BYTE1(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), blk),
	        st[13], st[14], st[15])); */
		/*@ assert kc2: \forall integer j; 0 <= j < 16 ==>
		      ks[4 * j + 2] == BYTE2(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), blk),
	        st[13], st[14], st[15])); */
		/*@ assert kc3: \forall integer j; 0 <= j < 16 ==>
		      ks[4 * j + 3] == BYTE3(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), blk),
	        st[13], st[14], st[15])); */
		/*@ assert ta0: \forall integer j; 0 <= j < 16 &&
		      off + 4 * j + 0 < len ==> \let k = off + 4 * j + 0;
		      out[k] == (uint8_t)(\at(in[k], Pre) ^ ks[4 * j + 0]); */
		/*@ assert ta1: \forall integer j; 0 <= j < 16 &&
		      off + 4 * j + 1 < len ==> \let k = off + 4 * j + 1;
		      out[k] == (uint8_t)(\at(in[k], Pre) ^ ks[4 * j + 1]); */
		/*@ assert ta2: \forall integer j; 0 <= j < 16 &&
		      off + 4 * j + 2 < len ==> \let k = off + 4 * j + 2;
		      out[k] == (uint8_t)(\at(in[k], Pre) ^ ks[4 * j + 2]); */
		/*@ assert ta3: \forall integer j; 0 <= j < 16 &&
		      off + 4 * j + 3 < len ==> \let k = off + 4 * j + 3;
		      out[k] == (uint8_t)(\at(in[k], Pre) ^ ks[4 * j + 3]); */
		/*@ assert t0: \forall integer j;
		      0 <= j < 16 && off + 4 * j < len ==>
		      \let k = off + 4 * j;
		      out[k] == (uint8_t)(\at(in[k], Pre) ^
		      BYTE0(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), blk),
	        st[13], st[14], st[15]))); */
		/*@ assert t1: \forall integer j;
		      0 <= j < 16 && off + 4 * j + 1 < len ==>
		      \let k = off + 4 * j + 1;
		      out[k] == (uint8_t)(\at(in[k], Pre) ^
		      BYTE1(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), blk),
	        st[13], st[14], st[15]))); */
		/*@ assert t2: \forall integer j;
		      0 <= j < 16 && off + 4 * j + 2 < len ==>
		      \let k = off + 4 * j + 2;
		      out[k] == (uint8_t)(\at(in[k], Pre) ^
		      BYTE2(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), blk),
	        st[13], st[14], st[15]))); */
		/*@ assert t3: \forall integer j;
		      0 <= j < 16 && off + 4 * j + 3 < len ==>
		      \let k = off + 4 * j + 3;
		      out[k] == (uint8_t)(\at(in[k], Pre) ^
		      BYTE3(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), blk),
	        st[13], st[14], st[15]))); */
		/*@ assert u0: \forall integer m, j; 0 <= m < blk && 0 <= j < 16 ==>
		      out[64 * m + 4 * j] ==
		        (uint8_t)(\at(in[64 * m + 4 * j], Pre) ^
		      BYTE0(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
		/*@ assert u1: \forall integer m, j; 0 <= m < blk && 0 <= j < 16 ==>
		      out[64 * m + 4 * j + 1] ==
		        (uint8_t)(\at(in[64 * m + 4 * j + 1], Pre) ^
		      BYTE1(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
		/*@ assert u2: \forall integer m, j; 0 <= m < blk && 0 <= j < 16 ==>
		      out[64 * m + 4 * j + 2] ==
		        (uint8_t)(\at(in[64 * m + 4 * j + 2], Pre) ^
		      BYTE2(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
		/*@ assert u3: \forall integer m, j; 0 <= m < blk && 0 <= j < 16 ==>
		      out[64 * m + 4 * j + 3] ==
		        (uint8_t)(\at(in[64 * m + 4 * j + 3], Pre) ^
		      BYTE3(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
		/*@ assert r0: \forall integer m, j;
		      blk <= m <= blk && 0 <= j < 16 &&
		      64 * m + 4 * j < len ==>
		      out[64 * m + 4 * j] ==
		        (uint8_t)(\at(in[64 * m + 4 * j], Pre) ^
		      BYTE0(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
		/*@ assert r1: \forall integer m, j;
		      blk <= m <= blk && 0 <= j < 16 &&
		      64 * m + 4 * j + 1 < len ==>
		      out[64 * m + 4 * j + 1] ==
		        (uint8_t)(\at(in[64 * m + 4 * j + 1], Pre) ^
		      BYTE1(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
		/*@ assert r2: \forall integer m, j;
		      blk <= m <= blk && 0 <= j < 16 &&
		      64 * m + 4 * j + 2 < len ==>
		      out[64 * m + 4 * j + 2] ==
		        (uint8_t)(\at(in[64 * m + 4 * j + 2], Pre) ^
		      BYTE2(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
		/*@ assert r3: \forall integer m, j;
		      blk <= m <= blk && 0 <= j < 16 &&
		      64 * m + 4 * j + 3 < len ==>
		      out[64 * m + 4 * j + 3] ==
		        (uint8_t)(\at(in[64 * m + 4 * j + 3], Pre) ^
		      BYTE3(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
		/*@ assert v0: \forall integer m, j; 0 <= m && 0 <= j < 16 &&
		      64 * m + 4 * j < len ==>
		      out[64 * m + 4 * j] ==
		        (uint8_t)(\at(in[64 * m + 4 * j], Pre) ^
		      BYTE0(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
		/*@ assert v1: \forall integer m, j; 0 <= m && 0 <= j < 16 &&
		      64 * m + 4 * j + 1 < len ==>
		      out[64 * m + 4 * j + 1] ==
		        (uint8_t)(\at(in[64 * m + 4 * j + 1], Pre) ^
		      BYTE1(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
		/*@ assert v2: \forall integer m, j; 0 <= m && 0 <= j < 16 &&
		      64 * m + 4 * j + 2 < len ==>
		      out[64 * m + 4 * j + 2] ==
		        (uint8_t)(\at(in[64 * m + 4 * j + 2], Pre) ^
		      BYTE2(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
		/*@ assert v3: \forall integer m, j; 0 <= m && 0 <= j < 16 &&
		      64 * m + 4 * j + 3 < len ==>
		      out[64 * m + 4 * j + 3] ==
		        (uint8_t)(\at(in[64 * m + 4 * j + 3], Pre) ^
		      BYTE3(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
#endif
		st[12]++;
		ct_wipe(ks, sizeof(ks));
#ifdef CHACHA_XOR_SPEC
		/*@ assert x0: \forall integer m, j;
		      0 <= m && 0 <= j < 16 && 64 * m + 4 * j < len ==>
		      out[64 * m + 4 * j] ==
		        (uint8_t)(\at(in[64 * m + 4 * j], Pre) ^
		      BYTE0(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
		/*@ assert x1: \forall integer m, j;
		      0 <= m && 0 <= j < 16 && 64 * m + 4 * j + 1 < len ==>
		      out[64 * m + 4 * j + 1] ==
		        (uint8_t)(\at(in[64 * m + 4 * j + 1], Pre) ^
		      BYTE1(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
		/*@ assert x2: \forall integer m, j;
		      0 <= m && 0 <= j < 16 && 64 * m + 4 * j + 2 < len ==>
		      out[64 * m + 4 * j + 2] ==
		        (uint8_t)(\at(in[64 * m + 4 * j + 2], Pre) ^
		      BYTE2(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
		/*@ assert x3: \forall integer m, j;
		      0 <= m && 0 <= j < 16 && 64 * m + 4 * j + 3 < len ==>
		      out[64 * m + 4 * j + 3] ==
		        (uint8_t)(\at(in[64 * m + 4 * j + 3], Pre) ^
		      BYTE3(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
#endif
	}
#ifdef CHACHA_XOR_SPEC
	/*@ assert fr: st[0] == \at(st[0], Pre)
	      && st[1] == \at(st[1], Pre)
	      && st[2] == \at(st[2], Pre)
	      && st[3] == \at(st[3], Pre)
	      && st[4] == \at(st[4], Pre)
	      && st[5] == \at(st[5], Pre)
	      && st[6] == \at(st[6], Pre)
	      && st[7] == \at(st[7], Pre)
	      && st[8] == \at(st[8], Pre)
	      && st[9] == \at(st[9], Pre)
	      && st[10] == \at(st[10], Pre)
	      && st[11] == \at(st[11], Pre)
	      && st[13] == \at(st[13], Pre)
	      && st[14] == \at(st[14], Pre)
	      && st[15] == \at(st[15], Pre); */
	/*@ assert fa0: off < len ==> \forall integer m, j;
	      0 <= m && 0 <= j < 16 && 64 * m + 4 * j < len ==>
	      out[64 * m + 4 * j] ==
	        (uint8_t)(\at(in[64 * m + 4 * j], Pre) ^
	      BYTE0(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
	/*@ assert fa1: off < len ==> \forall integer m, j;
	      0 <= m && 0 <= j < 16 && 64 * m + 4 * j + 1 < len ==>
	      out[64 * m + 4 * j + 1] ==
	        (uint8_t)(\at(in[64 * m + 4 * j + 1], Pre) ^
	      BYTE1(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
	/*@ assert fa2: off < len ==> \forall integer m, j;
	      0 <= m && 0 <= j < 16 && 64 * m + 4 * j + 2 < len ==>
	      out[64 * m + 4 * j + 2] ==
	        (uint8_t)(\at(in[64 * m + 4 * j + 2], Pre) ^
	      BYTE2(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
	/*@ assert fa3: off < len ==> \forall integer m, j;
	      0 <= m && 0 <= j < 16 && 64 * m + 4 * j + 3 < len ==>
	      out[64 * m + 4 * j + 3] ==
	        (uint8_t)(\at(in[64 * m + 4 * j + 3], Pre) ^
	      BYTE3(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
	/*@ assert fb0: off >= len ==> \forall integer m, j;
	      0 <= m && 0 <= j < 16 && 64 * m + 4 * j < len ==>
	      out[64 * m + 4 * j] ==
	        (uint8_t)(\at(in[64 * m + 4 * j], Pre) ^
	      BYTE0(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
	/*@ assert fb1: off >= len ==> \forall integer m, j;
	      0 <= m && 0 <= j < 16 && 64 * m + 4 * j + 1 < len ==>
	      out[64 * m + 4 * j + 1] ==
	        (uint8_t)(\at(in[64 * m + 4 * j + 1], Pre) ^
	      BYTE1(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
	/*@ assert fb2: off >= len ==> \forall integer m, j;
	      0 <= m && 0 <= j < 16 && 64 * m + 4 * j + 2 < len ==>
	      out[64 * m + 4 * j + 2] ==
	        (uint8_t)(\at(in[64 * m + 4 * j + 2], Pre) ^
	      BYTE2(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
	/*@ assert fb3: off >= len ==> \forall integer m, j;
	      0 <= m && 0 <= j < 16 && 64 * m + 4 * j + 3 < len ==>
	      out[64 * m + 4 * j + 3] ==
	        (uint8_t)(\at(in[64 * m + 4 * j + 3], Pre) ^
	      BYTE3(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
	/*@ assert f0: \forall integer m, j;
	      0 <= m && 0 <= j < 16 && 64 * m + 4 * j < len ==>
	      out[64 * m + 4 * j] ==
	        (uint8_t)(\at(in[64 * m + 4 * j], Pre) ^
	      BYTE0(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
	/*@ assert f1: \forall integer m, j;
	      0 <= m && 0 <= j < 16 && 64 * m + 4 * j + 1 < len ==>
	      out[64 * m + 4 * j + 1] ==
	        (uint8_t)(\at(in[64 * m + 4 * j + 1], Pre) ^
	      BYTE1(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
	/*@ assert f2: \forall integer m, j;
	      0 <= m && 0 <= j < 16 && 64 * m + 4 * j + 2 < len ==>
	      out[64 * m + 4 * j + 2] ==
	        (uint8_t)(\at(in[64 * m + 4 * j + 2], Pre) ^
	      BYTE2(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
	/*@ assert f3: \forall integer m, j;
	      0 <= m && 0 <= j < 16 && 64 * m + 4 * j + 3 < len ==>
	      out[64 * m + 4 * j + 3] ==
	        (uint8_t)(\at(in[64 * m + 4 * j + 3], Pre) ^
	      BYTE3(BLOCK(j,
	        st[0], st[1], st[2], st[3], st[4], st[5], st[6], st[7],
	        st[8], st[9], st[10], st[11], CTR(\at(st[12], Pre), m),
	        st[13], st[14], st[15]))); */
#endif
}

/* see chacha20/ref.h */
uint32_t chacha20_xor(uint8_t *out, const uint8_t *in, size_t len,
		      const uint8_t key[32], uint32_t counter,
		      const uint8_t nonce[12])
{
	uint32_t st[16];

	/* the state is set up once; each block only bumps word 12 */
	init_state(st, key, counter, nonce);
	xor_stream(out, in, len, st);
	counter = st[12];
	wipe_words(st);
	return counter;
}

/* x = the HChaCha20 state after the 20 rounds (no final addition) */
/*@ requires valid_x: \valid(x + (0 .. 15));
    requires valid_key: \valid_read(key + (0 .. 31));
    requires valid_nonce: \valid_read(nonce + (0 .. 15));
    requires sep_key: \separated(x + (0 .. 15), key + (0 .. 31));
    requires sep_nonce: \separated(x + (0 .. 15), nonce + (0 .. 15));
    assigns x[0 .. 15];
    ensures hwords: \forall integer j; 0 <= j < 4 || 12 <= j < 16 ==>
      x[j] == HCHACHA(j, KW(key, 0), KW(key, 1), KW(key, 2), KW(key, 3),
                      KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7),
                      KW(nonce, 0), KW(nonce, 1), KW(nonce, 2),
                      KW(nonce, 3));
 */
static CHACHA_INLINE void hchacha_words(uint32_t x[16], const uint8_t key[32],
					const uint8_t nonce[16])
{
	init_state(x, key, load32_le(nonce), nonce + 4);
	rounds20(x);
	/*@ assert rounds: \forall integer j; 0 <= j < 16 ==>
	      x[j] == ROUNDS(10, j,
	        0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
	        KW(key, 0), KW(key, 1), KW(key, 2), KW(key, 3),
	        KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), KW(nonce, 0),
	        KW(nonce, 1), KW(nonce, 2), KW(nonce, 3));
	 */
}

/* see chacha20/ref.h */
void hchacha20(uint8_t out[32], const uint8_t key[32], const uint8_t nonce[16])
{
	uint32_t x[16];

	hchacha_words(x, key, nonce);
	/* written out: each store's goal is one step (out may equal key) */
	store32_le(out, x[0]);
	store32_le(out + 4, x[1]);
	store32_le(out + 8, x[2]);
	store32_le(out + 12, x[3]);
	store32_le(out + 16, x[12]);
	store32_le(out + 20, x[13]);
	store32_le(out + 24, x[14]);
	store32_le(out + 28, x[15]);
	/*@ assert o0: out[0] == BYTE0(x[0]) && out[1] == BYTE1(x[0]) &&
	      out[2] == BYTE2(x[0]) && out[3] == BYTE3(x[0]); */
	/*@ assert o1: out[4] == BYTE0(x[1]) && out[5] == BYTE1(x[1]) &&
	      out[6] == BYTE2(x[1]) && out[7] == BYTE3(x[1]); */
	/*@ assert o2: out[8] == BYTE0(x[2]) && out[9] == BYTE1(x[2]) &&
	      out[10] == BYTE2(x[2]) && out[11] == BYTE3(x[2]); */
	/*@ assert o3: out[12] == BYTE0(x[3]) && out[13] == BYTE1(x[3]) &&
	      out[14] == BYTE2(x[3]) && out[15] == BYTE3(x[3]); */
	/*@ assert o4: out[16] == BYTE0(x[12]) && out[17] == BYTE1(x[12]) &&
	      out[18] == BYTE2(x[12]) && out[19] == BYTE3(x[12]); */
	/*@ assert o5: out[20] == BYTE0(x[13]) && out[21] == BYTE1(x[13]) &&
	      out[22] == BYTE2(x[13]) && out[23] == BYTE3(x[13]); */
	/*@ assert o6: out[24] == BYTE0(x[14]) && out[25] == BYTE1(x[14]) &&
	      out[26] == BYTE2(x[14]) && out[27] == BYTE3(x[14]); */
	/*@ assert o7: out[28] == BYTE0(x[15]) && out[29] == BYTE1(x[15]) &&
	      out[30] == BYTE2(x[15]) && out[31] == BYTE3(x[15]); */
	/*@ assert h0: x[0] == \at(HC(0, key, nonce), Pre); */
	/*@ assert h1: x[1] == \at(HC(1, key, nonce), Pre); */
	/*@ assert h2: x[2] == \at(HC(2, key, nonce), Pre); */
	/*@ assert h3: x[3] == \at(HC(3, key, nonce), Pre); */
	/*@ assert h4: x[12] == \at(HC(4, key, nonce), Pre); */
	/*@ assert h5: x[13] == \at(HC(5, key, nonce), Pre); */
	/*@ assert h6: x[14] == \at(HC(6, key, nonce), Pre); */
	/*@ assert h7: x[15] == \at(HC(7, key, nonce), Pre); */
	wipe_words(x);
}

/* see chacha20/ref.h */
uint32_t xchacha20_xor(uint8_t *out, const uint8_t *in, size_t len,
		       const uint8_t key[32], uint32_t counter,
		       const uint8_t nonce[24])
{
	uint8_t subkey[32];
	uint8_t n12[12] = { 0 };
	uint32_t next;

	hchacha20(subkey, key, nonce);
	/*@ loop invariant 0 <= i <= 8;
	    loop assigns i, n12[4 .. 11];
	    loop variant 8 - i;
	 */
	for (int i = 0; i < 8; i++)
		n12[4 + i] = nonce[16 + i];
	next = chacha20_xor(out, in, len, subkey, counter, n12);
	ct_wipe(subkey, sizeof(subkey));
	return next;
}
