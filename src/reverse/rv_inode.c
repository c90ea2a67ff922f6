/* SPDX-License-Identifier: MIT */
/*
 * The node table of the reverse daemon: one node per (kind, view path,
 * plaintext device and inode), so a plaintext entry replaced under the
 * mount (another object at the same path) becomes a new node and the
 * kernel never sees an inode change its type. The node ID given to the
 * kernel is the node's address (the root is FUSE_ROOT_ID). Nodes live
 * until the kernel forgets them. One mutex guards the table.
 * Spec: ../shared/FORMAT.md 9. Not proved.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reverse/rv.h"

#define TABLE_BITS 12
#define TABLE_SIZE (1U << TABLE_BITS)

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rv_node *table[TABLE_SIZE];
static struct rv_node root;

static unsigned hash_of(enum rv_kind kind, const char *cpath, dev_t dev,
			ino_t ino)
{
	uint64_t h = 1469598103934665603ULL ^ (uint64_t)kind;

	for (const char *p = cpath; *p != '\0'; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ULL;
	h ^= (uint64_t)ino * 0x9e3779b97f4a7c15ULL;
	h ^= (uint64_t)dev;
	return (unsigned)(h ^ (h >> 29)) & (TABLE_SIZE - 1);
}

static void node_free(struct rv_node *n)
{
	if (n->fd >= 0)
		close(n->fd);
	free(n->cpath);
	free(n->ppath);
	free(n->data);
	free(n);
}

int rv_table_init(int rootfd)
{
	struct stat st;

	if (fstat(rootfd, &st) != 0)
		return -errno;
	memset(&root, 0, sizeof(root));
	root.kind = RV_REAL;
	root.fd = rootfd;
	root.dev = st.st_dev;
	root.ino = st.st_ino;
	root.type = S_IFDIR;
	root.cpath = strdup("");
	root.ppath = strdup("");
	root.nlookup = 1;
	if (root.cpath == NULL || root.ppath == NULL) {
		free(root.cpath);
		free(root.ppath);
		return -ENOMEM;
	}
	return 0;
}

void rv_table_free(void)
{
	pthread_mutex_lock(&table_lock);
	for (unsigned i = 0; i < TABLE_SIZE; i++) {
		while (table[i] != NULL) {
			struct rv_node *n = table[i];
			table[i] = n->next;
			node_free(n);
		}
	}
	pthread_mutex_unlock(&table_lock);
	free(root.cpath);
	free(root.ppath);
	root.cpath = root.ppath = NULL;
	root.fd = -1; /* closed by the owner of rootfd */
}

struct rv_node *rv_node_of(fuse_ino_t ino)
{
	if (ino == FUSE_ROOT_ID)
		return &root;
	/* the node ID is the node's address (rv_ino_of) */
	/* NOLINTNEXTLINE(performance-no-int-to-ptr) */
	return (struct rv_node *)(uintptr_t)ino;
}

fuse_ino_t rv_ino_of(const struct rv_node *n)
{
	if (n == &root)
		return FUSE_ROOT_ID;
	return (fuse_ino_t)(uintptr_t)n;
}

struct rv_node *rv_node_get(enum rv_kind kind, const char *cpath, char *ppath,
			    int fd, const struct stat *st, uint8_t *data,
			    size_t dlen, int empty)
{
	unsigned h = hash_of(kind, cpath, st->st_dev, st->st_ino);
	struct rv_node *n;

	pthread_mutex_lock(&table_lock);
	for (n = table[h]; n != NULL; n = n->next) {
		if (n->kind == kind && n->dev == st->st_dev &&
		    n->ino == st->st_ino && n->empty == empty &&
		    n->type == (st->st_mode & S_IFMT) &&
		    strcmp(n->cpath, cpath) == 0)
			break;
	}
	if (n != NULL) {
		n->nlookup++;
		pthread_mutex_unlock(&table_lock);
		if (fd >= 0)
			close(fd);
		free(ppath);
		free(data);
		return n;
	}
	n = calloc(1, sizeof(*n));
	if (n == NULL || (n->cpath = strdup(cpath)) == NULL) {
		pthread_mutex_unlock(&table_lock);
		free(n);
		if (fd >= 0)
			close(fd);
		free(ppath);
		free(data);
		return NULL;
	}
	n->kind = kind;
	n->fd = fd;
	n->dev = st->st_dev;
	n->ino = st->st_ino;
	n->type = st->st_mode & S_IFMT;
	n->empty = empty;
	n->ppath = ppath;
	n->data = data;
	n->dlen = dlen;
	n->nlookup = 1;
	n->next = table[h];
	table[h] = n;
	pthread_mutex_unlock(&table_lock);
	return n;
}

void rv_node_forget(struct rv_node *n, uint64_t nlookup)
{
	struct rv_node **pp;
	unsigned h;

	if (n == &root)
		return;
	pthread_mutex_lock(&table_lock);
	if (n->nlookup > nlookup) {
		n->nlookup -= nlookup;
		pthread_mutex_unlock(&table_lock);
		return;
	}
	h = hash_of(n->kind, n->cpath, n->dev, n->ino);
	for (pp = &table[h]; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == n) {
			*pp = n->next;
			break;
		}
	}
	pthread_mutex_unlock(&table_lock);
	node_free(n);
}
