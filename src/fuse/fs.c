/* SPDX-License-Identifier: MIT */
/*
 * Shared FUSE helpers: logging, directory IVs, plaintext-to-disk names
 * with long names, lookup and stat conversion. See fs.h.
 * Spec: ../shared/FORMAT.md 4.8, 5.4, 5.7, 5.8, 6. Not proved.
 */
#include "fuse/fs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "sys/sys.h"

struct fs fs;
int fs_use_syslog;

void fs_log(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (fs_use_syslog) {
		vsyslog(LOG_WARNING, fmt, ap);
	} else {
		fputs("vcryptfs: ", stderr);
		vfprintf(stderr, fmt, ap);
		fputc('\n', stderr);
	}
	va_end(ap);
}

int fs_dir_iv(struct inode *dir, uint8_t iv[16])
{
	uint8_t tmp[16];
	int rc;

	if ((fs.vol->flags & VOL_PLAINTEXTNAMES) ||
	    !(fs.vol->flags & VOL_DIRIV)) {
		memset(iv, 0, 16);
		return 0;
	}
	pthread_mutex_lock(&dir->meta);
	if (dir->has_iv) {
		memcpy(iv, dir->iv, 16);
		pthread_mutex_unlock(&dir->meta);
		return 0;
	}
	pthread_mutex_unlock(&dir->meta);
	rc = sys_read_diriv(dir->fd, tmp);
	if (rc != 0) {
		fs_log("cannot read gocryptfs.diriv of dir inode %lu: %s",
		       (unsigned long)dir->ino, strerror(-rc));
		return rc == -ENOENT ? -EIO : rc;
	}
	pthread_mutex_lock(&dir->meta);
	memcpy(dir->iv, tmp, 16);
	dir->has_iv = 1;
	pthread_mutex_unlock(&dir->meta);
	memcpy(iv, tmp, 16);
	return 0;
}

int fs_cname(struct inode *dir, const char *name, struct cname *out)
{
	uint8_t iv[16];
	int rc;

	if (strlen(name) > 255)
		return -ENAMETOOLONG;
	if ((fs.vol->flags & VOL_PLAINTEXTNAMES) && dir == inode_root() &&
	    strcmp(name, FC_CONF_NAME) == 0)
		return -EPERM;
	rc = fs_dir_iv(dir, iv);
	if (rc != 0)
		return rc;
	rc = fc_name_encrypt(fs.vol, iv, name, out->enc, sizeof(out->enc));
	if (rc != 0)
		return rc;
	out->is_long = fc_name_is_long(fs.vol, out->enc);
	if (out->is_long)
		fc_longname_hash(fs.vol, out->enc, out->disk,
				 sizeof(out->disk));
	else
		memcpy(out->disk, out->enc, sizeof(out->disk));
	return 0;
}

static void name_file(const struct cname *c, char *buf, size_t bufsz)
{
	(void)snprintf(buf, bufsz, "%s.name", c->disk);
}

int fs_cname_prepare(int dirfd, const struct cname *c)
{
	char nf[FC_NAME_MAX_ENC + 8];
	int rc;

	if (!c->is_long)
		return 0;
	name_file(c, nf, sizeof(nf));
	rc = sys_write_new(dirfd, nf, c->enc, strlen(c->enc), 0444);
	return rc == -EEXIST ? 0 : rc;
}

void fs_cname_abort(int dirfd, const struct cname *c)
{
	fs_cname_done(dirfd, c);
}

void fs_cname_done(int dirfd, const struct cname *c)
{
	char nf[FC_NAME_MAX_ENC + 8];

	if (!c->is_long)
		return;
	name_file(c, nf, sizeof(nf));
	(void)unlinkat(dirfd, nf, 0);
}

int fs_fix_stat(int fd, struct stat *st)
{
	if (S_ISREG(st->st_mode)) {
		st->st_size =
			(off_t)fc_plain_size(fs.vol, (uint64_t)st->st_size);
	} else if (S_ISLNK(st->st_mode)) {
		char enc[4200];
		char plain[4200];
		ssize_t n = readlinkat(fd, "", enc, sizeof(enc) - 1);
		int len;

		if (n < 0)
			return 0;
		enc[n] = '\0';
		len = fc_symlink_decrypt(fs.vol, enc, plain, sizeof(plain));
		if (len >= 0)
			st->st_size = len;
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

void fs_chown_new(fuse_req_t req, int dirfd, const char *disk)
{
	const struct fuse_ctx *ctx;

	if (!fs.allow_other || getuid() != 0)
		return;
	ctx = fuse_req_ctx(req);
	if (fchownat(dirfd, disk, ctx->uid, ctx->gid, AT_SYMLINK_NOFOLLOW) != 0)
		fs_log("chown of a new entry failed: %s", strerror(errno));
}
