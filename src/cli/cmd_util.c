/* SPDX-License-Identifier: MIT */
/*
 * Helpers of the command layer (cmd.h): path checks for the cipher dir
 * and mount point, the -masterkey parser, and loading/unlocking
 * gocryptfs.conf with gocryptfs's exit codes (../shared/FORMAT.md 11, 12).
 * Layer: cli/; depends on cli/, base/ (secmem, log, exitcodes),
 * format/ (config, names), crypto/kdf.h. Keys live in secmem and are
 * wiped on every path. Not proved.
 */
#include "cli/cmd.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/exitcodes.h"
#include "base/log.h"
#include "base/secmem.h"
#include "cli/password.h"
#include "crypto/kdf.h"
#include "format/names.h"

/* ---------------------------------------------------------------------
 * Paths and directories
 */

char *cmd_path_join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);

	if (p != NULL)
		snprintf(p, n, "%s/%s", dir, name);
	return p;
}

/* Absolute path of an existing directory, or NULL after one error line
 * naming `what` ("cipherdir", "mountpoint"). */
char *cmd_existing_dir(const char *dir, const char *what)
{
	struct stat st;
	char *abs;

	if (stat(dir, &st) != 0) {
		log_error("Invalid %s: stat %s: %s", what, dir,
			  strerror(errno));
		return NULL;
	}
	if (!S_ISDIR(st.st_mode)) {
		log_error("Invalid %s: %s is not a directory", what, dir);
		return NULL;
	}
	abs = realpath(dir, NULL);
	if (abs == NULL)
		log_error("Invalid %s: %s: %s", what, dir, strerror(errno));
	return abs;
}

/* 1 if dir holds nothing but . and .., 0 if it holds more, -1 on error. */
int cmd_dir_is_empty(const char *dir)
{
	DIR *d = opendir(dir);
	const struct dirent *e;
	int r = 1;

	if (d == NULL)
		return -1;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") != 0 &&
		    strcmp(e->d_name, "..") != 0) {
			r = 0;
			break;
		}
	}
	closedir(d);
	return r;
}

/* 1 if `inner` equals `outer` or lies below it (both absolute). */
int cmd_path_within(const char *inner, const char *outer)
{
	size_t n = strlen(outer);

	if (strcmp(outer, "/") == 0)
		return 1;
	return strncmp(inner, outer, n) == 0 &&
	       (inner[n] == '\0' || inner[n] == '/');
}

/* The config path: -config, else CIPHERDIR/gocryptfs.conf. */
char *cmd_config_path(const struct cli_args *a, const char *cipherdir)
{
	char *p = a->config != NULL
			  ? strdup(a->config)
			  : cmd_path_join(cipherdir, a->reverse
							     ? CONF_REVERSE_NAME
							     : NAMES_CONF);

	if (p == NULL)
		log_error("out of memory");
	return p;
}

/* ---------------------------------------------------------------------
 * Keys
 */

static int hexval(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/* -masterkey HEX (dashes ignored) or -masterkey=stdin into mk[32].
 * Returns 0 or an exit code after printing why. */
int cmd_parse_masterkey(const char *arg, uint8_t mk[KEYS_MASTER_LEN])
{
	char *line = NULL;
	const char *s = arg;
	size_t digits = 0, bad = 0;
	int r = EXIT_OK;

	if (strcmp(arg, "stdin") == 0) {
		long k;
		line = secmem_alloc(256);
		if (line == NULL) {
			log_error("out of memory");
			return EXIT_OTHER;
		}
		k = password_read_line(STDIN_FILENO, (uint8_t *)line, 255);
		if (k < 0) {
			log_error("-masterkey=stdin: could not read a line");
			secmem_free(line);
			return EXIT_MASTERKEY;
		}
		line[k] = '\0';
		s = line;
	}
	for (const char *p = s; *p != '\0'; p++) {
		int v;

		if (*p == '-')
			continue;
		v = hexval(*p);
		if (v < 0)
			bad++;
		else if (digits < 2 * KEYS_MASTER_LEN)
			mk[digits / 2] =
				(uint8_t)((digits % 2 == 0)
						  ? (unsigned)v << 4
						  : mk[digits / 2] |
							    (unsigned)v);
		digits++;
	}
	if (bad > 0 || digits != 2 * KEYS_MASTER_LEN) {
		log_error("-masterkey: want 64 hex digits (dashes allowed), "
			  "got %zu characters%s",
			  digits, bad > 0 ? " with non-hex ones" : "");
		explicit_bzero(mk, KEYS_MASTER_LEN);
		r = EXIT_MASTERKEY;
	}
	secmem_free(line);
	return r;
}

/* Map a config_* status to the exit code of a mount/-passwd. */
static int conf_exit(int st)
{
	switch (st) {
	case CONF_ERR_INVALID:
		return EXIT_DEPRECATEDFS;
	case CONF_ERR_PASSWORD:
		return EXIT_PASSWORD;
	case CONF_ERR_SCRYPT:
		return EXIT_SCRYPTPARAMS;
	default:
		return EXIT_OTHER;
	}
}

/* Load and validate the config for mount/-passwd (error line and exit
 * code on failure, 0 on success). */
int cmd_load_config(struct config *c, const char *path)
{
	char err[ERRLEN];
	int st = config_load(c, path, err, sizeof(err));

	if (st != CONF_OK) {
		log_error("Cannot open config file: %s", err);
		return conf_exit(st);
	}
	return EXIT_OK;
}

/*
 * The feature flags of gocryptfs.conf are not authenticated (only the
 * master key is, by its GCM tag): whoever can write the cipher dir can
 * switch them, e.g. to PlaintextNames, and new names are then stored in
 * clear beside the encrypted ones. The flags must fit what the root
 * directory holds:
 * - without DirIV (PlaintextNames or deterministic names) the root holds
 *   no gocryptfs.diriv: a 16-byte regular file of that name is one, as no
 *   file of such a volume is 16 bytes on disk (contents are 0 or at least
 *   18 + 16 + 1 + 16 bytes; an encrypted name never reads gocryptfs.*);
 * - with DirIV the root has gocryptfs.diriv (-init writes it first) as
 *   soon as it holds anything but the config and its backup.
 * Checked before the password is asked. EXIT_OK, or EXIT_DEPRECATEDFS
 * (gocryptfs's code for an invalid config) after one error line.
 */
int cmd_check_layout(const struct config *c, const char *dir)
{
	int has_diriv = (c->flags & CONF_DIRIV) != 0;
	struct stat st;
	struct dirent *e;
	DIR *d;
	int dfd;
	int other = 0;

	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return EXIT_OK; /* the mount or -fsck reports it */
	if (fstatat(dfd, NAMES_DIRIV, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		close(dfd);
		if (!has_diriv && S_ISREG(st.st_mode) && st.st_size == 16) {
			log_error("Config does not fit %s: it says %s, but the "
				  "root holds a gocryptfs.diriv (feature flags "
				  "are not authenticated: altered config?)",
				  dir,
				  (c->flags & CONF_PLAINTEXTNAMES)
					  ? "PlaintextNames"
					  : "no DirIV");
			return EXIT_DEPRECATEDFS;
		}
		return EXIT_OK;
	}
	if (!has_diriv || errno != ENOENT) {
		close(dfd);
		return EXIT_OK;
	}
	d = fdopendir(dfd);
	if (d == NULL) {
		close(dfd);
		return EXIT_OK;
	}
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 &&
		    strcmp(e->d_name, "..") != 0 &&
		    strcmp(e->d_name, NAMES_CONF) != 0 &&
		    strcmp(e->d_name, NAMES_CONF ".bak") != 0 &&
		    strcmp(e->d_name, "lost+found") != 0)
			other = 1;
	closedir(d);
	if (other) {
		log_error("Config does not fit %s: it says DirIV, but the root "
			  "has entries and no gocryptfs.diriv (feature flags "
			  "are not authenticated: altered config?)",
			  dir);
		return EXIT_DEPRECATEDFS;
	}
	return EXIT_OK;
}

/* Read the password and unlock c's master key into mk. */
void cmd_harden(void)
{
	struct rlimit rl = { 0, 0 };

	if (prctl(PR_SET_DUMPABLE, 0L, 0L, 0L, 0L) != 0)
		log_warn("prctl(PR_SET_DUMPABLE, 0): %s", strerror(errno));
	if (setrlimit(RLIMIT_CORE, &rl) != 0)
		log_warn("setrlimit(RLIMIT_CORE, 0): %s", strerror(errno));
}

int cmd_unlock(const struct cli_args *a, const struct config *c,
	       uint8_t mk[KEYS_MASTER_LEN])
{
	char err[ERRLEN];
	uint8_t *pw;
	size_t pwlen;
	int st;

	st = config_check_scrypt(c, err, sizeof(err));
	if (st != CONF_OK) {
		log_error("%s", err);
		return conf_exit(st);
	}
	if (password_read(&a->pw, 0, &pw, &pwlen) != 0)
		return EXIT_READPASSWORD;
	cmd_harden();
	log_info("Decrypting master key");
	st = config_unlock(c, pw, pwlen, mk, err, sizeof(err));
	secmem_free(pw);
	if (st != CONF_OK) {
		log_error("%s", err);
		return conf_exit(st);
	}
	return EXIT_OK;
}

/* Effective scrypt logN for -init/-passwd: -scryptn <= 0 means the
 * default. Returns the logN or -exit code after printing why. */
int cmd_scrypt_logn(const struct cli_args *a, int fallback)
{
	long n = a->scryptn == CLI_UNSET ? fallback : a->scryptn;
	uint64_t need = 0;

	if (n <= 0)
		n = SCRYPT_DEFAULT_LOGN;
	if (n < SCRYPT_MIN_LOGN) {
		log_error("scryptn below 10 is too low to make sense");
		return -EXIT_WRITECONF;
	}
	if (n > SCRYPT_MAX_LOGN) {
		log_error("-scryptn: value %ld is outside allowed range %d ... "
			  "%d",
			  n, SCRYPT_MIN_LOGN, SCRYPT_MAX_LOGN);
		return -EXIT_SCRYPTPARAMS;
	}
	if (kdf_scrypt_check((uint64_t)1 << n, 8, 1, &need) != 0) {
		log_error(
			"-scryptn %ld needs %llu MiB of memory, more than the "
			"%llu MiB available",
			n, (unsigned long long)(need >> 20),
			(unsigned long long)(kdf_scrypt_maxmem() >> 20));
		return -EXIT_SCRYPTPARAMS;
	}
	return (int)n;
}
