# SPDX-License-Identifier: MIT
# mmapw.py FILE: a Python mmap writer. Makes FILE 1 MiB + 100 bytes,
# writes a pattern through a shared mapping at block edges and in the
# middle, grows the file and the mapping, flushes, unmaps; then prints the
# sha256 of the file as read(2) sees it and of a second mapping's view.
import hashlib
import mmap
import os
import sys

p = sys.argv[1]
size = (1 << 20) + 100
fd = os.open(p, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
os.ftruncate(fd, size)
m = mmap.mmap(fd, size, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
for off in (0, 4090, 4096, 65535, 500000, size - 7):
    pat = (b"mmap@%d;" % off)[: size - off]
    m[off:off + len(pat)] = pat
m.flush()
m.close()
os.ftruncate(fd, size + 9000)
m = mmap.mmap(fd, size + 9000, mmap.MAP_SHARED,
              mmap.PROT_READ | mmap.PROT_WRITE)
m[size + 8000:size + 8010] = b"grown-tail"
m.flush()
m.close()
os.close(fd)
with open(p, "rb") as f:
    data = f.read()
fd = os.open(p, os.O_RDONLY)
m = mmap.mmap(fd, 0, mmap.MAP_SHARED, mmap.PROT_READ)
view = m[:]
m.close()
os.close(fd)
print("size", len(data), "read", hashlib.sha256(data).hexdigest()[:16],
      "map", hashlib.sha256(view).hexdigest()[:16])
