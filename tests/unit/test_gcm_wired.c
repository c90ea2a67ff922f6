/* SPDX-License-Identifier: MIT */
/*
 * Tests of the libgcrypt AES-256-GCM backend wired behind ossl_gcm_seal /
 * ossl_gcm_open (crypto/ossl_aead.h ossl_gcm_backend_enable), in a process
 * set up as cli/main.c sets up the mount: ossl_mem_init() on a locked,
 * no-dump arena first, then the backend. Asserts:
 *   arena     a GCRY_CIPHER_SECURE handle (the AES key schedule, GHASH key)
 *             is allocated in the arena: libgcrypt's is_secure says so,
 *             the address is inside it, the key bytes are found there and
 *             nowhere else is needed; closing it wipes them; libgcrypt's
 *             own secure pool (mlock'd, not MADV_DONTDUMP) is not set up:
 *             the process locks no more than the arena
 *   diff      with the backend on, ossl_gcm_seal gives OpenSSL EVP's bytes
 *             for random keys, IVs (12, 16), AD and lengths; ossl_gcm_open
 *             opens them, and rejects a flipped tag or ciphertext bit with
 *             its output zeroed
 *   threads   worker threads that sealed on the backend leave the arena as
 *             they found it (ossl_aead_thread_cleanup closes the handles)
 *   switch    ossl_gcm_backend() names the path in use; disable goes back
 *             to OpenSSL with the same bytes
 * Seen failing: with the handler not installed (gcm_backend_gcrypt.c) the
 * arena case fails (handle outside the arena, VmLck 1056 kB: libgcrypt's
 * pool); without gcm_gcrypt_release in ossl_aead_thread_cleanup the
 * threads case fails (arena 5120 -> 21504 bytes).
 * Usage: test_gcm_wired [NAME-SUBSTRING...] (th.c's name table). Random
 * inputs come from th_rand (deterministic, except in the threads case,
 * whose workers share its generator).
 */
#include <gcrypt.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "crypto/gcm_backend_gcrypt.h"
#include "crypto/ossl_aead.h"
#include "crypto/ossl_mem.h"
#include "th.h"

#define ARENA_LEN ((size_t)1 << 20)

static uint8_t *arena;
static long locked_kb = -1; /* VmLck with the arena locked, or -1 */

/* Whether needle[0..n-1] occurs in [p, p + len). */
static int holds(const uint8_t *p, size_t len, const uint8_t *needle, size_t n)
{
	return memmem(p, len, needle, n) != NULL;
}

/* VmLck of this process in kB, or -1. */
static long vmlck_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, "VmLck:", 6) == 0) {
			kb = strtol(line + 6, NULL, 10);
			break;
		}
	fclose(f);
	return kb;
}

/* ---------------------------------------------------------- arena */

static void t_arena(void)
{
	static struct gcm_gcrypt st;
	uint8_t key[32], iv[16], m[4096], c[4096], tag[16];
	size_t used0, used1, used2;
	long lck;

	th_check(gcm_gcrypt_in_arena(), "allocation handler installed");
	th_rand(key, sizeof(key));
	th_rand(iv, sizeof(iv));
	th_rand(m, sizeof(m));
	th_check(!holds(arena, ARENA_LEN, key, 16), "fresh key not in arena");
	ossl_mem_stats(&used0, NULL);
	gcm_gcrypt_seal(&st, c, tag, m, sizeof(m), NULL, 0, key, iv, 16);
	ossl_mem_stats(&used1, NULL);
	th_check(st.h[1] != NULL, "seal handle opened");
	th_check(ossl_mem_owns(st.h[1]), "handle %p inside the arena %p+%zu",
		 st.h[1], (void *)arena, ARENA_LEN);
	th_check(gcry_is_secure(st.h[1]), "libgcrypt calls the handle secure");
	th_check(used1 > used0, "arena use grew by the handle (%zu -> %zu)",
		 used0, used1);
	/* AES-256's first two round keys are the key: the schedule is in
	 * the arena (st itself, with its key copy, is in .bss) */
	th_check(holds(arena, ARENA_LEN, key, 16) &&
			 holds(arena, ARENA_LEN, key + 16, 16),
		 "key schedule found in the arena");
	gcm_gcrypt_release(&st);
	ossl_mem_stats(&used2, NULL);
	th_check(used2 == used0, "release gave the handle back (%zu)", used2);
	th_check(!holds(arena, ARENA_LEN, key, 16) &&
			 !holds(arena, ARENA_LEN, key + 16, 16),
		 "key schedule wiped on free");
	/* libgcrypt's own pool would be a second locked mapping */
	lck = vmlck_kb();
	if (locked_kb < 0)
		th_skip("VmLck check: arena not locked (RLIMIT_MEMLOCK, or "
			"ASan's mlock, which does nothing)");
	else
		th_check(lck == locked_kb,
			 "locked memory is the arena only: VmLck %ld kB, "
			 "%ld kB with the arena locked",
			 lck, locked_kb);
}

/* ---------------------------------------------------------- diff */

/* AES-256-GCM through a fresh EVP context: the reference. */
static void evp_seal(uint8_t *c, uint8_t tag[16], const uint8_t *m, size_t len,
		     const uint8_t *ad, size_t adlen, const uint8_t key[32],
		     const uint8_t *iv, size_t ivlen)
{
	EVP_CIPHER_CTX *x = EVP_CIPHER_CTX_new();
	int l = 0, ok;

	ok = x != NULL &&
	     EVP_EncryptInit_ex(x, EVP_aes_256_gcm(), NULL, NULL, NULL) == 1 &&
	     EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_SET_IVLEN, (int)ivlen,
				 NULL) == 1 &&
	     EVP_EncryptInit_ex(x, NULL, NULL, key, iv) == 1 &&
	     (adlen == 0 ||
	      EVP_EncryptUpdate(x, NULL, &l, ad, (int)adlen) == 1) &&
	     (len == 0 || EVP_EncryptUpdate(x, c, &l, m, (int)len) == 1) &&
	     EVP_EncryptFinal_ex(x, c + (len == 0 ? 0 : l), &l) == 1 &&
	     EVP_CIPHER_CTX_ctrl(x, EVP_CTRL_AEAD_GET_TAG, 16, tag) == 1;
	EVP_CIPHER_CTX_free(x);
	if (!ok) {
		th_fail("EVP AES-256-GCM reference failed");
		exit(1);
	}
}

static int all_zero(const uint8_t *p, size_t n)
{
	uint8_t d = 0;

	for (size_t i = 0; i < n; i++)
		d |= p[i];
	return d == 0;
}

/* One random case with the backend on; 1 when everything held. */
static int diff_one(uint8_t key[32], int newkey)
{
	static _Thread_local uint8_t m[5000], c1[5000], c2[5000], out[5000];
	uint8_t iv[16], ad[64], t1[16], t2[16];
	size_t len = th_rand32() % sizeof(m), adlen = th_rand32() % 65;
	size_t ivlen = (th_rand32() & 1) ? 16 : 12, bit;
	int ok = 1;

	if (th_rand32() % 8 == 0)
		len = 4096; /* a gocryptfs block */
	if (newkey)
		th_rand(key, 32);
	th_rand(iv, sizeof(iv));
	th_rand(ad, sizeof(ad));
	th_rand(m, len);
	evp_seal(c1, t1, m, len, ad, adlen, key, iv, ivlen);
	ossl_gcm_seal(c2, t2, m, len, adlen > 0 ? ad : NULL, adlen, key, iv,
		      ivlen);
	ok &= memcmp(c1, c2, len) == 0 && memcmp(t1, t2, 16) == 0;
	memset(out, 0xaa, sizeof(out));
	ok &= ossl_gcm_open(out, c1, len, t1, adlen > 0 ? ad : NULL, adlen, key,
			    iv, ivlen) == 0 &&
	      memcmp(out, m, len) == 0;
	/* a flipped tag bit: rejected, output zeroed */
	bit = th_rand32() % 128;
	t1[bit / 8] ^= (uint8_t)(1u << (bit % 8));
	memset(out, 0xaa, sizeof(out));
	ok &= ossl_gcm_open(out, c1, len, t1, adlen > 0 ? ad : NULL, adlen, key,
			    iv, ivlen) == -1 &&
	      all_zero(out, len);
	t1[bit / 8] ^= (uint8_t)(1u << (bit % 8));
	if (len > 0) {
		bit = th_rand32() % (len * 8);
		c1[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		memset(out, 0xaa, sizeof(out));
		ok &= ossl_gcm_open(out, c1, len, t1, adlen > 0 ? ad : NULL,
				    adlen, key, iv, ivlen) == -1 &&
		      all_zero(out, len);
	}
	if (!ok)
		th_fail("diff: len %zu adlen %zu ivlen %zu", len, adlen, ivlen);
	return ok;
}

static void t_diff(void)
{
	uint8_t key[32];
	int bad = 0;

	th_check(strcmp(ossl_gcm_backend(), "gcrypt") == 0,
		 "backend in use: %s", ossl_gcm_backend());
	th_rand(key, sizeof(key));
	for (int i = 0; i < 3000 && bad < 5; i++)
		bad += !diff_one(key, th_rand32() % 4 == 0);
	th_check(bad == 0, "3000 random cases: backend == OpenSSL EVP, "
			   "flipped tag/ciphertext rejected and zeroed");
}

/* ---------------------------------------------------------- threads */

static void *worker(void *arg)
{
	uint8_t key[32];
	int *ok = arg;

	th_rand(key, sizeof(key));
	*ok = 1;
	for (int i = 0; i < 50; i++)
		*ok &= diff_one(key, i % 10 == 0);
	return NULL; /* thread exit: ossl_aead_thread_cleanup */
}

static void t_threads(void)
{
	pthread_t th[4];
	int ok[4] = { 0 };
	size_t used0, used1;

	ossl_mem_stats(&used0, NULL);
	for (int i = 0; i < 4; i++)
		if (pthread_create(&th[i], NULL, worker, &ok[i]) != 0) {
			th_fail("pthread_create");
			return;
		}
	for (int i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	ossl_mem_stats(&used1, NULL);
	th_check(ok[0] && ok[1] && ok[2] && ok[3], "4 threads agree");
	th_check(used1 == used0,
		 "threads' states and handles freed at exit (arena %zu -> %zu)",
		 used0, used1);
}

/* ---------------------------------------------------------- switch */

static void t_switch(void)
{
	uint8_t key[32], iv[16], m[4096], c1[4096], c2[4096], t1[16], t2[16];

	th_rand(key, sizeof(key));
	th_rand(iv, sizeof(iv));
	th_rand(m, sizeof(m));
	ossl_gcm_seal(c1, t1, m, sizeof(m), NULL, 0, key, iv, 16);
	ossl_gcm_backend_disable();
	th_check(strcmp(ossl_gcm_backend(), "OpenSSL") == 0,
		 "disabled: OpenSSL");
	ossl_gcm_seal(c2, t2, m, sizeof(m), NULL, 0, key, iv, 16);
	th_check(memcmp(c1, c2, sizeof(c1)) == 0 && memcmp(t1, t2, 16) == 0,
		 "same bytes on both paths");
	th_check(ossl_gcm_backend_enable() == 0 &&
			 strcmp(ossl_gcm_backend(), "gcrypt") == 0,
		 "enabled again: gcrypt");
}

static const struct th_test unit_tests[] = {
	TH_TEST("arena", t_arena),
	TH_TEST("diff", t_diff),
	TH_TEST("threads", t_threads),
	TH_TEST("switch", t_switch),
};

static void done(void)
{
	ossl_aead_thread_cleanup();
}

int main(int argc, char **argv)
{
	void *p = mmap(NULL, ARENA_LEN, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		th_fail("mmap arena");
		return th_exit();
	}
	arena = p;
	(void)madvise(arena, ARENA_LEN, MADV_DONTDUMP);
	/* locked for the VmLck check only when VmLck shows it (ASan
	 * intercepts mlock as a no-op) */
	locked_kb = vmlck_kb();
	if (locked_kb < 0 || mlock(arena, ARENA_LEN) != 0 ||
	    vmlck_kb() != locked_kb + (long)(ARENA_LEN / 1024))
		locked_kb = -1;
	else
		locked_kb = vmlck_kb();
	/* as cli/main.c: the arena before any libcrypto or libgcrypt call */
	if (ossl_mem_init(arena, ARENA_LEN) != 0) {
		th_fail("ossl_mem_init");
		return th_exit();
	}
	if (strcmp(ossl_gcm_backend(), "OpenSSL") != 0 ||
	    ossl_gcm_backend_enable() != 0) {
		th_fail("ossl_gcm_backend_enable: libgcrypt unusable");
		return th_exit();
	}
	return th_main(argc, argv, unit_tests, TH_COUNT(unit_tests), done);
}
