/* SPDX-License-Identifier: MIT */
/*
 * Two-core block crypto: see par.h. One helper thread, started on first
 * use, takes at most one job at a time; a caller that finds it busy does
 * the whole run itself, so nothing ever waits for a busy helper.
 * Lock order: par_busy (held by the submitting caller for the whole job),
 * then par_lock (job state). Neither is held while fn runs. Not proved.
 */
#include "fuse/par.h"

#include <pthread.h>

static pthread_mutex_t par_busy = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t par_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t par_posted = PTHREAD_COND_INITIALIZER;
static pthread_cond_t par_done = PTHREAD_COND_INITIALIZER;
static pthread_once_t par_once = PTHREAD_ONCE_INIT;
static int par_started;

/* The job, protected by par_lock. state: 0 idle, 1 posted, 2 done. */
static struct {
	par_fn fn;
	void *arg;
	size_t i0;
	size_t i1;
	int rc;
	int state;
} job;

static void *par_helper(void *unused)
{
	(void)unused;
	pthread_mutex_lock(&par_lock);
	for (;;) {
		par_fn fn;
		void *arg;
		size_t i0;
		size_t i1;
		int rc;

		while (job.state != 1)
			pthread_cond_wait(&par_posted, &par_lock);
		fn = job.fn;
		arg = job.arg;
		i0 = job.i0;
		i1 = job.i1;
		pthread_mutex_unlock(&par_lock);
		rc = fn(arg, i0, i1);
		pthread_mutex_lock(&par_lock);
		job.rc = rc;
		job.state = 2;
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
	size_t mid = n / 2;
	int rc;
	int rc2;

	if (n < min || n < 2)
		return fn(arg, 0, n);
	(void)pthread_once(&par_once, par_start);
	if (!par_started || pthread_mutex_trylock(&par_busy) != 0)
		return fn(arg, 0, n);
	pthread_mutex_lock(&par_lock);
	job.fn = fn;
	job.arg = arg;
	job.i0 = mid;
	job.i1 = n;
	job.rc = 0;
	job.state = 1;
	pthread_cond_signal(&par_posted);
	pthread_mutex_unlock(&par_lock);
	rc = fn(arg, 0, mid);
	pthread_mutex_lock(&par_lock);
	while (job.state != 2)
		pthread_cond_wait(&par_done, &par_lock);
	rc2 = job.rc;
	job.state = 0;
	pthread_mutex_unlock(&par_lock);
	pthread_mutex_unlock(&par_busy);
	return rc != 0 ? rc : rc2;
}
