/* SPDX-License-Identifier: MIT */
/*
 * The `-version` report: version, OpenSSL, the CPU features seen, those
 * masked by VCRYPTFS_IMPL, what the start-up calibration measured and the
 * kernels chosen. See version.h.
 * Layer: cli/; depends on crypto/cpu.h, crypto/dispatch.h,
 * crypto/calibrate.h, crypto/ossl_aead.h and crypto/gcm_backend_gcrypt.h
 * (the AES-GCM backend a mount would use: it enables it, as a mount
 * does), libcrypto (version string). Not proved.
 * Output lines (tests/checks/40-qemu.sh parses "kernel: NAME"):
 *   vcryptfs 0.1; OpenSSL 3.0.x ...
 *   cpu features: ssse3 avx avx2 aes pclmulqdq
 *   masked by VCRYPTFS_IMPL=auto: none
 *   calibration: portable 610.2, ssse3 853.0, ... MB/s (...); chosen avx2 ...
 *   kernel: avx2 (ChaCha20 avx2, 8 blocks per step; Poly1305 poly1305-64
 *   in the seal and open bodies, poly1305-avx2 (16 blocks on) and ...)
 *   (avx512 on an IFMA CPU: ...; Poly1305 poly1305-ifma (16 blocks on)
 *   in the seal and open bodies and elsewhere, ...); every level's blocks
 *   go through the one AEAD
 *   composition (crypto/aead_xchacha.c, crypto/kern.h)
 *   aes-gcm: gcrypt (libgcrypt 1.10.1)      or: OpenSSL (libgcrypt unusable)
 */
#include "cli/version.h"

#include <openssl/crypto.h>

#include "crypto/calibrate.h"
#include "crypto/cpu.h"
#include "crypto/dispatch.h"
#include "crypto/gcm_backend_gcrypt.h"
#include "crypto/ossl_aead.h"

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
	if (ossl_gcm_backend_enable() == 0)
		fprintf(f, "aes-gcm: %s (libgcrypt %s)\n", ossl_gcm_backend(),
			gcm_gcrypt_version());
	else
		fprintf(f, "aes-gcm: %s (libgcrypt unusable)\n",
			ossl_gcm_backend());
}
