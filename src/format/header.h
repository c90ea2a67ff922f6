/* SPDX-License-Identifier: MIT */
/*
 * The 18-byte gocryptfs file header: u16 BE version 2, then a 16-byte
 * random file ID. Build and parse only (the caller reads/writes the file).
 * Spec: ../shared/FORMAT.md 4.2.
 * Depends on: nothing (pure C for Frama-C WP). Used by content.c and the
 * FUSE layer. Not secret data; not constant time.
 * Contracts: this header (ACSL to be added by the proofs work).
 */
#ifndef VCRYPTFS_HEADER_H
#define VCRYPTFS_HEADER_H

#include <stdint.h>

#define HEADER_LEN 18
#define HEADER_VERSION 2
#define HEADER_ID_LEN 16

/* out = 00 02 || file_id. No overlap. */
void header_build(uint8_t out[18], const uint8_t file_id[16]);

/*
 * Parse an 18-byte header. Returns 0 and copies the file ID into file_id,
 * or -EIO (file_id untouched) when the header is all zero, the version is
 * not 2, or the file ID is all zero.
 */
int header_parse(uint8_t file_id[16], const uint8_t in[18]);

#endif
