#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# treesum.py DIR: a listing of the tree below DIR, one line per entry in
# sorted order, for comparing two trees (lib.sh's treesum): type, path,
# size, sha256 of a file / target of a symlink, link count, permission
# bits, user xattrs (name=sha256 of the value), and the mtime when it is
# before 2001-09 (one the test set on purpose).
import hashlib, os, stat, sys
root = sys.argv[1]
out = []
for d, dirs, files in os.walk(root):
    dirs.sort()
    for n in sorted(dirs + files):
        p = os.path.join(d, n)
        rel = os.path.relpath(p, root)
        st = os.lstat(p)
        xa = ""
        if not stat.S_ISLNK(st.st_mode):
            try:
                names = sorted(x for x in os.listxattr(p, follow_symlinks=False)
                               if x.startswith("user."))
                xa = ",".join("%s=%s" % (x, hashlib.sha256(
                    os.getxattr(p, x, follow_symlinks=False)).hexdigest()[:16])
                    for x in names)
            except OSError as e:
                xa = "xattr-error:%d" % e.errno
        perm = "%o" % stat.S_IMODE(st.st_mode)
        if stat.S_ISREG(st.st_mode):
            with open(p, "rb") as f:
                h = hashlib.sha256(f.read()).hexdigest()
            out.append("file %s %d %s n%d %s %s %s" % (rel, st.st_size, h,
                       st.st_nlink, perm, xa,
                       int(st.st_mtime) if st.st_mtime < 1e9 else "-"))
        elif stat.S_ISLNK(st.st_mode):
            out.append("symlink %s %d %s" % (rel, st.st_size, os.readlink(p)))
        elif stat.S_ISDIR(st.st_mode):
            out.append("dir %s %s %s" % (rel, perm, xa))
        else:
            out.append("other %s %o" % (rel, stat.S_IFMT(st.st_mode)))
print("\n".join(out))
