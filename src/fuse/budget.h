/* SPDX-License-Identifier: MIT */
/*
 * Private interface between the inode table (inode.c) and the fd-budget
 * reaper (budget.c); the public budget API is inode_budget_* in inode.h.
 * inode.c owns the table and its lock: the functions marked "inode.c"
 * take the table lock themselves, so budget.c never sees it. budget.c owns
 * the reaper thread, its lock and its clock hand.
 * Depends on: fuse/inode.h. Only inode.c and budget.c include it.
 * Spec: none (../shared/FORMAT.md 8). Not proved.
 */
#ifndef VCRYPTFS_FUSE_BUDGET_H
#define VCRYPTFS_FUSE_BUDGET_H

#include <stddef.h>
#include <stdint.h>

#include "fuse/inode.h"

#define BUDGET_BATCH 128
#define BUDGET_NAME 256

/* One inode the reaper asks the kernel to drop (copied under the table
 * lock, used without it). */
struct budget_cand {
	uint64_t parent;
	struct inode *in;  /* the candidate, held (nlookup + 1) during inval */
	struct inode *pin; /* the parent, held likewise (NULL: the root) */
	size_t len;
	char name[BUDGET_NAME];
};

/* budget.c: wake the reaper (force: EMFILE below the high mark, give back
 * a quarter). No-op when no budget runs. Takes budget_lock. */
void budget_kick(int force);

/* inode.c: descriptors in the table (root not counted) and drops pending. */
void inode_table_counts(size_t *n, size_t *pending);
/* inode.c: clock sweep from *hand (advanced) for up to max candidates into
 * batch (max <= BUDGET_BATCH), each held and marked pending; directories
 * only when dirs. Returns how many. */
size_t inode_budget_collect(struct budget_cand *batch, size_t max, int dirs,
			    size_t *hand);
/* inode.c: the drop of in was not asked after all (no dentry): it no
 * longer counts as pending. */
void inode_budget_unpend(struct inode *in);
/* inode.c: forget every pending mark, so a later round may ask again. */
void inode_budget_clear_pending(void);
/* inode.c: a reaper round starts: clear the kicked flag, return the low
 * watermark. */
size_t inode_budget_round(void);
/* inode.c: set the watermarks (0, 0: no budget) and clear the kicked flag. */
void inode_budget_set_marks(size_t high, size_t low);

#endif
