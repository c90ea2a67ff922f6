/* SPDX-License-Identifier: MIT */
/*
 * vcryptfs -fsck, the report: the counters of a run, problem and skip
 * lines, the single updating progress line, and the closing "fsck summary"
 * line. Names from the cipher directory reach a line only through
 * log_escape() (base/log.h); report_corrupt_entry() does it itself.
 * Spec: ../shared/FORMAT.md 13.4 (the output). Layer: fsck/; depends on
 * fsck.h (struct fsck_result) and base/log.h only, and is used by fsck.c
 * and fsck_file.c, which therefore never call each other back.
 * Not thread-safe (one run, one thread). Not proved.
 */
#ifndef VCRYPTFS_FSCK_REPORT_H
#define VCRYPTFS_FSCK_REPORT_H

#include <stdio.h>

#include "fsck/fsck.h"

/* The report of one run; fields are private to report.c but for res. */
struct report {
	FILE *out;		 /* problem and summary lines */
	struct fsck_result *res; /* the counters the caller reads back */
	int progress;		 /* draw a progress line on stderr */
	int progress_shown;
	long long start_ns; /* CLOCK_MONOTONIC at report_init() */
	long long last_ns;  /* last progress redraw */
};

/* Start a report on out into res (zeroed here); progress non-zero draws a
 * progress line on stderr once the run is slow enough. */
void report_init(struct report *r, FILE *out, int progress,
		 struct fsck_result *res);

/* One problem line on r->out (clears the progress line first). The caller
 * escapes names in it with log_escape() (base/log.h). */
void report_problem(struct report *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* "fsck: corrupt entry in dir "<dir>": "<cname>"[: <why>]": dir and
 * cname are escaped here; why (NULL for none) is our own text. */
void report_corrupt_entry(struct report *r, const char *dir, const char *cname,
			  const char *why);

/* Erases the progress line, if one is shown. */
void report_progress_clear(struct report *r);

/* Redraws the progress line when the run is slow enough to need one. */
void report_progress_tick(struct report *r);

/* The closing line: "fsck: aborted", "fsck summary: no problems found"
 * or "fsck summary: N corrupt files, N files skipped". */
void report_summary(struct report *r);

#endif
