/* SPDX-License-Identifier: MIT */
/*
 * Reader for tests/vectors/NAME.vec, the project's plain-text test vectors.
 * Format: "#" starts a comment line ("# source: RFC 8439 A.1 #1" names the
 * origin of the next case); a case is a run of "name = value" lines ended by
 * a blank line or end of file; a line that starts with a tab or space
 * continues the previous field (whitespace inside a value is dropped, so
 * long hex wraps at 80 columns). Values are hex strings or decimal numbers.
 * Also the loader of the Wycheproof JSON files in the shared test data.
 * Generic: linked into every test binary, knows no primitive.
 */
#ifndef VCRYPTFS_VEC_H
#define VCRYPTFS_VEC_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define VEC_MAX_FIELDS 16
#define VEC_NAME_MAX 32
#define VEC_SOURCE_MAX 160

struct vec_field {
	char name[VEC_NAME_MAX];
	char *value; /* NUL-terminated, whitespace removed; malloc'd */
	size_t len;
};

struct vec_case {
	char source[VEC_SOURCE_MAX]; /* text after "# source: ", or "" */
	unsigned line;		     /* line of the case's first field */
	size_t nfields;
	struct vec_field field[VEC_MAX_FIELDS];
};

struct vec_file {
	FILE *fp;
	char path[4096];
	unsigned lineno;
	char source[VEC_SOURCE_MAX]; /* pending "# source:" comment */
};

/* Directory of the vector files: $VCRYPTFS_ROOT/tests/vectors, with "."
 * for an unset root (no trailing /). */
const char *vec_dir(void);

/* Open vec_dir()/name. Returns 0 or -errno. */
int vec_open(struct vec_file *vf, const char *name);

/*
 * Read the next case into c (which must be zeroed before the first call;
 * its previous values are freed). Returns 1 for a case, 0 at end of file,
 * -1 on a syntax error (a message naming file and line goes to stdout).
 */
int vec_next(struct vec_file *vf, struct vec_case *c);

/* The value of field `name`, or NULL when the case has none. */
const char *vec_get(const struct vec_case *c, const char *name);

/* Decode hex field `name` into out (at most cap bytes). Returns the byte
 * count, or -1 when the field is missing, not hex or longer than cap. */
long vec_hex(const struct vec_case *c, const char *name, uint8_t *out,
	     size_t cap);

/* Parse decimal field `name` into *out. Returns 0, or -1 when missing or
 * not a number below 2^32. */
int vec_u32(const struct vec_case *c, const char *name, uint32_t *out);

/* Free the values held by c (c stays reusable). */
void vec_case_free(struct vec_case *c);

void vec_close(struct vec_file *vf);

/* The Wycheproof file NAME of the shared test data
 * (th_shared_dir()/vectors/wycheproof/NAME), or NULL after a failed
 * check naming the error. The caller json_decref()s it. */
json_t *vec_wycheproof(const char *name);
/* The string member key of o, or "" when it is missing or no string. */
const char *vec_jstr(json_t *o, const char *key);

#endif
