/* SPDX-License-Identifier: MIT */
/*
 * vcryptfs -fsck: see fsck.h. The walk reads the cipher directory itself
 * (no mount): every directory is opened with openat(O_DIRECTORY |
 * O_NOFOLLOW) relative to its parent, never through a path string, and
 * nothing is ever written. Output wording follows gocryptfs -fsck.
 * Spec: ../shared/FORMAT.md 13.4, 4.2-4.8 (headers, blocks, holes, sizes),
 * 5.4-5.8 (diriv, names, long names), 6 (symlinks), 7 (xattrs), 11.
 * Depends on: format/, crypto/ct.h, sys/sys.h, log.h, exitcodes.h.
 * Not proved.
 */
#include "fsck.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "crypto/ct.h"
#include "exitcodes.h"
#include "format/content.h"
#include "format/header.h"
#include "format/names.h"
#include "log.h"
#include "sys/sys.h"

#define PIECE_BLOCKS 32		       /* blocks per read: up to 132 KiB */
#define PROGRESS_DELAY_NS 500000000LL  /* no progress line for quick runs */
#define PROGRESS_PERIOD_NS 200000000LL /* at most 5 updates a second */
#define XATTR_LIST_MAX_LEN 65536
#define XATTR_VALUE_CAP (NAMES_XATTR_VALUE_MAX + CONTENT_MAX_OVERHEAD)

static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

/* Hard-linked inodes already checked: open addressing on (dev, ino). */
struct seen_slot {
	dev_t dev;
	ino_t ino;
	int used;
};

struct seen {
	struct seen_slot *slot;
	size_t cap; /* power of two or 0 */
	size_t n;
};

/* State of one run. */
struct ck {
	const struct volume *v;
	FILE *out;
	struct fsck_result *res;
	int progress;
	int progress_shown;
	long long start_ns;
	long long last_ns;
	struct seen seen;
	uint8_t *cbuf;	 /* PIECE_BLOCKS ciphertext blocks */
	uint8_t *pbuf;	 /* one plaintext block */
	uint8_t *xval;	 /* a stored xattr value */
	uint8_t *xplain; /* its plaintext */
};

/* One directory entry, resolved. */
struct ent {
	char *cname; /* on-disk name */
	char *pname; /* plaintext name, NULL when it does not decrypt */
	int bad;     /* a name-level problem was reported */
};

static long long now_ns(void)
{
	struct timespec ts;

	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void progress_clear(struct ck *ck)
{
	if (ck->progress_shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		ck->progress_shown = 0;
	}
}

/* Called once per object and once per piece read: redraws the single
 * progress line when the run is slow enough for it to matter. */
static void progress_tick(struct ck *ck)
{
	long long t;

	if (!ck->progress)
		return;
	t = now_ns();
	if (t - ck->start_ns < PROGRESS_DELAY_NS ||
	    t - ck->last_ns < PROGRESS_PERIOD_NS)
		return;
	ck->last_ns = t;
	fprintf(stderr, "\rfsck: %lu checked, %lu corrupt, %lu skipped\033[K",
		ck->res->checked, ck->res->corrupt, ck->res->skipped);
	fflush(stderr);
	ck->progress_shown = 1;
}

/* One problem line on out. */
static void report(struct ck *ck, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void report(struct ck *ck, const char *fmt, ...)
{
	va_list ap;

	progress_clear(ck);
	va_start(ap, fmt);
	vfprintf(ck->out, fmt, ap);
	va_end(ap);
	fputc('\n', ck->out);
	fflush(ck->out);
}

/* "a/b" from a and b; "" + b is b. NULL on ENOMEM. */
static char *join(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *p = malloc(la + lb + 2);

	if (p == NULL)
		return NULL;
	(void)snprintf(p, la + lb + 2, "%s%s%s", a, la == 0 ? "" : "/", b);
	return p;
}

static size_t seen_hash(dev_t dev, ino_t ino)
{
	uint64_t h = (uint64_t)ino * 0x9e3779b97f4a7c15ULL ^ (uint64_t)dev;

	return (size_t)(h ^ (h >> 29));
}

/* 1 when (dev, ino) was seen before, else records it and returns 0;
 * -1 on ENOMEM (then the inode is simply checked again). */
static int seen_check(struct seen *s, dev_t dev, ino_t ino)
{
	size_t i;

	if (2 * (s->n + 1) > s->cap) {
		size_t ncap = s->cap == 0 ? 64 : 2 * s->cap;
		struct seen_slot *ns = calloc(ncap, sizeof(*ns));

		if (ns == NULL)
			return -1;
		for (size_t k = 0; k < s->cap; k++) {
			if (!s->slot[k].used)
				continue;
			i = seen_hash(s->slot[k].dev, s->slot[k].ino) &
			    (ncap - 1);
			while (ns[i].used)
				i = (i + 1) & (ncap - 1);
			ns[i] = s->slot[k];
		}
		free(s->slot);
		s->slot = ns;
		s->cap = ncap;
	}
	i = seen_hash(dev, ino) & (s->cap - 1);
	while (s->slot[i].used) {
		if (s->slot[i].dev == dev && s->slot[i].ino == ino)
			return 1;
		i = (i + 1) & (s->cap - 1);
	}
	s->slot[i].dev = dev;
	s->slot[i].ino = ino;
	s->slot[i].used = 1;
	s->n++;
	return 0;
}

/* ---------------------------------------------------------------------
 * Extended attributes (FORMAT.md 7)
 */

/* Check every stored xattr of the object open as fd. Returns 1 when a
 * problem was reported. */
static int check_xattrs(struct ck *ck, int fd, const char *disp)
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
			report(ck, "fsck: error listing xattrs of \"%s\": %s",
			       disp, strerror(ENOMEM));
			return 1;
		}
		n = flistxattr(fd, list, (size_t)n);
	}
	if (n < 0) {
		report(ck, "fsck: error listing xattrs of \"%s\": %s", disp,
		       strerror(errno));
		free(list);
		return 1;
	}
	for (ssize_t at = 0; at < n;) {
		const char *s = list + at;
		size_t sl = strnlen(s, (size_t)(n - at));
		char pn[NAMES_XATTR_NAME_MAX + 1];
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
			report(ck, "fsck: corrupt xattr name on \"%s\": \"%s\"",
			       disp, s);
			bad = 1;
			continue;
		}
		vl = fgetxattr(fd, s, ck->xval, XATTR_VALUE_CAP);
		if (vl < 0) {
			report(ck,
			       "fsck: error reading xattr \"%s\" from "
			       "\"%s\": %s",
			       pn, disp, strerror(errno));
			bad = 1;
			continue;
		}
		if (names_xattr_value_open(ck->v, ck->xplain,
					   NAMES_XATTR_VALUE_MAX, &plen,
					   ck->xval, (size_t)vl) != 0) {
			report(ck,
			       "fsck: error reading xattr \"%s\" from "
			       "\"%s\": value fails authentication",
			       pn, disp);
			bad = 1;
		}
		ct_wipe(ck->xplain, NAMES_XATTR_VALUE_MAX);
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
		report(ck,
		       "fsck: error reading file \"%s\" (inum %llu): %lld "
		       "bytes, truncated inside the 18-byte header",
		       disp, inum, (long long)csize);
		return 1;
	}
	n = sys_pread_full(fd, hdr, sizeof(hdr), 0);
	if (n != (ssize_t)sizeof(hdr)) {
		report(ck, "fsck: error reading file \"%s\" (inum %llu): %s",
		       disp, inum,
		       n < 0 ? strerror((int)-n) : "file shrank while read");
		return 1;
	}
	if (header_parse(fileid, hdr) != 0) {
		report(ck,
		       "fsck: error reading file \"%s\" (inum %llu): bad file "
		       "header (version %u)",
		       disp, inum, (unsigned)(hdr[0] << 8 | hdr[1]));
		return 1;
	}
	for (;;) {
		off_t off;
		uint64_t next;
		size_t want;

		if (stop_flag)
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
			report(ck,
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
		progress_tick(ck);
	}
	ct_wipe(ck->pbuf, CONTENT_PLAIN_BS);
	if (nbad > 0) {
		if (nbad == 1)
			report(ck,
			       "fsck: error reading file \"%s\" (inum %llu): "
			       "block %llu: %s",
			       disp, inum, (unsigned long long)first_bad, why);
		else
			report(ck,
			       "fsck: error reading file \"%s\" (inum %llu): "
			       "block %llu: %s (%llu bad blocks)",
			       disp, inum, (unsigned long long)first_bad, why,
			       (unsigned long long)nbad);
		return 1;
	}
	if (!stop_flag &&
	    plain != content_cipher_to_plain_size(v->cipher, (uint64_t)csize)) {
		report(ck,
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
static int check_file(struct ck *ck, int dfd, const char *cname,
		      const struct stat *st, const char *disp, int *skipped)
{
	struct stat fst;
	int fd = open_file(dfd, cname);
	int bad;

	if (fd < 0) {
		if (fd == -EACCES) {
			progress_clear(ck);
			fprintf(ck->out, "fsck: skipping \"%s\": %s\n", disp,
				strerror(EACCES));
			*skipped = 1;
			return 0;
		}
		report(ck, "fsck: error opening file \"%s\" (inum %llu): %s",
		       disp, (unsigned long long)st->st_ino, strerror(-fd));
		return 1;
	}
	if (fstat(fd, &fst) != 0 || !S_ISREG(fst.st_mode) ||
	    fst.st_ino != st->st_ino || fst.st_dev != st->st_dev) {
		report(ck,
		       "fsck: error opening file \"%s\" (inum %llu): "
		       "changed while checked",
		       disp, (unsigned long long)st->st_ino);
		close(fd);
		return 1;
	}
	bad = check_xattrs(ck, fd, disp);
	bad |= check_content(ck, fd, fst.st_size, disp,
			     (unsigned long long)fst.st_ino);
	close(fd);
	return bad;
}

/* Symlink target (FORMAT.md 6). Returns 1 when a problem was reported. */
static int check_symlink(struct ck *ck, int dfd, const char *cname,
			 const char *disp)
{
	char enc[NAMES_SYMLINK_MAX + 2];
	uint8_t plain[NAMES_SYMLINK_MAX + 1];
	size_t plen = 0;
	ssize_t n;
	int rc;

	n = readlinkat(dfd, cname, enc, sizeof(enc) - 1);
	if (n < 0) {
		report(ck, "fsck: error reading symlink \"%s\": %s", disp,
		       strerror(errno));
		return 1;
	}
	enc[n] = '\0';
	if (ck->v->flags & VOL_PLAINTEXTNAMES)
		return 0;
	rc = names_symlink_decrypt(ck->v, plain, sizeof(plain), &plen, enc);
	ct_wipe(plain, sizeof(plain));
	if (rc != 0) {
		report(ck,
		       "fsck: error reading symlink \"%s\": target does "
		       "not decrypt",
		       disp);
		return 1;
	}
	return 0;
}

/* ---------------------------------------------------------------------
 * Directories (FORMAT.md 5)
 */

/* Depth-first recursion: check_dir -> check_entry -> check_dir. Its
 * depth is the directory depth, bounded in practice by the descriptor
 * limit (each level holds one directory fd, then "error opening dir"). */
static int check_dir(struct ck *ck, int dfd, const char *ppath,
		     const char *cpath, int is_root);

static int ent_cmp(const void *a, const void *b)
{
	const struct ent *x = a, *y = b;

	return strcmp(x->pname != NULL ? x->pname : x->cname,
		      y->pname != NULL ? y->pname : y->cname);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Check one entry of a directory; counts it. ppath NULL: the directory's
 * plaintext path is unknown. */
/* NOLINTNEXTLINE(misc-no-recursion): depth-first walk, see check_dir */
static void check_entry(struct ck *ck, int dfd, const struct ent *e,
			const char *ppath, const char *cpath)
{
	char *cp = join(cpath, e->cname);
	char *pp = ppath != NULL && e->pname != NULL ? join(ppath, e->pname)
						     : NULL;
	const char *disp = pp != NULL ? pp : cp;
	struct stat st;
	int bad = e->bad, skipped = 0;

	if (cp == NULL) {
		report(ck, "fsck: out of memory");
		ck->res->skipped++;
		free(pp);
		return;
	}
	ck->res->checked++;
	progress_tick(ck);
	if (fstatat(dfd, e->cname, &st, AT_SYMLINK_NOFOLLOW) != 0) {
		report(ck, "fsck: error reading entry \"%s\": %s", disp,
		       strerror(errno));
		bad = 1;
	} else if (S_ISDIR(st.st_mode)) {
		int fd = sys_openat(dfd, e->cname,
				    O_RDONLY | O_DIRECTORY | O_NOFOLLOW, 0);

		if (fd == -EACCES) {
			progress_clear(ck);
			fprintf(ck->out, "fsck: skipping dir \"%s\": %s\n",
				disp, strerror(EACCES));
			skipped = 1;
		} else if (fd < 0) {
			report(ck, "fsck: error opening dir \"%s\": %s", disp,
			       strerror(-fd));
			bad = 1;
		} else {
			bad |= check_dir(ck, fd, pp, cp, 0);
		}
	} else if (S_ISREG(st.st_mode)) {
		int s = st.st_nlink > 1
				? seen_check(&ck->seen, st.st_dev, st.st_ino)
				: 0;

		if (s != 1)
			bad |= check_file(ck, dfd, e->cname, &st, disp,
					  &skipped);
	} else if (S_ISLNK(st.st_mode)) {
		bad |= check_symlink(ck, dfd, e->cname, disp);
	}
	if (bad)
		ck->res->corrupt++;
	if (skipped)
		ck->res->skipped++;
	free(pp);
	free(cp);
}

/* Resolve a long name (5.7): .name content, its hash, its decryption.
 * Returns the plaintext name (malloc'd) or NULL after a report. */
static char *resolve_long(struct ck *ck, int dfd, const uint8_t iv[16],
			  const char *cname, const char *ddisp)
{
	char nf[NAMES_BUF + 8];
	char enc[NAMES_ENC_MAX + 2];
	char h[NAMES_LONG_HASHED_MAX + 1];
	char pn[NAMES_BUF];
	ssize_t n;

	(void)snprintf(nf, sizeof(nf), "%s%s", cname, NAMES_LONG_SUFFIX);
	n = sys_read_small(dfd, nf, enc, NAMES_ENC_MAX);
	if (n < 0) {
		report(ck, "fsck: corrupt entry in dir \"%s\": \"%s\": %s: %s",
		       ddisp, cname, nf,
		       n == -EIO ? "empty or too long" : strerror((int)-n));
		return NULL;
	}
	if (names_long_hash(ck->v, enc, h, sizeof(h)) != 0 ||
	    strcmp(h, cname) != 0) {
		report(ck,
		       "fsck: corrupt entry in dir \"%s\": \"%s\": content "
		       "of %s does not hash to the name",
		       ddisp, cname, nf);
		return NULL;
	}
	if (names_decrypt(ck->v, iv, enc, pn, sizeof(pn)) != 0) {
		report(ck, "fsck: corrupt entry in dir \"%s\": \"%s\"", ddisp,
		       cname);
		return NULL;
	}
	return strdup(pn);
}

/* Plaintext name of on-disk entry cname, or NULL (then e->bad is set
 * after a report, or e->pname stays NULL after ENOMEM). */
static void resolve(struct ck *ck, int dfd, const uint8_t iv[16], struct ent *e,
		    const char *ddisp)
{
	const struct volume *v = ck->v;
	char pn[NAMES_BUF];

	if (v->flags & VOL_PLAINTEXTNAMES) {
		e->pname = strdup(e->cname);
		return;
	}
	if ((v->flags & VOL_LONGNAMES) && names_is_long(e->cname)) {
		e->pname = resolve_long(ck, dfd, iv, e->cname, ddisp);
		e->bad = e->pname == NULL;
		return;
	}
	if (names_decrypt(v, iv, e->cname, pn, sizeof(pn)) != 0) {
		report(ck, "fsck: corrupt entry in dir \"%s\": \"%s\"", ddisp,
		       e->cname);
		e->bad = 1;
		return;
	}
	e->pname = strdup(pn);
}

/* Read the entries of the directory open as dp: hidden ones left out,
 * long-name .name files into *nf. Returns 0 or -errno. */
static int read_entries(struct ck *ck, DIR *dp, int is_root, struct ent **out,
			size_t *nout, char ***nf, size_t *nnf)
{
	const struct volume *v = ck->v;
	int names = !(v->flags & VOL_PLAINTEXTNAMES);
	struct ent *es = NULL;
	char **ns = NULL;
	size_t n = 0, cap = 0, nn = 0, ncap = 0;
	const struct dirent *d;
	int rc = 0;

	for (;;) {
		const char *name;
		char *dup;

		errno = 0;
		d = readdir(dp);
		if (d == NULL) {
			rc = -errno;
			break;
		}
		name = d->d_name;
		if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0 ||
		    (is_root && strcmp(name, NAMES_CONF) == 0) ||
		    (names && (v->flags & VOL_DIRIV) &&
		     strcmp(name, NAMES_DIRIV) == 0))
			continue;
		if (names && (v->flags & VOL_LONGNAMES) &&
		    names_is_long_namefile(name)) {
			if (nn == ncap) {
				size_t c2 = ncap == 0 ? 16 : 2 * ncap;
				char **t = calloc(c2, sizeof(*t));

				if (t == NULL) {
					rc = -ENOMEM;
					break;
				}
				if (nn > 0)
					memcpy(t, ns, nn * sizeof(*t));
				free(ns);
				ns = t;
				ncap = c2;
			}
			dup = strdup(name);
			if (dup == NULL) {
				rc = -ENOMEM;
				break;
			}
			ns[nn++] = dup;
			continue;
		}
		if (n == cap) {
			size_t c2 = cap == 0 ? 32 : 2 * cap;
			struct ent *t = calloc(c2, sizeof(*t));

			if (t == NULL) {
				rc = -ENOMEM;
				break;
			}
			if (n > 0)
				memcpy(t, es, n * sizeof(*t));
			free(es);
			es = t;
			cap = c2;
		}
		es[n].cname = strdup(name);
		if (es[n].cname == NULL) {
			rc = -ENOMEM;
			break;
		}
		n++;
	}
	*out = es;
	*nout = n;
	*nf = ns;
	*nnf = nn;
	return rc;
}

/* Long-name .name files without their object (5.7). Returns how many. */
static unsigned long check_orphans(struct ck *ck, const struct ent *es,
				   size_t n, char **nf, size_t nnf,
				   const char *ddisp)
{
	unsigned long orphans = 0;
	char **objs;
	size_t no = 0;

	if (nnf == 0)
		return 0;
	objs = calloc(n + 1, sizeof(*objs));
	if (objs == NULL)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (names_is_long(es[i].cname))
			objs[no++] = es[i].cname;
	qsort(objs, no, sizeof(*objs), str_cmp);
	qsort(nf, nnf, sizeof(*nf), str_cmp);
	for (size_t i = 0; i < nnf; i++) {
		size_t l = strlen(nf[i]) - (sizeof(NAMES_LONG_SUFFIX) - 1);
		char obj[NAMES_BUF + 8];
		const char *key = obj;

		if (l >= sizeof(obj))
			l = sizeof(obj) - 1;
		memcpy(obj, nf[i], l);
		obj[l] = '\0';
		if (bsearch(&key, objs, no, sizeof(*objs), str_cmp) != NULL)
			continue;
		report(ck, "fsck: orphan long-name file in dir \"%s\": \"%s\"",
		       ddisp, nf[i]);
		orphans++;
	}
	free(objs);
	return orphans;
}

/* Check the directory open as dfd (owned: closed here) and everything
 * below it. Returns 1 when the directory itself has a problem. */
/* NOLINTNEXTLINE(misc-no-recursion): depth-first walk, see above */
static int check_dir(struct ck *ck, int dfd, const char *ppath,
		     const char *cpath, int is_root)
{
	const struct volume *v = ck->v;
	const char *ddisp = ppath != NULL ? ppath : cpath;
	uint8_t iv[NAMES_DIRIV_LEN] = { 0 };
	struct ent *es = NULL;
	char **nf = NULL;
	size_t n = 0, nnf = 0, undecryptable = 0;
	DIR *dp;
	int bad, rc;

	bad = check_xattrs(ck, dfd, ddisp);
	if (!(v->flags & VOL_PLAINTEXTNAMES) && (v->flags & VOL_DIRIV)) {
		rc = sys_read_diriv(dfd, iv);
		if (rc != 0) {
			report(ck,
			       "fsck: error reading gocryptfs.diriv in dir "
			       "\"%s\": %s",
			       ddisp,
			       rc == -EIO ? "not 16 bytes or all zero"
					  : strerror(-rc));
			bad = 1;
		}
	}
	dp = fdopendir(dfd);
	if (dp == NULL) {
		report(ck, "fsck: error opening dir \"%s\": %s", ddisp,
		       strerror(errno));
		close(dfd);
		return 1;
	}
	rc = read_entries(ck, dp, is_root, &es, &n, &nf, &nnf);
	if (rc != 0) {
		report(ck, "fsck: error reading dir \"%s\": %s", ddisp,
		       strerror(-rc));
		bad = 1;
	}
	for (size_t i = 0; i < n; i++) {
		resolve(ck, dirfd(dp), iv, &es[i], ddisp);
		undecryptable += es[i].pname == NULL;
	}
	/* a wrong (but well-formed) IV hides every name of the directory */
	if (n >= 2 && undecryptable == n && (v->flags & VOL_DIRIV)) {
		report(ck,
		       "fsck: no name in dir \"%s\" decrypts: damaged "
		       "gocryptfs.diriv?",
		       ddisp);
		bad = 1;
	}
	ck->res->corrupt += check_orphans(ck, es, n, nf, nnf, ddisp);
	if (n > 1)
		qsort(es, n, sizeof(*es), ent_cmp);
	for (size_t i = 0; i < n && !stop_flag; i++)
		check_entry(ck, dirfd(dp), &es[i], ppath, cpath);
	for (size_t i = 0; i < n; i++) {
		free(es[i].cname);
		free(es[i].pname);
	}
	for (size_t i = 0; i < nnf; i++)
		free(nf[i]);
	free(es);
	free(nf);
	closedir(dp);
	return bad;
}

/* ---------------------------------------------------------------------
 * Entry points
 */

int fsck_run(const char *cipherdir, const struct volume *vol, FILE *out,
	     int progress, struct fsck_result *res)
{
	struct sigaction sa, old_int, old_term;
	struct ck ck;
	int fd;

	memset(res, 0, sizeof(*res));
	memset(&ck, 0, sizeof(ck));
	ck.v = vol;
	ck.out = out;
	ck.res = res;
	ck.progress = progress;
	ck.start_ns = now_ns();
	fd = sys_openat(AT_FDCWD, cipherdir, O_RDONLY | O_DIRECTORY, 0);
	if (fd < 0)
		return fd;
	ck.cbuf = malloc(PIECE_BLOCKS * CONTENT_MAX_CIPHER_BS);
	ck.pbuf = malloc(CONTENT_PLAIN_BS);
	ck.xval = malloc(XATTR_VALUE_CAP);
	ck.xplain = malloc(NAMES_XATTR_VALUE_MAX);
	if (ck.cbuf == NULL || ck.pbuf == NULL || ck.xval == NULL ||
	    ck.xplain == NULL) {
		close(fd);
		fd = -ENOMEM;
		goto out;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	stop_flag = 0;
	(void)sigaction(SIGINT, &sa, &old_int);
	(void)sigaction(SIGTERM, &sa, &old_term);
	if (check_dir(&ck, fd, "", "", 1))
		res->corrupt++;
	(void)sigaction(SIGINT, &old_int, NULL);
	(void)sigaction(SIGTERM, &old_term, NULL);
	progress_clear(&ck);
	res->aborted = stop_flag != 0;
	fd = 0;
	if (res->aborted)
		fprintf(out, "fsck: aborted\n");
	else if (res->corrupt == 0 && res->skipped == 0)
		fprintf(out, "fsck summary: no problems found\n");
	else
		fprintf(out,
			"fsck summary: %lu corrupt files, %lu files "
			"skipped\n",
			res->corrupt, res->skipped);
	fflush(out);
out:
	if (ck.pbuf != NULL)
		ct_wipe(ck.pbuf, CONTENT_PLAIN_BS);
	if (ck.xplain != NULL)
		ct_wipe(ck.xplain, NAMES_XATTR_VALUE_MAX);
	free(ck.cbuf);
	free(ck.pbuf);
	free(ck.xval);
	free(ck.xplain);
	free(ck.seen.slot);
	return fd;
}

int fsck_main(const char *cipherdir, const struct volume *vol)
{
	struct fsck_result res;
	int progress = isatty(STDERR_FILENO) && log_get_level() >= LOGL_INFO;
	int rc = fsck_run(cipherdir, vol, stdout, progress, &res);

	if (rc != 0) {
		log_error("fsck: cannot open %s: %s", cipherdir, strerror(-rc));
		return rc == -ENOMEM ? EXIT_OTHER : EXIT_CIPHERDIR;
	}
	if (res.aborted)
		return EXIT_OTHER;
	if (res.corrupt == 0 && res.skipped == 0)
		return EXIT_OK;
	if (res.skipped > 0)
		log_warn("fsck: re-run this program as root to check all "
			 "files!");
	return EXIT_FSCKERRORS;
}
