/* SPDX-License-Identifier: MIT */
/*
 * gocryptfs.conf reader, validator, writer and master-key wrap (see
 * config.h). JSON goes through libjansson both ways; the writer only turns
 * jansson's one-space indentation into gocryptfs's tabs.
 * Depends on: libjansson, crypto/kdf.h, crypto/ossl_aead.h, crypto/ct.h,
 * format/keys.h (info strings), secmem.h, log.h. Not proved.
 */
#include "format/config.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crypto/ct.h"
#include "crypto/kdf.h"
#include "crypto/ossl_aead.h"
#include "format/b64.h"
#include "format/keys.h"
#include "log.h"
#include "secmem.h"

static const char *const config_flag_names[CONF_NFLAGS] = {
	"HKDF",	 "GCMIV128",  "XChaCha20Poly1305", "AESSIV", "EMENames",
	"DirIV", "LongNames", "LongNameMax",	   "Raw64",  "PlaintextNames",
	"FIDO2",
};

__attribute__((format(printf, 3, 4))) static void config_err(char *err,
							     size_t errlen,
							     const char *fmt,
							     ...)
{
	va_list ap;

	if (err == NULL || errlen == 0)
		return;
	va_start(ap, fmt);
	(void)vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

const char *config_flag_name(uint32_t flag)
{
	for (unsigned i = 0; i < CONF_NFLAGS; i++)
		if (flag == (1U << i))
			return config_flag_names[i];
	return NULL;
}

static uint32_t config_flag_bit(const char *name)
{
	for (unsigned i = 0; i < CONF_NFLAGS; i++)
		if (strcmp(name, config_flag_names[i]) == 0)
			return 1U << i;
	return 0;
}

void config_zero(struct config *c)
{
	memset(c, 0, sizeof(*c));
}

void config_free(struct config *c)
{
	free(c->creator);
	for (size_t i = 0; i < c->nflag_names; i++)
		free(c->flag_names[i]);
	free(c->fido2_credential_id);
	free(c->fido2_hmac_salt);
	config_zero(c);
}

/* ---------------------------------------------------------------------
 * Parsing
 */

/* Member `name` of obj: exact spelling first, then case-insensitive. */
static json_t *member(json_t *obj, const char *name)
{
	json_t *v = json_object_get(obj, name);
	const char *k;
	json_t *it;

	if (v != NULL)
		return v;
	json_object_foreach(obj, k, it)
	{
		if (strcasecmp(k, name) == 0)
			v = it;
	}
	return v;
}

/* JSON null or absent counts as Go's zero value. */
static int is_unset(const json_t *v)
{
	return v == NULL || json_is_null(v);
}

static int get_int(json_t *obj, const char *name, int64_t lo, int64_t hi,
		   int64_t *out, char *err, size_t errlen)
{
	json_t *v = member(obj, name);

	*out = 0;
	if (is_unset(v))
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < lo ||
	    json_integer_value(v) > hi) {
		config_err(err, errlen, "member %s is not an integer in range",
			   name);
		return -1;
	}
	*out = json_integer_value(v);
	return 0;
}

/* A base64 member into out[0..cap-1]; *n = decoded length. */
static int get_b64(json_t *obj, const char *name, uint8_t *out, size_t cap,
		   size_t *n, char *err, size_t errlen)
{
	json_t *v = member(obj, name);
	const char *s;
	int k;

	*n = 0;
	if (is_unset(v))
		return 0;
	if (!json_is_string(v)) {
		config_err(err, errlen, "member %s is not a string", name);
		return -1;
	}
	s = json_string_value(v);
	k = b64_decode(out, cap, n, s, strlen(s), B64_STD_PAD);
	if (k != 0) {
		config_err(err, errlen, "member %s: %s", name,
			   k == -ERANGE ? "too long"
					: "not valid standard base64");
		return -1;
	}
	return 0;
}

static int get_str(json_t *obj, const char *name, char **out, char *err,
		   size_t errlen)
{
	json_t *v = member(obj, name);

	*out = NULL;
	if (is_unset(v))
		return 0;
	if (!json_is_string(v)) {
		config_err(err, errlen, "member %s is not a string", name);
		return -1;
	}
	*out = strdup(json_string_value(v));
	return *out == NULL ? -2 : 0;
}

static int parse_flags(struct config *c, json_t *arr, char *err, size_t errlen)
{
	size_t i;
	json_t *v;

	if (is_unset(arr))
		return 0;
	if (!json_is_array(arr)) {
		config_err(err, errlen, "member FeatureFlags is not an array");
		return -1;
	}
	if (json_array_size(arr) > CONF_MAX_FLAGS) {
		config_err(err, errlen, "too many FeatureFlags");
		return -1;
	}
	json_array_foreach(arr, i, v)
	{
		if (!json_is_string(v)) {
			config_err(err, errlen,
				   "FeatureFlags entry %zu is not a string", i);
			return -1;
		}
		c->flag_names[c->nflag_names] = strdup(json_string_value(v));
		if (c->flag_names[c->nflag_names] == NULL)
			return -2;
		c->nflag_names++;
		c->flags |= config_flag_bit(json_string_value(v));
	}
	return 0;
}

static int parse_root(struct config *c, json_t *root, char *err, size_t errlen)
{
	json_t *so, *fido;
	int64_t v;
	int r;

	if (!json_is_object(root)) {
		config_err(err, errlen, "not a JSON object");
		return -1;
	}
	r = get_str(root, "Creator", &c->creator, err, errlen);
	if (r == 0 && c->creator == NULL) {
		c->creator = strdup("");
		r = c->creator == NULL ? -2 : 0;
	}
	if (r == 0)
		r = get_b64(root, "EncryptedKey", c->encrypted_key,
			    sizeof(c->encrypted_key), &c->encrypted_key_len,
			    err, errlen);
	so = member(root, "ScryptObject");
	if (r == 0 && !is_unset(so) && !json_is_object(so)) {
		config_err(err, errlen, "member ScryptObject is not an object");
		r = -1;
	}
	if (r == 0 && !is_unset(so)) {
		r = get_b64(so, "Salt", c->salt, sizeof(c->salt), &c->salt_len,
			    err, errlen);
		if (r == 0)
			r = get_int(so, "N", INT64_MIN, INT64_MAX, &c->scrypt_n,
				    err, errlen);
		if (r == 0)
			r = get_int(so, "R", INT64_MIN, INT64_MAX, &c->scrypt_r,
				    err, errlen);
		if (r == 0)
			r = get_int(so, "P", INT64_MIN, INT64_MAX, &c->scrypt_p,
				    err, errlen);
		if (r == 0)
			r = get_int(so, "KeyLen", INT64_MIN, INT64_MAX,
				    &c->scrypt_keylen, err, errlen);
	}
	if (r == 0)
		r = get_int(root, "Version", 0, 65535, &c->version, err,
			    errlen);
	if (r == 0)
		r = parse_flags(c, member(root, "FeatureFlags"), err, errlen);
	fido = member(root, "FIDO2");
	if (r == 0 && !is_unset(fido)) {
		if (!json_is_object(fido)) {
			config_err(err, errlen,
				   "member FIDO2 is not an object");
			r = -1;
		}
		if (r == 0)
			r = get_str(fido, "CredentialID",
				    &c->fido2_credential_id, err, errlen);
		if (r == 0)
			r = get_str(fido, "HMACSalt", &c->fido2_hmac_salt, err,
				    errlen);
	}
	if (r == 0) {
		r = get_int(root, "LongNameMax", 0, 255, &v, err, errlen);
		c->longnamemax = (unsigned)v;
	}
	if (r == -2)
		config_err(err, errlen, "out of memory");
	return r;
}

int config_parse(struct config *c, const char *buf, size_t len, char *err,
		 size_t errlen)
{
	json_error_t jerr;
	json_t *root;
	int r;

	config_zero(c);
	if (len == 0) {
		config_err(err, errlen, "Config file is empty");
		return CONF_ERR_SYNTAX;
	}
	root = json_loadb(buf, len, 0, &jerr);
	if (root == NULL) {
		config_err(err, errlen, "invalid JSON at line %d column %d: %s",
			   jerr.line, jerr.column, jerr.text);
		return CONF_ERR_SYNTAX;
	}
	r = parse_root(c, root, err, errlen);
	json_decref(root);
	if (r != 0) {
		config_free(c);
		return r == -2 ? CONF_ERR_NOMEM : CONF_ERR_SYNTAX;
	}
	return CONF_OK;
}

/* ---------------------------------------------------------------------
 * Validation (FORMAT.md 2.3 and 2.4)
 */

#define SCRYPT_MIN_N 1024
#define SCRYPT_MIN_R 8
#define SCRYPT_MIN_P 1
#define SCRYPT_MIN_SALT 32
#define SCRYPT_MIN_KEYLEN 32

static int has(const struct config *c, uint32_t f)
{
	return (c->flags & f) != 0;
}

int config_validate(const struct config *c, char *err, size_t errlen)
{
	static const uint32_t ptn_conflicts[] = {
		CONF_EMENAMES, CONF_DIRIV,	 CONF_LONGNAMES,
		CONF_RAW64,    CONF_LONGNAMEMAX,
	};

	if (c->version != 2) {
		config_err(err, errlen, "Unsupported on-disk format %lld",
			   (long long)c->version);
		return CONF_ERR_INVALID;
	}
	if (c->scrypt_n < SCRYPT_MIN_N) {
		config_err(err, errlen,
			   "scrypt parameter N below minimum: value=%lld, "
			   "min=%d",
			   (long long)c->scrypt_n, SCRYPT_MIN_N);
		return CONF_ERR_INVALID;
	}
	if (c->scrypt_r < SCRYPT_MIN_R || c->scrypt_p < SCRYPT_MIN_P ||
	    c->scrypt_keylen < SCRYPT_MIN_KEYLEN) {
		config_err(err, errlen,
			   "scrypt parameter below minimum: R=%lld (min %d), "
			   "P=%lld (min %d), KeyLen=%lld (min %d)",
			   (long long)c->scrypt_r, SCRYPT_MIN_R,
			   (long long)c->scrypt_p, SCRYPT_MIN_P,
			   (long long)c->scrypt_keylen, SCRYPT_MIN_KEYLEN);
		return CONF_ERR_INVALID;
	}
	if (c->salt_len < SCRYPT_MIN_SALT) {
		config_err(err, errlen,
			   "scrypt salt length below minimum: value=%zu, "
			   "min=%d",
			   c->salt_len, SCRYPT_MIN_SALT);
		return CONF_ERR_INVALID;
	}
	for (size_t i = 0; i < c->nflag_names; i++) {
		if (config_flag_bit(c->flag_names[i]) == 0) {
			config_err(err, errlen,
				   "Unknown feature flag \"%.64s\"",
				   c->flag_names[i]);
			return CONF_ERR_INVALID;
		}
	}
	if (has(c, CONF_XCHACHA) && has(c, CONF_AESSIV)) {
		config_err(err, errlen,
			   "Can't have both XChaCha20Poly1305 "
			   "and AESSIV feature flags");
		return CONF_ERR_INVALID;
	}
	if (has(c, CONF_AESSIV) && !has(c, CONF_GCMIV128)) {
		config_err(err, errlen,
			   "AESSIV requires GCMIV128 feature flag");
		return CONF_ERR_INVALID;
	}
	if (has(c, CONF_XCHACHA) && has(c, CONF_GCMIV128)) {
		config_err(err, errlen,
			   "XChaCha20Poly1305 conflicts with "
			   "GCMIV128 feature flag");
		return CONF_ERR_INVALID;
	}
	if (has(c, CONF_XCHACHA) && !has(c, CONF_HKDF)) {
		config_err(err, errlen,
			   "XChaCha20Poly1305 requires HKDF feature flag");
		return CONF_ERR_INVALID;
	}
	if (!has(c, CONF_XCHACHA) && !has(c, CONF_AESSIV) &&
	    !has(c, CONF_GCMIV128)) {
		config_err(err, errlen,
			   "AES-GCM requires GCMIV128 feature flag");
		return CONF_ERR_INVALID;
	}
	if (has(c, CONF_PLAINTEXTNAMES)) {
		for (size_t i = 0;
		     i < sizeof(ptn_conflicts) / sizeof(ptn_conflicts[0]);
		     i++) {
			if (has(c, ptn_conflicts[i])) {
				config_err(err, errlen,
					   "PlaintextNames conflicts with %s "
					   "feature flag",
					   config_flag_name(ptn_conflicts[i]));
				return CONF_ERR_INVALID;
			}
		}
	}
	if (c->longnamemax != 0 && !has(c, CONF_LONGNAMEMAX)) {
		config_err(err, errlen,
			   "LongNameMax=%u but the LongNameMax feature flag is "
			   "NOT set",
			   c->longnamemax);
		return CONF_ERR_INVALID;
	}
	if (c->longnamemax == 0 && has(c, CONF_LONGNAMEMAX)) {
		config_err(err, errlen,
			   "LongNameMax=0 but the LongNameMax "
			   "feature flag IS set");
		return CONF_ERR_INVALID;
	}
	return CONF_OK;
}

/* ---------------------------------------------------------------------
 * Files
 */

int config_load(struct config *c, const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	char *buf = NULL;
	size_t len = 0;
	int r;

	config_zero(c);
	if (fd < 0) {
		config_err(err, errlen, "open %s: %s", path, strerror(errno));
		return CONF_ERR_IO;
	}
	buf = malloc(CONF_MAX_FILE + 1);
	if (buf == NULL) {
		close(fd);
		config_err(err, errlen, "out of memory");
		return CONF_ERR_NOMEM;
	}
	for (;;) {
		ssize_t k = read(fd, buf + len, CONF_MAX_FILE + 1 - len);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			config_err(err, errlen, "read %s: %s", path,
				   strerror(errno));
			free(buf);
			close(fd);
			return CONF_ERR_IO;
		}
		if (k == 0 || len + (size_t)k > CONF_MAX_FILE) {
			len += (size_t)k;
			break;
		}
		len += (size_t)k;
	}
	close(fd);
	if (len > CONF_MAX_FILE) {
		config_err(err, errlen, "%s is larger than %u bytes", path,
			   CONF_MAX_FILE);
		free(buf);
		return CONF_ERR_SYNTAX;
	}
	r = config_parse(c, buf, len, err, errlen);
	free(buf);
	if (r != CONF_OK)
		return r;
	r = config_validate(c, err, errlen);
	if (r != CONF_OK)
		config_free(c);
	return r;
}

/* jansson indents with spaces; gocryptfs (Go's MarshalIndent with "\t")
 * with tabs. Strings are escaped by jansson, so every line's leading run
 * of spaces is indentation. */
static char *indent_to_tabs(const char *s)
{
	char *out = malloc(strlen(s) + 2);
	size_t o = 0;
	int bol = 1;

	if (out == NULL)
		return NULL;
	for (; *s != '\0'; s++) {
		if (bol && *s == ' ') {
			out[o++] = '\t';
			continue;
		}
		bol = *s == '\n';
		out[o++] = *s;
	}
	out[o++] = '\n';
	out[o] = '\0';
	return out;
}

static int set_b64(json_t *obj, const char *name, const uint8_t *b, size_t n)
{
	char *s = malloc(b64_enc_len(n, B64_STD_PAD) + 1);
	int r;

	if (s == NULL)
		return -1;
	b64_encode(s, b, n, B64_STD_PAD);
	r = json_object_set_new(obj, name, json_string(s));
	free(s);
	return r;
}

char *config_serialize(const struct config *c)
{
	json_t *root = json_object(), *so = json_object();
	json_t *flags = json_array();
	char *dump = NULL, *out = NULL;
	int r = 0;

	if (root == NULL || so == NULL || flags == NULL)
		goto done;
	r |= json_object_set_new(root, "Creator",
				 json_string(c->creator ? c->creator : ""));
	r |= set_b64(root, "EncryptedKey", c->encrypted_key,
		     c->encrypted_key_len);
	r |= set_b64(so, "Salt", c->salt, c->salt_len);
	r |= json_object_set_new(so, "N", json_integer(c->scrypt_n));
	r |= json_object_set_new(so, "R", json_integer(c->scrypt_r));
	r |= json_object_set_new(so, "P", json_integer(c->scrypt_p));
	r |= json_object_set_new(so, "KeyLen", json_integer(c->scrypt_keylen));
	r |= json_object_set(root, "ScryptObject", so);
	r |= json_object_set_new(root, "Version", json_integer(c->version));
	for (size_t i = 0; i < c->nflag_names; i++)
		r |= json_array_append_new(flags,
					   json_string(c->flag_names[i]));
	r |= json_object_set(root, "FeatureFlags", flags);
	if (has(c, CONF_FIDO2)) {
		json_t *fido = json_object();
		if (fido == NULL)
			goto done;
		r |= json_object_set_new(
			fido, "CredentialID",
			json_string(c->fido2_credential_id
					    ? c->fido2_credential_id
					    : ""));
		r |= json_object_set_new(
			fido, "HMACSalt",
			json_string(c->fido2_hmac_salt ? c->fido2_hmac_salt
						       : ""));
		r |= json_object_set_new(root, "FIDO2", fido);
	}
	if (c->longnamemax != 0)
		r |= json_object_set_new(root, "LongNameMax",
					 json_integer(c->longnamemax));
	if (r != 0)
		goto done;
	dump = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	if (dump != NULL)
		out = indent_to_tabs(dump);
done:
	free(dump);
	json_decref(flags);
	json_decref(so);
	json_decref(root);
	return out;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t k = write(fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -errno;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

int config_save(const struct config *c, const char *path)
{
	char *doc = config_serialize(c);
	size_t plen = strlen(path);
	char *tmp = malloc(plen + 5);
	int fd, r;

	if (doc == NULL || tmp == NULL) {
		r = -ENOMEM;
		goto out;
	}
	memcpy(tmp, path, plen);
	memcpy(tmp + plen, ".tmp", 5);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
		  0400);
	if (fd < 0) {
		r = -errno;
		goto out;
	}
	r = write_all(fd, doc, strlen(doc));
	if (r == 0 && fsync(fd) != 0) {
		log_warn("fsync %s: %s; calling sync()", tmp, strerror(errno));
		sync();
	}
	if (close(fd) != 0 && r == 0)
		r = -errno;
	if (r == 0 && rename(tmp, path) != 0)
		r = -errno;
	if (r != 0)
		(void)unlink(tmp);
out:
	free(doc);
	free(tmp);
	return r;
}

/* ---------------------------------------------------------------------
 * Master key wrap (FORMAT.md 2.5)
 */

#define WRAP_NONCE_HKDF 16
#define WRAP_NONCE_LEGACY 12
#define WRAP_TAG 16
#define SCRYPT_KEYLEN_MAX 1024

/* The AES-256-GCM key that wraps the master key: HKDF(KEK) or the KEK. */
static int wrap_key(uint8_t wk[32], const struct config *c, const uint8_t *pw,
		    size_t pwlen)
{
	size_t kl = (size_t)c->scrypt_keylen;
	uint8_t *kek = secmem_alloc(kl);
	int r;

	if (kek == NULL)
		return CONF_ERR_NOMEM;
	r = kdf_scrypt(kek, kl, pw, pwlen, c->salt, c->salt_len,
		       (uint64_t)c->scrypt_n, (uint64_t)c->scrypt_r,
		       (uint64_t)c->scrypt_p);
	if (r != 0) {
		r = CONF_ERR_SCRYPT;
	} else if (has(c, CONF_HKDF)) {
		r = kdf_hkdf_sha256(wk, 32, kek, kl, KEYS_INFO_GCM,
				    sizeof(KEYS_INFO_GCM) - 1) == 0
			    ? CONF_OK
			    : CONF_ERR_NOMEM;
	} else {
		memcpy(wk, kek, 32);
		r = CONF_OK;
	}
	secmem_free(kek);
	return r;
}

int config_check_scrypt(const struct config *c, char *err, size_t errlen)
{
	uint64_t mem = 0;
	int64_t n = c->scrypt_n;

	if (n < 2 || (n & (n - 1)) != 0) {
		config_err(err, errlen,
			   "scrypt parameter N=%lld is not a power of two",
			   (long long)n);
		return CONF_ERR_SCRYPT;
	}
	if (c->scrypt_r < 1 || c->scrypt_p < 1 ||
	    kdf_scrypt_check((uint64_t)n, (uint64_t)c->scrypt_r,
			     (uint64_t)c->scrypt_p, &mem) != 0) {
		config_err(err, errlen,
			   "scrypt parameters N=%lld R=%lld P=%lld need %llu "
			   "MiB, more than the %llu MiB allowed",
			   (long long)n, (long long)c->scrypt_r,
			   (long long)c->scrypt_p,
			   (unsigned long long)(mem >> 20),
			   (unsigned long long)(KDF_SCRYPT_MAXMEM >> 20));
		return CONF_ERR_SCRYPT;
	}
	return CONF_OK;
}

int config_unlock(const struct config *c, const uint8_t *pw, size_t pwlen,
		  uint8_t master_key[CONF_MASTER_KEY_LEN], char *err,
		  size_t errlen)
{
	static const uint8_t aad[8];
	size_t nl = has(c, CONF_HKDF) ? WRAP_NONCE_HKDF : WRAP_NONCE_LEGACY;
	uint8_t *wk = NULL, *mk = NULL;
	int r;

	if (c->encrypted_key_len != nl + CONF_MASTER_KEY_LEN + WRAP_TAG) {
		config_err(err, errlen, "EncryptedKey has %zu bytes, want %zu",
			   c->encrypted_key_len,
			   nl + CONF_MASTER_KEY_LEN + WRAP_TAG);
		return CONF_ERR_INVALID;
	}
	if (c->scrypt_keylen < 32 || c->scrypt_keylen > SCRYPT_KEYLEN_MAX ||
	    (!has(c, CONF_HKDF) && c->scrypt_keylen != 32)) {
		config_err(err, errlen, "scrypt KeyLen %lld is not usable",
			   (long long)c->scrypt_keylen);
		return CONF_ERR_INVALID;
	}
	r = config_check_scrypt(c, err, errlen);
	if (r != CONF_OK)
		return r;
	wk = secmem_alloc(32);
	mk = secmem_alloc(CONF_MASTER_KEY_LEN);
	if (wk == NULL || mk == NULL) {
		r = CONF_ERR_NOMEM;
		goto out;
	}
	r = wrap_key(wk, c, pw, pwlen);
	if (r != CONF_OK)
		goto out;
	if (ossl_gcm_open(mk, c->encrypted_key + nl, CONF_MASTER_KEY_LEN,
			  c->encrypted_key + nl + CONF_MASTER_KEY_LEN, aad,
			  sizeof(aad), wk, c->encrypted_key, nl) != 0) {
		config_err(err, errlen, "Password incorrect.");
		r = CONF_ERR_PASSWORD;
		goto out;
	}
	memcpy(master_key, mk, CONF_MASTER_KEY_LEN);
	r = CONF_OK;
out:
	if (r == CONF_ERR_NOMEM)
		config_err(err, errlen,
			   "out of memory or key derivation "
			   "failed");
	else if (r == CONF_ERR_SCRYPT)
		config_err(err, errlen, "scrypt failed");
	secmem_free(wk);
	secmem_free(mk);
	return r;
}

int config_wrap(struct config *c, const uint8_t master_key[32],
		const uint8_t *pw, size_t pwlen, unsigned logn)
{
	static const uint8_t aad[8];
	uint8_t *wk;
	uint8_t *ek = c->encrypted_key;
	int r;

	if (!has(c, CONF_HKDF) || logn < 1 || logn > 62)
		return CONF_ERR_SCRYPT;
	c->salt_len = 32;
	ossl_random(c->salt, c->salt_len);
	c->scrypt_n = (int64_t)1 << logn;
	c->scrypt_r = 8;
	c->scrypt_p = 1;
	c->scrypt_keylen = 32;
	if (kdf_scrypt_check((uint64_t)c->scrypt_n, 8, 1, NULL) != 0)
		return CONF_ERR_SCRYPT;
	wk = secmem_alloc(32);
	if (wk == NULL)
		return CONF_ERR_NOMEM;
	r = wrap_key(wk, c, pw, pwlen);
	if (r == CONF_OK) {
		ossl_random(ek, WRAP_NONCE_HKDF);
		ossl_gcm_seal(ek + WRAP_NONCE_HKDF,
			      ek + WRAP_NONCE_HKDF + CONF_MASTER_KEY_LEN,
			      master_key, CONF_MASTER_KEY_LEN, aad, sizeof(aad),
			      wk, ek, WRAP_NONCE_HKDF);
		c->encrypted_key_len =
			WRAP_NONCE_HKDF + CONF_MASTER_KEY_LEN + WRAP_TAG;
	}
	secmem_free(wk);
	return r;
}

/* ---------------------------------------------------------------------
 * -init and -info
 */

static int add_flag(struct config *c, uint32_t f)
{
	char *s = strdup(config_flag_name(f));

	if (s == NULL)
		return -1;
	c->flag_names[c->nflag_names++] = s;
	c->flags |= f;
	return 0;
}

int config_init(struct config *c, const struct config_init_opts *o, char *err,
		size_t errlen)
{
	uint32_t seq[CONF_NFLAGS];
	size_t n = 0;

	config_zero(c);
	if (o->xchacha && o->aessiv) {
		config_err(err, errlen,
			   "Can't have both XChaCha20Poly1305 "
			   "and AESSIV feature flags");
		return CONF_ERR_INVALID;
	}
	if (o->longnamemax < 62 || o->longnamemax > 255) {
		config_err(err, errlen,
			   "-longnamemax: value %u is outside allowed range "
			   "62 ... 255",
			   o->longnamemax);
		return CONF_ERR_INVALID;
	}
	seq[n++] = CONF_HKDF;
	seq[n++] = o->xchacha ? CONF_XCHACHA : CONF_GCMIV128;
	if (o->plaintextnames) {
		seq[n++] = CONF_PLAINTEXTNAMES;
	} else {
		if (!o->deterministic_names)
			seq[n++] = CONF_DIRIV;
		if (o->longnamemax != 255) {
			seq[n++] = CONF_LONGNAMEMAX;
			c->longnamemax = o->longnamemax;
		}
		seq[n++] = CONF_EMENAMES;
		seq[n++] = CONF_LONGNAMES;
		seq[n++] = CONF_RAW64;
	}
	if (o->aessiv)
		seq[n++] = CONF_AESSIV;
	c->version = 2;
	c->creator = strdup(o->creator ? o->creator : "");
	if (c->creator == NULL)
		goto nomem;
	for (size_t i = 0; i < n; i++)
		if (add_flag(c, seq[i]) != 0)
			goto nomem;
	return CONF_OK;
nomem:
	config_free(c);
	config_err(err, errlen, "out of memory");
	return CONF_ERR_NOMEM;
}

const char *config_cipher_name(const struct config *c)
{
	if (has(c, CONF_XCHACHA))
		return "XChaCha20-Poly1305";
	if (has(c, CONF_AESSIV))
		return "AES-SIV-512";
	return "AES-GCM-256";
}

char *config_info(const struct config *c)
{
	size_t cap = 512 + strlen(c->creator ? c->creator : "");
	char *out, *p;
	int k;

	for (size_t i = 0; i < c->nflag_names; i++)
		cap += strlen(c->flag_names[i]) + 1;
	out = malloc(cap);
	if (out == NULL)
		return NULL;
	p = out;
	k = snprintf(p, cap, "%-19s%s\n%-19s",
		     "Creator:", c->creator ? c->creator : "", "FeatureFlags:");
	p += k;
	for (size_t i = 0; i < c->nflag_names; i++) {
		k = snprintf(p, cap - (size_t)(p - out), "%s%s",
			     i > 0 ? " " : "", c->flag_names[i]);
		p += k;
	}
	(void)snprintf(p, cap - (size_t)(p - out),
		       "\n%-19s%zuB\n%-19sSalt=%zuB N=%lld R=%lld P=%lld "
		       "KeyLen=%lld\n%-19s%s\n",
		       "EncryptedKey:", c->encrypted_key_len,
		       "ScryptObject:", c->salt_len, (long long)c->scrypt_n,
		       (long long)c->scrypt_r, (long long)c->scrypt_p,
		       (long long)c->scrypt_keylen,
		       "contentEncryption:", config_cipher_name(c));
	return out;
}
