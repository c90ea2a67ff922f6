/* SPDX-License-Identifier: MIT */
/*
 * reverse_run(): the session of the reverse daemon: mount options
 * (always read-only, fuse.vcryptfs-reverse, allow_other with
 * default_permissions so the kernel applies the view's modes to every
 * caller), background mode like the forward mount (the parent waits for
 * the child's "mounted" or its exit code), -notifypid, a clean unmount
 * on SIGINT/SIGTERM (exit 15).
 * The session code follows src/fuse/mount.c, which is bound to the
 * forward daemon's tables; after the restructuring both could share one
 * session helper (see the report of issue 26).
 * Spec: ../shared/FORMAT.md 9, 11, 12.1, 13.5. Not proved.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <syslog.h>
#include <unistd.h>

#include "base/exitcodes.h"
#include "fuse/uring.h"
#include "base/log.h"
#include "base/secmem.h"
#include "reverse/reverse.h"
#include "reverse/rv.h"
#include "sys/sys.h"

static struct fuse_session *session;
static const char *mnt_path;
static volatile sig_atomic_t got_signal;

/* gocryptfs's timeouts: the plaintext dir changes behind the mount's
 * back by design, so caches expire after 1 s (0 with -sharedstorage). */
#define RV_TIMEOUT 1.0

static void lazy_unmount(const char *mp)
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

static void *signal_thread(void *arg)
{
	sigset_t *set = arg;
	int sig = 0;

	for (;;) {
		if (sigwait(set, &sig) != 0)
			continue;
		if (sig == SIGUSR2)
			return NULL;
		got_signal = 1;
		fuse_session_exit(session);
		lazy_unmount(mnt_path);
		return NULL;
	}
}

static int build_args(const struct reverse_opts *o, struct fuse_args *args)
{
	char opts[4096], fsname[1024];
	const char *name = o->fsname != NULL ? o->fsname : o->plaindir;
	size_t i;
	int n;

	for (i = 0; name[i] != '\0' && i + 1 < sizeof(fsname); i++) {
		fsname[i] = name[i];
		if (fsname[i] == ',')
			fsname[i] = '_';
	}
	fsname[i] = '\0';
	n = snprintf(opts, sizeof(opts),
		     "fsname=%s,subtype=vcryptfs-reverse,ro%s%s%s%s%s", fsname,
		     o->allow_other ? ",allow_other,default_permissions" : "",
		     o->kflags != NULL ? "," : "",
		     o->kflags != NULL ? o->kflags : "",
		     o->ko != NULL ? "," : "", o->ko != NULL ? o->ko : "");
	if (n < 0 || (size_t)n >= sizeof(opts))
		return -1;
	if (fuse_opt_add_arg(args, "vcryptfs") != 0 ||
	    (o->fusedebug && fuse_opt_add_arg(args, "-d") != 0) ||
	    fuse_opt_add_arg(args, "-o") != 0 ||
	    fuse_opt_add_arg(args, opts) != 0)
		return -1;
	return 0;
}

static void report(int *fd, int code)
{
	unsigned char c = (unsigned char)code;

	if (*fd < 0)
		return;
	(void)!write(*fd, &c, 1);
	close(*fd);
	*fd = -1;
}

static void detach_stdio(const struct reverse_opts *o)
{
	int fd = open("/dev/null", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return;
	(void)dup2(fd, STDIN_FILENO);
	if (!o->nosyslog) {
		(void)dup2(fd, STDOUT_FILENO);
		(void)dup2(fd, STDERR_FILENO);
	}
	close(fd);
}

static void raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &rl);
	}
}

static int serve(const struct reverse_opts *o, struct volume *vol, int notify)
{
	struct fuse_args args = FUSE_ARGS_INIT(0, NULL);
	struct fuse_loop_config lc = { .clone_fd = 0, .max_idle_threads = 10 };
	sigset_t set;
	pthread_t sigth;
	struct stat st;
	int rc = EXIT_OK;

	memset(&rv, 0, sizeof(rv));
	rc = rv_exclude_new(o, &rv.ex);
	if (rc != EXIT_OK) {
		report(&notify, rc);
		return rc;
	}
	rv.rootfd = sys_openat(AT_FDCWD, o->plaindir,
			       O_PATH | O_DIRECTORY | O_NOFOLLOW, 0);
	if (rv.rootfd < 0 || fstat(rv.rootfd, &st) != 0) {
		log_error("cannot open %s: %s", o->plaindir,
			  strerror(rv.rootfd < 0 ? -rv.rootfd : errno));
		rc = EXIT_CIPHERDIR;
		goto out_ex;
	}
	if (rv_table_init(rv.rootfd) != 0) {
		rc = EXIT_OTHER;
		goto out_root;
	}
	rv.vol = vol;
	rv.rootdev = st.st_dev;
	rv.timeout = o->sharedstorage ? 0.0 : RV_TIMEOUT;
	rv.config_custom = o->config_custom;
	rv.one_file_system = o->one_file_system;
	rv.allow_other = o->allow_other;
	rv.debug = o->debug;
	raise_nofile();
	if (build_args(o, &args) != 0) {
		rc = EXIT_OTHER;
		goto out_table;
	}
	session = fuse_session_new(&args, rv_ops(),
				   sizeof(struct fuse_lowlevel_ops), NULL);
	if (session == NULL) {
		rc = EXIT_FUSENEWSERVER;
		goto out_args;
	}
	mnt_path = o->mountpoint;
	if (fuse_session_mount(session, o->mountpoint) != 0) {
		rc = EXIT_FUSENEWSERVER;
		goto out_session;
	}
	/* FUSE over io_uring when the kernel offers it (the forward mount's
	 * rings, fuse/uring.h), else /dev/fuse */
	if (uring_install(session, !o->nouring) != 0)
		log_warn("io_uring hooks refused by libfuse: using /dev/fuse");
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	if (pthread_create(&sigth, NULL, signal_thread, &set) != 0) {
		rc = EXIT_OTHER;
		goto out_unmount;
	}
	if (notify >= 0) {
		report(&notify, EXIT_OK);
		if (!o->nosyslog)
			log_use_syslog(1);
		detach_stdio(o);
	} else if (!o->quiet) {
		printf("Filesystem mounted and ready.\n");
		fflush(stdout);
	}
	if (o->notifypid > 0)
		(void)kill((pid_t)o->notifypid, SIGUSR1);
	(void)fuse_session_loop_mt(session, &lc);
	uring_stop();
	pthread_kill(sigth, SIGUSR2);
	pthread_join(sigth, NULL);
	if (got_signal)
		rc = EXIT_SIGINT;
out_unmount:
	fuse_session_unmount(session);
out_session:
	fuse_session_destroy(session);
	session = NULL;
out_args:
	fuse_opt_free_args(&args);
out_table:
	rv_table_free();
	rv_links_free();
out_root:
	if (rv.rootfd >= 0)
		close(rv.rootfd);
out_ex:
	rv_exclude_free(rv.ex);
	rv.ex = NULL;
	report(&notify, rc);
	return rc;
}

int reverse_run(const struct reverse_opts *o, struct volume *vol)
{
	int pfd[2];
	pid_t pid;
	unsigned char code;
	ssize_t n;
	int st;

	if (o->foreground)
		return serve(o, vol, -1);
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
		/* locks are not inherited across fork (base/secmem.h) */
		if (secmem_relock() != 0)
			log_warn("keys not locked in memory again after the "
				 "fork (RLIMIT_MEMLOCK?)");
		(void)setsid();
		if (chdir("/") != 0)
			_exit(EXIT_OTHER);
		openlog("vcryptfs", LOG_PID, LOG_USER);
		_exit(serve(o, vol, pfd[1]));
	}
	close(pfd[1]);
	do {
		n = read(pfd[0], &code, 1);
	} while (n < 0 && errno == EINTR);
	close(pfd[0]);
	if (n == 1) {
		if (code == EXIT_OK) {
			if (!o->quiet)
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
