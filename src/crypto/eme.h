/* SPDX-License-Identifier: MIT */
/*
 * EME (Halevi-Rogaway "ECB-Mix-ECB") wide-block tweakable cipher over
 * AES-256, as gocryptfs uses it for file names and xattr names.
 * Spec: ../shared/FORMAT.md 5.1 (mul2 on little-endian 128-bit values).
 * Depends on: ossl_aead.h (raw AES-256 blocks), ct.h.
 * Not constant time with respect to data-independent lengths only; AES
 * itself is OpenSSL's (AES-NI here). Not proved.
 */
#ifndef VCRYPTFS_EME_H
#define VCRYPTFS_EME_H

#include <stddef.h>
#include <stdint.h>

#define EME_BLOCK_LEN 16
#define EME_MAX_BLOCKS 128 /* gocryptfs/EME limit: 2048 bytes */

/*
 * Encipher (decrypt == 0) or decipher (decrypt != 0) in[0..len-1] into out
 * with the 32-byte AES key and the 16-byte tweak. len must be a multiple
 * of 16 between 16 and 2048 (a caller bug otherwise: assert). out may
 * equal in. Thread-safe.
 */
void eme_transform(uint8_t *out, const uint8_t *in, size_t len,
		   const uint8_t key[32], const uint8_t tweak[16], int decrypt);

#endif
