/* SPDX-License-Identifier: MIT */
/*
 * The logger (see log.h). Each message is formatted into one buffer and
 * written with one call, so lines from threads do not interleave.
 * Depends on: libc (stdio, syslog). Not proved.
 * Layer: base/. Also log_escape(), the rule for untrusted names.
 */
#include "base/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
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
	char raw[1024];
	char msg[LOG_ESCAPE_LEN(sizeof(raw))];

	(void)vsnprintf(raw, sizeof(raw), fmt, ap);
	/* the last line of defence: a name that reached fmt's arguments
	 * without log_escape() can still not forge lines or move the
	 * terminal's cursor */
	(void)log_escape_line(msg, sizeof(msg), raw);
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

/* See log.h. */
char *log_escape(char *buf, size_t cap, const void *bytes, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = bytes;
	const size_t mlen = sizeof(LOG_ESCAPE_TRUNC) - 1;
	size_t full = 0, o = 0, limit;

	if (cap == 0)
		return buf;
	for (size_t i = 0; i < len; i++)
		full += (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\') ? 1 : 4;
	/* invariant below: o + (room kept for the marker) < cap */
	limit = full < cap ? cap - 1 : (cap - 1 > mlen ? cap - 1 - mlen : 0);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = p[i];

		if (c >= 0x20 && c < 0x7f && c != '\\') {
			if (o + 1 > limit)
				break;
			buf[o++] = (char)c;
		} else {
			if (o + 4 > limit)
				break;
			buf[o++] = '\\';
			buf[o++] = 'x';
			buf[o++] = hex[c >> 4];
			buf[o++] = hex[c & 15];
		}
	}
	if (full >= cap) {
		size_t m = cap - 1 - o < mlen ? cap - 1 - o : mlen;

		memcpy(buf + o, LOG_ESCAPE_TRUNC, m);
		o += m;
	}
	buf[o] = '\0';
	return buf;
}

/* See log.h. */
char *log_escape_line(char *buf, size_t cap, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0;

	if (cap == 0)
		return buf;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p >= 0x20 && *p < 0x7f) {
			if (o + 1 >= cap)
				break;
			buf[o++] = (char)*p;
		} else {
			if (o + 4 >= cap)
				break;
			buf[o++] = '\\';
			buf[o++] = 'x';
			buf[o++] = hex[*p >> 4];
			buf[o++] = hex[*p & 15];
		}
	}
	buf[o] = '\0';
	return buf;
}

/* See log.h. */
char *log_escape_str(char *buf, size_t cap, const char *s)
{
	return log_escape(buf, cap, s, strlen(s));
}
