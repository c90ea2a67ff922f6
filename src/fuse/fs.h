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
	/* issue 25 options: hooks.c, ctlsock.c and the few lines that
	 * read them (fs_fix_stat, fs_open, fs_init) */
	int kernel_cache, acl, serialize_reads, noxattr;
	int force_owner; /* report owner_uid:owner_gid for everything */
	uid_t owner_uid;
	gid_t owner_gid;
	double idle; /* -idle seconds, 0: never */
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

/*
 * -badname GLOB (FORMAT.md 5.10). fs_badname_show(): the listed name of an
 * on-disk name disk that did not decrypt in a directory with IV iv: 0 and
 * out (>= 256 bytes) when disk matches the glob, else -1 (stays hidden).
 * fs_badname_resolve(): the on-disk name (disk, >= FC_NAME_MAX_ENC bytes)
 * that is listed as name in dir, when exactly one is; else -ENOENT.
 */
int fs_badname_show(const uint8_t iv[16], const char *disk, char *out,
		    size_t outsz);
int fs_badname_resolve(struct inode *dir, const char *name, char *disk,
		       size_t disksz);

/*
 * Open the backing file of in with flags (read-write for RMW). A file of
 * mode u-r,u+w that a non-root daemon owns gets u+r for the moment of the
 * open, as in gocryptfs (a write-only file still needs reads for RMW).
 * Returns the fd or -errno.
 */
int fs_reopen_rw(struct inode *in, int flags);

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

/*
 * -allow_other as root: creations run with the caller's identity, as in
 * gocryptfs (new objects get the caller's owner, the group of a setgid
 * directory, and the backing filesystem checks the caller's rights).
 * fs_caller_begin() switches this worker thread's fsuid, fsgid and
 * supplementary groups to the caller of req (no-op otherwise: not root,
 * no -allow_other, or a root caller); fs_caller_end() restores them.
 * Returns 0 / -errno; on error nothing changed.
 */
#define FS_CALLER_GROUPS 256
struct fs_caller {
	int active;
	int ngroups; /* the daemon's own groups, restored */
	gid_t groups[FS_CALLER_GROUPS];
};
int fs_caller_begin(fuse_req_t req, struct fs_caller *c);
void fs_caller_end(struct fs_caller *c);

/* The session of the running mount (mount.c), NULL outside serve(). */
struct fuse_session *mount_session(void);

/* Operation tables (ops_*.c). */
void fs_ops_entry(struct fuse_lowlevel_ops *ops);
void fs_ops_dir(struct fuse_lowlevel_ops *ops);
void fs_ops_file(struct fuse_lowlevel_ops *ops);
void fs_ops_attr(struct fuse_lowlevel_ops *ops);
void fs_ops_xattr(struct fuse_lowlevel_ops *ops);
/* The complete table (ops.c). */
const struct fuse_lowlevel_ops *fs_ops(void);

#endif
