/* SPDX-License-Identifier: MIT */
/*
 * Version string and the `-version` report (CPU features, kernels).
 * Spec: the -version flag of ../shared/FORMAT.md 12.3. Layer: cli/; see
 * version.c for what it depends on. Not proved.
 */
#ifndef VCRYPTFS_VERSION_H
#define VCRYPTFS_VERSION_H

#include <stdio.h>

#define VCRYPTFS_VERSION "0.1"

/* Print "vcryptfs 0.1; ..." plus the CPU features seen and the kernels
 * chosen, as `vcryptfs -version` shows them. */
void version_print(FILE *f);

#endif
