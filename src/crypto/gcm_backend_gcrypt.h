/* SPDX-License-Identifier: MIT */
/*
 * AES-256-GCM through libgcrypt: the backend behind ossl_gcm_seal and
 * ossl_gcm_open (ossl_aead.h) where libgcrypt is faster than OpenSSL 3.0's
 * per-message EVP sequence (issue 21; bench/bench_gcm.c measures both: on
 * an AVX-512 EPYC libgcrypt 1.10 seals a 4 KiB gocryptfs block about 1.4x
 * as fast, with VAES for the counter mode and no per-message provider
 * dispatch). Same contract as the wrapper: same bytes for the same key,
 * IV, AD and plaintext; an open with a bad tag zeroes its output.
 * Wired: ossl_aead.c branches ossl_gcm_seal/ossl_gcm_open here once
 * ossl_gcm_backend_enable() succeeded (the mount does, in the serving
 * process; -speed too), with the state in its per-thread locked struct.
 * Memory: the caller owns the per-thread state (struct gcm_gcrypt; put it
 * in locked memory, it holds a copy of the key). libgcrypt keeps the key
 * schedule and GHASH key inside its cipher handles, opened with
 * GCRY_CIPHER_SECURE. When ossl_mem_init() gave crypto/ an arena before
 * the first call here, gcm_gcrypt_init() installs libgcrypt's allocation
 * handler (gcry_set_allocation_handler, before gcry_check_version): every
 * secure allocation goes to that locked, no-dump arena (ossl_mem_alloc;
 * to the heap only when the arena is full, counted by ossl_mem_stats),
 * libgcrypt's own secure pool (mlock'd but not MADV_DONTDUMP) is never
 * set up, and every free wipes the block. Without an arena (unit tests,
 * fuzzers, benchmarks) libgcrypt's own pool serves, as before.
 * Fork: mlock is not inherited by a child. The arena is a base/secmem
 * mapping, locked again by secmem_relock() in the daemon's child; without
 * an arena gcm_gcrypt_init() maps and locks libgcrypt's pool, so a
 * process that forks to serve (fuse/mount.c) makes its first call here in
 * the child either way.
 * Depends on: libgcrypt (>= 1.10), ct.h, ossl_mem.h. Not proved (libgcrypt is opaque).
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
 * check, secure memory (ossl_mem's arena when it has one, else
 * libgcrypt's auto-expanding pool), no warnings on stderr. Returns 0
 * when the backend can be used, -1 when it cannot (libgcrypt older than
 * 1.10, or in FIPS mode, which libgcrypt restricts and nothing here has
 * tested); then the caller keeps its OpenSSL path.
 */
int gcm_gcrypt_init(void);

/* 1 when gcm_gcrypt_init() installed the allocation handler (secure
 * allocations in ossl_mem's arena), else 0. */
int gcm_gcrypt_in_arena(void);

/* libgcrypt's version string once gcm_gcrypt_init() returned 0, else
 * NULL. */
const char *gcm_gcrypt_version(void);

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
