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


# fuzz_parse_xattr: mode cap16 then raw bytes (mode & 4) or
# nonce24 vlen16 resize16 (pos16 xor8) x3 value
def xattr_seal(name, mode, value, dmg):
    body = bytes([mode]) + u16(len(value) + 64) + rb(24) + u16(len(value)) + \
        u16(5)
    for p, x in dmg:
        body += u16(p) + bytes([x])
    put("fuzz_parse_xattr", name, body + value)


xattr_seal("gcm-intact", 0, b"some value", [(0, 0)] * 3)
xattr_seal("xchacha-flip", 1, rb(200), [(30, 0x80), (0, 0), (0, 0)])
xattr_seal("siv-trunc", 2 | 0x08, rb(50), [(0, 0)] * 3)
xattr_seal("gcm-empty", 0, b"", [(0, 0)] * 3)
put("fuzz_parse_xattr", "raw-gcm-symlinkblock", bytes([4]) + u16(100) + sl)

# fuzz_parse_config: the files themselves
put("fuzz_parse_config", "gcm.conf", read(GCM, "gocryptfs.conf"))
put("fuzz_parse_config", "xchacha.conf", read(XC, "gocryptfs.conf"))
put("fuzz_parse_config", "not-json", b"{\"Creator\": ")
put("fuzz_parse_config", "empty", b"")
