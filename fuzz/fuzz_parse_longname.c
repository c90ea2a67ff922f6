/* SPDX-License-Identifier: MIT */
/* Targets: names_check_namefile, names_decrypt, names_encrypt,
 * names_needs_long, names_long_hash, names_is_long, names_is_long_namefile,
 * names_hidden. */
/*
 * Long names (FORMAT.md 5.7): the content of a gocryptfs.longname.*.name
 * file and the directory entry name, both from the untrusted backing
 * directory. The fuzzer picks the volume variant, the directory IV, the
 * .name content (bytes as read, at most 345) and a backing entry name.
 * Checked: names_check_namefile accepts exactly 1..344 bytes; an accepted
 * content that decrypts re-encrypts to itself, and its hashed name is
 * "gocryptfs.longname." + 43 or 44 base64 characters that names_is_long
 * recognises and that, with ".name", names_is_long_namefile recognises and
 * names_hidden hides; names_is_long and names_is_long_namefile never both
 * hold, and each implies the prefix.
 * Test code: not constant time, not proved.
 */
#include "format/names.h"
#include "fuzz_util.h"
#include "fuzz_volume.h"

#define FZ_MAX_CNAME 300

static int starts_with(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

static void check_cname(const struct volume *v, const char *cname)
{
	int is_long = names_is_long(cname);
	int is_namefile = names_is_long_namefile(cname);

	FZ_CHECK(!(is_long && is_namefile),
		 "both a long name and a .name file");
	if (is_long || is_namefile)
		FZ_CHECK(starts_with(cname, NAMES_LONG_PREFIX),
			 "long name without the prefix");
	if (is_namefile && (v->flags & VOL_LONGNAMES))
		FZ_CHECK(names_hidden(v, cname, 0) == 1,
			 ".name file not hidden");
}

static void check_content(const struct volume *v, const uint8_t iv[16],
			  const char *content, size_t len)
{
	char out[NAMES_BUF];
	char enc[NAMES_BUF];
	char h[NAMES_LONG_HASHED_MAX + 1 + 5];
	size_t hl;
	int rc = names_check_namefile(len);

	FZ_CHECK((rc == 0) == (len >= 1 && len <= NAMES_ENC_MAX),
		 "names_check_namefile verdict wrong");
	if (rc != 0)
		return;
	if (names_decrypt(v, iv, content, out, sizeof(out)) != 0)
		return;
	FZ_CHECK(names_encrypt(v, iv, out, enc, sizeof(enc)) == 0 &&
			 strcmp(enc, content) == 0,
		 "long name does not re-encrypt to the .name content");
	FZ_CHECK(names_long_hash(v, content, h, NAMES_LONG_HASHED_MAX + 1) == 0,
		 "names_long_hash failed");
	hl = strlen(h);
	FZ_CHECK(starts_with(h, NAMES_LONG_PREFIX) &&
			 (hl == strlen(NAMES_LONG_PREFIX) + 43 ||
			  hl == strlen(NAMES_LONG_PREFIX) + 44),
		 "hashed long name has the wrong form");
	FZ_CHECK(names_is_long(h) == 1, "names_is_long(hash) != 1");
	memcpy(h + hl, NAMES_LONG_SUFFIX, sizeof(NAMES_LONG_SUFFIX));
	FZ_CHECK(names_is_long_namefile(h) == 1,
		 "names_is_long_namefile(hash.name) != 1");
	if (v->flags & VOL_LONGNAMES)
		FZ_CHECK(names_hidden(v, h, 0) == 1, ".name file not hidden");
	/* stored hashed exactly when longer than LongNameMax (5.7) */
	FZ_CHECK(names_needs_long(v, strlen(content)) ==
			 ((v->flags & VOL_LONGNAMES) != 0 &&
			  strlen(content) > v->longnamemax),
		 "names_needs_long disagrees with LongNameMax");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f;
	const struct volume *v;
	uint8_t iv[16];
	size_t len;
	size_t cl;
	char *content;
	char cname[FZ_MAX_CNAME + 1];

	fz_init(&f, data, size);
	v = fz_volume(fz_u8(&f));
	fz_bytes(&f, iv, sizeof(iv));
	if (!(v->flags & VOL_DIRIV))
		memset(iv, 0, sizeof(iv));
	cl = fz_u8(&f);
	cl = cl < FZ_MAX_CNAME ? cl : FZ_MAX_CNAME;
	fz_bytes(&f, (uint8_t *)cname, cl);
	cname[cl] = 0;
	/* the .name content: what is left, read as the FUSE layer does */
	len = f.n < NAMES_ENC_MAX + 1 ? f.n : NAMES_ENC_MAX + 1;
	content = malloc(len + 1);
	FZ_CHECK(content != NULL, "malloc");
	fz_bytes(&f, (uint8_t *)content, len);
	content[len] = 0;

	check_cname(v, cname);
	check_content(v, iv, content, len);
	free(content);
	return 0;
}
