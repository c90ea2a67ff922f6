/* SPDX-License-Identifier: MIT */
/*
 * CPUID + XGETBV probe. See cpu.h.
 * Spec: Intel SDM vol. 2A (CPUID leaf 1 ECX bits 1, 9, 25, 27, 28; leaf 7
 * subleaf 0 EBX bits 5, 8, 16, 21, 30, 31) and vol. 1 section 13.3 (XCR0 bit 1
 * SSE, 2 YMM, 5 opmask, 6 ZMM_Hi256, 7 Hi16_ZMM).
 * Depends on: libc; CPUID and XGETBV by inline asm. Built without ISA flags: it must run on any
 * x86-64 CPU. Not constant time (no secrets). Not proved.
 */
#include "crypto/cpu.h"

#include <stdint.h>
#include <string.h>

#if defined(__x86_64__) && !defined(__FRAMAC__)
#define CPU_X86 1
#else
#define CPU_X86 0
#endif

static int probed;
static unsigned seen;
static unsigned masked;

#if CPU_X86
static uint64_t read_xcr0(void)
{
	uint32_t lo, hi;

	/* xgetbv with ECX = 0; encoded so no -mxsave is needed */
	__asm__ volatile(".byte 0x0f, 0x01, 0xd0"
			 : "=a"(lo), "=d"(hi)
			 : "c"(0U));
	return ((uint64_t)hi << 32) | lo;
}

/* r = eax, ebx, ecx, edx of CPUID(leaf, subleaf) */
static void cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	__asm__ volatile("cpuid"
			 : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3])
			 : "a"(leaf), "c"(sub));
}

static unsigned probe(void)
{
	uint32_t r[4];
	uint32_t c, max_leaf;
	unsigned f = 0;
	int ymm_ok = 0, zmm_ok = 0;

	cpuid(0, 0, r);
	max_leaf = r[0];
	if (max_leaf < 1)
		return 0;
	cpuid(1, 0, r);
	c = r[2];
	if (c & (1U << 9))
		f |= CPU_SSSE3;
	if (c & (1U << 25))
		f |= CPU_AESNI;
	if (c & (1U << 1))
		f |= CPU_PCLMUL;
	/* OSXSAVE: XGETBV is available and the OS manages XCR0 */
	if (c & (1U << 27)) {
		uint64_t xcr0 = read_xcr0();

		ymm_ok = (xcr0 & 0x6U) == 0x6U;
		zmm_ok = ymm_ok && (xcr0 & 0xe0U) == 0xe0U;
	}
	if (ymm_ok && (c & (1U << 28)))
		f |= CPU_AVX;
	if (max_leaf >= 7 && (f & CPU_AVX)) {
		uint32_t b;

		cpuid(7, 0, r);
		b = r[1];
		if (b & (1U << 5))
			f |= CPU_AVX2;
		if (b & (1U << 8))
			f |= CPU_BMI2;
		if (zmm_ok && (b & (1U << 16))) {
			f |= CPU_AVX512F;
			if (b & (1U << 31))
				f |= CPU_AVX512VL;
			if (b & (1U << 30))
				f |= CPU_AVX512BW;
			if (b & (1U << 21))
				f |= CPU_AVX512IFMA;
		}
	}
	return f;
}
#else
static unsigned probe(void)
{
	return 0;
}
#endif

/* see cpu.h */
unsigned cpu_features_seen(void)
{
	if (!probed) {
		seen = probe();
		probed = 1;
	}
	return seen;
}

/* see cpu.h */
unsigned cpu_features(void)
{
	return cpu_features_seen() & ~masked;
}

/* see cpu.h */
void cpu_mask(unsigned features)
{
	masked |= features;
}

/* see cpu.h */
void cpu_unmask_all(void)
{
	masked = 0;
}

/* see cpu.h */
unsigned cpu_masked(void)
{
	return cpu_features_seen() & masked;
}

static const struct {
	unsigned bit;
	const char *name;
} names[] = {
	{ CPU_SSSE3, "ssse3" },	      { CPU_AVX, "avx" },
	{ CPU_AVX2, "avx2" },	      { CPU_AVX512F, "avx512f" },
	{ CPU_AVX512VL, "avx512vl" }, { CPU_AVX512BW, "avx512bw" },
	{ CPU_AESNI, "aes" },	      { CPU_PCLMUL, "pclmulqdq" },
	{ CPU_BMI2, "bmi2" },	      { CPU_AVX512IFMA, "avx512ifma" },
};

/* see cpu.h */
char *cpu_feature_names(unsigned features, char *buf, size_t n)
{
	size_t used = 0;

	if (n == 0)
		return buf;
	buf[0] = 0;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		size_t l = strlen(names[i].name);

		if (!(features & names[i].bit))
			continue;
		if (used + l + 2 > n)
			break;
		if (used > 0)
			buf[used++] = ' ';
		memcpy(buf + used, names[i].name, l);
		used += l;
		buf[used] = 0;
	}
	if (used == 0 && n >= 5)
		memcpy(buf, "none", 5);
	return buf;
}
