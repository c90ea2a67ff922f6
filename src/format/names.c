/* SPDX-License-Identifier: MIT */
/*
 * Name, long-name, symlink and xattr transforms. See names.h.
 * Spec: ../shared/FORMAT.md 5, 6, 7.
 * Depends on: content.h, b64.h, crypto/eme.h, crypto/ossl_aead.h,
 * crypto/ct.h. Not proved.
 */
#include "format/names.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/ct.h"
#include "crypto/eme.h"
#include "crypto/ossl_aead.h"
#include "format/b64.h"
#include "format/content.h"

#define NAMES_BIN_MAX 256    /* padded binary of a 255-byte name */
#define SYMLINK_BIN_MAX 3072 /* 4095 base64 characters decode to <= 3071 */

static const uint8_t xattr_iv[16] = NAMES_XATTR_IV;

void names_diriv_new(uint8_t iv[NAMES_DIRIV_LEN])
{
	ossl_random(iv, NAMES_DIRIV_LEN);
}

unsigned names_b64_flags(const struct volume *v)
{
	return (v->flags & VOL_RAW64) ? B64_URL_RAW : B64_URL_PAD;
}

void names_pad16(uint8_t *out, size_t *outlen, const uint8_t *in, size_t len)
{
	size_t k = 16 - len % 16;

	memmove(out, in, len);
	memset(out + len, (int)k, k);
	*outlen = len + k;
}

int names_unpad16(size_t *outlen, const uint8_t *in, size_t len)
{
	size_t k;

	if (len == 0 || len % 16 != 0)
		return -EIO;
	k = in[len - 1];
	if (k < 1 || k > 16 || k >= len)
		return -EIO;
	for (size_t i = len - k; i < len; i++)
		if (in[i] != k)
			return -EIO;
	*outlen = len - k;
	return 0;
}

int names_check_plain(const char *name, size_t len)
{
	if (len == 0)
		return -EINVAL;
	if (len > NAMES_MAX)
		return -ENAMETOOLONG;
	if (memchr(name, '/', len) != NULL || memchr(name, '\0', len) != NULL)
		return -EINVAL;
	if ((len == 1 && name[0] == '.') ||
	    (len == 2 && name[0] == '.' && name[1] == '.'))
		return -EINVAL;
	return 0;
}

/* Copy len bytes and a NUL into out (cap bytes). */
static int put_str(char *out, size_t cap, const char *s, size_t len)
{
	if (len >= cap)
		return -ERANGE;
	memcpy(out, s, len);
	out[len] = '\0';
	return 0;
}

/* EME + base64 of pad16(in); enc holds NAMES_BUF bytes. */
static void eme_encode(const struct volume *v, const uint8_t iv[16],
		       const uint8_t *in, size_t len, char enc[NAMES_BUF])
{
	uint8_t bin[NAMES_BIN_MAX + 16];
	size_t blen;

	names_pad16(bin, &blen, in, len);
	eme_transform(bin, bin, blen, v->eme_key, iv, 0);
	ct_public(bin, blen); /* the encrypted name: public by design */
	b64_encode(enc, bin, blen, names_b64_flags(v));
}

/* base64 + EME decipher + unpad; out holds NAMES_BIN_MAX bytes. Returns
 * the plaintext length or -EIO. */
static int eme_decode(const struct volume *v, const uint8_t iv[16],
		      const char *enc, uint8_t out[NAMES_BIN_MAX],
		      size_t *outlen)
{
	size_t elen = strlen(enc), blen = 0, plen = 0;

	if (elen > NAMES_ENC_MAX ||
	    b64_decode(out, NAMES_BIN_MAX, &blen, enc, elen,
		       names_b64_flags(v)) != 0 ||
	    blen == 0 || blen % 16 != 0)
		return -EIO;
	eme_transform(out, out, blen, v->eme_key, iv, 1);
	if (names_unpad16(&plen, out, blen) != 0)
		return -EIO;
	*outlen = plen;
	return 0;
}

int names_encrypt(const struct volume *v, const uint8_t iv[16],
		  const char *name, char *out, size_t cap)
{
	size_t len = strnlen(name, NAMES_MAX + 1);
	char enc[NAMES_BUF];
	int rc = names_check_plain(name, len);

	if (rc != 0)
		return rc;
	if (v->flags & VOL_PLAINTEXTNAMES)
		return put_str(out, cap, name, len);
	eme_encode(v, iv, (const uint8_t *)name, len, enc);
	return put_str(out, cap, enc, strlen(enc));
}

int names_decrypt(const struct volume *v, const uint8_t iv[16], const char *enc,
		  char *out, size_t cap)
{
	uint8_t bin[NAMES_BIN_MAX];
	size_t len = 0;

	if (v->flags & VOL_PLAINTEXTNAMES) {
		len = strnlen(enc, NAMES_MAX + 1);
		if (names_check_plain(enc, len) != 0)
			return -EIO;
		return put_str(out, cap, enc, len);
	}
	if (eme_decode(v, iv, enc, bin, &len) != 0 ||
	    names_check_plain((const char *)bin, len) != 0)
		return -EIO;
	return put_str(out, cap, (const char *)bin, len);
}

int names_needs_long(const struct volume *v, size_t enclen)
{
	unsigned limit = v->longnamemax != 0 ? v->longnamemax : NAMES_MAX;

	return (v->flags & VOL_LONGNAMES) != 0 && enclen > limit;
}

int names_long_hash(const struct volume *v, const char *enc, char *out,
		    size_t cap)
{
	static const char prefix[] = NAMES_LONG_PREFIX;
	uint8_t hash[32];
	char h[48];
	size_t pl = sizeof(prefix) - 1, hl;

	ossl_sha256(hash, (const uint8_t *)enc, strlen(enc));
	b64_encode(h, hash, sizeof(hash), names_b64_flags(v));
	hl = strlen(h);
	if (pl + hl >= cap)
		return -ERANGE;
	memcpy(out, prefix, pl);
	memcpy(out + pl, h, hl + 1);
	return 0;
}

static int has_prefix(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

static int has_suffix(const char *s, const char *suf)
{
	size_t l = strlen(s), sl = strlen(suf);

	return l >= sl && strcmp(s + l - sl, suf) == 0;
}

int names_is_long(const char *cname)
{
	return has_prefix(cname, NAMES_LONG_PREFIX) &&
	       !has_suffix(cname, NAMES_LONG_SUFFIX);
}

int names_is_long_namefile(const char *cname)
{
	return has_prefix(cname, NAMES_LONG_PREFIX) &&
	       has_suffix(cname, NAMES_LONG_SUFFIX);
}

int names_check_namefile(size_t len)
{
	return (len >= 1 && len <= NAMES_ENC_MAX) ? 0 : -EIO;
}

int names_hidden(const struct volume *v, const char *cname, int is_root)
{
	if (is_root && strcmp(cname, NAMES_CONF) == 0)
		return 1;
	if ((v->flags & VOL_DIRIV) && strcmp(cname, NAMES_DIRIV) == 0)
		return 1;
	if ((v->flags & VOL_LONGNAMES) && names_is_long_namefile(cname))
		return 1;
	return 0;
}

int names_reserved(const struct volume *v, const char *name, int is_root)
{
	return (v->flags & VOL_PLAINTEXTNAMES) && is_root &&
	       strcmp(name, NAMES_CONF) == 0;
}

/* ------------------------------------------------------------ symlinks */

int names_symlink_encrypt(const struct volume *v, char *out, size_t cap,
			  const uint8_t *target, size_t tlen,
			  const uint8_t *nonce)
{
	uint8_t blk[SYMLINK_BIN_MAX + CONTENT_MAX_OVERHEAD];
	size_t blen;
	int rc;

	if (tlen == 0 || memchr(target, '\0', tlen) != NULL)
		return -EINVAL;
	if (v->flags & VOL_PLAINTEXTNAMES) {
		if (tlen > NAMES_SYMLINK_MAX)
			return -ENAMETOOLONG;
		return put_str(out, cap, (const char *)target, tlen);
	}
	blen = tlen + content_overhead(v->cipher);
	if (blen > SYMLINK_BIN_MAX ||
	    b64_enc_len(blen, names_b64_flags(v)) > NAMES_SYMLINK_MAX)
		return -ENAMETOOLONG;
	if (b64_enc_len(blen, names_b64_flags(v)) >= cap)
		return -ERANGE;
	rc = content_block_seal(v, blk, target, tlen, 0, NULL, nonce);
	if (rc != 0)
		return rc;
	b64_encode(out, blk, blen, names_b64_flags(v));
	return 0;
}

int names_symlink_decrypt(const struct volume *v, uint8_t *out, size_t cap,
			  size_t *outlen, const char *enc)
{
	uint8_t blk[SYMLINK_BIN_MAX];
	uint8_t plain[SYMLINK_BIN_MAX];
	size_t elen = strnlen(enc, NAMES_SYMLINK_MAX + 1), blen = 0, plen = 0;

	if (v->flags & VOL_PLAINTEXTNAMES) {
		if (elen > NAMES_SYMLINK_MAX)
			return -EIO;
		if (elen >= cap)
			return -ERANGE;
		memcpy(out, enc, elen + 1);
		*outlen = elen;
		return 0;
	}
	if (elen > NAMES_SYMLINK_MAX ||
	    b64_decode(blk, sizeof(blk), &blen, enc, elen,
		       names_b64_flags(v)) != 0 ||
	    blen > SYMLINK_BIN_MAX - 1 || blen <= content_overhead(v->cipher))
		return -EIO;
	if (content_block_open(v, plain, &plen, blk, blen, 0, NULL) != 0)
		return -EIO;
	if (plen >= cap) {
		ct_wipe(plain, plen);
		return -ERANGE;
	}
	memcpy(out, plain, plen);
	out[plen] = 0;
	*outlen = plen;
	ct_wipe(plain, plen);
	return 0;
}

/* -------------------------------------------------------------- xattrs */

int names_xattr_is_acl(const char *name)
{
	return strcmp(name, "system.posix_acl_access") == 0 ||
	       strcmp(name, "system.posix_acl_default") == 0;
}

int names_xattr_name_encrypt(const struct volume *v, const char *name,
			     char *out, size_t cap)
{
	static const char prefix[] = NAMES_XATTR_PREFIX;
	size_t len = strnlen(name, NAMES_XATTR_NAME_MAX + 1), pl, el;
	char enc[NAMES_BUF];

	if (len == 0)
		return -EINVAL;
	if (len > NAMES_XATTR_NAME_MAX)
		return -ERANGE;
	if (names_xattr_is_acl(name))
		return put_str(out, cap, name, len);
	eme_encode(v, xattr_iv, (const uint8_t *)name, len, enc);
	pl = sizeof(prefix) - 1;
	el = strlen(enc);
	if (pl + el > NAMES_XATTR_NAME_MAX || pl + el >= cap)
		return -ERANGE;
	memcpy(out, prefix, pl);
	memcpy(out + pl, enc, el + 1);
	return 0;
}

int names_xattr_name_decrypt(const struct volume *v, const char *stored,
			     char *out, size_t cap)
{
	uint8_t bin[NAMES_BIN_MAX];
	size_t len = 0;

	if (names_xattr_is_acl(stored))
		return put_str(out, cap, stored, strlen(stored));
	if (!has_prefix(stored, NAMES_XATTR_PREFIX))
		return -ENOENT;
	if (eme_decode(v, xattr_iv, stored + strlen(NAMES_XATTR_PREFIX), bin,
		       &len) != 0 ||
	    len == 0 || memchr(bin, '\0', len) != NULL)
		return -ENOENT;
	if (len >= cap)
		return -ERANGE;
	memcpy(out, bin, len);
	out[len] = '\0';
	if (names_xattr_is_acl(out)) {
		out[0] = '\0';
		return -ENOENT; /* written by old versions: hidden */
	}
	return 0;
}

int names_xattr_value_seal(const struct volume *v, uint8_t *out, size_t cap,
			   size_t *outlen, const uint8_t *value, size_t len,
			   const uint8_t *nonce)
{
	size_t need = len + content_overhead(v->cipher);
	int rc;

	if (len > NAMES_XATTR_VALUE_MAX)
		return -EINVAL;
	if (len == 0) {
		*outlen = 0;
		return 0;
	}
	if (need > cap)
		return -ERANGE;
	rc = content_block_seal(v, out, value, len, 0, NULL, nonce);
	if (rc == 0)
		*outlen = need;
	return rc;
}

int names_xattr_value_open(const struct volume *v, uint8_t *out, size_t cap,
			   size_t *outlen, const uint8_t *stored, size_t len)
{
	size_t ov = content_overhead(v->cipher), bl = 0;
	uint8_t *bin;
	int rc = -EIO;

	if (len == 0) {
		*outlen = 0;
		return 0;
	}
	if (len > ov && len <= NAMES_XATTR_VALUE_MAX + ov) {
		if (len - ov > cap)
			rc = -ERANGE;
		else if (content_value_open(v, out, outlen, stored, len) == 0)
			return 0;
	}
	/* very old versions stored the block base64-encoded (names variant) */
	bin = malloc(len);
	if (bin == NULL)
		return -ENOMEM;
	if (b64_decode(bin, len, &bl, (const char *)stored, len,
		       names_b64_flags(v)) == 0 &&
	    bl > ov && bl <= NAMES_XATTR_VALUE_MAX + ov) {
		if (bl - ov > cap)
			rc = -ERANGE;
		else if (content_value_open(v, out, outlen, bin, bl) == 0)
			rc = 0;
		else
			rc = -EIO;
	}
	free(bin);
	return rc;
}
