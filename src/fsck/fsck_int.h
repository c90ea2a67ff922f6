/* SPDX-License-Identifier: MIT */
/*
 * vcryptfs -fsck internals shared by fsck.c (the directory walk and
 * names) and fsck_file.c (file contents, symlinks, xattrs); both print
 * through report.h. fsck.c calls fsck_file.c, never the other way round.
 * Not a public interface: only fsck/ includes it. Layer: fsck/; depends
 * on format/ and fsck/. Not proved.
 */
#ifndef VCRYPTFS_FSCK_INT_H
#define VCRYPTFS_FSCK_INT_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "format/content.h"
#include "format/names.h"
#include "fsck/fsck.h"
#include "fsck/report.h"

#define PIECE_BLOCKS 32 /* blocks per read: up to 132 KiB */
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
	struct report rep;		   /* output and counters */
	const volatile sig_atomic_t *stop; /* set by SIGINT/SIGTERM */
	struct seen seen;
	uint8_t *cbuf;	 /* PIECE_BLOCKS ciphertext blocks */
	uint8_t *pbuf;	 /* one plaintext block */
	uint8_t *xval;	 /* a stored xattr value */
	uint8_t *xplain; /* its plaintext */
};

/* Each returns 1 when it reported a problem, else 0. disp is the
 * object's display path, already escaped with log_escape(). */
int fsck_check_xattrs(struct ck *ck, int fd, const char *disp);
int fsck_check_file(struct ck *ck, int dfd, const char *cname,
		    const struct stat *st, const char *disp, int *skipped);
int fsck_check_symlink(struct ck *ck, int dfd, const char *cname,
		       const char *disp);

#endif
