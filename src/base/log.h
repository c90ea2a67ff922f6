/* SPDX-License-Identifier: MIT */
/*
 * The one logger: levels, stderr or syslog, one line per message, and the
 * escaping rule for untrusted names (log_escape()).
 * Errors and warnings go to stderr as "vcryptfs: ..." (or to syslog once
 * log_use_syslog(1) was called by a daemonized process); informational
 * messages go to stdout without a prefix, as gocryptfs prints them; debug
 * lines only with -d. Callers never pass key material: the logger cannot
 * tell, so keys and passwords are simply never arguments, and a name read
 * from (or decrypted from) the cipher directory goes through log_escape().
 * Layer: base/; depends on libc only, and everything else of ours may use
 * it. Thread-safety: setters before threads start; printing is thread-safe
 * (one stdio call per line). Not proved.
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
 * The escaping rule for untrusted names: a name or path that came from the
 * cipher directory (a ciphertext name, a decrypted name, an xattr name) is
 * rendered with log_escape() before it reaches a log or report line, so a
 * hostile name cannot forge lines or send terminal escapes.
 *
 * Renders bytes[0..len) into buf: each printable ASCII byte (0x20..0x7e)
 * other than the backslash is copied as is; every other byte, and the
 * backslash itself, becomes "\xNN" (two lower-case hex digits). The result
 * is printable ASCII and the original bytes can be read back from it.
 * When the whole rendering does not fit in cap bytes (NUL included), it
 * stops after the last byte whose rendering fits with room to spare and
 * ends in the marker "\..." (LOG_ESCAPE_TRUNC): a backslash is otherwise
 * always followed by 'x', so truncation is never mistaken for a name.
 *   buf[cap]    output, NUL-terminated whenever cap > 0; cap >=
 *               LOG_ESCAPE_LEN(len) never truncates; must not overlap bytes
 *   bytes[len]  input, any bytes (NUL included); NULL allowed when len is 0
 * Returns buf, so a call can be a printf argument. Thread-safe (no state).
 */
#define LOG_ESCAPE_LEN(n) (4 * (size_t)(n) + 1)
#define LOG_ESCAPE_TRUNC "\\..."
char *log_escape(char *buf, size_t cap, const void *bytes, size_t len);

/* log_escape() of the NUL-terminated string s (its bytes before the NUL). */
char *log_escape_str(char *buf, size_t cap, const char *s);

#endif
