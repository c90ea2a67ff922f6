/* SPDX-License-Identifier: MIT */
/*
 * gocryptfs file contents: block/offset/size arithmetic, block seal and
 * open for AES-256-GCM (16-byte nonce), AES-SIV-512 and XChaCha20-Poly1305,
 * associated data, holes, nonces. Functions on bytes only: the caller reads
 * and writes the backing file (and the 18-byte header, see header.h).
 * Spec: ../shared/FORMAT.md 4.3-4.8 (sizes exactly as 4.8, odd tails too),
 * 6 and 7 (symlink targets and xattr values are block 0 without file ID).
 * Depends on: volume.h, header.h, crypto/ossl_aead.h, crypto/aead_*.h.
 * Thread-safety: every function is reentrant (per-thread OpenSSL contexts).
 * Not proved (the arithmetic is checked by tests against FORMAT.md tables).
 */
#ifndef VCRYPTFS_CONTENT_H
#define VCRYPTFS_CONTENT_H

#include <stddef.h>
#include <stdint.h>

#include "format/header.h"
#include "format/volume.h"

#define CONTENT_PLAIN_BS 4096 /* plaintext block size, fixed */
#define CONTENT_TAG_LEN 16
#define CONTENT_MAX_NONCE_LEN 24
#define CONTENT_MAX_OVERHEAD 40
#define CONTENT_MAX_CIPHER_BS (CONTENT_PLAIN_BS + CONTENT_MAX_OVERHEAD)
#define CONTENT_AAD_LEN 24 /* u64 BE block number || file ID */

/* Nonce length: 16 (AES-GCM, AES-SIV) or 24 (XChaCha20-Poly1305). */
size_t content_nonce_len(enum content_cipher c);
/* Bytes a block grows by: nonce + tag = 32 or 40. */
size_t content_overhead(enum content_cipher c);
/* Ciphertext block size: 4096 + overhead = 4128 or 4136. */
size_t content_cipher_bs(enum content_cipher c);

/* Plaintext size -> backing file size (FORMAT.md 4.8; 0 -> 0). */
uint64_t content_plain_to_cipher_size(enum content_cipher c, uint64_t plain);
/* Backing file size -> plaintext size as stat() reports it (4.8, with the
 * rule for too-short tails: a 4174-byte XChaCha file is 4097). */
uint64_t content_cipher_to_plain_size(enum content_cipher c, uint64_t cipher);
/* Block number holding plaintext offset off. */
uint64_t content_block_no(uint64_t plain_off);
/* Offset of ciphertext block n in the backing file (18 + n * CBS). */
uint64_t content_block_cipher_off(enum content_cipher c, uint64_t blockno);

/* Fresh random nonce of content_nonce_len(c) bytes, never all zero. */
void content_nonce_new(enum content_cipher c, uint8_t *nonce);
/* n fresh nonces (n * content_nonce_len(c) bytes at buf), none all zero,
 * from one CSPRNG call (cheaper than one per block). */
void content_nonces_new(enum content_cipher c, uint8_t *buf, size_t n);
/* A new file header (header_build) with a fresh random, non-zero file ID.
 * Aborts when the CSPRNG fails, as every random call here does. */
void content_header_new(uint8_t hdr[HEADER_LEN]);

/*
 * Seal one block: out = nonce || ciphertext || tag (GCM, XChaCha) or
 * nonce || V || ciphertext (SIV), len + content_overhead() bytes; out holds
 * at least that many and must not overlap plain. len is 0..4096 (content
 * blocks are 1..4096; symlinks and xattr values may be longer: up to
 * 65536). AAD = blockno as u64 BE || file_id, or just the 8 bytes when
 * file_id is NULL (symlinks, xattr values, master key). nonce NULL means a
 * fresh random one (content_nonce_new); a given nonce is used as is (for
 * re-encryption checks; never reuse one for new data).
 * Returns 0, or -EINVAL for a bad volume (key length) or length.
 */
int content_block_seal(const struct volume *v, uint8_t *out,
		       const uint8_t *plain, size_t len, uint64_t blockno,
		       const uint8_t *file_id, const uint8_t *nonce);

/*
 * Open one block in[0..inlen-1] into out (inlen - overhead bytes; out must
 * hold that many, may not overlap in), *outlen set on success.
 * A hole, i.e. exactly content_cipher_bs() zero bytes, yields 4096 zero
 * bytes without authentication. Returns 0, or -EIO: shorter than the
 * overhead, all-zero nonce (also a short all-zero block), bad tag (then
 * out is zeroed, never unauthenticated plaintext); -EINVAL: bad volume or
 * inlen above 65536 + overhead.
 */
int content_block_open(const struct volume *v, uint8_t *out, size_t *outlen,
		       const uint8_t *in, size_t inlen, uint64_t blockno,
		       const uint8_t *file_id);

/*
 * Open a value sealed as one block without file ID (xattr values,
 * symlink targets: AAD block number 0) as content_block_open does, but
 * without the hole rule: holes exist in file content only, so a value of
 * exactly content_cipher_bs() zero bytes is damage (-EIO) like any other
 * all-zero one, never 4096 unauthenticated zero bytes.
 */
int content_value_open(const struct volume *v, uint8_t *out, size_t *outlen,
		       const uint8_t *in, size_t inlen);

/*
 * Switch AES-256-GCM blocks (and everything else sealed with
 * ossl_gcm_seal) to the libgcrypt backend (crypto/ossl_aead.h
 * ossl_gcm_backend_enable) for the rest of the process. The forward
 * daemon calls it at the start of its serving process, after the fork.
 * Returns the backend then in use, "gcrypt" or "OpenSSL" (libgcrypt
 * unusable, or no locked arena for its key schedules (crypto/ossl_mem.h):
 * the blocks stay on OpenSSL, same bytes).
 */
const char *content_gcm_backend_enable(void);

#endif
