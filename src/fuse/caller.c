/* SPDX-License-Identifier: MIT */
/*
 * The caller's identity for creations under -allow_other as root: see
 * caller.h.
 * Spec: gocryptfs' behaviour (creations run as the caller).
 * Depends on: libfuse3 (fuse_req_ctx, fuse_req_getgroups), libc, log.h,
 * fuse/fs.h (the -allow_other option). fsuid/fsgid are per thread: no
 * shared state. Not proved.
 */
#include "fuse/caller.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fuse/fs.h"
#include "base/log.h"

int caller_begin(fuse_req_t req, struct caller *c)
{
	const struct fuse_ctx *ctx;
	gid_t groups[CALLER_GROUPS];
	int n;

	c->active = 0;
	if (!fs.allow_other || geteuid() != 0)
		return 0;
	ctx = fuse_req_ctx(req);
	if (ctx->uid == 0 && ctx->gid == 0)
		return 0;
	n = fuse_req_getgroups(req, CALLER_GROUPS, groups);
	if (n < 0)
		n = 0;
	if (n > CALLER_GROUPS)
		n = CALLER_GROUPS;
	c->ngroups = getgroups(CALLER_GROUPS, c->groups);
	if (c->ngroups < 0)
		return -errno;
	/* the raw syscalls change this thread only (glibc's setgroups()
	 * would change every thread of the daemon) */
	if (syscall(SYS_setgroups, (size_t)n, groups) != 0)
		return -errno;
	(void)setfsgid(ctx->gid);
	(void)setfsuid(ctx->uid);
	if ((uid_t)setfsuid((uid_t)-1) != ctx->uid ||
	    (gid_t)setfsgid((gid_t)-1) != ctx->gid) {
		c->active = 1;
		caller_end(c);
		return -EPERM;
	}
	c->active = 1;
	return 0;
}

void caller_end(struct caller *c)
{
	if (!c->active)
		return;
	(void)setfsuid(0);
	(void)setfsgid(0);
	if (syscall(SYS_setgroups, (size_t)c->ngroups, c->groups) != 0 ||
	    setfsuid((uid_t)-1) != 0 || setfsgid((gid_t)-1) != 0) {
		/* never serve further requests with a caller's identity */
		log_error("cannot restore the daemon's identity: %s",
			  strerror(errno));
		abort();
	}
	c->active = 0;
}
