/* SPDX-License-Identifier: MIT */
/*
 * fsposix: the POSIX-semantics suite of tests/checks/56-posix.sh.
 *   fsposix [-x OTHERDIR] DIR   root cases in a fresh DIR/fsposix.d
 *   fsposix -u [-x OTHERDIR] DIR  the same as nobody:nogroup (for a
 *                               daemon that runs as nobody too)
 *   fsposix -n DIR              non-root cases (run as root: prepares
 *                               files as root, then a child drops to
 *                               nobody:nogroup (+ group 4243), like
 *                               setpriv, and checks
 *                               EACCES/EPERM and ownership of new files)
 * Every case prints "PASS: fs: NAME" or "FAIL: fs: NAME: got X, want Y"
 * with the expected outcome written into the case. The group runs the same
 * binary on a vcryptfs mount and on a plain directory and compares the two
 * outcomes case by case. OTHERDIR: a directory on another filesystem (a
 * second mount) for the EXDEV cases. Exits 0 unless the setup fails. Not
 * proved.
 * Over 600 lines on purpose: one standalone program (no library) that
 * the group runs on the mount and on a plain directory; its cases share
 * the case table and expectation helpers, and banner sections group them
 * by topic. (mk/tests.mk links every C file of tests/fs into it, so a
 * split by topic needs no build change.)
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#define NOBODY_UID 65534U
#define NOBODY_GID 65534U
#define BIG (1024 * 1024 + 13)

static char base[PATH_MAX / 2];
static int n_pass;
static int n_fail;

/* ------------------------------------------------------------------
 * Reporting and helpers
 */

static const char *ename(int e)
{
	const char *s;

	if (e == 0)
		return "ok";
	s = strerrorname_np(e);
	return s != NULL ? s : "E?";
}

static void result(const char *name, int ok, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void result(const char *name, int ok, const char *fmt, ...)
{
	if (ok) {
		printf("PASS: fs: %s\n", name);
		n_pass++;
	} else {
		va_list ap;

		printf("FAIL: fs: %s: ", name);
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		putchar('\n');
		n_fail++;
	}
	fflush(stdout);
}

/* r: a syscall result (< 0 with errno set on failure); want: errno or 0. */
static void expect(const char *name, long r, int want)
{
	int got = r < 0 ? errno : 0;

	result(name, got == want, "got %s, want %s", ename(got), ename(want));
}

static void check(const char *name, int cond, const char *what)
{
	result(name, cond, "%s", what);
}

/* Path under the test root; eight rotating buffers. */
static const char *P(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static const char *P(const char *fmt, ...)
{
	static char bufs[8][PATH_MAX + 64];
	static int i;
	char *b = bufs[i++ & 7];
	int n = snprintf(b, PATH_MAX + 64, "%s/", base);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(b + n, (size_t)(PATH_MAX + 64 - n), fmt, ap);
	va_end(ap);
	return b;
}

static void fill(unsigned char *b, size_t n, unsigned seed)
{
	uint32_t x = seed * 2654435761U + 1U;

	for (size_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		b[i] = (unsigned char)x;
	}
}

static int put(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = len > 0 ? write(fd, data, len) : 0;
	if (close(fd) != 0 || n != (ssize_t)len)
		return -1;
	return 0;
}

static int put_str(const char *path, const char *s)
{
	return put(path, s, strlen(s));
}

/* Whole file into buf (at most cap); length or -1. */
static ssize_t get(const char *path, void *buf, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t got = 0;

	if (fd < 0)
		return -1;
	while (got < cap) {
		ssize_t n = read(fd, (char *)buf + got, cap - got);

		if (n < 0) {
			close(fd);
			return -1;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	return (ssize_t)got;
}

static int content_is(const char *path, const char *s)
{
	char buf[256];
	ssize_t n = get(path, buf, sizeof(buf));

	return n == (ssize_t)strlen(s) && memcmp(buf, s, (size_t)n) == 0;
}

static off_t size_of(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 ? st.st_size : -1;
}

static mode_t mode_of(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 ? st.st_mode : 0;
}

static int exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

static int all_zero(const unsigned char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (b[i] != 0)
			return 0;
	return 1;
}

static unsigned char *xmalloc(size_t n)
{
	unsigned char *p = malloc(n);

	if (p == NULL) {
		perror("fsposix: malloc");
		exit(2);
	}
	return p;
}

static void name_of_len(char *out, size_t len, char c)
{
	memset(out, c, len);
	out[len] = '\0';
}

/* ------------------------------------------------------------------
 * open / creat
 */

static void t_open(void)
{
	int fd;

	fd = open(P("o1"), O_WRONLY | O_CREAT | O_EXCL, 0640);
	expect("open O_CREAT|O_EXCL new file", fd, 0);
	if (fd >= 0)
		close(fd);
	check("open O_CREAT mode 0640 kept", (mode_of(P("o1")) & 07777) == 0640,
	      "mode differs");
	check("open O_CREAT makes a regular file", S_ISREG(mode_of(P("o1"))),
	      "not S_IFREG");
	expect("open O_CREAT|O_EXCL existing -> EEXIST",
	       open(P("o1"), O_WRONLY | O_CREAT | O_EXCL, 0644), EEXIST);
	expect("open missing without O_CREAT -> ENOENT",
	       open(P("nope"), O_RDONLY), ENOENT);
	expect("open O_CREAT in missing dir -> ENOENT",
	       open(P("nodir/x"), O_WRONLY | O_CREAT, 0644), ENOENT);
	expect("open through a file component -> ENOTDIR",
	       open(P("o1/x"), O_RDONLY), ENOTDIR);
	(void)put_str(P("o2"), "hello world");
	fd = open(P("o2"), O_WRONLY | O_CREAT, 0600);
	expect("open O_CREAT existing without O_EXCL", fd, 0);
	if (fd >= 0)
		close(fd);
	check("open O_CREAT existing keeps content",
	      content_is(P("o2"), "hello world"), "content changed");
	fd = open(P("o2"), O_WRONLY | O_TRUNC);
	if (fd >= 0)
		close(fd);
	check("open O_TRUNC empties the file", size_of(P("o2")) == 0,
	      "size not 0");
	(void)put_str(P("o3"), "12345");
	fd = open(P("o3"), O_WRONLY | O_APPEND);
	if (fd >= 0) {
		(void)lseek(fd, 0, SEEK_SET);
		(void)!write(fd, "abc", 3);
		close(fd);
	}
	check("open O_APPEND writes at the end",
	      content_is(P("o3"), "12345abc"), "content not 12345abc");
	fd = open(P("o3"), O_WRONLY | O_APPEND);
	if (fd >= 0) {
		(void)!pwrite(fd, "Z", 1, 0);
		close(fd);
	}
	check("pwrite on O_APPEND appends (Linux)",
	      content_is(P("o3"), "12345abcZ"), "content not 12345abcZ");
	expect("open O_DIRECTORY on a file -> ENOTDIR",
	       open(P("o3"), O_RDONLY | O_DIRECTORY), ENOTDIR);
	(void)mkdir(P("od"), 0755);
	fd = open(P("od"), O_RDONLY | O_DIRECTORY);
	expect("open O_DIRECTORY on a dir", fd, 0);
	if (fd >= 0)
		close(fd);
	expect("open a dir O_WRONLY -> EISDIR", open(P("od"), O_WRONLY),
	       EISDIR);
	expect("open a dir O_CREAT -> EISDIR",
	       open(P("od"), O_RDWR | O_CREAT, 0644), EISDIR);
	(void)!symlink("o3", P("ol"));
	expect("open O_NOFOLLOW on a symlink -> ELOOP",
	       open(P("ol"), O_RDONLY | O_NOFOLLOW), ELOOP);
	fd = open(P("ol"), O_RDONLY);
	expect("open follows a symlink", fd, 0);
	if (fd >= 0)
		close(fd);
	(void)!symlink("o-dangling", P("oldang"));
	expect("open O_CREAT|O_EXCL on a dangling symlink -> EEXIST",
	       open(P("oldang"), O_WRONLY | O_CREAT | O_EXCL, 0644), EEXIST);
	fd = open(P("oldang"), O_WRONLY | O_CREAT, 0644);
	if (fd >= 0)
		close(fd);
	check("open O_CREAT through a dangling symlink creates the target",
	      fd >= 0 && exists(P("o-dangling")), "target not created");
	fd = open(P("o3"), O_RDONLY);
	expect("write on an O_RDONLY fd -> EBADF",
	       fd < 0 ? fd : write(fd, "x", 1), EBADF);
	if (fd >= 0)
		close(fd);
	{
		char c;

		fd = open(P("o3"), O_WRONLY);
		expect("read on an O_WRONLY fd -> EBADF",
		       fd < 0 ? fd : read(fd, &c, 1), EBADF);
		if (fd >= 0)
			close(fd);
	}
	fd = creat(P("o4"), 0600);
	expect("creat()", fd, 0);
	if (fd >= 0)
		close(fd);
	fd = open(P("o4"), O_RDWR | O_TMPFILE, 0600);
	expect("O_TMPFILE on a file -> ENOTDIR", fd, ENOTDIR);
	if (fd >= 0)
		close(fd);
}

/* ------------------------------------------------------------------
 * read / write / pread / pwrite
 */

static void t_rw(void)
{
	unsigned char *a = xmalloc(BIG);
	unsigned char *b = xmalloc(BIG);
	char buf[64];
	int fd;
	ssize_t n;

	fill(a, BIG, 1);
	fd = open(P("rw1"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	n = write(fd, a, 4096);
	check("write one 4096-byte block", n == 4096, "short write");
	n = pread(fd, b, 4096, 0);
	check("pread the block back", n == 4096 && memcmp(a, b, 4096) == 0,
	      "data differs");
	n = pwrite(fd, a + 5000, 100, 4090);
	check("pwrite across a block edge (4090..4190)",
	      n == 100 && size_of(P("rw1")) == 4190, "size not 4190");
	n = pread(fd, b, 4190, 0);
	check("pread across the block edge",
	      n == 4190 && memcmp(b, a, 4090) == 0 &&
		      memcmp(b + 4090, a + 5000, 100) == 0,
	      "data differs");
	n = pwrite(fd, "0123456789", 10, 4093);
	(void)!pread(fd, b, 20, 4090);
	check("overwrite inside across the edge (RMW)",
	      n == 10 && memcmp(b + 3, "0123456789", 10) == 0 &&
		      memcmp(b, a + 5000, 3) == 0,
	      "data differs");
	n = pread(fd, buf, 64, 100000);
	check("pread past EOF returns 0", n == 0, "not 0");
	n = pread(fd, buf, 64, 4180);
	check("pread at EOF-10 returns 10", n == 10, "not 10");
	(void)lseek(fd, 7, SEEK_SET);
	(void)!pread(fd, buf, 5, 0);
	check("pread leaves the offset", lseek(fd, 0, SEEK_CUR) == 7,
	      "offset moved");
	(void)!pwrite(fd, "x", 1, 0);
	check("pwrite leaves the offset", lseek(fd, 0, SEEK_CUR) == 7,
	      "offset moved");
	n = write(fd, "", 0);
	check("write of 0 bytes returns 0", n == 0, "not 0");
	expect("pwrite at a negative offset -> EINVAL", pwrite(fd, "x", 1, -1),
	       EINVAL);
	close(fd);

	fd = open(P("rw2"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	n = pwrite(fd, a, 100, 3 * 4096 + 5);
	check("sparse pwrite past EOF", n == 100 && size_of(P("rw2")) == 12393,
	      "size not 12393");
	n = pread(fd, b, 12393, 0);
	check("the hole reads as zeros",
	      n == 12393 && all_zero(b, 12293) &&
		      memcmp(b + 12293, a, 100) == 0,
	      "hole not zero");
	close(fd);

	fd = open(P("rw3"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	n = write(fd, a, BIG);
	check("write 1 MiB+13 in one call", n == BIG, "short write");
	close(fd);
	n = get(P("rw3"), b, BIG + 10);
	check("read 1 MiB+13 back", n == BIG && memcmp(a, b, BIG) == 0,
	      "data differs");
	fd = open(P("rw3"), O_RDWR);
	for (off_t off = 4095; off < 200000; off += 12289)
		(void)!pwrite(fd, "ABCDE", 5, off);
	for (off_t off = 4095; off < 200000; off += 12289)
		memcpy(a + off, "ABCDE", 5);
	close(fd);
	n = get(P("rw3"), b, BIG + 10);
	check("scattered small overwrites on block edges",
	      n == BIG && memcmp(a, b, BIG) == 0, "data differs");
	fd = open(P("rw3"), O_RDONLY);
	n = pread(fd, b, 70000, 4000);
	check("unaligned pread of 70000 bytes",
	      n == 70000 && memcmp(a + 4000, b, 70000) == 0, "data differs");
	close(fd);
	fd = open(P("od"), O_RDONLY | O_DIRECTORY);
	expect("read on a directory fd -> EISDIR", read(fd, buf, 1), EISDIR);
	close(fd);
	fd = open(P("rw4"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	(void)!write(fd, "abc", 3);
	(void)lseek(fd, 10, SEEK_END);
	(void)!write(fd, "d", 1);
	n = pread(fd, buf, 64, 0);
	check("write after SEEK_END+10 leaves a zero gap",
	      n == 14 && memcmp(buf, "abc", 3) == 0 &&
		      all_zero((unsigned char *)buf + 3, 10) && buf[13] == 'd',
	      "data differs");
	close(fd);
	fd = open(P("rw5"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	for (int i = 0; i < 3000; i++)
		(void)!write(fd, "0123456789abcdefghijklmnopqrstuvwxyz", 7);
	n = pread(fd, b, 30000, 0);
	check("3000 appending 7-byte writes",
	      n == 21000 && memcmp(b + 20993, "0123456", 7) == 0,
	      "data differs");
	close(fd);
	free(a);
	free(b);
}

/* ------------------------------------------------------------------
 * lseek
 */

static void t_seek(void)
{
	unsigned char *a = xmalloc(65536);
	unsigned char z[64];
	int fd;
	off_t r;

	fill(a, 65536, 3);
	fd = open(P("sk1"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	(void)!write(fd, a, 10000);
	check("lseek SEEK_SET", lseek(fd, 123, SEEK_SET) == 123, "wrong");
	check("lseek SEEK_CUR", lseek(fd, 10, SEEK_CUR) == 133, "wrong");
	check("lseek SEEK_END", lseek(fd, -1, SEEK_END) == 9999, "wrong");
	check("lseek past the end is allowed",
	      lseek(fd, 50000, SEEK_SET) == 50000, "wrong");
	expect("lseek to a negative offset -> EINVAL", lseek(fd, -5, SEEK_SET),
	       EINVAL);
	expect("lseek bad whence -> EINVAL", lseek(fd, 0, 77), EINVAL);
	check("SEEK_DATA at 0 of a dense file", lseek(fd, 0, SEEK_DATA) == 0,
	      "not 0");
	check("SEEK_HOLE of a dense file is its size",
	      lseek(fd, 0, SEEK_HOLE) == 10000, "not 10000");
	expect("SEEK_DATA past EOF -> ENXIO", lseek(fd, 10001, SEEK_DATA),
	       ENXIO);
	expect("SEEK_HOLE past EOF -> ENXIO", lseek(fd, 10001, SEEK_HOLE),
	       ENXIO);
	close(fd);
	fd = open(P("sk2"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	(void)!pwrite(fd, a, 4096, 0);
	(void)!pwrite(fd, a, 4096, 1048576);
	r = lseek(fd, 0, SEEK_HOLE);
	memset(z, 1, sizeof(z));
	(void)!pread(fd, z, sizeof(z), r);
	check("SEEK_HOLE finds the hole after the first block",
	      r >= 4096 && r <= 1048576 - 64 && all_zero(z, sizeof(z)),
	      "no hole there");
	r = lseek(fd, 8192, SEEK_DATA);
	check("SEEK_DATA skips the hole to the second block",
	      r >= 8192 && r <= 1048576, "wrong");
	check("SEEK_HOLE at the last block is EOF",
	      lseek(fd, 1048576, SEEK_HOLE) == 1048576 + 4096, "wrong");
	check("SEEK_DATA in data returns the same offset",
	      lseek(fd, 1048580, SEEK_DATA) == 1048580, "wrong");
	close(fd);
	fd = open(P("sk3"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	expect("SEEK_DATA in an empty file -> ENXIO", lseek(fd, 0, SEEK_DATA),
	       ENXIO);
	(void)!ftruncate(fd, 65536);
	r = lseek(fd, 0, SEEK_DATA);
	check("SEEK_DATA in an all-hole file -> ENXIO or a zero region",
	      (r < 0 && errno == ENXIO) || (r >= 0 && r <= 65536), "wrong");
	close(fd);
	free(a);
}

/* ------------------------------------------------------------------
 * truncate / ftruncate / fallocate
 */

static void t_trunc(void)
{
	unsigned char *a = xmalloc(20000);
	unsigned char *b = xmalloc(40000);
	int fd;
	ssize_t n;
	static const off_t sizes[] = { 8193, 4097, 4096, 4095, 1, 0 };

	fill(a, 20000, 5);
	(void)put(P("tr1"), a, 10000);
	expect("truncate grow", truncate(P("tr1"), 30000), 0);
	n = get(P("tr1"), b, 40000);
	check("truncate grow: size and zero tail",
	      n == 30000 && memcmp(a, b, 10000) == 0 &&
		      all_zero(b + 10000, 20000),
	      "data differs");
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		char name[64];

		(void)!truncate(P("tr1"), sizes[i]);
		n = get(P("tr1"), b, 40000);
		snprintf(name, sizeof(name), "truncate shrink to %ld",
			 (long)sizes[i]);
		check(name, n == sizes[i] && memcmp(a, b, (size_t)n) == 0,
		      "size or prefix differs");
	}
	(void)put(P("tr2"), a, 5000);
	(void)!truncate(P("tr2"), 4500);
	(void)!truncate(P("tr2"), 9000);
	n = get(P("tr2"), b, 40000);
	check("shrink then grow: the cut bytes read as zeros",
	      n == 9000 && memcmp(a, b, 4500) == 0 && all_zero(b + 4500, 4500),
	      "data differs");
	fd = open(P("tr2"), O_RDWR);
	expect("ftruncate", ftruncate(fd, 100), 0);
	expect("pwrite after ftruncate", pwrite(fd, "end", 3, 200), 0);
	n = pread(fd, b, 1000, 0);
	check("ftruncate then write past the end",
	      n == 203 && memcmp(a, b, 100) == 0 && all_zero(b + 100, 100) &&
		      memcmp(b + 200, "end", 3) == 0,
	      "data differs");
	struct stat st;
	(void)fstat(fd, &st);
	check("fstat size after ftruncate and write", st.st_size == 203,
	      "wrong size");
	expect("ftruncate negative -> EINVAL", ftruncate(fd, -1), EINVAL);
	close(fd);
	fd = open(P("tr2"), O_RDONLY);
	expect("ftruncate on an O_RDONLY fd -> EINVAL", ftruncate(fd, 1),
	       EINVAL);
	close(fd);
	expect("truncate a directory -> EISDIR", truncate(P("od"), 0), EISDIR);
	expect("truncate missing -> ENOENT", truncate(P("nope"), 0), ENOENT);
	expect("truncate negative -> EINVAL", truncate(P("tr2"), -3), EINVAL);
	(void)put_str(P("tr3"), "keep");
	(void)!truncate(P("tr3"), 4);
	check("truncate to the same size keeps data",
	      content_is(P("tr3"), "keep"), "data differs");
	free(a);
	free(b);
}

static void t_falloc(void)
{
	unsigned char *a = xmalloc(20000);
	unsigned char *b = xmalloc(40000);
	int fd;
	ssize_t n;

	fill(a, 20000, 7);
	fd = open(P("fa1"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	(void)!write(fd, a, 3000);
	expect("fallocate mode 0 grows", fallocate(fd, 0, 0, 10000), 0);
	n = pread(fd, b, 40000, 0);
	check("fallocate mode 0: size and zeros",
	      n == 10000 && memcmp(a, b, 3000) == 0 && all_zero(b + 3000, 7000),
	      "data differs");
	expect("fallocate KEEP_SIZE",
	       fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, 30000), 0);
	check("fallocate KEEP_SIZE keeps the size", size_of(P("fa1")) == 10000,
	      "size changed");
	expect("fallocate inside the file", fallocate(fd, 0, 100, 200), 0);
	n = pread(fd, b, 40000, 0);
	check("fallocate inside keeps data and size",
	      n == 10000 && memcmp(a, b, 3000) == 0, "data differs");
	expect("fallocate length 0 -> EINVAL", fallocate(fd, 0, 0, 0), EINVAL);
	expect("fallocate negative offset -> EINVAL", fallocate(fd, 0, -1, 10),
	       EINVAL);
	close(fd);
	fd = open(P("fa2"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	(void)!write(fd, a, 12288);
	expect("fallocate PUNCH_HOLE",
	       fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 1000,
			 8000),
	       0);
	n = pread(fd, b, 40000, 0);
	check("punched range reads zeros, the rest is kept",
	      n == 12288 && memcmp(a, b, 1000) == 0 &&
		      all_zero(b + 1000, 8000) &&
		      memcmp(a + 9000, b + 9000, 3288) == 0,
	      "data differs");
	expect("fallocate PUNCH_HOLE past EOF",
	       fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 12000,
			 10000),
	       0);
	n = pread(fd, b, 40000, 0);
	check("punch past EOF keeps the size, zeros the tail",
	      n == 12288 && all_zero(b + 12000, 288) && memcmp(a, b, 1000) == 0,
	      "data differs");
	expect("PUNCH_HOLE without KEEP_SIZE -> EOPNOTSUPP",
	       fallocate(fd, FALLOC_FL_PUNCH_HOLE, 0, 10), EOPNOTSUPP);
	close(fd);
	fd = open(P("fa2"), O_RDONLY);
	expect("fallocate on an O_RDONLY fd -> EBADF", fallocate(fd, 0, 0, 10),
	       EBADF);
	close(fd);
	free(a);
	free(b);
}

/* ------------------------------------------------------------------
 * stat, chmod, chown, utimensat
 */

static void t_stat(void)
{
	struct stat st;
	struct stat st2;
	struct timespec ts[2];
	int fd;

	(void)put_str(P("st1"), "0123456789");
	check("stat size", size_of(P("st1")) == 10, "wrong size");
	(void)lstat(P("st1"), &st);
	check("stat nlink of a new file is 1", st.st_nlink == 1, "not 1");
	check("stat uid/gid of a file root made",
	      st.st_uid == geteuid() && st.st_gid == getegid(),
	      "owner differs");
	check("stat st_blocks of a non-empty file > 0", st.st_blocks > 0,
	      "0 blocks");
	(void)mkdir(P("sd"), 0755);
	(void)lstat(P("sd"), &st);
	check("stat nlink of a new dir is 2", st.st_nlink == 2, "not 2");
	(void)mkdir(P("sd/sub"), 0755);
	(void)lstat(P("sd"), &st);
	check("dir nlink grows with a subdir", st.st_nlink == 3, "not 3");
	(void)lstat(P("st1"), &st);
	(void)lstat(P("st1"), &st2);
	check("st_ino is stable", st.st_ino == st2.st_ino, "differs");
	ts[0].tv_sec = 1000000000;
	ts[0].tv_nsec = 123456789;
	ts[1].tv_sec = 1100000000;
	ts[1].tv_nsec = 987654321;
	expect("utimensat explicit times", utimensat(AT_FDCWD, P("st1"), ts, 0),
	       0);
	(void)lstat(P("st1"), &st);
	check("utimensat sets atime and mtime with nanoseconds",
	      st.st_atim.tv_sec == 1000000000 &&
		      st.st_atim.tv_nsec == 123456789 &&
		      st.st_mtim.tv_sec == 1100000000 &&
		      st.st_mtim.tv_nsec == 987654321,
	      "times differ");
	ts[0].tv_nsec = UTIME_OMIT;
	ts[1].tv_sec = 1200000000;
	ts[1].tv_nsec = 0;
	(void)utimensat(AT_FDCWD, P("st1"), ts, 0);
	(void)lstat(P("st1"), &st);
	check("utimensat UTIME_OMIT keeps atime",
	      st.st_atim.tv_sec == 1000000000 &&
		      st.st_mtim.tv_sec == 1200000000,
	      "times differ");
	ts[0].tv_nsec = UTIME_NOW;
	ts[1].tv_nsec = UTIME_NOW;
	(void)utimensat(AT_FDCWD, P("st1"), ts, 0);
	(void)lstat(P("st1"), &st);
	check("utimensat UTIME_NOW sets a current time",
	      st.st_mtim.tv_sec > 1600000000 && st.st_atim.tv_sec > 1600000000,
	      "times old");
	(void)utimensat(AT_FDCWD, P("st1"), NULL, 0);
	(void)lstat(P("st1"), &st);
	check("utimensat NULL sets a current time",
	      st.st_mtim.tv_sec > 1600000000, "time old");
	ts[0].tv_sec = ts[1].tv_sec = 1000000000;
	ts[0].tv_nsec = ts[1].tv_nsec = 0;
	(void)utimensat(AT_FDCWD, P("st1"), ts, 0);
	(void)lstat(P("st1"), &st2);
	fd = open(P("st1"), O_WRONLY);
	(void)!write(fd, "x", 1);
	close(fd);
	(void)lstat(P("st1"), &st);
	check("write updates mtime and ctime",
	      st.st_mtim.tv_sec > 1000000000 &&
		      (st.st_ctim.tv_sec > st2.st_ctim.tv_sec ||
		       (st.st_ctim.tv_sec == st2.st_ctim.tv_sec &&
			st.st_ctim.tv_nsec >= st2.st_ctim.tv_nsec)),
	      "times not updated");
	(void)utimensat(AT_FDCWD, P("st1"), ts, 0);
	(void)!truncate(P("st1"), 3);
	(void)lstat(P("st1"), &st);
	check("truncate updates mtime", st.st_mtim.tv_sec > 1000000000,
	      "mtime not updated");
	(void)utimensat(AT_FDCWD, P("sd"), ts, 0);
	(void)put_str(P("sd/newfile"), "");
	(void)lstat(P("sd"), &st);
	check("creating an entry updates the dir mtime",
	      st.st_mtim.tv_sec > 1000000000, "dir mtime not updated");
	(void)!symlink("some/target", P("sl"));
	(void)utimensat(AT_FDCWD, P("sl"), ts, AT_SYMLINK_NOFOLLOW);
	(void)lstat(P("sl"), &st);
	check("utimensat AT_SYMLINK_NOFOLLOW sets the link's times",
	      st.st_mtim.tv_sec == 1000000000, "times differ");
	expect("utimensat missing -> ENOENT",
	       utimensat(AT_FDCWD, P("nope"), NULL, 0), ENOENT);
	fd = open(P("st1"), O_RDONLY);
	(void)fstat(fd, &st);
	(void)lstat(P("st1"), &st2);
	check("fstat equals stat",
	      st.st_size == st2.st_size && st.st_ino == st2.st_ino &&
		      st.st_mode == st2.st_mode,
	      "differs");
	ts[1].tv_sec = 1300000000;
	expect("futimens", futimens(fd, ts), 0);
	(void)lstat(P("st1"), &st);
	check("futimens sets mtime", st.st_mtim.tv_sec == 1300000000,
	      "mtime differs");
	close(fd);
	expect("stat missing -> ENOENT", lstat(P("nope"), &st), ENOENT);
	expect("stat through a file -> ENOTDIR", lstat(P("st1/x"), &st),
	       ENOTDIR);
	expect("stat empty path -> ENOENT", stat("", &st), ENOENT);
}

static void t_chmod(void)
{
	int fd;

	(void)put_str(P("cm1"), "x");
	expect("chmod 0600", chmod(P("cm1"), 0600), 0);
	check("chmod 0600 result", (mode_of(P("cm1")) & 07777) == 0600,
	      "mode differs");
	(void)chmod(P("cm1"), 04755);
	check("chmod keeps setuid bit (root)",
	      (mode_of(P("cm1")) & 07777) == 04755, "mode differs");
	(void)chmod(P("cm1"), 0);
	check("chmod 0000", (mode_of(P("cm1")) & 07777) == 0, "mode differs");
	(void)mkdir(P("cmd"), 0755);
	(void)chmod(P("cmd"), 01777);
	check("chmod sticky dir", (mode_of(P("cmd")) & 07777) == 01777,
	      "mode differs");
	(void)chmod(P("cmd"), 02755);
	check("chmod setgid dir", (mode_of(P("cmd")) & 07777) == 02755,
	      "mode differs");
	expect("chmod missing -> ENOENT", chmod(P("nope"), 0644), ENOENT);
	fd = open(P("cm1"), O_RDONLY);
	expect("fchmod", fchmod(fd, 0640), 0);
	close(fd);
	check("fchmod result", (mode_of(P("cm1")) & 07777) == 0640,
	      "mode differs");
	(void)!symlink("cm1", P("cml"));
	(void)chmod(P("cml"), 0604);
	check("chmod through a symlink changes the target",
	      (mode_of(P("cm1")) & 07777) == 0604 && S_ISLNK(mode_of(P("cml"))),
	      "mode differs");
	expect("fchmodat AT_SYMLINK_NOFOLLOW on a symlink -> EOPNOTSUPP",
	       fchmodat(AT_FDCWD, P("cml"), 0600, AT_SYMLINK_NOFOLLOW),
	       EOPNOTSUPP);
	(void)mkfifo(P("cmf"), 0644);
	(void)chmod(P("cmf"), 0600);
	check("chmod a fifo", (mode_of(P("cmf")) & 07777) == 0600,
	      "mode differs");
}

static void t_chown(void)
{
	struct stat st;
	int fd;

	if (geteuid() != 0) {
		printf("SKIP: fs: chown cases (not root)\n");
		return;
	}
	(void)put_str(P("co1"), "x");
	expect("chown 1234:5678", chown(P("co1"), 1234, 5678), 0);
	(void)lstat(P("co1"), &st);
	check("chown result", st.st_uid == 1234 && st.st_gid == 5678,
	      "owner differs");
	(void)!chown(P("co1"), (uid_t)-1, 42);
	(void)lstat(P("co1"), &st);
	check("chown -1:42 changes only the group",
	      st.st_uid == 1234 && st.st_gid == 42, "owner differs");
	(void)!symlink("co1", P("col"));
	expect("lchown a symlink", lchown(P("col"), 777, 778), 0);
	(void)lstat(P("col"), &st);
	check("lchown changes the link", st.st_uid == 777 && st.st_gid == 778,
	      "owner differs");
	(void)lstat(P("co1"), &st);
	check("lchown leaves the target", st.st_uid == 1234, "target changed");
	fd = open(P("co1"), O_RDONLY);
	expect("fchown", fchown(fd, 0, 0), 0);
	close(fd);
	(void)lstat(P("co1"), &st);
	check("fchown result", st.st_uid == 0 && st.st_gid == 0,
	      "owner differs");
	(void)chmod(P("co1"), 06755);
	(void)!chown(P("co1"), 1, 1);
	check("chown clears setuid/setgid of an executable",
	      (mode_of(P("co1")) & 06000) == 0, "bits kept");
	(void)mkdir(P("cod"), 0755);
	expect("chown a dir", chown(P("cod"), 99, 98), 0);
	expect("chown missing -> ENOENT", chown(P("nope"), 1, 1), ENOENT);
}

/* ------------------------------------------------------------------
 * mkdir / rmdir / unlink
 */

static void t_dirs(void)
{
	expect("mkdir", mkdir(P("md1"), 0750), 0);
	check("mkdir mode 0750 and S_IFDIR",
	      (mode_of(P("md1")) & 07777) == 0750 && S_ISDIR(mode_of(P("md1"))),
	      "mode differs");
	expect("mkdir existing -> EEXIST", mkdir(P("md1"), 0755), EEXIST);
	(void)put_str(P("mdf"), "x");
	expect("mkdir over a file -> EEXIST", mkdir(P("mdf"), 0755), EEXIST);
	expect("mkdir in a missing parent -> ENOENT", mkdir(P("nope/x"), 0755),
	       ENOENT);
	expect("mkdir under a file -> ENOTDIR", mkdir(P("mdf/x"), 0755),
	       ENOTDIR);
	expect("mkdir mode 0000", mkdir(P("md0"), 0), 0);
	check("mkdir mode 0000 result", (mode_of(P("md0")) & 07777) == 0,
	      "mode differs");
	(void)mkdir(P("md1/a"), 0755);
	(void)mkdir(P("md1/a/b"), 0755);
	(void)put_str(P("md1/a/b/f"), "deep");
	check("nested dirs hold a file", content_is(P("md1/a/b/f"), "deep"),
	      "content differs");
	expect("rmdir non-empty -> ENOTEMPTY", rmdir(P("md1/a")), ENOTEMPTY);
	expect("rmdir missing -> ENOENT", rmdir(P("nope")), ENOENT);
	expect("rmdir a file -> ENOTDIR", rmdir(P("mdf")), ENOTDIR);
	expect("rmdir dot -> EINVAL", rmdir(P("md1/.")), EINVAL);
	expect("rmdir dotdot -> ENOTEMPTY", rmdir(P("md1/a/..")), ENOTEMPTY);
	(void)mkdir(P("mds"), 0755);
	(void)!symlink("mds", P("mdsl"));
	expect("rmdir a symlink to a dir -> ENOTDIR", rmdir(P("mdsl")),
	       ENOTDIR);
	expect("rmdir empty", rmdir(P("mds")), 0);
	check("rmdir: gone", !exists(P("mds")), "still there");
	expect("rmdir a mode-0000 dir (root)", rmdir(P("md0")), 0);
	(void)mkdir(P("mdr"), 0755);
	(void)chmod(P("mdr"), 0500);
	expect("rmdir a dir without w for its owner", rmdir(P("mdr")), 0);
	(void)unlink(P("md1/a/b/f"));
	(void)rmdir(P("md1/a/b"));
	expect("rmdir after emptying", rmdir(P("md1/a")), 0);
	expect("unlink a file", unlink(P("mdf")), 0);
	check("unlink: gone", !exists(P("mdf")), "still there");
	expect("unlink missing -> ENOENT", unlink(P("mdf")), ENOENT);
	expect("unlink a dir -> EISDIR", unlink(P("md1")), EISDIR);
	expect("unlink through a file -> ENOTDIR", unlink(P("st1/x")), ENOTDIR);
	(void)put_str(P("mdt"), "target");
	(void)!symlink("mdt", P("mdtl"));
	expect("unlink a symlink", unlink(P("mdtl")), 0);
	check("unlink a symlink leaves the target",
	      !exists(P("mdtl")) && content_is(P("mdt"), "target"), "wrong");
	{
		int fd = open(P("mdt"), O_RDONLY);
		struct stat st;
		char buf[16];
		ssize_t n;

		(void)unlink(P("mdt"));
		(void)fstat(fd, &st);
		n = pread(fd, buf, sizeof(buf), 0);
		check("an unlinked open file stays readable, nlink 0",
		      n == 6 && memcmp(buf, "target", 6) == 0 &&
			      st.st_nlink == 0,
		      "not readable");
		close(fd);
	}
	{
		int fd = open(P("mdu"), O_RDWR | O_CREAT, 0644);
		char buf[16];
		ssize_t n;

		(void)unlink(P("mdu"));
		(void)!write(fd, "after", 5);
		n = pread(fd, buf, sizeof(buf), 0);
		check("write to an unlinked open file",
		      n == 5 && memcmp(buf, "after", 5) == 0, "wrong");
		close(fd);
	}
	(void)mkfifo(P("mdfi"), 0644);
	expect("unlink a fifo", unlink(P("mdfi")), 0);
}

/* ------------------------------------------------------------------
 * rename
 */

static void t_rename(void)
{
	struct stat st;
	struct stat st2;

	(void)put_str(P("rn1"), "one");
	expect("rename a file", rename(P("rn1"), P("rn2")), 0);
	check("rename: old gone, new has the content",
	      !exists(P("rn1")) && content_is(P("rn2"), "one"), "wrong");
	(void)put_str(P("rn3"), "three");
	expect("rename over an existing file", rename(P("rn2"), P("rn3")), 0);
	check("rename over: target replaced",
	      !exists(P("rn2")) && content_is(P("rn3"), "one"), "wrong");
	expect("rename missing -> ENOENT", rename(P("nope"), P("x")), ENOENT);
	expect("rename into a missing dir -> ENOENT",
	       rename(P("rn3"), P("nope/x")), ENOENT);
	expect("rename to itself", rename(P("rn3"), P("rn3")), 0);
	check("rename to itself keeps it", content_is(P("rn3"), "one"), "gone");
	(void)mkdir(P("rd1"), 0755);
	(void)put_str(P("rd1/f"), "in dir");
	expect("rename a dir", rename(P("rd1"), P("rd2")), 0);
	check("renamed dir keeps its content",
	      content_is(P("rd2/f"), "in dir") && !exists(P("rd1")), "wrong");
	(void)mkdir(P("rd3"), 0755);
	expect("rename a dir over an empty dir", rename(P("rd2"), P("rd3")), 0);
	check("dir over empty dir: content moved",
	      content_is(P("rd3/f"), "in dir") && !exists(P("rd2")), "wrong");
	(void)mkdir(P("rd4"), 0755);
	(void)put_str(P("rd4/g"), "x");
	expect("rename a dir over a non-empty dir -> ENOTEMPTY",
	       rename(P("rd3"), P("rd4")), ENOTEMPTY);
	(void)mkdir(P("rd5"), 0755);
	expect("rename an empty dir over a non-empty dir -> ENOTEMPTY",
	       rename(P("rd5"), P("rd4")), ENOTEMPTY);
	expect("rename a dir onto a file -> ENOTDIR",
	       rename(P("rd5"), P("rn3")), ENOTDIR);
	expect("rename a file onto a dir -> EISDIR", rename(P("rn3"), P("rd5")),
	       EISDIR);
	expect("rename a dir into its own subdir -> EINVAL",
	       rename(P("rd4"), P("rd4/sub")), EINVAL);
	(void)mkdir(P("rd4/s1"), 0755);
	expect("rename a dir into its grandchild -> EINVAL",
	       rename(P("rd4"), P("rd4/s1/x")), EINVAL);
	expect("rename a file across dirs", rename(P("rn3"), P("rd4/s1/m")), 0);
	check("moved file readable", content_is(P("rd4/s1/m"), "one"), "wrong");
	expect("rename a dir across dirs", rename(P("rd5"), P("rd4/s1/d5")), 0);
	(void)put_str(P("rd4/s1/d5/z"), "z");
	check("moved dir usable", content_is(P("rd4/s1/d5/z"), "z"), "wrong");
	(void)put_str(P("rx1"), "a");
	(void)put_str(P("rx2"), "b");
	expect("RENAME_NOREPLACE onto existing -> EEXIST",
	       renameat2(AT_FDCWD, P("rx1"), AT_FDCWD, P("rx2"),
			 RENAME_NOREPLACE),
	       EEXIST);
	check("RENAME_NOREPLACE failure leaves both",
	      content_is(P("rx1"), "a") && content_is(P("rx2"), "b"), "wrong");
	expect("RENAME_NOREPLACE onto a new name",
	       renameat2(AT_FDCWD, P("rx1"), AT_FDCWD, P("rx3"),
			 RENAME_NOREPLACE),
	       0);
	expect("RENAME_EXCHANGE two files",
	       renameat2(AT_FDCWD, P("rx2"), AT_FDCWD, P("rx3"),
			 RENAME_EXCHANGE),
	       0);
	check("RENAME_EXCHANGE swapped the contents",
	      content_is(P("rx2"), "a") && content_is(P("rx3"), "b"), "wrong");
	(void)mkdir(P("rxd"), 0755);
	(void)put_str(P("rxd/in"), "i");
	expect("RENAME_EXCHANGE file and dir",
	       renameat2(AT_FDCWD, P("rx2"), AT_FDCWD, P("rxd"),
			 RENAME_EXCHANGE),
	       0);
	check("RENAME_EXCHANGE file/dir swapped",
	      content_is(P("rx2/in"), "i") && content_is(P("rxd"), "a"),
	      "wrong");
	expect("RENAME_EXCHANGE with a missing target -> ENOENT",
	       renameat2(AT_FDCWD, P("rx3"), AT_FDCWD, P("nope"),
			 RENAME_EXCHANGE),
	       ENOENT);
	expect("RENAME_EXCHANGE|NOREPLACE -> EINVAL",
	       renameat2(AT_FDCWD, P("rx3"), AT_FDCWD, P("rxd"),
			 RENAME_EXCHANGE | RENAME_NOREPLACE),
	       EINVAL);
	(void)mkdir(P("rxe"), 0755);
	(void)mkdir(P("rxe/sub"), 0755);
	(void)put_str(P("rxe/sub/q"), "q");
	expect("RENAME_EXCHANGE a file with a file in another dir",
	       renameat2(AT_FDCWD, P("rx3"), AT_FDCWD, P("rxe/sub/q"),
			 RENAME_EXCHANGE),
	       0);
	check("cross-dir exchange swapped",
	      content_is(P("rx3"), "q") && content_is(P("rxe/sub/q"), "b"),
	      "wrong");
	(void)put_str(P("rh1"), "hl");
	(void)!link(P("rh1"), P("rh2"));
	expect("rename a hard link onto its twin", rename(P("rh1"), P("rh2")),
	       0);
	check("rename of twin links is a no-op (both stay)",
	      exists(P("rh1")) && exists(P("rh2")), "one vanished");
	(void)lstat(P("rh2"), &st);
	(void)rename(P("rh2"), P("rh3"));
	(void)lstat(P("rh3"), &st2);
	check("rename keeps the inode number", st.st_ino == st2.st_ino,
	      "ino changed");
	(void)!symlink("rh1", P("rsl"));
	expect("rename a symlink", rename(P("rsl"), P("rsl2")), 0);
	{
		char t[64];
		ssize_t n = readlink(P("rsl2"), t, sizeof(t));

		check("renamed symlink keeps its target",
		      n == 3 && memcmp(t, "rh1", 3) == 0, "wrong");
	}
	{
		char longn[256];

		name_of_len(longn, 255, 'L');
		expect("rename to a 255-byte name",
		       rename(P("rx3"), P("%s", longn)), 0);
		check("255-byte name readable", content_is(P("%s", longn), "q"),
		      "wrong");
		expect("rename a 255-byte name back",
		       rename(P("%s", longn), P("rx3")), 0);
		check("old long name gone", !exists(P("%s", longn)), "still");
		name_of_len(longn, 200, 'M');
		(void)mkdir(P("%s", longn), 0755);
		(void)put_str(P("%s/in", longn), "ld");
		expect("rename a long-named dir",
		       rename(P("%s", longn), P("rld")), 0);
		check("long-named dir content after rename",
		      content_is(P("rld/in"), "ld"), "wrong");
	}
	expect("rename with an unknown flag -> EINVAL",
	       renameat2(AT_FDCWD, P("rx3"), AT_FDCWD, P("rx4"), 1U << 20),
	       EINVAL);
}

/* ------------------------------------------------------------------
 * link, symlink, readlink, mknod
 */

static void t_link(void)
{
	struct stat st;
	struct stat st2;

	(void)put_str(P("ln1"), "linked");
	expect("link", link(P("ln1"), P("ln2")), 0);
	(void)lstat(P("ln1"), &st);
	(void)lstat(P("ln2"), &st2);
	check("link: same ino, nlink 2",
	      st.st_ino == st2.st_ino && st.st_nlink == 2 && st2.st_nlink == 2,
	      "wrong");
	check("link: same content", content_is(P("ln2"), "linked"), "wrong");
	{
		int fd = open(P("ln2"), O_WRONLY | O_APPEND);

		(void)!write(fd, "+", 1);
		close(fd);
	}
	check("write through one link is seen through the other",
	      content_is(P("ln1"), "linked+"), "wrong");
	expect("link onto an existing name -> EEXIST", link(P("ln1"), P("ln2")),
	       EEXIST);
	(void)mkdir(P("lnd"), 0755);
	expect("link a directory -> EPERM", link(P("lnd"), P("lnd2")), EPERM);
	expect("link missing -> ENOENT", link(P("nope"), P("ln3")), ENOENT);
	expect("link into another dir", link(P("ln1"), P("lnd/ln3")), 0);
	(void)lstat(P("ln1"), &st);
	check("nlink 3", st.st_nlink == 3, "not 3");
	(void)unlink(P("ln1"));
	(void)lstat(P("ln2"), &st);
	check("unlink one link: nlink 2, data kept",
	      st.st_nlink == 2 && content_is(P("ln2"), "linked+"), "wrong");
	(void)!truncate(P("lnd/ln3"), 2);
	check("truncate through a link", content_is(P("ln2"), "li"), "wrong");
	(void)!symlink("ln2", P("lns"));
	expect("linkat a symlink without FOLLOW",
	       linkat(AT_FDCWD, P("lns"), AT_FDCWD, P("lns2"), 0), 0);
	check("the new link is a symlink", S_ISLNK(mode_of(P("lns2"))),
	      "not a symlink");
	expect("linkat AT_SYMLINK_FOLLOW links the target",
	       linkat(AT_FDCWD, P("lns"), AT_FDCWD, P("lnf"),
		      AT_SYMLINK_FOLLOW),
	       0);
	check("followed link is the file",
	      S_ISREG(mode_of(P("lnf"))) && content_is(P("lnf"), "li"),
	      "wrong");
}

static void t_symlink(void)
{
	char t[4200];
	char longt[3001];
	struct stat st;
	ssize_t n;
	int fd;

	expect("symlink", symlink("a/b/../c", P("sy1")), 0);
	n = readlink(P("sy1"), t, sizeof(t));
	check("readlink returns the target",
	      n == 8 && memcmp(t, "a/b/../c", 8) == 0, "wrong");
	(void)lstat(P("sy1"), &st);
	check("lstat of a symlink: S_IFLNK, size = target length",
	      S_ISLNK(st.st_mode) && st.st_size == 8, "wrong");
	expect("symlink onto an existing name -> EEXIST",
	       symlink("x", P("sy1")), EEXIST);
	expect("stat of a dangling symlink -> ENOENT", stat(P("sy1"), &st),
	       ENOENT);
	expect("lstat of a dangling symlink", lstat(P("sy1"), &st), 0);
	expect("readlink a file -> EINVAL", readlink(P("ln2"), t, sizeof(t)),
	       EINVAL);
	expect("readlink missing -> ENOENT", readlink(P("nope"), t, sizeof(t)),
	       ENOENT);
	n = readlink(P("sy1"), t, 3);
	check("readlink into a small buffer truncates",
	      n == 3 && memcmp(t, "a/b", 3) == 0, "wrong");
	memset(longt, 'T', 3000);
	for (int i = 100; i < 3000; i += 100)
		longt[i] = '/';
	longt[3000] = '\0';
	expect("symlink with a 3000-byte target", symlink(longt, P("sy2")), 0);
	n = readlink(P("sy2"), t, sizeof(t));
	check("readlink of the 3000-byte target",
	      n == 3000 && memcmp(t, longt, 3000) == 0, "wrong");
	check("lstat size of the 3000-byte target", size_of(P("sy2")) == 3000,
	      "wrong");
	memset(longt, 'u', 255);
	longt[255] = '\0';
	expect("symlink with a 255-byte one-component target",
	       symlink(longt, P("sy3")), 0);
	(void)put_str(P("sytarget"), "via link");
	(void)!symlink("sytarget", P("sy4"));
	check("open through a symlink reads the target",
	      content_is(P("sy4"), "via link"), "wrong");
	(void)mkdir(P("syd"), 0755);
	(void)put_str(P("syd/f"), "df");
	(void)!symlink("syd", P("sy5"));
	check("path through a dir symlink", content_is(P("sy5/f"), "df"),
	      "wrong");
	(void)!symlink("../sytarget", P("syd/up"));
	check("relative .. symlink", content_is(P("syd/up"), "via link"),
	      "wrong");
	(void)!symlink(P("sytarget"), P("syabs"));
	check("absolute symlink", content_is(P("syabs"), "via link"), "wrong");
	(void)!symlink("syloop", P("syloop"));
	expect("open a self-loop symlink -> ELOOP", open(P("syloop"), O_RDONLY),
	       ELOOP);
	fd = open(P("syd"), O_RDONLY | O_DIRECTORY);
	expect("symlinkat relative to a dir fd", symlinkat("f", fd, "rel"), 0);
	n = readlinkat(fd, "rel", t, sizeof(t));
	check("readlinkat", n == 1 && t[0] == 'f', "wrong");
	close(fd);
	expect("symlink in a missing dir -> ENOENT", symlink("x", P("nope/s")),
	       ENOENT);
	{
		char odd[] = "with space\ttab\nnewline \xc3\xa9";

		expect("symlink target with odd bytes", symlink(odd, P("sy6")),
		       0);
		n = readlink(P("sy6"), t, sizeof(t));
		check("odd target round-trips",
		      n == (ssize_t)strlen(odd) &&
			      memcmp(t, odd, (size_t)n) == 0,
		      "wrong");
	}
}

static void t_mknod(void)
{
	struct stat st;

	expect("mkfifo", mkfifo(P("mk1"), 0640), 0);
	check("fifo type and mode",
	      S_ISFIFO(mode_of(P("mk1"))) && (mode_of(P("mk1")) & 0777) == 0640,
	      "wrong");
	expect("mkfifo existing -> EEXIST", mkfifo(P("mk1"), 0640), EEXIST);
	expect("mknod S_IFSOCK", mknod(P("mk2"), S_IFSOCK | 0600, 0), 0);
	check("socket type", S_ISSOCK(mode_of(P("mk2"))), "wrong");
	expect("mknod S_IFREG", mknod(P("mk3"), S_IFREG | 0600, 0), 0);
	check("mknod S_IFREG makes an empty file",
	      S_ISREG(mode_of(P("mk3"))) && size_of(P("mk3")) == 0, "wrong");
	if (geteuid() == 0) {
		expect("mknod a char device (root)",
		       mknod(P("mk4"), S_IFCHR | 0600, makedev(1, 3)), 0);
		(void)lstat(P("mk4"), &st);
		check("char device rdev kept",
		      S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 3),
		      "wrong");
	}
	{
		int s = socket(AF_UNIX, SOCK_STREAM, 0);
		struct sockaddr_un sa;
		const char *p = P("mksock");

		memset(&sa, 0, sizeof(sa));
		sa.sun_family = AF_UNIX;
		if (strlen(p) < sizeof(sa.sun_path)) {
			memcpy(sa.sun_path, p, strlen(p));
			expect("bind a unix socket",
			       bind(s, (struct sockaddr *)&sa, sizeof(sa)), 0);
			check("bound socket is S_IFSOCK", S_ISSOCK(mode_of(p)),
			      "wrong");
		}
		close(s);
	}
	{
		int fd = open(P("mk1"), O_RDWR | O_NONBLOCK);
		char buf[8] = { 0 };
		ssize_t n = -1;

		if (fd >= 0) {
			(void)!write(fd, "pipe", 4);
			n = read(fd, buf, sizeof(buf));
			close(fd);
		}
		check("fifo carries data",
		      n == 4 && memcmp(buf, "pipe", 4) == 0, "wrong");
	}
}

/* ------------------------------------------------------------------
 * Name lengths
 */

static void t_names(void)
{
	char n255[256];
	char n256[257];
	char *longpath;
	struct stat st;
	int fd;

	name_of_len(n255, 255, 'n');
	name_of_len(n256, 256, 'n');
	fd = open(P("%s", n255), O_WRONLY | O_CREAT, 0644);
	expect("create a 255-byte name", fd, 0);
	if (fd >= 0) {
		(void)!write(fd, "255", 3);
		close(fd);
	}
	check("read a 255-byte name", content_is(P("%s", n255), "255"),
	      "wrong");
	expect("create a 256-byte name -> ENAMETOOLONG",
	       open(P("%s", n256), O_WRONLY | O_CREAT, 0644), ENAMETOOLONG);
	expect("stat a 256-byte name -> ENAMETOOLONG",
	       lstat(P("%s", n256), &st), ENAMETOOLONG);
	expect("mkdir a 256-byte name -> ENAMETOOLONG",
	       mkdir(P("%s", n256), 0755), ENAMETOOLONG);
	expect("symlink a 256-byte name -> ENAMETOOLONG",
	       symlink("x", P("%s", n256)), ENAMETOOLONG);
	expect("rename to a 256-byte name -> ENAMETOOLONG",
	       rename(P("%s", n255), P("%s", n256)), ENAMETOOLONG);
	expect("link to a 256-byte name -> ENAMETOOLONG",
	       link(P("%s", n255), P("%s", n256)), ENAMETOOLONG);
	expect("mkdir a 255-byte name", mkdir(P("d%s", n255 + 1), 0755), 0);
	expect("unlink a 255-byte name", unlink(P("%s", n255)), 0);
	expect("rmdir a 255-byte name", rmdir(P("d%s", n255 + 1)), 0);
	longpath = malloc(PATH_MAX + 300);
	if (longpath != NULL) {
		size_t len = (size_t)snprintf(longpath, 300, "%s/", base);

		while (len < PATH_MAX + 100) {
			memcpy(longpath + len, "abcdefghij/", 11);
			len += 11;
		}
		longpath[len] = '\0';
		expect("path longer than PATH_MAX -> ENAMETOOLONG",
		       lstat(longpath, &st), ENAMETOOLONG);
		free(longpath);
	}
	{
		/* deep path below PATH_MAX made of 100-byte components */
		char comp[101];
		char rel[4096];
		size_t len = 0;
		int ok = 1;
		int dfd = open(base, O_RDONLY | O_DIRECTORY);

		name_of_len(comp, 100, 'p');
		rel[0] = '\0';
		for (int i = 0; i < 30 && ok; i++) {
			if (len + 102 >= sizeof(rel) - strlen(base) - 20)
				break;
			len += (size_t)snprintf(rel + len, sizeof(rel) - len,
						"%s%s", i ? "/" : "", comp);
			ok = mkdirat(dfd, rel, 0755) == 0;
		}
		check("deep path of 100-byte components", ok, "mkdir failed");
		(void)snprintf(rel + len, sizeof(rel) - len, "/f");
		fd = openat(dfd, rel, O_WRONLY | O_CREAT, 0644);
		expect("create at the bottom of the deep path", fd, 0);
		if (fd >= 0)
			close(fd);
		close(dfd);
	}
	{
		char odd[] =
			"na\xc3\xafve name with spaces, \x01 and \xff bytes";

		(void)put_str(P("%s", odd), "odd");
		check("name with spaces, UTF-8 and control bytes",
		      content_is(P("%s", odd), "odd"), "wrong");
	}
	expect("a name 'gocryptfs.conf' is allowed in a subdir",
	       put_str(P("od/gocryptfs.conf"), "c"), 0);
	expect("a name 'gocryptfs.diriv' in a subdir",
	       put_str(P("od/gocryptfs.diriv"), "d"), 0);
	check("...and reads back its own content",
	      content_is(P("od/gocryptfs.diriv"), "d"), "wrong");
}

/* ------------------------------------------------------------------
 * readdir
 */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void t_readdir(void)
{
	DIR *d;
	struct dirent *de;
	char *names[400];
	int nn = 0;
	int dots = 0;
	int types_ok = 1;
	int hidden = 0;
	int ino_ok = 1;
	int want = 0;

	(void)mkdir(P("rdd"), 0755);
	for (int i = 0; i < 300; i++) {
		char nm[200];

		if (i % 50 == 0)
			(void)snprintf(nm, sizeof(nm), "rdd/long-%0160d", i);
		else
			(void)snprintf(nm, sizeof(nm), "rdd/f%03d", i);
		(void)put_str(P("%s", nm), "");
		want++;
	}
	(void)mkdir(P("rdd/sub"), 0755);
	(void)!symlink("x", P("rdd/lnk"));
	(void)mkfifo(P("rdd/fifo"), 0644);
	want += 3;
	d = opendir(P("rdd"));
	while (d != NULL && (de = readdir(d)) != NULL) {
		struct stat st;
		unsigned char wt = DT_REG;

		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0) {
			dots++;
			continue;
		}
		if (strncmp(de->d_name, "gocryptfs.", 10) == 0)
			hidden++;
		if (nn < 400)
			names[nn++] = strdup(de->d_name);
		if (strcmp(de->d_name, "sub") == 0)
			wt = DT_DIR;
		else if (strcmp(de->d_name, "lnk") == 0)
			wt = DT_LNK;
		else if (strcmp(de->d_name, "fifo") == 0)
			wt = DT_FIFO;
		if (de->d_type != wt && de->d_type != DT_UNKNOWN)
			types_ok = 0;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) !=
			    0 ||
		    st.st_ino != de->d_ino)
			ino_ok = 0;
	}
	if (d != NULL)
		closedir(d);
	check("readdir lists every entry", nn == want, "count differs");
	check("readdir has . and ..", dots == 2, "missing");
	check("readdir shows no gocryptfs.* files", hidden == 0, "shown");
	check("readdir d_type matches", types_ok, "wrong type");
	check("readdir d_ino equals st_ino", ino_ok, "ino differs");
	qsort(names, (size_t)nn, sizeof(names[0]), cmp_str);
	{
		int ok = nn > 0 && strcmp(names[0], "f001") == 0;

		for (int i = 1; i < nn; i++)
			if (strcmp(names[i - 1], names[i]) == 0)
				ok = 0;
		check("readdir names exact, no duplicates", ok, "wrong names");
	}
	for (int i = 0; i < nn; i++)
		free(names[i]);
	(void)mkdir(P("rde"), 0755);
	nn = 0;
	d = opendir(P("rde"));
	while (d != NULL && readdir(d) != NULL)
		nn++;
	if (d != NULL)
		closedir(d);
	check("empty dir lists only . and ..", nn == 2, "wrong");
	(void)unlink(P("rdd/f001"));
	{
		int seen = 0;
		long pos = -1;
		char at[256] = "";
		int resumed = 0;
		int count = 0;

		d = opendir(P("rdd"));
		while (d != NULL && (de = readdir(d)) != NULL) {
			if (strcmp(de->d_name, "f001") == 0)
				seen = 1;
			if (++count == 100) {
				pos = telldir(d);
				de = readdir(d);
				if (de != NULL)
					(void)snprintf(at, sizeof(at), "%s",
						       de->d_name);
			}
		}
		check("readdir after unlink hides the entry", !seen, "seen");
		if (d != NULL && pos >= 0) {
			seekdir(d, pos);
			de = readdir(d);
			resumed = de != NULL && strcmp(de->d_name, at) == 0;
		}
		check("seekdir/telldir resumes at the same entry", resumed,
		      "wrong entry");
		if (d != NULL)
			closedir(d);
	}
	{
		DIR *m = opendir(P("nope"));

		expect("opendir missing -> ENOENT", m == NULL ? -1 : 0, ENOENT);
		if (m != NULL)
			closedir(m);
	}
	{
		DIR *f = opendir(P("ln2"));

		expect("opendir a file -> ENOTDIR", f == NULL ? -1 : 0,
		       ENOTDIR);
		if (f != NULL)
			closedir(f);
	}
}

/* ------------------------------------------------------------------
 * xattrs
 */

static void t_xattr(void)
{
	char buf[2048];
	unsigned char bin[1000];
	ssize_t n;
	int fd;

	(void)put_str(P("xa"), "x");
	expect("setxattr user.a", setxattr(P("xa"), "user.a", "va", 2, 0), 0);
	n = getxattr(P("xa"), "user.a", buf, sizeof(buf));
	check("getxattr user.a", n == 2 && memcmp(buf, "va", 2) == 0, "wrong");
	expect("getxattr missing -> ENODATA",
	       getxattr(P("xa"), "user.zz", buf, sizeof(buf)), ENODATA);
	expect("XATTR_CREATE existing -> EEXIST",
	       setxattr(P("xa"), "user.a", "v2", 2, XATTR_CREATE), EEXIST);
	expect("XATTR_REPLACE missing -> ENODATA",
	       setxattr(P("xa"), "user.b", "v2", 2, XATTR_REPLACE), ENODATA);
	expect("XATTR_REPLACE existing",
	       setxattr(P("xa"), "user.a", "new", 3, XATTR_REPLACE), 0);
	n = getxattr(P("xa"), "user.a", buf, sizeof(buf));
	check("replaced value", n == 3 && memcmp(buf, "new", 3) == 0, "wrong");
	expect("XATTR_CREATE new",
	       setxattr(P("xa"), "user.b", "bb", 2, XATTR_CREATE), 0);
	n = getxattr(P("xa"), "user.a", NULL, 0);
	check("getxattr size probe", n == 3, "wrong");
	expect("getxattr small buffer -> ERANGE",
	       getxattr(P("xa"), "user.a", buf, 1), ERANGE);
	n = listxattr(P("xa"), buf, sizeof(buf));
	{
		int a = 0;
		int b = 0;

		for (ssize_t i = 0; n > 0 && i < n;
		     i += (ssize_t)strlen(buf + i) + 1) {
			if (strcmp(buf + i, "user.a") == 0)
				a = 1;
			if (strcmp(buf + i, "user.b") == 0)
				b = 1;
		}
		check("listxattr has user.a and user.b", a && b, "missing");
	}
	check("listxattr size probe",
	      listxattr(P("xa"), NULL, 0) == n && n >= 14, "wrong");
	expect("listxattr small buffer -> ERANGE", listxattr(P("xa"), buf, 3),
	       ERANGE);
	expect("removexattr", removexattr(P("xa"), "user.b"), 0);
	expect("getxattr after remove -> ENODATA",
	       getxattr(P("xa"), "user.b", buf, sizeof(buf)), ENODATA);
	expect("removexattr missing -> ENODATA", removexattr(P("xa"), "user.b"),
	       ENODATA);
	expect("setxattr empty value", setxattr(P("xa"), "user.e", "", 0, 0),
	       0);
	n = getxattr(P("xa"), "user.e", buf, sizeof(buf));
	check("empty value reads back empty", n == 0, "wrong");
	fill(bin, sizeof(bin), 9);
	(void)setxattr(P("xa"), "user.bin", bin, sizeof(bin), 0);
	n = getxattr(P("xa"), "user.bin", buf, sizeof(buf));
	check("1000-byte binary value",
	      n == 1000 && memcmp(buf, bin, 1000) == 0, "wrong");
	{
		char nm[256];

		/* 175 bytes: the longest name the gocryptfs format can
		 * store (FORMAT.md 7); longer ones differ by design. */
		(void)snprintf(nm, sizeof(nm), "user.%0170d", 7);
		expect("setxattr with a 175-byte name",
		       setxattr(P("xa"), nm, "L", 1, 0), 0);
		n = getxattr(P("xa"), nm, buf, sizeof(buf));
		check("long xattr name reads back", n == 1 && buf[0] == 'L',
		      "wrong");
	}
	(void)mkdir(P("xd"), 0755);
	expect("setxattr on a dir", setxattr(P("xd"), "user.d", "d", 1, 0), 0);
	n = getxattr(P("xd"), "user.d", buf, sizeof(buf));
	check("getxattr on a dir", n == 1 && buf[0] == 'd', "wrong");
	(void)!symlink("xa", P("xl"));
	expect("lsetxattr user.* on a symlink -> EPERM",
	       lsetxattr(P("xl"), "user.l", "l", 1, 0), EPERM);
	n = getxattr(P("xl"), "user.a", buf, sizeof(buf));
	check("getxattr follows a symlink", n == 3, "wrong");
	fd = open(P("xa"), O_RDONLY);
	expect("fsetxattr", fsetxattr(fd, "user.f", "fd", 2, 0), 0);
	n = fgetxattr(fd, "user.f", buf, sizeof(buf));
	check("fgetxattr", n == 2 && memcmp(buf, "fd", 2) == 0, "wrong");
	close(fd);
	expect("getxattr on a missing file -> ENOENT",
	       getxattr(P("nope"), "user.a", buf, sizeof(buf)), ENOENT);
	(void)rename(P("xa"), P("xa2"));
	n = getxattr(P("xa2"), "user.a", buf, sizeof(buf));
	check("xattrs survive a rename", n == 3 && memcmp(buf, "new", 3) == 0,
	      "wrong");
}

/* ------------------------------------------------------------------
 * access, statfs, fsync
 */

static void t_misc(void)
{
	struct statvfs sv;
	int fd;

	(void)put_str(P("ac"), "x");
	(void)chmod(P("ac"), 0644);
	expect("access F_OK", access(P("ac"), F_OK), 0);
	expect("access missing -> ENOENT", access(P("nope"), F_OK), ENOENT);
	expect("access R_OK|W_OK (root)", access(P("ac"), R_OK | W_OK), 0);
	if (geteuid() == 0)
		expect("access X_OK without any x bit (root) -> EACCES",
		       access(P("ac"), X_OK), EACCES);
	(void)chmod(P("ac"), 0744);
	expect("access X_OK with u+x", access(P("ac"), X_OK), 0);
	(void)chmod(P("ac"), 0);
	expect("access R_OK on mode 0000 (root)", access(P("ac"), R_OK), 0);
	expect("faccessat AT_EACCESS",
	       faccessat(AT_FDCWD, P("ac"), F_OK, AT_EACCESS), 0);
	expect("access through a dangling symlink -> ENOENT",
	       access(P("sy1"), F_OK), ENOENT);
	expect("statvfs", statvfs(base, &sv), 0);
	check("statvfs: f_bsize, f_blocks, f_namemax",
	      sv.f_bsize > 0 && sv.f_blocks > 0 && sv.f_namemax >= 255,
	      "wrong");
	fd = open(P("ln2"), O_RDWR);
	expect("fstatvfs", fstatvfs(fd, &sv), 0);
	(void)!write(fd, "sync", 4);
	expect("fsync", fsync(fd), 0);
	expect("fdatasync", fdatasync(fd), 0);
	close(fd);
	fd = open(base, O_RDONLY | O_DIRECTORY);
	expect("fsync a directory", fsync(fd), 0);
	expect("fdatasync a directory", fdatasync(fd), 0);
	close(fd);
	fd = open(P("ln2"), O_RDONLY);
	expect("fsync an O_RDONLY fd", fsync(fd), 0);
	close(fd);
	expect("statvfs missing -> ENOENT", statvfs(P("nope"), &sv), ENOENT);
}

static void t_exdev(const char *other)
{
	char o[PATH_MAX];

	(void)put_str(P("xd1"), "cross");
	(void)snprintf(o, sizeof(o), "%s/fsposix-exdev-%d", other,
		       (int)getpid());
	expect("rename across two filesystems -> EXDEV", rename(P("xd1"), o),
	       EXDEV);
	expect("link across two filesystems -> EXDEV", link(P("xd1"), o),
	       EXDEV);
	check("the source stays after EXDEV", content_is(P("xd1"), "cross"),
	      "gone");
	(void)unlink(o);
}

/* ------------------------------------------------------------------
 * Non-root cases (-allow_other)
 */

/* nobody:nogroup with one supplementary group, GRP_GID */
#define GRP_GID 4243U

static int drop_to_nobody(void)
{
	const gid_t grp = GRP_GID;

	if (setgroups(1, &grp) != 0 ||
	    setresgid(NOBODY_GID, NOBODY_GID, NOBODY_GID) != 0 ||
	    setresuid(NOBODY_UID, NOBODY_UID, NOBODY_UID) != 0)
		return -1;
	return 0;
}

static void nonroot_child(void)
{
	struct timespec ts[2] = { { 1000, 0 }, { 1000, 0 } };
	char longn[201];
	char buf[64];
	int fd;

	expect("nobody: open root's 0600 file for reading -> EACCES",
	       open(P("secret"), O_RDONLY), EACCES);
	expect("nobody: open root's 0600 file for writing -> EACCES",
	       open(P("secret"), O_WRONLY), EACCES);
	expect("nobody: access R_OK on root's 0600 file -> EACCES",
	       access(P("secret"), R_OK), EACCES);
	expect("nobody: stat root's 0600 file is allowed",
	       lstat(P("secret"), &(struct stat){ 0 }), 0);
	expect("nobody: truncate root's file -> EACCES",
	       truncate(P("secret"), 0), EACCES);
	expect("nobody: chmod root's file -> EPERM", chmod(P("secret"), 0666),
	       EPERM);
	expect("nobody: chown root's file -> EPERM",
	       chown(P("secret"), NOBODY_UID, NOBODY_GID), EPERM);
	expect("nobody: utimensat(NULL) on root's 0600 file -> EACCES",
	       utimensat(AT_FDCWD, P("secret"), NULL, 0), EACCES);
	expect("nobody: utimensat explicit on root's file -> EPERM",
	       utimensat(AT_FDCWD, P("secret"), ts, 0), EPERM);
	expect("nobody: setxattr on root's 0600 file -> EACCES",
	       setxattr(P("secret"), "user.n", "n", 1, 0), EACCES);
	expect("nobody: getxattr on root's 0600 file -> EACCES",
	       getxattr(P("secret"), "user.r", buf, sizeof(buf)), EACCES);
	expect("nobody: stat in a dir without x -> EACCES",
	       lstat(P("nox/inner"), &(struct stat){ 0 }), EACCES);
	expect("nobody: open in a dir without x -> EACCES",
	       open(P("nox/inner"), O_RDONLY), EACCES);
	expect("nobody: create in root's 0755 dir -> EACCES",
	       open(P("rootdir/new"), O_WRONLY | O_CREAT, 0644), EACCES);
	expect("nobody: mkdir in root's 0755 dir -> EACCES",
	       mkdir(P("rootdir/nd"), 0755), EACCES);
	expect("nobody: unlink in root's 0755 dir -> EACCES",
	       unlink(P("rootdir/f")), EACCES);
	expect("nobody: rename out of root's dir -> EACCES",
	       rename(P("rootdir/f"), P("pub/f")), EACCES);
	expect("nobody: unlink root's file in a sticky dir -> EPERM",
	       unlink(P("sticky/rootf")), EPERM);
	expect("nobody: link to root's 0600 file -> EPERM "
	       "(protected_hardlinks)",
	       link(P("secret"), P("pub/hl")), EPERM);
	expect("nobody: read a 0644 root file",
	       content_is(P("pub/readable"), "public") ? 0 : -1, 0);
	fd = open(P("pub/mine"), O_WRONLY | O_CREAT | O_EXCL, 0644);
	expect("nobody: create in a 0777 dir", fd, 0);
	if (fd >= 0) {
		(void)!write(fd, "mine", 4);
		close(fd);
	}
	expect("nobody: mkdir in a 0777 dir", mkdir(P("pub/mydir"), 0755), 0);
	expect("nobody: symlink in a 0777 dir",
	       symlink("mine", P("pub/mylink")), 0);
	expect("nobody: mkfifo in a 0777 dir", mkfifo(P("pub/myfifo"), 0644),
	       0);
	expect("nobody: create in own subdir",
	       put_str(P("pub/mydir/inner"), "in"), 0);
	expect("nobody: chmod own file", chmod(P("pub/mine"), 0600), 0);
	expect("nobody: utimensat own file",
	       utimensat(AT_FDCWD, P("pub/mine"), ts, 0), 0);
	expect("nobody: setxattr own file",
	       setxattr(P("pub/mine"), "user.me", "1", 1, 0), 0);
	expect("nobody: rename own file", rename(P("pub/mine"), P("pub/mine2")),
	       0);
	expect("nobody: link own file", link(P("pub/mine2"), P("pub/mine3")),
	       0);
	/* u+r for write-only files: RMW on a 0200 file */
	fd = open(P("pub/wo"), O_WRONLY | O_CREAT | O_EXCL, 0200);
	if (fd >= 0) {
		(void)!write(fd, "hello world", 11);
		close(fd);
	}
	fd = open(P("pub/wo"), O_WRONLY);
	expect("nobody: open own 0200 file write-only", fd, 0);
	if (fd >= 0) {
		expect("nobody: partial overwrite of a 0200 file (RMW)",
		       pwrite(fd, "X", 1, 3), 0);
		close(fd);
	}
	expect("nobody: read own 0200 file -> EACCES",
	       open(P("pub/wo"), O_RDONLY), EACCES);
	(void)chmod(P("pub/wo"), 0600);
	check("nobody: 0200 file content after RMW",
	      content_is(P("pub/wo"), "helXo world"), "wrong");
	/* rmdir of own dirs without w/x for the owner */
	(void)mkdir(P("pub/rd0"), 0755);
	(void)chmod(P("pub/rd0"), 0);
	expect("nobody: rmdir own mode-0000 dir", rmdir(P("pub/rd0")), 0);
	(void)mkdir(P("pub/rd5"), 0755);
	(void)chmod(P("pub/rd5"), 0500);
	expect("nobody: rmdir own mode-0500 dir", rmdir(P("pub/rd5")), 0);
	(void)mkdir(P("pub/rdn"), 0755);
	(void)put_str(P("pub/rdn/x"), "x");
	(void)chmod(P("pub/rdn"), 0500);
	expect("nobody: unlink in own 0500 dir -> EACCES",
	       unlink(P("pub/rdn/x")), EACCES);
	(void)chmod(P("pub/rdn"), 0700);
	expect("nobody: unlink after chmod u+w", unlink(P("pub/rdn/x")), 0);
	expect("nobody: rmdir own emptied dir", rmdir(P("pub/rdn")), 0);
	expect("nobody: unlink own file", unlink(P("pub/mine3")), 0);
	/* 200-byte names: long names (a hashed name and a .name file) */
	name_of_len(longn, 200, 'w');
	expect("nobody: create a 200-byte name",
	       put_str(P("pub/%s", longn), "long"), 0);
	longn[0] = 'd';
	expect("nobody: mkdir a 200-byte name", mkdir(P("pub/%s", longn), 0700),
	       0);
	expect("nobody: rename a 200-byte-named dir",
	       rename(P("pub/%s", longn), P("pub/longdir")), 0);
	/* a directory writable through the supplementary group only */
	fd = open(P("grp/f"), O_WRONLY | O_CREAT | O_EXCL, 0644);
	expect("nobody: create in a dir writable by a supplementary group", fd,
	       0);
	if (fd >= 0)
		close(fd);
	expect("nobody: mkdir in a dir writable by a supplementary group",
	       mkdir(P("grp/d"), 0755), 0);
	expect("nobody: symlink in a dir writable by a supplementary group",
	       symlink("f", P("grp/l")), 0);
	/* setgid directory: new entries take the directory's group */
	fd = open(P("sgid/new"), O_WRONLY | O_CREAT, 0644);
	expect("nobody: create in a setgid 0777 dir", fd, 0);
	if (fd >= 0)
		close(fd);
}

static void owned_by_nobody(const char *what, const char *path)
{
	struct stat st;
	char name[128];

	(void)snprintf(name, sizeof(name),
		       "%s made by nobody is owned by nobody", what);
	check(name,
	      lstat(path, &st) == 0 && st.st_uid == NOBODY_UID &&
		      st.st_gid == NOBODY_GID,
	      "owner differs");
}

static int run_nonroot(void)
{
	pid_t pid;
	int st = 0;
	struct stat sb;

	if (geteuid() != 0) {
		printf("SKIP: fs: non-root cases (must start as root)\n");
		return 0;
	}
	if (mkdir(P("nox"), 0755) != 0 || put_str(P("nox/inner"), "i") != 0 ||
	    chmod(P("nox"), 0766) != 0 || put_str(P("secret"), "s") != 0 ||
	    chmod(P("secret"), 0600) != 0 ||
	    setxattr(P("secret"), "user.r", "r", 1, 0) != 0 ||
	    mkdir(P("rootdir"), 0755) != 0 || put_str(P("rootdir/f"), "f") ||
	    mkdir(P("pub"), 0777) != 0 || chmod(P("pub"), 0777) != 0 ||
	    put_str(P("pub/readable"), "public") != 0 ||
	    mkdir(P("sticky"), 0777) != 0 || chmod(P("sticky"), 01777) != 0 ||
	    put_str(P("sticky/rootf"), "r") != 0 ||
	    mkdir(P("grp"), 0770) != 0 || chown(P("grp"), 0, GRP_GID) != 0 ||
	    chmod(P("grp"), 0770) != 0 || mkdir(P("sgid"), 0777) != 0 ||
	    chown(P("sgid"), 0, 4242) != 0 || chmod(P("sgid"), 02777) != 0) {
		perror("fsposix: non-root setup");
		return 2;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0) {
		if (drop_to_nobody() != 0) {
			printf("FAIL: fs: nobody: cannot drop privileges\n");
			_exit(0);
		}
		nonroot_child();
		fflush(stdout);
		_exit(0);
	}
	(void)waitpid(pid, &st, 0);
	owned_by_nobody("file", P("pub/mine2"));
	owned_by_nobody("dir", P("pub/mydir"));
	owned_by_nobody("symlink", P("pub/mylink"));
	owned_by_nobody("fifo", P("pub/myfifo"));
	owned_by_nobody("file in own dir", P("pub/mydir/inner"));
	owned_by_nobody("file in a group dir", P("grp/f"));
	{
		char longn[201];

		name_of_len(longn, 200, 'w');
		owned_by_nobody("file with a 200-byte name",
				P("pub/%s", longn));
	}
	owned_by_nobody("renamed long-named dir", P("pub/longdir"));
	owned_by_nobody("dir in a group dir", P("grp/d"));
	check("new dir by nobody keeps mode 0755",
	      (mode_of(P("pub/mydir")) & 07777) == 0755, "mode differs");
	check("new file in a setgid dir gets the dir's group",
	      lstat(P("sgid/new"), &sb) == 0 && sb.st_uid == NOBODY_UID &&
		      sb.st_gid == 4242,
	      "owner differs");
	check("root's files untouched by nobody",
	      content_is(P("secret"), "s") && content_is(P("rootdir/f"), "f") &&
		      content_is(P("sticky/rootf"), "r"),
	      "changed");
	return 0;
}

/* ------------------------------------------------------------------
 * main
 */

static int usage(void)
{
	fprintf(stderr, "usage: fsposix [-n | -u] [-x OTHERDIR] DIR\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *other = NULL;
	int nonroot = 0;
	int opt;

	while ((opt = getopt(argc, argv, "nux:")) != -1) {
		if (opt == 'n')
			nonroot = 1;
		else if (opt == 'u' && drop_to_nobody() != 0)
			return 2;
		else if (opt == 'x')
			other = optarg;
		else
			return usage();
	}
	if (optind + 1 != argc)
		return usage();
	(void)snprintf(base, sizeof(base), "%s/fsposix%s.d", argv[optind],
		       nonroot ? "-n" : "");
	if (mkdir(base, 0755) != 0 || chmod(base, 0755) != 0) {
		fprintf(stderr, "fsposix: mkdir %s: %s\n", base,
			strerror(errno));
		return 2;
	}
	umask(0);
	if (nonroot)
		return run_nonroot();
	t_open();
	t_rw();
	t_seek();
	t_trunc();
	t_falloc();
	t_stat();
	t_chmod();
	t_chown();
	t_dirs();
	t_rename();
	t_link();
	t_symlink();
	t_mknod();
	t_names();
	t_readdir();
	t_xattr();
	t_misc();
	if (other != NULL)
		t_exdev(other);
	fprintf(stderr, "fsposix: %d passed, %d failed\n", n_pass, n_fail);
	return 0;
}
