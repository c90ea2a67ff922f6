/* SPDX-License-Identifier: MIT */
/*
 * The reader threads of FUSE over io_uring: large READs that a ring thread
 * hands off (uring_hand_off) are served here, so that a streaming read
 * has more than one backing-file read in flight; the replies go back to
 * the ring thread, the only one that submits to its ring (uring.c), which
 * meanwhile runs in streaming mode (uring_stream_mode below).
 * Spec: as uring.c. Depends on: fuse/uring_int.h, libfuse3, pthreads.
 * Locks: R.lock (leaf) protects the queue and quit; R.n and R.tid
 * are written before the ring threads start and read after they ended.
 * Not proved.
 */
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "fuse/uring_int.h"
#include "sys/sys.h"

__thread int uring_is_reader;

/* See uring_int.h. */
void uring_go_idle(void)
{
	struct sched_param sp = { 0 };

	(void)sched_setscheduler(0, SCHED_IDLE, &sp);
}

/* See uring_int.h. */
void uring_pin(unsigned cpu)
{
	cpu_set_t cs;

	CPU_ZERO(&cs);
	CPU_SET(cpu, &cs);
	(void)pthread_setaffinity_np(pthread_self(), sizeof(cs), &cs);
}

/* See uring_int.h. */
uint64_t uring_now_ms(void)
{
	struct timespec ts;

	(void)clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (uint64_t)ts.tv_sec * 1000U + (uint64_t)ts.tv_nsec / 1000000U;
}

/*
 * Streaming mode of a ring thread: from a READ of URING_STREAM_MIN bytes
 * or more that it hands to a reader thread until URING_STAY_NORMAL_MS
 * after the last such READ with none left out, the ring thread runs with
 * the normal policy on any CPU. The
 * readers' replies come back through it, and the kernel copies each reply
 * (up to 1 MiB) into the page cache inside the commit that this thread
 * submits; the next read-ahead READs also wait for it to fetch them.
 * Pinned at SCHED_IDLE it got the CPU only when the reading program
 * blocked on a page, so a streaming read moved in steps; any other
 * running process (even at nice 10) starved it further. Measured on a
 * 2-vCPU guest, tmpfs, 400 MiB dd after a remount, 8 alternating rounds,
 * medians: 1.16 GB/s pinned at SCHED_IDLE, 1.20 GB/s at the normal policy
 * still pinned, 1.27 GB/s normal and unpinned; gocryptfs 0.77 GB/s,
 * /dev/fuse 1.33 GB/s (under load: the whole-system figures are in
 * README.md). Small requests keep the pinned SCHED_IDLE round trip: the
 * thread goes back at the first wakeup after the quiet time.
 */
void uring_stream_mode(void)
{
	sys_thread_normal();
}

/* Reader threads: READs handed off by the ring threads. */
static struct {
	pthread_mutex_t lock;
	pthread_cond_t more;
	struct ring_ent *head, *tail;
	int quit;
	unsigned n;
	pthread_t tid[MAX_READERS];
} R = { .lock = PTHREAD_MUTEX_INITIALIZER, .more = PTHREAD_COND_INITIALIZER };

/*
 * A large READ goes to a reader thread: served on the ring thread, a
 * streaming read had one backing-file read at a time, since the kernel
 * puts all of a reader's read-ahead on the ring of the reader's CPU.
 * Returns 1 if e was handed off.
 */
int uring_hand_off(struct ring_ent *e)
{
	if (R.n == 0 || get32(e->hdr, RH_IN_OUT + IN_OPCODE) != K_FUSE_READ ||
	    get32(e->hdr, RH_OP_IN + READ_IN_SIZE) < HAND_OFF_MIN)
		return 0;
	e->next = NULL;
	pthread_mutex_lock(&R.lock);
	if (R.tail != NULL)
		R.tail->next = e;
	else
		R.head = e;
	R.tail = e;
	pthread_cond_signal(&R.more);
	pthread_mutex_unlock(&R.lock);
	return 1;
}

static void *reader_main(void *arg)
{
	(void)arg;
	uring_is_reader = 1;
	/* the normal policy, whatever the thread that started it runs */
	sys_thread_normal();
	pthread_mutex_lock(&R.lock);
	for (;;) {
		struct ring_ent *e;

		while (R.head == NULL && !R.quit)
			pthread_cond_wait(&R.more, &R.lock);
		if (R.quit)
			break;
		e = R.head;
		R.head = e->next;
		if (R.head == NULL)
			R.tail = NULL;
		pthread_mutex_unlock(&R.lock);
		uring_serve(e);
		pthread_mutex_lock(&R.lock);
	}
	pthread_mutex_unlock(&R.lock);
	return NULL;
}

void uring_readers_start(unsigned nq)
{
	unsigned nr = nq < MIN_READERS ? MIN_READERS : nq;

	for (unsigned i = 0; i < nr && i < MAX_READERS; i++) {
		if (pthread_create(&R.tid[i], NULL, reader_main, NULL) != 0)
			break;
		/* named for ps and tests/checks/61-uring.sh */
		(void)pthread_setname_np(R.tid[i], "vc-uring-read");
		R.n = i + 1;
	}
}

void uring_readers_stop(void)
{
	unsigned i;

	pthread_mutex_lock(&R.lock);
	R.quit = 1;
	R.head = R.tail = NULL;
	pthread_cond_broadcast(&R.more);
	pthread_mutex_unlock(&R.lock);
	for (i = 0; i < R.n; i++)
		pthread_join(R.tid[i], NULL);
	R.n = 0;
}
