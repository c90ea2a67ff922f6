/* SPDX-License-Identifier: MIT */
/*
 * Tests for gocryptfs.conf (format/config.c), subkeys (format/keys.c),
 * scrypt/HKDF (crypto/kdf.c) and secmem: byte-identical round trip of the
 * examples' configs, unwrap with their password against FORMAT.md 14.1 and
 * 14.2, Wycheproof HKDF-SHA256, the validation rules of 2.3 one by one,
 * legacy (no HKDF) keys, truncations, atomic save.
 * Run one test by name: test_config NAME...
 * Over 600 lines on purpose: one binary for the config and keys module
 * (STYLE.md 7); its tests share the examples' configs and passwords.
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/secmem.h"
#include "crypto/kdf.h"
#include "crypto/ossl_aead.h"
#include "format/config.h"
#include "format/keys.h"
#include "th.h"

#define PASSWORD "vcryptfs-example-password"
#define ERRLEN 256

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (f == NULL)
		return NULL;
	if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) != 0) {
		fclose(f);
		return NULL;
	}
	buf = malloc((size_t)n + 1);
	if (buf != NULL && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	if (buf != NULL) {
		buf[n] = '\0';
		*len = (size_t)n;
	}
	return buf;
}

static char *example_conf(const char *name, size_t *len)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/examples/%s/cipherdir/gocryptfs.conf",
		 th_shared_dir(), name);
	return read_file(path, len);
}

static int hexeq(const uint8_t *b, size_t n, const char *hex)
{
	uint8_t want[128];
	long k = th_unhex(want, sizeof(want), hex);

	return k == (long)n && memcmp(b, want, n) == 0;
}

/* A parsed copy of the AES-GCM example, or exit the test. */
static int load_example(struct config *c, const char *name)
{
	char err[ERRLEN];
	size_t len = 0;
	char *buf = example_conf(name, &len);
	int r;

	if (buf == NULL) {
		th_fail("read example %s", name);
		return -1;
	}
	r = config_parse(c, buf, len, err, sizeof(err));
	free(buf);
	if (r != CONF_OK) {
		th_fail("parse example %s: %s", name, err);
		return -1;
	}
	return 0;
}

static void test_roundtrip(void)
{
	static const char *const ex[] = { "gocryptfs-2.3-aesgcm",
					  "gocryptfs-2.3-xchacha" };

	for (size_t i = 0; i < 2; i++) {
		struct config c;
		char err[ERRLEN];
		size_t len = 0;
		char *buf = example_conf(ex[i], &len), *out;

		if (buf == NULL) {
			th_fail("roundtrip: cannot read %s", ex[i]);
			continue;
		}
		th_check(config_parse(&c, buf, len, err, sizeof(err)) ==
				 CONF_OK,
			 "roundtrip %s: parse", ex[i]);
		th_check(config_validate(&c, err, sizeof(err)) == CONF_OK,
			 "roundtrip %s: validate", ex[i]);
		out = config_serialize(&c);
		th_check(out != NULL && strlen(out) == len &&
				 memcmp(out, buf, len) == 0,
			 "roundtrip %s: serialize is byte-identical (%zu "
			 "bytes)",
			 ex[i], len);
		free(out);
		config_free(&c);
		free(buf);
	}
}

static void test_info(void)
{
	struct config c;
	char *txt;

	if (load_example(&c, "gocryptfs-2.3-aesgcm") != 0)
		return;
	txt = config_info(&c);
	th_check(txt != NULL &&
			 strcmp(txt,
				"Creator:           gocryptfs 2.3\n"
				"FeatureFlags:      HKDF GCMIV128 DirIV "
				"EMENames LongNames Raw64\n"
				"EncryptedKey:      64B\n"
				"ScryptObject:      Salt=32B N=65536 R=8 P=1 "
				"KeyLen=32\n"
				"contentEncryption: AES-GCM-256\n") == 0,
		 "info: -info text of the AES-GCM example is exact");
	free(txt);
	config_free(&c);
}

static void test_unwrap_examples(void)
{
	struct config c;
	char err[ERRLEN];
	uint8_t mk[32], kek[32], wk[32];
	struct volume v;

	if (load_example(&c, "gocryptfs-2.3-aesgcm") != 0)
		return;
	/* FORMAT.md 14.1 intermediate values */
	th_check(kdf_scrypt(kek, 32, (const uint8_t *)PASSWORD,
			    strlen(PASSWORD), c.salt, c.salt_len, 65536, 8,
			    1) == 0 &&
			 hexeq(kek, 32,
			       "49a8aa8dc91069b4489a88dd5080f729ed67b5a84f6"
			       "dec17f89a13ba6eaa06ae"),
		 "unwrap aesgcm: KEK = scrypt(N=65536) matches 14.1");
	th_check(kdf_hkdf_sha256(wk, 32, kek, 32, KEYS_INFO_GCM,
				 strlen(KEYS_INFO_GCM)) == 0 &&
			 hexeq(wk, 32,
			       "4bbb5a5b1faf3d9d61c52bf4f0df99d1aa5f6b68359"
			       "26b9a8e45b9c3094d5544"),
		 "unwrap aesgcm: WK = HKDF(KEK) matches 14.1");
	th_check(config_unlock(&c, (const uint8_t *)PASSWORD, strlen(PASSWORD),
			       mk, err, sizeof(err)) == CONF_OK &&
			 hexeq(mk, 32,
			       "de59192123be4ef380b8e19e3e77ecb09349fa48ebe"
			       "28b53e098c84a02065604"),
		 "unwrap aesgcm: master key matches 14.1");
	th_check(keys_from_config(&v, &c, mk) == 0 &&
			 v.cipher == CIPHER_AES_GCM &&
			 v.content_key_len == 32 &&
			 hexeq(v.eme_key, 32,
			       "47678cb9811cb218cce689a6b4c0ef6edba96eece33"
			       "f1b3b87b094485f4a1350") &&
			 hexeq(v.content_key, 32,
			       "d03d82292090fc452a259c6d36396862e3f80577297"
			       "7a8a0fb2353475238cb0b") &&
			 v.longnamemax == 255 &&
			 v.flags == (VOL_HKDF | VOL_DIRIV | VOL_EMENAMES |
				     VOL_LONGNAMES | VOL_RAW64),
		 "keys aesgcm: EME and GCM keys match 14.1");
	volume_free(&v);
	th_check(v.content_key == NULL && v.eme_key == NULL,
		 "keys: volume_free clears the pointers");
	config_free(&c);

	if (load_example(&c, "gocryptfs-2.3-xchacha") != 0)
		return;
	memset(mk, 0, sizeof(mk));
	th_check(config_unlock(&c, (const uint8_t *)PASSWORD, strlen(PASSWORD),
			       mk, err, sizeof(err)) == CONF_OK &&
			 hexeq(mk, 32,
			       "678ed40f44831fef7e1b60a87dce50233a4105e4d3a"
			       "07eadd45782b2110dc03e"),
		 "unwrap xchacha: master key matches 14.2");
	th_check(keys_from_config(&v, &c, mk) == 0 &&
			 v.cipher == CIPHER_XCHACHA &&
			 hexeq(v.content_key, 32,
			       "d95c8f8414fa3ccbc1940e473090e974b8af498382a"
			       "3bde5754bf0ae981310a3"),
		 "keys xchacha: content key matches 14.2");
	volume_free(&v);
	memset(mk, 0x55, sizeof(mk));
	th_check(config_unlock(&c, (const uint8_t *)"wrong", 5, mk, err,
			       sizeof(err)) == CONF_ERR_PASSWORD &&
			 mk[0] == 0x55 && mk[31] == 0x55,
		 "unwrap xchacha: wrong password -> CONF_ERR_PASSWORD, key "
		 "untouched");
	config_free(&c);
}

static void test_wycheproof_hkdf(void)
{
	char path[1024];
	json_error_t jerr;
	json_t *root, *groups, *g, *t;
	size_t gi, ti;
	int n = 0, bad = 0;

	snprintf(path, sizeof(path),
		 "%s/vectors/wycheproof/hkdf_sha256_test.json",
		 th_shared_dir());
	root = json_load_file(path, 0, &jerr);
	if (root == NULL) {
		th_fail("wycheproof hkdf: cannot load %s", path);
		return;
	}
	groups = json_object_get(root, "testGroups");
	json_array_foreach(groups, gi, g)
	{
		json_array_foreach(json_object_get(g, "tests"), ti, t)
		{
			static uint8_t ikm[1024], salt[1024], info[1024],
				okm[8192], out[8192];
			long ni = th_unhex(
				ikm, sizeof(ikm),
				json_string_value(json_object_get(t, "ikm")));
			long ns = th_unhex(
				salt, sizeof(salt),
				json_string_value(json_object_get(t, "salt")));
			long nf = th_unhex(
				info, sizeof(info),
				json_string_value(json_object_get(t, "info")));
			long no = th_unhex(
				okm, sizeof(okm),
				json_string_value(json_object_get(t, "okm")));
			json_int_t size =
				json_integer_value(json_object_get(t, "size"));
			int valid = strcmp(json_string_value(json_object_get(
						   t, "result")),
					   "valid") == 0;
			int r;

			if (ni < 0 || ns < 0 || nf < 0 || no < 0 || size < 0 ||
			    size > (json_int_t)sizeof(out)) {
				th_fail("wycheproof hkdf tcId %lld: bad vector",
					(long long)json_integer_value(
						json_object_get(t, "tcId")));
				continue;
			}
			r = kdf_hkdf_sha256_salt(out, (size_t)size, ikm,
						 (size_t)ni, salt, (size_t)ns,
						 info, (size_t)nf);
			n++;
			if (valid ? (r != 0 || no != size ||
				     memcmp(out, okm, (size_t)no) != 0)
				  : r == 0) {
				bad++;
				th_fail("wycheproof hkdf tcId %lld",
					(long long)json_integer_value(
						json_object_get(t, "tcId")));
			}
		}
	}
	th_check(n > 80 && bad == 0,
		 "wycheproof hkdf_sha256: %d vectors, %d bad", n, bad);
	json_decref(root);
}

/* Rules of FORMAT.md 2.3/2.4: mutate a valid config, expect refusal. */
static void set_flags(struct config *c, const char *const *names, size_t n)
{
	struct config tmp;
	char err[ERRLEN];
	char doc[2048];
	size_t o;

	o = (size_t)snprintf(doc, sizeof(doc),
			     "{\"Creator\":\"t\",\"EncryptedKey\":\"\","
			     "\"ScryptObject\":{\"Salt\":\"AAAAAAAAAAAAAAAAAAAA"
			     "AAAAAAAAAAAAAAAAAAAAAAA=\",\"N\":1024,\"R\":8,"
			     "\"P\":1,\"KeyLen\":32},\"Version\":2,"
			     "\"FeatureFlags\":[");
	for (size_t i = 0; i < n; i++)
		o += (size_t)snprintf(doc + o, sizeof(doc) - o, "%s\"%s\"",
				      i ? "," : "", names[i]);
	snprintf(doc + o, sizeof(doc) - o, "]}");
	if (config_parse(&tmp, doc, strlen(doc), err, sizeof(err)) != CONF_OK)
		th_fail("set_flags: %s", err);
	*c = tmp;
}

struct rule_case {
	const char *what;
	const char *flags[8];
	unsigned longnamemax;
	int want; /* CONF_OK or CONF_ERR_INVALID */
};

static void test_validate_rules(void)
{
	static const struct rule_case cases[] = {
		{ "default v2",
		  { "HKDF", "GCMIV128", "DirIV", "EMENames", "LongNames",
		    "Raw64" },
		  0,
		  CONF_OK },
		{ "legacy 1.2 (no HKDF)",
		  { "GCMIV128", "DirIV", "EMENames", "LongNames", "Raw64" },
		  0,
		  CONF_OK },
		{ "aessiv",
		  { "HKDF", "GCMIV128", "DirIV", "EMENames", "LongNames",
		    "Raw64", "AESSIV" },
		  0,
		  CONF_OK },
		{ "plaintextnames",
		  { "HKDF", "GCMIV128", "PlaintextNames" },
		  0,
		  CONF_OK },
		{ "longnamemax 64",
		  { "HKDF", "GCMIV128", "DirIV", "LongNameMax", "EMENames",
		    "LongNames", "Raw64" },
		  64,
		  CONF_OK },
		{ "rule 1: unknown flag",
		  { "HKDF", "GCMIV128", "DirIV", "EMENames", "Bogus" },
		  0,
		  CONF_ERR_INVALID },
		{ "rule 2: XChaCha20Poly1305 + AESSIV",
		  { "HKDF", "XChaCha20Poly1305", "AESSIV", "EMENames" },
		  0,
		  CONF_ERR_INVALID },
		{ "rule 3: AESSIV without GCMIV128",
		  { "HKDF", "AESSIV", "EMENames" },
		  0,
		  CONF_ERR_INVALID },
		{ "rule 4a: XChaCha20Poly1305 with GCMIV128",
		  { "HKDF", "XChaCha20Poly1305", "GCMIV128", "EMENames" },
		  0,
		  CONF_ERR_INVALID },
		{ "rule 4b: XChaCha20Poly1305 without HKDF",
		  { "XChaCha20Poly1305", "EMENames" },
		  0,
		  CONF_ERR_INVALID },
		{ "rule 5: AES-GCM without GCMIV128",
		  { "HKDF", "DirIV", "EMENames" },
		  0,
		  CONF_ERR_INVALID },
		{ "rule 6: PlaintextNames + EMENames",
		  { "HKDF", "GCMIV128", "PlaintextNames", "EMENames" },
		  0,
		  CONF_ERR_INVALID },
		{ "rule 6: PlaintextNames + DirIV",
		  { "HKDF", "GCMIV128", "PlaintextNames", "DirIV" },
		  0,
		  CONF_ERR_INVALID },
		{ "rule 6: PlaintextNames + LongNames",
		  { "HKDF", "GCMIV128", "PlaintextNames", "LongNames" },
		  0,
		  CONF_ERR_INVALID },
		{ "rule 6: PlaintextNames + Raw64",
		  { "HKDF", "GCMIV128", "PlaintextNames", "Raw64" },
		  0,
		  CONF_ERR_INVALID },
		{ "rule 6: PlaintextNames + LongNameMax",
		  { "HKDF", "GCMIV128", "PlaintextNames", "LongNameMax" },
		  100,
		  CONF_ERR_INVALID },
		{ "rule 7a: LongNameMax member without flag",
		  { "HKDF", "GCMIV128", "EMENames" },
		  100,
		  CONF_ERR_INVALID },
		{ "rule 7b: LongNameMax flag without member",
		  { "HKDF", "GCMIV128", "EMENames", "LongNameMax" },
		  0,
		  CONF_ERR_INVALID },
	};
	char err[ERRLEN];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct config c;
		size_t n = 0;
		int r;

		while (n < 8 && cases[i].flags[n] != NULL)
			n++;
		set_flags(&c, cases[i].flags, n);
		c.longnamemax = cases[i].longnamemax;
		err[0] = '\0';
		r = config_validate(&c, err, sizeof(err));
		th_check(r == cases[i].want && (r == CONF_OK || err[0] != '\0'),
			 "validate %s -> %s %s", cases[i].what,
			 r == CONF_OK ? "ok" : "refused:", err);
		config_free(&c);
	}
}

/* Rule 8 (scrypt minimums), Version, and what config_check_scrypt says. */
static void test_validate_scrypt(void)
{
	static const char *const f[] = { "HKDF", "GCMIV128", "EMENames" };
	struct config c;
	char err[ERRLEN];

	set_flags(&c, f, 3);
	th_check(config_validate(&c, err, sizeof(err)) == CONF_OK &&
			 config_check_scrypt(&c, err, sizeof(err)) == CONF_OK,
		 "scrypt: N=1024 R=8 P=1 KeyLen=32 salt 32 accepted");
	c.scrypt_n = 512;
	th_check(config_validate(&c, err, sizeof(err)) == CONF_ERR_INVALID,
		 "scrypt: N=512 below minimum refused");
	c.scrypt_n = 1024;
	c.scrypt_r = 7;
	th_check(config_validate(&c, err, sizeof(err)) == CONF_ERR_INVALID,
		 "scrypt: R=7 refused");
	c.scrypt_r = 8;
	c.scrypt_p = 0;
	th_check(config_validate(&c, err, sizeof(err)) == CONF_ERR_INVALID,
		 "scrypt: P=0 refused");
	c.scrypt_p = 1;
	c.scrypt_keylen = 16;
	th_check(config_validate(&c, err, sizeof(err)) == CONF_ERR_INVALID,
		 "scrypt: KeyLen=16 refused");
	c.scrypt_keylen = 32;
	c.salt_len = 31;
	th_check(config_validate(&c, err, sizeof(err)) == CONF_ERR_INVALID,
		 "scrypt: 31-byte salt refused");
	c.salt_len = 32;
	c.version = 3;
	th_check(config_validate(&c, err, sizeof(err)) == CONF_ERR_INVALID &&
			 strstr(err, "3") != NULL,
		 "version 3 refused: %s", err);
	c.version = 2;
	c.scrypt_n = (int64_t)1 << 40;
	th_check(config_validate(&c, err, sizeof(err)) == CONF_OK &&
			 config_check_scrypt(&c, err, sizeof(err)) ==
				 CONF_ERR_SCRYPT,
		 "scrypt: N=2^40 valid for -info but refused before "
		 "derivation: %s",
		 err);
	{
		uint8_t mk[32];
		th_check(config_unlock(&c, (const uint8_t *)"x", 1, mk, err,
				       sizeof(err)) != CONF_OK,
			 "scrypt: unlock with N=2^40 fails cleanly");
	}
	/* issue 23 item 7: P within the memory cap, but hours of work */
	c.scrypt_n = 1024;
	c.scrypt_p = 65536;
	th_check(config_validate(&c, err, sizeof(err)) == CONF_OK &&
			 config_check_scrypt(&c, err, sizeof(err)) ==
				 CONF_ERR_SCRYPT &&
			 strstr(err, "too costly") != NULL,
		 "scrypt: N=1024 R=8 P=65536 refused before derivation: %s",
		 err);
	c.scrypt_p = 2;
	th_check(config_check_scrypt(&c, err, sizeof(err)) == CONF_OK,
		 "scrypt: N=1024 R=8 P=2 (little work) accepted");
	c.scrypt_p = 1;
	c.scrypt_n = 1025;
	th_check(config_check_scrypt(&c, err, sizeof(err)) == CONF_ERR_SCRYPT,
		 "scrypt: N=1025 (not a power of two) refused");
	config_free(&c);
}

static void test_parse_errors(void)
{
	static const char *const bad[] = {
		"",
		"[]",
		"{\"Version\": \"2\"}",
		"{\"Version\": 2.0}",
		"{\"Version\": 70000}",
		"{\"Creator\": 5}",
		"{\"EncryptedKey\": \"@@@@\"}",
		"{\"ScryptObject\": []}",
		"{\"FeatureFlags\": \"HKDF\"}",
		"{\"FeatureFlags\": [1]}",
		"{\"LongNameMax\": 256}",
		"{\"Version\": 2",
		"{\"Version\": 2}}",
	};
	struct config c;
	char err[ERRLEN];
	size_t len = 0, ntrunc = 0;
	char *buf;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		th_check(config_parse(&c, bad[i], strlen(bad[i]), err,
				      sizeof(err)) == CONF_ERR_SYNTAX,
			 "parse refuses %s: %s", bad[i][0] ? bad[i] : "(empty)",
			 err);
	buf = example_conf("gocryptfs-2.3-aesgcm", &len);
	if (buf == NULL) {
		th_fail("parse: example missing");
		return;
	}
	for (size_t k = 0; k + 1 < len; k++) {
		/* every proper prefix (the final "\n" is optional) */
		if (config_parse(&c, buf, k, err, sizeof(err)) ==
		    CONF_ERR_SYNTAX)
			ntrunc++;
		else
			config_free(&c);
	}
	th_check(ntrunc == len - 1,
		 "parse: each of the %zu truncations is a syntax error",
		 len - 1);
	/* members are matched case-insensitively, unknown ones ignored */
	{
		static const char lc[] =
			"{\"version\":2,\"featureflags\":[\"HKDF\"],"
			"\"Unknown\":{\"x\":1}}";
		th_check(config_parse(&c, lc, strlen(lc), err, sizeof(err)) ==
					 CONF_OK &&
				 c.version == 2 && c.flags == CONF_HKDF,
			 "parse: lower-case member names and unknown members");
	}
	config_free(&c);
	free(buf);
}

/* Flags written by -init, in gocryptfs's order (FORMAT.md 2.3). */
static void test_init_flags(void)
{
	static const struct {
		struct config_init_opts o;
		const char *want;
	} cases[] = {
		{ { 0, 0, 0, 0, 255, "v" },
		  "HKDF GCMIV128 DirIV EMENames LongNames Raw64" },
		{ { 1, 0, 0, 0, 255, "v" },
		  "HKDF XChaCha20Poly1305 DirIV EMENames LongNames Raw64" },
		{ { 0, 1, 0, 0, 255, "v" },
		  "HKDF GCMIV128 DirIV EMENames LongNames Raw64 AESSIV" },
		{ { 0, 0, 1, 0, 255, "v" }, "HKDF GCMIV128 PlaintextNames" },
		{ { 0, 0, 1, 1, 255, "v" }, "HKDF GCMIV128 PlaintextNames" },
		{ { 0, 0, 0, 1, 255, "v" },
		  "HKDF GCMIV128 EMENames LongNames Raw64" },
		{ { 0, 0, 0, 0, 64, "v" },
		  "HKDF GCMIV128 DirIV LongNameMax EMENames LongNames Raw64" },
	};
	char err[ERRLEN];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct config c;
		char got[256] = "";
		int r = config_init(&c, &cases[i].o, err, sizeof(err));

		for (size_t k = 0, o = 0; r == CONF_OK && k < c.nflag_names;
		     k++)
			o += (size_t)snprintf(got + o, sizeof(got) - o, "%s%s",
					      k ? " " : "", c.flag_names[k]);
		th_check(
			r == CONF_OK && strcmp(got, cases[i].want) == 0 &&
				c.version == 2 &&
				c.longnamemax ==
					(cases[i].o.longnamemax == 255 ||
							 cases[i].o
								 .plaintextnames
						 ? 0
						 : cases[i].o.longnamemax),
			"init flags: %s", cases[i].want);
		config_free(&c);
	}
	{
		struct config c;
		struct config_init_opts o = { 1, 1, 0, 0, 255, "v" };
		th_check(config_init(&c, &o, err, sizeof(err)) ==
				 CONF_ERR_INVALID,
			 "init: -xchacha with -aessiv refused");
		o.aessiv = 0;
		o.longnamemax = 61;
		th_check(config_init(&c, &o, err, sizeof(err)) ==
				 CONF_ERR_INVALID,
			 "init: -longnamemax 61 refused");
	}
}

/* Wrap, serialize, parse, unwrap; wrong password; legacy 60-byte form. */
static void test_wrap(void)
{
	struct config c, d;
	struct config_init_opts o = { 0, 1, 0, 0, 255, "vcryptfs test" };
	char err[ERRLEN];
	uint8_t mk[32], mk2[32];
	char *doc;

	th_rand(mk, sizeof(mk));
	if (config_init(&c, &o, err, sizeof(err)) != CONF_OK) {
		th_fail("wrap: init: %s", err);
		return;
	}
	th_check(config_wrap(&c, mk, (const uint8_t *)"pw", 2, 10) == CONF_OK &&
			 c.encrypted_key_len == 64 && c.salt_len == 32 &&
			 c.scrypt_n == 1024,
		 "wrap: 64-byte EncryptedKey, 32-byte salt, N=1024");
	doc = config_serialize(&c);
	if (doc == NULL ||
	    config_parse(&d, doc, strlen(doc), err, sizeof(err)) != CONF_OK) {
		th_fail("wrap: serialize/parse: %s", err);
		free(doc);
		config_free(&c);
		return;
	}
	th_check(config_validate(&d, err, sizeof(err)) == CONF_OK &&
			 config_unlock(&d, (const uint8_t *)"pw", 2, mk2, err,
				       sizeof(err)) == CONF_OK &&
			 memcmp(mk, mk2, 32) == 0,
		 "wrap: serialize, parse, unlock gives the master key back");
	th_check(config_unlock(&d, (const uint8_t *)"pW", 2, mk2, err,
			       sizeof(err)) == CONF_ERR_PASSWORD,
		 "wrap: wrong password -> CONF_ERR_PASSWORD");
	d.encrypted_key[20] ^= 1;
	th_check(config_unlock(&d, (const uint8_t *)"pw", 2, mk2, err,
			       sizeof(err)) == CONF_ERR_PASSWORD,
		 "wrap: flipped EncryptedKey bit -> CONF_ERR_PASSWORD");
	d.encrypted_key_len = 63;
	th_check(config_unlock(&d, (const uint8_t *)"pw", 2, mk2, err,
			       sizeof(err)) == CONF_ERR_INVALID,
		 "wrap: 63-byte EncryptedKey refused");
	config_free(&d);
	free(doc);

	/* legacy: no HKDF flag, KEK is the GCM key, 12-byte nonce */
	{
		static const char *const lf[] = { "GCMIV128", "DirIV",
						  "EMENames", "LongNames" };
		static const uint8_t aad[8];
		uint8_t kek[32], sha[64];
		struct volume v;

		set_flags(&d, lf, 4);
		th_rand(d.salt, 32);
		d.salt_len = 32;
		if (kdf_scrypt(kek, 32, (const uint8_t *)"old", 3, d.salt, 32,
			       1024, 8, 1) != 0)
			th_fail("legacy: scrypt");
		th_rand(d.encrypted_key, 12);
		ossl_gcm_seal(d.encrypted_key + 12, d.encrypted_key + 44, mk,
			      32, aad, 8, kek, d.encrypted_key, 12);
		d.encrypted_key_len = 60;
		th_check(config_validate(&d, err, sizeof(err)) == CONF_OK &&
				 config_unlock(&d, (const uint8_t *)"old", 3,
					       mk2, err,
					       sizeof(err)) == CONF_OK &&
				 memcmp(mk, mk2, 32) == 0,
			 "legacy: 60-byte EncryptedKey without HKDF unwraps");
		th_check(keys_from_config(&v, &d, mk) == 0 &&
				 memcmp(v.eme_key, mk, 32) == 0 &&
				 memcmp(v.content_key, mk, 32) == 0 &&
				 !(v.flags & VOL_HKDF),
			 "legacy: EME key = GCM key = master key");
		volume_free(&v);
		th_check(keys_derive(&v, mk, CIPHER_AES_SIV, 0, 255) == 0 &&
				 v.content_key_len == 64,
			 "legacy: AES-SIV key is 64 bytes");
		SHA512(mk, 32, sha);
		th_check(v.content_key != NULL &&
				 memcmp(v.content_key, sha, 64) == 0,
			 "legacy: AES-SIV key = SHA-512(master key)");
		volume_free(&v);
		th_check(keys_derive(&v, mk, CIPHER_XCHACHA, 0, 255) ==
					 -EINVAL &&
				 v.content_key == NULL,
			 "legacy: XChaCha without HKDF refused");
		config_free(&d);
	}
	config_free(&c);
}

static void test_save(void)
{
	char dir[] = "/tmp/vcryptfs-test-config.XXXXXX";
	char path[256], tmp[300];
	struct config c;
	struct stat st;
	size_t len = 0;
	char *doc, *back;

	if (mkdtemp(dir) == NULL ||
	    load_example(&c, "gocryptfs-2.3-aesgcm") != 0) {
		th_fail("save: setup");
		return;
	}
	snprintf(path, sizeof(path), "%s/gocryptfs.conf", dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	doc = config_serialize(&c);
	th_check(config_save(&c, path) == 0 && stat(path, &st) == 0 &&
			 (st.st_mode & 07777) == 0400 && access(tmp, F_OK) != 0,
		 "save: written with mode 0400, no .tmp left");
	back = read_file(path, &len);
	th_check(back != NULL && doc != NULL && strcmp(back, doc) == 0,
		 "save: file content equals config_serialize");
	free(back);
	/* a second save replaces the file atomically */
	th_check(config_save(&c, path) == 0, "save: replacing works");
	/* a stale .tmp makes the write fail with EEXIST */
	{
		int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0600);
		if (fd >= 0)
			close(fd);
		th_check(config_save(&c, path) == -EEXIST,
			 "save: stale .tmp -> -EEXIST");
		unlink(tmp);
	}
	unlink(path);
	rmdir(dir);
	free(doc);
	config_free(&c);
}

static void test_secmem(void)
{
	uint8_t *p = secmem_alloc(100);
	int zero = 1;

	if (p == NULL) {
		th_fail("secmem: alloc failed");
		return;
	}
	for (int i = 0; i < 100; i++)
		zero &= p[i] == 0;
	memset(p, 0xaa, 100);
	secmem_free(p);
	th_check(zero, "secmem: allocation is zeroed (mlock %s)",
		 secmem_locked() ? "ok" : "refused");
	th_check(secmem_alloc(0) == NULL, "secmem: zero size refused");
	secmem_free(NULL);
}

static const struct th_test unit_tests[] = {
	TH_TEST("secmem", test_secmem),
	TH_TEST("roundtrip", test_roundtrip),
	TH_TEST("info", test_info),
	TH_TEST("unwrap", test_unwrap_examples),
	TH_TEST("hkdf", test_wycheproof_hkdf),
	TH_TEST("rules", test_validate_rules),
	TH_TEST("scrypt", test_validate_scrypt),
	TH_TEST("parse", test_parse_errors),
	TH_TEST("init", test_init_flags),
	TH_TEST("wrap", test_wrap),
	TH_TEST("save", test_save),
};

int main(int argc, char **argv)
{
	return th_main(argc, argv, unit_tests, TH_COUNT(unit_tests),
		       ossl_aead_thread_cleanup);
}
