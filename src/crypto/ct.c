/* SPDX-License-Identifier: MIT */
/*
 * Constant-time compare and a wipe the optimiser cannot remove.
 * Depends on: libc (explicit_bzero). See ct.h.
 * Constant time: ct_compare reads every byte, whatever it finds.
 * Contracts: spec/ct.acsl, proved by WP.
 */
#include "crypto/ct.h"

#ifndef __FRAMAC__
#include <string.h>
#endif

/* see ct.h */
int ct_compare(const uint8_t *a, const uint8_t *b, size_t n)
{
	uint32_t d = 0;

	for (size_t i = 0; i < n; i++)
		d |= (uint32_t)(a[i] ^ b[i]);
	/* d < 256: (d - 1) >> 31 is 1 exactly when d == 0 */
	return (int)((uint32_t)(d - 1) >> 31) - 1;
}

/* see ct.h */
void ct_wipe(void *p, size_t n)
{
#ifdef __FRAMAC__
	volatile uint8_t *q = p;

	for (size_t i = 0; i < n; i++)
		q[i] = 0;
#else
	explicit_bzero(p, n);
#endif
}
