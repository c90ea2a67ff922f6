/* SPDX-License-Identifier: MIT */
/*
 * SEEK_DATA / SEEK_HOLE in plaintext offsets (fs_content_seek, rw.h),
 * from the holes of the backing file.
 * Spec: ../shared/FORMAT.md 4.7 (holes), 4.8. Depends on: fuse/rw_int.h
 * (format/content.h, fuse/inode.h). Not proved.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuse/rw.h"
#include "fuse/rw_int.h"

/* lseek on the backing fd: the result, or -errno (ENXIO: none). */
static off_t backing_seek(int fd, off_t at, int whence)
{
	off_t r = lseek(fd, at, whence);

	return r < 0 ? -errno : r;
}

off_t fs_content_seek(int fd, off_t off, int whence)
{
	off_t size = 0;
	off_t csize = 0;
	uint64_t k;
	int rc = rw_csize(fd, &csize);

	if (rc != 0)
		return rc;
	size = (off_t)content_cipher_to_plain_size(fs.vol->cipher,
						   (uint64_t)csize);
	if (off < 0 || off >= size)
		return -ENXIO;
	if (whence == SEEK_DATA) {
		/* Blocks wholly before the first backing data byte are holes
		 * (zeros); the block holding that byte starts the data. */
		off_t r = backing_seek(fd, rw_block_off((uint64_t)(off / BS)),
				       SEEK_DATA);

		if (r < 0)
			return r;
		if (r >= csize)
			return -ENXIO;
		k = r <= HDR ? 0 : (uint64_t)((r - HDR) / rw_cbs());
		return (off_t)k * BS > off ? (off_t)k * BS : off;
	}
	/* SEEK_HOLE: the first block at or after off that lies entirely in
	 * a backing hole (it reads as zeros), else the end of the file. */
	k = (uint64_t)(off / BS);
	while ((off_t)k * BS < size) {
		off_t start = rw_block_off(k);
		off_t h = backing_seek(fd, start, SEEK_HOLE);
		off_t d;

		if (h < 0)
			return h;
		if (h >= csize)
			break;
		if (h > start)
			k = (uint64_t)((h - HDR + rw_cbs() - 1) / rw_cbs());
		start = rw_block_off(k);
		if ((off_t)k * BS >= size)
			break;
		d = backing_seek(fd, start, SEEK_DATA);
		if (d == -ENXIO || (d >= 0 && d >= start + rw_cbs()))
			return (off_t)k * BS > off ? (off_t)k * BS : off;
		if (d < 0)
			return d;
		k = (uint64_t)((d - HDR) / rw_cbs()) + 1;
	}
	return size;
}
