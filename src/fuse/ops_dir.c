/* SPDX-License-Identifier: MIT */
/*
 * Directory listing: opendir, readdir and readdirplus with name
 * decryption (hides gocryptfs.conf, gocryptfs.diriv, long-name .name files
 * and names that do not decrypt; long names resolved through .name),
 * releasedir, fsyncdir. Spec: ../shared/FORMAT.md 5.5, 5.7, 5.8.
 * Not proved.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuse/dirnames.h"
#include "fuse/fs.h"
#include "sys/sys.h"

struct dirh {
	DIR *dp;
	off_t offset;
	struct dirent *entry;
	struct inode *in;
	uint8_t iv[16];
};

/* fi->fh holds the struct dirh pointer that fs_opendir() stored. */
static struct dirh *dirh_of(const struct fuse_file_info *fi)
{
	/* NOLINTNEXTLINE(performance-no-int-to-ptr) */
	return (struct dirh *)(uintptr_t)fi->fh;
}

static void fs_opendir(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	struct inode *in = inode_from_ino(ino);
	struct dirh *d = calloc(1, sizeof(*d));
	int fd;
	int rc;

	if (d == NULL) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	d->in = in;
	rc = dirnames_iv(fs.vol, in, d->iv);
	fd = rc != 0 ? rc : sys_openat(in->fd, ".", O_RDONLY | O_DIRECTORY, 0);
	if ((fd == -EMFILE || fd == -ENFILE) && inode_budget_wait()) {
		rc = dirnames_iv(fs.vol, in, d->iv);
		fd = rc != 0 ? rc
			     : sys_openat(in->fd, ".", O_RDONLY | O_DIRECTORY,
					  0);
	}
	if (fd < 0) {
		free(d);
		fuse_reply_err(req, -fd);
		return;
	}
	d->dp = fdopendir(fd);
	if (d->dp == NULL) {
		rc = errno;
		close(fd);
		free(d);
		fuse_reply_err(req, rc);
		return;
	}
	fi->fh = (uint64_t)(uintptr_t)d;
	fuse_reply_open(req, fi);
}

/* Leftovers gocryptfs itself creates and hides without comment. */
static int names_is_noise(const char *disk)
{
	return strncmp(disk, "gocryptfs.", 10) == 0;
}

/* 1 the first time a directory hides a name (logged once per inode). */
static int first_warning(struct inode *dir)
{
	int first;

	pthread_mutex_lock(&dir->meta);
	first = !dir->warned;
	dir->warned = 1;
	pthread_mutex_unlock(&dir->meta);
	return first;
}

/* Plaintext name of on-disk entry disk, or -1 when it is hidden. */
static int plain_name(struct dirh *d, const char *disk, char *out, size_t outsz)
{
	const struct volume *v = fs.vol;
	char enc[NAMES_BUF + 2];

	if (strcmp(disk, ".") == 0 || strcmp(disk, "..") == 0) {
		(void)snprintf(out, outsz, "%s", disk);
		return 0;
	}
	if (d->in == inode_root() && strcmp(disk, NAMES_CONF) == 0)
		return -1;
	if (v->flags & VOL_PLAINTEXTNAMES) {
		(void)snprintf(out, outsz, "%s", disk);
		return 0;
	}
	if ((v->flags & VOL_DIRIV) && strcmp(disk, NAMES_DIRIV) == 0)
		return -1;
	if ((v->flags & VOL_LONGNAMES) && names_is_long_namefile(disk))
		return -1;
	if ((v->flags & VOL_LONGNAMES) && names_is_long(disk)) {
		char nf[NAMES_BUF + 8];
		ssize_t n;

		(void)snprintf(nf, sizeof(nf), "%s.name", disk);
		n = sys_read_small(dirfd(d->dp), nf, enc, 344);
		if ((n == -EMFILE || n == -ENFILE) && inode_budget_wait())
			n = sys_read_small(dirfd(d->dp), nf, enc, 344);
		if (n < 0)
			return -1;
		disk = enc;
	}
	if (names_decrypt(v, d->iv, disk, out, outsz) != 0) {
		/* bad long names are not shown: lookups could not find them */
		if (disk != enc &&
		    dirnames_badname_show(fs.vol, fs.badname, d->iv, disk, out,
					  outsz) == 0)
			return 0;
		if (!names_is_noise(disk) && first_warning(d->in)) {
			char esc[LOG_ESCAPE_LEN(400)];

			log_error("hiding undecryptable name in dir inode %lu: "
				  "%s",
				  (unsigned long)d->in->ino,
				  log_escape_str(esc, sizeof(esc), disk));
		}
		return -1;
	}
	return 0;
}

static void do_readdir(fuse_req_t req, size_t size, off_t offset,
		       struct fuse_file_info *fi, int plus)
{
	struct dirh *d = dirh_of(fi);
	char *buf = calloc(1, size);
	char *p = buf;
	size_t rem = size;
	int err = 0;

	if (buf == NULL) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	if (offset != d->offset) {
		seekdir(d->dp, offset);
		d->entry = NULL;
		d->offset = offset;
	}
	for (;;) {
		char name[260];
		size_t used;
		off_t next;

		if (d->entry == NULL) {
			errno = 0;
			d->entry = readdir(d->dp);
			if (d->entry == NULL) {
				err = errno;
				break;
			}
		}
		next = d->entry->d_off;
		if (plain_name(d, d->entry->d_name, name, sizeof(name)) != 0) {
			d->entry = NULL;
			d->offset = next;
			continue;
		}
		if (plus) {
			struct fuse_entry_param e;
			int dot = strcmp(name, ".") == 0 ||
				  strcmp(name, "..") == 0;
			int lrc = 0;

			memset(&e, 0, sizeof(e));
			if (!dot)
				lrc = fs_do_lookup(d->in, d->entry->d_name, &e);
			if (lrc == -ENOENT) {
				d->entry = NULL;
				d->offset = next;
				continue;
			}
			if (dot || lrc != 0) {
				/* no attributes (e.g. out of descriptors): the
				 * kernel looks the entry up by itself */
				memset(&e, 0, sizeof(e));
				e.attr.st_ino = d->entry->d_ino;
				e.attr.st_mode = (mode_t)d->entry->d_type << 12;
			} else {
				inode_name_set(inode_from_ino(e.ino), d->in,
					       name);
			}
			used = fuse_add_direntry_plus(req, p, rem, name, &e,
						      next);
			if (used > rem) {
				if (e.ino != 0)
					inode_unref(inode_from_ino(e.ino), 1);
				break;
			}
		} else {
			struct stat st;

			memset(&st, 0, sizeof(st));
			st.st_ino = d->entry->d_ino;
			st.st_mode = (mode_t)d->entry->d_type << 12;
			used = fuse_add_direntry(req, p, rem, name, &st, next);
			if (used > rem)
				break;
		}
		p += used;
		rem -= used;
		d->entry = NULL;
		d->offset = next;
	}
	if (err != 0 && rem == size)
		fuse_reply_err(req, err);
	else
		fuse_reply_buf(req, buf, size - rem);
	free(buf);
}

static void fs_readdir(fuse_req_t req, fuse_ino_t ino, size_t size,
		       off_t offset, struct fuse_file_info *fi)
{
	(void)ino;
	do_readdir(req, size, offset, fi, 0);
}

static void fs_readdirplus(fuse_req_t req, fuse_ino_t ino, size_t size,
			   off_t offset, struct fuse_file_info *fi)
{
	(void)ino;
	do_readdir(req, size, offset, fi, 1);
}

static void fs_releasedir(fuse_req_t req, fuse_ino_t ino,
			  struct fuse_file_info *fi)
{
	struct dirh *d = dirh_of(fi);

	(void)ino;
	closedir(d->dp);
	free(d);
	fuse_reply_err(req, 0);
}

static void fs_fsyncdir(fuse_req_t req, fuse_ino_t ino, int datasync,
			struct fuse_file_info *fi)
{
	struct dirh *d = dirh_of(fi);
	int fd = dirfd(d->dp);
	int rc = datasync ? fdatasync(fd) : fsync(fd);

	(void)ino;
	fuse_reply_err(req, rc != 0 ? errno : 0);
}

void fs_ops_dir(struct fuse_lowlevel_ops *ops)
{
	ops->opendir = fs_opendir;
	ops->readdir = fs_readdir;
	ops->readdirplus = fs_readdirplus;
	ops->releasedir = fs_releasedir;
	ops->fsyncdir = fs_fsyncdir;
}
