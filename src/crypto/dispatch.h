/* SPDX-License-Identifier: MIT */
/*
 * Runtime kernel choice: one const table per primitive, each entry a name,
 * the lowest level that uses it, its getter and the CPU bits it needs:
 *   ChaCha20 (dispatch_list):     portable, ssse3, avx, avx2, avx512
 *   HChaCha20 (dispatch_hchacha_list): portable (the proved hchacha20),
 *                                 fast (the scalar core of
 *                                 chacha20/fastblock.h) from ssse3 on
 *   Poly1305 blocks (dispatch_poly_list): portable (no blocks function:
 *                                 the proved poly1305_pad16), avx2 from
 *                                 avx2 on, ifma at avx512 when the CPU
 *                                 has it
 *   seal and open bodies (dispatch_body_list): ssse3, avx, avx2, avx512
 *                                 (each at its own level only; avx512's
 *                                 not when the IFMA Poly1305 is there)
 * dispatch_init() takes the highest ChaCha20 level whose CPU checks pass
 * (cpu.h), capped by VCRYPTFS_IMPL=portable|ssse3|avx|avx2|avx512, and
 * fills the choice by looking that level up in each table (one place:
 * choose() in dispatch.c); calibrate.h then times the ChaCha20 levels
 * once at start and may move the choice down to a faster one
 * (dispatch_set(), before any thread).
 * The AEAD composition (aead/chachapoly.c) reads the choice only through
 * the aead/kern.h entry points (aead/kern.c): chacha20, hchacha20 (the
 * proved one at the portable level), poly_blocks, body and open_body.
 * Depends on: cpu.h, kernels.h, chacha20/ref.h. Never includes immintrin.h.
 * Thread-safety: dispatch_init() runs once before main() (a constructor in
 * dispatch.c) and may be called again from main() before any thread
 * (idempotent; later calls return at once); afterwards everything here is
 * read-only. dispatch_force() and dispatch_stitch() are for tests and
 * benches only; dispatch_set() for calibrate.c (before any thread).
 * Not proved; tests/unit/test_kernels.c walks every table against the
 * proved ref functions.
 */
#ifndef VCRYPTFS_DISPATCH_H
#define VCRYPTFS_DISPATCH_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/kernels.h"

enum dispatch_level {
	DISPATCH_PORTABLE = 0,
	DISPATCH_SSSE3 = 1,
	DISPATCH_AVX = 2,
	DISPATCH_AVX2 = 3,
	DISPATCH_AVX512 = 4,
};

/* One ChaCha20 kernel as compiled in. get() returns NULL when the CPU (or
 * the VCRYPTFS_IMPL cap) does not allow it. */
struct dispatch_kernel {
	const char *name; /* "portable", "ssse3", "avx", "avx2", "avx512" */
	enum dispatch_level level;
	chacha20_get_fn get;
	chacha20_poly_fn (*stitched_get)(void); /* NULL: none */
	unsigned blocks; /* 64-byte blocks per SIMD step */
	unsigned needs;	 /* CPU_* bits required */
};

/* One HChaCha20: used from `level` up to the next entry's level that the
 * CPU allows. fn, or (fn NULL) get(), which returns NULL when the CPU
 * (after cpu_mask) lacks what it needs. */
struct dispatch_hchacha {
	const char *name; /* "portable", "fast", "avx512" */
	enum dispatch_level level;
	hchacha20_fn fn;
	hchacha20_fn (*get)(void);
};

/* One Poly1305 blocks function: used from `level` up (the highest entry
 * at or below the chosen level whose get() is not NULL). get NULL: no
 * blocks function (kern_poly1305_pad16 runs the proved poly1305_pad16
 * alone); else get() returns NULL when the CPU (after cpu_mask) lacks
 * `needs`. */
struct dispatch_poly {
	const char *name; /* "portable", "avx2", "ifma" */
	enum dispatch_level level;
	unsigned needs; /* CPU_* bits required */
	poly1305_blocks_fn (*get)(void);
};

/* The stitched seal and open bodies of one level (used at that level
 * only). seal()/open() return NULL when the CPU (after cpu_mask) lacks
 * `needs` (avx512: with IFMA, its bodies run the IFMA Poly1305 inside the
 * rounds and need no BMI2; every IFMA CPU has BMI2). */
struct dispatch_body {
	const char *name; /* "ssse3", "avx", "avx2", "avx512" */
	enum dispatch_level level;
	unsigned needs; /* CPU_* bits required (BMI2: see kernels.h) */
	chachapoly_body_fn (*seal)(void);
	chachapoly_body_fn (*open)(void);
	unsigned min_blocks; /* shortest text the bodies take, in blocks */
};

/* The chosen kernel, with its function pointers resolved. */
struct dispatch_choice {
	const struct dispatch_kernel *kernel;	/* ChaCha20: the level */
	const struct dispatch_hchacha *hkernel; /* never NULL */
	const struct dispatch_poly *pkernel;	/* never NULL */
	const struct dispatch_body *bkernel;	/* NULL: no bodies */
	chacha20_xor_fn chacha20;
	chacha20_poly_fn stitched; /* tests only (the composition does not
				    * use it); NULL unless dispatch_stitch */
	chachapoly_body_fn body;   /* seals of 8 blocks or more; NULL: none */
	chachapoly_body_fn open_body;	/* opens of 8 blocks or more (into a
				       * private buffer); NULL: none */
	hchacha20_fn hchacha20;		/* never NULL; hchacha20 (the
					 * proved one) at the portable level */
	poly1305_blocks_fn poly_blocks; /* NULL: the proved poly1305_pad16
					 * only (kern_poly1305_pad16) */
	const char *poly1305;		/* name of the Poly1305 used */
};

/* k's kernel, or NULL when the CPU (or VCRYPTFS_IMPL) rules it out. */
chacha20_xor_fn dispatch_kernel_get(const struct dispatch_kernel *k);

/* k's stitched seal, or NULL when it has none or the CPU rules it out. */
chacha20_poly_fn dispatch_stitched_get(const struct dispatch_kernel *k);

/* The compiled tables, lowest level first; *n receives the length.
 * ChaCha20 (the levels), HChaCha20, Poly1305 blocks, bodies. */
const struct dispatch_kernel *dispatch_list(size_t *n);
const struct dispatch_hchacha *dispatch_hchacha_list(size_t *n);
const struct dispatch_poly *dispatch_poly_list(size_t *n);
const struct dispatch_body *dispatch_body_list(size_t *n);

/* The entries level k takes (what dispatch_init() or dispatch_set(k)
 * would put in the choice, on the CPU as masked now): the HChaCha20 and
 * the Poly1305 blocks entries (never NULL) and the bodies entry (NULL:
 * none, or its getters give NULL). */
const struct dispatch_hchacha *dispatch_hchacha_for(enum dispatch_level l);
const struct dispatch_poly *dispatch_poly_for(enum dispatch_level l);
const struct dispatch_body *dispatch_body_for(enum dispatch_level l);

/* e's blocks function: NULL for the portable entry, or when the CPU
 * rules it out. */
poly1305_blocks_fn dispatch_poly_get(const struct dispatch_poly *e);

/* e's HChaCha20: NULL when the CPU rules it out. */
hchacha20_fn dispatch_hchacha_get(const struct dispatch_hchacha *e);

/*
 * Probe the CPU, read VCRYPTFS_IMPL, pick the best allowed kernel. Unknown
 * values or a level above what the CPU has print one warning on stderr and
 * fall back to the best available. Idempotent.
 */
void dispatch_init(void);

/* The current choice (calls dispatch_init() if it has not run). */
const struct dispatch_choice *dispatch_current(void);

/* The shortest text (bytes) the seal and open bodies of choice ch take
 * (its body entry's min_blocks; SIZE_MAX when it has no bodies). */
static inline size_t dispatch_body_min(const struct dispatch_choice *ch)
{
	return ch->bkernel != NULL ? 64 * (size_t)ch->bkernel->min_blocks
				   : SIZE_MAX;
}

/* VCRYPTFS_IMPL as given ("auto" when unset or empty). */
const char *dispatch_requested(void);

/* CPU_* bits the CPU has but VCRYPTFS_IMPL masked. */
unsigned dispatch_masked(void);

/* 1 when VCRYPTFS_IMPL named a kernel (the choice is then the highest
 * level at or below it that the CPU has, and nothing calibrates it), 0 for
 * auto (unset, empty, "auto" or an unknown value). */
int dispatch_forced(void);

/* calibrate.c: make kernel k (of dispatch_list(), available) the choice.
 * Returns 0, or -1 when the CPU rules it out (the choice is unchanged).
 * Only before any thread starts. */
int dispatch_set(const struct dispatch_kernel *k);

/* Tests: turn the per-step stitched seal of the current choice on (1,
 * when the kernel has one: it then replaces the seal body, so the
 * composition takes its generic path) or off (0, the default). The
 * composition itself never calls the per-step stitched seal. */
void dispatch_stitch(int on);

/* Tests and benches: the current kernel's seal and open bodies on (1,
 * the default) or off (0: ChaCha20, then Poly1305). */
void dispatch_body(int on);

/* Tests and benches: use kernel `name` from now on. Returns 0, or -1 when
 * it is unknown or unavailable (the choice is then unchanged). */
int dispatch_force(const char *name);

#endif
