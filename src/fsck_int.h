/* SPDX-License-Identifier: MIT */
/*
 * vcryptfs -fsck internals shared by fsck.c (the directory walk, names,
 * progress and report) and fsck_file.c (file contents, symlinks, xattrs).
 * Not a public interface: only these two files include it.
 * Not proved.
 */
#ifndef VCRYPTFS_FSCK_INT_H
#define VCRYPTFS_FSCK_INT_H

#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "format/content.h"
#include "format/names.h"
#include "fsck.h"

#define PIECE_BLOCKS 32		       /* blocks per read: up to 132 KiB */
#define PROGRESS_DELAY_NS 500000000LL  /* no progress line for quick runs */
#define PROGRESS_PERIOD_NS 200000000LL /* at most 5 updates a second */
#define XATTR_LIST_MAX_LEN 65536
#define XATTR_VALUE_CAP (NAMES_XATTR_VALUE_MAX + CONTENT_MAX_OVERHEAD)

/* Hard-linked inodes already checked: open addressing on (dev, ino). */
struct seen_slot {
	dev_t dev;
	ino_t ino;
	int used;
};

struct seen {
	struct seen_slot *slot;
	size_t cap; /* power of two or 0 */
	size_t n;
};

/* State of one run. */
struct ck {
	const struct volume *v;
	FILE *out;
	struct fsck_result *res;
	int progress;
	int progress_shown;
	long long start_ns;
	long long last_ns;
	struct seen seen;
	uint8_t *cbuf;	 /* PIECE_BLOCKS ciphertext blocks */
	uint8_t *pbuf;	 /* one plaintext block */
	uint8_t *xval;	 /* a stored xattr value */
	uint8_t *xplain; /* its plaintext */
};

/* One problem line on ck->out (clears the progress line first). */
void fsck_report(struct ck *ck, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Erases the progress line, if one is shown. */
void fsck_progress_clear(struct ck *ck);

/* Redraws the progress line when the run is slow enough to need one. */
void fsck_progress_tick(struct ck *ck);

/* Nonzero once SIGINT or SIGTERM asked the run to stop. */
int fsck_stopped(void);

/* Each returns 1 when it reported a problem, else 0. */
int fsck_check_xattrs(struct ck *ck, int fd, const char *disp);
int fsck_check_file(struct ck *ck, int dfd, const char *cname,
		    const struct stat *st, const char *disp, int *skipped);
int fsck_check_symlink(struct ck *ck, int dfd, const char *cname,
		       const char *disp);

#endif
