/* SPDX-License-Identifier: MIT */
/* The `-version` report. See version.h. */
#include "version.h"

#include <openssl/crypto.h>

/* see version.h */
void version_print(FILE *f)
{
	fprintf(f, "vcryptfs %s; %s\n", VCRYPTFS_VERSION,
		OpenSSL_version(OPENSSL_VERSION));
}
