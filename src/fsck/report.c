/* SPDX-License-Identifier: MIT */
/*
 * vcryptfs -fsck, the report: see report.h. Output wording follows
 * gocryptfs -fsck. Spec: ../shared/FORMAT.md 13.4.
 * Layer: fsck/; depends on fsck.h and base/log.h. Not proved.
 */
#include "fsck/report.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/log.h"

#define PROGRESS_DELAY_NS 500000000LL  /* no progress line for quick runs */
#define PROGRESS_PERIOD_NS 200000000LL /* at most 5 updates a second */

static long long now_ns(void)
{
	struct timespec ts;

	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void report_init(struct report *r, FILE *out, int progress,
		 struct fsck_result *res)
{
	memset(res, 0, sizeof(*res));
	memset(r, 0, sizeof(*r));
	r->out = out;
	r->res = res;
	r->progress = progress;
	r->start_ns = now_ns();
}

void report_progress_clear(struct report *r)
{
	if (r->progress_shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		r->progress_shown = 0;
	}
}

/* Called once per object and once per piece read. */
void report_progress_tick(struct report *r)
{
	long long t;

	if (!r->progress)
		return;
	t = now_ns();
	if (t - r->start_ns < PROGRESS_DELAY_NS ||
	    t - r->last_ns < PROGRESS_PERIOD_NS)
		return;
	r->last_ns = t;
	fprintf(stderr, "\rfsck: %lu checked, %lu corrupt, %lu skipped\033[K",
		r->res->checked, r->res->corrupt, r->res->skipped);
	fflush(stderr);
	r->progress_shown = 1;
}

void report_problem(struct report *r, const char *fmt, ...)
{
	va_list ap, ap2;
	char *raw = NULL, *line = NULL;
	int n;

	report_progress_clear(r);
	va_start(ap, fmt);
	va_copy(ap2, ap);
	n = vsnprintf(NULL, 0, fmt, ap);
	if (n >= 0)
		raw = malloc((size_t)n + 1);
	if (raw != NULL) {
		(void)vsnprintf(raw, (size_t)n + 1, fmt, ap2);
		line = malloc(LOG_ESCAPE_LEN(n));
	}
	va_end(ap2);
	va_end(ap);
	/* names arrive escaped (log_escape); this catches any that did not:
	 * no raw control byte from the cipher dir reaches the terminal */
	if (line != NULL)
		fprintf(r->out, "%s\n",
			log_escape_line(line, LOG_ESCAPE_LEN(n), raw));
	else
		fprintf(r->out, "fsck: out of memory\n");
	fflush(r->out);
	free(line);
	free(raw);
}

void report_corrupt_entry(struct report *r, const char *dir, const char *cname,
			  const char *why)
{
	size_t dl = LOG_ESCAPE_LEN(strlen(dir));
	size_t cl = LOG_ESCAPE_LEN(strlen(cname));
	char *ed = malloc(dl), *ec = malloc(cl);

	if (ed != NULL)
		(void)log_escape_str(ed, dl, dir);
	if (ec != NULL)
		(void)log_escape_str(ec, cl, cname);
	report_problem(r, "fsck: corrupt entry in dir \"%s\": \"%s\"%s%s",
		       ed != NULL ? ed : "?", ec != NULL ? ec : "?",
		       why != NULL ? ": " : "", why != NULL ? why : "");
	free(ed);
	free(ec);
}

void report_summary(struct report *r)
{
	report_progress_clear(r);
	if (r->res->aborted)
		fprintf(r->out, "fsck: aborted\n");
	else if (r->res->corrupt == 0 && r->res->skipped == 0)
		fprintf(r->out, "fsck summary: no problems found\n");
	else
		fprintf(r->out,
			"fsck summary: %lu corrupt files, %lu files "
			"skipped\n",
			r->res->corrupt, r->res->skipped);
	fflush(r->out);
}
