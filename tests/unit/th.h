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

/*
 * A unit binary's name table: one row per test. Names are lower case with
 * hyphens (wycheproof-gcm, eme-vector). A row calls fn(), or fn_arg(arg)
 * when fn is NULL (a table built at run time, one row per kernel or per
 * example directory). A slow row runs only when its full name is given.
 */
struct th_test {
	const char *name;
	void (*fn)(void);
	int slow;
	void (*fn_arg)(const void *arg);
	const void *arg;
};

/*
 * The one table runner of every unit binary: with no argument, every row
 * but the slow ones; with arguments, the rows whose names contain one of
 * argv[1..] (a slow one only when named in full); "--list" prints the
 * names. Each row run is announced by a "--- name" line. A filter that
 * matches no row is a failure that lists the names. Returns the number of
 * rows run; main still returns th_exit(), after its own cleanup.
 */
size_t th_run(int argc, char **argv, const struct th_test *t, size_t n);
/* main() of a binary with no setup of its own: th_run, then done() when
 * not NULL (thread-local cleanup), then th_exit(). */
int th_main(int argc, char **argv, const struct th_test *t, size_t n,
	    void (*done)(void));
#define TH_COUNT(table) (sizeof(table) / sizeof((table)[0]))
/* Rows of a static table: TH_TEST("name", fn), TH_SLOW("name", fn). */
#define TH_TEST(name, fn)                                                      \
	{                                                                      \
		(name), (fn), 0, NULL, NULL                                    \
	}
#define TH_SLOW(name, fn)                                                      \
	{                                                                      \
		(name), (fn), 1, NULL, NULL                                    \
	}

/* Exit status for main: 0 when nothing failed. */
int th_exit(void);

#endif
