/* SPDX-License-Identifier: MIT */
/*
 * AES-256-GCM through libgcrypt: the backend behind ossl_gcm_seal and
 * ossl_gcm_open (ossl_aead.h) where libgcrypt is faster than OpenSSL 3.0's
 * per-message EVP sequence (issue 21; bench/bench_gcm.c measures both: on
 * an AVX-512 EPYC libgcrypt 1.10 seals a 4 KiB gocryptfs block about 1.4x
 * as fast, with VAES for the counter mode and no per-message provider
 * dispatch). Same contract as the wrapper: same bytes for the same key,
 * IV, AD and plaintext; an open with a bad tag zeroes its output.
 * Memory: the caller owns the per-thread state (struct gcm_gcrypt; put it
 * in locked memory, it holds a copy of the key). libgcrypt keeps the key
 * schedule inside its cipher handles, opened with GCRY_CIPHER_SECURE:
 * libgcrypt's own secure memory, mlock'd and wiped on close.
 * Fork: mlock is not inherited by a child, and gcm_gcrypt_init() maps and
 * locks libgcrypt's pool; a process that forks to serve (fuse/mount.c)
 * must make its first call here in the child.
 * Depends on: libgcrypt (>= 1.10), ct.h. Not proved (libgcrypt is opaque).
 */
#ifndef VCRYPTFS_GCM_BACKEND_GCRYPT_H
#define VCRYPTFS_GCM_BACKEND_GCRYPT_H

#include <stddef.h>
#include <stdint.h>

/* One thread's state: [0] opens, [1] seals. Zero it before first use. */
struct gcm_gcrypt {
	void *h[2];	    /* gcry_cipher_hd_t, NULL until first use */
	uint8_t key[2][32]; /* the key handle i holds */
	size_t keyed[2];    /* 1 once handle i holds key[i] */
};

/*
 * Initialise libgcrypt once per process (thread-safe, idempotent): version
 * check, secure memory (auto-expanding), no warnings on stderr. Returns 0
 * when the backend can be used, -1 when it cannot (libgcrypt older than
 * 1.10, or in FIPS mode, which libgcrypt restricts and nothing here has
 * tested); then the caller keeps its OpenSSL path.
 */
int gcm_gcrypt_init(void);

/* AES-256-GCM seal, as ossl_gcm_seal: c may equal m; ivlen 12 or 16;
 * ad may be NULL when adlen is 0. st is the calling thread's state.
 * gcm_gcrypt_init() must have returned 0. A libgcrypt failure aborts. */
void gcm_gcrypt_seal(struct gcm_gcrypt *st, uint8_t *c, uint8_t tag[16],
		     const uint8_t *m, size_t len, const uint8_t *ad,
		     size_t adlen, const uint8_t key[32], const uint8_t *iv,
		     size_t ivlen);

/* AES-256-GCM open, as ossl_gcm_open: 0, or -1 on a bad tag with
 * m[0..len-1] zeroed. */
int gcm_gcrypt_open(struct gcm_gcrypt *st, uint8_t *m, const uint8_t *c,
		    size_t len, const uint8_t tag[16], const uint8_t *ad,
		    size_t adlen, const uint8_t key[32], const uint8_t *iv,
		    size_t ivlen);

/* Close st's handles (libgcrypt wipes their secure memory) and wipe st. */
void gcm_gcrypt_release(struct gcm_gcrypt *st);

#endif
