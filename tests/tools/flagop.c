/* SPDX-License-Identifier: MIT */
/*
 * flagop: performs one flag case of the table in src/fuse/FLAGS.md in a
 * directory and prints its outcome, so that tests/checks/63-flags.sh can
 * run the same case on a mount and on a plain directory and compare:
 *   flagop -list            every case, one "NAME REF" a line (REF: plain
 *                           or tmpfs, the directory whose outcome it must
 *                           match: tmpfs for a feature the mount refuses)
 *   flagop DIR NAME         set up the case's files in DIR (empty), make
 *                           its call(s), print "NAME: OUTCOME"
 * An outcome names each call's result (ok / its errno's name) and what the
 * files hold afterwards (size and FNV-1a hash of the content), never a
 * time, an inode number or a block count. Exit 0 unless the setup fails.
 * Not proved.
 * Over 600 lines on purpose: one case table (a row per FLAGS.md row, each
 * a short function) that -list and the runner share.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

static char out[4096];
static size_t outlen;

__attribute__((format(printf, 1, 2))) static void say(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(out + outlen, sizeof(out) - outlen, fmt, ap);
	va_end(ap);
	if (n > 0 && outlen + (size_t)n < sizeof(out))
		outlen += (size_t)n;
}

static const char *ename(int e)
{
	static char buf[32];

	switch (e) {
	case 0:
		return "ok";
	case ELOOP:
		return "ELOOP";
	case ENOENT:
		return "ENOENT";
	case EEXIST:
		return "EEXIST";
	case ENOTDIR:
		return "ENOTDIR";
	case EISDIR:
		return "EISDIR";
	case EINVAL:
		return "EINVAL";
	case EOPNOTSUPP:
		return "EOPNOTSUPP";
	case EPERM:
		return "EPERM";
	case EACCES:
		return "EACCES";
	case EBADF:
		return "EBADF";
	case EAGAIN:
		return "EAGAIN";
	case ENODATA:
		return "ENODATA";
	case ENXIO:
		return "ENXIO";
	case EXDEV:
		return "EXDEV";
	case ENOSYS:
		return "ENOSYS";
	case ENOTEMPTY:
		return "ENOTEMPTY";
	case EFBIG:
		return "EFBIG";
	case ENOSPC:
		return "ENOSPC";
	default:
		break;
	}
	(void)snprintf(buf, sizeof(buf), "errno%d", e);
	return buf;
}

/* result of a call returning -1 on error */
static int res(const char *what, long r)
{
	say(" %s=%s", what, r < 0 ? ename(errno) : "ok");
	return r < 0 ? -1 : 0;
}

static void die(const char *what)
{
	fprintf(stderr, "flagop: setup: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int dfd;

/* name := len bytes of a pattern seeded by seed */
static void mkfile(const char *name, size_t len, unsigned seed)
{
	char *b = malloc(len + 1);
	int fd;

	if (b == NULL)
		die("malloc");
	for (size_t i = 0; i < len; i++)
		b[i] = (char)('a' + (i * 7 + seed) % 26);
	fd = openat(dfd, name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || (len > 0 && write(fd, b, len) != (ssize_t)len) ||
	    close(fd) != 0)
		die(name);
	free(b);
}

/* " name:TYPE:size:hash" of what name is now (no follow) */
static void state(const char *name)
{
	struct stat st;
	char b[65536];
	uint64_t h = 1469598103934665603ULL;
	off_t tot = 0;
	ssize_t n;
	int fd;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
		say(" %s:%s", name, ename(errno));
		return;
	}
	if (S_ISLNK(st.st_mode)) {
		n = readlinkat(dfd, name, b, sizeof(b) - 1);
		b[n > 0 ? n : 0] = '\0';
		say(" %s:link->%s", name, b);
		return;
	}
	if (S_ISCHR(st.st_mode)) {
		say(" %s:chr%u:%u", name, major(st.st_rdev), minor(st.st_rdev));
		return;
	}
	if (!S_ISREG(st.st_mode)) {
		say(" %s:type%o", name, (unsigned)(st.st_mode & S_IFMT));
		return;
	}
	fd = openat(dfd, name, O_RDONLY);
	if (fd < 0) {
		say(" %s:open-%s", name, ename(errno));
		return;
	}
	while ((n = read(fd, b, sizeof(b))) > 0) {
		for (ssize_t i = 0; i < n; i++) {
			h ^= (uint8_t)b[i];
			h *= 1099511628211ULL;
		}
		tot += n;
	}
	close(fd);
	say(" %s:%lld:%016llx%s", name, (long long)st.st_size,
	    (unsigned long long)h, tot == st.st_size ? "" : ":SHORTREAD");
}

/* open name with flags, read it through, close: " open=.. read=N" */
static void open_read(const char *name, int flags)
{
	char b[65536];
	ssize_t n;
	long tot = 0;
	int fd = openat(dfd, name, flags);

	if (res("open", fd) != 0)
		return;
	while ((n = read(fd, b, sizeof(b))) > 0)
		tot += n;
	say(" read=%s/%ld", n < 0 ? ename(errno) : "ok", tot);
	close(fd);
}

/* open name with flags, write "XYZ" (at the offset the fd has), close */
static void open_write(const char *name, int flags)
{
	int fd = openat(dfd, name, flags, 0644);

	if (res("open", fd) != 0)
		return;
	(void)res("write", write(fd, "XYZ", 3));
	close(fd);
}

/* ---- open and create flags ---- */
static void c_nofollow_reg(void)
{
	mkfile("f", 10000, 1);
	open_read("f", O_RDONLY | O_NOFOLLOW);
}
static void c_nofollow_rdwr(void)
{
	mkfile("f", 10000, 1);
	open_write("f", O_RDWR | O_NOFOLLOW);
	state("f");
}
static void c_nofollow_link(void)
{
	mkfile("f", 100, 1);
	if (symlinkat("f", dfd, "l") != 0)
		die("symlink");
	open_read("l", O_RDONLY | O_NOFOLLOW);
}
static void c_nofollow_creat(void)
{
	open_write("new", O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW);
	state("new");
}
static void c_noatime(void)
{
	mkfile("f", 10000, 2);
	open_read("f", O_RDONLY | O_NOATIME);
}
static void c_direct(void)
{
	void *b;
	int fd;

	mkfile("f", 20000, 3);
	if (posix_memalign(&b, 4096, 8192) != 0)
		die("memalign");
	memset(b, 'D', 8192);
	fd = openat(dfd, "f", O_RDWR | O_DIRECT);
	if (res("open", fd) == 0) {
		(void)res("pwrite", pwrite(fd, b, 8192, 4096));
		memset(b, 0, 8192);
		(void)res("pread", pread(fd, b, 8192, 8192));
		say(" byte=%c", ((char *)b)[0]);
		close(fd);
	}
	free(b);
	state("f");
}
static void c_direct_unaligned(void)
{
	char b[100];
	int fd;

	mkfile("f", 20000, 3);
	memset(b, 'U', sizeof(b));
	fd = openat(dfd, "f", O_RDWR | O_DIRECT);
	if (res("open", fd) == 0) {
		(void)res("pwrite", pwrite(fd, b, sizeof(b), 10));
		close(fd);
	}
	state("f");
}
static void c_append(void)
{
	int fd;

	mkfile("f", 5000, 4);
	fd = openat(dfd, "f", O_WRONLY | O_APPEND);
	if (res("open", fd) == 0) {
		(void)lseek(fd, 0, SEEK_SET);
		(void)res("write", write(fd, "AAA", 3));
		(void)res("pwrite0", pwrite(fd, "BBB", 3, 0));
		say(" pos=%lld", (long long)lseek(fd, 0, SEEK_CUR));
		close(fd);
	}
	state("f");
}
static void c_trunc(void)
{
	mkfile("f", 9000, 5);
	open_write("f", O_WRONLY | O_TRUNC);
	state("f");
}
static void c_trunc_rdonly(void)
{
	mkfile("f", 9000, 5);
	open_read("f", O_RDONLY | O_TRUNC);
	state("f");
}
static void c_creat_trunc(void)
{
	mkfile("f", 9000, 5);
	open_write("f", O_WRONLY | O_CREAT | O_TRUNC);
	state("f");
}
static void c_sync(void)
{
	mkfile("f", 7000, 6);
	open_write("f", O_WRONLY | O_SYNC);
	state("f");
}
static void c_dsync(void)
{
	mkfile("f", 7000, 6);
	open_write("f", O_WRONLY | O_DSYNC);
	state("f");
}
static void c_tmpfile(void)
{
	char p[64];
	int fd = openat(dfd, ".", O_TMPFILE | O_RDWR, 0600);

	if (res("open", fd) != 0)
		return;
	(void)res("write", write(fd, "tmpfile", 7));
	(void)snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
	(void)res("linkat", linkat(AT_FDCWD, p, dfd, "t", AT_SYMLINK_FOLLOW));
	close(fd);
	state("t");
}
static void c_opath(void)
{
	struct stat st;
	char c;
	int fd;

	mkfile("f", 3333, 7);
	fd = openat(dfd, "f", O_PATH);
	if (res("open", fd) != 0)
		return;
	if (res("fstat", fstat(fd, &st)) == 0)
		say(" size=%lld", (long long)st.st_size);
	(void)res("read", read(fd, &c, 1));
	close(fd);
}
static void c_excl_exists(void)
{
	mkfile("f", 10, 8);
	open_write("f", O_WRONLY | O_CREAT | O_EXCL);
}
static void c_excl_link(void)
{
	if (symlinkat("nowhere", dfd, "l") != 0)
		die("symlink");
	open_write("l", O_WRONLY | O_CREAT | O_EXCL);
	state("nowhere");
}
static void c_creat_link(void)
{
	if (symlinkat("target", dfd, "l") != 0)
		die("symlink");
	open_write("l", O_WRONLY | O_CREAT);
	state("target");
}
static void c_nonblock(void)
{
	mkfile("f", 5000, 9);
	open_read("f", O_RDONLY | O_NONBLOCK);
}
static void c_cloexec(void)
{
	int fd;

	mkfile("f", 10, 9);
	fd = openat(dfd, "f", O_RDONLY | O_CLOEXEC);
	if (res("open", fd) == 0) {
		say(" cloexec=%d", (fcntl(fd, F_GETFD) & FD_CLOEXEC) != 0);
		close(fd);
	}
}
static void c_directory_file(void)
{
	mkfile("f", 10, 9);
	open_read("f", O_RDONLY | O_DIRECTORY);
}
static void c_getfl(void)
{
	int fd;

	mkfile("f", 10, 9);
	fd = openat(dfd, "f", O_RDWR | O_APPEND | O_NONBLOCK | O_NOATIME);
	if (res("open", fd) == 0) {
		int fl = fcntl(fd, F_GETFL);

		say(" fl=%o", fl & (O_ACCMODE | O_APPEND | O_NONBLOCK |
				    O_NOATIME | O_DIRECT | O_SYNC));
		(void)res("setfl", fcntl(fd, F_SETFL, O_DIRECT));
		say(" fl2=%o", fcntl(fd, F_GETFL) & (O_APPEND | O_DIRECT));
		close(fd);
	}
}

/* ---- renameat2 ---- */
static void c_rename_noreplace(void)
{
	mkfile("a", 100, 1);
	mkfile("b", 200, 2);
	(void)res("rename", renameat2(dfd, "a", dfd, "b", RENAME_NOREPLACE));
	state("a");
	state("b");
}
static void c_rename_noreplace_new(void)
{
	mkfile("a", 100, 1);
	(void)res("rename", renameat2(dfd, "a", dfd, "c", RENAME_NOREPLACE));
	state("a");
	state("c");
}
static void c_rename_exchange(void)
{
	mkfile("a", 100, 1);
	mkfile("b", 200, 2);
	(void)res("rename", renameat2(dfd, "a", dfd, "b", RENAME_EXCHANGE));
	state("a");
	state("b");
}
static void c_rename_exchange_missing(void)
{
	mkfile("a", 100, 1);
	(void)res("rename", renameat2(dfd, "a", dfd, "c", RENAME_EXCHANGE));
	state("a");
	state("c");
}
static void c_rename_both(void)
{
	mkfile("a", 100, 1);
	mkfile("b", 200, 2);
	(void)res("rename", renameat2(dfd, "a", dfd, "b",
				      RENAME_EXCHANGE | RENAME_NOREPLACE));
}
static void c_rename_whiteout(void)
{
	mkfile("a", 100, 1);
	(void)res("rename", renameat2(dfd, "a", dfd, "c", RENAME_WHITEOUT));
	state("a");
	state("c");
}

/* ---- fallocate ---- */
static void falloc(int mode, off_t off, off_t len)
{
	int fd;

	mkfile("f", 20000, 3);
	fd = openat(dfd, "f", O_RDWR);
	if (fd < 0)
		die("open f");
	(void)res("fallocate", fallocate(fd, mode, off, len));
	close(fd);
	state("f");
}
static void c_falloc_plain(void)
{
	falloc(0, 10000, 30000);
}
static void c_falloc_keep(void)
{
	falloc(FALLOC_FL_KEEP_SIZE, 10000, 30000);
}
static void c_falloc_punch(void)
{
	falloc(FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 1000, 15000);
}
static void c_falloc_punch_nokeep(void)
{
	falloc(FALLOC_FL_PUNCH_HOLE, 1000, 15000);
}
static void c_falloc_zero(void)
{
	falloc(FALLOC_FL_ZERO_RANGE, 1000, 15000);
}
static void c_falloc_zero_extend(void)
{
	falloc(FALLOC_FL_ZERO_RANGE, 10000, 30000);
}
static void c_falloc_zero_keep(void)
{
	falloc(FALLOC_FL_ZERO_RANGE | FALLOC_FL_KEEP_SIZE, 10000, 30000);
}
static void c_falloc_collapse(void)
{
	falloc(FALLOC_FL_COLLAPSE_RANGE, 4096, 4096);
}
static void c_falloc_insert(void)
{
	falloc(FALLOC_FL_INSERT_RANGE, 4096, 4096);
}
static void c_falloc_unshare(void)
{
	falloc(FALLOC_FL_UNSHARE_RANGE, 0, 4096);
}

/* ---- setxattr flags ---- */
static const char *dirpath;

static const char *path(const char *name)
{
	static char p[4096];

	(void)snprintf(p, sizeof(p), "%s/%s", dirpath, name);
	return p;
}
static void xa(int pre, int flags)
{
	char v[64];
	ssize_t n;

	mkfile("f", 10, 1);
	if (pre && setxattr(path("f"), "user.k", "old", 3, 0) != 0)
		die("setxattr");
	(void)res("setxattr", setxattr(path("f"), "user.k", "new", 3, flags));
	n = getxattr(path("f"), "user.k", v, sizeof(v));
	if (n < 0)
		say(" get=%s", ename(errno));
	else
		say(" get=%.*s", (int)n, v);
}
static void c_xattr_symlink(void)
{
	if (symlinkat("f", dfd, "l") != 0)
		die("symlink");
	(void)res("lsetxattr", lsetxattr(path("l"), "user.k", "v", 1, 0));
}
static void c_xattr_create_new(void)
{
	xa(0, XATTR_CREATE);
}
static void c_xattr_create_exists(void)
{
	xa(1, XATTR_CREATE);
}
static void c_xattr_replace_missing(void)
{
	xa(0, XATTR_REPLACE);
}
static void c_xattr_replace_exists(void)
{
	xa(1, XATTR_REPLACE);
}
static void c_xattr_both(void)
{
	xa(1, XATTR_CREATE | XATTR_REPLACE);
}

/* ---- copy_file_range ---- */
static void c_copy_range(void)
{
	off_t in_off = 100;
	off_t out_off = 50;
	ssize_t n = 1;
	long tot = 0;
	int a;
	int b;

	mkfile("a", 300000, 4);
	mkfile("b", 1000, 5);
	a = openat(dfd, "a", O_RDONLY);
	b = openat(dfd, "b", O_WRONLY);
	if (a < 0 || b < 0)
		die("open");
	while (tot < 200000 && n > 0) {
		n = copy_file_range(a, &in_off, b, &out_off,
				    (size_t)(200000 - tot), 0);
		if (n > 0)
			tot += n;
	}
	say(" copy_file_range=%s/%ld", n < 0 ? ename(errno) : "ok", tot);
	close(a);
	close(b);
	state("b");
}
static void c_copy_range_samefile(void)
{
	off_t in_off = 0;
	off_t out_off = 1000;
	int a;

	mkfile("a", 10000, 4);
	a = openat(dfd, "a", O_RDWR);
	if (a < 0)
		die("open");
	(void)res("copy_file_range",
		  copy_file_range(a, &in_off, a, &out_off, 5000, 0));
	close(a);
	state("a");
}

/* ---- lseek SEEK_DATA / SEEK_HOLE ---- */
static void seekf(int whence, off_t from)
{
	int fd;
	off_t r;

	mkfile("f", 8192, 1);
	fd = openat(dfd, "f", O_RDWR);
	if (fd < 0 || pwrite(fd, "tail", 4, 1 << 20) != 4)
		die("sparse f");
	r = lseek(fd, from, whence);
	if (r < 0)
		say(" lseek=%s", ename(errno));
	else
		say(" lseek=%lld", (long long)r);
	close(fd);
}
static void c_seek_data0(void)
{
	seekf(SEEK_DATA, 0);
}
static void c_seek_hole0(void)
{
	seekf(SEEK_HOLE, 0);
}
static void c_seek_data_hole(void)
{
	seekf(SEEK_DATA, 100000);
}
static void c_seek_hole_tail(void)
{
	seekf(SEEK_HOLE, (1 << 20) + 1);
}
static void c_seek_data_eof(void)
{
	seekf(SEEK_DATA, (1 << 20) + 4);
}

/* ---- locks: flock, POSIX (per process), OFD (per open file) ---- */
static int two_fds(int *b)
{
	int a;

	mkfile("f", 100, 1);
	a = openat(dfd, "f", O_RDWR);
	*b = openat(dfd, "f", O_RDWR);
	if (a < 0 || *b < 0)
		die("open");
	return a;
}
static void c_flock(void)
{
	int b;
	int a = two_fds(&b);

	(void)res("flock_ex", flock(a, LOCK_EX | LOCK_NB));
	(void)res("flock2_ex", flock(b, LOCK_EX | LOCK_NB));
	(void)res("flock2_sh", flock(b, LOCK_SH | LOCK_NB));
	(void)res("unlock", flock(a, LOCK_UN));
	(void)res("flock2_ex", flock(b, LOCK_EX | LOCK_NB));
	close(a);
	close(b);
}
static void c_posix_lock(void)
{
	struct flock l = { .l_type = F_WRLCK,
			   .l_whence = SEEK_SET,
			   .l_start = 0,
			   .l_len = 50 };
	int b;
	int a = two_fds(&b);
	int st = 0;
	pid_t me = getpid();
	pid_t k;

	(void)res("setlk", fcntl(a, F_SETLK, &l));
	/* the same process may lock again through another fd */
	(void)res("setlk_same_proc", fcntl(b, F_SETLK, &l));
	fflush(stdout);
	k = fork();
	if (k == 0) {
		struct flock g = l;
		int r = fcntl(b, F_SETLK, &l) == 0 ? 0 : errno;

		g.l_type = F_WRLCK;
		if (fcntl(b, F_GETLK, &g) != 0)
			_exit(200);
		_exit(r == EAGAIN && g.l_type == F_WRLCK && g.l_pid == me ? 1
		      : r == 0						  ? 2
									  : 3);
	}
	if (k < 0 || waitpid(k, &st, 0) != k)
		die("fork");
	say(" child=%d", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	l.l_type = F_UNLCK;
	(void)res("unlock", fcntl(a, F_SETLK, &l));
	close(a);
	close(b);
}
static void c_ofd_lock(void)
{
	struct flock l = { .l_type = F_WRLCK,
			   .l_whence = SEEK_SET,
			   .l_start = 0,
			   .l_len = 50 };
	struct flock g;
	int b;
	int a = two_fds(&b);

	(void)res("ofd_setlk", fcntl(a, F_OFD_SETLK, &l));
	(void)res("ofd_setlk2", fcntl(b, F_OFD_SETLK, &l));
	g = l;
	if (res("ofd_getlk2", fcntl(b, F_OFD_GETLK, &g)) == 0)
		say(" type=%s pid=%d", g.l_type == F_WRLCK ? "wr" : "other",
		    (int)g.l_pid);
	l.l_type = F_UNLCK;
	(void)res("ofd_unlock", fcntl(a, F_OFD_SETLK, &l));
	l.l_type = F_WRLCK;
	(void)res("ofd_setlk2", fcntl(b, F_OFD_SETLK, &l));
	close(a);
	close(b);
}

struct fcase {
	const char *name;
	const char *ref;
	void (*fn)(void);
};

#define C(n, r)                                                                \
	{                                                                      \
#n, r, c_##n                                                   \
	}
static const struct fcase cases[] = {
	C(nofollow_reg, "plain"),
	C(nofollow_rdwr, "plain"),
	C(nofollow_link, "plain"),
	C(nofollow_creat, "plain"),
	C(noatime, "plain"),
	C(direct, "plain"),
	C(direct_unaligned, "tmpfs"),
	C(append, "plain"),
	C(trunc, "plain"),
	C(trunc_rdonly, "plain"),
	C(creat_trunc, "plain"),
	C(sync, "plain"),
	C(dsync, "plain"),
	C(tmpfile, "gocryptfs"),
	C(opath, "plain"),
	C(excl_exists, "plain"),
	C(excl_link, "plain"),
	C(creat_link, "plain"),
	C(nonblock, "plain"),
	C(cloexec, "plain"),
	C(directory_file, "plain"),
	C(getfl, "plain"),
	C(rename_noreplace, "plain"),
	C(rename_noreplace_new, "plain"),
	C(rename_exchange, "plain"),
	C(rename_exchange_missing, "plain"),
	C(rename_both, "plain"),
	C(rename_whiteout, "plain"),
	C(falloc_plain, "plain"),
	C(falloc_keep, "plain"),
	C(falloc_punch, "plain"),
	C(falloc_punch_nokeep, "plain"),
	C(falloc_zero, "plain"),
	C(falloc_zero_extend, "plain"),
	C(falloc_zero_keep, "plain"),
	C(falloc_collapse, "tmpfs"),
	C(falloc_insert, "tmpfs"),
	C(falloc_unshare, "plain"),
	C(xattr_create_new, "plain"),
	C(xattr_create_exists, "plain"),
	C(xattr_replace_missing, "plain"),
	C(xattr_replace_exists, "plain"),
	C(xattr_both, "plain"),
	C(xattr_symlink, "plain"),
	C(copy_range, "plain"),
	C(copy_range_samefile, "plain"),
	C(seek_data0, "plain"),
	C(seek_hole0, "plain"),
	C(seek_data_hole, "plain"),
	C(seek_hole_tail, "plain"),
	C(seek_data_eof, "plain"),
	C(flock, "plain"),
	C(posix_lock, "plain"),
	C(ofd_lock, "plain"),
};

int main(int argc, char **argv)
{
	size_t n = sizeof(cases) / sizeof(cases[0]);

	if (argc == 2 && strcmp(argv[1], "-list") == 0) {
		for (size_t i = 0; i < n; i++)
			printf("%s %s\n", cases[i].name, cases[i].ref);
		return 0;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: flagop -list | flagop DIR CASE\n");
		return 2;
	}
	dirpath = argv[1];
	dfd = open(dirpath, O_RDONLY | O_DIRECTORY);
	if (dfd < 0)
		die(dirpath);
	for (size_t i = 0; i < n; i++) {
		if (strcmp(cases[i].name, argv[2]) != 0)
			continue;
		cases[i].fn();
		printf("%s:%s\n", cases[i].name, out);
		return 0;
	}
	fprintf(stderr, "flagop: no case %s\n", argv[2]);
	return 2;
}
