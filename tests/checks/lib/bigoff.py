#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# bigoff.py DIR [direct|seekset]: the calls of issue 23 item 8 at offsets near 2^63
# and at INT64_MAX (pread, pwrite, ftruncate, fallocate in four modes,
# lseek SEEK_SET/SEEK_DATA/SEEK_HOLE), each on a fresh 10-byte file in
# DIR, then each file's size and contents. One line per outcome,
# "TAG WHAT -> RESULT" (RESULT: the return value or the errno name). TAG
# says what to compare with: "disk" a plain directory on disk, "tmpfs" a
# tmpfs (lseek SEEK_SET is answered by the kernel alone, which allows a
# FUSE file, as a tmpfs file, offsets up to INT64_MAX; ext4 refuses those
# past its own maximum file size with EINVAL). With "direct" reads use an
# O_DIRECT descriptor, so that they reach a FUSE daemon instead of ending
# at the kernel's cached size (a plain disk file would refuse unaligned
# O_DIRECT; past the end both read nothing). With "seekset" only the
# "tmpfs" lines (for the tmpfs reference: no 1 TiB fallocate there).
import ctypes
import errno
import hashlib
import os
import sys

DIR = sys.argv[1]
MODE = sys.argv[2] if len(sys.argv) > 2 else ""
DIRECT = MODE == "direct"
MAX = 2**63 - 1
OFFS = [("2^63-2^40", 2**63 - 2**40), ("2^63-4096", 2**63 - 4096),
        ("INT64_MAX-1", MAX - 1)]
libc = ctypes.CDLL(None, use_errno=True)
libc.fallocate.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int64,
                           ctypes.c_int64]
n = 0
files = []


def fresh():
    global n
    n += 1
    p = os.path.join(DIR, "f%d" % n)
    with open(p, "wb") as f:
        f.write(b"0123456789")
    files.append(p)
    return p


def out(tag, what, fn):
    try:
        r = fn()
    except OSError as e:
        r = errno.errorcode.get(e.errno, str(e.errno))
    print("%s %s -> %s" % (tag, what, r))


def with_fd(path, flags, fn):
    fd = os.open(path, flags)
    try:
        return fn(fd)
    finally:
        os.close(fd)


def falloc(fd, mode, off, ln):
    if libc.fallocate(fd, mode, off, ln) != 0:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e))
    return 0


rflags = os.O_RDONLY | (os.O_DIRECT if DIRECT else 0)
if MODE == "seekset":
    fresh()
for name, off in [] if MODE == "seekset" else OFFS:
    p = fresh()
    out("disk", "pwrite 1 at " + name,
        lambda: with_fd(p, os.O_WRONLY, lambda fd: os.pwrite(fd, b"x", off)))
    out("disk", "pread 1 at " + name,
        lambda: len(with_fd(p, rflags, lambda fd: os.pread(fd, 1, off))))
    p = fresh()
    out("disk", "ftruncate to " + name,
        lambda: with_fd(p, os.O_WRONLY, lambda fd: os.ftruncate(fd, off)))
    for mode, mname in ((0, "0"), (1, "KEEP_SIZE"),
                        (3, "PUNCH_HOLE|KEEP_SIZE"), (0x10, "ZERO_RANGE")):
        p = fresh()
        out("disk", "fallocate %s at %s len %d" % (mname, name, MAX - off),
            lambda: with_fd(p, os.O_WRONLY,
                            lambda fd: falloc(fd, mode, off, MAX - off)))
for name, off in OFFS + [("INT64_MAX", MAX)]:
    for wh, wname in ((os.SEEK_DATA, "SEEK_DATA"), (os.SEEK_HOLE, "SEEK_HOLE")):
        if MODE == "seekset":
            break
        out("disk", "lseek %s %s" % (wname, name),
            lambda: with_fd(files[0], os.O_RDONLY,
                            lambda fd: os.lseek(fd, off, wh)))
    out("tmpfs", "lseek SEEK_SET " + name,
        lambda: with_fd(files[0], os.O_RDONLY,
                        lambda fd: os.lseek(fd, off, os.SEEK_SET)))
if MODE == "seekset":
    sys.exit(0)
p = fresh()
out("disk", "ftruncate to INT64_MAX",
    lambda: with_fd(p, os.O_WRONLY, lambda fd: os.ftruncate(fd, MAX)))
for p in files:
    with open(p, "rb") as f:
        data = f.read()
    print("disk %s: size %d sha256 %s" % (os.path.basename(p),
                                         os.stat(p).st_size,
                                         hashlib.sha256(data).hexdigest()[:16]))
