/* SPDX-License-Identifier: MIT */
/*
 * Subkey derivation (see keys.h). Spec: ../shared/FORMAT.md section 3.
 * Depends on: crypto/kdf.h, crypto/ossl_mem.h, libcrypto (SHA-512 for the
 * legacy AES-SIV key), base/secmem.h. Not proved.
 */
#include "format/keys.h"

#include <errno.h>
#include <openssl/sha.h>
#include <string.h>

#include "base/secmem.h"
#include "crypto/kdf.h"
#include "crypto/ossl_mem.h"

void volume_free(struct volume *v)
{
	secmem_free(v->content_key);
	secmem_free(v->eme_key);
	v->content_key = NULL;
	v->eme_key = NULL;
	v->content_key_len = 0;
}

static int hkdf(uint8_t *out, size_t n, const uint8_t mk[KEYS_MASTER_LEN],
		const char *info)
{
	return kdf_hkdf_sha256(out, n, mk, KEYS_MASTER_LEN, info, strlen(info));
}

int keys_derive(struct volume *v, const uint8_t master_key[KEYS_MASTER_LEN],
		enum content_cipher cipher, uint32_t vol_flags,
		unsigned longnamemax)
{
	int use_hkdf = (vol_flags & VOL_HKDF) != 0;
	size_t cl = cipher == CIPHER_AES_SIV ? 64 : 32;
	const char *info = cipher == CIPHER_AES_SIV   ? KEYS_INFO_SIV
			   : cipher == CIPHER_XCHACHA ? KEYS_INFO_XCHACHA
						      : KEYS_INFO_GCM;
	int r = 0;

	memset(v, 0, sizeof(*v));
	if ((cipher != CIPHER_AES_GCM && cipher != CIPHER_AES_SIV &&
	     cipher != CIPHER_XCHACHA) ||
	    (cipher == CIPHER_XCHACHA && !use_hkdf) || longnamemax < 1 ||
	    longnamemax > 255)
		return -EINVAL;
	v->cipher = cipher;
	v->flags = vol_flags;
	v->longnamemax = longnamemax;
	v->content_key_len = cl;
	v->content_key = secmem_alloc(cl);
	v->eme_key = secmem_alloc(32);
	if (v->content_key == NULL || v->eme_key == NULL) {
		r = -ENOMEM;
		goto out;
	}
	if (use_hkdf) {
		if (hkdf(v->eme_key, 32, master_key, KEYS_INFO_EME) != 0 ||
		    hkdf(v->content_key, cl, master_key, info) != 0)
			r = -ENOMEM;
	} else {
		memcpy(v->eme_key, master_key, 32);
		if (cipher == CIPHER_AES_SIV) {
			/* the digest context (in the locked arena, see
			 * crypto/ossl_mem.h) holds the master key */
			ossl_mem_enter();
			if (SHA512(master_key, KEYS_MASTER_LEN,
				   v->content_key) == NULL)
				r = -ENOMEM;
			ossl_mem_leave();
		} else {
			memcpy(v->content_key, master_key, 32);
		}
	}
out:
	if (r != 0)
		volume_free(v);
	return r;
}

int keys_from_config(struct volume *v, const struct config *c,
		     const uint8_t master_key[KEYS_MASTER_LEN])
{
	static const struct {
		uint32_t conf, vol;
	} map[] = {
		{ CONF_HKDF, VOL_HKDF },
		{ CONF_PLAINTEXTNAMES, VOL_PLAINTEXTNAMES },
		{ CONF_DIRIV, VOL_DIRIV },
		{ CONF_EMENAMES, VOL_EMENAMES },
		{ CONF_LONGNAMES, VOL_LONGNAMES },
		{ CONF_RAW64, VOL_RAW64 },
	};
	uint32_t vf = 0;
	enum content_cipher cipher = CIPHER_AES_GCM;

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (c->flags & map[i].conf)
			vf |= map[i].vol;
	if (c->flags & CONF_XCHACHA)
		cipher = CIPHER_XCHACHA;
	else if (c->flags & CONF_AESSIV)
		cipher = CIPHER_AES_SIV;
	return keys_derive(v, master_key, cipher, vf,
			   c->longnamemax != 0 ? c->longnamemax : 255);
}
