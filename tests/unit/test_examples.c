/* SPDX-License-Identifier: MIT */
/*
 * Offline decoder for gocryptfs cipher directories, built on src/format
 * only (no mount), and the test that it reads the two real gocryptfs 2.3
 * examples exactly (../shared/examples/<case>/MANIFEST.txt), unlocked both
 * with the master keys of FORMAT.md 14.1/14.2 and with passfile.txt; every
 * block, name, long name and symlink target is also re-encrypted with the
 * nonce found on disk and must give the on-disk bytes again (14.3).
 *
 *   test_examples                         the example test (PASS/FAIL lines)
 *   test_examples DIR MASTERKEYHEX|-passfile F
 *                                         print DIR's manifest (MANIFEST.txt
 *                                         format, plus "xattr" lines) on
 *                                         stdout; exit 0, or 1 on any error
 * Over 600 lines on purpose: the offline decoder is a program of its own
 * (50-gocryptfs uses it to read gocryptfs-written trees) and the example
 * test is its main user; banner sections divide decoder, manifest, test.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "crypto/ct.h"
#include "crypto/kdf.h"
#include "crypto/ossl_aead.h"
#include "format/b64.h"
#include "format/config.h"
#include "format/content.h"
#include "format/header.h"
#include "format/names.h"
#include "th.h"

#include <openssl/evp.h>

/* snprintf that aborts on truncation (paths here are short). */
__attribute__((format(printf, 3, 4))) static void fmt(char *out, size_t cap,
						      const char *f, ...)
{
	va_list ap;
	int n;

	va_start(ap, f);
	n = vsnprintf(out, cap, f, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= cap)
		abort();
}

/* ------------------------------------------------------------ manifest */

struct entry {
	char *line; /* "kind\tsum\tsize\tpath" (+ "\tname" for xattrs) */
	char *path; /* sort key */
};

struct decoder {
	struct volume v;
	uint8_t content_key[64], eme_key[32];
	struct entry *e;
	size_t n, cap;
	int errors;	  /* undecryptable or inconsistent objects */
	long reenc_ok;	  /* re-encrypted items that matched */
	long reenc_bad;	  /* ... that did not */
	int materialized; /* symlinks found as regular files (see below) */
	int holes;	  /* all-zero full-size blocks read as zeros */
};

static int verbose_errs; /* print each decoder error on stderr */

static void derr(struct decoder *d, const char *what, const char *path)
{
	d->errors++;
	if (verbose_errs)
		fprintf(stderr, "decoder: %s: %s\n", what, path);
}

static void add_entry(struct decoder *d, const char *line, const char *path)
{
	if (d->n == d->cap) {
		size_t nc = d->cap ? 2 * d->cap : 64;
		struct entry *ne = realloc(d->e, nc * sizeof(*ne));

		if (ne == NULL)
			abort();
		d->e = ne;
		d->cap = nc;
	}
	d->e[d->n].line = strdup(line);
	d->e[d->n].path = strdup(path);
	if (d->e[d->n].line == NULL || d->e[d->n].path == NULL)
		abort();
	d->n++;
}

static int entry_cmp(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int c = strcmp(x->path, y->path);

	return c != 0 ? c : strcmp(x->line, y->line);
}

static void sha256_hex(char out[65], const uint8_t *m, size_t len)
{
	uint8_t h[32];

	ossl_sha256(h, m, len);
	for (int i = 0; i < 32; i++)
		snprintf(out + 2 * i, 3, "%02x", h[i]);
}

/* ------------------------------------------------------------ file I/O */

/* Read a whole file (or at most max bytes) into a malloc'd buffer. */
static uint8_t *slurp(const char *path, size_t max, size_t *len)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	size_t cap = 4096, n = 0;
	uint8_t *buf;

	if (fd < 0)
		return NULL;
	buf = malloc(cap);
	if (buf == NULL) {
		close(fd);
		return NULL;
	}
	for (;;) {
		ssize_t r;

		if (n == cap) {
			uint8_t *nb = realloc(buf, 2 * cap);

			if (nb == NULL) {
				free(buf);
				close(fd);
				return NULL;
			}
			buf = nb;
			cap *= 2;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(buf);
			close(fd);
			return NULL;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n > max)
			break;
	}
	close(fd);
	*len = n;
	return buf;
}

/* ------------------------------------------------------------ contents */

/* Decrypt a whole backing file; re-encrypt each block with its nonce. */
static uint8_t *decrypt_file(struct decoder *d, const uint8_t *c, size_t clen,
			     size_t *plen, const char *path)
{
	size_t cbs = content_cipher_bs(d->v.cipher);
	uint8_t *p, *re, id[HEADER_ID_LEN];
	size_t off, o = 0;
	uint64_t bn = 0;

	*plen = 0;
	p = malloc(clen + 1);
	re = malloc(cbs);
	if (p == NULL || re == NULL)
		abort();
	if (clen <= HEADER_LEN) {
		free(re);
		return p; /* empty, or torn/header-only: reads as empty */
	}
	if (header_parse(id, c) != 0) {
		derr(d, "bad file header", path);
		free(re);
		free(p);
		return NULL;
	}
	for (off = HEADER_LEN; off < clen; off += cbs, bn++) {
		size_t blen = clen - off < cbs ? clen - off : cbs, got = 0;
		int zero = 1;

		if (content_block_open(&d->v, p + o, &got, c + off, blen, bn,
				       id) != 0) {
			derr(d, "block does not decrypt", path);
			free(re);
			free(p);
			return NULL;
		}
		for (size_t i = 0; i < blen; i++)
			zero &= c[off + i] == 0;
		if (zero)
			d->holes++;
		if (!zero) {
			content_block_seal(&d->v, re, p + o, got, bn, id,
					   c + off);
			if (memcmp(re, c + off, blen) == 0)
				d->reenc_ok++;
			else
				d->reenc_bad++;
		}
		o += got;
	}
	if (o != content_cipher_to_plain_size(d->v.cipher, clen))
		derr(d, "plaintext size != size formula", path);
	free(re);
	*plen = o;
	return p;
}

/* -------------------------------------------------------------- walker */

static void join(char *out, size_t cap, const char *a, const char *b)
{
	if (a[0] == '\0')
		fmt(out, cap, "%s", b);
	else
		fmt(out, cap, "%s/%s", a, b);
}

static void do_xattrs(struct decoder *d, const char *cpath, const char *ppath)
{
	char list[65536], name[NAMES_BUF];
	ssize_t ll = llistxattr(cpath, list, sizeof(list));

	for (ssize_t i = 0; ll > 0 && i < ll;
	     i += (ssize_t)strlen(list + i) + 1) {
		uint8_t val[65536 + 64], plain[65536];
		char line[8192], sum[65];
		size_t plen = 0;
		ssize_t vl;

		if (names_xattr_name_decrypt(&d->v, list + i, name,
					     sizeof(name)) != 0 ||
		    names_xattr_is_acl(name))
			continue;
		vl = lgetxattr(cpath, list + i, val, sizeof(val));
		if (vl < 0 ||
		    names_xattr_value_open(&d->v, plain, sizeof(plain), &plen,
					   val, (size_t)vl) != 0) {
			derr(d, "xattr value does not decrypt", cpath);
			continue;
		}
		sha256_hex(sum, plain, plen);
		fmt(line, sizeof(line), "xattr\t%s\t%zu\t%s\t%s", sum, plen,
		    ppath, name);
		add_entry(d, line, ppath);
	}
}

/* Decode one directory entry name; 0 and out set, or -1 (hidden). */
static int entry_name(struct decoder *d, const char *cdir, const char *cname,
		      const uint8_t iv[16], char out[NAMES_BUF])
{
	char enc[NAMES_BUF], re[NAMES_BUF], path[8192];
	const char *e = cname;

	if (names_is_long(cname)) {
		uint8_t *buf;
		size_t len = 0;

		fmt(path, sizeof(path), "%s/%s%s", cdir, cname,
		    NAMES_LONG_SUFFIX);
		buf = slurp(path, NAMES_ENC_MAX + 1, &len);
		if (buf == NULL || names_check_namefile(len) != 0) {
			free(buf);
			derr(d, "bad .name file", path);
			return -1;
		}
		memcpy(enc, buf, len);
		enc[len] = '\0';
		free(buf);
		e = enc;
		/* the hashed name must be the hash of the .name content */
		if (names_long_hash(&d->v, enc, re, sizeof(re)) == 0 &&
		    strcmp(re, cname) == 0)
			d->reenc_ok++;
		else
			d->reenc_bad++;
	}
	if (names_decrypt(&d->v, iv, e, out, NAMES_BUF) != 0) {
		join(path, sizeof(path), cdir, cname);
		derr(d, "name does not decrypt", path);
		return -1;
	}
	if (names_encrypt(&d->v, iv, out, re, sizeof(re)) == 0 &&
	    strcmp(re, e) == 0 &&
	    names_needs_long(&d->v, strlen(re)) == (e != cname))
		d->reenc_ok++;
	else
		d->reenc_bad++;
	return 0;
}

/* A symlink whose backing target text is enc (l characters). */
static void symlink_entry(struct decoder *d, const char *enc, size_t l,
			  const char *cpath, const char *ppath)
{
	char re[NAMES_SYMLINK_MAX + 2];
	char line[8192];
	uint8_t t[NAMES_SYMLINK_MAX + 1], bin[4096];
	size_t tl = 0, bl = 0;
	int same;

	if (names_symlink_decrypt(&d->v, t, sizeof(t), &tl, enc) != 0) {
		derr(d, "symlink target does not decrypt", cpath);
		return;
	}
	/* plaintext names store the target as is: nothing to re-encrypt */
	same = (d->v.flags & VOL_PLAINTEXTNAMES) != 0 ||
	       (b64_decode(bin, sizeof(bin), &bl, enc, l,
			   names_b64_flags(&d->v)) == 0 &&
		names_symlink_encrypt(&d->v, re, sizeof(re), t, tl, bin) == 0 &&
		strcmp(re, enc) == 0);
	if (same)
		d->reenc_ok++;
	else
		d->reenc_bad++;
	fmt(line, sizeof(line), "symlink\t%s\t%zu\t%s", (char *)t, tl, ppath);
	add_entry(d, line, ppath);
}

static void do_symlink(struct decoder *d, const char *cpath, const char *ppath)
{
	char enc[NAMES_SYMLINK_MAX + 2];
	ssize_t l = readlink(cpath, enc, sizeof(enc) - 1);

	if (l < 0) {
		derr(d, "readlink", cpath);
		return;
	}
	enc[l] = '\0';
	symlink_entry(d, enc, (size_t)l, cpath, ppath);
}

/*
 * The shared examples were copied by a tool that turned symlinks into
 * regular files holding the link text. With materialized_links set, a
 * regular file without a valid header whose whole content decrypts as a
 * symlink target is taken as that symlink (a real content file always
 * starts with 00 02, which is not base64 text).
 */
static int materialized_links;

static int try_materialized_link(struct decoder *d, const uint8_t *c,
				 size_t clen, const char *cpath,
				 const char *ppath)
{
	char enc[NAMES_SYMLINK_MAX + 2];
	uint8_t t[NAMES_SYMLINK_MAX + 1];
	size_t tl = 0;

	if (!materialized_links || clen == 0 || clen > NAMES_SYMLINK_MAX ||
	    memchr(c, '\0', clen) != NULL)
		return 0;
	memcpy(enc, c, clen);
	enc[clen] = '\0';
	if (names_symlink_decrypt(&d->v, t, sizeof(t), &tl, enc) != 0)
		return 0;
	d->materialized++;
	symlink_entry(d, enc, clen, cpath, ppath);
	return 1;
}

static void do_file(struct decoder *d, const char *cpath, const char *ppath)
{
	size_t clen = 0, plen = 0;
	uint8_t *c = slurp(cpath, SIZE_MAX / 2, &clen), *p;
	char line[8192], sum[65];

	if (c == NULL) {
		derr(d, "cannot read", cpath);
		return;
	}
	if (clen > HEADER_LEN && c[0] != 0 &&
	    try_materialized_link(d, c, clen, cpath, ppath)) {
		free(c);
		return;
	}
	p = decrypt_file(d, c, clen, &plen, cpath);
	free(c);
	if (p == NULL)
		return;
	sha256_hex(sum, p, plen);
	free(p);
	fmt(line, sizeof(line), "file\t%s\t%zu\t%s", sum, plen, ppath);
	add_entry(d, line, ppath);
	do_xattrs(d, cpath, ppath);
}

static int read_diriv(struct decoder *d, const char *cdir, uint8_t iv[16])
{
	char path[8192];
	uint8_t *buf;
	size_t len = 0;
	int zero = 1;

	memset(iv, 0, 16);
	if (!(d->v.flags & VOL_DIRIV) || (d->v.flags & VOL_PLAINTEXTNAMES))
		return 0;
	fmt(path, sizeof(path), "%s/%s", cdir, NAMES_DIRIV);
	buf = slurp(path, NAMES_DIRIV_LEN + 1, &len);
	if (buf == NULL || len != NAMES_DIRIV_LEN) {
		free(buf);
		derr(d, "bad diriv", path);
		return -1;
	}
	for (int i = 0; i < 16; i++)
		zero &= buf[i] == 0;
	memcpy(iv, buf, 16);
	free(buf);
	if (zero) {
		derr(d, "all-zero diriv", path);
		return -1;
	}
	return 0;
}

/* Depth-first over a cipher directory; recursion depth = tree depth. */
/* NOLINTNEXTLINE(misc-no-recursion) */
static void walk(struct decoder *d, const char *cdir, const char *pdir)
{
	uint8_t iv[16];
	DIR *dir;
	struct dirent *de;
	int is_root = pdir[0] == '\0';

	if (read_diriv(d, cdir, iv) != 0)
		return;
	dir = opendir(cdir);
	if (dir == NULL) {
		derr(d, "opendir", cdir);
		return;
	}
	while ((de = readdir(dir)) != NULL) {
		char name[NAMES_BUF], cpath[8192], ppath[8192], line[8300];
		struct stat st;

		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0 ||
		    names_hidden(&d->v, de->d_name, is_root))
			continue;
		if (entry_name(d, cdir, de->d_name, iv, name) != 0)
			continue;
		fmt(cpath, sizeof(cpath), "%s/%s", cdir, de->d_name);
		join(ppath, sizeof(ppath), pdir, name);
		if (lstat(cpath, &st) != 0) {
			derr(d, "lstat", cpath);
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			fmt(line, sizeof(line), "dir\t-\t-\t%s", ppath);
			add_entry(d, line, ppath);
			do_xattrs(d, cpath, ppath);
			walk(d, cpath, ppath);
		} else if (S_ISLNK(st.st_mode)) {
			do_symlink(d, cpath, ppath);
		} else if (S_ISREG(st.st_mode)) {
			do_file(d, cpath, ppath);
		} else {
			fmt(line, sizeof(line), "other\t-\t-\t%s", ppath);
			add_entry(d, line, ppath);
		}
	}
	closedir(dir);
}

/* --------------------------------------------------------------- keys */

/* Volume from config flags and the master key (FORMAT.md 2.3, 3). */
static int decoder_init(struct decoder *d, const struct config *c,
			const uint8_t mk[32])
{
	const char *info = "AES-GCM file content encryption";
	size_t klen = 32;

	memset(d, 0, sizeof(*d));
	d->v.cipher = CIPHER_AES_GCM;
	if (c->flags & CONF_XCHACHA) {
		d->v.cipher = CIPHER_XCHACHA;
		info = "XChaCha20-Poly1305 file content encryption";
	} else if (c->flags & CONF_AESSIV) {
		d->v.cipher = CIPHER_AES_SIV;
		info = "AES-SIV file content encryption";
		klen = 64;
	}
	if (c->flags & CONF_HKDF)
		d->v.flags |= VOL_HKDF;
	if (c->flags & CONF_PLAINTEXTNAMES)
		d->v.flags |= VOL_PLAINTEXTNAMES;
	if (c->flags & CONF_DIRIV)
		d->v.flags |= VOL_DIRIV;
	if (c->flags & CONF_EMENAMES)
		d->v.flags |= VOL_EMENAMES;
	if (c->flags & CONF_LONGNAMES)
		d->v.flags |= VOL_LONGNAMES;
	if (c->flags & CONF_RAW64)
		d->v.flags |= VOL_RAW64;
	d->v.longnamemax = c->longnamemax ? c->longnamemax : 255;
	if (c->flags & CONF_HKDF) {
		static const char eme_info[] = "EME filename encryption";

		if (kdf_hkdf_sha256(d->content_key, klen, mk, 32, info,
				    strlen(info)) != 0 ||
		    kdf_hkdf_sha256(d->eme_key, 32, mk, 32, eme_info,
				    strlen(eme_info)) != 0)
			return -1;
	} else {
		/* legacy: EME and GCM keys are the master key, SIV SHA-512 */
		memcpy(d->eme_key, mk, 32);
		if (klen == 64) {
			unsigned int l = 0;

			if (EVP_Digest(mk, 32, d->content_key, &l, EVP_sha512(),
				       NULL) != 1)
				return -1;
		} else {
			memcpy(d->content_key, mk, 32);
		}
	}
	d->v.content_key = d->content_key;
	d->v.content_key_len = klen;
	d->v.eme_key = d->eme_key;
	return 0;
}

static void decoder_free(struct decoder *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->e[i].line);
		free(d->e[i].path);
	}
	free(d->e);
	d->e = NULL;
	d->n = d->cap = 0;
	ct_wipe(d->content_key, sizeof(d->content_key));
	ct_wipe(d->eme_key, sizeof(d->eme_key));
}

/* Parse 64 hex digits, dashes ignored. */
static int parse_masterkey(uint8_t mk[32], const char *s)
{
	char hex[65];
	size_t n = 0;

	if (s == NULL)
		return -1;
	for (; *s != '\0'; s++) {
		if (*s == '-')
			continue;
		if (n == 64)
			return -1;
		hex[n++] = *s;
	}
	hex[n] = '\0';
	return (n == 64 && th_unhex(mk, 32, hex) == 32) ? 0 : -1;
}

/* Password from the first line of a file. */
static int unlock_passfile(const struct config *c, const char *file,
			   uint8_t mk[32])
{
	size_t len = 0;
	uint8_t *pw = slurp(file, 4096, &len);
	char err[256];
	int rc;

	if (pw == NULL)
		return -1;
	for (size_t i = 0; i < len; i++)
		if (pw[i] == '\n') {
			len = i;
			break;
		}
	rc = config_unlock(c, pw, len, mk, err, sizeof(err));
	memset(pw, 0, len);
	free(pw);
	if (rc != CONF_OK)
		fprintf(stderr, "decoder: unlock: %s\n", err);
	return rc == CONF_OK ? 0 : -1;
}

/* Decode cipherdir into d (sorted). Returns 0 or -1 (setup failure). */
static int decode_dir(struct decoder *d, const char *dir, const char *keyarg,
		      const char *passfile, uint8_t mk_out[32])
{
	struct config c;
	char path[4096], err[256];
	uint8_t mk[32];
	int rc = -1;

	fmt(path, sizeof(path), "%s/gocryptfs.conf", dir);
	config_zero(&c);
	if (config_load(&c, path, err, sizeof(err)) != CONF_OK) {
		fprintf(stderr, "decoder: %s\n", err);
		return -1;
	}
	if (passfile != NULL ? unlock_passfile(&c, passfile, mk) != 0
			     : parse_masterkey(mk, keyarg) != 0) {
		fprintf(stderr, "decoder: cannot get the master key\n");
		goto out;
	}
	if (decoder_init(d, &c, mk) != 0)
		goto out;
	if (mk_out != NULL)
		memcpy(mk_out, mk, 32);
	walk(d, dir, "");
	if (d->n > 1)
		qsort(d->e, d->n, sizeof(*d->e), entry_cmp);
	rc = 0;
out:
	ct_wipe(mk, sizeof(mk));
	config_free(&c);
	return rc;
}

/* ------------------------------------------------------- example test */

/* Compare d's entries with MANIFEST.txt (comment lines skipped). */
static void compare_manifest(struct decoder *d, const char *file,
			     const char *what)
{
	size_t len = 0, i = 0, matched = 0;
	uint8_t *buf = slurp(file, 1 << 20, &len);
	char *s, *line, *save = NULL;
	int ok = 1;

	if (buf == NULL) {
		th_fail("%s: cannot read %s", what, file);
		return;
	}
	s = malloc(len + 1);
	if (s == NULL)
		abort();
	memcpy(s, buf, len);
	s[len] = '\0';
	free(buf);
	for (line = strtok_r(s, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#' || line[0] == '\0')
			continue;
		if (i >= d->n || strcmp(d->e[i].line, line) != 0) {
			fprintf(stderr, "  expected: %s\n  decoded:  %s\n",
				line, i < d->n ? d->e[i].line : "(nothing)");
			ok = 0;
		} else {
			matched++;
		}
		i++;
	}
	if (i != d->n)
		ok = 0;
	free(s);
	th_check(ok && d->errors == 0,
		 "%s: decoded tree == MANIFEST.txt (%zu entries, %d errors)",
		 what, matched, d->errors);
}

struct example {
	const char *dir;
	const char *masterkey;
	const char *hello; /* on-disk name of hello.txt in the root */
	size_t hello_size;
};

static void check_example(const struct example *ex)
{
	char dir[4096], cdir[4096], man[4096], pass[4096], path[4096];
	struct decoder d;
	uint8_t want[32], got[32];
	struct stat st;

	fmt(dir, sizeof(dir), "%s/examples/%s", th_shared_dir(), ex->dir);
	fmt(cdir, sizeof(cdir), "%s/cipherdir", dir);
	fmt(man, sizeof(man), "%s/MANIFEST.txt", dir);
	fmt(pass, sizeof(pass), "%s/passfile.txt", dir);
	if (stat(cdir, &st) != 0) {
		th_fail("%s: %s missing", ex->dir, cdir);
		return;
	}
	fmt(path, sizeof(path), "%s/%s", cdir, ex->hello);
	th_check(stat(path, &st) == 0 && (size_t)st.st_size == ex->hello_size,
		 "%s: hello.txt is %s, %zu bytes (FORMAT.md 14)", ex->dir,
		 ex->hello, ex->hello_size);

	materialized_links = 1;
	/* 1: -masterkey style, key from FORMAT.md */
	if (decode_dir(&d, cdir, ex->masterkey, NULL, NULL) != 0) {
		th_fail("%s: decoder setup (masterkey)", ex->dir);
		return;
	}
	compare_manifest(&d, man, ex->dir);
	th_check(d.holes == 3,
		 "%s: sparse.bin has 3 hole blocks that read as zeros (%d)",
		 ex->dir, d.holes);
	th_check(d.reenc_bad == 0 && d.reenc_ok > 20,
		 "%s: re-encryption with on-disk nonces gives the same bytes "
		 "(%ld blocks/names/targets, %ld differ)",
		 ex->dir, d.reenc_ok, d.reenc_bad);
	if (d.materialized > 0)
		printf("note: %s: %d symlinks are stored as regular files "
		       "holding the link text (copy without symlinks); decoded "
		       "as symlinks\n",
		       ex->dir, d.materialized);
	decoder_free(&d);

	/* 2: password from passfile.txt through config_unlock */
	parse_masterkey(want, ex->masterkey);
	if (decode_dir(&d, cdir, NULL, pass, got) != 0) {
		th_fail("%s: unlock with passfile.txt", ex->dir);
		return;
	}
	th_check(memcmp(want, got, 32) == 0,
		 "%s: password unlock gives the FORMAT.md master key", ex->dir);
	compare_manifest(&d, man, ex->dir);
	decoder_free(&d);
	ct_wipe(got, sizeof(got));
}

/* Write buf[0..len-1] to path (created, mode 0600). */
static int spit(const char *path, const uint8_t *buf, size_t len)
{
	FILE *f = fopen(path, "wb");
	int ok;

	if (f == NULL)
		return -1;
	ok = fwrite(buf, 1, len, f) == len;
	return (fclose(f) == 0 && ok) ? 0 : -1;
}

/* Copy cipherdir entry src/name to dst/newname, flipping bit `flip` of
 * the content when flip >= 0. */
static int copy_entry(const char *src, const char *name, const char *dst,
		      const char *newname, long flip)
{
	char a[8300], b[8300];
	size_t len = 0;
	uint8_t *buf;
	int rc;

	fmt(a, sizeof(a), "%s/%s", src, name);
	fmt(b, sizeof(b), "%s/%s", dst, newname);
	buf = slurp(a, 1 << 20, &len);
	if (buf == NULL)
		return -1;
	if (flip >= 0 && (size_t)flip / 8 < len)
		buf[flip / 8] ^= (uint8_t)(1U << (flip % 8));
	rc = spit(b, buf, len);
	free(buf);
	return rc;
}

/*
 * Corrupt copies: a bit flip in a content block, or in an encrypted name,
 * must never yield plaintext; the decoder reports an error and shows
 * nothing for that entry, while an intact neighbour still decodes.
 */
static void check_tamper(const char *masterkey)
{
	static const char *const files[] = {
		"gocryptfs.conf", "gocryptfs.diriv", "ITumMIJ3RWIwKyIcsFp6Aw",
		"eNjOyPquWmyHW55Neul92g", "zIcJaafnrmx2Nhnqn9b_FA"
	};
	char src[4096], tmp[] = "/tmp/vcryptfs-ex-XXXXXX", path[8300];
	struct decoder d;
	int ok = 1;

	fmt(src, sizeof(src), "%s/examples/gocryptfs-2.3-aesgcm/cipherdir",
	    th_shared_dir());
	if (mkdtemp(tmp) == NULL) {
		th_fail("tamper: mkdtemp");
		return;
	}
	ok &= copy_entry(src, files[0], tmp, files[0], -1) == 0;
	ok &= copy_entry(src, files[1], tmp, files[1], -1) == 0;
	/* hello.txt: one ciphertext bit (byte 18 + 16 + 3) */
	ok &= copy_entry(src, files[2], tmp, files[2], 37 * 8 + 4) == 0;
	ok &= copy_entry(src, files[3], tmp, files[3], -1) == 0;
	/* cross4096.bin under a name with one changed character */
	ok &= copy_entry(src, files[4], tmp, "zIcJaafnrmx2Nhnqn9b_FB", -1) == 0;
	if (!ok) {
		th_fail("tamper: copying example files");
	} else if (decode_dir(&d, tmp, masterkey, NULL, NULL) != 0) {
		th_fail("tamper: decoder setup");
	} else {
		th_check(d.errors == 2 && d.n == 1 &&
				 strcmp(d.e[0].path, "empty.txt") == 0,
			 "tamper: flipped content bit and altered name -> "
			 "both undecryptable, nothing shown (%d errors, %zu "
			 "entries)",
			 d.errors, d.n);
		decoder_free(&d);
	}
	for (size_t i = 0; i < 4; i++) {
		fmt(path, sizeof(path), "%s/%s", tmp, files[i]);
		unlink(path);
	}
	fmt(path, sizeof(path), "%s/zIcJaafnrmx2Nhnqn9b_FB", tmp);
	unlink(path);
	if (rmdir(tmp) != 0)
		th_fail("tamper: cleanup %s", tmp);
}

static int print_manifest(const char *dir, const char *a, const char *b)
{
	struct decoder d;
	int passfile = strcmp(a, "-passfile") == 0;

	if (passfile && b == NULL)
		return 2;
	verbose_errs = 1;
	if (decode_dir(&d, dir, passfile ? NULL : a, passfile ? b : NULL,
		       NULL) != 0)
		return 1;
	for (size_t i = 0; i < d.n; i++)
		printf("%s\n", d.e[i].line);
	fprintf(stderr,
		"decoder: %zu entries, %d errors, %d hole blocks, "
		"re-encryption %ld ok, %ld differ\n",
		d.n, d.errors, d.holes, d.reenc_ok, d.reenc_bad);
	{
		int rc = (d.errors == 0 && d.reenc_bad == 0) ? 0 : 1;

		decoder_free(&d);
		ossl_aead_thread_cleanup();
		return rc;
	}
}

static void run_example(const void *arg)
{
	check_example(arg);
}

static void run_tamper(const void *arg)
{
	check_tamper(((const struct example *)arg)->masterkey);
}

int main(int argc, char **argv)
{
	static const struct example ex[] = {
		{ "gocryptfs-2.3-aesgcm",
		  "de591921-23be4ef3-80b8e19e-3e77ecb0-9349fa48-ebe28b53-"
		  "e098c84a-02065604",
		  "ITumMIJ3RWIwKyIcsFp6Aw", 63 },
		{ "gocryptfs-2.3-xchacha",
		  "678ed40f44831fef7e1b60a87dce50233a4105e4d3a07eadd45782b2110d"
		  "c03e",
		  "AK0KKKR6Cb41Uav6nYg25Q", 71 },
	};
	/* one row per example directory (named after it), then the tamper
	 * test on the first one's key */
	const struct th_test unit_tests[] = {
		{ ex[0].dir, NULL, 0, run_example, &ex[0] },
		{ ex[1].dir, NULL, 0, run_example, &ex[1] },
		{ "tamper", NULL, 0, run_tamper, &ex[0] },
	};

	if (argc >= 3 && argv[1][0] != '-')
		return print_manifest(argv[1], argv[2],
				      argc > 3 ? argv[3] : NULL);
	th_run(argc, argv, unit_tests, TH_COUNT(unit_tests));
	ossl_aead_thread_cleanup();
	return th_exit();
}
