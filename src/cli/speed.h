/* SPDX-License-Identifier: MIT */
/*
 * `vcryptfs -speed`: the gocryptfs-style cipher benchmark
 * (../shared/FORMAT.md section 10). Layer: cli/; see speed.c for what it
 * depends on. Not proved.
 */
#ifndef VCRYPTFS_SPEED_H
#define VCRYPTFS_SPEED_H

/* Print the benchmark table to stdout; returns a process exit code. */
int speed_run(void);

#endif
