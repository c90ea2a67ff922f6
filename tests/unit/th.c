/* SPDX-License-Identifier: MIT */
/* Test harness. See th.h. */
#include "th.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int th_failures;

__attribute__((format(printf, 2, 0))) static void vline(const char *tag,
							const char *fmt,
							va_list ap)
{
	fputs(tag, stdout);
	vfprintf(stdout, fmt, ap);
	fputc('\n', stdout);
	fflush(stdout);
}

void th_check(int ok, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline(ok ? "PASS: " : "FAIL: ", fmt, ap);
	va_end(ap);
	if (!ok)
		th_failures++;
}

void th_skip(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline("SKIP: ", fmt, ap);
	va_end(ap);
}

void th_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline("FAIL: ", fmt, ap);
	va_end(ap);
	th_failures++;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

long th_unhex(uint8_t *out, size_t cap, const char *hex)
{
	size_t n = strlen(hex);

	if (n % 2 != 0 || n / 2 > cap)
		return -1;
	for (size_t i = 0; i < n / 2; i++) {
		int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -1;
		out[i] = (uint8_t)(hi * 16 + lo);
	}
	return (long)(n / 2);
}

const char *th_hex(const uint8_t *buf, size_t n)
{
	static char s[513];
	static const char digits[] = "0123456789abcdef";

	if (n > 256)
		n = 256;
	for (size_t i = 0; i < n; i++) {
		s[2 * i] = digits[buf[i] >> 4];
		s[2 * i + 1] = digits[buf[i] & 15];
	}
	s[2 * n] = 0;
	return s;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

uint32_t th_rand32(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state >> 16);
}

void th_rand(uint8_t *out, size_t n)
{
	for (size_t i = 0; i < n; i++)
		out[i] = (uint8_t)th_rand32();
}

const char *th_shared_dir(void)
{
	static char path[4096];
	const char *env = getenv("VCRYPTFS_SHARED");
	const char *root = getenv("VCRYPTFS_ROOT");

	if (env != NULL && env[0] != 0)
		return env;
	snprintf(path, sizeof(path), "%s/../shared", root != NULL ? root : ".");
	return path;
}

int th_want(int argc, char **argv, const char *name)
{
	if (argc < 2)
		return 1;
	for (int i = 1; i < argc; i++)
		if (strstr(name, argv[i]) != NULL)
			return 1;
	return 0;
}

static int th_named(int argc, char **argv, const char *name)
{
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], name) == 0)
			return 1;
	return 0;
}

size_t th_run(int argc, char **argv, const struct th_test *t, size_t n)
{
	size_t ran = 0;

	if (argc == 2 && strcmp(argv[1], "--list") == 0) {
		for (size_t i = 0; i < n; i++)
			printf("%s%s\n", t[i].name, t[i].slow ? " (slow)" : "");
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		if (!th_want(argc, argv, t[i].name))
			continue;
		if (t[i].slow && !th_named(argc, argv, t[i].name))
			continue;
		printf("--- %s\n", t[i].name);
		fflush(stdout);
		if (t[i].fn != NULL)
			t[i].fn();
		else
			t[i].fn_arg(t[i].arg);
		ran++;
	}
	if (ran == 0 && n > 0) {
		th_fail("%s: no test name contains the filter (tests:)",
			argv[0]);
		for (size_t i = 0; i < n; i++)
			printf("  %s\n", t[i].name);
	}
	return ran;
}

int th_main(int argc, char **argv, const struct th_test *t, size_t n,
	    void (*done)(void))
{
	th_run(argc, argv, t, n);
	if (done != NULL)
		done();
	return th_exit();
}

int th_exit(void)
{
	return th_failures == 0 ? 0 : 1;
}
