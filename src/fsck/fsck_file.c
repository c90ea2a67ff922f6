/* SPDX-License-Identifier: MIT */
/*
 * vcryptfs -fsck, the per-object checks: a regular file's header, every
 * content block and its plaintext size (holes included), a symlink's
 * encrypted target, and every extended attribute's name and value. Called
 * by the walk in fsck.c; reads only, through descriptors it is given.
 * Spec: ../shared/FORMAT.md 4.2-4.8, 6, 7.
 * Reports through report.h, never calls back into fsck.c. Every name in
 * a line is escaped (base/log.h's log_escape(); disp arrives escaped).
 * Layer: fsck/; depends on format/, sys/, base/ (secmem_wipe).
 * Not proved.
 */
#include "fsck/fsck_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "base/log.h"
#include "base/secmem.h"
#include "format/content.h"
#include "format/header.h"
#include "format/names.h"
#include "sys/sys.h"

/* ---------------------------------------------------------------------
 * Extended attributes (FORMAT.md 7)
 */

/* Check every stored xattr of the object open as fd. Returns 1 when a
 * problem was reported. */
int fsck_check_xattrs(struct ck *ck, int fd, const char *disp)
{
	char *list = NULL;
	ssize_t n;
	int bad = 0;

	n = flistxattr(fd, NULL, 0);
	if (n < 0 && (errno == ENOTSUP || errno == ENOSYS))
		return 0;
	if (n > 0) {
		list = malloc((size_t)n + 1);
		if (list == NULL) {
			report_problem(
				&ck->rep,
				"fsck: error listing xattrs of \"%s\": %s",
				disp, strerror(ENOMEM));
			return 1;
		}
		n = flistxattr(fd, list, (size_t)n);
	}
	if (n < 0) {
		report_problem(&ck->rep,
			       "fsck: error listing xattrs of \"%s\": %s", disp,
			       strerror(errno));
		free(list);
		return 1;
	}
	for (ssize_t at = 0; at < n;) {
		const char *s = list + at;
		size_t sl = strnlen(s, (size_t)(n - at));
		char pn[NAMES_XATTR_NAME_MAX + 1];
		char en[LOG_ESCAPE_LEN(NAMES_XATTR_NAME_MAX)];
		size_t plen = 0;
		ssize_t vl;

		at += (ssize_t)sl + 1;
		/* ACL names pass through; other namespaces' attributes are
		 * not ours (the mount hides them), e.g. security.selinux */
		if (names_xattr_is_acl(s) ||
		    strncmp(s, NAMES_XATTR_PREFIX,
			    sizeof(NAMES_XATTR_PREFIX) - 1) != 0)
			continue;
		if (names_xattr_name_decrypt(ck->v, s, pn, sizeof(pn)) != 0) {
			report_problem(
				&ck->rep,
				"fsck: corrupt xattr name on \"%s\": \"%s\"",
				disp, log_escape_str(en, sizeof(en), s));
			bad = 1;
			continue;
		}
		vl = fgetxattr(fd, s, ck->xval, XATTR_VALUE_CAP);
		if (vl < 0) {
			report_problem(&ck->rep,
				       "fsck: error reading xattr \"%s\" from "
				       "\"%s\": %s",
				       log_escape_str(en, sizeof(en), pn), disp,
				       strerror(errno));
			bad = 1;
			continue;
		}
		if (names_xattr_value_open(ck->v, ck->xplain,
					   NAMES_XATTR_VALUE_MAX, &plen,
					   ck->xval, (size_t)vl) != 0) {
			report_problem(&ck->rep,
				       "fsck: error reading xattr \"%s\" from "
				       "\"%s\": value fails authentication",
				       log_escape_str(en, sizeof(en), pn),
				       disp);
			bad = 1;
		}
		secmem_wipe(ck->xplain, NAMES_XATTR_VALUE_MAX);
	}
	free(list);
	return bad;
}

/* ---------------------------------------------------------------------
 * File contents (FORMAT.md 4.2-4.8)
 */

static int all_zero(const uint8_t *p, size_t n)
{
	uint8_t acc = 0;

	for (size_t i = 0; i < n; i++)
		acc |= p[i];
	return acc == 0;
}

/* First block at or after blk that may hold data: whole blocks inside a
 * hole of the backing file read as zeros, i.e. as holes (4.7), so they
 * need no reading. A hole that runs to the end stops at the last block,
 * which is read (a short all-zero block is not a hole). */
static uint64_t skip_hole(int fd, uint64_t blk, off_t csize, off_t cbs)
{
	off_t off = (off_t)HEADER_LEN + (off_t)blk * cbs;
	off_t d = lseek(fd, off, SEEK_DATA);
	uint64_t to;

	if (d < 0 && errno == ENXIO)
		d = csize;
	if (d <= off)
		return blk;
	to = (uint64_t)((d - (off_t)HEADER_LEN) / cbs);
	return to > blk ? to : blk;
}

/* Check the contents of a regular file open as fd with csize bytes.
 * Returns 1 when a problem was reported. */
static int check_content(struct ck *ck, int fd, off_t csize, const char *disp,
			 unsigned long long inum)
{
	const struct volume *v = ck->v;
	const off_t cbs = (off_t)content_cipher_bs(v->cipher);
	const size_t ov = content_overhead(v->cipher);
	const size_t nl = content_nonce_len(v->cipher);
	uint8_t hdr[HEADER_LEN];
	uint8_t fileid[HEADER_ID_LEN];
	uint64_t blk = 0, first_bad = 0, nbad = 0, plain = 0;
	const char *why = NULL;
	ssize_t n;

	if (csize == 0)
		return 0;
	if (csize < (off_t)HEADER_LEN) {
		report_problem(
			&ck->rep,
			"fsck: error reading file \"%s\" (inum %llu): %lld "
			"bytes, truncated inside the 18-byte header",
			disp, inum, (long long)csize);
		return 1;
	}
	n = sys_pread_full(fd, hdr, sizeof(hdr), 0);
	if (n != (ssize_t)sizeof(hdr)) {
		report_problem(
			&ck->rep,
			"fsck: error reading file \"%s\" (inum %llu): %s", disp,
			inum,
			n < 0 ? strerror((int)-n) : "file shrank while read");
		return 1;
	}
	if (header_parse(fileid, hdr) != 0) {
		report_problem(
			&ck->rep,
			"fsck: error reading file \"%s\" (inum %llu): bad file "
			"header (version %u)",
			disp, inum, (unsigned)(hdr[0] << 8 | hdr[1]));
		return 1;
	}
	for (;;) {
		off_t off;
		uint64_t next;
		size_t want;

		if (*ck->stop)
			return 0;
		next = skip_hole(fd, blk, csize, cbs);
		plain += (next - blk) * CONTENT_PLAIN_BS; /* holes */
		blk = next;
		off = (off_t)HEADER_LEN + (off_t)blk * cbs;
		if (off >= csize)
			break;
		want = (size_t)(csize - off < PIECE_BLOCKS * cbs
					? csize - off
					: PIECE_BLOCKS * cbs);
		n = sys_pread_full(fd, ck->cbuf, want, off);
		if (n != (ssize_t)want) {
			report_problem(
				&ck->rep,
				"fsck: error reading file \"%s\" (inum %llu): "
				"%s",
				disp, inum,
				n < 0 ? strerror((int)-n)
				      : "file shrank while read");
			return 1;
		}
		for (size_t at = 0; at < want; at += (size_t)cbs, blk++) {
			size_t clen = want - at < (size_t)cbs ? want - at
							      : (size_t)cbs;
			const uint8_t *b = ck->cbuf + at;
			size_t olen = 0;
			const char *err = NULL;

			if (clen <= ov)
				err = "truncated block";
			else if (all_zero(b, nl) &&
				 (clen != (size_t)cbs || !all_zero(b, clen)))
				err = "all-zero nonce";
			else if (content_block_open(v, ck->pbuf, &olen, b, clen,
						    blk, fileid) != 0)
				err = "authentication failed";
			if (err != NULL) {
				if (nbad++ == 0) {
					first_bad = blk;
					why = err;
				}
				continue;
			}
			plain += olen;
		}
		report_progress_tick(&ck->rep);
	}
	secmem_wipe(ck->pbuf, CONTENT_PLAIN_BS);
	if (nbad > 0) {
		if (nbad == 1)
			report_problem(
				&ck->rep,
				"fsck: error reading file \"%s\" (inum %llu): "
				"block %llu: %s",
				disp, inum, (unsigned long long)first_bad, why);
		else
			report_problem(
				&ck->rep,
				"fsck: error reading file \"%s\" (inum %llu): "
				"block %llu: %s (%llu bad blocks)",
				disp, inum, (unsigned long long)first_bad, why,
				(unsigned long long)nbad);
		return 1;
	}
	if (!*ck->stop &&
	    plain != content_cipher_to_plain_size(v->cipher, (uint64_t)csize)) {
		report_problem(
			&ck->rep,
			"fsck: error reading file \"%s\" (inum %llu): %llu "
			"plaintext bytes, size says %llu",
			disp, inum, (unsigned long long)plain,
			(unsigned long long)content_cipher_to_plain_size(
				v->cipher, (uint64_t)csize));
		return 1;
	}
	return 0;
}

/* Open a regular file for reading without following, blocking or
 * touching atime where allowed. fd or -errno. */
static int open_file(int dfd, const char *cname)
{
	int fl = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY;
	int fd = sys_openat(dfd, cname, fl | O_NOATIME, 0);

	if (fd == -EPERM)
		fd = sys_openat(dfd, cname, fl, 0);
	return fd;
}

/* Returns 1 when a problem was reported; *skipped set for EACCES. */
int fsck_check_file(struct ck *ck, int dfd, const char *cname,
		    const struct stat *st, const char *disp, int *skipped)
{
	struct stat fst;
	int fd = open_file(dfd, cname);
	int bad;

	if (fd < 0) {
		if (fd == -EACCES) {
			report_problem(&ck->rep, "fsck: skipping \"%s\": %s",
				       disp, strerror(EACCES));
			*skipped = 1;
			return 0;
		}
		report_problem(
			&ck->rep,
			"fsck: error opening file \"%s\" (inum %llu): %s", disp,
			(unsigned long long)st->st_ino, strerror(-fd));
		return 1;
	}
	if (fstat(fd, &fst) != 0 || !S_ISREG(fst.st_mode) ||
	    fst.st_ino != st->st_ino || fst.st_dev != st->st_dev) {
		report_problem(&ck->rep,
			       "fsck: error opening file \"%s\" (inum %llu): "
			       "changed while checked",
			       disp, (unsigned long long)st->st_ino);
		close(fd);
		return 1;
	}
	bad = fsck_check_xattrs(ck, fd, disp);
	bad |= check_content(ck, fd, fst.st_size, disp,
			     (unsigned long long)fst.st_ino);
	close(fd);
	return bad;
}

/* Symlink target (FORMAT.md 6). Returns 1 when a problem was reported. */
int fsck_check_symlink(struct ck *ck, int dfd, const char *cname,
		       const char *disp)
{
	char enc[NAMES_SYMLINK_MAX + 2];
	uint8_t plain[NAMES_SYMLINK_MAX + 1];
	size_t plen = 0;
	ssize_t n;
	int rc;

	n = readlinkat(dfd, cname, enc, sizeof(enc) - 1);
	if (n < 0) {
		report_problem(&ck->rep,
			       "fsck: error reading symlink \"%s\": %s", disp,
			       strerror(errno));
		return 1;
	}
	enc[n] = '\0';
	if (ck->v->flags & VOL_PLAINTEXTNAMES)
		return 0;
	rc = names_symlink_decrypt(ck->v, plain, sizeof(plain), &plen, enc);
	secmem_wipe(plain, sizeof(plain));
	if (rc != 0) {
		report_problem(
			&ck->rep,
			"fsck: error reading symlink \"%s\": target does "
			"not decrypt",
			disp);
		return 1;
	}
	return 0;
}
