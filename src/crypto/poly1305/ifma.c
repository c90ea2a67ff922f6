/* SPDX-License-Identifier: MIT */
/*
 * Poly1305 bulk blocks with AVX-512 IFMA (52-bit multiply-add) in radix
 * 2^44: the 44/44/42-bit limbs of struct poly1305_fast, one message block
 * per 64-bit lane, 8 lanes per ZMM register, two independent accumulators
 * A and B, 16 blocks per step. Step i loads blocks 16 i .. 16 i + 7 into
 * A's lanes and 16 i + 8 .. 16 i + 15 into B's; both are multiplied by
 * r^16 (Horner's rule). The last step multiplies A's lane j by r^(16 - j)
 * and B's by r^(8 - j) instead, and the 16 lanes are summed. Fewer than 16
 * trailing blocks go to p64_blocks (poly1305/x64.h). r^1..r^8 come from
 * three vector products in the lanes (powers8), r^9..r^16 from one more,
 * r^8 * (r^8 .. r^1), once per call. See kernels.h
 * (poly1305_blocks_fn: same contract as poly1305_avx2_get()).
 * Spec: RFC 8439 section 2.5.1; h = sum of (m_i + 2^128) * r^(n - i).
 * Products: vpmadd52luq adds bits 0..51 and vpmadd52huq bits 52..103 of
 * the product of the low 52 bits of two lanes (Intel SDM vol. 2
 * VPMADD52LUQ / VPMADD52HUQ), so every multiplicand must be < 2^52.
 * Limb bounds: between steps h0 < 2^44, h1 < 2^44 + 2^17, h2 < 2^42; with a
 * message block h0 < 2^45, h1 < 2^45 + 2^17, h2 < 2^42 + 2^41. Powers r^k:
 * r0, r1 < 2^44 + 2^17, r2 < 2^42, so 20 r^k < 2^49 < 2^52 (2^130 = 5 and
 * 2^132 = 20 mod p). Each product is < 2^46 * 2^49 = 2^95: its low part
 * < 2^52, its high part < 2^43; three of each sum to < 2^54 and < 2^45,
 * far from 2^64 through the carry pass (vmul). Output: fully carried to
 * poly1305/x64.h's bounds (h0, h2 below their widths, h1 < 2^44 + 1).
 * CPU feature: AVX-512F, AVX-512VL and AVX-512IFMA with OS-saved ZMM and
 * opmask state; the only file built with -mavx512ifma (Makefile: the ifma.c of a primitive folder).
 * Constant time: yes (multiply-adds, shifts, masks, fixed permutes; no
 * secret-dependent branch or index; the loop count depends only on the
 * length). Not proved; tests/unit/test_kernels.c and
 * fuzz/fuzz_diff_poly1305.c compare it with poly1305/ref.c on IFMA CPUs, and
 * tests/avx512emu/test_avx512_emul.c runs it on scalar stand-ins for the
 * intrinsics on every CPU.
 */
#include "crypto/kernels.h"
#include "crypto/cpu.h"

#if defined(__AVX512F__) && defined(__AVX512VL__) &&                           \
	defined(__AVX512IFMA__) && !defined(__FRAMAC__)
#include <immintrin.h>

#include "crypto/poly1305/x64.h"
#include "crypto/poly1305/ifma.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#error "poly1305/ifma.c: little-endian only (vector message loads)"
#endif

/* CPU bits the kernel needs */
#define IFMA_NEEDS (CPU_AVX512F | CPU_AVX512VL | CPU_AVX512IFMA)

/*
 * 16 blocks per step in two 8-lane accumulators (A: blocks 0..7 of each
 * step, B: 8..15), then the tail on the scalar path. nblocks < 16: all
 * scalar.
 */
static void poly1305_ifma_blocks(uint64_t h[3], const uint64_t r[3],
				 const uint8_t *m, size_t nblocks)
{
	struct ifma_acc acc;
	size_t steps = nblocks / 16;

	if (steps < 1) {
		p64_blocks(h, r, m, nblocks);
		return;
	}
	ifma_begin(&acc, r, h);
	for (size_t g = 0; g + 1 < steps; g++)
		ifma_step(&acc, m + 256 * g);
	ifma_last(&acc, m + 256 * (steps - 1));
	ifma_end(&acc, h);
	p64_blocks(h, r, m + 256 * steps, nblocks - 16 * steps);
}

/* see kernels.h */
poly1305_blocks_fn poly1305_ifma_get(void)
{
	if ((cpu_features() & IFMA_NEEDS) != IFMA_NEEDS)
		return NULL;
	return poly1305_ifma_blocks;
}
#else
/* see kernels.h: built without AVX-512 IFMA support */
poly1305_blocks_fn poly1305_ifma_get(void)
{
	return NULL;
}
#endif
