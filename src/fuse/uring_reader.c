/* SPDX-License-Identifier: MIT */
/*
 * The reader threads of FUSE over io_uring: large READs that a ring thread
 * hands off (uring_hand_off) are served here, so that a streaming read
 * has more than one backing-file read in flight; the replies go back to
 * the ring thread, the only one that submits to its ring (uring.c).
 * Spec: as uring.c. Depends on: fuse/uring_int.h, libfuse3, pthreads.
 * Locks: R.lock (leaf) protects the queue and quit; R.n and R.tid
 * are written before the ring threads start and read after they ended.
 * Not proved.
 */
#include <pthread.h>
#include <sched.h>
#include <stddef.h>

#include "fuse/uring_int.h"

__thread int uring_is_reader;

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
	struct sched_param sp = { 0 };

	(void)arg;
	uring_is_reader = 1;
	/* the normal policy, whatever the thread that started it runs */
	(void)sched_setscheduler(0, SCHED_OTHER, &sp);
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
