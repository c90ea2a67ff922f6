/* SPDX-License-Identifier: MIT */
/*
 * make ct-timing (issue 24): a statistical timing test in the manner of
 * dudect (Reparaz, Balasch, Verbauwhede, "Dude, is my code constant
 * time?", 2017), written for this project. For each test, every
 * measurement picks one of two input classes at random (interleaved, so
 * drift and noise hit both alike), times one call with the TSC (lfence;
 * rdtsc on both sides), and Welch's t statistic is computed between the
 * two classes' timings: over all measurements, and over the measurements
 * below each of a ladder of percentiles of the first batch (dudect's
 * cropping, which discards the long tail of interrupts and preemption).
 * A leak of the class into the time makes |t| grow with the number of
 * measurements; |t| < 4.5 for every crop is the pass line.
 *
 * Tests (each at least 10^6 measurements per class, after a warm-up
 * batch that is thrown away); the two open tests run on every kernel this
 * CPU runs, the calibrated choice (the mount's) first, each named
 * TEST[kernel], and on an IFMA CPU again at avx512 with IFMA hidden (the
 * stitched bodies of AVX-512 CPUs without IFMA):
 *   open-first-vs-last   xchachapoly_open of a 4096-byte block with
 *                        a forged tag that differs from the right one in
 *                        byte 0 vs in byte 15
 *   open-fixed-vs-random the same with a fixed forged tag vs a random tag
 *   compare-fixed-vs-random  ct_compare of 16 bytes: equal (fixed) vs
 *                            random
 *   compare-first-vs-last    ct_compare: differ in byte 0 vs byte 15
 * This program is built like the mount (no check hooks). It asserts no
 * time: it prints statistics, and exits 1 when one |t| reaches 4.5.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/aead/chachapoly.h"
#include "crypto/ct.h"
#include "crypto/calibrate.h"
#include "crypto/cpu.h"
#include "crypto/dispatch.h"
#include "crypto/ossl_aead.h"

#define BATCH 100000
#define NCROP 10
#define T_LIMIT 4.5

static uint64_t now(void)
{
	uint64_t t;

	__builtin_ia32_lfence();
	t = __builtin_ia32_rdtsc();
	__builtin_ia32_lfence();
	return t;
}

/* Welford's running mean and variance, one per class */
struct acc {
	double n, mean, m2;
};

static void acc_add(struct acc *a, double x)
{
	double d = x - a->mean;

	a->n += 1;
	a->mean += d / a->n;
	a->m2 += d * (x - a->mean);
}

static double welch_t(const struct acc *a, const struct acc *b)
{
	double va, vb;

	if (a->n < 2 || b->n < 2)
		return 0;
	va = a->m2 / (a->n - 1);
	vb = b->m2 / (b->n - 1);
	if (va + vb == 0)
		return 0;
	return (a->mean - b->mean) / sqrt(va / a->n + vb / b->n);
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return (a > b) - (a < b);
}

/* the operation under test, on input i of the batch */
struct test {
	const char *name;
	const char *what;
	void (*prepare)(uint8_t cls, size_t i);
	void (*run)(size_t i);
};

static uint8_t key[32], nonce[24], ad[24];
static uint8_t msg[4096], cipher[4096], plain[4096], goodtag[16];
static uint8_t tags[BATCH][16], cmp_a[16];
static volatile int sink;

static void rand_bytes(uint8_t *p, size_t n)
{
	ossl_random(p, n);
}

/* byte 0 vs byte 15 of the tag flipped (the bit chosen at random) */
static void prep_open_pos(uint8_t cls, size_t i)
{
	uint8_t bit = 0;

	rand_bytes(&bit, 1);
	memcpy(tags[i], goodtag, 16);
	tags[i][cls ? 15 : 0] ^= (uint8_t)(1U << (bit & 7));
}

/* a fixed forged tag vs a random one */
static void prep_open_rand(uint8_t cls, size_t i)
{
	memcpy(tags[i], goodtag, 16);
	if (cls)
		rand_bytes(tags[i], 16);
	else
		tags[i][7] ^= 0x10;
}

static void run_open(size_t i)
{
	sink = xchachapoly_open(plain, cipher, sizeof(cipher), tags[i], ad,
				sizeof(ad), key, nonce);
}

/* ct_compare: equal (fixed) vs random */
static void prep_cmp_rand(uint8_t cls, size_t i)
{
	memcpy(tags[i], cmp_a, 16);
	if (cls)
		rand_bytes(tags[i], 16);
}

/* ct_compare: differ in byte 0 vs byte 15 */
static void prep_cmp_pos(uint8_t cls, size_t i)
{
	memcpy(tags[i], cmp_a, 16);
	tags[i][cls ? 15 : 0] ^= 0x01;
}

static void run_cmp(size_t i)
{
	sink = ct_compare(cmp_a, tags[i], 16);
}

static const struct test tests[] = {
	{ "open-first-vs-last",
	  "xchachapoly_open 4096 B, forged tag: byte 0 vs byte 15 differs",
	  prep_open_pos, run_open },
	{ "open-fixed-vs-random",
	  "xchachapoly_open 4096 B, forged tag: fixed vs random",
	  prep_open_rand, run_open },
	{ "compare-fixed-vs-random", "ct_compare 16 B: equal (fixed) vs random",
	  prep_cmp_rand, run_cmp },
	{ "compare-first-vs-last", "ct_compare 16 B: byte 0 vs byte 15 differs",
	  prep_cmp_pos, run_cmp },
};

static uint8_t cls[BATCH];
static uint64_t t_of[BATCH], sorted[BATCH];

/* one test: returns the largest |t| over the crops */
static double run_test(const struct test *t, long per_class)
{
	struct acc a[NCROP + 1][2];
	uint64_t crop[NCROP];
	long n[2] = { 0, 0 };
	double tmax = 0;
	int batch = 0;

	memset(a, 0, sizeof(a));
	while (n[0] < per_class || n[1] < per_class) {
		rand_bytes(cls, sizeof(cls));
		for (size_t i = 0; i < BATCH; i++) {
			cls[i] &= 1;
			t->prepare(cls[i], i);
		}
		for (size_t i = 0; i < BATCH; i++) {
			uint64_t t0 = now();

			t->run(i);
			t_of[i] = now() - t0;
		}
		if (batch++ == 0) {
			/* warm-up batch: only sets the crop thresholds
			 * (percentile 1 - 0.5^(10 (k+1) / NCROP), dudect's
			 * ladder) */
			memcpy(sorted, t_of, sizeof(sorted));
			qsort(sorted, BATCH, sizeof(sorted[0]), cmp_u64);
			for (int k = 0; k < NCROP; k++) {
				double p = 1 - pow(0.5, 10.0 * (k + 1) / NCROP);

				crop[k] = sorted[(size_t)(p * (BATCH - 1))];
			}
			continue;
		}
		for (size_t i = 0; i < BATCH; i++) {
			acc_add(&a[NCROP][cls[i]], (double)t_of[i]);
			for (int k = 0; k < NCROP; k++)
				if (t_of[i] <= crop[k])
					acc_add(&a[k][cls[i]], (double)t_of[i]);
			n[cls[i]]++;
		}
	}
	printf("ct-timing: %s: %s\n", t->name, t->what);
	printf("ct-timing: %s: %ld + %ld measurements, mean %.1f / %.1f "
	       "cycles (class 0 / 1)\n",
	       t->name, n[0], n[1], a[NCROP][0].mean, a[NCROP][1].mean);
	for (int k = 0; k <= NCROP; k++) {
		double tv = welch_t(&a[k][0], &a[k][1]);

		if (fabs(tv) > tmax)
			tmax = fabs(tv);
		if (k == NCROP)
			printf("ct-timing: %s:   all measurements: t = %+.2f\n",
			       t->name, tv);
		else
			printf("ct-timing: %s:   below %llu cycles (%.0f + %.0f"
			       "): t = %+.2f\n",
			       t->name, (unsigned long long)crop[k], a[k][0].n,
			       a[k][1].n, tv);
	}
	printf("%s: ct-timing %s: max |t| = %.2f (pass line %.1f)\n",
	       tmax < T_LIMIT ? "PASS" : "FAIL", t->name, tmax, T_LIMIT);
	fflush(stdout);
	return tmax;
}

static void cpu_model(char *out, size_t cap)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512];

	snprintf(out, cap, "unknown");
	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL) {
		char *c = strchr(line, ':');

		if (strncmp(line, "model name", 10) == 0 && c != NULL) {
			snprintf(out, cap, "%s", c + 2);
			out[strcspn(out, "\n")] = 0;
			break;
		}
	}
	fclose(f);
}

/*
 * With IFMA the avx512 level runs the IFMA Poly1305 inside the rounds; its
 * stitched seal and open bodies run on AVX-512 CPUs without IFMA. Time
 * the open tests there too, with IFMA hidden (valgrind cannot run
 * either). Returns nonzero when a test failed.
 */
static int run_hidden_ifma(long per_class)
{
	unsigned before = cpu_masked();
	char name[2][80];
	int bad = 0;

	if (!(cpu_features() & CPU_AVX512IFMA))
		return 0;
	cpu_mask(CPU_AVX512IFMA);
	if (dispatch_force("avx512") == 0) {
		printf("ct-timing: kernel avx512 without avx512ifma, %s\n",
		       dispatch_current()->poly1305);
		for (size_t i = 0; i < 2; i++) {
			struct test t = tests[i];

			snprintf(name[i], sizeof(name[i]),
				 "%s[avx512 without avx512ifma]", t.name);
			t.name = name[i];
			bad |= run_test(&t, per_class) >= T_LIMIT;
		}
	}
	cpu_unmask_all();
	cpu_mask(before);
	return bad;
}

int main(int argc, char **argv)
{
	char *end = NULL;
	long per_class = argc > 1 ? strtol(argv[1], &end, 10) : 1000000;
	const struct dispatch_choice *ch;
	const struct dispatch_kernel *list, *chosen;
	char model[256], name[2][64];
	size_t nk;
	int bad = 0;

	if (per_class < 1000 || (end != NULL && *end != 0)) {
		fprintf(stderr, "ct_timing: measurements per class: >= 1000\n");
		return 2;
	}
	/* the mount's choice: the start-up calibration, as cli/main.c */
	calibrate_once();
	ch = dispatch_current();
	chosen = ch->kernel;
	cpu_model(model, sizeof(model));
	printf("ct-timing: CPU %s; calibrated choice: kernel %s, %s "
	       "(VCRYPTFS_IMPL=%s); %ld measurements per class at least\n",
	       model, ch->kernel->name, ch->poly1305, dispatch_requested(),
	       per_class);
	rand_bytes(key, sizeof(key));
	rand_bytes(nonce, sizeof(nonce));
	rand_bytes(ad, sizeof(ad));
	rand_bytes(msg, sizeof(msg));
	rand_bytes(cmp_a, sizeof(cmp_a));
	xchachapoly_seal(cipher, goodtag, msg, sizeof(msg), ad, sizeof(ad), key,
			 nonce);
	if (xchachapoly_open(plain, cipher, sizeof(cipher), goodtag, ad,
			     sizeof(ad), key, nonce) != 0 ||
	    memcmp(plain, msg, sizeof(msg)) != 0) {
		printf("FAIL: ct-timing: the authentic block does not open\n");
		return 1;
	}
	/* the open tests on every kernel this CPU runs (the AVX-512 one
	 * too, which valgrind cannot check), the mount's choice first; the
	 * compare tests once */
	list = dispatch_list(&nk);
	for (size_t k = nk + 1; k-- > 0;) {
		const struct dispatch_kernel *kern =
			k == nk ? chosen : &list[k];

		if ((k < nk && kern == chosen) || dispatch_force(kern->name))
			continue;
		ch = dispatch_current();
		printf("ct-timing: kernel %s, %s%s\n", ch->kernel->name,
		       ch->poly1305, k == nk ? " (the calibrated choice)" : "");
		for (size_t i = 0; i < 2; i++) {
			struct test t = tests[i];

			snprintf(name[i], sizeof(name[i]), "%s[%s]", t.name,
				 kern->name);
			t.name = name[i];
			bad |= run_test(&t, per_class) >= T_LIMIT;
		}
	}
	bad |= run_hidden_ifma(per_class);
	for (size_t i = 2; i < sizeof(tests) / sizeof(tests[0]); i++)
		bad |= run_test(&tests[i], per_class) >= T_LIMIT;
	return bad;
}
