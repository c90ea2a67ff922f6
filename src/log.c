/* SPDX-License-Identifier: MIT */
/*
 * The logger (see log.h). Each message is formatted into one buffer and
 * written with one call, so lines from threads do not interleave.
 * Depends on: libc (stdio, syslog). Not proved.
 */
#include "log.h"

#include <stdarg.h>
#include <stdio.h>
#include <syslog.h>

static enum log_level log_level_cur = LOGL_INFO;
static int log_syslog;

void log_set_level(enum log_level level)
{
	log_level_cur = level;
}

enum log_level log_get_level(void)
{
	return log_level_cur;
}

void log_use_syslog(int on)
{
	if (on && !log_syslog)
		openlog("vcryptfs", LOG_PID, LOG_USER);
	else if (!on && log_syslog)
		closelog();
	log_syslog = on != 0;
}

__attribute__((format(printf, 4, 0))) static void log_emit(int prio, FILE *f,
							   const char *prefix,
							   const char *fmt,
							   va_list ap)
{
	char msg[1024];

	(void)vsnprintf(msg, sizeof(msg), fmt, ap);
	if (log_syslog)
		syslog(prio, "%s%s", prefix, msg);
	else if (f == stdout)
		fprintf(f, "%s\n", msg);
	else
		fprintf(f, "vcryptfs: %s%s\n", prefix, msg);
	fflush(f);
}

void log_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_emit(LOG_ERR, stderr, "", fmt, ap);
	va_end(ap);
}

void log_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_emit(LOG_WARNING, stderr, "warning: ", fmt, ap);
	va_end(ap);
}

void log_info(const char *fmt, ...)
{
	va_list ap;

	if (log_level_cur < LOGL_INFO)
		return;
	va_start(ap, fmt);
	log_emit(LOG_INFO, stdout, "", fmt, ap);
	va_end(ap);
}

void log_debug(const char *fmt, ...)
{
	va_list ap;

	if (log_level_cur < LOGL_DEBUG)
		return;
	va_start(ap, fmt);
	log_emit(LOG_DEBUG, stderr, "debug: ", fmt, ap);
	va_end(ap);
}
