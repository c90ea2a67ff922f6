/* SPDX-License-Identifier: MIT */
/*
 * Per-thread scratch buffers of the FUSE workers and the reply buffer of
 * reads: see scratch.h.
 * Spec: none (memory management). Depends on: fuse/scratch.h, secmem.h
 * (plaintext is wiped before it is freed), format/content.h (block
 * sizes), libc. The buffers are thread local (no lock); transport_reply
 * is set before the workers start. Not proved.
 */
#include "fuse/scratch.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "format/content.h"
#include "base/secmem.h"

static scratch_reply_fn transport_reply; /* set before threads start */

static pthread_key_t scratch_key;
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;
static _Thread_local struct scratch tl_scratch;
static _Thread_local int tl_registered;

/* Thread exit: wipe and free this thread's buffers (arg = &tl_scratch). */
static void scratch_free(void *arg)
{
	struct scratch *s = arg;

	if (s->p != NULL)
		secmem_wipe(s->p, s->nblocks * CONTENT_PLAIN_BS);
	if (s->r != NULL)
		secmem_wipe(s->r, s->rcap);
	free(s->c);
	free(s->p);
	free(s->n);
	free(s->r);
	memset(s, 0, sizeof(*s));
}

static void scratch_init(void)
{
	(void)pthread_key_create(&scratch_key, scratch_free);
}

static struct scratch *scratch_self(void)
{
	(void)pthread_once(&scratch_once, scratch_init);
	if (!tl_registered) {
		if (pthread_setspecific(scratch_key, &tl_scratch) != 0)
			return NULL;
		tl_registered = 1;
	}
	return &tl_scratch;
}

/* Block buffers for nb blocks (c: nb ciphertext blocks, p: nb * 4096). */
struct scratch *scratch_blocks(size_t nb)
{
	struct scratch *s = scratch_self();

	if (s == NULL)
		return NULL;
	if (s->nblocks < nb) {
		size_t want = nb < 257 ? 257 : nb;
		/* aligned, and room for an aligned read around the blocks */
		uint8_t *c = NULL;
		uint8_t *p = malloc(want * CONTENT_PLAIN_BS);
		uint8_t *n = malloc(want * 24);

		if (posix_memalign(
			    (void **)&c, SCRATCH_ALIGN,
			    want * (CONTENT_PLAIN_BS + CONTENT_MAX_OVERHEAD) +
				    2 * SCRATCH_ALIGN) != 0)
			c = NULL;
		if (c == NULL || p == NULL || n == NULL) {
			free(c);
			free(p);
			free(n);
			return NULL;
		}
		if (s->p != NULL)
			secmem_wipe(s->p, s->nblocks * CONTENT_PLAIN_BS);
		free(s->c);
		free(s->p);
		free(s->n);
		s->c = c;
		s->p = p;
		s->n = n;
		s->nblocks = want;
	}
	return s;
}

/* This thread's own reply buffer, at least size bytes. */
static char *scratch_reply(size_t size)
{
	struct scratch *s = scratch_self();

	if (s == NULL)
		return NULL;
	if (s->rcap < size) {
		size_t want = size < 256U * 1024U ? 256U * 1024U : size;
		char *r = malloc(want);

		if (r == NULL)
			return NULL;
		if (s->r != NULL)
			secmem_wipe(s->r, s->rcap);
		free(s->r);
		s->r = r;
		s->rcap = want;
	}
	return s->r;
}

void scratch_set_transport(scratch_reply_fn fn)
{
	transport_reply = fn;
}

char *fs_reply_buf(size_t size)
{
	char *buf = transport_reply != NULL ? transport_reply(size) : NULL;

	return buf != NULL ? buf : scratch_reply(size > 0 ? size : 1);
}
