/* SPDX-License-Identifier: MIT */
/*
 * The inode table: one struct inode per backing object, keyed by the
 * ciphertext (st_dev, st_ino), each holding one O_PATH descriptor, a
 * kernel lookup count, a content lock and the cached directory IV or file
 * ID. The kernel's inode number is the struct's address (as in libfuse's
 * passthrough_ll). Spec: ../shared/FORMAT.md 4.2, 5.4, 8. Not proved.
 */
#ifndef VCRYPTFS_FUSE_INODE_H
#define VCRYPTFS_FUSE_INODE_H

#include <pthread.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

struct inode {
	/* immutable after inode_get() published it */
	int fd; /* O_PATH | O_NOFOLLOW descriptor of the backing object */
	dev_t dev;
	ino_t ino;
	mode_t type; /* S_IFMT bits */

	uint64_t nlookup;   /* protected by the table lock */
	struct inode *next; /* hash chain, protected by the table lock */
	/* The fd budget (protected by the table lock): the name the kernel's
	 * dentry has (last lookup, creation, link, rename), for asking the
	 * kernel to drop it; the clock's reference bit; reaped 1 while a drop was
	 * asked for and the FORGET has not come yet, 2 when the kernel had
	 * no such dentry (busy, or its FORGET was already on the way). */
	uint64_t parent; /* kernel inode number of the parent, 0: none */
	dev_t pdev;	 /* the parent's (dev, ino): is it still alive? */
	ino_t pino;
	char *name; /* plaintext name (heap copy) or NULL */
	unsigned char used;
	unsigned char reaped;

	/* File contents: readers share, writers (RMW, truncate) exclude. */
	pthread_rwlock_t content;
	/* Written through this mount (set under content held exclusive, read
	 * under it shared): large reads then keep to the page cache, where
	 * the new ciphertext is (see fs_content_read). */
	int written;
	/* meta protects the caches below. */
	pthread_mutex_t meta;
	int has_iv;	    /* protected by meta */
	uint8_t iv[16];	    /* protected by meta; immutable once set */
	int has_fileid;	    /* protected by meta */
	uint8_t fileid[16]; /* protected by meta */
	int warned;	    /* protected by meta: EIO or bad name logged */
};

/* Create the table and the root inode from an O_PATH fd of the cipher
 * directory (the table owns rootfd). 0 / -errno. */
int inode_table_init(int rootfd);
/* Free every inode; call after the session ended. */
void inode_table_free(void);
struct inode *inode_root(void);
/* Map a kernel inode number to its inode (FUSE_ROOT_ID is the root). */
struct inode *inode_from_ino(uint64_t ino);
uint64_t inode_to_ino(const struct inode *in);
/*
 * Find the inode for (st->st_dev, st->st_ino) and add one lookup, or
 * insert a new one that takes ownership of fd. When an existing inode is
 * returned, fd is closed. Returns NULL on ENOMEM (fd closed).
 */
struct inode *inode_get(int fd, const struct stat *st);
/* Drop n lookups; the last one frees the inode and closes its fd. */
void inode_unref(struct inode *in, uint64_t n);
/* unlinkat(dirfd, name, AT_REMOVEDIR), not while a forgotten inode's fd is
 * being closed (see inode.c). 0 / -errno. */
int inode_rmdirat(int dirfd, const char *name);

/* The kernel knows in as name in directory dir (after a lookup, creation,
 * link or readdirplus entry): kept for the fd budget. */
void inode_name_set(struct inode *in, const struct inode *dir,
		    const char *name);
/* After a rename: the object (dev, ino), if in the table, is now name in
 * directory dir. */
void inode_name_moved(dev_t dev, ino_t ino, const struct inode *dir,
		      const char *name);

/*
 * The fd budget. Every inode in the table holds one descriptor; the kernel
 * forgets inodes only under memory pressure, so a large tree would exhaust
 * RLIMIT_NOFILE. Above a high watermark (the soft limit nofile minus a
 * reserve for open files and libraries) a background thread asks the
 * kernel, through inval(parent, name, len), to drop the dentries of the
 * least recently looked-up inodes until the FORGETs bring the count under
 * a low watermark. inval must not be called from a request handler (see
 * fuse_lowlevel_notify_inval_entry), hence the thread. 0 / -errno.
 */
typedef int (*inode_inval_fn)(uint64_t parent, const char *name, size_t len);
int inode_budget_start(inode_inval_fn inval, unsigned long nofile);
/* Stop and join the thread: 0, or -ETIMEDOUT when it stayed blocked in
 * inval for 2 s (then it is left running; the caller must not free what
 * inval uses). */
int inode_budget_stop(void);
/* A new descriptor failed with EMFILE/ENFILE: wake the thread and wait
 * (at most about 1 s) for descriptors to be released. 1 when a retry is
 * worthwhile, 0 when no budget runs. */
int inode_budget_wait(void);
/* Descriptors held by the table (not counting the root), and the
 * watermarks (0 when no budget runs). */
size_t inode_fd_count(void);
void inode_budget_marks(size_t *high, size_t *low);

/* Cached file ID (under meta): 1 and copy if cached, else 0. */
int inode_fileid_get(struct inode *in, uint8_t fileid[16]);
void inode_fileid_set(struct inode *in, const uint8_t fileid[16]);
void inode_fileid_clear(struct inode *in);

#endif
