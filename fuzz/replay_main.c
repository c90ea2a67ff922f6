/* SPDX-License-Identifier: MIT */
/*
 * Plain replay driver for the libFuzzer targets in fuzz/: main() feeds every
 * file named on the command line (or found directly inside a directory
 * named there) to LLVMFuzzerTestOneInput, once each, in sorted order.
 * Linked with ASan + UBSan but without libFuzzer, so `make check` can
 * replay the committed corpora and a crash file can be reproduced under a
 * debugger (see fuzz/README.md).
 * Depends on: libc only; the target supplies LLVMFuzzerTestOneInput.
 * Not constant time, not proved: test code.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Inputs larger than this are refused (libFuzzer's default -max_len is far
 * below it); a corpus file that big is a mistake. */
#define REPLAY_MAX_INPUT (16U * 1024U * 1024U)

static int replay_file(const char *path, unsigned long *count)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	uint8_t *buf;
	size_t len;

	if (f == NULL) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (fstat(fileno(f), &st) != 0 || st.st_size < 0 ||
	    (unsigned long long)st.st_size > REPLAY_MAX_INPUT) {
		fprintf(stderr, "replay: %s: cannot size or too large\n", path);
		fclose(f);
		return -1;
	}
	len = (size_t)st.st_size;
	/* exact size (1 byte for an empty input), so ASan sees any read past
	 * the end of the input */
	buf = malloc(len ? len : 1);
	if (buf == NULL) {
		fclose(f);
		return -1;
	}
	if (len > 0 && fread(buf, 1, len, f) != len) {
		fprintf(stderr, "replay: %s: short read\n", path);
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	(*count)++;
	return 0;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int replay_dir(const char *dir, unsigned long *count)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0;
	size_t cap = 0;
	int rc = 0;

	if (d == NULL) {
		fprintf(stderr, "replay: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d)) != NULL) {
		char *p;
		size_t plen;

		if (e->d_name[0] == '.')
			continue;
		plen = strlen(dir) + strlen(e->d_name) + 2;
		p = malloc(plen);
		if (p == NULL) {
			rc = -1;
			break;
		}
		snprintf(p, plen, "%s/%s", dir, e->d_name);
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 64;
			char **nn = realloc(names, ncap * sizeof(*names));

			if (nn == NULL) {
				free(p);
				rc = -1;
				break;
			}
			names = nn;
			cap = ncap;
		}
		names[n++] = p;
	}
	closedir(d);
	if (n > 0)
		qsort(names, n, sizeof(*names), name_cmp);
	for (size_t i = 0; i < n; i++) {
		struct stat st;

		if (rc == 0 && stat(names[i], &st) == 0 &&
		    S_ISREG(st.st_mode) && replay_file(names[i], count) != 0)
			rc = -1;
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	unsigned long count = 0;
	int rc = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		struct stat st;

		if (stat(argv[i], &st) != 0) {
			fprintf(stderr, "replay: %s: %s\n", argv[i],
				strerror(errno));
			rc = 1;
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			if (replay_dir(argv[i], &count) != 0)
				rc = 1;
		} else if (replay_file(argv[i], &count) != 0) {
			rc = 1;
		}
	}
	printf("replay: %lu inputs, 0 crashes\n", count);
	return rc;
}
