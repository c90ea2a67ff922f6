/* SPDX-License-Identifier: MIT */
/*
 * Private to uring.c and uring_reader.c: the kernel ABI of FUSE over
 * io_uring as byte offsets, the ring structures, and the calls between
 * the ring threads and the reader threads.
 * Spec: Linux Documentation/filesystems/fuse/fuse-io-uring.rst and the
 * structures of include/uapi/linux/fuse.h (protocol 7.42). Depends on:
 * liburing, libfuse3. Not proved.
 */
#ifndef VCRYPTFS_FUSE_URING_INT_H
#define VCRYPTFS_FUSE_URING_INT_H

#include <liburing.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/uio.h>

#include "fuse/uring.h"

/*
 * ---- kernel ABI (include/uapi/linux/fuse.h), as byte offsets ----
 * Only the fields used here; the structures are read and written with
 * memcpy at these offsets (native byte order, as the kernel uses).
 */
#define K_FUSE_INIT 26U
#define K_FUSE_READ 15U
#define K_INIT_EXT (1U << 30)
#define K_INIT2_OVER_IO_URING (1U << 9) /* FUSE_OVER_IO_URING >> 32 */
#define K_CMD_REGISTER 1U
#define K_CMD_COMMIT_AND_FETCH 2U
#define K_MIN_READ_BUFFER 8192U
/* struct fuse_in_header: 40 bytes */
#define IN_SZ 40U
#define IN_LEN 0U
#define IN_OPCODE 4U
#define IN_UNIQUE 8U
/* struct fuse_out_header: 16 bytes */
#define OUT_SZ 16U
#define OUT_LEN 0U
#define OUT_ERROR 4U
#define OUT_UNIQUE 8U
/* struct fuse_read_in (the op struct of a READ) */
#define READ_IN_SIZE 16U
/* struct fuse_init_in (after the in header) */
#define INIT_IN_FLAGS 12U
#define INIT_IN_FLAGS2 16U
#define INIT_IN_MIN 20U
/* struct fuse_init_out (after the out header) */
#define INIT_OUT_FLAGS 12U
#define INIT_OUT_MAX_WRITE 20U
#define INIT_OUT_MAX_PAGES 28U /* 16 bits */
#define INIT_OUT_FLAGS2 32U
#define INIT_OUT_MIN 36U
/* struct fuse_uring_req_header: in_out[128], op_in[128], then struct
 * fuse_uring_ent_in_out (flags, commit_id, payload_sz, ...): 288 bytes */
#define RH_SZ 288U
#define RH_IN_OUT 0U
#define RH_OP_IN 128U
#define RH_OP_IN_SZ 128U
#define RH_COMMIT_ID 264U
#define RH_PAYLOAD_SZ 272U
/* struct fuse_uring_cmd_req, in the SQE's 80-byte command area */
#define CMD_COMMIT_ID 8U
#define CMD_QID 16U /* 16 bits */

static inline uint16_t get16(const void *p, size_t off)
{
	uint16_t v;

	memcpy(&v, (const uint8_t *)p + off, sizeof(v));
	return v;
}

static inline uint32_t get32(const void *p, size_t off)
{
	uint32_t v;

	memcpy(&v, (const uint8_t *)p + off, sizeof(v));
	return v;
}

static inline uint64_t get64(const void *p, size_t off)
{
	uint64_t v;

	memcpy(&v, (const uint8_t *)p + off, sizeof(v));
	return v;
}

static inline void put16(void *p, size_t off, uint16_t v)
{
	memcpy((uint8_t *)p + off, &v, sizeof(v));
}

static inline void put32(void *p, size_t off, uint32_t v)
{
	memcpy((uint8_t *)p + off, &v, sizeof(v));
}

static inline void put64(void *p, size_t off, uint64_t v)
{
	memcpy((uint8_t *)p + off, &v, sizeof(v));
}

/* ---- our state ---- */

/* Entries per CPU ring: requests that one CPU can have in flight. */
#define DEPTH 4U
/* Room in front of each payload for the rebuilt in header and op struct. */
#define HEADROOM 4096U
/* READs of at least this many bytes go to a reader thread (see ring_main). */
#define HAND_OFF_MIN (64U * 1024U)
/* Reader threads: one per CPU, at least MIN_READERS (a large READ mostly
 * waits for the disk: the read-ahead window of mount.c keeps four 1 MiB
 * READs in flight), at most MAX_READERS. */
#define MIN_READERS 4U
#define MAX_READERS 8U
/* SQEs a ring thread may queue before it submits: a commit per entry and
 * the read of its done eventfd */
#define SQ_ENTRIES (DEPTH + 1U)

struct ring_q;

struct ring_ent {
	struct ring_q *q;
	uint8_t *hdr;	  /* RH_SZ bytes, written by the kernel */
	uint8_t *map;	  /* HEADROOM + payload, one mapping */
	uint8_t *payload; /* map + HEADROOM */
	struct iovec iov[2];
	uint64_t unique;
	struct fuse_buf fb;    /* the rebuilt request (serve_prep) */
	struct ring_ent *next; /* in the readers' queue or a done list */
};

struct ring_q {
	struct io_uring ring;
	int ring_ok;
	pthread_t tid;
	int started;
	unsigned qid;
	struct ring_ent ent[DEPTH];
	/* replies made by reader threads, committed by the ring thread */
	pthread_mutex_t done_lock;
	struct ring_ent *done;
	int done_fd; /* eventfd: done is not empty, or uring_stop() */
	int done_ok; /* done_fd and done_lock exist */
	uint64_t done_val;
	unsigned out; /* READs with reader threads (ring thread only) */
};

/* uring.c: serve the prepared request e on this thread (ring or reader
 * thread); every request gets exactly one reply. */
void uring_serve(struct ring_ent *e);
/* uring_reader.c: 1 if e (a large READ) was queued for a reader thread,
 * 0 when it is to be served on the ring thread (no readers, or not a large
 * READ). Called by ring threads. */
int uring_hand_off(struct ring_ent *e);
/* uring_reader.c: start the reader threads for nq rings (before the ring
 * threads start), and stop and join them (after the ring threads ended). */
void uring_readers_start(unsigned nq);
void uring_readers_stop(void);
/* uring_reader.c: scheduling of a ring thread. Home: pinned to its CPU
 * (uring_pin) at SCHED_IDLE (uring_go_idle); streaming mode, from a
 * hand-off of a READ of URING_STREAM_MIN bytes or more until
 * URING_STAY_NORMAL_MS after the last one, with no hand-off left
 * out: the normal policy on the daemon's CPUs (uring_stream_mode; the
 * measurement is at its definition). uring_now_ms: CLOCK_MONOTONIC_COARSE
 * in ms. */
#define URING_STAY_NORMAL_MS 20U
/* READs of at least this many bytes start or extend streaming mode: the
 * read-ahead of a long sequential read grows to 1 MiB READs, while
 * reading many small files (READs of 64-256 KiB, handed off too) keeps
 * the pinned SCHED_IDLE round trip, which streaming mode would cost it
 * (find | xargs cat of 12,000 files on tmpfs: 1.2-1.4 s at home, 2.4-3.2
 * s with every hand-off in streaming mode). */
#define URING_STREAM_MIN (512U * 1024U)
void uring_pin(unsigned cpu);
void uring_go_idle(void);
void uring_stream_mode(void);
uint64_t uring_now_ms(void);
/* 1 on a reader thread (its replies go through the ring thread). */
extern __thread int uring_is_reader;

#endif
