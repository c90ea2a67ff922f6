/* SPDX-License-Identifier: MIT */
/*
 * reverse_run(): the session of the reverse daemon: mount options
 * (always read-only, fuse.vcryptfs-reverse, allow_other with
 * default_permissions so the kernel applies the view's modes to every
 * caller), background mode like the forward mount (the parent waits for
 * the child's "mounted" or its exit code), -notifypid, a clean unmount
 * on SIGINT/SIGTERM (exit 15).
 * The process around the session (arguments, background mode, signals)
 * is fuse/daemon.h's, shared with the forward mount.
 * Spec: ../shared/FORMAT.md 9, 11, 12.1, 13.5. Not proved.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/exitcodes.h"
#include "base/log.h"
#include "fuse/daemon.h"
#include "fuse/uring.h"
#include "reverse/reverse.h"
#include "reverse/rv.h"
#include "sys/sys.h"

static struct fuse_session *session;

/* gocryptfs's timeouts: the plaintext dir changes behind the mount's
 * back by design, so caches expire after 1 s (0 with -sharedstorage). */
#define RV_TIMEOUT 1.0

static int build_args(const struct reverse_opts *o, struct fuse_args *args)
{
	return daemon_fuse_args(
		args, o->d.fsname != NULL ? o->d.fsname : o->plaindir,
		"vcryptfs-reverse",
		o->d.allow_other ? ",ro,allow_other,default_permissions"
				 : ",ro",
		o->d.kflags, o->d.ko, o->d.fusedebug);
}

static int serve(const struct reverse_opts *o, struct volume *vol, int notify)
{
	struct fuse_args args = FUSE_ARGS_INIT(0, NULL);
	struct fuse_loop_config lc = { .clone_fd = 0, .max_idle_threads = 10 };
	struct stat st;
	int rc = EXIT_OK;

	memset(&rv, 0, sizeof(rv));
	rc = rv_exclude_new(o, &rv.ex);
	if (rc != EXIT_OK) {
		daemon_report(&notify, rc);
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
	rv.timeout = o->d.sharedstorage ? 0.0 : RV_TIMEOUT;
	rv.config_custom = o->config_custom;
	rv.one_file_system = o->one_file_system;
	rv.allow_other = o->d.allow_other;
	rv.debug = o->d.debug;
	(void)daemon_raise_nofile();
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
	if (fuse_session_mount(session, o->d.mountpoint) != 0) {
		rc = EXIT_FUSENEWSERVER;
		goto out_session;
	}
	/* FUSE over io_uring when the kernel offers it (the forward mount's
	 * rings, fuse/uring.h), else /dev/fuse */
	if (uring_install(session, !o->d.nouring) != 0)
		log_warn("io_uring hooks refused by libfuse: using /dev/fuse");
	if (daemon_signals_start(session, o->d.mountpoint) != 0) {
		rc = EXIT_OTHER;
		goto out_unmount;
	}
	daemon_mounted(&notify, o->d.nosyslog, o->d.quiet, o->d.notifypid);
	(void)fuse_session_loop_mt(session, &lc);
	uring_stop();
	if (daemon_signals_stop())
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
	daemon_report(&notify, rc);
	return rc;
}

struct serve_args {
	const struct reverse_opts *o;
	struct volume *vol;
};

static int serve_cb(void *arg, int notify)
{
	struct serve_args *a = arg;

	return serve(a->o, a->vol, notify);
}

int reverse_run(const struct reverse_opts *o, struct volume *vol)
{
	struct serve_args a = { o, vol };

	return daemon_run(o->d.foreground, o->d.quiet, serve_cb, NULL, &a);
}
