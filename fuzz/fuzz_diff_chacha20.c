/* SPDX-License-Identifier: MIT */
/* Targets: chacha20_xor, chacha20_block, hchacha20, xchacha20_xor, every
 * chacha20_xor_fn of dispatch_list() (ssse3, avx, avx2, avx512 when the CPU has
 * it), each stitched chacha20_poly_fn (stitched_get), OpenSSL
 * EVP_chacha20. */
/*
 * Differential fuzzing of ChaCha20 (RFC 8439 2.3-2.4, XChaCha draft 2.2):
 * the fuzzer picks key, nonce, starting counter (biased towards the 32-bit
 * wrap), length, split point and buffer misalignment. Reference: the
 * keystream assembled block by block from the proved chacha20_block.
 * Checked: the portable chacha20_xor and each compiled kernel (out of place
 * at odd alignments, in place, split at a block boundary, returned counter),
 * each stitched ChaCha20+Poly1305 kernel (ciphertext, counter, and the tag
 * of the absorbed ciphertext against the portable poly1305_mac),
 * OpenSSL EVP_chacha20 whenever the run does not cross the 32-bit wrap
 * (OpenSSL carries into the nonce there), hchacha20 against the words of a
 * chacha20_block run on the same state, and xchacha20_xor.
 * With -DVCRYPTFS_FUZZ_BROKEN_KERNEL (fuzz-selftest only) a "broken" kernel
 * joins the list: its multi-block path runs a copy of chacha20/ref.c with one
 * constant flipped (mk/fuzz.mk makes that copy); the harness must crash.
 * Test code: not constant time, not proved.
 */
#include <openssl/evp.h>

#include "crypto/chacha20/ref.h"
#include "crypto/ct.h"
#include "crypto/dispatch.h"
#include "crypto/kernels.h"
#include "crypto/poly1305/ref.h"
#include "fuzz_util.h"

struct fz_impl {
	const char *name;
	chacha20_xor_fn fn;
	chacha20_poly_fn stitched; /* NULL: none */
};

/* two 16-block (AVX-512) rounds plus three blocks and a tail */
#define FZ_MAX_LEN (2 * 1024 + 3 * 64 + 1)
#define FZ_MAX_IMPLS 8

#ifdef VCRYPTFS_FUZZ_BROKEN_KERNEL
/* From the flipped copy of chacha20/ref.c that mk/fuzz.mk builds. */
uint32_t fuzz_broken_chacha20_xor(uint8_t *out, const uint8_t *in, size_t len,
				  const uint8_t key[32], uint32_t counter,
				  const uint8_t nonce[12]);

/* A kernel whose 4-block path is wrong and whose tail path is right, the
 * way a real SIMD bug hides: short inputs agree, only len >= 256 shows it. */
static uint32_t broken_xor(uint8_t *out, const uint8_t *in, size_t len,
			   const uint8_t key[32], uint32_t counter,
			   const uint8_t nonce[12])
{
	size_t wide = len - len % 256;

	counter = fuzz_broken_chacha20_xor(out, in, wide, key, counter, nonce);
	return chacha20_xor(out + wide, in + wide, len - wide, key, counter,
			    nonce);
}
#endif

/* portable, then every kernel of dispatch_list() this CPU can run */
static size_t impls_get(struct fz_impl *v)
{
	const struct dispatch_kernel *k;
	size_t nk = 0;
	size_t n = 0;

	v[n].name = "portable";
	v[n].stitched = NULL;
	v[n++].fn = chacha20_xor;
	k = dispatch_list(&nk);
	for (size_t i = 0; i < nk && n < FZ_MAX_IMPLS - 1; i++) {
		/* cppcheck misreads the getter's function-pointer type */
		/* cppcheck-suppress AssignmentIntegerToAddress */
		chacha20_xor_fn fn = k[i].get();

		if (fn == NULL || fn == chacha20_xor)
			continue;
		v[n].name = k[i].name;
		v[n].fn = fn;
		v[n++].stitched =
			k[i].stitched_get != NULL ? k[i].stitched_get() : NULL;
	}
#ifdef VCRYPTFS_FUZZ_BROKEN_KERNEL
	v[n].name = "broken";
	v[n].stitched = NULL;
	v[n++].fn = broken_xor;
#endif
	return n;
}

/* ref = in ^ keystream built block by block, counter mod 2^32 */
static void ref_xor(uint8_t *ref, const uint8_t *in, size_t len,
		    const uint8_t key[32], uint32_t counter,
		    const uint8_t nonce[12])
{
	uint8_t ks[64];

	for (size_t off = 0; off < len; off += 64) {
		size_t k = len - off;

		if (k > 64)
			k = 64;
		chacha20_block(ks, key, counter, nonce);
		counter++;
		for (size_t i = 0; i < k; i++)
			ref[off + i] = (uint8_t)(in[off + i] ^ ks[i]);
	}
}

static void check_openssl(const uint8_t *ref, const uint8_t *in, size_t len,
			  const uint8_t key[32], uint32_t counter,
			  const uint8_t nonce[12])
{
	uint8_t iv[16];
	EVP_CIPHER_CTX *ctx;
	uint8_t *out = malloc(len ? len : 1);
	int outl = 0;

	FZ_CHECK(out != NULL, "malloc");
	iv[0] = (uint8_t)counter;
	iv[1] = (uint8_t)(counter >> 8);
	iv[2] = (uint8_t)(counter >> 16);
	iv[3] = (uint8_t)(counter >> 24);
	memcpy(iv + 4, nonce, 12);
	ctx = EVP_CIPHER_CTX_new();
	FZ_CHECK(ctx != NULL, "EVP_CIPHER_CTX_new");
	FZ_CHECK(EVP_EncryptInit_ex(ctx, EVP_chacha20(), NULL, key, iv) == 1,
		 "EVP_EncryptInit_ex chacha20");
	if (len > 0)
		FZ_CHECK(EVP_EncryptUpdate(ctx, out, &outl, in, (int)len) ==
					 1 &&
				 (size_t)outl == len,
			 "EVP_EncryptUpdate chacha20");
	EVP_CIPHER_CTX_free(ctx);
	FZ_CHECK(memcmp(out, ref, len) == 0,
		 "portable != OpenSSL EVP_chacha20");
	free(out);
}

static void check_impl(const struct fz_impl *im, const uint8_t *ref,
		       const uint8_t *in, size_t len, const uint8_t key[32],
		       uint32_t counter, const uint8_t nonce[12], size_t aout,
		       size_t split)
{
	uint32_t want = counter + (uint32_t)((len + 63) / 64);
	uint8_t *obuf = malloc(len + aout + 1);
	uint8_t *out = obuf + aout;
	uint32_t got;

	FZ_CHECK(obuf != NULL, "malloc");
	/* out of place, misaligned output */
	got = im->fn(out, in, len, key, counter, nonce);
	if (memcmp(out, ref, len) != 0 || got != want) {
		fprintf(stderr, "kernel %s: len %zu counter %08x\n", im->name,
			len, counter);
		FZ_CHECK(0, "kernel != reference (out of place)");
	}
	/* in place */
	if (len > 0)
		memcpy(out, in, len);
	got = im->fn(out, out, len, key, counter, nonce);
	if (memcmp(out, ref, len) != 0 || got != want) {
		fprintf(stderr, "kernel %s: len %zu counter %08x\n", im->name,
			len, counter);
		FZ_CHECK(0, "kernel != reference (in place)");
	}
	/* two calls split at a block boundary, the counter chained */
	got = im->fn(out, in, split, key, counter, nonce);
	got = im->fn(out + split, in + split, len - split, key, got, nonce);
	if (memcmp(out, ref, len) != 0 || got != want) {
		fprintf(stderr, "kernel %s: len %zu split %zu counter %08x\n",
			im->name, len, split, counter);
		FZ_CHECK(0, "kernel != reference (split)");
	}
	free(obuf);
}

/* stitched: c = ChaCha20 ^ m and the MAC absorbs c, from a fresh state */
static void check_stitched(const struct fz_impl *im, const uint8_t *ref,
			   const uint8_t *in, size_t len, const uint8_t key[32],
			   uint32_t counter, const uint8_t nonce[12],
			   const uint8_t mackey[32], size_t aout)
{
	uint32_t want = counter + (uint32_t)((len + 63) / 64);
	uint8_t *obuf = malloc(len + aout + 1);
	uint8_t *out = obuf + aout;
	struct poly1305_fast mac;
	uint8_t tag[16];
	uint8_t reftag[16];
	uint32_t got;

	FZ_CHECK(obuf != NULL, "malloc");
	poly1305_mac(reftag, ref, len, mackey);
	poly1305_fast_init(&mac, mackey);
	got = im->stitched(out, in, len, key, counter, nonce, &mac);
	poly1305_fast_final(&mac, tag);
	if (memcmp(out, ref, len) != 0 || got != want ||
	    memcmp(tag, reftag, 16) != 0) {
		fprintf(stderr, "stitched %s: len %zu counter %08x\n", im->name,
			len, counter);
		FZ_CHECK(0, "stitched kernel != reference");
	}
	/* in place */
	if (len > 0)
		memcpy(out, in, len);
	poly1305_fast_init(&mac, mackey);
	got = im->stitched(out, out, len, key, counter, nonce, &mac);
	poly1305_fast_final(&mac, tag);
	FZ_CHECK(memcmp(out, ref, len) == 0 && got == want &&
			 memcmp(tag, reftag, 16) == 0,
		 "stitched kernel != reference (in place)");
	free(obuf);
}

/* hchacha20 = the first and last row of the rounds on the same state as a
 * chacha20_block whose counter and nonce are the 16-byte HChaCha nonce,
 * minus the feed-forward words that chacha20_block adds. */
static void check_hchacha(const uint8_t key[32], const uint8_t n16[16])
{
	static const uint32_t sigma[4] = { 0x61707865U, 0x3320646eU,
					   0x79622d32U, 0x6b206574U };
	uint8_t blk[64];
	uint8_t sub[32];
	uint8_t want[32];

	chacha20_block(blk, key, load32_le(n16), n16 + 4);
	for (int i = 0; i < 4; i++) {
		uint32_t w0 = load32_le(blk + 4 * i) - sigma[i];
		uint32_t w1 =
			load32_le(blk + 48 + 4 * i) - load32_le(n16 + 4 * i);

		store32_le(want + 4 * i, w0);
		store32_le(want + 16 + 4 * i, w1);
	}
	hchacha20(sub, key, n16);
	FZ_CHECK(memcmp(sub, want, 32) == 0,
		 "hchacha20 != chacha20_block rows");
}

static void check_xchacha(const uint8_t *in, size_t len, const uint8_t key[32],
			  uint32_t counter, const uint8_t n24[24])
{
	uint8_t sub[32];
	uint8_t n12[12] = { 0 };
	uint8_t *a = malloc(len ? len : 1);
	uint8_t *b = malloc(len ? len : 1);

	FZ_CHECK(a != NULL && b != NULL, "malloc");
	hchacha20(sub, key, n24);
	memcpy(n12 + 4, n24 + 16, 8);
	ref_xor(a, in, len, sub, counter, n12);
	FZ_CHECK(xchacha20_xor(b, in, len, key, counter, n24) ==
			 counter + (uint32_t)((len + 63) / 64),
		 "xchacha20_xor returned counter");
	FZ_CHECK(memcmp(a, b, len) == 0, "xchacha20_xor != subkey reference");
	free(a);
	free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f;
	struct fz_impl impls[FZ_MAX_IMPLS];
	uint8_t key[32];
	uint8_t n24[24];
	uint8_t mackey[32];
	uint32_t counter;
	uint8_t mode;
	size_t len;
	size_t ain;
	size_t aout;
	size_t split;
	size_t n;
	uint8_t *ibuf;
	uint8_t *in;
	uint8_t *ref;

	fz_init(&f, data, size);
	fz_bytes(&f, key, sizeof(key));
	fz_bytes(&f, n24, sizeof(n24));
	mode = fz_u8(&f);
	counter = fz_u32(&f);
	/* half the inputs start within 8 blocks of the 32-bit wrap */
	if (mode & 1)
		counter = 0xffffffffU - (counter & 7U);
	len = fz_len(&f, FZ_MAX_LEN);
	ain = (mode >> 1) & 15U;
	aout = (mode >> 5) & 7U;
	split = fz_len(&f, len) & ~(size_t)63;

	ibuf = malloc(len + ain + 1);
	ref = malloc(len ? len : 1);
	FZ_CHECK(ibuf != NULL && ref != NULL, "malloc");
	in = ibuf + ain;
	fz_bytes(&f, in, len); /* the rest of the input is the message */
	/* MAC key for the stitched kernels: XChaCha nonce | key[0..7] */
	memcpy(mackey, n24, 24);
	memcpy(mackey + 24, key, 8);

	ref_xor(ref, in, len, key, counter, n24);
	n = impls_get(impls);
	for (size_t i = 0; i < n; i++) {
		check_impl(&impls[i], ref, in, len, key, counter, n24, aout,
			   split);
		if (impls[i].stitched != NULL)
			check_stitched(&impls[i], ref, in, len, key, counter,
				       n24, mackey, aout);
	}
	if ((uint64_t)counter + (len + 63) / 64 <= 0x100000000ULL)
		check_openssl(ref, in, len, key, counter, n24);
	check_hchacha(key, n24);
	check_xchacha(in, len, key, counter, n24);
	free(ibuf);
	free(ref);
	return 0;
}
