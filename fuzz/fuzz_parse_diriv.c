/* SPDX-License-Identifier: MIT */
/* Targets: sys_read_diriv, sys_read_small. */
/*
 * The readers of gocryptfs.diriv (FORMAT.md 5.4) and of long-name .name
 * files (5.7) on a real directory, where an attacker who controls the
 * cipher directory chooses what the name is: a regular file of any length
 * and content, nothing, a directory, a symlink to a valid file, a FIFO
 * (with a writer that holds it open and has written the content, or with
 * no writer at all), a Unix socket, a hard link, an unreadable file.
 * Checked: sys_read_diriv succeeds exactly for a regular file of 16 bytes
 * that are not all zero, returns those bytes, and otherwise returns a
 * negative errno (-EIO for bad content of a regular file) without writing
 * the IV; sys_read_small(max) returns exactly the content of a regular
 * file of 1..max bytes, NUL-terminated within max + 2 bytes, and otherwise
 * fails. Neither follows a symlink. A FIFO without a writer makes a reader
 * that opens it blocking wait for ever (issue 23 item 4): a guard thread
 * opens it for writing after a few milliseconds so that such a reader
 * comes back, and the check is that it fails then.
 * Setup: one temporary directory per process, removed at exit.
 * Test code: not constant time, not proved.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "sys/sys.h"
#include "fuzz_util.h"

#define FZ_MAX_CONTENT 4200
#define FZ_SENTINEL 0xa5

enum kind {
	K_REG,	     /* a regular file holding the content */
	K_MISSING,   /* no such name */
	K_DIR,	     /* a directory */
	K_SYMLINK,   /* a symlink to a regular file holding the content */
	K_FIFO_W,    /* a FIFO, a writer holding it open, content written */
	K_FIFO,	     /* a FIFO nobody writes to */
	K_SOCKET,    /* a bound Unix socket */
	K_HARDLINK,  /* a second name of a regular file with the content */
	K_UNREADABLE /* a regular file of mode 0000 */
};
#define K_N 9

static char fz_dir[64];
static int fz_dfd = -1;

static void cleanup(void)
{
	static const char *const names[] = { "gocryptfs.diriv", "x.name",
					     "target" };

	if (fz_dfd < 0)
		return;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (unlinkat(fz_dfd, names[i], 0) != 0)
			(void)unlinkat(fz_dfd, names[i], AT_REMOVEDIR);
	close(fz_dfd);
	fz_dfd = -1;
	(void)rmdir(fz_dir);
}

static void setup(void)
{
	if (fz_dfd >= 0)
		return;
	(void)snprintf(fz_dir, sizeof(fz_dir), "/tmp/vcryptfs-fuzz-iv.XXXXXX");
	FZ_CHECK(mkdtemp(fz_dir) != NULL, "mkdtemp");
	fz_dfd = open(fz_dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	FZ_CHECK(fz_dfd >= 0, "open temp dir");
	(void)atexit(cleanup);
}

/* Remove name (any type) from the directory. */
static void remove_name(const char *name)
{
	if (unlinkat(fz_dfd, name, 0) != 0 && errno == EISDIR)
		(void)unlinkat(fz_dfd, name, AT_REMOVEDIR);
}

static void write_file(const char *name, const uint8_t *c, size_t len,
		       mode_t mode)
{
	int fd = openat(fz_dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			mode);

	FZ_CHECK(fd >= 0, "create file");
	FZ_CHECK(len == 0 || write(fd, c, len) == (ssize_t)len, "write file");
	close(fd);
}

/* The guard of a FIFO without a writer: until done, try to open it for
 * writing (that succeeds only while a reader has it open, and wakes a
 * reader blocked in open), every 2 ms. */
struct guard {
	char path[128];
	atomic_int done;
};

static void *guard_run(void *arg)
{
	struct guard *g = arg;
	const struct timespec ts = { 0, 2000000 };

	while (!atomic_load(&g->done)) {
		int w;

		(void)nanosleep(&ts, NULL);
		w = open(g->path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
		if (w >= 0)
			close(w);
	}
	return NULL;
}

/*
 * Make name a k. Returns the fd of a FIFO writer to close afterwards,
 * or -1. *valid is set when a correct reader must accept it (a regular
 * file it can read), with the content it must see.
 */
static int make(enum kind k, const char *name, const uint8_t *c, size_t len,
		int *valid)
{
	int w = -1;

	*valid = 0;
	switch (k) {
	case K_REG:
		write_file(name, c, len, 0600);
		*valid = 1;
		break;
	case K_MISSING:
		break;
	case K_DIR:
		FZ_CHECK(mkdirat(fz_dfd, name, 0700) == 0, "mkdir");
		break;
	case K_SYMLINK:
		write_file("target", c, len, 0600);
		FZ_CHECK(symlinkat("target", fz_dfd, name) == 0, "symlink");
		break;
	case K_FIFO_W:
	case K_FIFO: {
		char p[160];

		FZ_CHECK(mkfifoat(fz_dfd, name, 0600) == 0, "mkfifo");
		if (k == K_FIFO)
			break;
		(void)snprintf(p, sizeof(p), "%s/%s", fz_dir, name);
		/* O_RDWR on a FIFO does not wait for a partner (Linux) */
		w = open(p, O_RDWR | O_NONBLOCK | O_CLOEXEC);
		FZ_CHECK(w >= 0, "open FIFO writer");
		if (len > 0)
			FZ_CHECK(write(w, c, len) == (ssize_t)len,
				 "write FIFO");
		break;
	}
	case K_SOCKET: {
		struct sockaddr_un sa;
		int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

		FZ_CHECK(s >= 0, "socket");
		memset(&sa, 0, sizeof(sa));
		sa.sun_family = AF_UNIX;
		(void)snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/%s",
			       fz_dir, name);
		FZ_CHECK(bind(s, (const struct sockaddr *)&sa, sizeof(sa)) == 0,
			 "bind");
		w = s; /* closed after the read; the name stays until removed */
		break;
	}
	case K_HARDLINK:
		write_file("target", c, len, 0600);
		FZ_CHECK(linkat(fz_dfd, "target", fz_dfd, name, 0) == 0,
			 "link");
		*valid = 1;
		break;
	case K_UNREADABLE:
		write_file(name, c, len, 0000);
		*valid = geteuid() == 0; /* root reads it anyway */
		break;
	}
	return w;
}

static int read_once(const char *name, int small, char *buf, size_t max,
		     uint8_t iv[16])
{
	if (small)
		return (int)sys_read_small(fz_dfd, name, buf, max);
	return sys_read_diriv(fz_dfd, iv);
}

/* Run the reader on name; for a FIFO nobody writes to, with the guard. */
static int call_reader(enum kind k, const char *name, int small, char *buf,
		       size_t max, uint8_t iv[16])
{
	struct guard g;
	pthread_t t;
	int rc;

	if (k != K_FIFO)
		return read_once(name, small, buf, max, iv);
	(void)snprintf(g.path, sizeof(g.path), "%s/%s", fz_dir, name);
	atomic_store(&g.done, 0);
	FZ_CHECK(pthread_create(&t, NULL, guard_run, &g) == 0,
		 "pthread_create");
	rc = read_once(name, small, buf, max, iv);
	atomic_store(&g.done, 1);
	FZ_CHECK(pthread_join(t, NULL) == 0, "pthread_join");
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f;
	enum kind k;
	uint8_t mode;
	size_t max;
	size_t len;
	uint8_t c[FZ_MAX_CONTENT];
	int valid;
	int small;
	int w;
	int rc;

	setup();
	fz_init(&f, data, size);
	mode = fz_u8(&f);
	k = (enum kind)(mode % K_N);
	small = (mode & 0x80) != 0;
	max = 1 + fz_len(&f, FZ_MAX_CONTENT - 1);
	/* the rest of the input, after the 3 bytes of mode and max */
	len = size > 3 ? size - 3 : 0;
	if (len > FZ_MAX_CONTENT)
		len = FZ_MAX_CONTENT;
	fz_bytes(&f, c, len);
	if (k == K_FIFO_W && len > 4096)
		len = 4096; /* fits the pipe buffer: the write never waits */
	if (small) {
		/* exactly max + 2 bytes, so ASan sees a write past them */
		char *buf = malloc(max + 2);

		FZ_CHECK(buf != NULL, "malloc");
		w = make(k, "x.name", c, len, &valid);
		rc = call_reader(k, "x.name", 1, buf, max, NULL);
		if (valid && len >= 1 && len <= max) {
			FZ_CHECK(rc == (int)len,
				 "sys_read_small refused a valid file");
			FZ_CHECK(memcmp(buf, c, len) == 0 && buf[len] == '\0',
				 "sys_read_small returned other bytes");
		} else if (valid) {
			FZ_CHECK(rc == -EIO, "sys_read_small accepted an empty "
					     "or too long file");
		} else {
			FZ_CHECK(rc < 0, "sys_read_small accepted a name that "
					 "is not a readable regular file");
		}
		free(buf);
		remove_name("x.name");
	} else {
		uint8_t iv[16];
		uint8_t acc = 0;

		for (size_t i = 0; i < len && i < 16; i++)
			acc |= c[i];
		memset(iv, FZ_SENTINEL, sizeof(iv));
		w = make(k, "gocryptfs.diriv", c, len, &valid);
		rc = call_reader(k, "gocryptfs.diriv", 0, NULL, 0, iv);
		if (valid && len == 16 && acc != 0) {
			FZ_CHECK(rc == 0, "sys_read_diriv refused a valid IV");
			FZ_CHECK(memcmp(iv, c, 16) == 0,
				 "sys_read_diriv returned another IV");
		} else {
			if (valid)
				FZ_CHECK(rc == -EIO,
					 "sys_read_diriv accepted a bad IV "
					 "or gave another error");
			else
				FZ_CHECK(rc < 0, "sys_read_diriv accepted a "
						 "name that is not a "
						 "readable regular file");
			for (int i = 0; i < 16; i++)
				FZ_CHECK(iv[i] == FZ_SENTINEL,
					 "sys_read_diriv wrote the IV on "
					 "failure");
		}
		remove_name("gocryptfs.diriv");
	}
	FZ_CHECK(rc > -4096, "reader returned no errno");
	if (w >= 0)
		close(w);
	(void)unlinkat(fz_dfd, "target", 0);
	return 0;
}
