/* SPDX-License-Identifier: MIT */
/*
 * One-time CPU feature probe for the runtime kernel choice: CPUID leaves 1
 * and 7 (SSSE3, AVX, AVX2, AVX-512F/VL/BW/IFMA, AES-NI, PCLMULQDQ; BMI2, seen
 * only on CPUs with AVX since only the AVX2 code uses it), then XGETBV
 * to confirm that the OS saves YMM (and opmask/ZMM) state before AVX2
 * (AVX-512) is reported. Intel SDM vol. 2A "CPUID", vol. 1 13.3 (XCR0).
 * Depends on: libc only; nothing outside src/crypto. No intrinsics: CPUID
 * via <cpuid.h>, XGETBV via one inline-asm instruction.
 * Thread-safety: cpu_features() probes lazily; call it (or dispatch_init)
 * once before any thread starts. cpu_mask() is for tests and
 * dispatch_init() only, before threads.
 * Not proved (no WP contract).
 */
#ifndef VCRYPTFS_CPU_H
#define VCRYPTFS_CPU_H

#include <stddef.h>

enum cpu_feature {
	CPU_SSSE3 = 1U << 0,
	CPU_AVX = 1U << 1,     /* AVX and the OS saves YMM */
	CPU_AVX2 = 1U << 2,    /* AVX2 and the OS saves YMM */
	CPU_AVX512F = 1U << 3, /* AVX-512F and the OS saves opmask/ZMM */
	CPU_AVX512VL = 1U << 4,
	CPU_AVX512BW = 1U << 5,
	CPU_AESNI = 1U << 6,
	CPU_PCLMUL = 1U << 7,
	CPU_BMI2 = 1U << 8, /* MULX (the AVX2 seal's Poly1305; no OS state) */
	CPU_AVX512IFMA = 1U << 9, /* 52-bit multiply-add; OS saves ZMM */
};

/* All CPU_* bits, and the ones the AVX-512 ChaCha20 kernel needs. */
#define CPU_ALL 0x3ffU
#define CPU_AVX512_ALL (CPU_AVX512F | CPU_AVX512VL | CPU_AVX512BW)

/* Features the CPU and OS offer (probe result, before any mask). */
unsigned cpu_features_seen(void);

/* Features usable now: cpu_features_seen() minus the masked bits. */
unsigned cpu_features(void);

/* Hide the given CPU_* bits from cpu_features() (tests, VCRYPTFS_IMPL);
 * cumulative. cpu_unmask_all() clears every mask. */
void cpu_mask(unsigned features);
void cpu_unmask_all(void);

/* Bits currently masked (only those the CPU actually has). */
unsigned cpu_masked(void);

/*
 * Write the names of the bits in `features` ("ssse3 avx avx2 ...",
 * space separated, "none" when empty) into buf[0..n-1], NUL-terminated,
 * truncated if n is too small. Returns buf.
 */
char *cpu_feature_names(unsigned features, char *buf, size_t n);

#endif
