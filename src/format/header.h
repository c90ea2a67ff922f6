/* SPDX-License-Identifier: MIT */
/*
 * The 18-byte gocryptfs file header: u16 BE version 2, then a 16-byte
 * random file ID. Build and parse only (the caller reads/writes the file).
 * Spec: ../shared/FORMAT.md 4.2.
 * Depends on: nothing (pure C for Frama-C WP). Used by content.c and the
 * FUSE layer. Not secret data; not constant time.
 * Contracts: this header (spec/header.acsl), proved by Frama-C WP
 * (proofs/, component header).
 */
#ifndef VCRYPTFS_HEADER_H
#define VCRYPTFS_HEADER_H

#include <stdint.h>

#ifdef __FRAMAC__
#include <errno.h>
#include "../../spec/header.acsl"
#endif

#define HEADER_LEN 18
#define HEADER_VERSION 2
#define HEADER_ID_LEN 16

/* out = 00 02 || file_id. No overlap. */
/*@ requires valid_out: \valid(out + (0 .. 17));
    requires valid_id: \valid_read(file_id + (0 .. 15));
    requires sep: \separated(out + (0 .. 17), file_id + (0 .. 15));
    assigns out[0 .. 17];
    ensures version: out[0] == 0 && out[1] == HEADER_VERSION;
    ensures id: \forall integer i; 0 <= i < 16 ==>
      out[2 + i] == \old(file_id[i]);
 */
void header_build(uint8_t out[18], const uint8_t file_id[16]);

/*
 * Parse an 18-byte header. Returns 0 and copies the file ID into file_id,
 * or -EIO (file_id untouched) when the header is all zero, the version is
 * not 2, or the file ID is all zero.
 */
/*@ requires valid_id: \valid(file_id + (0 .. 15));
    requires valid_in: \valid_read(in + (0 .. 17));
    requires sep: \separated(file_id + (0 .. 15), in + (0 .. 17));
    assigns file_id[0 .. 15];
    behavior accepted:
      assumes in[0] == 0 && in[1] == HEADER_VERSION &&
              !(\forall integer i; 0 <= i < 16 ==> in[2 + i] == 0);
      assigns file_id[0 .. 15];
      ensures ok: \result == 0;
      ensures id: \forall integer i; 0 <= i < 16 ==>
        file_id[i] == \old(in[2 + i]);
    behavior rejected:
      assumes in[0] != 0 || in[1] != HEADER_VERSION ||
              (\forall integer i; 0 <= i < 16 ==> in[2 + i] == 0);
      assigns \nothing;
      ensures eio: \result == -EIO;
    complete behaviors;
    disjoint behaviors;
 */
int header_parse(uint8_t file_id[16], const uint8_t in[18]);

#endif
