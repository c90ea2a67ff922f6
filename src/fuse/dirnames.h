/* SPDX-License-Identifier: MIT */
/*
 * Names in a backing directory for the FUSE operations: the directory IV
 * (read once, cached in the inode under inode->meta), plaintext to on-disk
 * names (long names and their .name files), and -badname. Every function
 * takes the volume (and the -badname glob, NULL when off) as arguments,
 * so it runs without a mount.
 * Spec: ../shared/FORMAT.md 5.4, 5.7, 5.8, 5.10. Depends on:
 * format/names.h, fuse/inode.h, sys/sys.h. Not proved.
 * Thread-safety: reentrant; dirnames_iv() takes dir->meta.
 */
#ifndef VCRYPTFS_FUSE_DIRNAMES_H
#define VCRYPTFS_FUSE_DIRNAMES_H

#include <stddef.h>
#include <stdint.h>

#include "format/names.h"
#include "format/volume.h"
#include "fuse/inode.h"

/* One on-disk name for a plaintext name in a directory. */
struct cname {
	char enc[NAMES_BUF];  /* full encrypted name (E) */
	char disk[NAMES_BUF]; /* what is on disk: E or longname hash */
	int is_long;
};

/* The directory IV of dir (cached): 0 / -errno. Zero IV without DirIV. */
int dirnames_iv(const struct volume *v, struct inode *dir,
		uint8_t iv[NAMES_DIRIV_LEN]);
/* Encrypt name for directory dir. 0 / -errno (EPERM for the reserved
 * gocryptfs.conf in the root with PlaintextNames). */
int dirnames_cname(const struct volume *v, struct inode *dir, const char *name,
		   struct cname *out);
/* For a new entry: write the .name file of a long name first. 0/-errno;
 * an existing .name file is accepted. */
int dirnames_prepare(int dirfd, const struct cname *c);
/* Undo dirnames_prepare() after the creation failed. */
void dirnames_abort(int dirfd, const struct cname *c);
/* Remove the .name file after the object is gone. */
void dirnames_done(int dirfd, const struct cname *c);

/*
 * -badname GLOB (FORMAT.md 5.10). dirnames_badname_show(): the listed name of an
 * on-disk name disk that did not decrypt in a directory with IV iv: 0 and
 * out (>= 256 bytes) when disk matches the glob, else -1 (stays hidden).
 * dirnames_badname_resolve(): the on-disk name (disk, >= NAMES_BUF bytes)
 * that is listed as name in dir, when exactly one is; else -ENOENT.
 */
int dirnames_badname_show(const struct volume *v, const char *glob,
			  const uint8_t iv[NAMES_DIRIV_LEN], const char *disk,
			  char *out, size_t outsz);
int dirnames_badname_resolve(const struct volume *v, const char *glob,
			     struct inode *dir, const char *name, char *disk,
			     size_t disksz);

#endif
