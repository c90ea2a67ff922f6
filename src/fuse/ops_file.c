/* SPDX-License-Identifier: MIT */
/*
 * File operations: open and create (backing always O_RDWR for RMW), read,
 * write, flush, release, fsync, fallocate (mode 0, KEEP_SIZE, PUNCH_HOLE,
 * ZERO_RANGE), lseek (SEEK_DATA, SEEK_HOLE). Flags: FLAGS.md.
 * fi->fh holds the backing descriptor.
 * Spec: ../shared/FORMAT.md 4.2, 4.7, 4.9. Not proved.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuse/caller.h"
#include "fuse/dirnames.h"
#include "fuse/fs.h"
#include "fuse/rw.h"
#include "fuse/scratch.h"
#include "sys/sys.h"

/* Shared open helper (fs.h), used by open and setattr. */
/* One u+r window at a time, so that no opener sees another's window as
 * the file's mode. */
static pthread_mutex_t wo_lock = PTHREAD_MUTEX_INITIALIZER;

int fs_reopen_rw(struct inode *in, int flags)
{
	struct stat st;
	int fd = sys_reopen(in->fd, flags);
	int wo;

	if (fd != -EACCES || (flags & O_ACCMODE) != O_RDWR)
		return fd;
	pthread_mutex_lock(&wo_lock);
	fd = sys_reopen(in->fd, flags);
	wo = fd == -EACCES ? sys_reopen(in->fd, O_WRONLY) : -1;
	if (wo >= 0 && fstat(wo, &st) == 0 && S_ISREG(st.st_mode) &&
	    !(st.st_mode & S_IRUSR) && st.st_uid == geteuid() &&
	    fchmod(wo, (st.st_mode & 07777) | S_IRUSR) == 0) {
		fd = sys_reopen(in->fd, flags);
		if (fchmod(wo, st.st_mode & 07777) != 0)
			log_error("cannot restore the mode of inode %lu: %s",
				  (unsigned long)in->ino, strerror(errno));
	}
	if (wo >= 0)
		close(wo);
	pthread_mutex_unlock(&wo_lock);
	return fd;
}

/* Bytes of a file's ciphertext fetched at open: the header and 32 blocks
 * (128 KiB of plaintext, the kernel's first read-ahead of a file). */
#define OPEN_READAHEAD                                                         \
	((size_t)HEADER_LEN + 32U * (CONTENT_PLAIN_BS + CONTENT_MAX_OVERHEAD))

/* Flags for the backing open: read-write, no append or direct I/O. */
static int backing_flags(int flags)
{
	flags &= ~(O_ACCMODE | O_APPEND | O_DIRECT | O_CREAT | O_EXCL |
		   O_NOCTTY);
	return flags | O_RDWR;
}

static void fs_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct inode *in = inode_from_ino(ino);
	int fd;

	if (fs.readonly && (fi->flags & O_ACCMODE) != O_RDONLY) {
		fuse_reply_err(req, EROFS);
		return;
	}
	if (fi->flags & O_TRUNC)
		pthread_rwlock_wrlock(&in->content);
	fd = fs_reopen_rw(in, backing_flags(fi->flags));
	if ((fd == -EMFILE || fd == -ENFILE) && inode_budget_wait())
		fd = fs_reopen_rw(in, backing_flags(fi->flags));
	if ((fd == -EACCES || fd == -EROFS) &&
	    (fi->flags & O_ACCMODE) == O_RDONLY)
		fd = sys_reopen(in->fd,
				(fi->flags & ~(O_ACCMODE | O_APPEND | O_DIRECT |
					       O_CREAT | O_EXCL | O_TRUNC)) |
					O_RDONLY);
	if (fi->flags & O_TRUNC) {
		if (fd >= 0)
			inode_fileid_clear(in);
		pthread_rwlock_unlock(&in->content);
	}
	if (fd < 0) {
		fuse_reply_err(req, -fd);
		return;
	}
	/* a torn header is damage, not an empty file (rw.c); an open for
	 * writing may still repair it (a write puts a fresh header) */
	if ((fi->flags & O_ACCMODE) == O_RDONLY && !(fi->flags & O_TRUNC)) {
		int rc = fs_content_check_torn(in, fd);

		if (rc != 0) {
			close(fd);
			fuse_reply_err(req, -rc);
			return;
		}
	}
	/* another mount may have rewritten the file (new file ID) */
	if (fs.sharedstorage) {
		pthread_rwlock_wrlock(&in->content);
		inode_fileid_clear(in);
		pthread_rwlock_unlock(&in->content);
	} else {
		(void)fs_fileid_recheck(in, fd);
	}
	/* A program that opens a file to read it sends the first READ a round
	 * trip from now: the disk can fetch the start of the file meanwhile
	 * (the whole of a small one; cached blocks cost a page-cache walk). */
	if ((fi->flags & O_ACCMODE) != O_WRONLY && !(fi->flags & O_TRUNC))
		(void)readahead(fd, 0, OPEN_READAHEAD);
	/* The mount owns the cipher directory (see mount.c, CACHE_TIMEOUT):
	 * what the kernel cached of the file is still right, so a new open
	 * keeps it (the kernel drops it when the size or mtime it gets
	 * changed). Large reads skip the backing page cache (rw.c), so this
	 * cache is the one a second read of the file finds. */
	fi->keep_cache = fs.timeout > 0 || fs.kernel_cache;
	fi->fh = (uint64_t)fd;
	fuse_reply_open(req, fi);
}

/* The backing open of a create; EMFILE waits for the fd budget once. */
static int create_at(struct inode *dir, const struct cname *c, int flags,
		     mode_t mode)
{
	int bflags =
		backing_flags(flags) | O_CREAT | O_NOFOLLOW | (flags & O_EXCL);
	int fd = sys_openat(dir->fd, c->disk, bflags, mode);

	if ((fd == -EMFILE || fd == -ENFILE) && inode_budget_wait())
		fd = sys_openat(dir->fd, c->disk, bflags, mode);
	return fd;
}

static void fs_create(fuse_req_t req, fuse_ino_t parent, const char *name,
		      mode_t mode, struct fuse_file_info *fi)
{
	struct inode *dir = inode_from_ino(parent);
	struct fuse_entry_param e;
	struct cname c;
	struct caller cr;
	int fd = -1;
	int rc = dirnames_cname(fs.vol, dir, name, &c);

	if (rc == 0)
		rc = caller_begin(req, &cr);
	if (rc == 0) {
		rc = dirnames_prepare(dir->fd, &c);
		if (rc == 0) {
			fd = create_at(dir, &c, fi->flags, mode);
			if (fd < 0) {
				rc = fd;
				dirnames_abort(dir->fd, &c);
			}
		}
		caller_end(&cr);
	}
	if (rc == 0)
		rc = fs_do_lookup(dir, c.disk, &e);
	if ((rc == -EMFILE || rc == -ENFILE) && inode_budget_wait())
		rc = fs_do_lookup(dir, c.disk, &e);
	if (rc == 0)
		inode_name_set(inode_from_ino(e.ino), dir, name);
	if (rc == 0 && (fi->flags & O_TRUNC))
		inode_fileid_clear(inode_from_ino(e.ino));
	if (rc != 0) {
		if (fd >= 0)
			close(fd);
		fuse_reply_err(req, -rc);
		return;
	}
	fi->fh = (uint64_t)fd;
	fuse_reply_create(req, &e, fi);
}

static void fs_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	struct inode *in = inode_from_ino(ino);
	/* decrypt straight into the transport's reply buffer when it has one */
	char *buf = fs_reply_buf(size);
	ssize_t n;

	if (buf == NULL) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	pthread_rwlock_rdlock(&in->content);
	n = fs_content_read(in, (int)fi->fh, buf, size, off);
	pthread_rwlock_unlock(&in->content);
	if (n < 0)
		fuse_reply_err(req, (int)-n);
	else
		fuse_reply_buf(req, buf, (size_t)n);
}

static void fs_write(fuse_req_t req, fuse_ino_t ino, const char *buf,
		     size_t size, off_t off, struct fuse_file_info *fi)
{
	struct inode *in = inode_from_ino(ino);
	ssize_t n;

	pthread_rwlock_wrlock(&in->content);
	n = fs_content_write(in, (int)fi->fh, buf, size, off);
	pthread_rwlock_unlock(&in->content);
	if (n < 0)
		fuse_reply_err(req, (int)-n);
	else
		fuse_reply_write(req, (size_t)n);
}

static void fs_flush(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	int fd = dup((int)fi->fh);

	(void)ino;
	if (fd < 0) {
		fuse_reply_err(req, errno);
		return;
	}
	fuse_reply_err(req, close(fd) != 0 ? errno : 0);
}

static void fs_release(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	(void)ino;
	close((int)fi->fh);
	fuse_reply_err(req, 0);
}

static void fs_fsync(fuse_req_t req, fuse_ino_t ino, int datasync,
		     struct fuse_file_info *fi)
{
	int rc = datasync ? fdatasync((int)fi->fh) : fsync((int)fi->fh);

	(void)ino;
	fuse_reply_err(req, rc != 0 ? errno : 0);
}

/* Write zeros over plaintext [off, end), at most one block per call. */
static int write_zeros(struct inode *in, int fd, off_t off, off_t end)
{
	static const char zeros[CONTENT_PLAIN_BS];

	while (off < end) {
		size_t k = end - off < (off_t)sizeof(zeros)
				   ? (size_t)(end - off)
				   : sizeof(zeros);
		ssize_t n = fs_content_write(in, fd, zeros, k, off);

		if (n < 0)
			return (int)n;
		off += (off_t)k;
	}
	return 0;
}

/* Zero plaintext [off, off + len) of the open file up to its size: partial
 * blocks by read-modify-write, whole blocks by punching the backing blocks
 * (an all-zero ciphertext block reads as a hole). Caller holds
 * in->content exclusively. */
static int punch_hole(struct inode *in, int fd, off_t off, off_t len)
{
	static const char zeros[CONTENT_PLAIN_BS];
	const off_t bs = CONTENT_PLAIN_BS;
	const off_t cbs = (off_t)content_cipher_bs(fs.vol->cipher);
	off_t size = 0;
	off_t end;
	off_t first;
	off_t last;
	ssize_t n;
	int rc = fs_content_size(fd, &size);

	if (rc != 0)
		return rc;
	end = off + len < size ? off + len : size;
	first = (off + bs - 1) / bs * bs;
	last = end / bs * bs;
	if (off >= end || first >= last) {
		/* Nothing to punch in the backing. Ask it all the same (a
		 * 1-byte punch at its end changes nothing), so that on a
		 * backing without hole punching (sshfs) every punch is
		 * EOPNOTSUPP, as on a plain fs without it, not just the ones
		 * that cover a whole block (fsx probes at EOF, then punches). */
		struct stat st;

		if (fstat(fd, &st) != 0)
			return -errno;
		if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			      st.st_size, 1) != 0)
			return -errno;
		if (off >= end)
			return 0;
		/* no whole block: up to 2 * 4096 - 2 bytes */
		return write_zeros(in, fd, off, end);
	}
	/* The whole blocks first: a backing without hole punching (sshfs:
	 * EOPNOTSUPP) must leave the file as it was, edges included. */
	if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
		      (off_t)HEADER_LEN + first / bs * cbs,
		      (last - first) / bs * cbs) != 0)
		return -errno;
	if (first > off) {
		n = fs_content_write(in, fd, zeros, (size_t)(first - off), off);
		if (n < 0)
			return (int)n;
	}
	if (end > last) {
		n = fs_content_write(in, fd, zeros, (size_t)(end - last), last);
		if (n < 0)
			return (int)n;
	}
	return 0;
}

static void fs_fallocate(fuse_req_t req, fuse_ino_t ino, int mode, off_t offset,
			 off_t length, struct fuse_file_info *fi)
{
	struct inode *in = inode_from_ino(ino);
	int fd = (int)fi->fh;
	off_t size = 0;
	off_t cstart;
	off_t cend;
	int zero;
	int rc;

	/* past the largest file, as a plain filesystem past its own */
	if (offset >= 0 && length > 0 &&
	    (offset > fs_content_max() || length > fs_content_max() - offset)) {
		fuse_reply_err(req, EFBIG);
		return;
	}
	if (mode == (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE) &&
	    offset >= 0 && length > 0) {
		pthread_rwlock_wrlock(&in->content);
		rc = punch_hole(in, fd, offset, length);
		pthread_rwlock_unlock(&in->content);
		fuse_reply_err(req, -rc);
		return;
	}
	/* ZERO_RANGE: zeros over what the file holds (punched where whole
	 * blocks), then allocated like mode 0 / KEEP_SIZE. Other modes never
	 * get here (the kernel refuses them for FUSE with EOPNOTSUPP). */
	zero = (mode & FALLOC_FL_ZERO_RANGE) != 0;
	if ((mode & ~(FALLOC_FL_KEEP_SIZE | FALLOC_FL_ZERO_RANGE)) != 0) {
		fuse_reply_err(req, EOPNOTSUPP);
		return;
	}
	if (offset < 0 || length <= 0) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	cstart = (off_t)content_plain_to_cipher_size(fs.vol->cipher,
						     (uint64_t)offset);
	cend = (off_t)content_plain_to_cipher_size(fs.vol->cipher,
						   (uint64_t)(offset + length));
	if (cstart > 0)
		cstart -= (off_t)content_overhead(fs.vol->cipher);
	pthread_rwlock_wrlock(&in->content);
	rc = zero ? punch_hole(in, fd, offset, length) : 0;
	if (rc == 0 &&
	    fallocate(fd, FALLOC_FL_KEEP_SIZE, cstart, cend - cstart) != 0)
		rc = -errno;
	if (rc == 0 && !(mode & FALLOC_FL_KEEP_SIZE)) {
		rc = fs_content_size(fd, &size);
		if (rc == 0 && offset + length > size)
			rc = fs_content_truncate(in, fd, offset + length);
	}
	pthread_rwlock_unlock(&in->content);
	fuse_reply_err(req, -rc);
}

static void fs_lseek(fuse_req_t req, fuse_ino_t ino, off_t off, int whence,
		     struct fuse_file_info *fi)
{
	struct inode *in = inode_from_ino(ino);
	off_t r;

	if (whence != SEEK_DATA && whence != SEEK_HOLE) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	pthread_rwlock_rdlock(&in->content);
	r = fs_content_seek((int)fi->fh, off, whence);
	pthread_rwlock_unlock(&in->content);
	if (r < 0)
		fuse_reply_err(req, (int)-r);
	else
		fuse_reply_lseek(req, r);
}

void fs_ops_file(struct fuse_lowlevel_ops *ops)
{
	ops->open = fs_open;
	ops->create = fs_create;
	ops->read = fs_read;
	ops->write = fs_write;
	ops->flush = fs_flush;
	ops->release = fs_release;
	ops->fsync = fs_fsync;
	ops->fallocate = fs_fallocate;
	ops->lseek = fs_lseek;
}
