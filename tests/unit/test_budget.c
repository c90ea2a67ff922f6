/* SPDX-License-Identifier: MIT */
/*
 * The inode table's fd budget (src/fuse/inode.c, budget.c) against a fake
 * kernel: a dentry cache of (parent, name) -> inode that the reaper's inval callback
 * drops (with the subtree of a directory, as d_invalidate does), sending
 * the FORGET (inode_unref) itself; busy dentries are unhashed but their
 * inodes are not forgotten. Checks: the table comes down under the high
 * watermark, every inode the fake kernel still knows keeps a valid fd,
 * (the directories are busy: files are created through them)
 * the table holds exactly the inodes the fake kernel knows, renamed names
 * are the ones dropped, busy ones survive, stop joins the thread.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fuse/budget.h"
#include "fuse/inode.h"
#include "th.h"

#define NDIRS 4
#define NFILES 600
#define NBUSY 8
#define NOFILE 256UL

struct dent {
	uint64_t parent;
	char name[32];
	char oldname[32]; /* the name before a rename, "" if none */
	int moved_at;	  /* inval_calls when the rename was seen */
	struct inode *in;
	int dir;  /* index of the directory entry, -1 for the root */
	int busy; /* an open file: unhashed, never forgotten here */
	int live; /* hashed in the fake dcache */
	int held; /* the fake kernel still holds the inode (one lookup) */
};

static struct dent dents[NDIRS + NFILES];
static int ndents;
static pthread_mutex_t dlock = PTHREAD_MUTEX_INITIALIZER;
static int inval_calls;
static int inval_enoent;
/* Asked under the name a file had before a rename, in a batch the reaper
 * collected after the rename was recorded. A batch collected just before
 * the rename may still carry the old name (the kernel answers ENOENT, no
 * harm): its invals are among the BUDGET_BATCH calls after the rename. */
static int inval_stale;

/* Unhash dentry i (dlock held); an unused one is forgotten (into out). */
static void drop_one(int i, struct inode **out, int *nout)
{
	dents[i].live = 0;
	if (dents[i].busy || !dents[i].held)
		return;
	dents[i].held = 0;
	out[(*nout)++] = dents[i].in;
}

/* Drop dentry i and, for a directory, its children (files only here). */
static void drop(int i, struct inode **out, int *nout)
{
	if (dents[i].dir < 0 && !dents[i].busy) {
		for (int j = 0; j < ndents; j++) {
			if (dents[j].live && dents[j].dir == i)
				drop_one(j, out, nout);
		}
	}
	drop_one(i, out, nout);
}

static int fake_inval(uint64_t parent, const char *name, size_t len)
{
	static struct inode *forget[NDIRS + NFILES];
	int nforget = 0;
	int found = -1;

	pthread_mutex_lock(&dlock);
	inval_calls++;
	for (int i = 0; i < ndents; i++) {
		if (dents[i].live && dents[i].parent == parent &&
		    strlen(dents[i].name) == len &&
		    memcmp(dents[i].name, name, len) == 0) {
			found = i;
			break;
		}
	}
	if (found >= 0)
		drop(found, forget, &nforget);
	else
		inval_enoent++;
	for (int i = 0; found < 0 && i < ndents; i++) {
		if (dents[i].oldname[0] != '\0' && dents[i].parent == parent &&
		    strlen(dents[i].oldname) == len &&
		    memcmp(dents[i].oldname, name, len) == 0 &&
		    inval_calls > dents[i].moved_at + BUDGET_BATCH)
			inval_stale++;
	}
	pthread_mutex_unlock(&dlock);
	/* the FORGETs (a real kernel sends them a moment later) */
	for (int i = 0; i < nforget; i++)
		inode_unref(forget[i], 1);
	return found >= 0 ? 0 : -ENOENT;
}

/* Look up name in dir (index, -1 root) the way fs_do_lookup does, record
 * it in the fake dcache. */
static int lookup(const char *base, int dir, const char *name, int isdir)
{
	char path[512];
	struct stat st;
	struct inode *parent;
	struct inode *in;
	int fd;
	int i;

	parent = dir < 0 ? inode_root() : dents[dir].in;
	if (dir < 0)
		(void)snprintf(path, sizeof(path), "%s/%s", base, name);
	else
		(void)snprintf(path, sizeof(path), "%s/%s/%s", base,
			       dents[dir].name, name);
	if (isdir && mkdir(path, 0700) != 0)
		return -1;
	if (!isdir) {
		fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
		if (fd < 0)
			return -1;
		close(fd);
	}
	fd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) != 0)
		return -1;
	in = inode_get(fd, &st);
	if (in == NULL)
		return -1;
	pthread_mutex_lock(&dlock);
	i = ndents++;
	dents[i].parent = inode_to_ino(parent);
	(void)snprintf(dents[i].name, sizeof(dents[i].name), "%s", name);
	dents[i].in = in;
	dents[i].dir = dir;
	dents[i].live = 1;
	dents[i].held = 1;
	pthread_mutex_unlock(&dlock);
	inode_name_set(in, parent, name);
	return i;
}

static void nap_ms(long ms)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = ms * 1000000L };

	(void)nanosleep(&ts, NULL);
}

static void run(const char *base)
{
	size_t high = 0;
	size_t low = 0;
	size_t n;
	int rootfd = open(base, O_PATH | O_DIRECTORY | O_CLOEXEC);
	int bad = 0;
	int held = 0;
	int busy_alive = 0;
	int renamed = 0;

	if (rootfd < 0 || inode_table_init(rootfd) != 0) {
		th_fail("budget: inode table");
		return;
	}
	th_check(inode_budget_wait() == 0, "budget: no wait before start");
	th_check(inode_budget_start(fake_inval, NOFILE) == 0, "budget: start");
	inode_budget_marks(&high, &low);
	th_check(high > 0 && high < NOFILE && low < high,
		 "budget: watermarks %zu/%zu under nofile %lu", high, low,
		 NOFILE);
	for (int d = 0; d < NDIRS; d++) {
		char name[16];

		(void)snprintf(name, sizeof(name), "d%d", d);
		if (lookup(base, -1, name, 1) != d) {
			th_fail("budget: mkdir %s", name);
			goto out;
		}
		/* in use (a working directory): the files below are created
		 * through it */
		pthread_mutex_lock(&dlock);
		dents[d].busy = 1;
		pthread_mutex_unlock(&dlock);
	}
	for (int f = 0; f < NFILES; f++) {
		char name[16];
		int i;

		(void)snprintf(name, sizeof(name), "f%d", f);
		i = lookup(base, f % NDIRS, name, 0);
		if (i < 0) {
			th_fail("budget: create %s", name);
			goto out;
		}
		if (f < NBUSY) {
			pthread_mutex_lock(&dlock);
			dents[i].busy = 1;
			pthread_mutex_unlock(&dlock);
		}
		/* a rename while the file is known: the new name is the one
		 * the kernel has */
		if (f % 50 == 49) {
			char nn[24];
			char path[512];
			struct stat st;

			(void)snprintf(nn, sizeof(nn), "r%d", f);
			(void)snprintf(path, sizeof(path), "%s/d%d/f%d", base,
				       f % NDIRS, f);
			/* as a real rename: the file system records the
			 * new name before its reply, the kernel moves the
			 * dentry after it */
			if (stat(path, &st) == 0)
				inode_name_moved(st.st_dev, st.st_ino,
						 dents[f % NDIRS].in, nn);
			pthread_mutex_lock(&dlock);
			if (dents[i].live) {
				memcpy(dents[i].oldname, dents[i].name,
				       sizeof(dents[i].oldname));
				dents[i].moved_at = inval_calls;
				(void)snprintf(dents[i].name,
					       sizeof(dents[i].name), "%s", nn);
				renamed++;
			}
			pthread_mutex_unlock(&dlock);
		}
	}
	th_check(renamed > 0, "budget: %d renames recorded", renamed);
	/* the reaper works in the background: give it time (no timing is
	 * asserted, only the state reached) */
	for (int t = 0; t < 400 && inode_fd_count() > high; t++)
		nap_ms(5);
	n = inode_fd_count();
	th_check(n <= high, "budget: %d lookups, table at %zu <= high %zu",
		 NDIRS + NFILES, n, high);
	th_check(inode_budget_wait() == 1, "budget: wait with the budget");
	th_check(inode_budget_stop() == 0, "budget: stop joins the reaper");
	pthread_mutex_lock(&dlock);
	for (int i = 0; i < ndents; i++) {
		struct stat st;

		if (!dents[i].held)
			continue;
		held++;
		if (fstat(dents[i].in->fd, &st) != 0)
			bad++;
		if (dents[i].busy)
			busy_alive++;
	}
	pthread_mutex_unlock(&dlock);
	n = inode_fd_count();
	th_check(bad == 0, "budget: every inode the kernel holds has its fd");
	th_check((size_t)held == n,
		 "budget: table holds %zu, the fake kernel holds %d", n, held);
	th_check(inval_stale == 0, "budget: no drop under a pre-rename name");
	th_check(busy_alive == NBUSY + NDIRS, "budget: %d busy inodes kept",
		 busy_alive);
	th_check(inval_calls > 0 && inval_calls - inval_enoent > 0,
		 "budget: %d drops asked, %d found", inval_calls,
		 inval_calls - inval_enoent);
out:
	(void)inode_budget_stop();
	inode_table_free();
}

static char base[] = "/tmp/vcryptfs-budget.XXXXXX";

static void test_reaper(void)
{
	run(base);
}

static const struct th_test unit_tests[] = {
	TH_TEST("reaper", test_reaper),
};

int main(int argc, char **argv)
{
	char path[512];

	if (mkdtemp(base) == NULL) {
		th_fail("budget: mkdtemp");
		return th_exit();
	}
	th_run(argc, argv, unit_tests, TH_COUNT(unit_tests));
	for (int f = 0; f < NFILES; f++) {
		(void)snprintf(path, sizeof(path), "%s/d%d/f%d", base,
			       f % NDIRS, f);
		(void)unlink(path);
	}
	for (int d = 0; d < NDIRS; d++) {
		(void)snprintf(path, sizeof(path), "%s/d%d", base, d);
		(void)rmdir(path);
	}
	if (rmdir(base) != 0)
		th_fail("budget: cleanup of %s", base);
	return th_exit();
}
