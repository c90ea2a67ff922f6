/* SPDX-License-Identifier: MIT */
/*
 * Every process exit status, numbered as gocryptfs 2.3 numbers them
 * (../shared/FORMAT.md section 11; gocryptfs internal/exitcodes). Scripts
 * depend mostly on 0, 6, 10, 12 and 26. Only cli/main.c exits with them;
 * lower layers return them. Layer: base/; depends on nothing. Not proved.
 */
#ifndef VCRYPTFS_EXITCODES_H
#define VCRYPTFS_EXITCODES_H

enum exit_code {
	EXIT_OK = 0,		/* success, -h, -version, -speed, clean -fsck */
	EXIT_USAGE = 1,		/* bad command line */
	EXIT_CIPHERDIR = 6,	/* CIPHERDIR missing, not a dir, not empty */
	EXIT_INIT = 7,		/* -init failed (diriv, .bak, -config path) */
	EXIT_LOADCONF = 8,	/* -info: config missing or invalid */
	EXIT_READPASSWORD = 9,	/* password could not be read / empty */
	EXIT_MOUNTPOINT = 10,	/* MOUNTPOINT not an empty dir, overlaps */
	EXIT_OTHER = 11,	/* anything else (e.g. missing config) */
	EXIT_PASSWORD = 12,	/* wrong password */
	EXIT_SCRYPTPARAMS = 13, /* scrypt rejected at derivation time */
	EXIT_MASTERKEY = 14,	/* -masterkey not 64 hex digits */
	EXIT_SIGINT = 15,	/* foreground got SIGINT/SIGTERM, unmounted */
	EXIT_FORKCHILD = 17,	/* starting the background child failed */
	EXIT_FUSENEWSERVER = 19, /* the FUSE mount itself failed */
	EXIT_CTLSOCK = 20,	 /* -ctlsock socket could not be created */
	EXIT_WRITECONF = 24,	 /* writing the config failed */
	EXIT_FSCKERRORS = 26,	 /* -fsck found problems */
	EXIT_DEPRECATEDFS = 27,	 /* config invalid for this version */
	EXIT_EXCLUDE = 29, /* -exclude* without -reverse, bad -exclude-from */
	EXIT_DEVNULL = 30, /* /dev/null could not be opened */
	EXIT_FIDO2 = 31,   /* FIDO2 token interaction failed */
};

#endif
