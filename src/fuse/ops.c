/* SPDX-License-Identifier: MIT */
/*
 * The libfuse low-level operation table, assembled from ops_*.c, plus the
 * init callback (request sizes, capabilities).
 * Spec: ../shared/FORMAT.md 12.1 (mount defaults). Not proved.
 */
#include <string.h>

#include "fuse/fs.h"
#include "fuse/hooks.h"

/* 1 MiB writes (256 blocks per request) where the kernel allows more
 * pages per request (FUSE_MAX_PAGES, Linux 4.20+); older kernels cap the
 * request at 128 KiB themselves. */
#define MAX_WRITE (1024U * 1024U)

static void fs_init(void *userdata, struct fuse_conn_info *conn)
{
	(void)userdata;
	conn->max_write = MAX_WRITE;
	/* Every listing as READDIRPLUS, not only the first batch of each
	 * directory (the kernel's "auto" mode): a program that lists a tree
	 * and then opens its files (find | xargs cat) finds the entries and
	 * attributes cached instead of sending a LOOKUP per file. Kept auto
	 * with -sharedstorage, where nothing is cached. */
	if (fs.timeout > 0 && (conn->capable & FUSE_CAP_READDIRPLUS))
		conn->want &= ~(unsigned)FUSE_CAP_READDIRPLUS_AUTO;
	/* -acl: the kernel checks POSIX ACLs (with default_permissions) and
	 * applies default ACLs to new objects; the ACL xattrs pass through
	 * to the backing files as in gocryptfs (ops_xattr.c). */
	if (fs.acl && (conn->capable & FUSE_CAP_POSIX_ACL))
		conn->want |= FUSE_CAP_POSIX_ACL;
}

static struct fuse_lowlevel_ops table;

const struct fuse_lowlevel_ops *fs_ops(void)
{
	memset(&table, 0, sizeof(table));
	table.init = fs_init;
	fs_ops_entry(&table);
	fs_ops_dir(&table);
	fs_ops_file(&table);
	fs_ops_attr(&table);
	fs_ops_xattr(&table);
	/* Every WRITE reaches the backing file before it is answered, so the
	 * FLUSH sent on each close(2) has nothing to push: without the op the
	 * kernel stops sending it (one round trip less per file). Kept with
	 * -sharedstorage (timeout 0), where another mount may read next. */
	if (fs.timeout > 0)
		table.flush = NULL;
	hooks_wrap(&table);
	return &table;
}
