/* SPDX-License-Identifier: MIT */
/*
 * Extended attributes: names EME-encrypted under "user.gocryptfs.", values
 * sealed as one block without file ID (no hole rule: an all-zero value is
 * damage, content_value_open); the two POSIX ACL names pass through; other
 * system.* names only for root and the daemon's user.
 * Spec: ../shared/FORMAT.md section 7. Not proved.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "fuse/fs.h"
#include "sys/sys.h"

#define XATTR_MAX 65536U

/*
 * The system.* namespace other than the two ACL names. The kernel leaves
 * every check of that namespace to the filesystem (no permission check,
 * even with default_permissions), and a plain filesystem refuses names it
 * has no handler for with EOPNOTSUPP. Here such a name is just another
 * encrypted attribute, so a caller other than root and the daemon's own
 * user (who can set the stored attributes in the cipher directory anyway)
 * gets EOPNOTSUPP for get, set and remove, and does not see those names
 * listed: on a root -allow_other mount another user could otherwise set,
 * read, replace and remove them on files that are not theirs. Root and
 * the owner keep gocryptfs's behaviour (the names are stored encrypted).
 */
static int xattr_system_refused(fuse_req_t req, const char *name)
{
	uid_t uid;

	if (strncmp(name, "system.", 7) != 0 || names_xattr_is_acl(name))
		return 0;
	uid = fuse_req_ctx(req)->uid;
	return uid != 0 && uid != geteuid();
}

static int xattr_path(fuse_ino_t ino, char *proc, size_t procsz)
{
	struct inode *in = inode_from_ino(ino);

	if (S_ISLNK(in->type))
		return -EOPNOTSUPP;
	sys_procpath(in->fd, proc, procsz);
	return 0;
}

/*
 * The stored name of an attribute that should already exist: ACL names as
 * they are, every other name encrypted. A name too long to encrypt can never
 * have been stored, so it is absent (-ENODATA), not -ERANGE.
 */
static int xattr_stored_name(const char *name, char *stored, size_t cap)
{
	int rc;

	if (names_xattr_is_acl(name)) {
		snprintf(stored, cap, "%s", name);
		return 0;
	}
	rc = names_xattr_name_encrypt(fs.vol, name, stored, cap);
	return rc == -ERANGE ? -ENODATA : rc;
}

/*
 * Most lookups find no attribute (ls -l asks for security.selinux and the
 * ACL of every file) or a small one: they run on the stack. Only a value
 * larger than XATTR_SMALL takes the two heap buffers (a 64 KiB
 * malloc/free pair per request made the allocator fault pages in again).
 */
#define XATTR_SMALL 512U

static void fs_getxattr(fuse_req_t req, fuse_ino_t ino, const char *name,
			size_t size)
{
	char proc[32];
	char stored[300];
	uint8_t small_c[XATTR_SMALL];
	uint8_t small_p[XATTR_SMALL];
	uint8_t *heap = NULL;
	uint8_t *cbuf = small_c;
	uint8_t *pbuf = small_p;
	ssize_t n;
	int len = 0;
	int rc = xattr_path(ino, proc, sizeof(proc));

	if (rc == -EOPNOTSUPP)
		rc = -ENODATA;
	if (rc == 0 && (strcmp(name, "security.capability") == 0 ||
			xattr_system_refused(req, name)))
		rc = -EOPNOTSUPP;
	if (rc == 0)
		rc = xattr_stored_name(name, stored, sizeof(stored));
	if (rc != 0)
		goto out;
	n = getxattr(proc, stored, cbuf, sizeof(small_c));
	if (n < 0 && errno == ERANGE) {
		heap = malloc(2 * (size_t)(XATTR_MAX + CONTENT_MAX_OVERHEAD));
		if (heap == NULL) {
			rc = -ENOMEM;
			goto out;
		}
		cbuf = heap;
		pbuf = heap + XATTR_MAX + CONTENT_MAX_OVERHEAD;
		n = getxattr(proc, stored, cbuf,
			     XATTR_MAX + CONTENT_MAX_OVERHEAD);
	}
	if (n < 0) {
		rc = -errno;
		goto out;
	}
	if (names_xattr_is_acl(name)) {
		memcpy(pbuf, cbuf, (size_t)n);
		len = (int)n;
	} else if (n > 0) {
		size_t plen = 0;

		if (content_value_open(fs.vol, (uint8_t *)pbuf, &plen,
				       (const uint8_t *)cbuf, (size_t)n) == 0)
			len = (int)plen;
		else
			len = -EIO;
		if (len < 0) {
			log_error("xattr value fails authentication: inode %lu",
				  (unsigned long)inode_from_ino(ino)->ino);
			rc = -EIO;
			goto out;
		}
	}
	if (size == 0)
		fuse_reply_xattr(req, (size_t)len);
	else if (size < (size_t)len)
		rc = -ERANGE;
	else
		fuse_reply_buf(req, (const char *)pbuf, (size_t)len);
out:
	if (rc != 0)
		fuse_reply_err(req, -rc);
	free(heap);
}

static void fs_setxattr(fuse_req_t req, fuse_ino_t ino, const char *name,
			const char *value, size_t size, int flags)
{
	char proc[32];
	char stored[300];
	uint8_t *cbuf = NULL;
	size_t clen = 0;
	int rc = xattr_path(ino, proc, sizeof(proc));

	if (rc == 0 && xattr_system_refused(req, name))
		rc = -EOPNOTSUPP;
	if (rc == 0 && names_xattr_is_acl(name)) {
		rc = setxattr(proc, name, value, size, flags) != 0 ? -errno : 0;
		fuse_reply_err(req, -rc);
		return;
	}
	if (rc == 0)
		rc = names_xattr_name_encrypt(fs.vol, name, stored,
					      sizeof(stored));
	if (rc == 0 && size > XATTR_MAX)
		rc = -E2BIG;
	if (rc == 0 && size > 0) {
		cbuf = malloc(size + CONTENT_MAX_OVERHEAD);
		if (cbuf == NULL)
			rc = -ENOMEM;
		else
			rc = content_block_seal(fs.vol, (uint8_t *)cbuf,
						(const uint8_t *)value, size, 0,
						NULL, NULL) == 0
				     ? 0
				     : -EIO;
		clen = size + content_overhead(fs.vol->cipher);
	}
	if (rc == 0 && setxattr(proc, stored, cbuf, clen, flags) != 0)
		rc = -errno;
	free(cbuf);
	fuse_reply_err(req, -rc);
}

static void fs_listxattr(fuse_req_t req, fuse_ino_t ino, size_t size)
{
	char proc[32];
	char *raw = NULL;
	char *out = NULL;
	size_t olen = 0;
	ssize_t n;
	int rc = xattr_path(ino, proc, sizeof(proc));

	if (rc == -EOPNOTSUPP) {
		rc = 0;
		goto reply;
	}
	n = listxattr(proc, NULL, 0);
	if (n < 0) {
		rc = -errno;
		goto reply;
	}
	raw = malloc((size_t)n + 1);
	out = malloc((size_t)n + 1);
	if (raw == NULL || out == NULL) {
		rc = -ENOMEM;
		goto reply;
	}
	n = listxattr(proc, raw, (size_t)n);
	if (n < 0) {
		rc = -errno;
		goto reply;
	}
	for (size_t i = 0; i < (size_t)n;) {
		const char *nm = raw + i;
		size_t l = strnlen(nm, (size_t)n - i);
		char plain[300];

		i += l + 1;
		if (names_xattr_is_acl(nm))
			snprintf(plain, sizeof(plain), "%s", nm);
		else if (names_xattr_name_decrypt(fs.vol, nm, plain,
						  sizeof(plain)) != 0 ||
			 xattr_system_refused(req, plain))
			continue;
		l = strlen(plain) + 1;
		if (olen + l > (size_t)n + 1)
			break;
		memcpy(out + olen, plain, l);
		olen += l;
	}
reply:
	if (rc != 0)
		fuse_reply_err(req, -rc);
	else if (size == 0)
		fuse_reply_xattr(req, olen);
	else if (size < olen)
		fuse_reply_err(req, ERANGE);
	else
		fuse_reply_buf(req, out, olen);
	free(raw);
	free(out);
}

static void fs_removexattr(fuse_req_t req, fuse_ino_t ino, const char *name)
{
	char proc[32];
	char stored[300];
	int rc = xattr_path(ino, proc, sizeof(proc));

	if (rc == 0 && xattr_system_refused(req, name))
		rc = -EOPNOTSUPP;
	if (rc == 0)
		rc = xattr_stored_name(name, stored, sizeof(stored));
	if (rc == 0 && removexattr(proc, stored) != 0)
		rc = -errno;
	fuse_reply_err(req, -rc);
}

void fs_ops_xattr(struct fuse_lowlevel_ops *ops)
{
	ops->getxattr = fs_getxattr;
	ops->setxattr = fs_setxattr;
	ops->listxattr = fs_listxattr;
	ops->removexattr = fs_removexattr;
}
