/* SPDX-License-Identifier: MIT */
/*
 * vcryptfs command line: usage, the action switch, mount and -fsck.
 * Follows gocryptfs's command line and exit codes (../shared/FORMAT.md
 * sections 11, 12 and 13; 13.5 for what mount_run gets). options.c parses;
 * -init/-info/-passwd are in cmd_config.c, the path and unlock helpers in
 * cmd_util.c (cmd.h). Only this file exits the process, with codes from
 * base/exitcodes.h. The master key lives in secmem and is wiped on every
 * path. Layer: cli/, the top: may include every layer, and nothing
 * includes cli/. Not proved.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/exitcodes.h"
#include "base/log.h"
#include "base/secmem.h"
#include "cli/cmd.h"
#include "cli/options.h"
#include "cli/speed.h"
#include "cli/version.h"
#include "crypto/calibrate.h"
#include "crypto/dispatch.h"
#include "crypto/ossl_aead.h"
#include "crypto/ossl_mem.h"
#include "format/config.h"
#include "format/keys.h"
#include "cli/help.h"
#include "cli/optx.h"
#include "fsck/fsck.h"
#include "fuse/mount.h"
#include "reverse/reverse.h"

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
	cmd_harden();
	if (a->masterkey != NULL) {
		r = cmd_parse_masterkey(a->masterkey, mk);
		if (r == EXIT_OK && strcmp(a->masterkey, "stdin") != 0)
			log_warn("using an explicit master key; it may be "
				 "visible in \"ps ax\" and your shell history");
	} else {
		log_warn("zerokey: using the all-zero master key (testing "
			 "only)");
	}
	if (a->aessiv || a->reverse)
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
	char *conf = cmd_config_path(a, dir);
	uint8_t *mk = NULL;
	int r;

	config_zero(&c);
	r = conf == NULL ? EXIT_OTHER : cmd_load_config(&c, conf);
	if (r == EXIT_OK && !a->reverse)
		r = cmd_check_layout(&c, dir);
	/* gocryptfs: without -fido2 a usage error (1), with it fido2-assert
	 * fails (31); this build has no FIDO2 support either way */
	if (r == EXIT_OK && (c.flags & CONF_FIDO2) && a->fido2 == NULL) {
		log_error("the master key is protected by a FIDO2 token, which "
			  "needs -fido2 DEVICE (not supported by this build)");
		r = EXIT_USAGE;
	} else if (r == EXIT_OK && (c.flags & CONF_FIDO2)) {
		log_error("fido2-assert failed: FIDO2-protected filesystems "
			  "are not supported by this build");
		r = EXIT_FIDO2;
	}
	if (r == EXIT_OK) {
		mk = secmem_alloc(KEYS_MASTER_LEN);
		r = mk == NULL ? EXIT_OTHER : cmd_unlock(a, &c, mk);
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
	char *mp;
	int empty;

	*out = NULL;
	if (optx_dead_arg(a->pos[1]))
		return EXIT_MOUNTPOINT;
	mp = cmd_existing_dir(a->pos[1], "mountpoint");
	if (mp == NULL)
		return EXIT_MOUNTPOINT;
	if (cmd_path_within(cdir, mp) || cmd_path_within(mp, cdir)) {
		log_error("Mountpoint %s would shadow or lie inside cipherdir "
			  "%s, this is not supported",
			  mp, cdir);
		free(mp);
		return EXIT_MOUNTPOINT;
	}
	if (optx_dead_mount(mp)) {
		free(mp);
		return EXIT_MOUNTPOINT;
	}
	empty = cmd_dir_is_empty(mp);
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

/*
 * The kernel mount flags of -dev/-nodev, -suid/-nosuid, -exec/-noexec (also
 * as -o dev,...), as gocryptfs applies them: nodev and nosuid unless -dev
 * or -suid asks otherwise, exec unless -noexec; when both forms are given
 * the "no" form wins. libfuse turns them into MS_NODEV, MS_NOSUID and
 * MS_NOEXEC; fusermount3 keeps a normal user's mount nodev,nosuid anyway.
 */
static const char *kernel_flags(const struct cli_args *a, char *buf, size_t cap)
{
	snprintf(buf, cap, "%s,%s,%s", a->dev && !a->nodev ? "dev" : "nodev",
		 a->suid && !a->nosuid ? "suid" : "nosuid",
		 a->noexec ? "noexec" : "exec");
	return buf;
}

/* What both daemons take alike; kflags (the -dev/-suid/-exec options) is
 * written to buf, which must outlive d. */
static void daemon_opts_fill(const struct cli_args *a, const char *mp,
			     struct daemon_opts *d, char *buf, size_t n)
{
	d->mountpoint = mp;
	d->foreground = a->fg;
	d->allow_other = a->allow_other;
	d->nosyslog = a->nosyslog;
	d->sharedstorage = a->sharedstorage;
	d->fusedebug = a->fusedebug;
	d->debug = a->debug;
	d->quiet = a->quiet;
	d->nouring = a->nouring;
	d->notifypid = (int)a->notifypid;
	d->ko = a->ko;
	d->kflags = kernel_flags(a, buf, n);
	d->fsname = a->fsname;
}

/* -reverse PLAINDIR VIEW: the read-only encrypted view (src/reverse/,
 * FORMAT.md 9); a config without AES-SIV is refused with exit 1. */
static int reverse_mount(const struct cli_args *a, const char *dir,
			 const char *mp, struct volume *vol)
{
	struct reverse_opts o;
	char kflags[32];

	if (vol->cipher != CIPHER_AES_SIV) {
		log_error("Reverse mode needs AES-SIV: this config is not, "
			  "create one with -init -reverse");
		return EXIT_USAGE;
	}
	memset(&o, 0, sizeof(o));
	daemon_opts_fill(a, mp, &o.d, kflags, sizeof(kflags));
	o.plaindir = dir;
	o.config_custom = a->config != NULL;
	o.one_file_system = a->one_file_system;
	o.exclude = a->exclude.v;
	o.nexclude = a->exclude.n;
	o.exclude_wildcard = a->exclude_wildcard.v;
	o.nexclude_wildcard = a->exclude_wildcard.n;
	o.exclude_from = a->exclude_from.v;
	o.nexclude_from = a->exclude_from.n;
	return reverse_run(&o, vol);
}

static int do_mount(const struct cli_args *a)
{
	struct mount_opts o;
	char kflags[32];
	struct volume vol;
	char *cdir, *mp = NULL;
	int r;

	memset(&o, 0, sizeof(o));
	memset(&vol, 0, sizeof(vol));
	cdir = cmd_existing_dir(a->pos[0], "cipherdir");
	if (cdir == NULL)
		return EXIT_CIPHERDIR;
	r = check_mountpoint(a, cdir, &mp);
	if (r != EXIT_OK)
		goto out;
	if (geteuid() != 0 &&
	    ((a->dev && !a->nodev) || (a->suid && !a->nosuid)))
		log_warn("-dev and -suid need root: the mount stays "
			 "nodev,nosuid");
	if (a->masterkey != NULL || a->zerokey)
		r = volume_from_flags(a, &vol);
	else
		r = volume_from_config(a, cdir, &vol);
	if (r != EXIT_OK)
		goto out;
	if (a->reverse) {
		r = reverse_mount(a, cdir, mp, &vol);
		volume_free(&vol);
		goto out;
	}
	daemon_opts_fill(a, mp, &o.d, kflags, sizeof(kflags));
	o.cipherdir = cdir;
	o.readonly = a->ro;
	o.nonempty = a->nonempty;
	o.noprealloc = a->noprealloc;
	o.badname = a->badname;
	r = optx_mount_opts(a, &o);
	if (r == EXIT_OK)
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
	char *cdir = cmd_existing_dir(a->pos[0], "cipherdir");
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
	int r;

	if (actions > 1) {
		log_error("At most one of -info, -init, -passwd, -fsck is "
			  "allowed");
		return EXIT_USAGE;
	}
	r = optx_check(a);
	if (r != EXIT_OK)
		return r;
	if (a->unsupported != NULL) {
		log_error("-%s is not supported by this build", a->unsupported);
		return EXIT_USAGE;
	}
	if (a->fsck && a->reverse) {
		log_error("-fsck is not supported together with -reverse");
		return EXIT_USAGE;
	}
	if (!a->reverse &&
	    a->exclude.n + a->exclude_wildcard.n + a->exclude_from.n > 0) {
		log_error("-exclude is only supported in reverse mode");
		return EXIT_EXCLUDE;
	}
	if (a->longnamemax < CONF_LONGNAMEMAX_MIN ||
	    a->longnamemax > CONF_LONGNAMEMAX_MAX) {
		log_error("-longnamemax: value %ld is outside allowed range %d "
			  "... %d",
			  a->longnamemax, CONF_LONGNAMEMAX_MIN,
			  CONF_LONGNAMEMAX_MAX);
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
		help_long(stdout);
		return EXIT_OK;
	}
	if (a->help) {
		help_short(stdout);
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
		return cmd_init(a);
	if (a->info)
		return cmd_info(a);
	if (a->passwd)
		return cmd_passwd(a);
	return do_mount(a);
}

/*
 * libcrypto's arena (crypto/ossl_mem.h): its contexts that hold keys (AES
 * key schedules, GCM tables, KDF state), in one locked, no-dump secmem
 * mapping. A mount uses a few KiB per worker thread; what does not fit
 * goes to the ordinary heap (test 73-secrets finds it there).
 */
#define OSSL_ARENA_LEN ((size_t)2 << 20)

static void *ossl_arena;

static void arena_init(void)
{
	ossl_arena = secmem_alloc(OSSL_ARENA_LEN);
	if (ossl_arena == NULL ||
	    ossl_mem_init(ossl_arena, OSSL_ARENA_LEN) != 0)
		log_warn("libcrypto's key schedules are not in locked memory");
}

int main(int argc, char **argv)
{
	struct cli_args a;
	char err[ERRLEN];
	int r;

	arena_init(); /* before any other libcrypto call */
	dispatch_init();
	/* the one calibrated kernel choice (crypto/calibrate.h), before
	 * anything here can start a thread: every mode below (mount,
	 * -reverse, -fsck, -speed, -version) runs on it */
	calibrate_once();
	if (argc <= 1) {
		help_usage(stderr);
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
	optx_scrypt_cap();
	optx_debug_args(&a);
	r = run(&a);
	cli_free(&a);
	ossl_aead_thread_cleanup();
	return r;
}
