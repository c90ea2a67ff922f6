/* SPDX-License-Identifier: MIT */
/*
 * vcryptfs command line: options, key unlock, mount, daemonize.
 * Follows gocryptfs's command line (../shared/FORMAT.md section 12).
 * Only this file exits the process, with codes from exitcodes.h.
 */
#include <stdio.h>
#include <string.h>

#include "exitcodes.h"
#include "version.h"

static void usage(FILE *f)
{
	fprintf(f, "Usage: vcryptfs -init|-passwd|-info [OPTIONS] CIPHERDIR\n"
		   "  or   vcryptfs [OPTIONS] CIPHERDIR MOUNTPOINT\n"
		   "  or   vcryptfs -speed|-version|-h\n");
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (a[0] == '-' && a[1] == '-')
			a++;
		if (strcmp(a, "-version") == 0) {
			version_print(stdout);
			return EXIT_OK;
		}
		if (strcmp(a, "-h") == 0 || strcmp(a, "-help") == 0) {
			usage(stdout);
			return EXIT_OK;
		}
	}
	usage(stderr);
	return EXIT_USAGE;
}
