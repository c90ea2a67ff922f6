/* SPDX-License-Identifier: MIT */
/*
 * ChaCha20-Poly1305 and XChaCha20-Poly1305: the one composition, at every
 * CPU level (the kernels through aead/kern.h). See aead/chachapoly.h.
 * Spec: RFC 8439 section 2.8 (Poly1305 key from block 0, text from block
 * 1, MAC over ad | pad16 | c | pad16 | le64(adlen) | le64(clen));
 * draft-irtf-cfrg-xchacha-03 section 2.3.
 * Depends on: aead/kern.h (the entry points, with the contracts of
 * chacha20/ref.h and poly1305/ref.h), ct.h.
 * Constant time: yes; open compares tags with ct_compare before it touches
 * the output. Seals and opens take the level's stitched bodies when it
 * has them (opens decrypt into a private buffer, copied out only after
 * the tag check, and wiped).
 * Contracts: aead/chachapoly.h over spec/aead.acsl; proved by WP
 * (component aead) against the aead/kern.h entry points' contracts.
 */
#include "crypto/aead/chachapoly.h"
#include "crypto/aead/kern.h"
#include "crypto/ct.h"

/* The Poly1305 one-time key (RFC 8439 2.6): ChaCha20 block 0 under (key,
 * nonce) over 64 zero bytes; its words 0..7 (o0..o7, block counter
 * CTR(0, 0), i.e. 0, written so that chacha20_xor's clauses match). */
/*@ requires valid_otk: \valid(otk + (0 .. 63));
    requires valid_key: \valid_read(key + (0 .. 31));
    requires valid_nonce: \valid_read(nonce + (0 .. 11));
    requires sep: \separated(otk + (0 .. 63), key + (0 .. 31)) &&
                  \separated(otk + (0 .. 63), nonce + (0 .. 11));
    requires zero: \forall integer i; 0 <= i < 64 ==> otk[i] == 0;
    assigns otk[0 .. 63];
    ensures o0: \let w = \old(CHACHA(0, KW(key, 0), KW(key, 1), KW(key, 2),
      KW(key, 3), KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), CTR(0, 0),
      KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)));
      otk[0] == BYTE0(w) && otk[1] == BYTE1(w) &&
      otk[2] == BYTE2(w) && otk[3] == BYTE3(w);
    ensures o1: \let w = \old(CHACHA(1, KW(key, 0), KW(key, 1), KW(key, 2),
      KW(key, 3), KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), CTR(0, 0),
      KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)));
      otk[4] == BYTE0(w) && otk[5] == BYTE1(w) &&
      otk[6] == BYTE2(w) && otk[7] == BYTE3(w);
    ensures o2: \let w = \old(CHACHA(2, KW(key, 0), KW(key, 1), KW(key, 2),
      KW(key, 3), KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), CTR(0, 0),
      KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)));
      otk[8] == BYTE0(w) && otk[9] == BYTE1(w) &&
      otk[10] == BYTE2(w) && otk[11] == BYTE3(w);
    ensures o3: \let w = \old(CHACHA(3, KW(key, 0), KW(key, 1), KW(key, 2),
      KW(key, 3), KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), CTR(0, 0),
      KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)));
      otk[12] == BYTE0(w) && otk[13] == BYTE1(w) &&
      otk[14] == BYTE2(w) && otk[15] == BYTE3(w);
    ensures o4: \let w = \old(CHACHA(4, KW(key, 0), KW(key, 1), KW(key, 2),
      KW(key, 3), KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), CTR(0, 0),
      KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)));
      otk[16] == BYTE0(w) && otk[17] == BYTE1(w) &&
      otk[18] == BYTE2(w) && otk[19] == BYTE3(w);
    ensures o5: \let w = \old(CHACHA(5, KW(key, 0), KW(key, 1), KW(key, 2),
      KW(key, 3), KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), CTR(0, 0),
      KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)));
      otk[20] == BYTE0(w) && otk[21] == BYTE1(w) &&
      otk[22] == BYTE2(w) && otk[23] == BYTE3(w);
    ensures o6: \let w = \old(CHACHA(6, KW(key, 0), KW(key, 1), KW(key, 2),
      KW(key, 3), KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), CTR(0, 0),
      KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)));
      otk[24] == BYTE0(w) && otk[25] == BYTE1(w) &&
      otk[26] == BYTE2(w) && otk[27] == BYTE3(w);
    ensures o7: \let w = \old(CHACHA(7, KW(key, 0), KW(key, 1), KW(key, 2),
      KW(key, 3), KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), CTR(0, 0),
      KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)));
      otk[28] == BYTE0(w) && otk[29] == BYTE1(w) &&
      otk[30] == BYTE2(w) && otk[31] == BYTE3(w);
 */
static void otk_gen(uint8_t otk[64], const uint8_t key[32],
		    const uint8_t nonce[12])
{
	kern_chacha20_xor(otk, otk, 64, key, 0, nonce);
}

/* Start the MAC with the one-time key, then wipe the key. */
/*@ requires valid_st: \valid(st);
    requires valid_key: \valid_read(key + (0 .. 31));
    requires valid_nonce: \valid_read(nonce + (0 .. 11));
    requires sep: \separated(st, key + (0 .. 31)) &&
                  \separated(st, nonce + (0 .. 11));
    assigns st->r[0 .. 3], st->h[0 .. 4], st->s[0 .. 3], st->buflen;
    ensures buflen: st->buflen == 0;
    ensures limbs: st->h[0] < 67108864 && st->h[1] < 67108864 + 4096 &&
                   st->h[2] < 67108864 && st->h[3] < 67108864 &&
                   st->h[4] < 67108864 && st->r[0] <= 0x0fffffff &&
                   st->r[1] <= 0x0ffffffc && st->r[2] <= 0x0ffffffc &&
                   st->r[3] <= 0x0ffffffc;
    ensures mul4: st_mul4(st);
    ensures zero: st->h[0] == 0 && st->h[1] == 0 && st->h[2] == 0 &&
                  st->h[3] == 0 && st->h[4] == 0;
    ensures r: S4(st->r[0], st->r[1], st->r[2], st->r[3]) ==
      \old(AEAD_R(KW(key, 0), KW(key, 1), KW(key, 2), KW(key, 3),
        KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), KW(nonce, 0),
        KW(nonce, 1), KW(nonce, 2)));
    ensures s: S4(st->s[0], st->s[1], st->s[2], st->s[3]) ==
      \old(AEAD_S(KW(key, 0), KW(key, 1), KW(key, 2), KW(key, 3),
        KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), KW(nonce, 0),
        KW(nonce, 1), KW(nonce, 2)));
 */
static void mac_key(struct poly1305 *st, const uint8_t key[32],
		    const uint8_t nonce[12])
{
	uint8_t otk[64] = { 0 };

	otk_gen(otk, key, nonce);
	/*@ assert ctr0: CTR(0, 0) == 0; */
	kern_poly1305_init(st, otk);
	ct_wipe(otk, sizeof(otk));
}

/* le64(a) | le64(b), the length block of RFC 8439 2.8, as four
 * little-endian 32-bit halves: the model's LENBLK (spec/aead.acsl) as the
 * block loop reads it (ZLEN16). */
/*@ requires valid: \valid(p + (0 .. 15));
    assigns p[0 .. 15];
    ensures len: ZLEN16(p, 0, 16) == LENBLK(a, b);
 */
static void store_lens(uint8_t p[16], uint64_t a, uint64_t b)
{
	store32_le(p, (uint32_t)(a % 0x100000000U));
	store32_le(p + 4, (uint32_t)(a / 0x100000000U));
	store32_le(p + 8, (uint32_t)(b % 0x100000000U));
	store32_le(p + 12, (uint32_t)(b / 0x100000000U));
}

/* The tag of RFC 8439 2.8: Poly1305 under the one-time key (ChaCha20
 * block 0) over ad | pad16 | c | pad16 | le64(adlen) | le64(len).
 * Proved (clause tag): the MAC state starts with the model's r and s
 * (mac_key), each pad16 absorbs the model's zero-padded blocks mod p
 * (kern_poly1305_pad16's acc: POLY_PAD depends on its start value mod p
 * only, so the three calls chain), the length block is
 * adlen + 2^64 len (store_lens), and finish gives the bytes of
 * (acc + s) mod 2^128. No byte is written between the function's entry and
 * the last read of ad and c (mac_key writes only the state's words), so
 * the model's terms are those at entry. */
/*@ requires valid_tag: \valid(tag + (0 .. 15));
    requires valid_c: \valid_read(c + (0 .. len - 1));
    requires valid_ad: \valid_read(ad + (0 .. adlen - 1));
    requires valid_key: \valid_read(key + (0 .. 31));
    requires valid_nonce: \valid_read(nonce + (0 .. 11));
    requires sep: \separated(tag + (0 .. 15), c + (0 .. len - 1)) &&
                  \separated(tag + (0 .. 15), ad + (0 .. adlen - 1)) &&
                  \separated(tag + (0 .. 15), key + (0 .. 31)) &&
                  \separated(tag + (0 .. 15), nonce + (0 .. 11));
    assigns tag[0 .. 15];
    ensures tag: \forall integer i; 0 <= i < 16 ==>
      tag[i] == \old(EXPECTED_TAG(i, key, nonce, ad, adlen, c, len));
 */
static void aead_tag(uint8_t tag[16], const uint8_t *c, size_t len,
		     const uint8_t *ad, size_t adlen, const uint8_t key[32],
		     const uint8_t nonce[12])
{
	struct poly1305 st;
	uint8_t lens[16];

	mac_key(&st, key, nonce);
	kern_poly1305_pad16(&st, ad, adlen);
	/*@ assert t_ad: H5(st.h[0], st.h[1], st.h[2], st.h[3], st.h[4]) % POLY_P ==
	      POLY_PAD(0, ad, adlen, S4(st.r[0], st.r[1], st.r[2], st.r[3])) % POLY_P &&
	      0 <= POLY_PAD(0, ad, adlen, S4(st.r[0], st.r[1], st.r[2], st.r[3]));
	 */
	kern_poly1305_pad16(&st, c, len);
	/*@ assert t_c: H5(st.h[0], st.h[1], st.h[2], st.h[3], st.h[4]) % POLY_P ==
	      POLY_PAD(POLY_PAD(0, ad, adlen, S4(st.r[0], st.r[1], st.r[2], st.r[3])), c, len, S4(st.r[0], st.r[1], st.r[2], st.r[3])) %
	      POLY_P &&
	      0 <= POLY_PAD(POLY_PAD(0, ad, adlen, S4(st.r[0], st.r[1], st.r[2], st.r[3])), c, len, S4(st.r[0], st.r[1], st.r[2], st.r[3]));
	 */
#ifdef __FRAMAC__
c_done:
#endif
	store_lens(lens, (uint64_t)adlen, (uint64_t)len);
	/*@ assert t_l1: NBLK(16) == 1 &&
	      POLY_PAD(H5(st.h[0], st.h[1], st.h[2], st.h[3], st.h[4]), &lens[0], 16, S4(st.r[0], st.r[1], st.r[2], st.r[3])) ==
	      POLY_PADN(H5(st.h[0], st.h[1], st.h[2], st.h[3], st.h[4]) % POLY_P, &lens[0], 16, S4(st.r[0], st.r[1], st.r[2], st.r[3]), 1);
	 */
	/*@ assert t_l2: POLY_PADN(H5(st.h[0], st.h[1], st.h[2], st.h[3], st.h[4]) % POLY_P, &lens[0], 16, S4(st.r[0], st.r[1], st.r[2], st.r[3]), 1) ==
	      POLY_STEP(H5(st.h[0], st.h[1], st.h[2], st.h[3], st.h[4]) % POLY_P, PAD_BLOCK(&lens[0], 16, 0), S4(st.r[0], st.r[1], st.r[2], st.r[3]));
	 */
	/*@ assert t_lens: PAD_BLOCK(&lens[0], 16, 0) ==
	      LENBLK(adlen, len) + P2_128;
	 */
	kern_poly1305_pad16(&st, lens, 16);
	/*@ assert t_len: H5(st.h[0], st.h[1], st.h[2], st.h[3], st.h[4]) % POLY_P == POLY_STEP(\at(H5(st.h[0], st.h[1], st.h[2], st.h[3], st.h[4]), c_done) %
	      POLY_P, LENBLK(adlen, len) + P2_128, S4(st.r[0], st.r[1], st.r[2], st.r[3])) % POLY_P;
	 */
	/*@ assert t_acc1: \let R = S4(st.r[0], st.r[1], st.r[2], st.r[3]);
	      POLY_STEP(\at(H5(st.h[0], st.h[1], st.h[2], st.h[3], st.h[4]), c_done) % POLY_P,
	        LENBLK(adlen, len) + P2_128, R) ==
	      \at(AEAD_ACC(R, ad, adlen, c, len), Pre);
	 */
	/*@ assert t_acc: \let R = S4(st.r[0], st.r[1], st.r[2], st.r[3]);
	      H5(st.h[0], st.h[1], st.h[2], st.h[3], st.h[4]) % POLY_P == \at(AEAD_ACC(R, ad, adlen, c, len), Pre);
	 */
	kern_poly1305_finish(&st, tag);
}

/* see aead/chachapoly.h */
void chachapoly_seal(uint8_t *c, uint8_t tag[16], const uint8_t *m, size_t len,
		     const uint8_t *ad, size_t adlen, const uint8_t key[32],
		     const uint8_t nonce[12])
{
	if (kern_chachapoly_seal_body(c, tag, m, len, ad, adlen, key, nonce))
		return;
	kern_chacha20_xor(c, m, len, key, 1, nonce);
#ifdef __FRAMAC__
mac:
#endif
	aead_tag(tag, c, len, ad, adlen, key, nonce);
#ifdef __FRAMAC__
	/* Proof only: the tag bytes just written are not the AD, the
	 * ciphertext, the key or the nonce, so the model's tag over them is
	 * the one aead_tag computed (framing, by induction on the blocks) */
	size_t n, nba, nbc;

	nba = adlen / 16;
	if (adlen % 16 != 0)
		nba++;
	/*@ assert fr_nb: nba == NBLK(adlen); */
	/*@ loop invariant fr_n: 0 <= n <= nba;
	    loop invariant fr_ad: \forall integer h, r; \let k = n;
	      POLY_PADN(h, ad, adlen, r, k) ==
	      \at(POLY_PADN(h, ad, adlen, r, k), mac);
	    loop assigns n;
	    loop variant nba - n;
	 */
	for (n = 0; n < nba; n++) {
		/*@ assert fr_blk: \let k = n; PAD_BLOCK(ad, adlen, k) ==
		      \at(PAD_BLOCK(ad, adlen, k), mac);
		 */
	}
	/*@ assert fr_ad: \forall integer h, r;
	      POLY_PAD(h, ad, adlen, r) == \at(POLY_PAD(h, ad, adlen, r), mac);
	 */
	nbc = len / 16;
	if (len % 16 != 0)
		nbc++;
	/*@ assert fr_nb: nbc == NBLK(len); */
	/*@ loop invariant fr_n: 0 <= n <= nbc;
	    loop invariant fr_c: \forall integer h, r; \let k = n;
	      POLY_PADN(h, c, len, r, k) ==
	      \at(POLY_PADN(h, c, len, r, k), mac);
	    loop assigns n;
	    loop variant nbc - n;
	 */
	for (n = 0; n < nbc; n++) {
		/*@ assert fr_blk: \let k = n; PAD_BLOCK(c, len, k) ==
		      \at(PAD_BLOCK(c, len, k), mac);
		 */
	}
	/*@ assert fr_c: \forall integer h, r;
	      POLY_PAD(h, c, len, r) == \at(POLY_PAD(h, c, len, r), mac);
	 */
	/*@ assert fr_kw: KW(key, 0) == \at(KW(key, 0), mac) &&
	      KW(key, 1) == \at(KW(key, 1), mac) &&
	      KW(key, 2) == \at(KW(key, 2), mac) &&
	      KW(key, 3) == \at(KW(key, 3), mac) &&
	      KW(key, 4) == \at(KW(key, 4), mac) &&
	      KW(key, 5) == \at(KW(key, 5), mac) &&
	      KW(key, 6) == \at(KW(key, 6), mac) &&
	      KW(key, 7) == \at(KW(key, 7), mac) &&
	      KW(nonce, 0) == \at(KW(nonce, 0), mac) &&
	      KW(nonce, 1) == \at(KW(nonce, 1), mac) &&
	      KW(nonce, 2) == \at(KW(nonce, 2), mac);
	 */
	/*@ assert fr_acc: \forall integer r;
	      AEAD_ACC(r, ad, adlen, c, len) ==
	      \at(AEAD_ACC(r, ad, adlen, c, len), mac);
	 */
	/*@ assert fr_t: \forall integer i, r, s;
	      AEAD_TAG(i, r, s, ad, adlen, c, len) ==
	      \at(AEAD_TAG(i, r, s, ad, adlen, c, len), mac);
	 */
	/*@ assert fr_r: AEAD_R(KW(key, 0), KW(key, 1), KW(key, 2), KW(key, 3),
	      KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), KW(nonce, 0),
	      KW(nonce, 1), KW(nonce, 2)) == \at(AEAD_R(KW(key, 0), KW(key, 1),
	      KW(key, 2), KW(key, 3), KW(key, 4), KW(key, 5), KW(key, 6),
	      KW(key, 7), KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)), mac) &&
	      AEAD_S(KW(key, 0), KW(key, 1), KW(key, 2), KW(key, 3),
	      KW(key, 4), KW(key, 5), KW(key, 6), KW(key, 7), KW(nonce, 0),
	      KW(nonce, 1), KW(nonce, 2)) == \at(AEAD_S(KW(key, 0), KW(key, 1),
	      KW(key, 2), KW(key, 3), KW(key, 4), KW(key, 5), KW(key, 6),
	      KW(key, 7), KW(nonce, 0), KW(nonce, 1), KW(nonce, 2)), mac);
	 */
	/*@ assert fr_tag: \forall integer i; 0 <= i < 16 ==>
	      EXPECTED_TAG(i, key, nonce, ad, adlen, c, len) ==
	      \at(EXPECTED_TAG(i, key, nonce, ad, adlen, c, len), mac);
	 */
#endif
}

/* The level's stitched open body (the caller saw
 * kern_chachapoly_open_body_avail(len)): the plaintext into the caller's
 * private buffer plain, and the tag check; returns 0 when the tag is the
 * model's (constant time: ct_compare). */
/*@ requires avail: KERN_OPEN_AVAIL(len) && len <= 4096;
    requires valid_plain: \valid(plain + (0 .. len - 1));
    requires valid_c: \valid_read(c + (0 .. len - 1));
    requires valid_tag: \valid_read(tag + (0 .. 15));
    requires valid_ad: \valid_read(ad + (0 .. adlen - 1));
    requires valid_key: \valid_read(key + (0 .. 31));
    requires valid_nonce: \valid_read(nonce + (0 .. 11));
    requires sep: \separated(plain + (0 .. len - 1), c + (0 .. len - 1)) &&
                  \separated(plain + (0 .. len - 1), tag + (0 .. 15)) &&
                  \separated(plain + (0 .. len - 1), ad + (0 .. adlen - 1)) &&
                  \separated(plain + (0 .. len - 1), key + (0 .. 31)) &&
                  \separated(plain + (0 .. len - 1), nonce + (0 .. 11));
    assigns plain[0 .. len - 1];
    ensures forged: !\old(tag_ok(key, nonce, ad, adlen, c, len, tag)) ==>
      \result != 0;
    ensures authentic: \old(tag_ok(key, nonce, ad, adlen, c, len, tag)) ==>
      \result == 0;
 */
static int body_check(uint8_t *plain, const uint8_t *c, size_t len,
		      const uint8_t tag[16], const uint8_t *ad, size_t adlen,
		      const uint8_t key[32], const uint8_t nonce[12])
{
	uint8_t want[16];
	int ok;
	/*@ ghost size_t reads; */

	kern_chachapoly_open_body(plain, want, c, len, ad, adlen, key, nonce);
	ok = ct_compare(want, tag, 16) /*@ ghost (&reads) */;
	ct_wipe(want, sizeof(want));
	return ok;
}

/* see aead/chachapoly.h */
int chachapoly_open(uint8_t *m, const uint8_t *c, size_t len,
		    const uint8_t tag[16], const uint8_t *ad, size_t adlen,
		    const uint8_t key[32], const uint8_t nonce[12])
{
	uint8_t want[16];
	int ok;
	/*@ ghost size_t reads; */

	if (kern_chachapoly_open_body_avail(len)) {
		/* the level's stitched open body: the plaintext into a private
		 * buffer, released only when the tags match, then wiped */
		uint8_t plain[KERN_OPEN_MAX];

		ok = body_check(plain, c, len, tag, ad, adlen, key, nonce);
		if (ok == 0) {
			/*@ loop invariant 0 <= i <= len;
			    loop assigns i, m[0 .. len - 1];
			    loop variant len - i;
			 */
			for (size_t i = 0; i < len; i++)
				m[i] = plain[i];
		}
		ct_wipe(plain, len);
		return ok == 0 ? 0 : -1;
	}
	aead_tag(want, c, len, ad, adlen, key, nonce);
	ok = ct_compare(want, tag, 16) /*@ ghost (&reads) */;
	ct_wipe(want, sizeof(want));
	if (ok != 0)
		return -1;
	kern_chacha20_xor(m, c, len, key, 1, nonce);
	return 0;
}

/* chachapoly_open with only the clauses xchachapoly_open uses (result,
 * unchanged): the callers' goals then do not carry the definitions behind
 * tag_ok (EXPECTED_TAG down to the ChaCha20 rounds), which the provers
 * otherwise unfold until they time out. Each clause is chachapoly_open's. */
/*@ requires valid_m: \valid(m + (0 .. len - 1));
    requires valid_c: \valid_read(c + (0 .. len - 1));
    requires valid_tag: \valid_read(tag + (0 .. 15));
    requires valid_ad: \valid_read(ad + (0 .. adlen - 1));
    requires valid_key: \valid_read(key + (0 .. 31));
    requires valid_nonce: \valid_read(nonce + (0 .. 11));
    requires in_place: m == c ||
                       \separated(m + (0 .. len - 1), c + (0 .. len - 1));
    requires sep_m: \separated(m + (0 .. len - 1), tag + (0 .. 15)) &&
                    \separated(m + (0 .. len - 1), ad + (0 .. adlen - 1)) &&
                    \separated(m + (0 .. len - 1), key + (0 .. 31)) &&
                    \separated(m + (0 .. len - 1), nonce + (0 .. 11));
    assigns m[0 .. len - 1];
    ensures result: \result == 0 || \result == -1;
    ensures unchanged: \result != 0 ==>
      \forall integer i; 0 <= i < len ==> m[i] == \old(m[i]);
 */
static int open_checked(uint8_t *m, const uint8_t *c, size_t len,
			const uint8_t tag[16], const uint8_t *ad, size_t adlen,
			const uint8_t key[32], const uint8_t nonce[12])
{
	return chachapoly_open(m, c, len, tag, ad, adlen, key, nonce);
}

/* The 12-byte IETF nonce of XChaCha20-Poly1305: 0^4 | nonce[16..23],
 * byte by byte (one clause per byte: no quantifier for the provers to
 * instantiate). */
/*@ requires valid: \valid(n12 + (0 .. 11)) && \valid_read(nonce + (0 .. 23));
    requires sep: \separated(n12 + (0 .. 11), nonce + (0 .. 23));
    assigns n12[0 .. 11];
    ensures n12_zero: n12[0] == 0 && n12[1] == 0 && n12[2] == 0 &&
                      n12[3] == 0;
    ensures n12_nonce: n12[4] == \old(nonce[16]) &&
      n12[5] == \old(nonce[17]) && n12[6] == \old(nonce[18]) &&
      n12[7] == \old(nonce[19]) && n12[8] == \old(nonce[20]) &&
      n12[9] == \old(nonce[21]) && n12[10] == \old(nonce[22]) &&
      n12[11] == \old(nonce[23]);
 */
static void xchacha_n12(uint8_t n12[12], const uint8_t nonce[24])
{
	n12[0] = 0;
	n12[1] = 0;
	n12[2] = 0;
	n12[3] = 0;
	n12[4] = nonce[16];
	n12[5] = nonce[17];
	n12[6] = nonce[18];
	n12[7] = nonce[19];
	n12[8] = nonce[20];
	n12[9] = nonce[21];
	n12[10] = nonce[22];
	n12[11] = nonce[23];
}

/*@ requires valid: \valid(subkey + (0 .. 31)) && \valid(n12 + (0 .. 11)) &&
                    \valid_read(key + (0 .. 31)) &&
                    \valid_read(nonce + (0 .. 23));
    requires sep: \separated(subkey + (0 .. 31), n12 + (0 .. 11)) &&
                  \separated(subkey + (0 .. 31), key + (0 .. 31)) &&
                  \separated(subkey + (0 .. 31), nonce + (0 .. 23)) &&
                  \separated(n12 + (0 .. 11), key + (0 .. 31)) &&
                  \separated(n12 + (0 .. 11), nonce + (0 .. 23));
    assigns subkey[0 .. 31], n12[0 .. 11];
    ensures sub0: \let w = \old(HC(0, key, nonce));
      subkey[0] == BYTE0(w) && subkey[1] == BYTE1(w) &&
      subkey[2] == BYTE2(w) && subkey[3] == BYTE3(w);
    ensures sub1: \let w = \old(HC(1, key, nonce));
      subkey[4] == BYTE0(w) && subkey[5] == BYTE1(w) &&
      subkey[6] == BYTE2(w) && subkey[7] == BYTE3(w);
    ensures sub2: \let w = \old(HC(2, key, nonce));
      subkey[8] == BYTE0(w) && subkey[9] == BYTE1(w) &&
      subkey[10] == BYTE2(w) && subkey[11] == BYTE3(w);
    ensures sub3: \let w = \old(HC(3, key, nonce));
      subkey[12] == BYTE0(w) && subkey[13] == BYTE1(w) &&
      subkey[14] == BYTE2(w) && subkey[15] == BYTE3(w);
    ensures sub4: \let w = \old(HC(4, key, nonce));
      subkey[16] == BYTE0(w) && subkey[17] == BYTE1(w) &&
      subkey[18] == BYTE2(w) && subkey[19] == BYTE3(w);
    ensures sub5: \let w = \old(HC(5, key, nonce));
      subkey[20] == BYTE0(w) && subkey[21] == BYTE1(w) &&
      subkey[22] == BYTE2(w) && subkey[23] == BYTE3(w);
    ensures sub6: \let w = \old(HC(6, key, nonce));
      subkey[24] == BYTE0(w) && subkey[25] == BYTE1(w) &&
      subkey[26] == BYTE2(w) && subkey[27] == BYTE3(w);
    ensures sub7: \let w = \old(HC(7, key, nonce));
      subkey[28] == BYTE0(w) && subkey[29] == BYTE1(w) &&
      subkey[30] == BYTE2(w) && subkey[31] == BYTE3(w);
    ensures n12_zero: n12[0] == 0 && n12[1] == 0 && n12[2] == 0 &&
                      n12[3] == 0;
    ensures n12_nonce: n12[4] == \old(nonce[16]) &&
      n12[5] == \old(nonce[17]) && n12[6] == \old(nonce[18]) &&
      n12[7] == \old(nonce[19]) && n12[8] == \old(nonce[20]) &&
      n12[9] == \old(nonce[21]) && n12[10] == \old(nonce[22]) &&
      n12[11] == \old(nonce[23]);
 */
static void xchacha_subkey(uint8_t subkey[32], uint8_t n12[12],
			   const uint8_t key[32], const uint8_t nonce[24])
{
	kern_hchacha20(subkey, key, nonce);
	xchacha_n12(n12, nonce);
}

/* see aead/chachapoly.h */
void xchachapoly_seal(uint8_t *c, uint8_t tag[16], const uint8_t *m, size_t len,
		      const uint8_t *ad, size_t adlen, const uint8_t key[32],
		      const uint8_t nonce[24])
{
	uint8_t subkey[32];
	uint8_t n12[12];

	xchacha_subkey(subkey, n12, key, nonce);
	chachapoly_seal(c, tag, m, len, ad, adlen, subkey, n12);
	ct_wipe(subkey, sizeof(subkey));
}

/* see aead/chachapoly.h */
int xchachapoly_open(uint8_t *m, const uint8_t *c, size_t len,
		     const uint8_t tag[16], const uint8_t *ad, size_t adlen,
		     const uint8_t key[32], const uint8_t nonce[24])
{
	uint8_t subkey[32];
	uint8_t n12[12];
	int rc;

	xchacha_subkey(subkey, n12, key, nonce);
	rc = open_checked(m, c, len, tag, ad, adlen, subkey, n12);
	/*@ assert kept: rc != 0 ==>
	      \forall integer i; 0 <= i < len ==> m[i] == \at(m[i], Pre); */
	ct_wipe(subkey, sizeof(subkey));
	return rc;
}
