/* SPDX-License-Identifier: MIT */
/*
 * Plaintext reads (fs_content_read, rw.h): whole blocks read and
 * authenticated, over two cores for large requests, streamed with O_DIRECT
 * for large reads of files not written through this mount. The caller
 * holds inode->content shared.
 * Spec: ../shared/FORMAT.md 4.3, 4.7, 4.8. Depends on: fuse/rw_int.h
 * (format/content.h, fuse/inode.h), fuse/scratch.h, fuse/par.h, sys/sys.h,
 * secmem.h. direct_off: atomic, no lock. Not proved.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "fuse/par.h"
#include "fuse/rw.h"
#include "fuse/rw_int.h"
#include "fuse/scratch.h"
#include "base/secmem.h"
#include "sys/sys.h"

struct open_job {
	const uint8_t *fileid;
	uint64_t first;
	const uint8_t *cbuf;
	uint8_t *pbuf;
	size_t n;	/* ciphertext bytes read */
	size_t lastlen; /* plaintext length of the last block */
};

/* par_fn: open blocks [i0, i1); returns 0 or 1 + the failing index. */
static int open_range(void *arg, size_t i0, size_t i1)
{
	struct open_job *j = arg;
	size_t bs = (size_t)rw_cbs();

	for (size_t i = i0; i < i1; i++) {
		size_t at = i * bs;
		size_t clen = j->n - at < bs ? j->n - at : bs;
		int rc = rw_block_open(j->fileid, j->first + i, j->cbuf + at,
				       clen, j->pbuf + i * CONTENT_PLAIN_BS);

		if (rc < 0)
			return (int)(i + 1);
		if (at + clen == j->n)
			j->lastlen = (size_t)rc;
	}
	return 0;
}

/* 1: no O_DIRECT reads on this mount. Set by the first large read when
 * the cipher directory is a tmpfs (its O_DIRECT is the same page-cache
 * copy as a plain read, so the reopen would only cost an open and a
 * close), or when the kernel refuses O_DIRECT (EINVAL; tmpfs before
 * Linux 6.6) or /proc is missing. */
static atomic_int direct_off;
/* 1 once the first large read has looked at the backing filesystem */
static atomic_int direct_probed;

/*
 * Read len bytes at off from the file open as fd through a fresh O_DIRECT
 * descriptor of it, into the aligned buffer abuf (room for len +
 * 2 * DIRECT_ALIGN); *at is set to where the bytes start in abuf. Returns
 * the bytes read (fewer at the end of the file), or -1 when the caller
 * should read the normal way instead.
 */
static ssize_t pread_odirect(int fd, uint8_t *abuf, size_t len, off_t off,
			     uint8_t **at)
{
	off_t a0 = off & ~(off_t)(DIRECT_ALIGN - 1);
	off_t a1 = (off + (off_t)len + (off_t)DIRECT_ALIGN - 1) &
		   ~(off_t)(DIRECT_ALIGN - 1);
	size_t lead = (size_t)(off - a0);
	ssize_t n;
	size_t got;
	int dfd;

	if (atomic_load(&direct_off))
		return -1;
	if (!atomic_load(&direct_probed)) {
		struct statfs sf;

		if (fstatfs(fd, &sf) == 0 && sf.f_type == TMPFS_MAGIC)
			atomic_store(&direct_off, 1);
		atomic_store(&direct_probed, 1);
		if (atomic_load(&direct_off))
			return -1;
	}
	dfd = sys_reopen(fd, O_RDONLY | O_DIRECT);
	if (dfd < 0) {
		/* no O_DIRECT here, or no /proc: not worth asking again */
		if (dfd == -EINVAL || dfd == -ENOENT)
			atomic_store(&direct_off, 1);
		return -1;
	}
	do
		n = pread(dfd, abuf, (size_t)(a1 - a0), a0);
	while (n < 0 && errno == EINTR);
	if (n < 0 && errno == EINVAL)
		atomic_store(&direct_off, 1);
	close(dfd);
	if (n < 0)
		return -1;
	got = (size_t)n > lead ? (size_t)n - lead : 0;
	if (got > len)
		got = len;
	*at = abuf + lead;
	if (got < len) {
		/* a short direct read: the rest (if any) the normal way */
		ssize_t m = sys_pread_full(fd, *at + got, len - got,
					   off + (off_t)got);

		if (m < 0)
			return -1;
		got += (size_t)m;
	}
	return (ssize_t)got;
}

ssize_t fs_content_read(struct inode *in, int fd, char *buf, size_t size,
			off_t off)
{
	uint8_t fileid[16];
	uint64_t first;
	uint64_t last;
	size_t nb;
	size_t total = 0;
	size_t opened = 0; /* bytes of pbuf that may hold plaintext */
	size_t skip;
	struct scratch *sc;
	uint8_t *cbuf;
	uint8_t *pbuf;
	ssize_t n;
	ssize_t ret;
	int direct;
	int retried = 0;
	int rc;

	if (size == 0 || off < 0 || off >= fs_content_max())
		return 0;
	/* no file reaches past fs_content_max(): the end of the file */
	if ((off_t)size > fs_content_max() - off)
		size = (size_t)(fs_content_max() - off);
again:
	rc = rw_fileid(in, fd, fileid);
	if (rc == -ENODATA)
		return 0;
	if (rc != 0)
		return rc;
	first = (uint64_t)(off / BS);
	last = (uint64_t)((off + (off_t)size - 1) / BS);
	nb = (size_t)(last - first + 1);
	sc = scratch_blocks(nb);
	if (sc == NULL)
		return -ENOMEM;
	cbuf = sc->c;
	/* Whole aligned blocks: open them straight into the reply buffer. */
	direct = off % BS == 0 && size == nb * CONTENT_PLAIN_BS;
	pbuf = direct ? (uint8_t *)buf : sc->p;
	n = -1;
	if (size >= DIRECT_MIN && !in->written)
		n = pread_odirect(fd, sc->c, nb * (size_t)rw_cbs(),
				  rw_block_off(first), &cbuf);
	if (n < 0) {
		cbuf = sc->c;
		n = sys_pread_full(fd, cbuf, nb * (size_t)rw_cbs(),
				   rw_block_off(first));
	}
	if (n < 0) {
		ret = n;
		goto out;
	}
	if (n > 0) {
		struct open_job j = { fileid, first, cbuf, pbuf, (size_t)n, 0 };
		size_t nblk =
			((size_t)n + (size_t)rw_cbs() - 1) / (size_t)rw_cbs();

		/* a failed block is wiped by the cipher, but the blocks
		 * before it (and, over two cores, after it) hold plaintext */
		opened = nblk * CONTENT_PLAIN_BS;
		rc = par_run(open_range, &j, nblk, PAR_MIN_BLOCKS);
		if (rc != 0 && !retried && fs_fileid_recheck(in, fd)) {
			retried = 1; /* rewritten behind us: a new file ID */
			secmem_wipe(pbuf, nb * CONTENT_PLAIN_BS);
			goto again;
		}
		if (rc != 0) {
			rw_log_eio(in, first + (uint64_t)rc - 1);
			ret = -EIO;
			goto out;
		}
		total = (nblk - 1) * CONTENT_PLAIN_BS + j.lastlen;
	}
	skip = (size_t)(off - (off_t)first * BS);
	if (total <= skip) {
		ret = 0;
		goto out;
	}
	ret = (ssize_t)(total - skip < size ? total - skip : size);
	if (!direct)
		memcpy(buf, pbuf + skip, (size_t)ret);
out:
	if (!direct)
		secmem_wipe(pbuf, ret < 0 ? opened : total);
	else if (ret < 0)
		secmem_wipe(buf, size);
	return ret;
}
