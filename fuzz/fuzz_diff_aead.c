/* SPDX-License-Identifier: MIT */
/* Targets: chachapoly_seal, chachapoly_open, xchachapoly_seal,
 * xchachapoly_open (the one composition, aead/chachapoly.c, under each
 * kernel of dispatch_list() via dispatch_force: the aead/kern.h entry points
 * and the stitched bodies), hchacha20, OpenSSL
 * EVP_chacha20_poly1305; ossl_gcm_seal and ossl_gcm_open on both
 * backends (libgcrypt: ossl_gcm_backend_enable; OpenSSL) against OpenSSL
 * EVP_aes_256_gcm. */
/*
 * Differential fuzzing of the AEADs (RFC 8439 2.8; XChaCha draft 2.3 as
 * gocryptfs uses it). The fuzzer picks IETF or X variant, key, nonce, AD,
 * message, and a tamper (none, one bit of tag, ciphertext, AD or nonce).
 * Our seal must give the bytes OpenSSL's ChaCha20-Poly1305 gives under the
 * same key (for XChaCha: the HChaCha20 subkey and nonce 0^4 | n[16..23]).
 * Both opens must accept the untampered result and return the message,
 * both must reject a tampered one, and our open must leave the output
 * buffer untouched when it rejects. A third mode feeds fuzzer bytes as
 * ciphertext and tag: both opens must then agree. In-place seal and open
 * are checked as well. All of it runs under every kernel this CPU can
 * run, portable first (on AVX2, seals from 512 bytes take the stitched
 * body and opens of 512 to 4096 bytes the stitched open body: aead/kern.h
 * kern_chachapoly_seal_body, kern_chachapoly_open_body), and
 * again with BMI2 hidden at avx2 and IFMA hidden at avx512, the paths
 * other CPUs of those levels take.
 * AES-256-GCM (FORMAT.md 4.4) on the same input: key, the first 16 (flag
 * 0x20: 12) nonce bytes as IV, AD, message, tamper, forged mode; the
 * wrappers ossl_gcm_seal/ossl_gcm_open, once on the libgcrypt backend
 * the mount uses and once on OpenSSL, must give EVP_aes_256_gcm's bytes
 * and verdicts, and a rejecting open must leave zeros (their contract).
 * Without ossl_mem_init here, libgcrypt's handles are in its own pool.
 * Test code: not constant time, not proved.
 */
#include <openssl/evp.h>

#include "crypto/aead/chachapoly.h"
#include "crypto/chacha20/ref.h"
#include "crypto/cpu.h"
#include "crypto/dispatch.h"
#include "crypto/ossl_aead.h"
#include "fuzz_util.h"

#define FZ_MAX_MSG 4200
#define FZ_MAX_AD 300
#define FZ_SENTINEL 0xa5

/* The rest of one EVP AEAD message on ctx, keyed and given its IV for
 * direction enc = (tag_in == NULL): AD, data, tag; frees ctx. 0, or -1
 * when the tag does not verify. */
static int evp_run(EVP_CIPHER_CTX *ctx, uint8_t *out, uint8_t tag_out[16],
		   const uint8_t *in, size_t len, const uint8_t tag_in[16],
		   const uint8_t *ad, size_t adlen)
{
	int enc = tag_in == NULL;
	int outl = 0;
	int ok;
	uint8_t fin[16];

	if (adlen > 0)
		FZ_CHECK(EVP_CipherUpdate(ctx, NULL, &outl, ad, (int)adlen) ==
				 1,
			 "EVP_CipherUpdate AD");
	if (len > 0)
		FZ_CHECK(EVP_CipherUpdate(ctx, out, &outl, in, (int)len) == 1 &&
				 (size_t)outl == len,
			 "EVP_CipherUpdate");
	if (!enc) {
		uint8_t tagbuf[16];

		memcpy(tagbuf, tag_in, 16);
		FZ_CHECK(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16,
					     tagbuf) == 1,
			 "SET_TAG");
	}
	ok = EVP_CipherFinal_ex(ctx, fin, &outl) == 1;
	if (enc) {
		FZ_CHECK(ok, "EVP_CipherFinal_ex seal");
		FZ_CHECK(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16,
					     tag_out) == 1,
			 "GET_TAG");
	}
	EVP_CIPHER_CTX_free(ctx);
	return ok ? 0 : -1;
}

/* OpenSSL ChaCha20-Poly1305; decrypt when tag_in != NULL. Returns 0 on
 * success, -1 when the tag does not verify. */
static int ossl_aead(uint8_t *out, uint8_t tag_out[16], const uint8_t *in,
		     size_t len, const uint8_t tag_in[16], const uint8_t *ad,
		     size_t adlen, const uint8_t key[32],
		     const uint8_t nonce[12])
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	int enc = tag_in == NULL;

	FZ_CHECK(ctx != NULL, "EVP_CIPHER_CTX_new");
	FZ_CHECK(EVP_CipherInit_ex(ctx, EVP_chacha20_poly1305(), NULL, key,
				   nonce, enc) == 1,
		 "EVP_CipherInit_ex chacha20-poly1305");
	return evp_run(ctx, out, tag_out, in, len, tag_in, ad, adlen);
}

/* The variant under test, with one signature for both. */
struct fz_aead {
	int x;		  /* 1: XChaCha20-Poly1305 (24-byte nonce) */
	const char *fast; /* the kernel forced (dispatch_force) */
};

static void seal(const struct fz_aead *a, uint8_t *c, uint8_t tag[16],
		 const uint8_t *m, size_t len, const uint8_t *ad, size_t adlen,
		 const uint8_t key[32], const uint8_t nonce[24])
{
	if (a->x)
		xchachapoly_seal(c, tag, m, len, ad, adlen, key, nonce);
	else
		chachapoly_seal(c, tag, m, len, ad, adlen, key, nonce);
}

static int open_(const struct fz_aead *a, uint8_t *m, const uint8_t *c,
		 size_t len, const uint8_t tag[16], const uint8_t *ad,
		 size_t adlen, const uint8_t key[32], const uint8_t nonce[24])
{
	if (a->x)
		return xchachapoly_open(m, c, len, tag, ad, adlen, key, nonce);
	return chachapoly_open(m, c, len, tag, ad, adlen, key, nonce);
}

/* OpenSSL's key and 12-byte nonce for the variant */
static void ossl_params(const struct fz_aead *a, uint8_t okey[32],
			uint8_t on[12], const uint8_t key[32],
			const uint8_t nonce[24])
{
	if (a->x) {
		hchacha20(okey, key, nonce);
		memset(on, 0, 4);
		memcpy(on + 4, nonce + 16, 8);
	} else {
		memcpy(okey, key, 32);
		memcpy(on, nonce, 12);
	}
}

static int all_sentinel(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != FZ_SENTINEL)
			return 0;
	return 1;
}

/* Fuzzer bytes as ciphertext + tag: both opens agree; ours writes nothing
 * unless it accepts. */
static void check_forged(const struct fz_aead *a, const uint8_t *c, size_t len,
			 const uint8_t tag[16], const uint8_t *ad, size_t adlen,
			 const uint8_t key[32], const uint8_t nonce[24])
{
	uint8_t okey[32];
	uint8_t on[12];
	uint8_t *m1 = malloc(len ? len : 1);
	uint8_t *m2 = malloc(len ? len : 1);
	int r1;
	int r2;

	FZ_CHECK(m1 != NULL && m2 != NULL, "malloc");
	memset(m1, FZ_SENTINEL, len ? len : 1);
	ossl_params(a, okey, on, key, nonce);
	r1 = open_(a, m1, c, len, tag, ad, adlen, key, nonce);
	r2 = ossl_aead(m2, NULL, c, len, tag, ad, adlen, okey, on);
	FZ_CHECK(r1 == r2, "open accept/reject differs from OpenSSL");
	if (r1 == 0)
		FZ_CHECK(memcmp(m1, m2, len) == 0, "open plaintext != OpenSSL");
	else
		FZ_CHECK(all_sentinel(m1, len), "failed open wrote output");
	free(m1);
	free(m2);
}

/* What the fuzzer chose; each variant works on its own copies. */
struct fz_case {
	uint8_t flags;
	uint8_t key[32];
	uint8_t nonce[24];
	uint8_t tag[16];
	size_t adlen;
	size_t len;
	size_t pos;
	uint8_t bit;
	const uint8_t *ad;
	const uint8_t *m;
};

static void check_variant(const struct fz_aead *a, const struct fz_case *k)
{
	uint8_t nonce[24];
	uint8_t okey[32];
	uint8_t on[12];
	uint8_t tag[16];
	uint8_t otag[16];
	size_t adlen = k->adlen;
	size_t len = k->len;
	size_t pos = k->pos;
	uint8_t bit = k->bit;
	int kind = (k->flags >> 1) & 3;
	const uint8_t *key = k->key;
	const uint8_t *m = k->m;
	uint8_t *ad;
	uint8_t *c;
	uint8_t *oc;
	uint8_t *out;

	memcpy(nonce, k->nonce, 24);
	memcpy(tag, k->tag, 16);
	/* exact-size buffers (1 byte when empty) so ASan sees overruns */
	ad = malloc(adlen ? adlen : 1);
	c = malloc(len ? len : 1);
	oc = malloc(len ? len : 1);
	out = malloc(len ? len : 1);
	FZ_CHECK(ad && c && oc && out, "malloc");
	if (adlen > 0)
		memcpy(ad, k->ad, adlen);

	if (k->flags & 0x10) {
		/* forged: the message bytes are the ciphertext */
		check_forged(a, m, len, tag, adlen ? ad : NULL, adlen, key,
			     nonce);
		goto out;
	}
	seal(a, c, tag, m, len, adlen ? ad : NULL, adlen, key, nonce);
	ossl_params(a, okey, on, key, nonce);
	ossl_aead(oc, otag, m, len, NULL, ad, adlen, okey, on);
	if (memcmp(c, oc, len) != 0 || memcmp(tag, otag, 16) != 0) {
		fprintf(stderr, "aead %s %s: adlen %zu len %zu\n",
			a->x ? "xchacha" : "ietf",
			a->fast ? a->fast : "portable", adlen, len);
		FZ_CHECK(0, "seal (ciphertext, tag) != OpenSSL");
	}

	/* in-place seal gives the same bytes */
	memcpy(out, m, len);
	seal(a, out, otag, out, len, ad, adlen, key, nonce);
	FZ_CHECK(memcmp(out, c, len) == 0 && memcmp(otag, tag, 16) == 0,
		 "in-place seal differs");

	switch (kind) {
	case 1:
		tag[pos % 16] ^= bit;
		break;
	case 2:
		if (len > 0)
			c[pos % len] ^= bit;
		else
			tag[pos % 16] ^= bit;
		break;
	case 3:
		if (adlen > 0)
			ad[pos % adlen] ^= bit;
		else
			nonce[pos % (a->x ? 24 : 12)] ^= bit;
		break;
	default:
		break;
	}
	ossl_params(a, okey, on, key, nonce);
	memset(out, FZ_SENTINEL, len ? len : 1);
	if (kind == 0) {
		FZ_CHECK(open_(a, out, c, len, tag, ad, adlen, key, nonce) == 0,
			 "open rejected a valid seal");
		FZ_CHECK(memcmp(out, m, len) == 0, "open != message");
		FZ_CHECK(ossl_aead(oc, NULL, c, len, tag, ad, adlen, okey,
				   on) == 0,
			 "OpenSSL rejected our seal");
		FZ_CHECK(memcmp(oc, m, len) == 0, "OpenSSL open != message");
		/* in place */
		memcpy(out, c, len);
		FZ_CHECK(open_(a, out, out, len, tag, ad, adlen, key, nonce) ==
					 0 &&
				 memcmp(out, m, len) == 0,
			 "in-place open failed");
	} else {
		FZ_CHECK(open_(a, out, c, len, tag, ad, adlen, key, nonce) ==
				 -1,
			 "open accepted a tampered message");
		FZ_CHECK(all_sentinel(out, len), "failed open wrote output");
		FZ_CHECK(ossl_aead(oc, NULL, c, len, tag, ad, adlen, okey,
				   on) == -1,
			 "OpenSSL accepted a tampered message");
		/* in place: the ciphertext must survive a failed open */
		memcpy(out, c, len);
		FZ_CHECK(open_(a, out, out, len, tag, ad, adlen, key, nonce) ==
					 -1 &&
				 memcmp(out, c, len) == 0,
			 "failed in-place open changed the buffer");
	}
out:
	free(ad);
	free(c);
	free(oc);
	free(out);
}

/* ----------------------------------------------------------- AES-GCM */

/* OpenSSL EVP AES-256-GCM, a fresh context; decrypt when tag_in != NULL.
 * 0, or -1 when the tag does not verify. */
static int evp_gcm(uint8_t *out, uint8_t tag_out[16], const uint8_t *in,
		   size_t len, const uint8_t tag_in[16], const uint8_t *ad,
		   size_t adlen, const uint8_t key[32], const uint8_t *iv,
		   size_t ivlen)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	int enc = tag_in == NULL;

	FZ_CHECK(ctx != NULL, "EVP_CIPHER_CTX_new");
	FZ_CHECK(EVP_CipherInit_ex(ctx, EVP_aes_256_gcm(), NULL, NULL, NULL,
				   enc) == 1 &&
			 EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN,
					     (int)ivlen, NULL) == 1 &&
			 EVP_CipherInit_ex(ctx, NULL, NULL, key, iv, enc) == 1,
		 "EVP_CipherInit_ex aes-256-gcm");
	return evp_run(ctx, out, tag_out, in, len, tag_in, ad, adlen);
}

static int all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != 0)
			return 0;
	return 1;
}

/* The case through ossl_gcm_seal/ossl_gcm_open on the backend in use. */
static void check_gcm(const struct fz_case *k)
{
	size_t ivlen = (k->flags & 0x20) ? 12 : 16;
	size_t adlen = k->adlen, len = k->len;
	int kind = (k->flags >> 1) & 3;
	uint8_t iv[16], tag[16], otag[16];
	uint8_t *ad = malloc(adlen ? adlen : 1);
	uint8_t *c = malloc(len ? len : 1);
	uint8_t *oc = malloc(len ? len : 1);
	uint8_t *out = malloc(len ? len : 1);
	const char *be = ossl_gcm_backend();
	int r1, r2;

	FZ_CHECK(ad && c && oc && out, "malloc");
	memcpy(iv, k->nonce, 16);
	if (adlen > 0)
		memcpy(ad, k->ad, adlen);
	if (k->flags & 0x10) {
		/* forged: message bytes as ciphertext, fuzzer tag */
		memset(out, FZ_SENTINEL, len ? len : 1);
		r1 = ossl_gcm_open(out, k->m, len, k->tag, adlen ? ad : NULL,
				   adlen, k->key, iv, ivlen);
		r2 = evp_gcm(oc, NULL, k->m, len, k->tag, ad, adlen, k->key, iv,
			     ivlen);
		FZ_CHECK(r1 == r2, "gcm forged open verdict != OpenSSL EVP");
		FZ_CHECK(r1 == 0 ? memcmp(out, oc, len) == 0
				 : all_zero(out, len),
			 "gcm forged open output");
		goto out;
	}
	ossl_gcm_seal(c, tag, k->m, len, adlen ? ad : NULL, adlen, k->key, iv,
		      ivlen);
	evp_gcm(oc, otag, k->m, len, NULL, ad, adlen, k->key, iv, ivlen);
	if (memcmp(c, oc, len) != 0 || memcmp(tag, otag, 16) != 0) {
		fprintf(stderr, "gcm %s: ivlen %zu adlen %zu len %zu\n", be,
			ivlen, adlen, len);
		FZ_CHECK(0, "gcm seal (ciphertext, tag) != OpenSSL EVP");
	}
	/* in place */
	memcpy(out, k->m, len);
	ossl_gcm_seal(out, otag, out, len, adlen ? ad : NULL, adlen, k->key, iv,
		      ivlen);
	FZ_CHECK(memcmp(out, c, len) == 0 && memcmp(otag, tag, 16) == 0,
		 "gcm in-place seal differs");
	switch (kind) {
	case 1:
		tag[k->pos % 16] ^= k->bit;
		break;
	case 2:
		if (len > 0)
			c[k->pos % len] ^= k->bit;
		else
			tag[k->pos % 16] ^= k->bit;
		break;
	case 3:
		if (adlen > 0)
			ad[k->pos % adlen] ^= k->bit;
		else
			iv[k->pos % ivlen] ^= k->bit;
		break;
	default:
		break;
	}
	memset(out, FZ_SENTINEL, len ? len : 1);
	r1 = ossl_gcm_open(out, c, len, tag, adlen ? ad : NULL, adlen, k->key,
			   iv, ivlen);
	r2 = evp_gcm(oc, NULL, c, len, tag, ad, adlen, k->key, iv, ivlen);
	FZ_CHECK(r1 == r2, "gcm open verdict != OpenSSL EVP");
	FZ_CHECK(r1 == (kind == 0 ? 0 : -1), "gcm open verdict");
	FZ_CHECK(r1 == 0 ? memcmp(out, k->m, len) == 0 : all_zero(out, len),
		 "gcm open output (message, or zeros on reject)");
	/* in place */
	memcpy(out, c, len);
	FZ_CHECK(ossl_gcm_open(out, out, len, tag, adlen ? ad : NULL, adlen,
			       k->key, iv, ivlen) == r1 &&
			 (r1 == 0 ? memcmp(out, k->m, len) == 0
				  : all_zero(out, len)),
		 "gcm in-place open");
out:
	free(ad);
	free(c);
	free(oc);
	free(out);
}

/*
 * The paths a kernel takes only when a feature is hidden: the AVX2
 * bodies' MUL Poly1305 (BMI2 masked) and the avx512 radix-2^64 bodies
 * (IFMA masked; with IFMA the level runs the IFMA Poly1305 inside the
 * rounds). Run the same checks there, then restore the mask and the
 * kernel.
 */
static void check_hidden(const struct fz_aead *a, const struct fz_case *k,
			 const struct dispatch_kernel *kern)
{
	unsigned bit = kern->level == DISPATCH_AVX2	? CPU_BMI2
		       : kern->level == DISPATCH_AVX512 ? CPU_AVX512IFMA
							: 0U;
	unsigned before = cpu_masked();

	if (bit == 0 || !(cpu_features() & bit))
		return;
	cpu_mask(bit);
	if (dispatch_force(kern->name) == 0)
		check_variant(a, k);
	cpu_unmask_all();
	cpu_mask(before);
	FZ_CHECK(dispatch_force(kern->name) == 0,
		 "dispatch_force after unmask");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f;
	struct fz_case k;
	struct fz_aead a;
	const struct dispatch_kernel *ks;
	size_t nk = 0;
	uint8_t *ad;
	uint8_t *m;
	static int gcrypt = -1;

	if (gcrypt < 0)
		gcrypt = ossl_gcm_backend_enable() == 0;
	fz_init(&f, data, size);
	k.flags = fz_u8(&f);
	fz_bytes(&f, k.key, sizeof(k.key));
	fz_bytes(&f, k.nonce, sizeof(k.nonce));
	k.adlen = fz_len(&f, FZ_MAX_AD);
	k.len = fz_len(&f, FZ_MAX_MSG);
	k.pos = fz_u16(&f);
	k.bit = (uint8_t)(1U << (fz_u8(&f) & 7));
	fz_bytes(&f, k.tag, sizeof(k.tag));
	ad = malloc(k.adlen ? k.adlen : 1);
	m = malloc(k.len ? k.len : 1);
	FZ_CHECK(ad != NULL && m != NULL, "malloc");
	fz_bytes(&f, ad, k.adlen);
	fz_bytes(&f, m, k.len);
	k.ad = ad;
	k.m = m;

	a.x = k.flags & 1;
	ks = dispatch_list(&nk);
	for (size_t i = 0; i < nk; i++) {
		if (ks[i].get() == NULL || dispatch_force(ks[i].name) != 0)
			continue;
		a.fast = ks[i].name;
		check_variant(&a, &k);
		check_hidden(&a, &k, &ks[i]);
	}
	/* AES-GCM: the mount's backend (when libgcrypt is usable here:
	 * test_gcm_wired asserts that it is), then OpenSSL's wrapper */
	if (gcrypt)
		check_gcm(&k);
	ossl_gcm_backend_disable();
	check_gcm(&k);
	if (gcrypt)
		(void)ossl_gcm_backend_enable();
	free(ad);
	free(m);
	return 0;
}
