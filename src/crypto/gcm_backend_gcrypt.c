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
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gcrypt.h>

#include "crypto/ct.h"
#include "crypto/ossl_mem.h"

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static int init_rc = -1;
static int own_alloc; /* 1 when our allocation handler is installed */

_Noreturn static void die(const char *what, gcry_error_t err)
{
	fprintf(stderr, "vcryptfs: fatal: libgcrypt: %s: %s\n", what,
		gcry_strerror(err));
	abort();
}

/* --------------------------------------- libgcrypt's allocation handler */

/* free() for a block of libc's heap, wiped first (a secure request that
 * did not fit the arena, or a plain one: libgcrypt wipes only its own
 * secure pool, which the handler replaces). */
static void heap_free(void *p)
{
	explicit_bzero(p, malloc_usable_size(p));
	free(p);
}

/* Secure: the arena; when it is full (counted by ossl_mem_stats), the
 * heap, so that a busy daemon slows down in hygiene rather than dies
 * (test 73-secrets would find the key there). */
static void *alloc_secure(size_t n)
{
	void *p = ossl_mem_alloc(n);

	return p != NULL ? p : malloc(n);
}

static int is_secure(const void *p)
{
	return ossl_mem_owns(p);
}

static void *alloc_plain(size_t n)
{
	return malloc(n);
}

static void free_any(void *p)
{
	if (p == NULL)
		return;
	if (ossl_mem_owns(p))
		ossl_mem_free(p);
	else
		heap_free(p);
}

/* An arena block stays in the arena (ossl_mem_realloc); a heap block is
 * moved by hand so that the old one is wiped. */
static void *realloc_any(void *p, size_t n)
{
	size_t have;
	void *q;

	if (p == NULL)
		return malloc(n);
	if (ossl_mem_owns(p))
		return ossl_mem_realloc(p, n);
	if (n == 0) {
		heap_free(p);
		return NULL;
	}
	have = malloc_usable_size(p);
	q = malloc(n);
	if (q == NULL)
		return NULL;
	memcpy(q, p, have < n ? have : n);
	heap_free(p);
	return q;
}

/* ------------------------------------------------------------- init */

static void global_init(void)
{
	/*
	 * The handler before the version check (libgcrypt's rule: it must
	 * be the first call), and only when nothing initialised libgcrypt
	 * yet: blocks of its own pool must never reach free_any. With it,
	 * every gcry_malloc_secure (the GCRY_CIPHER_SECURE handles) lands in
	 * ossl_mem's locked, no-dump arena, and libgcrypt's secure pool
	 * (mlock'd, but in core dumps) is never initialised.
	 */
	if (ossl_mem_ready() && !gcry_control(GCRYCTL_ANY_INITIALIZATION_P)) {
		gcry_set_allocation_handler(alloc_plain, alloc_secure,
					    is_secure, realloc_any, free_any);
		own_alloc = 1;
	}
	if (gcry_check_version("1.10.0") == NULL)
		return;
	if (!gcry_control(GCRYCTL_INITIALIZATION_FINISHED_P)) {
		/* no "using insecure memory" line when mlock is refused */
		gcry_control(GCRYCTL_DISABLE_SECMEM_WARN);
		if (!own_alloc) {
			/* no arena (unit tests, benchmarks): libgcrypt's own
			 * pool, mlock'd and grown on demand (one pair of
			 * handles per thread) */
			gcry_control(GCRYCTL_AUTO_EXPAND_SECMEM, 32768);
			gcry_control(GCRYCTL_INIT_SECMEM, 32768, 0);
		}
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

int gcm_gcrypt_in_arena(void)
{
	return own_alloc;
}

const char *gcm_gcrypt_version(void)
{
	return init_rc == 0 ? gcry_check_version(NULL) : NULL;
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
