/* SPDX-License-Identifier: MIT */
/*
 * The one logger: levels, stderr or syslog, one line per message.
 * Errors and warnings go to stderr as "vcryptfs: ..." (or to syslog once
 * log_use_syslog(1) was called by a daemonized process); informational
 * messages go to stdout without a prefix, as gocryptfs prints them; debug
 * lines only with -d. Callers never pass key material: the logger cannot
 * tell, so keys, passwords and plaintext names are simply never arguments.
 * Depends on: libc. Used by main.c, fuse/ and format/.
 * Thread-safety: setters before threads start; printing is thread-safe
 * (one stdio call per line).
 */
#ifndef VCRYPTFS_LOG_H
#define VCRYPTFS_LOG_H

enum log_level {
	LOGL_QUIET = 0, /* -q: errors and warnings only */
	LOGL_INFO = 1,	/* default */
	LOGL_DEBUG = 2, /* -d */
};

void log_set_level(enum log_level level);
enum log_level log_get_level(void);

/* Send everything to syslog (facility LOG_USER, ident "vcryptfs") when on
 * is non-zero, back to stdout/stderr otherwise. */
void log_use_syslog(int on);

/* "vcryptfs: <msg>" on stderr; always shown. */
void log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "vcryptfs: warning: <msg>" on stderr; always shown. */
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "<msg>" on stdout unless -q. */
void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "vcryptfs: debug: <msg>" on stderr with -d only. */
void log_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
