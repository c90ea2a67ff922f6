/* SPDX-License-Identifier: MIT */
/*
 * src/fuse/par.c, the two-core block splitter: every item of a run is
 * done exactly once whatever the helper does (busy, late, fast), runs
 * below the threshold stay on the caller, the lowest failing chunk's
 * result is returned, and several threads submitting at once never mix
 * their jobs. Spec: par.h.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "fuse/par.h"
#include "th.h"

#define NMAX 1024U
#define NTHREADS 4
#define ROUNDS 300

struct job {
	atomic_int hits[NMAX];
	pthread_t caller;
	atomic_int foreign; /* items done by a thread other than the caller */
	size_t fail_at;	    /* item that fails, or NMAX for none */
};

static int count_items(void *arg, size_t i0, size_t i1)
{
	struct job *j = arg;

	if (!pthread_equal(pthread_self(), j->caller))
		atomic_fetch_add(&j->foreign, (int)(i1 - i0));
	for (size_t i = i0; i < i1; i++) {
		atomic_fetch_add(&j->hits[i], 1);
		if (i == j->fail_at)
			return (int)(i + 1);
	}
	return 0;
}

/* Run n items once; 1 when every item was hit exactly once. */
static int run_once(struct job *j, size_t n, size_t min, int *rc)
{
	for (size_t i = 0; i < NMAX; i++)
		atomic_store(&j->hits[i], 0);
	atomic_store(&j->foreign, 0);
	j->caller = pthread_self();
	*rc = par_run(count_items, j, n, min);
	for (size_t i = 0; i < n; i++)
		if (atomic_load(&j->hits[i]) != 1 && j->fail_at == NMAX)
			return 0;
	return 1;
}

static long bad_runs[NTHREADS];

static void *submitter(void *arg)
{
	static struct job jobs[NTHREADS];
	int me = arg != NULL ? *(int *)arg : 0;
	struct job *j = &jobs[me];
	uint32_t x = 0x9e3779b9U ^ (uint32_t)(j - jobs);
	int rc = 0;
	long bad = 0;

	j->fail_at = NMAX;
	for (int r = 0; r < ROUNDS; r++) {
		size_t n;

		/* xorshift32 of its own: th_rand32 is not thread-safe */
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		n = 2 + x % 300;

		if (!run_once(j, n, 8, &rc) || rc != 0)
			bad++;
	}
	bad_runs[me] = bad;
	return NULL;
}

static struct job main_job = { .fail_at = NMAX };

static void test_sizes(void)
{
	int rc = 0, ok = 1;

	for (size_t n = 0; n <= 300 && ok; n++)
		ok = run_once(&main_job, n, 8, &rc) && rc == 0;
	th_check(ok, "par: runs of 0..300 items, each item done exactly once");
}

static void test_threshold(void)
{
	int rc = 0;
	int ok = run_once(&main_job, 7, 8, &rc) && rc == 0 &&
		 atomic_load(&main_job.foreign) == 0;

	th_check(ok, "par: a run below the threshold stays on the caller");
}

static void test_failure(void)
{
	int rc = 0, ok = 1;

	for (int r = 0; r < 200 && ok; r++) {
		main_job.fail_at = 5 + th_rand32() % 250;
		(void)run_once(&main_job, 256, 8, &rc);
		ok = rc == (int)main_job.fail_at + 1;
	}
	main_job.fail_at = NMAX;
	th_check(ok, "par: a failing item's result comes back (200 runs)");
}

static void test_threads(void)
{
	pthread_t t[NTHREADS];
	int idx[NTHREADS];
	long bad = 0;

	for (int i = 0; i < NTHREADS; i++) {
		idx[i] = i;
		if (pthread_create(&t[i], NULL, submitter, &idx[i]) != 0) {
			th_fail("par: pthread_create");
			return;
		}
	}
	for (int i = 0; i < NTHREADS; i++) {
		pthread_join(t[i], NULL);
		bad += bad_runs[i];
	}
	th_check(bad == 0,
		 "par: %d threads x %d runs at once, no item lost or "
		 "doubled (%ld bad)",
		 NTHREADS, ROUNDS, bad);
}

static const struct th_test unit_tests[] = {
	TH_TEST("sizes", test_sizes),
	TH_TEST("threshold", test_threshold),
	TH_TEST("failure", test_failure),
	TH_TEST("threads", test_threads),
};

int main(int argc, char **argv)
{
	return th_main(argc, argv, unit_tests, TH_COUNT(unit_tests), NULL);
}
