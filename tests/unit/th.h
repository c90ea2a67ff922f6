/* SPDX-License-Identifier: MIT */
/*
 * Tiny test harness shared by tests/unit/test_*.c: PASS:/FAIL:/SKIP: lines
 * (the protocol of tests/run.sh), hex helpers, deterministic random bytes,
 * and the path of ../shared (VCRYPTFS_SHARED or the repo's sibling).
 */
#ifndef VCRYPTFS_TH_H
#define VCRYPTFS_TH_H

#include <stddef.h>
#include <stdint.h>

extern int th_failures;

/* Print "PASS: name" when ok, else "FAIL: name" and count it. */
void th_check(int ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void th_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A failure with no matching PASS (e.g. a setup error). */
void th_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Decode hex (even length, no separators) into out, at most cap bytes.
 * Returns the byte count or -1. */
long th_unhex(uint8_t *out, size_t cap, const char *hex);
/* Hex of buf into a static buffer (for messages; at most 256 bytes shown). */
const char *th_hex(const uint8_t *buf, size_t n);

/* Deterministic xorshift bytes, reproducible runs. */
void th_rand(uint8_t *out, size_t n);
uint32_t th_rand32(void);

/* Directory holding FORMAT.md, vectors/ and examples/ (no trailing /). */
const char *th_shared_dir(void);

/* Run `name` only if no filter was given on the command line or it matches
 * one of argv[1..]: lets a developer run one test by name. */
int th_want(int argc, char **argv, const char *name);

/* Exit status for main: 0 when nothing failed. */
int th_exit(void);

#endif
