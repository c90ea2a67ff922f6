/* SPDX-License-Identifier: MIT */
/* Targets: b64_decode, b64_encode, names_unpad16, names_pad16,
 * names_decrypt, names_encrypt, names_symlink_decrypt,
 * names_symlink_encrypt, names_xattr_name_decrypt, names_xattr_name_encrypt,
 * names_check_plain. */
/*
 * Encrypted names as read from an untrusted backing directory (FORMAT.md
 * 5.1-5.5, 6, 7): the fuzzer picks the volume variant (fuzz_volume.h), the
 * directory IV, which decoder to drive, and the text. Every decoder must be
 * strict, so what it accepts re-encodes to exactly the same text:
 *   b64:      decode with each variant then encode == input; -ERANGE only
 *             when the decoded length exceeds cap; nothing written on error
 *   unpad16:  accepts exactly the PKCS#7-style paddings of FORMAT.md 5.2,
 *             and pad16(unpadded) == input
 *   name:     names_decrypt ok => a valid plain name, names_encrypt of it
 *             == input; on error the output is untouched
 *   symlink:  names_symlink_decrypt ok => re-encrypting with the stored
 *             nonce gives the same text
 *   xattr:    names_xattr_name_decrypt ok (non-ACL) => re-encrypts to it
 * Test code: not constant time, not proved.
 */
#include <errno.h>

#include "format/b64.h"
#include "format/content.h"
#include "format/names.h"
#include "fuzz_util.h"
#include "fuzz_volume.h"

#define FZ_MAX_TEXT 4200
#define FZ_SENTINEL 'Z'

static void check_b64(const char *s, size_t len, size_t cap)
{
	static const unsigned variants[3] = { B64_URL_RAW, B64_URL_PAD,
					      B64_STD_PAD };
	uint8_t *out = malloc(cap ? cap : 1);
	uint8_t *big = malloc(len + 1);
	char *enc = malloc(len + 8);

	FZ_CHECK(out && big && enc, "malloc");
	for (int i = 0; i < 3; i++) {
		size_t outlen = 12345;
		size_t biglen = 0;
		int rc;
		int rc2;

		memset(out, 0x5a, cap ? cap : 1);
		rc = b64_decode(out, cap, &outlen, s, len, variants[i]);
		if (rc == 0) {
			FZ_CHECK(outlen <= cap, "b64_decode overran cap");
			FZ_CHECK(b64_enc_len(outlen, variants[i]) == len,
				 "b64 decoded length does not re-encode");
			b64_encode(enc, out, outlen, variants[i]);
			FZ_CHECK(memcmp(enc, s, len) == 0 && enc[len] == 0,
				 "b64 not canonical: decode+encode != input");
			continue;
		}
		FZ_CHECK(rc == -EINVAL || rc == -ERANGE,
			 "b64_decode: unexpected error code");
		FZ_CHECK(outlen == 12345, "b64_decode wrote *outlen on error");
		for (size_t j = 0; j < cap; j++)
			FZ_CHECK(out[j] == 0x5a, "b64_decode wrote on error");
		/* -EINVAL never depends on cap; -ERANGE only when the
		 * decoded length would exceed cap (b64.c checks the length
		 * before the characters, so bad text may get -ERANGE too) */
		rc2 = b64_decode(big, len + 1, &biglen, s, len, variants[i]);
		if (rc == -EINVAL)
			FZ_CHECK(rc2 == -EINVAL,
				 "b64_decode -EINVAL depends on cap");
		else
			FZ_CHECK(rc2 == -EINVAL || biglen > cap,
				 "b64_decode -ERANGE but the text fits");
	}
	free(out);
	free(big);
	free(enc);
}

static void check_unpad(const uint8_t *p, size_t len)
{
	size_t outlen = 777;
	size_t alen = 0;
	int want = len > 0 && len % 16 == 0;
	int rc;

	if (want) {
		size_t k = p[len - 1];

		want = k >= 1 && k <= 16 && k < len;
		for (size_t i = 0; want && i < k; i++)
			want = p[len - 1 - i] == k;
	}
	rc = names_unpad16(&outlen, p, len);
	FZ_CHECK((rc == 0) == (want != 0), "names_unpad16 verdict wrong");
	if (rc != 0) {
		FZ_CHECK(rc == -EIO && outlen == 777,
			 "names_unpad16 error path");
		return;
	}
	FZ_CHECK(outlen < len, "names_unpad16 length");
	if (outlen <= NAMES_MAX + 1) {
		uint8_t again[NAMES_MAX + 1 + 16 + 16];

		names_pad16(again, &alen, p, outlen);
		FZ_CHECK(alen == len && memcmp(again, p, len) == 0,
			 "pad16(unpad16(x)) != x");
	}
}

static void check_name(const struct volume *v, const uint8_t iv[16],
		       const char *s)
{
	char out[NAMES_BUF];
	char enc[NAMES_BUF];
	int rc;

	memset(out, FZ_SENTINEL, sizeof(out));
	rc = names_decrypt(v, iv, s, out, sizeof(out));
	if (rc != 0) {
		FZ_CHECK(rc == -EIO || rc == -ERANGE,
			 "names_decrypt: unexpected error code");
		for (size_t i = 0; i < sizeof(out); i++)
			FZ_CHECK(out[i] == FZ_SENTINEL,
				 "names_decrypt wrote output on error");
		return;
	}
	FZ_CHECK(memchr(out, 0, sizeof(out)) != NULL, "names_decrypt: no NUL");
	FZ_CHECK(names_check_plain(out, strlen(out)) == 0,
		 "names_decrypt returned an invalid name");
	FZ_CHECK(names_encrypt(v, iv, out, enc, sizeof(enc)) == 0,
		 "names_encrypt failed on a decrypted name");
	FZ_CHECK(strcmp(enc, s) == 0,
		 "names_encrypt(names_decrypt(E)) != E: decoder not strict");
}

static void check_symlink(const struct volume *v, const char *s)
{
	uint8_t nonce[CONTENT_MAX_NONCE_LEN];
	uint8_t bin[NAMES_SYMLINK_MAX];
	uint8_t *out = malloc(NAMES_SYMLINK_MAX + 1);
	char *enc = malloc(NAMES_SYMLINK_MAX + 2);
	size_t outlen = 0;
	size_t blen = 0;
	size_t nl = content_nonce_len(v->cipher);
	int rc;

	FZ_CHECK(out != NULL && enc != NULL, "malloc");
	rc = names_symlink_decrypt(v, out, NAMES_SYMLINK_MAX + 1, &outlen, s);
	if (rc != 0) {
		FZ_CHECK(rc == -EIO || rc == -ERANGE,
			 "names_symlink_decrypt: unexpected error code");
		goto out;
	}
	FZ_CHECK(outlen <= NAMES_SYMLINK_MAX && out[outlen] == 0,
		 "names_symlink_decrypt: length or NUL");
	if (v->flags & VOL_PLAINTEXTNAMES) {
		FZ_CHECK(strcmp((const char *)out, s) == 0,
			 "plaintext symlink changed");
		goto out;
	}
	FZ_CHECK(b64_decode(bin, sizeof(bin), &blen, s, strlen(s),
			    names_b64_flags(v)) == 0 &&
			 blen > nl,
		 "accepted symlink does not decode");
	memcpy(nonce, bin, nl);
	rc = names_symlink_encrypt(v, enc, NAMES_SYMLINK_MAX + 2, out, outlen,
				   nonce);
	/* a target with a NUL inside is refused by the encoder */
	if (memchr(out, 0, outlen) == NULL) {
		FZ_CHECK(rc == 0, "names_symlink_encrypt failed");
		FZ_CHECK(strcmp(enc, s) == 0,
			 "symlink does not re-encrypt to the stored text");
	}
out:
	free(out);
	free(enc);
}

static void check_xattr_name(const struct volume *v, const char *s)
{
	char out[NAMES_XATTR_NAME_MAX + 1];
	char enc[NAMES_BUF + 32];
	int rc = names_xattr_name_decrypt(v, s, out, sizeof(out));

	if (rc != 0) {
		FZ_CHECK(rc == -ENOENT || rc == -ERANGE,
			 "names_xattr_name_decrypt: unexpected error code");
		return;
	}
	FZ_CHECK(memchr(out, 0, sizeof(out)) != NULL && out[0] != 0,
		 "names_xattr_name_decrypt: empty or no NUL");
	if (names_xattr_is_acl(s)) {
		FZ_CHECK(strcmp(out, s) == 0, "ACL name not passed through");
		return;
	}
	FZ_CHECK(names_xattr_name_encrypt(v, out, enc, sizeof(enc)) == 0 &&
			 strcmp(enc, s) == 0,
		 "xattr name does not re-encrypt to the stored name");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f;
	const struct volume *v;
	uint8_t sel;
	uint8_t kind;
	uint8_t iv[16];
	size_t cap;
	size_t len;
	char *s;

	fz_init(&f, data, size);
	sel = fz_u8(&f);
	kind = fz_u8(&f);
	v = fz_volume(sel);
	fz_bytes(&f, iv, sizeof(iv));
	if (!(v->flags & VOL_DIRIV))
		memset(iv, 0, sizeof(iv));
	cap = fz_u16(&f) % 400;
	len = f.n < FZ_MAX_TEXT ? f.n : FZ_MAX_TEXT;
	/* exact size plus the NUL the string APIs need */
	s = malloc(len + 1);
	FZ_CHECK(s != NULL, "malloc");
	fz_bytes(&f, (uint8_t *)s, len);
	s[len] = 0;

	switch (kind % 5) {
	case 0:
		check_name(v, iv, s);
		break;
	case 1:
		check_b64(s, len, cap);
		break;
	case 2:
		check_unpad((const uint8_t *)s, len);
		break;
	case 3:
		check_symlink(v, s);
		break;
	default:
		check_xattr_name(v, s);
		break;
	}
	free(s);
	return 0;
}
