/* SPDX-License-Identifier: MIT */
/*
 * -idle, -force_owner, -openssl, -fido2 and the scrypt memory cap (see
 * optx.h). Spec: ../shared/FORMAT.md 11, 12.3. Not proved.
 */
#include "cli/optx.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crypto/kdf.h"
#include "base/exitcodes.h"
#include "base/log.h"

/* Go's time.ParseDuration: [-+]?([0-9]*(\.[0-9]*)?unit)+ or "0". */
int optx_duration(const char *s, double *seconds)
{
	static const struct {
		const char *name;
		double sec;
	} units[] = {
		{ "ns", 1e-9 },	       { "us", 1e-6 },	{ "\xc2\xb5s", 1e-6 },
		{ "\xce\xbcs", 1e-6 }, { "ms", 1e-3 },	{ "s", 1.0 },
		{ "m", 60.0 },	       { "h", 3600.0 },
	};
	double total = 0.0, sign = 1.0;
	const char *p = s;

	if (*p == '-' || *p == '+') {
		sign = *p == '-' ? -1.0 : 1.0;
		p++;
	}
	if (strcmp(p, "0") == 0) {
		*seconds = 0.0;
		return 0;
	}
	if (*p == '\0')
		return -1;
	while (*p != '\0') {
		char *end;
		double v;
		size_t best = 0, bi = 0;

		if (!((*p >= '0' && *p <= '9') || *p == '.'))
			return -1;
		if (*p == '.' && !(p[1] >= '0' && p[1] <= '9'))
			return -1;
		errno = 0;
		v = strtod(p, &end);
		if (errno != 0 || end == p || *end == 'e' || *end == 'E')
			return -1;
		for (const char *q = p; q < end; q++)
			if (!((*q >= '0' && *q <= '9') || *q == '.'))
				return -1;
		p = end;
		for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
			size_t l = strlen(units[i].name);
			if (strncmp(p, units[i].name, l) == 0 && l > best) {
				best = l;
				bi = i;
			}
		}
		if (best == 0)
			return -1; /* missing or unknown unit */
		total += v * units[bi].sec;
		p += best;
	}
	*seconds = sign * total;
	return 0;
}

static int parse_id(const char *s, size_t len, unsigned long *out)
{
	char buf[32];
	char *end;

	if (len == 0 || len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (buf[0] < '0' || buf[0] > '9')
		return -1;
	errno = 0;
	*out = strtoul(buf, &end, 10);
	if (errno != 0 || *end != '\0' || *out > 0xfffffffeUL)
		return -1;
	return 0;
}

int optx_force_owner(const char *s, uid_t *uid, gid_t *gid)
{
	const char *colon = strchr(s, ':');
	unsigned long u, g;

	if (colon == NULL || strchr(colon + 1, ':') != NULL) {
		log_error("force_owner must be in form UID:GID");
		return EXIT_USAGE;
	}
	if (parse_id(s, (size_t)(colon - s), &u) != 0) {
		log_error("force_owner: Unable to parse UID %.*s as positive "
			  "integer",
			  (int)(colon - s), s);
		return EXIT_USAGE;
	}
	if (parse_id(colon + 1, strlen(colon + 1), &g) != 0) {
		log_error("force_owner: Unable to parse GID %s as positive "
			  "integer",
			  colon + 1);
		return EXIT_USAGE;
	}
	*uid = (uid_t)u;
	*gid = (gid_t)g;
	return EXIT_OK;
}

/* -openssl takes Go's ParseBool values or "auto". */
static int check_openssl(const char *v)
{
	static const char *const ok[] = { "auto",  "1",	    "t",    "T", "TRUE",
					  "true",  "True",  "0",    "f", "F",
					  "FALSE", "false", "False" };

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (strcmp(v, ok[i]) == 0)
			return EXIT_OK;
	log_error("Invalid \"-openssl\" setting: parsing \"%s\": invalid "
		  "syntax",
		  v);
	return EXIT_USAGE;
}

int optx_check(const struct cli_args *a)
{
	double idle;

	if (a->idle != NULL && optx_duration(a->idle, &idle) != 0) {
		log_error("Invalid command line: invalid argument \"%s\" for "
			  "-idle: invalid duration. Try 'vcryptfs -help'.",
			  a->idle);
		return EXIT_USAGE;
	}
	if (a->force_owner != NULL) {
		uid_t u;
		gid_t g;
		int r = optx_force_owner(a->force_owner, &u, &g);
		if (r != EXIT_OK)
			return r;
	}
	if (a->openssl != NULL && check_openssl(a->openssl) != EXIT_OK)
		return EXIT_USAGE;
	/* gocryptfs runs fido2-cred / fido2-assert and exits 31 when they
	 * fail; this build has no FIDO2 support, so -init -fido2 fails the
	 * same way. A mount ignores -fido2 unless the config has the FIDO2
	 * flag (refused in main.c with the same code). */
	if (a->fido2 != NULL && a->init) {
		log_error("fido2-cred failed: FIDO2 is not supported by this "
			  "build");
		return EXIT_FIDO2;
	}
	return EXIT_OK;
}

uint64_t optx_mem_available(void)
{
	FILE *f = fopen("/proc/meminfo", "re");
	char line[256];
	unsigned long long kb = 0;

	if (f == NULL)
		return 0;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, "MemAvailable:", 13) == 0) {
			char *end;
			errno = 0;
			kb = strtoull(line + 13, &end, 10);
			if (errno != 0 || end == line + 13)
				kb = 0;
			break;
		}
	}
	fclose(f);
	return (uint64_t)kb * 1024;
}

void optx_scrypt_cap(void)
{
	uint64_t avail = optx_mem_available();

	if (avail > 0)
		kdf_scrypt_set_maxmem(avail);
}

int optx_mount_opts(const struct cli_args *a, struct mount_opts *o)
{
	o->kernel_cache = a->kernel_cache;
	o->acl = a->acl;
	o->serialize_reads = a->serialize_reads;
	o->noxattr = a->noxattr;
	o->ctlsock = a->ctlsock;
	if (a->idle != NULL && optx_duration(a->idle, &o->idle) != 0)
		return EXIT_USAGE;
	if (o->idle < 0)
		o->idle = 0;
	if (a->force_owner != NULL) {
		uid_t u = 0;
		gid_t g = 0;
		int r = optx_force_owner(a->force_owner, &u, &g);
		if (r != EXIT_OK)
			return r;
		o->force_owner = 1;
		o->owner_uid = (unsigned)u;
		o->owner_gid = (unsigned)g;
		/* as in gocryptfs: the reported owner must be able to get in */
		o->d.allow_other = 1;
	}
	log_debug("mount: cipherdir=%s mountpoint=%s ro=%d allow_other=%d "
		  "idle=%gs ctlsock=%s kernel_cache=%d acl=%d "
		  "serialize_reads=%d noxattr=%d force_owner=%s",
		  o->cipherdir, o->d.mountpoint, o->readonly, o->d.allow_other,
		  o->idle, o->ctlsock != NULL ? o->ctlsock : "-",
		  o->kernel_cache, o->acl, o->serialize_reads, o->noxattr,
		  a->force_owner != NULL ? a->force_owner : "-");
	return EXIT_OK;
}

/* errno of an access to a dead FUSE mount: ENOTCONN, or ECONNABORTED
 * while the kernel still tears the connection down (with FUSE over
 * io_uring it lets the ring go a moment after the daemon died: the first
 * access gets this, the next ENOTCONN) */
static int dead_errno(int e)
{
	return e == ENOTCONN || e == ECONNABORTED;
}

static void dead_message(const char *mp)
{
	log_error("Invalid mountpoint: %s: transport endpoint is not "
		  "connected (a dead FUSE mount: its daemon is gone). Clear "
		  "it with: fusermount3 -u %s",
		  mp, mp);
}

int optx_dead_mount(const char *mp)
{
	DIR *d = opendir(mp);

	if (d != NULL) {
		closedir(d);
		return 0;
	}
	if (!dead_errno(errno))
		return 0;
	dead_message(mp);
	return 1;
}

int optx_dead_arg(const char *arg)
{
	struct stat st;
	char cwd[4096];
	char *abs;

	if (stat(arg, &st) == 0 || !dead_errno(errno))
		return 0;
	/* realpath() cannot resolve a dead mount: the working directory
	 * and the argument as given */
	if (arg[0] == '/' || getcwd(cwd, sizeof(cwd)) == NULL ||
	    asprintf(&abs, "%s/%s", cwd, arg) < 0) {
		dead_message(arg);
		return 1;
	}
	dead_message(abs);
	free(abs);
	return 1;
}

void optx_debug_args(const struct cli_args *a)
{
	const char *action = a->init	 ? "init"
			     : a->passwd ? "passwd"
			     : a->info	 ? "info"
			     : a->fsck	 ? "fsck"
					 : "mount";

	log_debug("cli: action=%s args=%zu (%s%s%s) passfiles=%zu "
		  "extpass=%zu masterkey=%s config=%s scrypt-cap=%llu MiB",
		  action, a->npos, a->npos > 0 ? a->pos[0] : "",
		  a->npos > 1 ? " " : "", a->npos > 1 ? a->pos[1] : "",
		  a->pw.npassfile, a->pw.nextpass,
		  a->masterkey == NULL		       ? "no"
		  : strcmp(a->masterkey, "stdin") == 0 ? "stdin"
						       : "given",
		  a->config != NULL ? a->config : "default",
		  (unsigned long long)(kdf_scrypt_maxmem() >> 20));
}
