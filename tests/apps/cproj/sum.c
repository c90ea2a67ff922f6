/* SPDX-License-Identifier: MIT */
#include "parts.h"

unsigned long sum_to(unsigned long n)
{
	unsigned long s = 0;

	for (unsigned long i = 1; i <= n; i++)
		s += i;
	return s;
}
