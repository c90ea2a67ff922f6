/* SPDX-License-Identifier: MIT */
/*
 * The backing file of the read-path fuzz targets (fuzz_read_blocks,
 * fuzz_parse_size): in a fresh temporary directory, the inode table rooted
 * there, the fuse state set up for the AES-GCM example volume, and one
 * file opened read-write with its inode; then the file and the directory
 * are unlinked at once (the read path works on descriptors only, so
 * nothing stays behind on disk). Once per process. Test code only.
 * Depends on: fuse/fs.h, fuse/inode.h, fuzz_volume.h.
 */
#ifndef VCRYPTFS_FUZZ_BACKING_H
#define VCRYPTFS_FUZZ_BACKING_H

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuse/fs.h"
#include "fuse/inode.h"
#include "fuzz_util.h"
#include "fuzz_volume.h"

/* dir: a directory just made (mkdtemp). Sets *fd (read-write) and returns
 * the file's inode; a failure is a crash with its reason. */
static struct inode *fz_backing(const char *dir, int *fd)
{
	char path[4096];
	struct stat st;
	struct inode *in;
	int rootfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	int pfd;

	FZ_CHECK(rootfd >= 0, "open temp dir");
	memset(&fs, 0, sizeof(fs));
	fs.vol = fz_volume(FZV_GCM);
	FZ_CHECK(inode_table_init(rootfd) == 0, "inode_table_init");
	(void)snprintf(path, sizeof(path), "%s/f", dir);
	*fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	pfd = open(path, O_PATH | O_CLOEXEC);
	FZ_CHECK(*fd >= 0 && pfd >= 0 && fstat(pfd, &st) == 0, "backing file");
	in = inode_get(pfd, &st);
	FZ_CHECK(in != NULL, "inode_get");
	(void)unlink(path);
	(void)rmdir(dir);
	return in;
}

#endif
