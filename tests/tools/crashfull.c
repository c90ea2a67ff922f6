/* SPDX-License-Identifier: MIT */
/*
 * crashfull: full-disk check for tests/checks/58-failure.sh.
 *   crashfull fill DIR STATE
 *   crashfull limit DIR STATE
 *   crashfull check DIR STATE
 * Every file byte at offset o of file f is pat(f, o), so the checker needs
 * no copy of the data. "fill": writes four 512 KiB files and a "tail" file
 * of 1000 bytes (each fsynced), a "sparse" file (1000 bytes, then 100
 * bytes 24 MiB further: the hole must not be preallocated), then appends
 * to "big" in unaligned pieces (5000..70000 bytes), fsyncing every third
 * piece, until a write, fsync or close fails; that error must be ENOSPC (a
 * short write followed by ENOSPC counts); smaller appends then use up the
 * last free pages. Then, on the
 * full disk: a write past the end of "tail" (its partial last block must
 * be padded: ENOSPC, or success when space was left, then the gap reads
 * as zeros), else an append to it (ENOSPC or success), and an overwrite in
 * the middle of "k0" (space already allocated: must succeed), and a new
 * file "new" (its header needs space: ENOSPC leaves it empty). STATE gets
 * "name acknowledged-size" lines: the size covered by a successful fsync.
 * "check": every file reads back without EIO; the first acknowledged
 * bytes are pat(), and so is every byte after them (a write the daemon
 * acknowledged but the disk later lost would show up here). Prints one
 * summary line; exit 1 on a violation. "limit": see cmd_limit(). Not
 * proved.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define KSIZE (512U * 1024U)
#define NK 4U
#define PIECE_MAX 70000U
#define NFILES (NK + 4U)
#define SPARSE (NK + 3U)
#define SPARSE_AT (24ULL << 20) /* more than the 16 MiB backing fs */

static const char *const names[NFILES] = { "k0",   "k1",  "k2",	 "k3",
					   "tail", "big", "new", "sparse" };

static uint8_t pat(unsigned f, uint64_t o)
{
	uint64_t x = (o / 8 + 1) * 0x9e3779b97f4a7c15ULL ^ (f + 1) * 0x5851ULL;

	x ^= x >> 29;
	return (uint8_t)(x >> (8 * (o % 8)));
}

static void fill_pat(uint8_t *buf, unsigned f, uint64_t off, size_t len)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = pat(f, off + i);
}

static int open_in(const char *dir, unsigned f, int flags)
{
	char path[4096];

	(void)snprintf(path, sizeof(path), "%s/%s", dir, names[f]);
	return open(path, flags | O_CLOEXEC, 0644);
}

/* Write len pattern bytes of file f at off; returns 0 or the errno (a
 * short write is retried once to get the error). */
static int put(int fd, unsigned f, uint64_t off, size_t len, uint8_t *buf)
{
	size_t done = 0;

	fill_pat(buf, f, off, len);
	while (done < len) {
		ssize_t n =
			pwrite(fd, buf + done, len - done, (off_t)(off + done));

		if (n < 0)
			return errno;
		if (n == 0)
			return EIO;
		done += (size_t)n;
	}
	return 0;
}

static int cmd_fill(const char *dir, const char *state)
{
	uint64_t ack[NFILES] = { 0 };
	uint8_t *buf = malloc(KSIZE);
	FILE *st;
	uint64_t size = 0;
	unsigned pieces = 0;
	int err = 0;
	const char *where = "write";
	int fd;
	int rc = 0;
	int hole = 0;

	if (buf == NULL)
		return 1;
	for (unsigned f = 0; f < NK + 1; f++) {
		size_t len = f < NK ? KSIZE : 1000;

		fd = open_in(dir, f, O_RDWR | O_CREAT | O_TRUNC);
		if (fd < 0 || put(fd, f, 0, len, buf) != 0 || fsync(fd) != 0 ||
		    close(fd) != 0) {
			fprintf(stderr, "crashfull: %s: %s\n", names[f],
				strerror(errno));
			free(buf);
			return 1;
		}
		ack[f] = len;
	}
	/* A write far past the end of a short file: only the padded block
	 * and the written one are reserved, the hole between stays sparse. */
	fd = open_in(dir, SPARSE, O_RDWR | O_CREAT | O_TRUNC);
	if (fd < 0 || put(fd, SPARSE, 0, 1000, buf) != 0 ||
	    put(fd, SPARSE, SPARSE_AT, 100, buf) != 0 || fsync(fd) != 0 ||
	    close(fd) != 0) {
		fprintf(stderr, "crashfull: write 24 MiB past the end: %s\n",
			strerror(errno));
		free(buf);
		return 1;
	}
	ack[SPARSE] = SPARSE_AT + 100;
	fd = open_in(dir, NK + 1, O_RDWR | O_CREAT | O_TRUNC);
	if (fd < 0) {
		perror("crashfull: big");
		free(buf);
		return 1;
	}
	for (uint64_t x = 1; err == 0; x = x * 6364136223846793005ULL + 1) {
		size_t len = 5000 + (size_t)((x >> 33) % (PIECE_MAX - 5000));

		err = put(fd, NK + 1, size, len, buf);
		if (err != 0)
			break;
		size += len;
		if (++pieces % 3 == 0) {
			if (fsync(fd) != 0) {
				err = errno;
				where = "fsync";
				break;
			}
			ack[NK + 1] = size;
		}
		if (size > (64ULL << 20)) {
			fprintf(stderr, "crashfull: 64 MiB and no ENOSPC\n");
			rc = 1;
			break;
		}
	}
	if (close(fd) != 0 && err == 0) {
		err = errno;
		where = "close";
	}
	if (err != ENOSPC) {
		fprintf(stderr, "crashfull: writer got %s at %s, want ENOSPC\n",
			strerror(err), where);
		rc = 1;
	}
	printf("crashfull: ENOSPC at %s after %u pieces; %llu bytes "
	       "acknowledged\n",
	       where, pieces, (unsigned long long)ack[NK + 1]);
	/* Use up the last free pages with smaller and smaller appends. */
	fd = open_in(dir, NK + 1, O_RDWR);
	for (size_t len = 4096; fd >= 0 && len >= 16; len /= 4) {
		struct stat sb;

		while (fstat(fd, &sb) == 0 &&
		       put(fd, NK + 1, (uint64_t)sb.st_size, len, buf) == 0)
			;
	}
	if (fd >= 0 && fsync(fd) == 0) {
		struct stat sb;

		if (fstat(fd, &sb) == 0)
			ack[NK + 1] = (uint64_t)sb.st_size;
	}
	if (fd >= 0)
		close(fd);
	/* On the full disk: a write past the end of tail (its partial last
	 * block must be padded first), an append to it (both need space),
	 * a rewrite of k0's middle (space is there). */
	fd = open_in(dir, NK, O_RDWR);
	if (fd >= 0) {
		int e = put(fd, NK, 20000, 100, buf);

		if (e == 0)
			hole = 1;
		else if (e != ENOSPC) {
			fprintf(stderr, "crashfull: write past tail: %s\n",
				strerror(e));
			rc = 1;
		}
		printf("crashfull: write past the end on the full disk: %s\n",
		       e == 0 ? "succeeded" : strerror(e));
		close(fd);
	}
	fd = hole ? -1 : open_in(dir, NK, O_RDWR);
	if (fd >= 0) {
		int e = put(fd, NK, 1000, 9000, buf);

		if (e == 0 && fsync(fd) == 0)
			ack[NK] = 10000;
		else if (e != ENOSPC && e != 0) {
			fprintf(stderr, "crashfull: append to tail: %s\n",
				strerror(e));
			rc = 1;
		}
		printf("crashfull: append to a partial block on the full "
		       "disk: %s\n",
		       e == 0 ? "succeeded" : strerror(e));
		close(fd);
	}
	/* A new file: its header needs space too; on ENOSPC it stays empty
	 * (checked as "new": 0 bytes acknowledged, pattern if any). */
	fd = open_in(dir, NK + 2, O_RDWR | O_CREAT | O_TRUNC);
	if (fd >= 0) {
		int e = put(fd, NK + 2, 0, 5000, buf);

		if (e != 0 && e != ENOSPC) {
			fprintf(stderr, "crashfull: write to a new file: %s\n",
				strerror(e));
			rc = 1;
		}
		printf("crashfull: new file on the full disk: %s\n",
		       e == 0 ? "succeeded" : strerror(e));
		close(fd);
	} else if (errno != ENOSPC) {
		perror("crashfull: create on the full disk");
		rc = 1;
	}
	fd = open_in(dir, 0, O_RDWR);
	if (fd < 0 || put(fd, 0, 100000, 70001, buf) != 0 || fsync(fd) != 0) {
		fprintf(stderr,
			"crashfull: overwrite inside k0 on the full disk: "
			"%s\n",
			strerror(errno));
		rc = 1;
	}
	if (fd >= 0)
		close(fd);
	st = fopen(state, "we");
	if (st == NULL) {
		free(buf);
		return 1;
	}
	for (unsigned f = 0; f < NFILES; f++)
		fprintf(st, "%s %llu\n", names[f], (unsigned long long)ack[f]);
	if (hole)
		fprintf(st, "hole 1000\n");
	fclose(st);
	free(buf);
	return rc;
}

/*
 * "limit": the daemon runs under a file size limit (RLIMIT_FSIZE, LIMIT
 * bytes): "k0" within it; appends to "big" until a call fails, which must
 * be EFBIG; a write past the limit to "tail" (1000 bytes) and a truncate
 * of it past the limit must fail with EFBIG and leave it as it was.
 */
static int cmd_limit(const char *dir, const char *state)
{
	uint64_t ack[NFILES] = { 0 };
	uint8_t *buf = malloc(KSIZE);
	FILE *st;
	uint64_t size = 0;
	int err = 0;
	int fd;
	int rc = 0;
	int e2;
	int e3;

	if (buf == NULL)
		return 1;
	for (unsigned f = 0; f <= NK; f += NK) {
		size_t len = f == 0 ? KSIZE : 1000;

		fd = open_in(dir, f, O_RDWR | O_CREAT | O_TRUNC);
		if (fd < 0 || put(fd, f, 0, len, buf) != 0 || fsync(fd) != 0 ||
		    close(fd) != 0) {
			fprintf(stderr, "crashfull: %s: %s\n", names[f],
				strerror(errno));
			free(buf);
			return 1;
		}
		ack[f] = len;
	}
	fd = open_in(dir, NK + 1, O_RDWR | O_CREAT | O_TRUNC);
	for (uint64_t x = 7; fd >= 0 && err == 0;
	     x = x * 6364136223846793005ULL + 1) {
		size_t len = 5000 + (size_t)((x >> 33) % (PIECE_MAX - 5000));

		err = put(fd, NK + 1, size, len, buf);
		if (err == 0 && fsync(fd) != 0)
			err = errno;
		if (err == 0) {
			size += len;
			ack[NK + 1] = size;
		}
		if (size > (64ULL << 20))
			break;
	}
	if (fd >= 0)
		close(fd);
	fd = open_in(dir, NK, O_RDWR);
	e2 = fd < 0 ? errno : put(fd, NK, SPARSE_AT, 100, buf);
	e3 = fd < 0 || ftruncate(fd, (off_t)SPARSE_AT) == 0 ? 0 : errno;
	if (fd >= 0)
		close(fd);
	printf("crashfull: past the file size limit: append %s after %llu "
	       "bytes, write past the end %s, truncate %s\n",
	       strerror(err), (unsigned long long)size, strerror(e2),
	       strerror(e3));
	if (err != EFBIG || e2 != EFBIG || e3 != EFBIG) {
		fprintf(stderr, "crashfull: want EFBIG for all three\n");
		rc = 1;
	}
	st = fopen(state, "we");
	if (st == NULL) {
		free(buf);
		return 1;
	}
	for (unsigned f = 0; f <= NK + 1; f++)
		if (f == 0 || f >= NK)
			fprintf(st, "%s %llu\n", names[f],
				(unsigned long long)ack[f]);
	fclose(st);
	free(buf);
	return rc;
}

static int cmd_check(const char *dir, const char *state)
{
	FILE *st = fopen(state, "re");
	uint8_t *buf = malloc(1U << 20);
	uint64_t ack[NFILES] = { 0 };
	int listed[NFILES] = { 0 };
	uint64_t total = 0;
	unsigned nfiles = 0;
	char name[32];
	char line[64];
	char *end = NULL;
	int rc = 0;
	int hole = 0;

	if (st == NULL || buf == NULL) {
		free(buf);
		if (st != NULL)
			fclose(st);
		return 1;
	}
	while (fgets(line, sizeof(line), st) != NULL &&
	       sscanf(line, "%31s", name) == 1) {
		const char *num = line + strlen(name);
		unsigned long long a = strtoull(num, &end, 10);

		if (end == num)
			break;
		for (unsigned f = 0; f < NFILES; f++)
			if (strcmp(name, names[f]) == 0) {
				ack[f] = a;
				listed[f] = 1;
			}
		if (strcmp(name, "hole") == 0)
			hole = 1;
	}
	fclose(st);
	for (unsigned f = 0; f < NFILES; f++) {
		int fd = listed[f] ? open_in(dir, f, O_RDONLY) : -1;
		uint64_t off = 0;

		if (!listed[f])
			continue;
		nfiles++;
		if (fd < 0 && f == NK + 2 && errno == ENOENT)
			continue; /* "new" could not be created */
		if (fd < 0) {
			fprintf(stderr, "crashfull: open %s: %s\n", names[f],
				strerror(errno));
			rc = 1;
			continue;
		}
		for (;;) {
			ssize_t n = pread(fd, buf, 1U << 20, (off_t)off);

			if (n < 0) {
				fprintf(stderr,
					"crashfull: %s: read at %llu: %s\n",
					names[f], (unsigned long long)off,
					strerror(errno));
				rc = 1;
				break;
			}
			if (n == 0)
				break;
			for (size_t i = 0; i < (size_t)n; i++)
				if (buf[i] != pat(f, off + i) &&
				    !(buf[i] == 0 && off + i >= 1000 &&
				      ((hole && f == NK && off + i < 20000) ||
				       (f == SPARSE && off + i < SPARSE_AT)))) {
					fprintf(stderr,
						"crashfull: %s: wrong byte "
						"at %llu\n",
						names[f],
						(unsigned long long)off + i);
					rc = 1;
					break;
				}
			if (rc != 0)
				break;
			off += (uint64_t)n;
		}
		close(fd);
		if (rc == 0 && off < ack[f]) {
			fprintf(stderr,
				"crashfull: %s has %llu bytes, %llu were "
				"acknowledged\n",
				names[f], (unsigned long long)off,
				(unsigned long long)ack[f]);
			rc = 1;
		}
		total += off;
	}
	free(buf);
	printf("crashfull: %u files, %llu bytes read back, acknowledged "
	       "data intact%s\n",
	       nfiles, (unsigned long long)total, rc ? ": NO" : "");
	return rc;
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "fill") == 0)
		return cmd_fill(argv[2], argv[3]);
	if (argc == 4 && strcmp(argv[1], "limit") == 0)
		return cmd_limit(argv[2], argv[3]);
	if (argc == 4 && strcmp(argv[1], "check") == 0)
		return cmd_check(argv[2], argv[3]);
	fprintf(stderr, "usage: crashfull fill|limit|check DIR STATE\n");
	return 2;
}
