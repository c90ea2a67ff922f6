/* SPDX-License-Identifier: MIT */
/*
 * gocryptfs names: PKCS#7-style padding, EME name encryption with a
 * directory IV (or the zero IV of deterministic names), raw or padded
 * base64url, plaintext names, long names (gocryptfs.longname.<hash> plus a
 * .name file), reserved and hidden names, name validity, symlink targets,
 * xattr names and values. Pure functions: the caller reads diriv and .name
 * files and passes their bytes in.
 * Spec: ../shared/FORMAT.md 5 (names), 6 (symlinks), 7 (xattrs).
 * Depends on: volume.h, content.h, b64.h, crypto/eme.h, crypto/ossl_aead.h.
 * Thread-safety: reentrant. Errors: 0 or -errno, outputs written only on
 * success. Not proved.
 */
#ifndef VCRYPTFS_NAMES_H
#define VCRYPTFS_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include "format/volume.h"

#define NAMES_MAX 255	   /* plaintext name bytes */
#define NAMES_DIRIV_LEN 16 /* gocryptfs.diriv content */
#define NAMES_ENC_MAX 344  /* longest encoded name: padded b64 of 256 B */
#define NAMES_BUF (NAMES_ENC_MAX + 1) /* fits any name of this API + NUL */
#define NAMES_DIRIV "gocryptfs.diriv"
#define NAMES_CONF "gocryptfs.conf"
#define NAMES_LONG_PREFIX "gocryptfs.longname."
#define NAMES_LONG_SUFFIX ".name"
#define NAMES_LONG_HASHED_MAX 63 /* prefix + 43 (raw) or 44 (padded) */
#define NAMES_SYMLINK_MAX 4095	 /* encoded target: PATH_MAX - 1 */
#define NAMES_XATTR_PREFIX "user.gocryptfs."
#define NAMES_XATTR_IV "xattr_name_iv_xx"
#define NAMES_XATTR_NAME_MAX 255 /* Linux XATTR_NAME_MAX */
#define NAMES_XATTR_VALUE_MAX 65536

/* A fresh random directory IV (the content of a new gocryptfs.diriv);
 * aborts when the CSPRNG fails. */
void names_diriv_new(uint8_t iv[NAMES_DIRIV_LEN]);

/* base64 flags for names of this volume: B64_URL_RAW with Raw64, else
 * B64_URL_PAD. */
unsigned names_b64_flags(const struct volume *v);

/*
 * pad16: out = in || k bytes of value k, k = 16 - len % 16 (1..16).
 * len <= NAMES_MAX + 1; out holds len + 16 bytes; *outlen = padded length.
 */
void names_pad16(uint8_t *out, size_t *outlen, const uint8_t *in, size_t len);

/* Strict unpad: len a non-zero multiple of 16, last byte k in 1..16 and
 * k < len, the k last bytes all k. Returns 0 and *outlen = len - k, or
 * -EIO. */
int names_unpad16(size_t *outlen, const uint8_t *in, size_t len);

/* Plaintext name validity (5.5 step 1): 0, -EINVAL (empty, ".", "..",
 * contains '/' or NUL within len) or -ENAMETOOLONG (more than 255 bytes). */
int names_check_plain(const char *name, size_t len);

/*
 * Encrypt plaintext name (NUL-terminated) for a directory whose IV is iv
 * (16 bytes; all zero without DirIV, ignored with PlaintextNames): writes
 * the full encoded name E and a NUL into out (cap bytes, NAMES_BUF is
 * always enough). E may be longer than the long-name limit: see
 * names_needs_long(). With PlaintextNames E is the name itself.
 * Returns 0, a names_check_plain error, or -ERANGE (cap too small).
 */
int names_encrypt(const struct volume *v, const uint8_t iv[16],
		  const char *name, char *out, size_t cap);

/*
 * Decrypt an encoded name E (NUL-terminated, the real name: for a long name
 * pass the .name content) into out (cap bytes; NAMES_BUF is enough).
 * Returns 0, -EIO when E does not decode/decrypt/unpad or the result is not
 * a valid name, or -ERANGE (cap too small). PlaintextNames: a copy after
 * the validity check.
 */
int names_decrypt(const struct volume *v, const uint8_t iv[16], const char *enc,
		  char *out, size_t cap);

/* 1 when an encoded name of enclen characters must be stored hashed
 * (LongNames set and enclen > longnamemax), else 0. */
int names_needs_long(const struct volume *v, size_t enclen);

/*
 * Long name for encoded name enc: "gocryptfs.longname." || base64(SHA-256
 * of the text of enc) with the volume's base64 variant, NUL-terminated in
 * out (cap >= NAMES_LONG_HASHED_MAX + 1). Returns 0 or -ERANGE.
 */
int names_long_hash(const struct volume *v, const char *enc, char *out,
		    size_t cap);

/* "gocryptfs.longname.<something>" without the ".name" suffix. */
int names_is_long(const char *cname);
/* "gocryptfs.longname.<something>.name". */
int names_is_long_namefile(const char *cname);

/*
 * Check the content of a .name file (len bytes as read, at most
 * NAMES_ENC_MAX + 1 read): 0 when it is 1..344 bytes, else -EIO.
 */
int names_check_namefile(size_t len);

/*
 * 1 when a backing entry is never listed (5.8): gocryptfs.conf in the root
 * (is_root), gocryptfs.diriv with DirIV, *.name long-name files with
 * LongNames, "." and ".." are not hidden (passed through).
 */
int names_hidden(const struct volume *v, const char *cname, int is_root);

/* 1 when a plaintext name is reserved in this directory (PlaintextNames:
 * gocryptfs.conf in the root; the FUSE layer answers EPERM). */
int names_reserved(const struct volume *v, const char *name, int is_root);

/*
 * Symlink target T (tlen bytes) -> backing target text (NUL-terminated in
 * out, cap bytes): base64 of one content block 0 without file ID with a
 * random nonce (or the given one); PlaintextNames: T itself.
 * Returns 0, -EINVAL (tlen 0 or a NUL inside), -ENAMETOOLONG (encoded
 * text above 4095 characters) or -ERANGE (cap too small).
 */
int names_symlink_encrypt(const struct volume *v, char *out, size_t cap,
			  const uint8_t *target, size_t tlen,
			  const uint8_t *nonce);

/*
 * Backing symlink text enc (NUL-terminated) -> plaintext target in out
 * (cap bytes; NUL-terminated too, so cap > result), *outlen set.
 * Returns 0, -EIO (bad base64, zero nonce, bad tag), -ERANGE.
 */
int names_symlink_decrypt(const struct volume *v, uint8_t *out, size_t cap,
			  size_t *outlen, const char *enc);

/* 1 for the POSIX ACL names passed through unencrypted. */
int names_xattr_is_acl(const char *name);

/*
 * xattr name -> stored name: "user.gocryptfs." || base64(EME(EME key,
 * "xattr_name_iv_xx", pad16(name))); ACL names unchanged. Returns 0,
 * -EINVAL (empty), -ERANGE (stored name over 255 bytes or cap too small).
 */
int names_xattr_name_encrypt(const struct volume *v, const char *name,
			     char *out, size_t cap);

/*
 * Stored xattr name -> plaintext name. ACL names pass through. Returns 0;
 * -ENOENT when the stored name is not ours (hidden: no prefix, does not
 * decrypt, or decrypts to an ACL name); -ERANGE (cap too small).
 */
int names_xattr_name_decrypt(const struct volume *v, const char *stored,
			     char *out, size_t cap);

/*
 * xattr value seal: out = one content block 0 without file ID (binary,
 * len + overhead bytes); an empty value stays empty (*outlen 0).
 * cap >= len + 40 suffices. Returns 0, -EINVAL (len > 65536), -ERANGE.
 */
int names_xattr_value_seal(const struct volume *v, uint8_t *out, size_t cap,
			   size_t *outlen, const uint8_t *value, size_t len,
			   const uint8_t *nonce);

/*
 * xattr value open (inverse; empty stays empty): the binary block first;
 * if that fails, the block base64-encoded with the names variant (very old
 * gocryptfs versions, FORMAT.md 7). Returns 0, -EIO (bad tag, zero nonce,
 * an all-zero value of any length: no hole rule, content_value_open; too
 * short; out may then hold zeros, never unauthenticated plaintext),
 * -ERANGE (cap too small) or -ENOMEM.
 */
int names_xattr_value_open(const struct volume *v, uint8_t *out, size_t cap,
			   size_t *outlen, const uint8_t *stored, size_t len);

#endif
