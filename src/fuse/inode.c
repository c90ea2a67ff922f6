/* SPDX-License-Identifier: MIT */
/*
 * Inode table: see inode.h.
 *
 * Lock order (outermost first):
 *   1. inode->content (rwlock; one inode at a time, never two)
 *   2. inode->meta    (mutex; caches of one inode)
 *   3. table lock     (leaf: nothing is taken while it is held)
 *   close_lock (rwlock, leaf): closes of forgotten inodes' descriptors
 *   share it, inode_rmdirat() takes it exclusively.
 *   budget_lock (mutex, leaf): the reaper thread's wake-up state; never
 *   held together with the table lock.
 * The fd budget (inode.h): one reaper thread sweeps the table like a
 * clock (the used bit, set by lookups, gives an inode a second chance),
 * copies the names of candidates under the table lock, then asks the
 * kernel to drop those dentries with no lock held.
 * The root inode is never freed before inode_table_free().
 * Spec: ../shared/FORMAT.md 4.2, 5.4, 8. Not proved.
 */
#include "fuse/inode.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define FUSE_USE_VERSION 34
#include <fuse_lowlevel.h>

#define NBUCKETS 65536U

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static struct inode **buckets; /* protected by table_lock */
static struct inode root;
/* The fd budget, protected by table_lock: descriptors in the table (the
 * root not counted), inodes whose drop was asked for, the watermarks (0:
 * no budget) and whether the reaper was woken since its last round. */
static size_t nfds;
static size_t npending;
static size_t high_mark;
static size_t low_mark;
static int kicked;

static size_t bucket_of(dev_t dev, ino_t ino)
{
	uint64_t h = (uint64_t)ino * 0x9e3779b97f4a7c15ULL ^ (uint64_t)dev;

	return (size_t)(h >> 16) % NBUCKETS;
}

static void inode_init_locks(struct inode *in)
{
	pthread_rwlock_init(&in->content, NULL);
	pthread_mutex_init(&in->meta, NULL);
}

int inode_table_init(int rootfd)
{
	struct stat st;

	if (fstat(rootfd, &st) != 0)
		return -errno;
	buckets = calloc(NBUCKETS, sizeof(struct inode *));
	if (buckets == NULL)
		return -ENOMEM;
	memset(&root, 0, sizeof(root));
	root.fd = rootfd;
	root.dev = st.st_dev;
	root.ino = st.st_ino;
	root.type = S_IFDIR;
	root.nlookup = 2;
	inode_init_locks(&root);
	return 0;
}

/*
 * The last close of an unlinked file's O_PATH descriptor evicts it in the
 * backing file system. A backing rmdir at that moment spins in the
 * kernel's dcache shrinker over the dying children of the directory
 * (measured during rm -rf of 3,000 files: 60% of the daemon's CPU in
 * shrink_dcache_parent, 1.85 s against 0.49 s with this lock), so rmdir
 * waits for the closes in flight instead.
 */
static pthread_rwlock_t close_lock = PTHREAD_RWLOCK_INITIALIZER;

int inode_rmdirat(int dirfd, const char *name)
{
	int rc;

	pthread_rwlock_wrlock(&close_lock);
	rc = unlinkat(dirfd, name, AT_REMOVEDIR) != 0 ? -errno : 0;
	pthread_rwlock_unlock(&close_lock);
	return rc;
}

static void budget_kick(int forced);

static void inode_destroy(struct inode *in)
{
	pthread_rwlock_rdlock(&close_lock);
	close(in->fd);
	pthread_rwlock_unlock(&close_lock);
	free(in->name);
	pthread_rwlock_destroy(&in->content);
	pthread_mutex_destroy(&in->meta);
	free(in);
}

void inode_table_free(void)
{
	if (buckets == NULL)
		return;
	for (size_t b = 0; b < NBUCKETS; b++) {
		struct inode *in = buckets[b];

		while (in != NULL) {
			struct inode *nx = in->next;

			inode_destroy(in);
			in = nx;
		}
	}
	free(buckets);
	buckets = NULL;
	nfds = 0;
	npending = 0;
	close(root.fd);
	pthread_rwlock_destroy(&root.content);
	pthread_mutex_destroy(&root.meta);
}

struct inode *inode_root(void)
{
	return &root;
}

struct inode *inode_from_ino(uint64_t ino)
{
	if (ino == FUSE_ROOT_ID)
		return &root;
	/* the kernel only hands back numbers we gave it (inode_to_ino) */
	/* NOLINTNEXTLINE(performance-no-int-to-ptr) */
	return (struct inode *)(uintptr_t)ino;
}

uint64_t inode_to_ino(const struct inode *in)
{
	if (in == &root)
		return FUSE_ROOT_ID;
	return (uint64_t)(uintptr_t)in;
}

struct inode *inode_get(int fd, const struct stat *st)
{
	struct inode *in;
	struct inode *fresh;
	size_t b;
	int wake = 0;

	if (st->st_dev == root.dev && st->st_ino == root.ino) {
		close(fd);
		pthread_mutex_lock(&table_lock);
		root.nlookup++;
		pthread_mutex_unlock(&table_lock);
		return &root;
	}
	fresh = calloc(1, sizeof(*fresh));
	b = bucket_of(st->st_dev, st->st_ino);
	pthread_mutex_lock(&table_lock);
	for (in = buckets[b]; in != NULL; in = in->next) {
		if (in->dev == st->st_dev && in->ino == st->st_ino) {
			in->nlookup++;
			in->used = 1;
			if (in->reaped == 1)
				npending--;
			in->reaped = 0;
			pthread_mutex_unlock(&table_lock);
			close(fd);
			free(fresh);
			return in;
		}
	}
	if (fresh == NULL) {
		pthread_mutex_unlock(&table_lock);
		close(fd);
		return NULL;
	}
	fresh->fd = fd;
	fresh->dev = st->st_dev;
	fresh->ino = st->st_ino;
	fresh->type = st->st_mode & S_IFMT;
	fresh->nlookup = 1;
	fresh->used = 1;
	inode_init_locks(fresh);
	fresh->next = buckets[b];
	buckets[b] = fresh;
	nfds++;
	if (high_mark > 0 && nfds > high_mark && !kicked) {
		kicked = 1;
		wake = 1;
	}
	pthread_mutex_unlock(&table_lock);
	if (wake)
		budget_kick(0);
	return fresh;
}

void inode_unref(struct inode *in, uint64_t n)
{
	struct inode **pp;

	if (in == NULL)
		return;
	pthread_mutex_lock(&table_lock);
	if (in == &root) {
		root.nlookup = root.nlookup > n ? root.nlookup - n : 1;
		pthread_mutex_unlock(&table_lock);
		return;
	}
	in->nlookup = in->nlookup > n ? in->nlookup - n : 0;
	if (in->nlookup > 0) {
		pthread_mutex_unlock(&table_lock);
		return;
	}
	for (pp = &buckets[bucket_of(in->dev, in->ino)]; *pp != NULL;
	     pp = &(*pp)->next) {
		if (*pp == in) {
			*pp = in->next;
			break;
		}
	}
	nfds--;
	if (in->reaped == 1)
		npending--;
	pthread_mutex_unlock(&table_lock);
	inode_destroy(in);
}

int inode_fileid_get(struct inode *in, uint8_t fileid[16])
{
	int has;

	pthread_mutex_lock(&in->meta);
	has = in->has_fileid;
	if (has)
		memcpy(fileid, in->fileid, 16);
	pthread_mutex_unlock(&in->meta);
	return has;
}

void inode_fileid_set(struct inode *in, const uint8_t fileid[16])
{
	pthread_mutex_lock(&in->meta);
	memcpy(in->fileid, fileid, 16);
	in->has_fileid = 1;
	pthread_mutex_unlock(&in->meta);
}

void inode_fileid_clear(struct inode *in)
{
	pthread_mutex_lock(&in->meta);
	in->has_fileid = 0;
	pthread_mutex_unlock(&in->meta);
}

/* Replace the recorded name of in (table lock held); returns the old one
 * to free. */
static char *name_swap(struct inode *in, const struct inode *dir, char *copy)
{
	char *old = in->name;

	in->name = copy;
	in->parent = inode_to_ino(dir);
	in->pdev = dir->dev;
	in->pino = dir->ino;
	in->used = 1;
	return old;
}

void inode_name_set(struct inode *in, const struct inode *dir, const char *name)
{
	uint64_t parent = inode_to_ino(dir);
	char *copy;
	char *old;

	if (in == NULL || in == &root)
		return;
	pthread_mutex_lock(&table_lock);
	in->used = 1;
	if (in->parent == parent && in->name != NULL &&
	    strcmp(in->name, name) == 0) {
		pthread_mutex_unlock(&table_lock);
		return;
	}
	pthread_mutex_unlock(&table_lock);
	copy = strdup(name);
	if (copy == NULL)
		return; /* the old name stays: a drop may miss, no harm */
	pthread_mutex_lock(&table_lock);
	old = name_swap(in, dir, copy);
	pthread_mutex_unlock(&table_lock);
	free(old);
}

void inode_name_moved(dev_t dev, ino_t ino, const struct inode *dir,
		      const char *name)
{
	char *copy = strdup(name);
	char *old = copy;
	struct inode *in;

	if (copy == NULL || buckets == NULL) {
		free(copy);
		return;
	}
	pthread_mutex_lock(&table_lock);
	for (in = buckets[bucket_of(dev, ino)]; in != NULL; in = in->next) {
		if (in->dev == dev && in->ino == ino) {
			old = name_swap(in, dir, copy);
			break;
		}
	}
	pthread_mutex_unlock(&table_lock);
	free(old);
}

/*
 * The reaper thread. budget_lock protects kick, forced, running and the
 * condition; stop is read without it.
 */
#define BUDGET_BATCH 128
#define BUDGET_NAME 256
#define BUDGET_MIN_RESERVE 512UL

struct budget_cand {
	uint64_t parent;
	struct inode *in;  /* the candidate, held (nlookup + 1) during inval */
	struct inode *pin; /* the parent, held likewise (NULL: the root) */
	size_t len;
	char name[BUDGET_NAME];
};

static pthread_mutex_t budget_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t budget_cond;
static pthread_t reaper;
static int running;
static int kick;
static int forced;
static atomic_int stop;
static inode_inval_fn inval_cb;
/* reaper only */
static size_t clock_hand;
static struct budget_cand batch[BUDGET_BATCH];

static void budget_kick(int force)
{
	pthread_mutex_lock(&budget_lock);
	if (running) {
		kick = 1;
		if (force)
			forced = 1;
		pthread_cond_broadcast(&budget_cond);
	}
	pthread_mutex_unlock(&budget_lock);
}

/* Sleep ms milliseconds or until woken (stop, a kick). */
static void budget_nap(long ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_nsec += ms * 1000000L;
	ts.tv_sec += ts.tv_nsec / 1000000000L;
	ts.tv_nsec %= 1000000000L;
	pthread_mutex_lock(&budget_lock);
	if (!atomic_load(&stop))
		(void)pthread_cond_timedwait(&budget_cond, &budget_lock, &ts);
	pthread_mutex_unlock(&budget_lock);
}

static void table_counts(size_t *n, size_t *pending)
{
	pthread_mutex_lock(&table_lock);
	*n = nfds;
	*pending = npending;
	pthread_mutex_unlock(&table_lock);
}

/* The directory in the table that is the recorded parent of in (the
 * kernel inode number of a forgotten one may be reused), or NULL. */
static struct inode *parent_of(const struct inode *in)
{
	struct inode *p;

	if (in->parent == FUSE_ROOT_ID)
		return &root;
	for (p = buckets[bucket_of(in->pdev, in->pino)]; p != NULL;
	     p = p->next) {
		if (inode_to_ino(p) == in->parent && p->dev == in->pdev &&
		    p->ino == in->pino)
			return p->type == S_IFDIR ? p : NULL;
	}
	return NULL;
}

/* Clock sweep: up to max candidates (not recently used, with a name, no
 * drop pending), at most two turns of the table. Directories only when
 * dirs is set: dropping a directory's dentry makes the kernel forget its
 * whole cached subtree at once, far more than the round needs, and a
 * walk that is still inside it looks every entry up again. */
static size_t collect(size_t max, int dirs)
{
	size_t got = 0;
	size_t scanned = 0;

	pthread_mutex_lock(&table_lock);
	while (got < max && scanned < 2 * (size_t)NBUCKETS) {
		struct inode *in;

		for (in = buckets[clock_hand]; in != NULL && got < max;
		     in = in->next) {
			struct inode *p;
			size_t len;

			if (in->reaped || in->name == NULL || in->parent == 0 ||
			    (!dirs && in->type == S_IFDIR))
				continue;
			if (in->used) {
				in->used = 0;
				continue;
			}
			len = strlen(in->name);
			p = parent_of(in);
			if (len >= BUDGET_NAME || p == NULL)
				continue;
			/* the parent's number must not be reused before the
			 * kernel got it */
			if (p != &root)
				p->nlookup++;
			batch[got].pin = p != &root ? p : NULL;
			in->nlookup++;
			batch[got].in = in;
			batch[got].parent = in->parent;
			batch[got].len = len;
			memcpy(batch[got].name, in->name, len + 1);
			in->reaped = 1;
			npending++;
			got++;
		}
		clock_hand = (clock_hand + 1) % NBUCKETS;
		scanned++;
		if (scanned % 4096 == 0) {
			/* let request handlers in */
			pthread_mutex_unlock(&table_lock);
			pthread_mutex_lock(&table_lock);
		}
	}
	pthread_mutex_unlock(&table_lock);
	return got;
}

/* Ask the kernel to drop one candidate's dentry. When it had none (the
 * FORGET is on the way, or the inode is busy without a name) the inode
 * does not count as coming (reaped 2). */
static void inval_one(struct budget_cand *c)
{
	int rc = -ESHUTDOWN;

	if (!atomic_load(&stop))
		rc = inval_cb(c->parent, c->name, c->len);
	if (rc != 0) {
		pthread_mutex_lock(&table_lock);
		if (c->in->reaped == 1) {
			c->in->reaped = 2;
			npending--;
		}
		pthread_mutex_unlock(&table_lock);
	}
	inode_unref(c->in, 1);
	inode_unref(c->pin, 1);
}

/* Forget the drops asked for that never brought a FORGET (busy dentries),
 * so that a later round may ask again. */
static void clear_pending(void)
{
	pthread_mutex_lock(&table_lock);
	for (size_t b = 0; b < NBUCKETS; b++) {
		for (struct inode *in = buckets[b]; in != NULL; in = in->next) {
			in->reaped = 0;
		}
	}
	npending = 0;
	pthread_mutex_unlock(&table_lock);
}

/* Drop dentries until the table holds at most target descriptors, or
 * nothing moved for a quarter of a second. Drops asked for count as
 * coming; those that do not come within ~25 ms (busy dentries: open
 * files, a working directory) are asked again. */
static void reap(size_t target)
{
	size_t last = (size_t)-1;
	int idle = 0;
	int waits = 0;

	while (!atomic_load(&stop) && idle < 50) {
		size_t n;
		size_t pending;
		size_t got = 0;

		table_counts(&n, &pending);
		if (n <= target)
			return;
		if (n < last) {
			idle = 0;
			last = n;
		}
		if (n - target > pending) {
			size_t want = n - target - pending;

			if (want > BUDGET_BATCH)
				want = BUDGET_BATCH;
			got = collect(want, 0);
			/* a table of directories only */
			if (got == 0)
				got = collect(want, 1);
			for (size_t i = 0; i < got; i++)
				inval_one(&batch[i]);
		}
		if (got > 0) {
			waits = 0;
			continue;
		}
		idle++;
		if (pending > 0 && ++waits >= 5) {
			clear_pending();
			waits = 0;
		}
		budget_nap(5);
	}
	clear_pending();
}

static void *reaper_main(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&budget_lock);
	while (!atomic_load(&stop)) {
		size_t n;
		size_t pending;
		size_t target;
		int f;

		if (!kick) {
			pthread_cond_wait(&budget_cond, &budget_lock);
			continue;
		}
		kick = 0;
		f = forced;
		forced = 0;
		pthread_mutex_unlock(&budget_lock);
		pthread_mutex_lock(&table_lock);
		kicked = 0;
		target = low_mark;
		pthread_mutex_unlock(&table_lock);
		table_counts(&n, &pending);
		/* EMFILE below the high mark: other descriptors crowd the
		 * table out, give back a quarter */
		if (f && n - n / 4 < target)
			target = n - n / 4;
		reap(target);
		pthread_mutex_lock(&budget_lock);
	}
	pthread_mutex_unlock(&budget_lock);
	return NULL;
}

int inode_budget_start(inode_inval_fn inval, unsigned long nofile)
{
	pthread_condattr_t ca;
	unsigned long reserve;
	int rc;

	if (nofile > (1UL << 30))
		nofile = 1UL << 30;
	/* a sixteenth, at least 512, and under a small limit three quarters
	 * (a readdirplus reply alone may take hundreds). Only the start of
	 * reaping depends on it: a descriptor that fails with EMFILE above
	 * it waits for the reaper (inode_budget_wait). Each dentry dropped
	 * costs the kernel a LOOKUP when it is needed again (a find | xargs
	 * cat over a tree near the limit), so the table may fill up to here
	 * and a round frees an eighth of it, not a quarter. */
	reserve = nofile / 16;
	if (reserve < BUDGET_MIN_RESERVE)
		reserve = BUDGET_MIN_RESERVE < nofile / 4 * 3
				  ? BUDGET_MIN_RESERVE
				  : nofile / 4 * 3;
	if (nofile - reserve < 16)
		return -EINVAL;
	if (pthread_condattr_init(&ca) != 0)
		return -ENOMEM;
	(void)pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	rc = pthread_cond_init(&budget_cond, &ca);
	(void)pthread_condattr_destroy(&ca);
	if (rc != 0)
		return -rc;
	inval_cb = inval;
	atomic_store(&stop, 0);
	pthread_mutex_lock(&budget_lock);
	kick = 0;
	forced = 0;
	running = 1;
	pthread_mutex_unlock(&budget_lock);
	rc = pthread_create(&reaper, NULL, reaper_main, NULL);
	if (rc != 0) {
		pthread_mutex_lock(&budget_lock);
		running = 0;
		pthread_mutex_unlock(&budget_lock);
		pthread_cond_destroy(&budget_cond);
		return -rc;
	}
	pthread_mutex_lock(&table_lock);
	high_mark = (size_t)(nofile - reserve);
	low_mark = high_mark - high_mark / 8;
	kicked = 0;
	pthread_mutex_unlock(&table_lock);
	return 0;
}

int inode_budget_stop(void)
{
	struct timespec ts;
	int rc;

	pthread_mutex_lock(&table_lock);
	high_mark = 0;
	low_mark = 0;
	pthread_mutex_unlock(&table_lock);
	pthread_mutex_lock(&budget_lock);
	if (!running) {
		pthread_mutex_unlock(&budget_lock);
		return 0;
	}
	running = 0;
	atomic_store(&stop, 1);
	pthread_cond_broadcast(&budget_cond);
	pthread_mutex_unlock(&budget_lock);
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += 2;
	rc = pthread_timedjoin_np(reaper, NULL, &ts);
	if (rc != 0) {
		(void)pthread_detach(reaper);
		return -ETIMEDOUT;
	}
	pthread_cond_destroy(&budget_cond);
	return 0;
}

int inode_budget_wait(void)
{
	size_t start;
	size_t pending;
	int on;

	pthread_mutex_lock(&budget_lock);
	on = running;
	pthread_mutex_unlock(&budget_lock);
	if (!on)
		return 0;
	table_counts(&start, &pending);
	budget_kick(1);
	for (int i = 0; i < 100; i++) {
		struct timespec ts = { .tv_sec = 0, .tv_nsec = 10000000L };
		size_t n;

		(void)nanosleep(&ts, NULL);
		table_counts(&n, &pending);
		if (n + start / 8 < start)
			break;
	}
	return 1;
}

size_t inode_fd_count(void)
{
	size_t n;
	size_t pending;

	table_counts(&n, &pending);
	return n;
}

void inode_budget_marks(size_t *high, size_t *low)
{
	pthread_mutex_lock(&table_lock);
	*high = high_mark;
	*low = low_mark;
	pthread_mutex_unlock(&table_lock);
}
