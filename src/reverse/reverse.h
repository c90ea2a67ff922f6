/* SPDX-License-Identifier: MIT */
/*
 * Reverse mode (-reverse): a read-only FUSE daemon that shows an encrypted
 * view of a plaintext directory, byte-identical to gocryptfs 2.3's. What
 * the command line hands over once the volume (AES-SIV) is unlocked.
 * Spec: ../shared/FORMAT.md section 9 (and 4-7 for the format it mirrors).
 * Depends on: format/volume.h. Not proved.
 */
#ifndef VCRYPTFS_REVERSE_H
#define VCRYPTFS_REVERSE_H

#include <stddef.h>

#include "format/volume.h"
#include "fuse/daemon_opts.h"

struct reverse_opts {
	struct daemon_opts d; /* mount point, -fg, -allow_other, ... */
	const char *plaindir; /* absolute path */
	int config_custom;    /* -config given: no gocryptfs.conf in the view */
	int one_file_system;
	/* -exclude PATH (root-anchored), -exclude-wildcard PATTERN and
	 * -exclude-from FILE (one pattern a line), gitignore syntax */
	const char *const *exclude;
	size_t nexclude;
	const char *const *exclude_wildcard;
	size_t nexclude_wildcard;
	const char *const *exclude_from;
	size_t nexclude_from;
};

/*
 * Check the exclusion patterns (an unreadable -exclude-from file is
 * reported here), mount and serve until unmounted. vol must be AES-SIV.
 * The caller wipes vol afterwards. Returns a process exit code from
 * exitcodes.h (29 for a bad -exclude-from file).
 */
int reverse_run(const struct reverse_opts *o, struct volume *vol);

#endif
