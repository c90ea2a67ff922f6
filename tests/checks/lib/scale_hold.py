#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# scale_hold.py ROOT MARK HELD: open HELD files of 54-scale's tree, create
# MARK, wait for MARK.done (the walk happens meanwhile), then read the open
# files and write their sha256s to MARK.sums, one a line.
import hashlib, os, sys, time
root, mark, held = sys.argv[1], sys.argv[2], int(sys.argv[3])
fs = [open(os.path.join(root, "top%d" % (i % 50 // 5), "sub%d" % (i % 5),
                        "file%05d.dat" % i), "rb") for i in range(held)]
open(mark, "w").write("open\n")
while not os.path.exists(mark + ".done"):
    time.sleep(0.05)
out = []
for f in fs:
    out.append(hashlib.sha256(f.read()).hexdigest())
    f.close()
open(mark + ".sums", "w").write("\n".join(out) + "\n")
