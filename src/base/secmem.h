/* SPDX-License-Identifier: MIT */
/*
 * Locked memory for secrets: master key, KEK, derived keys, passwords.
 * Each allocation is its own anonymous mapping, mlock'd (best effort: a
 * refused mlock is remembered for secmem_locked() but not an error),
 * excluded from core dumps (MADV_DONTDUMP) and wiped with explicit_bzero
 * before it is unmapped.
 * Spec: none (hygiene, cf. gocryptfs zeroing its key slices).
 * Layer: base/; depends on libc only. Used by format/ (keys.c,
 * config_key.c), fuse/ and fsck/ (wipes) and cli/.
 * Thread-safe (a counter of failed mlock calls and the list of live
 * mappings under a mutex).
 */
#ifndef VCRYPTFS_SECMEM_H
#define VCRYPTFS_SECMEM_H

#include <stddef.h>
#include <string.h>

/*
 * Return n zeroed bytes (n >= 1) in a fresh locked mapping, or NULL with
 * errno set (ENOMEM, EINVAL for n == 0). Free with secmem_free().
 */
void *secmem_alloc(size_t n);

/* Wipe all of p's mapping, unlock and unmap it. p may be NULL. */
void secmem_free(void *p);

/* Wipe n bytes at p so that the compiler cannot drop the stores (any
 * memory, not only secmem's). */
static inline void secmem_wipe(void *p, size_t n)
{
	explicit_bzero(p, n);
}

/* 1 when every secmem_alloc (and secmem_relock) so far could mlock its
 * pages, else 0. */
int secmem_locked(void);

/*
 * Lock every live mapping again. A child made by fork() inherits the
 * mappings (and their no-dump mark) but not their locks: the daemon calls
 * this in the child right after it forked to the background. Returns 0,
 * or -1 when an mlock was refused (remembered for secmem_locked()).
 */
int secmem_relock(void);

#endif
