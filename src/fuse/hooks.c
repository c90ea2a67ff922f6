/* SPDX-License-Identifier: MIT */
/*
 * Request wrappers for -idle, -serialize_reads, -noxattr and -d (see
 * hooks.h). Each wrapper notes the request, then calls the operation it
 * replaced; open, create and opendir count an open file when the
 * operation filled in fi->fh (every success does, no failure does), and
 * release/releasedir count it closed. Not proved.
 */
#include "fuse/hooks.h"

#include "base/log.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

static struct fuse_lowlevel_ops orig;
static atomic_llong last_ns;   /* CLOCK_MONOTONIC of the last request */
static atomic_long open_count; /* open files and directories */
static pthread_mutex_t read_lock = PTHREAD_MUTEX_INITIALIZER;

#define FH_NONE UINT64_MAX

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void note(const char *op, fuse_ino_t ino)
{
	if (fs.idle > 0)
		atomic_store_explicit(&last_ns, now_ns(), memory_order_relaxed);
	if (fs.debug)
		log_debug("%s ino %lu", op, (unsigned long)ino);
}

static void opened(const struct fuse_file_info *fi)
{
	if (fi->fh != FH_NONE)
		atomic_fetch_add(&open_count, 1);
}

/* ---------------------------------------------------------------------
 * Wrappers, in the order of struct fuse_lowlevel_ops
 */

static void w_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	note("LOOKUP", parent);
	orig.lookup(req, parent, name);
}

static void w_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	note("GETATTR", ino);
	orig.getattr(req, ino, fi);
}

static void w_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr,
		      int to_set, struct fuse_file_info *fi)
{
	note("SETATTR", ino);
	orig.setattr(req, ino, attr, to_set, fi);
}

static void w_readlink(fuse_req_t req, fuse_ino_t ino)
{
	note("READLINK", ino);
	orig.readlink(req, ino);
}

static void w_mknod(fuse_req_t req, fuse_ino_t parent, const char *name,
		    mode_t mode, dev_t rdev)
{
	note("MKNOD", parent);
	orig.mknod(req, parent, name, mode, rdev);
}

static void w_mkdir(fuse_req_t req, fuse_ino_t parent, const char *name,
		    mode_t mode)
{
	note("MKDIR", parent);
	orig.mkdir(req, parent, name, mode);
}

static void w_unlink(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	note("UNLINK", parent);
	orig.unlink(req, parent, name);
}

static void w_rmdir(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	note("RMDIR", parent);
	orig.rmdir(req, parent, name);
}

static void w_symlink(fuse_req_t req, const char *link, fuse_ino_t parent,
		      const char *name)
{
	note("SYMLINK", parent);
	orig.symlink(req, link, parent, name);
}

static void w_rename(fuse_req_t req, fuse_ino_t parent, const char *name,
		     fuse_ino_t newparent, const char *newname,
		     unsigned int flags)
{
	note("RENAME", parent);
	orig.rename(req, parent, name, newparent, newname, flags);
}

static void w_link(fuse_req_t req, fuse_ino_t ino, fuse_ino_t newparent,
		   const char *newname)
{
	note("LINK", ino);
	orig.link(req, ino, newparent, newname);
}

static void w_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	note("OPEN", ino);
	fi->fh = FH_NONE;
	orig.open(req, ino, fi);
	opened(fi);
}

static void w_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		   struct fuse_file_info *fi)
{
	note("READ", ino);
	if (fs.serialize_reads) {
		pthread_mutex_lock(&read_lock);
		orig.read(req, ino, size, off, fi);
		pthread_mutex_unlock(&read_lock);
	} else {
		orig.read(req, ino, size, off, fi);
	}
}

static void w_write(fuse_req_t req, fuse_ino_t ino, const char *buf,
		    size_t size, off_t off, struct fuse_file_info *fi)
{
	note("WRITE", ino);
	orig.write(req, ino, buf, size, off, fi);
}

static void w_flush(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	note("FLUSH", ino);
	orig.flush(req, ino, fi);
}

static void w_release(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	note("RELEASE", ino);
	atomic_fetch_sub(&open_count, 1);
	orig.release(req, ino, fi);
}

static void w_fsync(fuse_req_t req, fuse_ino_t ino, int datasync,
		    struct fuse_file_info *fi)
{
	note("FSYNC", ino);
	orig.fsync(req, ino, datasync, fi);
}

static void w_opendir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	note("OPENDIR", ino);
	fi->fh = FH_NONE;
	orig.opendir(req, ino, fi);
	opened(fi);
}

static void w_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		      struct fuse_file_info *fi)
{
	note("READDIR", ino);
	orig.readdir(req, ino, size, off, fi);
}

static void w_releasedir(fuse_req_t req, fuse_ino_t ino,
			 struct fuse_file_info *fi)
{
	note("RELEASEDIR", ino);
	atomic_fetch_sub(&open_count, 1);
	orig.releasedir(req, ino, fi);
}

static void w_fsyncdir(fuse_req_t req, fuse_ino_t ino, int datasync,
		       struct fuse_file_info *fi)
{
	note("FSYNCDIR", ino);
	orig.fsyncdir(req, ino, datasync, fi);
}

static void w_statfs(fuse_req_t req, fuse_ino_t ino)
{
	note("STATFS", ino);
	orig.statfs(req, ino);
}

static void w_setxattr(fuse_req_t req, fuse_ino_t ino, const char *name,
		       const char *value, size_t size, int flags)
{
	note("SETXATTR", ino);
	if (fs.noxattr)
		fuse_reply_err(req, ENOTSUP);
	else
		orig.setxattr(req, ino, name, value, size, flags);
}

static void w_getxattr(fuse_req_t req, fuse_ino_t ino, const char *name,
		       size_t size)
{
	note("GETXATTR", ino);
	/* the kernel asks for the ACLs before permission checks: "none"
	 * lets it go on instead of failing every access */
	if (fs.noxattr && strncmp(name, "system.posix_acl_", 17) == 0)
		fuse_reply_err(req, ENODATA);
	else if (fs.noxattr)
		fuse_reply_err(req, ENOTSUP);
	else
		orig.getxattr(req, ino, name, size);
}

static void w_listxattr(fuse_req_t req, fuse_ino_t ino, size_t size)
{
	note("LISTXATTR", ino);
	if (fs.noxattr)
		fuse_reply_err(req, ENOTSUP);
	else
		orig.listxattr(req, ino, size);
}

static void w_removexattr(fuse_req_t req, fuse_ino_t ino, const char *name)
{
	note("REMOVEXATTR", ino);
	if (fs.noxattr)
		fuse_reply_err(req, ENOTSUP);
	else
		orig.removexattr(req, ino, name);
}

static void w_access(fuse_req_t req, fuse_ino_t ino, int mask)
{
	note("ACCESS", ino);
	orig.access(req, ino, mask);
}

static void w_create(fuse_req_t req, fuse_ino_t parent, const char *name,
		     mode_t mode, struct fuse_file_info *fi)
{
	note("CREATE", parent);
	fi->fh = FH_NONE;
	orig.create(req, parent, name, mode, fi);
	opened(fi);
}

static void w_fallocate(fuse_req_t req, fuse_ino_t ino, int mode, off_t off,
			off_t len, struct fuse_file_info *fi)
{
	note("FALLOCATE", ino);
	orig.fallocate(req, ino, mode, off, len, fi);
}

static void w_readdirplus(fuse_req_t req, fuse_ino_t ino, size_t size,
			  off_t off, struct fuse_file_info *fi)
{
	note("READDIRPLUS", ino);
	orig.readdirplus(req, ino, size, off, fi);
}

static void w_lseek(fuse_req_t req, fuse_ino_t ino, off_t off, int whence,
		    struct fuse_file_info *fi)
{
	note("LSEEK", ino);
	orig.lseek(req, ino, off, whence, fi);
}

/* Replace each operation the table has by its wrapper. */
#define WRAP(op)                                                               \
	do {                                                                   \
		if (ops->op != NULL)                                           \
			ops->op = w_##op;                                      \
	} while (0)

void hooks_wrap(struct fuse_lowlevel_ops *ops)
{
	if (!(fs.idle > 0 || fs.serialize_reads || fs.noxattr || fs.debug))
		return;
	orig = *ops;
	atomic_store(&last_ns, now_ns());
	atomic_store(&open_count, 0);
	WRAP(lookup);
	WRAP(getattr);
	WRAP(setattr);
	WRAP(readlink);
	WRAP(mknod);
	WRAP(mkdir);
	WRAP(unlink);
	WRAP(rmdir);
	WRAP(symlink);
	WRAP(rename);
	WRAP(link);
	WRAP(open);
	WRAP(read);
	WRAP(write);
	WRAP(flush);
	WRAP(release);
	WRAP(fsync);
	WRAP(opendir);
	WRAP(readdir);
	WRAP(releasedir);
	WRAP(fsyncdir);
	WRAP(statfs);
	WRAP(setxattr);
	WRAP(getxattr);
	WRAP(listxattr);
	WRAP(removexattr);
	WRAP(access);
	WRAP(create);
	WRAP(fallocate);
	WRAP(readdirplus);
	WRAP(lseek);
}

/* ---------------------------------------------------------------------
 * -idle
 */

static pthread_t idle_thread;
static int idle_running;
static pthread_mutex_t idle_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t idle_cv = PTHREAD_COND_INITIALIZER;
static int idle_stop_flag;
static void (*idle_unmount)(void);

/* Checks ten times per idle period (at most once per 10 ms, at least
 * once per minute), as gocryptfs checks at a tenth of the duration. */
static void *idle_main(void *arg)
{
	long long period = (long long)(fs.idle * 1e9);
	long long step = period / 10;
	int fire = 0;

	(void)arg;
	if (step < 10000000LL)
		step = 10000000LL;
	if (step > 60000000000LL)
		step = 60000000000LL;
	pthread_mutex_lock(&idle_mu);
	while (!idle_stop_flag) {
		struct timespec ts;
		long long t;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		t = (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec + step;
		ts.tv_sec = (time_t)(t / 1000000000LL);
		ts.tv_nsec = (long)(t % 1000000000LL);
		(void)pthread_cond_timedwait(&idle_cv, &idle_mu, &ts);
		if (idle_stop_flag)
			break;
		if (atomic_load(&open_count) <= 0 &&
		    now_ns() - atomic_load(&last_ns) >= period) {
			fire = 1;
			break;
		}
	}
	pthread_mutex_unlock(&idle_mu);
	if (fire) {
		log_info("idle for %g s with no open files: unmounting",
			 fs.idle);
		idle_unmount();
	}
	return NULL;
}

int hooks_idle_start(void (*unmount)(void))
{
	pthread_condattr_t ca;
	int rc;

	if (!(fs.idle > 0))
		return 0;
	idle_unmount = unmount;
	idle_stop_flag = 0;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&idle_cv, &ca);
	pthread_condattr_destroy(&ca);
	rc = pthread_create(&idle_thread, NULL, idle_main, NULL);
	if (rc != 0)
		return -rc;
	idle_running = 1;
	return 0;
}

void hooks_idle_stop(void)
{
	if (!idle_running)
		return;
	pthread_mutex_lock(&idle_mu);
	idle_stop_flag = 1;
	pthread_cond_signal(&idle_cv);
	pthread_mutex_unlock(&idle_mu);
	pthread_join(idle_thread, NULL);
	idle_running = 0;
}
