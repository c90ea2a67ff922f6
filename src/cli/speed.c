/* SPDX-License-Identifier: MIT */
/*
 * `vcryptfs -speed`: the gocryptfs -speed table (../shared/FORMAT.md
 * section 10; issue 8): seal of one 4096-byte all-zero block, fixed random
 * key, nonce and 24-byte AD, about one second per row, MB/s = 10^6 bytes/s.
 * Rows: AES-GCM-256-OpenSSL and AES-SIV-512-OpenSSL through the wrappers
 * the filesystem's content blocks use (crypto/ossl_aead.h: ossl_gcm_seal
 * with a 16-byte IV, one context per thread keyed once, only the IV
 * changes; ossl_siv_seal with a 64-byte key, AD then nonce),
 * AES-GCM-256-gcrypt: the same ossl_gcm_seal call with the libgcrypt
 * backend enabled, as the mount runs it (N/A when libgcrypt is unusable;
 * the backend then stays enabled for the rest of the run),
 * XChaCha20-Poly1305-<kernel> for every kernel in dispatch_list() (N/A
 * when the CPU lacks it or VCRYPTFS_IMPL capped it), and
 * XChaCha20-Poly1305-OpenSSL (our HChaCha20, then EVP_chacha20_poly1305).
 * "(selected in auto mode)": on the AES-GCM row the mount uses (gcrypt
 * when enabled, else OpenSSL) when -init would recommend AES-GCM (AES-NI
 * and PCLMULQDQ), and the XChaCha20-Poly1305 kernel the start-up
 * calibration chose (crypto/calibrate.h; its figures are printed on the
 * line after the cpu line, as -version prints them). Last, per CPU class
 * (issue 21: no SSSE3, SSSE3, AVX without AVX2, AVX2, AVX-512), the
 * kernel the calibration would choose on such a CPU, from this run's
 * figures, for the classes this CPU can run.
 * VCRYPTFS_SPEED_SECONDS (default 1) shortens the run for tests.
 * Depends on: crypto/ (aead_xchacha, dispatch, cpu, chacha20, ossl_aead),
 * format/content.h (the mount's GCM switch), libcrypto, libgcrypt (via
 * ossl_aead).
 */
#include "cli/speed.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/exitcodes.h"
#include "cli/version.h"
#include "crypto/aead/chachapoly.h"
#include "crypto/calibrate.h"
#include "crypto/chacha20/ref.h"
#include "crypto/cpu.h"
#include "crypto/ct.h"
#include "crypto/dispatch.h"
#include "crypto/ossl_aead.h"
#include "format/content.h"

#define SPEED_BS CONTENT_PLAIN_BS /* one content block (FORMAT.md 10) */
#define SELECTED "\t(selected in auto mode)"

struct bench {
	EVP_CIPHER_CTX *ctx;
	uint8_t key[64];
	uint8_t nonce[24];
	uint8_t ad[24];
	uint8_t in[SPEED_BS];
	uint8_t out[SPEED_BS + 16];
	uint8_t tag[16];
};

enum row { ROW_GCM, ROW_SIV, ROW_XCHACHA, ROW_XCHACHA_OSSL };

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int seal_gcm(struct bench *b)
{
	/* the wrapper keys its per-thread context once; only the 16-byte IV
	 * changes (a libcrypto failure aborts inside the wrapper) */
	ossl_gcm_seal(b->out, b->tag, b->in, SPEED_BS, b->ad, 24, b->key,
		      b->nonce, 16);
	return 1;
}

static int seal_siv(struct bench *b)
{
	/* AD, then the 16-byte nonce as a second header (as gocryptfs'
	 * AES-SIV does), then the text */
	ossl_siv_seal(b->out, b->tag, b->in, SPEED_BS, b->ad, 24, b->key,
		      b->nonce, 16);
	return 1;
}

static int seal_xchacha_ossl(struct bench *b)
{
	uint8_t subkey[32], n12[12] = { 0 };
	int l = 0, ok;

	hchacha20(subkey, b->key, b->nonce);
	memcpy(n12 + 4, b->nonce + 16, 8);
	ok = EVP_EncryptInit_ex(b->ctx, NULL, NULL, subkey, n12) == 1 &&
	     EVP_EncryptUpdate(b->ctx, NULL, &l, b->ad, 24) == 1 &&
	     EVP_EncryptUpdate(b->ctx, b->out, &l, b->in, SPEED_BS) == 1 &&
	     EVP_EncryptFinal_ex(b->ctx, b->out + l, &l) == 1 &&
	     EVP_CIPHER_CTX_ctrl(b->ctx, EVP_CTRL_AEAD_GET_TAG, 16, b->tag) ==
		     1;
	ct_wipe(subkey, sizeof(subkey));
	return ok;
}

static int seal_one(struct bench *b, enum row r)
{
	switch (r) {
	case ROW_GCM:
		return seal_gcm(b);
	case ROW_SIV:
		return seal_siv(b);
	case ROW_XCHACHA:
		xchachapoly_seal(b->out, b->tag, b->in, SPEED_BS, b->ad, 24,
				 b->key, b->nonce);
		return 1;
	case ROW_XCHACHA_OSSL:
		return seal_xchacha_ossl(b);
	}
	return 0;
}

/* Set up the context for a row; 1 on success. */
static int setup(struct bench *b, enum row r)
{
	switch (r) {
	case ROW_GCM:
	case ROW_SIV:
	case ROW_XCHACHA:
		return 1;
	case ROW_XCHACHA_OSSL:
		return EVP_EncryptInit_ex(b->ctx, EVP_chacha20_poly1305(), NULL,
					  NULL, NULL) == 1;
	}
	return 0;
}

/* MB/s over about `secs` seconds; negative when the backend failed */
static double measure(struct bench *b, enum row r, double secs)
{
	double t0, t1;
	unsigned long n = 0;

	EVP_CIPHER_CTX_reset(b->ctx);
	if (!setup(b, r) || !seal_one(b, r))
		return -1;
	t0 = now();
	do {
		for (int i = 0; i < 16; i++)
			if (!seal_one(b, r))
				return -1;
		n += 16;
		t1 = now();
	} while (t1 - t0 < secs);
	return (double)SPEED_BS * (double)n / 1e6 / (t1 - t0);
}

static void print_row(const char *name, double mbps, const char *note)
{
	if (mbps < 0)
		printf("%-26s\t    N/A%s\n", name, note);
	else
		printf("%-26s\t%7.2f MB/s%s\n", name, mbps, note);
	fflush(stdout);
}

static void cpu_model(char *out, size_t n)
{
	char line[512];
	FILE *f = fopen("/proc/cpuinfo", "r");

	snprintf(out, n, "unknown");
	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL) {
		char *colon = strchr(line, ':');

		if (colon == NULL || (strncmp(line, "model name", 10) != 0 &&
				      strncmp(line, "Hardware", 8) != 0))
			continue;
		colon++;
		while (*colon == ' ' || *colon == '\t')
			colon++;
		colon[strcspn(colon, "\n")] = 0;
		snprintf(out, n, "%s", colon);
		break;
	}
	fclose(f);
}

static double speed_seconds(void)
{
	const char *s = getenv("VCRYPTFS_SPEED_SECONDS");
	double v;

	if (s == NULL || s[0] == 0)
		return 1.0;
	v = strtod(s, NULL);
	return v > 0 && v <= 10 ? v : 1.0;
}

/* The CPU classes of issue 21, one per dispatch level: the machines that
 * have exactly that level's features */
static const char *const class_name[] = {
	[DISPATCH_PORTABLE] = "no SSSE3 (qemu64)",
	[DISPATCH_SSSE3] = "SSSE3, no AVX (Core 2, Nehalem)",
	[DISPATCH_AVX] = "AVX, no AVX2 (Sandy Bridge: i3-2100)",
	[DISPATCH_AVX2] = "AVX2, no AVX-512 (Haswell, Zen 1-3)",
	[DISPATCH_AVX512] = "AVX-512 (Skylake-X, Zen 4)",
};

/*
 * Per CPU class: the kernel the start-up calibration would choose on a
 * CPU of that class (calibrate_pick over the kernels up to its level,
 * with this run's figures) and its MB/s. Classes above this CPU's level
 * cannot be measured here and are not printed.
 */
static void print_classes(const struct dispatch_kernel *list, size_t n,
			  const double *mbps)
{
	printf("per CPU class (the calibrated choice among the kernels of the "
	       "class, on the figures above):\n");
	for (int lvl = DISPATCH_PORTABLE; lvl <= DISPATCH_AVX512; lvl++) {
		double sub[CALIBRATE_MAX] = { 0 };
		size_t m = 0, pick;
		int top = 0;

		for (size_t i = 0; i < n && i < CALIBRATE_MAX; i++) {
			if ((int)list[i].level > lvl)
				continue;
			sub[i] = mbps[i];
			m = i + 1;
			top |= (int)list[i].level == lvl && mbps[i] > 0;
		}
		if (!top)
			continue; /* this CPU cannot run the class's kernel */
		pick = calibrate_pick(sub, m, CALIBRATE_MARGIN);
		if (pick >= m)
			continue;
		printf("  class %-38s %-8s %7.2f MB/s\n", class_name[lvl],
		       list[pick].name, mbps[pick]);
	}
}

/* see speed.h */
int speed_run(void)
{
	static struct bench b;
	const struct dispatch_kernel *list;
	const struct dispatch_kernel *chosen;
	char model[256], feat[160], masked[160], name[64], cal[400];
	unsigned f;
	size_t n;
	double secs = speed_seconds(), gcm;
	double xmbps[CALIBRATE_MAX] = { 0 };
	int aes, gcr, rc = EXIT_OK;

	dispatch_init();
	/* dispatch_force() below changes the current choice: keep the auto
	 * one */
	chosen = dispatch_current()->kernel;
	f = cpu_features();
	aes = (f & (CPU_AESNI | CPU_PCLMUL)) == (CPU_AESNI | CPU_PCLMUL);
	cpu_model(model, sizeof(model));
	printf("vcryptfs %s; %s\n", VCRYPTFS_VERSION,
	       OpenSSL_version(OPENSSL_VERSION));
	printf("cpu: %s; %s; features: %s; masked by VCRYPTFS_IMPL=%s: %s\n",
	       model, aes ? "with AES acceleration" : "no AES acceleration",
	       cpu_feature_names(cpu_features_seen(), feat, sizeof(feat)),
	       dispatch_requested(),
	       cpu_feature_names(dispatch_masked(), masked, sizeof(masked)));
	printf("%s\n", calibrate_line(cal, sizeof(cal)));
	b.ctx = EVP_CIPHER_CTX_new();
	if (b.ctx == NULL || RAND_bytes(b.key, sizeof(b.key)) != 1 ||
	    RAND_bytes(b.nonce, sizeof(b.nonce)) != 1 ||
	    RAND_bytes(b.ad, sizeof(b.ad)) != 1) {
		fprintf(stderr, "vcryptfs: -speed: OpenSSL setup failed\n");
		EVP_CIPHER_CTX_free(b.ctx);
		return EXIT_OTHER;
	}
	/* OpenSSL first, then the mount's path (content_gcm_backend_enable,
	 * as fuse/mount.c calls it) */
	ossl_gcm_backend_disable();
	gcm = measure(&b, ROW_GCM, secs);
	gcr = strcmp(content_gcm_backend_enable(), "gcrypt") == 0;
	print_row("AES-GCM-256-OpenSSL", gcm, aes && !gcr ? SELECTED : "");
	print_row("AES-GCM-256-gcrypt", gcr ? measure(&b, ROW_GCM, secs) : -1,
		  aes && gcr ? SELECTED : "");
	print_row("AES-SIV-512-OpenSSL", measure(&b, ROW_SIV, secs), "");
	list = dispatch_list(&n);
	for (size_t i = 0; i < n; i++) {
		const char *note = "";
		double mbps = -1;
		double *keep = i < CALIBRATE_MAX ? &xmbps[i] : &mbps;

		snprintf(name, sizeof(name), "XChaCha20-Poly1305-%s",
			 list[i].name);
		if (dispatch_kernel_get(&list[i]) == NULL) {
			note = (cpu_features_seen() & list[i].needs) ==
					       list[i].needs
				       ? "\t(masked by VCRYPTFS_IMPL)"
				       : "\t(not available on this CPU)";
		} else if (dispatch_force(list[i].name) == 0) {
			mbps = measure(&b, ROW_XCHACHA, secs);
			if (&list[i] == chosen)
				note = SELECTED;
		}
		*keep = mbps;
		print_row(name, mbps, note);
	}
	/* back to the automatic choice for anything that runs after us */
	(void)dispatch_force(chosen->name);
	print_row("XChaCha20-Poly1305-OpenSSL",
		  measure(&b, ROW_XCHACHA_OSSL, secs), "");
	print_classes(list, n, xmbps);
	ct_wipe(b.key, sizeof(b.key));
	ossl_aead_thread_cleanup();
	EVP_CIPHER_CTX_free(b.ctx);
	return rc;
}
