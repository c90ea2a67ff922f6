/* SPDX-License-Identifier: MIT */
/*
 * vcryptfs-xray: look inside gocryptfs data, with gocryptfs-xray's
 * command line and output. FILE: dump the header and the block layout
 * of an encrypted file (-aessiv / -xchacha: assume that content
 * cipher); -dumpmasterkey CONFIG: unlock the config with a password
 * and print the master key in hex; -encrypt-paths / -decrypt-paths
 * SOCKET: one path per input line through a -ctlsock control socket,
 * one result per output line (-0: NUL instead of newline, both ways).
 * Exit 0, or 1 after one error line (the master key path: the exit
 * code of the unlock, as vcryptfs). Spec: ../shared/FORMAT.md 4.2, 4.3,
 * 12.3. Depends on: the library (format/, cmd_*, password). Not proved.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "cli/options.h"
#include "cli/cmd.h"
#include "base/exitcodes.h"
#include "format/config.h"
#include "format/content.h"
#include "format/header.h"
#include "format/keys.h"
#include "base/log.h"
#include "base/secmem.h"
#include "cli/version.h"
#include "crypto/calibrate.h"

#define HDR_LEN 18

struct xopts {
	int nul, aessiv, xchacha, decrypt_paths, encrypt_paths, dumpmk;
	int version, help;
	const char *fido2;
	const char *arg;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: vcryptfs-xray [OPTIONS] FILE\n"
		"\n"
		"Options:\n"
		"  -0               Use \\0 instead of \\n as separator\n"
		"  -aessiv          Assume AES-SIV mode instead of AES-GCM\n"
		"  -xchacha         Assume XChaCha20-Poly1305 mode instead of "
		"AES-GCM\n"
		"  -decrypt-paths   Decrypt file paths using a control socket\n"
		"  -encrypt-paths   Encrypt file paths using a control socket\n"
		"  -dumpmasterkey   Decrypt and dump the master key\n"
		"  -fido2 DEV       FIDO2 (not supported: exit 31)\n"
		"  -version         Print version information\n"
		"  -h, -help        This help text\n"
		"\n"
		"Examples:\n"
		"  vcryptfs-xray myfs/mCXnISiv7nEmyc0glGuhTQ\n"
		"  vcryptfs-xray -dumpmasterkey myfs/gocryptfs.conf\n"
		"  vcryptfs-xray -encrypt-paths myfs.sock\n");
}

static int parse(struct xopts *o, int argc, char **argv)
{
	static const struct {
		const char *name;
		size_t off;
	} flags[] = {
		{ "0", offsetof(struct xopts, nul) },
		{ "aessiv", offsetof(struct xopts, aessiv) },
		{ "xchacha", offsetof(struct xopts, xchacha) },
		{ "decrypt-paths", offsetof(struct xopts, decrypt_paths) },
		{ "encrypt-paths", offsetof(struct xopts, encrypt_paths) },
		{ "dumpmasterkey", offsetof(struct xopts, dumpmk) },
		{ "version", offsetof(struct xopts, version) },
		{ "h", offsetof(struct xopts, help) },
		{ "help", offsetof(struct xopts, help) },
	};
	int i, dashdash = 0;

	memset(o, 0, sizeof(*o));
	for (i = 1; i < argc; i++) {
		const char *s = argv[i];
		size_t k;
		if (dashdash || s[0] != '-' || s[1] == '\0') {
			if (o->arg != NULL) {
				fprintf(stderr, "vcryptfs-xray: too many "
						"arguments\n");
				return -1;
			}
			o->arg = s;
			continue;
		}
		if (strcmp(s, "--") == 0) {
			dashdash = 1;
			continue;
		}
		s += s[1] == '-' ? 2 : 1;
		if (strcmp(s, "fido2") == 0 || strncmp(s, "fido2=", 6) == 0) {
			o->fido2 = s[5] == '='	  ? s + 6
				   : i + 1 < argc ? argv[++i]
						  : "";
			continue;
		}
		for (k = 0; k < sizeof(flags) / sizeof(flags[0]); k++)
			if (strcmp(s, flags[k].name) == 0)
				break;
		if (k == sizeof(flags) / sizeof(flags[0])) {
			fprintf(stderr,
				"vcryptfs-xray: flag provided but not "
				"defined: -%s\n",
				s);
			usage(stderr);
			return -1;
		}
		*(int *)((char *)o + flags[k].off) = 1;
	}
	return 0;
}

static void hex(FILE *f, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%02x", p[i]);
}

/* Read up to n bytes (short only at EOF). */
static ssize_t read_full(int fd, uint8_t *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, buf + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

static int dump_file(const struct xopts *o)
{
	enum content_cipher c = o->aessiv    ? CIPHER_AES_SIV
				: o->xchacha ? CIPHER_XCHACHA
					     : CIPHER_AES_GCM;
	const char *mode = o->aessiv	? "AES-SIV-512"
			   : o->xchacha ? "XChaCha20-Poly1305"
					: "AES-GCM-256";
	size_t nl = content_nonce_len(c), bs = content_cipher_bs(c);
	uint8_t hdr[HDR_LEN], id[16], *blk;
	uint64_t off = HDR_LEN;
	ssize_t n;
	int fd = open(o->arg, O_RDONLY | O_CLOEXEC), rc = 0;

	if (fd < 0) {
		char e[128];
		snprintf(e, sizeof(e), "%s", strerror(errno));
		e[0] = (char)tolower((unsigned char)e[0]);
		fprintf(stderr, "open %s: %s\n", o->arg, e);
		return 1;
	}
	n = read_full(fd, hdr, HDR_LEN);
	if (n == 0) {
		printf("empty file\n");
		close(fd);
		return 0;
	}
	if (n < HDR_LEN) {
		fprintf(stderr,
			"incomplete file header: read %zd bytes, want %d\n",
			n < 0 ? (ssize_t)0 : n, HDR_LEN);
		close(fd);
		return 1;
	}
	if (header_parse(id, hdr) != 0) {
		int zero = 1;
		for (size_t i = 0; i < HDR_LEN; i++)
			zero &= hdr[i] == 0;
		fprintf(stderr, "ParseHeader: %s. Header hexdump: ",
			zero ? "header is all-zero" : "invalid header");
		hex(stderr, hdr, HDR_LEN);
		fprintf(stderr, "\n");
		close(fd);
		return 1;
	}
	printf("Header: Version: %u, Id: ", (unsigned)hdr[1]);
	hex(stdout, id, 16);
	printf(", assuming %s mode\n", mode);
	blk = malloc(bs);
	if (blk == NULL) {
		close(fd);
		return 1;
	}
	for (uint64_t i = 0;; i++) {
		n = read_full(fd, blk, bs);
		if (n <= 0) {
			rc = n < 0;
			break;
		}
		if ((size_t)n <= nl + CONTENT_TAG_LEN) {
			fflush(stdout);
			fprintf(stderr,
				"corrupt block: truncated data, len=%zd\n", n);
			rc = 1;
			break;
		}
		printf("Block %2llu: IV: ", (unsigned long long)i);
		hex(stdout, blk, nl);
		printf(", Tag: ");
		/* AES-SIV puts its tag (the SIV) before the ciphertext */
		hex(stdout,
		    c == CIPHER_AES_SIV ? blk + nl : blk + n - CONTENT_TAG_LEN,
		    CONTENT_TAG_LEN);
		printf(", Offset: %5llu Len: %zd\n", (unsigned long long)off,
		       n);
		off += (uint64_t)n;
	}
	free(blk);
	close(fd);
	return rc;
}

static int dump_master_key(const struct xopts *o)
{
	struct cli_args a;
	struct config c;
	uint8_t *mk = secmem_alloc(KEYS_MASTER_LEN);
	int r;

	if (mk == NULL)
		return EXIT_OTHER;
	memset(&a, 0, sizeof(a));
	config_zero(&c);
	/* stdout is for the key only, as in gocryptfs-xray */
	log_set_level(LOGL_QUIET);
	r = cmd_load_config(&c, o->arg);
	/* without -fido2 (main() returns 31 before this with it): a usage
	 * error, as gocryptfs-xray's */
	if (r == EXIT_OK && (c.flags & CONF_FIDO2)) {
		fprintf(stderr, "vcryptfs-xray: the master key is protected by "
				"a FIDO2 token, which needs -fido2 DEVICE (not "
				"supported by this build)\n");
		r = EXIT_USAGE;
	}
	if (r == EXIT_OK)
		r = cmd_unlock(&a, &c, mk);
	if (r == EXIT_OK) {
		hex(stdout, mk, KEYS_MASTER_LEN);
		printf("\n");
	}
	secmem_free(mk);
	config_free(&c);
	return r;
}

/* One request, one reply line; the reply is left in *out (malloc'd). */
static int ctl_roundtrip(int s, const char *key, const char *path, char **out)
{
	json_t *req = json_object();
	char *txt;
	int rc = -1;

	json_object_set_new(req, key, json_string(path));
	txt = json_dumps(req, JSON_COMPACT);
	json_decref(req);
	if (txt == NULL)
		return -1;
	if (send(s, txt, strlen(txt), MSG_NOSIGNAL) >= 0) {
		char buf[16384];
		size_t got = 0;

		while (got < sizeof(buf) - 1) {
			ssize_t n = read(s, buf + got, sizeof(buf) - 1 - got);
			if (n <= 0)
				break;
			got += (size_t)n;
			if (buf[got - 1] == '\n')
				break;
		}
		buf[got] = '\0';
		*out = strdup(buf);
		rc = *out != NULL ? 0 : -1;
	}
	free(txt);
	return rc;
}

static int ctl_paths(const struct xopts *o)
{
	struct sockaddr_un sa;
	const char *key = o->encrypt_paths ? "EncryptPath" : "DecryptPath";
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	ssize_t len;
	int s, rc = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", o->arg);
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0 || connect(s, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		fprintf(stderr, "dial unix %s: %s\n", o->arg, strerror(errno));
		if (s >= 0)
			close(s);
		return 1;
	}
	while ((len = getdelim(&line, &cap, o->nul ? '\0' : '\n', stdin)) >=
	       0) {
		char *reply = NULL;
		json_t *j;
		json_error_t je;
		long long eno;

		lineno++;
		if (len > 0 && line[len - 1] == (o->nul ? '\0' : '\n'))
			line[--len] = '\0';
		if (ctl_roundtrip(s, key, line, &reply) != 0) {
			fprintf(stderr, "control socket: %s\n",
				strerror(errno));
			rc = 1;
			break;
		}
		j = json_loads(reply, 0, &je);
		free(reply);
		if (j == NULL) {
			fprintf(stderr, "bad reply: %s\n", je.text);
			rc = 1;
			break;
		}
		eno = json_integer_value(json_object_get(j, "ErrNo"));
		if (eno != 0) {
			fprintf(stderr,
				"error at input line %zu \"%s\": errno %lld: "
				"%s\n",
				lineno, line, eno,
				json_string_value(
					json_object_get(j, "ErrText")));
			json_decref(j);
			rc = 1;
			break;
		}
		{
			const char *w = json_string_value(
				json_object_get(j, "WarnText"));
			if (w != NULL && w[0] != '\0')
				fprintf(stderr,
					"warning at input line %zu \"%s\": "
					"%s\n",
					lineno, line, w);
		}
		printf("%s%c", json_string_value(json_object_get(j, "Result")),
		       o->nul ? '\0' : '\n');
		json_decref(j);
	}
	free(line);
	close(s);
	return rc;
}

int main(int argc, char **argv)
{
	struct xopts o;

	/* the calibrated kernel choice, as vcryptfs makes it (single
	 * threaded program: any time before the first seal would do) */
	calibrate_once();
	if (parse(&o, argc, argv) != 0)
		return 1;
	if (o.version) {
		printf("vcryptfs-xray: ");
		version_print(stdout);
		return 0;
	}
	if (o.help) {
		usage(stdout);
		return 0;
	}
	if (o.fido2 != NULL) {
		fprintf(stderr, "fido2-assert failed: FIDO2 is not supported "
				"by this build\n");
		return EXIT_FIDO2;
	}
	if (o.arg == NULL) {
		usage(stderr);
		return 1;
	}
	if (o.aessiv && o.xchacha) {
		fprintf(stderr, "vcryptfs-xray: -aessiv and -xchacha cannot "
				"be used together\n");
		return 1;
	}
	if (o.dumpmk)
		return dump_master_key(&o);
	if (o.encrypt_paths || o.decrypt_paths) {
		if (o.encrypt_paths && o.decrypt_paths) {
			fprintf(stderr, "vcryptfs-xray: -encrypt-paths and "
					"-decrypt-paths cannot be used "
					"together\n");
			return 1;
		}
		return ctl_paths(&o);
	}
	return dump_file(&o);
}
