#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# damage.py OP FILE [ARGS]: one kind of damage to one backing file of a
# cipher directory (57-tamper): flip a bit, swap ranges within or between
# files, copy a header, truncate, append garbage, flip a bit of a name, a
# .name file, the wrapped key in gocryptfs.conf, xattr values or a
# symlink target. Ops and their arguments are listed below.
import os, sys
op, path = sys.argv[1], sys.argv[2]
args = [int(a) for a in sys.argv[3:] if a.lstrip("-").isdigit()]
def flip(off, bit=0x01):
    with open(path, "r+b") as f:
        f.seek(off); b = f.read(1); f.seek(off); f.write(bytes([b[0] ^ bit]))
def flip_letter(s, start=0):
    # one flipped bit that keeps base64: toggle the case of a letter
    for i in range(start, len(s)):
        if s[i].isalpha():
            return s[:i] + s[i].swapcase() + s[i + 1:]
    raise SystemExit("no letter")
if op == "flip":                      # flip OFFSET
    flip(args[0])
elif op == "swap":                    # swap OFF1 OFF2 LEN (same file)
    with open(path, "r+b") as f:
        f.seek(args[0]); a = f.read(args[2])
        f.seek(args[1]); b = f.read(args[2])
        f.seek(args[0]); f.write(b); f.seek(args[1]); f.write(a)
elif op == "swap2":                   # swap2 OFF LEN OTHERFILE (same range)
    other = sys.argv[5]
    with open(path, "r+b") as f, open(other, "r+b") as g:
        f.seek(args[0]); a = f.read(args[1])
        g.seek(args[0]); b = g.read(args[1])
        f.seek(args[0]); f.write(b); g.seek(args[0]); g.write(a)
elif op == "copyhdr":                 # copyhdr FROMFILE
    with open(sys.argv[3], "rb") as g:
        h = g.read(18)
    with open(path, "r+b") as f:
        f.write(h)
elif op == "truncate":                # truncate SIZE (negative: from end)
    n = args[0] if args[0] >= 0 else os.path.getsize(path) + args[0]
    os.truncate(path, n)
elif op == "append":                  # append N random bytes
    with open(path, "ab") as f:
        f.write(os.urandom(args[0]))
elif op == "rename":                  # flip a bit of an entry's name
    d, n = os.path.split(path)
    os.rename(path, os.path.join(d, flip_letter(n)))
elif op == "namefile":                # flip a bit of a .name file's text
    os.chmod(path, 0o644)
    with open(path) as f:
        s = f.read()
    with open(path, "w") as f:
        f.write(flip_letter(s, 5))
    os.chmod(path, 0o444)
elif op == "conf":                    # flip a bit of the wrapped key
    with open(path) as f:
        s = f.read()
    i = s.index('"EncryptedKey"') + 20
    s = s[:i] + flip_letter(s[i:i + 40]) + s[i + 40:]
    os.chmod(path, 0o600)
    with open(path, "w") as f:
        f.write(s)
    os.chmod(path, 0o400)
elif op == "xattr":                   # flip a bit of every user.* value
    for x in os.listxattr(path):
        v = bytearray(os.getxattr(path, x))
        v[20] ^= 1
        os.setxattr(path, x, bytes(v))
elif op == "symlink":                 # flip a bit of the stored target
    t = os.readlink(path)
    os.unlink(path)
    os.symlink(flip_letter(t, 10), path)
else:
    raise SystemExit("unknown op " + op)
