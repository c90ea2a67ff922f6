/* SPDX-License-Identifier: MIT */
/*
 * The names of the reverse view: derived directory IVs, encrypted names
 * (EME with the derived IV, long names hashed with a virtual .name file),
 * the virtual gocryptfs.diriv and gocryptfs.conf entries, listing and
 * lookup of a view name (long names by scanning the plaintext directory),
 * the view's stat and symlink targets (the SYMLINKIV quirk).
 * Spec: ../shared/FORMAT.md 9.2-9.5 (5 and 6 for the forward format).
 * Not proved.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "crypto/ossl_aead.h"
#include "format/b64.h"
#include "reverse/rv.h"
#include "sys/sys.h"

struct rv_fs rv;

void rv_derive(uint8_t out[16], const char *cpath, const char *purpose)
{
	size_t cl = strlen(cpath), pl = strlen(purpose);
	uint8_t h[32];
	uint8_t *m = malloc(cl + pl + 1);

	if (m == NULL) {
		/* cannot happen in practice; never return an unset IV */
		abort();
	}
	memcpy(m, cpath, cl);
	m[cl] = 0;
	memcpy(m + cl + 1, purpose, pl);
	ossl_sha256(h, m, cl + 1 + pl);
	memcpy(out, h, 16);
	free(m);
}

char *rv_join(const char *a, const char *b)
{
	size_t al = strlen(a), bl = strlen(b);
	char *s = malloc(al + bl + 2);

	if (s == NULL)
		return NULL;
	if (al == 0) {
		memcpy(s, b, bl + 1);
		return s;
	}
	memcpy(s, a, al + 1);
	s[al] = '/';
	memcpy(s + al + 1, b, bl + 1);
	return s;
}

static int plain_names(void)
{
	return (rv.vol->flags & VOL_PLAINTEXTNAMES) != 0;
}

static int is_root(const struct rv_node *d)
{
	return d->cpath[0] == '\0';
}

void rv_dir_iv(const struct rv_node *d, uint8_t iv[16])
{
	if (rv.vol->flags & VOL_DIRIV)
		rv_derive(iv, d->cpath, "DIRIV");
	else
		memset(iv, 0, 16);
}

static int add(struct rv_dir *dir, const char *name, mode_t type, ino_t ino)
{
	if (dir->n == dir->cap) {
		size_t nc = dir->cap ? dir->cap * 2 : 32;
		struct rv_dirent *ne = realloc(dir->e, nc * sizeof(*ne));
		if (ne == NULL)
			return -ENOMEM;
		dir->e = ne;
		dir->cap = nc;
	}
	dir->e[dir->n].name = strdup(name);
	if (dir->e[dir->n].name == NULL)
		return -ENOMEM;
	dir->e[dir->n].type = type;
	dir->e[dir->n].ino = ino;
	dir->n++;
	return 0;
}

void rv_dir_free(struct rv_dir *dir)
{
	for (size_t i = 0; i < dir->n; i++)
		free(dir->e[i].name);
	free(dir->e);
	memset(dir, 0, sizeof(*dir));
}

static int excluded_child(const struct rv_node *d, const char *name)
{
	char *p;
	int r;

	if (rv.ex == NULL)
		return 0;
	p = rv_join(d->ppath, name);
	if (p == NULL)
		return 1;
	r = rv_excluded(rv.ex, p);
	free(p);
	return r;
}

/* Could a plaintext name of len bytes have a hashed encrypted name? */
static int may_be_long(size_t len)
{
	size_t padded = (len / 16 + 1) * 16;

	return names_needs_long(rv.vol,
				b64_enc_len(padded, names_b64_flags(rv.vol)));
}

/* Encrypted name of plaintext name in d: *enc the full name, *disk what
 * the view shows (enc or its long-name hash), 1 when hashed. */
static int view_name(const uint8_t iv[16], const char *name,
		     char enc[NAMES_BUF], char disk[NAMES_BUF])
{
	int r = names_encrypt(rv.vol, iv, name, enc, NAMES_BUF);

	if (r != 0)
		return r;
	if (!names_needs_long(rv.vol, strlen(enc))) {
		memcpy(disk, enc, strlen(enc) + 1);
		return 0;
	}
	r = names_long_hash(rv.vol, enc, disk, NAMES_BUF);
	return r != 0 ? r : 1;
}

static DIR *open_dir(const struct rv_node *d, int *err)
{
	int fd = sys_reopen(d->fd, O_RDONLY | O_DIRECTORY);
	DIR *dp;

	if (fd < 0) {
		*err = fd;
		return NULL;
	}
	dp = fdopendir(fd);
	if (dp == NULL) {
		*err = -errno;
		close(fd);
	}
	return dp;
}

static int list_entry(const struct rv_node *d, const uint8_t iv[16],
		      const struct dirent *de, struct rv_dir *out)
{
	char enc[NAMES_BUF], disk[NAMES_BUF + sizeof(NAMES_LONG_SUFFIX)];
	mode_t type = (mode_t)DTTOIF(de->d_type);
	int r;

	if (excluded_child(d, de->d_name))
		return 0;
	if (is_root(d) && !rv.config_custom &&
	    strcmp(de->d_name, RV_CONF_REVERSE) == 0)
		return add(out, NAMES_CONF, S_IFREG, de->d_ino);
	if (plain_names()) {
		if (is_root(d) && !rv.config_custom &&
		    strcmp(de->d_name, NAMES_CONF) == 0) {
			/* shadowed by the config (FORMAT.md 9.2) */
			uint8_t rnd[8];
			char c[64];
			uint64_t u;
			ossl_random(rnd, sizeof(rnd));
			memcpy(&u, rnd, sizeof(u));
			(void)snprintf(c, sizeof(c),
				       NAMES_CONF "_NAME_COLLISION_%llu",
				       (unsigned long long)u);
			return add(out, c, type, de->d_ino);
		}
		return add(out, de->d_name, type, de->d_ino);
	}
	r = view_name(iv, de->d_name, enc, disk);
	if (r < 0)
		return 0; /* not a name gocryptfs can encrypt: not shown */
	if (r == 1) {
		size_t l = strlen(disk);
		r = add(out, disk, type, de->d_ino);
		memcpy(disk + l, NAMES_LONG_SUFFIX, sizeof(NAMES_LONG_SUFFIX));
		return r != 0 ? r : add(out, disk, S_IFREG, de->d_ino);
	}
	return add(out, disk, type, de->d_ino);
}

int rv_list(const struct rv_node *d, struct rv_dir *out)
{
	uint8_t iv[16];
	int r = 0;

	memset(out, 0, sizeof(*out));
	if (d->type != S_IFDIR)
		return -ENOTDIR;
	if (add(out, ".", S_IFDIR, d->ino) != 0 ||
	    add(out, "..", S_IFDIR, 0) != 0) {
		rv_dir_free(out);
		return -ENOMEM;
	}
	rv_dir_iv(d, iv);
	if (!d->empty) {
		DIR *dp = open_dir(d, &r);
		if (dp == NULL) {
			rv_dir_free(out);
			return r;
		}
		for (;;) {
			const struct dirent *de;
			errno = 0;
			de = readdir(dp);
			if (de == NULL) {
				r = -errno;
				break;
			}
			if (strcmp(de->d_name, ".") == 0 ||
			    strcmp(de->d_name, "..") == 0)
				continue;
			r = list_entry(d, iv, de, out);
			if (r != 0)
				break;
		}
		closedir(dp);
	}
	if (r == 0 && (rv.vol->flags & VOL_DIRIV))
		r = add(out, NAMES_DIRIV, S_IFREG, d->ino);
	if (r != 0)
		rv_dir_free(out);
	return r;
}

/* Find the plaintext entry of d whose hashed view name is hashed. */
static int scan_long(const struct rv_node *d, const char *hashed,
		     struct rv_res *r)
{
	char enc[NAMES_BUF], disk[NAMES_BUF];
	uint8_t iv[16];
	struct dirent *de;
	int err = -ENOENT;
	DIR *dp = open_dir(d, &err);

	if (dp == NULL)
		return err;
	rv_dir_iv(d, iv);
	err = -ENOENT;
	while ((de = readdir(dp)) != NULL) {
		size_t len = strlen(de->d_name);
		if (len > NAMES_MAX || !may_be_long(len))
			continue;
		if (view_name(iv, de->d_name, enc, disk) != 1 ||
		    strcmp(disk, hashed) != 0)
			continue;
		if (excluded_child(d, de->d_name))
			break;
		memcpy(r->pname, de->d_name, len + 1);
		memcpy(r->enc, enc, strlen(enc) + 1);
		err = 0;
		break;
	}
	closedir(dp);
	return err;
}

int rv_resolve(const struct rv_node *d, const char *cname, struct rv_res *r)
{
	uint8_t iv[16];
	size_t len = strlen(cname);
	int root_conf = is_root(d) && !rv.config_custom;

	memset(r, 0, sizeof(*r));
	if (d->type != S_IFDIR)
		return -ENOTDIR;
	r->kind = RV_REAL;
	if (!plain_names()) {
		if (strcmp(cname, NAMES_DIRIV) == 0) {
			r->kind = RV_DIRIV;
			return (rv.vol->flags & VOL_DIRIV) ? 0 : -ENOENT;
		}
		if (names_is_long_namefile(cname)) {
			char h[NAMES_BUF];
			size_t hl = len - strlen(NAMES_LONG_SUFFIX);
			if (hl >= sizeof(h) || d->empty)
				return -ENOENT;
			memcpy(h, cname, hl);
			h[hl] = '\0';
			r->kind = RV_NAMEFILE;
			return scan_long(d, h, r);
		}
	}
	if (root_conf && strcmp(cname, NAMES_CONF) == 0) {
		r->kind = RV_CONF;
		memcpy(r->pname, RV_CONF_REVERSE, sizeof(RV_CONF_REVERSE));
		return 0;
	}
	if (d->empty)
		return -ENOENT;
	if (plain_names()) {
		/* the view name is the plaintext name: one over NAME_MAX
		 * is what the plaintext dir (and gocryptfs) answer for it */
		if (len > NAMES_MAX)
			return -ENAMETOOLONG;
		if (root_conf && strcmp(cname, RV_CONF_REVERSE) == 0)
			return -ENOENT;
		memcpy(r->pname, cname, len + 1);
	} else if (names_is_long(cname)) {
		return scan_long(d, cname, r);
	} else {
		rv_dir_iv(d, iv);
		if (names_decrypt(rv.vol, iv, cname, r->pname,
				  sizeof(r->pname)) != 0)
			return -ENOENT;
		if (root_conf && strcmp(r->pname, RV_CONF_REVERSE) == 0)
			return -ENOENT;
	}
	if (excluded_child(d, r->pname))
		return -ENOENT;
	return 0;
}

/* A stable inode number for a virtual file: its view path, hashed, with
 * the top bit set (plaintext inode numbers do not reach it). */
static ino_t virtual_ino(const char *cpath)
{
	uint64_t h = 1469598103934665603ULL;

	for (const char *p = cpath; *p != '\0'; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ULL;
	return (ino_t)(h | (1ULL << 63));
}

int rv_stat(const struct rv_node *n, struct stat *st)
{
	int r = sys_fstat_empty(n->fd, st);

	if (r != 0)
		return r;
	if (n->kind == RV_DIRIV || n->kind == RV_NAMEFILE) {
		/* the directory's stat, as a 0444 file of the content's
		 * size (what gocryptfs 2.3 shows) */
		st->st_mode = S_IFREG | 0444;
		st->st_nlink = 1;
		st->st_size = (off_t)n->dlen;
		st->st_blocks = (blkcnt_t)((n->dlen + 511) / 512);
		st->st_ino = virtual_ino(n->cpath);
		return 0;
	}
	if (n->kind == RV_REAL && S_ISREG(st->st_mode)) {
		st->st_size = (off_t)content_plain_to_cipher_size(
			rv.vol->cipher, (uint64_t)st->st_size);
		/* the view is never sparse (FORMAT.md 9.6) */
		st->st_blocks = (blkcnt_t)(((uint64_t)st->st_size + 511) / 512);
	} else if (S_ISLNK(st->st_mode)) {
		char t[NAMES_SYMLINK_MAX + 1];
		ssize_t l = rv_readlink(n, t, sizeof(t));
		if (l < 0)
			return (int)l;
		st->st_size = (off_t)l;
	}
	return 0;
}

ssize_t rv_readlink(const struct rv_node *n, char *out, size_t cap)
{
	char t[PATH_MAX];
	uint8_t nonce[16];
	const char *base;
	char *p;
	ssize_t l;
	int r;

	l = readlinkat(n->fd, "", t, sizeof(t) - 1);
	if (l < 0)
		return -errno;
	t[l] = '\0';
	/* the quirk of FORMAT.md 9.5: the nonce comes from the symlink's
	 * view path, "/", and its view name once more */
	base = strrchr(n->cpath, '/');
	base = base != NULL ? base + 1 : n->cpath;
	p = rv_join(n->cpath, base);
	if (p == NULL)
		return -ENOMEM;
	rv_derive(nonce, p, "SYMLINKIV");
	free(p);
	r = names_symlink_encrypt(rv.vol, out, cap, (const uint8_t *)t,
				  (size_t)l, nonce);
	if (r != 0)
		return r;
	return (ssize_t)strlen(out);
}
