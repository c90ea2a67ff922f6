/* SPDX-License-Identifier: MIT */
/*
 * The command layer shared by main.c (usage, mount, -fsck), cmd_util.c
 * (paths, master key, config unlock) and cmd_config.c (-init, -info,
 * -passwd). Functions print their own one-line error and return 0
 * (EXIT_OK) or a gocryptfs exit code from exitcodes.h; none exits.
 * Layer: cli/ (the top: nothing includes cli/); depends on cli/options.h,
 * format/config.h, format/keys.h. Not proved.
 */
#ifndef VCRYPTFS_CMD_H
#define VCRYPTFS_CMD_H

#include <stdint.h>

#include "cli/options.h"
#include "format/config.h"
#include "format/keys.h"

#define CONF_REVERSE_NAME ".gocryptfs.reverse.conf" /* -reverse */
#define SCRYPT_DEFAULT_LOGN 16
#define SCRYPT_MIN_LOGN 10
#define SCRYPT_MAX_LOGN 28
#define ERRLEN 512

/* dir + "/" + name, malloc'd; NULL on ENOMEM. */
char *cmd_path_join(const char *dir, const char *name);

/* Absolute path of an existing directory, or NULL after one error line
 * naming `what` ("cipherdir", "mountpoint"). */
char *cmd_existing_dir(const char *dir, const char *what);

/* 1 if dir holds nothing but . and .., 0 if it holds more, -1 on error. */
int cmd_dir_is_empty(const char *dir);

/* 1 if `inner` equals `outer` or lies below it (both absolute). */
int cmd_path_within(const char *inner, const char *outer);

/* The config path: -config, else CIPHERDIR/gocryptfs.conf, with -reverse
 * CIPHERDIR/.gocryptfs.reverse.conf (malloc'd). */
char *cmd_config_path(const struct cli_args *a, const char *cipherdir);

/* -masterkey HEX (dashes ignored) or -masterkey=stdin into mk[32]. */
int cmd_parse_masterkey(const char *arg, uint8_t mk[KEYS_MASTER_LEN]);

/* Load and validate the config for a mount, -fsck or -passwd. */
int cmd_load_config(struct config *c, const char *path);

/* Refuse a config whose feature flags contradict the cipher dir's root
 * (e.g. PlaintextNames beside a gocryptfs.diriv): EXIT_OK or
 * EXIT_DEPRECATEDFS after one error line. Forward mode only. */
int cmd_check_layout(const struct config *c, const char *dir);

/*
 * No core dumps and no ptrace by other users' or unprivileged processes:
 * PR_SET_DUMPABLE 0 (also makes /proc/PID/mem and the like root's) and
 * RLIMIT_CORE 0, soft and hard. Called once the password is read and
 * before any key exists (cmd_unlock, -init, -masterkey/-zerokey); the
 * daemon's fork to the background inherits both. Failures only warn.
 */
void cmd_harden(void);

/* Read the password and unlock c's master key into mk. */
int cmd_unlock(const struct cli_args *a, const struct config *c,
	       uint8_t mk[KEYS_MASTER_LEN]);

/* Effective scrypt logN for -init/-passwd (-scryptn <= 0: the default).
 * Returns the logN, or minus an exit code after printing why. */
int cmd_scrypt_logn(const struct cli_args *a, int fallback);

/* The actions of FORMAT.md 13.1-13.3; a->pos[0] is the cipher dir. */
int cmd_init(const struct cli_args *a);
int cmd_info(const struct cli_args *a);
int cmd_passwd(const struct cli_args *a);

#endif
