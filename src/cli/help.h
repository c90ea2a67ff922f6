/* SPDX-License-Identifier: MIT */
/*
 * -h (the common options) and -hh (every option, one line each), in the
 * shape of gocryptfs's help texts. Spec: ../shared/FORMAT.md 12.3.
 * Depends on: libc. Not proved.
 */
#ifndef VCRYPTFS_HELP_H
#define VCRYPTFS_HELP_H

#include <stdio.h>

/* The usage lines only (no arguments: stderr, exit 1). */
void help_usage(FILE *f);
/* -h, -help. */
void help_short(FILE *f);
/* -hh. */
void help_long(FILE *f);

#endif
