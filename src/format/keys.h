/* SPDX-License-Identifier: MIT */
/*
 * From the 32-byte master key and the feature flags to a struct volume:
 * HKDF-SHA256 subkeys with gocryptfs's info strings, or the legacy keys of
 * configs without HKDF (EME key = AES-GCM key = master key, AES-SIV key =
 * SHA-512(master key)).
 * Spec: ../shared/FORMAT.md section 3 (and 2.3 for the flags).
 * Depends on: crypto/kdf.h, libcrypto SHA-512, base/secmem.h, format/config.h,
 * format/volume.h. Keys live in secmem and are wiped by volume_free().
 */
#ifndef VCRYPTFS_KEYS_H
#define VCRYPTFS_KEYS_H

#include <stdint.h>

#include "format/config.h"
#include "format/volume.h"

/* HKDF info strings (ASCII, used without terminator: sizeof - 1). */
#define KEYS_INFO_EME "EME filename encryption"
#define KEYS_INFO_GCM "AES-GCM file content encryption"
#define KEYS_INFO_SIV "AES-SIV file content encryption"
#define KEYS_INFO_XCHACHA "XChaCha20-Poly1305 file content encryption"

#define KEYS_MASTER_LEN 32

/*
 * Fill *v (overwritten; no need to zero first) for a volume with content
 * cipher `cipher`, VOL_* flags vol_flags and long-name limit longnamemax
 * (1..255). Derives the EME key and the one content key of that cipher:
 * with VOL_HKDF by HKDF, otherwise the legacy way; CIPHER_XCHACHA without
 * VOL_HKDF is refused. On failure *v holds no key.
 * Returns 0, -EINVAL (bad combination) or -ENOMEM.
 */
int keys_derive(struct volume *v, const uint8_t master_key[KEYS_MASTER_LEN],
		enum content_cipher cipher, uint32_t vol_flags,
		unsigned longnamemax);

/*
 * keys_derive() with cipher, flags and limit taken from a validated
 * config (LongNameMax member, else 255). Returns 0 or -errno.
 */
int keys_from_config(struct volume *v, const struct config *c,
		     const uint8_t master_key[KEYS_MASTER_LEN]);

/* Wipe and free the keys of *v; v stays safe to free again. */
void volume_free(struct volume *v);

#endif
