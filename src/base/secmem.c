/* SPDX-License-Identifier: MIT */
/*
 * Locked allocations for secrets (see secmem.h). Layout of one mapping:
 * a 64-byte header holding the mapping length, then the caller's bytes.
 * Layer: base/; depends on libc (mmap, mlock, madvise, explicit_bzero)
 * only. Not proved.
 */
#include "base/secmem.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define SECMEM_HDR 64

static atomic_int secmem_mlock_failures;

void *secmem_alloc(size_t n)
{
	long pg = sysconf(_SC_PAGESIZE);
	size_t page = pg > 0 ? (size_t)pg : 4096;
	size_t total;
	uint8_t *base;

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
	memcpy(base, &total, sizeof(total));
	return base + SECMEM_HDR;
}

void secmem_free(void *p)
{
	uint8_t *base;
	size_t total;

	if (p == NULL)
		return;
	base = (uint8_t *)p - SECMEM_HDR;
	memcpy(&total, base, sizeof(total));
	explicit_bzero(base, total);
	(void)munlock(base, total);
	(void)munmap(base, total);
}

int secmem_locked(void)
{
	return atomic_load(&secmem_mlock_failures) == 0;
}
