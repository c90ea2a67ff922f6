/* SPDX-License-Identifier: MIT */
/*
 * File header build/parse. See header.h. Spec: ../shared/FORMAT.md 4.2.
 * Depends on: errno.h only. Pure C for Frama-C WP.
 */
#include "format/header.h"

#include <errno.h>

void header_build(uint8_t out[18], const uint8_t file_id[16])
{
	out[0] = 0;
	out[1] = HEADER_VERSION;
	/*@ loop invariant 0 <= i <= HEADER_ID_LEN;
	    loop invariant \forall integer k; 0 <= k < i ==>
	      out[2 + k] == file_id[k];
	    loop assigns i, out[2 .. 17];
	    loop variant HEADER_ID_LEN - i;
	 */
	for (int i = 0; i < HEADER_ID_LEN; i++)
		out[2 + i] = file_id[i];
}

int header_parse(uint8_t file_id[16], const uint8_t in[18])
{
	int nonzero = 0;
	/*@ ghost int seen = 0; */

	/* an all-zero header fails here too: its version is 0 */
	if (in[0] != 0 || in[1] != HEADER_VERSION)
		return -EIO;
	/*@ loop invariant 0 <= i <= HEADER_ID_LEN;
	    loop invariant nonzero == 0 || nonzero == 1;
	    loop invariant zero: nonzero == 0 ==>
	      (\forall integer k; 0 <= k < i ==> in[2 + k] == 0);
	    loop invariant seen: nonzero == 1 ==>
	      0 <= seen < i && in[2 + seen] != 0;
	    loop assigns i, nonzero, seen;
	    loop variant HEADER_ID_LEN - i;
	 */
	for (int i = 0; i < HEADER_ID_LEN; i++) {
		if (in[2 + i] != 0) {
			nonzero = 1;
			/*@ ghost seen = i; */
		}
	}
	if (!nonzero)
		return -EIO;
	/*@ assert found: \exists integer k; 0 <= k < 16 && in[2 + k] != 0; */
	/*@ loop invariant 0 <= i <= HEADER_ID_LEN;
	    loop invariant same: \forall integer k; 0 <= k < 18 ==>
	      in[k] == \at(in[k], Pre);
	    loop invariant \forall integer k; 0 <= k < i ==>
	      file_id[k] == \at(in[2 + k], Pre);
	    loop assigns i, file_id[0 .. 15];
	    loop variant HEADER_ID_LEN - i;
	 */
	for (int i = 0; i < HEADER_ID_LEN; i++)
		file_id[i] = in[2 + i];
	return 0;
}
