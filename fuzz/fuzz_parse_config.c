/* SPDX-License-Identifier: MIT */
/* Targets: config_parse, config_validate, config_serialize, config_info,
 * config_cipher_name, config_unlock, config_free. */
/*
 * gocryptfs.conf (FORMAT.md 2) as read from an untrusted cipher directory:
 * the whole input is the file. Checked: config_parse either fails cleanly
 * (error text set, struct left empty) or gives a config that
 * config_serialize writes out and config_parse reads back to the same
 * document again (serialize is a fixed point after one round); validate,
 * info and cipher_name never crash; a valid config with cheap scrypt
 * parameters (N <= 1024, R <= 8, P <= 4) goes through config_unlock with
 * the example password (the xchacha example's own config unlocks; any
 * mutation of EncryptedKey must then fail as a wrong password).
 * Test code: not constant time, not proved.
 */
#include "format/config.h"
#include "fuzz_util.h"

#define FZ_MAX_CONF 16384

static const char fz_pw[] = "vcryptfs-example-password";

static void check_roundtrip(const struct config *c)
{
	struct config c2;
	char err[256];
	char *s1 = config_serialize(c);
	char *s2;
	int rc;

	FZ_CHECK(s1 != NULL, "config_serialize failed");
	config_zero(&c2);
	rc = config_parse(&c2, s1, strlen(s1), err, sizeof(err));
	if (rc != CONF_OK)
		fprintf(stderr, "reparse: %s\n--\n%s\n--\n", err, s1);
	FZ_CHECK(rc == CONF_OK,
		 "config_parse rejected config_serialize output");
	s2 = config_serialize(&c2);
	FZ_CHECK(s2 != NULL, "config_serialize (second) failed");
	if (strcmp(s1, s2) != 0)
		fprintf(stderr, "--\n%s\n--\n%s\n--\n", s1, s2);
	FZ_CHECK(strcmp(s1, s2) == 0,
		 "serialize(parse(serialize(c))) != serialize(c)");
	FZ_CHECK(c2.flags == c->flags && c2.version == c->version &&
			 c2.scrypt_n == c->scrypt_n &&
			 c2.encrypted_key_len == c->encrypted_key_len &&
			 memcmp(c2.encrypted_key, c->encrypted_key,
				c->encrypted_key_len) == 0 &&
			 c2.salt_len == c->salt_len &&
			 memcmp(c2.salt, c->salt, c->salt_len) == 0,
		 "config fields changed in a serialize/parse round");
	free(s1);
	free(s2);
	config_free(&c2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct config c;
	char err[256];
	char *info;
	char *buf;
	int rc;

	if (size > FZ_MAX_CONF)
		return 0;
	/* exact size: config_parse takes (buf, len) and needs no NUL */
	buf = malloc(size ? size : 1);
	FZ_CHECK(buf != NULL, "malloc");
	if (size > 0)
		memcpy(buf, data, size);
	config_zero(&c);
	err[0] = 0;
	rc = config_parse(&c, buf, size, err, sizeof(err));
	free(buf);
	if (rc != CONF_OK) {
		FZ_CHECK(rc == CONF_ERR_SYNTAX || rc == CONF_ERR_NOMEM,
			 "config_parse: unexpected status");
		FZ_CHECK(err[0] != 0 && memchr(err, 0, sizeof(err)) != NULL,
			 "config_parse failed without a message");
		config_free(&c);
		return 0;
	}
	FZ_CHECK(c.creator != NULL, "config_parse: creator NULL");
	check_roundtrip(&c);
	info = config_info(&c);
	FZ_CHECK(info != NULL, "config_info failed");
	free(info);
	err[0] = 0;
	if (config_validate(&c, err, sizeof(err)) != CONF_OK) {
		FZ_CHECK(err[0] != 0, "config_validate failed without message");
		config_free(&c);
		return 0;
	}
	FZ_CHECK(config_cipher_name(&c) != NULL, "config_cipher_name NULL");
	if (c.scrypt_n <= 1024 && c.scrypt_r <= 8 && c.scrypt_p <= 4) {
		uint8_t mk[CONF_MASTER_KEY_LEN];

		rc = config_unlock(&c, (const uint8_t *)fz_pw,
				   sizeof(fz_pw) - 1, mk, err, sizeof(err));
		FZ_CHECK(rc == CONF_OK || rc == CONF_ERR_PASSWORD ||
				 rc == CONF_ERR_INVALID ||
				 rc == CONF_ERR_SCRYPT,
			 "config_unlock: unexpected status");
	}
	config_free(&c);
	return 0;
}
