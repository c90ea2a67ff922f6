/* SPDX-License-Identifier: MIT */
/*
 * The caller's identity for creations (FUSE worker threads): see below.
 * Spec: gocryptfs' -allow_other behaviour as root. Depends on: libfuse3,
 * libc. Thread-safety: per worker thread (fsuid, fsgid and groups are
 * thread attributes); struct caller lives on the worker's stack.
 */
#ifndef VCRYPTFS_FUSE_CALLER_H
#define VCRYPTFS_FUSE_CALLER_H

#define FUSE_USE_VERSION 34
#include <fuse_lowlevel.h>
#include <sys/types.h>

/*
 * -allow_other as root: creations run with the caller's identity, as in
 * gocryptfs (new objects get the caller's owner, the group of a setgid
 * directory, and the backing filesystem checks the caller's rights).
 * caller_begin() switches this worker thread's fsuid, fsgid and
 * supplementary groups to the caller of req (no-op otherwise: not root,
 * no -allow_other, or a root caller); caller_end() restores them.
 * Returns 0 / -errno; on error nothing changed.
 */
#define CALLER_GROUPS 256
struct caller {
	int active;
	int ngroups; /* the daemon's own groups, restored */
	gid_t groups[CALLER_GROUPS];
};
int caller_begin(fuse_req_t req, struct caller *c);
void caller_end(struct caller *c);

#endif
