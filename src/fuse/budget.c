/* SPDX-License-Identifier: MIT */
/*
 * The fd-budget reaper: see inode.h (inode_budget_*) and budget.h. One
 * thread, woken when the table grows past the high watermark (or a
 * descriptor failed with EMFILE), sweeps the table like a clock (the used
 * bit, set by lookups, gives an inode a second chance), copies the names
 * of candidates under the table lock (inode.c's side, budget.h), then asks
 * the kernel to drop those dentries with no lock held.
 * Locks: budget_lock (mutex, leaf) protects kick, forced, running and
 * budget_cond; stop is atomic and read without it. budget_lock is never
 * held together with the table lock (lock order: inode.c's head).
 * Depends on: fuse/inode.h, fuse/budget.h, libc. Spec: none (resource
 * management, ../shared/FORMAT.md 8). Not proved.
 */
#include "fuse/budget.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "fuse/inode.h"

#define BUDGET_MIN_RESERVE 512UL

static pthread_mutex_t budget_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t budget_cond;
static pthread_t reaper;
static int running;
static int kick;
static int forced;
static atomic_int stop;
static inode_inval_fn inval_cb;
/* the reaper thread only */
static size_t clock_hand;
static struct budget_cand batch[BUDGET_BATCH];

void budget_kick(int force)
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

/* Ask the kernel to drop one candidate's dentry. When it had none (the
 * FORGET is on the way, or the inode is busy without a name) the inode
 * does not count as coming (reaped 2). */
static void inval_one(struct budget_cand *c)
{
	int rc = -ESHUTDOWN;

	if (!atomic_load(&stop))
		rc = inval_cb(c->parent, c->name, c->len);
	if (rc != 0) {
		inode_budget_unpend(c->in);
	}
	inode_unref(c->in, 1);
	inode_unref(c->pin, 1);
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

		inode_table_counts(&n, &pending);
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
			got = inode_budget_collect(batch, want, 0, &clock_hand);
			/* a table of directories only */
			if (got == 0)
				got = inode_budget_collect(batch, want, 1,
							   &clock_hand);
			for (size_t i = 0; i < got; i++)
				inval_one(&batch[i]);
		}
		if (got > 0) {
			waits = 0;
			continue;
		}
		idle++;
		if (pending > 0 && ++waits >= 5) {
			inode_budget_clear_pending();
			waits = 0;
		}
		budget_nap(5);
	}
	inode_budget_clear_pending();
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
		target = inode_budget_round();
		inode_table_counts(&n, &pending);
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
	size_t high;
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
	high = (size_t)(nofile - reserve);
	inode_budget_set_marks(high, high - high / 8);
	return 0;
}

int inode_budget_stop(void)
{
	struct timespec ts;
	int rc;

	inode_budget_set_marks(0, 0);
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
	inode_table_counts(&start, &pending);
	budget_kick(1);
	for (int i = 0; i < 100; i++) {
		struct timespec ts = { .tv_sec = 0, .tv_nsec = 10000000L };
		size_t n;

		(void)nanosleep(&ts, NULL);
		inode_table_counts(&n, &pending);
		if (n + start / 8 < start)
			break;
	}
	return 1;
}
