/* SPDX-License-Identifier: MIT */
/*
 * fsxv: randomized model-checking stress test in the style of fsx, written
 * for vcryptfs. It works on a few files in one directory and keeps an
 * in-memory model of each; after every operation it checks the result
 * (data read back around the change, st_size) against the model, and every
 * -c operations the whole file. Deterministic from the seed.
 *   fsxv [-n OPS] [-s SEED] [-p INDEX] [-f FILES] [-m MAXSIZE] [-w MAXWRITE]
 *        [-c FULLCHECK] [-S NPROCS] [-k] [-q] [-P] [-F] DIR
 * -P: no hole punching; -F: no fallocate at all (mode 0 and KEEP_SIZE),
 * for a mount whose backing has none (sshfs answers EOPNOTSUPP).
 * Files: DIR/fsxv.p<INDEX>.<k>, so processes with different -p indexes work
 * on disjoint files. -S NPROCS: shared mode, all processes work on
 * DIR/fsxv.shared.<k> (fixed size MAXSIZE); process INDEX owns the
 * unaligned stripes s with s % NPROCS == INDEX, so neighbours write
 * different bytes of the same 4096-byte block at once.
 * Operations: write/pwrite (1..MAXWRITE bytes, unaligned, across block
 * edges, past EOF leaving holes), O_APPEND write, read/pread, (f)truncate
 * (grow and shrink), fallocate (0, KEEP_SIZE, PUNCH_HOLE|KEEP_SIZE: an
 * EOPNOTSUPP answer leaves the model unchanged and is counted),
 * SEEK_DATA/SEEK_HOLE, fsync/fdatasync, close/reopen (sometimes O_TRUNC),
 * mmap read and mmap write + msync.
 * On a mismatch: the seed, the operation number, the first differing
 * offset, the tail of the operation log; exit 1. Exit 0: no mismatch; the
 * last line is "fsxv: ... N ops, 0 mismatches ...".
 * Spec: POSIX read/write/ftruncate/fallocate semantics. Not proved.
 * Over 600 lines on purpose: the model, the operations and the checker
 * share the per-file model state; banner sections separate them.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define FSXV_BS 4096
#define FSXV_MAX_FILES 16
#define FSXV_LOG_LEN 64
#define FSXV_LOG_LINE 160
#define FSXV_STRIPE 10007 /* shared mode: an unaligned stripe width */

struct fsxv_file {
	char path[PATH_MAX];
	int fd;
	off_t size;
	uint8_t *model; /* maxsize bytes; zero at and past size */
};

struct fsxv_count {
	unsigned long writes;
	unsigned long appends;
	unsigned long reads;
	unsigned long truncs;
	unsigned long fallocs;
	unsigned long punches;
	unsigned long punch_unsup;
	unsigned long seeks;
	unsigned long syncs;
	unsigned long reopens;
	unsigned long mreads;
	unsigned long mwrites;
	unsigned long fulls;
};

struct fsxv {
	uint64_t seed;
	uint64_t rng;
	unsigned long nops;
	unsigned long op; /* current operation number, from 1 */
	unsigned index;
	unsigned nfiles;
	unsigned nprocs; /* 0: own files; else shared mode */
	off_t maxsize;
	size_t maxwrite;
	unsigned long fullcheck;
	int quiet;
	int keep;
	int nommap;
	int nopunch;
	int nofalloc; /* -F: the backing has no fallocate (sshfs) */
	const char *dir;
	struct fsxv_file files[FSXV_MAX_FILES];
	uint8_t *wbuf;
	uint8_t *rbuf;
	size_t rcap;
	char log[FSXV_LOG_LEN][FSXV_LOG_LINE];
	unsigned long nlog;
	struct fsxv_count n;
};

static struct fsxv X;

/* ------------------------------------------------------------------ */
/* Random numbers (splitmix64) and the operation log                   */

static uint64_t rnd_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t rnd_below(uint64_t n)
{
	return n == 0 ? 0 : rnd_next(&X.rng) % n;
}

__attribute__((format(printf, 1, 2))) static void oplog(const char *fmt, ...)
{
	char *line = X.log[X.nlog % FSXV_LOG_LEN];
	int k = snprintf(line, FSXV_LOG_LINE, "#%lu ", X.op);
	va_list ap;

	if (k < 0 || k >= FSXV_LOG_LINE)
		k = 0;
	va_start(ap, fmt);
	(void)vsnprintf(line + k, (size_t)(FSXV_LOG_LINE - k), fmt, ap);
	va_end(ap);
	X.nlog++;
}

static void print_log_tail(void)
{
	unsigned long first = X.nlog > FSXV_LOG_LEN ? X.nlog - FSXV_LOG_LEN : 0;

	fprintf(stderr, "fsxv: last %lu operations:\n", X.nlog - first);
	for (unsigned long i = first; i < X.nlog; i++)
		fprintf(stderr, "  %s\n", X.log[i % FSXV_LOG_LEN]);
}

/* Report a failure with everything needed to reproduce it; exit 1. */
__attribute__((format(printf, 1, 2), noreturn)) static void die(const char *fmt,
								...)
{
	va_list ap;

	fprintf(stderr,
		"fsxv: FAILURE: proc %u seed %" PRIu64 " op %lu: ", X.index,
		X.seed, X.op);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	print_log_tail();
	fprintf(stderr,
		"fsxv: reproduce: fsxv -s %" PRIu64 " -p %u -n %lu -f %u "
		"-m %lld -w %zu -c %lu -S %u%s%s DIR\n",
		X.seed, X.index, X.nops, X.nfiles, (long long)X.maxsize,
		X.maxwrite, X.fullcheck, X.nprocs, X.nopunch ? " -P" : "",
		X.nofalloc ? " -F" : "");
	exit(1);
}

/* ------------------------------------------------------------------ */
/* Model helpers                                                       */

/* Shared mode: does this process own byte off? */
static int owns(off_t off)
{
	if (X.nprocs == 0)
		return 1;
	return (unsigned)((off / FSXV_STRIPE) % X.nprocs) == X.index;
}

static off_t min_off(off_t a, off_t b)
{
	return a < b ? a : b;
}

static off_t max_off(off_t a, off_t b)
{
	return a > b ? a : b;
}

static void fill_random(uint8_t *p, size_t len)
{
	uint64_t s = rnd_next(&X.rng);
	size_t i = 0;

	while (i < len) {
		uint64_t v = rnd_next(&s);

		for (int k = 0; k < 8 && i < len; k++, i++) {
			p[i] = (uint8_t)v;
			v >>= 8;
		}
	}
}

/* Set the model size; bytes past the new size become zero. */
static void model_resize(struct fsxv_file *f, off_t size)
{
	if (size < f->size)
		memset(f->model + size, 0, (size_t)(f->size - size));
	f->size = size;
}

static void model_write(struct fsxv_file *f, const uint8_t *p, size_t len,
			off_t off)
{
	memcpy(f->model + off, p, len);
	if (off + (off_t)len > f->size)
		f->size = off + (off_t)len;
}

/* ------------------------------------------------------------------ */
/* Checks against the model                                            */

static ssize_t pread_full(int fd, uint8_t *buf, size_t len, off_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n =
			pread(fd, buf + done, len - done, off + (off_t)done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (ssize_t)done;
}

static void check_size(struct fsxv_file *f, const char *what)
{
	struct stat st;

	if (fstat(f->fd, &st) != 0)
		die("%s: fstat %s: %s", what, f->path, strerror(errno));
	if (st.st_size != f->size)
		die("%s: %s: st_size %lld, model says %lld", what, f->path,
		    (long long)st.st_size, (long long)f->size);
}

/* Compare buf (what the file gave for [off, off + got)) with the model. */
static void compare(struct fsxv_file *f, const uint8_t *buf, off_t off,
		    size_t got, const char *what)
{
	for (size_t i = 0; i < got; i++) {
		off_t o = off + (off_t)i;
		size_t ndiff = 0;

		if (buf[i] == f->model[o] || !owns(o))
			continue;
		for (size_t j = i; j < got; j++)
			if (buf[j] != f->model[off + (off_t)j] &&
			    owns(off + (off_t)j))
				ndiff++;
		die("%s: %s: data mismatch, first differing offset %lld "
		    "(0x%llx, block %lld + %lld): expected 0x%02x got 0x%02x; "
		    "%zu differing bytes in [%lld, %lld); file size %lld",
		    what, f->path, (long long)o, (long long)o,
		    (long long)(o / FSXV_BS), (long long)(o % FSXV_BS),
		    f->model[o], buf[i], ndiff, (long long)off,
		    (long long)off + (long long)got, (long long)f->size);
	}
}

/* Read [lo, hi) with pread and compare it with the model, including the
 * length (short exactly at the model's EOF). */
static void check_range(struct fsxv_file *f, off_t lo, off_t hi,
			const char *what)
{
	off_t end = min_off(hi, X.maxsize);
	size_t want;
	ssize_t n;

	lo = max_off(lo, 0);
	if (lo >= end)
		return;
	want = lo >= f->size ? 0 : (size_t)(min_off(end, f->size) - lo);
	n = pread_full(f->fd, X.rbuf, (size_t)(end - lo), lo);
	if (n < 0)
		die("%s: %s: pread [%lld, %lld): %s", what, f->path,
		    (long long)lo, (long long)end, strerror((int)-n));
	if ((size_t)n != want)
		die("%s: %s: pread [%lld, %lld) returned %zd bytes, model "
		    "says %zu (size %lld)",
		    what, f->path, (long long)lo, (long long)end, n, want,
		    (long long)f->size);
	compare(f, X.rbuf, lo, (size_t)n, what);
}

/* Drop the file's clean cached pages, so that the next read goes to the
 * filesystem (on a FUSE mount: to the daemon) instead of the page cache. */
static void drop_cache(struct fsxv_file *f)
{
	int rc = posix_fadvise(f->fd, 0, 0, POSIX_FADV_DONTNEED);

	if (rc != 0)
		die("posix_fadvise %s: %s", f->path, strerror(rc));
}

/* The neighbourhood of [lo, hi): whole blocks plus one on each side.
 * Every other operation reads it from the filesystem, not the cache. */
static void check_around(struct fsxv_file *f, off_t lo, off_t hi,
			 const char *what)
{
	off_t a = lo / FSXV_BS * FSXV_BS - FSXV_BS;
	off_t b = (hi + FSXV_BS - 1) / FSXV_BS * FSXV_BS + FSXV_BS;

	if (b - a > (off_t)X.rcap)
		b = a + (off_t)X.rcap;
	if (X.op % 2 == 0)
		drop_cache(f);
	check_range(f, a, b, what);
}

static void check_full(struct fsxv_file *f, const char *what)
{
	X.n.fulls++;
	check_size(f, what);
	drop_cache(f);
	for (off_t o = 0; o < X.maxsize; o += (off_t)X.rcap)
		check_range(f, o, o + (off_t)X.rcap, what);
	/* Nothing past the end. */
	if (X.nprocs == 0 || f->size < X.maxsize) {
		uint8_t b;
		ssize_t n = pread(f->fd, &b, 1, f->size);

		if (n != 0)
			die("%s: %s: pread at EOF %lld returned %zd", what,
			    f->path, (long long)f->size, n);
	}
}

/* ------------------------------------------------------------------ */
/* Operations                                                          */

static void file_open(struct fsxv_file *f, int flags)
{
	f->fd = open(f->path, O_RDWR | O_CLOEXEC | flags, 0644);
	if (f->fd < 0)
		die("open %s: %s", f->path, strerror(errno));
}

static off_t pick_off(struct fsxv_file *f)
{
	off_t o;

	switch (rnd_below(8)) {
	case 0:
	case 1:
	case 2:
		o = (off_t)rnd_below((uint64_t)X.maxsize);
		break;
	case 3:
	case 4: /* near a block edge */
		o = (off_t)rnd_below((uint64_t)(X.maxsize / FSXV_BS + 1)) *
			    FSXV_BS +
		    (off_t)rnd_below(129) - 64;
		break;
	case 5: /* near EOF */
		o = f->size + (off_t)rnd_below(17) - 8;
		break;
	case 6: /* past EOF: a hole */
		o = f->size + (off_t)rnd_below(256 * 1024);
		break;
	default:
		o = (off_t)rnd_below(2 * FSXV_BS);
		break;
	}
	if (o < 0)
		o = 0;
	if (o >= X.maxsize)
		o = X.maxsize - 1;
	return o;
}

static size_t pick_len(off_t off)
{
	size_t len;
	size_t room = (size_t)(X.maxsize - off);

	switch (rnd_below(4)) {
	case 0:
		len = 1 + (size_t)rnd_below(16);
		break;
	case 1:
		len = 1 + (size_t)rnd_below(2 * FSXV_BS);
		break;
	case 2:
		len = 1 + (size_t)rnd_below(X.maxwrite);
		break;
	default: /* about a whole number of blocks */
		len = (1 + (size_t)rnd_below(X.maxwrite / FSXV_BS)) * FSXV_BS;
		len = len + (size_t)rnd_below(9);
		len = len > 4 ? len - 4 : 1;
		break;
	}
	if (len > X.maxwrite)
		len = X.maxwrite;
	return len < room ? len : room;
}

/* Shared mode: clamp [off, off + len) to the own stripe holding off,
 * moving off into the next own stripe when needed. Returns 0 if none. */
static size_t clamp_own(off_t *off, size_t len)
{
	off_t s = *off / FSXV_STRIPE;
	off_t end;

	while ((unsigned)(s % X.nprocs) != X.index)
		s++;
	if (s * FSXV_STRIPE >= X.maxsize)
		return 0;
	if (*off < s * FSXV_STRIPE)
		*off = s * FSXV_STRIPE;
	end = min_off((s + 1) * FSXV_STRIPE, X.maxsize);
	if (*off + (off_t)len > end)
		len = (size_t)(end - *off);
	return len;
}

static ssize_t write_full(int fd, const uint8_t *p, size_t len, off_t off,
			  int use_pwrite)
{
	size_t done = 0;

	if (!use_pwrite && lseek(fd, off, SEEK_SET) != off)
		return -errno;
	while (done < len) {
		ssize_t n = use_pwrite ? pwrite(fd, p + done, len - done,
						off + (off_t)done)
				       : write(fd, p + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		done += (size_t)n;
	}
	return 0;
}

static void op_write(struct fsxv_file *f)
{
	off_t off = pick_off(f);
	size_t len = pick_len(off);
	off_t old = f->size;
	int use_pwrite = (int)rnd_below(2);
	ssize_t rc;

	if (X.nprocs != 0 && (len = clamp_own(&off, len)) == 0)
		return;
	fill_random(X.wbuf, len);
	oplog("%s %s off=%lld len=%zu (size %lld)",
	      use_pwrite ? "pwrite" : "write", f->path, (long long)off, len,
	      (long long)old);
	X.n.writes++;
	rc = write_full(f->fd, X.wbuf, len, off, use_pwrite);
	if (rc < 0)
		die("write %s off %lld len %zu: %s", f->path, (long long)off,
		    len, strerror((int)-rc));
	model_write(f, X.wbuf, len, off);
	check_size(f, "write");
	check_around(f, off, off + (off_t)len, "write");
	if (off > old)
		check_around(f, old, min_off(off, old + 2 * FSXV_BS),
			     "write (gap after old EOF)");
}

static void op_append(struct fsxv_file *f)
{
	size_t len = pick_len(f->size);
	off_t old = f->size;
	int fd;
	ssize_t rc;

	if (len == 0)
		return;
	fill_random(X.wbuf, len);
	oplog("append %s len=%zu (size %lld)", f->path, len, (long long)old);
	X.n.appends++;
	fd = open(f->path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		die("open O_APPEND %s: %s", f->path, strerror(errno));
	rc = write_full(fd, X.wbuf, len, 0, 0);
	if (rc >= 0 && lseek(fd, 0, SEEK_CUR) != old + (off_t)len)
		die("append %s: file offset %lld after the write, expected "
		    "%lld",
		    f->path, (long long)lseek(fd, 0, SEEK_CUR),
		    (long long)old + (long long)len);
	if (close(fd) != 0 && rc >= 0)
		rc = -errno;
	if (rc < 0)
		die("append %s len %zu: %s", f->path, len, strerror((int)-rc));
	model_write(f, X.wbuf, len, old);
	check_size(f, "append");
	check_around(f, old, old + (off_t)len, "append");
}

static void op_read(struct fsxv_file *f)
{
	off_t off = pick_off(f);
	size_t len = pick_len(off);
	size_t want =
		off >= f->size
			? 0
			: (size_t)(min_off(off + (off_t)len, f->size) - off);
	ssize_t n;

	oplog("read %s off=%lld len=%zu (size %lld)", f->path, (long long)off,
	      len, (long long)f->size);
	X.n.reads++;
	if (rnd_below(2)) {
		n = pread_full(f->fd, X.rbuf, len, off);
	} else if (lseek(f->fd, off, SEEK_SET) != off) {
		n = -errno;
	} else {
		size_t done = 0;

		n = 0;
		while (done < len) {
			ssize_t k = read(f->fd, X.rbuf + done, len - done);

			if (k < 0 && errno == EINTR)
				continue;
			if (k < 0) {
				n = -errno;
				break;
			}
			if (k == 0)
				break;
			done += (size_t)k;
			n = (ssize_t)done;
		}
	}
	if (n < 0)
		die("read %s off %lld len %zu: %s", f->path, (long long)off,
		    len, strerror((int)-n));
	if ((size_t)n != want)
		die("read %s off %lld len %zu: got %zd bytes, model says %zu "
		    "(size %lld)",
		    f->path, (long long)off, len, n, want, (long long)f->size);
	compare(f, X.rbuf, off, (size_t)n, "read");
	check_size(f, "read");
}

static off_t pick_size(struct fsxv_file *f)
{
	off_t s;

	switch (rnd_below(6)) {
	case 0:
		s = 0;
		break;
	case 1:
	case 2: /* near a block edge */
		s = (off_t)rnd_below((uint64_t)(X.maxsize / FSXV_BS + 1)) *
			    FSXV_BS +
		    (off_t)rnd_below(9) - 4;
		break;
	case 3: /* a small step */
		s = f->size + (off_t)rnd_below(2 * FSXV_BS) - FSXV_BS;
		break;
	default:
		s = (off_t)rnd_below((uint64_t)X.maxsize + 1);
		break;
	}
	if (s < 0)
		s = 0;
	return s > X.maxsize ? X.maxsize : s;
}

static void op_truncate(struct fsxv_file *f)
{
	off_t s = pick_size(f);
	off_t old = f->size;
	int by_path = rnd_below(4) == 0;

	if (s == 0 && rnd_below(4) != 0) /* fewer empty files */
		s = (off_t)rnd_below((uint64_t)X.maxsize);
	oplog("%s %s %lld -> %lld", by_path ? "truncate" : "ftruncate", f->path,
	      (long long)old, (long long)s);
	X.n.truncs++;
	if ((by_path ? truncate(f->path, s) : ftruncate(f->fd, s)) != 0)
		die("truncate %s to %lld: %s", f->path, (long long)s,
		    strerror(errno));
	model_resize(f, s);
	check_size(f, "ftruncate");
	check_around(f, min_off(old, s), min_off(old, s) + 1, "ftruncate");
	if (s > old)
		check_around(f, s - 1, s, "ftruncate (new end)");
}

static void op_fallocate(struct fsxv_file *f)
{
	off_t off = pick_off(f);
	off_t len = (off_t)pick_len(off);
	int keep = rnd_below(3) == 0;
	off_t old = f->size;

	if (X.nofalloc)
		return;
	oplog("fallocate%s %s off=%lld len=%lld (size %lld)",
	      keep ? " KEEP_SIZE" : "", f->path, (long long)off, (long long)len,
	      (long long)old);
	X.n.fallocs++;
	if (fallocate(f->fd, keep ? FALLOC_FL_KEEP_SIZE : 0, off, len) != 0)
		die("fallocate %s off %lld len %lld: %s", f->path,
		    (long long)off, (long long)len, strerror(errno));
	if (!keep && off + len > f->size)
		model_resize(f, off + len);
	check_size(f, "fallocate");
	check_around(f, off, off + len, "fallocate");
	if (f->size != old)
		check_around(f, old, old + 1, "fallocate (old end)");
}

static void op_punch(struct fsxv_file *f)
{
	off_t off = pick_off(f);
	off_t len = (off_t)pick_len(off);

	if (X.nopunch)
		return;
	oplog("punch %s off=%lld len=%lld (size %lld)", f->path, (long long)off,
	      (long long)len, (long long)f->size);
	X.n.punches++;
	if (fallocate(f->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, off,
		      len) != 0) {
		if (errno != EOPNOTSUPP)
			die("punch hole %s off %lld len %lld: %s", f->path,
			    (long long)off, (long long)len, strerror(errno));
		X.n.punch_unsup++;
		oplog("  -> EOPNOTSUPP, file unchanged");
	} else if (off < f->size) {
		memset(f->model + off, 0,
		       (size_t)(min_off(off + len, f->size) - off));
	}
	check_size(f, "punch hole");
	check_around(f, off, off + len, "punch hole");
}

/* SEEK_DATA/SEEK_HOLE: any answer consistent with the model is right:
 * [off, data) and the byte at a hole read as zeros, both within size. */
static void op_seek(struct fsxv_file *f)
{
	off_t off = f->size > 0 ? (off_t)rnd_below((uint64_t)f->size + 1) : 0;
	int data = (int)rnd_below(2);
	off_t r;

	oplog("lseek %s %lld %s (size %lld)", f->path, (long long)off,
	      data ? "SEEK_DATA" : "SEEK_HOLE", (long long)f->size);
	X.n.seeks++;
	r = lseek(f->fd, off, data ? SEEK_DATA : SEEK_HOLE);
	if (r < 0 && errno == ENXIO) {
		if (!data && off < f->size)
			die("SEEK_HOLE %s at %lld < size %lld: ENXIO", f->path,
			    (long long)off, (long long)f->size);
		r = f->size;
	} else if (r < 0) {
		die("lseek %s %lld: %s", f->path, (long long)off,
		    strerror(errno));
	}
	if (r < off || r > f->size)
		die("lseek %s %lld %s returned %lld (size %lld)", f->path,
		    (long long)off, data ? "SEEK_DATA" : "SEEK_HOLE",
		    (long long)r, (long long)f->size);
	if (data) {
		for (off_t o = off; o < r; o++)
			if (f->model[o] != 0)
				die("SEEK_DATA %s from %lld returned %lld, but "
				    "byte %lld is data (0x%02x)",
				    f->path, (long long)off, (long long)r,
				    (long long)o, f->model[o]);
	} else if (r < f->size && f->model[r] != 0) {
		die("SEEK_HOLE %s from %lld returned %lld, but that byte is "
		    "data (0x%02x)",
		    f->path, (long long)off, (long long)r, f->model[r]);
	}
}

static void op_sync(struct fsxv_file *f)
{
	int data = (int)rnd_below(2);

	oplog("%s %s", data ? "fdatasync" : "fsync", f->path);
	X.n.syncs++;
	if ((data ? fdatasync(f->fd) : fsync(f->fd)) != 0)
		die("fsync %s: %s", f->path, strerror(errno));
	check_size(f, "fsync");
}

static void op_reopen(struct fsxv_file *f)
{
	int trunc = X.nprocs == 0 && rnd_below(8) == 0;

	oplog("close+reopen%s %s (size %lld)", trunc ? " O_TRUNC" : "", f->path,
	      (long long)f->size);
	X.n.reopens++;
	if (close(f->fd) != 0)
		die("close %s: %s", f->path, strerror(errno));
	file_open(f, trunc ? O_TRUNC : 0);
	if (trunc)
		model_resize(f, 0);
	check_full(f, "reopen");
}

/* mmap [off, off + len) of the file (page-aligned around it). */
static uint8_t *map_range(struct fsxv_file *f, off_t off, size_t len, int prot,
			  uint8_t **base, size_t *maplen)
{
	long pg = sysconf(_SC_PAGESIZE);
	off_t a = off / pg * pg;
	void *m;

	*maplen = (size_t)(off - a) + len;
	m = mmap(NULL, *maplen, prot, MAP_SHARED, f->fd, a);
	if (m == MAP_FAILED)
		return NULL;
	*base = m;
	return (uint8_t *)m + (off - a);
}

static void op_mmap_read(struct fsxv_file *f)
{
	off_t off;
	size_t len;
	uint8_t *base;
	uint8_t *p;
	size_t maplen;

	if (X.nommap || f->size == 0)
		return;
	off = (off_t)rnd_below((uint64_t)f->size);
	len = pick_len(off);
	if (off + (off_t)len > f->size)
		len = (size_t)(f->size - off);
	oplog("mmap read %s off=%lld len=%zu (size %lld)", f->path,
	      (long long)off, len, (long long)f->size);
	X.n.mreads++;
	p = map_range(f, off, len, PROT_READ, &base, &maplen);
	if (p == NULL) {
		if (errno == ENODEV) {
			X.nommap = 1;
			return;
		}
		die("mmap %s: %s", f->path, strerror(errno));
	}
	memcpy(X.rbuf, p, len);
	if (munmap(base, maplen) != 0)
		die("munmap: %s", strerror(errno));
	compare(f, X.rbuf, off, len, "mmap read");
}

static void op_mmap_write(struct fsxv_file *f)
{
	off_t off;
	size_t len;
	uint8_t *base;
	uint8_t *p;
	size_t maplen;

	if (X.nommap || f->size == 0)
		return;
	off = (off_t)rnd_below((uint64_t)f->size);
	len = pick_len(off);
	if (off + (off_t)len > f->size)
		len = (size_t)(f->size - off);
	if (X.nprocs != 0 && (len = clamp_own(&off, len)) == 0)
		return;
	fill_random(X.wbuf, len);
	oplog("mmap write %s off=%lld len=%zu (size %lld)", f->path,
	      (long long)off, len, (long long)f->size);
	X.n.mwrites++;
	p = map_range(f, off, len, PROT_READ | PROT_WRITE, &base, &maplen);
	if (p == NULL) {
		if (errno == ENODEV) {
			X.nommap = 1;
			return;
		}
		die("mmap %s: %s", f->path, strerror(errno));
	}
	memcpy(p, X.wbuf, len);
	if (msync(base, maplen, MS_SYNC) != 0)
		die("msync %s: %s", f->path, strerror(errno));
	if (munmap(base, maplen) != 0)
		die("munmap: %s", strerror(errno));
	model_write(f, X.wbuf, len, off);
	check_size(f, "mmap write");
	check_around(f, off, off + (off_t)len, "mmap write");
}

/* One random operation on a random file. Shared mode keeps the size. */
static void step(void)
{
	struct fsxv_file *f = &X.files[rnd_below(X.nfiles)];
	uint64_t r = rnd_below(100);

	if (X.nprocs != 0) {
		if (r < 45)
			op_write(f);
		else if (r < 85)
			op_read(f);
		else if (r < 89)
			op_sync(f);
		else if (r < 92)
			op_reopen(f);
		else if (r < 96)
			op_mmap_read(f);
		else
			op_mmap_write(f);
		check_size(f, "step");
		return;
	}
	if (r < 30 || r >= 89)
		op_write(f);
	else if (r < 34)
		op_append(f);
	else if (r < 52)
		op_read(f);
	else if (r < 60)
		op_truncate(f);
	else if (r < 66)
		op_fallocate(f);
	else if (r < 71)
		op_punch(f);
	else if (r < 75)
		op_seek(f);
	else if (r < 78)
		op_sync(f);
	else if (r < 82)
		op_reopen(f);
	else if (r < 86)
		op_mmap_read(f);
	else
		op_mmap_write(f);
	if (X.fullcheck != 0 && X.op % X.fullcheck == 0)
		check_full(f, "periodic full check");
}

/* ------------------------------------------------------------------ */
/* Set-up and main                                                     */

static unsigned long parse_num(const char *s, const char *what)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno != 0 || *s == '\0' || *end != '\0') {
		fprintf(stderr, "fsxv: bad %s: %s\n", what, s);
		exit(2);
	}
	return (unsigned long)v;
}

static void usage(void)
{
	fprintf(stderr, "usage: fsxv [-n OPS] [-s SEED] [-p INDEX] [-f FILES] "
			"[-m MAXSIZE] [-w MAXWRITE] [-c FULLCHECK] [-S NPROCS] "
			"[-k] [-q] [-P] [-F] DIR\n");
	exit(2);
}

static void setup(void)
{
	X.rcap = (size_t)X.maxsize + 4 * FSXV_BS + X.maxwrite;
	X.wbuf = malloc(X.maxwrite);
	X.rbuf = malloc(X.rcap);
	if (X.wbuf == NULL || X.rbuf == NULL) {
		fprintf(stderr, "fsxv: out of memory\n");
		exit(2);
	}
	for (unsigned k = 0; k < X.nfiles; k++) {
		struct fsxv_file *f = &X.files[k];
		int n;

		if (X.nprocs != 0)
			n = snprintf(f->path, sizeof(f->path),
				     "%s/fsxv.shared.%u", X.dir, k);
		else
			n = snprintf(f->path, sizeof(f->path), "%s/fsxv.p%u.%u",
				     X.dir, X.index, k);
		if (n < 0 || (size_t)n >= sizeof(f->path)) {
			fprintf(stderr, "fsxv: directory name too long\n");
			exit(2);
		}
		f->model = calloc(1, (size_t)X.maxsize);
		if (f->model == NULL) {
			fprintf(stderr, "fsxv: out of memory\n");
			exit(2);
		}
		if (X.nprocs == 0) {
			file_open(f, O_CREAT | O_TRUNC);
			f->size = 0;
		} else {
			/* Every process sizes the file; the others' calls
			 * then change nothing. Own stripes start as zeros. */
			file_open(f, O_CREAT);
			f->size = X.maxsize;
			if (ftruncate(f->fd, X.maxsize) != 0)
				die("ftruncate %s: %s", f->path,
				    strerror(errno));
		}
		check_full(f, "initial check");
	}
}

static void finish(void)
{
	for (unsigned k = 0; k < X.nfiles; k++) {
		struct fsxv_file *f = &X.files[k];

		X.op = X.nops + 1;
		check_full(f, "final check");
		if (close(f->fd) != 0)
			die("close %s: %s", f->path, strerror(errno));
		f->fd = -1;
		if (X.nprocs == 0 && !X.keep && unlink(f->path) != 0)
			die("unlink %s: %s", f->path, strerror(errno));
		free(f->model);
	}
	free(X.wbuf);
	free(X.rbuf);
}

int main(int argc, char **argv)
{
	int c;
	int have_seed = 0;

	X.nops = 10000;
	X.nfiles = 4;
	X.maxsize = 1024 * 1024;
	X.maxwrite = 128 * 1024;
	X.fullcheck = 1000;
	while ((c = getopt(argc, argv, "n:s:p:f:m:w:c:S:kqPF")) != -1) {
		switch (c) {
		case 'n':
			X.nops = parse_num(optarg, "op count");
			break;
		case 's':
			X.seed = parse_num(optarg, "seed");
			have_seed = 1;
			break;
		case 'p':
			X.index = (unsigned)parse_num(optarg, "index");
			break;
		case 'f':
			X.nfiles = (unsigned)parse_num(optarg, "file count");
			break;
		case 'm':
			X.maxsize = (off_t)parse_num(optarg, "max size");
			break;
		case 'w':
			X.maxwrite = parse_num(optarg, "max write");
			break;
		case 'c':
			X.fullcheck = parse_num(optarg, "full check");
			break;
		case 'S':
			X.nprocs = (unsigned)parse_num(optarg, "nprocs");
			break;
		case 'k':
			X.keep = 1;
			break;
		case 'q':
			X.quiet = 1;
			break;
		case 'P':
			X.nopunch = 1;
			break;
		case 'F':
			X.nofalloc = 1;
			break;
		default:
			usage();
		}
	}
	if (optind + 1 != argc || X.nfiles == 0 || X.nfiles > FSXV_MAX_FILES ||
	    X.maxsize < 2 * FSXV_BS || X.maxwrite < FSXV_BS ||
	    (X.nprocs != 0 && X.index >= X.nprocs))
		usage();
	X.dir = argv[optind];
	if (!have_seed)
		X.seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 16);
	X.rng = X.seed ^ (0x5851f42d4c957f2dULL * (X.index + 1));
	if (!X.quiet)
		printf("fsxv: proc %u seed %" PRIu64 " ops %lu files %u "
		       "maxsize %lld%s\n",
		       X.index, X.seed, X.nops, X.nfiles, (long long)X.maxsize,
		       X.nprocs ? " (shared)" : "");
	setup();
	for (X.op = 1; X.op <= X.nops; X.op++)
		step();
	finish();
	printf("fsxv: proc %u seed %" PRIu64 ": %lu ops, 0 mismatches "
	       "(writes %lu appends %lu reads %lu truncates %lu fallocates %lu "
	       "punches %lu (EOPNOTSUPP %lu) seeks %lu syncs %lu reopens %lu "
	       "mmap reads %lu mmap writes %lu full checks %lu)%s\n",
	       X.index, X.seed, X.nops, X.n.writes, X.n.appends, X.n.reads,
	       X.n.truncs, X.n.fallocs, X.n.punches, X.n.punch_unsup, X.n.seeks,
	       X.n.syncs, X.n.reopens, X.n.mreads, X.n.mwrites, X.n.fulls,
	       X.nommap ? " (mmap unsupported)" : "");
	return 0;
}
