/* SPDX-License-Identifier: MIT */
/*
 * gocryptfs.conf writer (see config.h): serialise through libjansson, turn
 * its one-space indentation into gocryptfs's tabs, save atomically (temp
 * file, fsync, rename); the config of a new cipher dir (-init) and the
 * -info text. ../shared/FORMAT.md 2, 13.1, 13.3.
 * Depends on: libjansson, format/b64.h, format/config_int.h, base/log.h.
 * Not proved.
 */
#include "format/config_int.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/log.h"
#include "format/b64.h"

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
	if (config_has(c, CONF_FIDO2)) {
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
	if (o->longnamemax < CONF_LONGNAMEMAX_MIN ||
	    o->longnamemax > CONF_LONGNAMEMAX_MAX) {
		config_err(err, errlen,
			   "-longnamemax: value %u is outside allowed range "
			   "%d ... %d",
			   o->longnamemax, CONF_LONGNAMEMAX_MIN,
			   CONF_LONGNAMEMAX_MAX);
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
	if (config_has(c, CONF_XCHACHA))
		return "XChaCha20-Poly1305";
	if (config_has(c, CONF_AESSIV))
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
