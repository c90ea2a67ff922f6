/* SPDX-License-Identifier: MIT */
/*
 * The FUSE layer's content core without a mount: fs_content_write/read/
 * truncate (src/fuse/rw.c) on a real backing file, for all three ciphers,
 * against an in-memory model after every operation (fsx style): random
 * writes across block edges and past EOF (holes), shrinking and growing
 * truncates, reads of random ranges. Also: the backing size always equals
 * the FORMAT.md 4.8 formula, the file ID survives writes, truncate to 0
 * drops the header, a flipped ciphertext byte gives -EIO, and after a
 * multi-block read that fails at a block k > 0 the thread's scratch
 * buffer holds none of the blocks decrypted before (or beside) it.
 * Spec: ../../shared/FORMAT.md 4.2-4.9.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crypto/ossl_aead.h"
#include "format/keys.h"
#include "fuse/fs.h"
#include "fuse/rw.h"
#include "fuse/scratch.h"
#include "th.h"

#define MAXSZ (96 * 1024)
#define NOPS 1500

static uint8_t model[MAXSZ];
static uint8_t got[MAXSZ];
static size_t msize;

static off_t backing_size(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 ? st.st_size : -1;
}

static int model_check(struct inode *in, int fd, const char *what, int op)
{
	off_t ps = -1;
	ssize_t n;

	if (fs_content_size(fd, &ps) != 0 || ps != (off_t)msize) {
		th_fail("op %d (%s): size %lld, model %zu", op, what,
			(long long)ps, msize);
		return -1;
	}
	if (backing_size(fd) !=
	    (off_t)content_plain_to_cipher_size(fs.vol->cipher, msize)) {
		th_fail("op %d (%s): backing size %lld, formula %llu", op, what,
			(long long)backing_size(fd),
			(unsigned long long)content_plain_to_cipher_size(
				fs.vol->cipher, msize));
		return -1;
	}
	n = fs_content_read(in, fd, (char *)got, MAXSZ, 0);
	if (n != (ssize_t)msize || memcmp(got, model, msize) != 0) {
		th_fail("op %d (%s): content differs (read %zd)", op, what, n);
		return -1;
	}
	return 0;
}

static void run_cipher(enum content_cipher c, const char *label,
		       const char *dir)
{
	static const uint8_t mk[32] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	struct volume vol;
	char path[512];
	struct stat st;
	struct inode *in;
	uint8_t hdr0[HEADER_LEN];
	uint8_t hdr1[HEADER_LEN];
	uint8_t buf[24000];
	int rootfd;
	int pfd;
	int fd;
	int ok = 1;

	if (keys_derive(&vol, mk, c,
			VOL_HKDF | VOL_DIRIV | VOL_EMENAMES | VOL_LONGNAMES |
				VOL_RAW64,
			255) != 0) {
		th_fail("%s: keys_derive", label);
		return;
	}
	memset(&fs, 0, sizeof(fs));
	fs.vol = &vol;
	rootfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0 || inode_table_init(rootfd) != 0) {
		th_fail("%s: inode table", label);
		volume_free(&vol);
		return;
	}
	(void)snprintf(path, sizeof(path), "%s/f-%s", dir, label);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	pfd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0 || pfd < 0 || fstat(pfd, &st) != 0 ||
	    (in = inode_get(pfd, &st)) == NULL) {
		th_fail("%s: open backing file", label);
		goto out;
	}
	msize = 0;
	memset(model, 0, sizeof(model));
	for (int op = 0; op < NOPS && ok; op++) {
		uint32_t r = th_rand32() % 10;

		if (r < 6) { /* write, often unaligned, sometimes past EOF */
			size_t off = th_rand32() % (MAXSZ - sizeof(buf));
			size_t len =
				1 + th_rand32() % (r < 3 ? 300 : sizeof(buf));
			ssize_t n;

			if (r == 5)
				off = msize + th_rand32() % 9000;
			if (off >= MAXSZ - 1)
				off = MAXSZ - 2;
			if (off + len > MAXSZ)
				len = MAXSZ - off;
			th_rand(buf, len);
			n = fs_content_write(in, fd, (const char *)buf, len,
					     (off_t)off);
			if (n != (ssize_t)len) {
				th_fail("%s op %d: write %zu@%zu -> %zd", label,
					op, len, off, n);
				ok = 0;
				break;
			}
			if (off > msize)
				memset(model + msize, 0, off - msize);
			memcpy(model + off, buf, len);
			if (off + len > msize)
				msize = off + len;
			ok = model_check(in, fd, "write", op) == 0;
		} else if (r < 8) { /* truncate, aligned or not */
			size_t ns = th_rand32() % MAXSZ;

			if (r == 7)
				ns &= ~(size_t)4095;
			if (fs_content_truncate(in, fd, (off_t)ns) != 0) {
				th_fail("%s op %d: truncate %zu", label, op,
					ns);
				ok = 0;
				break;
			}
			if (ns > msize)
				memset(model + msize, 0, ns - msize);
			msize = ns;
			ok = model_check(in, fd, "truncate", op) == 0;
		} else { /* read a random range */
			size_t off = th_rand32() % MAXSZ;
			size_t len = 1 + th_rand32() % 20000;
			size_t want = off >= msize	  ? 0
				      : msize - off < len ? msize - off
							  : len;
			ssize_t n = fs_content_read(in, fd, (char *)got, len,
						    (off_t)off);

			if (n != (ssize_t)want ||
			    memcmp(got, model + off, want) != 0) {
				th_fail("%s op %d: read %zu@%zu -> %zd, want "
					"%zu",
					label, op, len, off, n, want);
				ok = 0;
			}
		}
	}
	th_check(ok, "%s: %d random write/truncate/read ops match the model",
		 label, NOPS);

	/* the file ID survives writes; truncate to 0 drops the header */
	(void)fs_content_truncate(in, fd, 0);
	(void)fs_content_write(in, fd, "abc", 3, 0);
	ok = pread(fd, hdr0, sizeof(hdr0), 0) == (ssize_t)sizeof(hdr0);
	(void)fs_content_write(in, fd, "defgh", 5, 5000);
	ok = ok && pread(fd, hdr1, sizeof(hdr1), 0) == (ssize_t)sizeof(hdr1);
	th_check(ok && memcmp(hdr0, hdr1, sizeof(hdr0)) == 0 && hdr0[1] == 2,
		 "%s: file header and ID unchanged by later writes", label);
	(void)fs_content_truncate(in, fd, 0);
	th_check(backing_size(fd) == 0, "%s: truncate to 0 leaves 0 bytes",
		 label);

	/* a hole between blocks reads as zeros; a flipped byte is -EIO */
	(void)fs_content_write(in, fd, "x", 1, 3 * 4096 + 10);
	{
		ssize_t n = fs_content_read(in, fd, (char *)got, MAXSZ, 0);
		int zeros = n == 3 * 4096 + 11;

		for (ssize_t i = 0; zeros && i < 3 * 4096 + 10; i++)
			zeros = got[i] == 0;
		th_check(zeros && got[3 * 4096 + 10] == 'x',
			 "%s: write past EOF leaves readable zero holes",
			 label);
	}
	{
		uint8_t b;
		off_t at = (off_t)HEADER_LEN +
			   3 * (off_t)content_cipher_bs(vol.cipher) + 30;
		ssize_t n;

		ok = pread(fd, &b, 1, at) == 1;
		b ^= 0x01;
		ok = ok && pwrite(fd, &b, 1, at) == 1;
		n = fs_content_read(in, fd, (char *)got, 100, 3 * 4096);
		th_check(ok && n == -EIO,
			 "%s: one flipped ciphertext bit -> -EIO", label);
	}
	{
		/* 12 blocks of 0xa5, block 5 damaged: an unaligned read of
		 * all of them decrypts into the scratch buffer (over two
		 * cores) and fails; no run of the plaintext may stay */
		enum { NBLK = 12, BAD = 5, RUN = 32 };
		struct scratch *sc;
		off_t at = (off_t)HEADER_LEN +
			   BAD * (off_t)content_cipher_bs(vol.cipher) + 40;
		size_t left = 0;
		ssize_t n = 0;
		uint8_t b = 0;

		(void)fs_content_truncate(in, fd, 0);
		memset(buf, 0xa5, 4096);
		for (int i = 0; i < NBLK && n >= 0; i++)
			n = fs_content_write(in, fd, (const char *)buf, 4096,
					     (off_t)i * 4096);
		ok = n == 4096 && pread(fd, &b, 1, at) == 1;
		b ^= 0x10;
		ok = ok && pwrite(fd, &b, 1, at) == 1;
		n = fs_content_read(in, fd, (char *)got, NBLK * 4096 - 1, 1);
		sc = scratch_blocks(1);
		for (size_t i = 0; sc != NULL && i + RUN <= NBLK * 4096; i++) {
			size_t k = 0;

			while (k < RUN && sc->p[i + k] == 0xa5)
				k++;
			if (k == RUN)
				left++;
		}
		th_check(ok && n == -EIO && sc != NULL && left == 0,
			 "%s: read failing at block %d of %d: -EIO (%zd), "
			 "no plaintext left in the scratch buffer (%zu "
			 "%d-byte runs)",
			 label, BAD, NBLK, n, left, RUN);
	}
	{
		/* SEEK_DATA / SEEK_HOLE: block 0 and block 10 hold data */
		off_t end = 10 * 4096 + 6;
		off_t d0;
		off_t h;
		off_t d1;
		off_t h2;

		(void)fs_content_truncate(in, fd, 0);
		(void)fs_content_write(in, fd, "a", 1, 0);
		(void)fs_content_write(in, fd, "b", 1, 10 * 4096 + 5);
		d0 = fs_content_seek(fd, 0, SEEK_DATA);
		h = fs_content_seek(fd, 0, SEEK_HOLE);
		d1 = h > 0 ? fs_content_seek(fd, h, SEEK_DATA) : -1;
		h2 = fs_content_seek(fd, 10 * 4096, SEEK_HOLE);
		th_check(d0 == 0 && h % 4096 == 0 && h >= 4096 &&
				 h < 10 * 4096 && d1 > h && d1 <= 10 * 4096 &&
				 h2 == end &&
				 fs_content_seek(fd, end, SEEK_DATA) == -ENXIO,
			 "%s: SEEK_DATA/SEEK_HOLE: data 0, hole %lld, data "
			 "%lld, end hole %lld",
			 label, (long long)h, (long long)d1, (long long)h2);
	}
	inode_unref(in, 1);
out:
	if (fd >= 0)
		close(fd);
	(void)unlink(path);
	inode_table_free();
	volume_free(&vol);
}

static char dir[] = "/tmp/vcryptfs-rw.XXXXXX";

static void test_gcm(void)
{
	run_cipher(CIPHER_AES_GCM, "aes-gcm", dir);
}

static void test_siv(void)
{
	run_cipher(CIPHER_AES_SIV, "aes-siv", dir);
}

static void test_xchacha(void)
{
	run_cipher(CIPHER_XCHACHA, "xchacha", dir);
}

static const struct th_test unit_tests[] = {
	TH_TEST("gcm", test_gcm),
	TH_TEST("siv", test_siv),
	TH_TEST("xchacha", test_xchacha),
};

int main(int argc, char **argv)
{
	if (mkdtemp(dir) == NULL) {
		th_fail("mkdtemp: %s", strerror(errno));
		return th_exit();
	}
	th_run(argc, argv, unit_tests, TH_COUNT(unit_tests));
	(void)rmdir(dir);
	ossl_aead_thread_cleanup();
	return th_exit();
}
