/* SPDX-License-Identifier: MIT */
/*
 * gocryptfs's command-line syntax: one or two dashes, -opt=value or
 * -opt value, booleans also -opt=false, options and positional arguments
 * mixed, `--` ends options, `-o a,b,c` rewritten to `-a -b -c` in front.
 * Spec: ../shared/FORMAT.md section 12.1 and the flag tables of 12.3.
 * Layer: cli/; depends on libc, cli/password.h (the -passfile/-extpass
 * lists). Not proved.
 * Flags marked I in 12.3 are accepted and ignored; flags marked L that
 * this build does not implement are accepted by the parser and recorded
 * in `unsupported`, which main.c refuses with exit 1.
 */
#ifndef VCRYPTFS_CLI_H
#define VCRYPTFS_CLI_H

#include <limits.h>
#include <stddef.h>

#include "cli/password.h"

#define CLI_MAX_POS 8
#define CLI_UNSET LONG_MIN

#define CLI_LIST_MAX 256
struct cli_list {
	const char *v[CLI_LIST_MAX];
	size_t n;
};

struct cli_args {
	/* actions */
	int init, passwd, info, fsck, speed, version, help, hh;
	/* -init */
	int aessiv, xchacha, plaintextnames, deterministic_names;
	int hkdf, raw64;  /* default 1 */
	long longnamemax; /* default 255 */
	long scryptn;	  /* CLI_UNSET unless given */
	/* mounting */
	int ro, rw, allow_other, nonempty, fg, nosyslog, noprealloc;
	int dev, nodev, suid, nosuid, exec, noexec, fusedebug, zerokey;
	int sharedstorage, nouring;
	int kernel_cache, acl, serialize_reads, noxattr;
	/* reverse mode (src/reverse/): -reverse, -one-file-system and the
	 * -exclude* lists, in command-line order */
	int reverse, one_file_system;
	struct cli_list exclude, exclude_wildcard, exclude_from;
	long notifypid;
	const char *ko, *fsname, *badname;
	const char *idle, *ctlsock, *force_owner, *fido2, *openssl;
	/* several actions */
	const char *config, *masterkey;
	struct password_src pw;
	int quiet, debug;
	const char *unsupported; /* first L flag seen, or NULL */
	const char *pos[CLI_MAX_POS];
	size_t npos;
	int nargs; /* argc - 1 after -o rewriting */
	/* storage for the -o rewriting (freed by cli_free) */
	char **owned;
	size_t nowned;
};

/*
 * Parse argv[1..argc-1] into *a (initialised here). On a usage error
 * writes one line into err (without the "vcryptfs: " prefix) and returns
 * -1; main exits 1. Returns 0 otherwise. String fields point into argv
 * or into a->owned.
 */
int cli_parse(struct cli_args *a, int argc, char **argv, char *err,
	      size_t errlen);

void cli_free(struct cli_args *a);

#endif
