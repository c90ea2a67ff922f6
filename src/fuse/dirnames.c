/* SPDX-License-Identifier: MIT */
/*
 * Names in a backing directory: its IV (cached in the inode), plaintext to
 * on-disk names with long names and their .name files, and -badname. See
 * dirnames.h.
 * Spec: ../shared/FORMAT.md 5.4 (diriv), 5.7 (long names), 5.10 (-badname).
 * Depends on: format/names.h, fuse/inode.h, sys/sys.h, log.h. Takes the
 * volume and the -badname glob as arguments (no daemon state). Not proved.
 */
#include "fuse/dirnames.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/log.h"
#include "sys/sys.h"

int dirnames_iv(const struct volume *v, struct inode *dir,
		uint8_t iv[NAMES_DIRIV_LEN])
{
	uint8_t tmp[16];
	int rc;

	if ((v->flags & VOL_PLAINTEXTNAMES) || !(v->flags & VOL_DIRIV)) {
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
		log_error("cannot read gocryptfs.diriv of dir inode %lu: %s",
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

int dirnames_cname(const struct volume *v, struct inode *dir, const char *name,
		   struct cname *out)
{
	uint8_t iv[16];
	int rc;

	if (strlen(name) > 255)
		return -ENAMETOOLONG;
	if ((v->flags & VOL_PLAINTEXTNAMES) && dir == inode_root() &&
	    strcmp(name, NAMES_CONF) == 0)
		return -EPERM;
	rc = dirnames_iv(v, dir, iv);
	if (rc != 0)
		return rc;
	rc = names_encrypt(v, iv, name, out->enc, sizeof(out->enc));
	if (rc != 0)
		return rc == -ERANGE ? -ENAMETOOLONG : rc;
	out->is_long = names_needs_long(v, strlen(out->enc));
	if (out->is_long) {
		if (names_long_hash(v, out->enc, out->disk,
				    sizeof(out->disk)) != 0)
			out->disk[0] = '\0';
	} else
		memcpy(out->disk, out->enc, sizeof(out->disk));
	return 0;
}

static void name_file(const struct cname *c, char *buf, size_t bufsz)
{
	(void)snprintf(buf, bufsz, "%s.name", c->disk);
}

int dirnames_prepare(int dirfd, const struct cname *c)
{
	char nf[NAMES_BUF + 8];
	int rc;

	if (!c->is_long)
		return 0;
	name_file(c, nf, sizeof(nf));
	rc = sys_write_new(dirfd, nf, c->enc, strlen(c->enc), 0444);
	return rc == -EEXIST ? 0 : rc;
}

void dirnames_abort(int dirfd, const struct cname *c)
{
	dirnames_done(dirfd, c);
}

void dirnames_done(int dirfd, const struct cname *c)
{
	char nf[NAMES_BUF + 8];

	if (!c->is_long)
		return;
	name_file(c, nf, sizeof(nf));
	(void)unlinkat(dirfd, nf, 0);
}

#define BADNAME_SUFFIX " GOCRYPTFS_BAD_NAME"
/* base64 of one AES block: no shorter prefix can decrypt */
#define BADNAME_MIN_PREFIX 22U

int dirnames_badname_show(const struct volume *v, const char *glob,
			  const uint8_t iv[NAMES_DIRIV_LEN], const char *disk,
			  char *out, size_t outsz)
{
	char prefix[NAMES_BUF];
	char plain[260];
	size_t len = strlen(disk);
	int n = -1;

	/* never ".", "..", or gocryptfs' own files (config, diriv, long
	 * names): a lookup of the shown name must not reach them */
	if (glob == NULL || (v->flags & VOL_PLAINTEXTNAMES) ||
	    strcmp(disk, ".") == 0 || strcmp(disk, "..") == 0 ||
	    strncmp(disk, "gocryptfs.", 10) == 0 ||
	    fnmatch(glob, disk, 0) != 0 || len >= sizeof(prefix))
		return -1;
	/* the longest prefix that decrypts, then the rest as it is */
	for (size_t cut = len - 1; cut >= BADNAME_MIN_PREFIX && cut < len;
	     cut--) {
		memcpy(prefix, disk, cut);
		prefix[cut] = '\0';
		if (names_decrypt(v, iv, prefix, plain, sizeof(plain)) == 0) {
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
static int badname_is(const struct volume *v, const char *glob, int dirfd,
		      const uint8_t iv[NAMES_DIRIV_LEN], const char *cand,
		      const char *name)
{
	char shown[300];
	char plain[260];
	struct stat st;

	if (dirnames_badname_show(v, glob, iv, cand, shown, sizeof(shown)) !=
		    0 ||
	    strcmp(shown, name) != 0)
		return 0;
	/* a good name is never shown as a bad one */
	return names_decrypt(v, iv, cand, plain, sizeof(plain)) != 0 &&
	       fstatat(dirfd, cand, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

int dirnames_badname_resolve(const struct volume *v, const char *glob,
			     struct inode *dir, const char *name, char *disk,
			     size_t disksz)
{
	const size_t sl = strlen(BADNAME_SUFFIX);
	char base[256];
	char cand[NAMES_BUF + 256];
	uint8_t iv[16];
	size_t len = strlen(name);
	int found = 0;

	if (glob == NULL || (v->flags & VOL_PLAINTEXTNAMES) || len <= sl ||
	    len - sl >= sizeof(base) ||
	    strcmp(name + len - sl, BADNAME_SUFFIX) != 0 ||
	    dirnames_iv(v, dir, iv) != 0)
		return -ENOENT;
	memcpy(base, name, len - sl);
	base[len - sl] = '\0';
	/* no prefix decrypted: the raw on-disk name */
	if (badname_is(v, glob, dir->fd, iv, base, name)) {
		(void)snprintf(disk, disksz, "%s", base);
		found = 1;
	}
	for (size_t cut = len - sl; cut > 0; cut--) {
		char head[256];
		char enc[NAMES_BUF];

		memcpy(head, base, cut);
		head[cut] = '\0';
		if (names_encrypt(v, iv, head, enc, sizeof(enc)) != 0 ||
		    names_needs_long(v, strlen(enc)))
			continue;
		if (snprintf(cand, sizeof(cand), "%s%s", enc, base + cut) >=
		    (int)disksz)
			continue;
		if (!badname_is(v, glob, dir->fd, iv, cand, name))
			continue;
		if (found++ > 0)
			return -ENOENT; /* ambiguous */
		(void)snprintf(disk, disksz, "%s", cand);
	}
	return found == 1 ? 0 : -ENOENT;
}
