/* SPDX-License-Identifier: MIT */
/*
 * Private state of the reverse-mode daemon (see reverse.h): the node
 * table (rv_inode.c), the view's names (rv_names.c), sealed contents
 * (rv_read.c), the exclusion patterns (exclude.c), the FUSE operations
 * (rv_ops.c) and the session (rv_mount.c).
 * Race-free like the forward mount: every node holds an O_PATH descriptor
 * of its plaintext object, every access is an *at() call relative to one,
 * and nothing assumes the plaintext tree stays as it was: a lookup opens
 * the entry again and a node whose object changed is a new node.
 * Spec: ../shared/FORMAT.md section 9. Not proved.
 */
#ifndef VCRYPTFS_REVERSE_RV_H
#define VCRYPTFS_REVERSE_RV_H

#define FUSE_USE_VERSION 34
#include <fuse_lowlevel.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "format/content.h"
#include "format/names.h"
#include "format/volume.h"

#define RV_CONF_REVERSE ".gocryptfs.reverse.conf"
#define RV_ID_LEN 16

/* What a node of the view is. */
enum rv_kind {
	RV_REAL = 1, /* a plaintext object under its encrypted name */
	RV_DIRIV,    /* virtual gocryptfs.diriv of its parent directory */
	RV_NAMEFILE, /* virtual gocryptfs.longname.<hash>.name */
	RV_CONF,     /* .gocryptfs.reverse.conf shown as gocryptfs.conf */
};

struct rv_node {
	struct rv_node *next; /* hash chain (rv_inode.c) */
	uint64_t nlookup;     /* the kernel's references */
	enum rv_kind kind;
	/* O_PATH|O_NOFOLLOW: the plaintext object (RV_REAL, RV_CONF), or the
	 * directory a virtual file lives in (RV_DIRIV, RV_NAMEFILE) */
	int fd;
	dev_t dev; /* of the plaintext object at lookup time */
	ino_t ino;
	mode_t type;   /* S_IFMT bits */
	int empty;     /* -one-file-system: a mount point, shown empty */
	char *cpath;   /* path in the view, no leading '/', "" = root */
	char *ppath;   /* plaintext path, same rules */
	uint8_t *data; /* content of a virtual file */
	size_t dlen;
};

struct rv_exclude;

/* Set by reverse_run() before the session starts; read-only after. */
struct rv_fs {
	const struct volume *vol;
	int rootfd; /* O_PATH of the plaintext root */
	dev_t rootdev;
	double timeout; /* entry and attribute timeout */
	int config_custom, one_file_system, allow_other, debug;
	struct rv_exclude *ex; /* NULL: nothing excluded */
};
extern struct rv_fs rv;

/* ---- derived values (rv_names.c), FORMAT.md 9.3 ---- */
/* out = first 16 bytes of SHA-256(cpath || 0x00 || purpose). */
void rv_derive(uint8_t out[16], const char *cpath, const char *purpose);
/* "a/b", or b when a is "" (malloc'd; NULL on ENOMEM). */
char *rv_join(const char *a, const char *b);

/* ---- node table (rv_inode.c) ---- */
int rv_table_init(int rootfd);
void rv_table_free(void);
struct rv_node *rv_node_of(fuse_ino_t ino);
fuse_ino_t rv_ino_of(const struct rv_node *n);
/*
 * The node for (kind, cpath, dev, ino): the existing one, or a new one
 * that takes fd, ppath and data (on success they belong to the table;
 * on an existing node they are freed here). nlookup + 1. NULL on ENOMEM
 * (fd, ppath, data freed).
 */
struct rv_node *rv_node_get(enum rv_kind kind, const char *cpath, char *ppath,
			    int fd, const struct stat *st, uint8_t *data,
			    size_t dlen, int empty);
void rv_node_forget(struct rv_node *n, uint64_t nlookup);

/* ---- names (rv_names.c) ---- */
/* Directory IV of the view directory d (zero IV without DirIV). */
void rv_dir_iv(const struct rv_node *d, uint8_t iv[16]);

struct rv_dirent {
	char *name; /* in the view */
	mode_t type;
	ino_t ino;
};
struct rv_dir {
	struct rv_dirent *e;
	size_t n, cap;
};
/* The listing of view directory d (".", ".." first). 0 / -errno. */
int rv_list(const struct rv_node *d, struct rv_dir *out);
void rv_dir_free(struct rv_dir *dir);

/* What a view name in directory d stands for (rv_resolve). */
struct rv_res {
	enum rv_kind kind;
	char pname[NAMES_MAX + 1]; /* RV_REAL, RV_CONF: plaintext name */
	char enc[NAMES_BUF];	   /* RV_NAMEFILE: the full encrypted name */
};
/* 0, -ENOENT (no such entry, excluded, hidden) or -errno. */
int rv_resolve(const struct rv_node *d, const char *cname, struct rv_res *r);

/* Convert the stat of a plaintext object into the view's (sizes of
 * files and symlinks, inode numbers of virtual files). 0 / -errno. */
int rv_stat(const struct rv_node *n, struct stat *st);
/* The view's symlink target of node n (NUL-terminated in out, cap >=
 * NAMES_SYMLINK_MAX + 1). Returns the length or -errno. */
ssize_t rv_readlink(const struct rv_node *n, char *out, size_t cap);

/* ---- exclusions (exclude.c), gocryptfs's gitignore-like rules ---- */
struct reverse_opts;
/* 0, or an exit code (29) after printing why; *out NULL when empty. */
int rv_exclude_new(const struct reverse_opts *o, struct rv_exclude **out);
void rv_exclude_free(struct rv_exclude *ex);
/* 1 when the plaintext path (relative, no leading '/') is excluded. */
int rv_excluded(const struct rv_exclude *ex, const char *ppath);

/* ---- contents (rv_read.c) ---- */
struct rv_file;
/* Open node n for reading. 0 / -errno. */
int rv_file_open(struct rv_node *n, struct rv_file **out);
void rv_file_close(struct rv_file *f);
/* Read the view bytes [off, off + size) into a buffer owned by the
 * calling thread (*out). Returns the byte count or -errno. */
ssize_t rv_file_read(struct rv_file *f, size_t size, off_t off, char **out);
/* Free the table of hard-linked files' IVs (at unmount). */
void rv_links_free(void);
/* View size of the open file (plaintext size converted). */
int rv_file_size(struct rv_file *f, off_t *size);

/* ---- FUSE operations (rv_ops.c) ---- */
const struct fuse_lowlevel_ops *rv_ops(void);

#endif
