/* SPDX-License-Identifier: MIT */
/*
 * vcryptfs -fsck: see fsck.h. The walk reads the cipher directory itself
 * (no mount): every directory is opened with openat(O_DIRECTORY |
 * O_NOFOLLOW) relative to its parent, never through a path string, and
 * nothing is ever written. Output wording follows gocryptfs -fsck.
 * Spec: ../shared/FORMAT.md 13.4, 4.2-4.8 (headers, blocks, holes, sizes),
 * 5.4-5.8 (diriv, names, long names), 11. The per-object checks (file
 * contents, symlinks, xattrs: FORMAT.md 4, 6, 7) are in fsck_file.c.
 * Problem lines go through report.h (names escaped with base/log.h's
 * log_escape()). Layer: fsck/; depends on format/, sys/ and
 * base/ (secmem_wipe); only cli/ includes fsck/. Not proved.
 */
#include "fsck/fsck_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/exitcodes.h"
#include "base/log.h"
#include "base/secmem.h"
#include "format/content.h"
#include "format/names.h"
#include "sys/sys.h"

static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

/* One directory entry, resolved. */
struct ent {
	char *cname; /* on-disk name */
	char *pname; /* plaintext name, NULL when it does not decrypt */
	int bad;     /* a name-level problem was reported */
};

/* s rendered by log_escape() (base/log.h), malloc'd; NULL on ENOMEM. */
static char *escape_dup(const char *s)
{
	size_t cap = LOG_ESCAPE_LEN(strlen(s));
	char *e = malloc(cap);

	return e != NULL ? log_escape_str(e, cap, s) : NULL;
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
	char *disp = cp != NULL ? escape_dup(pp != NULL ? pp : cp) : NULL;
	struct stat st;
	int bad = e->bad, skipped = 0;

	if (disp == NULL) {
		report_problem(&ck->rep, "fsck: out of memory");
		ck->rep.res->skipped++;
		free(pp);
		free(cp);
		return;
	}
	ck->rep.res->checked++;
	report_progress_tick(&ck->rep);
	if (fstatat(dfd, e->cname, &st, AT_SYMLINK_NOFOLLOW) != 0) {
		report_problem(&ck->rep, "fsck: error reading entry \"%s\": %s",
			       disp, strerror(errno));
		bad = 1;
	} else if (S_ISDIR(st.st_mode)) {
		int fd = sys_openat(dfd, e->cname,
				    O_RDONLY | O_DIRECTORY | O_NOFOLLOW, 0);

		if (fd == -EACCES) {
			report_problem(&ck->rep,
				       "fsck: skipping dir \"%s\": %s", disp,
				       strerror(EACCES));
			skipped = 1;
		} else if (fd < 0) {
			report_problem(&ck->rep,
				       "fsck: error opening dir \"%s\": %s",
				       disp, strerror(-fd));
			bad = 1;
		} else {
			bad |= check_dir(ck, fd, pp, cp, 0);
		}
	} else if (S_ISREG(st.st_mode)) {
		int s = st.st_nlink > 1
				? seen_check(&ck->seen, st.st_dev, st.st_ino)
				: 0;

		if (s != 1)
			bad |= fsck_check_file(ck, dfd, e->cname, &st, disp,
					       &skipped);
	} else if (S_ISLNK(st.st_mode)) {
		bad |= fsck_check_symlink(ck, dfd, e->cname, disp);
	}
	if (bad)
		ck->rep.res->corrupt++;
	if (skipped)
		ck->rep.res->skipped++;
	free(disp);
	free(pp);
	free(cp);
}

/* Resolve a long name (5.7): .name content, its hash, its decryption.
 * Returns the plaintext name (malloc'd) or NULL after a report. */
static char *resolve_long(struct ck *ck, int dfd,
			  const uint8_t iv[NAMES_DIRIV_LEN], const char *cname,
			  const char *ddisp)
{
	char nf[NAMES_BUF + 8];
	char enc[NAMES_ENC_MAX + 2];
	char h[NAMES_LONG_HASHED_MAX + 1];
	char pn[NAMES_BUF];
	char enf[LOG_ESCAPE_LEN(sizeof(nf))];
	char why[sizeof(enf) + 64];
	ssize_t n;

	(void)snprintf(nf, sizeof(nf), "%s%s", cname, NAMES_LONG_SUFFIX);
	(void)log_escape_str(enf, sizeof(enf), nf);
	n = sys_read_small(dfd, nf, enc, NAMES_ENC_MAX);
	if (n < 0) {
		(void)snprintf(why, sizeof(why), "%s: %s", enf,
			       n == -EIO ? "not a file, empty or too long"
					 : strerror((int)-n));
		report_corrupt_entry(&ck->rep, ddisp, cname, why);
		return NULL;
	}
	if (names_long_hash(ck->v, enc, h, sizeof(h)) != 0 ||
	    strcmp(h, cname) != 0) {
		(void)snprintf(why, sizeof(why),
			       "content of %s does not hash to the name", enf);
		report_corrupt_entry(&ck->rep, ddisp, cname, why);
		return NULL;
	}
	if (names_decrypt(ck->v, iv, enc, pn, sizeof(pn)) != 0) {
		report_corrupt_entry(&ck->rep, ddisp, cname, NULL);
		return NULL;
	}
	return strdup(pn);
}

/* Plaintext name of on-disk entry cname, or NULL (then e->bad is set
 * after a report, or e->pname stays NULL after ENOMEM). */
static void resolve(struct ck *ck, int dfd, const uint8_t iv[NAMES_DIRIV_LEN],
		    struct ent *e, const char *ddisp)
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
		report_corrupt_entry(&ck->rep, ddisp, e->cname, NULL);
		e->bad = 1;
		return;
	}
	e->pname = strdup(pn);
}

/* Grow arr (n elements of elsz bytes, room for *cap) to twice its room, or
 * first elements when it has none: the new array (arr is freed and *cap
 * updated), or NULL with arr left as it was. */
static void *grow(void *arr, size_t n, size_t *cap, size_t elsz, size_t first)
{
	size_t c2 = *cap == 0 ? first : 2 * *cap;
	void *t = calloc(c2, elsz);

	if (t == NULL)
		return NULL;
	if (n > 0)
		memcpy(t, arr, n * elsz);
	free(arr);
	*cap = c2;
	return t;
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
			if (nn == ncap || ns == NULL) {
				char **t = grow(ns, nn, &ncap, sizeof(*t), 16);

				if (t == NULL) {
					rc = -ENOMEM;
					break;
				}
				ns = t;
			}
			dup = strdup(name);
			if (dup == NULL) {
				rc = -ENOMEM;
				break;
			}
			ns[nn++] = dup;
			continue;
		}
		if (n == cap || es == NULL) {
			struct ent *t = grow(es, n, &cap, sizeof(*t), 32);

			if (t == NULL) {
				rc = -ENOMEM;
				break;
			}
			es = t;
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

/* Long-name .name files without their object (5.7); edd is the escaped
 * display path of the directory. Returns how many. */
static unsigned long check_orphans(struct ck *ck, const struct ent *es,
				   size_t n, char **nf, size_t nnf,
				   const char *edd)
{
	char enf[LOG_ESCAPE_LEN(NAMES_BUF + 8)];
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
		report_problem(&ck->rep,
			       "fsck: orphan long-name file in dir \"%s\": "
			       "\"%s\"",
			       edd, log_escape_str(enf, sizeof(enf), nf[i]));
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
	char *edd = escape_dup(ddisp); /* for the report lines */
	uint8_t iv[NAMES_DIRIV_LEN] = { 0 };
	struct ent *es = NULL;
	char **nf = NULL;
	size_t n = 0, nnf = 0, undecryptable = 0;
	DIR *dp;
	int bad, rc;

	if (edd == NULL) {
		report_problem(&ck->rep, "fsck: out of memory");
		close(dfd);
		return 1;
	}
	bad = fsck_check_xattrs(ck, dfd, edd);
	if (!(v->flags & VOL_PLAINTEXTNAMES) && (v->flags & VOL_DIRIV)) {
		rc = sys_read_diriv(dfd, iv);
		if (rc != 0) {
			report_problem(
				&ck->rep,
				"fsck: error reading gocryptfs.diriv in dir "
				"\"%s\": %s",
				edd,
				rc == -EIO ? "not a 16-byte file, or all zero"
					   : strerror(-rc));
			bad = 1;
		}
	}
	dp = fdopendir(dfd);
	if (dp == NULL) {
		report_problem(&ck->rep, "fsck: error opening dir \"%s\": %s",
			       edd, strerror(errno));
		close(dfd);
		free(edd);
		return 1;
	}
	rc = read_entries(ck, dp, is_root, &es, &n, &nf, &nnf);
	if (rc != 0) {
		report_problem(&ck->rep, "fsck: error reading dir \"%s\": %s",
			       edd, strerror(-rc));
		bad = 1;
	}
	for (size_t i = 0; i < n; i++) {
		resolve(ck, dirfd(dp), iv, &es[i], ddisp);
		undecryptable += es[i].pname == NULL;
	}
	/* a wrong (but well-formed) IV hides every name of the directory */
	if (n >= 2 && undecryptable == n && (v->flags & VOL_DIRIV)) {
		report_problem(&ck->rep,
			       "fsck: no name in dir \"%s\" decrypts: damaged "
			       "gocryptfs.diriv?",
			       edd);
		bad = 1;
	}
	ck->rep.res->corrupt += check_orphans(ck, es, n, nf, nnf, edd);
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
	free(edd);
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
	uint8_t *cbuf, *pbuf, *xval, *xplain;
	int fd;

	memset(res, 0, sizeof(*res));
	memset(&ck, 0, sizeof(ck));
	ck.v = vol;
	ck.stop = &stop_flag;
	fd = sys_openat(AT_FDCWD, cipherdir, O_RDONLY | O_DIRECTORY, 0);
	if (fd < 0)
		return fd;
	/* the buffers are owned by these locals (ck only borrows them) */
	cbuf = malloc(PIECE_BLOCKS * CONTENT_MAX_CIPHER_BS);
	pbuf = malloc(CONTENT_PLAIN_BS);
	xval = malloc(XATTR_VALUE_CAP);
	xplain = malloc(NAMES_XATTR_VALUE_MAX);
	ck.cbuf = cbuf;
	ck.pbuf = pbuf;
	ck.xval = xval;
	ck.xplain = xplain;
	if (cbuf == NULL || pbuf == NULL || xval == NULL || xplain == NULL) {
		close(fd);
		fd = -ENOMEM;
		goto out;
	}
	/* after the buffers: ck escapes to report.c from here on (gcc's
	 * analyzer then cannot tell the buffers apart at out:) */
	report_init(&ck.rep, out, progress, res);
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
	res->aborted = stop_flag != 0;
	fd = 0;
	report_summary(&ck.rep);
out:
	free(ck.seen.slot);
	if (pbuf != NULL)
		secmem_wipe(pbuf, CONTENT_PLAIN_BS);
	if (xplain != NULL)
		secmem_wipe(xplain, NAMES_XATTR_VALUE_MAX);
	free(cbuf);
	free(pbuf);
	free(xval);
	free(xplain);
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
