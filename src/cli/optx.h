/* SPDX-License-Identifier: MIT */
/*
 * The options of issue 25 that need more than a flag: -idle DURATION (Go
 * duration syntax), -force_owner UID:GID, -openssl true|false|auto,
 * -fido2 (refused as gocryptfs refuses it without fido2-tools), and the
 * scrypt memory cap taken from the machine's available memory.
 * Spec: ../shared/FORMAT.md 11, 12.3. Functions print their own one-line
 * error and return 0 (EXIT_OK) or a gocryptfs exit code.
 * Depends on: cli.h, crypto/kdf.h, log.h. Not proved.
 */
#ifndef VCRYPTFS_OPTX_H
#define VCRYPTFS_OPTX_H

#include <stdint.h>
#include <sys/types.h>

#include "cli/options.h"
#include "fuse/mount.h"

/* Go's time.ParseDuration ("500s", "2h45m", "1.5h", "0") into seconds.
 * Returns 0, or -1 when s is not a duration. */
int optx_duration(const char *s, double *seconds);

/* "UID:GID" (decimal, non-negative) as gocryptfs parses -force_owner. */
int optx_force_owner(const char *s, uid_t *uid, gid_t *gid);

/* Check -idle, -force_owner, -openssl, -fido2 (with -init) of a.
 * Returns EXIT_OK or the exit code after one error line. */
int optx_check(const struct cli_args *a);

/* Bytes of memory available now (MemAvailable of /proc/meminfo), 0 when
 * unknown. */
uint64_t optx_mem_available(void);

/* Set the scrypt memory cap from the available memory (keeps the
 * built-in default when it cannot be read). */
void optx_scrypt_cap(void);

/* The new mount options of a into o (after optx_check() passed). */
int optx_mount_opts(const struct cli_args *a, struct mount_opts *o);

/* 1 after an error line when mp is a dead FUSE mount (ENOTCONN, or
 * ECONNABORTED while the kernel tears the connection down: its
 * daemon was killed), saying how to clear it; 0 otherwise. */
int optx_dead_mount(const char *mp);

/* The same for the mountpoint argument as given, when even stat() fails
 * on it (ENOTCONN or ECONNABORTED), before it can be resolved: the
 * message names it after the working directory. */
int optx_dead_arg(const char *arg);

/* -d: one debug line with the parsed command line (no secrets). */
void optx_debug_args(const struct cli_args *a);

#endif
