/* SPDX-License-Identifier: MIT */
/*
 * Locked allocations for secrets (see secmem.h). Layout of one mapping:
 * a 64-byte header (the mapping length and the links of the list of live
 * mappings that secmem_relock walks), then the caller's bytes.
 * Layer: base/; depends on libc (mmap, mlock, madvise, explicit_bzero)
 * only. Not proved.
 */
#include "base/secmem.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define SECMEM_HDR 64

struct secmem_hdr {
	size_t total;
	struct secmem_hdr *prev, *next;
};

_Static_assert(sizeof(struct secmem_hdr) <= SECMEM_HDR, "header too big");

static atomic_int secmem_mlock_failures;
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static struct secmem_hdr *live; /* every mapping not yet freed */

void *secmem_alloc(size_t n)
{
	long pg = sysconf(_SC_PAGESIZE);
	size_t page = pg > 0 ? (size_t)pg : 4096;
	size_t total;
	uint8_t *base;
	struct secmem_hdr *h;

	if (n == 0 || n > SIZE_MAX - SECMEM_HDR - page) {
		errno = EINVAL;
		return NULL;
	}
	total = (n + SECMEM_HDR + page - 1) / page * page;
	base = mmap(NULL, total, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED) {
		errno = ENOMEM;
		return NULL;
	}
	if (mlock(base, total) != 0)
		atomic_fetch_add(&secmem_mlock_failures, 1);
	(void)madvise(base, total, MADV_DONTDUMP);
	h = (struct secmem_hdr *)(void *)base;
	h->total = total;
	h->prev = NULL;
	pthread_mutex_lock(&live_lock);
	h->next = live;
	if (live != NULL)
		live->prev = h;
	live = h;
	pthread_mutex_unlock(&live_lock);
	return base + SECMEM_HDR;
}

void secmem_free(void *p)
{
	uint8_t *base;
	struct secmem_hdr *h;
	size_t total;

	if (p == NULL)
		return;
	base = (uint8_t *)p - SECMEM_HDR;
	h = (struct secmem_hdr *)(void *)base;
	pthread_mutex_lock(&live_lock);
	if (h->prev != NULL)
		h->prev->next = h->next;
	else
		live = h->next;
	if (h->next != NULL)
		h->next->prev = h->prev;
	pthread_mutex_unlock(&live_lock);
	total = h->total;
	explicit_bzero(base, total);
	(void)munlock(base, total);
	(void)munmap(base, total);
}

int secmem_locked(void)
{
	return atomic_load(&secmem_mlock_failures) == 0;
}

int secmem_relock(void)
{
	int failed = 0;

	pthread_mutex_lock(&live_lock);
	for (struct secmem_hdr *h = live; h != NULL; h = h->next)
		if (mlock(h, h->total) != 0)
			failed++;
	pthread_mutex_unlock(&live_lock);
	if (failed > 0)
		atomic_fetch_add(&secmem_mlock_failures, failed);
	return failed == 0 ? 0 : -1;
}
