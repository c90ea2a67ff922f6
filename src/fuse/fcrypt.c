/* SPDX-License-Identifier: MIT */
/*
 * FUSE-side format adapter: see fcrypt.h. Every function forwards to the
 * format layer (format/content.h, header.h, names.h) and maps its errors
 * to what the FUSE operations return.
 * Spec: ../shared/FORMAT.md sections 4.2-4.8, 5, 6, 7. Not proved.
 */
#include "fuse/fcrypt.h"

#include <errno.h>
#include <string.h>

#include "crypto/ossl_aead.h"
#include "format/content.h"
#include "format/header.h"
#include "format/names.h"

void fc_random(void *buf, size_t n)
{
	ossl_random(buf, n);
}

size_t fc_overhead(const struct volume *v)
{
	return content_overhead(v->cipher);
}

size_t fc_cbs(const struct volume *v)
{
	return content_cipher_bs(v->cipher);
}

uint64_t fc_plain_size(const struct volume *v, uint64_t csize)
{
	return content_cipher_to_plain_size(v->cipher, csize);
}

uint64_t fc_cipher_size(const struct volume *v, uint64_t psize)
{
	return content_plain_to_cipher_size(v->cipher, psize);
}

int fc_block_seal(const struct volume *v, const uint8_t *fileid,
		  uint64_t blockno, const uint8_t *in, size_t len, uint8_t *out)
{
	return content_block_seal(v, out, in, len, blockno, fileid, NULL) == 0
		       ? 0
		       : -EIO;
}

size_t fc_nonce_len(const struct volume *v)
{
	return content_nonce_len(v->cipher);
}

void fc_nonces(const struct volume *v, uint8_t *buf, size_t n)
{
	size_t nl = content_nonce_len(v->cipher);

	ossl_random(buf, n * nl);
	for (size_t i = 0; i < n; i++) {
		uint8_t acc = 0;

		for (size_t j = 0; j < nl; j++)
			acc |= buf[i * nl + j];
		if (acc == 0)
			content_nonce_new(v->cipher, buf + i * nl);
	}
}

int fc_block_seal_nonce(const struct volume *v, const uint8_t *fileid,
			uint64_t blockno, const uint8_t *in, size_t len,
			uint8_t *out, const uint8_t *nonce)
{
	return content_block_seal(v, out, in, len, blockno, fileid, nonce) == 0
		       ? 0
		       : -EIO;
}

int fc_block_open(const struct volume *v, const uint8_t *fileid,
		  uint64_t blockno, const uint8_t *in, size_t clen,
		  uint8_t *out)
{
	size_t outlen = 0;

	if (content_block_open(v, out, &outlen, in, clen, blockno, fileid) != 0)
		return -EIO;
	return (int)outlen;
}

int fc_header_new(uint8_t hdr[FC_HEADER_LEN])
{
	uint8_t id[FC_FILEID_LEN];
	uint8_t acc;

	do {
		ossl_random(id, sizeof(id));
		acc = 0;
		for (size_t i = 0; i < sizeof(id); i++)
			acc |= id[i];
	} while (acc == 0);
	header_build(hdr, id);
	return 0;
}

int fc_header_parse(const uint8_t hdr[FC_HEADER_LEN],
		    uint8_t fileid[FC_FILEID_LEN])
{
	return header_parse(fileid, hdr) == 0 ? 0 : -EIO;
}

int fc_name_encrypt(const struct volume *v, const uint8_t iv[FC_DIRIV_LEN],
		    const char *name, char *out, size_t outsz)
{
	int rc = names_encrypt(v, iv, name, out, outsz);

	return rc == -ERANGE ? -ENAMETOOLONG : rc;
}

int fc_name_decrypt(const struct volume *v, const uint8_t iv[FC_DIRIV_LEN],
		    const char *enc, char *out, size_t outsz)
{
	return names_decrypt(v, iv, enc, out, outsz) == 0 ? 0 : -EIO;
}

int fc_name_is_long(const struct volume *v, const char *enc)
{
	return names_needs_long(v, strlen(enc));
}

void fc_longname_hash(const struct volume *v, const char *enc, char *out,
		      size_t outsz)
{
	if (names_long_hash(v, enc, out, outsz) != 0 && outsz > 0)
		out[0] = '\0';
}

int fc_is_longname(const char *disk)
{
	return names_is_long(disk);
}

int fc_is_longname_file(const char *disk)
{
	return names_is_long_namefile(disk);
}

int fc_symlink_encrypt(const struct volume *v, const char *target, char *out,
		       size_t outsz)
{
	int rc = names_symlink_encrypt(v, out, outsz, (const uint8_t *)target,
				       strlen(target), NULL);

	return rc == -ERANGE ? -ENAMETOOLONG : rc;
}

int fc_symlink_decrypt(const struct volume *v, const char *enc, char *out,
		       size_t outsz)
{
	size_t len = 0;
	int rc = names_symlink_decrypt(v, (uint8_t *)out, outsz, &len, enc);

	if (rc == -ERANGE)
		return -ENAMETOOLONG;
	return rc != 0 ? -EIO : (int)len;
}

int fc_xattr_name_encrypt(const struct volume *v, const char *name, char *out,
			  size_t outsz)
{
	return names_xattr_name_encrypt(v, name, out, outsz);
}

int fc_xattr_name_decrypt(const struct volume *v, const char *stored, char *out,
			  size_t outsz)
{
	if (names_xattr_is_acl(stored))
		return -EIO;
	return names_xattr_name_decrypt(v, stored, out, outsz) == 0 ? 0 : -EIO;
}

int fc_xattr_is_acl(const char *name)
{
	return names_xattr_is_acl(name);
}
