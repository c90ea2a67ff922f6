/* SPDX-License-Identifier: MIT */
/*
 * Thin OpenSSL 3.0 libcrypto wrappers used by the format layer: AES-256-GCM
 * with a 16-byte (or 12-byte) IV, AES-256-SIV (RFC 5297), raw AES-256 blocks
 * (ECB, for EME), SHA-256 and random bytes.
 * Spec: ../shared/FORMAT.md 4.4 (GCM IVLEN 16, SIV AD order), 5.1, 16.
 * Depends on: libcrypto, ct.h, ossl_mem.h, gcm_backend_gcrypt.h (in the
 * .c). Besides this file only kdf.c and ossl_mem.c in crypto/ include
 * OpenSSL headers.
 * Contexts: one EVP_CIPHER_CTX per thread and primitive (thread-local); a
 * key is installed only when it differs from the last one used by that
 * thread, then only the IV changes per call. A copy of the last key stays
 * in the thread's state until ossl_aead_thread_cleanup() or thread exit;
 * that state and the contexts (key schedules) are allocated in a secret
 * scope: in the locked arena once ossl_mem_init() ran (ossl_mem.h).
 * AES-256-GCM runs on libgcrypt instead once ossl_gcm_backend_enable()
 * succeeded (gcm_backend_gcrypt.h; same bytes, same contract).
 * A libcrypto call that should never fail (allocation, init) aborts the
 * process with one log line (ossl_die). Not proved (OpenSSL is opaque).
 */
#ifndef VCRYPTFS_OSSL_AEAD_H
#define VCRYPTFS_OSSL_AEAD_H

#include <stddef.h>
#include <stdint.h>

#define OSSL_GCM_KEY_LEN 32
#define OSSL_GCM_TAG_LEN 16
#define OSSL_SIV_KEY_LEN 64
#define OSSL_SIV_TAG_LEN 16
#define OSSL_AES_BLOCK_LEN 16

/* Log "vcryptfs: fatal: libcrypto: <what>" to stderr and abort(). */
_Noreturn void ossl_die(const char *what);

/*
 * AES-256-GCM seal: c[0..len-1] = ciphertext of m, tag = 16-byte GCM tag
 * over (ad, c). iv is ivlen bytes; ivlen is 16 (gocryptfs GCMIV128) or 12
 * (standard profile, legacy master-key wrap); anything else is a caller bug
 * (assert). c may equal m (in place); no other overlap. ad may be NULL when
 * adlen is 0. len <= INT_MAX. Thread-safe (per-thread context).
 */
void ossl_gcm_seal(uint8_t *c, uint8_t tag[16], const uint8_t *m, size_t len,
		   const uint8_t *ad, size_t adlen, const uint8_t key[32],
		   const uint8_t *iv, size_t ivlen);

/*
 * AES-256-GCM open: decrypt c[0..len-1] into m and check tag. Returns 0 on
 * success, -1 on a bad tag; then m[0..len-1] has been zeroed (never holds
 * unauthenticated plaintext). m may equal c. Same rules as ossl_gcm_seal.
 */
int ossl_gcm_open(uint8_t *m, const uint8_t *c, size_t len,
		  const uint8_t tag[16], const uint8_t *ad, size_t adlen,
		  const uint8_t key[32], const uint8_t *iv, size_t ivlen);

/*
 * The AES-256-GCM backend behind ossl_gcm_seal/ossl_gcm_open. enable:
 * initialise libgcrypt (gcm_gcrypt_init: after ossl_mem_init, so that its
 * key schedules land in the arena; in a daemon, in the serving process
 * after the fork) and switch to it; -1 (OpenSSL stays) when libgcrypt is
 * unusable (older than 1.10, FIPS mode). disable: back to OpenSSL (tests,
 * fuzzers). Both are safe while other threads seal. ossl_gcm_backend():
 * "gcrypt" or "OpenSSL", the one in use.
 */
int ossl_gcm_backend_enable(void);
void ossl_gcm_backend_disable(void);
const char *ossl_gcm_backend(void);

/*
 * AES-256-SIV (OpenSSL "AES-256-SIV", RFC 5297; key = K1 (CMAC) || K2
 * (CTR)). The S2V header vector is: ad (one component, always present,
 * may be empty), then nonce (a second component) when nonce != NULL.
 * gocryptfs passes AAD and the 16-byte nonce; Wycheproof passes no nonce.
 * seal: c = CTR part, tag = V (16 bytes). c may equal m.
 */
void ossl_siv_seal(uint8_t *c, uint8_t tag[16], const uint8_t *m, size_t len,
		   const uint8_t *ad, size_t adlen, const uint8_t key[64],
		   const uint8_t *nonce, size_t noncelen);

/* AES-SIV open: returns 0 and writes m, or -1 (bad tag) with m zeroed. */
int ossl_siv_open(uint8_t *m, const uint8_t *c, size_t len,
		  const uint8_t tag[16], const uint8_t *ad, size_t adlen,
		  const uint8_t key[64], const uint8_t *nonce, size_t noncelen);

/*
 * Raw AES-256 on nblocks 16-byte blocks (ECB, no padding): encrypt when
 * decrypt == 0, else decrypt. out may equal in. Used by EME (eme.c).
 */
void ossl_aes256_ecb(uint8_t *out, const uint8_t *in, size_t nblocks,
		     const uint8_t key[32], int decrypt);

/* SHA-256 of m[0..len-1]. m may be NULL when len is 0. */
void ossl_sha256(uint8_t out[32], const uint8_t *m, size_t len);

/* len bytes from the OpenSSL CSPRNG (RAND_bytes); a failure aborts. */
void ossl_random(uint8_t *out, size_t len);

/*
 * Free this thread's contexts and wipe its cached keys. Runs automatically
 * when a thread that used the wrappers exits; call it by hand in main()
 * before exit, or after a volume's keys are wiped. Safe to call twice.
 */
void ossl_aead_thread_cleanup(void);

#endif
