/* SPDX-License-Identifier: MIT */
/*
 * Attribute operations: getattr (plaintext sizes), setattr (mode, owner,
 * times, size with boundary-block re-encryption), statfs, access.
 * Spec: ../shared/FORMAT.md 4.7, 4.8, 8. Not proved.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "fuse/fs.h"
#include "fuse/rw.h"
#include "sys/sys.h"

/* Shared stat helpers (fs.h): the plaintext view of a backing stat. */
int fs_fix_stat(int fd, struct stat *st)
{
	if (S_ISREG(st->st_mode)) {
		st->st_size = (off_t)content_cipher_to_plain_size(
			fs.vol->cipher, (uint64_t)st->st_size);
	} else if (S_ISLNK(st->st_mode)) {
		char enc[4200];
		char plain[4200];
		ssize_t n = readlinkat(fd, "", enc, sizeof(enc) - 1);
		size_t len = 0;

		if (n < 0)
			return 0;
		enc[n] = '\0';
		if (names_symlink_decrypt(fs.vol, (uint8_t *)plain,
					  sizeof(plain), &len, enc) == 0)
			st->st_size = (off_t)len;
	}
	return 0;
}

int fs_stat_inode(struct inode *in, struct stat *st)
{
	int rc = sys_fstat_empty(in->fd, st);

	if (rc != 0)
		return rc;
	return fs_fix_stat(in->fd, st);
}

/*
 * fstat(2) of an open backing file. On sshfs, and any FUSE backing that
 * works by path, fstat asks by the path the file was opened under: when
 * another client renamed a parent directory that is ENOENT, while the
 * open file still reads. lseek(SEEK_END) makes the kernel refresh the
 * attributes through the open handle instead, and statx with
 * AT_STATX_DONT_SYNC then returns what it got. 0 / -errno.
 */
static int stat_open_file(int fd, struct stat *st)
{
	struct statx sx;
	off_t pos;

	if (fstat(fd, st) == 0)
		return 0;
	if (errno != ENOENT && errno != ESTALE)
		return -errno;
	pos = lseek(fd, 0, SEEK_CUR);
	if (pos < 0 || lseek(fd, 0, SEEK_END) < 0 ||
	    lseek(fd, pos, SEEK_SET) < 0 ||
	    statx(fd, "", AT_EMPTY_PATH | AT_STATX_DONT_SYNC, STATX_BASIC_STATS,
		  &sx) != 0)
		return -ENOENT;
	memset(st, 0, sizeof(*st));
	st->st_dev = makedev(sx.stx_dev_major, sx.stx_dev_minor);
	st->st_ino = (ino_t)sx.stx_ino;
	st->st_mode = (mode_t)sx.stx_mode;
	st->st_nlink = (nlink_t)sx.stx_nlink;
	st->st_uid = sx.stx_uid;
	st->st_gid = sx.stx_gid;
	st->st_rdev = makedev(sx.stx_rdev_major, sx.stx_rdev_minor);
	st->st_size = (off_t)sx.stx_size;
	st->st_blksize = (blksize_t)sx.stx_blksize;
	st->st_blocks = (blkcnt_t)sx.stx_blocks;
	st->st_atim.tv_sec = sx.stx_atime.tv_sec;
	st->st_atim.tv_nsec = sx.stx_atime.tv_nsec;
	st->st_mtim.tv_sec = sx.stx_mtime.tv_sec;
	st->st_mtim.tv_nsec = sx.stx_mtime.tv_nsec;
	st->st_ctim.tv_sec = sx.stx_ctime.tv_sec;
	st->st_ctim.tv_nsec = sx.stx_ctime.tv_nsec;
	return 0;
}

static void fs_getattr(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	struct inode *in = inode_from_ino(ino);
	struct stat st;
	int rc;

	/* fstat(2) of an open file: ask its descriptor (see above; the
	 * inode's O_PATH descriptor has the same stale path). */
	if (fi != NULL && S_ISREG(in->type)) {
		rc = stat_open_file((int)fi->fh, &st);
		if (rc == 0)
			rc = fs_fix_stat((int)fi->fh, &st);
	} else
		rc = fs_stat_inode(in, &st);
	if (rc != 0)
		fuse_reply_err(req, -rc);
	else
		fuse_reply_attr(req, &st, fs.timeout);
}

static int do_truncate(struct inode *in, struct fuse_file_info *fi, off_t size)
{
	int fd;
	int rc;

	if (!S_ISREG(in->type))
		return S_ISDIR(in->type) ? -EISDIR : -EINVAL;
	fd = fi != NULL ? (int)fi->fh : fs_reopen_rw(in, O_RDWR);
	if (fd < 0)
		return fd;
	pthread_rwlock_wrlock(&in->content);
	rc = fs_content_truncate(in, fd, size);
	pthread_rwlock_unlock(&in->content);
	if (fi == NULL)
		close(fd);
	return rc;
}

static int fs_do_setattr(struct inode *in, const struct stat *attr, int valid,
			 struct fuse_file_info *fi)
{
	char proc[32];
	int rc;

	sys_procpath(in->fd, proc, sizeof(proc));
	if (valid & FUSE_SET_ATTR_MODE) {
		if (S_ISLNK(in->type))
			return -EOPNOTSUPP;
		rc = fi != NULL ? fchmod((int)fi->fh, attr->st_mode)
				: chmod(proc, attr->st_mode);
		if (rc != 0)
			return -errno;
	}
	if (valid & (FUSE_SET_ATTR_UID | FUSE_SET_ATTR_GID)) {
		uid_t uid =
			(valid & FUSE_SET_ATTR_UID) ? attr->st_uid : (uid_t)-1;
		gid_t gid =
			(valid & FUSE_SET_ATTR_GID) ? attr->st_gid : (gid_t)-1;

		if (fchownat(in->fd, "", uid, gid,
			     AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) != 0)
			return -errno;
	}
	if (valid & FUSE_SET_ATTR_SIZE) {
		rc = do_truncate(in, fi, attr->st_size);
		if (rc != 0)
			return rc;
	}
	if (valid & (FUSE_SET_ATTR_ATIME | FUSE_SET_ATTR_MTIME)) {
		struct timespec tv[2];

		tv[0].tv_sec = 0;
		tv[1].tv_sec = 0;
		tv[0].tv_nsec = UTIME_OMIT;
		tv[1].tv_nsec = UTIME_OMIT;
		if (valid & FUSE_SET_ATTR_ATIME_NOW)
			tv[0].tv_nsec = UTIME_NOW;
		else if (valid & FUSE_SET_ATTR_ATIME)
			tv[0] = attr->st_atim;
		if (valid & FUSE_SET_ATTR_MTIME_NOW)
			tv[1].tv_nsec = UTIME_NOW;
		else if (valid & FUSE_SET_ATTR_MTIME)
			tv[1] = attr->st_mtim;
		if (fi != NULL)
			rc = futimens((int)fi->fh, tv);
		else if (S_ISLNK(in->type))
			rc = utimensat(in->fd, "", tv, AT_EMPTY_PATH);
		else
			rc = utimensat(AT_FDCWD, proc, tv, 0);
		if (rc != 0)
			return -errno;
	}
	return 0;
}

static void fs_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr,
		       int valid, struct fuse_file_info *fi)
{
	struct inode *in = inode_from_ino(ino);
	struct stat st;
	int rc = fs_do_setattr(in, attr, valid, fi);

	if (rc == 0)
		rc = fs_stat_inode(in, &st);
	if (rc != 0)
		fuse_reply_err(req, -rc);
	else
		fuse_reply_attr(req, &st, fs.timeout);
}

static void fs_statfs(fuse_req_t req, fuse_ino_t ino)
{
	struct statvfs sv;

	if (fstatvfs(inode_from_ino(ino)->fd, &sv) != 0)
		fuse_reply_err(req, errno);
	else
		fuse_reply_statfs(req, &sv);
}

static void fs_access(fuse_req_t req, fuse_ino_t ino, int mask)
{
	char proc[32];
	struct inode *in = inode_from_ino(ino);

	if (S_ISLNK(in->type)) {
		fuse_reply_err(req, 0);
		return;
	}
	sys_procpath(in->fd, proc, sizeof(proc));
	fuse_reply_err(req,
		       faccessat(AT_FDCWD, proc, mask, 0) != 0 ? errno : 0);
}

void fs_ops_attr(struct fuse_lowlevel_ops *ops)
{
	ops->getattr = fs_getattr;
	ops->setattr = fs_setattr;
	ops->statfs = fs_statfs;
	ops->access = fs_access;
}
