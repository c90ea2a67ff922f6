/* SPDX-License-Identifier: MIT */
/*
 * Obtaining a password the way gocryptfs does: -passfile (first line of
 * each file, concatenated), -extpass (a program run without a shell, first
 * line of its stdout), a terminal prompt without echo, or one line of
 * stdin when it is not a terminal. At most PASSWORD_MAX bytes, never
 * empty. Spec: ../shared/FORMAT.md section 12.2 (and 13.1/13.2: asked
 * twice on a terminal at -init and for the new -passwd password).
 * Layer: cli/; depends on libc, base/ (secmem, log). Passwords live in
 * secmem buffers.
 * Errors are printed here as one "vcryptfs: ..." line; main.c maps a
 * failure to exit code 9. Not thread-safe (terminal state, stdin).
 */
#ifndef VCRYPTFS_PASSWORD_H
#define VCRYPTFS_PASSWORD_H

#include <stddef.h>
#include <stdint.h>

#define PASSWORD_MAX 2048
#define PASSWORD_LIST_MAX 32

struct password_src {
	const char *passfile[PASSWORD_LIST_MAX];
	size_t npassfile;
	const char *extpass[PASSWORD_LIST_MAX];
	size_t nextpass;
};

/*
 * Read one password into a fresh secmem buffer (*pw, *len; free with
 * secmem_free). twice: on a terminal, ask again ("Repeat: ") and require
 * equality. Returns 0, or -1 after printing the reason.
 */
int password_read(const struct password_src *src, int twice, uint8_t **pw,
		  size_t *len);

/*
 * Read one line (without '\n') of at most cap bytes from fd, one byte at a
 * time so nothing beyond the line is consumed (printf 'old\nnew\n' |
 * vcryptfs -passwd). Returns the length, -2 when the line is longer than
 * cap, -1 on a read error, -3 on EOF before any byte.
 */
long password_read_line(int fd, uint8_t *buf, size_t cap);

#endif
