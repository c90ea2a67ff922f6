#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# treesum.py [--basic] DIR [SKIP...]: a listing of the tree below DIR, one
# line per entry in sorted order, for comparing two trees (lib.sh's
# treesum; 64-apps, 72-reverse): type, path, size, sha256 of a file /
# target of a symlink, link count, permission bits, user xattrs
# (name=sha256 of the value), and the mtime when it is before 2001-09 (one
# a test set on purpose). No inode numbers, block counts or other times:
# the same tree lists the same on a mount and on a plain directory.
# --basic leaves out link counts, xattrs and mtimes (a reverse view next to
# gocryptfs's, where those are not part of the format). Entries whose path
# relative to DIR is one of SKIP are left out.
import hashlib
import os
import stat
import sys

args = sys.argv[1:]
basic = bool(args) and args[0] == "--basic"
if basic:
    args = args[1:]
root = args[0]
skip = set(args[1:])


def xattrs(p):
    try:
        names = sorted(x for x in os.listxattr(p, follow_symlinks=False)
                       if x.startswith("user."))
        return ",".join("%s=%s" % (x, hashlib.sha256(
            os.getxattr(p, x, follow_symlinks=False)).hexdigest()[:16])
            for x in names)
    except OSError as e:
        return "xattr-error:%d" % e.errno


def line(p, rel):
    st = os.lstat(p)
    perm = "%o" % stat.S_IMODE(st.st_mode)
    if stat.S_ISLNK(st.st_mode):
        return "symlink %s %d %s" % (rel, st.st_size, os.readlink(p))
    xa = "" if basic else " " + xattrs(p)
    if stat.S_ISREG(st.st_mode):
        h = hashlib.sha256()
        with open(p, "rb") as f:
            for b in iter(lambda: f.read(1 << 20), b""):
                h.update(b)
        if basic:
            return "file %s %s %d %s" % (rel, perm, st.st_size, h.hexdigest())
        return "file %s %d %s n%d %s%s %s" % (
            rel, st.st_size, h.hexdigest(), st.st_nlink, perm, xa,
            int(st.st_mtime) if st.st_mtime < 1e9 else "-")
    if stat.S_ISDIR(st.st_mode):
        return "dir %s %s%s" % (rel, perm, xa)
    return "other %s %s %o" % (rel, perm, stat.S_IFMT(st.st_mode))


out = []
for d, dirs, files in os.walk(root):
    dirs.sort()
    for n in sorted(dirs + files):
        p = os.path.join(d, n)
        rel = os.path.relpath(p, root)
        if rel not in skip:
            out.append(line(p, rel))
print("\n".join(sorted(out)))
