/* SPDX-License-Identifier: MIT */
/*
 * The FUSE daemon's state (the mounted volume and options, struct fs), the
 * lookup/stat/open helpers the ops_*.c files share, and the operation
 * tables. Names in a directory: dirnames.h; content I/O: rw.h; the
 * caller's identity: caller.h; the mount life cycle: mount.h.
 * Spec: ../shared/FORMAT.md sections 4.8, 6, 8. Depends on: libfuse3,
 * format/content.h, format/names.h, fuse/inode.h, log.h. Not proved.
 */
#ifndef VCRYPTFS_FUSE_FS_H
#define VCRYPTFS_FUSE_FS_H

#define FUSE_USE_VERSION 34
#include <fuse_lowlevel.h>
#include <stdint.h>
#include <sys/stat.h>

#include "format/volume.h"
#include "format/content.h"
#include "format/names.h"
#include "base/log.h"
#include "fuse/inode.h"

struct fs {
	const struct volume *vol;
	double timeout;	    /* entry and attribute timeout, seconds */
	double neg_timeout; /* timeout of a negative entry, seconds */
	int readonly;
	int allow_other;
	int debug;
	int noprealloc; /* -noprealloc: no fallocate before writes */
	/* -sharedstorage: other mounts change the cipherdir behind our back,
	 * so nothing is cached between requests (timeouts 0, file IDs
	 * re-read on open) */
	int sharedstorage;
	const char *badname; /* -badname glob, or NULL (FORMAT.md 5.10) */
};

/* Set once by mount_run() before the session starts; read-only after (no
 * lock). */
extern struct fs fs;

/*
 * ops_file.c. Open the backing file of in with flags (read-write for RMW).
 * A file of mode u-r,u+w that a non-root daemon owns gets u+r for the
 * moment of the open, as in gocryptfs (a write-only file still needs reads for RMW).
 * Returns the fd or -errno.
 */
int fs_reopen_rw(struct inode *in, int flags);

/* ops_entry.c. Look up the backing entry disk in parent and fill e
 * (nlookup + 1). */
int fs_do_lookup(struct inode *parent, const char *disk,
		 struct fuse_entry_param *e);
/* ops_attr.c. stat of an inode with the plaintext size. */
int fs_stat_inode(struct inode *in, struct stat *st);
/* Convert a backing stat of object at fd to the plaintext view. */
int fs_fix_stat(int fd, struct stat *st);

/* Operation tables (ops_*.c). */
void fs_ops_entry(struct fuse_lowlevel_ops *ops);
void fs_ops_dir(struct fuse_lowlevel_ops *ops);
void fs_ops_file(struct fuse_lowlevel_ops *ops);
void fs_ops_attr(struct fuse_lowlevel_ops *ops);
void fs_ops_xattr(struct fuse_lowlevel_ops *ops);
/* The complete table (ops.c). */
const struct fuse_lowlevel_ops *fs_ops(void);

#endif
