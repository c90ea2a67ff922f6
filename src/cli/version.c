/* SPDX-License-Identifier: MIT */
/*
 * The `-version` report: version, OpenSSL, the CPU features seen, those
 * masked by VCRYPTFS_IMPL, what the start-up calibration measured and the
 * kernels chosen. See version.h.
 * Layer: cli/; depends on crypto/cpu.h, crypto/dispatch.h,
 * crypto/calibrate.h, libcrypto (version string). Not proved.
 * Output lines (tests/checks/40-qemu.sh parses "kernel: NAME"):
 *   vcryptfs 0.1; OpenSSL 3.0.x ...
 *   cpu features: ssse3 avx avx2 aes pclmulqdq
 *   masked by VCRYPTFS_IMPL=auto: none
 *   calibration: portable 610.2, ssse3 853.0, ... MB/s (...); chosen avx2 ...
 *   kernel: avx2 (ChaCha20 avx2, 8 blocks per step; Poly1305 poly1305-avx2)
 */
#include "cli/version.h"

#include <openssl/crypto.h>

#include "crypto/calibrate.h"
#include "crypto/cpu.h"
#include "crypto/dispatch.h"

/* see version.h */
void version_print(FILE *f)
{
	const struct dispatch_choice *ch;
	char feat[160], masked[160], cal[400];

	dispatch_init();
	ch = dispatch_current();
	fprintf(f, "vcryptfs %s; %s\n", VCRYPTFS_VERSION,
		OpenSSL_version(OPENSSL_VERSION));
	fprintf(f, "cpu features: %s\n",
		cpu_feature_names(cpu_features_seen(), feat, sizeof(feat)));
	fprintf(f, "masked by VCRYPTFS_IMPL=%s: %s\n", dispatch_requested(),
		cpu_feature_names(dispatch_masked(), masked, sizeof(masked)));
	fprintf(f, "%s\n", calibrate_line(cal, sizeof(cal)));
	fprintf(f,
		"kernel: %s (ChaCha20 %s, %u blocks per step; Poly1305 %s)\n",
		ch->kernel->name, ch->kernel->name, ch->kernel->blocks,
		ch->poly1305);
}
