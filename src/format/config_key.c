/* SPDX-License-Identifier: MIT */
/*
 * The master-key wrap of gocryptfs.conf (see config.h): scrypt of the
 * password, HKDF when the config has the flag, AES-256-GCM around the
 * master key; unlock, re-wrap, and the scrypt parameter check.
 * ../shared/FORMAT.md 2.5. Secrets live in secmem and are wiped; the
 * wrapping key's AES-GCM context (its key schedule and cached copy in
 * ossl_aead.c) is dropped as soon as the master key is out or sealed.
 * Depends on: crypto/kdf.h, crypto/ossl_aead.h, crypto/ct.h, base/secmem.h,
 * format/keys.h (HKDF info strings), format/config_int.h. Not proved.
 */
#include "format/config_int.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/secmem.h"
#include "crypto/ct.h"
#include "crypto/kdf.h"
#include "crypto/ossl_aead.h"
#include "format/keys.h"

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
	} else if (config_has(c, CONF_HKDF)) {
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
		if (c->scrypt_r >= 1 && c->scrypt_p >= 1 &&
		    mem <= kdf_scrypt_maxmem()) {
			/* the memory fits: the work does not */
			config_err(err, errlen,
				   "scrypt parameters N=%lld R=%lld P=%lld are "
				   "too costly: N*R*P may be at most %llu here "
				   "(gocryptfs writes P=1)",
				   (long long)n, (long long)c->scrypt_r,
				   (long long)c->scrypt_p,
				   (unsigned long long)(kdf_scrypt_maxmem() /
							128));
			return CONF_ERR_SCRYPT;
		}
		config_err(err, errlen,
			   "scrypt parameters N=%lld R=%lld P=%lld need %llu "
			   "MiB, more than the %llu MiB of memory available",
			   (long long)n, (long long)c->scrypt_r,
			   (long long)c->scrypt_p,
			   (unsigned long long)(mem >> 20),
			   (unsigned long long)(kdf_scrypt_maxmem() >> 20));
		return CONF_ERR_SCRYPT;
	}
	return CONF_OK;
}

int config_unlock(const struct config *c, const uint8_t *pw, size_t pwlen,
		  uint8_t master_key[CONF_MASTER_KEY_LEN], char *err,
		  size_t errlen)
{
	static const uint8_t aad[8];
	size_t nl =
		config_has(c, CONF_HKDF) ? WRAP_NONCE_HKDF : WRAP_NONCE_LEGACY;
	uint8_t *wk = NULL, *mk = NULL;
	int r;

	if (c->encrypted_key_len != nl + CONF_MASTER_KEY_LEN + WRAP_TAG) {
		config_err(err, errlen, "EncryptedKey has %zu bytes, want %zu",
			   c->encrypted_key_len,
			   nl + CONF_MASTER_KEY_LEN + WRAP_TAG);
		return CONF_ERR_INVALID;
	}
	if (c->scrypt_keylen < 32 || c->scrypt_keylen > SCRYPT_KEYLEN_MAX ||
	    (!config_has(c, CONF_HKDF) && c->scrypt_keylen != 32)) {
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
	r = ossl_gcm_open(mk, c->encrypted_key + nl, CONF_MASTER_KEY_LEN,
			  c->encrypted_key + nl + CONF_MASTER_KEY_LEN, aad,
			  sizeof(aad), wk, c->encrypted_key, nl);
	/* the wrapping key is done with: no context keeps it */
	ossl_aead_thread_cleanup();
	if (r != 0) {
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

	if (!config_has(c, CONF_HKDF) || logn < 1 || logn > 62)
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
		ossl_aead_thread_cleanup();
		c->encrypted_key_len =
			WRAP_NONCE_HKDF + CONF_MASTER_KEY_LEN + WRAP_TAG;
	}
	secmem_free(wk);
	return r;
}
