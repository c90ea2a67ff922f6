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

#endif
