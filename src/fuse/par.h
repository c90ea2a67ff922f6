/* SPDX-License-Identifier: MIT */
/*
 * Two-core block crypto: split a run of independent blocks between the
 * calling thread and one helper thread, so a large request (up to 256
 * blocks) is sealed or opened on both cores. Spec: ../shared/FORMAT.md
 * 16 (blocks are independent). Depends on pthreads only. Not proved.
 */
#ifndef VCRYPTFS_FUSE_PAR_H
#define VCRYPTFS_FUSE_PAR_H

#include <stddef.h>

/* Work on items [i0, i1); returns 0 or an error code. */
typedef int (*par_fn)(void *arg, size_t i0, size_t i1);

/*
 * Run fn over [0, n). When n >= min and the helper is idle, the caller and
 * the helper claim chunks of about n/8 items in turn (the caller never
 * waits for a helper that has not started); otherwise the caller does
 * everything. Returns the non-zero result of the lowest failing chunk, or
 * 0. Thread-safe; fn must be safe to run on two threads at once for
 * disjoint ranges.
 */
int par_run(par_fn fn, void *arg, size_t n, size_t min);

#endif
