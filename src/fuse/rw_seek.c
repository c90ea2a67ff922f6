/* SPDX-License-Identifier: MIT */
/*
 * SEEK_DATA / SEEK_HOLE in plaintext offsets (fs_content_seek, rw.h),
 * from the holes of the backing file: a block is a hole when its
 * ciphertext is all zeros.
 * Spec: ../shared/FORMAT.md 4.7 (holes), 4.8. Depends on: fuse/rw_int.h
 * (format/content.h, fuse/inode.h), sys/sys.h. Not proved.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuse/rw.h"
#include "fuse/rw_int.h"
#include "sys/sys.h"

/* lseek on the backing fd: the result, or -errno (ENXIO: none). */
static off_t backing_seek(int fd, off_t at, int whence)
{
	off_t r = lseek(fd, at, whence);

	return r < 0 ? -errno : r;
}

/* 1 when ciphertext block k is all zeros (a hole: it reads as zeros),
 * 0 when not, or -errno. A block can be partly allocated: the backing
 * filesystem reports data or holes in its own block size, not ours. */
static int block_is_zero(int fd, uint64_t k)
{
	uint8_t b[CONTENT_PLAIN_BS + CONTENT_MAX_OVERHEAD];
	ssize_t n = sys_pread_full(fd, b, (size_t)rw_cbs(), rw_block_off(k));

	if (n < 0)
		return (int)n;
	for (ssize_t i = 0; i < n; i++)
		if (b[i] != 0)
			return 0;
	return 1;
}

/* SEEK_DATA and SEEK_HOLE in plaintext blocks: a block is data unless its
 * ciphertext is all zeros. The backing seek finds the candidates, one
 * block read settles a candidate that the backing block size splits, so
 * the answers are those of a plain file with the same writes (as long as
 * the plain filesystem's block size is 4096). */
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
	k = (uint64_t)(off / BS);
	if (whence == SEEK_DATA) {
		while ((off_t)k * BS < size) {
			off_t r = backing_seek(fd, rw_block_off(k), SEEK_DATA);
			uint64_t kd;

			if (r < 0)
				return r;
			if (r >= csize)
				return -ENXIO;
			kd = r <= HDR ? 0 : (uint64_t)((r - HDR) / rw_cbs());
			if (kd < k)
				kd = k;
			rc = block_is_zero(fd, kd);
			if (rc < 0)
				return rc;
			if (rc == 0)
				return (off_t)kd * BS > off ? (off_t)kd * BS
							    : off;
			k = kd + 1;
		}
		return -ENXIO;
	}
	while ((off_t)k * BS < size) {
		off_t start = rw_block_off(k);
		off_t d = backing_seek(fd, start, SEEK_DATA);
		off_t h;
		uint64_t kh;

		if (d == -ENXIO || (d >= 0 && d >= start + rw_cbs()))
			break;
		if (d < 0)
			return d;
		rc = block_is_zero(fd, k);
		if (rc < 0)
			return rc;
		if (rc == 1)
			break;
		h = backing_seek(fd, start, SEEK_HOLE);
		if (h < 0)
			return h;
		if (h >= csize)
			return size;
		kh = (uint64_t)((h - HDR) / rw_cbs());
		k = kh > k ? kh : k + 1;
	}
	if ((off_t)k * BS >= size)
		return size;
	return (off_t)k * BS > off ? (off_t)k * BS : off;
}
