/* SPDX-License-Identifier: MIT */
/*
 * Private state and helpers shared by the ops_*.c files of the FUSE
 * daemon: the mounted volume, options, name resolution in a parent
 * directory (diriv cache, long names) and the content read/write core.
 * Spec: ../shared/FORMAT.md sections 4, 5, 6, 8. Not proved.
 */
#ifndef VCRYPTFS_FUSE_FS_H
#define VCRYPTFS_FUSE_FS_H

#define FUSE_USE_VERSION 34
#include <fuse_lowlevel.h>
#include <stdint.h>
#include <sys/stat.h>

#include "format/volume.h"
#include "fuse/fcrypt.h"
#include "fuse/inode.h"

struct fs {
	const struct volume *vol;
	double timeout; /* entry and attribute timeout, seconds */
	int readonly;
	int allow_other;
	int debug;
	int noprealloc; /* -noprealloc: no fallocate before writes */
};

/* Set once by mount_run() before the session starts; read-only after. */
extern struct fs fs;
/* 1: fs_log() goes to syslog (background daemon without -nosyslog). */
extern int fs_use_syslog;

/* One on-disk name for a plaintext name in a directory. */
struct cname {
	char enc[FC_NAME_MAX_ENC];  /* full encrypted name (E) */
	char disk[FC_NAME_MAX_ENC]; /* what is on disk: E or longname hash */
	int is_long;
};

/* Log one line (stderr or syslog); never pass key material. */
void fs_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The directory IV of dir (cached): 0 / -errno. Zero IV without DirIV. */
int fs_dir_iv(struct inode *dir, uint8_t iv[16]);
/* Encrypt name for directory dir. 0 / -errno (EPERM for the reserved
 * gocryptfs.conf in the root with PlaintextNames). */
int fs_cname(struct inode *dir, const char *name, struct cname *out);
/* For a new entry: write the .name file of a long name first. 0/-errno;
 * an existing .name file is accepted. */
int fs_cname_prepare(int dirfd, const struct cname *c);
/* Undo fs_cname_prepare() after the creation failed. */
void fs_cname_abort(int dirfd, const struct cname *c);
/* Remove the .name file after the object is gone. */
void fs_cname_done(int dirfd, const struct cname *c);

/* Look up the backing entry disk in parent and fill e (nlookup + 1). */
int fs_do_lookup(struct inode *parent, const char *disk,
		 struct fuse_entry_param *e);
/* stat of an inode with the plaintext size. */
int fs_stat_inode(struct inode *in, struct stat *st);
/* Convert a backing stat of object at fd to the plaintext view. */
int fs_fix_stat(int fd, struct stat *st);

/* Content I/O on a read-write (or read-only for reads) backing fd. The
 * caller holds in->content (shared for read, exclusive for write and
 * truncate). */
ssize_t fs_content_read(struct inode *in, int fd, char *buf, size_t size,
			off_t off);
ssize_t fs_content_write(struct inode *in, int fd, const char *buf, size_t size,
			 off_t off);
int fs_content_truncate(struct inode *in, int fd, off_t size);
/* This thread's reply buffer for reads, at least size bytes (kept for
 * the thread's lifetime); NULL on ENOMEM. */
char *fs_read_buf(size_t size);
/* SEEK_DATA / SEEK_HOLE in plaintext offsets, conservative: a hole is
 * only reported for whole blocks that are holes in the backing file.
 * Returns the offset or -errno (-ENXIO past the end). */
off_t fs_content_seek(int fd, off_t off, int whence);
/* Plaintext size of the open file. */
int fs_content_size(int fd, off_t *size);

/* New object created by the caller as root with -allow_other: chown it to
 * the caller. */
void fs_chown_new(fuse_req_t req, int dirfd, const char *disk);

/* Operation tables (ops_*.c). */
void fs_ops_entry(struct fuse_lowlevel_ops *ops);
void fs_ops_dir(struct fuse_lowlevel_ops *ops);
void fs_ops_file(struct fuse_lowlevel_ops *ops);
void fs_ops_attr(struct fuse_lowlevel_ops *ops);
void fs_ops_xattr(struct fuse_lowlevel_ops *ops);
/* The complete table (ops.c). */
const struct fuse_lowlevel_ops *fs_ops(void);

#endif
