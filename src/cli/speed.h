/* SPDX-License-Identifier: MIT */
/* `vcryptfs -speed`: the gocryptfs-style cipher benchmark
 * (../shared/FORMAT.md section 10). */
#ifndef VCRYPTFS_SPEED_H
#define VCRYPTFS_SPEED_H

/* Print the benchmark table to stdout; returns a process exit code. */
int speed_run(void);

#endif
