/* SPDX-License-Identifier: MIT */
/*
 * XChaCha20-Poly1305 for the filesystem, on the kernels chosen at run time
 * (dispatch.h): same signatures, semantics and output bytes as
 * xchachapoly_seal/open in aead_xchacha.h (the proved reference).
 * Spec: RFC 8439 section 2.8; draft-irtf-cfrg-xchacha-03 section 2.3.
 * Depends on: dispatch.h, kernels.h, chacha20.h, ct.h.
 * Constant time: yes; open compares tags with ct_compare before it writes
 * a single byte of plaintext, and writes nothing when they differ.
 * Thread-safety: reentrant once dispatch_init() has run (call it from main
 * before threads; the first call here runs it otherwise).
 * Not proved; tests/unit/test_kernels.c checks it against aead_xchacha.c
 * and the Wycheproof vectors for every kernel.
 */
#ifndef VCRYPTFS_AEAD_FAST_H
#define VCRYPTFS_AEAD_FAST_H

#include <stddef.h>
#include <stdint.h>

/* As chachapoly_seal / chachapoly_open (aead_xchacha.h), IETF 12-byte
 * nonce: same rules, same bytes. */
void chachapoly_seal_fast(uint8_t *c, uint8_t tag[16], const uint8_t *m,
			  size_t len, const uint8_t *ad, size_t adlen,
			  const uint8_t key[32], const uint8_t nonce[12]);

int chachapoly_open_fast(uint8_t *m, const uint8_t *c, size_t len,
			 const uint8_t tag[16], const uint8_t *ad, size_t adlen,
			 const uint8_t key[32], const uint8_t nonce[12]);

/* As xchachapoly_seal: c may equal m; ad may be NULL when adlen is 0. */
void xchachapoly_seal_fast(uint8_t *c, uint8_t tag[16], const uint8_t *m,
			   size_t len, const uint8_t *ad, size_t adlen,
			   const uint8_t key[32], const uint8_t nonce[24]);

/* As xchachapoly_open: 0 and m written, or -1 and m untouched. m may
 * equal c. */
int xchachapoly_open_fast(uint8_t *m, const uint8_t *c, size_t len,
			  const uint8_t tag[16], const uint8_t *ad,
			  size_t adlen, const uint8_t key[32],
			  const uint8_t nonce[24]);

#endif
