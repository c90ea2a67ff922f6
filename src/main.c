/* SPDX-License-Identifier: MIT */
/*
 * vcryptfs command line: options, key unlock, -init/-passwd/-info, mount.
 * Follows gocryptfs's command line and exit codes (../shared/FORMAT.md
 * sections 11, 12 and 13.1-13.3; 13.5 for what mount_run gets).
 * Depends on: everything (main is the top layer): cli.c parses, password.c
 * reads passwords, format/config.c and format/keys.c do the key work,
 * mount_run() serves. Only this file exits the process, with codes from
 * exitcodes.h. The master key lives in secmem and is wiped on every path.
 * Not proved.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "crypto/cpu.h"
#include "crypto/dispatch.h"
#include "crypto/kdf.h"
#include "crypto/ossl_aead.h"
#include "exitcodes.h"
#include "format/config.h"
#include "format/keys.h"
#include "fsck.h"
#include "log.h"
#include "mount.h"
#include "password.h"
#include "secmem.h"
#include "speed.h"
#include "version.h"

#define CONF_NAME "gocryptfs.conf"
#define DIRIV_NAME "gocryptfs.diriv"
#define DIRIV_LEN 16
#define SCRYPT_DEFAULT_LOGN 16
#define SCRYPT_MIN_LOGN 10
#define ERRLEN 512

static void usage(FILE *f)
{
	fprintf(f, "Usage: vcryptfs -init|-passwd|-info [OPTIONS] CIPHERDIR\n"
		   "  or   vcryptfs [OPTIONS] CIPHERDIR MOUNTPOINT\n"
		   "  or   vcryptfs -speed|-version|-h|-hh\n");
}

static void usage_long(FILE *f)
{
	usage(f);
	fprintf(f,
		"\nActions: -init -passwd -info -speed -version -h -hh\n"
		"-init options: -aessiv -xchacha -plaintextnames "
		"-deterministic-names\n"
		"  -longnamemax N (62..255) -scryptn N (10..21) -hkdf -raw64\n"
		"Mount options: -ro -rw -allow_other -nonempty -fg -nosyslog "
		"-noprealloc\n"
		"  -dev -nodev -suid -nosuid -exec -noexec -ko OPTS -fsname "
		"NAME\n"
		"  -fusedebug -zerokey -notifypid PID -sharedstorage -badname "
		"GLOB\n"
		"Common: -passfile FILE -extpass CMD -masterkey HEX|stdin "
		"-config FILE\n"
		"  -q -d -o a,b,c --\n");
}

/* ---------------------------------------------------------------------
 * Paths and directories
 */

static char *path_join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);

	if (p != NULL)
		snprintf(p, n, "%s/%s", dir, name);
	return p;
}

/* Absolute path of an existing directory, or NULL after one error line
 * naming `what` ("cipherdir", "mountpoint"). */
static char *existing_dir(const char *dir, const char *what)
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
static int dir_is_empty(const char *dir)
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
static int path_within(const char *inner, const char *outer)
{
	size_t n = strlen(outer);

	if (strcmp(outer, "/") == 0)
		return 1;
	return strncmp(inner, outer, n) == 0 &&
	       (inner[n] == '\0' || inner[n] == '/');
}

/* The config path: -config, else CIPHERDIR/gocryptfs.conf. */
static char *config_path(const struct cli_args *a, const char *cipherdir)
{
	char *p = a->config != NULL ? strdup(a->config)
				    : path_join(cipherdir, CONF_NAME);

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
static int parse_masterkey(const char *arg, uint8_t mk[KEYS_MASTER_LEN])
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
		if (*p == '-')
			continue;
		if (hexval(*p) < 0)
			bad++;
		else if (digits < 2 * KEYS_MASTER_LEN)
			mk[digits / 2] =
				(uint8_t)((digits % 2 == 0)
						  ? hexval(*p) << 4
						  : mk[digits / 2] |
							    hexval(*p));
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
static int load_config(struct config *c, const char *path)
{
	char err[ERRLEN];
	int st = config_load(c, path, err, sizeof(err));

	if (st != CONF_OK) {
		log_error("Cannot open config file: %s", err);
		return conf_exit(st);
	}
	return EXIT_OK;
}

/* Read the password and unlock c's master key into mk. */
static int unlock(const struct cli_args *a, const struct config *c,
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
static int scrypt_logn(const struct cli_args *a, int fallback)
{
	long n = a->scryptn == CLI_UNSET ? fallback : a->scryptn;

	if (n <= 0)
		n = SCRYPT_DEFAULT_LOGN;
	if (n < SCRYPT_MIN_LOGN) {
		log_error("scryptn below 10 is too low to make sense");
		return -EXIT_WRITECONF;
	}
	if (n > 62 || kdf_scrypt_check((uint64_t)1 << n, 8, 1, NULL) != 0) {
		log_error("-scryptn %ld needs more than the %llu MiB this "
			  "build allows for scrypt",
			  n, (unsigned long long)(KDF_SCRYPT_MAXMEM >> 20));
		return -EXIT_SCRYPTPARAMS;
	}
	return (int)n;
}

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
	char *p = path_join(cipherdir, DIRIV_NAME);
	uint8_t iv[DIRIV_LEN];
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

static int do_init(const struct cli_args *a)
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
	if (a->xchacha && a->aessiv) {
		log_error("Can't have both XChaCha20Poly1305 and AESSIV "
			  "feature flags");
		return EXIT_WRITECONF;
	}
	logn = scrypt_logn(a, SCRYPT_DEFAULT_LOGN);
	if (logn < 0)
		return -logn;
	dir = existing_dir(a->pos[0], "cipherdir");
	if (dir == NULL)
		return EXIT_CIPHERDIR;
	if (dir_is_empty(dir) != 1) {
		log_error("Invalid cipherdir: directory %s not empty", dir);
		r = EXIT_CIPHERDIR;
		goto out;
	}
	conf = config_path(a, dir);
	if (conf == NULL) {
		r = EXIT_OTHER;
		goto out;
	}
	if (lstat(conf, &st_conf) == 0) {
		log_error("Config file %s already exists", conf);
		r = EXIT_INIT;
		goto out;
	}
	io.aessiv = a->aessiv;
	io.xchacha = a->xchacha || (!a->aessiv && auto_xchacha());
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
	mk = secmem_alloc(KEYS_MASTER_LEN);
	if (mk == NULL) {
		r = EXIT_OTHER;
		goto out;
	}
	if (a->masterkey != NULL) {
		r = parse_masterkey(a->masterkey, mk);
		if (r != EXIT_OK)
			goto out;
	} else {
		ossl_random(mk, KEYS_MASTER_LEN);
	}
	if (a->pw.nextpass == 0)
		log_info("Choose a password for protecting your files.");
	if (password_read(&a->pw, 1, &pw, &pwlen) != 0) {
		r = EXIT_READPASSWORD;
		goto out;
	}
	st = config_wrap(&c, mk, pw, pwlen, (unsigned)logn);
	if (st != CONF_OK) {
		log_error("wrapping the master key failed");
		r = st == CONF_ERR_SCRYPT ? EXIT_SCRYPTPARAMS : EXIT_OTHER;
		goto out;
	}
	st = config_save(&c, conf);
	if (st != 0) {
		log_error("Writing config file %s failed: %s", conf,
			  strerror(-st));
		r = EXIT_WRITECONF;
		goto out;
	}
	if ((c.flags & (CONF_PLAINTEXTNAMES | CONF_DIRIV)) == CONF_DIRIV) {
		st = write_diriv(dir);
		if (st != 0) {
			log_error("Creating %s/%s failed: %s", dir, DIRIV_NAME,
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

static int do_info(const struct cli_args *a)
{
	struct config c;
	char err[ERRLEN];
	char *dir = existing_dir(a->pos[0], "cipherdir");
	char *conf = NULL, *txt;
	int st;

	if (dir == NULL)
		return EXIT_CIPHERDIR;
	conf = config_path(a, dir);
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

static int do_passwd(const struct cli_args *a)
{
	struct config c;
	char *dir = NULL, *conf = NULL;
	uint8_t *mk = NULL, *pw = NULL;
	size_t pwlen;
	int r, st, logn = 0;

	config_zero(&c);
	dir = existing_dir(a->pos[0], "cipherdir");
	if (dir == NULL)
		return EXIT_CIPHERDIR;
	conf = config_path(a, dir);
	r = conf == NULL ? EXIT_OTHER : load_config(&c, conf);
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
	logn = scrypt_logn(a, logn);
	if (logn < 0) {
		r = -logn;
		goto out;
	}
	mk = secmem_alloc(KEYS_MASTER_LEN);
	if (mk == NULL) {
		r = EXIT_OTHER;
		goto out;
	}
	if (a->masterkey != NULL) {
		r = parse_masterkey(a->masterkey, mk);
		if (r == EXIT_OK && (st = make_backup(conf)) != 0) {
			log_error("Could not create %s.bak: %s", conf,
				  strerror(-st));
			r = EXIT_INIT;
		}
	} else {
		r = unlock(a, &c, mk);
	}
	if (r != EXIT_OK)
		goto out;
	log_info("Please enter your new password.");
	if (password_read(&a->pw, 1, &pw, &pwlen) != 0) {
		r = EXIT_READPASSWORD;
		goto out;
	}
	st = config_wrap(&c, mk, pw, pwlen, (unsigned)logn);
	if (st != CONF_OK) {
		log_error("re-wrapping the master key failed%s",
			  (c.flags & CONF_HKDF) ? ""
						: " (config without HKDF)");
		r = EXIT_WRITECONF;
		goto out;
	}
	st = config_save(&c, conf);
	if (st != 0) {
		log_error("Writing config file %s failed: %s", conf,
			  strerror(-st));
		r = EXIT_WRITECONF;
		goto out;
	}
	log_info("Password changed.");
out:
	secmem_free(pw);
	secmem_free(mk);
	config_free(&c);
	free(conf);
	free(dir);
	return r;
}

/* ---------------------------------------------------------------------
 * Mounting (12.1, 13.5)
 */

/* struct volume from -masterkey/-zerokey plus the filesystem flags given
 * on the command line (no config). */
static int volume_from_flags(const struct cli_args *a, struct volume *vol)
{
	uint8_t *mk = secmem_alloc(KEYS_MASTER_LEN);
	enum content_cipher cipher = CIPHER_AES_GCM;
	uint32_t vf = a->hkdf ? VOL_HKDF : 0;
	int r = EXIT_OK;

	if (mk == NULL)
		return EXIT_OTHER;
	if (a->masterkey != NULL) {
		r = parse_masterkey(a->masterkey, mk);
		if (r == EXIT_OK)
			log_warn("using an explicit master key; it may be "
				 "visible in \"ps ax\" and your shell history");
	} else {
		log_warn("zerokey: using the all-zero master key (testing "
			 "only)");
	}
	if (a->aessiv)
		cipher = CIPHER_AES_SIV;
	else if (a->xchacha)
		cipher = CIPHER_XCHACHA;
	if (a->plaintextnames)
		vf |= VOL_PLAINTEXTNAMES;
	else
		vf |= VOL_EMENAMES | VOL_LONGNAMES |
		      (a->deterministic_names ? 0 : VOL_DIRIV) |
		      (a->raw64 ? VOL_RAW64 : 0);
	if (r == EXIT_OK &&
	    keys_derive(vol, mk, cipher, vf, (unsigned)a->longnamemax) != 0) {
		log_error("these filesystem flags do not fit together "
			  "(-xchacha needs -hkdf)");
		r = EXIT_USAGE;
	}
	secmem_free(mk);
	return r;
}

static int volume_from_config(const struct cli_args *a, const char *dir,
			      struct volume *vol)
{
	struct config c;
	char *conf = config_path(a, dir);
	uint8_t *mk = NULL;
	int r;

	config_zero(&c);
	r = conf == NULL ? EXIT_OTHER : load_config(&c, conf);
	if (r == EXIT_OK && (c.flags & CONF_FIDO2)) {
		log_error("FIDO2-protected filesystems are not supported by "
			  "this build");
		r = EXIT_OTHER;
	}
	if (r == EXIT_OK) {
		mk = secmem_alloc(KEYS_MASTER_LEN);
		r = mk == NULL ? EXIT_OTHER : unlock(a, &c, mk);
	}
	if (r == EXIT_OK && keys_from_config(vol, &c, mk) != 0) {
		log_error("deriving the keys failed");
		r = EXIT_OTHER;
	}
	secmem_free(mk);
	config_free(&c);
	free(conf);
	return r;
}

static int check_mountpoint(const struct cli_args *a, const char *cdir,
			    char **out)
{
	char *mp = existing_dir(a->pos[1], "mountpoint");
	int empty;

	*out = NULL;
	if (mp == NULL)
		return EXIT_MOUNTPOINT;
	if (path_within(cdir, mp) || path_within(mp, cdir)) {
		log_error("Mountpoint %s would shadow or lie inside cipherdir "
			  "%s, this is not supported",
			  mp, cdir);
		free(mp);
		return EXIT_MOUNTPOINT;
	}
	empty = dir_is_empty(mp);
	if (!a->nonempty && strncmp(mp, "/dev/fd/", 8) != 0 && empty != 1) {
		log_error("Invalid mountpoint: %s is not an empty directory "
			  "(use -nonempty to mount anyway)",
			  mp);
		free(mp);
		return EXIT_MOUNTPOINT;
	}
	*out = mp;
	return EXIT_OK;
}

static int do_mount(const struct cli_args *a)
{
	struct mount_opts o;
	struct volume vol;
	char *cdir, *mp = NULL;
	int r;

	memset(&o, 0, sizeof(o));
	memset(&vol, 0, sizeof(vol));
	cdir = existing_dir(a->pos[0], "cipherdir");
	if (cdir == NULL)
		return EXIT_CIPHERDIR;
	r = check_mountpoint(a, cdir, &mp);
	if (r != EXIT_OK)
		goto out;
	if (a->dev || a->suid || a->exec)
		log_warn("-dev, -suid and -exec are ignored by this build "
			 "(FUSE mounts use nodev,nosuid)");
	if (a->masterkey != NULL || a->zerokey)
		r = volume_from_flags(a, &vol);
	else
		r = volume_from_config(a, cdir, &vol);
	if (r != EXIT_OK)
		goto out;
	o.cipherdir = cdir;
	o.mountpoint = mp;
	o.foreground = a->fg;
	o.readonly = a->ro;
	o.allow_other = a->allow_other;
	o.nonempty = a->nonempty;
	o.nosyslog = a->nosyslog;
	o.sharedstorage = a->sharedstorage;
	o.fusedebug = a->fusedebug;
	o.debug = a->debug;
	o.quiet = a->quiet;
	o.noprealloc = a->noprealloc;
	o.notifypid = (int)a->notifypid;
	o.ko = a->ko;
	o.fsname = a->fsname;
	o.badname = a->badname;
	r = mount_run(&o, &vol);
	volume_free(&vol);
out:
	free(mp);
	free(cdir);
	return r;
}

/* -fsck (13.4): unlock like a mount, then check offline (fsck.c). */
static int do_fsck(const struct cli_args *a)
{
	struct volume vol;
	char *cdir = existing_dir(a->pos[0], "cipherdir");
	int r;

	if (cdir == NULL)
		return EXIT_CIPHERDIR;
	memset(&vol, 0, sizeof(vol));
	if (a->masterkey != NULL || a->zerokey)
		r = volume_from_flags(a, &vol);
	else
		r = volume_from_config(a, cdir, &vol);
	if (r == EXIT_OK)
		r = fsck_main(cdir, &vol);
	volume_free(&vol);
	free(cdir);
	return r;
}

/* ---------------------------------------------------------------------
 * main
 */

static int check_usage(const struct cli_args *a)
{
	int actions = a->init + a->passwd + a->info + a->fsck;

	if (actions > 1) {
		log_error("At most one of -info, -init, -passwd, -fsck is "
			  "allowed");
		return EXIT_USAGE;
	}
	if (a->unsupported != NULL) {
		log_error("-%s is not supported by this build", a->unsupported);
		return EXIT_USAGE;
	}
	if (a->longnamemax < 62 || a->longnamemax > 255) {
		log_error("-longnamemax: value %ld is outside allowed range 62 "
			  "... 255",
			  a->longnamemax);
		return EXIT_USAGE;
	}
	if (a->pw.npassfile > 0 && a->pw.nextpass > 0) {
		log_error("-passfile and -extpass cannot be used together");
		return EXIT_USAGE;
	}
	if (a->masterkey != NULL && a->pw.npassfile + a->pw.nextpass > 0) {
		log_error("-masterkey cannot be used together with -passfile "
			  "or -extpass");
		return EXIT_USAGE;
	}
	if (a->npos == 0) {
		log_error("CIPHERDIR argument is missing");
		return EXIT_USAGE;
	}
	if (actions == 1 && a->npos != 1) {
		log_error("Wrong number of arguments (have %zu, want 1)",
			  a->npos);
		return EXIT_USAGE;
	}
	if (actions == 0 && a->npos != 2) {
		log_error("Wrong number of arguments (have %zu, want 2)",
			  a->npos);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int run(const struct cli_args *a)
{
	int r;

	if (a->version) {
		version_print(stdout);
		return EXIT_OK;
	}
	if (a->hh) {
		usage_long(stdout);
		return EXIT_OK;
	}
	if (a->help) {
		usage(stdout);
		return EXIT_OK;
	}
	if (a->speed)
		return speed_run();
	r = check_usage(a);
	if (r != EXIT_OK)
		return r;
	if (a->fsck)
		return do_fsck(a);
	if (a->init)
		return do_init(a);
	if (a->info)
		return do_info(a);
	if (a->passwd)
		return do_passwd(a);
	return do_mount(a);
}

int main(int argc, char **argv)
{
	struct cli_args a;
	char err[ERRLEN];
	int r;

	dispatch_init();
	if (argc <= 1) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (cli_parse(&a, argc, argv, err, sizeof(err)) != 0) {
		log_error("%s", err);
		cli_free(&a);
		return EXIT_USAGE;
	}
	if (a.debug)
		log_set_level(LOGL_DEBUG);
	else if (a.quiet)
		log_set_level(LOGL_QUIET);
	r = run(&a);
	cli_free(&a);
	ossl_aead_thread_cleanup();
	return r;
}
