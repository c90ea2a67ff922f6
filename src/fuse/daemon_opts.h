/* SPDX-License-Identifier: MIT */
/*
 * The command-line options that the forward daemon (fuse/mount.h) and the
 * reverse daemon (reverse/reverse.h) take alike. Plain data: no libfuse
 * header, so cli/ can fill it without one. Spec: ../shared/FORMAT.md
 * sections 12.1 and 13.5. Not proved.
 */
#ifndef VCRYPTFS_FUSE_DAEMON_OPTS_H
#define VCRYPTFS_FUSE_DAEMON_OPTS_H

/* What both daemons take from the command line alike (cli/main.c fills
 * it once for either; struct mount_opts and struct reverse_opts hold it
 * as their member d). */
struct daemon_opts {
	const char *mountpoint; /* absolute path */
	int foreground;		/* -fg */
	int allow_other;	/* -allow_other */
	int nosyslog;		/* -nosyslog */
	int sharedstorage;	/* -sharedstorage */
	int fusedebug;		/* -fusedebug */
	int debug;		/* -d */
	int quiet;		/* -q */
	int nouring;		/* -nouring: never FUSE over io_uring */
	int notifypid;		/* -notifypid, 0 if none */
	const char *ko;		/* -ko kernel options, or NULL */
	const char *kflags;	/* "nodev,nosuid,exec" and the like, or NULL */
	const char *fsname;	/* -fsname, or NULL (default: the source dir) */
};

#endif
