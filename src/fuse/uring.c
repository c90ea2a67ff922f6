/* SPDX-License-Identifier: MIT */
/*
 * FUSE over io_uring. A request sent through /dev/fuse wakes a daemon
 * thread that usually sleeps on the other CPU, and its reply wakes the
 * caller back across CPUs: on the virtual machines measured here that
 * pair of cross-CPU wakeups is most of a round trip. With io_uring the
 * kernel puts each request on the ring of the CPU the caller runs on, and
 * the thread serving that ring is pinned to that CPU.
 *
 * libfuse 3.14 has no io_uring support, so this file sits beneath it as
 * its custom I/O (fuse_session_custom_io):
 *   - read: passes through; it notes the INIT request and whether the
 *     kernel offers FUSE_OVER_IO_URING in its flags;
 *   - writev: on the INIT reply it sets up one ring per possible CPU and
 *     adds the capability to the reply; afterwards a reply to a request
 *     that came from a ring becomes that ring's commit, and every other
 *     write (notifications, replies to requests read from /dev/fuse)
 *     goes to /dev/fuse as before. The kernel keeps sending FORGET and
 *     INTERRUPT through /dev/fuse.
 * Ring threads run SCHED_IDLE (see ring_main() for the measurement),
 * except while they stream large READs (uring_stream_mode()).
 * A ring thread rebuilds each request as libfuse expects it (the in
 * header and the per-opcode struct copied just in front of the payload,
 * which the kernel wrote into the buffer, so a WRITE's data is not
 * copied) and hands it to fuse_session_process_buf(). Large READs go
 * to reader threads instead (uring_reader.c); their replies come back to the
 * ring thread, the only one that submits to its ring.
 *
 * The kernel holds every request until each CPU's ring has registered an
 * entry; if any ring cannot start, a deliberately invalid registration
 * makes it fall back to /dev/fuse, so a failure here never hangs the
 * mount.
 * Spec: Linux Documentation/filesystems/fuse/fuse-io-uring.rst and the
 * structures of include/uapi/linux/fuse.h (protocol 7.42). Not proved.
 * Layout: the kernel ABI and the ring structures are uring_int.h, the
 * reader threads uring_reader.c; this file keeps the ring threads, the
 * INIT handshake and the custom I/O hooks, which share the per-thread
 * state (cur, did_reply) and U: about 600 lines that read as one story.
 */
#include <errno.h>
#include <liburing.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "fuse/uring.h"
#include "fuse/uring_int.h"
#include "fuse/scratch.h"
#include "base/log.h"

static struct {
	struct fuse_session *se;
	int fd;
	uint64_t init_unique;
	int init_seen;
	int offered;
	unsigned nq;
	struct ring_q *q;
	size_t payload_sz;
	int serving;  /* a ring has received a request (atomic) */
	int stopping; /* uring_stop() has begun (atomic) */
} U = { .fd = -1 };

static __thread struct ring_ent *cur;
static __thread int worker_idle;
/* set by queue_commit(): the request this thread serves has its reply
 * (a reader thread must not look at e once it has handed it back) */
static __thread int did_reply;

/* The reply buffer of the ring request that this thread is serving, or
 * NULL (registered with scratch_set_transport: fs_reply_buf asks it). */
static char *uring_reply_buf(size_t size)
{
	if (cur == NULL || size > U.payload_sz)
		return NULL;
	return (char *)cur->payload;
}

/* Number of possible CPUs (the kernel makes one queue for each). */
static unsigned possible_cpus(void)
{
	char buf[64];
	FILE *f = fopen("/sys/devices/system/cpu/possible", "re");
	const char *p;
	unsigned long hi = 0;
	char *end;

	if (f == NULL)
		return 0;
	if (fgets(buf, sizeof(buf), f) == NULL) {
		fclose(f);
		return 0;
	}
	fclose(f);
	/* "0-N", "0", or a list "0-3,8-11": the highest number counts */
	for (p = buf; *p != '\0' && *p != '\n';) {
		unsigned long v = strtoul(p, &end, 10);

		if (end == p)
			return 0;
		if (v > hi)
			hi = v;
		p = end;
		if (*p == '-' || *p == ',')
			p++;
	}
	return hi < 4096 ? (unsigned)hi + 1 : 0;
}

/* A FUSE command for ring qid about entry e; a REGISTER without an entry
 * carries no buffers (force_fallback()). */
static void prep_cmd(struct io_uring_sqe *sqe, unsigned qid, struct ring_ent *e,
		     uint32_t op, uint64_t commit_id)
{
	memset(sqe, 0, 128);
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = U.fd;
	sqe->cmd_op = op;
	io_uring_sqe_set_data(sqe, e);
	put64(sqe->cmd, CMD_COMMIT_ID, commit_id);
	put16(sqe->cmd, CMD_QID, (uint16_t)qid);
	if (op == K_CMD_REGISTER && e != NULL) {
		sqe->addr = (uint64_t)(uintptr_t)e->iov;
		sqe->len = 2;
	}
}

/* Queue the commit of e's reply, with the next fetch. Only the ring
 * thread touches its ring: a reader thread passes e back to it. */
static int queue_commit(struct ring_ent *e)
{
	struct io_uring_sqe *sqe;

	if (uring_is_reader) {
		struct ring_q *q = e->q;
		uint64_t one = 1;

		did_reply = 1;
		pthread_mutex_lock(&q->done_lock);
		e->next = q->done;
		q->done = e;
		pthread_mutex_unlock(&q->done_lock);
		(void)!write(q->done_fd, &one, sizeof(one));
		return 0;
	}
	sqe = io_uring_get_sqe(&e->q->ring);
	if (sqe == NULL)
		return -1; /* one SQE per entry: cannot happen */
	prep_cmd(sqe, e->q->qid, e, K_CMD_COMMIT_AND_FETCH,
		 get64(e->hdr, RH_COMMIT_ID));
	did_reply = 1;
	return 0;
}

/* Commit e with an error and no data. */
static void ring_error(struct ring_ent *e, int err)
{
	put32(e->hdr, RH_IN_OUT + OUT_LEN, OUT_SZ);
	put32(e->hdr, RH_IN_OUT + OUT_ERROR, (uint32_t)-err);
	put64(e->hdr, RH_IN_OUT + OUT_UNIQUE, e->unique);
	put32(e->hdr, RH_PAYLOAD_SZ, 0);
	(void)queue_commit(e);
}

/* A reply that libfuse writes for the ring request e. */
static ssize_t ring_reply(struct ring_ent *e, const struct iovec *iov,
			  int count)
{
	size_t len = 0;
	int32_t err;
	int i;

	if (iov[0].iov_len < OUT_SZ) {
		errno = EINVAL;
		return -1;
	}
	err = (int32_t)get32(iov[0].iov_base, OUT_ERROR);
	for (i = 1; i < count; i++)
		len += iov[i].iov_len;
	if (err != 0) {
		ring_error(e, -err);
		return (ssize_t)OUT_SZ;
	}
	if (len > U.payload_sz) {
		/* never for replies sized by the kernel's own request */
		log_error("io_uring reply of %zu bytes exceeds the buffer",
			  len);
		ring_error(e, EIO);
		return (ssize_t)OUT_SZ;
	}
	len = 0;
	for (i = 1; i < count; i++) {
		if (iov[i].iov_base != e->payload + len)
			memmove(e->payload + len, iov[i].iov_base,
				iov[i].iov_len);
		len += iov[i].iov_len;
	}
	put32(e->hdr, RH_IN_OUT + OUT_LEN, (uint32_t)(OUT_SZ + len));
	put32(e->hdr, RH_IN_OUT + OUT_ERROR, 0);
	put64(e->hdr, RH_IN_OUT + OUT_UNIQUE, e->unique);
	put32(e->hdr, RH_PAYLOAD_SZ, (uint32_t)len);
	if (queue_commit(e) != 0) {
		errno = EIO;
		return -1;
	}
	return (ssize_t)(OUT_SZ + len);
}

/* Rebuild the request the kernel placed in e as libfuse expects it, in
 * e->fb; 0, or -1 after an error reply (ring thread). */
static int serve_prep(struct ring_ent *e)
{
	uint32_t len = get32(e->hdr, RH_IN_OUT + IN_LEN);
	uint32_t psz = get32(e->hdr, RH_PAYLOAD_SZ);
	size_t arg0;
	uint8_t *start;

	e->unique = get64(e->hdr, RH_IN_OUT + IN_UNIQUE);
	if ((size_t)len < IN_SZ + (size_t)psz ||
	    (size_t)len - IN_SZ - psz > RH_OP_IN_SZ || psz > U.payload_sz) {
		log_error(
			"io_uring request with inconsistent sizes (opcode %u)",
			get32(e->hdr, RH_IN_OUT + IN_OPCODE));
		ring_error(e, EIO);
		return -1;
	}
	/* in header + per-opcode struct, then the payload where it lies */
	arg0 = (size_t)len - IN_SZ - psz;
	start = e->payload - arg0 - IN_SZ;
	memcpy(start, e->hdr + RH_IN_OUT, IN_SZ);
	memcpy(start + IN_SZ, e->hdr + RH_OP_IN, arg0);
	memset(&e->fb, 0, sizeof(e->fb));
	e->fb.mem = start;
	e->fb.size = len;
	e->fb.fd = -1;
	return 0;
}

/* See uring_int.h. */
void uring_serve(struct ring_ent *e)
{
	did_reply = 0;
	cur = e;
	fuse_session_process_buf(U.se, &e->fb);
	cur = NULL;
	/* did_reply is set through cur, by ring_reply() under libfuse */
	// cppcheck-suppress knownConditionTrueFalse
	if (!did_reply) {
		/* every operation replies, if only with an error */
		log_error("io_uring request without a reply (opcode %u)",
			  get32(e->hdr, RH_IN_OUT + IN_OPCODE));
		ring_error(e, EIO);
	}
}

/* Post the read of q's done eventfd (ring thread); 0 or -1. */
static int wait_done(struct ring_q *q)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&q->ring);

	if (sqe == NULL)
		return -1;
	io_uring_prep_read(sqe, q->done_fd, &q->done_val, sizeof(q->done_val),
			   0);
	io_uring_sqe_set_data(sqe, &q->done);
	return 0;
}

/* Commit the replies the reader threads made (ring thread). */
static void commit_done(struct ring_q *q)
{
	struct ring_ent *e;

	pthread_mutex_lock(&q->done_lock);
	e = q->done;
	q->done = NULL;
	pthread_mutex_unlock(&q->done_lock);
	while (e != NULL) {
		struct ring_ent *next = e->next;

		(void)queue_commit(e);
		if (q->out > 0)
			q->out--;
		e = next;
	}
}

/*
 * A ring thread could not start after the capability was granted: the
 * kernel holds requests until every CPU's ring registers, so make it give
 * up io_uring now with a registration it must refuse (no buffers).
 */
static void force_fallback(struct ring_q *q)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&q->ring);

	if (sqe == NULL)
		return;
	prep_cmd(sqe, q->qid, NULL, K_CMD_REGISTER, 0);
	(void)io_uring_submit(&q->ring);
}

static void *ring_main(void *arg)
{
	struct ring_q *q = arg;
	unsigned i;
	int live = (int)DEPTH;
	int quit = 0;
	int logged = 0;
	int normal = 0;		/* 1: in streaming mode (go_normal) */
	uint64_t last_hand = 0; /* uring_now_ms() of the last hand-off */

	/* an offline CPU refuses: the ring still works, unpinned */
	uring_pin(q->qid);
	/*
	 * SCHED_IDLE: the reply wakes the caller on this CPU instead of on
	 * the idle one. A CPU running only SCHED_IDLE threads counts as idle
	 * when the scheduler places a woken task, so the caller stays here
	 * and runs as soon as the commit is sent; with a normal policy it is
	 * moved to the other CPU, and its next request lands on that CPU's
	 * ring (a cross-CPU wakeup per round trip, the cost io_uring was
	 * meant to remove). Measured on a 2-vCPU guest: 18-20 us per round
	 * trip, 50-60 us with the normal policy, 40-50 us through /dev/fuse;
	 * with four CPU hogs running, 26-32 us against 32-106 us.
	 */
	uring_go_idle();
	/* a fresh ring has SQ_ENTRIES free SQEs: these cannot fail */
	for (i = 0; i < DEPTH; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&q->ring);

		if (sqe == NULL) {
			force_fallback(q);
			return NULL;
		}
		prep_cmd(sqe, q->qid, &q->ent[i], K_CMD_REGISTER, 0);
	}
	if (wait_done(q) != 0) {
		force_fallback(q);
		return NULL;
	}
	while (!quit && live > 0) {
		struct io_uring_cqe *cqe;
		unsigned head;
		unsigned n = 0;
		int rc;

		if (normal && q->out == 0 &&
		    uring_now_ms() - last_hand > URING_STAY_NORMAL_MS) {
			/* the last commits' copies still in streaming mode */
			(void)io_uring_submit(&q->ring);
			uring_pin(q->qid);
			uring_go_idle();
			normal = 0;
		}
		rc = io_uring_submit_and_wait(&q->ring, 1);

		/* leaving would strand this CPU's requests: wait, retry */
		if (rc < 0 && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY) {
			if (!logged)
				log_error("io_uring: ring of CPU %u: %s",
					  q->qid, strerror(-rc));
			logged = 1;
			(void)usleep(1000);
		}
		io_uring_for_each_cqe(&q->ring, head, cqe)
		{
			struct ring_ent *e = io_uring_cqe_get_data(cqe);

			n++;
			if ((void *)e == (void *)&q->done) {
				/* reader threads made replies, or uring_stop()
				 * wants this thread to end */
				if (__atomic_load_n(&U.stopping,
						    __ATOMIC_ACQUIRE))
					quit = 1;
				if (quit)
					continue;
				commit_done(q);
				if (wait_done(q) != 0 && !logged) {
					log_error(
						"io_uring: ring of CPU %u: no "
						"room to wait for replies",
						q->qid);
					logged = 1;
				}
				continue;
			}
			if (cqe->res < 0) {
				/* unmounted (ENOTCONN), or the kernel refused
				 * the entry: it falls back to /dev/fuse */
				live--;
				continue;
			}
			if (quit)
				continue;
			if (!__atomic_load_n(&U.serving, __ATOMIC_RELAXED))
				__atomic_store_n(&U.serving, 1,
						 __ATOMIC_RELAXED);
			if (serve_prep(e) == 0) {
				/* read before the hand-off: then e is the
				 * reader's */
				int big =
					get32(e->hdr, RH_IN_OUT + IN_OPCODE) ==
						K_FUSE_READ &&
					get32(e->hdr,
					      RH_OP_IN + READ_IN_SIZE) >=
						URING_STREAM_MIN;

				if (!uring_hand_off(e)) {
					uring_serve(e);
				} else {
					q->out++;
					if (big) {
						last_hand = uring_now_ms();
						if (!normal)
							uring_stream_mode();
						normal = 1;
					}
				}
			}
			/* more requests waiting: send this reply now */
			if (io_uring_cq_ready(&q->ring) > 1)
				(void)io_uring_submit(&q->ring);
		}
		io_uring_cq_advance(&q->ring, n);
	}
	return NULL;
}

static void free_rings(void)
{
	unsigned i, j;

	if (U.q == NULL)
		return;
	for (i = 0; i < U.nq; i++) {
		struct ring_q *q = &U.q[i];

		if (q->ring_ok)
			io_uring_queue_exit(&q->ring);
		if (q->done_ok) {
			close(q->done_fd);
			pthread_mutex_destroy(&q->done_lock);
		}
		for (j = 0; j < DEPTH; j++) {
			struct ring_ent *e = &q->ent[j];

			/* requests and replies passed through in plaintext */
			if (e->map != NULL) {
				explicit_bzero(e->map, HEADROOM + U.payload_sz);
				munmap(e->map, HEADROOM + U.payload_sz);
			}
			if (e->hdr != NULL)
				explicit_bzero(e->hdr, RH_SZ);
			free(e->hdr);
		}
	}
	free(U.q);
	U.q = NULL;
}

/* Rings and buffers for every possible CPU; 0, or -1 (nothing left). */
static int setup_rings(const uint8_t *o)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t need = K_MIN_READ_BUFFER;
	unsigned i, j;

	if ((size_t)get32(o, INIT_OUT_MAX_WRITE) > need)
		need = get32(o, INIT_OUT_MAX_WRITE);
	if ((size_t)get16(o, INIT_OUT_MAX_PAGES) * page > need)
		need = (size_t)get16(o, INIT_OUT_MAX_PAGES) * page;
	U.payload_sz = (need + page - 1) / page * page;
	U.nq = possible_cpus();
	if (U.nq == 0)
		return -1;
	U.q = calloc(U.nq, sizeof(*U.q));
	if (U.q == NULL)
		goto fail;
	for (i = 0; i < U.nq; i++) {
		struct ring_q *q = &U.q[i];
		struct io_uring_params p;

		q->qid = i;
		q->done_fd = eventfd(0, EFD_CLOEXEC);
		if (q->done_fd < 0)
			goto fail;
		pthread_mutex_init(&q->done_lock, NULL);
		q->done_ok = 1;
		memset(&p, 0, sizeof(p));
		p.flags = IORING_SETUP_SQE128 | IORING_SETUP_CQSIZE;
		p.cq_entries = 4 * SQ_ENTRIES;
		if (io_uring_queue_init_params(SQ_ENTRIES, &q->ring, &p) != 0)
			goto fail;
		q->ring_ok = 1;
		for (j = 0; j < DEPTH; j++) {
			struct ring_ent *e = &q->ent[j];
			void *m = mmap(NULL, HEADROOM + U.payload_sz,
				       PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			e->q = q;
			if (m == MAP_FAILED)
				goto fail;
			e->map = m;
			e->payload = e->map + HEADROOM;
			e->hdr = calloc(1, RH_SZ);
			if (e->hdr == NULL)
				goto fail;
			e->iov[0].iov_base = e->hdr;
			e->iov[0].iov_len = RH_SZ;
			e->iov[1].iov_base = e->payload;
			e->iov[1].iov_len = U.payload_sz;
		}
	}
	return 0;
fail:
	free_rings();
	return -1;
}

static void start_rings(void)
{
	unsigned i;

	/* readers first: a ring thread hands off only when some run */
	uring_readers_start(U.nq);
	for (i = 0; i < U.nq; i++) {
		if (pthread_create(&U.q[i].tid, NULL, ring_main, &U.q[i]) !=
		    0) {
			log_error("io_uring: cannot start the ring of CPU %u, "
				  "using /dev/fuse",
				  i);
			force_fallback(&U.q[i]);
			continue;
		}
		/* named for ps and tests/checks/61-uring.sh */
		(void)pthread_setname_np(U.q[i].tid, "vc-uring-ring");
		U.q[i].started = 1;
	}
}

static ssize_t io_read(int fd, void *buf, size_t count, void *userdata)
{
	ssize_t n = read(fd, buf, count);
	const uint8_t *b = buf;

	(void)userdata;
	/*
	 * Once the rings serve requests, /dev/fuse brings only FORGET and
	 * INTERRUPT, which nobody waits for: its worker threads drop to
	 * SCHED_IDLE too, so that waking one never preempts a ring thread
	 * in the middle of a caller's request on that CPU.
	 */
	if (!worker_idle && __atomic_load_n(&U.serving, __ATOMIC_RELAXED)) {
		worker_idle = 1;
		uring_go_idle();
	}
	if (n < (ssize_t)(IN_SZ + INIT_IN_MIN) || U.init_seen ||
	    get32(b, IN_OPCODE) != K_FUSE_INIT)
		return n;
	U.init_seen = 1;
	U.init_unique = get64(b, IN_UNIQUE);
	U.offered =
		(get32(b, IN_SZ + INIT_IN_FLAGS) & K_INIT_EXT) != 0 &&
		(get32(b, IN_SZ + INIT_IN_FLAGS2) & K_INIT2_OVER_IO_URING) != 0;
	return n;
}

static ssize_t io_writev(int fd, struct iovec *iov, int count, void *userdata)
{
	uint64_t unique;
	uint8_t *o;
	ssize_t n;

	(void)userdata;
	if (count < 1 || iov[0].iov_len < OUT_SZ)
		return writev(fd, iov, count);
	unique = get64(iov[0].iov_base, OUT_UNIQUE);
	if (cur != NULL && unique == cur->unique && unique != 0)
		return ring_reply(cur, iov, count);
	/* the hooks exist only when io_uring is allowed (uring_install) */
	if (!(U.offered && U.q == NULL && unique == U.init_unique &&
	      get32(iov[0].iov_base, OUT_ERROR) == 0 && count >= 2 &&
	      iov[1].iov_len >= INIT_OUT_MIN))
		return writev(fd, iov, count);
	/* the INIT reply: grant io_uring if every ring can be set up */
	o = iov[1].iov_base;
	if (setup_rings(o) != 0)
		return writev(fd, iov, count);
	put32(o, INIT_OUT_FLAGS, get32(o, INIT_OUT_FLAGS) | K_INIT_EXT);
	put32(o, INIT_OUT_FLAGS2,
	      get32(o, INIT_OUT_FLAGS2) | K_INIT2_OVER_IO_URING);
	n = writev(fd, iov, count);
	if (n < 0) {
		free_rings();
		return n;
	}
	start_rings();
	return n;
}

int uring_install(struct fuse_session *se, int allow)
{
	static const struct fuse_custom_io io = {
		.read = io_read,
		.writev = io_writev,
	};

	U.se = se;
	U.fd = fuse_session_fd(se);
	if (!allow)
		return 0;
	scratch_set_transport(uring_reply_buf);
	return fuse_session_custom_io(se, &io, U.fd) == 0 ? 0 : -1;
}

void uring_stop(void)
{
	uint64_t one = 1;
	unsigned i;

	if (U.q == NULL)
		return;
	__atomic_store_n(&U.stopping, 1, __ATOMIC_RELEASE);
	for (i = 0; i < U.nq; i++)
		(void)!write(U.q[i].done_fd, &one, sizeof(one));
	for (i = 0; i < U.nq; i++) {
		if (U.q[i].started)
			pthread_join(U.q[i].tid, NULL);
		U.q[i].started = 0;
	}
	/* a reader may still be serving: the buffers stay until it ends */
	uring_readers_stop();
	free_rings();
}
