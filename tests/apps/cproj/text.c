/* SPDX-License-Identifier: MIT */
#include "parts.h"

const char *greeting(void)
{
	return "hello from a mount";
}
