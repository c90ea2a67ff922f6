/* SPDX-License-Identifier: MIT */
/*
 * src/base/log.c's escaping rule for untrusted names (log_escape(), spec:
 * base/log.h): printable ASCII as is, every other byte and the backslash
 * as \xNN, NUL-terminated, truncation marked with "\..." and never
 * splitting one byte's rendering, nothing written past cap; and
 * log_escape_line(), the rule every log and -fsck line passes through.
 */
#include <stdio.h>
#include <string.h>

#include "base/log.h"
#include "th.h"

#define GUARD 0x5a

/* Escape n bytes of in into a cap-byte buffer with guard bytes after it;
 * 1 when the result equals want and nothing past cap was touched. */
static int esc_is(const void *in, size_t n, size_t cap, const char *want)
{
	char buf[1100];
	char *r;

	if (cap + 16 > sizeof(buf))
		return 0;
	memset(buf, GUARD, sizeof(buf));
	r = log_escape(buf, cap, in, n);
	for (size_t i = cap; i < cap + 16; i++)
		if ((unsigned char)buf[i] != GUARD)
			return 0;
	if (r != buf)
		return 0;
	if (strcmp(buf, want) != 0) {
		printf("    got \"%s\", want \"%s\"\n", buf, want);
		return 0;
	}
	return 1;
}

static void test_plain(void)
{
	th_check(esc_is("abc.txt", 7, 64, "abc.txt"), "log_escape printable");
	th_check(esc_is("", 0, 64, ""), "log_escape empty");
	th_check(esc_is(NULL, 0, 1, ""), "log_escape NULL with len 0");
	th_check(esc_is(" ~\"'/", 5, 64, " ~\"'/"),
		 "log_escape space, tilde, quotes and slash as is");
}

static void test_escaped(void)
{
	const unsigned char nasty[] = { '\n', 0x1b, '[',  '2',	'J', 0x7f,
					0x00, 0xc3, 0xa9, '\\', 0xff };

	th_check(esc_is(nasty, sizeof(nasty), 64,
			"\\x0a\\x1b[2J\\x7f\\x00\\xc3\\xa9\\x5c\\xff"),
		 "log_escape control, DEL, NUL, UTF-8, backslash, 0xff");
	th_check(esc_is("a\\b", 3, 64, "a\\x5cb"),
		 "log_escape backslash becomes \\x5c");
	th_check(strcmp(log_escape_str((char[16]){ 0 }, 16, "x\ty"),
			"x\\x09y") == 0,
		 "log_escape_str stops at the NUL");
}

static void test_bounds(void)
{
	unsigned char all[256];
	char big[LOG_ESCAPE_LEN(256)];
	size_t printable = 0;

	for (size_t i = 0; i < 256; i++) {
		all[i] = (unsigned char)i;
		printable += i >= 0x20 && i < 0x7f && i != '\\';
	}
	(void)log_escape(big, sizeof(big), all, sizeof(all));
	th_check(strlen(big) == printable + 4 * (256 - printable),
		 "log_escape every byte value: %zu chars", strlen(big));
	th_check(strstr(big, LOG_ESCAPE_TRUNC) == NULL,
		 "log_escape LOG_ESCAPE_LEN(n) never truncates");
	for (size_t i = 0; big[i] != '\0'; i++)
		if (big[i] < 0x20 || big[i] >= 0x7f) {
			th_check(0, "log_escape output is printable ASCII");
			return;
		}
	th_check(1, "log_escape output is printable ASCII");
}

static void test_truncation(void)
{
	/* exact fit: 7 chars + NUL; one byte less needs the marker */
	th_check(esc_is("abcdefg", 7, 8, "abcdefg"), "log_escape exact fit");
	th_check(esc_is("abcdefg", 7, 7, "ab\\..."),
		 "log_escape one short: cut and marked");
	/* never half an escape: \x0a is 4 chars; cap 9 leaves 4 before the
	 * mark ("ab" + 2), cap 11 leaves 6 ("ab\x0a") */
	th_check(esc_is("ab\ncdefgh", 9, 9, "ab\\..."),
		 "log_escape keeps \\xNN whole when cutting");
	th_check(esc_is("ab\ncdefgh", 9, 11, "ab\\x0a\\..."),
		 "log_escape cuts after a whole \\xNN");
	th_check(esc_is("abcdefg", 7, 3, "\\."), "log_escape tiny buffer");
	th_check(esc_is("abcdefg", 7, 1, ""), "log_escape cap 1: just NUL");
	{
		char c = GUARD;

		(void)log_escape(&c, 0, "abc", 3);
		th_check(c == GUARD, "log_escape cap 0 writes nothing");
	}
}

/* log_escape_line(), the rule for whole lines: controls, DEL and non-ASCII
 * as \xNN, the backslash kept (already escaped text stays as it is). */
static void test_escape_line(void)
{
	char buf[64];
	char small[6];

	th_check(strcmp(log_escape_line(buf, sizeof(buf),
					"a\x1b[2J\nb\r\x7f\xc3\xa9 \\x0a"),
			"a\\x1b[2J\\x0ab\\x0d\\x7f\\xc3\\xa9 \\x0a") == 0,
		 "log_escape_line: controls, DEL, UTF-8 escaped, backslash "
		 "kept");
	th_check(strcmp(log_escape_line(small, sizeof(small), "abc\ndef"),
			"abc") == 0,
		 "log_escape_line stops before an escape that does not fit");
	th_check(strcmp(log_escape_line(small, sizeof(small), "abcdefghij"),
			"abcde") == 0,
		 "log_escape_line cuts at cap - 1");
}

static const struct th_test unit_tests[] = {
	TH_TEST("plain", test_plain),
	TH_TEST("escaped", test_escaped),
	TH_TEST("bounds", test_bounds),
	TH_TEST("truncation", test_truncation),
	TH_TEST("escape-line", test_escape_line),
};

int main(int argc, char **argv)
{
	return th_main(argc, argv, unit_tests, TH_COUNT(unit_tests), NULL);
}
