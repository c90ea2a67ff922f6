/* SPDX-License-Identifier: MIT */
/*
 * The config actions: -init (a new cipher dir: gocryptfs.conf with the
 * wrapped master key, and the root diriv), -info (print the config) and
 * -passwd (re-wrap the master key under a new password, .bak kept when
 * -masterkey is used). ../shared/FORMAT.md 13.1-13.3.
 * Layer: cli/; depends on cli/, format/ (config, keys, names), base/
 * (secmem, log, exitcodes), crypto/cpu.h, crypto/ossl_aead.h (randomness).
 * Not proved.
 */
#include "cli/cmd.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/exitcodes.h"
#include "base/log.h"
#include "base/secmem.h"
#include "cli/password.h"
#include "cli/version.h"
#include "crypto/cpu.h"
#include "crypto/ossl_aead.h"
#include "format/names.h"

/* ---------------------------------------------------------------------
 * -init (FORMAT.md 13.1)
 */

static void print_masterkey(const uint8_t mk[KEYS_MASTER_LEN])
{
	char *s = secmem_alloc(128);
	size_t o = 0;

	if (s == NULL)
		return;
	for (int i = 0; i < KEYS_MASTER_LEN; i++) {
		/* 8 groups of 8 digits, "-" after each but the last, and
		 * a line break after the fourth, as gocryptfs prints it */
		if (i > 0 && i % 4 == 0)
			s[o++] = '-';
		if (i == 16)
			o += (size_t)snprintf(s + o, 6, "\n    ");
		o += (size_t)snprintf(s + o, 3, "%02x", mk[i]);
	}
	printf("\nYour master key is:\n\n    %s\n\n"
	       "If the gocryptfs.conf file becomes corrupted or you ever "
	       "forget your password,\nthere is only one hope for recovery: "
	       "The master key. Print it to a piece of\npaper and store it "
	       "in a drawer. This message is only printed once.\n",
	       s);
	fflush(stdout);
	secmem_free(s);
}

static int write_diriv(const char *cipherdir)
{
	char *p = cmd_path_join(cipherdir, NAMES_DIRIV);
	uint8_t iv[NAMES_DIRIV_LEN];
	int fd, r = 0;

	if (p == NULL)
		return -ENOMEM;
	fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0444);
	if (fd < 0) {
		r = -errno;
		free(p);
		return r;
	}
	ossl_random(iv, sizeof(iv));
	if (write(fd, iv, sizeof(iv)) != (ssize_t)sizeof(iv))
		r = -EIO;
	if (r == 0 && fsync(fd) != 0)
		r = -errno;
	if (close(fd) != 0 && r == 0)
		r = -errno;
	if (r != 0)
		(void)unlink(p);
	free(p);
	return r;
}

/* Allocates *mk in locked memory and, with -masterkey, fills it from the
 * argument; without it the caller fills it. EXIT_OK or the exit code. */
static int masterkey_alloc(const struct cli_args *a, uint8_t **mk)
{
	*mk = secmem_alloc(KEYS_MASTER_LEN);
	if (*mk == NULL)
		return EXIT_OTHER;
	if (a->masterkey != NULL)
		return cmd_parse_masterkey(a->masterkey, *mk);
	return EXIT_OK;
}

/* Read the new password (asked twice on a terminal): EXIT_OK, or
 * EXIT_READPASSWORD. */
static int read_new_password(const struct cli_args *a, uint8_t **pw,
			     size_t *pwlen)
{
	if (password_read(&a->pw, 1, pw, pwlen) != 0)
		return EXIT_READPASSWORD;
	cmd_harden();
	return EXIT_OK;
}

/* Write c to conf: EXIT_OK, or EXIT_WRITECONF after saying why. */
static int save_config(const struct config *c, const char *conf)
{
	int st = config_save(c, conf);

	if (st != 0) {
		log_error("Writing config file %s failed: %s", conf,
			  strerror(-st));
		return EXIT_WRITECONF;
	}
	return EXIT_OK;
}

/* Pick the content cipher for -init without -xchacha/-aessiv. */
static int auto_xchacha(void)
{
	unsigned need = CPU_AESNI | CPU_PCLMUL;

	if ((cpu_features() & need) == need) {
		log_info("Notice: the CPU has AES-NI and PCLMULQDQ "
			 "acceleration, using AES-GCM-256");
		return 0;
	}
	log_info("Notice: the CPU has no AES-NI/PCLMULQDQ acceleration, "
		 "using XChaCha20-Poly1305 (-xchacha)");
	return 1;
}

int cmd_init(const struct cli_args *a)
{
	struct config_init_opts io = { 0 };
	struct config c;
	char err[ERRLEN];
	char *dir = NULL, *conf = NULL;
	uint8_t *mk = NULL, *pw = NULL;
	size_t pwlen = 0;
	int logn, st, r = EXIT_OK;
	struct stat st_conf;

	config_zero(&c);
	if (a->xchacha && (a->aessiv || a->reverse)) {
		log_error("Can't have both XChaCha20Poly1305 and AESSIV "
			  "feature flags");
		return EXIT_WRITECONF;
	}
	logn = cmd_scrypt_logn(a, SCRYPT_DEFAULT_LOGN);
	if (logn < 0)
		return -logn;
	dir = cmd_existing_dir(a->pos[0], "cipherdir");
	if (dir == NULL)
		return EXIT_CIPHERDIR;
	/* -reverse: the plaintext dir need not be empty (FORMAT.md 9.1) */
	if (!a->reverse && cmd_dir_is_empty(dir) != 1) {
		log_error("Invalid cipherdir: directory %s not empty", dir);
		r = EXIT_CIPHERDIR;
		goto out;
	}
	conf = cmd_config_path(a, dir);
	if (conf == NULL) {
		r = EXIT_OTHER;
		goto out;
	}
	if (lstat(conf, &st_conf) == 0) {
		log_error("Config file %s already exists", conf);
		r = EXIT_INIT;
		goto out;
	}
	io.aessiv = a->aessiv || a->reverse; /* -reverse implies AES-SIV */
	io.xchacha = a->xchacha || (!io.aessiv && auto_xchacha());
	io.plaintextnames = a->plaintextnames;
	io.deterministic_names = a->deterministic_names;
	io.longnamemax = (unsigned)a->longnamemax;
	io.creator = "vcryptfs " VCRYPTFS_VERSION;
	st = config_init(&c, &io, err, sizeof(err));
	if (st != CONF_OK) {
		log_error("%s", err);
		r = EXIT_WRITECONF;
		goto out;
	}
	r = masterkey_alloc(a, &mk);
	if (r != EXIT_OK)
		goto out;
	if (a->masterkey == NULL)
		ossl_random(mk, KEYS_MASTER_LEN);
	if (a->pw.nextpass == 0)
		log_info("Choose a password for protecting your files.");
	r = read_new_password(a, &pw, &pwlen);
	if (r != EXIT_OK)
		goto out;
	st = config_wrap(&c, mk, pw, pwlen, (unsigned)logn);
	if (st != CONF_OK) {
		log_error("wrapping the master key failed");
		r = st == CONF_ERR_SCRYPT ? EXIT_SCRYPTPARAMS : EXIT_OTHER;
		goto out;
	}
	r = save_config(&c, conf);
	if (r != EXIT_OK)
		goto out;
	if (!a->reverse &&
	    (c.flags & (CONF_PLAINTEXTNAMES | CONF_DIRIV)) == CONF_DIRIV) {
		st = write_diriv(dir);
		if (st != 0) {
			log_error("Creating %s/%s failed: %s", dir, NAMES_DIRIV,
				  strerror(-st));
			r = EXIT_INIT;
			goto out;
		}
	}
	if (isatty(STDOUT_FILENO) && log_get_level() >= LOGL_INFO)
		print_masterkey(mk);
	else
		log_info("Not running on a terminal, suppressing master key "
			 "display");
	log_info("The vcryptfs filesystem has been created successfully.");
	log_info("You can now mount it using: vcryptfs %s MOUNTPOINT",
		 a->pos[0]);
out:
	secmem_free(pw);
	secmem_free(mk);
	config_free(&c);
	free(conf);
	free(dir);
	return r;
}

/* ---------------------------------------------------------------------
 * -info (13.3) and -passwd (13.2)
 */

int cmd_info(const struct cli_args *a)
{
	struct config c;
	char err[ERRLEN];
	char *dir = cmd_existing_dir(a->pos[0], "cipherdir");
	char *conf = NULL, *txt;
	int st;

	if (dir == NULL)
		return EXIT_CIPHERDIR;
	conf = cmd_config_path(a, dir);
	free(dir);
	if (conf == NULL)
		return EXIT_OTHER;
	st = config_load(&c, conf, err, sizeof(err));
	free(conf);
	if (st != CONF_OK) {
		log_error("Loading config file failed: %s", err);
		return EXIT_LOADCONF;
	}
	txt = config_info(&c);
	config_free(&c);
	if (txt == NULL)
		return EXIT_OTHER;
	fputs(txt, stdout);
	free(txt);
	return EXIT_OK;
}

static int make_backup(const char *conf)
{
	char *bak = malloc(strlen(conf) + 5);
	int r = 0;

	if (bak == NULL)
		return -ENOMEM;
	sprintf(bak, "%s.bak", conf);
	if (link(conf, bak) != 0)
		r = -errno;
	else
		log_info("A copy of the old config file has been created at "
			 "%s",
			 bak);
	free(bak);
	return r;
}

int cmd_passwd(const struct cli_args *a)
{
	struct config c;
	char *dir = NULL, *conf = NULL;
	uint8_t *mk = NULL, *pw = NULL;
	size_t pwlen;
	int r, st, logn = 0;

	config_zero(&c);
	dir = cmd_existing_dir(a->pos[0], "cipherdir");
	if (dir == NULL)
		return EXIT_CIPHERDIR;
	conf = cmd_config_path(a, dir);
	r = conf == NULL ? EXIT_OTHER : cmd_load_config(&c, conf);
	if (r != EXIT_OK)
		goto out;
	if (c.flags & CONF_FIDO2) {
		log_error("Password change is not supported on FIDO2-enabled "
			  "filesystems.");
		r = EXIT_USAGE;
		goto out;
	}
	for (int64_t n = c.scrypt_n; n > 1; n >>= 1)
		logn++;
	logn = cmd_scrypt_logn(a, logn);
	if (logn < 0) {
		r = -logn;
		goto out;
	}
	r = masterkey_alloc(a, &mk);
	if (r != EXIT_OK)
		goto out;
	if (a->masterkey != NULL) {
		if ((st = make_backup(conf)) != 0) {
			log_error("Could not create %s.bak: %s", conf,
				  strerror(-st));
			r = EXIT_INIT;
		}
	} else {
		r = cmd_unlock(a, &c, mk);
	}
	if (r != EXIT_OK)
		goto out;
	log_info("Please enter your new password.");
	r = read_new_password(a, &pw, &pwlen);
	if (r != EXIT_OK)
		goto out;
	st = config_wrap(&c, mk, pw, pwlen, (unsigned)logn);
	if (st != CONF_OK) {
		log_error("re-wrapping the master key failed%s",
			  (c.flags & CONF_HKDF) ? ""
						: " (config without HKDF)");
		r = EXIT_WRITECONF;
		goto out;
	}
	r = save_config(&c, conf);
	if (r != EXIT_OK)
		goto out;
	log_info("Password changed.");
out:
	secmem_free(pw);
	secmem_free(mk);
	config_free(&c);
	free(conf);
	free(dir);
	return r;
}
