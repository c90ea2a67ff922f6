/* SPDX-License-Identifier: MIT */
/* the 64-apps test program: prints what its parts compute */
#include <stdio.h>

#include "parts.h"

int main(void)
{
	printf("%s %lu\n", greeting(), sum_to(1000));
	return 0;
}
