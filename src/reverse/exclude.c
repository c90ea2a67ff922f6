/* SPDX-License-Identifier: MIT */
/*
 * -exclude, -exclude-wildcard and -exclude-from with the semantics of
 * gocryptfs 2.3, which hands the patterns to a gitignore-like matcher:
 * -exclude PATH becomes the pattern "/PATH" (anchored at the root),
 * -exclude-wildcard PATTERN is used as is, and every line of an
 * -exclude-from file is one pattern. Each pattern is turned into a
 * regular expression by the same rewriting steps that matcher applies
 * (comments "#", surrounding spaces trimmed, "!" negates, "**" forms,
 * "*" within one component, a leading "/" anchors, a trailing "/"
 * matches below; anything matched also excludes everything under it),
 * and compiled as a POSIX extended regular expression. A path is
 * excluded when the last pattern that matches it is not a negation (a
 * negation only undoes an earlier match). Paths are plaintext paths
 * relative to the root, without a leading "/".
 * Spec: ../shared/FORMAT.md 9.6. Not proved.
 */
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/exitcodes.h"
#include "base/log.h"
#include "reverse/reverse.h"
#include "reverse/rv.h"

struct pattern {
	regex_t re;
	int negate;
};

struct rv_exclude {
	struct pattern *p;
	size_t n, cap;
};

/* A growing string. */
struct sb {
	char *s;
	size_t n, cap;
	int oom;
};

static void sb_addn(struct sb *b, const char *s, size_t len)
{
	if (b->oom)
		return;
	if (b->n + len + 1 > b->cap) {
		size_t nc = (b->n + len + 1) * 2;
		char *ns = realloc(b->s, nc);
		if (ns == NULL) {
			b->oom = 1;
			return;
		}
		b->s = ns;
		b->cap = nc;
	}
	memcpy(b->s + b->n, s, len);
	b->n += len;
	b->s[b->n] = '\0';
}

static void sb_add(struct sb *b, const char *s)
{
	sb_addn(b, s, strlen(s));
}

/* Replace every non-overlapping `from` in *s (left to right) by `to`. */
static char *replace_all(char *s, const char *from, const char *to)
{
	struct sb b = { 0 };
	size_t fl = strlen(from);
	const char *p = s, *q;

	if (s == NULL)
		return NULL;
	sb_add(&b, "");
	while ((q = strstr(p, from)) != NULL) {
		sb_addn(&b, p, (size_t)(q - p));
		sb_add(&b, to);
		p = q + fl;
	}
	sb_add(&b, p);
	free(s);
	if (b.oom) {
		free(b.s);
		return NULL;
	}
	return b.s;
}

/* The "foo/x*.y" rule: some character other than '/' or '+', then '/',
 * later "*." : such a pattern is anchored at the root. */
static int slash_star_dot(const char *l)
{
	for (size_t i = 0; l[i] != '\0' && l[i + 1] != '\0'; i++) {
		if (l[i] == '/' || l[i] == '+' || l[i + 1] != '/')
			continue;
		if (strstr(l + i + 2, "*.") != NULL)
			return 1;
	}
	return 0;
}

#define MAGIC "#$~"

/* One pattern line -> regular expression (malloc'd); *skip when the
 * line is a comment or empty. NULL with !*skip on ENOMEM. */
static char *to_regex(const char *line, int *negate, int *skip)
{
	size_t len = strlen(line);
	char *l, *e;
	struct sb b = { 0 };

	*negate = 0;
	*skip = 0;
	while (len > 0 && line[len - 1] == '\r')
		len--;
	if (len > 0 && line[0] == '#') {
		*skip = 1;
		return NULL;
	}
	while (len > 0 && line[len - 1] == ' ')
		len--;
	while (len > 0 && line[0] == ' ') {
		line++;
		len--;
	}
	if (len == 0) {
		*skip = 1;
		return NULL;
	}
	if (line[0] == '!') {
		*negate = 1;
		line++;
		len--;
	}
	if (len > 0 && (line[0] == '#' || line[0] == '!')) {
		line++;
		len--;
	}
	l = malloc(len + 2);
	if (l == NULL)
		return NULL;
	memcpy(l, line, len);
	l[len] = '\0';
	if (slash_star_dot(l) && l[0] != '/') {
		memmove(l + 1, l, len + 1);
		l[0] = '/';
	}
	l = replace_all(l, ".", "\\.");
	if (l != NULL && strncmp(l, "/**/", 4) == 0)
		memmove(l, l + 1, strlen(l));
	l = replace_all(l, "/**/", "(/|/.+/)");
	l = replace_all(l, "**/", "(|." MAGIC "/)");
	l = replace_all(l, "/**", "(|/." MAGIC ")");
	l = replace_all(l, "\\*", "\\" MAGIC);
	l = replace_all(l, "*", "([^/]*)");
	l = replace_all(l, "?", "\\?");
	l = replace_all(l, MAGIC, "*");
	if (l == NULL)
		return NULL;
	len = strlen(l);
	if (len > 0 && l[0] == '/') {
		sb_add(&b, "^(|/)");
		sb_add(&b, l + 1);
	} else {
		sb_add(&b, "^(|.*/)");
		sb_add(&b, l);
	}
	sb_add(&b, len > 0 && l[len - 1] == '/' ? "(|.*)$" : "(|/.*)$");
	free(l);
	if (b.oom) {
		free(b.s);
		return NULL;
	}
	e = b.s;
	return e;
}

static int add_pattern(struct rv_exclude *ex, const char *line)
{
	int negate, skip;
	char *re = to_regex(line, &negate, &skip);
	struct pattern *np;

	if (re == NULL)
		return skip ? 0 : -ENOMEM;
	if (ex->n == ex->cap) {
		size_t nc = ex->cap ? ex->cap * 2 : 16;
		np = realloc(ex->p, nc * sizeof(*np));
		if (np == NULL) {
			free(re);
			return -ENOMEM;
		}
		ex->p = np;
		ex->cap = nc;
	}
	if (regcomp(&ex->p[ex->n].re, re, REG_EXTENDED | REG_NOSUB) != 0) {
		/* the matcher ignores what does not compile */
		log_warn("-exclude: ignoring pattern that does not compile: "
			 "%s",
			 line);
		free(re);
		return 0;
	}
	log_debug("-exclude: %s -> %s", line, re);
	free(re);
	ex->p[ex->n].negate = negate;
	ex->n++;
	return 0;
}

static int add_file(struct rv_exclude *ex, const char *path)
{
	FILE *fp = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int r = 0;

	if (fp == NULL) {
		log_error("-exclude-from: cannot read %s: %s", path,
			  strerror(errno));
		return EXIT_EXCLUDE;
	}
	while (r == 0 && (n = getline(&line, &cap, fp)) >= 0) {
		if (n > 0 && line[n - 1] == '\n')
			line[n - 1] = '\0';
		r = add_pattern(ex, line);
	}
	if (r == 0 && ferror(fp)) {
		log_error("-exclude-from: cannot read %s", path);
		r = EXIT_EXCLUDE;
	}
	free(line);
	fclose(fp);
	return r < 0 ? EXIT_OTHER : r;
}

int rv_exclude_new(const struct reverse_opts *o, struct rv_exclude **out)
{
	struct rv_exclude *ex = calloc(1, sizeof(*ex));
	int r = 0;

	*out = NULL;
	if (ex == NULL)
		return EXIT_OTHER;
	for (size_t i = 0; r == 0 && i < o->nexclude; i++) {
		char *p = rv_join("/", o->exclude[i]);
		if (p == NULL) {
			r = -ENOMEM;
			break;
		}
		/* rv_join("/", x) gives "//x": keep one slash */
		r = add_pattern(ex, p + 1);
		free(p);
	}
	for (size_t i = 0; r == 0 && i < o->nexclude_wildcard; i++)
		r = add_pattern(ex, o->exclude_wildcard[i]);
	if (r < 0)
		r = EXIT_OTHER;
	for (size_t i = 0; r == 0 && i < o->nexclude_from; i++)
		r = add_file(ex, o->exclude_from[i]);
	if (r != 0 || ex->n == 0) {
		rv_exclude_free(ex);
		return r;
	}
	*out = ex;
	return 0;
}

void rv_exclude_free(struct rv_exclude *ex)
{
	if (ex == NULL)
		return;
	for (size_t i = 0; i < ex->n; i++)
		regfree(&ex->p[i].re);
	free(ex->p);
	free(ex);
}

int rv_excluded(const struct rv_exclude *ex, const char *ppath)
{
	int match = 0;

	if (ex == NULL)
		return 0;
	for (size_t i = 0; i < ex->n; i++) {
		if (regexec(&ex->p[i].re, ppath, 0, NULL, 0) != 0)
			continue;
		if (!ex->p[i].negate)
			match = 1;
		else if (match)
			match = 0;
	}
	return match;
}
