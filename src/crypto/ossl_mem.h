/* SPDX-License-Identifier: MIT */
/*
 * libcrypto's key-bearing allocations in locked memory. OpenSSL 3.0 puts
 * its cipher, MAC and KDF contexts (AES key schedules, GCM tables, HKDF
 * and HMAC key copies) in ordinary heap, and its own secure heap is only
 * used for private keys. ossl_mem_init() installs allocation hooks
 * (CRYPTO_set_mem_functions) that place every libcrypto allocation made
 * inside a secret scope (ossl_mem_enter/ossl_mem_leave, used by
 * ossl_aead.c and kdf.c around every call that keys a context) in an
 * arena that the caller passes in: locked, no-dump memory from above
 * (cli/ gives a base/secmem mapping; crypto/ cannot include base/).
 * Everything else goes to malloc as before. Without ossl_mem_init (unit
 * tests, fuzzers, benchmarks) the scopes change nothing.
 * Arena: power-of-two size classes of 32 B..64 KiB, freed blocks wiped
 * and kept on their class's list (no coalescing: libcrypto allocates the
 * same few sizes again and again). A larger request goes to malloc by
 * design (scrypt's 64 MiB V array: password-derived state, no key; the
 * scrypt output itself is written to the caller's locked buffer); a
 * request that no longer fits the arena goes to malloc too and is
 * counted (ossl_mem_stats).
 * Second client: libgcrypt (gcm_backend_gcrypt.c) puts its secure
 * allocations (the AES-256-GCM handles: key schedule, GHASH key) in the
 * same arena through ossl_mem_alloc / ossl_mem_free / ossl_mem_realloc,
 * and answers libgcrypt's "is this secure?" with ossl_mem_owns.
 * Spec: none (hygiene). Depends on: libcrypto, libc. Thread-safe: one
 * mutex around the arena; the scope is a per-thread counter.
 */
#ifndef VCRYPTFS_OSSL_MEM_H
#define VCRYPTFS_OSSL_MEM_H

#include <stddef.h>

/*
 * Hand libcrypto the arena [arena, arena + len) (16-byte aligned, len >=
 * 64 KiB) and install the hooks, then load libcrypto's providers and
 * algorithms outside any scope (so that they stay out of the arena).
 * Must run before any other libcrypto call of the process. Returns 0, or
 * -1 when libcrypto refused the hooks (it had allocated already) or the
 * arguments are unusable; then nothing changed.
 */
int ossl_mem_init(void *arena, size_t len);

/* Enter / leave a secret scope on this thread (they nest). */
void ossl_mem_enter(void);
void ossl_mem_leave(void);

/* Bytes of the arena in use (blocks handed out, by class size), and how
 * many scoped allocations did not fit it and went to malloc (a request
 * above 64 KiB is not counted: see the head comment). */
void ossl_mem_stats(size_t *used, unsigned long *spills);

/* 1 once ossl_mem_init() handed over an arena, else 0. */
int ossl_mem_ready(void);

/*
 * The arena for another allocator (libgcrypt's handler): a zeroed block of
 * n bytes (n <= 64 KiB - 16), 16-byte aligned, or NULL (n == 0, no arena,
 * too large, or the arena is full: counted as a spill, the caller decides
 * where to go instead). Thread-safe.
 */
void *ossl_mem_alloc(size_t n);

/* 1 when p points into the arena (any byte of it), else 0. */
int ossl_mem_owns(const void *p);

/* Free p: an arena block is wiped whole and kept for reuse; any other
 * pointer goes to free() as it is. p may be NULL. */
void ossl_mem_free(void *p);

/* realloc() for pointers of either kind: an arena block grows inside the
 * arena (or, when it is full, into malloc), the old block wiped; any
 * other pointer goes to realloc(). p must not be NULL. */
void *ossl_mem_realloc(void *p, size_t n);

#endif
