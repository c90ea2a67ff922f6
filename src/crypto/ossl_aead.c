/* SPDX-License-Identifier: MIT */
/*
 * OpenSSL 3.0 wrappers: AES-256-GCM, AES-256-SIV, AES-256-ECB, SHA-256,
 * RAND_bytes. See ossl_aead.h for the contracts.
 * Spec: ../shared/FORMAT.md 4.4, 16; RFC 5297 (S2V for empty plaintexts,
 * which OpenSSL 3.0's SIV cipher cannot finalise).
 * Keys: each thread's contexts and its copies of the last keys live in one
 * struct allocated, like the contexts, inside a secret scope (ossl_mem.h):
 * in the locked arena once ossl_mem_init() ran; nothing of a key stays in
 * thread-local or ordinary heap memory.
 * GCM backend: once ossl_gcm_backend_enable() succeeded, ossl_gcm_seal and
 * ossl_gcm_open run on libgcrypt (gcm_backend_gcrypt.h) with the state in
 * the same per-thread struct; the handles' key schedules are in the arena
 * too (libgcrypt's allocation handler, see gcm_backend_gcrypt.h). The
 * switch is one atomic flag, read per call; the two paths keep separate
 * state, so flipping it (tests) is safe at any time.
 * Depends on: libcrypto, libgcrypt (through gcm_backend_gcrypt.h), ct.h,
 * ossl_mem.h. Not proved.
 */
#include "crypto/ossl_aead.h"

#include <assert.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include "crypto/ct.h"
#include "crypto/gcm_backend_gcrypt.h"
#include "crypto/ossl_mem.h"

/* One cached context: the key (or key + IV length) it was set up with. */
struct keyed_ctx {
	EVP_CIPHER_CTX *ctx;
	uint8_t key[64];
	size_t param; /* GCM: IV length; others: 1; 0 = not keyed yet */
};

/* Per-thread state. gcm[0]/ecb[0] decrypt, [1] encrypt; siv[0] is the
 * keyed template, siv[1] the working copy; gcr: the libgcrypt GCM
 * backend's handles and key copies. Allocated in a secret scope. */
struct tls_state {
	struct keyed_ctx gcm[2], ecb[2], siv[2];
	struct gcm_gcrypt gcr;
};

static _Thread_local struct tls_state *tls;
static atomic_int gcm_backend; /* 1: ossl_gcm_* run on libgcrypt */
static EVP_CIPHER *gcm_cipher, *ecb_cipher, *siv_cipher;
static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static pthread_key_t exit_key;

_Noreturn void ossl_die(const char *what)
{
	fprintf(stderr, "vcryptfs: fatal: libcrypto: %s\n", what);
	abort();
}

static void thread_exit(void *arg)
{
	(void)arg;
	ossl_aead_thread_cleanup();
}

static void global_init(void)
{
	if (pthread_key_create(&exit_key, thread_exit) != 0)
		ossl_die("pthread_key_create");
	/* explicit fetches: a legacy EVP_aes_256_gcm() is fetched again
	 * at every init */
	gcm_cipher = EVP_CIPHER_fetch(NULL, "AES-256-GCM", NULL);
	ecb_cipher = EVP_CIPHER_fetch(NULL, "AES-256-ECB", NULL);
	siv_cipher = EVP_CIPHER_fetch(NULL, "AES-256-SIV", NULL);
	if (gcm_cipher == NULL || ecb_cipher == NULL || siv_cipher == NULL)
		ossl_die("fetch AES-256-GCM/ECB/SIV");
}

/* This thread's state, created on first use (then this thread registers
 * its exit cleanup). */
static struct tls_state *tls_get(void)
{
	struct tls_state *t = tls;

	if (t != NULL)
		return t;
	if (pthread_once(&init_once, global_init) != 0)
		ossl_die("pthread_once");
	ossl_mem_enter();
	t = OPENSSL_zalloc(sizeof(*t));
	ossl_mem_leave();
	if (t == NULL)
		ossl_die("thread state");
	if (pthread_setspecific(exit_key, t) != 0)
		ossl_die("pthread_setspecific");
	tls = t;
	return t;
}

/* A context, created inside a secret scope (the caller's). */
static EVP_CIPHER_CTX *ctx_new(void)
{
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();

	if (c == NULL)
		ossl_die("EVP_CIPHER_CTX_new");
	return c;
}

void ossl_aead_thread_cleanup(void)
{
	struct tls_state *t = tls;

	if (t == NULL)
		return;
	for (int i = 0; i < 2; i++) {
		EVP_CIPHER_CTX_free(t->gcm[i].ctx);
		EVP_CIPHER_CTX_free(t->ecb[i].ctx);
		EVP_CIPHER_CTX_free(t->siv[i].ctx);
	}
	gcm_gcrypt_release(&t->gcr); /* closes only handles it opened */
	OPENSSL_clear_free(t, sizeof(*t));
	tls = NULL;
	(void)pthread_setspecific(exit_key, NULL);
}

/* Nonzero when a[0..n-1] != b[0..n-1], n a multiple of 8; constant time,
 * a word at a time: this runs on every block (ct_compare's byte loop was
 * 1.7% of the instructions of a 4 KiB AES-GCM seal, callgrind). */
static uint64_t key_differs(const uint8_t *a, const uint8_t *b, size_t n)
{
	uint64_t d = 0, x, y;

	for (size_t i = 0; i < n; i += 8) {
		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		d |= x ^ y;
	}
	return d;
}

/* kc's context, created on first use (in the caller's secret scope); 1
 * when it must be (re)keyed for key[0..keylen-1] with parameter param. */
static int kc_needs_key(struct keyed_ctx *kc, const uint8_t *key, size_t keylen,
			size_t param)
{
	int differs;

	if (kc->ctx == NULL)
		kc->ctx = ctx_new();
	/* whether the key is the cached one is public by design: a volume
	 * keys each context once, and which call rekeys shows in the call
	 * pattern anyway (ct.h ct_public; tests/ct/) */
	differs = key_differs(kc->key, key, keylen) != 0;
	ct_public(&differs, sizeof(differs));
	return kc->param != param || differs;
}

static void kc_keyed(struct keyed_ctx *kc, const uint8_t *key, size_t keylen,
		     size_t param)
{
	memcpy(kc->key, key, keylen);
	kc->param = param;
}

/* ---------------------------------------------------------------- GCM */

int ossl_gcm_backend_enable(void)
{
	if (gcm_gcrypt_init() != 0)
		return -1;
	atomic_store_explicit(&gcm_backend, 1, memory_order_relaxed);
	return 0;
}

void ossl_gcm_backend_disable(void)
{
	atomic_store_explicit(&gcm_backend, 0, memory_order_relaxed);
}

static int use_gcrypt(void)
{
	return atomic_load_explicit(&gcm_backend, memory_order_relaxed);
}

const char *ossl_gcm_backend(void)
{
	return use_gcrypt() ? "gcrypt" : "OpenSSL";
}

/* Return this thread's GCM context for direction enc, keyed with key and
 * ready for an IV of ivlen bytes. Re-keys only when key or ivlen changed. */
static EVP_CIPHER_CTX *gcm_ctx(int enc, const uint8_t key[32], size_t ivlen)
{
	struct keyed_ctx *kc = &tls_get()->gcm[enc ? 1 : 0];

	ossl_mem_enter();
	if (kc_needs_key(kc, key, 32, ivlen)) {
		if (EVP_CipherInit_ex(kc->ctx, gcm_cipher, NULL, NULL, NULL,
				      enc) != 1 ||
		    EVP_CIPHER_CTX_ctrl(kc->ctx, EVP_CTRL_AEAD_SET_IVLEN,
					(int)ivlen, NULL) != 1 ||
		    EVP_CipherInit_ex(kc->ctx, NULL, NULL, key, NULL, enc) != 1)
			ossl_die("AES-256-GCM init");
		kc_keyed(kc, key, 32, ivlen);
	}
	ossl_mem_leave();
	return kc->ctx;
}

void ossl_gcm_seal(uint8_t *c, uint8_t tag[16], const uint8_t *m, size_t len,
		   const uint8_t *ad, size_t adlen, const uint8_t key[32],
		   const uint8_t *iv, size_t ivlen)
{
	EVP_CIPHER_CTX *ctx;
	int l = 0, l2 = 0;

	assert(ivlen == 12 || ivlen == 16);
	assert(len <= INT_MAX && adlen <= INT_MAX);
	if (use_gcrypt()) {
		gcm_gcrypt_seal(&tls_get()->gcr, c, tag, m, len, ad, adlen, key,
				iv, ivlen);
		return;
	}
	ctx = gcm_ctx(1, key, ivlen);
	if (EVP_EncryptInit_ex(ctx, NULL, NULL, NULL, iv) != 1)
		ossl_die("AES-256-GCM set IV");
	if (adlen > 0 && EVP_EncryptUpdate(ctx, NULL, &l, ad, (int)adlen) != 1)
		ossl_die("AES-256-GCM AAD");
	l = 0;
	if (len > 0 && EVP_EncryptUpdate(ctx, c, &l, m, (int)len) != 1)
		ossl_die("AES-256-GCM encrypt");
	if (EVP_EncryptFinal_ex(ctx, c + l, &l2) != 1 ||
	    (size_t)l + (size_t)l2 != len ||
	    EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag) != 1)
		ossl_die("AES-256-GCM final");
}

int ossl_gcm_open(uint8_t *m, const uint8_t *c, size_t len,
		  const uint8_t tag[16], const uint8_t *ad, size_t adlen,
		  const uint8_t key[32], const uint8_t *iv, size_t ivlen)
{
	EVP_CIPHER_CTX *ctx;
	uint8_t t[16];
	int l = 0, l2 = 0;

	assert(ivlen == 12 || ivlen == 16);
	assert(len <= INT_MAX && adlen <= INT_MAX);
	if (use_gcrypt())
		return gcm_gcrypt_open(&tls_get()->gcr, m, c, len, tag, ad,
				       adlen, key, iv, ivlen);
	ctx = gcm_ctx(0, key, ivlen);
	memcpy(t, tag, 16);
	if (EVP_DecryptInit_ex(ctx, NULL, NULL, NULL, iv) != 1 ||
	    EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16, t) != 1)
		ossl_die("AES-256-GCM set IV/tag");
	if (adlen > 0 && EVP_DecryptUpdate(ctx, NULL, &l, ad, (int)adlen) != 1)
		ossl_die("AES-256-GCM AAD");
	l = 0;
	if (len > 0 && EVP_DecryptUpdate(ctx, m, &l, c, (int)len) != 1)
		ossl_die("AES-256-GCM decrypt");
	if (EVP_DecryptFinal_ex(ctx, m + l, &l2) != 1 ||
	    (size_t)l + (size_t)l2 != len) {
		/* bad tag: the plaintext written so far must not escape */
		if (len > 0)
			ct_wipe(m, len);
		return -1;
	}
	return 0;
}

/* ---------------------------------------------------------------- SIV */

/* A fresh working context for key: a copy of the keyed template (OpenSSL's
 * SIV state cannot be reset without re-keying; copying is cheaper). */
static EVP_CIPHER_CTX *siv_ctx(int enc, const uint8_t key[64])
{
	struct tls_state *t = tls_get();
	struct keyed_ctx *tmpl = &t->siv[0], *work = &t->siv[1];

	ossl_mem_enter();
	if (work->ctx == NULL)
		work->ctx = ctx_new();
	if (kc_needs_key(tmpl, key, 64, 1)) {
		if (EVP_CipherInit_ex(tmpl->ctx, siv_cipher, NULL, key, NULL,
				      1) != 1)
			ossl_die("AES-256-SIV init");
		kc_keyed(tmpl, key, 64, 1);
	}
	if (EVP_CIPHER_CTX_copy(work->ctx, tmpl->ctx) != 1 ||
	    EVP_CipherInit_ex(work->ctx, NULL, NULL, NULL, NULL, enc) != 1)
		ossl_die("AES-256-SIV copy");
	ossl_mem_leave();
	return work->ctx;
}

/* AES-CMAC with the 32-byte key k1 (for the empty-plaintext S2V). */
static void cmac(uint8_t out[16], const uint8_t k1[32], const uint8_t *m,
		 size_t len)
{
	EVP_MAC *mac = EVP_MAC_fetch(NULL, "CMAC", NULL);
	EVP_MAC_CTX *mc = mac != NULL ? EVP_MAC_CTX_new(mac) : NULL;
	char cipher[] = "AES-256-CBC";
	OSSL_PARAM params[2];
	size_t outl = 0;

	params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER,
						     cipher, 0);
	params[1] = OSSL_PARAM_construct_end();
	if (mc == NULL || EVP_MAC_init(mc, k1, 32, params) != 1 ||
	    EVP_MAC_update(mc, m, len) != 1 ||
	    EVP_MAC_final(mc, out, &outl, 16) != 1 || outl != 16)
		ossl_die("CMAC");
	EVP_MAC_CTX_free(mc);
	EVP_MAC_free(mac);
}

/* RFC 5297 dbl(): big-endian doubling in GF(2^128). */
static void dbl_be(uint8_t d[16])
{
	uint8_t carry = (uint8_t)(d[0] >> 7);

	for (int i = 0; i < 15; i++)
		d[i] = (uint8_t)((d[i] << 1) | (d[i + 1] >> 7));
	d[15] = (uint8_t)((d[15] << 1) ^ (carry ? 0x87 : 0));
}

/* V = S2V(K1, ad, [nonce], empty plaintext): RFC 5297 section 2.4. */
static void s2v_empty(uint8_t v[16], const uint8_t k1[32], const uint8_t *ad,
		      size_t adlen, const uint8_t *nonce, size_t noncelen)
{
	static const uint8_t zero[16];
	uint8_t d[16], t[16];

	ossl_mem_enter(); /* the CMAC contexts hold K1 */
	cmac(d, k1, zero, 16);
	dbl_be(d);
	cmac(t, k1, ad, adlen);
	for (int i = 0; i < 16; i++)
		d[i] ^= t[i];
	if (nonce != NULL) {
		dbl_be(d);
		cmac(t, k1, nonce, noncelen);
		for (int i = 0; i < 16; i++)
			d[i] ^= t[i];
	}
	/* last component shorter than 16 bytes: dbl(D) xor pad(empty) */
	dbl_be(d);
	d[0] ^= 0x80;
	cmac(v, k1, d, 16);
	ossl_mem_leave();
	ct_wipe(d, sizeof(d));
	ct_wipe(t, sizeof(t));
}

/* Feed the S2V header components (AD, then the nonce if any). */
static void siv_headers(EVP_CIPHER_CTX *ctx, const uint8_t *ad, size_t adlen,
			const uint8_t *nonce, size_t noncelen)
{
	static const uint8_t empty[1];
	int l = 0;

	assert(adlen <= INT_MAX && noncelen <= INT_MAX);
	if (EVP_CipherUpdate(ctx, NULL, &l, adlen > 0 ? ad : empty,
			     (int)adlen) != 1)
		ossl_die("AES-256-SIV AD");
	if (nonce != NULL &&
	    EVP_CipherUpdate(ctx, NULL, &l, nonce, (int)noncelen) != 1)
		ossl_die("AES-256-SIV nonce");
}

void ossl_siv_seal(uint8_t *c, uint8_t tag[16], const uint8_t *m, size_t len,
		   const uint8_t *ad, size_t adlen, const uint8_t key[64],
		   const uint8_t *nonce, size_t noncelen)
{
	EVP_CIPHER_CTX *ctx;
	int l = 0, l2 = 0;

	assert(len <= INT_MAX);
	if (len == 0) {
		s2v_empty(tag, key, ad, adlen, nonce, noncelen);
		return;
	}
	ctx = siv_ctx(1, key);
	siv_headers(ctx, ad, adlen, nonce, noncelen);
	if (EVP_EncryptUpdate(ctx, c, &l, m, (int)len) != 1 ||
	    EVP_EncryptFinal_ex(ctx, c + l, &l2) != 1 ||
	    (size_t)l + (size_t)l2 != len ||
	    EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag) != 1)
		ossl_die("AES-256-SIV encrypt");
}

int ossl_siv_open(uint8_t *m, const uint8_t *c, size_t len,
		  const uint8_t tag[16], const uint8_t *ad, size_t adlen,
		  const uint8_t key[64], const uint8_t *nonce, size_t noncelen)
{
	EVP_CIPHER_CTX *ctx;
	uint8_t t[16];
	int l = 0, l2 = 0, ok;

	assert(len <= INT_MAX);
	if (len == 0) {
		s2v_empty(t, key, ad, adlen, nonce, noncelen);
		ok = ct_compare(t, tag, 16) == 0;
		ct_wipe(t, sizeof(t));
		return ok ? 0 : -1;
	}
	ctx = siv_ctx(0, key);
	memcpy(t, tag, 16);
	if (EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16, t) != 1)
		ossl_die("AES-256-SIV set tag");
	siv_headers(ctx, ad, adlen, nonce, noncelen);
	/* OpenSSL checks V inside the update call and cleanses its output on
	 * mismatch; wipe again in case that ever changes. */
	ok = EVP_DecryptUpdate(ctx, m, &l, c, (int)len) == 1 &&
	     (size_t)l == len && EVP_DecryptFinal_ex(ctx, m + l, &l2) == 1 &&
	     l2 == 0;
	if (!ok) {
		ct_wipe(m, len);
		return -1;
	}
	return 0;
}

/* ---------------------------------------------------------------- ECB */

void ossl_aes256_ecb(uint8_t *out, const uint8_t *in, size_t nblocks,
		     const uint8_t key[32], int decrypt)
{
	int enc = decrypt ? 0 : 1;
	struct keyed_ctx *kc;
	int l = 0;

	assert(nblocks <= INT_MAX / 16);
	if (nblocks == 0)
		return;
	kc = &tls_get()->ecb[enc];
	ossl_mem_enter();
	if (kc_needs_key(kc, key, 32, 1)) {
		if (EVP_CipherInit_ex(kc->ctx, ecb_cipher, NULL, key, NULL,
				      enc) != 1 ||
		    EVP_CIPHER_CTX_set_padding(kc->ctx, 0) != 1)
			ossl_die("AES-256-ECB init");
		kc_keyed(kc, key, 32, 1);
	}
	ossl_mem_leave();
	if (EVP_CipherUpdate(kc->ctx, out, &l, in, (int)(nblocks * 16)) != 1 ||
	    (size_t)l != nblocks * 16)
		ossl_die("AES-256-ECB");
}

/* ---------------------------------------------------------------- misc */

void ossl_sha256(uint8_t out[32], const uint8_t *m, size_t len)
{
	static const uint8_t empty[1];
	unsigned int outl = 0;

	if (EVP_Digest(len > 0 ? m : empty, len, out, &outl, EVP_sha256(),
		       NULL) != 1 ||
	    outl != 32)
		ossl_die("SHA-256");
}

void ossl_random(uint8_t *out, size_t len)
{
	while (len > 0) {
		int n = len > (size_t)INT_MAX ? INT_MAX : (int)len;

		if (RAND_bytes(out, n) != 1)
			ossl_die("RAND_bytes");
		out += n;
		len -= (size_t)n;
	}
}
