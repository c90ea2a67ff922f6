/* SPDX-License-Identifier: MIT */
/*
 * File contents through the FUSE layer: whole-block reads with
 * authentication, read-modify-write of partial blocks, holes past the end,
 * truncate that re-encrypts the boundary block. See fs.h. The caller holds
 * inode->content (shared for reads, exclusive otherwise).
 * Spec: ../shared/FORMAT.md 4.2, 4.3, 4.7, 4.8, 4.9. Not proved.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "crypto/ct.h"
#include "fuse/fs.h"
#include "fuse/par.h"
#include "sys/sys.h"

#define BS ((off_t)FC_PLAIN_BS)
#define HDR ((off_t)FC_HEADER_LEN)
/*
 * Reads of at least DIRECT_MIN bytes of a file not written through this
 * mount read the backing file with O_DIRECT: the device fills the
 * thread's buffer and the ciphertext is not cached beside the plaintext
 * that the kernel caches on the mount (a streaming read then costs one
 * copy less, and half the page cache). The buffer and the offsets are
 * aligned to DIRECT_ALIGN; a backing file system that refuses (EINVAL)
 * turns the path off for the rest of the mount.
 */
#define DIRECT_MIN (256U * 1024U)
#define DIRECT_ALIGN ((size_t)4096)
/* Requests of at least this many blocks are split over two cores. */
#define PAR_MIN_BLOCKS 8U

/*
 * Per-thread scratch buffers, kept for the thread's lifetime: allocating
 * 128 KiB+ per request would go through mmap/munmap and page faults each
 * time. c: ciphertext, p: plaintext blocks, r: read replies.
 */
struct scratch {
	uint8_t *c;
	uint8_t *p;
	uint8_t *n; /* nonces, 24 bytes per block */
	char *r;
	size_t nblocks; /* capacity of c and p in blocks */
	size_t rcap;
};

static pthread_key_t scratch_key;
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;
static _Thread_local struct scratch tl_scratch;
static _Thread_local int tl_registered;

/* Thread exit: wipe and free this thread's buffers (arg = &tl_scratch). */
static void scratch_free(void *arg)
{
	struct scratch *s = arg;

	if (s->p != NULL)
		ct_wipe(s->p, s->nblocks * FC_PLAIN_BS);
	if (s->r != NULL)
		ct_wipe(s->r, s->rcap);
	free(s->c);
	free(s->p);
	free(s->n);
	free(s->r);
	memset(s, 0, sizeof(*s));
}

static void scratch_init(void)
{
	(void)pthread_key_create(&scratch_key, scratch_free);
}

static struct scratch *scratch_self(void)
{
	(void)pthread_once(&scratch_once, scratch_init);
	if (!tl_registered) {
		if (pthread_setspecific(scratch_key, &tl_scratch) != 0)
			return NULL;
		tl_registered = 1;
	}
	return &tl_scratch;
}

/* Block buffers for nb blocks (c: nb ciphertext blocks, p: nb * 4096). */
static struct scratch *scratch_blocks(size_t nb)
{
	struct scratch *s = scratch_self();

	if (s == NULL)
		return NULL;
	if (s->nblocks < nb) {
		size_t want = nb < 257 ? 257 : nb;
		/* aligned, and room for an aligned read around the blocks */
		uint8_t *c = NULL;
		uint8_t *p = malloc(want * FC_PLAIN_BS);
		uint8_t *n = malloc(want * 24);

		if (posix_memalign((void **)&c, DIRECT_ALIGN,
				   want * (FC_PLAIN_BS + FC_MAX_OV) +
					   2 * DIRECT_ALIGN) != 0)
			c = NULL;
		if (c == NULL || p == NULL || n == NULL) {
			free(c);
			free(p);
			free(n);
			return NULL;
		}
		if (s->p != NULL)
			ct_wipe(s->p, s->nblocks * FC_PLAIN_BS);
		free(s->c);
		free(s->p);
		free(s->n);
		s->c = c;
		s->p = p;
		s->n = n;
		s->nblocks = want;
	}
	return s;
}

char *fs_read_buf(size_t size)
{
	struct scratch *s = scratch_self();

	if (s == NULL)
		return NULL;
	if (s->rcap < size) {
		size_t want = size < 256U * 1024U ? 256U * 1024U : size;
		char *r = malloc(want);

		if (r == NULL)
			return NULL;
		if (s->r != NULL)
			ct_wipe(s->r, s->rcap);
		free(s->r);
		s->r = r;
		s->rcap = want;
	}
	return s->r;
}

static off_t cbs(void)
{
	return (off_t)fc_cbs(fs.vol);
}

static off_t block_off(uint64_t b)
{
	return HDR + (off_t)b * cbs();
}

static int csize_of(int fd, off_t *csize)
{
	struct stat st;

	if (fstat(fd, &st) != 0)
		return -errno;
	*csize = st.st_size;
	return 0;
}

int fs_content_size(int fd, off_t *size)
{
	off_t c = 0;
	int rc = csize_of(fd, &c);

	if (rc == 0)
		*size = (off_t)fc_plain_size(fs.vol, (uint64_t)c);
	return rc;
}

/* File ID of the open file: 0, -ENODATA when it has no header yet, -EIO. */
static int get_fileid(struct inode *in, int fd, uint8_t fileid[16])
{
	uint8_t hdr[FC_HEADER_LEN];
	ssize_t n;

	if (inode_fileid_get(in, fileid))
		return 0;
	n = sys_pread_full(fd, hdr, sizeof(hdr), 0);
	if (n < 0)
		return (int)n;
	if ((size_t)n < sizeof(hdr))
		return -ENODATA;
	if (fc_header_parse(hdr, fileid) != 0) {
		fs_log("bad file header in inode %lu", (unsigned long)in->ino);
		return -EIO;
	}
	inode_fileid_set(in, fileid);
	return 0;
}

static void log_eio(struct inode *in, uint64_t block)
{
	int first;

	pthread_mutex_lock(&in->meta);
	first = !in->warned;
	in->warned = 1;
	pthread_mutex_unlock(&in->meta);
	if (first)
		fs_log("authentication failed: inode %lu block %llu",
		       (unsigned long)in->ino, (unsigned long long)block);
}

/* Decrypt block b of a file of csize ciphertext bytes into out (4096).
 * Returns the plaintext length (0 past the end) or -errno. */
static int read_block(struct inode *in, int fd, const uint8_t fileid[16],
		      uint64_t b, off_t csize, uint8_t *out)
{
	uint8_t cbuf[FC_PLAIN_BS + FC_MAX_OV];
	off_t start = block_off(b);
	size_t clen;
	ssize_t n;
	int rc;

	if (csize <= start)
		return 0;
	clen = (size_t)(csize - start < cbs() ? csize - start : cbs());
	n = sys_pread_full(fd, cbuf, clen, start);
	if (n < 0)
		return (int)n;
	rc = fc_block_open(fs.vol, fileid, b, cbuf, (size_t)n, out);
	if (rc < 0)
		log_eio(in, b);
	return rc;
}

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
	size_t bs = (size_t)cbs();

	for (size_t i = i0; i < i1; i++) {
		size_t at = i * bs;
		size_t clen = j->n - at < bs ? j->n - at : bs;
		int rc = fc_block_open(fs.vol, j->fileid, j->first + i,
				       j->cbuf + at, clen,
				       j->pbuf + i * FC_PLAIN_BS);

		if (rc < 0)
			return (int)(i + 1);
		if (at + clen == j->n)
			j->lastlen = (size_t)rc;
	}
	return 0;
}

static atomic_int direct_off;

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
	size_t skip;
	struct scratch *sc;
	uint8_t *cbuf;
	uint8_t *pbuf;
	ssize_t n;
	ssize_t ret;
	int direct;
	int rc;

	if (size == 0 || off < 0)
		return 0;
	rc = get_fileid(in, fd, fileid);
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
	direct = off % BS == 0 && size == nb * FC_PLAIN_BS;
	pbuf = direct ? (uint8_t *)buf : sc->p;
	n = -1;
	if (size >= DIRECT_MIN && !in->written)
		n = pread_odirect(fd, sc->c, nb * (size_t)cbs(),
				  block_off(first), &cbuf);
	if (n < 0) {
		cbuf = sc->c;
		n = sys_pread_full(fd, cbuf, nb * (size_t)cbs(),
				   block_off(first));
	}
	if (n < 0) {
		ret = n;
		goto out;
	}
	if (n > 0) {
		struct open_job j = { fileid, first, cbuf, pbuf, (size_t)n, 0 };
		size_t nblk = ((size_t)n + (size_t)cbs() - 1) / (size_t)cbs();

		rc = par_run(open_range, &j, nblk, PAR_MIN_BLOCKS);
		if (rc != 0) {
			log_eio(in, first + (uint64_t)rc - 1);
			ret = -EIO;
			goto out;
		}
		total = (nblk - 1) * FC_PLAIN_BS + j.lastlen;
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
		ct_wipe(pbuf, total);
	else if (ret < 0)
		ct_wipe(buf, size);
	return ret;
}

/* Make sure the file has a header; fills fileid. csize is updated. */
static int ensure_header(struct inode *in, int fd, off_t *csize,
			 uint8_t fileid[16])
{
	uint8_t hdr[FC_HEADER_LEN];
	ssize_t n;

	if (*csize > HDR)
		return get_fileid(in, fd, fileid);
	if (*csize > 0 && ftruncate(fd, 0) != 0)
		return -errno;
	(void)fc_header_new(hdr);
	n = sys_pwrite_full(fd, hdr, sizeof(hdr), 0);
	if (n < 0) {
		int rc = (int)n;

		if (ftruncate(fd, 0) != 0)
			fs_log("cannot remove a torn header: %s",
			       strerror(errno));
		return rc;
	}
	(void)fc_header_parse(hdr, fileid);
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
	size_t nl = fc_nonce_len(fs.vol);

	for (size_t i = i0; i < i1; i++) {
		size_t len = i + 1 == j->nb ? j->lastlen : FC_PLAIN_BS;

		if (fc_block_seal_nonce(fs.vol, j->fileid, j->first + i,
					j->pbuf + i * FC_PLAIN_BS, len,
					j->cbuf + i * (size_t)cbs(),
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
	size_t clen = (nb - 1) * (size_t)cbs() + lastlen + fc_overhead(fs.vol);
	struct scratch *sc = scratch_blocks(nb);
	struct seal_job j;
	ssize_t n;
	int rc;

	if (sc == NULL)
		return -ENOMEM;
	fc_nonces(fs.vol, sc->n, nb);
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
	n = sys_pwrite_full(fd, sc->c, clen, block_off(first));
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
	clen = (off_t)(last - from) * cbs() + lastlen +
	       (off_t)fc_overhead(fs.vol);
	rc = check_fsize(block_off(from) + clen);
	if (rc != 0 || fs.noprealloc)
		return rc;
	if (fallocate(fd, FALLOC_FL_KEEP_SIZE, block_off(from), clen) == 0 ||
	    errno == EOPNOTSUPP)
		return 0;
	rc = -errno;
	if (oldsize == 0) {
		inode_fileid_clear(in);
		if (ftruncate(fd, 0) != 0)
			fs_log("cannot remove a new header: %s",
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
	in->written = 1;
	rc = csize_of(fd, &csize);
	if (rc != 0)
		return rc;
	oldsize = (off_t)fc_plain_size(fs.vol, (uint64_t)csize);
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
		uint8_t blk[FC_PLAIN_BS];
		uint64_t lb = (uint64_t)(oldsize / BS);

		memset(blk, 0, sizeof(blk));
		rc = read_block(in, fd, fileid, lb, csize, blk);
		if (rc >= 0)
			rc = seal_write(fd, fileid, lb, blk, 1, FC_PLAIN_BS);
		ct_wipe(blk, sizeof(blk));
		if (rc < 0)
			return rc;
	}
	nb = (size_t)(last - first + 1);
	/* Aligned, and no old bytes after the end of the write in its last
	 * block: seal straight from the request, no copy. */
	if (off % BS == 0 &&
	    ((off_t)size % BS == 0 || off + (off_t)size >= oldsize)) {
		rc = seal_write(fd, fileid, first, (const uint8_t *)buf, nb,
				size - (nb - 1) * FC_PLAIN_BS);
		return rc < 0 ? rc : (ssize_t)size;
	}
	sc = scratch_blocks(nb);
	if (sc == NULL)
		return -ENOMEM;
	pbuf = sc->p;
	memset(pbuf, 0, nb * FC_PLAIN_BS);
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
		uint8_t *p = pbuf + i * FC_PLAIN_BS;

		if ((o > 0 || e < exist) && exist > 0) {
			rc = read_block(in, fd, fileid, first + i, csize, p);
			if (rc < 0)
				goto out;
		}
		memcpy(p + o, buf + (bstart + (off_t)o - off), e - o);
		lastlen = e > exist ? e : exist;
	}
	rc = seal_write(fd, fileid, first, pbuf, nb, lastlen);
out:
	ct_wipe(pbuf, nb * FC_PLAIN_BS);
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
	in->written = 1;
	rc = csize_of(fd, &csize);
	if (rc != 0)
		return rc;
	oldsize = (off_t)fc_plain_size(fs.vol, (uint64_t)csize);
	if (size == 0) {
		if (ftruncate(fd, 0) != 0)
			return -errno;
		inode_fileid_clear(in);
		return 0;
	}
	if (size == oldsize)
		return 0;
	if (size < oldsize) {
		uint8_t blk[FC_PLAIN_BS];
		uint64_t b = (uint64_t)(size / BS);
		size_t r = (size_t)(size % BS);

		if (r == 0)
			return ftruncate(fd, block_off(b)) != 0 ? -errno : 0;
		rc = get_fileid(in, fd, fileid);
		if (rc != 0)
			return rc == -ENODATA ? -EIO : rc;
		rc = read_block(in, fd, fileid, b, csize, blk);
		if (rc >= 0 && ftruncate(fd, block_off(b)) != 0)
			rc = -errno;
		if (rc >= 0)
			rc = seal_write(fd, fileid, b, blk, 1, r);
		ct_wipe(blk, sizeof(blk));
		return rc < 0 ? rc : 0;
	}
	/* Growing. */
	rc = check_fsize((off_t)fc_cipher_size(fs.vol, (uint64_t)size));
	if (rc != 0)
		return rc;
	if (size % BS != 0) {
		ssize_t n = fs_content_write(in, fd, "", 1, size - 1);

		return n < 0 ? (int)n : 0;
	}
	if (oldsize % BS != 0) {
		static const char zeros[FC_PLAIN_BS];
		ssize_t n = fs_content_write(
			in, fd, zeros, (size_t)(BS - oldsize % BS), oldsize);

		if (n < 0)
			return (int)n;
	} else {
		rc = ensure_header(in, fd, &csize, fileid);
		if (rc != 0)
			return rc;
	}
	if (ftruncate(fd, (off_t)fc_cipher_size(fs.vol, (uint64_t)size)) != 0)
		return -errno;
	return 0;
}

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
	uint8_t b[FC_PLAIN_BS + FC_MAX_OV];
	ssize_t n = sys_pread_full(fd, b, (size_t)cbs(), block_off(k));

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
	int rc = csize_of(fd, &csize);

	if (rc != 0)
		return rc;
	size = (off_t)fc_plain_size(fs.vol, (uint64_t)csize);
	if (off < 0 || off >= size)
		return -ENXIO;
	k = (uint64_t)(off / BS);
	if (whence == SEEK_DATA) {
		while ((off_t)k * BS < size) {
			off_t r = backing_seek(fd, block_off(k), SEEK_DATA);
			uint64_t kd;

			if (r < 0)
				return r;
			if (r >= csize)
				return -ENXIO;
			kd = r <= HDR ? 0 : (uint64_t)((r - HDR) / cbs());
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
		off_t start = block_off(k);
		off_t d = backing_seek(fd, start, SEEK_DATA);
		off_t h;
		uint64_t kh;

		if (d == -ENXIO || (d >= 0 && d >= start + cbs()))
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
		kh = (uint64_t)((h - HDR) / cbs());
		k = kh > k ? kh : k + 1;
	}
	if ((off_t)k * BS >= size)
		return size;
	return (off_t)k * BS > off ? (off_t)k * BS : off;
}
