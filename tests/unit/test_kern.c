/* SPDX-License-Identifier: MIT */
/*
 * Which code runs on the mount's XChaCha20-Poly1305 path: a content block
 * sealed and opened through format/content.c passes through the one
 * composition (aead/chachapoly.c) and reaches the kernels only through the
 * aead/kern.h entry points, whose per-thread counts (kern_counts) show each
 * target: on every kernel the CPU has (the best one, the mount's default,
 * included) the stitched body when the level has one, else exactly the
 * composition's sequence (one HChaCha20, ChaCha20 of the one-time key and
 * of the text, Poly1305 init, pad16 of AD, text and lengths, finish); and
 * under VCRYPTFS_IMPL=portable (this binary run again with it set) only
 * the proved ref functions (chacha20_xor, hchacha20, poly1305_init,
 * poly1305_pad16, poly1305_finish), nothing else. The ciphertext of each
 * kernel equals the portable one's. At symbol level (nm, objdump on this
 * binary): content_block_seal/open call xchachapoly_seal/open and no
 * *_fast composition is linked. Also the 26 <-> 44-bit limb
 * conversion of kern_poly1305_pad16 at the limb bounds.
 * Test code: not constant time, not proved.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "crypto/aead/chachapoly.h"
#include "crypto/dispatch.h"
#include "crypto/aead/kern.h"
#include "crypto/poly1305/ref.h"
#include "format/content.h"
#include "format/volume.h"
#include "th.h"

#define BS CONTENT_PLAIN_BS

static const char *const target_names[KERN_NTARGETS] = {
	"chacha20_xor (ref)",
	"chacha20 SIMD kernel",
	"hchacha20 (ref)",
	"hchacha20 fastblock",
	"poly1305_init (ref)",
	"poly1305_pad16 (ref)",
	"poly1305 vector blocks",
	"poly1305_finish (ref)",
	"seal body",
	"open body",
};

static uint8_t key[32];
static uint8_t plain[BS], sealed[BS + 40], back[BS];
static const uint8_t file_id[16] = { 1, 2, 3 };
static const uint8_t nonce[24] = { 7, 7, 7 };

static struct volume vol(void)
{
	struct volume v;

	memset(&v, 0, sizeof(v));
	v.cipher = CIPHER_XCHACHA;
	v.content_key = key;
	v.content_key_len = 32;
	return v;
}

/* "name=count" of every non-zero count, for messages */
static const char *show(const unsigned long n[KERN_NTARGETS])
{
	static char s[512];
	size_t o = 0;

	s[0] = 0;
	for (int i = 0; i < KERN_NTARGETS && o < sizeof(s); i++)
		if (n[i] != 0)
			o += (size_t)snprintf(s + o, sizeof(s) - o, "%s%s=%lu",
					      o ? ", " : "", target_names[i],
					      n[i]);
	return s;
}

/* the counts the composition must show for one seal (open: 0) or open
 * (1) of len bytes with adlen bytes of AD on the current choice */
static void expected(unsigned long want[KERN_NTARGETS], int open, size_t len,
		     size_t adlen)
{
	const struct dispatch_choice *ch = dispatch_current();
	int simd = ch->chacha20 != chacha20_xor;
	size_t step = dispatch_body_min(ch);
	/* opens take the stitched open body up to KERN_OPEN_MAX bytes (the
	 * plaintext waits in a private buffer until the tag verifies) */
	int body = open ? ch->open_body != NULL && len >= step &&
				   len <= KERN_OPEN_MAX
			: ch->body != NULL && len >= step;
	int vec_c = ch->poly_blocks != NULL && len / 16 >= 16;
	int vec_ad = ch->poly_blocks != NULL && adlen / 16 >= 16;

	memset(want, 0, sizeof(unsigned long) * KERN_NTARGETS);
	want[ch->hchacha20 == hchacha20 ? KERN_HCHACHA20_REF
					: KERN_HCHACHA20_FAST] = 1;
	if (body) {
		want[open ? KERN_OPEN_BODY : KERN_SEAL_BODY] = 1;
		return;
	}
	want[simd ? KERN_CHACHA20_SIMD : KERN_CHACHA20_REF] = 2;
	want[KERN_POLY_INIT_REF] = 1;
	/* the lengths block, and each of AD and text unless it went to the
	 * vector blocks whole */
	want[KERN_POLY_PAD16_REF] = 1;
	if (!vec_ad || adlen % 16 != 0)
		want[KERN_POLY_PAD16_REF]++;
	if (!vec_c || len % 16 != 0)
		want[KERN_POLY_PAD16_REF]++;
	if (vec_ad)
		want[KERN_POLY_PAD16_VEC]++;
	if (vec_c)
		want[KERN_POLY_PAD16_VEC]++;
	want[KERN_POLY_FINISH_REF] = 1;
}

static int same(const unsigned long a[KERN_NTARGETS],
		const unsigned long b[KERN_NTARGETS])
{
	return memcmp(a, b, sizeof(unsigned long) * KERN_NTARGETS) == 0;
}

/* a PASS line for the 4 KiB block, a FAIL line for any length */
static void report(int ok, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void report(int ok, size_t len, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!ok || len == BS)
		th_check(ok, "%s", msg);
}

/*
 * Seal and open one block of len bytes through content.c on the current
 * choice; checks the counts of each and, when ref is not NULL, that the
 * sealed bytes equal ref. Returns 1 when everything held.
 */
static int run_block(const char *what, size_t len, const uint8_t *ref,
		     uint8_t *out)
{
	struct volume v = vol();
	unsigned long got[KERN_NTARGETS], want[KERN_NTARGETS];
	size_t outlen = 0, ov = content_overhead(CIPHER_XCHACHA);
	/* content.c's AAD: block number (8 bytes) and file ID (16) */
	size_t adlen = 8 + sizeof(file_id);
	const char *name = dispatch_current()->kernel->name;
	int ok = 1;

	kern_counts_reset();
	if (content_block_seal(&v, out, plain, len, 5, file_id, nonce) != 0) {
		th_fail("%s %s: content_block_seal failed", what, name);
		return 0;
	}
	kern_counts(got);
	expected(want, 0, len, adlen);
	report(same(got, want), len, "%s %s: seal of %zu bytes ran [%s]", what,
	       name, len, show(got));
	ok &= same(got, want);
	if (!same(got, want))
		printf("  expected [%s]\n", show(want));
	if (ref != NULL) {
		int eq = memcmp(ref, out, len + ov) == 0;

		report(eq, len, "%s %s: sealed bytes == portable's (%zu bytes)",
		       what, name, len);
		ok &= eq;
	}
	kern_counts_reset();
	memset(back, 0, sizeof(back));
	if (content_block_open(&v, back, &outlen, out, len + ov, 5, file_id) !=
		    0 ||
	    outlen != len || memcmp(back, plain, len) != 0) {
		th_fail("%s %s: content_block_open round trip", what, name);
		return 0;
	}
	kern_counts(got);
	expected(want, 1, len, adlen);
	report(same(got, want), len, "%s %s: open of %zu bytes ran [%s]", what,
	       name, len, show(got));
	if (!same(got, want))
		printf("  expected [%s]\n", show(want));
	ok &= same(got, want);
	return ok;
}

/* only ref targets, each at least once where the path needs it */
static void check_only_ref(const char *what)
{
	unsigned long got[KERN_NTARGETS];
	struct volume v = vol();
	size_t outlen = 0;
	int ok;

	kern_counts_reset();
	ok = content_block_seal(&v, sealed, plain, BS, 9, file_id, nonce) ==
		     0 &&
	     content_block_open(&v, back, &outlen, sealed,
				BS + content_overhead(CIPHER_XCHACHA), 9,
				file_id) == 0 &&
	     outlen == BS && memcmp(back, plain, BS) == 0;
	kern_counts(got);
	ok = ok && got[KERN_CHACHA20_SIMD] == 0 &&
	     got[KERN_HCHACHA20_FAST] == 0 && got[KERN_POLY_PAD16_VEC] == 0 &&
	     got[KERN_SEAL_BODY] == 0 && got[KERN_OPEN_BODY] == 0 &&
	     got[KERN_CHACHA20_REF] == 4 && got[KERN_HCHACHA20_REF] == 2 &&
	     got[KERN_POLY_INIT_REF] == 2 && got[KERN_POLY_PAD16_REF] == 6 &&
	     got[KERN_POLY_FINISH_REF] == 2;
	th_check(ok,
		 "%s: a 4 KiB content block sealed and opened ran only the "
		 "proved ref functions [%s]",
		 what, show(got));
}

/* the mount's default choice (the best kernel the CPU has), then every
 * kernel with the bytes compared to the portable one's */
static void test_levels(void)
{
	static uint8_t ref[BS + 40], out[BS + 40];
	static const size_t lens[] = { 0,   1,	  100,	255,  256,  511,
				       512, 1000, 1024, 2048, 4095, BS };
	const struct dispatch_kernel *list, *best = dispatch_current()->kernel;
	size_t n;
	int all = 1;

	th_rand(key, sizeof(key));
	th_rand(plain, sizeof(plain));
	/* the default choice, as the mount starts; 4 KiB content blocks on
	 * the best kernel take its stitched bodies when it has them */
	run_block("default", BS, NULL, out);
	if (dispatch_current()->body != NULL)
		th_check(best->level != DISPATCH_PORTABLE,
			 "default %s: 4 KiB blocks through the stitched body "
			 "of the composition",
			 best->name);
	list = dispatch_list(&n);
	for (size_t li = 0; li < sizeof(lens) / sizeof(lens[0]); li++) {
		size_t len = lens[li];

		if (dispatch_force("portable") != 0) {
			th_fail("dispatch_force(portable)");
			return;
		}
		all &= run_block("portable", len, NULL, ref);
		for (size_t i = 1; i < n; i++) {
			if (dispatch_force(list[i].name) != 0)
				continue;
			all &= run_block("forced", len, ref, out);
		}
	}
	th_check(all,
		 "every kernel, lengths 0..4096 (%zu of them): the counts of "
		 "the composition's path and the portable bytes",
		 sizeof(lens) / sizeof(lens[0]));
	if (dispatch_force("portable") == 0)
		check_only_ref("dispatch_force(portable)");
	dispatch_force(best->name);
}

/* this binary again with VCRYPTFS_IMPL=portable, running the row below */
static void test_env_portable(void)
{
	pid_t pid;
	int st = 0;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		th_fail("fork");
		return;
	}
	if (pid == 0) {
		char *args[] = { "test_kern", "portable-env-child", NULL };

		setenv("VCRYPTFS_IMPL", "portable", 1);
		execv("/proc/self/exe", args);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) != pid) {
		th_fail("waitpid");
		return;
	}
	th_check(WIFEXITED(st) && WEXITSTATUS(st) == 0,
		 "VCRYPTFS_IMPL=portable run of this binary exited 0 (%d)",
		 WIFEXITED(st) ? WEXITSTATUS(st) : -1);
}

/* the child of test_env_portable (a slow row: run only when named) */
static void test_env_portable_child(void)
{
	const struct dispatch_choice *ch = dispatch_current();
	const char *env = getenv("VCRYPTFS_IMPL");

	th_check(env != NULL && strcmp(env, "portable") == 0 &&
			 ch->kernel->level == DISPATCH_PORTABLE &&
			 ch->chacha20 == chacha20_xor &&
			 ch->hchacha20 == hchacha20 &&
			 ch->poly_blocks == NULL && ch->body == NULL &&
			 ch->open_body == NULL,
		 "VCRYPTFS_IMPL=portable: the choice is the ref functions "
		 "(kernel %s)",
		 ch->kernel->name);
	th_rand(key, sizeof(key));
	th_rand(plain, sizeof(plain));
	check_only_ref("VCRYPTFS_IMPL=portable");
}

/* kern_poly1305_pad16 on the vector path == poly1305_pad16, with h at
 * its limb bounds (the 26 -> 44 -> 26-bit conversion) */
static void test_pad16_bounds(void)
{
	static uint8_t m[4096 + 15];
	const struct dispatch_kernel *best = dispatch_current()->kernel;
	int bad = 0, cases = 0;

	if (dispatch_current()->poly_blocks == NULL) {
		th_skip("kern pad16: no vector Poly1305 on this CPU");
		return;
	}
	for (int t = 0; t < 300; t++) {
		struct poly1305 a, b;
		uint8_t k[32], ta[16], tb[16];
		size_t len = 256 + th_rand32() % (sizeof(m) - 256);

		th_rand(k, 32);
		th_rand(m, len);
		if (t % 3 == 0)
			memset(k, 0xff, 32);
		if (t % 5 == 0)
			memset(m, 0xff, len);
		poly1305_init(&a, k);
		/* h at (or near) its limb bounds */
		for (int i = 0; i < 5; i++)
			a.h[i] = t % 2 ? 0x3ffffffU : th_rand32() % 0x4000000U;
		if (t % 4 == 1)
			a.h[1] = 0x3ffffffU + 0xfffU;
		b = a;
		kern_poly1305_pad16(&a, m, len);
		poly1305_pad16(&b, m, len);
		/* limbs_ok after the conversion back */
		if (a.h[0] >= 0x4000000U || a.h[1] >= 0x4000000U + 0x1000U ||
		    a.h[2] >= 0x4000000U || a.h[3] >= 0x4000000U ||
		    a.h[4] >= 0x4000000U)
			bad++;
		kern_poly1305_finish(&a, ta);
		poly1305_finish(&b, tb);
		cases++;
		if (memcmp(ta, tb, 16) != 0)
			bad++;
	}
	th_check(bad == 0,
		 "kern pad16 (%s vector blocks) == poly1305_pad16 with h at "
		 "its limb bounds, limbs_ok after, %d cases",
		 best->name, cases);
}

/*
 * Run argv (no shell) and count the lines of its output that contain one
 * of pats[]; with fn set (a function's label such as
 * "<content_block_seal>:"), only lines of the objdump blocks whose label
 * line contains one of fn[0..1] and that are calls. *ran: the tool ran,
 * printed something and exited 0.
 */
static int count_lines(char *const argv[], const char *const *pats, size_t np,
		       const char *const *fn, int *ran)
{
	char line[512];
	int fd[2], st = 0, n = 0, any = 0, in = 0;
	pid_t pid;
	FILE *f;

	*ran = 0;
	fflush(stdout);
	if (pipe(fd) != 0)
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(fd[1]);
	f = fdopen(fd[0], "r");
	if (f == NULL) {
		close(fd[0]);
		waitpid(pid, &st, 0);
		return -1;
	}
	while (fgets(line, sizeof(line), f) != NULL) {
		any = 1;
		if (fn != NULL) {
			if (strstr(line, ">:") != NULL)
				in = strstr(line, fn[0]) != NULL ||
				     strstr(line, fn[1]) != NULL;
			if (!in || strstr(line, "call") == NULL)
				continue;
		}
		for (size_t i = 0; i < np; i++)
			if (strstr(line, pats[i]) != NULL) {
				n++;
				break;
			}
	}
	fclose(f);
	*ran = waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
	       WEXITSTATUS(st) == 0 && any;
	return n;
}

/* symbol level, on this binary: content.c calls xchachapoly_seal and
 * xchachapoly_open, and no second composition (the *_fast AEAD of
 * before) is linked */
static void test_symbols(void)
{
	static const char *const old[] = { "chachapoly_seal_fast",
					   "chachapoly_open_fast" };
	static const char *const calls[] = { "<xchachapoly_seal>",
					     "<xchachapoly_open>" };
	static const char *const fns[] = { "<content_block_seal>:",
					   "<content_block_open>:" };
	char exe[400];
	ssize_t el = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int ran = 0, n;

	if (el <= 0) {
		th_skip("symbols: cannot name this binary");
		return;
	}
	exe[el] = 0;
	{
		char *nm[] = { "nm", exe, NULL };

		n = count_lines(nm, old, 2, NULL, &ran);
	}
	if (!ran) {
		th_skip("symbols: nm did not run");
		return;
	}
	th_check(n == 0,
		 "symbols: no *chachapoly_*_fast composition linked "
		 "(%d found)",
		 n);
	{
		char *od[] = { "objdump", "-d", "--no-show-raw-insn", exe,
			       NULL };

		n = count_lines(od, calls, 2, fns, &ran);
	}
	if (!ran) {
		th_skip("symbols: objdump did not run");
		return;
	}
	th_check(n == 2,
		 "symbols: content_block_seal/open call xchachapoly_seal and "
		 "xchachapoly_open (%d calls)",
		 n);
}

static const struct th_test tests[] = {
	TH_TEST("levels", test_levels),
	TH_TEST("pad16-bounds", test_pad16_bounds),
	TH_TEST("symbols", test_symbols),
	TH_TEST("portable-env", test_env_portable),
	TH_SLOW("portable-env-child", test_env_portable_child),
};

int main(int argc, char **argv)
{
	return th_main(argc, argv, tests, TH_COUNT(tests), NULL);
}
