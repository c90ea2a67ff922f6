/* SPDX-License-Identifier: MIT */
/*
 * The content API of the FUSE daemon: plaintext reads, writes, truncate,
 * SEEK_DATA/SEEK_HOLE and size on a backing fd (rw.c, rw_read.c,
 * rw_write.c, rw_seek.c); the reply buffer of reads is scratch.h's.
 * Spec: ../shared/FORMAT.md 4 (header, blocks, sizes, holes). Depends on:
 * format/content.h, fuse/inode.h, fuse/par.h, sys/sys.h. Lock notes: the
 * caller holds in->content as said below. Not proved.
 */
#ifndef VCRYPTFS_FUSE_RW_H
#define VCRYPTFS_FUSE_RW_H

#include <stddef.h>
#include <sys/types.h>

#include "fuse/inode.h"

/* Content I/O on a read-write (or read-only for reads) backing fd. The
 * caller holds in->content (shared for read, exclusive for write and
 * truncate). */
ssize_t fs_content_read(struct inode *in, int fd, char *buf, size_t size,
			off_t off);
ssize_t fs_content_write(struct inode *in, int fd, const char *buf, size_t size,
			 off_t off);
int fs_content_truncate(struct inode *in, int fd, off_t size);
/* Compare the cached file ID with the header read through fd; drop the
 * cache when they differ (the file was rewritten behind the mount). 1 when
 * dropped. See rw.c for the rule. */
int fs_fileid_recheck(struct inode *in, int fd);
/* SEEK_DATA / SEEK_HOLE in plaintext offsets, conservative: a hole is
 * only reported for whole blocks that are holes in the backing file.
 * Returns the offset or -errno (-ENXIO past the end). */
off_t fs_content_seek(int fd, off_t off, int whence);
/* Plaintext size of the open file. */
int fs_content_size(int fd, off_t *size);
/* -EIO (logged once per inode) when the backing file of fd is 1..17
 * bytes long, a torn header; 0 otherwise, or -errno. For opens that read:
 * the kernel never sends a READ past st_size, which is 0 for such a
 * file, so the damage has to show at open. */
int fs_content_check_torn(struct inode *in, int fd);
/*
 * The largest plaintext size (and end of a write) whose ciphertext fits
 * in off_t with a block to spare: 18 + block * cbs would overflow for
 * offsets near 2^63 (signed overflow, undefined). Whole blocks, a little
 * below 2^63 * 4096 / cbs. A write, truncate or fallocate past it fails
 * with EFBIG, as on a plain filesystem past its maximum file size; a read
 * from there on is at the end of the file.
 */
off_t fs_content_max(void);

#endif
