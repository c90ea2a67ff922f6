/* SPDX-License-Identifier: MIT */
/*
 * The calibrated kernel choice (src/crypto/calibrate.h, issue 21): the
 * rule "fastest, a higher level only when CALIBRATE_MARGIN faster, ties to
 * the lower level" on fixed figures (calibrate_pick) and through
 * calibrate_run() with injected fake timings (never timing nor choosing a
 * kernel whose CPU check failed, also with CPU bits masked), the real run
 * (the choice is the rule applied to what was measured, and the -version
 * line names every figure), and VCRYPTFS_IMPL forcing a kernel (a child
 * process of this binary, since the variable is read at start).
 * No time is asserted: the real run's figures are only checked for being
 * there and for agreeing with the choice.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "crypto/calibrate.h"
#include "crypto/cpu.h"
#include "crypto/dispatch.h"
#include "th.h"

#define M CALIBRATE_MARGIN

/* the rule on one row of figures */
static void pick_is(const char *what, const double *v, size_t n, size_t want)
{
	size_t got = calibrate_pick(v, n, M);

	th_check(got == want, "rule: %s -> index %zu (got %zu)", what, want,
		 got);
}

static void test_rule(void)
{
	/* the issue's AVX-512 machine: avx2 2244 beats avx512 2107 */
	const double issue[] = { 610, 850, 880, 2244, 2107 };
	const double tie[] = { 900, 900, 900, 900 };
	const double below[] = { 100, 104.9, 109.7 };
	const double at[] = { 100, 105 };
	const double gap[] = { 100, 0, 300, -1, 299 };
	const double none[] = { 0, 0 };
	const double climb[] = { 100, 104, 106, 110 };

	pick_is("issue figures: avx2 over a slower avx512", issue, 5, 3);
	pick_is("equal figures tie to the lowest level", tie, 4, 0);
	pick_is("4.9% faster is not enough, 9.7% over the lowest is", below, 3,
		2);
	pick_is("exactly 5% faster moves up", at, 2, 1);
	pick_is("unavailable kernels (0, -1) are never picked", gap, 5, 2);
	pick_is("nothing available", none, 2, 2);
	/* 104 stays below 105: the lowest stays; 106 moves up; 110 is less
	 * than 5% over 106, so 106 stays */
	pick_is("the margin counts from the best so far", climb, 4, 2);
}

/* fake timings: figures per level, and a record of what was timed */
static double fake_mbps[CALIBRATE_MAX];
static unsigned fake_calls[CALIBRATE_MAX];
static int fake_bad; /* timed a kernel the CPU checks rule out */

static double fake_timer(const struct dispatch_kernel *k, unsigned seals)
{
	const struct dispatch_kernel *list;
	size_t n, i;

	(void)seals;
	list = dispatch_list(&n);
	i = (size_t)(k - list);
	if (i >= n || i >= CALIBRATE_MAX)
		return 0;
	if (dispatch_kernel_get(k) == NULL || dispatch_current()->kernel != k)
		fake_bad = 1;
	fake_calls[i]++;
	return fake_mbps[i];
}

/* run the calibration on fake figures (in dispatch_list() order), check
 * the choice is the rule applied to the available kernels' figures */
static void fake_run(const char *what, const double *v)
{
	const struct dispatch_kernel *list;
	const struct calibrate_report *rep;
	double avail[CALIBRATE_MAX] = { 0 };
	size_t n, want, timed_bad = 0;

	list = dispatch_list(&n);
	if (list == NULL || n > CALIBRATE_MAX) {
		th_fail("hook: %s: no kernel table", what);
		return;
	}
	for (size_t i = 0; i < n && i < CALIBRATE_MAX; i++) {
		fake_mbps[i] = v[i];
		fake_calls[i] = 0;
		avail[i] = dispatch_kernel_get(&list[i]) != NULL ? v[i] : 0;
	}
	fake_bad = 0;
	want = calibrate_pick(avail, n, M);
	calibrate_run(fake_timer);
	rep = calibrate_report();
	for (size_t i = 0; i < n && i < CALIBRATE_MAX; i++) {
		int ok = dispatch_kernel_get(&list[i]) != NULL;

		if (ok != (fake_calls[i] > 0) || (!ok && rep->mbps[i] != 0))
			timed_bad++;
	}
	th_check(rep->state == CALIBRATE_DONE && want < n &&
			 rep->chosen == &list[want] &&
			 dispatch_current()->kernel == &list[want] &&
			 fake_bad == 0 && timed_bad == 0,
		 "hook: %s -> %s (chosen %s; every available kernel timed, "
		 "no other)",
		 what, want < n ? list[want].name : "?",
		 rep->chosen != NULL ? rep->chosen->name : "none");
	if (rep->chosen != NULL && dispatch_kernel_get(rep->chosen) == NULL)
		th_fail("hook: %s: chose %s, whose CPU check fails", what,
			rep->chosen->name);
}

static void test_hook(void)
{
	double up[CALIBRATE_MAX] = { 0 }, flat[CALIBRATE_MAX] = { 0 };
	double down[CALIBRATE_MAX] = { 0 };
	double issue[CALIBRATE_MAX] = { 610, 850, 880, 2244, 2107 };
	size_t n;

	if (dispatch_forced()) {
		th_skip("%s: VCRYPTFS_IMPL forces the kernel", __func__);
		return;
	}
	dispatch_list(&n);
	if (n > CALIBRATE_MAX) {
		th_fail("hook: %zu kernels, room for %d", n, CALIBRATE_MAX);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		up[i] = 500.0 * (double)(i + 1);
		flat[i] = 700 * (1 + 0.04 * (double)i / (double)n);
		down[i] = 3000.0 - 400.0 * (double)i;
	}
	fake_run("each level faster: the highest available", up);
	fake_run("within the margin: the lowest", flat);
	fake_run("each level slower: portable", down);
	fake_run("the issue's AVX-512 figures", issue);
}

/* with the vector levels masked (as on an SSSE3-only CPU), the fake
 * figures favour them: they must be neither timed nor chosen */
static void test_masked(void)
{
	double up[CALIBRATE_MAX] = { 0 };
	unsigned before = cpu_masked();
	size_t n;

	if (dispatch_forced()) {
		th_skip("%s: VCRYPTFS_IMPL forces the kernel", __func__);
		return;
	}
	dispatch_list(&n);
	for (size_t i = 0; i < n && i < CALIBRATE_MAX; i++)
		up[i] = 500.0 * (double)(i + 1);
	cpu_mask(CPU_AVX | CPU_AVX2 | CPU_AVX512_ALL | CPU_AVX512IFMA);
	fake_run("avx, avx2, avx512 masked: the best unmasked", up);
	cpu_mask(CPU_SSSE3);
	fake_run("everything masked: portable", up);
	cpu_unmask_all();
	cpu_mask(before);
	calibrate_run(fake_timer); /* back to a choice the CPU allows */
}

/* the real run: the choice is the rule on the figures, the line names
 * them (as -version and -speed print it) */
static void test_real(void)
{
	const struct dispatch_kernel *list;
	const struct calibrate_report *rep;
	char line[400], fig[64];
	size_t n, want, missing = 0, bad = 0;

	if (dispatch_forced()) {
		th_skip("%s: VCRYPTFS_IMPL forces the kernel", __func__);
		return;
	}
	calibrate_run(NULL);
	rep = calibrate_report();
	list = dispatch_list(&n);
	if (list == NULL || n > CALIBRATE_MAX) {
		th_fail("real: no kernel table");
		return;
	}
	want = calibrate_pick(rep->mbps, rep->n, M);
	for (size_t i = 0; i < n && i < CALIBRATE_MAX; i++)
		if ((dispatch_kernel_get(&list[i]) != NULL) !=
		    (rep->mbps[i] > 0))
			bad++;
	th_check(rep->state == CALIBRATE_DONE && rep->n == n && want < n &&
			 rep->chosen == &list[want] &&
			 dispatch_current()->kernel == rep->chosen && bad == 0,
		 "real: chose %s, the rule on the figures measured; a figure "
		 "for each available kernel only",
		 rep->chosen != NULL ? rep->chosen->name : "none");
	th_check(rep->chosen != NULL &&
			 dispatch_kernel_get(rep->chosen) != NULL,
		 "real: the chosen kernel passes its CPU check");
	calibrate_line(line, sizeof(line));
	printf("    %s\n", line);
	for (size_t i = 0; i < n && i < CALIBRATE_MAX; i++) {
		if (rep->mbps[i] > 0)
			snprintf(fig, sizeof(fig), " %s %.1f", list[i].name,
				 rep->mbps[i]);
		else
			snprintf(fig, sizeof(fig), " %s N/A", list[i].name);
		if (strstr(line, fig) == NULL)
			missing++;
	}
	snprintf(fig, sizeof(fig), "chosen %s ",
		 rep->chosen != NULL ? rep->chosen->name : "none");
	th_check(strncmp(line, "calibration:", 12) == 0 && missing == 0 &&
			 strstr(line, fig) != NULL,
		 "real: the calibration line names every figure and the "
		 "choice");
}

/* VCRYPTFS_IMPL=portable: no timing, the kernel stays the one named. In
 * this process VCRYPTFS_IMPL was read at start, so a child runs the row. */
static void test_forced(void)
{
	pid_t pid;
	int st;

	if (dispatch_forced()) {
		const struct dispatch_kernel *k = dispatch_current()->kernel;
		char line[400];

		fake_calls[0] = 0;
		calibrate_run(fake_timer);
		calibrate_line(line, sizeof(line));
		th_check(calibrate_report()->state == CALIBRATE_FORCED &&
				 fake_calls[0] == 0 &&
				 dispatch_current()->kernel == k &&
				 strcmp(k->name, dispatch_requested()) == 0 &&
				 strstr(line, "skipped (VCRYPTFS_IMPL=") !=
					 NULL,
			 "forced: VCRYPTFS_IMPL=%s keeps %s, nothing timed "
			 "(%s)",
			 dispatch_requested(), k->name, line);
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		th_fail("forced: fork failed");
		return;
	}
	if (pid == 0) {
		char *args[] = { (char *)"test_calibrate", (char *)"forced",
				 NULL };

		setenv("VCRYPTFS_IMPL", "portable", 1);
		execv("/proc/self/exe", args);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
	    WEXITSTATUS(st) != 0)
		th_fail("forced: the child run with VCRYPTFS_IMPL=portable "
			"failed");
}

static const struct th_test unit_tests[] = {
	TH_TEST("rule", test_rule),	TH_TEST("hook", test_hook),
	TH_TEST("masked", test_masked), TH_TEST("real", test_real),
	TH_TEST("forced", test_forced),
};

int main(int argc, char **argv)
{
	/* nothing calibrated yet in a test binary */
	char line[200];

	calibrate_line(line, sizeof(line));
	if (!dispatch_forced())
		th_check(calibrate_report()->state == CALIBRATE_NOT_RUN &&
				 strstr(line, "not run") != NULL,
			 "before any calibration: '%s'", line);
	return th_main(argc, argv, unit_tests, TH_COUNT(unit_tests), NULL);
}
