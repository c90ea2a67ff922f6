/* SPDX-License-Identifier: MIT */
/*
 * Private to rw.c, rw_read.c, rw_write.c and rw_seek.c: the block
 * arithmetic and helpers they share. Every function reads the volume from
 * fs.vol (struct fs, read-only while mounted).
 * Spec: ../shared/FORMAT.md 4.2, 4.3, 4.8. Depends on: fuse/fs.h,
 * fuse/scratch.h, format/content.h, fuse/inode.h. Not proved.
 */
#ifndef VCRYPTFS_FUSE_RW_INT_H
#define VCRYPTFS_FUSE_RW_INT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "fuse/fs.h"
#include "fuse/scratch.h"

#define BS ((off_t)CONTENT_PLAIN_BS)
#define HDR ((off_t)HEADER_LEN)
/*
 * Reads of at least DIRECT_MIN bytes of a file not written through this
 * mount read the backing file with O_DIRECT: the device fills the
 * thread's buffer and the ciphertext is not cached beside the plaintext
 * that the kernel caches on the mount (a streaming read then costs one
 * copy less, and half the page cache). The buffer and the offsets are
 * aligned to DIRECT_ALIGN; a backing file system that refuses (EINVAL)
 * turns the path off for the rest of the mount, and so does a tmpfs
 * (there O_DIRECT is the same page-cache copy as a plain read).
 */
#define DIRECT_MIN (256U * 1024U)
#define DIRECT_ALIGN SCRATCH_ALIGN
/* Requests of at least this many blocks are split over two cores. */
#define PAR_MIN_BLOCKS 8U

/* Ciphertext block size of the volume (4096 + overhead). */
off_t rw_cbs(void);
/* Offset of ciphertext block b in the backing file (b below the blocks of
 * fs_content_max(), rw.h). */
off_t rw_block_off(uint64_t b);
/* Backing file size of fd: 0 / -errno. */
int rw_csize(int fd, off_t *csize);
/* File ID of the open file (cached in in): 0, -ENODATA when it has no
 * header yet (0 bytes), -EIO (logged; also a torn header of 1..17). */
int rw_fileid(struct inode *in, int fd, uint8_t fileid[16]);
/* Log a failed block once per inode. */
void rw_log_eio(struct inode *in, uint64_t block);
/* Log a torn header (csize 1..17 backing bytes) once per inode. */
void rw_log_torn(struct inode *in, ssize_t csize);
/* Open one block (content_block_open) into out: the plaintext length or
 * -EIO. */
int rw_block_open(const uint8_t *fileid, uint64_t b, const uint8_t *in,
		  size_t clen, uint8_t *out);
/* Decrypt block b of a file of csize ciphertext bytes into out (4096):
 * the plaintext length (0 past the end) or -errno. */
int rw_read_block(struct inode *in, int fd, const uint8_t fileid[16],
		  uint64_t b, off_t csize, uint8_t *out);

#endif
