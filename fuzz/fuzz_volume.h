/* SPDX-License-Identifier: MIT */
/*
 * Unlocked volumes for the parser fuzz targets: the master keys of the two
 * gocryptfs 2.3 example cipherdirs (../shared/FORMAT.md 14.1, 14.2) run
 * through keys_derive() with several flag sets, so that seeds taken from
 * the real example files decrypt, and mutations explore every name and
 * content variant (Raw64 or padded base64, DirIV or deterministic,
 * PlaintextNames, AES-GCM, AES-SIV, XChaCha20-Poly1305, LongNameMax 64).
 * Depends on: format/keys.h, format/volume.h. Test code only.
 * The volumes are made once per process and never freed.
 */
#ifndef VCRYPTFS_FUZZ_VOLUME_H
#define VCRYPTFS_FUZZ_VOLUME_H

#include "format/keys.h"
#include "format/volume.h"
#include "fuzz_util.h"

enum fz_vol {
	FZV_GCM = 0,	/* example 14.1: HKDF GCMIV128 DirIV EMENames LongNames
			   Raw64 */
	FZV_XCHACHA,	/* example 14.2: same flags, XChaCha20Poly1305 */
	FZV_SIV_PAD,	/* AES-SIV, padded base64 (no Raw64) */
	FZV_PLAIN,	/* PlaintextNames */
	FZV_DET_LONG64, /* deterministic names (no DirIV), LongNameMax 64 */
	FZV_N
};

#define FZV_NAMEFLAGS (VOL_HKDF | VOL_EMENAMES | VOL_LONGNAMES)

static inline const struct volume *fz_volume(unsigned sel)
{
	/* master keys of the two example cipherdirs (FORMAT.md 14.1, 14.2) */
	static const uint8_t mk_gcm[32] = {
		0xde, 0x59, 0x19, 0x21, 0x23, 0xbe, 0x4e, 0xf3,
		0x80, 0xb8, 0xe1, 0x9e, 0x3e, 0x77, 0xec, 0xb0,
		0x93, 0x49, 0xfa, 0x48, 0xeb, 0xe2, 0x8b, 0x53,
		0xe0, 0x98, 0xc8, 0x4a, 0x02, 0x06, 0x56, 0x04,
	};
	static const uint8_t mk_xchacha[32] = {
		0x67, 0x8e, 0xd4, 0x0f, 0x44, 0x83, 0x1f, 0xef,
		0x7e, 0x1b, 0x60, 0xa8, 0x7d, 0xce, 0x50, 0x23,
		0x3a, 0x41, 0x05, 0xe4, 0xd3, 0xa0, 0x7e, 0xad,
		0xd4, 0x57, 0x82, 0xb2, 0x11, 0x0d, 0xc0, 0x3e,
	};
	static struct volume vols[FZV_N];
	static int ready;

	if (!ready) {
		FZ_CHECK(keys_derive(&vols[FZV_GCM], mk_gcm, CIPHER_AES_GCM,
				     FZV_NAMEFLAGS | VOL_DIRIV | VOL_RAW64,
				     255) == 0,
			 "keys_derive gcm");
		FZ_CHECK(keys_derive(&vols[FZV_XCHACHA], mk_xchacha,
				     CIPHER_XCHACHA,
				     FZV_NAMEFLAGS | VOL_DIRIV | VOL_RAW64,
				     255) == 0,
			 "keys_derive xchacha");
		FZ_CHECK(keys_derive(&vols[FZV_SIV_PAD], mk_gcm, CIPHER_AES_SIV,
				     FZV_NAMEFLAGS | VOL_DIRIV, 255) == 0,
			 "keys_derive siv");
		FZ_CHECK(keys_derive(&vols[FZV_PLAIN], mk_gcm, CIPHER_AES_GCM,
				     VOL_HKDF | VOL_PLAINTEXTNAMES, 255) == 0,
			 "keys_derive plaintextnames");
		FZ_CHECK(keys_derive(&vols[FZV_DET_LONG64], mk_xchacha,
				     CIPHER_XCHACHA, FZV_NAMEFLAGS | VOL_RAW64,
				     64) == 0,
			 "keys_derive deterministic");
		ready = 1;
	}
	return &vols[sel % FZV_N];
}

#endif
