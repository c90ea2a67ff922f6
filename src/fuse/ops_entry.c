/* SPDX-License-Identifier: MIT */
/*
 * Namespace operations: lookup, forget, mkdir (with diriv), mknod,
 * symlink, link, unlink, rmdir (diriv rename-away), rename, readlink.
 * fs_do_X() does the work and returns -errno; fs_X() replies once.
 * Spec: ../shared/FORMAT.md 5.4, 5.7, 6, 8. Not proved.
 */
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuse/caller.h"
#include "fuse/dirnames.h"
#include "fuse/fs.h"
#include "sys/sys.h"

/* Shared lookup (fs.h), used by lookup, create and readdirplus. */
int fs_do_lookup(struct inode *parent, const char *disk,
		 struct fuse_entry_param *e)
{
	struct stat st;
	struct inode *in;
	int fd;
	int rc;

	memset(e, 0, sizeof(*e));
	fd = sys_openat(parent->fd, disk, O_PATH | O_NOFOLLOW, 0);
	if (fd < 0)
		return fd;
	rc = sys_fstat_empty(fd, &st);
	if (rc != 0) {
		close(fd);
		return rc;
	}
	(void)fs_fix_stat(fd, &st);
	in = inode_get(fd, &st);
	if (in == NULL)
		return -ENOMEM;
	e->ino = inode_to_ino(in);
	e->attr = st;
	e->attr_timeout = fs.timeout;
	e->entry_timeout = fs.timeout;
	return 0;
}

static int names_encrypted(void)
{
	return !(fs.vol->flags & VOL_PLAINTEXTNAMES);
}

static int use_diriv(void)
{
	return names_encrypted() && (fs.vol->flags & VOL_DIRIV);
}

/* The cname c of name, an entry of dir that should exist: a name that
 * cannot be encrypted (-EINVAL) names nothing there (-ENOENT). */
static int cname_existing(struct inode *dir, const char *name, struct cname *c)
{
	int rc = dirnames_cname(fs.vol, dir, name, c);

	return rc == -EINVAL ? -ENOENT : rc;
}

static void reply_entry_or_err(fuse_req_t req, int rc,
			       const struct fuse_entry_param *e)
{
	if (rc != 0)
		fuse_reply_err(req, -rc);
	else
		fuse_reply_entry(req, e);
}

/* fs_do_lookup(); on EMFILE/ENFILE wait for the fd budget and retry once
 * (not for readdirplus, which holds the directory in the kernel). */
static int lookup_retry(struct inode *dir, const char *disk,
			struct fuse_entry_param *e)
{
	int rc = fs_do_lookup(dir, disk, e);

	if ((rc == -EMFILE || rc == -ENFILE) && inode_budget_wait())
		rc = fs_do_lookup(dir, disk, e);
	return rc;
}

static void fs_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct inode *dir = inode_from_ino(parent);
	struct fuse_entry_param e;
	struct cname c;
	int rc = cname_existing(dir, name, &c);

	if (rc == 0)
		rc = lookup_retry(dir, c.disk, &e);
	if (rc == -ENOENT &&
	    dirnames_badname_resolve(fs.vol, fs.badname, dir, name, c.disk,
				     sizeof(c.disk)) == 0)
		rc = lookup_retry(dir, c.disk, &e);
	if (rc == 0)
		inode_name_set(inode_from_ino(e.ino), dir, name);
	if (rc == -ENOENT && fs.neg_timeout > 0) {
		/* negative entry, cached like gocryptfs */
		memset(&e, 0, sizeof(e));
		e.entry_timeout = fs.neg_timeout;
		fuse_reply_entry(req, &e);
		return;
	}
	reply_entry_or_err(req, rc, &e);
}

static void fs_forget(fuse_req_t req, fuse_ino_t ino, uint64_t nlookup)
{
	inode_unref(inode_from_ino(ino), nlookup);
	fuse_reply_none(req);
}

static void fs_forget_multi(fuse_req_t req, size_t count,
			    struct fuse_forget_data *forgets)
{
	for (size_t i = 0; i < count; i++)
		inode_unref(inode_from_ino(forgets[i].ino), forgets[i].nlookup);
	fuse_reply_none(req);
}

/* Finish a creation (made with the caller's identity) of name: look it
 * up. */
static int finish_new(fuse_req_t req, struct inode *dir, const char *name,
		      const char *disk, struct fuse_entry_param *e)
{
	int rc = lookup_retry(dir, disk, e);

	(void)req;
	if (rc == 0)
		inode_name_set(inode_from_ino(e->ino), dir, name);
	return rc;
}

/* Reply to a creation of name (as c in dir) that ended with rc: on success
 * with its entry, else with the error. */
static void reply_new(fuse_req_t req, struct inode *dir, const char *name,
		      const struct cname *c, int rc)
{
	struct fuse_entry_param e;

	if (rc == 0)
		rc = finish_new(req, dir, name, c->disk, &e);
	reply_entry_or_err(req, rc, &e);
}

/* Start a creation of name in dir: its cname c, then the caller's identity
 * (cr, to be ended with caller_end when this returns 0). */
static int begin_new(fuse_req_t req, struct inode *dir, const char *name,
		     struct cname *c, struct caller *cr)
{
	int rc = dirnames_cname(fs.vol, dir, name, c);

	if (rc == 0)
		rc = caller_begin(req, cr);
	return rc;
}

/* Make the backing directory c in dir with its diriv (run with the
 * caller's identity; the parent's diriv was read before). */
static int mkdir_backing(struct inode *dir, const struct cname *c, mode_t mode)
{
	int rc = dirnames_prepare(dir->fd, c);

	if (rc != 0)
		return rc;
	if (mkdirat(dir->fd, c->disk, use_diriv() ? mode | 0700 : mode) != 0) {
		rc = -errno;
		dirnames_abort(dir->fd, c);
		return rc;
	}
	if (use_diriv()) {
		uint8_t iv[16];
		struct stat st;
		int dfd;

		names_diriv_new(iv);
		dfd = sys_openat(dir->fd, c->disk,
				 O_RDONLY | O_DIRECTORY | O_NOFOLLOW, 0);
		rc = dfd < 0 ? dfd : sys_write_diriv(dfd, iv);
		if (rc == 0 && (mode & 07777) != ((mode | 0700) & 07777) &&
		    fstat(dfd, &st) == 0 &&
		    fchmod(dfd, (mode & 07777) | (st.st_mode & S_ISGID)) != 0)
			rc = -errno;
		if (dfd >= 0)
			close(dfd);
		if (rc != 0) {
			int d2 = sys_openat(dir->fd, c->disk,
					    O_RDONLY | O_DIRECTORY | O_NOFOLLOW,
					    0);

			if (d2 >= 0) {
				(void)unlinkat(d2, NAMES_DIRIV, 0);
				close(d2);
			}
			(void)unlinkat(dir->fd, c->disk, AT_REMOVEDIR);
			dirnames_abort(dir->fd, c);
			return rc;
		}
	}
	return 0;
}

static void fs_mkdir(fuse_req_t req, fuse_ino_t parent, const char *name,
		     mode_t mode)
{
	struct inode *dir = inode_from_ino(parent);
	struct caller cr;
	struct cname c;
	int rc = begin_new(req, dir, name, &c, &cr);

	if (rc == 0) {
		rc = mkdir_backing(dir, &c, mode);
		caller_end(&cr);
	}
	reply_new(req, dir, name, &c, rc);
}

static void fs_mknod(fuse_req_t req, fuse_ino_t parent, const char *name,
		     mode_t mode, dev_t rdev)
{
	struct inode *dir = inode_from_ino(parent);
	struct caller cr;
	struct cname c;
	int rc = begin_new(req, dir, name, &c, &cr);

	if (rc == 0) {
		rc = dirnames_prepare(dir->fd, &c);
		if (rc == 0 && mknodat(dir->fd, c.disk, mode, rdev) != 0) {
			rc = -errno;
			dirnames_abort(dir->fd, &c);
		}
		caller_end(&cr);
	}
	reply_new(req, dir, name, &c, rc);
}

static void fs_symlink(fuse_req_t req, const char *target, fuse_ino_t parent,
		       const char *name)
{
	struct inode *dir = inode_from_ino(parent);
	struct caller cr;
	struct cname c;
	char enc[4096];
	int rc = dirnames_cname(fs.vol, dir, name, &c);

	if (rc == 0)
		rc = names_symlink_encrypt(fs.vol, enc, sizeof(enc),
					   (const uint8_t *)target,
					   strlen(target), NULL);
	if (rc == -ERANGE)
		rc = -ENAMETOOLONG;
	if (rc == 0)
		rc = caller_begin(req, &cr);
	if (rc == 0) {
		rc = dirnames_prepare(dir->fd, &c);
		if (rc == 0 && symlinkat(enc, dir->fd, c.disk) != 0) {
			rc = -errno;
			dirnames_abort(dir->fd, &c);
		}
		caller_end(&cr);
	}
	reply_new(req, dir, name, &c, rc);
}

static void fs_link(fuse_req_t req, fuse_ino_t ino, fuse_ino_t newparent,
		    const char *newname)
{
	struct inode *in = inode_from_ino(ino);
	struct inode *dir = inode_from_ino(newparent);
	struct cname c;
	char proc[32];
	int rc = dirnames_cname(fs.vol, dir, newname, &c);

	sys_procpath(in->fd, proc, sizeof(proc));
	if (rc == 0)
		rc = dirnames_prepare(dir->fd, &c);
	if (rc == 0 &&
	    linkat(AT_FDCWD, proc, dir->fd, c.disk, AT_SYMLINK_FOLLOW) != 0) {
		rc = -errno;
		dirnames_abort(dir->fd, &c);
	}
	reply_new(req, dir, newname, &c, rc);
}

static void fs_unlink(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct inode *dir = inode_from_ino(parent);
	struct cname c;
	int rc = cname_existing(dir, name, &c);

	if (rc == 0 && unlinkat(dir->fd, c.disk, 0) != 0)
		rc = -errno;
	if (rc == -ENOENT &&
	    dirnames_badname_resolve(fs.vol, fs.badname, dir, name, c.disk,
				     sizeof(c.disk)) == 0) {
		c.is_long = 0;
		rc = unlinkat(dir->fd, c.disk, 0) != 0 ? -errno : 0;
	}
	if (rc == 0)
		dirnames_done(dir->fd, &c);
	fuse_reply_err(req, -rc);
}

/* rmdir_backing() with the permissions it needs. */
static int rmdir_diriv(int pfd, const char *disk)
{
	char tmp[64];
	uint64_t r;
	int dfd;
	DIR *dp;
	struct dirent *de;
	int has_diriv = 0;
	int rc = 0;

	if (!use_diriv())
		return inode_rmdirat(pfd, disk);
	dfd = sys_openat(pfd, disk, O_RDONLY | O_DIRECTORY | O_NOFOLLOW, 0);
	if (dfd < 0)
		return dfd;
	dp = fdopendir(dfd);
	if (dp == NULL) {
		rc = -errno;
		close(dfd);
		return rc;
	}
	while ((de = readdir(dp)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		if (strcmp(de->d_name, NAMES_DIRIV) == 0) {
			has_diriv = 1;
			continue;
		}
		rc = -ENOTEMPTY;
		break;
	}
	if (rc == 0 && !has_diriv) {
		closedir(dp);
		return inode_rmdirat(pfd, disk);
	}
	if (rc == 0) {
		/* any fresh random bytes do: take them from a diriv */
		uint8_t rnd[NAMES_DIRIV_LEN];

		names_diriv_new(rnd);
		memcpy(&r, rnd, sizeof(r));
		(void)snprintf(tmp, sizeof(tmp),
			       "gocryptfs.diriv.rmdir.%" PRIu64, r);
		if (renameat(dirfd(dp), NAMES_DIRIV, pfd, tmp) != 0)
			rc = -errno;
	}
	if (rc == 0) {
		rc = inode_rmdirat(pfd, disk);
		if (rc != 0) {
			(void)renameat(pfd, tmp, dirfd(dp), NAMES_DIRIV);
		} else {
			(void)unlinkat(pfd, tmp, 0);
		}
	}
	closedir(dp);
	return rc;
}

/* Remove the backing directory disk in dirfd the gocryptfs way: only a
 * diriv may be left; it is moved to the parent, the directory removed,
 * then the moved diriv deleted (moved back on failure). Handling the diriv
 * needs u+rwx on the directory (a non-root daemon): a directory without
 * them gets them for the moment, as in gocryptfs, and keeps its mode when
 * it cannot be removed. */
static int rmdir_backing(int pfd, const char *disk)
{
	char proc[32];
	struct stat st;
	int fd;
	int rc;

	if (!use_diriv())
		return inode_rmdirat(pfd, disk);
	fd = sys_openat(pfd, disk, O_PATH | O_DIRECTORY | O_NOFOLLOW, 0);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) != 0 || (st.st_mode & 0700) == 0700) {
		close(fd);
		return rmdir_diriv(pfd, disk);
	}
	sys_procpath(fd, proc, sizeof(proc));
	if (chmod(proc, (st.st_mode & 07777) | 0700) != 0) {
		close(fd);
		return rmdir_diriv(pfd, disk);
	}
	rc = rmdir_diriv(pfd, disk);
	if (rc != 0)
		(void)chmod(proc, st.st_mode & 07777);
	close(fd);
	return rc;
}

static void fs_rmdir(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct inode *dir = inode_from_ino(parent);
	struct cname c;
	int rc = cname_existing(dir, name, &c);

	if (rc == 0)
		rc = rmdir_backing(dir->fd, c.disk);
	if (rc == -ENOENT &&
	    dirnames_badname_resolve(fs.vol, fs.badname, dir, name, c.disk,
				     sizeof(c.disk)) == 0) {
		c.is_long = 0;
		rc = rmdir_backing(dir->fd, c.disk);
	}
	if (rc == 0)
		dirnames_done(dir->fd, &c);
	fuse_reply_err(req, -rc);
}

/* The object now at disk in dir keeps name for the fd budget. */
static void note_renamed(struct inode *dir, const char *disk, const char *name)
{
	struct stat st;

	if (fstatat(dir->fd, disk, &st, AT_SYMLINK_NOFOLLOW) == 0)
		inode_name_moved(st.st_dev, st.st_ino, dir, name);
}

static void fs_rename(fuse_req_t req, fuse_ino_t parent, const char *name,
		      fuse_ino_t newparent, const char *newname,
		      unsigned int flags)
{
	struct inode *od = inode_from_ino(parent);
	struct inode *nd = inode_from_ino(newparent);
	struct cname oc;
	struct cname nc;
	int rc;

	/* RENAME_WHITEOUT leaves a whiteout (char device 0/0) under the old
	 * encrypted name: the backing rename makes it, and a long name keeps
	 * its .name file for it. */
	if (flags &
	    ~(unsigned)(RENAME_NOREPLACE | RENAME_EXCHANGE | RENAME_WHITEOUT)) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	rc = dirnames_cname(fs.vol, od, name, &oc);
	if (rc == 0)
		rc = dirnames_cname(fs.vol, nd, newname, &nc);
	if (rc == 0)
		rc = dirnames_prepare(nd->fd, &nc);
	if (rc != 0) {
		fuse_reply_err(req, -rc);
		return;
	}
	if (renameat2(od->fd, oc.disk, nd->fd, nc.disk, flags) != 0) {
		rc = -errno;
		/* The target may be an "empty" directory holding a diriv
		 * (sshfs says EPERM: SFTP has only a generic failure code). */
		if ((rc == -ENOTEMPTY || rc == -EEXIST || rc == -EPERM) &&
		    flags == 0 && rmdir_backing(nd->fd, nc.disk) == 0) {
			rc = renameat2(od->fd, oc.disk, nd->fd, nc.disk, 0) != 0
				     ? -errno
				     : 0;
		}
	}
	if (rc != 0) {
		/* keep a .name that belonged to an existing target */
		struct stat st;

		if (nc.is_long &&
		    fstatat(nd->fd, nc.disk, &st, AT_SYMLINK_NOFOLLOW) != 0)
			dirnames_abort(nd->fd, &nc);
		fuse_reply_err(req, -rc);
		return;
	}
	if (!(flags & (RENAME_EXCHANGE | RENAME_WHITEOUT)) &&
	    (od != nd || strcmp(oc.disk, nc.disk) != 0))
		dirnames_done(od->fd, &oc);
	note_renamed(nd, nc.disk, newname);
	if (flags & RENAME_EXCHANGE)
		note_renamed(od, oc.disk, name);
	fuse_reply_err(req, 0);
}

static void fs_readlink(fuse_req_t req, fuse_ino_t ino)
{
	struct inode *in = inode_from_ino(ino);
	char enc[4200];
	char plain[4200];
	ssize_t n = readlinkat(in->fd, "", enc, sizeof(enc) - 1);
	size_t len = 0;

	if (n < 0) {
		fuse_reply_err(req, errno);
		return;
	}
	enc[n] = '\0';
	if (names_symlink_decrypt(fs.vol, (uint8_t *)plain, sizeof(plain) - 1,
				  &len, enc) != 0) {
		log_error("cannot decrypt symlink inode %lu",
			  (unsigned long)in->ino);
		fuse_reply_err(req, EIO);
		return;
	}
	plain[len] = '\0';
	fuse_reply_readlink(req, plain);
}

void fs_ops_entry(struct fuse_lowlevel_ops *ops)
{
	ops->lookup = fs_lookup;
	ops->forget = fs_forget;
	ops->forget_multi = fs_forget_multi;
	ops->mkdir = fs_mkdir;
	ops->mknod = fs_mknod;
	ops->symlink = fs_symlink;
	ops->link = fs_link;
	ops->unlink = fs_unlink;
	ops->rmdir = fs_rmdir;
	ops->rename = fs_rename;
	ops->readlink = fs_readlink;
}
