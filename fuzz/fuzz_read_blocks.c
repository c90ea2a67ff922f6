/* SPDX-License-Identifier: MIT */
/* Targets: fs_content_read, rw_fileid, par_run, content_block_open. */
/*
 * The FUSE read path over several blocks (fuse/rw_read.c, FORMAT.md
 * 4.2-4.8) on a real backing file whose bytes an attacker controls. The
 * fuzzer picks the cipher, 1..16 blocks (8 and more are opened on two
 * threads), the length of the last block, the file ID and plaintext, then
 * up to four kinds of damage anywhere, the middle blocks included: a byte
 * flipped, a block zeroed (a hole when it is a whole block), a block
 * replaced by another block of the file or by one sealed under another
 * file ID, the file cut inside a block, the header changed. Then up to
 * four reads at fuzzer-chosen offsets and sizes (aligned whole-block reads
 * decrypt straight into the reply buffer, others through the scratch
 * buffer).
 * Checked against an oracle that opens every block of the damaged file on
 * its own with content_block_open: a read returns exactly the bytes the
 * oracle gives for its range, or -EIO when any block in the range fails;
 * when nothing was damaged the bytes are the original plaintext. After a
 * failed read the reply buffer holds no block's plaintext, and neither
 * does the thread's scratch buffer (issue 23 item 13).
 * Setup once per process: a temporary backing file, unlinked at once (the
 * read path needs only its fd), the inode table, three volumes.
 * Test code: not constant time, not proved.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/content.h"
#include "fuse/fs.h"
#include "fuse/rw.h"
#include "fuse/scratch.h"
#include "fuzz_backing.h"
#include "fuzz_util.h"
#include "fuzz_volume.h"

#define FZ_MAX_BLOCKS 16
#define FZ_FILE_MAX (HEADER_LEN + FZ_MAX_BLOCKS * CONTENT_MAX_CIPHER_BS)
#define FZ_PLAIN_MAX (FZ_MAX_BLOCKS * CONTENT_PLAIN_BS)
#define FZ_READ_MAX (FZ_PLAIN_MAX + 3 * CONTENT_PLAIN_BS)
#define FZ_DAMAGES 4
#define FZ_READS 4

static struct inode *fz_in;
static int fz_fd = -1;

/* Backing file and inode table, once per process. */
static void setup(void)
{
	char dir[] = "/tmp/vcryptfs-fuzz-rb.XXXXXX";

	if (fz_in != NULL)
		return;
	FZ_CHECK(mkdtemp(dir) != NULL, "mkdtemp");
	fz_in = fz_backing(dir, &fz_fd);
}

/* One block of the file as the oracle sees it: its plaintext (4096 bytes
 * of room) and length, or bad. */
struct oblock {
	uint8_t plain[CONTENT_PLAIN_BS];
	size_t len;
	int bad;
};

static struct oblock ob[FZ_MAX_BLOCKS + 1];
static uint8_t file[FZ_FILE_MAX + CONTENT_MAX_CIPHER_BS];
static uint8_t plain[FZ_PLAIN_MAX];

/* Does p[0..len) hold, at slot k, the plaintext of a block that opened
 * (at least 32 bytes, not one byte repeated: a hole, or the 0xa5 fill of
 * the reply buffer, cannot match by chance)? */
static int holds_block(const uint8_t *p, size_t len, size_t k, size_t nblk)
{
	for (size_t b = 0; b < nblk; b++) {
		size_t at = k * CONTENT_PLAIN_BS;
		size_t n = ob[b].len;
		int mixed = 0;

		if (ob[b].bad || n < 32 || at + n > len)
			continue;
		for (size_t i = 1; i < n && !mixed; i++)
			mixed = ob[b].plain[i] != ob[b].plain[0];
		if (mixed && memcmp(p + at, ob[b].plain, n) == 0)
			return 1;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum fz_vol sel[3] = { FZV_GCM, FZV_XCHACHA, FZV_SIV_PAD };
	const struct volume *v;
	struct fz f;
	uint8_t mode;
	size_t nblk;
	size_t tail;
	size_t plen;
	size_t cbs;
	size_t flen;
	size_t nob;
	uint8_t fid[HEADER_ID_LEN];
	uint8_t fid2[HEADER_ID_LEN];
	uint8_t fidnow[HEADER_ID_LEN];
	uint8_t dm[4 * FZ_DAMAGES];
	uint8_t rq[6 * FZ_READS];
	int damaged = 0;
	int hdr_ok;

	setup();
	fz_init(&f, data, size);
	mode = fz_u8(&f);
	v = fz_volume(sel[(mode & 3) % 3]);
	fs.vol = v;
	cbs = content_cipher_bs(v->cipher);
	nblk = 1 + fz_u8(&f) % FZ_MAX_BLOCKS;
	tail = 1 + fz_u16(&f) % CONTENT_PLAIN_BS;
	plen = (nblk - 1) * CONTENT_PLAIN_BS + tail;
	fz_bytes(&f, fid, sizeof(fid));
	fid[0] |= 1; /* a valid header needs a non-zero ID */
	memcpy(fid2, fid, sizeof(fid));
	fid2[15] ^= 0x5a;
	fz_bytes(&f, dm, sizeof(dm));
	fz_bytes(&f, rq, sizeof(rq));
	/* plaintext: the rest of the input, then a pattern seeded by it */
	{
		size_t k = f.n < plen ? f.n : plen;
		uint32_t x = 0x9e3779b9U ^ (uint32_t)size;

		fz_bytes(&f, plain, k);
		for (size_t i = k; i < plen; i++) {
			x = x * 1103515245U + 12345U;
			plain[i] = (uint8_t)(x >> 23);
		}
	}
	header_build(file, fid);
	for (size_t b = 0; b < nblk; b++) {
		size_t n = b + 1 < nblk ? CONTENT_PLAIN_BS : tail;

		FZ_CHECK(content_block_seal(v, file + HEADER_LEN + b * cbs,
					    plain + b * CONTENT_PLAIN_BS, n, b,
					    fid, NULL) == 0,
			 "content_block_seal");
	}
	flen = HEADER_LEN + (nblk - 1) * cbs + tail +
	       content_overhead(v->cipher);

	/* damage: kind, block (biased to the middle), position, xor */
	for (int i = 0; i < FZ_DAMAGES && (mode & 0x80) == 0; i++) {
		uint8_t kind = dm[4 * i] % 8;
		size_t b = (nblk / 2 + dm[4 * i + 1]) % nblk;
		size_t pos = (size_t)dm[4 * i + 2] | (size_t)(dm[4 * i] >> 3)
							     << 8;
		uint8_t x = dm[4 * i + 3];
		size_t at = HEADER_LEN + b * cbs;
		size_t blen =
			at < flen ? (flen - at < cbs ? flen - at : cbs) : 0;

		if (kind == 0 || blen == 0)
			continue; /* this slot left alone */
		damaged = 1;
		switch (kind) {
		case 1: /* flip bits of one byte */
			file[at + pos % blen] ^= (uint8_t)(x | 1);
			break;
		case 2: /* zero the block: a hole if it is a whole block */
			memset(file + at, 0, blen);
			break;
		case 3: { /* another block of the file in its place */
			size_t o = (b + 1 + x % nblk) % nblk;
			size_t oat = HEADER_LEN + o * cbs;
			size_t olen = oat >= flen	 ? 0
				      : flen - oat < cbs ? flen - oat
							 : cbs;

			if (o != b && olen == blen)
				memmove(file + at, file + oat, blen);
			else
				file[at] ^= 0x80;
			break;
		}
		case 4: /* the same plaintext sealed under another file ID */
			if (blen <= content_overhead(v->cipher)) {
				file[at] ^= 0x80;
				break;
			}
			FZ_CHECK(content_block_seal(
					 v, file + at,
					 plain + b * CONTENT_PLAIN_BS,
					 blen - content_overhead(v->cipher), b,
					 fid2, NULL) == 0,
				 "content_block_seal fid2");
			break;
		case 5: /* the file cut inside (or at the start of) block b */
			flen = at + pos % (blen + 1);
			break;
		case 6: /* the header: version or file ID */
			file[pos % HEADER_LEN] ^= (uint8_t)(x | 1);
			break;
		default: /* zero the nonce only */
			memset(file + at, 0,
			       blen < content_nonce_len(v->cipher)
				       ? blen
				       : content_nonce_len(v->cipher));
			break;
		}
	}

	/* the backing file, and the oracle: each block opened on its own */
	FZ_CHECK(ftruncate(fz_fd, 0) == 0, "ftruncate");
	FZ_CHECK(pwrite(fz_fd, file, flen, 0) == (ssize_t)flen, "pwrite");
	inode_fileid_clear(fz_in);
	hdr_ok = flen < HEADER_LEN || header_parse(fidnow, file) == 0;
	nob = 0;
	for (size_t at = HEADER_LEN; flen >= HEADER_LEN && at < flen;
	     at += cbs) {
		size_t blen = flen - at < cbs ? flen - at : cbs;
		struct oblock *o = &ob[nob];

		o->len = 0;
		o->bad = !hdr_ok ||
			 content_block_open(v, o->plain, &o->len, file + at,
					    blen, nob, fidnow) != 0;
		nob++;
	}

	for (int r = 0; r < FZ_READS; r++) {
		const uint8_t *q = rq + 6 * r;
		size_t span = nob * CONTENT_PLAIN_BS + 2 * CONTENT_PLAIN_BS;
		size_t off = (size_t)(q[0] | q[1] << 8 | (q[2] & 0x7f) << 16);
		size_t rs = (size_t)(q[3] | q[4] << 8 | (q[5] & 1) << 16);
		size_t first;
		size_t last;
		size_t total = 0;
		int want_eio = 0;
		char *buf;
		ssize_t n;

		if (r > 0 && (q[2] & 0x80))
			break;	/* fewer reads */
		if (q[5] & 2) { /* whole aligned blocks */
			off = off % (nob + 2) * CONTENT_PLAIN_BS;
			rs = (1 + rs % (nob + 1)) * CONTENT_PLAIN_BS;
		} else {
			off %= span;
			rs = 1 + rs % FZ_READ_MAX;
		}
		if (rs > FZ_READ_MAX)
			rs = FZ_READ_MAX;
		first = off / CONTENT_PLAIN_BS;
		last = (off + rs - 1) / CONTENT_PLAIN_BS;
		/* what the oracle says: a bad header fails every read of a
		 * file that has one; else blocks [first, last] that exist */
		want_eio = flen >= HEADER_LEN && !hdr_ok;
		for (size_t b = first; !want_eio && b <= last && b < nob; b++) {
			if (ob[b].bad)
				want_eio = 1;
			else
				total = b * CONTENT_PLAIN_BS + ob[b].len;
		}
		buf = malloc(rs);
		FZ_CHECK(buf != NULL, "malloc");
		memset(buf, 0xa5, rs);
		n = fs_content_read(fz_in, fz_fd, buf, rs, (off_t)off);
		if (want_eio) {
			struct scratch *sc = scratch_blocks(last - first + 1);

			FZ_CHECK(n == -EIO, "a read over a damaged block did "
					    "not fail with EIO");
			for (size_t k = 0; k * CONTENT_PLAIN_BS < rs; k++)
				FZ_CHECK(!holds_block((const uint8_t *)buf, rs,
						      k, nob),
					 "failed read left plaintext in the "
					 "reply buffer");
			FZ_CHECK(sc != NULL, "scratch_blocks");
			for (size_t k = 0; k <= last - first; k++)
				FZ_CHECK(!holds_block(sc->p,
						      (last - first + 1) *
							      CONTENT_PLAIN_BS,
						      k, nob),
					 "failed read left plaintext in the "
					 "scratch buffer");
		} else {
			size_t want = total > off ? total - off : 0;

			if (want > rs)
				want = rs;
			FZ_CHECK(n >= 0 && (size_t)n == want,
				 "read length differs from the oracle");
			for (size_t i = 0; i < want; i++) {
				size_t p = off + i;
				const struct oblock *o =
					&ob[p / CONTENT_PLAIN_BS];

				FZ_CHECK((uint8_t)buf[i] ==
						 o->plain[p % CONTENT_PLAIN_BS],
					 "read bytes differ from the oracle");
				if (!damaged)
					FZ_CHECK((uint8_t)buf[i] == plain[p],
						 "read bytes differ from what "
						 "was written");
			}
		}
		free(buf);
	}
	return 0;
}
