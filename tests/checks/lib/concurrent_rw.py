#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# concurrent_rw.py DIR: two processes rewrite the two halves of one file
# (the block holding the boundary is read-modify-written by both, so the
# per-inode lock must keep both halves), while two more do random writes
# and truncates on files of their own, checked against a model in memory.
# Exits 0 when every byte is as the model says.
import os, random, sys
from multiprocessing import Process
d = sys.argv[1]
shared = os.path.join(d, "shared")
open(shared, "wb").close()
def halves(part):
    fd = os.open(shared, os.O_WRONLY)
    for i in range(300):
        if part == 0:
            os.pwrite(fd, bytes([65 + i % 26]) * 6000, 0)
        else:
            os.pwrite(fd, bytes([97 + i % 26]) * 6000, 6000)
    os.pwrite(fd, (b"A" if part == 0 else b"B") * 6000, part * 6000)
    os.close(fd)
def own(k):
    rnd = random.Random(k)
    p = os.path.join(d, "own%d" % k)
    model = bytearray()
    fd = os.open(p, os.O_RDWR | os.O_CREAT, 0o644)
    for _ in range(400):
        off = rnd.randrange(0, 60000)
        data = rnd.randbytes(rnd.randrange(1, 9000))
        os.pwrite(fd, data, off)
        if off > len(model):
            model.extend(bytes(off - len(model)))
        model[off:off + len(data)] = data
        if rnd.random() < 0.1:
            n = rnd.randrange(0, 70000)
            os.ftruncate(fd, n)
            model = model[:n] + bytes(max(0, n - len(model)))
    got = os.pread(fd, len(model) + 10, 0)
    os.close(fd)
    os.unlink(p)
    if got != bytes(model):
        sys.exit(3)
ps = [Process(target=halves, args=(0,)), Process(target=halves, args=(1,)),
      Process(target=own, args=(1,)), Process(target=own, args=(2,))]
for p in ps: p.start()
for p in ps: p.join()
assert all(p.exitcode == 0 for p in ps), [p.exitcode for p in ps]
with open(shared, "rb") as f:
    assert f.read() == b"A" * 6000 + b"B" * 6000, "halves lost"
os.unlink(shared)
