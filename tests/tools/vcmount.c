/* SPDX-License-Identifier: MIT */
/*
 * vcmount: test driver for the FUSE layer. Mounts a cipher directory from
 * a known master key (like gocryptfs -masterkey) without gocryptfs.conf:
 *   vcmount [-fg] [-q] [-ro] [-xchacha|-aessiv] [-plaintextnames]
 *           [-deterministic-names] [-longnamemax N] [-sharedstorage]
 *           [-noprealloc]
 *           -masterkey HEX CIPHERDIR MOUNTPOINT
 * Spec: ../../shared/FORMAT.md 2.3 (flags), 3 (keys), 13.5. Not proved.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/exitcodes.h"
#include "crypto/ct.h"
#include "format/keys.h"
#include "fuse/mount.h"
#include "../unit/th.h"

/* The 64 hex digits of a master key, dashes allowed (gocryptfs prints it
 * in groups of 8). 0, or -1 when it is not exactly 32 bytes. */
static int parse_key(const char *hex, uint8_t key[32])
{
	char digits[65];
	size_t n = 0;

	for (const char *p = hex; *p != '\0'; p++) {
		if (*p == '-')
			continue;
		if (n == sizeof(digits) - 1)
			return -1;
		digits[n++] = *p;
	}
	digits[n] = '\0';
	n = th_unhex(key, 32, digits) == 32 ? 0 : 1;
	ct_wipe(digits, sizeof(digits));
	return n == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
	struct mount_opts o;
	struct volume vol;
	uint8_t mk[32];
	enum content_cipher cipher = CIPHER_AES_GCM;
	uint32_t flags =
		VOL_HKDF | VOL_DIRIV | VOL_EMENAMES | VOL_LONGNAMES | VOL_RAW64;
	unsigned lnm = 255;
	const char *pos[2] = { NULL, NULL };
	int npos = 0;
	int havekey = 0;
	static char cdir[PATH_MAX];
	static char mdir[PATH_MAX];
	int rc;

	memset(&o, 0, sizeof(o));
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "-fg") == 0)
			o.d.foreground = 1;
		else if (strcmp(a, "-q") == 0)
			o.d.quiet = 1;
		else if (strcmp(a, "-ro") == 0)
			o.readonly = 1;
		else if (strcmp(a, "-nosyslog") == 0)
			o.d.nosyslog = 1;
		else if (strcmp(a, "-noprealloc") == 0)
			o.noprealloc = 1;
		else if (strcmp(a, "-sharedstorage") == 0)
			o.d.sharedstorage = 1;
		else if (strcmp(a, "-xchacha") == 0)
			cipher = CIPHER_XCHACHA;
		else if (strcmp(a, "-aessiv") == 0)
			cipher = CIPHER_AES_SIV;
		else if (strcmp(a, "-plaintextnames") == 0)
			/* like gocryptfs -masterkey: -raw64 defaults to true */
			flags = VOL_HKDF | VOL_PLAINTEXTNAMES | VOL_RAW64;
		else if (strcmp(a, "-deterministic-names") == 0)
			flags &= ~VOL_DIRIV;
		else if (strcmp(a, "-longnamemax") == 0 && i + 1 < argc)
			lnm = (unsigned)strtoul(argv[++i], NULL, 10);
		else if (strcmp(a, "-masterkey") == 0 && i + 1 < argc)
			havekey = parse_key(argv[++i], mk) == 0;
		else if (a[0] != '-' && npos < 2)
			pos[npos++] = a;
		else {
			fprintf(stderr, "vcmount: bad argument %s\n", a);
			return EXIT_USAGE;
		}
	}
	if (!havekey || npos != 2) {
		fprintf(stderr,
			"usage: vcmount [opts] -masterkey HEX CIPHERDIR "
			"MOUNTPOINT\n");
		return EXIT_USAGE;
	}
	if (lnm != 255 && !(flags & VOL_PLAINTEXTNAMES))
		flags |= VOL_LONGNAMES;
	o.cipherdir = realpath(pos[0], cdir);
	o.d.mountpoint = realpath(pos[1], mdir);
	if (o.cipherdir == NULL || o.d.mountpoint == NULL) {
		fprintf(stderr, "vcmount: bad CIPHERDIR or MOUNTPOINT\n");
		return EXIT_CIPHERDIR;
	}
	rc = keys_derive(&vol, mk, cipher, flags, lnm);
	ct_wipe(mk, sizeof(mk));
	if (rc != 0) {
		fprintf(stderr, "vcmount: key derivation failed\n");
		return EXIT_OTHER;
	}
	rc = mount_run(&o, &vol);
	volume_free(&vol);
	return rc;
}
