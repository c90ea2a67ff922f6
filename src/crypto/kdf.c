/* SPDX-License-Identifier: MIT */
/*
 * scrypt and HKDF-SHA256 over OpenSSL 3.0 (see kdf.h). scrypt goes through
 * EVP_PBE_scrypt with an explicit maxmem: OpenSSL's default 32 MiB cap is
 * below what gocryptfs's default N = 65536 needs (64 MiB).
 * The KDF contexts (copies of the password, the KEK, the master key) are
 * created inside a secret scope (ossl_mem.h): in the locked arena.
 * Depends on: libcrypto, ct.h, ossl_mem.h. Not proved.
 */
#include "crypto/kdf.h"

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>

#include "crypto/ct.h"
#include "crypto/ossl_mem.h"

static uint64_t scrypt_maxmem = KDF_SCRYPT_MAXMEM;

uint64_t kdf_scrypt_maxmem(void)
{
	return scrypt_maxmem;
}

void kdf_scrypt_set_maxmem(uint64_t bytes)
{
	scrypt_maxmem = bytes;
}

int kdf_scrypt_work_ok(uint64_t n, uint64_t r, uint64_t p)
{
	uint64_t units = scrypt_maxmem / 128;

	if (n < 1 || r < 1 || p < 1 || r > units || p > units / r)
		return 0;
	return n <= units / r / p;
}

int kdf_scrypt_check(uint64_t n, uint64_t r, uint64_t p, uint64_t *mem)
{
	uint64_t need = UINT64_MAX;
	int ok = n >= 2 && (n & (n - 1)) == 0 && r >= 1 && p >= 1 &&
		 r < ((uint64_t)1 << 30) && p < ((uint64_t)1 << 30) &&
		 r * p < ((uint64_t)1 << 30);

	/* 128 * r * (N + 2) for V plus 128 * r * p for B, as OpenSSL counts */
	if (ok && n <= UINT64_MAX / 256 / r - p - 2)
		need = 128 * r * (n + p + 2);
	if (mem != NULL)
		*mem = need;
	return ok && need <= scrypt_maxmem && kdf_scrypt_work_ok(n, r, p) ? 0
									  : -1;
}

int kdf_scrypt(uint8_t *out, size_t outlen, const uint8_t *pw, size_t pwlen,
	       const uint8_t *salt, size_t saltlen, uint64_t n, uint64_t r,
	       uint64_t p)
{
	uint64_t mem;
	static const char empty[1];
	int ok;

	if (kdf_scrypt_check(n, r, p, &mem) != 0) {
		ct_wipe(out, outlen);
		return -1;
	}
	ossl_mem_enter();
	ok = EVP_PBE_scrypt(pw != NULL ? (const char *)pw : empty, pwlen, salt,
			    saltlen, n, r, p, mem + 65536, out, outlen) == 1;
	ossl_mem_leave();
	if (!ok) {
		ct_wipe(out, outlen);
		return -1;
	}
	return 0;
}

int kdf_hkdf_sha256_salt(uint8_t *out, size_t outlen, const uint8_t *ikm,
			 size_t ikmlen, const uint8_t *salt, size_t saltlen,
			 const uint8_t *info, size_t infolen)
{
	EVP_KDF *kdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
	EVP_KDF_CTX *ctx = NULL;
	OSSL_PARAM params[5];
	size_t np = 0;
	int rc = -1;
	char digest[] = "SHA256";
	static uint8_t dummy[1];

	ossl_mem_enter();
	if (kdf == NULL)
		goto out;
	ctx = EVP_KDF_CTX_new(kdf);
	if (ctx == NULL)
		goto out;
	params[np++] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST,
							digest, 0);
	params[np++] = OSSL_PARAM_construct_octet_string(
		OSSL_KDF_PARAM_KEY, ikm != NULL ? (void *)ikm : dummy, ikmlen);
	if (saltlen > 0)
		params[np++] = OSSL_PARAM_construct_octet_string(
			OSSL_KDF_PARAM_SALT, (void *)salt, saltlen);
	params[np++] = OSSL_PARAM_construct_octet_string(
		OSSL_KDF_PARAM_INFO, infolen > 0 ? (void *)info : dummy,
		infolen);
	params[np] = OSSL_PARAM_construct_end();
	if (EVP_KDF_derive(ctx, out, outlen, params) == 1)
		rc = 0;
out:
	if (rc != 0)
		ct_wipe(out, outlen);
	EVP_KDF_CTX_free(ctx);
	ossl_mem_leave();
	EVP_KDF_free(kdf);
	return rc;
}

int kdf_hkdf_sha256(uint8_t *out, size_t outlen, const uint8_t *ikm,
		    size_t ikmlen, const char *info, size_t infolen)
{
	return kdf_hkdf_sha256_salt(out, outlen, ikm, ikmlen, NULL, 0,
				    (const uint8_t *)info, infolen);
}
