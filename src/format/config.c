/* SPDX-License-Identifier: MIT */
/*
 * gocryptfs.conf reader and validator (see config.h): parse through
 * libjansson, check the flags and scrypt parameters, load from a file.
 * The writer, -init and -info are in config_save.c, the master-key wrap
 * in config_key.c.
 * Depends on: libjansson, format/b64.h, format/config_int.h. Not proved.
 */
#include "format/config_int.h"

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

#include "format/b64.h"

static const char *const config_flag_names[CONF_NFLAGS] = {
	"HKDF",	 "GCMIV128",  "XChaCha20Poly1305", "AESSIV", "EMENames",
	"DirIV", "LongNames", "LongNameMax",	   "Raw64",  "PlaintextNames",
	"FIDO2",
};

__attribute__((format(printf, 3, 4))) void config_err(char *err, size_t errlen,
						      const char *fmt, ...)
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

int config_has(const struct config *c, uint32_t f)
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
	if (config_has(c, CONF_XCHACHA) && config_has(c, CONF_AESSIV)) {
		config_err(err, errlen,
			   "Can't have both XChaCha20Poly1305 "
			   "and AESSIV feature flags");
		return CONF_ERR_INVALID;
	}
	if (config_has(c, CONF_AESSIV) && !config_has(c, CONF_GCMIV128)) {
		config_err(err, errlen,
			   "AESSIV requires GCMIV128 feature flag");
		return CONF_ERR_INVALID;
	}
	if (config_has(c, CONF_XCHACHA) && config_has(c, CONF_GCMIV128)) {
		config_err(err, errlen,
			   "XChaCha20Poly1305 conflicts with "
			   "GCMIV128 feature flag");
		return CONF_ERR_INVALID;
	}
	if (config_has(c, CONF_XCHACHA) && !config_has(c, CONF_HKDF)) {
		config_err(err, errlen,
			   "XChaCha20Poly1305 requires HKDF feature flag");
		return CONF_ERR_INVALID;
	}
	if (!config_has(c, CONF_XCHACHA) && !config_has(c, CONF_AESSIV) &&
	    !config_has(c, CONF_GCMIV128)) {
		config_err(err, errlen,
			   "AES-GCM requires GCMIV128 feature flag");
		return CONF_ERR_INVALID;
	}
	if (config_has(c, CONF_PLAINTEXTNAMES)) {
		for (size_t i = 0;
		     i < sizeof(ptn_conflicts) / sizeof(ptn_conflicts[0]);
		     i++) {
			if (config_has(c, ptn_conflicts[i])) {
				config_err(err, errlen,
					   "PlaintextNames conflicts with %s "
					   "feature flag",
					   config_flag_name(ptn_conflicts[i]));
				return CONF_ERR_INVALID;
			}
		}
	}
	if (c->longnamemax != 0 && !config_has(c, CONF_LONGNAMEMAX)) {
		config_err(err, errlen,
			   "LongNameMax=%u but the LongNameMax feature flag is "
			   "NOT set",
			   c->longnamemax);
		return CONF_ERR_INVALID;
	}
	if (c->longnamemax == 0 && config_has(c, CONF_LONGNAMEMAX)) {
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

/* Open the config for reading. A FIFO (or device, socket) planted where
 * gocryptfs.conf belongs would block open() or read() forever, so the path
 * is checked with stat() first (no open of a device at all), opened with
 * O_NONBLOCK and checked again on the fd (the path may change in between).
 * A symlink is followed: a config linked from elsewhere is a normal setup,
 * and its target must be a regular file too. fd or -1 with err set. */
static int config_open(const char *path, char *err, size_t errlen)
{
	struct stat st;
	int fd;

	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		config_err(err, errlen, "%s is not a regular file", path);
		return -1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		config_err(err, errlen, "open %s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		config_err(err, errlen, "%s is not a regular file", path);
		close(fd);
		return -1;
	}
	return fd;
}

int config_load(struct config *c, const char *path, char *err, size_t errlen)
{
	int fd = config_open(path, err, errlen);
	char *buf = NULL;
	size_t len = 0;
	int r;

	config_zero(c);
	if (fd < 0)
		return CONF_ERR_IO;
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
