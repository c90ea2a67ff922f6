/* SPDX-License-Identifier: MIT */
/*
 * Constant-time check (issue 24), run under valgrind's memcheck by
 * tests/ct/run.sh (make ct, tests/checks/62-ct.sh).
 *
 * Every secret (master key, content and EME subkeys, password, Poly1305
 * one-time key, ChaCha20 key and state, plaintext, the computed tag before
 * the compare) is marked undefined with VALGRIND_MAKE_MEM_UNDEFINED.
 * Memcheck then reports every conditional jump, every memory address and
 * every system call argument that depends on one: a secret-dependent
 * branch or table index. Only what is public by design becomes defined
 * again: the ciphertext and tag a seal produces (here, after the seal),
 * the accept/reject of a tag compare (ct_compare, through ct_public in
 * ct.h) and an encrypted name (names.c). The library is built with
 * -DVCRYPTFS_CT_CHECK for that (mk/ct.mk); its code is otherwise the one
 * the mount runs, at the same -O2.
 *
 * Each case prints one line: PASS when memcheck counted no new error
 * while it ran (VALGRIND_COUNT_ERRORS before and after), FAIL with the
 * count otherwise, and the implementation it ran (the dispatcher's
 * names, asserted to be the kernel asked for). The results are checked
 * too (authentic opens accept and give the plaintext back, forged ones
 * reject), so a case cannot pass by not running.
 *
 * ct_check --kernels (without valgrind) prints the kernels this CPU runs
 * natively, so the group can tell a kernel valgrind cannot execute from
 * one the CPU lacks.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <valgrind/memcheck.h>
#include <valgrind/valgrind.h>

#include "crypto/aead/chachapoly.h"
#include "crypto/chacha20/ref.h"
#include "crypto/ct.h"
#include "crypto/dispatch.h"
#include "crypto/eme.h"
#include "crypto/kdf.h"
#include "crypto/kernels.h"
#include "crypto/ossl_aead.h"
#include "crypto/ossl_mem.h"
#include "crypto/poly1305/ref.h"
#include "format/config.h"
#include "format/content.h"
#include "format/keys.h"
#include "format/names.h"

static int failures;
static unsigned long case_start;

static void secret(const void *p, size_t n)
{
	(void)VALGRIND_MAKE_MEM_UNDEFINED(p, n);
}

static void declassify(const void *p, size_t n)
{
	(void)VALGRIND_MAKE_MEM_DEFINED(p, n);
}

static void begin(void)
{
	case_start = VALGRIND_COUNT_ERRORS;
}

/* End a case: PASS when memcheck saw no new error and ok holds. */
static void end(int ok, const char *impl, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void end(int ok, const char *impl, const char *fmt, ...)
{
	unsigned long n = VALGRIND_COUNT_ERRORS - case_start;
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (n == 0 && ok) {
		printf("PASS: ct %s [%s]: 0 memcheck errors\n", what, impl);
	} else {
		printf("FAIL: ct %s [%s]: %lu memcheck errors%s\n", what, impl,
		       n, ok ? "" : ", wrong result");
		failures++;
	}
	fflush(stdout);
}

/* deterministic bytes (xorshift): reproducible runs */
static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static void fill(uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		p[i] = (uint8_t)(rng >> 24);
	}
}

/* lengths that reach every path: empty, partial blocks, one SIMD step of
 * each kernel and one more byte, the 8+1-block step of AVX2, a whole
 * 4 KiB block, and beyond the stitched open's 4096 */
static const size_t lens[] = { 0,   1,	  15,	16,   63,   64,	  65,
			       200, 255,  256,	257,  511,  512,  513,
			       577, 1000, 1024, 4095, 4096, 4097, 5000 };
#define NLENS (sizeof(lens) / sizeof(lens[0]))
#define MAXLEN 5000

static uint8_t key[32], nonce[24], ad[24];
static uint8_t pt[MAXLEN], ct[MAXLEN], out[MAXLEN], tags[NLENS][16];

typedef void (*seal_fn)(uint8_t *, uint8_t *, const uint8_t *, size_t,
			const uint8_t *, size_t, const uint8_t *,
			const uint8_t *);
typedef int (*open_fn)(uint8_t *, const uint8_t *, size_t, const uint8_t *,
		       const uint8_t *, size_t, const uint8_t *,
		       const uint8_t *);

/* XChaCha20-Poly1305 seal, open (authentic), open (forged: first tag
 * byte, last tag byte, one ciphertext byte) over every length. */
static void aead_cases(const char *impl, seal_fn seal, open_fn open)
{
	int ok = 1;

	fill(key, sizeof(key));
	fill(nonce, sizeof(nonce));
	fill(ad, sizeof(ad));
	fill(pt, sizeof(pt));
	/* seal: secret key and plaintext; what comes out is public */
	begin();
	for (size_t i = 0; i < NLENS; i++) {
		secret(key, sizeof(key));
		secret(pt, sizeof(pt));
		seal(ct, tags[i], pt, lens[i], ad, sizeof(ad), key, nonce);
		declassify(ct, lens[i]);
		declassify(tags[i], 16);
		/* the same bytes as the proved reference (its inputs
		 * public now: only the result matters here) */
		{
			uint8_t rc[MAXLEN], rt[16];

			declassify(key, sizeof(key));
			declassify(pt, sizeof(pt));
			xchachapoly_seal(rc, rt, pt, lens[i], ad, sizeof(ad),
					 key, nonce);
			ok &= memcmp(rc, ct, lens[i]) == 0 &&
			      memcmp(rt, tags[i], 16) == 0;
		}
	}
	end(ok, impl, "xchacha20-poly1305 seal, %zu lengths 0..%d", NLENS,
	    MAXLEN);

	/* open, authentic: secret key; plaintext out is secret */
	ok = 1;
	begin();
	for (size_t i = 0; i < NLENS; i++) {
		int rc;

		seal(ct, tags[i], pt, lens[i], ad, sizeof(ad), key, nonce);
		declassify(ct, lens[i]);
		declassify(tags[i], 16);
		secret(key, sizeof(key));
		rc = open(out, ct, lens[i], tags[i], ad, sizeof(ad), key,
			  nonce);
		declassify(out, lens[i]);
		declassify(pt, lens[i]);
		ok &= rc == 0 && memcmp(out, pt, lens[i]) == 0;
	}
	end(ok, impl, "xchacha20-poly1305 open authentic, %zu lengths", NLENS);

	/* open, forged: the tag (first byte, last byte) or the ciphertext */
	ok = 1;
	begin();
	for (size_t i = 0; i < NLENS; i++) {
		for (int f = 0; f < 3; f++) {
			uint8_t t[16];
			int rc;

			seal(ct, tags[i], pt, lens[i], ad, sizeof(ad), key,
			     nonce);
			declassify(ct, lens[i]);
			declassify(tags[i], 16);
			memcpy(t, tags[i], 16);
			if (f == 0)
				t[0] ^= 0x01;
			else if (f == 1 || lens[i] == 0)
				t[15] ^= 0x80;
			else
				ct[lens[i] / 2] ^= 0x20;
			secret(key, sizeof(key));
			rc = open(out, ct, lens[i], t, ad, sizeof(ad), key,
				  nonce);
			ok &= rc == -1;
		}
	}
	end(ok, impl,
	    "xchacha20-poly1305 open forged (tag byte 0, tag byte 15, "
	    "ciphertext), %zu lengths",
	    NLENS);
}

/* The dispatched ChaCha20 kernel alone and HChaCha20 */
static void chacha_cases(const char *impl)
{
	const struct dispatch_choice *ch = dispatch_current();
	uint8_t sub[32], ref[32];
	int ok = 1;

	fill(key, sizeof(key));
	fill(pt, sizeof(pt));
	begin();
	for (size_t i = 0; i < NLENS; i++) {
		secret(key, sizeof(key));
		secret(pt, sizeof(pt));
		ch->chacha20(ct, pt, lens[i], key, 7, nonce);
		declassify(ct, lens[i]);
	}
	end(1, impl, "chacha20 xor (secret key, state, plaintext), %zu lengths",
	    NLENS);

	begin();
	secret(key, sizeof(key));
	ch->hchacha20(sub, key, nonce);
	secret(key, sizeof(key));
	hchacha20(ref, key, nonce);
	declassify(sub, sizeof(sub));
	declassify(ref, sizeof(ref));
	ok = memcmp(sub, ref, 32) == 0;
	end(ok, impl, "hchacha20 (dispatched and proved portable)");
}

/* Poly1305 alone: the proved one, the 64-bit one, the AVX2 blocks, the
 * IFMA blocks */
static void poly_cases(void)
{
	uint8_t otk[32], t1[16], t2[16];
	poly1305_blocks_fn avx2 = poly1305_avx2_get();
	poly1305_blocks_fn ifma = poly1305_ifma_get();
	int ok = 1;

	fill(otk, sizeof(otk));
	fill(pt, sizeof(pt));
	for (int impl = 0; impl < 4; impl++) {
		const char *name = impl == 0   ? "poly1305/ref.c (proved)"
				   : impl == 1 ? "poly1305/x64.c"
				   : impl == 2 ? "poly1305/avx2.c"
					       : "poly1305/ifma.c";

		if (impl == 2 && avx2 == NULL) {
			printf("SKIP: ct poly1305 [%s]: this CPU (as valgrind "
			       "shows it) has no AVX2\n",
			       name);
			continue;
		}
		if (impl == 3 && ifma == NULL) {
			printf("SKIP: ct poly1305 [%s]: not checkable here: "
			       "the CPU valgrind shows lacks AVX-512 IFMA "
			       "(valgrind 3.19 has no AVX-512 support), so "
			       "the IFMA blocks never ran (not passed)\n",
			       name);
			continue;
		}
		ok = 1;
		begin();
		for (size_t i = 0; i < NLENS; i++) {
			struct poly1305_fast f;

			secret(otk, sizeof(otk));
			secret(pt, sizeof(pt));
			if (impl == 0) {
				poly1305_mac(t1, pt, lens[i], otk);
			} else {
				poly1305_fast_init(&f, otk);
				poly1305_fast_use(&f, impl == 2	  ? avx2
						      : impl == 3 ? ifma
								  : NULL);
				/* two updates: the partial-block buffer too */
				poly1305_fast_update(&f, pt, lens[i] / 3);
				poly1305_fast_update(&f, pt + lens[i] / 3,
						     lens[i] - lens[i] / 3);
				poly1305_fast_final(&f, t1);
			}
			/* the computed tag goes to the compare secret */
			declassify(t1, 16);
			declassify(otk, sizeof(otk));
			declassify(pt, sizeof(pt));
			poly1305_mac(t2, pt, lens[i], otk);
			ok &= memcmp(t1, t2, 16) == 0;
		}
		end(ok, name,
		    "poly1305 (secret one-time key and message), %zu lengths",
		    NLENS);
	}
}

static void compare_wipe_cases(void)
{
	uint8_t a[64], b[64], vbits[64];
	int ok = 1, r;

	fill(a, sizeof(a));
	begin();
	for (size_t n = 0; n <= sizeof(a); n += 16) {
		for (int f = 0; f < 3; f++) {
			memcpy(b, a, sizeof(a));
			if (f == 1 && n > 0)
				b[0] ^= 1;
			if (f == 2 && n > 0)
				b[n - 1] ^= 0x80;
			secret(a, sizeof(a));
			secret(b, sizeof(b));
			r = ct_compare(a, b, n);
			/* r is public (ct_public inside): branching is fine */
			ok &= r == ((f == 0 || n == 0) ? 0 : -1);
		}
	}
	end(ok, "ct.c",
	    "ct_compare (secret operands, equal, first and last "
	    "byte differ)");

	begin();
	fill(a, sizeof(a));
	secret(a, sizeof(a));
	ct_wipe(a, sizeof(a));
	/* every byte now zero and defined (vbits 0), read without a report */
	ok = VALGRIND_GET_VBITS(a, vbits, sizeof(a)) == 1;
	for (size_t i = 0; i < sizeof(a); i++)
		ok &= vbits[i] == 0 && a[i] == 0;
	end(ok, "ct.c", "ct_wipe (secret buffer; zero and defined after)");
}

/* A volume with secret keys from a secret master key (HKDF) */
static int volume_for(struct volume *v, enum content_cipher c, uint8_t mk[32])
{
	fill(mk, 32);
	secret(mk, 32);
	return keys_derive(v, mk, c,
			   VOL_HKDF | VOL_EMENAMES | VOL_DIRIV | VOL_LONGNAMES |
				   VOL_RAW64,
			   255);
}

static void content_cases(enum content_cipher c, const char *cname)
{
	struct volume v;
	uint8_t mk[32], fid[16], n[24], blk[CONTENT_MAX_CIPHER_BS];
	uint8_t plain[CONTENT_PLAIN_BS], back[CONTENT_PLAIN_BS];
	const size_t plen[] = { 1, 100, 4096 };
	size_t ol = 0;
	int ok = 1, rc;

	begin();
	rc = volume_for(&v, c, mk);
	end(rc == 0, "keys.c, kdf.c, OpenSSL HKDF-SHA256",
	    "HKDF content and EME subkeys (%s) from a secret master key",
	    cname);
	if (rc != 0)
		return;
	fill(fid, sizeof(fid));
	fill(n, sizeof(n));
	fill(plain, sizeof(plain));
	begin();
	for (size_t i = 0; i < 3; i++) {
		size_t cl = plen[i] + content_overhead(c);

		secret(plain, sizeof(plain));
		rc = content_block_seal(&v, blk, plain, plen[i], 3, fid, n);
		declassify(blk, cl); /* the block as written: public */
		ok &= rc == 0;
		rc = content_block_open(&v, back, &ol, blk, cl, 3, fid);
		declassify(back, plen[i]);
		declassify(plain, plen[i]);
		ok &= rc == 0 && ol == plen[i] &&
		      memcmp(back, plain, plen[i]) == 0;
		blk[cl - 1] ^= 0x40; /* forge the tag */
		rc = content_block_open(&v, back, &ol, blk, cl, 3, fid);
		ok &= rc == -EIO;
		blk[cl - 1] ^= 0x40;
		blk[content_nonce_len(c) + 1] ^= 0x40; /* and the text */
		rc = content_block_open(&v, back, &ol, blk, cl, 3, fid);
		ok &= rc == -EIO;
	}
	end(ok,
	    c == CIPHER_XCHACHA ? dispatch_current()->kernel->name
	    : strcmp(ossl_gcm_backend(), "gcrypt") == 0
		    ? "libgcrypt AES-256-GCM"
		    : "OpenSSL AES-256-GCM",
	    "content.c block seal, open authentic and forged (%s; 1, 100, "
	    "4096 bytes)",
	    cname);
	if (c == CIPHER_XCHACHA) {
		uint8_t iv[16], a[64], e[64], d[64];
		char enc[NAMES_BUF];
		const char *name = "a-secret-file-name.txt";

		fill(iv, sizeof(iv));
		begin();
		/* names.c: the EME key is secret; the name itself is not
		 * checked here (strnlen and the '/' check branch on it, and
		 * the kernel's dcache holds it in the clear anyway) */
		rc = names_encrypt(&v, iv, name, enc, sizeof(enc));
		ok = rc == 0 && strlen(enc) > 0;
		/* eme.c with a secret plaintext too, both directions */
		fill(a, sizeof(a));
		secret(a, sizeof(a));
		eme_transform(e, a, sizeof(a), v.eme_key, iv, 0);
		declassify(e, sizeof(e));
		eme_transform(d, e, sizeof(e), v.eme_key, iv, 1);
		declassify(d, sizeof(d));
		declassify(a, sizeof(a));
		ok &= memcmp(a, d, sizeof(a)) == 0;
		end(ok, "eme.c, OpenSSL AES-256-ECB",
		    "EME name encryption (names_encrypt), EME encrypt and "
		    "decrypt of a secret 64-byte text, secret EME key");
	}
	volume_free(&v);
}

/* scrypt from a secret password (with_gcm 0 or 1), then (1 or 2) the
 * master key wrap and unlock: scrypt, the HKDF of the KEK, the GCM
 * unwrap (config_wrap, config_unlock) */
static void kdf_cases(int with_gcm)
{
	struct config c;
	uint8_t mk[32], back[32], kek[32];
	uint8_t pw[] = "correct horse battery staple";
	char err[256];
	int ok, rc;

	fill(mk, sizeof(mk));
	if (with_gcm == 2)
		goto gcm;
	begin();
	secret(pw, sizeof(pw) - 1);
	rc = kdf_scrypt(kek, sizeof(kek), pw, sizeof(pw) - 1,
			(const uint8_t *)"salt", 4, 1024, 8, 1);
	end(rc == 0, "kdf.c, OpenSSL scrypt",
	    "scrypt N=2^10 of a secret password");
	if (!with_gcm)
		return;
gcm:
	config_zero(&c);
	c.flags = CONF_HKDF;
	begin();
	secret(pw, sizeof(pw) - 1);
	secret(mk, sizeof(mk));
	rc = config_wrap(&c, mk, pw, sizeof(pw) - 1, 10);
	declassify(c.encrypted_key, sizeof(c.encrypted_key));
	ok = rc == CONF_OK;
	secret(pw, sizeof(pw) - 1);
	rc = config_unlock(&c, pw, sizeof(pw) - 1, back, err, sizeof(err));
	declassify(back, sizeof(back));
	declassify(mk, sizeof(mk));
	ok &= rc == CONF_OK && memcmp(back, mk, 32) == 0;
	pw[0] ^= 1; /* the wrong password: rejected */
	secret(pw, sizeof(pw) - 1);
	rc = config_unlock(&c, pw, sizeof(pw) - 1, back, err, sizeof(err));
	ok &= rc == CONF_ERR_PASSWORD;
	end(ok, "config_key.c, kdf.c, OpenSSL scrypt, HKDF, AES-256-GCM",
	    "master key wrap and unlock (scrypt, HKDF, GCM) with a secret "
	    "password and master key, right and wrong password");
	config_free(&c);
}

static int list_kernels(void)
{
	size_t n;
	const struct dispatch_kernel *k = dispatch_list(&n);

	for (size_t i = 0; i < n; i++)
		if (dispatch_force(k[i].name) == 0)
			printf("%s\n", k[i].name);
	return 0;
}

int main(int argc, char **argv)
{
	size_t n;
	const struct dispatch_kernel *k = dispatch_list(&n);
	char impl[128];

	/* 0: all; 1: all but AES-GCM; 2: AES-GCM only; 3: AES-GCM on
	 * libgcrypt, the mount's backend once its arena is set up */
	int part = 0;
	static uint8_t arena[1 << 20];

	if (argc > 1 && strcmp(argv[1], "--kernels") == 0)
		return list_kernels();
	if (argc > 1 && strcmp(argv[1], "--no-gcm") == 0)
		part = 1;
	if (argc > 1 && strcmp(argv[1], "--gcm-only") == 0)
		part = 2;
	if (argc > 1 && strcmp(argv[1], "--gcrypt") == 0)
		part = 3;
	if (!RUNNING_ON_VALGRIND) {
		fprintf(stderr, "ct_check: run it under valgrind (make ct): "
				"without memcheck nothing is checked\n");
		return 2;
	}
	printf("ct: valgrind memcheck, secrets undefined; kernels compiled "
	       "in: %zu; %s\n",
	       n,
	       part == 0   ? "all cases"
	       : part == 1 ? "every case but AES-GCM"
	       : part == 2 ? "the AES-GCM cases (OpenSSL's GCM, suppressions "
			     "of tests/ct/ct.supp apply)"
			   : "the AES-GCM block cases on libgcrypt (the "
			     "mount's backend: arena, then libgcrypt)");
	if (part == 3) {
		/* as cli/main.c: the arena before any libcrypto or
		 * libgcrypt call, then the backend switch of the serving
		 * process (content_gcm_backend_enable) */
		if (ossl_mem_init(arena, sizeof(arena)) != 0 ||
		    strcmp(content_gcm_backend_enable(), "gcrypt") != 0) {
			printf("FAIL: ct: libgcrypt AES-GCM backend not "
			       "enabled (%s)\n",
			       ossl_gcm_backend());
			return 1;
		}
		content_cases(CIPHER_AES_GCM, "AES-256-GCM");
		goto done;
	}
	if (part == 2) {
		content_cases(CIPHER_AES_GCM, "AES-256-GCM");
		kdf_cases(2);
		goto done;
	}
	for (size_t i = 0; i < n; i++) {
		const struct dispatch_choice *ch;

		if (dispatch_force(k[i].name) != 0) {
			printf("SKIP: ct kernel %s: not checkable here: the "
			       "CPU valgrind %s shows lacks it%s (not "
			       "passed)\n",
			       k[i].name,
			       k[i].level == DISPATCH_AVX512
				       ? "3.19 (no AVX-512 support)"
				       : "",
			       k[i].level == DISPATCH_AVX512
				       ? ", so the avx512 kernel never ran"
				       : "");
			continue;
		}
		ch = dispatch_current();
		if (strcmp(ch->kernel->name, k[i].name) != 0) {
			printf("FAIL: ct kernel %s: the dispatcher chose %s\n",
			       k[i].name, ch->kernel->name);
			failures++;
			continue;
		}
		/* the composition with the kernel's stitched bodies, then
		 * without them (its generic ChaCha20 + Poly1305 path) */
		for (int nobody = 0; nobody < 2; nobody++) {
			if (nobody) {
				if (ch->body == NULL && ch->open_body == NULL)
					break;
				dispatch_body(0);
			}
			snprintf(impl, sizeof(impl),
				 "kernel %s, %s, body %s, open body %s",
				 ch->kernel->name, ch->poly1305,
				 ch->body ? "yes" : "no",
				 ch->open_body ? "yes" : "no");
			printf("ct: running %s\n", impl);
			if (ch->kernel->level == DISPATCH_AVX2 && !nobody)
				printf("ct: the avx2 kernel's inline asm "
				       "(A2_QR2 rounds, p64r_block Poly1305) "
				       "is checked: memcheck instruments the "
				       "machine code the assembler produced, "
				       "not the C\n");
			aead_cases(impl, xchachapoly_seal, xchachapoly_open);
			if (!nobody)
				chacha_cases(impl);
			dispatch_body(1);
		}
	}
	/* the best kernel again for the rest (the mount's choice) */
	dispatch_force(k[n - 1].name);
	for (size_t i = n; i-- > 0;)
		if (dispatch_force(k[i].name) == 0)
			break;
	aead_cases("aead/chachapoly.c on the mount's kernel", xchachapoly_seal,
		   xchachapoly_open);
	poly_cases();
	compare_wipe_cases();
	content_cases(CIPHER_XCHACHA, "XChaCha20-Poly1305");
	if (part == 0)
		content_cases(CIPHER_AES_GCM, "AES-256-GCM");
	kdf_cases(part == 0);
done:
	printf("ct: %d failing case(s), %lu memcheck errors in all\n", failures,
	       (unsigned long)VALGRIND_COUNT_ERRORS);
	return failures == 0 ? 0 : 1;
}
