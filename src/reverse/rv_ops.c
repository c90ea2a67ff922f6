/* SPDX-License-Identifier: MIT */
/*
 * The FUSE low-level operations of the reverse daemon: lookup, getattr,
 * readlink, open/read/release, lseek (SEEK_DATA/SEEK_HOLE: the whole view
 * file is data), opendir/readdir/releasedir, statfs; every operation that
 * would change something answers EROFS (the view is read-only).
 * Spec: ../shared/FORMAT.md 9. Not proved.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "reverse/rv.h"
#include "sys/sys.h"

/* fi->fh holds the struct rv_file / rv_dir pointer open/opendir stored. */
static struct rv_file *file_of(const struct fuse_file_info *fi)
{
	/* NOLINTNEXTLINE(performance-no-int-to-ptr) */
	return (struct rv_file *)(uintptr_t)fi->fh;
}

static struct rv_dir *dir_of(const struct fuse_file_info *fi)
{
	/* NOLINTNEXTLINE(performance-no-int-to-ptr) */
	return (struct rv_dir *)(uintptr_t)fi->fh;
}

/* A new node for view name `name` in d as resolved in *r. */
static struct rv_node *make_node(struct rv_node *d, const char *name,
				 const struct rv_res *r, int *err)
{
	struct stat st;
	uint8_t *data = NULL;
	size_t dlen = 0;
	char *cpath, *ppath;
	int fd, empty = 0;

	cpath = rv_join(d->cpath, name);
	if (cpath == NULL) {
		*err = -ENOMEM;
		return NULL;
	}
	switch (r->kind) {
	case RV_DIRIV:
	case RV_NAMEFILE:
		fd = fcntl(d->fd, F_DUPFD_CLOEXEC, 0);
		if (fd < 0)
			fd = -errno;
		ppath = strdup(d->ppath);
		if (r->kind == RV_DIRIV) {
			dlen = NAMES_DIRIV_LEN;
			data = malloc(dlen);
			if (data != NULL)
				rv_derive(data, d->cpath, "DIRIV");
		} else {
			dlen = strlen(r->enc);
			data = (uint8_t *)strdup(r->enc);
		}
		break;
	case RV_CONF:
		fd = sys_openat(rv.rootfd, r->pname, O_PATH | O_NOFOLLOW, 0);
		ppath = strdup(r->pname);
		break;
	default:
		fd = sys_openat(d->fd, r->pname, O_PATH | O_NOFOLLOW, 0);
		ppath = rv_join(d->ppath, r->pname);
		break;
	}
	if (fd < 0 || ppath == NULL || (dlen > 0 && data == NULL)) {
		*err = fd < 0 ? fd : -ENOMEM;
		goto fail;
	}
	*err = sys_fstat_empty(fd, &st);
	if (*err != 0)
		goto fail;
	if (r->kind == RV_CONF && !S_ISREG(st.st_mode)) {
		*err = -ENOENT;
		goto fail;
	}
	if (r->kind == RV_DIRIV || r->kind == RV_NAMEFILE)
		st.st_mode = S_IFREG | 0444;
	if (r->kind == RV_REAL && rv.one_file_system && S_ISDIR(st.st_mode) &&
	    st.st_dev != rv.rootdev)
		empty = 1;
	{
		struct rv_node *n = rv_node_get(r->kind, cpath, ppath, fd, &st,
						data, dlen, empty);
		free(cpath);
		if (n == NULL)
			*err = -ENOMEM;
		return n;
	}
fail:
	if (fd >= 0)
		close(fd);
	free(ppath);
	free(data);
	free(cpath);
	return NULL;
}

static void op_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct rv_node *d = rv_node_of(parent), *n;
	struct fuse_entry_param e;
	struct rv_res r;
	int err = rv_resolve(d, name, &r);

	if (err == 0 && (n = make_node(d, name, &r, &err)) != NULL) {
		memset(&e, 0, sizeof(e));
		err = rv_stat(n, &e.attr);
		if (err != 0) {
			rv_node_forget(n, 1);
		} else {
			e.ino = rv_ino_of(n);
			e.attr_timeout = rv.timeout;
			e.entry_timeout = rv.timeout;
			fuse_reply_entry(req, &e);
			return;
		}
	}
	if (err == -ENOENT && rv.timeout > 0) {
		/* a negative entry, cached for the timeout */
		memset(&e, 0, sizeof(e));
		e.entry_timeout = rv.timeout;
		fuse_reply_entry(req, &e);
		return;
	}
	fuse_reply_err(req, -err);
}

static void op_forget(fuse_req_t req, fuse_ino_t ino, uint64_t nlookup)
{
	rv_node_forget(rv_node_of(ino), nlookup);
	fuse_reply_none(req);
}

static void op_forget_multi(fuse_req_t req, size_t count,
			    struct fuse_forget_data *f)
{
	for (size_t i = 0; i < count; i++)
		rv_node_forget(rv_node_of(f[i].ino), f[i].nlookup);
	fuse_reply_none(req);
}

static void op_getattr(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	struct stat st;
	int err = rv_stat(rv_node_of(ino), &st);

	(void)fi;
	if (err != 0) {
		fuse_reply_err(req, -err);
		return;
	}
	fuse_reply_attr(req, &st, rv.timeout);
}

static void op_readlink(fuse_req_t req, fuse_ino_t ino)
{
	char t[NAMES_SYMLINK_MAX + 1];
	struct rv_node *n = rv_node_of(ino);
	ssize_t l;

	if (n->type != S_IFLNK) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	l = rv_readlink(n, t, sizeof(t));
	if (l < 0)
		fuse_reply_err(req, (int)-l);
	else
		fuse_reply_readlink(req, t);
}

static void op_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct rv_file *f;
	int err;

	if ((fi->flags & O_ACCMODE) != O_RDONLY ||
	    (fi->flags & (O_TRUNC | O_CREAT))) {
		fuse_reply_err(req, EROFS);
		return;
	}
	err = rv_file_open(rv_node_of(ino), &f);
	if (err != 0) {
		fuse_reply_err(req, -err);
		return;
	}
	fi->fh = (uint64_t)(uintptr_t)f;
	fi->keep_cache = 0;
	if (fuse_reply_open(req, fi) != 0)
		rv_file_close(f);
}

static void op_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	struct rv_file *f = file_of(fi);
	char *buf = NULL;
	ssize_t n;

	(void)ino;
	n = rv_file_read(f, size, off, &buf);
	if (n < 0)
		fuse_reply_err(req, (int)-n);
	else
		fuse_reply_buf(req, buf, (size_t)n);
}

static void op_release(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	(void)ino;
	rv_file_close(file_of(fi));
	fuse_reply_err(req, 0);
}

/* SEEK_DATA/SEEK_HOLE: the view file is all data, so no copy tool ever
 * skips header or tag bytes (FORMAT.md 9.6). */
static void op_lseek(fuse_req_t req, fuse_ino_t ino, off_t off, int whence,
		     struct fuse_file_info *fi)
{
	struct rv_file *f = file_of(fi);
	off_t size;
	int err;

	(void)ino;
	if (whence != SEEK_DATA && whence != SEEK_HOLE) {
		fuse_reply_err(req, EINVAL);
		return;
	}
	err = rv_file_size(f, &size);
	if (err != 0) {
		fuse_reply_err(req, -err);
		return;
	}
	if (off < 0 || off >= size) {
		fuse_reply_err(req, ENXIO);
		return;
	}
	fuse_reply_lseek(req, whence == SEEK_DATA ? off : size);
}

static void op_opendir(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	struct rv_dir *d = malloc(sizeof(*d));
	int err;

	if (d == NULL) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	err = rv_list(rv_node_of(ino), d);
	if (err != 0) {
		free(d);
		fuse_reply_err(req, -err);
		return;
	}
	fi->fh = (uint64_t)(uintptr_t)d;
	if (fuse_reply_open(req, fi) != 0) {
		rv_dir_free(d);
		free(d);
	}
}

static void op_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		       struct fuse_file_info *fi)
{
	struct rv_dir *d = dir_of(fi);
	char *buf = malloc(size);
	size_t pos = 0;

	(void)ino;
	if (buf == NULL) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	for (size_t i = off < 0 ? 0 : (size_t)off; i < d->n; i++) {
		struct stat st;
		size_t l;
		memset(&st, 0, sizeof(st));
		st.st_ino = d->e[i].ino;
		st.st_mode = d->e[i].type;
		l = fuse_add_direntry(req, buf + pos, size - pos, d->e[i].name,
				      &st, (off_t)(i + 1));
		if (l > size - pos)
			break;
		pos += l;
	}
	fuse_reply_buf(req, buf, pos);
	free(buf);
}

/* readdirplus: each entry with its lookup done (one round trip less per
 * entry for find, rsync, ls -l); "." and ".." without attributes. */
static void op_readdirplus(fuse_req_t req, fuse_ino_t ino, size_t size,
			   off_t off, struct fuse_file_info *fi)
{
	struct rv_dir *d = dir_of(fi);
	struct rv_node *dn = rv_node_of(ino);
	char *buf = malloc(size);
	size_t pos = 0;

	if (buf == NULL) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	for (size_t i = off < 0 ? 0 : (size_t)off; i < d->n; i++) {
		struct fuse_entry_param e;
		struct rv_node *n = NULL;
		const char *name = d->e[i].name;
		size_t l;
		memset(&e, 0, sizeof(e));
		if (strcmp(name, ".") != 0 && strcmp(name, "..") != 0) {
			struct rv_res r;
			int err = rv_resolve(dn, name, &r);
			if (err == 0)
				n = make_node(dn, name, &r, &err);
			if (n != NULL && rv_stat(n, &e.attr) != 0) {
				rv_node_forget(n, 1);
				n = NULL;
			}
		}
		if (n != NULL) {
			e.ino = rv_ino_of(n);
			e.attr_timeout = rv.timeout;
			e.entry_timeout = rv.timeout;
		} else {
			/* gone since opendir, or . and ..: name and type
			 * only (node ID 0: the kernel looks it up later) */
			e.attr.st_ino = d->e[i].ino;
			e.attr.st_mode = d->e[i].type;
		}
		l = fuse_add_direntry_plus(req, buf + pos, size - pos, name, &e,
					   (off_t)(i + 1));
		if (l > size - pos) {
			if (n != NULL)
				rv_node_forget(n, 1);
			break;
		}
		pos += l;
	}
	fuse_reply_buf(req, buf, pos);
	free(buf);
}

static void op_releasedir(fuse_req_t req, fuse_ino_t ino,
			  struct fuse_file_info *fi)
{
	struct rv_dir *d = dir_of(fi);

	(void)ino;
	rv_dir_free(d);
	free(d);
	fuse_reply_err(req, 0);
}

static void op_statfs(fuse_req_t req, fuse_ino_t ino)
{
	struct statvfs sv;

	(void)ino;
	if (fstatvfs(rv.rootfd, &sv) != 0) {
		fuse_reply_err(req, errno);
		return;
	}
	fuse_reply_statfs(req, &sv);
}

/* ---- everything that writes: EROFS ---- */

static void ro_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr,
		       int to_set, struct fuse_file_info *fi)
{
	(void)ino;
	(void)attr;
	(void)to_set;
	(void)fi;
	fuse_reply_err(req, EROFS);
}

static void ro_mknod(fuse_req_t req, fuse_ino_t parent, const char *name,
		     mode_t mode, dev_t rdev)
{
	(void)parent;
	(void)name;
	(void)mode;
	(void)rdev;
	fuse_reply_err(req, EROFS);
}

static void ro_mkdir(fuse_req_t req, fuse_ino_t parent, const char *name,
		     mode_t mode)
{
	(void)parent;
	(void)name;
	(void)mode;
	fuse_reply_err(req, EROFS);
}

static void ro_unlink(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	(void)parent;
	(void)name;
	fuse_reply_err(req, EROFS);
}

static void ro_symlink(fuse_req_t req, const char *link, fuse_ino_t parent,
		       const char *name)
{
	(void)link;
	(void)parent;
	(void)name;
	fuse_reply_err(req, EROFS);
}

static void ro_rename(fuse_req_t req, fuse_ino_t parent, const char *name,
		      fuse_ino_t newparent, const char *newname,
		      unsigned int flags)
{
	(void)parent;
	(void)name;
	(void)newparent;
	(void)newname;
	(void)flags;
	fuse_reply_err(req, EROFS);
}

static void ro_link(fuse_req_t req, fuse_ino_t ino, fuse_ino_t newparent,
		    const char *newname)
{
	(void)ino;
	(void)newparent;
	(void)newname;
	fuse_reply_err(req, EROFS);
}

static void ro_write(fuse_req_t req, fuse_ino_t ino, const char *buf,
		     size_t size, off_t off, struct fuse_file_info *fi)
{
	(void)ino;
	(void)buf;
	(void)size;
	(void)off;
	(void)fi;
	fuse_reply_err(req, EROFS);
}

static void ro_create(fuse_req_t req, fuse_ino_t parent, const char *name,
		      mode_t mode, struct fuse_file_info *fi)
{
	(void)parent;
	(void)name;
	(void)mode;
	(void)fi;
	fuse_reply_err(req, EROFS);
}

static void ro_setxattr(fuse_req_t req, fuse_ino_t ino, const char *name,
			const char *value, size_t size, int flags)
{
	(void)ino;
	(void)name;
	(void)value;
	(void)size;
	(void)flags;
	fuse_reply_err(req, EROFS);
}

static void ro_removexattr(fuse_req_t req, fuse_ino_t ino, const char *name)
{
	(void)ino;
	(void)name;
	fuse_reply_err(req, EROFS);
}

static void ro_fallocate(fuse_req_t req, fuse_ino_t ino, int mode, off_t offset,
			 off_t length, struct fuse_file_info *fi)
{
	(void)ino;
	(void)mode;
	(void)offset;
	(void)length;
	(void)fi;
	fuse_reply_err(req, EROFS);
}

static const struct fuse_lowlevel_ops ops = {
	.lookup = op_lookup,
	.forget = op_forget,
	.forget_multi = op_forget_multi,
	.getattr = op_getattr,
	.readlink = op_readlink,
	.open = op_open,
	.read = op_read,
	.release = op_release,
	.lseek = op_lseek,
	.opendir = op_opendir,
	.readdir = op_readdir,
	.readdirplus = op_readdirplus,
	.releasedir = op_releasedir,
	.statfs = op_statfs,
	.setattr = ro_setattr,
	.mknod = ro_mknod,
	.mkdir = ro_mkdir,
	.unlink = ro_unlink,
	.rmdir = ro_unlink,
	.symlink = ro_symlink,
	.rename = ro_rename,
	.link = ro_link,
	.write = ro_write,
	.create = ro_create,
	.setxattr = ro_setxattr,
	.removexattr = ro_removexattr,
	.fallocate = ro_fallocate,
};

const struct fuse_lowlevel_ops *rv_ops(void)
{
	return &ops;
}
