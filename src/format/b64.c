/* SPDX-License-Identifier: MIT */
/*
 * Base64 encode and strict decode, URL-safe or standard, raw or padded.
 * See b64.h. Spec: RFC 4648 sections 4 and 5, ../shared/FORMAT.md 5.3.
 * Depends on: errno.h only. Pure C for Frama-C WP; not constant time.
 */
#include "format/b64.h"

#include <errno.h>

/* Character for a 6-bit value. */
/*@ assigns \nothing; */
static char b64_chr(uint32_t v, unsigned flags)
{
	if (v < 26)
		return (char)('A' + v);
	if (v < 52)
		return (char)('a' + (v - 26));
	if (v < 62)
		return (char)('0' + (v - 52));
	if (v == 62)
		return (flags & B64_STD) ? '+' : '-';
	return (flags & B64_STD) ? '/' : '_';
}

/* 6-bit value of a character, or -1 if it is not in the alphabet. */
/*@ assigns \nothing;
    ensures range: -1 <= \result <= 63;
    ensures valid: \result >= 0 <==> B64_ALPHA(c, flags);
 */
static int b64_val(char c, unsigned flags)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (flags & B64_STD) {
		if (c == '+')
			return 62;
		if (c == '/')
			return 63;
		return -1;
	}
	if (c == '-')
		return 62;
	if (c == '_')
		return 63;
	return -1;
}

size_t b64_enc_len(size_t n, unsigned flags)
{
	size_t rem = n % 3;

	if (flags & B64_PAD)
		return (n / 3 + (rem != 0)) * 4;
	return n / 3 * 4 + (rem == 0 ? 0 : rem + 1);
}

void b64_encode(char *out, const uint8_t *in, size_t n, unsigned flags)
{
	int full, rem, o = 0;

	if (n > B64_MAX_BIN) { /* caller bug (precondition): write "" */
		out[0] = '\0';
		return;
	}
	full = (int)(n / 3);
	rem = (int)(n % 3);
	/*@ loop invariant 0 <= i <= full;
	    loop invariant o == 4 * i;
	    loop assigns i, o, out[0 .. 4 * full - 1];
	    loop variant full - i;
	 */
	for (int i = 0; i < full; i++) {
		uint32_t v = ((uint32_t)in[3 * i] << 16) |
			     ((uint32_t)in[3 * i + 1] << 8) | in[3 * i + 2];

		out[o] = b64_chr(v >> 18, flags);
		out[o + 1] = b64_chr((v >> 12) & 63U, flags);
		out[o + 2] = b64_chr((v >> 6) & 63U, flags);
		out[o + 3] = b64_chr(v & 63U, flags);
		o += 4;
	}
	if (rem == 1) {
		uint32_t v = (uint32_t)in[3 * full] << 16;

		out[o] = b64_chr(v >> 18, flags);
		out[o + 1] = b64_chr((v >> 12) & 63U, flags);
		o += 2;
		if (flags & B64_PAD) {
			out[o] = '=';
			out[o + 1] = '=';
			o += 2;
		}
	} else if (rem == 2) {
		uint32_t v = ((uint32_t)in[3 * full] << 16) |
			     ((uint32_t)in[3 * full + 1] << 8);

		out[o] = b64_chr(v >> 18, flags);
		out[o + 1] = b64_chr((v >> 12) & 63U, flags);
		out[o + 2] = b64_chr((v >> 6) & 63U, flags);
		o += 3;
		if (flags & B64_PAD) {
			out[o] = '=';
			o += 1;
		}
	}
	out[o] = '\0';
}

int b64_decode(uint8_t *out, size_t cap, size_t *outlen, const char *in,
	       size_t len, unsigned flags)
{
	int n, npad = 0, body, full, rem, need, o = 0;

	if (len > B64_MAX_TXT)
		return -EINVAL;
	n = (int)len;
	if (flags & B64_PAD) {
		if (n % 4 != 0)
			return -EINVAL;
		if (n >= 4 && in[n - 1] == '=') {
			npad = 1;
			if (in[n - 2] == '=')
				npad = 2;
		}
	}
	body = n - npad;
	full = body / 4;
	rem = body % 4;
	if (rem == 1)
		return -EINVAL;
	need = full * 3 + (rem == 0 ? 0 : rem - 1);
	if ((size_t)need > cap)
		return -ERANGE;

	/* pass 1: validate every character and the canonical tail */
	/*@ loop invariant 0 <= i <= body;
	    loop invariant \forall integer k; 0 <= k < i ==>
	      B64_ALPHA(in[k], flags);
	    loop assigns i;
	    loop variant body - i;
	 */
	for (int i = 0; i < body; i++)
		if (b64_val(in[i], flags) < 0)
			return -EINVAL;
	if (rem == 2 && ((unsigned)b64_val(in[body - 1], flags) & 15U) != 0)
		return -EINVAL;
	if (rem == 3 && ((unsigned)b64_val(in[body - 1], flags) & 3U) != 0)
		return -EINVAL;

	/* pass 2: decode; every b64_val below is in 0..63 */
	/*@ loop invariant 0 <= i <= full;
	    loop invariant o == 3 * i;
	    loop assigns i, o, out[0 .. 3 * full - 1];
	    loop variant full - i;
	 */
	for (int i = 0; i < full; i++) {
		uint32_t v = ((uint32_t)b64_val(in[4 * i], flags) << 18) |
			     ((uint32_t)b64_val(in[4 * i + 1], flags) << 12) |
			     ((uint32_t)b64_val(in[4 * i + 2], flags) << 6) |
			     (uint32_t)b64_val(in[4 * i + 3], flags);

		out[o] = (uint8_t)(v >> 16);
		out[o + 1] = (uint8_t)(v >> 8);
		out[o + 2] = (uint8_t)v;
		o += 3;
	}
	if (rem >= 2) {
		uint32_t v = ((uint32_t)b64_val(in[4 * full], flags) << 18) |
			     ((uint32_t)b64_val(in[4 * full + 1], flags) << 12);

		if (rem == 3)
			v |= (uint32_t)b64_val(in[4 * full + 2], flags) << 6;
		out[o] = (uint8_t)(v >> 16);
		o += 1;
		if (rem == 3) {
			out[o] = (uint8_t)(v >> 8);
			o += 1;
		}
	}
	*outlen = (size_t)o;
	return 0;
}
