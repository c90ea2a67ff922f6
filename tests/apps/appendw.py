# SPDX-License-Identifier: MIT
# appendw.py FILE TAG N: append N lines "TAG i" to FILE, each with one
# write(2) on an O_APPEND descriptor (two of these run at once).
import os
import sys

p, tag, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
fd = os.open(p, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
for i in range(n):
    line = ("%s %06d %s\n" % (tag, i, "x" * (i % 97))).encode()
    if os.write(fd, line) != len(line):
        sys.exit("short write")
os.close(fd)
