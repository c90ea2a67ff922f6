#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# digest.py DIR: one sha256 over every path, type, mode, size, content
# hash, symlink target and xattr below DIR, so any write shows (57-tamper:
# -fsck must leave a cipher directory as it was).
import hashlib, os, stat, sys
root = sys.argv[1]
h = hashlib.sha256()
for d, dirs, files in os.walk(root):
    dirs.sort()
    for n in sorted(dirs + files):
        p = os.path.join(d, n)
        st = os.lstat(p)
        line = "%s %o %d" % (os.path.relpath(p, root), st.st_mode, st.st_size)
        if stat.S_ISREG(st.st_mode):
            with open(p, "rb") as f:
                line += " " + hashlib.sha256(f.read()).hexdigest()
        elif stat.S_ISLNK(st.st_mode):
            line += " -> " + os.readlink(p)
        if not stat.S_ISLNK(st.st_mode):
            for x in sorted(os.listxattr(p)):
                line += " %s=%s" % (x, os.getxattr(p, x).hex())
        h.update(line.encode("utf-8", "surrogateescape") + b"\n")
print(h.hexdigest())
