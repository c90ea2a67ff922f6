/* SPDX-License-Identifier: MIT */
/*
 * System-call wrappers: see sys.h. Every call retries on EINTR and returns
 * 0 or -errno. Spec: ../shared/FORMAT.md 5.4 and 5.7. Not proved.
 */
#include "sys/sys.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int sys_openat(int dirfd, const char *name, int flags, mode_t mode)
{
	int fd;

	do {
		fd = openat(dirfd, name, flags | O_CLOEXEC, mode);
	} while (fd < 0 && errno == EINTR);
	return fd < 0 ? -errno : fd;
}

void sys_procpath(int fd, char *buf, size_t bufsz)
{
	(void)snprintf(buf, bufsz, "/proc/self/fd/%d", fd);
}

/* The fd already names the object, so O_NOFOLLOW has nothing left to
 * refuse: on the /proc/self/fd magic link it would always fail with ELOOP
 * (a caller's open(file, O_NOFOLLOW) was refused on a mount so: the kernel
 * had already checked the last component before sending the OPEN). A
 * refused O_NOATIME (EPERM: the daemon does not own the backing file)
 * opens without it: the kernel has checked the caller's right to it on
 * the mount's inode, and it only spares the backing atime an update. */
int sys_reopen(int opath_fd, int flags)
{
	char p[32];
	int fd;

	sys_procpath(opath_fd, p, sizeof(p));
	flags &= ~(O_CREAT | O_EXCL | O_NOFOLLOW);
	fd = sys_openat(AT_FDCWD, p, flags, 0);
	if (fd == -EPERM && (flags & O_NOATIME))
		fd = sys_openat(AT_FDCWD, p, flags & ~O_NOATIME, 0);
	return fd;
}

int sys_fstat_empty(int fd, struct stat *st)
{
	if (fstatat(fd, "", st, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) != 0)
		return -errno;
	return 0;
}

ssize_t sys_pread_full(int fd, void *buf, size_t len, off_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t r = pread(fd, (char *)buf + done, len - done,
				  off + (off_t)done);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (r == 0)
			break;
		done += (size_t)r;
	}
	return (ssize_t)done;
}

ssize_t sys_pwrite_full(int fd, const void *buf, size_t len, off_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t r = pwrite(fd, (const char *)buf + done, len - done,
				   off + (off_t)done);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (r == 0)
			return -EIO;
		done += (size_t)r;
	}
	return (ssize_t)done;
}

int sys_open_regular(int dirfd, const char *name)
{
	struct stat st;
	int fd;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    !S_ISREG(st.st_mode))
		return -EIO;
	/* the name may have changed since: O_NONBLOCK, and fstat again */
	fd = sys_openat(dirfd, name,
			O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY, 0);
	if (fd < 0)
		return fd == -ELOOP ? -EIO : fd;
	if (fstat(fd, &st) != 0) {
		int rc = -errno;

		close(fd);
		return rc;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return -EIO;
	}
	return fd;
}

int sys_read_diriv(int dirfd, uint8_t iv[16])
{
	uint8_t buf[17];
	uint8_t acc = 0;
	int fd = sys_open_regular(dirfd, "gocryptfs.diriv");
	ssize_t n;

	if (fd < 0)
		return fd;
	n = sys_pread_full(fd, buf, sizeof(buf), 0);
	close(fd);
	if (n < 0)
		return (int)n;
	if (n != 16)
		return -EIO;
	for (int i = 0; i < 16; i++)
		acc |= buf[i];
	if (acc == 0)
		return -EIO;
	memcpy(iv, buf, 16);
	return 0;
}

int sys_write_new(int dirfd, const char *name, const void *buf, size_t len,
		  mode_t mode)
{
	int fd = sys_openat(dirfd, name,
			    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode);
	ssize_t n;
	int rc = 0;

	if (fd < 0)
		return fd;
	n = sys_pwrite_full(fd, buf, len, 0);
	if (n < 0)
		rc = (int)n;
	if (close(fd) != 0 && rc == 0)
		rc = -errno;
	if (rc != 0)
		(void)unlinkat(dirfd, name, 0);
	return rc;
}

int sys_write_diriv(int dirfd, const uint8_t iv[16])
{
	return sys_write_new(dirfd, "gocryptfs.diriv", iv, 16, 0444);
}

ssize_t sys_read_small(int dirfd, const char *name, char *buf, size_t max)
{
	int fd = sys_open_regular(dirfd, name);
	ssize_t n;

	if (fd < 0)
		return fd;
	n = sys_pread_full(fd, buf, max + 1, 0);
	close(fd);
	if (n < 0)
		return n;
	if (n == 0 || (size_t)n > max)
		return -EIO;
	buf[n] = '\0';
	return n;
}

void sys_thread_normal(void)
{
	struct sched_param sp = { 0 };
	cpu_set_t cs;

	(void)sched_setscheduler(0, SCHED_OTHER, &sp);
	/* pid = the main thread's tid: its mask, not this thread's */
	if (sched_getaffinity(getpid(), sizeof(cs), &cs) == 0)
		(void)pthread_setaffinity_np(pthread_self(), sizeof(cs), &cs);
}
