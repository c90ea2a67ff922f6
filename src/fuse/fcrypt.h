/* SPDX-License-Identifier: MIT */
/*
 * The FUSE layer's view of the gocryptfs format: block seal/open, size
 * conversion, headers, names, long names, symlink targets and xattr names,
 * keyed by a struct volume, with the errnos the FUSE operations return.
 * A thin adapter over format/content.h, header.h and names.h (fcrypt.c);
 * nothing below fuse/ may include it.
 * Spec: ../shared/FORMAT.md sections 4 to 7. Not proved.
 */
#ifndef VCRYPTFS_FUSE_FCRYPT_H
#define VCRYPTFS_FUSE_FCRYPT_H

#include <stddef.h>
#include <stdint.h>

#include "format/volume.h"

#define FC_PLAIN_BS 4096U
#define FC_HEADER_LEN 18U
#define FC_FILEID_LEN 16U
#define FC_DIRIV_LEN 16U
#define FC_MAX_OV 40U
/* A name of 255 bytes pads to 256 and encodes to at most 344 chars. */
#define FC_NAME_MAX_ENC 352U
#define FC_LONGNAME_PREFIX "gocryptfs.longname."
#define FC_DIRIV_NAME "gocryptfs.diriv"
#define FC_CONF_NAME "gocryptfs.conf"

/* Bytes a block grows by: 32 (AES-GCM, AES-SIV) or 40 (XChaCha). */
size_t fc_overhead(const struct volume *v);
/* Ciphertext block size: 4096 + overhead. */
size_t fc_cbs(const struct volume *v);
/* Plaintext size shown for a ciphertext file of csize bytes (4.8). */
uint64_t fc_plain_size(const struct volume *v, uint64_t csize);
/* Ciphertext size of a plaintext file of psize bytes (4.8). */
uint64_t fc_cipher_size(const struct volume *v, uint64_t psize);

/*
 * Seal one block: out (len + overhead bytes) = nonce || ct || tag in the
 * volume's layout, fresh random nonce. fileid NULL means "no file ID"
 * (symlinks, xattr values). len >= 1 (4096 at most for file blocks;
 * symlinks and xattr values use one longer block). Returns 0 or -EIO.
 */
int fc_block_seal(const struct volume *v, const uint8_t *fileid,
		  uint64_t blockno, const uint8_t *in, size_t len,
		  uint8_t *out);
/* Nonce length of the volume's cipher: 16 or 24. */
size_t fc_nonce_len(const struct volume *v);
/* Fill n fresh random nonces (n * fc_nonce_len bytes), none all zero, with
 * one CSPRNG call (cheaper than one per block). */
void fc_nonces(const struct volume *v, uint8_t *buf, size_t n);
/* fc_block_seal with a nonce from fc_nonces(); never reuse one. */
int fc_block_seal_nonce(const struct volume *v, const uint8_t *fileid,
			uint64_t blockno, const uint8_t *in, size_t len,
			uint8_t *out, const uint8_t *nonce);
/*
 * Open one block of clen bytes into out (clen - overhead bytes). A block of
 * exactly CBS zero bytes is a hole and gives 4096 zeros. Returns the
 * plaintext length or -EIO (bad tag, all-zero nonce, too short).
 */
int fc_block_open(const struct volume *v, const uint8_t *fileid,
		  uint64_t blockno, const uint8_t *in, size_t clen,
		  uint8_t *out);

/* Fill a new file header (version 2, random file ID). Returns 0/-EIO. */
int fc_header_new(uint8_t hdr[FC_HEADER_LEN]);
/* Check a header and copy its file ID. Returns 0 or -EIO. */
int fc_header_parse(const uint8_t hdr[FC_HEADER_LEN],
		    uint8_t fileid[FC_FILEID_LEN]);

/*
 * Encrypt a plaintext name with directory IV iv into out (NUL-terminated,
 * outsz >= FC_NAME_MAX_ENC). Returns 0, -ENAMETOOLONG, -EINVAL.
 * In PlaintextNames mode the name is copied.
 */
int fc_name_encrypt(const struct volume *v, const uint8_t iv[FC_DIRIV_LEN],
		    const char *name, char *out, size_t outsz);
/* Decrypt an encoded name; out holds at least 256 bytes. Returns 0/-EIO. */
int fc_name_decrypt(const struct volume *v, const uint8_t iv[FC_DIRIV_LEN],
		    const char *enc, char *out, size_t outsz);
/* 1 if an encoded name must be stored hashed (5.7). */
int fc_name_is_long(const struct volume *v, const char *enc);
/* The hashed on-disk name for enc (out >= 80 bytes). */
void fc_longname_hash(const struct volume *v, const char *enc, char *out,
		      size_t outsz);
/* 1 if the on-disk name is gocryptfs.longname.X (not .name). */
int fc_is_longname(const char *disk);
/* 1 if the on-disk name is gocryptfs.longname.X.name. */
int fc_is_longname_file(const char *disk);

/* Symlink target: encrypt into out (NUL-terminated); -ENAMETOOLONG when
 * it would not fit in outsz. */
int fc_symlink_encrypt(const struct volume *v, const char *target, char *out,
		       size_t outsz);
/* Returns the plaintext length written to out (not terminated) or -EIO. */
int fc_symlink_decrypt(const struct volume *v, const char *enc, char *out,
		       size_t outsz);

/* xattr name mapping (7): 0 on success, -ERANGE if too long, -EINVAL. */
int fc_xattr_name_encrypt(const struct volume *v, const char *name, char *out,
			  size_t outsz);
/* 0 and out filled, or -EIO when the stored name is not ours. */
int fc_xattr_name_decrypt(const struct volume *v, const char *stored, char *out,
			  size_t outsz);
/* 1 for the two POSIX ACL names passed through unencrypted. */
int fc_xattr_is_acl(const char *name);

/* Fill n random bytes; aborts when the CSPRNG fails. */
void fc_random(void *buf, size_t n);

#endif
