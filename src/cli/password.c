/* SPDX-License-Identifier: MIT */
/*
 * Password sources (see password.h). Spec: ../shared/FORMAT.md 12.2.
 * Layer: cli/; depends on libc (termios, fork/execvp, waitpid), base/
 * (secmem, log), crypto/ct.h. Not proved.
 */
#include "cli/password.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "base/log.h"
#include "base/secmem.h"
#include "crypto/ct.h"

#define PW_BUF (PASSWORD_MAX + 2)

long password_read_line(int fd, uint8_t *buf, size_t cap)
{
	size_t n = 0;

	for (;;) {
		uint8_t ch;
		ssize_t k = read(fd, &ch, 1);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -1;
		if (k == 0)
			return n == 0 ? -3 : (long)n;
		if (ch == '\n')
			return (long)n;
		if (n == cap)
			return -2;
		buf[n++] = ch;
	}
}

/* Append the first line of file `path` to pw[*len..]. */
static int from_passfile(const char *path, uint8_t *pw, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	uint8_t extra;
	long k;

	log_info("passfile: reading from file \"%s\"", path);
	if (fd < 0) {
		log_error("passfile: could not open \"%s\": %s", path,
			  strerror(errno));
		return -1;
	}
	k = password_read_line(fd, pw + *len, PASSWORD_MAX - *len);
	if (k >= 0 && read(fd, &extra, 1) == 1)
		log_warn("passfile: ignoring trailing garbage after the first "
			 "line of \"%s\"",
			 path);
	close(fd);
	if (k == -2) {
		log_error("Maximum password length of %d bytes exceeded",
			  PASSWORD_MAX);
		return -1;
	}
	if (k <= 0) {
		log_error("passfile: empty first line in \"%s\"", path);
		return -1;
	}
	*len += (size_t)k;
	return 0;
}

/* Build argv for -extpass: one string split on spaces, or several taken
 * verbatim. Returns a malloc'd NULL-terminated array of pointers into
 * *copy (also malloc'd), or NULL. */
static char **extpass_argv(const struct password_src *src, char **copy)
{
	char **argv;
	size_t n = 0;

	*copy = NULL;
	if (src->nextpass > 1) {
		argv = calloc(src->nextpass + 1, sizeof(*argv));
		if (argv == NULL)
			return NULL;
		for (size_t i = 0; i < src->nextpass; i++)
			argv[i] = (char *)src->extpass[i];
		return argv;
	}
	*copy = strdup(src->extpass[0]);
	argv = calloc(strlen(src->extpass[0]) / 2 + 2, sizeof(*argv));
	if (*copy == NULL || argv == NULL) {
		free(*copy);
		*copy = NULL;
		free(argv);
		return NULL;
	}
	for (char *save = NULL, *t = strtok_r(*copy, " ", &save); t != NULL;
	     t = strtok_r(NULL, " ", &save))
		argv[n++] = t;
	return argv;
}

static int from_extpass(const struct password_src *src, uint8_t *pw,
			size_t *len)
{
	char *copy;
	char **argv = extpass_argv(src, &copy);
	int p[2], status = 0, r = -1;
	pid_t pid;
	long k;

	if (argv == NULL || argv[0] == NULL) {
		log_error("extpass: empty command");
		goto out;
	}
	if (pipe2(p, O_CLOEXEC) != 0) {
		log_error("extpass: pipe: %s", strerror(errno));
		goto out;
	}
	pid = fork();
	if (pid < 0) {
		log_error("extpass: fork: %s", strerror(errno));
		close(p[0]);
		close(p[1]);
		goto out;
	}
	if (pid == 0) {
		if (dup2(p[1], STDOUT_FILENO) < 0)
			_exit(127);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(p[1]);
	k = password_read_line(p[0], pw, PASSWORD_MAX);
	close(p[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		log_error("extpass: \"%s\" failed (status %d)", argv[0],
			  WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	} else if (k == -2) {
		log_error("Maximum password length of %d bytes exceeded",
			  PASSWORD_MAX);
	} else if (k <= 0) {
		log_error("extpass: password is empty");
	} else {
		*len = (size_t)k;
		r = 0;
	}
out:
	free(argv);
	free(copy);
	return r;
}

/* One line from the terminal on stdin, echo off, after `prompt`. */
static long from_tty(const char *prompt, uint8_t *pw)
{
	struct termios old, raw;
	int restore = 0;
	long k;

	fprintf(stderr, "%s", prompt);
	fflush(stderr);
	if (tcgetattr(STDIN_FILENO, &old) == 0) {
		raw = old;
		raw.c_lflag &= ~(tcflag_t)ECHO;
		raw.c_lflag |= ECHONL;
		restore = tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0;
	}
	k = password_read_line(STDIN_FILENO, pw, PASSWORD_MAX);
	if (restore)
		(void)tcsetattr(STDIN_FILENO, TCSANOW, &old);
	return k;
}

static int check_len(long k, size_t *len)
{
	if (k == -2) {
		log_error("Maximum password length of %d bytes exceeded",
			  PASSWORD_MAX);
		return -1;
	}
	if (k == -1) {
		log_error("reading the password failed: %s", strerror(errno));
		return -1;
	}
	if (k <= 0) {
		log_error("Password is empty");
		return -1;
	}
	*len = (size_t)k;
	return 0;
}

static int from_terminal(int twice, uint8_t *pw, size_t *len)
{
	uint8_t *again;
	size_t len2 = 0;
	int r;

	if (check_len(from_tty("Password: ", pw), len) != 0)
		return -1;
	if (!twice)
		return 0;
	again = secmem_alloc(PW_BUF);
	if (again == NULL) {
		log_error("out of memory");
		return -1;
	}
	r = check_len(from_tty("Repeat: ", again), &len2);
	if (r == 0 && (len2 != *len || ct_compare(pw, again, *len) != 0)) {
		log_error("Passwords do not match");
		r = -1;
	}
	secmem_free(again);
	return r;
}

int password_read(const struct password_src *src, int twice, uint8_t **pw,
		  size_t *len)
{
	uint8_t *buf = secmem_alloc(PW_BUF);
	size_t n = 0;
	int r = 0;

	if (buf == NULL) {
		log_error("out of memory");
		return -1;
	}
	if (src->npassfile > 0) {
		for (size_t i = 0; i < src->npassfile && r == 0; i++)
			r = from_passfile(src->passfile[i], buf, &n);
	} else if (src->nextpass > 0) {
		r = from_extpass(src, buf, &n);
	} else if (isatty(STDIN_FILENO)) {
		r = from_terminal(twice, buf, &n);
	} else {
		log_info("Reading Password from stdin");
		r = check_len(
			password_read_line(STDIN_FILENO, buf, PASSWORD_MAX),
			&n);
	}
	if (r != 0) {
		secmem_free(buf);
		return -1;
	}
	*pw = buf;
	*len = n;
	return 0;
}
