#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# scale_tree.py ROOT N: 54-scale's source tree: N files of 0..9,000 bytes
# (block edges crossed) in 10 x 5 nested directories, 20 symlinks and one
# 200-byte name. Seeded: the same tree every run.
import os, random, sys
root, n = sys.argv[1], int(sys.argv[2])
rnd = random.Random(54)
dirs = [os.path.join(root, "top%d" % a, "sub%d" % b)
        for a in range(10) for b in range(5)]
for d in dirs:
    os.makedirs(d)
for i in range(n):
    d = dirs[i % len(dirs)]
    size = rnd.choice([0, 1, 4095, 4096, 4097, rnd.randrange(9000)])
    with open(os.path.join(d, "file%05d.dat" % i), "wb") as f:
        f.write(rnd.randbytes(size))
for i in range(20):
    os.symlink("../sub0/file%05d.dat" % i,
               os.path.join(dirs[i % len(dirs)], "link%02d" % i))
with open(os.path.join(dirs[0], "L" * 200), "wb") as f:
    f.write(b"long name\n")
