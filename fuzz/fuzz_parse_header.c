/* SPDX-License-Identifier: MIT */
/* Targets: header_parse, header_build. */
/*
 * The 18-byte file header (FORMAT.md 4.2) as read from an untrusted
 * backing file. The first 18 input bytes are the header (zero-filled when
 * the input is shorter). Checked: header_parse accepts exactly version 2
 * with a non-zero file ID, returns -EIO otherwise and then leaves the
 * file-ID buffer untouched, and on success header_build gives back the
 * same 18 bytes.
 * Test code: not constant time, not proved.
 */
#include <errno.h>

#include "format/header.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f;
	uint8_t in[HEADER_LEN];
	uint8_t id[HEADER_ID_LEN];
	int nonzero = 0;
	int want_ok;
	int rc;

	fz_init(&f, data, size);
	fz_bytes(&f, in, sizeof(in));
	for (int i = 2; i < HEADER_LEN; i++)
		nonzero |= in[i];
	want_ok = in[0] == 0 && in[1] == HEADER_VERSION && nonzero != 0;
	memset(id, 0xa5, sizeof(id));
	rc = header_parse(id, in);
	if (want_ok) {
		uint8_t back[HEADER_LEN];

		FZ_CHECK(rc == 0, "header_parse rejected a valid header");
		FZ_CHECK(memcmp(id, in + 2, HEADER_ID_LEN) == 0,
			 "header_parse returned the wrong file ID");
		header_build(back, id);
		FZ_CHECK(memcmp(back, in, HEADER_LEN) == 0,
			 "header_build(header_parse(h)) != h");
	} else {
		FZ_CHECK(rc == -EIO, "header_parse accepted a bad header");
		for (int i = 0; i < HEADER_ID_LEN; i++)
			FZ_CHECK(id[i] == 0xa5,
				 "header_parse wrote the ID on failure");
	}
	return 0;
}
