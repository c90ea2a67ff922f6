/* SPDX-License-Identifier: MIT */
/*
 * Small helpers shared by the fuzz targets in fuzz/: a cursor that takes
 * fixed-size fields from the fuzzer's input (zero bytes once it runs out,
 * so every input is usable), and FZ_CHECK, which reports a broken property
 * and aborts so that libFuzzer and the replay driver both see a crash.
 * Depends on: libc only. Test code: not constant time, not proved.
 */
#ifndef VCRYPTFS_FUZZ_UTIL_H
#define VCRYPTFS_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fz {
	const uint8_t *p; /* next unread byte */
	size_t n;	  /* bytes left */
};

static inline void fz_init(struct fz *f, const uint8_t *data, size_t size)
{
	f->p = data;
	f->n = size;
}

/* Copy the next len bytes to out; zero-fill what the input lacks. */
static inline void fz_bytes(struct fz *f, uint8_t *out, size_t len)
{
	size_t k = f->n;

	if (k > len)
		k = len;
	if (k > 0)
		memcpy(out, f->p, k);
	memset(out + k, 0, len - k);
	f->p += k;
	f->n -= k;
}

static inline uint8_t fz_u8(struct fz *f)
{
	uint8_t b[1];

	fz_bytes(f, b, 1);
	return b[0];
}

static inline uint16_t fz_u16(struct fz *f)
{
	uint8_t b[2];

	fz_bytes(f, b, 2);
	return (uint16_t)(b[0] | (b[1] << 8));
}

static inline uint32_t fz_u32(struct fz *f)
{
	uint8_t b[4];

	fz_bytes(f, b, 4);
	return (uint32_t)b[0] | ((uint32_t)b[1] << 8) | ((uint32_t)b[2] << 16) |
	       ((uint32_t)b[3] << 24);
}

/* A length in 0..max taken from two input bytes. */
static inline size_t fz_len(struct fz *f, size_t max)
{
	return (size_t)fz_u16(f) % (max + 1);
}

/* Report a broken property, with where it was checked, and crash. */
#define FZ_CHECK(cond, what)                                                   \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "FUZZ PROPERTY BROKEN: %s (%s:%d)\n",  \
				(what), __FILE__, __LINE__);                   \
			abort();                                               \
		}                                                              \
	} while (0)

#endif
