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
	for (int i = 0; i < HEADER_ID_LEN; i++)
		out[2 + i] = file_id[i];
}

int header_parse(uint8_t file_id[16], const uint8_t in[18])
{
	int nonzero = 0;

	/* an all-zero header fails here too: its version is 0 */
	if (in[0] != 0 || in[1] != HEADER_VERSION)
		return -EIO;
	for (int i = 0; i < HEADER_ID_LEN; i++)
		if (in[2 + i] != 0)
			nonzero = 1;
	if (!nonzero)
		return -EIO;
	for (int i = 0; i < HEADER_ID_LEN; i++)
		file_id[i] = in[2 + i];
	return 0;
}
