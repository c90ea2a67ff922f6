#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# seek_holes.py FILE: FILE holds data, then a hole, then data (55-mount's
# seek case writes 5000 bytes, truncates to 200000 and appends "tail").
# SEEK_HOLE / SEEK_DATA must report a hole only where the file reads zeros,
# and SEEK_DATA at EOF must fail. Exits 0 when they do.
import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
size = os.fstat(fd).st_size
data = os.pread(fd, size, 0)
h = os.lseek(fd, 0, os.SEEK_HOLE)
d = os.lseek(fd, h, os.SEEK_DATA) if h < size else size
assert 5000 <= h < size, (h, size)
assert h < d <= 200000, (h, d)
assert data[h:d] == bytes(d - h), "hole region not zero"
assert os.lseek(fd, 200000, os.SEEK_HOLE) == size
try:
    os.lseek(fd, size, os.SEEK_DATA)
    sys.exit(1)
except OSError:
    pass
