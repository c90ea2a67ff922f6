/* SPDX-License-Identifier: MIT */
/* Targets: names_xattr_value_open, names_xattr_value_seal. */
/*
 * Encrypted extended-attribute values (FORMAT.md 7: one content block 0
 * without file ID; an empty value stays empty; values up to 64 KiB, the
 * Linux limit) as read from the backing file's user.gocryptfs.*
 * attributes. The fuzzer picks the volume (AES-GCM, XChaCha20-Poly1305,
 * AES-SIV), an output capacity, and either raw stored bytes (up to
 * 64 KiB + 104, taken from the input, or a fuzzer-chosen length of zeros
 * or of the input repeated) or a value of 0..64 KiB + 16 bytes to seal
 * (the input's bytes, the rest a pattern seeded by them), stored as the
 * block or, as very old versions did, base64-encoded, plus damage (byte
 * XORs anywhere in 64 KiB, truncation, extension).
 * Checked: sealing more than 64 KiB is -EINVAL; names_xattr_value_open
 * gives the value back when nothing changed and fails (-EIO) otherwise,
 * -ERANGE only when cap is too small; raw bytes are accepted only when
 * they (or their base64 decoding) re-seal to themselves with their own
 * nonce. An all-zero stored value is not a hole (issue 23 item 6): it
 * fails with -EIO.
 * Test code: not constant time, not proved.
 */
#include <errno.h>

#include "format/b64.h"
#include "format/content.h"
#include "format/names.h"
#include "fuzz_util.h"
#include "fuzz_volume.h"

#define FZ_MAX_VALUE (NAMES_XATTR_VALUE_MAX + 16)
#define FZ_MAX_STORED (NAMES_XATTR_VALUE_MAX + CONTENT_MAX_OVERHEAD + 64)
/* base64 of the largest block, and room to extend it */
#define FZ_BUF ((FZ_MAX_STORED + 2) / 3 * 4 + 128)
#define FZ_DAMAGES 3

static int all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != 0)
			return 0;
	return 1;
}

/* raw bytes were accepted as out[0..outlen): they, or their base64
 * decoding, must re-seal to themselves */
static void reseal_check(const struct volume *v, const uint8_t *in, size_t len,
			 const uint8_t *out, size_t outlen)
{
	size_t ov = content_overhead(v->cipher);
	uint8_t *again = malloc(FZ_BUF);
	uint8_t *bin = malloc(len);
	const uint8_t *blk = in;
	size_t blen = len;
	size_t alen = 0;
	size_t bl = 0;

	FZ_CHECK(again && bin, "malloc");
	if (outlen + ov != len) {
		FZ_CHECK(b64_decode(bin, len, &bl, (const char *)in, len,
				    names_b64_flags(v)) == 0 &&
				 bl == outlen + ov,
			 "accepted xattr value length");
		blk = bin;
		blen = bl;
	}
	FZ_CHECK(names_xattr_value_seal(v, again, FZ_BUF, &alen, out, outlen,
					blk) == 0 &&
			 alen == blen && memcmp(again, blk, blen) == 0,
		 "accepted xattr value does not re-seal to itself");
	free(again);
	free(bin);
}

static void open_check(const struct volume *v, const uint8_t *st, size_t len,
		       size_t cap, const uint8_t *want, size_t wantlen,
		       int unchanged)
{
	size_t ov = content_overhead(v->cipher);
	uint8_t *in = malloc(len ? len : 1);
	uint8_t *out = malloc(cap ? cap : 1);
	size_t outlen = 0;
	int rc;

	FZ_CHECK(in && out, "malloc");
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
	if (all_zero(in, len)) {
		FZ_CHECK(rc == -EIO, "an all-zero stored xattr value was "
				     "accepted (a hole)");
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
	if (rc == 0)
		reseal_check(v, in, len, out, outlen);
	else
		FZ_CHECK(rc == -EIO, "names_xattr_value_open error code");
out:
	free(in);
	free(out);
}

/* Fill p[k..n) with a pattern seeded by p[0..k) (or by seed). */
static void expand(uint8_t *p, size_t k, size_t n, uint32_t seed)
{
	uint32_t x = seed * 2654435761U + 1;

	for (size_t i = 0; i < k && i < 64; i++)
		x = x * 31 + p[i];
	for (size_t i = k; i < n; i++) {
		x = x * 1103515245U + 12345U;
		p[i] = (uint8_t)(x >> 23);
	}
}

/* raw stored bytes: the input, or a chosen length of zeros or of the
 * input repeated */
static void raw_mode(const struct volume *v, struct fz *f, uint8_t mode,
		     size_t cap, uint8_t *dmg)
{
	size_t dlen;

	if (mode & 0x20) {
		size_t rest;

		dlen = (size_t)fz_u32(f) % (FZ_MAX_STORED + 1);
		rest = f->n;
		if ((mode & 0x40) || rest == 0) {
			memset(dmg, 0, dlen);
		} else {
			for (size_t i = 0; i < dlen; i++)
				dmg[i] = f->p[i % rest];
		}
	} else {
		dlen = f->n < FZ_MAX_STORED ? f->n : FZ_MAX_STORED;
		fz_bytes(f, dmg, dlen);
	}
	open_check(v, dmg, dlen, cap, NULL, 0, 0);
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
	uint16_t resize;
	/* FZ_DAMAGES times: u24 LE position, xor byte */
	uint8_t dm[4 * FZ_DAMAGES];
	int rc;

	fz_init(&f, data, size);
	mode = fz_u8(&f);
	v = fz_volume(sel[(mode & 3) % 3]);
	cap = (size_t)fz_u32(&f) % (FZ_MAX_VALUE + 64 + 1);
	val = malloc(FZ_MAX_VALUE + 1);
	st = malloc(FZ_BUF);
	dmg = malloc(FZ_BUF);
	FZ_CHECK(val && st && dmg, "malloc");
	if (mode & 4) {
		raw_mode(v, &f, mode, cap, dmg);
		goto out;
	}
	fz_bytes(&f, nonce, sizeof(nonce));
	nonce[0] |= 1;
	vlen = (size_t)fz_u32(&f) % (FZ_MAX_VALUE + 1);
	resize = fz_u16(&f);
	fz_bytes(&f, dm, sizeof(dm));
	{
		size_t k = f.n < vlen ? f.n : vlen;

		fz_bytes(&f, val, k);
		expand(val, k, vlen, (uint32_t)vlen);
	}
	rc = names_xattr_value_seal(v, st, FZ_BUF, &slen, val, vlen, nonce);
	if (vlen > NAMES_XATTR_VALUE_MAX) {
		FZ_CHECK(rc == -EINVAL, "sealed an xattr value above 64 KiB");
		goto out;
	}
	FZ_CHECK(rc == 0, "names_xattr_value_seal failed");
	FZ_CHECK(slen == (vlen ? vlen + content_overhead(v->cipher) : 0),
		 "sealed xattr value length");
	if ((mode & 0x20) && slen > 0) {
		/* very old versions: the block base64-encoded */
		unsigned fl = names_b64_flags(v);
		size_t el = b64_enc_len(slen, fl);
		char *enc = malloc(el + 1);

		FZ_CHECK(enc != NULL, "malloc");
		b64_encode(enc, st, slen, fl);
		memcpy(st, enc, el);
		slen = el;
		free(enc);
	}
	memcpy(dmg, st, slen);
	dlen = slen;
	if ((mode & 0x18) == 0x08) {
		dlen = resize % (slen + 1);
	} else if ((mode & 0x18) == 0x10) {
		size_t ext = resize % 64;

		fz_bytes(&f, dmg + dlen, ext);
		dlen += ext;
	}
	for (int i = 0; i < FZ_DAMAGES && dlen > 0; i++) {
		size_t pos = (size_t)dm[4 * i] | (size_t)dm[4 * i + 1] << 8 |
			     (size_t)dm[4 * i + 2] << 16;

		dmg[pos % dlen] ^= dm[4 * i + 3];
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
