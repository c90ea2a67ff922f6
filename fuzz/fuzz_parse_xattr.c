/* SPDX-License-Identifier: MIT */
/* Targets: names_xattr_value_open, names_xattr_value_seal. */
/*
 * Encrypted extended-attribute values (FORMAT.md 7: one content block 0
 * without file ID; an empty value stays empty) as read from the backing
 * file's user.gocryptfs.* attributes. The fuzzer picks the volume
 * (AES-GCM, XChaCha20-Poly1305, AES-SIV), an output capacity, and either
 * raw stored bytes (accepted only when they re-seal to themselves with
 * their own nonce) or a value to seal plus damage (byte XORs, truncation,
 * extension): names_xattr_value_open must give the value back when nothing
 * changed and fail otherwise, and -ERANGE only when cap is too small.
 * Test code: not constant time, not proved.
 */
#include <errno.h>

#include "format/content.h"
#include "format/names.h"
#include "fuzz_util.h"
#include "fuzz_volume.h"

#define FZ_MAX_VALUE 4200
#define FZ_BUF (FZ_MAX_VALUE + CONTENT_MAX_OVERHEAD + 64)
#define FZ_DAMAGES 3

static void open_check(const struct volume *v, const uint8_t *st, size_t len,
		       size_t cap, const uint8_t *want, size_t wantlen,
		       int unchanged)
{
	size_t ov = content_overhead(v->cipher);
	uint8_t *in = malloc(len ? len : 1);
	uint8_t *out = malloc(cap ? cap : 1);
	uint8_t *again = malloc(FZ_BUF);
	size_t outlen = 0;
	size_t alen = 0;
	int rc;

	FZ_CHECK(in && out && again, "malloc");
	if (len > 0)
		memcpy(in, st, len);
	rc = names_xattr_value_open(v, out, cap, &outlen, in, len);
	if (len == 0) {
		FZ_CHECK(rc == 0 && outlen == 0, "empty value not empty");
		goto out;
	}
	if (rc == -ERANGE) {
		FZ_CHECK(len > ov && len - ov > cap, "-ERANGE but it fits");
		goto out;
	}
	if (unchanged && want != NULL) {
		FZ_CHECK(rc == 0 && outlen == wantlen &&
				 memcmp(out, want, wantlen) == 0,
			 "intact xattr value did not open");
		goto out;
	}
	if (want != NULL) {
		FZ_CHECK(rc == -EIO, "damaged xattr value accepted");
		goto out;
	}
	if (rc == 0) {
		/* raw bytes accepted: must re-seal to themselves */
		FZ_CHECK(outlen + ov == len, "accepted value length");
		FZ_CHECK(names_xattr_value_seal(v, again, FZ_BUF, &alen, out,
						outlen, in) == 0 &&
				 alen == len && memcmp(again, in, len) == 0,
			 "accepted xattr value does not re-seal to itself");
	} else {
		FZ_CHECK(rc == -EIO, "names_xattr_value_open error code");
	}
out:
	free(in);
	free(out);
	free(again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum fz_vol sel[3] = { FZV_GCM, FZV_XCHACHA, FZV_SIV_PAD };
	struct fz f;
	const struct volume *v;
	uint8_t mode;
	size_t cap;
	uint8_t nonce[CONTENT_MAX_NONCE_LEN];
	uint8_t *val;
	uint8_t *st;
	uint8_t *dmg;
	size_t vlen;
	size_t slen = 0;
	size_t dlen;

	fz_init(&f, data, size);
	mode = fz_u8(&f);
	v = fz_volume(sel[(mode & 3) % 3]);
	cap = fz_len(&f, FZ_MAX_VALUE + 64);
	val = malloc(FZ_MAX_VALUE + 1);
	st = malloc(FZ_BUF);
	dmg = malloc(FZ_BUF);
	FZ_CHECK(val && st && dmg, "malloc");
	if (mode & 4) {
		dlen = f.n < FZ_BUF ? f.n : FZ_BUF;
		fz_bytes(&f, dmg, dlen);
		open_check(v, dmg, dlen, cap, NULL, 0, 0);
		goto out;
	}
	fz_bytes(&f, nonce, sizeof(nonce));
	nonce[0] |= 1;
	vlen = fz_len(&f, FZ_MAX_VALUE);
	{
		uint16_t resize = fz_u16(&f);
		/* FZ_DAMAGES times: u16 LE position, xor byte */
		uint8_t dm[3 * FZ_DAMAGES];

		fz_bytes(&f, dm, sizeof(dm));
		fz_bytes(&f, val, vlen);
		FZ_CHECK(names_xattr_value_seal(v, st, FZ_BUF, &slen, val, vlen,
						nonce) == 0,
			 "names_xattr_value_seal failed");
		FZ_CHECK(
			slen == (vlen ? vlen + content_overhead(v->cipher) : 0),
			"sealed xattr value length");
		memcpy(dmg, st, slen);
		dlen = slen;
		if ((mode & 0x18) == 0x08) {
			dlen = resize % (slen + 1);
		} else if ((mode & 0x18) == 0x10) {
			size_t ext = resize % 64;

			fz_bytes(&f, dmg + dlen, ext);
			dlen += ext;
		}
		for (int i = 0; i < FZ_DAMAGES && dlen > 0; i++)
			dmg[(size_t)(dm[3 * i] | (dm[3 * i + 1] << 8)) %
			    dlen] ^= dm[3 * i + 2];
	}
	if (cap < vlen)
		cap = vlen; /* the damage path wants a verdict, not -ERANGE */
	open_check(v, dmg, dlen, cap, val, vlen,
		   dlen == slen && memcmp(dmg, st, slen) == 0);
out:
	free(val);
	free(st);
	free(dmg);
	return 0;
}
