/* SPDX-License-Identifier: MIT */
/*
 * mount_run(): the forward daemon's session: its tables and options, the
 * libfuse session and multi-threaded loop, -ctlsock, io_uring, -idle,
 * -notifypid, the descriptor budget. The process around it (background
 * mode, signals, libfuse arguments) is fuse/daemon.h's, shared with the
 * reverse daemon. The serving process (after daemon.c's fork) switches
 * AES-GCM to the libgcrypt backend first (format/content.h
 * content_gcm_backend_enable; its key schedules in the locked arena that
 * secmem_relock locked again). Spec: ../shared/FORMAT.md 11, 12.1, 13.5.
 * Not proved.
 */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/exitcodes.h"
#include "base/log.h"
#include "base/secmem.h"
#include "format/content.h"
#include "fuse/ctlsock.h"
#include "fuse/daemon.h"
#include "fuse/fs.h"
#include "fuse/hooks.h"
#include "fuse/mount.h"
#include "fuse/uring.h"
#include "sys/sys.h"

static struct fuse_session *session;
static const char *mnt_path;

static void wipe_volume(struct volume *vol)
{
	if (vol->content_key != NULL)
		secmem_wipe(vol->content_key, vol->content_key_len);
	if (vol->eme_key != NULL)
		secmem_wipe(vol->eme_key, 32);
}

struct fuse_session *mount_session(void)
{
	return session;
}

/* The fd budget's reaper asks the kernel to drop a dentry (inode.h). */
static int inval_entry(uint64_t parent, const char *name, size_t len)
{
	return fuse_lowlevel_notify_inval_entry(session, (fuse_ino_t)parent,
						name, len);
}

/*
 * Read-ahead of the mount, KiB: the kernel offers 128 KiB at INIT and a
 * daemon may only lower it there, while 4 MiB lets a streaming read
 * arrive as 1 MiB requests (max_write allows 256 pages), about four at a
 * time: rw.c reads those from the backing file with O_DIRECT, so they
 * wait for the disk together rather than one after the other. Raised
 * through the mount's backing-device knob in sysfs, which only root may
 * write; otherwise the kernel's default stays.
 */
#define READ_AHEAD_KB "4096"

/* Runs beside the loop: stat() of the mount point waits for the loop to
 * answer, then names the mount's bdi (its st_dev). Failures are ignored. */
static void *tune_thread(void *arg)
{
	const char *mp = arg;
	char path[80];
	struct stat st;
	int fd;

	if (stat(mp, &st) != 0)
		return NULL;
	(void)snprintf(path, sizeof(path), "/sys/class/bdi/%u:%u/read_ahead_kb",
		       major(st.st_dev), minor(st.st_dev));
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	(void)!write(fd, READ_AHEAD_KB, strlen(READ_AHEAD_KB));
	close(fd);
	return NULL;
}

static void start_tune(const char *mp)
{
	pthread_attr_t at;
	pthread_t t;

	if (geteuid() != 0 || pthread_attr_init(&at) != 0)
		return;
	(void)pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
	(void)pthread_create(&t, &at, tune_thread, (void *)mp);
	(void)pthread_attr_destroy(&at);
}

/* -idle fired (hooks.c): unmount as `fusermount3 -u` would, exit 0. */
static void idle_unmount(void)
{
	fuse_session_exit(session);
	daemon_lazy_unmount(mnt_path);
}

static int build_args(const struct mount_opts *o, struct fuse_args *args)
{
	const char *perm = "";
	char extra[64];

	if (o->d.allow_other)
		perm = ",allow_other,default_permissions";
	else if (o->acl)
		perm = ",default_permissions";
	(void)snprintf(extra, sizeof(extra), "%s%s", perm,
		       o->readonly ? ",ro" : "");
	return daemon_fuse_args(
		args, o->d.fsname != NULL ? o->d.fsname : o->cipherdir,
		"vcryptfs", extra, o->d.kflags, o->d.ko, o->d.fusedebug);
}

/*
 * Every request is a round trip: the caller sleeps until a worker wakes,
 * answers and wakes it again. On a busy machine the kernel's scheduler
 * (EEVDF, Linux 6.12+) lets a waking thread run at once only when its
 * deadline comes first, and the deadline is its slice after it woke: ask
 * for the shortest slice (0.1 ms instead of the default ~1.5 ms), so that
 * a woken worker preempts CPU-bound tasks instead of waiting out their
 * slice. It changes when the daemon runs, not how much CPU it gets. Set
 * before any thread starts (threads inherit it); older kernels ignore
 * sched_runtime for SCHED_OTHER, errors are ignored.
 */
#define SLICE_NS 100000U

/* The kernel's struct sched_attr (uapi linux/sched/types.h, which clashes
 * with glibc's sched.h), version 0 (48 bytes). */
struct slice_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
};

static void short_slice(void)
{
	struct slice_attr a;

	a.size = sizeof(a);
	a.sched_policy = SCHED_OTHER;
	a.sched_flags = 0;
	a.sched_nice = getpriority(PRIO_PROCESS, 0);
	a.sched_priority = 0;
	a.sched_runtime = SLICE_NS;
	a.sched_deadline = 0;
	a.sched_period = 0;
	(void)syscall(SYS_sched_setattr, 0, &a, 0U);
}

static void ignore_sigxfsz(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	(void)sigaction(SIGXFSZ, &sa, NULL);
}

/*
 * Entry and attribute timeouts, seconds. Without -sharedstorage the mount
 * owns the cipher directory: every change goes through it and the kernel
 * updates or drops what it cached (size and times after writes, link
 * counts, renamed and removed entries, atime after reads), so the caches
 * only have to expire for changes made behind the mount's back, which
 * -sharedstorage is for. 30 s instead of gocryptfs's 1 s keeps the entries
 * a readdirplus returned valid while a program works through a large
 * tree (find | xargs cat of 18,000 files: one LOOKUP per file less).
 * Negative entries stay at 1 s, as in gocryptfs.
 */
#define CACHE_TIMEOUT 30.0
#define NEG_TIMEOUT 1.0

static int serve(const struct mount_opts *o, struct volume *vol, int notify)
{
	struct fuse_args args = FUSE_ARGS_INIT(0, NULL);
	struct fuse_loop_config lc = { .clone_fd = 0, .max_idle_threads = 10 };
	unsigned long nofile;
	int rootfd;
	int rc = EXIT_OK;

	/* in this process, before any worker thread: mlock is not inherited
	 * across the fork (gcm_backend_gcrypt.h) */
	log_debug("AES-GCM backend: %s", content_gcm_backend_enable());
	rootfd = sys_openat(AT_FDCWD, o->cipherdir,
			    O_PATH | O_DIRECTORY | O_NOFOLLOW, 0);
	if (rootfd < 0) {
		fprintf(stderr, "vcryptfs: cannot open %s: %s\n", o->cipherdir,
			strerror(-rootfd));
		daemon_report(&notify, EXIT_CIPHERDIR);
		return EXIT_CIPHERDIR;
	}
	if (inode_table_init(rootfd) != 0) {
		close(rootfd);
		daemon_report(&notify, EXIT_OTHER);
		return EXIT_OTHER;
	}
	memset(&fs, 0, sizeof(fs));
	fs.vol = vol;
	fs.timeout = o->d.sharedstorage ? 0.0 : CACHE_TIMEOUT;
	fs.neg_timeout = o->d.sharedstorage ? 0.0 : NEG_TIMEOUT;
	fs.readonly = o->readonly;
	fs.allow_other = o->d.allow_other;
	fs.debug = o->d.debug;
	fs.noprealloc = o->noprealloc;
	fs.sharedstorage = o->d.sharedstorage;
	fs.badname = o->badname;
	fs.kernel_cache = o->kernel_cache;
	fs.acl = o->acl;
	fs.serialize_reads = o->serialize_reads;
	fs.noxattr = o->noxattr;
	fs.force_owner = o->force_owner;
	fs.owner_uid = (uid_t)o->owner_uid;
	fs.owner_gid = (gid_t)o->owner_gid;
	fs.idle = o->idle;
	nofile = daemon_raise_nofile();
	/* The kernel already applied the caller's umask to every mode. */
	(void)umask(0);
	if (build_args(o, &args) != 0) {
		rc = EXIT_OTHER;
		goto out_table;
	}
	session = fuse_session_new(&args, fs_ops(),
				   sizeof(struct fuse_lowlevel_ops), NULL);
	if (session == NULL) {
		rc = EXIT_FUSENEWSERVER;
		goto out_args;
	}
	mnt_path = o->d.mountpoint;
	/* as gocryptfs: the socket exists before the mount (exit 20) */
	if (o->ctlsock != NULL &&
	    ctlsock_start(o->ctlsock, o->cipherdir) != 0) {
		rc = EXIT_CTLSOCK;
		goto out_session;
	}
	if (fuse_session_mount(session, o->d.mountpoint) != 0) {
		rc = EXIT_FUSENEWSERVER;
		goto out_session;
	}
	if (uring_install(session, !o->d.nouring) != 0)
		log_error("io_uring hooks refused by libfuse: using /dev/fuse");
	/* A write past RLIMIT_FSIZE must fail with EFBIG, never kill the
	 * daemon: rw.c checks the limit first, this is the backstop. */
	ignore_sigxfsz();
	short_slice();
	if (daemon_signals_start(session, o->d.mountpoint) != 0) {
		rc = EXIT_OTHER;
		goto out_unmount;
	}
	daemon_mounted(&notify, o->d.nosyslog, o->d.quiet, o->d.notifypid);
	start_tune(o->d.mountpoint);
	if (hooks_idle_start(idle_unmount) != 0)
		log_error("-idle: could not start the idle timer");
	if (nofile > 0 && inode_budget_start(inval_entry, nofile) != 0)
		log_error("no descriptor budget: large trees may hit EMFILE");
	(void)fuse_session_loop_mt(session, &lc);
	hooks_idle_stop();
	ctlsock_stop();
	uring_stop();
	if (daemon_signals_stop())
		rc = EXIT_SIGINT;
	if (inode_budget_stop() != 0) {
		/* the reaper is stuck in the kernel on this session: leave
		 * the session to the process exit */
		log_error("descriptor budget thread did not stop");
		fuse_opt_free_args(&args);
		daemon_report(&notify, rc);
		return rc;
	}
out_unmount:
	fuse_session_unmount(session);
out_session:
	ctlsock_stop();
	fuse_session_destroy(session);
	session = NULL;
out_args:
	fuse_opt_free_args(&args);
out_table:
	inode_table_free();
	daemon_report(&notify, rc);
	return rc;
}

struct serve_args {
	const struct mount_opts *o;
	struct volume *vol;
};

static int serve_cb(void *arg, int notify)
{
	struct serve_args *a = arg;

	return serve(a->o, a->vol, notify);
}

static void wipe_cb(void *arg)
{
	wipe_volume(((struct serve_args *)arg)->vol);
}

int mount_run(const struct mount_opts *o, struct volume *vol)
{
	struct serve_args a = { o, vol };

	return daemon_run(o->d.foreground, o->d.quiet, serve_cb, wipe_cb, &a);
}
