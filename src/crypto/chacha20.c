/* SPDX-License-Identifier: MIT */
/*
 * Portable ChaCha20, HChaCha20, XChaCha20. See chacha20.h.
 * Spec: RFC 8439 sections 2.1-2.4; draft-irtf-cfrg-xchacha-03 2.2.
 * Depends on: ct.h. Written for Frama-C WP: int loop counters, fixed-size
 * array parameters, explicit little-endian loads and stores, one small
 * function per round step so each contract is a single spec step.
 * Constant time: yes (adds, xors, fixed rotations only).
 */
#include "crypto/chacha20.h"
#include "crypto/ct.h"

static uint32_t rotl32(uint32_t v, int c)
{
	return ((uint32_t)(v << c)) | (v >> (32 - c));
}

static void quarter_round(uint32_t x[16], int a, int b, int c, int d)
{
	x[a] += x[b];
	x[d] = rotl32(x[d] ^ x[a], 16);
	x[c] += x[d];
	x[b] = rotl32(x[b] ^ x[c], 12);
	x[a] += x[b];
	x[d] = rotl32(x[d] ^ x[a], 8);
	x[c] += x[d];
	x[b] = rotl32(x[b] ^ x[c], 7);
}

static void double_round(uint32_t x[16])
{
	quarter_round(x, 0, 4, 8, 12);
	quarter_round(x, 1, 5, 9, 13);
	quarter_round(x, 2, 6, 10, 14);
	quarter_round(x, 3, 7, 11, 15);
	quarter_round(x, 0, 5, 10, 15);
	quarter_round(x, 1, 6, 11, 12);
	quarter_round(x, 2, 7, 8, 13);
	quarter_round(x, 3, 4, 9, 14);
}

static void rounds20(uint32_t x[16])
{
	for (int i = 0; i < 10; i++)
		double_round(x);
}

/* state = "expand 32-byte k" | key | w12 | w13 w14 w15 (from nonce) */
static void init_state(uint32_t x[16], const uint8_t key[32], uint32_t w12,
		       const uint8_t n[12])
{
	x[0] = 0x61707865U;
	x[1] = 0x3320646eU;
	x[2] = 0x79622d32U;
	x[3] = 0x6b206574U;
	for (int i = 0; i < 8; i++)
		x[4 + i] = load32_le(key + 4 * i);
	x[12] = w12;
	for (int i = 0; i < 3; i++)
		x[13 + i] = load32_le(n + 4 * i);
}

/* see chacha20.h */
void chacha20_block(uint8_t out[64], const uint8_t key[32], uint32_t counter,
		    const uint8_t nonce[12])
{
	uint32_t in[16];
	uint32_t x[16];

	init_state(in, key, counter, nonce);
	for (int i = 0; i < 16; i++)
		x[i] = in[i];
	rounds20(x);
	for (int i = 0; i < 16; i++)
		store32_le(out + 4 * i, x[i] + in[i]);
	ct_wipe(x, sizeof(x));
	ct_wipe(in, sizeof(in));
}

/* out[0..n-1] = in[0..n-1] ^ ks[0..n-1], n <= 64 */
static void xor_block(uint8_t *out, const uint8_t *in, const uint8_t ks[64],
		      size_t n)
{
	for (size_t i = 0; i < n; i++)
		out[i] = (uint8_t)(in[i] ^ ks[i]);
}

/* see chacha20.h */
uint32_t chacha20_xor(uint8_t *out, const uint8_t *in, size_t len,
		      const uint8_t key[32], uint32_t counter,
		      const uint8_t nonce[12])
{
	uint8_t ks[64];
	size_t off = 0;

	while (len - off >= 64) {
		chacha20_block(ks, key, counter, nonce);
		xor_block(out + off, in + off, ks, 64);
		counter++;
		off += 64;
	}
	if (off < len) {
		chacha20_block(ks, key, counter, nonce);
		xor_block(out + off, in + off, ks, len - off);
		counter++;
	}
	ct_wipe(ks, sizeof(ks));
	return counter;
}

/* see chacha20.h */
void hchacha20(uint8_t out[32], const uint8_t key[32], const uint8_t nonce[16])
{
	uint32_t x[16];

	init_state(x, key, load32_le(nonce), nonce + 4);
	rounds20(x);
	for (int i = 0; i < 4; i++) {
		store32_le(out + 4 * i, x[i]);
		store32_le(out + 16 + 4 * i, x[12 + i]);
	}
	ct_wipe(x, sizeof(x));
}

/* see chacha20.h */
uint32_t xchacha20_xor(uint8_t *out, const uint8_t *in, size_t len,
		       const uint8_t key[32], uint32_t counter,
		       const uint8_t nonce[24])
{
	uint8_t subkey[32];
	uint8_t n12[12] = { 0 };
	uint32_t next;

	hchacha20(subkey, key, nonce);
	for (int i = 0; i < 8; i++)
		n12[4 + i] = nonce[16 + i];
	next = chacha20_xor(out, in, len, subkey, counter, n12);
	ct_wipe(subkey, sizeof(subkey));
	return next;
}
