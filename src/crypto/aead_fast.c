/* SPDX-License-Identifier: MIT */
/*
 * XChaCha20-Poly1305 on the dispatched kernels. See aead_fast.h.
 * Spec: RFC 8439 section 2.8 (Poly1305 key = block 0, text from block 1,
 * MAC over ad | pad16 | c | pad16 | le64(adlen) | le64(clen));
 * draft-irtf-cfrg-xchacha-03 section 2.3 (HChaCha20 subkey, nonce
 * 0^4 | nonce[16..23]).
 * Block 0 (the one-time Poly1305 key) is computed in the same SIMD step as
 * the first blocks of text: the first kernel call covers 64 zero bytes
 * followed by up to (blocks - 1) * 64 bytes of text, copied to a stack
 * buffer, so a 4 KiB block costs 4096 / 64 + 1 block functions: with the
 * 8-block AVX2 kernel, 8 SIMD steps and one one-block tail. HChaCha20 is
 * the dispatched one (the scalar core at every level). The
 * stitched seal (chacha20_poly_fn) is used only when dispatch_stitch(1)
 * asked for it. Seals of at least one whole SIMD step go to the kernel's
 * whole-seal body when it has one (chachapoly_body_fn: AVX2, and the
 * 128-bit SSSE3 and AVX kernels), which overlaps ChaCha20 and Poly1305.
 * Opens of one SIMD step to OPEN_MAX bytes go to the kernel's open body
 * when it has one (the same kernels): the same overlap with Poly1305 over
 * the ciphertext, decrypting into a stack buffer that is copied to m only
 * after the tag check (and wiped).
 * Outside the bodies, without a vector Poly1305 (portable, SSSE3 and AVX
 * levels) the MAC is the proved Poly1305 of poly1305.c, the faster scalar
 * one when run alone since its radix-2^32 block loop; poly1305_fast
 * (poly1305_64.c with the blocks of poly1305_avx2.c, or of
 * poly1305_ifma.c at the avx512 level when the CPU has IFMA) otherwise.
 * Depends on: dispatch.h, kernels.h, poly1305.h, ct.h.
 * Constant time: yes (ct_compare; no secret-dependent branch).
 */
#include "crypto/aead_fast.h"

#include <string.h>

#include "crypto/ct.h"
#include "crypto/dispatch.h"
#include "crypto/kernels.h"
#include "crypto/poly1305.h"

#define FIRST_MAX (64 * 16)
/* longest open that goes through the stitched open body (one gocryptfs
 * block; its plaintext waits on the stack for the tag check) */
#define OPEN_MAX 4096

static const uint8_t zeros16[16];

static void subkey_nonce(uint8_t subkey[32], uint8_t n12[12],
			 const uint8_t key[32], const uint8_t nonce[24])
{
	dispatch_current()->hchacha20(subkey, key, nonce);
	memset(n12, 0, 4);
	memcpy(n12 + 4, nonce + 16, 8);
}

/* bytes of text that share the first kernel call with block 0 */
static size_t first_len(const struct dispatch_choice *ch, size_t len)
{
	size_t room = 64 * (size_t)ch->kernel->blocks - 64;

	return len < room ? len : room;
}

/*
 * The MAC state. Without a vector Poly1305 (portable and SSSE3 levels) the
 * generic path uses the proved Poly1305 of poly1305.c, whose radix-2^32
 * block loop is also the faster scalar one here; the AVX2 paths (vector
 * Poly1305, stitched seal and open bodies) use poly1305_fast.
 */
struct mac {
	int proved;
	struct poly1305 p;
	struct poly1305_fast f;
};

static void mac_update(struct mac *mac, const uint8_t *m, size_t len)
{
	if (mac->proved)
		poly1305_update(&mac->p, m, len);
	else
		poly1305_fast_update(&mac->f, m, len);
}

static void mac_start(const struct dispatch_choice *ch, struct mac *mac,
		      const uint8_t otk[32], const uint8_t *ad, size_t adlen)
{
	mac->proved = ch->poly_blocks == NULL && ch->stitched == NULL;
	if (mac->proved) {
		poly1305_init(&mac->p, otk);
	} else {
		poly1305_fast_init(&mac->f, otk);
		poly1305_fast_use(&mac->f, ch->poly_blocks);
	}
	mac_update(mac, ad, adlen);
	mac_update(mac, zeros16, (16 - adlen % 16) % 16);
}

static void mac_finish(struct mac *mac, uint8_t tag[16], size_t adlen,
		       size_t len)
{
	uint8_t lens[16];

	mac_update(mac, zeros16, (16 - len % 16) % 16);
	store64_le(lens, (uint64_t)adlen);
	store64_le(lens + 8, (uint64_t)len);
	mac_update(mac, lens, 16);
	if (mac->proved)
		poly1305_final(&mac->p, tag);
	else
		poly1305_fast_final(&mac->f, tag);
}

/* see aead_fast.h */
void chachapoly_seal_fast(uint8_t *c, uint8_t tag[16], const uint8_t *m,
			  size_t len, const uint8_t *ad, size_t adlen,
			  const uint8_t key[32], const uint8_t nonce[12])
{
	const struct dispatch_choice *ch = dispatch_current();
	uint8_t buf[FIRST_MAX];
	struct mac mac = { .proved = 0 };
	size_t fl = first_len(ch, len);
	uint32_t next;

	if (ch->body != NULL && len >= 64 * (size_t)ch->kernel->blocks) {
		ch->body(c, m, len, ad, adlen, key, nonce, &mac.f);
		mac.proved = 0;
		mac_finish(&mac, tag, adlen, len);
		return;
	}
	memset(buf, 0, 64);
	if (fl > 0)
		memcpy(buf + 64, m, fl);
	next = ch->chacha20(buf, buf, 64 + fl, key, 0, nonce);
	if (fl > 0)
		memcpy(c, buf + 64, fl);
	mac_start(ch, &mac, buf, ad, adlen);
	if (ch->stitched != NULL) {
		/* fl is 0 or a whole number of blocks: mac.f.buflen stays 0 */
		poly1305_fast_update(&mac.f, c, fl);
		if (len > fl)
			ch->stitched(c + fl, m + fl, len - fl, key, next, nonce,
				     &mac.f);
	} else {
		if (len > fl)
			ch->chacha20(c + fl, m + fl, len - fl, key, next,
				     nonce);
		mac_update(&mac, c, len);
	}
	mac_finish(&mac, tag, adlen, len);
	ct_wipe(buf, 64 + fl);
}

/*
 * Open through the kernel's stitched open body (8 blocks to OPEN_MAX
 * bytes): the plaintext goes to a stack buffer while the ciphertext is
 * MACed, and reaches m only once the tag verifies; the buffer is wiped
 * either way.
 */
static int open_stitched(const struct dispatch_choice *ch, uint8_t *m,
			 const uint8_t *c, size_t len, const uint8_t tag[16],
			 const uint8_t *ad, size_t adlen, const uint8_t key[32],
			 const uint8_t nonce[12])
{
	uint8_t want[16], tmp[OPEN_MAX];
	struct mac mac = { .proved = 0 };
	int rc = -1;

	ch->open_body(tmp, c, len, ad, adlen, key, nonce, &mac.f);
	mac.proved = 0;
	mac_finish(&mac, want, adlen, len);
	if (ct_compare(want, tag, 16) == 0) {
		memcpy(m, tmp, len);
		rc = 0;
	}
	ct_wipe(want, sizeof(want));
	ct_wipe(tmp, len);
	return rc;
}

/* see aead_fast.h */
int chachapoly_open_fast(uint8_t *m, const uint8_t *c, size_t len,
			 const uint8_t tag[16], const uint8_t *ad, size_t adlen,
			 const uint8_t key[32], const uint8_t nonce[12])
{
	const struct dispatch_choice *ch = dispatch_current();
	uint8_t want[16], ks[FIRST_MAX];
	struct mac mac = { .proved = 0 };
	size_t fl = first_len(ch, len);
	uint32_t next;
	int rc = -1;

	if (ch->open_body != NULL && len >= 64 * (size_t)ch->kernel->blocks &&
	    len <= OPEN_MAX)
		return open_stitched(ch, m, c, len, tag, ad, adlen, key, nonce);
	memset(ks, 0, 64 + fl);
	next = ch->chacha20(ks, ks, 64 + fl, key, 0, nonce);
	mac_start(ch, &mac, ks, ad, adlen);
	mac_update(&mac, c, len);
	mac_finish(&mac, want, adlen, len);
	if (ct_compare(want, tag, 16) == 0) {
		for (size_t i = 0; i < fl; i++)
			m[i] = (uint8_t)(c[i] ^ ks[64 + i]);
		if (len > fl)
			ch->chacha20(m + fl, c + fl, len - fl, key, next,
				     nonce);
		rc = 0;
	}
	ct_wipe(want, sizeof(want));
	ct_wipe(ks, 64 + fl);
	return rc;
}

/* see aead_fast.h */
void xchachapoly_seal_fast(uint8_t *c, uint8_t tag[16], const uint8_t *m,
			   size_t len, const uint8_t *ad, size_t adlen,
			   const uint8_t key[32], const uint8_t nonce[24])
{
	uint8_t subkey[32], n12[12];

	subkey_nonce(subkey, n12, key, nonce);
	chachapoly_seal_fast(c, tag, m, len, ad, adlen, subkey, n12);
	ct_wipe(subkey, sizeof(subkey));
}

/* see aead_fast.h */
int xchachapoly_open_fast(uint8_t *m, const uint8_t *c, size_t len,
			  const uint8_t tag[16], const uint8_t *ad,
			  size_t adlen, const uint8_t key[32],
			  const uint8_t nonce[24])
{
	uint8_t subkey[32], n12[12];
	int rc;

	subkey_nonce(subkey, n12, key, nonce);
	rc = chachapoly_open_fast(m, c, len, tag, ad, adlen, subkey, n12);
	ct_wipe(subkey, sizeof(subkey));
	return rc;
}
