/* SPDX-License-Identifier: MIT */
/*
 * Command-line parser (see options.h). Spec: ../shared/FORMAT.md 12.1,
 * 12.3. Layer: cli/; depends on libc, options.h and format/config.h (the
 * -longnamemax default). Not proved.
 */
#include "cli/options.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/config.h"

enum opt_kind {
	K_BOOL,	      /* int field */
	K_STR,	      /* const char * field */
	K_INT,	      /* long field */
	K_PASSFILE,   /* appended to pw.passfile */
	K_EXTPASS,    /* appended to pw.extpass */
	K_IGN_BOOL,   /* accepted, ignored (I) */
	K_IGN_STR,    /* accepted with a value, ignored (I) */
	K_LATER_BOOL, /* not in this build (L) */
	K_LATER_STR,
	K_LIST, /* appended to a struct cli_list field */
};

struct opt {
	const char *name;
	enum opt_kind kind;
	size_t off;
};

#define F(field) offsetof(struct cli_args, field)

static const struct opt cli_opts[] = {
	{ "init", K_BOOL, F(init) },
	{ "passwd", K_BOOL, F(passwd) },
	{ "info", K_BOOL, F(info) },
	{ "fsck", K_BOOL, F(fsck) },
	{ "speed", K_BOOL, F(speed) },
	{ "version", K_BOOL, F(version) },
	{ "h", K_BOOL, F(help) },
	{ "help", K_BOOL, F(help) },
	{ "hh", K_BOOL, F(hh) },
	{ "aessiv", K_BOOL, F(aessiv) },
	{ "xchacha", K_BOOL, F(xchacha) },
	{ "plaintextnames", K_BOOL, F(plaintextnames) },
	{ "deterministic-names", K_BOOL, F(deterministic_names) },
	{ "longnamemax", K_INT, F(longnamemax) },
	{ "scryptn", K_INT, F(scryptn) },
	{ "hkdf", K_BOOL, F(hkdf) },
	{ "raw64", K_BOOL, F(raw64) },
	{ "devrandom", K_IGN_BOOL, 0 },
	{ "ro", K_BOOL, F(ro) },
	{ "rw", K_BOOL, F(rw) },
	{ "allow_other", K_BOOL, F(allow_other) },
	{ "nonempty", K_BOOL, F(nonempty) },
	{ "fg", K_BOOL, F(fg) },
	{ "f", K_BOOL, F(fg) },
	{ "nosyslog", K_BOOL, F(nosyslog) },
	{ "noprealloc", K_BOOL, F(noprealloc) },
	{ "dev", K_BOOL, F(dev) },
	{ "nodev", K_BOOL, F(nodev) },
	{ "suid", K_BOOL, F(suid) },
	{ "nosuid", K_BOOL, F(nosuid) },
	{ "exec", K_BOOL, F(exec) },
	{ "noexec", K_BOOL, F(noexec) },
	{ "ko", K_STR, F(ko) },
	{ "fsname", K_STR, F(fsname) },
	{ "fusedebug", K_BOOL, F(fusedebug) },
	{ "zerokey", K_BOOL, F(zerokey) },
	{ "notifypid", K_INT, F(notifypid) },
	{ "sharedstorage", K_BOOL, F(sharedstorage) },
	{ "nouring", K_BOOL, F(nouring) },
	{ "badname", K_STR, F(badname) },
	{ "nofail", K_IGN_BOOL, 0 },
	{ "forcedecode", K_IGN_BOOL, 0 },
	{ "longnames", K_IGN_BOOL, 0 },
	{ "passfile", K_PASSFILE, 0 },
	{ "extpass", K_EXTPASS, 0 },
	{ "masterkey", K_STR, F(masterkey) },
	{ "config", K_STR, F(config) },
	{ "q", K_BOOL, F(quiet) },
	{ "quiet", K_BOOL, F(quiet) },
	{ "d", K_BOOL, F(debug) },
	{ "debug", K_BOOL, F(debug) },
	{ "openssl", K_STR, F(openssl) },
	{ "cpuprofile", K_IGN_STR, 0 },
	{ "memprofile", K_IGN_STR, 0 },
	{ "trace", K_IGN_STR, 0 },
	{ "fido2-assert-option", K_IGN_STR, 0 },
	{ "context", K_IGN_STR, 0 },
	{ "noxattr", K_BOOL, F(noxattr) },
	{ "reverse", K_BOOL, F(reverse) },
	{ "fido2", K_STR, F(fido2) },
	{ "e", K_LIST, F(exclude) },
	{ "exclude", K_LIST, F(exclude) },
	{ "ew", K_LIST, F(exclude_wildcard) },
	{ "exclude-wildcard", K_LIST, F(exclude_wildcard) },
	{ "exclude-from", K_LIST, F(exclude_from) },
	{ "one-file-system", K_BOOL, F(one_file_system) },
	{ "i", K_STR, F(idle) },
	{ "idle", K_STR, F(idle) },
	{ "ctlsock", K_STR, F(ctlsock) },
	{ "force_owner", K_STR, F(force_owner) },
	{ "kernel_cache", K_BOOL, F(kernel_cache) },
	{ "acl", K_BOOL, F(acl) },
	{ "serialize_reads", K_BOOL, F(serialize_reads) },
	{ "wpanic", K_IGN_BOOL, 0 },
};

__attribute__((format(printf, 3, 4))) static int cli_err(char *err,
							 size_t errlen,
							 const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	(void)vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* Go's strconv.ParseBool. */
static int parse_bool(const char *s, int *out)
{
	static const char *const t[] = {
		"1", "t", "T", "TRUE", "true", "True"
	};
	static const char *const f[] = { "0",	  "f",	   "F",
					 "FALSE", "false", "False" };

	for (size_t i = 0; i < 6; i++) {
		if (strcmp(s, t[i]) == 0) {
			*out = 1;
			return 0;
		}
		if (strcmp(s, f[i]) == 0) {
			*out = 0;
			return 0;
		}
	}
	return -1;
}

/* Go's strconv.ParseInt(s, 0, 64), limited to long. */
static int parse_long(const char *s, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 0);
	if (errno != 0 || end == s || *end != '\0')
		return -1;
	*out = v;
	return 0;
}

static const struct opt *find_opt(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof(cli_opts) / sizeof(cli_opts[0]); i++)
		if (strlen(cli_opts[i].name) == len &&
		    strncmp(cli_opts[i].name, name, len) == 0)
			return &cli_opts[i];
	return NULL;
}

static int add_list(const char **list, size_t *n, const char *v, char *err,
		    size_t errlen)
{
	if (*n >= PASSWORD_LIST_MAX)
		return cli_err(err, errlen, "too many -passfile/-extpass");
	list[(*n)++] = v;
	return 0;
}

/* Apply option o with value val (NULL for a bare boolean). */
static int apply(struct cli_args *a, const struct opt *o, const char *val,
		 char *err, size_t errlen)
{
	char *base = (char *)a;
	int b = 1;

	switch (o->kind) {
	case K_BOOL:
	case K_IGN_BOOL:
	case K_LATER_BOOL:
		if (val != NULL && parse_bool(val, &b) != 0)
			return cli_err(err, errlen,
				       "invalid boolean value \"%s\" for "
				       "-%s",
				       val, o->name);
		if (o->kind == K_BOOL)
			memcpy(base + o->off, &b, sizeof(b));
		else if (o->kind == K_LATER_BOOL && b && !a->unsupported)
			a->unsupported = o->name;
		return 0;
	case K_STR:
		memcpy(base + o->off, &val, sizeof(val));
		return 0;
	case K_INT: {
		long v;
		if (parse_long(val, &v) != 0)
			return cli_err(err, errlen,
				       "invalid value \"%s\" for -%s", val,
				       o->name);
		memcpy(base + o->off, &v, sizeof(v));
		return 0;
	}
	case K_PASSFILE:
		return add_list(a->pw.passfile, &a->pw.npassfile, val, err,
				errlen);
	case K_EXTPASS:
		return add_list(a->pw.extpass, &a->pw.nextpass, val, err,
				errlen);
	case K_LATER_STR:
		if (!a->unsupported)
			a->unsupported = o->name;
		return 0;
	case K_IGN_STR:
		return 0;
	case K_LIST: {
		struct cli_list *l = (struct cli_list *)(void *)(base + o->off);
		if (l->n >= CLI_LIST_MAX)
			return cli_err(err, errlen, "too many -%s", o->name);
		l->v[l->n++] = val;
		return 0;
	}
	}
	return 0;
}

static int takes_value(const struct opt *o)
{
	return o->kind == K_STR || o->kind == K_INT || o->kind == K_PASSFILE ||
	       o->kind == K_EXTPASS || o->kind == K_IGN_STR ||
	       o->kind == K_LATER_STR || o->kind == K_LIST;
}

static int own(struct cli_args *a, char *s)
{
	char **n = realloc(a->owned, (a->nowned + 1) * sizeof(*n));

	if (n == NULL) {
		free(s);
		return -1;
	}
	a->owned = n;
	a->owned[a->nowned++] = s;
	return 0;
}

/* Rewrite every -o a,b,c (before `--`) into -a -b -c in front of the
 * other arguments. *out is a malloc'd vector of *outn pointers. */
static int expand_o(struct cli_args *a, int argc, char **argv, char ***out,
		    size_t *outn, char *err, size_t errlen)
{
	size_t cap = (size_t)argc + 1, n = 0;
	char **v;
	int i;

	/* each -o item takes at least one character of some argument */
	for (i = 1; i < argc && argv[i] != NULL; i++)
		cap += strlen(argv[i]);
	v = calloc(cap, sizeof(*v));
	if (v == NULL)
		return cli_err(err, errlen, "out of memory");
	/* first pass: the -o items, up to `--` */
	for (i = 1; i < argc && argv[i] != NULL; i++) {
		const char *s = argv[i], *list = NULL;
		if (strcmp(s, "--") == 0)
			break;
		if (s[0] == '-' && s[1] == '-')
			s++;
		if (strcmp(s, "-o") == 0) {
			if (i + 1 >= argc || argv[i + 1] == NULL) {
				free(v);
				return cli_err(err, errlen,
					       "flag needs an argument: -o");
			}
			list = argv[++i];
		} else if (strncmp(s, "-o=", 3) == 0) {
			list = s + 3;
		}
		for (const char *p = list; p != NULL && *p != '\0';) {
			size_t len = strcspn(p, ",");
			if (len == 1 && p[0] == 'o') {
				free(v);
				return cli_err(err, errlen,
					       "-o o is not allowed");
			}
			if (len > 0) {
				char *item = malloc(len + 2);
				if (item == NULL || own(a, item) != 0) {
					free(v);
					return cli_err(err, errlen,
						       "out of memory");
				}
				snprintf(item, len + 2, "-%.*s", (int)len, p);
				v[n++] = item;
			}
			p += len;
			if (*p == ',')
				p++;
		}
	}
	/* second pass: everything else, in order */
	for (i = 1; i < argc && argv[i] != NULL; i++) {
		const char *s = argv[i];
		if (strcmp(s, "--") == 0) {
			while (i < argc && argv[i] != NULL)
				v[n++] = argv[i++];
			break;
		}
		if (s[0] == '-' && s[1] == '-')
			s++;
		if (strcmp(s, "-o") == 0) {
			i++;
			continue;
		}
		if (strncmp(s, "-o=", 3) == 0)
			continue;
		v[n++] = argv[i];
	}
	*out = v;
	*outn = n;
	return 0;
}

int cli_parse(struct cli_args *a, int argc, char **argv, char *err,
	      size_t errlen)
{
	char **v = NULL;
	size_t n = 0;
	int r = 0, dashdash = 0;

	memset(a, 0, sizeof(*a));
	a->hkdf = 1;
	a->raw64 = 1;
	a->longnamemax = CONF_LONGNAMEMAX_MAX;
	a->scryptn = CLI_UNSET;
	if (expand_o(a, argc, argv, &v, &n, err, errlen) != 0)
		return -1;
	a->nargs = (int)n;
	for (size_t i = 0; i < n && r == 0; i++) {
		const char *s = v[i], *eq;
		const struct opt *o;
		if (dashdash || s[0] != '-' || s[1] == '\0') {
			if (a->npos >= CLI_MAX_POS)
				r = cli_err(err, errlen, "too many arguments");
			else
				a->pos[a->npos++] = s;
			continue;
		}
		if (strcmp(s, "--") == 0) {
			dashdash = 1;
			continue;
		}
		s += s[1] == '-' ? 2 : 1;
		eq = strchr(s, '=');
		o = find_opt(s, eq != NULL ? (size_t)(eq - s) : strlen(s));
		if (o == NULL) {
			r = cli_err(err, errlen,
				    "Invalid command line: unknown flag: -%s. "
				    "Try 'vcryptfs -help'.",
				    s);
			break;
		}
		if (eq != NULL) {
			r = apply(a, o, eq + 1, err, errlen);
		} else if (takes_value(o)) {
			if (i + 1 >= n)
				r = cli_err(err, errlen,
					    "flag needs an argument: -%s",
					    o->name);
			else
				r = apply(a, o, v[++i], err, errlen);
		} else {
			r = apply(a, o, NULL, err, errlen);
		}
	}
	free(v);
	return r;
}

void cli_free(struct cli_args *a)
{
	for (size_t i = 0; i < a->nowned; i++)
		free(a->owned[i]);
	free(a->owned);
	a->owned = NULL;
	a->nowned = 0;
}
