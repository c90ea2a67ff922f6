/* SPDX-License-Identifier: MIT */
/*
 * Runtime kernel choice: one const table per primitive (ChaCha20,
 * HChaCha20, Poly1305 blocks, the seal and open bodies) and the lookup of
 * the chosen level in each (choose()). See dispatch.h.
 * Spec: none (policy: best level the CPU has, capped by VCRYPTFS_IMPL;
 * calibrate.c may then move the choice to a faster lower level).
 * Depends on: cpu.h, kernels.h, chacha20/ref.h; libc getenv/fprintf (the
 * only I/O in src/crypto: one warning for a bad VCRYPTFS_IMPL).
 * Constant time: not applicable (no secrets). Not proved.
 * Contract: dispatch.h; the lookups run at init and on dispatch_set/
 * dispatch_force/dispatch_body/dispatch_stitch only, never per call.
 */
#include "crypto/dispatch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/chacha20/ref.h"
#include "crypto/chacha20/fastblock.h"
#include "crypto/cpu.h"

#define COUNT(t) (sizeof(t) / sizeof((t)[0]))

/* the scalar HChaCha20 (chacha20/fastblock.h), at every SIMD level */
static void hchacha20_scalar(uint8_t out[32], const uint8_t key[32],
			     const uint8_t nonce[16])
{
	fb_hchacha20(out, key, nonce);
}

static chacha20_xor_fn portable_get(void)
{
	return chacha20_xor;
}

/* ChaCha20: one entry per level; the level table. */
static const struct dispatch_kernel table[] = {
	{ "portable", DISPATCH_PORTABLE, portable_get, NULL, 1, 0 },
	{ "ssse3", DISPATCH_SSSE3, chacha20_ssse3_get, NULL, 4, CPU_SSSE3 },
	{ "avx", DISPATCH_AVX, chacha20_avx_get, NULL, 4, CPU_AVX },
	{ "avx2", DISPATCH_AVX2, chacha20_avx2_get, chacha20_poly_avx2_get, 8,
	  CPU_AVX2 },
	{ "avx512", DISPATCH_AVX512, chacha20_avx512_get, NULL, 16,
	  CPU_AVX512_ALL },
};

#define NKERNELS COUNT(table)

/* HChaCha20 on its own is one dependency chain: the scalar core, four
 * quarter rounds at a time in general-purpose registers, took 102 ns here
 * against 170 ns for the SSE rows (one block, latency bound; SSSE3 has
 * no rotate), at the SSSE3 to AVX2 levels; the AVX-512 rows (one-cycle
 * VPROLD) take 75 ns (on an IFMA Xeon, a chain of calls). The portable
 * level runs the proved one (chacha20/ref.c), as every other function
 * of its content path. */
static const struct dispatch_hchacha hchacha_table[] = {
	{ "portable", DISPATCH_PORTABLE, hchacha20, NULL },
	{ "fast", DISPATCH_SSSE3, hchacha20_scalar, NULL },
	{ "avx512", DISPATCH_AVX512, NULL, hchacha20_avx512_get },
};

/* The vector Poly1305 goes with the AVX2 and AVX-512 ChaCha20 (for what
 * the bodies do not cover); the AVX-512 level takes the IFMA blocks when
 * the CPU has them, else the AVX2 ones. Below AVX2: the proved
 * poly1305_pad16 alone. */
static const struct dispatch_poly poly_table[] = {
	{ "portable", DISPATCH_PORTABLE, 0, NULL },
	{ "avx2", DISPATCH_AVX2, CPU_AVX2, poly1305_avx2_get },
	{ "ifma", DISPATCH_AVX512, CPU_AVX512F | CPU_AVX512VL | CPU_AVX512IFMA,
	  poly1305_ifma_get },
};

/* The whole-seal body (stitched ChaCha20 and radix-2^64 Poly1305, block 0
 * in general-purpose registers) goes with the AVX2 kernel: it measured
 * faster than ChaCha20 then the vector Poly1305 (bench/bench_crypto.sh).
 * The SSSE3 and AVX kernels have theirs (chacha20/sse128.h: the same
 * radix-2^64 Poly1305, MUL only, inside the next step's rounds); so does
 * the AVX-512 one (MULX). With IFMA the AVX-512 bodies compute block 0 in
 * general-purpose registers during the first step and run the IFMA
 * Poly1305 of each step inside the next step's rounds (chacha20/avx512.c
 * z_body_ifma; on an IFMA Xeon, bench_crypto kernel:avx512 at 4 KiB:
 * 2590-2630 MB/s through the composition, whose lone 1-block ChaCha20 for
 * block 0 is a latency-bound chain; 2820-2900 with ChaCha20, then the
 * IFMA Poly1305; 3260-3300 stitched, with the powers of r in vector
 * registers, against 3010-3100 before those two changes). The stitched open
 * (ChaCha20 and Poly1305 of the ciphertext overlapped, released after the
 * tag check) goes with each. */
static const struct dispatch_body body_table[] = {
	{ "ssse3", DISPATCH_SSSE3, CPU_SSSE3, chachapoly_body_ssse3_get,
	  chachapoly_open_body_ssse3_get, 4 },
	{ "avx", DISPATCH_AVX, CPU_AVX, chachapoly_body_avx_get,
	  chachapoly_open_body_avx_get, 4 },
	{ "avx2", DISPATCH_AVX2, CPU_AVX2, chachapoly_body_avx2_get,
	  chachapoly_open_body_avx2_get, 8 },
	/* from 8 blocks: below its 16-block step it hands the text to the
	 * AVX2 bodies (chacha20/avx512.c) */
	{ "avx512", DISPATCH_AVX512, CPU_AVX512_ALL | CPU_BMI2,
	  chachapoly_body_avx512_get, chachapoly_open_body_avx512_get, 8 },
};

static int initialised;
static int forced;
static const char *requested = "auto";
static unsigned impl_masked;
static struct dispatch_choice choice;

/* see dispatch.h */
const struct dispatch_kernel *dispatch_list(size_t *n)
{
	*n = NKERNELS;
	return table;
}

/* see dispatch.h */
const struct dispatch_hchacha *dispatch_hchacha_list(size_t *n)
{
	*n = COUNT(hchacha_table);
	return hchacha_table;
}

/* see dispatch.h */
const struct dispatch_poly *dispatch_poly_list(size_t *n)
{
	*n = COUNT(poly_table);
	return poly_table;
}

/* see dispatch.h */
const struct dispatch_body *dispatch_body_list(size_t *n)
{
	*n = COUNT(body_table);
	return body_table;
}

/* see dispatch.h */
chacha20_xor_fn dispatch_kernel_get(const struct dispatch_kernel *k)
{
	/* cppcheck 2.10 takes a call through a member of function-pointer
	 * type returning a function pointer for an int */
	// cppcheck-suppress CastIntegerToAddressAtReturn
	return k->get();
}

/* see dispatch.h */
chacha20_poly_fn dispatch_stitched_get(const struct dispatch_kernel *k)
{
	if (k->stitched_get == NULL)
		return NULL;
	/* as in dispatch_kernel_get */
	// cppcheck-suppress CastIntegerToAddressAtReturn
	return k->stitched_get();
}

/* see dispatch.h */
poly1305_blocks_fn dispatch_poly_get(const struct dispatch_poly *e)
{
	if (e->get == NULL)
		return NULL;
	/* as in dispatch_kernel_get */
	// cppcheck-suppress CastIntegerToAddressAtReturn
	return e->get();
}

/* see dispatch.h */
hchacha20_fn dispatch_hchacha_get(const struct dispatch_hchacha *e)
{
	if (e->fn != NULL)
		return e->fn;
	/* as in dispatch_kernel_get */
	// cppcheck-suppress CastIntegerToAddressAtReturn
	return e->get();
}

/* see dispatch.h: the last entry at or below the level that the CPU
 * allows (the first two always do) */
const struct dispatch_hchacha *dispatch_hchacha_for(enum dispatch_level l)
{
	const struct dispatch_hchacha *e = &hchacha_table[0];

	for (size_t i = 0; i < COUNT(hchacha_table); i++)
		if (hchacha_table[i].level <= l &&
		    dispatch_hchacha_get(&hchacha_table[i]) != NULL)
			e = &hchacha_table[i];
	return e;
}

/* see dispatch.h: the highest entry at or below the level that the CPU
 * allows; the portable entry (no getter) always does */
const struct dispatch_poly *dispatch_poly_for(enum dispatch_level l)
{
	for (size_t i = COUNT(poly_table); i-- > 0;) {
		const struct dispatch_poly *e = &poly_table[i];

		if (e->level > l)
			continue;
		if (e->get == NULL || dispatch_poly_get(e) != NULL)
			return e;
	}
	return &poly_table[0];
}

/* see dispatch.h: the entry of the level itself, when the CPU allows it */
const struct dispatch_body *dispatch_body_for(enum dispatch_level l)
{
	for (size_t i = 0; i < COUNT(body_table); i++) {
		const struct dispatch_body *e = &body_table[i];

		if (e->level != l)
			continue;
		return e->seal() != NULL ? e : NULL;
	}
	return NULL;
}

/* the bodies of the current level into the choice (on) or none (off) */
static void set_bodies(int on)
{
	const struct dispatch_body *e =
		on ? dispatch_body_for(choice.kernel->level) : NULL;

	choice.bkernel = e;
	choice.body = e != NULL ? e->seal() : NULL;
	choice.open_body = e != NULL ? e->open() : NULL;
}

/* the Poly1305 of the current choice: the radix-2^64 one inside the seal
 * and open bodies (2^44 for their tails); outside them (aead/kern.c
 * kern_poly1305_pad16) the vector one (IFMA at the AVX-512 level, AVX2)
 * for runs of 16 blocks or more and the proved one for the rest; or the
 * proved one alone */
static const char *poly_name(void)
{
	int ifma = choice.poly_blocks != NULL &&
		   strcmp(choice.pkernel->name, "ifma") == 0;

	if (choice.body != NULL && choice.poly_blocks != NULL)
		return ifma ? "poly1305-ifma (16 blocks on) in the seal and "
			      "open bodies and elsewhere, poly1305-portable "
			      "for the rest"
			    : "poly1305-64 in the seal and open bodies, "
			      "poly1305-avx2 (16 blocks on) and "
			      "poly1305-portable elsewhere";
	if (choice.body != NULL)
		return "poly1305-64 in the seal and open bodies, "
		       "poly1305-portable elsewhere";
	if (choice.poly_blocks != NULL)
		return ifma ? "poly1305-ifma (16 blocks on), poly1305-portable"
			    : "poly1305-avx2 (16 blocks on), poly1305-portable";
	return "poly1305-portable";
}

/* the one place the choice is filled: level k's entry of each table */
static void choose(const struct dispatch_kernel *k, chacha20_xor_fn fn)
{
	choice.kernel = k;
	choice.chacha20 = fn;
	/* the stitched seal measured slower than ChaCha20 then the vector
	 * Poly1305 here (bench/bench_crypto.sh): off unless asked for */
	choice.stitched = NULL;
	choice.hkernel = dispatch_hchacha_for(k->level);
	choice.hchacha20 = dispatch_hchacha_get(choice.hkernel);
	choice.pkernel = dispatch_poly_for(k->level);
	choice.poly_blocks = dispatch_poly_get(choice.pkernel);
	set_bodies(1);
	choice.poly1305 = poly_name();
}

/* every AVX-512 bit: the kernel's and the IFMA Poly1305's */
#define AVX512_BITS (CPU_AVX512_ALL | CPU_AVX512IFMA)

/* CPU_* bits above a level: what VCRYPTFS_IMPL=<level> hides */
static unsigned bits_above(enum dispatch_level level)
{
	switch (level) {
	case DISPATCH_PORTABLE:
		return CPU_SSSE3 | CPU_AVX | CPU_AVX2 | AVX512_BITS;
	case DISPATCH_SSSE3:
		return CPU_AVX | CPU_AVX2 | AVX512_BITS;
	case DISPATCH_AVX:
		return CPU_AVX2 | AVX512_BITS;
	case DISPATCH_AVX2:
		return AVX512_BITS;
	case DISPATCH_AVX512:
		break;
	}
	return 0;
}

/* see dispatch.h */
void dispatch_init(void)
{
	const char *env;
	const struct dispatch_kernel *want = NULL;

	if (initialised)
		return;
	initialised = 1;
	env = getenv("VCRYPTFS_IMPL");
	if (env != NULL && env[0] != 0 && strcmp(env, "auto") != 0) {
		requested = env;
		for (size_t i = 0; i < NKERNELS; i++)
			if (strcmp(env, table[i].name) == 0)
				want = &table[i];
		if (want == NULL)
			fprintf(stderr,
				"vcryptfs: VCRYPTFS_IMPL=%s is not one of "
				"portable, ssse3, avx, avx2, avx512; using "
				"auto\n",
				env);
	}
	if (want != NULL) {
		unsigned hide = bits_above(want->level);

		forced = 1;
		if ((cpu_features() & want->needs) != want->needs)
			fprintf(stderr,
				"vcryptfs: VCRYPTFS_IMPL=%s: this CPU lacks "
				"it; using the best kernel available\n",
				env);
		impl_masked = cpu_features() & hide;
		cpu_mask(hide);
	}
	for (size_t i = NKERNELS; i-- > 0;) {
		chacha20_xor_fn fn = dispatch_kernel_get(&table[i]);

		if (fn != NULL) {
			choose(&table[i], fn);
			break;
		}
	}
}

/* Run the probe before main(), hence before any thread can exist, so a
 * program that forgets dispatch_init() still never races on it. */
__attribute__((constructor)) static void dispatch_ctor(void)
{
	dispatch_init();
}

/* see dispatch.h */
const struct dispatch_choice *dispatch_current(void)
{
	dispatch_init();
	return &choice;
}

/* see dispatch.h */
const char *dispatch_requested(void)
{
	dispatch_init();
	return requested;
}

/* see dispatch.h */
unsigned dispatch_masked(void)
{
	dispatch_init();
	return impl_masked;
}

/* see dispatch.h */
int dispatch_forced(void)
{
	dispatch_init();
	return forced;
}

/* see dispatch.h */
int dispatch_set(const struct dispatch_kernel *k)
{
	chacha20_xor_fn fn;

	dispatch_init();
	fn = dispatch_kernel_get(k);
	if (fn == NULL)
		return -1;
	choose(k, fn);
	return 0;
}

/* see dispatch.h */
void dispatch_stitch(int on)
{
	const struct dispatch_kernel *k = dispatch_current()->kernel;
	const struct dispatch_body *e = dispatch_body_for(k->level);

	choice.stitched = on ? dispatch_stitched_get(k) : NULL;
	/* the per-step stitched seal replaces the whole-seal body (the
	 * open body stays) */
	choice.body = !on && e != NULL ? e->seal() : NULL;
}

/* see dispatch.h */
void dispatch_body(int on)
{
	dispatch_init();
	set_bodies(on);
	choice.poly1305 = poly_name();
}

/* see dispatch.h */
int dispatch_force(const char *name)
{
	dispatch_init();
	for (size_t i = 0; i < NKERNELS; i++) {
		chacha20_xor_fn fn;

		if (strcmp(name, table[i].name) != 0)
			continue;
		fn = dispatch_kernel_get(&table[i]);
		if (fn == NULL)
			return -1;
		choose(&table[i], fn);
		return 0;
	}
	return -1;
}
