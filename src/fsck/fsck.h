/* SPDX-License-Identifier: MIT */
/*
 * vcryptfs -fsck: an offline, read-only check of a whole cipher directory
 * without a mount. Walks the CIPHER tree depth first (openat O_NOFOLLOW,
 * entries sorted by plaintext name), checks every gocryptfs.diriv, every
 * encrypted and long name (.name content, its hash, orphans), every file
 * header and block tag (holes allowed), symlink targets and xattrs, each
 * hard-linked inode once, and prints one line per problem.
 * Spec: ../shared/FORMAT.md 13.4 (output and exit codes), 4, 5, 6, 7, 11.
 * Layer: fsck/; depends on format/ (content, header, names), sys/, base/,
 * base/secmem.h (wipe). Used by cli/main.c only. Never writes to the
 * cipher directory. Not proved.
 */
#ifndef VCRYPTFS_FSCK_H
#define VCRYPTFS_FSCK_H

#include <stdio.h>

#include "format/volume.h"

struct fsck_result {
	unsigned long corrupt; /* objects with at least one problem */
	unsigned long skipped; /* objects that could not be read (EACCES) */
	unsigned long checked; /* objects looked at */
	int aborted;	       /* SIGINT/SIGTERM arrived */
};

/*
 * Check the cipher directory cipherdir (an existing directory) of the
 * unlocked volume vol. Problem lines ("fsck: ...") and the summary line go
 * to out; with progress non-zero a single updating progress line goes to
 * stderr (callers pass isatty(2)). SIGINT and SIGTERM stop the walk
 * (res->aborted); the previous handlers are restored before returning.
 * Plaintext read from the files is wiped after use.
 * Returns 0 and fills *res, or -errno when cipherdir cannot be opened.
 */
int fsck_run(const char *cipherdir, const struct volume *vol, FILE *out,
	     int progress, struct fsck_result *res);

/*
 * What main.c calls: fsck_run() on stdout with progress when stderr is a
 * terminal and the log level is not quiet. Returns the process exit code:
 * EXIT_OK (clean), EXIT_FSCKERRORS (26), EXIT_OTHER (aborted by a signal)
 * or EXIT_CIPHERDIR (cannot open the directory).
 */
int fsck_main(const char *cipherdir, const struct volume *vol);

#endif
