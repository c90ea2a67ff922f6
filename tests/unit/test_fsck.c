/* SPDX-License-Identifier: MIT */
/*
 * fsck_run() (src/fsck/fsck.c) on cipher directories written here with the
 * format layer, for the cases the mount-based tamper group cannot reach
 * easily: empty and header-only files, an explicit (non-sparse) all-zero
 * block, a short all-zero last block, a tail shorter than the overhead, a
 * corrupt xattr name, a directory whose names all fail (wrong diriv), a
 * damaged inode with two hard links (reported once), and the guarantee
 * that the walk never changes a byte.
 * Spec: ../../shared/FORMAT.md 4.2-4.8, 5.4, 7, 8, 13.4.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "format/content.h"
#include "format/header.h"
#include "format/keys.h"
#include "format/names.h"
#include "fsck/fsck.h"
#include "th.h"

static struct volume vol;
static char top[64];

/* Create name in dfd (O_EXCL, 0444) holding buf. 0 / -1. */
static int write_whole(int dfd, const char *name, const void *buf, size_t n)
{
	int fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL, 0444);
	ssize_t w;

	if (fd < 0)
		return -1;
	w = write(fd, buf, n);
	close(fd);
	return w == (ssize_t)n ? 0 : -1;
}

/* A fresh cipher directory top/name with a random diriv; its fd. */
static int new_dir(const char *name, uint8_t iv[16])
{
	char p[128];
	int fd;

	(void)snprintf(p, sizeof(p), "%s/%s", top, name);
	if (mkdir(p, 0700) != 0)
		return -1;
	fd = open(p, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return -1;
	th_rand(iv, 16);
	if (write_whole(fd, NAMES_DIRIV, iv, 16) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Encrypted name of plain in a directory with IV iv. */
static int cname(const uint8_t iv[16], const char *plain, char *out)
{
	return names_encrypt(&vol, iv, plain, out, NAMES_BUF);
}

/* Write a file holding header + nblocks sealed blocks of plaintext
 * (last block `last` bytes, 1..4096) under plaintext name `plain`. */
static int put_file(int dfd, const uint8_t iv[16], const char *plain,
		    size_t nblocks, size_t last)
{
	uint8_t id[16], hdr[HEADER_LEN];
	uint8_t pt[CONTENT_PLAIN_BS], ct[CONTENT_MAX_CIPHER_BS];
	char cn[NAMES_BUF];
	size_t cbs = content_cipher_bs(vol.cipher);
	int fd, rc = 0;

	if (cname(iv, plain, cn) != 0)
		return -1;
	fd = openat(dfd, cn, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return -1;
	th_rand(id, sizeof(id));
	header_build(hdr, id);
	if (nblocks > 0 && write(fd, hdr, sizeof(hdr)) != (ssize_t)sizeof(hdr))
		rc = -1;
	for (size_t b = 0; b < nblocks && rc == 0; b++) {
		size_t len = b + 1 == nblocks ? last : CONTENT_PLAIN_BS;

		th_rand(pt, len);
		if (content_block_seal(&vol, ct, pt, len, b, id, NULL) != 0 ||
		    write(fd, ct, len + cbs - CONTENT_PLAIN_BS) !=
			    (ssize_t)(len + cbs - CONTENT_PLAIN_BS))
			rc = -1;
	}
	close(fd);
	return rc;
}

/* Append n bytes of value val to the file of plaintext name plain. */
static int append(int dfd, const uint8_t iv[16], const char *plain, size_t n,
		  uint8_t val)
{
	uint8_t buf[CONTENT_MAX_CIPHER_BS];
	char cn[NAMES_BUF];
	int fd;
	ssize_t w;

	if (n > sizeof(buf) || cname(iv, plain, cn) != 0)
		return -1;
	memset(buf, val, n);
	fd = openat(dfd, cn, O_WRONLY | O_APPEND);
	if (fd < 0)
		return -1;
	w = write(fd, buf, n);
	close(fd);
	return w == (ssize_t)n ? 0 : -1;
}

/* Run fsck_run on top/name; output into *text (malloc'd). */
static int run(const char *name, struct fsck_result *res, char **text)
{
	char p[128];
	size_t len = 0;
	FILE *out = open_memstream(text, &len);
	int rc;

	if (out == NULL)
		return -1;
	(void)snprintf(p, sizeof(p), "%s/%s", top, name);
	rc = fsck_run(p, &vol, out, 0, res);
	fclose(out);
	return rc;
}

static void expect(const char *name, unsigned long corrupt, const char *want)
{
	struct fsck_result res;
	char *text = NULL;
	int rc;

	memset(&res, 0, sizeof(res));
	rc = run(name, &res, &text);

	th_check(rc == 0 && res.corrupt == corrupt && res.skipped == 0 &&
			 !res.aborted && text != NULL &&
			 strstr(text, want) != NULL,
		 "fsck %s: %lu corrupt, prints \"%s\"", name, corrupt, want);
	if (rc != 0 || res.corrupt != corrupt || text == NULL ||
	    strstr(text, want) == NULL)
		printf("    rc %d, corrupt %lu, output:\n%s", rc, res.corrupt,
		       text != NULL ? text : "(none)");
	free(text);
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* End of a scenario's setup: close d (when open) and print the "setup
 * NAME" check of ok. Returns ok. */
static int setup_done(int d, int ok, const char *name)
{
	if (d >= 0)
		close(d);
	th_check(ok, "setup %s", name);
	return ok;
}

/* A fresh cipher directory top/name holding one file `plain` of one full
 * block with n bytes of val appended; prints the "setup name" check. */
static void appended_dir(const char *name, const char *plain, size_t n,
			 uint8_t val)
{
	uint8_t iv[16];
	int d = new_dir(name, iv);
	int ok = d >= 0 && put_file(d, iv, plain, 1, CONTENT_PLAIN_BS) == 0 &&
		 append(d, iv, plain, n, val) == 0;

	(void)setup_done(d, ok, name);
}

/* clean: empty, header-only, one block, an explicit zero block */
static void test_clean(void)
{
	uint8_t iv[16];
	char cn[NAMES_BUF];
	int d, ok;

	d = new_dir("clean", iv);
	ok = d >= 0 && put_file(d, iv, "empty", 0, 0) == 0 &&
	     put_file(d, iv, "headeronly", 0, 0) == 0 &&
	     cname(iv, "headeronly", cn) == 0 &&
	     put_file(d, iv, "one", 1, 100) == 0 &&
	     put_file(d, iv, "zeroblock", 1, CONTENT_PLAIN_BS) == 0 &&
	     append(d, iv, "zeroblock", content_cipher_bs(vol.cipher), 0) == 0;
	if (ok) {
		uint8_t id[16], hdr[HEADER_LEN];
		int fd = openat(d, cn, O_WRONLY);

		th_rand(id, sizeof(id));
		header_build(hdr, id);
		ok = fd >= 0 && write(fd, hdr, sizeof(hdr)) == HEADER_LEN;
		if (fd >= 0)
			close(fd);
	}
	(void)setup_done(d, ok, "clean");
	expect("clean", 0, "fsck summary: no problems found");
}

/* a short all-zero last block is not a hole (4.7) */
static void test_shortzero(void)
{
	appended_dir("shortzero", "f", 100, 0);
	expect("shortzero", 1, "\"f\" (inum");
	expect("shortzero", 1, "block 1: all-zero nonce");
}

/* a tail not longer than the overhead */
static void test_shorttail(void)
{
	appended_dir("shorttail", "g", 20, 7);
	expect("shorttail", 1, "block 1: truncated block");
}

/* a wrong diriv: every name of the directory fails */
static void test_wrongiv(void)
{
	uint8_t iv[16], iv2[16];
	int d, ok;

	d = new_dir("wrongiv", iv);
	th_rand(iv2, sizeof(iv2));
	ok = d >= 0 && put_file(d, iv2, "a", 1, 10) == 0 &&
	     put_file(d, iv2, "b", 1, 10) == 0;
	(void)setup_done(d, ok, "wrongiv");
	expect("wrongiv", 3, "damaged gocryptfs.diriv?");
}

/* hard links of a damaged inode: reported once */
static void test_hardlink(void)
{
	uint8_t iv[16];
	char cn[NAMES_BUF], cn2[NAMES_BUF];
	int d, ok;

	d = new_dir("hardlink", iv);
	ok = d >= 0 && put_file(d, iv, "h", 2, 10) == 0 &&
	     append(d, iv, "h", 3, 0x55) == 0 && cname(iv, "h", cn) == 0 &&
	     cname(iv, "h2", cn2) == 0 && linkat(d, cn, d, cn2, 0) == 0;
	(void)setup_done(d, ok, "hardlink");
	expect("hardlink", 1, "fsck summary: 1 corrupt files, 0 files skipped");
}

/* a corrupt xattr name (user xattrs needed on /tmp) */
static void test_xattr(void)
{
	uint8_t iv[16];
	char cn[NAMES_BUF];
	int d, ok;

	d = new_dir("xattr", iv);
	ok = d >= 0 && put_file(d, iv, "x", 1, 10) == 0 &&
	     cname(iv, "x", cn) == 0;
	if (ok) {
		char p[NAMES_BUF + 128];

		(void)snprintf(p, sizeof(p), "%s/xattr/%s", top, cn);
		if (setxattr(p, "user.gocryptfs.AAAAAAAAAAAAAAAAAAAAAA", "v", 1,
			     0) != 0) {
			th_skip("fsck xattr (no user xattrs here: %s)",
				strerror(errno));
			ok = -1;
		}
	}
	if (d >= 0)
		close(d);
	if (ok == 1)
		expect("xattr", 1, "corrupt xattr name on \"x\"");
	else if (ok == 0)
		th_fail("setup xattr");
}

/* a subdirectory name that does not decrypt still gets walked:
 * its damaged file is reported under the ciphertext path */
static void test_undecryptable(void)
{
	uint8_t iv[16], iv2[16];
	char sub[NAMES_BUF];
	int d, ok;

	d = new_dir("undecryptable", iv);
	th_rand(iv2, sizeof(iv2));
	ok = d >= 0 && mkdirat(d, "not-a-name", 0700) == 0;
	if (ok) {
		int s = openat(d, "not-a-name", O_RDONLY | O_DIRECTORY);

		ok = s >= 0 && write_whole(s, NAMES_DIRIV, iv2, 16) == 0 &&
		     put_file(s, iv2, "inner", 1, 10) == 0 &&
		     append(s, iv2, "inner", 1, 1) == 0 &&
		     cname(iv2, "inner", sub) == 0;
		if (s >= 0)
			close(s);
	}
	ok = setup_done(d, ok, "undecryptable");
	if (ok) {
		char want[NAMES_BUF + 32];

		(void)snprintf(want, sizeof(want),
			       "error reading file \"not-a-name/%s\"", sub);
		expect("undecryptable", 2, want);
	}
}

static const struct th_test unit_tests[] = {
	TH_TEST("clean", test_clean),
	TH_TEST("short-zero", test_shortzero),
	TH_TEST("short-tail", test_shorttail),
	TH_TEST("wrong-diriv", test_wrongiv),
	TH_TEST("hardlink", test_hardlink),
	TH_TEST("xattr", test_xattr),
	TH_TEST("undecryptable", test_undecryptable),
};

int main(int argc, char **argv)
{
	uint8_t mk[KEYS_MASTER_LEN];

	th_rand(mk, sizeof(mk));
	if (keys_derive(&vol, mk, CIPHER_AES_GCM,
			VOL_HKDF | VOL_DIRIV | VOL_EMENAMES | VOL_LONGNAMES |
				VOL_RAW64,
			255) != 0) {
		th_fail("keys_derive");
		return th_exit();
	}
	(void)snprintf(top, sizeof(top), "/tmp/vcryptfs-test-fsck.XXXXXX");
	if (mkdtemp(top) == NULL) {
		th_fail("mkdtemp");
		return th_exit();
	}
	th_run(argc, argv, unit_tests, TH_COUNT(unit_tests));
	if (nftw(top, rm_one, 16, FTW_DEPTH | FTW_PHYS) != 0)
		th_fail("removing %s", top);
	volume_free(&vol);
	return th_exit();
}
