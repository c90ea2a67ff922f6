/* SPDX-License-Identifier: MIT */
/*
 * Inode table: see inode.h.
 *
 * Lock order (outermost first):
 *   1. inode->content (rwlock; one inode at a time, never two)
 *   2. inode->meta    (mutex; caches of one inode)
 *   3. table lock     (leaf: nothing is taken while it is held)
 * The root inode is never freed before inode_table_free().
 * Spec: ../shared/FORMAT.md 4.2, 5.4, 8. Not proved.
 */
#include "fuse/inode.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FUSE_USE_VERSION 34
#include <fuse_lowlevel.h>

#define NBUCKETS 65536U

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static struct inode **buckets; /* protected by table_lock */
static struct inode root;

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

static void inode_destroy(struct inode *in)
{
	close(in->fd);
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
	inode_init_locks(fresh);
	fresh->next = buckets[b];
	buckets[b] = fresh;
	pthread_mutex_unlock(&table_lock);
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
