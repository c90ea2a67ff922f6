/* SPDX-License-Identifier: MIT */
/*
 * Constant-time compare and a wipe the optimiser cannot remove.
 * Depends on: libc (explicit_bzero). See ct.h.
 * Constant time: ct_compare reads every byte, whatever it finds (its
 * ghost counter reads: WP proves that every call reads all n pairs).
 * Contracts: spec/ct.acsl, proved by WP.
 */
#include "crypto/ct.h"

#ifndef __FRAMAC__
#include <string.h>
#endif

/* see ct.h */
int ct_compare(const uint8_t *a, const uint8_t *b, size_t n)
/*@ ghost (size_t \ghost *reads) */
{
	uint32_t d = 0;

	/*@ ghost *reads = 0; */
	/*@ loop invariant bound: 0 <= i <= n;
	    loop invariant small: d <= 255;
	    loop invariant zero: d == 0 <==> ct_equal(a, b, i);
	    loop invariant reads: *reads == i;
	    loop assigns i, d, *reads;
	    loop variant n - i;
	 */
	for (size_t i = 0; i < n; i++) {
		d |= (uint32_t)(a[i] ^ b[i]);
		/*@ ghost (*reads)++; */
	}
	/* d < 256: (d - 1) >> 31 is 1 exactly when d == 0 */
	/*@ assert hint_eq: d == 0 ==> ((uint32_t)(d - 1) >> 31) == 1; */
	/*@ assert hint_ne: d != 0 ==> ((uint32_t)(d - 1) >> 31) == 0; */
#ifdef VCRYPTFS_CT_CHECK
	/* the accept/reject is public by design (ct.h, tests/ct/); Frama-C
	 * and the normal build see only the return below */
	d = (uint32_t)(d - 1) >> 31;
	ct_public(&d, sizeof(d));
	return (int)d - 1;
#else
	return (int)((uint32_t)(d - 1) >> 31) - 1;
#endif
}

/* see ct.h */
void ct_wipe(void *p, size_t n)
{
#ifdef __FRAMAC__
	/* the model of explicit_bzero: what WP proves the contract against */
	uint8_t *q = p;

	/*@ loop invariant 0 <= i <= n;
	    loop invariant \forall integer k; 0 <= k < i ==> q[k] == 0;
	    loop assigns i, q[0 .. n - 1];
	    loop variant n - i;
	 */
	for (size_t i = 0; i < n; i++)
		q[i] = 0;
#else
	explicit_bzero(p, n);
#endif
}
