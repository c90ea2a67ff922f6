/* SPDX-License-Identifier: MIT */
/*
 * ChaCha20-Poly1305 and XChaCha20-Poly1305: the one composition, at every
 * CPU level (the kernels through aead/kern.h). See aead/chachapoly.h.
 * Spec: RFC 8439 section 2.8 (Poly1305 key from block 0, text from block
 * 1, MAC over ad | pad16 | c | pad16 | le64(adlen) | le64(clen));
 * draft-irtf-cfrg-xchacha-03 section 2.3.
 * Depends on: aead/kern.h (chacha20/ref.h, poly1305/ref.h contracts), ct.h.
 * Constant time: yes; open compares tags with ct_compare before it touches
 * the output (a stitched open body decrypts into a private buffer first,
 * copied to the output only after the tag check, and wiped).
 */
#include "crypto/aead/chachapoly.h"
#include "crypto/ct.h"
#include "crypto/aead/kern.h"

/* The tag of RFC 8439 2.8. Its memory safety and assigns are proved; its
 * value is EXPECTED_TAG by definition (admitted, see spec/aead.acsl). */
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
    admit ensures tag: \forall integer i; 0 <= i < 16 ==>
      tag[i] == \old(EXPECTED_TAG(i, key, nonce, ad, adlen, c, len));
 */
static void aead_tag(uint8_t tag[16], const uint8_t *c, size_t len,
		     const uint8_t *ad, size_t adlen, const uint8_t key[32],
		     const uint8_t nonce[12])
{
	struct poly1305 st;
	uint8_t otk[64] = { 0 };
	uint8_t lens[16];

	kern_chacha20_xor(otk, otk, 64, key, 0, nonce);
	kern_poly1305_init(&st, otk);
	kern_poly1305_pad16(&st, ad, adlen);
	kern_poly1305_pad16(&st, c, len);
	store64_le(lens, (uint64_t)adlen);
	store64_le(lens + 8, (uint64_t)len);
	kern_poly1305_pad16(&st, lens, 16);
	kern_poly1305_finish(&st, tag);
	ct_wipe(otk, sizeof(otk));
}

/* see aead/chachapoly.h */
void chachapoly_seal(uint8_t *c, uint8_t tag[16], const uint8_t *m, size_t len,
		     const uint8_t *ad, size_t adlen, const uint8_t key[32],
		     const uint8_t nonce[12])
{
	if (kern_chachapoly_seal_body(c, tag, m, len, ad, adlen, key, nonce))
		return;
	kern_chacha20_xor(c, m, len, key, 1, nonce);
	aead_tag(tag, c, len, ad, adlen, key, nonce);
}

/* see aead/chachapoly.h */
int chachapoly_open(uint8_t *m, const uint8_t *c, size_t len,
		    const uint8_t tag[16], const uint8_t *ad, size_t adlen,
		    const uint8_t key[32], const uint8_t nonce[12])
{
	uint8_t want[16];
	uint8_t plain[KERN_OPEN_MAX];
	int ok;
	/*@ ghost size_t reads; */

	if (len <= KERN_OPEN_MAX &&
	    kern_chachapoly_open_body(plain, want, c, len, ad, adlen, key,
				      nonce)) {
		ok = ct_compare(want, tag, 16) /*@ ghost (&reads) */;
		ct_wipe(want, sizeof(want));
		if (ok == 0) {
			/*@ loop invariant 0 <= i <= len;
			    loop invariant copy: \forall integer k; 0 <= k < i ==>
			      m[k] == plain[k];
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
    ensures n12_zero: \forall integer i; 0 <= i < 4 ==> n12[i] == 0;
    ensures n12_nonce: \forall integer i; 0 <= i < 8 ==>
      n12[4 + i] == \old(nonce[16 + i]);
 */
static void xchacha_subkey(uint8_t subkey[32], uint8_t n12[12],
			   const uint8_t key[32], const uint8_t nonce[24])
{
	kern_hchacha20(subkey, key, nonce);
	/*@ loop invariant 0 <= i <= 4;
	    loop invariant zero: \forall integer k; 0 <= k < i ==> n12[k] == 0;
	    loop assigns i, n12[0 .. 3];
	    loop variant 4 - i;
	 */
	for (int i = 0; i < 4; i++)
		n12[i] = 0;
	/*@ loop invariant 0 <= i <= 8;
	    loop invariant copy: \forall integer k; 0 <= k < i ==>
	      n12[4 + k] == nonce[16 + k];
	    loop assigns i, n12[4 .. 11];
	    loop variant 8 - i;
	 */
	for (int i = 0; i < 8; i++)
		n12[4 + i] = nonce[16 + i];
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
	rc = chachapoly_open(m, c, len, tag, ad, adlen, subkey, n12);
	ct_wipe(subkey, sizeof(subkey));
	return rc;
}
