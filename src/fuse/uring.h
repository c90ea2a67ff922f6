/* SPDX-License-Identifier: MIT */
/*
 * FUSE over io_uring: one ring per CPU, served by a thread pinned to that
 * CPU, under libfuse 3.14 as its custom I/O. Used when the kernel offers it
 * (Linux 6.14+, fuse module parameter enable_uring=Y) and -nouring is not
 * given; otherwise every request keeps coming through /dev/fuse.
 * Depends on libfuse and liburing. Not proved.
 */
#ifndef VCRYPTFS_FUSE_URING_H
#define VCRYPTFS_FUSE_URING_H

#include "fuse/fs.h"

/*
 * Install the I/O hooks on a mounted session, before its loop starts.
 * With allow == 0 the hooks pass everything through and never offer the
 * capability. Returns 0, or -1 when libfuse refused the hooks (the session
 * then works as before).
 */
int uring_install(struct fuse_session *se, int allow);

/* After the session loop has ended: stop and free the rings, if any. */
void uring_stop(void);

#endif
