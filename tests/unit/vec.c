/* SPDX-License-Identifier: MIT */
/* Reader for the tests/vectors/NAME.vec files. See vec.h. */
#include "vec.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "th.h"

const char *vec_dir(void)
{
	static char path[2048];
	const char *root = getenv("VCRYPTFS_ROOT");

	snprintf(path, sizeof(path), "%s/tests/vectors",
		 root != NULL && root[0] != 0 ? root : ".");
	return path;
}

int vec_open(struct vec_file *vf, const char *name)
{
	int n;

	memset(vf, 0, sizeof(*vf));
	n = snprintf(vf->path, sizeof(vf->path), "%s/%s", vec_dir(), name);
	if (n < 0 || (size_t)n >= sizeof(vf->path))
		return -ENAMETOOLONG;
	vf->fp = fopen(vf->path, "r");
	if (vf->fp == NULL)
		return -errno;
	return 0;
}

void vec_close(struct vec_file *vf)
{
	if (vf->fp != NULL)
		fclose(vf->fp);
	vf->fp = NULL;
}

void vec_case_free(struct vec_case *c)
{
	for (size_t i = 0; i < c->nfields; i++) {
		free(c->field[i].value);
		c->field[i].value = NULL;
	}
	c->nfields = 0;
	c->source[0] = 0;
	c->line = 0;
}

/* Append the non-space characters of s to field f. Returns 0 or -1. */
static int field_append(struct vec_field *f, const char *s)
{
	size_t add = 0;
	char *v;

	for (const char *p = s; *p != 0; p++)
		if (!isspace((unsigned char)*p))
			add++;
	v = realloc(f->value, f->len + add + 1);
	if (v == NULL)
		return -1;
	f->value = v;
	for (const char *p = s; *p != 0; p++)
		if (!isspace((unsigned char)*p))
			v[f->len++] = *p;
	v[f->len] = 0;
	return 0;
}

static int syntax(const struct vec_file *vf, const char *why)
{
	printf("vec: %s:%u: %s\n", vf->path, vf->lineno, why);
	return -1;
}

/* Handle "name = value"; returns 0 or -1. */
static int add_field(struct vec_file *vf, struct vec_case *c, char *line)
{
	char *eq = strchr(line, '=');
	char *end;
	struct vec_field *f;

	if (eq == NULL)
		return syntax(vf, "expected 'name = value'");
	end = eq;
	while (end > line && isspace((unsigned char)end[-1]))
		end--;
	if (end == line || (size_t)(end - line) >= VEC_NAME_MAX)
		return syntax(vf, "bad field name");
	if (c->nfields == VEC_MAX_FIELDS)
		return syntax(vf, "too many fields in one case");
	*end = 0;
	if (vec_get(c, line) != NULL)
		return syntax(vf, "field given twice");
	if (c->nfields == 0) {
		c->line = vf->lineno;
		memcpy(c->source, vf->source, sizeof(c->source));
		vf->source[0] = 0;
	}
	f = &c->field[c->nfields++];
	memcpy(f->name, line, (size_t)(end - line) + 1);
	f->value = NULL;
	f->len = 0;
	if (field_append(f, eq + 1) != 0)
		return syntax(vf, "out of memory");
	return 0;
}

int vec_next(struct vec_file *vf, struct vec_case *c)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int rc = 0;

	vec_case_free(c);
	while ((n = getline(&line, &cap, vf->fp)) >= 0) {
		vf->lineno++;
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = 0;
		if (line[0] == '#') {
			static const char tag[] = "# source:";
			const char *s = line + sizeof(tag) - 1;

			if (strncmp(line, tag, sizeof(tag) - 1) != 0)
				continue;
			while (*s == ' ')
				s++;
			snprintf(vf->source, sizeof(vf->source), "%s", s);
			continue;
		}
		if (line[0] == ' ' || line[0] == '\t') {
			const char *p = line;

			while (*p == ' ' || *p == '\t')
				p++;
			if (*p == 0) {
				if (c->nfields > 0)
					break;
				continue;
			}
			if (c->nfields == 0) {
				rc = syntax(vf, "continuation without field");
				goto out;
			}
			if (field_append(&c->field[c->nfields - 1], p) != 0) {
				rc = syntax(vf, "out of memory");
				goto out;
			}
			continue;
		}
		if (line[0] == 0) {
			if (c->nfields > 0)
				break;
			continue;
		}
		if (add_field(vf, c, line) != 0) {
			rc = -1;
			goto out;
		}
	}
	rc = c->nfields > 0 ? 1 : 0;
out:
	free(line);
	return rc;
}

const char *vec_get(const struct vec_case *c, const char *name)
{
	for (size_t i = 0; i < c->nfields; i++)
		if (strcmp(c->field[i].name, name) == 0)
			return c->field[i].value;
	return NULL;
}

long vec_hex(const struct vec_case *c, const char *name, uint8_t *out,
	     size_t cap)
{
	const char *v = vec_get(c, name);

	if (v == NULL)
		return -1;
	return th_unhex(out, cap, v);
}

int vec_u32(const struct vec_case *c, const char *name, uint32_t *out)
{
	const char *v = vec_get(c, name);
	char *end = NULL;
	unsigned long long x;

	if (v == NULL || v[0] < '0' || v[0] > '9')
		return -1;
	errno = 0;
	x = strtoull(v, &end, 10);
	if (errno != 0 || end == NULL || *end != 0 || x > UINT32_MAX)
		return -1;
	*out = (uint32_t)x;
	return 0;
}

json_t *vec_wycheproof(const char *name)
{
	char path[4096];
	json_error_t err;
	json_t *j;

	(void)snprintf(path, sizeof(path), "%s/vectors/wycheproof/%s",
		       th_shared_dir(), name);
	j = json_load_file(path, 0, &err);
	if (j == NULL)
		th_fail("cannot load %s: %s", path, err.text);
	return j;
}

const char *vec_jstr(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s != NULL ? s : "";
}
