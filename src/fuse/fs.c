/* SPDX-License-Identifier: MIT */
/*
 * Shared FUSE helpers: logging, directory IVs, plaintext-to-disk names
 * with long names, lookup and stat conversion. See fs.h.
 * Spec: ../shared/FORMAT.md 4.8, 5.4, 5.7, 5.8, 6. Not proved.
 */
#include "fuse/fs.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/fsuid.h>
#include <sys/syscall.h>
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
	if ((rc == -EMFILE || rc == -ENFILE) && inode_budget_wait())
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
	if (fs.force_owner) {
		st->st_uid = fs.owner_uid;
		st->st_gid = fs.owner_gid;
	}
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

/* A regular file of 1..17 backing bytes (torn header) reads as empty
 * (FORMAT.md 4.2); say so once per inode, as gocryptfs logs it. */
static void log_torn_header(struct inode *in, off_t csize)
{
	int first;

	if (csize <= 0 || csize >= (off_t)FC_HEADER_LEN)
		return;
	pthread_mutex_lock(&in->meta);
	first = !in->warned;
	in->warned = 1;
	pthread_mutex_unlock(&in->meta);
	if (first)
		fs_log("truncated file header (%lld bytes) in inode %lu: "
		       "reads as empty",
		       (long long)csize, (unsigned long)in->ino);
}

#define BADNAME_SUFFIX " GOCRYPTFS_BAD_NAME"
/* base64 of one AES block: no shorter prefix can decrypt */
#define BADNAME_MIN_PREFIX 22U

int fs_badname_show(const uint8_t iv[16], const char *disk, char *out,
		    size_t outsz)
{
	char prefix[FC_NAME_MAX_ENC];
	char plain[260];
	size_t len = strlen(disk);
	int n = -1;

	/* never ".", "..", or gocryptfs' own files (config, diriv, long
	 * names): a lookup of the shown name must not reach them */
	if (fs.badname == NULL || (fs.vol->flags & VOL_PLAINTEXTNAMES) ||
	    strcmp(disk, ".") == 0 || strcmp(disk, "..") == 0 ||
	    strncmp(disk, "gocryptfs.", 10) == 0 ||
	    fnmatch(fs.badname, disk, 0) != 0 || len >= sizeof(prefix))
		return -1;
	/* the longest prefix that decrypts, then the rest as it is */
	for (size_t cut = len - 1; cut >= BADNAME_MIN_PREFIX && cut < len;
	     cut--) {
		memcpy(prefix, disk, cut);
		prefix[cut] = '\0';
		if (fc_name_decrypt(fs.vol, iv, prefix, plain, sizeof(plain)) ==
		    0) {
			n = snprintf(out, outsz, "%s%s%s", plain, disk + cut,
				     BADNAME_SUFFIX);
			break;
		}
	}
	if (n < 0)
		n = snprintf(out, outsz, "%s%s", disk, BADNAME_SUFFIX);
	return n > 0 && (size_t)n < outsz && n <= 255 ? 0 : -1;
}

/* 1 if on-disk name cand exists in dirfd and is listed as name. */
static int badname_is(int dirfd, const uint8_t iv[16], const char *cand,
		      const char *name)
{
	char shown[300];
	char plain[260];
	struct stat st;

	if (fs_badname_show(iv, cand, shown, sizeof(shown)) != 0 ||
	    strcmp(shown, name) != 0)
		return 0;
	/* a good name is never shown as a bad one */
	return fc_name_decrypt(fs.vol, iv, cand, plain, sizeof(plain)) != 0 &&
	       fstatat(dirfd, cand, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

int fs_badname_resolve(struct inode *dir, const char *name, char *disk,
		       size_t disksz)
{
	const size_t sl = strlen(BADNAME_SUFFIX);
	char base[256];
	char cand[FC_NAME_MAX_ENC + 256];
	uint8_t iv[16];
	size_t len = strlen(name);
	int found = 0;

	if (fs.badname == NULL || (fs.vol->flags & VOL_PLAINTEXTNAMES) ||
	    len <= sl || len - sl >= sizeof(base) ||
	    strcmp(name + len - sl, BADNAME_SUFFIX) != 0 ||
	    fs_dir_iv(dir, iv) != 0)
		return -ENOENT;
	memcpy(base, name, len - sl);
	base[len - sl] = '\0';
	/* no prefix decrypted: the raw on-disk name */
	if (badname_is(dir->fd, iv, base, name)) {
		(void)snprintf(disk, disksz, "%s", base);
		found = 1;
	}
	for (size_t cut = len - sl; cut > 0; cut--) {
		char head[256];
		char enc[FC_NAME_MAX_ENC];

		memcpy(head, base, cut);
		head[cut] = '\0';
		if (fc_name_encrypt(fs.vol, iv, head, enc, sizeof(enc)) != 0 ||
		    fc_name_is_long(fs.vol, enc))
			continue;
		if (snprintf(cand, sizeof(cand), "%s%s", enc, base + cut) >=
		    (int)disksz)
			continue;
		if (!badname_is(dir->fd, iv, cand, name))
			continue;
		if (found++ > 0)
			return -ENOENT; /* ambiguous */
		(void)snprintf(disk, disksz, "%s", cand);
	}
	return found == 1 ? 0 : -ENOENT;
}

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
			fs_log("cannot restore the mode of inode %lu: %s",
			       (unsigned long)in->ino, strerror(errno));
	}
	if (wo >= 0)
		close(wo);
	pthread_mutex_unlock(&wo_lock);
	return fd;
}

int fs_do_lookup(struct inode *parent, const char *disk,
		 struct fuse_entry_param *e)
{
	off_t csize;
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
	csize = S_ISREG(st.st_mode) ? st.st_size : 0;
	(void)fs_fix_stat(fd, &st);
	in = inode_get(fd, &st);
	if (in == NULL)
		return -ENOMEM;
	log_torn_header(in, csize);
	e->ino = inode_to_ino(in);
	e->attr = st;
	e->attr_timeout = fs.timeout;
	e->entry_timeout = fs.timeout;
	return 0;
}

int fs_caller_begin(fuse_req_t req, struct fs_caller *c)
{
	const struct fuse_ctx *ctx;
	gid_t groups[FS_CALLER_GROUPS];
	int n;

	c->active = 0;
	if (!fs.allow_other || geteuid() != 0)
		return 0;
	ctx = fuse_req_ctx(req);
	if (ctx->uid == 0 && ctx->gid == 0)
		return 0;
	n = fuse_req_getgroups(req, FS_CALLER_GROUPS, groups);
	if (n < 0)
		n = 0;
	if (n > FS_CALLER_GROUPS)
		n = FS_CALLER_GROUPS;
	c->ngroups = getgroups(FS_CALLER_GROUPS, c->groups);
	if (c->ngroups < 0)
		return -errno;
	/* the raw syscalls change this thread only (glibc's setgroups()
	 * would change every thread of the daemon) */
	if (syscall(SYS_setgroups, (size_t)n, groups) != 0)
		return -errno;
	(void)setfsgid(ctx->gid);
	(void)setfsuid(ctx->uid);
	if ((uid_t)setfsuid((uid_t)-1) != ctx->uid ||
	    (gid_t)setfsgid((gid_t)-1) != ctx->gid) {
		c->active = 1;
		fs_caller_end(c);
		return -EPERM;
	}
	c->active = 1;
	return 0;
}

void fs_caller_end(struct fs_caller *c)
{
	if (!c->active)
		return;
	(void)setfsuid(0);
	(void)setfsgid(0);
	if (syscall(SYS_setgroups, (size_t)c->ngroups, c->groups) != 0 ||
	    setfsuid((uid_t)-1) != 0 || setfsgid((gid_t)-1) != 0) {
		/* never serve further requests with a caller's identity */
		fs_log("cannot restore the daemon's identity: %s",
		       strerror(errno));
		abort();
	}
	c->active = 0;
}
