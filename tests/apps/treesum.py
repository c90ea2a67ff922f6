# SPDX-License-Identifier: MIT
# treesum.py ROOT: one line per entry under ROOT, sorted by path: type,
# path, size and sha256 (or symlink target), link count, permission bits,
# user xattrs. No times, inode numbers or block counts: the listing of the
# same tree is the same on a mount and on a plain directory.
import hashlib
import os
import stat
import sys

root = sys.argv[1]
out = []
for d, dirs, files in os.walk(root):
    dirs.sort()
    for n in sorted(dirs + files):
        p = os.path.join(d, n)
        rel = os.path.relpath(p, root)
        st = os.lstat(p)
        perm = "%o" % stat.S_IMODE(st.st_mode)
        if stat.S_ISLNK(st.st_mode):
            out.append("l %s -> %s" % (rel, os.readlink(p)))
            continue
        xa = ",".join("%s=%s" % (x, hashlib.sha256(os.getxattr(
            p, x, follow_symlinks=False)).hexdigest()[:12])
            for x in sorted(os.listxattr(p, follow_symlinks=False))
            if x.startswith("user."))
        if stat.S_ISDIR(st.st_mode):
            out.append("d %s %s %s" % (rel, perm, xa))
        elif stat.S_ISREG(st.st_mode):
            h = hashlib.sha256()
            with open(p, "rb") as f:
                for b in iter(lambda: f.read(1 << 20), b""):
                    h.update(b)
            out.append("f %s %d %s n%d %s %s" % (rel, st.st_size,
                       h.hexdigest()[:16], st.st_nlink, perm, xa))
        else:
            out.append("o %s %o" % (rel, stat.S_IFMT(st.st_mode)))
print("\n".join(sorted(out)))
