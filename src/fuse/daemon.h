/* SPDX-License-Identifier: MIT */
/*
 * The process around a FUSE session, shared by the forward daemon
 * (fuse/mount.c) and the reverse daemon (reverse/rv_mount.c): the libfuse
 * arguments, gocryptfs's background mode (the parent waits for the
 * child's "mounted" byte or its exit code), the signal thread that
 * unmounts on SIGINT/SIGTERM/SIGHUP, and the small process settings.
 * What a daemon serves (its tables and op vector) stays with it.
 * Spec: ../shared/FORMAT.md 11, 12.1, 13.5. Not proved.
 */
#ifndef VCRYPTFS_FUSE_DAEMON_H
#define VCRYPTFS_FUSE_DAEMON_H

#define FUSE_USE_VERSION 34
#include <fuse_lowlevel.h>

/*
 * args = "vcryptfs [-d] -o fsname=NAME,subtype=SUBTYPE EXTRA[,KFLAGS][,KO]"
 * (no spaces): NAME is fsname with every ',' replaced by '_'; EXTRA is
 * appended as it is (each option preceded by a ','); KFLAGS (-dev, -suid,
 * -exec and the like) and KO (-ko, last: it may override what comes
 * before) get a ',' each. Any of the three may be NULL or "". 0, or -1 when it does not fit.
 */
int daemon_fuse_args(struct fuse_args *args, const char *fsname,
		     const char *subtype, const char *extra, const char *kflags,
		     const char *ko, int fusedebug);

/* Raise the soft RLIMIT_NOFILE to the hard one; the soft limit now in
 * force (0 if unknown). */
unsigned long daemon_raise_nofile(void);

/* Unmount mp from outside the loop (MNT_DETACH, else fusermount3 -u -z),
 * so that every worker sees ENODEV. */
void daemon_lazy_unmount(const char *mp);

/* Tell the waiting parent (*fd >= 0) the exit code, once; then *fd = -1. */
void daemon_report(int *fd, int code);

/*
 * The session is mounted: tell the waiting parent (*notify >= 0; then the
 * log goes to syslog unless nosyslog, and stdio is detached) or print
 * "Filesystem mounted and ready." in the foreground unless quiet; then
 * SIGUSR1 to notifypid when it is > 0 (-notifypid).
 */
void daemon_mounted(int *notify, int nosyslog, int quiet, int notifypid);

/* After the parent was told: stdin (and, when logging goes to syslog,
 * stdout and stderr) to /dev/null. */
void daemon_detach_stdio(int nosyslog);

/*
 * Block SIGINT, SIGTERM, SIGHUP and SIGUSR2 in the calling thread (and so
 * in every thread started after) and start the thread that, on one of
 * the first three, ends session s and unmounts mp. 0 or -1.
 */
int daemon_signals_start(struct fuse_session *s, const char *mp);
/* Stop that thread; 1 when a signal ended the session, else 0. */
int daemon_signals_stop(void);

/*
 * Run serve(arg, notify) in the foreground (notify -1), or as gocryptfs
 * does: fork, the child (memory locks taken again, its own session, cwd
 * /, syslog opened) serves and calls serve's daemon_report(&notify, ...)
 * once mounted; the parent returns that code (EXIT_OK after printing
 * "Filesystem mounted and ready." unless quiet) or the child's exit
 * status. wipe(arg), when not NULL, runs in every process once it no
 * longer needs the keys.
 */
int daemon_run(int foreground, int quiet, int (*serve)(void *arg, int notify),
	       void (*wipe)(void *arg), void *arg);

#endif
