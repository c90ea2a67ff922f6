/* SPDX-License-Identifier: MIT */
/*
 * Internals shared by config.c (read, validate), config_save.c (write,
 * -init, -info) and config_key.c (master-key wrap). Not a public
 * interface: only these three files include it.
 * Not proved.
 */
#ifndef VCRYPTFS_FORMAT_CONFIG_INT_H
#define VCRYPTFS_FORMAT_CONFIG_INT_H

#include <stddef.h>
#include <stdint.h>

#include "format/config.h"

/* Formats one error line into err[errlen] (nothing when err is NULL). */
void config_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* 1 when the config has feature flag f. */
int config_has(const struct config *c, uint32_t f);

#endif
