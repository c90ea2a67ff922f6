/* SPDX-License-Identifier: MIT */
/*
 * concw: concurrency check for tests/checks/58-failure.sh.
 *   concw FILE ROUNDS SEED
 * Phase 1, ROUNDS times: 8 threads write 31 pwrites each (unaligned
 * offsets and lengths, regions overlapping across threads) into FILE
 * through two descriptors (two open() calls; threads 0, 2, 4, 6 use the
 * first). Every write fills its range with its own byte value (1..248), so
 * each byte names the write that put it there. Afterwards the file is read
 * back through a fresh descriptor, bypassing the page cache, and for each
 * 4096-byte block: no EIO; a byte no write covered keeps its old value; a
 * covered byte holds the value of one write covering it; and the writes
 * that won the block's bytes admit one serial order (the graph "v covers a
 * byte w won, so v came before w" has no cycle); the size is the old size
 * or the end of the furthest write.
 * In phases 1 and 2 two reader threads race the writers with O_DIRECT
 * preads (no EIO, no byte from nowhere).
 * Phase 2: the same writers race a thread that truncates the file to
 * random sizes (shrink and grow, unaligned); afterwards the whole file
 * reads without EIO and every byte is 0, its old value or the value of a
 * write covering it.
 * Phase 3 (ROUNDS * 1000 rewrites): see race_phase().
 * The kernel serializes writes and truncates of one inode (i_rwsem), so
 * phases 1 and 2 check the end-to-end result; phase 3 is the one that
 * fails when the daemon lets a read into a block rewrite (checked by
 * taking the write lock shared: EIO).
 * Prints one line per phase; exits 1 on any violation (with the first
 * offending offset). Not proved.
 * Over 600 lines on purpose: a standalone program whose three phases share
 * one write model and one per-block checker (the serial-order test); split
 * up, each part would need the model's state passed between files.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NTHREADS 8U
#define NW 31U		      /* writes per thread per round: 8 * 31 = 248 */
#define SPAN (96U * 1024U)    /* initial file size */
#define MAXEND (112U * 1024U) /* writes may extend the file up to here */
#define MAXLEN 9000U
#define BLK 4096U

struct wrec {
	size_t off;
	size_t len;
	uint8_t val;
};

struct tctx {
	int fd;
	unsigned t;
	uint64_t seed;
	struct wrec *recs; /* NW records, filled by the thread */
	int err;
};

static uint64_t xs(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*s = x;
	return x;
}

static void *writer(void *arg)
{
	struct tctx *c = arg;
	uint64_t s = c->seed * 0x9e3779b97f4a7c15ULL + c->t + 1;
	uint8_t buf[MAXLEN];

	for (unsigned i = 0; i < NW; i++) {
		struct wrec *r = &c->recs[i];
		ssize_t n;

		r->len = 1 + (size_t)(xs(&s) % MAXLEN);
		r->off = (size_t)(xs(&s) % (MAXEND - r->len));
		r->val = (uint8_t)(c->t * NW + i + 1);
		memset(buf, r->val, r->len);
		n = pwrite(c->fd, buf, r->len, (off_t)r->off);
		if (n != (ssize_t)r->len) {
			c->err = n < 0 ? errno : EIO;
			r->len = 0;
			return NULL;
		}
	}
	return NULL;
}

struct tr_ctx {
	int fd;
	uint64_t seed;
	volatile int stop;
	unsigned count;
	int err;
};

static void *truncator(void *arg)
{
	struct tr_ctx *c = arg;
	uint64_t s = c->seed + 77;

	while (!c->stop) {
		off_t sz = (off_t)(xs(&s) % MAXEND);

		if (ftruncate(c->fd, sz) != 0) {
			c->err = errno;
			return NULL;
		}
		c->count++;
		usleep(200);
	}
	return NULL;
}

/* Readers racing the writers: O_DIRECT preads of random ranges (the
 * kernel serializes writes to one inode, but not reads against them, so
 * these reach the daemon while it rewrites blocks). No read may fail, and
 * every byte is a write's value (1..248), its old value or 0. */
struct rd_ctx {
	const char *path;
	const uint8_t *old;
	size_t oldsize;
	uint64_t seed;
	volatile int stop;
	unsigned long reads;
	int err;
	size_t bad_off;
};

static void *reader(void *arg)
{
	struct rd_ctx *c = arg;
	uint64_t s = c->seed * 31 + 5;
	uint8_t *buf = NULL;
	int fd;

	if (posix_memalign((void **)&buf, BLK, 4 * BLK) != 0) {
		c->err = ENOMEM;
		return NULL;
	}
	fd = open(c->path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0) {
		c->err = errno;
		free(buf);
		return NULL;
	}
	while (!c->stop && c->err == 0) {
		size_t off = (size_t)(xs(&s) % MAXEND);
		size_t len = 1 + (size_t)(xs(&s) % (4 * BLK));
		ssize_t n = pread(fd, buf, len, (off_t)off);

		if (n < 0) {
			c->err = errno;
			c->bad_off = off;
			break;
		}
		for (size_t i = 0; i < (size_t)n; i++) {
			size_t o = off + i;

			if (buf[i] > 248 &&
			    (o >= c->oldsize || buf[i] != c->old[o])) {
				c->err = EBADMSG;
				c->bad_off = o;
				break;
			}
		}
		c->reads++;
	}
	close(fd);
	free(buf);
	return NULL;
}

/* Read the whole file, bypassing the page cache; returns its size or -1
 * (EIO or another error: message printed). */
static ssize_t read_all(const char *path, uint8_t *buf, size_t cap)
{
	int fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	size_t got = 0;

	if (fd < 0 && errno == EINVAL) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0)
			(void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	}
	if (fd < 0) {
		fprintf(stderr, "concw: open %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (;;) {
		ssize_t n = pread(fd, buf + got, cap - got, (off_t)got);

		if (n < 0) {
			fprintf(stderr, "concw: read at %zu: %s\n", got,
				strerror(errno));
			close(fd);
			return -1;
		}
		if (n == 0)
			break;
		got += (size_t)n;
		if (got == cap)
			break;
	}
	close(fd);
	return (ssize_t)got;
}

/* Does the precedence graph of block b have a cycle? adj[i] has bit j when
 * write i must come before write j. Writes are indexed 1..248 by value. */
static int has_cycle(uint64_t adj[256][4])
{
	uint8_t state[256];
	uint8_t stack[256];
	unsigned next[256];

	memset(state, 0, sizeof(state));
	for (unsigned root = 1; root < 256; root++) {
		unsigned sp = 0;

		if (state[root] != 0)
			continue;
		stack[sp++] = (uint8_t)root;
		next[root] = 0;
		state[root] = 1;
		while (sp > 0) {
			unsigned v = stack[sp - 1];
			unsigned w = next[v];

			while (w < 256 && !(adj[v][w / 64] >> (w % 64) & 1ULL))
				w++;
			if (w == 256) {
				state[v] = 2;
				sp--;
				continue;
			}
			next[v] = w + 1;
			if (state[w] == 1)
				return 1;
			if (state[w] == 0) {
				state[w] = 1;
				next[w] = 0;
				stack[sp++] = (uint8_t)w;
			}
		}
	}
	return 0;
}

/* Phase 1 check. old: content before the round (oldsize bytes); got:
 * after (gsize). recs: all writes of the round (len 0: failed). */
static int check_round(const uint8_t *old, size_t oldsize, const uint8_t *got,
		       size_t gsize, const struct wrec *recs, size_t nrec)
{
	static uint64_t adj[256][4];
	size_t want = oldsize;

	for (size_t i = 0; i < nrec; i++)
		if (recs[i].off + recs[i].len > want)
			want = recs[i].off + recs[i].len;
	if (gsize != want) {
		fprintf(stderr, "concw: size %zu, want %zu\n", gsize, want);
		return -1;
	}
	for (size_t b = 0; b < gsize; b += BLK) {
		size_t e = b + BLK < gsize ? b + BLK : gsize;

		memset(adj, 0, sizeof(adj));
		for (size_t o = b; o < e; o++) {
			int covered = 0;
			int won = 0;
			uint8_t v = got[o];

			for (size_t i = 0; i < nrec; i++) {
				const struct wrec *r = &recs[i];

				if (o < r->off || o >= r->off + r->len)
					continue;
				covered = 1;
				if (r->val == v)
					won = 1;
			}
			if (!covered) {
				if (v != (o < oldsize ? old[o] : 0)) {
					fprintf(stderr,
						"concw: byte %zu changed "
						"without a write\n",
						o);
					return -1;
				}
				continue;
			}
			if (!won) {
				fprintf(stderr,
					"concw: byte %zu = %u, no write "
					"covering it wrote that (lost "
					"update)\n",
					o, v);
				return -1;
			}
			for (size_t i = 0; i < nrec; i++) {
				const struct wrec *r = &recs[i];

				if (o >= r->off && o < r->off + r->len &&
				    r->val != v)
					adj[r->val][v / 64] |= 1ULL << (v % 64);
			}
		}
		if (has_cycle(adj)) {
			fprintf(stderr,
				"concw: block %zu is no serial order of "
				"its writes\n",
				b / BLK);
			return -1;
		}
	}
	return 0;
}

static unsigned long n_reads;

/* Run the 8 writers and 2 readers (and the truncator when trunc != 0)
 * once. */
static int run_writers(int fds[2], uint64_t seed, struct wrec *recs, int trunc,
		       unsigned *ntrunc, struct rd_ctx *rd)
{
	pthread_t th[NTHREADS];
	pthread_t tt;
	pthread_t tr[2];
	struct tctx c[NTHREADS];
	struct tr_ctx tc = { fds[1], seed, 0, 0, 0 };
	int rc = 0;

	if (trunc && pthread_create(&tt, NULL, truncator, &tc) != 0)
		return -1;
	for (unsigned k = 0; k < 2; k++) {
		rd[k].seed = seed + k;
		if (pthread_create(&tr[k], NULL, reader, &rd[k]) != 0) {
			fprintf(stderr, "concw: pthread_create failed\n");
			exit(1);
		}
	}
	for (unsigned t = 0; t < NTHREADS; t++) {
		c[t].fd = fds[t % 2];
		c[t].t = t;
		c[t].seed = seed;
		c[t].recs = recs + t * NW;
		c[t].err = 0;
		if (pthread_create(&th[t], NULL, writer, &c[t]) != 0) {
			fprintf(stderr, "concw: pthread_create failed\n");
			exit(1);
		}
	}
	for (unsigned t = 0; t < NTHREADS; t++) {
		pthread_join(th[t], NULL);
		if (c[t].err != 0) {
			fprintf(stderr, "concw: thread %u write: %s\n", t,
				strerror(c[t].err));
			rc = -1;
		}
	}
	if (trunc) {
		tc.stop = 1;
		pthread_join(tt, NULL);
		if (tc.err != 0) {
			fprintf(stderr, "concw: ftruncate: %s\n",
				strerror(tc.err));
			rc = -1;
		}
		*ntrunc += tc.count;
	}
	for (unsigned k = 0; k < 2; k++) {
		rd[k].stop = 1;
		pthread_join(tr[k], NULL);
		n_reads += rd[k].reads;
		if (rd[k].err != 0) {
			fprintf(stderr,
				"concw: concurrent read near offset %zu: %s\n",
				rd[k].bad_off,
				rd[k].err == EBADMSG ? "bytes from no write"
						     : strerror(rd[k].err));
			rc = -1;
		}
	}
	return rc;
}

/*
 * Phase 3: a writer rewrites blocks 0 and 1 whole, one byte value per
 * write, alternating between the two handles, while two readers read them
 * with O_DIRECT. Each ciphertext block straddles two pages of the backing
 * file, so a read that is not kept out of a rewrite sees half a block:
 * EIO. Every read must succeed and each block it returns must hold one
 * write's value throughout.
 */
struct race_ctx {
	const char *path;
	volatile int stop;
	unsigned long reads;
	int err;
	size_t bad_off; /* first byte that differs from its block's first */
	size_t bad_len; /* length of that read */
	uint8_t bad[2]; /* the block's first byte, the differing byte */
};

static void *race_reader(void *arg)
{
	struct race_ctx *c = arg;
	uint8_t *buf = NULL;
	int fd;

	if (posix_memalign((void **)&buf, BLK, 2 * BLK) != 0) {
		c->err = ENOMEM;
		return NULL;
	}
	fd = open(c->path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0)
		c->err = errno;
	while (fd >= 0 && !c->stop && c->err == 0) {
		ssize_t n = pread(fd, buf, 2 * BLK, 0);

		if (n < 0) {
			c->err = errno;
			break;
		}
		for (size_t i = 0; i < (size_t)n; i++)
			if (buf[i] != buf[i / BLK * BLK]) {
				c->err = EBADMSG;
				c->bad_off = i;
				c->bad_len = (size_t)n;
				c->bad[0] = buf[i / BLK * BLK];
				c->bad[1] = buf[i];
				break;
			}
		c->reads++;
	}
	if (fd >= 0)
		close(fd);
	free(buf);
	return NULL;
}

static int race_phase(const char *path, int fds[2], unsigned writes)
{
	struct race_ctx c[2];
	pthread_t th[2];
	uint8_t buf[2 * BLK];
	int rc = 0;

	memset(c, 0, sizeof(c));
	for (unsigned k = 0; k < 2; k++)
		c[k].path = path;
	/* Uniform blocks before the readers start (the old content is not). */
	memset(buf, 1, sizeof(buf));
	if (pwrite(fds[0], buf, sizeof(buf), 0) != (ssize_t)sizeof(buf)) {
		fprintf(stderr, "concw: phase 3 write: %s\n", strerror(errno));
		return -1;
	}
	for (unsigned k = 0; k < 2; k++)
		if (pthread_create(&th[k], NULL, race_reader, &c[k]) != 0) {
			fprintf(stderr, "concw: pthread_create failed\n");
			exit(1);
		}
	for (unsigned i = 0; i < writes && rc == 0; i++) {
		memset(buf, (int)(i % 251) + 1, sizeof(buf));
		if (pwrite(fds[i % 2], buf, sizeof(buf), 0) !=
		    (ssize_t)sizeof(buf)) {
			fprintf(stderr, "concw: phase 3 write: %s\n",
				strerror(errno));
			rc = -1;
		}
	}
	for (unsigned k = 0; k < 2; k++) {
		c[k].stop = 1;
		pthread_join(th[k], NULL);
		if (c[k].err == EBADMSG) {
			fprintf(stderr,
				"concw: phase 3: a %zu-byte read mixes two "
				"writes in a block: byte %zu is %u, the "
				"block starts with %u\n",
				c[k].bad_len, c[k].bad_off, c[k].bad[1],
				c[k].bad[0]);
			rc = -1;
		} else if (c[k].err != 0) {
			fprintf(stderr, "concw: phase 3 read: %s\n",
				strerror(c[k].err));
			rc = -1;
		}
	}
	if (rc == 0)
		printf("concw: phase 3: %u whole-block rewrites through 2 "
		       "handles racing %lu O_DIRECT reads, each block read "
		       "whole, no EIO\n",
		       writes, c[0].reads + c[1].reads);
	return rc;
}

int main(int argc, char **argv)
{
	const size_t nrec = NTHREADS * NW;
	struct wrec *recs = NULL;
	uint8_t *old = NULL;
	uint8_t *got = NULL;
	unsigned long rounds;
	unsigned long long seed;
	unsigned ntrunc = 0;
	size_t oldsize = SPAN;
	ssize_t n;
	int fds[2];
	char *end = NULL;
	int bad = 0;

	if (argc != 4) {
		fprintf(stderr, "usage: concw FILE ROUNDS SEED\n");
		return 2;
	}
	rounds = strtoul(argv[2], &end, 10);
	if (*end != '\0')
		return 2;
	seed = strtoull(argv[3], &end, 10);
	if (*end != '\0')
		return 2;
	recs = calloc(nrec, sizeof(*recs));
	if (posix_memalign((void **)&old, BLK, 2 * MAXEND) != 0 ||
	    posix_memalign((void **)&got, BLK, 2 * MAXEND) != 0 ||
	    recs == NULL) {
		fprintf(stderr, "concw: out of memory\n");
		free(old);
		free(got);
		free(recs);
		return 1;
	}
	/* Initial content: a pattern that differs from every write value. */
	for (size_t i = 0; i < SPAN; i++)
		old[i] = (uint8_t)(249 + i % 7);
	fds[0] = open(argv[1], O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	fds[1] = open(argv[1], O_RDWR | O_CLOEXEC);
	if (fds[0] < 0 || fds[1] < 0 ||
	    pwrite(fds[0], old, SPAN, 0) != (ssize_t)SPAN) {
		fprintf(stderr, "concw: setup %s: %s\n", argv[1],
			strerror(errno));
		bad = 1;
	}
	for (unsigned long r = 0; r < rounds && !bad; r++) {
		memset(recs, 0, nrec * sizeof(*recs));
		struct rd_ctx rd[2] = {
			{ argv[1], old, oldsize, 0, 0, 0, 0, 0 },
			{ argv[1], old, oldsize, 0, 0, 0, 0, 0 },
		};

		if (run_writers(fds, seed + r, recs, 0, &ntrunc, rd) != 0)
			bad = 1;
		n = bad ? -1 : read_all(argv[1], got, 2 * MAXEND);
		if (n < 0 || check_round(old, oldsize, got, (size_t)n, recs,
					 nrec) != 0) {
			fprintf(stderr, "concw: phase 1 round %lu failed\n", r);
			bad = 1;
			break;
		}
		memcpy(old, got, (size_t)n);
		oldsize = (size_t)n;
	}
	if (!bad)
		printf("concw: phase 1: %lu rounds x %u writes, 2 handles, "
		       "every block a serial order, no EIO (%lu racing "
		       "reads)\n",
		       rounds, (unsigned)nrec, n_reads);
	for (unsigned long r = 0; r < rounds && !bad; r++) {
		memset(recs, 0, nrec * sizeof(*recs));
		struct rd_ctx rd[2] = {
			{ argv[1], old, oldsize, 0, 0, 0, 0, 0 },
			{ argv[1], old, oldsize, 0, 0, 0, 0, 0 },
		};

		if (run_writers(fds, seed + 1000 + r, recs, 1, &ntrunc, rd) !=
		    0)
			bad = 1;
		n = bad ? -1 : read_all(argv[1], got, 2 * MAXEND);
		if (n < 0) {
			bad = 1;
			break;
		}
		for (size_t o = 0; o < (size_t)n && !bad; o++) {
			int ok = got[o] == 0 ||
				 (o < oldsize && got[o] == old[o]);

			for (size_t i = 0; i < nrec && !ok; i++)
				ok = o >= recs[i].off &&
				     o < recs[i].off + recs[i].len &&
				     got[o] == recs[i].val;
			if (!ok) {
				fprintf(stderr,
					"concw: phase 2: byte %zu = %u from "
					"no write\n",
					o, got[o]);
				bad = 1;
			}
		}
		memcpy(old, got, (size_t)n);
		oldsize = (size_t)n;
	}
	if (!bad)
		printf("concw: phase 2: %lu rounds of writes racing %u "
		       "truncates and reads, every block authenticates\n",
		       rounds, ntrunc);
	if (!bad && race_phase(argv[1], fds, (unsigned)rounds * 1000U) != 0)
		bad = 1;
	for (unsigned k = 0; k < 2; k++)
		if (fds[k] >= 0)
			close(fds[k]);
	free(old);
	free(got);
	free(recs);
	return bad;
}
