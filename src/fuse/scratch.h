/* SPDX-License-Identifier: MIT */
/*
 * Per-thread scratch buffers, kept for the thread's lifetime: allocating
 * 128 KiB+ per request would go through mmap/munmap and page faults each
 * time. c: ciphertext, p: plaintext blocks, n: nonces (used by rw_*.c);
 * and the reply buffer of reads (fs_reply_buf), which a transport (the
 * io_uring rings) may provide instead, so that no operation knows the
 * transport.
 * Spec: none. Depends on: libc, secmem.h. Thread-safety: every buffer
 * belongs to the calling thread, wiped and freed at its exit.
 */
#ifndef VCRYPTFS_FUSE_SCRATCH_H
#define VCRYPTFS_FUSE_SCRATCH_H

#include <stddef.h>
#include <stdint.h>

/* Alignment of c (O_DIRECT reads land there). */
#define SCRATCH_ALIGN ((size_t)4096)

/* One thread's buffers; r/rcap: its own reply buffer. */
struct scratch {
	uint8_t *c;
	uint8_t *p;
	uint8_t *n; /* nonces, 24 bytes per block */
	char *r;
	size_t nblocks; /* capacity of c and p in blocks */
	size_t rcap;
};

/* This thread's block buffers for nb blocks (c: nb ciphertext blocks plus
 * 2 * SCRATCH_ALIGN, aligned; p: nb * 4096; n: nb * 24), or NULL on
 * ENOMEM. */
struct scratch *scratch_blocks(size_t nb);

/* A transport's reply buffer for the request this thread serves, or NULL
 * (not its request, or smaller than size). */
typedef char *(*scratch_reply_fn)(size_t size);
/* Register the transport's reply buffers; call before the workers start. */
void scratch_set_transport(scratch_reply_fn fn);

/* The reply buffer of a read of size bytes: the transport's when it gives
 * one (data placed there reaches the kernel without a copy), else this
 * thread's own (kept for its lifetime); NULL on ENOMEM. */
char *fs_reply_buf(size_t size);

#endif
