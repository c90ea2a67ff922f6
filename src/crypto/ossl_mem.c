/* SPDX-License-Identifier: MIT */
/*
 * libcrypto allocation hooks and the locked arena behind them (see
 * ossl_mem.h). A block is a 16-byte header (its size class, and the
 * free-list link while it is free) followed by the caller's bytes; class
 * k holds 32 << k bytes with the header.
 * STYLE.md 1 keeps locks and malloc out of crypto/; this file is the
 * exception, written down here: it is libcrypto's allocator (a mutex
 * around the arena, malloc for what stays outside it), and it sits beside
 * the wrappers that open the scopes because crypto/ cannot see base/.
 * The same arena serves libgcrypt's secure allocations through
 * ossl_mem_alloc/free/realloc/owns (gcm_backend_gcrypt.c's handler):
 * one allocator, one mutex, for both libraries.
 * Depends on: libcrypto (CRYPTO_set_mem_functions, fetches), libc. Not
 * proved.
 */
#include "crypto/ossl_mem.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>

#include "crypto/ct.h"

#define HDR 16
#define MIN_SHIFT 5
#define NCLASS 12 /* 32 B .. 64 KiB */
#define MAGIC 0x6b65796du

struct hdr {
	uint32_t cls;
	uint32_t magic;
	struct hdr *next; /* on a free list */
};

_Static_assert(sizeof(struct hdr) <= HDR, "block header too big");

/* Set once by ossl_mem_init before the hooks go live, read-only after. */
static uint8_t *a_mem;
static size_t a_len;

static pthread_mutex_t a_lock = PTHREAD_MUTEX_INITIALIZER;
static size_t a_top;		   /* bytes of the arena carved so far */
static struct hdr *a_free[NCLASS]; /* freed blocks of each class */
static size_t a_used;		   /* bytes in blocks handed out */
static unsigned long a_spills;	   /* scoped requests that went to malloc */

static _Thread_local unsigned tl_scope;

void ossl_mem_enter(void)
{
	tl_scope++;
}

void ossl_mem_leave(void)
{
	tl_scope--;
}

static int in_arena(const void *p)
{
	return a_len != 0 && (uintptr_t)p - (uintptr_t)a_mem < a_len;
}

static size_t class_size(uint32_t cls)
{
	return (size_t)1 << (cls + MIN_SHIFT);
}

/* A block for n bytes, or NULL (too large, or the arena is full). */
static void *arena_alloc(size_t n)
{
	uint32_t cls = 0;
	struct hdr *h = NULL;

	if (n > class_size(NCLASS - 1) - HDR)
		return NULL;
	while (class_size(cls) - HDR < n)
		cls++;
	pthread_mutex_lock(&a_lock);
	if (a_free[cls] != NULL) {
		h = a_free[cls];
		a_free[cls] = h->next;
	} else if (a_len - a_top >= class_size(cls)) {
		h = (struct hdr *)(void *)(a_mem + a_top);
		a_top += class_size(cls);
	}
	if (h != NULL)
		a_used += class_size(cls);
	else
		a_spills++;
	pthread_mutex_unlock(&a_lock);
	if (h == NULL)
		return NULL;
	h->cls = cls;
	h->magic = MAGIC;
	h->next = NULL;
	return h + 1; /* zero: fresh, or wiped when it was freed */
}

static void arena_free(void *p)
{
	struct hdr *h = (struct hdr *)p - 1;
	uint32_t cls = h->cls;

	if (h->magic != MAGIC || cls >= NCLASS)
		abort(); /* not a block of ours: heap corruption */
	ct_wipe(p, class_size(cls) - HDR);
	pthread_mutex_lock(&a_lock);
	h->next = a_free[cls];
	a_free[cls] = h;
	a_used -= class_size(cls);
	pthread_mutex_unlock(&a_lock);
}

static void *hook_malloc(size_t n, const char *file, int line)
{
	(void)file;
	(void)line;
	if (n == 0)
		return NULL; /* as libcrypto's own CRYPTO_malloc */
	if (tl_scope > 0) {
		void *p = arena_alloc(n);

		if (p != NULL)
			return p;
	}
	return malloc(n);
}

static void hook_free(void *p, const char *file, int line)
{
	(void)file;
	(void)line;
	ossl_mem_free(p);
}

static void *hook_realloc(void *p, size_t n, const char *file, int line)
{
	if (p == NULL)
		return hook_malloc(n, file, line);
	return ossl_mem_realloc(p, n);
}

/* ------------------------------------------- the arena for a second client */

int ossl_mem_ready(void)
{
	return a_len != 0;
}

void *ossl_mem_alloc(size_t n)
{
	if (n == 0 || a_len == 0)
		return NULL;
	return arena_alloc(n);
}

int ossl_mem_owns(const void *p)
{
	return in_arena(p);
}

void ossl_mem_free(void *p)
{
	if (in_arena(p))
		arena_free(p);
	else
		free(p);
}

void *ossl_mem_realloc(void *p, size_t n)
{
	size_t have;
	void *q;

	if (!in_arena(p))
		return realloc(p, n);
	if (n == 0) {
		arena_free(p);
		return NULL;
	}
	have = class_size(((struct hdr *)p - 1)->cls) - HDR;
	if (n <= have)
		return p;
	/* a block of the arena stays in it, scope or not */
	q = arena_alloc(n);
	if (q == NULL)
		q = malloc(n);
	if (q == NULL)
		return NULL;
	memcpy(q, p, have);
	arena_free(p);
	return q;
}

/* Fetch and drop each algorithm the wrappers use: libcrypto keeps them in
 * its method cache, allocated here outside any scope. */
static void preload(void)
{
	static const char *const ciphers[] = { "AES-256-GCM", "AES-256-ECB",
					       "AES-256-SIV", "AES-256-CTR",
					       "AES-256-CBC" };
	static const char *const kdfs[] = { "HKDF", "SCRYPT", "PBKDF2" };
	static const char *const macs[] = { "CMAC", "HMAC" };
	static const char *const mds[] = { "SHA256", "SHA512" };

	for (size_t i = 0; i < sizeof(ciphers) / sizeof(ciphers[0]); i++)
		EVP_CIPHER_free(EVP_CIPHER_fetch(NULL, ciphers[i], NULL));
	for (size_t i = 0; i < sizeof(kdfs) / sizeof(kdfs[0]); i++)
		EVP_KDF_free(EVP_KDF_fetch(NULL, kdfs[i], NULL));
	for (size_t i = 0; i < sizeof(macs) / sizeof(macs[0]); i++)
		EVP_MAC_free(EVP_MAC_fetch(NULL, macs[i], NULL));
	for (size_t i = 0; i < sizeof(mds) / sizeof(mds[0]); i++)
		EVP_MD_free(EVP_MD_fetch(NULL, mds[i], NULL));
}

int ossl_mem_init(void *arena, size_t len)
{
	if (arena == NULL || ((uintptr_t)arena & (HDR - 1)) != 0 ||
	    len < class_size(NCLASS))
		return -1;
	a_mem = arena;
	a_len = len;
	if (CRYPTO_set_mem_functions(hook_malloc, hook_realloc, hook_free) !=
	    1) {
		a_mem = NULL;
		a_len = 0;
		return -1;
	}
	preload();
	return 0;
}

void ossl_mem_stats(size_t *used, unsigned long *spills)
{
	pthread_mutex_lock(&a_lock);
	if (used != NULL)
		*used = a_used;
	if (spills != NULL)
		*spills = a_spills;
	pthread_mutex_unlock(&a_lock);
}
