/* SPDX-License-Identifier: MIT */
/*
 * The calibrated kernel choice (issue 21): once at start, before any
 * thread, time every ChaCha20 kernel whose CPU checks passed (dispatch.h)
 * on a few 4 KiB XChaCha20-Poly1305 seals, and keep the fastest, where a
 * higher level must be at least CALIBRATE_MARGIN faster than the best
 * lower one to be chosen over it (equal or close figures: the lower level
 * wins, deterministically). dispatch_init()'s pick (the highest level the
 * CPU checks allow) is only the starting point: on a CPU where a wider
 * kernel runs slower (AVX-512 here: 2107 against 2244 MB/s for AVX2) the
 * calibration moves the choice down. VCRYPTFS_IMPL=<kernel> skips it: the
 * choice is then the one named, as before.
 * Timing: thread CPU time (CLOCK_THREAD_CPUTIME_ID, so a preempted run
 * is not charged for the other threads of a shared machine), runs of
 * CALIBRATE_SEALS seals, the best of CALIBRATE_RUNS runs per kernel after
 * one warm-up run, the kernels interleaved run by run: a few milliseconds
 * in all on real hardware (tens of times more under qemu-user, which
 * then times its emulation, and the choice is whatever that measured).
 * Depends on: dispatch.h, aead/chachapoly.h; libc clock_gettime.
 * Thread-safety: calibrate_once() and calibrate_run() change the
 * dispatcher's choice: call them before any thread starts (main() does).
 * Constant time: not applicable (a fixed public key and all-zero data).
 * Not proved; tests/unit/test_calibrate.c checks the rule with injected
 * timings and the real run, tests/checks/45-cli.sh the -version line.
 */
#ifndef VCRYPTFS_CALIBRATE_H
#define VCRYPTFS_CALIBRATE_H

#include <stddef.h>

#include "crypto/dispatch.h"

#define CALIBRATE_MARGIN 0.05 /* a higher level must be 5% faster */
#define CALIBRATE_SEALS 8     /* 4096-byte seals per timed run */
#define CALIBRATE_RUNS 7      /* timed runs per kernel (best kept) */
#define CALIBRATE_MAX 8	      /* room for the kernels of dispatch_list() */

enum calibrate_state {
	CALIBRATE_NOT_RUN = 0, /* nobody called calibrate_once/run */
	CALIBRATE_DONE = 1,    /* measured; the choice follows the rule */
	CALIBRATE_FORCED = 2,  /* VCRYPTFS_IMPL named a kernel: not timed */
};

struct calibrate_report {
	enum calibrate_state state;
	size_t n; /* entries: dispatch_list()'s, in its order */
	/* best MB/s (10^6 bytes/s) per kernel; 0 when its CPU check failed */
	double mbps[CALIBRATE_MAX];
	const struct dispatch_kernel *chosen; /* NULL unless DONE */
	double seconds;			      /* CPU time the runs took */
};

/*
 * One timed run of `seals` seals of 4096 bytes with kernel k already
 * made the dispatcher's choice; returns MB/s. The real one measures; unit
 * tests inject fake figures through calibrate_run().
 */
typedef double (*calibrate_timer_fn)(const struct dispatch_kernel *k,
				     unsigned seals);

/*
 * The rule, on figures in dispatch_list() order (lowest level first;
 * mbps[i] <= 0: kernel i not available): start from the lowest available
 * kernel, and move up to kernel i only when mbps[i] >= (1 + margin) *
 * mbps[best so far]. Returns the index chosen, or n when none is
 * available. Pure: no clock, no dispatcher.
 */
size_t calibrate_pick(const double *mbps, size_t n, double margin);

/* Calibrate (timer NULL: the real clock) unless VCRYPTFS_IMPL forced a
 * kernel, and make the winner the dispatcher's choice. May run again
 * (tests); only before threads. */
void calibrate_run(calibrate_timer_fn timer);

/* calibrate_run(NULL) the first time, nothing afterwards: the CLI's one
 * call, in main() before anything starts a thread. */
void calibrate_once(void);

/* The last calibration (state CALIBRATE_NOT_RUN before any). */
const struct calibrate_report *calibrate_report(void);

/*
 * One line for -version and -speed, without newline, into buf (truncated
 * to n - 1 bytes), e.g. "calibration: portable 610.2, ssse3 853.0, avx
 * 901.4, avx2 2244.1, avx512 2107.9 MB/s (best of 7 runs of 8 4 KiB
 * seals, 2.1 ms CPU); chosen avx2 (a higher level must be 5% faster)".
 * Kernels the CPU lacks are listed as N/A. Returns buf.
 */
char *calibrate_line(char *buf, size_t n);

#endif
