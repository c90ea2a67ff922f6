/* SPDX-License-Identifier: MIT */
/*
 * File-content blocks: sizes, AAD, seal/open per backend. See content.h.
 * Spec: ../shared/FORMAT.md 4.3-4.8.
 * Depends on: crypto/ossl_aead.h (AES-GCM on libgcrypt or OpenSSL,
 * AES-SIV, random bytes; content_gcm_backend_enable switches AES-GCM),
 * crypto/ossl_mem.h (the backend only with the locked arena),
 * crypto/aead_xchacha.h (XChaCha20-Poly1305: the proved composition, on
 * the kernels of crypto/kern.h), crypto/ct.h. Not proved.
 */
#include "format/content.h"

#include <errno.h>
#include <string.h>

#include "crypto/ct.h"
#include "crypto/gcm_backend_gcrypt.h"
#include "crypto/ossl_aead.h"
#include "crypto/ossl_mem.h"
#include "crypto/aead/chachapoly.h"

#define CONTENT_MAX_PLAIN 65536 /* largest xattr value */

size_t content_nonce_len(enum content_cipher c)
{
	return c == CIPHER_XCHACHA ? 24 : 16;
}

size_t content_overhead(enum content_cipher c)
{
	return content_nonce_len(c) + CONTENT_TAG_LEN;
}

size_t content_cipher_bs(enum content_cipher c)
{
	return CONTENT_PLAIN_BS + content_overhead(c);
}

uint64_t content_plain_to_cipher_size(enum content_cipher c, uint64_t plain)
{
	uint64_t ov = content_overhead(c);
	uint64_t blocks = plain / CONTENT_PLAIN_BS;

	if (plain == 0)
		return 0;
	if (plain % CONTENT_PLAIN_BS != 0)
		blocks++;
	return HEADER_LEN + plain + blocks * ov;
}

uint64_t content_cipher_to_plain_size(enum content_cipher c, uint64_t cipher)
{
	uint64_t ov = content_overhead(c), cbs = content_cipher_bs(c);
	uint64_t last, blocks, body;

	if (cipher <= HEADER_LEN)
		return 0;
	last = (cipher - HEADER_LEN) % cbs;
	if (last > 0 && last <= ov)
		cipher = cipher - last + ov + 1; /* too-short tail: 1 byte */
	body = cipher - HEADER_LEN;
	blocks = body / cbs + (body % cbs != 0);
	if (body < blocks * ov)
		return 0;
	return body - blocks * ov;
}

uint64_t content_block_no(uint64_t plain_off)
{
	return plain_off / CONTENT_PLAIN_BS;
}

uint64_t content_block_cipher_off(enum content_cipher c, uint64_t blockno)
{
	return HEADER_LEN + blockno * content_cipher_bs(c);
}

static int all_zero(const uint8_t *p, size_t n)
{
	uint8_t acc = 0;

	for (size_t i = 0; i < n; i++)
		acc |= p[i];
	return acc == 0;
}

void content_nonce_new(enum content_cipher c, uint8_t *nonce)
{
	size_t n = content_nonce_len(c);

	do
		ossl_random(nonce, n);
	while (all_zero(nonce, n));
}

void content_nonces_new(enum content_cipher c, uint8_t *buf, size_t n)
{
	size_t nl = content_nonce_len(c);

	ossl_random(buf, n * nl);
	for (size_t i = 0; i < n; i++)
		if (all_zero(buf + i * nl, nl))
			content_nonce_new(c, buf + i * nl);
}

void content_header_new(uint8_t hdr[HEADER_LEN])
{
	uint8_t id[HEADER_ID_LEN];

	do
		ossl_random(id, sizeof(id));
	while (all_zero(id, sizeof(id)));
	header_build(hdr, id);
}

/* AAD for a block; returns its length (8 or 24). */
static size_t make_aad(uint8_t aad[CONTENT_AAD_LEN], uint64_t blockno,
		       const uint8_t *file_id)
{
	store64_be(aad, blockno);
	if (file_id == NULL)
		return 8;
	memcpy(aad + 8, file_id, HEADER_ID_LEN);
	return CONTENT_AAD_LEN;
}

static int volume_ok(const struct volume *v)
{
	size_t want = v->cipher == CIPHER_AES_SIV ? 64 : 32;

	if (v->cipher != CIPHER_AES_GCM && v->cipher != CIPHER_AES_SIV &&
	    v->cipher != CIPHER_XCHACHA)
		return 0;
	return v->content_key != NULL && v->content_key_len == want;
}

int content_block_seal(const struct volume *v, uint8_t *out,
		       const uint8_t *plain, size_t len, uint64_t blockno,
		       const uint8_t *file_id, const uint8_t *nonce)
{
	uint8_t aad[CONTENT_AAD_LEN];
	size_t nl, aadlen;

	if (!volume_ok(v) || len > CONTENT_MAX_PLAIN)
		return -EINVAL;
	nl = content_nonce_len(v->cipher);
	if (nonce != NULL)
		memcpy(out, nonce, nl);
	else
		content_nonce_new(v->cipher, out);
	aadlen = make_aad(aad, blockno, file_id);
	switch (v->cipher) {
	case CIPHER_AES_GCM:
		ossl_gcm_seal(out + nl, out + nl + len, plain, len, aad, aadlen,
			      v->content_key, out, nl);
		break;
	case CIPHER_AES_SIV:
		ossl_siv_seal(out + nl + CONTENT_TAG_LEN, out + nl, plain, len,
			      aad, aadlen, v->content_key, out, nl);
		break;
	case CIPHER_XCHACHA:
		xchachapoly_seal(out + nl, out + nl + len, plain, len, aad,
				 aadlen, v->content_key, out);
		break;
	}
	return 0;
}

int content_block_open(const struct volume *v, uint8_t *out, size_t *outlen,
		       const uint8_t *in, size_t inlen, uint64_t blockno,
		       const uint8_t *file_id)
{
	uint8_t aad[CONTENT_AAD_LEN];
	size_t nl, ov, len, aadlen;
	int rc = -1;

	if (!volume_ok(v))
		return -EINVAL;
	nl = content_nonce_len(v->cipher);
	ov = content_overhead(v->cipher);
	if (inlen > CONTENT_MAX_PLAIN + ov)
		return -EINVAL;
	if (inlen < ov)
		return -EIO;
	len = inlen - ov;
	/* Only a block with an all-zero nonce can be a hole, so the nonce is
	 * checked first and the rest of the block only in that rare case. */
	if (all_zero(in, nl)) {
		if (inlen == content_cipher_bs(v->cipher) &&
		    all_zero(in + nl, inlen - nl)) {
			memset(out, 0, CONTENT_PLAIN_BS); /* a hole */
			*outlen = CONTENT_PLAIN_BS;
			return 0;
		}
		return -EIO; /* all-zero nonce in a non-hole block */
	}
	aadlen = make_aad(aad, blockno, file_id);
	switch (v->cipher) {
	case CIPHER_AES_GCM:
		rc = ossl_gcm_open(out, in + nl, len, in + nl + len, aad,
				   aadlen, v->content_key, in, nl);
		break;
	case CIPHER_AES_SIV:
		rc = ossl_siv_open(out, in + nl + CONTENT_TAG_LEN, len, in + nl,
				   aad, aadlen, v->content_key, in, nl);
		break;
	case CIPHER_XCHACHA:
		rc = xchachapoly_open(out, in + nl, len, in + nl + len, aad,
				      aadlen, v->content_key, in);
		if (rc != 0 && len > 0)
			ct_wipe(out, len);
		break;
	}
	if (rc != 0)
		return -EIO;
	*outlen = len;
	return 0;
}

int content_value_open(const struct volume *v, uint8_t *out, size_t *outlen,
		       const uint8_t *in, size_t inlen)
{
	if (!volume_ok(v))
		return -EINVAL;
	if (inlen == content_cipher_bs(v->cipher) && all_zero(in, inlen))
		return -EIO;
	return content_block_open(v, out, outlen, in, inlen, 0, NULL);
}

const char *content_gcm_backend_enable(void)
{
	/* without the locked arena libgcrypt would keep the key schedules
	 * in its own pool, which is locked but lands in core dumps */
	if (ossl_mem_ready() && ossl_gcm_backend_enable() == 0 &&
	    !gcm_gcrypt_in_arena())
		ossl_gcm_backend_disable(); /* libgcrypt was set up before */
	return ossl_gcm_backend();
}
