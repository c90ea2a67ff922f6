#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# group: local: a curious local user and a hostile cipher directory, issue
# 23 items 5, 6, 7, 8 and 11. Cases:
#   system_xattr  (5) on a root -allow_other mount, user nobody can neither
#                 set, read, replace, remove nor list system.* attributes
#                 (other than the ACL names) of root's files: EOPNOTSUPP,
#                 as a plain directory answers nobody; root still reads its
#                 own (gocryptfs stores them encrypted)
#   xattr_zero    (6) the cipher dir on a tmpfs (large xattr values): an
#                 xattr value overwritten with 4128 zero bytes (one full
#                 ciphertext block) reads as EIO, as a short zeroed one
#                 does; a zeroed content block still reads as a hole
#   scrypt_bomb   (7) a gocryptfs.conf with P=65536 (fits the memory cap,
#                 would cost minutes of CPU) is refused before any scrypt
#                 by mount, -passwd and -fsck: exit 13, one line naming P;
#                 -info still shows it; P=2 is only a wrong password (12)
#   big_offsets   (8) pread (O_DIRECT, so it reaches the daemon), pwrite,
#                 ftruncate, fallocate (4 modes), lseek
#                 SEEK_SET/SEEK_DATA/SEEK_HOLE at offsets near 2^63 and at
#                 INT64_MAX (lib/bigoff.py): the same outcomes as a plain
#                 directory on disk (EFBIG, ENXIO, 0 bytes; SEEK_SET as a
#                 tmpfs), with $BUILD/vcryptfs and with the ASan/UBSan
#                 $SANBUILD/vcryptfs (built -fno-sanitize-recover: signed
#                 overflow aborts it; any report fails)
#   mount_flags   (11) -noexec, -o noexec, -dev -suid -exec, -o dev,suid,
#                 both forms at once, and the default: the flags in
#                 /proc/self/mountinfo, no warning on stderr, and a script
#                 with +x fails with EACCES on a noexec mount (runs else)
# Needs root (-allow_other for other users, -dev/-suid, a tmpfs mount).
# Every mount is unmounted by the EXIT trap. Spec: issue 23.
. "$(dirname "$0")/lib.sh"
V=$PWD/$BUILD/vcryptfs
VS=$PWD/$SANBUILD/vcryptfs
LIB=$PWD/tests/checks/lib
need_mount_group local "$V" "$VS" || exit 0
for t in python3 /usr/bin/python3 setpriv timeout; do
	need_tool "$t" || exit 0
done
if [ "$(id -u)" != 0 ]; then
	if [ "${CI:-}" = true ]; then
		fail "local: needs root (-allow_other, -dev, tmpfs)"
	else
		echo "SKIP: local (needs root)"
	fi
	exit 0
fi
vc_tmpdir 75-local
chmod 755 "$tmp"
# the plain reference of big_offsets lives on the disk the build is on
# (not a tmpfs /tmp), beside its cipher dir; the tmpfs one in /dev/shm
disk=$(mktemp -d "$PWD/$BUILD/local75.XXXXXX")
shm=$(mktemp -d /dev/shm/vcryptfs-75.XXXXXX)
# shellcheck disable=SC2317 # called by the EXIT trap
on_exit() {
	unmount_all "${MOUNTS[@]}"
	rm -rf "$disk" "$shm"
}
PASSFILE=$tmp/pf
printf 'local-test-password\n' >"$PASSFILE"
# new_vol DIR: a fresh AES-GCM volume (scrypt N=1024)
new_vol() {
	mkdir -p "$1" && "$V" -q -init -scryptn 10 -passfile "$PASSFILE" "$1" \
		>/dev/null 2>&1
}
# as_nobody CMD...: run as uid/gid 65534 without supplementary groups
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
# the system's python for nobody (a python3 first in root's PATH may live
# where nobody cannot read, such as a pyenv under /root)
SYSPY=/usr/bin/python3

case_system_xattr() {
	local c=$tmp/c5 m=$tmp/m5 out ref
	new_vol "$c" || { fail "system_xattr: -init"; return; }
	vc_mount "$c" "$m" -allow_other || { fail "system_xattr: mount"; return; }
	printf 'root data\n' >"$m/f"
	printf 'shared\n' >"$m/g"
	chmod 644 "$m/f"
	chmod 666 "$m/g"
	mkdir -p "$tmp/p5" && printf 'x\n' >"$tmp/p5/g" && chmod 666 "$tmp/p5/g"
	if ! python3 -c 'import os, sys; os.setxattr(sys.argv[1], "system.vctest", b"root-secret")' "$m/f"; then
		fail "system_xattr: root cannot set system.vctest on its own file"
		umnt "$m"
		return
	fi
	# every call as nobody, one line each: NAME errno-name or "ok"
	cat >"$tmp/nobody_xattr.py" <<'PY'
import errno, os, sys
def t(name, fn):
    try:
        r = fn()
        print(name, "ok", repr(r)[:40])
    except OSError as e:
        print(name, errno.errorcode.get(e.errno, e.errno))
def listed(p):
    names = [n for n in os.listxattr(p) if n.startswith("system.vc")]
    if not names:
        raise OSError(errno.ENODATA, "none listed")
    return names
for p in sys.argv[1:]:
    b = os.path.basename(p)
    t(b + " set", lambda: os.setxattr(p, "system.vcnew", b"mine"))
    t(b + " get", lambda: os.getxattr(p, "system.vctest"))
    t(b + " replace", lambda: os.setxattr(p, "system.vctest", b"evil",
                                          os.XATTR_REPLACE))
    t(b + " remove", lambda: os.removexattr(p, "system.vctest"))
    t(b + " listed", lambda: listed(p))
PY
	chmod 644 "$tmp/nobody_xattr.py"
	out=$(as_nobody "$SYSPY" "$tmp/nobody_xattr.py" "$m/f" "$m/g" 2>&1)
	if [ "$(echo "$out" | grep -c ' ENOTSUP$')" -eq 8 ] &&
		[ "$(echo "$out" | grep -c ' listed ENODATA$')" -eq 2 ]; then
		pass "system_xattr: nobody on root's files (0644 and 0666): set, get, replace, remove system.* -> EOPNOTSUPP, none listed"
	else
		fail "system_xattr: as nobody: $(echo "$out" | tr '\n' ';')"
	fi
	ref=$(as_nobody "$SYSPY" "$tmp/nobody_xattr.py" "$tmp/p5/g" 2>&1 | grep ' set ')
	if [ "$ref" = "g set ENOTSUP" ]; then
		pass "system_xattr: a plain directory answers nobody's system.* set the same (EOPNOTSUPP)"
	else
		fail "system_xattr: plain reference: $ref"
	fi
	out=$(python3 -c 'import os, sys; print(os.getxattr(sys.argv[1], "system.vctest").decode(), "system.vcnew" in os.listxattr(sys.argv[2]))' "$m/f" "$m/g" 2>&1)
	if [ "$out" = "root-secret False" ]; then
		pass "system_xattr: root still reads its system.vctest unchanged, nobody's set left nothing"
	else
		fail "system_xattr: root afterwards: $out"
	fi
	umnt "$m"
}

case_xattr_zero() {
	local t=$tmp/t6 c m=$tmp/m6 enc henc out
	mkdir -p "$t"
	PLAIN_MOUNTS+=("$t")
	mount -t tmpfs -o size=16m tmpfs "$t" || { fail "xattr_zero: tmpfs"; return; }
	c=$t/c
	new_vol "$c" || { fail "xattr_zero: -init"; return; }
	vc_mount "$c" "$m" || { fail "xattr_zero: mount"; return; }
	printf 'file\n' >"$m/f"
	head -c 8192 /dev/zero | tr '\0' B >"$m/h"
	out=$(python3 -c 'import os, sys
os.setxattr(sys.argv[1], "user.big", b"A" * 4096)
os.setxattr(sys.argv[1], "user.small", b"S" * 68)
print(len(os.getxattr(sys.argv[1], "user.big")))' "$m/f" 2>&1)
	umnt "$m"
	if [ "$out" != 4096 ]; then
		fail "xattr_zero: setting a 4096-byte xattr: $out"
		return
	fi
	# the two stored values (4128 and 100 bytes) and h's first block
	# become zeros in the cipher dir
	enc=$(python3 -c 'import os, sys
for d, _, fs in os.walk(sys.argv[1]):
    for n in fs:
        p = os.path.join(d, n)
        if any(x.startswith("user.gocryptfs.") for x in os.listxattr(p)):
            print(p)' "$c")
	henc=$(find "$c" -type f -size 8274c)
	out=$(python3 -c 'import os, sys
p = sys.argv[1]
ls = sorted(len(os.getxattr(p, n)) for n in os.listxattr(p) if n.startswith("user.gocryptfs."))
for n in os.listxattr(p):
    if n.startswith("user.gocryptfs."):
        os.setxattr(p, n, bytes(len(os.getxattr(p, n))))
with open(sys.argv[2], "r+b") as f:
    f.seek(18)
    f.write(bytes(4128))
print(ls)' "$enc" "$henc" 2>&1)
	if [ "$out" != "[100, 4128]" ]; then
		fail "xattr_zero: stored values are not 100 and 4128 bytes: $out ($enc, $henc)"
		return
	fi
	vc_mount "$c" "$m" || { fail "xattr_zero: remount"; return; }
	out=$(python3 -c 'import errno, os, sys
for n in ("user.big", "user.small"):
    try:
        v = os.getxattr(sys.argv[1], n)
        print(n, "read", len(v), "bytes, all zero:", v == bytes(len(v)))
    except OSError as e:
        print(n, errno.errorcode[e.errno])
with open(sys.argv[2], "rb") as f:
    d = f.read()
print("h", d[:4096] == bytes(4096), d[4096:] == b"B" * 4096)' "$m/f" "$m/h" 2>&1)
	if echo "$out" | grep -qx 'user.big EIO' && echo "$out" | grep -qx 'user.small EIO'; then
		pass "xattr_zero: a value of 4128 zero bytes and one of 100 read as EIO, not as zeros"
	else
		fail "xattr_zero: zeroed xattr values: $(echo "$out" | tr '\n' ';')"
	fi
	if echo "$out" | grep -qx 'h True True'; then
		pass "xattr_zero: a zeroed content block still reads as a hole (4096 zeros), the next block intact"
	else
		fail "xattr_zero: content hole: $(echo "$out" | tr '\n' ';')"
	fi
	umnt "$m"
}

# set_p CONF P: the ScryptObject's P in gocryptfs.conf
set_p() {
	python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))
c["ScryptObject"]["P"] = int(sys.argv[2])
json.dump(c, open(sys.argv[1], "w"), indent="\t")' "$1" "$2"
}

case_scrypt_bomb() {
	local c=$tmp/c7 m=$tmp/m7 rc what line
	new_vol "$c" || { fail "scrypt_bomb: -init"; return; }
	set_p "$c/gocryptfs.conf" 65536
	mkdir -p "$m"
	MOUNTS+=("$m")
	for what in mount passwd fsck; do
		case $what in
		mount) timeout 10 "$V" -q -passfile "$PASSFILE" "$c" "$m" >"$tmp/b7.out" 2>&1 ;;
		passwd) printf 'local-test-password\nnew\nnew\n' |
			timeout 10 "$V" -q -passwd "$c" >"$tmp/b7.out" 2>&1 ;;
		fsck) timeout 10 "$V" -q -fsck -passfile "$PASSFILE" "$c" >"$tmp/b7.out" 2>&1 ;;
		esac
		rc=$?
		line=$(cat "$tmp/b7.out")
		if [ "$rc" -eq 13 ] && [ "$(wc -l <"$tmp/b7.out")" -eq 1 ] &&
			[[ $line == *P=65536* ]] && ! mountpoint -q "$m"; then
			pass "scrypt_bomb: $what with N=1024 R=8 P=65536: exit 13 at once: $line"
		else
			fail "scrypt_bomb: $what with P=65536: exit $rc (124: still deriving after 10 s): $line"
		fi
	done
	if "$V" -info "$c" 2>&1 | grep -q 'P=65536'; then
		pass "scrypt_bomb: -info still shows the config (P=65536)"
	else
		fail "scrypt_bomb: -info: $("$V" -info "$c" 2>&1 | tr '\n' ';')"
	fi
	set_p "$c/gocryptfs.conf" 2
	timeout 10 "$V" -q -passfile "$PASSFILE" "$c" "$m" >"$tmp/b7.out" 2>&1
	rc=$?
	if [ "$rc" -eq 12 ]; then
		pass "scrypt_bomb: P=2 (little work) derives: a wrong key, exit 12"
	else
		fail "scrypt_bomb: P=2: exit $rc: $(cat "$tmp/b7.out")"
	fi
	unmount_all "$m"
}

# offsets_on BIN TAG: mount a fresh volume (cipher dir on disk) with BIN,
# compare lib/bigoff.py's outcomes there with the plain references
offsets_on() {
	local bin=$1 tag=$2 c=$disk/c8-$2 m=$tmp/m8-$2 d diff
	new_vol "$c" || { fail "big_offsets ($tag): -init"; return; }
	VC_BIN=$bin vc_mount "$c" "$m" || { fail "big_offsets ($tag): mount"; return; }
	mkdir -p "$m/t"
	python3 "$LIB/bigoff.py" "$m/t" direct >"$tmp/off-$tag" 2>&1
	d=$(python3 -c 'import sys
ref = {}
for f, t in ((sys.argv[1], "disk"), (sys.argv[2], "tmpfs")):
    for l in open(f):
        if l.startswith(t + " "):
            ref[l.split(" -> ")[0].split(":")[0]] = l.rstrip("\n")
bad = []
got = [l.rstrip("\n") for l in open(sys.argv[3])]
for l in got:
    k = l.split(" -> ")[0].split(":")[0]
    if ref.get(k) != l:
        bad.append("%s (reference: %s)" % (l, ref.get(k)))
if len(got) != len(ref):
    bad.append("%d lines, reference %d" % (len(got), len(ref)))
print("; ".join(bad))' "$tmp/off-disk" "$tmp/off-tmpfs" "$tmp/off-$tag")
	if [ -z "$d" ] && mountpoint -q "$m"; then
		pass "big_offsets ($tag): $(wc -l <"$tmp/off-$tag") outcomes as on a plain directory: $(grep -c EFBIG "$tmp/off-$tag") EFBIG, $(grep -c ENXIO "$tmp/off-$tag") ENXIO, every file unchanged"
	else
		diff=$d
		mountpoint -q "$m" || diff="the daemon is gone; $d"
		fail "big_offsets ($tag): $diff"
	fi
	umnt "$m"
}

case_big_offsets() {
	mkdir -p "$disk/plain" "$shm/plain"
	python3 "$LIB/bigoff.py" "$disk/plain" >"$tmp/off-disk" 2>&1
	python3 "$LIB/bigoff.py" "$shm/plain" seekset >"$tmp/off-tmpfs" 2>&1
	offsets_on "$V" normal
	if want_san_daemon big_offsets LOCAL_SAN; then
		offsets_on "$VS" san
		san_verdict big_offsets "$tmp/san" "no ASan/UBSan report from the sanitized daemon"
	fi
}

# flags_of MNT: the per-mount options field of MNT in /proc/self/mountinfo
flags_of() { awk -v m="$1" '$5 == m { print $6 }' /proc/self/mountinfo; }

case_mount_flags() {
	local c=$tmp/c11 m=$tmp/m11 opts want f fl bad ex line
	new_vol "$c" || { fail "mount_flags: -init"; return; }
	mkdir -p "$m"
	MOUNTS+=("$m")
	# options | flags that must be there (+) or not (-) | the script runs
	while IFS='|' read -r opts want ex; do
		# shellcheck disable=SC2086 # the options are words
		"$V" -q -passfile "$PASSFILE" $opts "$c" "$m" >"$tmp/f11.err" 2>&1
		if ! mountpoint -q "$m"; then
			fail "mount_flags: '$opts' did not mount: $(cat "$tmp/f11.err")"
			continue
		fi
		fl=$(flags_of "$m")
		bad=
		for f in $want; do
			case $f in
			+*) [[ ,$fl, == *,${f#+},* ]] || bad+=" lacks ${f#+}" ;;
			-*) [[ ,$fl, == *,${f#-},* ]] && bad+=" has ${f#-}" ;;
			esac
		done
		[ -s "$tmp/f11.err" ] && bad+=" stderr: $(tr '\n' ' ' <"$tmp/f11.err")"
		printf '#!/bin/sh\necho ran\n' >"$m/s.sh"
		chmod 755 "$m/s.sh"
		line=$(python3 -c 'import errno, os, subprocess, sys
try:
    print(subprocess.run([sys.argv[1]], capture_output=True).stdout.decode().strip())
except OSError as e:
    print(errno.errorcode[e.errno])' "$m/s.sh" 2>&1)
		[ "$line" = "$ex" ] || bad+=" script: $line, want $ex"
		if [ -z "$bad" ]; then
			pass "mount_flags: '${opts:-(default)}': $fl, script: $line"
		else
			fail "mount_flags: '${opts:-(default)}': $fl:$bad"
		fi
		umnt "$m"
	done <<'EOF'
|+nosuid +nodev -noexec|ran
-noexec|+noexec +nosuid +nodev|EACCES
-o noexec|+noexec +nosuid +nodev|EACCES
-dev -suid -exec|-nosuid -nodev -noexec|ran
-o dev,suid|-nosuid -nodev -noexec|ran
-nodev -dev -nosuid -suid -noexec -exec|+nodev +nosuid +noexec|EACCES
EOF
}

run_cases case_system_xattr case_xattr_zero case_scrypt_bomb \
	case_big_offsets case_mount_flags
