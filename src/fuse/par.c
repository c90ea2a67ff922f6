/* SPDX-License-Identifier: MIT */
/*
 * Two-core block crypto: see par.h. One helper thread, started on first
 * use, takes at most one job at a time; a caller that finds it busy does
 * the whole run itself. The items are handed out in chunks from a shared
 * counter, so whoever is running takes the next chunk: when the helper
 * wakes late (the machine is busy) the caller has already done most of the
 * work, and when the helper has not woken at all by the time the caller is
 * done, the caller takes the job back and never waits for it.
 * Lock order: par_busy (held by the submitting caller for the whole job),
 * then par_lock (job state). Neither is held while fn runs. Not proved.
 */
#include "fuse/par.h"
#include "sys/sys.h"

#include <pthread.h>
#include <stdatomic.h>

/* Items per chunk: at least this many, about an eighth of the run. */
#define CHUNK_MIN 8U

static pthread_mutex_t par_busy = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t par_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t par_posted = PTHREAD_COND_INITIALIZER;
static pthread_cond_t par_done = PTHREAD_COND_INITIALIZER;
static pthread_once_t par_once = PTHREAD_ONCE_INIT;
static int par_started;

enum { IDLE, POSTED, RUNNING, DONE };

/* The job: fn, arg, n, chunk and state are protected by par_lock; next
 * is claimed by both threads while the job runs. */
static struct {
	par_fn fn;
	void *arg;
	size_t n;
	size_t chunk;
	atomic_size_t next;
	int state;
} job;

/* The first failure of one thread: its result and the chunk's start. */
struct par_err {
	int rc;
	size_t at;
};

/* Claim and run chunks until none is left; keep the first failure. */
static void run_chunks(par_fn fn, void *arg, size_t n, size_t chunk,
		       struct par_err *e)
{
	for (;;) {
		size_t i0 = atomic_fetch_add(&job.next, chunk);
		size_t i1;
		int rc;

		if (i0 >= n)
			return;
		i1 = n - i0 < chunk ? n : i0 + chunk;
		rc = fn(arg, i0, i1);
		if (rc != 0 && (e->rc == 0 || i0 < e->at)) {
			e->rc = rc;
			e->at = i0;
		}
	}
}

static struct par_err helper_err;

static void *par_helper(void *unused)
{
	(void)unused;
	/* started by whichever thread first ran a large job: maybe a ring
	 * thread, pinned at SCHED_IDLE (fuse/uring.c), whose policy, CPU
	 * and name a new thread inherits */
	sys_thread_normal();
	(void)pthread_setname_np(pthread_self(), "vc-par");
	pthread_mutex_lock(&par_lock);
	for (;;) {
		par_fn fn;
		void *arg;
		size_t n;
		size_t chunk;
		struct par_err e = { 0, 0 };

		while (job.state != POSTED)
			pthread_cond_wait(&par_posted, &par_lock);
		job.state = RUNNING;
		fn = job.fn;
		arg = job.arg;
		n = job.n;
		chunk = job.chunk;
		pthread_mutex_unlock(&par_lock);
		run_chunks(fn, arg, n, chunk, &e);
		pthread_mutex_lock(&par_lock);
		helper_err = e;
		job.state = DONE;
		pthread_cond_signal(&par_done);
	}
	return NULL;
}

static void par_start(void)
{
	pthread_t t;
	pthread_attr_t at;

	if (pthread_attr_init(&at) != 0)
		return;
	(void)pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&t, &at, par_helper, NULL) == 0)
		par_started = 1;
	(void)pthread_attr_destroy(&at);
}

int par_run(par_fn fn, void *arg, size_t n, size_t min)
{
	struct par_err mine = { 0, 0 };
	struct par_err theirs = { 0, 0 };
	size_t chunk = n / 8 > CHUNK_MIN ? n / 8 : CHUNK_MIN;

	if (n < min || n < 2)
		return fn(arg, 0, n);
	(void)pthread_once(&par_once, par_start);
	if (!par_started || pthread_mutex_trylock(&par_busy) != 0)
		return fn(arg, 0, n);
	pthread_mutex_lock(&par_lock);
	job.fn = fn;
	job.arg = arg;
	job.n = n;
	job.chunk = chunk;
	atomic_store(&job.next, 0);
	job.state = POSTED;
	pthread_cond_signal(&par_posted);
	pthread_mutex_unlock(&par_lock);
	run_chunks(fn, arg, n, chunk, &mine);
	pthread_mutex_lock(&par_lock);
	if (job.state == POSTED) {
		/* The helper never started: nothing is left for it. */
		job.state = IDLE;
	} else {
		while (job.state != DONE)
			pthread_cond_wait(&par_done, &par_lock);
		theirs = helper_err;
		job.state = IDLE;
	}
	pthread_mutex_unlock(&par_lock);
	pthread_mutex_unlock(&par_busy);
	if (theirs.rc != 0 && (mine.rc == 0 || theirs.at < mine.at))
		return theirs.rc;
	return mine.rc;
}
