/* SPDX-License-Identifier: MIT */
/*
 * Key derivation through OpenSSL 3.0: scrypt (RFC 7914) for the password
 * KEK of gocryptfs.conf, and HKDF-SHA256 (RFC 5869) with an empty salt for
 * the subkeys. Spec: ../shared/FORMAT.md sections 2.4 (scrypt, memory
 * cap), 2.5 and 3 (HKDF info strings, in format/keys.h).
 * Depends on: libcrypto only; nothing in src/ outside crypto/.
 * Not constant-time beyond what OpenSSL gives. Not proved (OpenSSL is
 * opaque). Thread-safe.
 */
#ifndef VCRYPTFS_KDF_H
#define VCRYPTFS_KDF_H

#include <stddef.h>
#include <stdint.h>

/*
 * Upper bound on the memory one scrypt call may use: 2 GiB, i.e. N = 2^21
 * at R = 8 (128 * R * N bytes). A config asking for more (N = 2^40, a
 * typo or an attack) is refused by kdf_scrypt_check() instead of running
 * the machine out of memory. -init -scryptn accepts 10..21 therefore.
 */
#define KDF_SCRYPT_MAXMEM ((uint64_t)1 << 31)

/*
 * The cap in force, KDF_SCRYPT_MAXMEM unless kdf_scrypt_set_maxmem() set
 * another (the command line sets the machine's available memory, so
 * that what gocryptfs accepts, up to N = 2^28, runs where it fits). Set
 * before threads start.
 */
uint64_t kdf_scrypt_maxmem(void);
void kdf_scrypt_set_maxmem(uint64_t bytes);

/*
 * The work bound. scrypt's cost is about N * r * p block mixes, but its
 * memory only 128 * r * (N + p) bytes: a P of 2^16 at N = 1024 needs 72
 * MiB and an hour of CPU. gocryptfs always writes P = 1, so no parameters
 * may cost more than the largest ones the memory cap allows with P = 1:
 * 1 when 128 * N * r * p <= kdf_scrypt_maxmem() (N, r, p >= 1), else 0.
 */
int kdf_scrypt_work_ok(uint64_t n, uint64_t r, uint64_t p);

/*
 * Whether scrypt(N, r, p) can run here: N a power of two >= 2, r, p >= 1,
 * r * p < 2^30, the work within kdf_scrypt_work_ok() and the memory
 * 128 * r * (N + p + 2) <= kdf_scrypt_maxmem().
 * Returns 0 when it can, -1 otherwise. Sets *mem (if not NULL) to the
 * bytes needed, saturated at UINT64_MAX.
 */
int kdf_scrypt_check(uint64_t n, uint64_t r, uint64_t p, uint64_t *mem);

/*
 * out[0..outlen-1] = scrypt(pw, salt, N, r, p, outlen). pw may be NULL
 * when pwlen is 0. Returns 0, or -1 when kdf_scrypt_check() refuses the
 * parameters or OpenSSL fails (out is then zeroed).
 */
int kdf_scrypt(uint8_t *out, size_t outlen, const uint8_t *pw, size_t pwlen,
	       const uint8_t *salt, size_t saltlen, uint64_t n, uint64_t r,
	       uint64_t p);

/*
 * out[0..outlen-1] = HKDF-SHA256(IKM = ikm, salt = empty, info), as
 * gocryptfs derives every subkey. outlen <= 255 * 32. Returns 0 or -1
 * (OpenSSL failure; out is then zeroed).
 */
int kdf_hkdf_sha256(uint8_t *out, size_t outlen, const uint8_t *ikm,
		    size_t ikmlen, const char *info, size_t infolen);

/* As kdf_hkdf_sha256 with a salt (salt may be NULL when saltlen is 0,
 * meaning empty); for test vectors. */
int kdf_hkdf_sha256_salt(uint8_t *out, size_t outlen, const uint8_t *ikm,
			 size_t ikmlen, const uint8_t *salt, size_t saltlen,
			 const uint8_t *info, size_t infolen);

#endif
