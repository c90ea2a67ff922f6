/* SPDX-License-Identifier: MIT */
/* Targets: content_block_open, content_block_seal, content_overhead,
 * content_cipher_bs. */
/*
 * One content block (FORMAT.md 4.4-4.7) as read from an untrusted backing
 * file, for AES-256-GCM, AES-SIV-512 and XChaCha20-Poly1305 volumes.
 * Mode "damage": a valid block is sealed from fuzzer-chosen plaintext,
 * nonce, block number and file ID (or none, as symlinks use), then
 * fuzzer-chosen damage is applied: byte XORs, truncation or extension, a
 * different block number or file ID in the AAD. content_block_open must
 * succeed with the exact plaintext when nothing changed, and must fail
 * otherwise (the only exception: a block that became exactly
 * content_cipher_bs() zero bytes, which is a hole and reads as zeros).
 * Mode "raw": the rest of the input is opened as a block (seeds are real
 * gocryptfs 2.3 blocks under the example keys); when it is accepted and is
 * not a hole, sealing the plaintext again with the block's own nonce must
 * give the same bytes (FORMAT.md 14.3). After any failure the output buffer
 * holds no plaintext (every byte zero or untouched).
 * Test code: not constant time, not proved.
 */
#include "format/content.h"
#include "fuzz_util.h"
#include "fuzz_volume.h"

#define FZ_SENTINEL 0xa5
#define FZ_MAX_PLAIN CONTENT_PLAIN_BS
#define FZ_BUF (CONTENT_MAX_CIPHER_BS + 64)
#define FZ_DAMAGES 4

static int all_byte(const uint8_t *p, size_t n, uint8_t b)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != b)
			return 0;
	return 1;
}

/* After a failed open every output byte is 0 (wiped) or untouched. */
static int zero_or_sentinel(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != 0 && p[i] != FZ_SENTINEL)
			return 0;
	return 1;
}

/* Open blk and check the outcome against what the caller expects. */
static void open_check(const struct volume *v, const uint8_t *blk, size_t blen,
		       uint64_t blockno, const uint8_t *fid,
		       const uint8_t *want, size_t wantlen, int unchanged)
{
	size_t cbs = content_cipher_bs(v->cipher);
	int hole = blen == cbs && all_byte(blk, blen, 0);
	/* exact-size copy of the block, so ASan sees reads past its end */
	uint8_t *in = malloc(blen ? blen : 1);
	uint8_t *out = malloc(FZ_BUF);
	size_t outlen = 0;
	int rc;

	FZ_CHECK(in != NULL && out != NULL, "malloc");
	if (blen > 0)
		memcpy(in, blk, blen);
	memset(out, FZ_SENTINEL, FZ_BUF);
	rc = content_block_open(v, out, &outlen, in, blen, blockno, fid);
	if (unchanged) {
		FZ_CHECK(rc == 0, "open rejected an intact block");
		FZ_CHECK(outlen == wantlen && memcmp(out, want, wantlen) == 0,
			 "open returned the wrong plaintext");
	} else if (hole) {
		FZ_CHECK(rc == 0 && outlen == CONTENT_PLAIN_BS &&
				 all_byte(out, CONTENT_PLAIN_BS, 0),
			 "a hole did not read as zeros");
	} else {
		FZ_CHECK(rc != 0, "open accepted a damaged block");
		FZ_CHECK(zero_or_sentinel(out, FZ_BUF),
			 "failed open left plaintext in the output");
	}
	free(in);
	free(out);
}

/* raw bytes from the backing file: accepted only as a hole or as a block
 * that re-seals to itself */
static void raw_check(const struct volume *v, const uint8_t *blk, size_t blen,
		      uint64_t blockno, const uint8_t *fid)
{
	size_t cbs = content_cipher_bs(v->cipher);
	size_t nl = content_nonce_len(v->cipher);
	uint8_t *in = malloc(blen ? blen : 1);
	uint8_t *out = malloc(FZ_BUF);
	uint8_t *again = malloc(FZ_BUF);
	size_t outlen = 0;
	int rc;

	FZ_CHECK(in != NULL && out != NULL && again != NULL, "malloc");
	if (blen > 0)
		memcpy(in, blk, blen);
	memset(out, FZ_SENTINEL, FZ_BUF);
	rc = content_block_open(v, out, &outlen, in, blen, blockno, fid);
	if (rc != 0) {
		FZ_CHECK(zero_or_sentinel(out, FZ_BUF),
			 "failed open left plaintext in the output");
	} else if (blen == cbs && all_byte(in, blen, 0)) {
		FZ_CHECK(outlen == CONTENT_PLAIN_BS &&
				 all_byte(out, CONTENT_PLAIN_BS, 0),
			 "a hole did not read as zeros");
	} else {
		FZ_CHECK(blen > nl &&
				 outlen + content_overhead(v->cipher) == blen,
			 "accepted block has the wrong length");
		FZ_CHECK(content_block_seal(v, again, out, outlen, blockno, fid,
					    in) == 0 &&
				 memcmp(again, in, blen) == 0,
			 "accepted block does not re-seal to itself");
	}
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
	uint64_t blockno;
	uint64_t blockno2;
	uint8_t fid[HEADER_ID_LEN];
	uint8_t fid2[HEADER_ID_LEN];
	uint8_t nonce[CONTENT_MAX_NONCE_LEN];
	uint8_t *plain;
	uint8_t *blk;
	uint8_t *dmg;
	size_t plen;
	size_t blen;
	size_t dlen;
	int use_fid;
	int same;

	fz_init(&f, data, size);
	mode = fz_u8(&f);
	v = fz_volume(sel[(mode & 3) % 3]);
	use_fid = (mode & 4) == 0;
	blockno = fz_u32(&f);
	blockno |= (uint64_t)fz_u32(&f) << 32;
	fz_bytes(&f, fid, sizeof(fid));
	plain = malloc(FZ_MAX_PLAIN + 1);
	blk = malloc(FZ_BUF);
	dmg = malloc(FZ_BUF);
	FZ_CHECK(plain && blk && dmg, "malloc");

	if (mode & 8) {
		/* raw: the rest of the input is the block */
		dlen = f.n < FZ_BUF ? f.n : FZ_BUF;
		fz_bytes(&f, dmg, dlen);
		raw_check(v, dmg, dlen, blockno, use_fid ? fid : NULL);
		goto out;
	}

	fz_bytes(&f, nonce, sizeof(nonce));
	nonce[0] |= 1; /* seal with a non-zero nonce, as gocryptfs does */
	plen = fz_len(&f, FZ_MAX_PLAIN);
	blockno2 = blockno;
	memcpy(fid2, fid, sizeof(fid));
	if (mode & 0x10)
		blockno2 ^= (uint64_t)1 << (fz_u8(&f) & 63);
	if (mode & 0x20)
		fid2[fz_u8(&f) & 15] ^= (uint8_t)(fz_u8(&f) | 1);
	{
		uint16_t resize = fz_u16(&f);
		/* FZ_DAMAGES times: u16 LE position, xor byte */
		uint8_t dm[3 * FZ_DAMAGES];

		fz_bytes(&f, dm, sizeof(dm));
		fz_bytes(&f, plain, plen);
		FZ_CHECK(content_block_seal(v, blk, plain, plen, blockno,
					    use_fid ? fid : NULL, nonce) == 0,
			 "content_block_seal failed");
		blen = plen + content_overhead(v->cipher);
		memcpy(dmg, blk, blen);
		dlen = blen;
		/* resize: top bits choose keep / truncate / extend */
		if ((mode & 0xc0) == 0x40) {
			dlen = resize % (blen + 1);
		} else if ((mode & 0xc0) == 0x80) {
			size_t ext = resize % 64;

			if (dlen + ext > FZ_BUF)
				ext = FZ_BUF - dlen;
			fz_bytes(&f, dmg + dlen, ext);
			dlen += ext;
		}
		for (int i = 0; i < FZ_DAMAGES && dlen > 0; i++)
			dmg[(size_t)(dm[3 * i] | (dm[3 * i + 1] << 8)) %
			    dlen] ^= dm[3 * i + 2];
	}
	same = dlen == blen && memcmp(dmg, blk, blen) == 0 &&
	       blockno2 == blockno &&
	       (!use_fid || memcmp(fid, fid2, sizeof(fid)) == 0);
	open_check(v, dmg, dlen, blockno2, use_fid ? fid2 : NULL, plain, plen,
		   same);
out:
	free(plain);
	free(blk);
	free(dmg);
	return 0;
}
