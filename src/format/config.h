/* SPDX-License-Identifier: MIT */
/*
 * gocryptfs.conf: parse (libjansson), validate, write in gocryptfs's exact
 * layout, and wrap/unwrap the master key with scrypt + AES-256-GCM.
 * Spec: ../shared/FORMAT.md section 2 (members, flags, validation rules,
 * scrypt minimums, key wrap incl. the legacy 60-byte form), 13.3 (-info).
 * Depends on: libjansson, crypto/kdf.h, crypto/ossl_aead.h, base/secmem.h; the
 * file functions (config_load/config_save) use plain POSIX I/O.
 * Secrets: the KEK and wrapping key live in secmem and are wiped; a
 * struct config holds no secret (EncryptedKey is the wrapped form).
 * Not thread-safe per object; no global state.
 */
#ifndef VCRYPTFS_CONFIG_H
#define VCRYPTFS_CONFIG_H

#include <stddef.h>
#include <stdint.h>

/* Feature flags (FORMAT.md 2.3), as bits of struct config.flags. */
enum config_flag {
	CONF_HKDF = 1U << 0,
	CONF_GCMIV128 = 1U << 1,
	CONF_XCHACHA = 1U << 2, /* "XChaCha20Poly1305" */
	CONF_AESSIV = 1U << 3,
	CONF_EMENAMES = 1U << 4,
	CONF_DIRIV = 1U << 5,
	CONF_LONGNAMES = 1U << 6,
	CONF_LONGNAMEMAX = 1U << 7,
	CONF_RAW64 = 1U << 8,
	CONF_PLAINTEXTNAMES = 1U << 9,
	CONF_FIDO2 = 1U << 10,
};
#define CONF_NFLAGS 11

/* Results of the config functions; main.c maps them to exit codes. */
enum config_status {
	CONF_OK = 0,
	CONF_ERR_IO = 1,       /* cannot open/read/write (errno in message) */
	CONF_ERR_SYNTAX = 2,   /* empty, truncated, not JSON, wrong types */
	CONF_ERR_INVALID = 3,  /* rules of FORMAT.md 2.3: exit 27 / 8 */
	CONF_ERR_PASSWORD = 4, /* the GCM tag did not verify: exit 12 */
	CONF_ERR_SCRYPT = 5,   /* scrypt cannot run with these params: 13 */
	CONF_ERR_NOMEM = 6,
};

#define CONF_SALT_MAX 1024
#define CONF_EKEY_MAX 256
#define CONF_MAX_FILE (1U << 20) /* refuse configs above 1 MiB */
#define CONF_MASTER_KEY_LEN 32
#define CONF_MAX_FLAGS 64
#define CONF_LONGNAMEMAX_MIN 62	 /* -longnamemax range (FORMAT.md 12.3) */
#define CONF_LONGNAMEMAX_MAX 255 /* also the default, then not written */

struct config {
	char *creator; /* malloc'd, never NULL after parse */
	uint8_t encrypted_key[CONF_EKEY_MAX];
	size_t encrypted_key_len; /* 64 (HKDF) or 60 (legacy) when valid */
	uint8_t salt[CONF_SALT_MAX];
	size_t salt_len;
	int64_t scrypt_n, scrypt_r, scrypt_p, scrypt_keylen;
	int64_t version;
	uint32_t flags;	      /* CONF_* */
	unsigned longnamemax; /* the LongNameMax member, 0 when absent */
	/* flag strings in file order (for -info), malloc'd */
	char *flag_names[CONF_MAX_FLAGS];
	size_t nflag_names;
	/* FIDO2 member, kept only to report and to refuse; standard base64 */
	char *fido2_credential_id;
	char *fido2_hmac_salt;
};

/* Set *c to an empty config (no allocation). */
void config_zero(struct config *c);
/* Free what parse/init allocated; *c becomes empty. */
void config_free(struct config *c);

/*
 * Parse the JSON text buf[0..len-1] into *c (zeroed first; on error *c is
 * left empty). Checks JSON syntax and member types only, not the rules of
 * 2.3: call config_validate(). Unknown members are ignored; member names
 * match case-insensitively (exact spelling preferred), as Go's decoder.
 * On error writes one line (no key material) into err[0..errlen-1].
 * Returns CONF_OK, CONF_ERR_SYNTAX or CONF_ERR_NOMEM.
 */
int config_parse(struct config *c, const char *buf, size_t len, char *err,
		 size_t errlen);

/*
 * FORMAT.md 2.3 rules 1-8 in gocryptfs's order: Version, scrypt minimums,
 * unknown flags, cipher combinations, PlaintextNames conflicts,
 * LongNameMax member vs flag. Returns CONF_OK or CONF_ERR_INVALID (err
 * set). Does not decide whether scrypt can run here (see config_unlock).
 */
int config_validate(const struct config *c, char *err, size_t errlen);

/*
 * Read path (at most CONF_MAX_FILE bytes; empty = error), parse and
 * validate. Returns CONF_OK or CONF_ERR_IO/SYNTAX/INVALID/NOMEM, err set.
 */
int config_load(struct config *c, const char *path, char *err, size_t errlen);

/*
 * The document exactly as gocryptfs writes it: tab indentation, members in
 * the order of FORMAT.md 2.2, FeatureFlags in the order stored in
 * c->flag_names, a single '\n' after the closing brace. Returns a malloc'd
 * NUL-terminated string, or NULL (ENOMEM).
 */
char *config_serialize(const struct config *c);

/*
 * Write c atomically to path: path.tmp created O_CREAT|O_EXCL mode 0400,
 * written, fsync'ed (on failure: warning and sync()), closed, renamed over
 * path. A stale path.tmp makes it fail (-EEXIST). Returns 0 or -errno.
 */
int config_save(const struct config *c, const char *path);

/*
 * Whether scrypt can run with c's N, R, P here: N a power of two and the
 * memory within KDF_SCRYPT_MAXMEM (crypto/kdf.h). -info does not care;
 * mount and -passwd call it before asking for the password. Returns
 * CONF_OK or CONF_ERR_SCRYPT (err set).
 */
int config_check_scrypt(const struct config *c, char *err, size_t errlen);

/*
 * Unwrap the master key (2.5): KEK = scrypt(pw, ...); with HKDF the
 * wrapping key is HKDF(KEK, "AES-GCM file content encryption") and the
 * nonce 16 bytes, without it the KEK itself and a 12-byte nonce; AAD is
 * eight zero bytes. master_key is written only on success.
 * Returns CONF_OK, CONF_ERR_PASSWORD (tag mismatch), CONF_ERR_SCRYPT
 * (N, R, P not runnable here, see kdf_scrypt_check), CONF_ERR_INVALID
 * (EncryptedKey of the wrong length, KeyLen != 32) or CONF_ERR_NOMEM.
 */
int config_unlock(const struct config *c, const uint8_t *pw, size_t pwlen,
		  uint8_t master_key[CONF_MASTER_KEY_LEN], char *err,
		  size_t errlen);

/*
 * Wrap master_key with pw into c (HKDF form, which every v2 config has):
 * fresh 32-byte salt, N = 2^logn, R = 8, P = 1, KeyLen = 32, fresh 16-byte
 * nonce. Requires CONF_HKDF in c->flags. Returns CONF_OK,
 * CONF_ERR_SCRYPT or CONF_ERR_NOMEM.
 */
int config_wrap(struct config *c, const uint8_t master_key[32],
		const uint8_t *pw, size_t pwlen, unsigned logn);

/* Options of -init that decide the feature flags. */
struct config_init_opts {
	int xchacha, aessiv, plaintextnames, deterministic_names;
	unsigned longnamemax; /* 62..255; 255 = default, not written */
	const char *creator;  /* e.g. "vcryptfs 0.1" */
};

/*
 * Fill c (zeroed first) with Creator, Version 2 and the flags -init
 * writes, in gocryptfs's order (FORMAT.md 2.3 "Flags written by -init").
 * No key yet: call config_wrap(). Returns CONF_OK, CONF_ERR_INVALID
 * (-xchacha with -aessiv; longnamemax outside 62..255) or CONF_ERR_NOMEM.
 */
int config_init(struct config *c, const struct config_init_opts *o, char *err,
		size_t errlen);

/* The name gocryptfs uses for one CONF_* bit, or NULL. */
const char *config_flag_name(uint32_t flag);

/* "AES-GCM-256", "AES-SIV-512" or "XChaCha20-Poly1305" for c's flags. */
const char *config_cipher_name(const struct config *c);

/* The -info report of FORMAT.md 13.3 (five lines, each ending in '\n')
 * into a malloc'd string; NULL on ENOMEM. */
char *config_info(const struct config *c);

#endif
