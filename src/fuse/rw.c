/* SPDX-License-Identifier: MIT */
/*
 * The helpers the rw_*.c files share (rw_int.h): block offsets, the file
 * ID of an open file, one block read and authenticated, the EIO log line;
 * and fs_content_size(), fs_content_max() (rw.h).
 * Spec: ../shared/FORMAT.md 4.2, 4.3, 4.8. Depends on: fuse/rw_int.h
 * (format/content.h, fuse/inode.h), sys/sys.h, log.h. Not proved.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuse/rw.h"
#include "fuse/rw_int.h"
#include "base/log.h"
#include "sys/sys.h"

off_t rw_cbs(void)
{
	return (off_t)content_cipher_bs(fs.vol->cipher);
}

off_t rw_block_off(uint64_t b)
{
	return HDR + (off_t)b * rw_cbs();
}

off_t fs_content_max(void)
{
	return ((INT64_MAX - HDR) / rw_cbs() - 1) * BS;
}

int rw_csize(int fd, off_t *csize)
{
	struct stat st;

	if (fstat(fd, &st) != 0)
		return -errno;
	*csize = st.st_size;
	return 0;
}

/*
 * st_size of a torn file (1..17 backing bytes) stays 0, as gocryptfs
 * reports it and as content_cipher_to_plain_size() computes it: a size is
 * what ls, du, rsync and backup tools compare, and any other number would
 * be made up (no block exists). What shows the damage is the EIO at open
 * (fs_content_check_torn) and read (rw_fileid), and the log line.
 */
int fs_content_size(int fd, off_t *size)
{
	off_t c = 0;
	int rc = rw_csize(fd, &c);

	if (rc == 0)
		*size = (off_t)content_cipher_to_plain_size(fs.vol->cipher,
							    (uint64_t)c);
	return rc;
}

int fs_content_check_torn(struct inode *in, int fd)
{
	off_t c = 0;
	int rc = rw_csize(fd, &c);

	if (rc != 0)
		return rc;
	if (c <= 0 || c >= HDR)
		return 0;
	rw_log_torn(in, (ssize_t)c);
	return -EIO;
}

/*
 * File ID of the open file: 0, -ENODATA when it has no header yet (0
 * bytes: an empty file), -EIO for a bad header or a torn one (1..17 bytes:
 * no writer of gocryptfs or vcryptfs leaves that, a crash or a hostile
 * truncation does; gocryptfs reads it as empty, which hides the damage).
 * A write still repairs it: rw_write.c's ensure_header() writes a fresh
 * header over it, as gocryptfs does.
 */
int rw_fileid(struct inode *in, int fd, uint8_t fileid[16])
{
	uint8_t hdr[HEADER_LEN];
	ssize_t n;

	if (inode_fileid_get(in, fileid))
		return 0;
	n = sys_pread_full(fd, hdr, sizeof(hdr), 0);
	if (n < 0)
		return (int)n;
	if (n == 0)
		return -ENODATA;
	if ((size_t)n < sizeof(hdr)) {
		rw_log_torn(in, n);
		return -EIO;
	}
	if (header_parse(fileid, hdr) != 0) {
		log_error("bad file header in inode %lu",
			  (unsigned long)in->ino);
		return -EIO;
	}
	inode_fileid_set(in, fileid);
	return 0;
}

/*
 * The file-ID cache rule (issue 22). inode->fileid keeps the file ID of
 * the header, so a read costs no header read. Another writer of the cipher
 * directory (a second mount, gocryptfs, a sync tool's in-place update) can
 * truncate and rewrite the file in place: same inode, a new header, a new
 * file ID, and with the old ID every block fails authentication (EIO),
 * where gocryptfs, which keeps the ID only while the file is open, reads
 * the new content.
 *
 * Rule: the cached ID is compared with the header on disk at every open
 * (fs_open, mounts without -sharedstorage; -sharedstorage drops the cache
 * there outright) and once more when a read finds a block that fails
 * authentication (a reader that kept the file open over the rewrite); on a
 * mismatch the cache is dropped and the read tried again, once. A block
 * that still fails is EIO, as before.
 *
 * Why the header bytes and not ctime, size or the inode generation: the
 * generation is not in stat (an ext4 ioctl only, absent on tmpfs, sshfs,
 * NFS); sshfs speaks SFTP v3, whose attributes have mtime in whole seconds
 * and no ctime, so a same-size rewrite within one second changes no stat
 * field; and a sync tool (rsync -t, unison) sets the old mtime back. The
 * 18 header bytes are what decides, and reading them costs one small pread
 * per open, mostly from the page cache that the open's readahead fills.
 *
 * Dropping the cache is always safe: a writer of this mount writes the
 * header before it caches the ID, so the next rw_fileid() reads the ID
 * the file has. Returns 1 when the cache was dropped, 0 when it was right
 * (or empty).
 */
int fs_fileid_recheck(struct inode *in, int fd)
{
	uint8_t hdr[HEADER_LEN];
	uint8_t cached[16];
	uint8_t now[16];
	ssize_t n;

	if (!inode_fileid_get(in, cached))
		return 0;
	n = sys_pread_full(fd, hdr, sizeof(hdr), 0);
	if (n == (ssize_t)sizeof(hdr) && header_parse(now, hdr) == 0 &&
	    memcmp(now, cached, sizeof(now)) == 0)
		return 0;
	inode_fileid_clear(in);
	return 1;
}

/* Say once per inode (inode->warned, shared with the other damage lines)
 * that its header is torn. */
void rw_log_torn(struct inode *in, ssize_t csize)
{
	int first;

	pthread_mutex_lock(&in->meta);
	first = !in->warned;
	in->warned = 1;
	pthread_mutex_unlock(&in->meta);
	if (first)
		log_error("truncated file header (%zd bytes) in inode %lu: "
			  "reads fail with EIO",
			  csize, (unsigned long)in->ino);
}

void rw_log_eio(struct inode *in, uint64_t block)
{
	int first;

	pthread_mutex_lock(&in->meta);
	first = !in->warned;
	in->warned = 1;
	pthread_mutex_unlock(&in->meta);
	if (first)
		log_error("authentication failed: inode %lu block %llu",
			  (unsigned long)in->ino, (unsigned long long)block);
}

/* Open one block (content_block_open) into out: the plaintext length or
 * -EIO. */
int rw_block_open(const uint8_t *fileid, uint64_t b, const uint8_t *in,
		  size_t clen, uint8_t *out)
{
	size_t len = 0;

	if (content_block_open(fs.vol, out, &len, in, clen, b, fileid) != 0)
		return -EIO;
	return (int)len;
}

/* Decrypt block b of a file of csize ciphertext bytes into out (4096).
 * Returns the plaintext length (0 past the end) or -errno. */
int rw_read_block(struct inode *in, int fd, const uint8_t fileid[16],
		  uint64_t b, off_t csize, uint8_t *out)
{
	uint8_t cbuf[CONTENT_PLAIN_BS + CONTENT_MAX_OVERHEAD];
	off_t start = rw_block_off(b);
	size_t clen;
	ssize_t n;
	int rc;

	if (csize <= start)
		return 0;
	clen = (size_t)(csize - start < rw_cbs() ? csize - start : rw_cbs());
	n = sys_pread_full(fd, cbuf, clen, start);
	if (n < 0)
		return (int)n;
	rc = rw_block_open(fileid, b, cbuf, (size_t)n, out);
	if (rc < 0)
		rw_log_eio(in, b);
	return rc;
}
