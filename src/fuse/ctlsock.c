/* SPDX-License-Identifier: MIT */
/*
 * The control socket (see ctlsock.h). One thread accepts and serves
 * connections one after the other; a pipe wakes it to stop. Requests
 * are parsed with libjansson. Not proved.
 */
#include "fuse/ctlsock.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "format/names.h"
#include "fuse/fs.h"
#include "sys/sys.h"

#define REQ_MAX 5000 /* gocryptfs reads a request into a buffer this big */
#define PATH_CAP 8192

struct reply {
	char result[PATH_CAP];
	int errnum;
	char errtext[256];
	char warn[PATH_CAP + 128];
};

static void set_err(struct reply *r, int errnum, const char *text)
{
	r->result[0] = '\0';
	r->errnum = errnum;
	snprintf(r->errtext, sizeof(r->errtext), "%s", text);
}

/* strerror() as Go prints it: first letter in lower case. */
static void set_errno(struct reply *r, int e)
{
	set_err(r, e, strerror(e));
	r->errtext[0] = (char)tolower((unsigned char)r->errtext[0]);
}

/* Go's filepath.Clean, then without leading slashes: into out. */
static void canonical(const char *in, char *out, size_t cap)
{
	const char *comp[PATH_CAP / 2];
	size_t lens[PATH_CAP / 2];
	size_t n = 0, o = 0;
	const char *p = in;

	while (*p != '\0') {
		size_t l;
		while (*p == '/')
			p++;
		l = strcspn(p, "/");
		if (l == 0)
			break;
		if (l == 1 && p[0] == '.') {
			/* skip */
		} else if (l == 2 && p[0] == '.' && p[1] == '.') {
			if (n > 0)
				n--;
		} else if (n < sizeof(comp) / sizeof(comp[0])) {
			comp[n] = p;
			lens[n++] = l;
		}
		p += l;
	}
	out[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		int w = snprintf(out + o, cap - o, "%s%.*s", i ? "/" : "",
				 (int)lens[i], comp[i]);
		if (w < 0 || (size_t)w >= cap - o)
			break;
		o += (size_t)w;
	}
}

/* The directory IV of cipher directory dir (relative to rootfd, "" for
 * the root): 0 or -errno. Zero without DirIV. */
static int dir_iv(int rootfd, const char *dir, uint8_t iv[NAMES_DIRIV_LEN])
{
	char path[PATH_CAP + 32];
	ssize_t n;
	int fd;

	memset(iv, 0, NAMES_DIRIV_LEN);
	if (!(fs.vol->flags & VOL_DIRIV) ||
	    (fs.vol->flags & VOL_PLAINTEXTNAMES))
		return 0;
	snprintf(path, sizeof(path), "%s%s%s", dir, dir[0] ? "/" : "",
		 NAMES_DIRIV);
	fd = sys_open_regular(rootfd, path); /* never a FIFO: no hang */
	if (fd < 0)
		return fd;
	n = read(fd, iv, NAMES_DIRIV_LEN);
	close(fd);
	if (n != NAMES_DIRIV_LEN)
		return n < 0 ? -errno : -EINVAL;
	return 0;
}

static int append(char *out, size_t cap, const char *name)
{
	size_t o = strlen(out);
	int w = snprintf(out + o, cap - o, "%s%s", o ? "/" : "", name);

	return w < 0 || (size_t)w >= cap - o ? -ENAMETOOLONG : 0;
}

static void encrypt_path(int rootfd, const char *path, struct reply *r)
{
	char enc[NAMES_BUF];
	char disk[NAMES_BUF];
	const char *p = path;

	r->result[0] = '\0';
	while (*p != '\0') {
		uint8_t iv[NAMES_DIRIV_LEN];
		char name[NAMES_MAX + 1];
		size_t l = strcspn(p, "/");
		int rc;

		if (l > NAMES_MAX) {
			set_errno(r, ENAMETOOLONG);
			return;
		}
		memcpy(name, p, l);
		name[l] = '\0';
		rc = dir_iv(rootfd, r->result, iv);
		if (rc == 0)
			rc = names_encrypt(fs.vol, iv, name, enc, sizeof(enc));
		if (rc == 0 && names_needs_long(fs.vol, strlen(enc)))
			rc = names_long_hash(fs.vol, enc, disk, sizeof(disk));
		else if (rc == 0)
			snprintf(disk, sizeof(disk), "%s", enc);
		if (rc == 0)
			rc = append(r->result, sizeof(r->result), disk);
		if (rc != 0) {
			set_errno(r, -rc);
			return;
		}
		p += l;
		if (*p == '/')
			p++;
	}
	r->errnum = 0;
}

/* gocryptfs answers every DecryptPath error with ErrNo -1 and a text. */
static void dec_errno(struct reply *r, int e)
{
	set_errno(r, e);
	r->errnum = -1;
}

/* Why enc did not decrypt, in the words of Go's base64 decoder when the
 * text is not base64 (unpadded, URL alphabet), "bad message" otherwise. */
static void b64_error(struct reply *r, const char *enc)
{
	size_t n = strlen(enc);

	if (!(fs.vol->flags & VOL_PLAINTEXTNAMES) &&
	    (fs.vol->flags & VOL_RAW64)) {
		size_t i;

		for (i = 0; i < n; i++)
			if (!isalnum((unsigned char)enc[i]) && enc[i] != '-' &&
			    enc[i] != '_')
				break;
		if (i == n && n % 4 == 1)
			i = n - 1;
		if (i < n) {
			char t[80];
			snprintf(t, sizeof(t),
				 "illegal base64 data at input byte %zu", i);
			set_err(r, -1, t);
			return;
		}
	}
	set_err(r, -1, "bad message");
}

static void decrypt_path(int rootfd, const char *path, struct reply *r)
{
	char cdir[PATH_CAP];
	const char *p = path;

	cdir[0] = '\0';
	r->result[0] = '\0';
	while (*p != '\0') {
		uint8_t iv[NAMES_DIRIV_LEN];
		char disk[NAMES_BUF];
		char enc[NAMES_BUF + 1];
		char plain[NAMES_BUF];
		size_t l = strcspn(p, "/");
		int rc;

		if (l >= sizeof(disk)) {
			dec_errno(r, ENAMETOOLONG);
			return;
		}
		memcpy(disk, p, l);
		disk[l] = '\0';
		rc = dir_iv(rootfd, cdir, iv);
		if (rc != 0) {
			dec_errno(r, -rc);
			return;
		}
		snprintf(enc, sizeof(enc), "%s", disk);
		if (names_is_long(disk) &&
		    !(fs.vol->flags & VOL_PLAINTEXTNAMES)) {
			char nf[PATH_CAP + NAMES_BUF + 8];
			ssize_t n;
			int fd;

			snprintf(nf, sizeof(nf), "%s%s%s%s", cdir,
				 cdir[0] ? "/" : "", disk, NAMES_LONG_SUFFIX);
			fd = sys_open_regular(rootfd, nf);
			if (fd < 0) {
				dec_errno(r, -fd);
				return;
			}
			n = read(fd, enc, sizeof(enc) - 1);
			close(fd);
			if (n <= 0) {
				set_err(r, -1, "bad long name file");
				return;
			}
			enc[n] = '\0';
		}
		rc = names_decrypt(fs.vol, iv, enc, plain, sizeof(plain));
		if (rc != 0) {
			b64_error(r, enc);
			return;
		}
		if (append(r->result, sizeof(r->result), plain) != 0 ||
		    append(cdir, sizeof(cdir), disk) != 0) {
			dec_errno(r, ENAMETOOLONG);
			return;
		}
		p += l;
		if (*p == '/')
			p++;
	}
	r->errnum = 0;
}

static char *reply_json(const struct reply *r)
{
	json_t *o = json_object();
	char *s, *line = NULL;

	if (o == NULL)
		return NULL;
	json_object_set_new(o, "Result", json_string(r->result));
	json_object_set_new(o, "ErrNo", json_integer(r->errnum));
	json_object_set_new(o, "ErrText", json_string(r->errtext));
	json_object_set_new(o, "WarnText", json_string(r->warn));
	s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(o);
	if (s != NULL) {
		size_t n = strlen(s);
		line = malloc(n + 2);
		if (line != NULL) {
			memcpy(line, s, n);
			line[n] = '\n';
			line[n + 1] = '\0';
		}
		free(s);
	}
	return line;
}

char *ctlsock_handle(int rootfd, const char *req, size_t len)
{
	struct reply *r = calloc(1, sizeof(*r));
	json_error_t jerr;
	json_t *j, *e, *d;
	char *out;

	if (r == NULL)
		return NULL;
	j = json_loadb(req, len, JSON_DECODE_ANY, &jerr);
	if (j == NULL) {
		char t[200];
		snprintf(t, sizeof(t), "JSON Unmarshal error: %s", jerr.text);
		set_err(r, -1, t);
		goto done;
	}
	e = json_is_object(j) ? json_object_get(j, "EncryptPath") : NULL;
	d = json_is_object(j) ? json_object_get(j, "DecryptPath") : NULL;
	if ((e != NULL && !json_is_string(e)) ||
	    (d != NULL && !json_is_string(d))) {
		set_err(r, -1,
			"JSON Unmarshal error: cannot unmarshal into "
			"EncryptPath/DecryptPath of type string");
	} else {
		const char *es = e != NULL ? json_string_value(e) : "";
		const char *ds = d != NULL ? json_string_value(d) : "";
		const char *in = es[0] ? es : ds;
		char *canon = malloc(PATH_CAP);

		if (es[0] && ds[0]) {
			set_err(r, -1, "Ambiguous");
		} else if (!in[0]) {
			set_err(r, -1, "Empty input");
		} else if (canon == NULL) {
			set_errno(r, ENOMEM);
		} else {
			canonical(in, canon, PATH_CAP);
			if (strcmp(canon, in) != 0)
				snprintf(r->warn, sizeof(r->warn),
					 "Non-canonical input path '%s' has "
					 "been interpreted as '%s'.",
					 in, canon);
			if (!canon[0])
				set_err(r, -1,
					"Empty input after canonicalization");
			else if (es[0])
				encrypt_path(rootfd, canon, r);
			else
				decrypt_path(rootfd, canon, r);
		}
		free(canon);
	}
	json_decref(j);
done:
	out = reply_json(r);
	free(r);
	return out;
}

/* ---------------------------------------------------------------------
 * The socket
 */

static int lfd = -1, rootfd = -1, stop_pipe[2] = { -1, -1 };
static pthread_t thr;
static int running;
static char sock_path[sizeof(((struct sockaddr_un *)0)->sun_path)];

/* Wait for fd or the stop pipe: 1 fd ready, 0 stop. */
static int wait_fd(int fd)
{
	struct pollfd p[2] = { { fd, POLLIN, 0 }, { stop_pipe[0], POLLIN, 0 } };

	for (;;) {
		int n = poll(p, 2, -1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || (p[1].revents & POLLIN))
			return 0;
		if (p[0].revents)
			return 1;
	}
}

static void serve_conn(int c)
{
	char *buf = malloc(REQ_MAX);

	while (buf != NULL && wait_fd(c)) {
		ssize_t n = read(c, buf, REQ_MAX);
		char *out;
		if (n <= 0)
			break;
		out = ctlsock_handle(rootfd, buf, (size_t)n);
		if (out == NULL)
			break;
		if (send(c, out, strlen(out), MSG_NOSIGNAL) < 0) {
			free(out);
			break;
		}
		free(out);
	}
	free(buf);
	close(c);
}

static void *ctl_main(void *arg)
{
	(void)arg;
	while (wait_fd(lfd)) {
		int c = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		if (c >= 0)
			serve_conn(c);
	}
	return NULL;
}

int ctlsock_start(const char *path, const char *cipherdir)
{
	struct sockaddr_un sa;
	struct stat st;

	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "vcryptfs: ctlsock: path too long: %s\n", path);
		return -1;
	}
	memcpy(sa.sun_path, path, strlen(path));
	/* a stale socket from a killed mount is replaced, nothing else */
	if (lstat(path, &st) == 0 && S_ISSOCK(st.st_mode))
		(void)unlink(path);
	rootfd = open(cipherdir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (rootfd < 0 || lfd < 0 ||
	    bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) != 0 ||
	    listen(lfd, 16) != 0 || pipe2(stop_pipe, O_CLOEXEC) != 0) {
		fprintf(stderr, "vcryptfs: ctlsock: %s: %s\n", path,
			strerror(errno));
		ctlsock_stop();
		return -1;
	}
	snprintf(sock_path, sizeof(sock_path), "%s", path);
	if (pthread_create(&thr, NULL, ctl_main, NULL) != 0) {
		fprintf(stderr, "vcryptfs: ctlsock: no thread\n");
		ctlsock_stop();
		return -1;
	}
	running = 1;
	return 0;
}

void ctlsock_stop(void)
{
	if (running) {
		(void)!write(stop_pipe[1], "x", 1);
		pthread_join(thr, NULL);
		running = 0;
	}
	if (sock_path[0]) {
		(void)unlink(sock_path);
		sock_path[0] = '\0';
	}
	if (lfd >= 0)
		close(lfd);
	if (rootfd >= 0)
		close(rootfd);
	for (int i = 0; i < 2; i++) {
		if (stop_pipe[i] >= 0)
			close(stop_pipe[i]);
		stop_pipe[i] = -1;
	}
	lfd = rootfd = -1;
}
