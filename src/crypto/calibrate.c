/* SPDX-License-Identifier: MIT */
/*
 * The calibrated kernel choice. See calibrate.h.
 * Spec: none (policy, issue 21: fastest kernel with a margin, tie to the
 * lower level; Linux picks its RAID-6 and XOR routines the same way).
 * Depends on: dispatch.h, aead/chachapoly.h; libc clock_gettime, vsnprintf.
 * Constant time: not applicable. Not proved.
 */
#include "crypto/calibrate.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "crypto/aead/chachapoly.h"

#define CAL_BS 4096 /* one gocryptfs content block */

static struct calibrate_report report;
static int once;

/* fixed public inputs: the figures, not the bytes, matter */
static uint8_t cal_in[CAL_BS];
static uint8_t cal_out[CAL_BS];
static const uint8_t cal_key[32] = { 1, 2, 3, 4 };
static const uint8_t cal_nonce[24] = { 5, 6, 7, 8 };
static const uint8_t cal_ad[24] = { 9 };

static double cpu_seconds(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
		clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double real_elapsed;

/* the real timer: `seals` seals of one block through the current choice */
static double real_timer(const struct dispatch_kernel *k, unsigned seals)
{
	uint8_t tag[16];
	double t0, dt;

	(void)k;
	t0 = cpu_seconds();
	for (unsigned i = 0; i < seals; i++)
		xchachapoly_seal(cal_out, tag, cal_in, CAL_BS, cal_ad,
				 sizeof(cal_ad), cal_key, cal_nonce);
	dt = cpu_seconds() - t0;
	real_elapsed += dt;
	/* a clock tick coarser than the run: count it as one nanosecond */
	if (dt <= 0)
		dt = 1e-9;
	return (double)seals * CAL_BS / dt / 1e6;
}

/* see calibrate.h */
size_t calibrate_pick(const double *mbps, size_t n, double margin)
{
	size_t best = n;

	for (size_t i = 0; i < n; i++) {
		if (!(mbps[i] > 0))
			continue;
		if (best == n || mbps[i] >= (1 + margin) * mbps[best])
			best = i;
	}
	return best;
}

/* see calibrate.h */
void calibrate_run(calibrate_timer_fn timer)
{
	const struct dispatch_kernel *list;
	const struct dispatch_kernel *start;
	int avail[CALIBRATE_MAX];
	size_t n, pick;

	dispatch_init();
	list = dispatch_list(&n);
	if (n > CALIBRATE_MAX)
		n = CALIBRATE_MAX;
	report.n = n;
	report.chosen = NULL;
	report.seconds = 0;
	for (size_t i = 0; i < n; i++)
		report.mbps[i] = 0;
	if (dispatch_forced()) {
		report.state = CALIBRATE_FORCED;
		return;
	}
	if (timer == NULL)
		timer = real_timer;
	real_elapsed = 0;
	start = dispatch_current()->kernel;
	for (size_t i = 0; i < n; i++)
		avail[i] = dispatch_kernel_get(&list[i]) != NULL;
	/* run 0 warms each kernel up (caches, and the wide units' power-up
	 * on AVX-512 parts) and is not counted; the kernels take turns run
	 * by run, so a burst of load hits all of them alike */
	for (int r = 0; r <= CALIBRATE_RUNS; r++) {
		for (size_t i = 0; i < n; i++) {
			double v;

			if (!avail[i] || dispatch_set(&list[i]) != 0)
				continue;
			v = timer(&list[i], CALIBRATE_SEALS);
			if (r > 0 && v > report.mbps[i])
				report.mbps[i] = v;
		}
	}
	report.seconds = real_elapsed;
	pick = calibrate_pick(report.mbps, n, CALIBRATE_MARGIN);
	if (pick < n && dispatch_set(&list[pick]) == 0) {
		report.chosen = &list[pick];
	} else {
		/* nothing measured (cannot happen: portable always runs) */
		(void)dispatch_set(start);
	}
	report.state = CALIBRATE_DONE;
}

/* see calibrate.h */
void calibrate_once(void)
{
	if (once)
		return;
	once = 1;
	calibrate_run(NULL);
}

/* see calibrate.h */
const struct calibrate_report *calibrate_report(void)
{
	return &report;
}

/* append printf output at *used, never past n - 1 bytes */
static void put(char *buf, size_t n, size_t *used, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void put(char *buf, size_t n, size_t *used, const char *fmt, ...)
{
	va_list ap;
	int r;

	if (*used + 1 >= n)
		return;
	va_start(ap, fmt);
	r = vsnprintf(buf + *used, n - *used, fmt, ap);
	va_end(ap);
	if (r < 0)
		return;
	*used += (size_t)r < n - *used ? (size_t)r : n - *used - 1;
}

/* see calibrate.h */
char *calibrate_line(char *buf, size_t n)
{
	const struct dispatch_kernel *list;
	size_t used = 0, nk;

	if (n == 0)
		return buf;
	buf[0] = 0;
	list = dispatch_list(&nk);
	switch (report.state) {
	case CALIBRATE_NOT_RUN:
		put(buf, n, &used,
		    "calibration: not run (kernel by CPU checks)");
		return buf;
	case CALIBRATE_FORCED:
		put(buf, n, &used,
		    "calibration: skipped (VCRYPTFS_IMPL=%s forces the kernel)",
		    dispatch_requested());
		return buf;
	case CALIBRATE_DONE:
		break;
	}
	put(buf, n, &used, "calibration:");
	for (size_t i = 0; i < report.n && i < nk; i++) {
		if (report.mbps[i] > 0)
			put(buf, n, &used, "%s %s %.1f", i ? "," : "",
			    list[i].name, report.mbps[i]);
		else
			put(buf, n, &used, "%s %s N/A", i ? "," : "",
			    list[i].name);
	}
	put(buf, n, &used,
	    " MB/s (best of %d runs of %d 4 KiB seals, %.1f ms CPU); "
	    "chosen %s (a higher level must be %.0f%% faster)",
	    CALIBRATE_RUNS, CALIBRATE_SEALS, report.seconds * 1e3,
	    report.chosen != NULL ? report.chosen->name : "none",
	    CALIBRATE_MARGIN * 100);
	return buf;
}
