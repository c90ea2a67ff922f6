/* SPDX-License-Identifier: MIT */
/*
 * The one logger: levels, stderr or syslog, one line per message.
 * Errors and warnings go to stderr as "vcryptfs: ..." (or to syslog once
 * log_use_syslog(1) was called by a daemonized process); informational
 * messages go to stdout without a prefix, as gocryptfs prints them; debug
 * lines only with -d. Callers never pass key material: the logger cannot
 * tell, so keys and passwords are simply never arguments.
 * Depends on: libc. Used by main.c, fuse/ and format/.
 * Layer: base/, used by every layer. Names from the cipher dir: log_escape().
 * Thread-safety: setters before threads start; printing is thread-safe
 * (one stdio call per line).
 */
#ifndef VCRYPTFS_LOG_H
#define VCRYPTFS_LOG_H

#include <stddef.h>

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

/*
 * The escaping rule for untrusted names (read or decrypted from the cipher
 * dir): render bytes[len] into buf[cap] before they reach a log line.
 * Printable ASCII (0x20-0x7e) but the backslash is copied; every other byte
 * and the backslash become "\xNN" (lower-case hex), so the line stays one
 * printable line and the bytes can be read back. If it does not fit, it
 * stops before the first byte whose rendering does not fit and ends in
 * "\..." (LOG_ESCAPE_TRUNC; a backslash is otherwise always followed by
 * x). buf is NUL-terminated when cap > 0; cap >= LOG_ESCAPE_LEN(len) never
 * truncates; bytes may hold NULs, may be NULL when len is 0, must not
 * overlap buf. Returns buf (usable as a printf argument). Thread-safe.
 */
#define LOG_ESCAPE_LEN(n) (4 * (size_t)(n) + 1)
#define LOG_ESCAPE_TRUNC "\\..."
char *log_escape(char *buf, size_t cap, const void *bytes, size_t len);
/* log_escape() of the C string s (the bytes before its NUL). */
char *log_escape_str(char *buf, size_t cap, const char *s);
/* The rule for a whole message line (every log_*() line and every -fsck
 * line passes through it): bytes outside printable ASCII become "\xNN",
 * the backslash stays as it is (text already escaped by log_escape() is
 * left alone). Stops at the last byte that fits; buf is NUL-terminated when
 * cap > 0; cap >= LOG_ESCAPE_LEN(strlen(s)) never truncates. Returns buf. */
char *log_escape_line(char *buf, size_t cap, const char *s);

#endif
