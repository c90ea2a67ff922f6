/* SPDX-License-Identifier: MIT */
/*
 * Kernel function types and every *_get() prototype: the SIMD ChaCha20
 * kernels (chacha20/ssse3.c, chacha20/avx.c, chacha20/avx2.c,
 * chacha20/avx512.c), the
 * 64-bit-limb Poly1305 (poly1305/x64.c) and its vector block loops
 * (poly1305/avx2.c, poly1305/ifma.c), with the portable signatures and
 * semantics of chacha20/ref.h and poly1305/ref.h.
 * Callers: aead/kern.c only (plus dispatch.c, which resolves them, and the
 * tests). The AEAD composition (aead/chachapoly.c) reaches these kernels
 * only through the aead/kern.h entry points, whose contracts (the ref
 * functions' and two whole-AEAD ones for the stitched bodies) state what
 * each kernel must compute; aead/kern.c converts between struct poly1305 and
 * the 44/44/42-bit limbs of poly1305_blocks_fn, and finishes a body's
 * MAC (pad16(c), lengths, tag) inside kern_chachapoly_seal_body/
 * kern_chachapoly_open_body.
 * Depends on: nothing outside src/crypto. Generic code includes this header,
 * never immintrin.h; only the ISA files use intrinsics.
 * Constant time: every kernel (fixed rotations, adds, xors; no table, no
 * secret-dependent branch). Not proved: kernels earn trust by agreeing with
 * the proved portable code (tests/unit/test_kernels.c, fuzz/).
 */
#ifndef VCRYPTFS_KERNELS_H
#define VCRYPTFS_KERNELS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Same contract as chacha20_xor (chacha20/ref.h): any len (0 too), partial
 * blocks, in place (out == in) or disjoint, no alignment, 32-bit counter
 * wrapping mod 2^32 with the nonce unchanged; returns the next counter.
 */
typedef uint32_t (*chacha20_xor_fn)(uint8_t *out, const uint8_t *in, size_t len,
				    const uint8_t key[32], uint32_t counter,
				    const uint8_t nonce[12]);

/* A kernel getter (below). */
typedef chacha20_xor_fn (*chacha20_get_fn)(void);

/*
 * Getters: the kernel, or NULL when it was not compiled in or the CPU (after
 * cpu_mask) lacks SSSE3 / AVX2 / AVX-512F+VL+BW. Blocks per call: 4, 8, 16.
 */
chacha20_xor_fn chacha20_ssse3_get(void);
/* chacha20/ssse3.c's source built with -mavx (VEX encoding), 4 blocks;
 * NULL unless the CPU has AVX and the OS saves YMM state (cpu.c) */
chacha20_xor_fn chacha20_avx_get(void);
chacha20_xor_fn chacha20_avx2_get(void);
chacha20_xor_fn chacha20_avx512_get(void);

/* HChaCha20 with the signature of hchacha20 (chacha20/ref.h); dispatch.c's
 * HChaCha20 table runs the scalar one of chacha20/fastblock.h at the
 * SIMD levels below avx512. */
typedef void (*hchacha20_fn)(uint8_t out[32], const uint8_t key[32],
			     const uint8_t nonce[16]);

/* The avx512 level's (chacha20/avx512.c: the block as four 128-bit rows,
 * AVX-512VL rotates); NULL when not compiled in or the CPU (after
 * cpu_mask) lacks AVX-512F/VL/BW. */
hchacha20_fn hchacha20_avx512_get(void);

/*
 * Poly1305 bulk step: absorb nblocks full 16-byte blocks of m (each with
 * the 2^128 bit) into h, with h and r in the 44/44/42-bit limbs of
 * struct poly1305_fast (poly1305/x64.h bounds in and out). The AVX2 one
 * (poly1305/avx2.c) runs 4 blocks per step once nblocks >= 8.
 */
typedef void (*poly1305_blocks_fn)(uint64_t h[3], const uint64_t r[3],
				   const uint8_t *m, size_t nblocks);

/* NULL when not compiled in or the CPU (after cpu_mask) lacks AVX2. */
poly1305_blocks_fn poly1305_avx2_get(void);

/* The AVX-512 IFMA one (poly1305/ifma.c: radix 2^44 in 52-bit
 * multiply-adds, 16 blocks per step once nblocks >= 16); NULL when not
 * compiled in or the CPU (after cpu_mask) lacks AVX-512F+VL+IFMA. */
poly1305_blocks_fn poly1305_ifma_get(void);

/*
 * Poly1305 with 3 limbs of 44/44/42 bits and unsigned __int128 products
 * (poly1305/x64.c). Same semantics as poly1305/ref.h: init, update any number of
 * times with any lengths, final writes the tag and wipes the state.
 * poly1305_fast_use() (after init) hands runs of 16 or more whole blocks
 * to a bulk kernel such as poly1305_avx2_get(); NULL means scalar only.
 * Treat the struct as opaque.
 */
struct poly1305_fast {
	uint64_t r[3];		   /* clamped r: 44, 44, 42 bits */
	uint64_t h[3];		   /* accumulator, partially reduced */
	uint64_t pad[2];	   /* s, little-endian 64-bit words */
	uint8_t buf[16];	   /* pending partial block */
	size_t buflen;		   /* 0..15 */
	poly1305_blocks_fn blocks; /* bulk kernel, or NULL */
};

void poly1305_fast_init(struct poly1305_fast *st, const uint8_t key[32]);
void poly1305_fast_use(struct poly1305_fast *st, poly1305_blocks_fn blocks);
void poly1305_fast_update(struct poly1305_fast *st, const uint8_t *m,
			  size_t len);
void poly1305_fast_final(struct poly1305_fast *st, uint8_t tag[16]);

/*
 * Stitched encrypt-then-MAC for seal (tests and dispatch_stitch only: the
 * composition does not use it): c = m ^ ChaCha20(key, nonce, counter)
 * exactly as chacha20_xor_fn, and c[0..len-1] absorbed into mac, whose
 * buflen must be 0 (callers pad the AD first). c may equal m. Returns the
 * next counter. The AVX2 one (chacha20/avx2.c) runs the scalar 64-bit
 * Poly1305 of each 512-byte batch of ciphertext inside the vector rounds
 * of the next batch, so integer and vector units work at the same time.
 */
typedef uint32_t (*chacha20_poly_fn)(uint8_t *c, const uint8_t *m, size_t len,
				     const uint8_t key[32], uint32_t counter,
				     const uint8_t nonce[12],
				     struct poly1305_fast *mac);

/* NULL when not compiled in or the CPU (after cpu_mask) lacks AVX2. */
chacha20_poly_fn chacha20_poly_avx2_get(void);

/*
 * The body of a ChaCha20-Poly1305 seal (RFC 8439 section 2.8) without the
 * MAC's last padding and lengths (aead/kern.c adds them: the whole AEAD is
 * kern_chachapoly_seal_body's contract): c = m ^ ChaCha20(key, nonce) from
 * counter 1, mac initialised with the one-time key (block 0) and fed
 * ad | pad16(ad) | c[0..len-1]. c may equal m (or be disjoint). The AVX2
 * one (chacha20/avx2.c) computes block 0 in general-purpose registers
 * during the first 8-block step and the radix-2^64 Poly1305 of each
 * 512-byte step during the next one.
 */
typedef void (*chachapoly_body_fn)(uint8_t *c, const uint8_t *m, size_t len,
				   const uint8_t *ad, size_t adlen,
				   const uint8_t key[32],
				   const uint8_t nonce[12],
				   struct poly1305_fast *mac);

/* NULL when not compiled in or the CPU (after cpu_mask) lacks AVX2. */
chachapoly_body_fn chachapoly_body_avx2_get(void);

/* The 4-block 128-bit ones (chacha20/sse128.h: the scalar radix-2^64
 * Poly1305 of each 256-byte step inside the vector rounds of the next;
 * MUL, no BMI2); NULL when not compiled in or the CPU (after cpu_mask)
 * lacks SSSE3 / AVX. Seal and open as these two. */
chachapoly_body_fn chachapoly_body_ssse3_get(void);
chachapoly_body_fn chachapoly_open_body_ssse3_get(void);
chachapoly_body_fn chachapoly_body_avx_get(void);
chachapoly_body_fn chachapoly_open_body_avx_get(void);
/* The 16-block AVX-512 ones (chacha20/avx512.c: the radix-2^64 Poly1305
 * with MULX of each 1024-byte step inside the next step's rounds); NULL
 * unless the CPU (after cpu_mask) has AVX-512F/VL/BW and BMI2. */
chachapoly_body_fn chachapoly_body_avx512_get(void);
chachapoly_body_fn chachapoly_open_body_avx512_get(void);

/*
 * The body of an open, same type, called as open(m, c, len, ...): m = c ^
 * ChaCha20(key, nonce) from counter 1, and mac initialised with block 0
 * and fed ad | pad16(ad) | c[0..len-1], the input (read one 512-byte
 * step after its keystream XOR), so m must not overlap c: callers
 * decrypt into a private buffer and release it only after the tag
 * verifies (aead/kern.h kern_chachapoly_open_body, aead/chachapoly.c). NULL when not compiled in or the CPU (after
 * cpu_mask) lacks AVX2.
 */
chachapoly_body_fn chachapoly_open_body_avx2_get(void);

#endif
