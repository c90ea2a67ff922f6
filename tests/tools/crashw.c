/* SPDX-License-Identifier: MIT */
/*
 * crashw: writer and checker for the crash suite (tests/checks/58-failure.sh).
 *   crashw write DIR JOURNAL ROUND SEED [DAEMON-PID AFTER-N-SYNCED]
 *   crashw verify DIR JOURNAL ROUND|all
 * Every byte written is part of a 16-byte unit at a 16-aligned offset:
 * magic, a hash of the file name, a write number and the unit index, so a
 * reader can tell for each unit whether some write of this file put it
 * there (or it is still zero). "write" works on files of round ROUND: sync
 * files ("W name" journaled at creation; writes, overwrites, appends,
 * block-crossing offsets, then fsync; "S name size sha256" goes to
 * JOURNAL, which is fsynced, before the next step; "M name" before such a
 * file is modified again) and volatile files ("V name" journaled first,
 * written and never synced). It runs until a call fails because the
 * daemon was killed (ENOTCONN/ECONNABORTED, or any error while statfs of
 * DIR says ENOTCONN: exit 0); any other error exits 1. Given a daemon
 * pid, it SIGKILLs the daemon itself inside a big write (maybe_kill).
 * "verify": a file whose last record is S must read back exactly (size
 * and sha256); the others may hold any units their writes produced, or
 * zeros, or fail with EIO per 4096-byte block; any other error or a
 * foreign unit exits 1. Prints one summary line. Not proved.
 * Over 600 lines on purpose: writer and verifier must agree on the unit
 * layout and the journal grammar, so both live in one standalone program.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "crypto/ossl_aead.h"

#define UNIT 16U
#define MAGIC 0x76637277U /* "vcrw" */
#define NSYNC_MAX 40U	  /* sync files per round */
#define NVOL 3U		  /* volatile files per round */
#define SYNC_MAX (160U * 1024U)
#define VOL_MAX (2U * 1024U * 1024U)
#define NAME_LEN 64U

static uint64_t rng_state;

static uint64_t rnd(void)
{
	uint64_t x = rng_state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	rng_state = x;
	return x;
}

static uint32_t rnd_below(uint32_t n)
{
	return (uint32_t)(rnd() % n);
}

static uint32_t name_hash(const char *name)
{
	uint32_t h = 2166136261U;

	for (const char *p = name; *p != '\0'; p++)
		h = (h ^ (uint8_t)*p) * 16777619U;
	return h;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/* Fill len bytes (a multiple of UNIT) of units for file hash h, write gen,
 * starting at file offset off (a multiple of UNIT). */
static void fill_units(uint8_t *buf, size_t len, uint32_t h, uint32_t gen,
		       uint64_t off)
{
	for (size_t i = 0; i < len; i += UNIT) {
		put32(buf + i, MAGIC);
		put32(buf + i + 4, h);
		put32(buf + i + 8, gen);
		put32(buf + i + 12, (uint32_t)((off + i) / UNIT));
	}
}

/* ---------------------------------------------------------------- write */

struct wfile {
	char name[NAME_LEN];
	int fd;
	uint32_t hash;
	uint8_t *model; /* sync files: the expected content */
	size_t size;
};

static int journal_fd = -1;
static uint32_t gen_next = 1;
static unsigned long n_ops;
static unsigned long n_synced;

static const char *mount_dir;
static dev_t mount_dev; /* st_dev of the mount when the writer started */

/* 1 when the mount is gone: statfs fails with ENOTCONN/ECONNABORTED, or
 * the directory is no longer on the mount (the test unmounted it lazily
 * after the kill). */
static int mount_gone(void)
{
	struct statvfs sv;
	struct stat st;

	if (statvfs(mount_dir, &sv) != 0)
		return errno == ENOTCONN || errno == ECONNABORTED;
	return stat(mount_dir, &st) == 0 && st.st_dev != mount_dev;
}

/* An error of the writer: 0 when the mount went away (exit quietly). A
 * request in flight when the daemon dies may also fail with another
 * error: EIO, or under FUSE over io_uring ECANCELED (the daemon's rings
 * are torn down before its connection is). Then the mount itself must be
 * gone within 3 seconds; an error on a mount that stays is a failure. */
static int stopped(const char *what, const char *name)
{
	int e = errno;
	int gone = e == ENOTCONN || e == ECONNABORTED;

	for (int i = 0; !gone && i < 300; i++) {
		gone = mount_gone();
		if (!gone)
			(void)usleep(10000);
	}
	if (gone) {
		printf("crashw: stopped by %s at %s %s after %lu writes, "
		       "%lu fsynced states\n",
		       strerror(e), what, name, n_ops, n_synced);
		return 0;
	}
	fprintf(stderr, "crashw: %s %s: %s (the mount is still there)\n", what,
		name, strerror(e));
	return 1;
}

static int journal(const char *line)
{
	size_t len = strlen(line);

	if (write(journal_fd, line, len) != (ssize_t)len ||
	    fsync(journal_fd) != 0) {
		perror("crashw: journal");
		return -1;
	}
	return 0;
}

/* One pwrite of len bytes at off; updates the model when there is one.
 * Returns 0, 1 (mount gone) or -1 (error). */
/* Optional: SIGKILL the daemon (kill_pid) from a thread 0..4 ms into the
 * first big volatile write after kill_after fsynced states, so that the
 * kill lands inside the daemon's work on that write more often than a
 * kill from outside at a random time does. */
static pid_t kill_pid;
static pid_t kill_target; /* set once, when the killer thread starts */
static unsigned long kill_after;
static unsigned kill_delay_us;

static void *killer(void *arg)
{
	(void)arg;
	usleep(kill_delay_us);
	if (kill_target > 0) /* never 0 or -1: those are process groups */
		(void)kill(kill_target, SIGKILL);
	return NULL;
}

static void maybe_kill(const struct wfile *f, size_t len)
{
	pthread_t t;

	if (kill_pid <= 0 || f->model != NULL || len < 65536 ||
	    n_synced < kill_after)
		return;
	kill_delay_us = rnd_below(4000);
	kill_target = kill_pid;
	kill_pid = 0; /* once */
	if (pthread_create(&t, NULL, killer, NULL) == 0)
		(void)pthread_detach(t);
}

static int do_write(struct wfile *f, uint8_t *buf, size_t off, size_t len)
{
	ssize_t n;

	fill_units(buf, len, f->hash, gen_next++, off);
	maybe_kill(f, len);
	n = pwrite(f->fd, buf, len, (off_t)off);
	if (n != (ssize_t)len) {
		if (n >= 0)
			errno = EIO; /* a short write is an error here */
		return stopped("write", f->name) == 0 ? 1 : -1;
	}
	n_ops++;
	if (f->model != NULL) {
		if (off > f->size)
			memset(f->model + f->size, 0, off - f->size);
		memcpy(f->model + off, buf, len);
	}
	if (off + len > f->size)
		f->size = off + len;
	return 0;
}

/* A random write inside [0, max): sizes from one unit to 40 KiB, offsets
 * often just before a block edge, appends at the end. */
static int random_write(struct wfile *f, uint8_t *buf, size_t max)
{
	static const size_t sizes[] = {
		16, 48, 4096, 4112, 8192, 12304, 40960
	};
	size_t len = sizes[rnd_below(7)];
	size_t off;
	uint32_t kind = rnd_below(3);

	/* Volatile files also get big writes (up to 1 MiB): a kill inside
	 * the daemon's pwrite can then cut a block short. */
	if (max >= VOL_MAX && rnd_below(4) == 0)
		len = (size_t)(rnd_below(64) + 1) * 16384U +
		      UNIT * rnd_below(8);
	if (kind == 0) /* append */
		off = f->size;
	else if (kind == 1) /* across a block edge */
		off = (size_t)(rnd_below((uint32_t)(max / 4096U)) + 1U) *
			      4096U -
		      UNIT * (rnd_below(8) + 1U);
	else /* anywhere: overwrite or past the end (hole) */
		off = (size_t)rnd_below((uint32_t)(max / UNIT)) * UNIT;
	if (off + len > max) {
		if (len > max)
			len = max;
		off = max - len;
	}
	return do_write(f, buf, off, len);
}

static int sync_state(struct wfile *f)
{
	uint8_t sum[32];
	char line[256];
	int k;

	if (fsync(f->fd) != 0)
		return stopped("fsync", f->name) == 0 ? 1 : -1;
	ossl_sha256(sum, f->model, f->size);
	k = snprintf(line, sizeof(line), "S %s %zu ", f->name, f->size);
	for (size_t i = 0; i < sizeof(sum) && k > 0; i++)
		k += snprintf(line + k, sizeof(line) - (size_t)k, "%02x",
			      sum[i]);
	(void)snprintf(line + k, sizeof(line) - (size_t)k, "\n");
	if (journal(line) != 0)
		return -1;
	n_synced++;
	return 0;
}

static int open_file(struct wfile *f, const char *dir, const char *kind,
		     unsigned round, unsigned i)
{
	char path[4096];
	char line[128];

	(void)snprintf(f->name, sizeof(f->name), "%s%02u-%02u", kind, round, i);
	f->hash = name_hash(f->name);
	f->size = 0;
	(void)snprintf(line, sizeof(line), "%c %s\n",
		       kind[0] == 'v' ? 'V' : 'W', f->name);
	if (journal(line) != 0)
		return -1;
	(void)snprintf(path, sizeof(path), "%s/%s", dir, f->name);
	f->fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (f->fd < 0)
		return stopped("open", f->name) == 0 ? 1 : -1;
	return 0;
}

static int volatile_writes(struct wfile *vol, uint8_t *buf)
{
	for (unsigned k = 0; k < 2; k++) {
		int rc = random_write(&vol[rnd_below(NVOL)], buf, VOL_MAX);

		if (rc != 0)
			return rc;
	}
	return 0;
}

/* Sync file i: a few writes, fsync, journal; sometimes a second phase
 * (journal "M" first). Volatile writes in between. */
static int sync_file(const char *dir, unsigned round, unsigned i,
		     struct wfile *vol, uint8_t *buf, uint8_t *model)
{
	struct wfile f;
	int rc;
	unsigned phases = 1 + rnd_below(2);

	memset(&f, 0, sizeof(f));
	f.model = model;
	rc = open_file(&f, dir, "s", round, i);
	if (rc != 0)
		return rc;
	for (unsigned ph = 0; ph < phases && rc == 0; ph++) {
		unsigned nw = 2 + rnd_below(5);

		if (ph > 0) {
			char line[128];

			(void)snprintf(line, sizeof(line), "M %s\n", f.name);
			if (journal(line) != 0) {
				rc = -1;
				break;
			}
		}
		for (unsigned w = 0; w < nw && rc == 0; w++) {
			rc = random_write(&f, buf, SYNC_MAX);
			if (rc == 0)
				rc = volatile_writes(vol, buf);
		}
		if (rc == 0)
			rc = sync_state(&f);
	}
	close(f.fd);
	return rc;
}

static int cmd_write(const char *dir, const char *jpath, unsigned round,
		     uint64_t seed)
{
	struct wfile vol[NVOL];
	uint8_t *buf = malloc(VOL_MAX);
	uint8_t *model = malloc(SYNC_MAX);
	int rc = 0;
	unsigned nv = 0;

	mount_dir = dir;
	{
		struct stat st;

		if (stat(dir, &st) != 0) {
			perror("crashw: stat of the mount");
			free(buf);
			free(model);
			return 1;
		}
		mount_dev = st.st_dev;
	}
	rng_state = seed * 0x9e3779b97f4a7c15ULL + 1;
	gen_next = round << 20;
	journal_fd =
		open(jpath, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (buf == NULL || model == NULL || journal_fd < 0) {
		perror("crashw: setup");
		free(buf);
		free(model);
		return 1;
	}
	for (; nv < NVOL && rc == 0; nv++) {
		vol[nv].model = NULL;
		rc = open_file(&vol[nv], dir, "v", round, nv);
	}
	for (unsigned i = 0; rc == 0 && i < NSYNC_MAX; i++)
		rc = sync_file(dir, round, i, vol, buf, model);
	/* Then only volatile writes, until the daemon is killed. */
	while (rc == 0)
		rc = volatile_writes(vol, buf);
	for (unsigned k = 0; k < nv; k++)
		if (vol[k].fd >= 0)
			close(vol[k].fd);
	close(journal_fd);
	free(buf);
	free(model);
	return rc < 0 ? 1 : 0;
}

/* --------------------------------------------------------------- verify */

struct jent {
	char name[NAME_LEN];
	char kind; /* S, M, V or W: the last record */
	size_t size;
	char sha[65];
};

static unsigned long n_exact;
static unsigned long n_loose;
static unsigned long n_eio;

/* A unit of file h at offset off: all zero or one of h's writes. A short
 * tail (len < UNIT) must be a prefix of either. */
static int unit_ok(const uint8_t *u, size_t len, uint32_t h, uint64_t off)
{
	uint8_t want[UNIT];
	size_t z = 0;

	while (z < len && u[z] == 0)
		z++;
	if (z == len)
		return 1;
	if (len < 12)
		return 0;
	fill_units(want, UNIT, h, get32(u + 8), off);
	return memcmp(u, want, len) == 0;
}

static int verify_loose(const struct jent *e, int fd, const char *path)
{
	uint8_t blk[4096];
	uint32_t h = name_hash(e->name);
	off_t off = 0;

	for (;;) {
		ssize_t n = pread(fd, blk, sizeof(blk), off);

		if (n < 0 && errno == EIO) {
			n_eio++;
			off += (off_t)sizeof(blk);
			struct stat st;

			if (fstat(fd, &st) != 0 || off >= st.st_size)
				break;
			continue;
		}
		if (n < 0) {
			fprintf(stderr, "crashw: read %s: %s\n", path,
				strerror(errno));
			return -1;
		}
		if (n == 0)
			break;
		for (size_t i = 0; i < (size_t)n; i += UNIT) {
			size_t l = (size_t)n - i < UNIT ? (size_t)n - i : UNIT;

			if (!unit_ok(blk + i, l, h, (uint64_t)off + i)) {
				fprintf(stderr,
					"crashw: %s: foreign bytes at offset "
					"%llu\n",
					path, (unsigned long long)off + i);
				return -1;
			}
		}
		off += n;
	}
	n_loose++;
	return 0;
}

static int verify_exact(const struct jent *e, int fd, const char *path)
{
	uint8_t *buf = malloc(e->size + 1);
	uint8_t sum[32];
	char hex[65];
	size_t got = 0;

	if (buf == NULL)
		return -1;
	while (got <= e->size) {
		ssize_t n = pread(fd, buf + got, e->size + 1 - got, (off_t)got);
		if (n < 0) {
			fprintf(stderr, "crashw: fsynced %s: read: %s\n", path,
				strerror(errno));
			free(buf);
			return -1;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	ossl_sha256(sum, buf, got < e->size ? got : e->size);
	free(buf);
	for (size_t i = 0; i < sizeof(sum); i++)
		(void)snprintf(hex + 2 * i, 3, "%02x", sum[i]);
	if (got != e->size || strcmp(hex, e->sha) != 0) {
		fprintf(stderr,
			"crashw: fsynced %s changed: %zu bytes (want %zu), "
			"sha256 %s (want %s)\n",
			path, got, e->size, hex, e->sha);
		return -1;
	}
	n_exact++;
	return 0;
}

/* A journal line: "K name" or "S name size sha256". 0 or -1. */
static int parse_line(char *line, struct jent *e)
{
	char *save = NULL;
	char *kind = strtok_r(line, " \n", &save);
	char *name = strtok_r(NULL, " \n", &save);
	char *size;
	char *sha;
	char *end = NULL;

	if (kind == NULL || name == NULL || strlen(name) >= sizeof(e->name))
		return -1;
	e->kind = kind[0];
	memcpy(e->name, name, strlen(name) + 1);
	if (e->kind != 'S')
		return 0;
	size = strtok_r(NULL, " \n", &save);
	sha = strtok_r(NULL, " \n", &save);
	if (size == NULL || sha == NULL || strlen(sha) != 64)
		return -1;
	e->size = (size_t)strtoull(size, &end, 10);
	if (*end != '\0')
		return -1;
	memcpy(e->sha, sha, 65);
	return 0;
}

static int cmd_verify(const char *dir, const char *jpath, const char *which)
{
	FILE *j = fopen(jpath, "re");
	struct jent *ents = NULL;
	size_t n = 0;
	size_t cap = 0;
	char line[256];
	int bad = 0;
	char prefix[16] = "";

	if (j == NULL) {
		perror("crashw: journal");
		return 1;
	}
	if (strcmp(which, "all") != 0)
		(void)snprintf(prefix, sizeof(prefix), "%02lu-",
			       strtoul(which, NULL, 10));
	while (fgets(line, sizeof(line), j) != NULL) {
		struct jent e;
		size_t k;

		memset(&e, 0, sizeof(e));
		if (parse_line(line, &e) != 0)
			continue;
		if (prefix[0] != '\0' && strncmp(e.name + 1, prefix, 3) != 0)
			continue;
		for (k = 0; k < n && strcmp(ents[k].name, e.name) != 0; k++)
			;
		if (k == n) {
			if (n == cap) {
				size_t nc = cap ? 2 * cap : 64;
				struct jent *ne =
					realloc(ents, nc * sizeof(*ents));

				if (ne == NULL) {
					bad = 1;
					break;
				}
				ents = ne;
				cap = nc;
			}
			n++;
		}
		ents[k] = e;
	}
	fclose(j);
	for (size_t k = 0; k < n; k++) {
		char path[4096];
		int fd;

		(void)snprintf(path, sizeof(path), "%s/%s", dir, ents[k].name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			/* A file created at the kill may not exist. */
			if (ents[k].kind != 'S' && errno == ENOENT)
				continue;
			fprintf(stderr, "crashw: open %s: %s\n", path,
				strerror(errno));
			bad = 1;
			continue;
		}
		if ((ents[k].kind == 'S'
			     ? verify_exact(&ents[k], fd, path)
			     : verify_loose(&ents[k], fd, path)) != 0)
			bad = 1;
		close(fd);
	}
	free(ents);
	printf("crashw: %lu fsynced files identical, %lu in-flight files "
	       "consistent (%lu EIO blocks)%s\n",
	       n_exact, n_loose, n_eio, bad ? ", ERRORS" : "");
	return bad;
}

int main(int argc, char **argv)
{
	char *end = NULL;

	if ((argc == 6 || argc == 8) && strcmp(argv[1], "write") == 0) {
		unsigned long round = strtoul(argv[4], &end, 10);
		unsigned long long seed;

		if (*end != '\0' || round > 99)
			return 2;
		seed = strtoull(argv[5], &end, 10);
		if (*end != '\0')
			return 2;
		if (argc == 8) {
			kill_pid = (pid_t)strtol(argv[6], &end, 10);
			if (*end != '\0' || kill_pid <= 1)
				return 2;
			kill_after = strtoul(argv[7], &end, 10);
			if (*end != '\0')
				return 2;
		}
		return cmd_write(argv[2], argv[3], (unsigned)round, seed);
	}
	if (argc == 5 && strcmp(argv[1], "verify") == 0)
		return cmd_verify(argv[2], argv[3], argv[4]);
	fprintf(stderr, "usage: crashw write DIR JOURNAL ROUND SEED "
			"[DAEMON-PID AFTER-N-SYNCED]\n"
			"       crashw verify DIR JOURNAL ROUND|all\n");
	return 2;
}
