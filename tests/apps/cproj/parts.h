/* SPDX-License-Identifier: MIT */
/* the two parts of the 64-apps test program */
#ifndef PARTS_H
#define PARTS_H
unsigned long sum_to(unsigned long n);
const char *greeting(void);
#endif
