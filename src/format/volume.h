/* SPDX-License-Identifier: MIT */
/*
 * What an unlocked cipher directory is: its content cipher, its name
 * options and its derived keys. Filled by keys.c from gocryptfs.conf (or
 * -masterkey plus flags); read by content.c, names.c and the FUSE layer.
 * Spec: ../shared/FORMAT.md sections 2.3 (flags) and 3 (key derivation).
 * Depends on: nothing. Key buffers point into mlock'd memory (secmem) and
 * are wiped by volume_free().
 */
#ifndef VCRYPTFS_VOLUME_H
#define VCRYPTFS_VOLUME_H

#include <stddef.h>
#include <stdint.h>

enum content_cipher {
	CIPHER_AES_GCM = 1, /* AES-256-GCM, 16-byte nonce (GCMIV128) */
	CIPHER_AES_SIV = 2, /* AES-SIV-512 (AESSIV + GCMIV128) */
	CIPHER_XCHACHA = 3, /* XChaCha20-Poly1305 (XChaCha20Poly1305) */
};

/* volume.flags: the name-related feature flags that are set */
#define VOL_HKDF (1U << 0)
#define VOL_PLAINTEXTNAMES (1U << 1)
#define VOL_DIRIV (1U << 2)
#define VOL_EMENAMES (1U << 3)
#define VOL_LONGNAMES (1U << 4)
#define VOL_RAW64 (1U << 5)

struct volume {
	enum content_cipher cipher;
	uint32_t flags;	      /* VOL_* */
	unsigned longnamemax; /* 62..255; 255 when the flag is absent */
	uint8_t *content_key; /* 32 bytes (64 for AES-SIV), mlock'd */
	size_t content_key_len;
	uint8_t *eme_key; /* 32 bytes, mlock'd; also in PlaintextNames */
};

#endif
