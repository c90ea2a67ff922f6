/* SPDX-License-Identifier: MIT */
/*
 * Mounting: what main.c hands to the FUSE layer once the volume is
 * unlocked. Spec: ../shared/FORMAT.md sections 12.1, 12.3 and 13.5.
 */
#ifndef VCRYPTFS_MOUNT_H
#define VCRYPTFS_MOUNT_H

#include "format/volume.h"
#include "fuse/daemon_opts.h"

struct mount_opts {
	struct daemon_opts d;  /* mount point, -fg, -allow_other, ... */
	const char *cipherdir; /* absolute path */
	int readonly;	       /* -ro */
	int nonempty;	       /* -nonempty */
	int noprealloc;	       /* -noprealloc */
	const char *badname;   /* -badname glob, or NULL */
	int kernel_cache;      /* -kernel_cache */
	int acl;	       /* -acl: POSIX ACLs enforced by the kernel */
	int serialize_reads;   /* -serialize_reads */
	int noxattr;	       /* -noxattr: xattr ops fail with ENOTSUP */
	int force_owner;       /* -force_owner given: report uid/gid below */
	unsigned owner_uid, owner_gid;
	double idle;	     /* -idle seconds, 0: never */
	const char *ctlsock; /* -ctlsock path, or NULL */
};

/* Mount and serve until unmounted. Takes ownership of vol's keys (wipes
 * them at exit). Returns a process exit code from exitcodes.h. */
int mount_run(const struct mount_opts *o, struct volume *vol);

struct fuse_session;
/* The session of the running mount (fuse/mount.c), NULL outside serve(). */
struct fuse_session *mount_session(void);

#endif
