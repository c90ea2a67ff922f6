/* SPDX-License-Identifier: MIT */
/* Targets: content_cipher_to_plain_size, content_plain_to_cipher_size,
 * content_block_no, content_block_cipher_off, fs_content_size,
 * fs_fix_stat, fs_content_read, fs_content_seek, fs_content_write. */
/*
 * Size arithmetic on an untrusted st_size (FORMAT.md 4.8): the backing
 * file's size is whatever the attacker who owns the cipher directory made
 * it, a sparse file up to the backing filesystem's limit (2^63 - 1 on
 * tmpfs) with a bad tail of 1..overhead bytes or none.
 * Arithmetic, for every 64-bit size c: the plaintext size p never exceeds
 * c, grows with c, and maps back to c when c is a size vcryptfs or
 * gocryptfs can write; a tail of 1..overhead bytes counts as one byte;
 * every plaintext size up to 2^62 round-trips; the block of every
 * plaintext offset below p starts inside the file.
 * The callers, on a real sparse file of size c (a valid header, zero
 * blocks, which are holes, and a sealed last block when the tail holds
 * one): fs_content_size and fs_fix_stat report p; a read of the last
 * blocks returns zeros then the last block's plaintext, or -EIO when the
 * tail is too short to be a block; SEEK_DATA finds the last block and
 * SEEK_HOLE every zero block; appending one byte makes the size p + 1 and
 * reads back. Offsets near 2^63 of the plaintext are left to the tests of
 * issue 23 item 8; ciphertext reads that would pass 2^63 - 1 may fail
 * with -EINVAL (the kernel refuses them).
 * Setup once per process: the backing file on /dev/shm (tmpfs) when there
 * is one, else /tmp, unlinked at once; the largest size it can take.
 * Test code: not constant time, not proved.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/content.h"
#include "fuse/fs.h"
#include "fuse/rw.h"
#include "fuzz_backing.h"
#include "fuzz_util.h"
#include "fuzz_volume.h"

#define FZ_READ_BLOCKS 3
#define FZ_READ_MAX (FZ_READ_BLOCKS * CONTENT_PLAIN_BS)

static struct inode *fz_in;
static int fz_fd = -1;
static uint64_t fz_fsmax; /* largest size ftruncate accepts */

static int try_dir(const char *base, char *dir, size_t cap)
{
	(void)snprintf(dir, cap, "%s/vcryptfs-fuzz-sz.XXXXXX", base);
	return mkdtemp(dir) != NULL;
}

static void setup(void)
{
	char dir[64];
	uint64_t lo = 0;
	uint64_t hi = INT64_MAX;

	if (fz_in != NULL)
		return;
	FZ_CHECK(try_dir("/dev/shm", dir, sizeof(dir)) ||
			 try_dir("/tmp", dir, sizeof(dir)),
		 "mkdtemp");
	fz_in = fz_backing(dir, &fz_fd);
	/* the largest sparse size: binary search over ftruncate */
	if (ftruncate(fz_fd, (off_t)hi) == 0) {
		lo = hi;
	} else {
		while (lo < hi) {
			uint64_t mid = lo + (hi - lo + 1) / 2;

			if (ftruncate(fz_fd, (off_t)mid) == 0)
				lo = mid;
			else
				hi = mid - 1;
		}
	}
	FZ_CHECK(ftruncate(fz_fd, 0) == 0, "ftruncate 0");
	fz_fsmax = lo;
}

static int well_formed(uint64_t c, uint64_t cbs, uint64_t ov)
{
	uint64_t tail;

	if (c == 0)
		return 1;
	if (c <= HEADER_LEN)
		return 0;
	tail = (c - HEADER_LEN) % cbs;
	return tail == 0 || tail > ov;
}

/* The pure arithmetic for cipher cc at ciphertext size c and plaintext
 * size q. */
static void check_arith(enum content_cipher cc, uint64_t c, uint64_t q)
{
	uint64_t cbs = content_cipher_bs(cc);
	uint64_t ov = content_overhead(cc);
	uint64_t p = content_cipher_to_plain_size(cc, c);

	FZ_CHECK(p <= c, "plaintext size above the ciphertext size");
	if (c < UINT64_MAX)
		FZ_CHECK(content_cipher_to_plain_size(cc, c + 1) >= p,
			 "plaintext size shrinks as the file grows");
	if (c <= HEADER_LEN)
		FZ_CHECK(p == 0, "a file of only a header is not empty");
	if (well_formed(c, cbs, ov))
		FZ_CHECK(content_plain_to_cipher_size(cc, p) == c,
			 "a well-formed size does not map back");
	else if (c > HEADER_LEN)
		FZ_CHECK(p == content_cipher_to_plain_size(
				      cc, c - (c - HEADER_LEN) % cbs) +
					 1,
			 "a too-short tail is not one byte");
	if (p > 0) {
		/* the last plaintext byte's block starts inside the file */
		uint64_t b = content_block_no(p - 1);

		FZ_CHECK(b == (p - 1) / CONTENT_PLAIN_BS, "content_block_no");
		FZ_CHECK(content_block_cipher_off(cc, b) < c,
			 "last block starts past the end");
	}
	q &= ((uint64_t)1 << 62) - 1;
	{
		uint64_t qc = content_plain_to_cipher_size(cc, q);

		FZ_CHECK(qc >= q && content_cipher_to_plain_size(cc, qc) == q,
			 "plaintext size does not round-trip");
		FZ_CHECK(q == 0 || qc < content_plain_to_cipher_size(cc, q + 1),
			 "ciphertext size does not grow with the plaintext");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum fz_vol sel[3] = { FZV_GCM, FZV_XCHACHA, FZV_SIV_PAD };
	static uint8_t plain[CONTENT_PLAIN_BS];
	static uint8_t got[FZ_READ_MAX];
	const struct volume *v;
	enum content_cipher cc;
	struct fz f;
	uint8_t mode;
	uint64_t raw;
	uint64_t q;
	uint64_t c;
	uint64_t p;
	uint64_t cbs;
	uint64_t ov;
	uint64_t kk = 0; /* index of the last block */
	int written = 0;
	uint16_t back;
	uint16_t rlen;
	uint8_t fid[HEADER_ID_LEN];
	struct stat st;
	off_t ps = -1;

	setup();
	fz_init(&f, data, size);
	mode = fz_u8(&f);
	v = fz_volume(sel[(mode & 3) % 3]);
	cc = v->cipher;
	cbs = content_cipher_bs(cc);
	ov = content_overhead(cc);
	raw = fz_u32(&f);
	raw |= (uint64_t)fz_u32(&f) << 32;
	q = fz_u32(&f);
	q |= (uint64_t)fz_u32(&f) << 32;
	back = fz_u16(&f);
	rlen = fz_u16(&f);
	fz_bytes(&f, fid, sizeof(fid));
	fid[0] |= 1;
	switch ((mode >> 2) & 3) {
	case 0: /* anything */
		c = raw;
		break;
	case 1: /* header, k blocks, a tail, inside the filesystem's limit */
		c = HEADER_LEN +
		    (raw >> 16) % (fz_fsmax / cbs > 0 ? fz_fsmax / cbs : 1) *
			    cbs +
		    (raw & 0xffff) % cbs;
		break;
	case 2: /* near the filesystem's limit */
		c = raw % (4 * cbs) > fz_fsmax ? 0 : fz_fsmax - raw % (4 * cbs);
		break;
	default: /* small */
		c = raw % (40 * cbs);
		break;
	}
	check_arith(cc, c, q);
	if (c > fz_fsmax || (mode & 0x80))
		return 0;

	/* the sparse file: header, holes, the last block sealed if it can
	 * hold one */
	fs.vol = v;
	p = content_cipher_to_plain_size(cc, c);
	{
		size_t k = f.n < sizeof(plain) ? f.n : sizeof(plain);

		fz_bytes(&f, plain, k);
		for (size_t i = k; i < sizeof(plain); i++)
			plain[i] = (uint8_t)(i * 7 + 1);
	}
	FZ_CHECK(ftruncate(fz_fd, 0) == 0, "ftruncate 0");
	inode_fileid_clear(fz_in);
	if (c >= HEADER_LEN) {
		uint8_t hdr[HEADER_LEN];

		header_build(hdr, fid);
		FZ_CHECK(pwrite(fz_fd, hdr, sizeof(hdr), 0) ==
				 (ssize_t)sizeof(hdr),
			 "write header");
	}
	if (c > HEADER_LEN) {
		/* the ciphertext length of the last block */
		uint64_t tail;

		kk = (c - HEADER_LEN - 1) / cbs;
		tail = c - HEADER_LEN - kk * cbs;
		if (tail > ov) {
			static uint8_t blk[CONTENT_MAX_CIPHER_BS];

			FZ_CHECK(content_block_seal(v, blk, plain, tail - ov,
						    kk, fid, NULL) == 0,
				 "seal last block");
			FZ_CHECK(pwrite(fz_fd, blk, tail,
					(off_t)(HEADER_LEN + kk * cbs)) ==
					 (ssize_t)tail,
				 "write last block");
			written = 1;
		}
	}
	FZ_CHECK(ftruncate(fz_fd, (off_t)c) == 0, "ftruncate c");
	FZ_CHECK(fstat(fz_fd, &st) == 0 && (uint64_t)st.st_size == c, "fstat");
	FZ_CHECK(fs_content_size(fz_fd, &ps) == 0 && ps >= 0 &&
			 (uint64_t)ps == p,
		 "fs_content_size differs");
	FZ_CHECK(fs_fix_stat(fz_fd, &st) == 0 && st.st_size == ps,
		 "fs_fix_stat differs");

	/* a read of the end: off = p - back, up to three blocks */
	{
		uint64_t off = back > p ? 0 : p - back;
		size_t n = 1 + rlen % FZ_READ_MAX;
		uint64_t first = off / CONTENT_PLAIN_BS;
		uint64_t last = (off + n - 1) / CONTENT_PLAIN_BS;
		uint64_t cend = HEADER_LEN + (last + 1) * cbs;
		int want_eio = 0;
		ssize_t r;

		/* no plaintext reaches past fs_content_max() (issue 23 item
		 * 8): a read from there on is at the end of the file */
		uint64_t cap = (uint64_t)fs_content_max();

		for (uint64_t b = first; b <= last && c > HEADER_LEN; b++)
			if (b == kk && !written && off < cap &&
			    b * CONTENT_PLAIN_BS < cap)
				want_eio = 1; /* a tail too short */
		r = fs_content_read(fz_in, fz_fd, (char *)got, n, (off_t)off);
		if (r == -EINVAL && cend > (uint64_t)INT64_MAX) {
			/* the ciphertext read passes 2^63 - 1: refused */
		} else if (c > 0 && c < HEADER_LEN) {
			/* inside the header: empty, or EIO (issue 23 item
			 * 12 reports it) */
			FZ_CHECK(r == 0 || r == -EIO,
				 "a file inside its header read as data");
		} else if (want_eio) {
			FZ_CHECK(r == -EIO, "a too-short tail read without "
					    "EIO");
		} else {
			uint64_t end = p < cap ? p : cap;
			uint64_t want = end > off ? end - off : 0;

			if (want > n)
				want = n;
			FZ_CHECK(r >= 0 && (uint64_t)r == want,
				 "read length at the end differs");
			for (uint64_t i = 0; i < want; i++) {
				uint64_t at = off + i;
				uint8_t e = 0;

				if (at / CONTENT_PLAIN_BS == kk)
					e = plain[at % CONTENT_PLAIN_BS];
				FZ_CHECK(got[i] == e,
					 "read bytes at the end differ");
			}
		}
	}

	/* SEEK_DATA / SEEK_HOLE at an offset below p. Near 2^63 the
	 * backing filesystem's own answers stop being exact (tmpfs says
	 * ENXIO for data within a page of 2^63, and a block read there is
	 * EINVAL): there the result need only be an error or in [off, p]. */
	if (p > 0) {
		uint64_t off = q % p;
		uint64_t ob = off / CONTENT_PLAIN_BS;
		int near_max =
			c > (uint64_t)INT64_MAX - 2 * CONTENT_PLAIN_BS ||
			HEADER_LEN + (kk + 1) * cbs > (uint64_t)INT64_MAX;
		off_t d = fs_content_seek(fz_fd, (off_t)off, SEEK_DATA);
		off_t h = fs_content_seek(fz_fd, (off_t)off, SEEK_HOLE);

		if (near_max) {
			FZ_CHECK(d < 0 || ((uint64_t)d >= off &&
					   (uint64_t)d < p),
				 "SEEK_DATA outside [off, size)");
			FZ_CHECK(h < 0 || ((uint64_t)h >= off &&
					   (uint64_t)h <= p),
				 "SEEK_HOLE outside [off, size]");
		} else {
			if (written)
				FZ_CHECK(
					d == (off_t)(ob == kk
							     ? off
							     : kk * CONTENT_PLAIN_BS),
					"SEEK_DATA missed the last block");
			else
				FZ_CHECK(d == -ENXIO,
					 "SEEK_DATA found data in holes");
			FZ_CHECK(h == (off_t)(written && ob == kk ? p : off),
				 "SEEK_HOLE differs");
		}
	}

	/* append one byte: needs the last block intact, and room; a file
	 * inside its header is issue 23 item 12's */
	if (c + 3 * cbs <= fz_fsmax && (mode & 0x40) &&
	    (c == 0 || c >= HEADER_LEN)) {
		ssize_t w = fs_content_write(fz_in, fz_fd, "Z", 1, (off_t)p);
		int ok = c <= HEADER_LEN || written;

		if (ok) {
			FZ_CHECK(w == 1, "append at the end failed");
			FZ_CHECK(fs_content_size(fz_fd, &ps) == 0 &&
					 (uint64_t)ps == p + 1,
				 "size after append");
			FZ_CHECK(fs_content_read(fz_in, fz_fd, (char *)got, 1,
						 (off_t)p) == 1 &&
					 got[0] == 'Z',
				 "appended byte does not read back");
		} else {
			FZ_CHECK(w == -EIO, "append over a bad tail did not "
					    "fail with EIO");
		}
	}
	return 0;
}
