/* SPDX-License-Identifier: MIT */
/*
 * Options that act on every request, installed as wrappers around the
 * operation table only when one of them is on, so that a plain mount
 * runs the table unchanged: -idle (time of the last request, count of
 * open files), -serialize_reads (one READ at a time), -noxattr (xattr
 * operations fail with ENOTSUP) and -d (one debug line per request).
 * Spec: ../shared/FORMAT.md 12.3. Not proved.
 */
#ifndef VCRYPTFS_FUSE_HOOKS_H
#define VCRYPTFS_FUSE_HOOKS_H

#include "fuse/fs.h"

/* Wrap ops in place when fs.idle > 0, fs.serialize_reads, fs.noxattr or
 * fs.debug (ops.c calls it last). */
void hooks_wrap(struct fuse_lowlevel_ops *ops);

/*
 * -idle: start a thread that calls unmount() once no request came for
 * fs.idle seconds while no file or directory was open. 0 / -errno.
 * hooks_idle_stop() ends it (idempotent).
 */
int hooks_idle_start(void (*unmount)(void));
void hooks_idle_stop(void);

#endif
