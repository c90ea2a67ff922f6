/* SPDX-License-Identifier: MIT */
/*
 * System-call wrappers for the FUSE layer: *at() calls that retry on
 * EINTR and return 0 / -errno, O_PATH reopen through /proc/self/fd, small
 * file readers for gocryptfs.diriv and long-name .name files, a thread's
 * scheduling reset.
 * Spec: ../shared/FORMAT.md sections 5.4 (diriv) and 5.7 (.name files).
 * Depends on libc only; format/ and crypto/ never include it. Not proved.
 */
#ifndef VCRYPTFS_SYS_H
#define VCRYPTFS_SYS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

/* The calling thread back to the process's defaults: the normal policy
 * (SCHED_OTHER) and the CPUs the main thread may run on. For threads that
 * a pinned SCHED_IDLE ring thread starts or that leave that mode
 * (fuse/par.c, fuse/uring_reader.c): a new thread inherits both. */
void sys_thread_normal(void);
/* openat with O_CLOEXEC added; returns the fd or -errno. */
int sys_openat(int dirfd, const char *name, int flags, mode_t mode);
/* Open the object behind an fd (O_PATH or not) again with flags (O_CREAT,
 * O_EXCL and O_NOFOLLOW dropped; O_NOATIME dropped when refused);
 * returns the fd or -errno. */
int sys_reopen(int opath_fd, int flags);
/* "/proc/self/fd/N" for fd into buf (>= 32 bytes). */
void sys_procpath(int fd, char *buf, size_t bufsz);
/* fstatat(fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW). 0 / -errno. */
int sys_fstat_empty(int fd, struct stat *st);
/* Full pread/pwrite with EINTR retry: count (short only at EOF) or
 * -errno. */
ssize_t sys_pread_full(int fd, void *buf, size_t len, off_t off);
ssize_t sys_pwrite_full(int fd, const void *buf, size_t len, off_t off);
/* Open name in dirfd for reading, never blocking and never following a
 * symlink: a FIFO, device or socket planted in the cipher dir where
 * gocryptfs.diriv or a .name file belongs would otherwise hang the reader
 * (or open a device). Anything but a regular file (a symlink included) is
 * -EIO, checked before the open (fstatat) and on the fd (O_NONBLOCK |
 * O_NOFOLLOW, then fstat). Returns the fd or -errno. */
int sys_open_regular(int dirfd, const char *name);
/* Read gocryptfs.diriv in dirfd (sys_open_regular): at most 17 bytes,
 * exactly 16 required, not all zero. 0, -EIO (bad content) or -errno. */
int sys_read_diriv(int dirfd, uint8_t iv[16]);
/* Create gocryptfs.diriv (0444, O_EXCL) holding iv. 0 / -errno. */
int sys_write_diriv(int dirfd, const uint8_t iv[16]);
/* Read a small file name in dirfd (sys_open_regular) into buf (max + 2
 * bytes; result is NUL-terminated), at most max bytes of content; a longer
 * or empty file is -EIO. Returns the length. */
ssize_t sys_read_small(int dirfd, const char *name, char *buf, size_t max);
/* Create name in dirfd with O_EXCL and mode, write len bytes, close.
 * 0 / -errno (-EEXIST when it exists). */
int sys_write_new(int dirfd, const char *name, const void *buf, size_t len,
		  mode_t mode);

#endif
