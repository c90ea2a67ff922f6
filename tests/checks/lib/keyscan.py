#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# keyscan.py: where a running daemon keeps copies of its keys (group
# 73-secrets). Two commands:
#   derive CONF PASSFILE MASTERHEX: the keys of an AES-GCM HKDF volume,
#     derived here from the password and gocryptfs.conf as
#     ../shared/FORMAT.md 2.5 and 3 say (scrypt, then HKDF-SHA256 with
#     "AES-GCM file content encryption" for the key that unwraps the
#     master key; HKDF of the master key for the content and EME keys);
#     prints "name hex" lines: kek (the scrypt output), unwrap, master,
#     content, eme.
#   scan PID NAME=HEX...: reads every readable mapping of PID through
#     /proc/PID/mem (run as root), finds each key whole and each of its
#     16-byte halves (an AES-256 decryption schedule holds only the first
#     half as is), and prints one line per copy: "hit NAME PART ADDR OK|BAD
#     size=KB locked=KB dd=0|1 PATH", OK when the mapping is locked whole
#     (smaps Locked == Size) and excluded from core dumps (VmFlags dd);
#     then "count NAME COPIES BAD" per key.
import base64, hashlib, hmac, json, re, sys


def hkdf(ikm, info, n=32):
    prk = hmac.new(b"\0" * 32, ikm, hashlib.sha256).digest()
    out, t, i = b"", b"", 1
    while len(out) < n:
        t = hmac.new(prk, t + info + bytes([i]), hashlib.sha256).digest()
        out += t
        i += 1
    return out[:n]


def derive(conf, passfile, masterhex):
    with open(conf) as f:
        c = json.load(f)
    with open(passfile, "rb") as f:
        pw = f.read().split(b"\n")[0]
    s = c["ScryptObject"]
    if "HKDF" not in c.get("FeatureFlags", []):
        sys.exit("keyscan: only HKDF volumes")
    kek = hashlib.scrypt(pw, salt=base64.b64decode(s["Salt"]), n=s["N"],
                         r=s["R"], p=s["P"], dklen=s["KeyLen"],
                         maxmem=256 * s["R"] * (s["N"] + s["P"] + 2) + 2**20)
    mk = bytes.fromhex(masterhex)
    print("kek", kek.hex())
    print("unwrap", hkdf(kek, b"AES-GCM file content encryption").hex())
    print("master", mk.hex())
    print("content", hkdf(mk, b"AES-GCM file content encryption").hex())
    print("eme", hkdf(mk, b"EME filename encryption").hex())


def smaps(pid):
    """[(start, end, fields, vmflags, path)] of /proc/PID/smaps."""
    maps = []
    head = re.compile(r"^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$")
    with open("/proc/%d/smaps" % pid) as f:
        for line in f:
            m = head.match(line)
            if m:
                maps.append([int(m.group(1), 16), int(m.group(2), 16),
                             {}, set(), m.group(4), m.group(3)])
            elif line.startswith("VmFlags:"):
                maps[-1][3] = set(line.split()[1:])
            else:
                k, _, v = line.partition(":")
                maps[-1][2][k] = v.split()[0] if v.split() else ""
    return maps


def scan(pid, specs):
    keys = []
    for s in specs:
        name, _, hx = s.partition("=")
        k = bytes.fromhex(hx)
        keys.append((name, [("whole", k), ("lo", k[:16]), ("hi", k[16:])]))
    maps = smaps(pid)
    counts = {name: [0, 0] for name, _ in keys}
    with open("/proc/%d/mem" % pid, "rb", buffering=0) as mem:
        for start, end, fields, flags, path, perms in maps:
            if not perms.startswith("r"):
                continue
            try:
                mem.seek(start)
                data = mem.read(end - start)
            except OSError:
                continue  # [vvar] and the like
            ok = (fields.get("Locked") == fields.get("Size") and
                  "dd" in flags)
            for name, parts in keys:
                for part, needle in parts:
                    i = data.find(needle)
                    while i >= 0:
                        counts[name][0] += 1
                        counts[name][1] += 0 if ok else 1
                        print("hit %s %s %#x %s size=%s locked=%s dd=%d %s" %
                              (name, part, start + i, "OK" if ok else "BAD",
                               fields.get("Size"), fields.get("Locked"),
                               "dd" in flags, path or "[anon]"))
                        i = data.find(needle, i + 1)
    for name, (n, bad) in counts.items():
        print("count %s %d %d" % (name, n, bad))


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "derive":
        derive(*sys.argv[2:])
    elif len(sys.argv) >= 3 and sys.argv[1] == "scan":
        scan(int(sys.argv[2]), sys.argv[3:])
    else:
        sys.exit("usage: keyscan.py derive CONF PASSFILE MASTERHEX | "
                 "scan PID NAME=HEX...")
