/* SPDX-License-Identifier: MIT */
/*
 * File contents of the reverse view: the header 00 02 || derive(cpath,
 * "FILEID"), then each plaintext block sealed with AES-SIV under the
 * derived nonce of its block (FORMAT.md 9.3, 9.4); virtual files from
 * memory; the config passed through.
 *
 * A plaintext file may change while the view is read. What a reader gets:
 *  - Every ciphertext block is sealed from the bytes of exactly one pread
 *    of its plaintext block (one pread per request covers all its
 *    blocks), so each block authenticates and holds the plaintext that
 *    pread returned; no block is ever assembled from two reads. (Linux
 *    does not make a buffered pread atomic against a concurrent write to
 *    the same page, so a block being rewritten at that instant may hold
 *    part of the write: that is the plaintext the file had during the
 *    pread, sealed as one authentic block.)
 *  - A ciphertext block is 4128 bytes and never page aligned, so a
 *    reader's requests end in the middle of blocks. A block cut by the
 *    end or the start of a request is kept (the last few per open file),
 *    and the request that continues it gets the same sealed bytes
 *    instead of a fresh seal: the two halves a sequential reader (cp,
 *    rsync, the kernel's read-ahead) copies come from one seal even when
 *    the plaintext changed in between. When the kept block is shorter or
 *    longer than the block now is (the file grew or shrank inside it),
 *    the read ends after the kept block, so the copy is the old version's
 *    end of file, not a torn block.
 *  - Different blocks of one copy may come from different versions
 *    (each authentic): as with any backup of a file being written.
 * Spec: ../shared/FORMAT.md 9.3-9.6, 4.3-4.8. Not proved.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/header.h"
#include "fuse/par.h"
#include "reverse/rv.h"
#include "sys/sys.h"

#define EDGES 8	   /* blocks kept per open file */
#define PAR_MIN 16 /* blocks before the second core helps */

struct edge {
	int valid;
	uint64_t no;
	size_t len; /* sealed length: plaintext + 32 */
	uint8_t b[CONTENT_MAX_CIPHER_BS];
};

struct rv_file {
	struct rv_node *node;
	int fd; /* O_RDONLY; -1 for virtual files */
	uint8_t id[RV_ID_LEN];
	uint8_t iv0[16];
	pthread_mutex_t lock; /* edge[] and next */
	unsigned next;
	struct edge edge[EDGES];
};

/* ---- file IVs of hard-linked files: the first path opened wins ---- */

struct link_ivs {
	struct link_ivs *next;
	dev_t dev;
	ino_t ino;
	uint8_t id[RV_ID_LEN];
	uint8_t iv0[16];
};
static pthread_mutex_t links_lock = PTHREAD_MUTEX_INITIALIZER;
static struct link_ivs *links[256];

/* A file's IVs: derived from its path, unless another path of the same
 * inode was opened first (then that one's). A file with other links
 * records its IVs; one with a single link only looks (a file that had
 * other links keeps its IVs: gocryptfs keeps its table too). */
static void file_ivs(struct rv_file *f, const struct stat *st)
{
	unsigned h = (unsigned)((st->st_ino ^ st->st_dev) & 255U);
	struct link_ivs *l;

	rv_derive(f->id, f->node->cpath, "FILEID");
	rv_derive(f->iv0, f->node->cpath, "BLOCK0IV");
	pthread_mutex_lock(&links_lock);
	for (l = links[h]; l != NULL; l = l->next)
		if (l->dev == st->st_dev && l->ino == st->st_ino)
			break;
	if (l != NULL) {
		memcpy(f->id, l->id, RV_ID_LEN);
		memcpy(f->iv0, l->iv0, 16);
	} else if (st->st_nlink > 1 && (l = malloc(sizeof(*l))) != NULL) {
		l->dev = st->st_dev;
		l->ino = st->st_ino;
		memcpy(l->id, f->id, RV_ID_LEN);
		memcpy(l->iv0, f->iv0, 16);
		l->next = links[h];
		links[h] = l;
	}
	pthread_mutex_unlock(&links_lock);
}

void rv_links_free(void)
{
	pthread_mutex_lock(&links_lock);
	for (unsigned i = 0; i < 256; i++) {
		while (links[i] != NULL) {
			struct link_ivs *l = links[i];
			links[i] = l->next;
			free(l);
		}
	}
	pthread_mutex_unlock(&links_lock);
}

/* ---- per-thread buffers ---- */

struct tbuf {
	uint8_t *plain, *ciph;
	size_t pcap, ccap;
	int keyed; /* registered with tbuf_key (freed at thread exit) */
};
static __thread struct tbuf tbuf;
static pthread_key_t tbuf_key;
static pthread_once_t tbuf_once = PTHREAD_ONCE_INIT;

static void tbuf_free(void *p)
{
	struct tbuf *t = p;

	free(t->plain);
	free(t->ciph);
	memset(t, 0, sizeof(*t));
}

static void tbuf_init(void)
{
	(void)pthread_key_create(&tbuf_key, tbuf_free);
}

/* This thread's buffers, at least pl and cl bytes; NULL on ENOMEM. */
static struct tbuf *tbuf_get(size_t pl, size_t cl)
{
	struct tbuf *t = &tbuf;

	if (!t->keyed) {
		(void)pthread_once(&tbuf_once, tbuf_init);
		if (pthread_setspecific(tbuf_key, t) != 0)
			return NULL;
		t->keyed = 1;
	}
	if (t->pcap < pl) {
		uint8_t *n = realloc(t->plain, pl);
		if (n == NULL)
			return NULL;
		t->plain = n;
		t->pcap = pl;
	}
	if (t->ccap < cl) {
		uint8_t *n = realloc(t->ciph, cl);
		if (n == NULL)
			return NULL;
		t->ciph = n;
		t->ccap = cl;
	}
	return t;
}

/* ---- open / close ---- */

int rv_file_open(struct rv_node *n, struct rv_file **out)
{
	struct rv_file *f = calloc(1, sizeof(*f));
	struct stat st;

	if (f == NULL)
		return -ENOMEM;
	f->node = n;
	f->fd = -1;
	pthread_mutex_init(&f->lock, NULL);
	if (n->kind == RV_REAL || n->kind == RV_CONF) {
		if (n->type != S_IFREG) {
			rv_file_close(f);
			return n->type == S_IFDIR ? -EISDIR : -EINVAL;
		}
		int r;
		f->fd = sys_reopen(n->fd, O_RDONLY);
		if (f->fd < 0) {
			r = f->fd;
			f->fd = -1;
			rv_file_close(f);
			return r;
		}
		if (n->kind == RV_REAL) {
			r = sys_fstat_empty(f->fd, &st);
			if (r != 0) {
				rv_file_close(f);
				return r;
			}
			file_ivs(f, &st);
		}
	}
	*out = f;
	return 0;
}

void rv_file_close(struct rv_file *f)
{
	if (f == NULL)
		return;
	if (f->fd >= 0)
		close(f->fd);
	pthread_mutex_destroy(&f->lock);
	free(f);
}

int rv_file_size(struct rv_file *f, off_t *size)
{
	struct stat st;
	int r;

	if (f->fd < 0) {
		*size = (off_t)f->node->dlen;
		return 0;
	}
	r = sys_fstat_empty(f->fd, &st);
	if (r != 0)
		return r;
	*size = f->node->kind == RV_CONF
			? st.st_size
			: (off_t)content_plain_to_cipher_size(
				  rv.vol->cipher, (uint64_t)st.st_size);
	return 0;
}

/* ---- sealing ---- */

struct seal_job {
	struct rv_file *f;
	const uint8_t *plain; /* block n0 first */
	size_t got;	      /* plaintext bytes read */
	uint8_t *out;	      /* where block n0's ciphertext goes */
	uint64_t n0;
	size_t cbs;
};

static size_t block_len(const struct seal_job *j, size_t i)
{
	size_t left = j->got - i * CONTENT_PLAIN_BS;

	return left < CONTENT_PLAIN_BS ? left : CONTENT_PLAIN_BS;
}

static int seal_range(void *arg, size_t i0, size_t i1)
{
	struct seal_job *j = arg;

	for (size_t i = i0; i < i1; i++) {
		uint8_t nonce[16];
		uint64_t no = j->n0 + i, ctr = 0;
		int r;

		/* nonce of block n: the block-0 nonce with n added to its
		 * last 8 bytes as a u64 BE (FORMAT.md 9.3) */
		memcpy(nonce, j->f->iv0, 16);
		for (int k = 8; k < 16; k++)
			ctr = (ctr << 8) | nonce[k];
		ctr += no;
		for (int k = 15; k >= 8; k--) {
			nonce[k] = (uint8_t)ctr;
			ctr >>= 8;
		}
		r = content_block_seal(rv.vol, j->out + i * j->cbs,
				       j->plain + i * CONTENT_PLAIN_BS,
				       block_len(j, i), no, j->f->id, nonce);
		if (r != 0)
			return r;
	}
	return 0;
}

/* Block no, sealed as len bytes at p: use the kept copy when there is
 * one (returns its length), else keep this one (returns len). */
static size_t edge_block(struct rv_file *f, uint64_t no, uint8_t *p, size_t len)
{
	struct edge *e;

	for (unsigned i = 0; i < EDGES; i++) {
		e = &f->edge[i];
		if (e->valid && e->no == no) {
			memcpy(p, e->b, e->len);
			return e->len;
		}
	}
	e = &f->edge[f->next];
	f->next = (f->next + 1) % EDGES;
	e->valid = 1;
	e->no = no;
	e->len = len;
	memcpy(e->b, p, len);
	return len;
}

static ssize_t read_sealed(struct rv_file *f, size_t size, off_t off,
			   char **out)
{
	const size_t cbs = content_cipher_bs(rv.vol->cipher);
	const size_t ov = content_overhead(rv.vol->cipher);
	uint64_t uoff = (uint64_t)off, end = uoff + size;
	uint64_t n0, n1, base;
	size_t nb, nblk, pos, total, start;
	struct seal_job j;
	struct tbuf *t;
	ssize_t got;
	int r;

	n0 = uoff < HEADER_LEN ? 0 : (uoff - HEADER_LEN) / cbs;
	n1 = end <= HEADER_LEN ? 0 : (end - 1 - HEADER_LEN) / cbs;
	nb = (size_t)(n1 - n0 + 1);
	t = tbuf_get(nb * CONTENT_PLAIN_BS, HEADER_LEN + nb * cbs);
	if (t == NULL)
		return -ENOMEM;
	got = sys_pread_full(f->fd, t->plain, nb * CONTENT_PLAIN_BS,
			     (off_t)(n0 * CONTENT_PLAIN_BS));
	if (got < 0)
		return got;
	if (got == 0)
		return 0; /* past the end; an empty file is empty */
	nblk = ((size_t)got + CONTENT_PLAIN_BS - 1) / CONTENT_PLAIN_BS;
	base = n0 == 0 ? 0 : HEADER_LEN + n0 * cbs;
	pos = 0;
	if (n0 == 0) {
		header_build(t->ciph, f->id);
		pos = HEADER_LEN;
	}
	j.f = f;
	j.plain = t->plain;
	j.got = (size_t)got;
	j.out = t->ciph + pos;
	j.n0 = n0;
	j.cbs = cbs;
	r = par_run(seal_range, &j, nblk, PAR_MIN);
	if (r != 0)
		return r;
	total = pos + (nblk - 1) * cbs + block_len(&j, nblk - 1) + ov;
	/* blocks cut by this request: one seal per block (see above) */
	pthread_mutex_lock(&f->lock);
	for (size_t i = 0; i < nblk; i++) {
		uint64_t s = HEADER_LEN + (n0 + i) * cbs;
		size_t len = block_len(&j, i) + ov, kept;
		if (i > 0 && i + 1 < nblk)
			continue;
		if (!(uoff > s) && !(end < s + len))
			continue;
		kept = edge_block(f, n0 + i, j.out + i * cbs, len);
		if (kept != len) {
			total = pos + i * cbs + kept;
			break;
		}
	}
	pthread_mutex_unlock(&f->lock);
	start = (size_t)(uoff - base);
	if (start >= total)
		return 0;
	*out = (char *)t->ciph + start;
	return (ssize_t)(total - start < size ? total - start : size);
}

ssize_t rv_file_read(struct rv_file *f, size_t size, off_t off, char **out)
{
	if (size == 0 || off < 0)
		return 0;
	if (f->fd < 0) {
		/* virtual file: the node's content */
		if ((uint64_t)off >= f->node->dlen)
			return 0;
		*out = (char *)f->node->data + off;
		return (ssize_t)(f->node->dlen - (size_t)off < size
					 ? f->node->dlen - (size_t)off
					 : size);
	}
	if (f->node->kind == RV_CONF) {
		struct tbuf *t = tbuf_get(size, 0);
		ssize_t got;
		if (t == NULL)
			return -ENOMEM;
		got = sys_pread_full(f->fd, t->plain, size, off);
		*out = (char *)t->plain;
		return got;
	}
	return read_sealed(f, size, off, out);
}
