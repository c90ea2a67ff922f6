/* SPDX-License-Identifier: MIT */
/*
 * What bench_crypto.c and bench_gcm.c both need: the clock they time with
 * (wall time, or the thread's CPU time with -c), deterministic filler
 * bytes, and the cheap per-block IV change (the filesystem draws a fresh
 * IV per block; the random generator is not part of what is timed).
 * Header only: each benchmark is one translation unit.
 */
#ifndef VCRYPTFS_BENCH_UTIL_H
#define VCRYPTFS_BENCH_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* CLOCK_MONOTONIC, or CLOCK_THREAD_CPUTIME_ID when the caller sets it. */
static clockid_t bench_clock = CLOCK_MONOTONIC;

static inline double bench_now(void)
{
	struct timespec ts;

	clock_gettime(bench_clock, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* xorshift32 bytes from *state (the same sequence for the same seed). */
static inline void bench_fill(uint32_t *state, uint8_t *p, size_t n)
{
	uint32_t x = *state;

	for (size_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		p[i] = (uint8_t)x;
	}
	*state = x;
}

/* Count the first 8 bytes of iv up by one (little-endian). */
static inline void bench_next_iv(uint8_t *iv)
{
	for (int i = 0; i < 8 && ++iv[i] == 0; i++)
		;
}

#endif
