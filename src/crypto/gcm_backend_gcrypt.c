/* SPDX-License-Identifier: MIT */
/*
 * AES-256-GCM through libgcrypt (see gcm_backend_gcrypt.h for why and
 * the contract). One handle per thread and direction, keyed when the key
 * changes; per message only setiv, authenticate, encrypt/decrypt and
 * gettag/checktag, the cheapest sequence bench/bench_gcm.c found.
 * Spec: NIST SP 800-38D (GCM, any IV length); ../shared/FORMAT.md 4.4.
 * Depends on: libgcrypt, ct.h. Not proved.
 */
#include "crypto/gcm_backend_gcrypt.h"

#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gcrypt.h>

#include "crypto/ct.h"

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static int init_rc = -1;

_Noreturn static void die(const char *what, gcry_error_t err)
{
	fprintf(stderr, "vcryptfs: fatal: libgcrypt: %s: %s\n", what,
		gcry_strerror(err));
	abort();
}

static void global_init(void)
{
	/* libgcrypt's rule: the version check is the first call */
	if (gcry_check_version("1.10.0") == NULL)
		return;
	if (!gcry_control(GCRYCTL_INITIALIZATION_FINISHED_P)) {
		/* secure memory for the handles: mlock'd pages, grown on
		 * demand (one pair of handles per thread); no "using insecure
		 * memory" line when mlock is refused */
		gcry_control(GCRYCTL_DISABLE_SECMEM_WARN);
		gcry_control(GCRYCTL_AUTO_EXPAND_SECMEM, 32768);
		gcry_control(GCRYCTL_INIT_SECMEM, 32768, 0);
		gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
	}
	if (gcry_fips_mode_active())
		return;
	init_rc = 0;
}

int gcm_gcrypt_init(void)
{
	if (pthread_once(&init_once, global_init) != 0)
		return -1;
	return init_rc;
}

/* Whether key differs from the one handle dir holds; constant time in
 * the key bytes, the answer public by design (as ossl_aead.c's). */
static int needs_key(const struct gcm_gcrypt *st, int dir,
		     const uint8_t key[32])
{
	uint64_t d = 0, x, y;
	int differs;

	for (size_t i = 0; i < 32; i += 8) {
		memcpy(&x, st->key[dir] + i, 8);
		memcpy(&y, key + i, 8);
		d |= x ^ y;
	}
	differs = d != 0;
	ct_public(&differs, sizeof(differs));
	return !st->keyed[dir] || differs;
}

/* st's handle for dir (0 open, 1 seal), keyed with key and set to iv. */
static gcry_cipher_hd_t handle(struct gcm_gcrypt *st, int dir,
			       const uint8_t key[32], const uint8_t *iv,
			       size_t ivlen)
{
	gcry_cipher_hd_t h = st->h[dir];
	gcry_error_t e;

	assert(ivlen == 12 || ivlen == 16);
	assert(init_rc == 0);
	if (h == NULL) {
		e = gcry_cipher_open(&h, GCRY_CIPHER_AES256,
				     GCRY_CIPHER_MODE_GCM, GCRY_CIPHER_SECURE);
		if (e != 0)
			die("open AES-256-GCM", e);
		st->h[dir] = h;
	}
	if (needs_key(st, dir, key)) {
		e = gcry_cipher_setkey(h, key, 32);
		if (e != 0)
			die("AES-256-GCM set key", e);
		memcpy(st->key[dir], key, 32);
		st->keyed[dir] = 1;
	}
	e = gcry_cipher_setiv(h, iv, ivlen);
	if (e != 0)
		die("AES-256-GCM set IV", e);
	return h;
}

void gcm_gcrypt_seal(struct gcm_gcrypt *st, uint8_t *c, uint8_t tag[16],
		     const uint8_t *m, size_t len, const uint8_t *ad,
		     size_t adlen, const uint8_t key[32], const uint8_t *iv,
		     size_t ivlen)
{
	gcry_cipher_hd_t h = handle(st, 1, key, iv, ivlen);
	gcry_error_t e = 0;

	if (adlen > 0)
		e = gcry_cipher_authenticate(h, ad, adlen);
	if (e == 0 && len > 0)
		e = gcry_cipher_encrypt(h, c, len, m, len);
	if (e == 0)
		e = gcry_cipher_gettag(h, tag, 16);
	if (e != 0)
		die("AES-256-GCM seal", e);
}

int gcm_gcrypt_open(struct gcm_gcrypt *st, uint8_t *m, const uint8_t *c,
		    size_t len, const uint8_t tag[16], const uint8_t *ad,
		    size_t adlen, const uint8_t key[32], const uint8_t *iv,
		    size_t ivlen)
{
	gcry_cipher_hd_t h = handle(st, 0, key, iv, ivlen);
	gcry_error_t e = 0;

	if (adlen > 0)
		e = gcry_cipher_authenticate(h, ad, adlen);
	if (e == 0 && len > 0)
		e = gcry_cipher_decrypt(h, m, len, c, len);
	if (e != 0)
		die("AES-256-GCM open", e);
	/* constant-time compare inside libgcrypt; any error is a reject */
	if (gcry_cipher_checktag(h, tag, 16) != 0) {
		/* the plaintext written so far must not escape */
		if (len > 0)
			ct_wipe(m, len);
		return -1;
	}
	return 0;
}

void gcm_gcrypt_release(struct gcm_gcrypt *st)
{
	for (int i = 0; i < 2; i++)
		if (st->h[i] != NULL)
			gcry_cipher_close(st->h[i]);
	ct_wipe(st, sizeof(*st));
}
