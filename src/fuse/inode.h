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

	/* File contents: readers share, writers (RMW, truncate) exclude. */
	pthread_rwlock_t content;
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

/* Cached file ID (under meta): 1 and copy if cached, else 0. */
int inode_fileid_get(struct inode *in, uint8_t fileid[16]);
void inode_fileid_set(struct inode *in, const uint8_t fileid[16]);
void inode_fileid_clear(struct inode *in);

#endif
