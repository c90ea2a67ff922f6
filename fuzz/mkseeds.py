#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes the committed seed corpora fuzz/corpus/<target>/ (deterministic).
# Parser seeds wrap real gocryptfs 2.3 bytes from ../shared/examples in the
# input layout each target reads (see the target's LLVMFuzzerTestOneInput).
# Run from the repository root: python3 fuzz/mkseeds.py [SHARED_DIR]
# Files named regress-* are crash regressions and are never rewritten.
import base64
import os
import random
import struct
import sys

SHARED = sys.argv[1] if len(sys.argv) > 1 else "../shared"
EX = os.path.join(SHARED, "examples")
GCM = os.path.join(EX, "gocryptfs-2.3-aesgcm", "cipherdir")
XC = os.path.join(EX, "gocryptfs-2.3-xchacha", "cipherdir")
rnd = random.Random(5)


def rb(n):
    return bytes(rnd.getrandbits(8) for _ in range(n))


def u16(v):
    return struct.pack("<H", v)


def u32(v):
    return struct.pack("<I", v)


def put(target, name, data):
    d = os.path.join("fuzz", "corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def read(*p):
    with open(os.path.join(*p), "rb") as f:
        return f.read()


def b64url_dec(s):
    s = s.strip()
    return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))


# fuzz_diff_chacha20: key32 nonce24 mode counter32 len16 split16 msg
def chacha(name, mode, counter, ln, split):
    put("fuzz_diff_chacha20", name, rb(32) + rb(24) + bytes([mode]) +
        u32(counter) + u16(ln) + u16(split) + rb(ln))


chacha("empty", 0, 0, 0, 0)
chacha("short-block", 0, 1, 63, 0)
chacha("wrap-300", 1 | (3 << 1) | (5 << 5), 2, 300, 200)
chacha("long-4k", 1 << 1, 0x12345678, 4096 + 65, 2000)

# fuzz_diff_poly1305: key32 len16 cut16 x4 msg
RFC_KEY = bytes.fromhex(
    "85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b")
RFC_MSG = b"Cryptographic Forum Research Group"


def poly(name, key, msg, cuts):
    put("fuzz_diff_poly1305", name, key + u16(len(msg)) +
        b"".join(u16(c) for c in cuts) + msg)


poly("rfc8439-2.5.2", RFC_KEY, RFC_MSG, [3, 16, 16, 20])
poly("all-ff-key", b"\xff" * 32, b"\xff" * 64, [0, 15, 17, 64])
poly("random-1000", rb(32), rb(1000), [100, 333, 512, 999])
poly("random-4096", rb(32), rb(4096), [0, 256, 1024, 4000])


# fuzz_diff_aead: flags key32 nonce24 adlen16 len16 pos16 bit tag16 ad msg
def aead(name, flags, ad, m, pos=0, bit=0, tag=b"\0" * 16):
    put("fuzz_diff_aead", name, bytes([flags]) + rb(32) + rb(24) +
        u16(len(ad)) + u16(len(m)) + u16(pos) + bytes([bit]) + tag + ad + m)


aead("ietf-plain", 0, rb(12), rb(114))
aead("xchacha-4096", 1, rb(24), rb(4096))
aead("xchacha-tamper-tag", 1 | (1 << 1), rb(8), rb(100), 5, 3)
aead("ietf-tamper-ct", 2 << 1, b"", rb(64), 63, 7)
aead("xchacha-tamper-ad", 1 | (3 << 1), rb(24), rb(10), 2, 0)
aead("forged", 0x11, rb(5), rb(40), 0, 0, rb(16))

# fuzz_parse_header: the 18 header bytes of real files
put("fuzz_parse_header", "gcm-hello", read(GCM, "ITumMIJ3RWIwKyIcsFp6Aw")[:18])
put("fuzz_parse_header", "xchacha-hello",
    read(XC, "AK0KKKR6Cb41Uav6nYg25Q")[:18])
put("fuzz_parse_header", "all-zero", b"\0" * 18)
put("fuzz_parse_header", "version-3", b"\0\3" + rb(16))


# fuzz_parse_content raw mode: mode(sel | 8 | 4 without file ID)
# blockno64 fid16 block
def content_raw(name, sel, path, blockno, cbs):
    data = read(path)
    hdr, body = data[:18], data[18:]
    blk = body[blockno * cbs:(blockno + 1) * cbs]
    put("fuzz_parse_content", name, bytes([sel | 8]) +
        struct.pack("<Q", blockno) + hdr[2:] + blk)


content_raw("raw-gcm-hello", 0, os.path.join(GCM, "ITumMIJ3RWIwKyIcsFp6Aw"),
            0, 4128)
content_raw("raw-gcm-cross4096-b1", 0,
            os.path.join(GCM, "zIcJaafnrmx2Nhnqn9b_FA"), 1, 4128)
content_raw("raw-gcm-sparse-hole", 0,
            os.path.join(GCM, "jKCAH1DVSBZFzvRDoYupBg"), 1, 4128)
content_raw("raw-xchacha-hello", 1,
            os.path.join(XC, "AK0KKKR6Cb41Uav6nYg25Q"), 0, 4136)
content_raw("raw-xchacha-cross4096-b0", 1,
            os.path.join(XC, "hLA25XOgrEHRlSWfgX0LIQ"), 0, 4136)
# a symlink target: block 0 without file ID (mode bit 4)
sl = b64url_dec(read(GCM, "TY-T62RyR_sTU8iJAWjlqw").decode())
put("fuzz_parse_content", "raw-gcm-symlink", bytes([0 | 8 | 4]) +
    struct.pack("<Q", 0) + b"\0" * 16 + sl)


# damage mode: mode blockno64 fid16 nonce24 plen16 [..] resize16
# (pos16 xor8) x4 plain
def content_dmg(name, mode, plen, dmg):
    body = bytes([mode]) + struct.pack("<Q", rnd.getrandbits(20)) + rb(16) + \
        rb(24) + u16(plen)
    if mode & 0x10:
        body += bytes([rnd.getrandbits(6)])
    if mode & 0x20:
        body += bytes([3, 0x40])
    body += u16(7)
    for p, x in dmg:
        body += u16(p) + bytes([x])
    put("fuzz_parse_content", name, body + rb(plen))


content_dmg("dmg-gcm-intact", 0, 4096, [(0, 0)] * 4)
content_dmg("dmg-xchacha-flip", 1, 100, [(40, 1), (0, 0), (0, 0), (0, 0)])
content_dmg("dmg-siv-trunc", 2 | 0x40, 300, [(0, 0)] * 4)
content_dmg("dmg-gcm-blockno", 0x10, 13, [(0, 0)] * 4)
content_dmg("dmg-xchacha-fid", 1 | 0x20, 1, [(0, 0)] * 4)


# fuzz_parse_names: sel kind iv16 cap16 text
def names(name, sel, kind, iv, text, cap=300):
    put("fuzz_parse_names", name, bytes([sel, kind]) + iv + u16(cap) + text)


gcm_iv = read(GCM, "gocryptfs.diriv")
xc_iv = read(XC, "gocryptfs.diriv")
names("name-gcm-hello", 0, 0, gcm_iv, b"ITumMIJ3RWIwKyIcsFp6Aw")
names("name-xchacha-hello", 1, 0, xc_iv, b"AK0KKKR6Cb41Uav6nYg25Q")
names("name-gcm-long", 0, 0, gcm_iv, read(
    GCM, "gocryptfs.longname.0TVWpoN8zn1U0xug7At8LSn0ibLpeqLFzTdBOOYEqHU.name"))
names("name-plain", 3, 0, gcm_iv, b"hello.txt")
names("b64-url-raw", 0, 1, gcm_iv, b"ITumMIJ3RWIwKyIcsFp6Aw", 16)
names("b64-std-pad", 0, 1, gcm_iv, b"4lMN9x7QPVp1zqi15UXDZ+DqWaUOXPH3B10pHNaS9OI=")
names("b64-nonzero-tail", 0, 1, gcm_iv, b"ITumMIJ3RWIwKyIcsFp6Ax", 16)
names("unpad-valid", 0, 2, gcm_iv, b"hello.txt" + b"\x07" * 7)
names("unpad-bad", 0, 2, gcm_iv, b"hello.txt" + b"\x07" * 6 + b"\x06")
names("symlink-gcm", 0, 3, gcm_iv, read(GCM, "TY-T62RyR_sTU8iJAWjlqw"))
names("symlink-xchacha", 1, 3, xc_iv, read(XC, "fd4J0Km87fjIPrPSiSc55g"))
names("xattr-acl", 0, 4, gcm_iv, b"system.posix_acl_access")
names("xattr-noprefix", 0, 4, gcm_iv, b"user.foo")


# fuzz_parse_longname: sel iv16 cnamelen8 cname content
def longname(name, sel, iv, cname, content):
    put("fuzz_parse_longname", name, bytes([sel]) + iv + bytes([len(cname)]) +
        cname + content)


lg = "gocryptfs.longname.0TVWpoN8zn1U0xug7At8LSn0ibLpeqLFzTdBOOYEqHU"
longname("gcm", 0, gcm_iv, lg.encode(), read(GCM, lg + ".name"))
lx = "gocryptfs.longname.kO4DpGLBDVJn-uIIM-cREa3B-0_xdE2ehzyBu70n2o0"
longname("xchacha", 1, xc_iv, (lx + ".name").encode(), read(XC, lx + ".name"))
longname("empty", 0, gcm_iv, b"gocryptfs.longname.", b"")


# fuzz_parse_xattr: mode cap32 then raw bytes (mode & 4; with mode & 0x20
# len32 then zeros (mode & 0x40) or the rest repeated) or
# nonce24 vlen32 resize16 (pos24 xor8) x3 value (the rest of the value is a
# pattern; mode & 0x20 stores the block base64-encoded)
def xattr_seal(name, mode, vlen, value, dmg, cap=None):
    body = bytes([mode]) + u32(vlen + 64 if cap is None else cap) + rb(24) + \
        u32(vlen) + u16(5)
    for p, x in dmg:
        body += struct.pack("<I", p)[:3] + bytes([x])
    put("fuzz_parse_xattr", name, body + value)


NODMG = [(0, 0)] * 3
xattr_seal("gcm-intact", 0, 10, b"some value", NODMG)
xattr_seal("xchacha-flip", 1, 200, rb(200), [(30, 0x80), (0, 0), (0, 0)])
xattr_seal("siv-trunc", 2 | 0x08, 50, rb(50), NODMG)
xattr_seal("gcm-empty", 0, 0, b"", NODMG)
xattr_seal("gcm-64k-intact", 0, 65536, rb(100), NODMG)
xattr_seal("xchacha-64k-flip-end", 1, 65536, rb(64),
           [(65000, 1), (0, 0), (0, 0)])
xattr_seal("siv-64k-extend", 2 | 0x10, 65536, rb(32), NODMG)
xattr_seal("gcm-above-64k", 0, 65537, rb(16), NODMG)
xattr_seal("gcm-b64-old", 0x20, 300, rb(300), NODMG)
xattr_seal("xchacha-b64-64k-flip", 1 | 0x20, 65536, rb(40),
           [(80000, 4), (0, 0), (0, 0)])
put("fuzz_parse_xattr", "raw-gcm-symlinkblock", bytes([4]) + u32(100) + sl)
# all-zero stored values: 4128 (GCM) and 4136 (XChaCha) are the block size
# (issue 23 item 6, checked with FZ_PENDING)
put("fuzz_parse_xattr", "raw-zero-4128-gcm",
    bytes([4 | 0x20 | 0x40]) + u32(4096) + u32(4128))
put("fuzz_parse_xattr", "raw-zero-4136-xchacha",
    bytes([1 | 4 | 0x20 | 0x40]) + u32(4096) + u32(4136))
put("fuzz_parse_xattr", "raw-repeat-64k",
    bytes([4 | 0x20]) + u32(65600) + u32(65536 + 32) + rb(37))

# fuzz_parse_config: the files themselves
put("fuzz_parse_config", "gcm.conf", read(GCM, "gocryptfs.conf"))
put("fuzz_parse_config", "xchacha.conf", read(XC, "gocryptfs.conf"))
put("fuzz_parse_config", "not-json", b"{\"Creator\": ")
put("fuzz_parse_config", "empty", b"")


# fuzz_read_blocks: mode nblk8 tail16 fid16 (kind|poshi8 block8 poslo8
# xor8) x4 (off24 size17+aligned) x4 plaintext; mode & 0x80: no damage
def rblocks(name, mode, nblk, tail, dmg, reads):
    body = bytes([mode, nblk - 1]) + u16(tail - 1) + rb(16)
    for kind, blk, pos, x in dmg:
        body += bytes([kind | ((pos >> 8) << 3), blk, pos & 0xff, x])
    for i, (off, size, aligned) in enumerate(reads):
        stop = 0x80 if off is None else 0
        off = off or 0
        body += bytes([off & 0xff, (off >> 8) & 0xff,
                       ((off >> 16) & 0x7f) | stop, size & 0xff,
                       (size >> 8) & 0xff,
                       ((size >> 16) & 1) | (2 if aligned else 0)])
    put("fuzz_read_blocks", name, body + rb(200))


ND = [(0, 0, 0, 0)] * 4
ALL = [(0, 15, True), (4000, 20000, False), (8192, 4095, False),
       (None, 0, False)]
rblocks("gcm-16-intact", 0x80, 16, 4096, ND, ALL)
rblocks("xchacha-9-flip-middle", 1, 9, 100,
        [(1, 0, 77, 0x10)] + ND[1:], ALL)
rblocks("siv-3-zero-middle", 2, 3, 4096, [(2, 0, 0, 0)] + ND[1:], ALL)
rblocks("gcm-12-swap", 0, 12, 3000, [(3, 0, 0, 1)] + ND[1:], ALL)
rblocks("xchacha-8-otherfid", 1, 8, 4096, [(4, 0, 0, 0)] + ND[1:], ALL)
rblocks("gcm-5-cut", 0, 5, 4096, [(5, 0, 2000, 0)] + ND[1:], ALL)
rblocks("siv-4-header", 2, 4, 10, [(6, 0, 5, 2)] + ND[1:], ALL)
rblocks("gcm-10-nonce-zero", 0, 10, 4096, [(7, 3, 0, 0)] + ND[1:], ALL)


# fuzz_parse_diriv: mode (kind = mode % 9, bit 7: .name reader) max16
# content; kinds: reg missing dir symlink fifo-writer fifo socket hardlink
# unreadable
def diriv(name, kind, small, content, mx=300):
    mode = kind if not small else 128 + (kind - 128 % 9) % 9
    assert mode % 9 == kind and bool(mode & 0x80) == small
    put("fuzz_parse_diriv", name, bytes([mode]) + u16(mx - 1) + content)


for k, kn in enumerate(["reg", "missing", "dir", "symlink", "fifo-writer",
                        "fifo", "socket", "hardlink", "unreadable"]):
    diriv("iv-" + kn, k, False, gcm_iv)
    diriv("name-" + kn, k, True, read(GCM, lg + ".name"))
diriv("iv-zero", 0, False, b"\0" * 16)
diriv("iv-15", 0, False, gcm_iv[:15])
diriv("iv-17", 0, False, gcm_iv + b"x")
diriv("name-empty", 0, True, b"")
diriv("name-too-long", 0, True, b"A" * 301)


# fuzz_parse_size: mode raw64 q64 back16 rlen16 fid16 plaintext; mode bits
# 0-1 cipher, 2-3 form (0 any, 1 header+k blocks+tail, 2 near the limit,
# 3 small), 6 append, 7 arithmetic only
def size(name, mode, raw, q=12345, back=50, rlen=4000):
    put("fuzz_parse_size", name, bytes([mode]) + struct.pack("<QQ", raw, q) +
        u16(back) + u16(rlen) + rb(16) + rb(64))


size("gcm-small-valid", 3 << 2 | 0x40, 18 + 3 * 4128 + 100)
size("gcm-short-tail", 3 << 2 | 0x40, 18 + 2 * 4128 + 5)
size("gcm-exact-blocks", 3 << 2 | 0x40, 18 + 5 * 4128)
size("xchacha-header-only", 1 | 3 << 2 | 0x40, 18)
size("siv-inside-header", 2 | 3 << 2, 7)
size("xchacha-near-max", 1 | 2 << 2, 100, 1 << 40, 4000, 12000)
size("gcm-structured", 1 << 2 | 0x40, (123456789 << 16) | 4000)
size("siv-u64-max", 2, (1 << 64) - 1, (1 << 64) - 1)
size("gcm-tail-40", 3 << 2 | 0x40, 18 + 7 * 4128 + 40)
