/* SPDX-License-Identifier: MIT */
/*
 * The process around a FUSE session (daemon.h), shared by the forward and
 * the reverse daemon. Spec: ../shared/FORMAT.md 11, 12.1, 13.5. Not
 * proved.
 */
#include "fuse/daemon.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <syslog.h>
#include <unistd.h>

#include "base/exitcodes.h"
#include "base/log.h"
#include "base/secmem.h"

int daemon_fuse_args(struct fuse_args *args, const char *fsname,
		     const char *subtype, const char *extra, const char *kflags,
		     const char *ko, int fusedebug)
{
	char opts[4096], name[1024];
	size_t i;
	int n;

	for (i = 0; fsname[i] != '\0' && i + 1 < sizeof(name); i++) {
		name[i] = fsname[i];
		if (name[i] == ',')
			name[i] = '_';
	}
	name[i] = '\0';
	extra = extra != NULL ? extra : "";
	kflags = kflags != NULL ? kflags : "";
	ko = ko != NULL ? ko : "";
	n = snprintf(opts, sizeof(opts), "fsname=%s,subtype=%s%s%s%s%s%s", name,
		     subtype, extra, *kflags != '\0' ? "," : "", kflags,
		     *ko != '\0' ? "," : "", ko);
	if (n < 0 || (size_t)n >= sizeof(opts))
		return -1;
	if (fuse_opt_add_arg(args, "vcryptfs") != 0 ||
	    (fusedebug && fuse_opt_add_arg(args, "-d") != 0) ||
	    fuse_opt_add_arg(args, "-o") != 0 ||
	    fuse_opt_add_arg(args, opts) != 0)
		return -1;
	return 0;
}

unsigned long daemon_raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return 0;
	if (rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &rl);
		(void)getrlimit(RLIMIT_NOFILE, &rl);
	}
	return rl.rlim_cur == RLIM_INFINITY ? 1UL << 30
					    : (unsigned long)rl.rlim_cur;
}

void daemon_lazy_unmount(const char *mp)
{
	pid_t pid;

	if (umount2(mp, MNT_DETACH) == 0)
		return;
	pid = fork();
	if (pid == 0) {
		execlp("fusermount3", "fusermount3", "-u", "-z", mp,
		       (char *)NULL);
		_exit(127);
	}
	if (pid > 0)
		(void)waitpid(pid, NULL, 0);
}

void daemon_report(int *fd, int code)
{
	unsigned char c = (unsigned char)code;

	if (*fd < 0)
		return;
	(void)!write(*fd, &c, 1);
	close(*fd);
	*fd = -1;
}

void daemon_detach_stdio(int nosyslog)
{
	int fd = open("/dev/null", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return;
	(void)dup2(fd, STDIN_FILENO);
	if (!nosyslog) {
		(void)dup2(fd, STDOUT_FILENO);
		(void)dup2(fd, STDERR_FILENO);
	}
	close(fd);
}

void daemon_mounted(int *notify, int nosyslog, int quiet, int notifypid)
{
	if (*notify >= 0) {
		daemon_report(notify, EXIT_OK);
		if (!nosyslog)
			log_use_syslog(1);
		daemon_detach_stdio(nosyslog);
	} else if (!quiet) {
		printf("Filesystem mounted and ready.\n");
		fflush(stdout);
	}
	if (notifypid > 0)
		(void)kill((pid_t)notifypid, SIGUSR1);
}

/* ------------------------------------------------------------ signals */

static struct fuse_session *sig_session;
static const char *sig_mp;
static sigset_t sig_set;
static pthread_t sig_thread;
static volatile sig_atomic_t got_signal;

static void *signal_main(void *arg)
{
	int sig = 0;

	(void)arg;
	for (;;) {
		if (sigwait(&sig_set, &sig) != 0)
			continue;
		if (sig == SIGUSR2)
			return NULL; /* the loop ended by itself */
		got_signal = 1;
		fuse_session_exit(sig_session);
		daemon_lazy_unmount(sig_mp);
		return NULL;
	}
}

int daemon_signals_start(struct fuse_session *s, const char *mp)
{
	sig_session = s;
	sig_mp = mp;
	got_signal = 0;
	sigemptyset(&sig_set);
	sigaddset(&sig_set, SIGINT);
	sigaddset(&sig_set, SIGTERM);
	sigaddset(&sig_set, SIGHUP);
	sigaddset(&sig_set, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &sig_set, NULL);
	return pthread_create(&sig_thread, NULL, signal_main, NULL) == 0 ? 0
									 : -1;
}

int daemon_signals_stop(void)
{
	pthread_kill(sig_thread, SIGUSR2);
	pthread_join(sig_thread, NULL);
	return got_signal ? 1 : 0;
}

/* ---------------------------------------------------- background mode */

int daemon_run(int foreground, int quiet, int (*serve)(void *arg, int notify),
	       void (*wipe)(void *arg), void *arg)
{
	int pfd[2];
	pid_t pid;
	unsigned char code;
	ssize_t n;
	int st;
	int rc;

	if (foreground) {
		rc = serve(arg, -1);
		if (wipe != NULL)
			wipe(arg);
		return rc;
	}
	if (pipe2(pfd, O_CLOEXEC) != 0)
		return EXIT_FORKCHILD;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return EXIT_FORKCHILD;
	}
	if (pid == 0) {
		close(pfd[0]);
		/* memory locks are not inherited across fork: lock the keys
		 * (and libcrypto's arena, a secmem mapping too) again */
		if (secmem_relock() != 0)
			log_warn("keys not locked in memory again after the "
				 "fork (RLIMIT_MEMLOCK?)");
		(void)setsid();
		if (chdir("/") != 0)
			_exit(EXIT_OTHER);
		openlog("vcryptfs", LOG_PID, LOG_USER);
		rc = serve(arg, pfd[1]);
		if (wipe != NULL)
			wipe(arg);
		_exit(rc);
	}
	close(pfd[1]);
	if (wipe != NULL)
		wipe(arg);
	do {
		n = read(pfd[0], &code, 1);
	} while (n < 0 && errno == EINTR);
	close(pfd[0]);
	if (n == 1) {
		if (code == EXIT_OK) {
			if (!quiet)
				printf("Filesystem mounted and ready.\n");
			return EXIT_OK;
		}
		(void)waitpid(pid, NULL, 0);
		return code;
	}
	if (waitpid(pid, &st, 0) == pid && WIFEXITED(st))
		return WEXITSTATUS(st) != 0 ? WEXITSTATUS(st) : EXIT_FORKCHILD;
	return EXIT_FORKCHILD;
}
