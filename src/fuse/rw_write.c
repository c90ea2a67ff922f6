/* SPDX-License-Identifier: MIT */
/*
 * Plaintext writes and truncate (fs_content_write, fs_content_truncate,
 * rw.h): the header on first write, read-modify-write of partial blocks,
 * holes past the end, sealing over two cores, the boundary block of a
 * truncate re-encrypted. The caller holds inode->content exclusively.
 * Spec: ../shared/FORMAT.md 4.2, 4.3, 4.7, 4.8, 4.9. Depends on:
 * fuse/rw_int.h (format/content.h, fuse/inode.h), fuse/scratch.h,
 * fuse/par.h, sys/sys.h, secmem.h, log.h. fsize_limit: set once
 * (pthread_once). Not proved.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuse/par.h"
#include "fuse/rw.h"
#include "fuse/rw_int.h"
#include "fuse/scratch.h"
#include "base/log.h"
#include "base/secmem.h"
#include "sys/sys.h"

/* Make sure the file has a header; fills fileid. csize is updated. */
static int ensure_header(struct inode *in, int fd, off_t *csize,
			 uint8_t fileid[16])
{
	uint8_t hdr[HEADER_LEN];
	ssize_t n;

	if (*csize > HDR)
		return rw_fileid(in, fd, fileid);
	if (*csize > 0 && ftruncate(fd, 0) != 0)
		return -errno;
	content_header_new(hdr);
	n = sys_pwrite_full(fd, hdr, sizeof(hdr), 0);
	if (n < 0) {
		int rc = (int)n;

		if (ftruncate(fd, 0) != 0)
			log_error("cannot remove a torn header: %s",
				  strerror(errno));
		return rc;
	}
	(void)header_parse(fileid, hdr);
	inode_fileid_set(in, fileid);
	*csize = HDR;
	return 0;
}

/* Write plaintext blocks [first, first + nb) from pbuf (lengths: all
 * 4096 but the last, lastlen) in one pwrite. */
struct seal_job {
	const uint8_t *fileid;
	uint64_t first;
	const uint8_t *pbuf;
	uint8_t *cbuf;
	const uint8_t *nonces;
	size_t nb;
	size_t lastlen;
};

/* par_fn: seal blocks [i0, i1) of a seal_job. */
static int seal_range(void *arg, size_t i0, size_t i1)
{
	const struct seal_job *j = arg;
	size_t nl = content_nonce_len(fs.vol->cipher);

	for (size_t i = i0; i < i1; i++) {
		size_t len = i + 1 == j->nb ? j->lastlen : CONTENT_PLAIN_BS;

		if (content_block_seal(fs.vol, j->cbuf + i * (size_t)rw_cbs(),
				       j->pbuf + i * CONTENT_PLAIN_BS, len,
				       j->first + i, j->fileid,
				       j->nonces + i * nl) != 0)
			return -EIO;
	}
	return 0;
}

/* Write plaintext blocks [first, first + nb) from pbuf (lengths: all
 * 4096 but the last, lastlen) in one pwrite, sealed on both cores. */
static int seal_write(int fd, const uint8_t fileid[16], uint64_t first,
		      const uint8_t *pbuf, size_t nb, size_t lastlen)
{
	size_t clen = (nb - 1) * (size_t)rw_cbs() + lastlen +
		      content_overhead(fs.vol->cipher);
	struct scratch *sc = scratch_blocks(nb);
	struct seal_job j;
	ssize_t n;
	int rc;

	if (sc == NULL)
		return -ENOMEM;
	content_nonces_new(fs.vol->cipher, sc->n, nb);
	j.fileid = fileid;
	j.first = first;
	j.pbuf = pbuf;
	j.cbuf = sc->c;
	j.nonces = sc->n;
	j.nb = nb;
	j.lastlen = lastlen;
	rc = par_run(seal_range, &j, nb, PAR_MIN_BLOCKS);
	if (rc != 0)
		return rc;
	n = sys_pwrite_full(fd, sc->c, clen, rw_block_off(first));
	return n < 0 ? (int)n : 0;
}

/* The daemon's file size limit (RLIMIT_FSIZE) in bytes, read once. */
static off_t fsize_limit;
static int fsize_limited;
static pthread_once_t fsize_once = PTHREAD_ONCE_INIT;

static void fsize_init(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_FSIZE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
		return;
	fsize_limit = rl.rlim_cur > (rlim_t)INT64_MAX ? (off_t)INT64_MAX
						      : (off_t)rl.rlim_cur;
	fsize_limited = 1;
}

/*
 * -EFBIG when a backing file of cend bytes would pass the file size limit.
 * Checked before writing: past the limit the kernel cuts a write short
 * (a torn block) and sends SIGXFSZ, which would end the daemon.
 */
static int check_fsize(off_t cend)
{
	(void)pthread_once(&fsize_once, fsize_init);
	return fsize_limited && cend > fsize_limit ? -EFBIG : 0;
}

/* Start a change of in's content (fd): mark it written, read the backing
 * size into *csize and the plaintext size it holds into *oldsize. */
static int begin_change(struct inode *in, int fd, off_t *csize, off_t *oldsize)
{
	int rc;

	in->written = 1;
	rc = rw_csize(fd, csize);
	if (rc != 0)
		return rc;
	*oldsize = (off_t)content_cipher_to_plain_size(fs.vol->cipher,
						       (uint64_t)*csize);
	return 0;
}

/*
 * Reserve the ciphertext of plaintext blocks [from, last] before any byte
 * of them is written, so that ENOSPC cannot leave a torn block (FORMAT.md
 * 4.9): the new last block ends at wend or at the old size, whichever is
 * later (a write past the end reserves the old partial last block, which
 * it pads, by a separate call: the hole between stays sparse). -EFBIG past
 * the file size limit. On failure a header written for a file that was
 * empty is removed again. Filesystems without fallocate pass.
 */
static int reserve(struct inode *in, int fd, off_t oldsize, uint64_t from,
		   uint64_t last, off_t wend)
{
	off_t bstart = (off_t)last * BS;
	off_t lastlen = wend - bstart;
	off_t exist = oldsize - bstart;
	off_t clen;
	int rc;

	if (exist > BS)
		exist = BS;
	if (exist > lastlen)
		lastlen = exist;
	clen = (off_t)(last - from) * rw_cbs() + lastlen +
	       (off_t)content_overhead(fs.vol->cipher);
	rc = check_fsize(rw_block_off(from) + clen);
	if (rc != 0 || fs.noprealloc)
		return rc;
	if (fallocate(fd, FALLOC_FL_KEEP_SIZE, rw_block_off(from), clen) == 0 ||
	    errno == EOPNOTSUPP)
		return 0;
	rc = -errno;
	if (oldsize == 0) {
		inode_fileid_clear(in);
		if (ftruncate(fd, 0) != 0)
			log_error("cannot remove a new header: %s",
				  strerror(errno));
	}
	return rc;
}

ssize_t fs_content_write(struct inode *in, int fd, const char *buf, size_t size,
			 off_t off)
{
	uint8_t fileid[16];
	struct scratch *sc;
	uint8_t *pbuf;
	off_t csize = 0;
	off_t oldsize;
	uint64_t first;
	uint64_t last;
	size_t nb;
	size_t lastlen = 0;
	int pad;
	int rc;

	if (size == 0)
		return 0;
	if (off < 0)
		return -EINVAL;
	if (off > fs_content_max() || (off_t)size > fs_content_max() - off)
		return -EFBIG;
	rc = begin_change(in, fd, &csize, &oldsize);
	if (rc != 0)
		return rc;
	rc = ensure_header(in, fd, &csize, fileid);
	if (rc != 0)
		return rc;
	if (oldsize == 0)
		csize = HDR;
	first = (uint64_t)(off / BS);
	last = (uint64_t)((off + (off_t)size - 1) / BS);
	pad = oldsize % BS != 0 && (uint64_t)(oldsize / BS) < first;
	/* The padded block and the written blocks, not the hole between. */
	rc = pad ? reserve(in, fd, oldsize, (uint64_t)(oldsize / BS),
			   (uint64_t)(oldsize / BS), (oldsize / BS + 1) * BS)
		 : 0;
	if (rc == 0)
		rc = reserve(in, fd, oldsize, first, last, off + (off_t)size);
	if (rc != 0)
		return rc;
	/* Writing past the end: pad the old partial last block first. */
	if (pad) {
		uint8_t blk[CONTENT_PLAIN_BS];
		uint64_t lb = (uint64_t)(oldsize / BS);

		memset(blk, 0, sizeof(blk));
		rc = rw_read_block(in, fd, fileid, lb, csize, blk);
		if (rc >= 0)
			rc = seal_write(fd, fileid, lb, blk, 1,
					CONTENT_PLAIN_BS);
		secmem_wipe(blk, sizeof(blk));
		if (rc < 0)
			return rc;
	}
	nb = (size_t)(last - first + 1);
	/* Aligned, and no old bytes after the end of the write in its last
	 * block: seal straight from the request, no copy. */
	if (off % BS == 0 &&
	    ((off_t)size % BS == 0 || off + (off_t)size >= oldsize)) {
		rc = seal_write(fd, fileid, first, (const uint8_t *)buf, nb,
				size - (nb - 1) * CONTENT_PLAIN_BS);
		return rc < 0 ? rc : (ssize_t)size;
	}
	sc = scratch_blocks(nb);
	if (sc == NULL)
		return -ENOMEM;
	pbuf = sc->p;
	memset(pbuf, 0, nb * CONTENT_PLAIN_BS);
	for (size_t i = 0; i < nb; i++) {
		off_t bstart = (off_t)(first + i) * BS;
		size_t o = (size_t)((off > bstart ? off : bstart) - bstart);
		off_t wend = off + (off_t)size;
		size_t e = (size_t)((wend < bstart + BS ? wend : bstart + BS) -
				    bstart);
		size_t exist = oldsize > bstart
				       ? (size_t)(oldsize - bstart < BS
							  ? oldsize - bstart
							  : BS)
				       : 0;
		uint8_t *p = pbuf + i * CONTENT_PLAIN_BS;

		if ((o > 0 || e < exist) && exist > 0) {
			rc = rw_read_block(in, fd, fileid, first + i, csize, p);
			if (rc < 0)
				goto out;
		}
		memcpy(p + o, buf + (bstart + (off_t)o - off), e - o);
		lastlen = e > exist ? e : exist;
	}
	rc = seal_write(fd, fileid, first, pbuf, nb, lastlen);
out:
	secmem_wipe(pbuf, nb * CONTENT_PLAIN_BS);
	return rc < 0 ? rc : (ssize_t)size;
}

int fs_content_truncate(struct inode *in, int fd, off_t size)
{
	uint8_t fileid[16];
	off_t csize = 0;
	off_t oldsize;
	int rc;

	if (size < 0)
		return -EINVAL;
	if (size > fs_content_max())
		return -EFBIG;
	rc = begin_change(in, fd, &csize, &oldsize);
	if (rc != 0)
		return rc;
	if (size == 0) {
		if (ftruncate(fd, 0) != 0)
			return -errno;
		inode_fileid_clear(in);
		return 0;
	}
	if (size == oldsize)
		return 0;
	if (size < oldsize) {
		uint8_t blk[CONTENT_PLAIN_BS];
		uint64_t b = (uint64_t)(size / BS);
		size_t r = (size_t)(size % BS);

		if (r == 0)
			return ftruncate(fd, rw_block_off(b)) != 0 ? -errno : 0;
		rc = rw_fileid(in, fd, fileid);
		if (rc != 0)
			return rc == -ENODATA ? -EIO : rc;
		rc = rw_read_block(in, fd, fileid, b, csize, blk);
		if (rc >= 0 && ftruncate(fd, rw_block_off(b)) != 0)
			rc = -errno;
		if (rc >= 0)
			rc = seal_write(fd, fileid, b, blk, 1, r);
		secmem_wipe(blk, sizeof(blk));
		return rc < 0 ? rc : 0;
	}
	/* Growing. */
	rc = check_fsize((off_t)content_plain_to_cipher_size(fs.vol->cipher,
							     (uint64_t)size));
	if (rc != 0)
		return rc;
	if (size % BS != 0) {
		ssize_t n = fs_content_write(in, fd, "", 1, size - 1);

		return n < 0 ? (int)n : 0;
	}
	if (oldsize % BS != 0) {
		static const char zeros[CONTENT_PLAIN_BS];
		ssize_t n = fs_content_write(
			in, fd, zeros, (size_t)(BS - oldsize % BS), oldsize);

		if (n < 0)
			return (int)n;
	} else {
		rc = ensure_header(in, fd, &csize, fileid);
		if (rc != 0)
			return rc;
	}
	if (ftruncate(fd, (off_t)content_plain_to_cipher_size(
				  fs.vol->cipher, (uint64_t)size)) != 0)
		return -errno;
	return 0;
}
