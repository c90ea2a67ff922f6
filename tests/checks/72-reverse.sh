#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# group: reverse: `vcryptfs -reverse PLAINDIR VIEW` (src/reverse/) against
# gocryptfs 2.3 -reverse on the same plaintext dir and the same
# .gocryptfs.reverse.conf (made by either tool): the recursive listing of
# both views (names, types, modes, sizes, sha256 of contents, symlink
# targets) must be identical, for a tree with every kind of entry (files
# around block edges, empty, sparse, hard links, symlinks, fifo, socket,
# device, long names, a long-named dir; hard links opened through either
# name first), for default, -plaintextnames,
# -deterministic-names and -longnamemax 64 configs, and for a table of
# -exclude/-exclude-wildcard/-exclude-from patterns; -one-file-system;
# -sharedstorage. Round trip: the view copied with rsync -a (and cp
# --sparse=always) mounts forward in vcryptfs and gocryptfs as the
# original tree, -fsck clean. A file changing while the view is read
# never yields a torn block. Read-only: writes fail with EROFS.
# -allow_other: other users get the view's permission bits.
# Every case runs with $BUILD/vcryptfs and then with the ASan/UBSan
# $SANBUILD/vcryptfs (any sanitizer report fails; REVERSE_SAN=0 skips
# that pass).
# Over 600 lines on purpose: each case runs for four configs and two
# binaries through the same fresh/mnt_vc/mnt_go helpers defined here;
# tests/run.sh reverse --case NAME runs one case.
# Spec: ../shared/FORMAT.md section 9.
. "$(dirname "$0")/lib.sh"
need_tool fusermount3 || exit 0
need_tool gocryptfs || exit 0
need_tool python3 || exit 0
need_tool rsync || exit 0
need_tool setpriv || exit 0
need_fuse reverse || exit 0
need_built reverse "$BUILD/vcryptfs" || exit 0
[ "${REVERSE_SAN:-1}" = 0 ] || need_built reverse "$SANBUILD/vcryptfs" || exit 0
VCN=$PWD/$BUILD/vcryptfs
VCS=$PWD/$SANBUILD/vcryptfs
tmp=$(mktemp -d /tmp/vcryptfs-68.XXXXXX)
chmod 755 "$tmp"
MOUNTS=()
cleanup() {
	unmount_all "${MOUNTS[@]}"
	for m in "$tmp"/*/p/tmpfs; do
		mountpoint -q "$m" 2>/dev/null && umount "$m"
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
PF=$tmp/pf
printf 'reverse-test\n' >"$PF"
VC=$VCN
TAG=normal

# Listing of a tree: type, path, mode, size, sha256 / target (lib/treesum.py).
sum() { python3 "$LIB_DIR/treesum.py" --basic "$@"; }

# make_tree DIR: every kind of entry.
make_tree() {
	local d=$1
	mkdir -p "$d/dir/sub/deep" "$d/.hid"
	printf hello >"$d/a.txt"
	: >"$d/empty"
	printf x >"$d/one"
	head -c 4096 /dev/urandom >"$d/b4096"
	head -c 4097 /dev/urandom >"$d/b4097"
	head -c 5000 /dev/urandom >"$d/dir/b5000"
	head -c 300000 /dev/urandom >"$d/dir/sub/big"
	head -c 100 /dev/urandom >"$d/dir/sub/deep/x.txt"
	truncate -s 20000 "$d/sparse"
	printf end >>"$d/sparse"
	truncate -s 1M "$d/hole"
	ln -s a.txt "$d/lnk"
	ln -s ../a.txt "$d/dir/lnk2"
	ln -s /etc/passwd "$d/abs"
	ln -s "$(printf 't%.0s' $(seq 2000))" "$d/longtarget"
	ln "$d/a.txt" "$d/dir/hard"
	ln "$d/dir/b5000" "$d/hard2"
	mkfifo "$d/fifo"
	python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$d/sock"
	mknod "$d/null" c 1 3 2>/dev/null || true
	printf cfg >"$d/dir/gocryptfs.conf"
	printf y >"$d/with space"
	printf z >"$d/ünï"
	chmod 600 "$d/one"
	chmod 750 "$d/dir/sub"
	local n
	for n in 40 47 48 63 175 176 200 255; do
		printf "$n" >"$d/$(printf 'N%.0s' $(seq "$n"))"
	done
	mkdir "$d/$(printf 'D%.0s' $(seq 190))"
	printf in >"$d/$(printf 'D%.0s' $(seq 190))/inner"
	mkdir "$d/$(printf 'D%.0s' $(seq 190))/$(printf 'E%.0s' $(seq 180))"
}

# mnt_vc PLAIN VIEW [OPTS...] / mnt_go PLAIN VIEW [OPTS...]
mnt_vc() {
	local p=$1 v=$2
	shift 2
	mkdir -p "$v"
	MOUNTS+=("$v")
	"$VC" -q -reverse -passfile "$PF" "$@" "$p" "$v"
}
mnt_go() {
	local p=$1 v=$2
	shift 2
	mkdir -p "$v"
	MOUNTS+=("$v")
	gocryptfs -q -nosyslog -reverse -passfile "$PF" "$@" "$p" "$v" 2>/dev/null
}
umnt() {
	fusermount3 -u "$1" 2>/dev/null || { sleep 1; fusermount3 -u -z "$1"; }
}

# same_view NAME PLAIN [OPTS...]: both views of PLAIN with OPTS are equal.
same_view() {
	local name=$1 p=$2 a=$tmp/v.vc b=$tmp/v.go
	shift 2
	if ! mnt_vc "$p" "$a" "$@"; then
		fail "reverse[$TAG]: $name: vcryptfs -reverse $* did not mount"
		return 1
	fi
	if ! mnt_go "$p" "$b" "$@"; then
		umnt "$a"
		fail "reverse[$TAG]: $name: gocryptfs -reverse $* did not mount"
		return 1
	fi
	sum "$a" >"$tmp/s.vc" 2>"$tmp/s.vc.err"
	sum "$b" >"$tmp/s.go" 2>"$tmp/s.go.err"
	umnt "$a"
	umnt "$b"
	if [ -s "$tmp/s.vc.err" ] || [ ! -s "$tmp/s.vc" ]; then
		fail "reverse[$TAG]: $name: reading the vcryptfs view failed: $(head -c 300 "$tmp/s.vc.err")"
		return 1
	fi
	if cmp -s "$tmp/s.vc" "$tmp/s.go"; then
		pass "reverse[$TAG]: $name: identical views ($(wc -l <"$tmp/s.vc") entries)"
		return 0
	fi
	fail "reverse[$TAG]: $name: views differ: $(diff "$tmp/s.vc" "$tmp/s.go" | head -n 8 | tr '\n' '|')"
	return 1
}

# fresh NAME TOOL [INIT OPTS...]: a new plaintext tree with a reverse
# config from TOOL (vc or go); prints its path.
fresh() {
	local p=$tmp/$1/p tool=$2
	shift 2
	rm -rf "${p%/p}"
	mkdir -p "$p"
	make_tree "$p"
	if [ "$tool" = vc ]; then
		"$VC" -q -init -reverse -scryptn 10 -passfile "$PF" "$@" "$p" >/dev/null 2>&1
	else
		gocryptfs -q -init -reverse -scryptn 10 -passfile "$PF" "$@" "$p" >/dev/null 2>&1
	fi
	[ -f "$p/.gocryptfs.reverse.conf" ] || return 1
	echo "$p"
}

case_default() {
	local p
	p=$(fresh def-vc vc) || { fail "reverse[$TAG]: -init -reverse failed"; return; }
	grep -q '"AESSIV"' "$p/.gocryptfs.reverse.conf" &&
		[ "$(python3 -c 'import json,sys; print(" ".join(json.load(open(sys.argv[1]))["FeatureFlags"]))' "$p/.gocryptfs.reverse.conf")" = "HKDF GCMIV128 DirIV EMENames LongNames Raw64 AESSIV" ] &&
		pass "reverse[$TAG]: -init -reverse writes gocryptfs's flags" ||
		fail "reverse[$TAG]: -init -reverse flags: $(cat "$p/.gocryptfs.reverse.conf")"
	same_view "default, config by vcryptfs" "$p"
	p=$(fresh def-go go) || { fail "reverse[$TAG]: gocryptfs -init -reverse failed"; return; }
	same_view "default, config by gocryptfs" "$p"
	same_view "default, -sharedstorage" "$p" -sharedstorage
	# the virtual files and the config in the view
	mnt_vc "$p" "$tmp/v1" || { fail "reverse[$TAG]: mount"; return; }
	local iv
	iv=$(od -An -tx1 "$tmp/v1/gocryptfs.diriv" | tr -d ' \n')
	[ "$iv" = a8f7bac432ddc1cb3dc74e684d6ae48b ] &&
		pass "reverse[$TAG]: root gocryptfs.diriv = derive(\"\", DIRIV)" ||
		fail "reverse[$TAG]: root diriv $iv"
	[ "$(stat -c %a:%s "$tmp/v1/gocryptfs.diriv")" = 444:16 ] &&
		pass "reverse[$TAG]: virtual diriv is 0444, 16 bytes" ||
		fail "reverse[$TAG]: diriv $(stat -c %a:%s "$tmp/v1/gocryptfs.diriv")"
	cmp -s "$tmp/v1/gocryptfs.conf" "$p/.gocryptfs.reverse.conf" &&
		pass "reverse[$TAG]: gocryptfs.conf in the view is .gocryptfs.reverse.conf" ||
		fail "reverse[$TAG]: gocryptfs.conf differs"
	local nf
	nf=$(find "$tmp/v1" -maxdepth 1 -name 'gocryptfs.longname.*.name' | head -n 1)
	[ -n "$nf" ] && [ "$(stat -c %a "$nf")" = 444 ] && [ -e "${nf%.name}" ] &&
		pass "reverse[$TAG]: long names: hashed entry and 0444 .name file" ||
		fail "reverse[$TAG]: long name entries missing"
	umnt "$tmp/v1"
}

case_plaintextnames() {
	local p
	p=$(fresh ptn-vc vc -plaintextnames) || { fail "reverse[$TAG]: -init -reverse -plaintextnames"; return; }
	same_view "-plaintextnames" "$p"
	# a real gocryptfs.conf in the root is shadowed by the config
	printf real >"$p/gocryptfs.conf"
	mnt_vc "$p" "$tmp/v1" || { fail "reverse[$TAG]: mount"; return; }
	if ls "$tmp/v1" | grep -q '^gocryptfs.conf_NAME_COLLISION_[0-9]*$' &&
		cmp -s "$tmp/v1/gocryptfs.conf" "$p/.gocryptfs.reverse.conf"; then
		pass "reverse[$TAG]: -plaintextnames: gocryptfs.conf collision renamed"
	else
		fail "reverse[$TAG]: -plaintextnames collision: $(ls "$tmp/v1" | grep conf | tr '\n' ' ')"
	fi
	# a name over NAME_MAX (pjdfstest open/02.t on the view): the plain
	# dir and gocryptfs's view answer ENAMETOOLONG; a missing name of
	# NAME_MAX bytes: ENOENT
	local r
	if mnt_go "$p" "$tmp/g1"; then
		r=$(python3 - "$p" "$tmp/v1" "$tmp/g1" <<-'PY'
			import errno, os, sys
			out = []
			for d in sys.argv[1:]:
			    for n in (256, 255):
			        try:
			            os.lstat(os.path.join(d, "L" * n))
			            out.append("found")
			        except OSError as e:
			            out.append(errno.errorcode[e.errno])
			print(" ".join(out))
		PY
		)
		umnt "$tmp/g1"
		[ "$r" = "ENAMETOOLONG ENOENT ENAMETOOLONG ENOENT ENAMETOOLONG ENOENT" ] &&
			pass "reverse[$TAG]: -plaintextnames: a 256-byte name is ENAMETOOLONG, a missing 255-byte one ENOENT (as the plain dir and gocryptfs)" ||
			fail "reverse[$TAG]: -plaintextnames: lstat of 256/255-byte names, plain dir, vcryptfs view, gocryptfs view: $r"
	else
		fail "reverse[$TAG]: -plaintextnames: gocryptfs -reverse did not mount"
	fi
	umnt "$tmp/v1"
}

case_deterministic() {
	local p
	p=$(fresh det-go go -deterministic-names) || { fail "reverse[$TAG]: -init -deterministic-names"; return; }
	same_view "-deterministic-names (config by gocryptfs)" "$p"
	p=$(fresh det-vc vc -deterministic-names) || { fail "reverse[$TAG]: -init -deterministic-names"; return; }
	same_view "-deterministic-names (config by vcryptfs)" "$p"
}

case_longnamemax() {
	local p
	p=$(fresh lnm-vc vc -longnamemax 64) || { fail "reverse[$TAG]: -init -longnamemax 64"; return; }
	grep -q '"LongNameMax": 64' "$p/.gocryptfs.reverse.conf" &&
		pass "reverse[$TAG]: -longnamemax 64 in the config" ||
		fail "reverse[$TAG]: no LongNameMax 64 in the config"
	same_view "-longnamemax 64" "$p"
	p=$(fresh lnm-go go -longnamemax 100) || { fail "reverse[$TAG]: gocryptfs -longnamemax 100"; return; }
	same_view "-longnamemax 100 (config by gocryptfs)" "$p"
}

# Hard links: the IVs of a linked file come from the first path opened
# during the mount's lifetime. Open the link in dir/ first: both views
# then show a.txt with the IVs of dir/hard, identically.
case_hardlink() {
	local p a=$tmp/hl/v.vc b=$tmp/hl/v.go hv
	p=$(fresh hl vc) || { fail "reverse[$TAG]: -init"; return; }
	mnt_vc "$p" "$a" || { fail "reverse[$TAG]: mount"; return; }
	mnt_go "$p" "$b" || { umnt "$a"; fail "reverse[$TAG]: gocryptfs mount"; return; }
	# dir/hard in the view: the 55-byte file of the dir holding lnk2
	hv=$(python3 -c 'import os,sys
v=sys.argv[1]
for d in os.listdir(v):
    p=os.path.join(v,d)
    if os.path.isdir(p) and not os.path.islink(p) and any(os.path.islink(os.path.join(p,e)) for e in os.listdir(p)):
        for e in os.listdir(p):
            q=os.path.join(p,e)
            if os.path.isfile(q) and not os.path.islink(q) and os.lstat(q).st_size == 55 and e != "gocryptfs.diriv":
                print(os.path.relpath(q, v)); sys.exit()' "$a")
	cat "$a/$hv" >/dev/null
	cat "$b/$hv" >/dev/null
	sum "$a" >"$tmp/hl/s.vc"
	sum "$b" >"$tmp/hl/s.go"
	umnt "$a"
	umnt "$b"
	local n
	n=$(grep -c " 55 $(grep " $hv " "$tmp/hl/s.vc" | awk '{print $5}')" "$tmp/hl/s.vc")
	if [ -n "$hv" ] && cmp -s "$tmp/hl/s.vc" "$tmp/hl/s.go" && [ "$n" = 2 ]; then
		pass "reverse[$TAG]: hard link opened first through dir/: both names show its IVs, as in gocryptfs"
	else
		fail "reverse[$TAG]: hard links ($hv, $n equal): $(diff "$tmp/hl/s.vc" "$tmp/hl/s.go" | head -n 4 | tr '\n' '|')"
	fi
}

# The view copied with rsync -a (and cp --sparse=always) is a forward
# cipher dir: vcryptfs and gocryptfs show the original tree; -fsck clean.
case_roundtrip() {
	local p c fm
	p=$(fresh rt vc) || { fail "reverse[$TAG]: -init"; return; }
	mnt_vc "$p" "$tmp/rt/v" || { fail "reverse[$TAG]: mount"; return; }
	rsync -a "$tmp/rt/v/" "$tmp/rt/copy/"
	cp -a --sparse=always "$tmp/rt/v" "$tmp/rt/copy2"
	umnt "$tmp/rt/v"
	sum "$p" .gocryptfs.reverse.conf >"$tmp/rt/orig"
	for c in copy copy2; do
		for fm in vc go; do
			mkdir -p "$tmp/rt/f"
			MOUNTS+=("$tmp/rt/f")
			if [ $fm = vc ]; then
				"$VC" -q -passfile "$PF" "$tmp/rt/$c" "$tmp/rt/f" 2>/dev/null
			else
				gocryptfs -q -nosyslog -passfile "$PF" "$tmp/rt/$c" "$tmp/rt/f" 2>/dev/null
			fi || { fail "reverse[$TAG]: round trip: $fm cannot mount the $c"; continue; }
			sum "$tmp/rt/f" >"$tmp/rt/back" 2>"$tmp/rt/err"
			umnt "$tmp/rt/f"
			if cmp -s "$tmp/rt/orig" "$tmp/rt/back" && [ ! -s "$tmp/rt/err" ]; then
				pass "reverse[$TAG]: round trip: $c of the view mounted by $fm = the plaintext tree"
			else
				fail "reverse[$TAG]: round trip $c/$fm: $(diff "$tmp/rt/orig" "$tmp/rt/back" | head -n 6 | tr '\n' '|') $(head -c 200 "$tmp/rt/err")"
			fi
		done
		if "$VC" -fsck -passfile "$PF" "$tmp/rt/$c" >"$tmp/rt/fsck" 2>&1; then
			pass "reverse[$TAG]: round trip: vcryptfs -fsck of the $c is clean"
		else
			fail "reverse[$TAG]: -fsck of the $c: $(tail -n 3 "$tmp/rt/fsck" | tr '\n' '|')"
		fi
		if gocryptfs -fsck -q -passfile "$PF" "$tmp/rt/$c" >"$tmp/rt/fsck" 2>&1; then
			pass "reverse[$TAG]: round trip: gocryptfs -fsck of the $c is clean"
		else
			fail "reverse[$TAG]: gocryptfs -fsck of the $c: $(tail -n 3 "$tmp/rt/fsck" | tr '\n' '|')"
		fi
	done
}

# Sparse plaintext: SEEK_HOLE never finds a hole in a view file.
case_sparse() {
	local p r
	p=$(fresh sp vc) || { fail "reverse[$TAG]: -init"; return; }
	mnt_vc "$p" "$tmp/sp/v" || { fail "reverse[$TAG]: mount"; return; }
	r=$(python3 - "$tmp/sp/v" <<'PY'
import os, sys
v = sys.argv[1]
bad = []
n = 0
for e in os.listdir(v):
    p = os.path.join(v, e)
    st = os.lstat(p)
    if not os.path.isfile(p) or os.path.islink(p) or st.st_size == 0:
        continue
    fd = os.open(p, os.O_RDONLY)
    if os.lseek(fd, 0, os.SEEK_DATA) != 0 or os.lseek(fd, 0, os.SEEK_HOLE) != st.st_size:
        bad.append(e)
    n += 1
    os.close(fd)
print("ok %d" % n if not bad else "bad " + " ".join(bad))
PY
)
	umnt "$tmp/sp/v"
	case $r in
	ok*) pass "reverse[$TAG]: SEEK_DATA/SEEK_HOLE: every view file is data ($r files)" ;;
	*) fail "reverse[$TAG]: SEEK_HOLE inside view files: $r" ;;
	esac
}

# Read-only: every change fails with EROFS.
case_readonly() {
	local p r
	p=$(fresh ro vc) || { fail "reverse[$TAG]: -init"; return; }
	mnt_vc "$p" "$tmp/ro/v" || { fail "reverse[$TAG]: mount"; return; }
	r=$(python3 - "$tmp/ro/v" <<'PY'
import errno, os, sys
v = sys.argv[1]
f = sorted(e for e in os.listdir(v) if os.path.isfile(os.path.join(v, e)) and not os.path.islink(os.path.join(v, e)))[0]
p = os.path.join(v, f)
ops = [
    ("create", lambda: open(os.path.join(v, "new"), "w")),
    ("write", lambda: open(p, "r+b")),
    ("mkdir", lambda: os.mkdir(os.path.join(v, "d"))),
    ("unlink", lambda: os.unlink(p)),
    ("rename", lambda: os.rename(p, p + "x")),
    ("chmod", lambda: os.chmod(p, 0o600)),
    ("truncate", lambda: os.truncate(p, 0)),
    ("symlink", lambda: os.symlink("x", os.path.join(v, "s"))),
    ("setxattr", lambda: os.setxattr(p, "user.x", b"1")),
]
bad = []
for n, op in ops:
    try:
        op()
        bad.append(n + ":ok")
    except OSError as e:
        if e.errno != errno.EROFS:
            bad.append("%s:%s" % (n, errno.errorcode.get(e.errno)))
print("ok" if not bad else " ".join(bad))
PY
)
	umnt "$tmp/ro/v"
	[ "$r" = ok ] && pass "reverse[$TAG]: create, write, mkdir, unlink, rename, chmod, truncate, symlink, setxattr: EROFS" ||
		fail "reverse[$TAG]: read-only: $r"
}

# A file changing while its view is read. (1) A reader whose requests end
# inside a block (O_DIRECT, 2100 bytes, then the rest) while block 0 is
# rewritten in between gets the old block 0 whole: the copy decrypts to
# the old content. (2) The file grows inside its last block between two
# such requests: the copy is the old version (old size), not a torn
# block. (3) A writer rewriting whole blocks while the view is copied
# over and over: every copy decrypts (each block authentic) and every
# block holds one version.
case_change() {
	local p r
	p=$(fresh chg vc) || { fail "reverse[$TAG]: -init"; return; }
	head -c 12288 /dev/urandom >"$p/chg"
	head -c 5000 /dev/urandom >"$p/grow"
	python3 -c 'import os,sys
f = open(sys.argv[1], "wb")
for b in range(64): f.write(bytes([b]) * 4096)' "$p/conc"
	mnt_vc "$p" "$tmp/chg/v" || { fail "reverse[$TAG]: mount"; return; }
	rsync -a "$tmp/chg/v/" "$tmp/chg/copy/"
	r=$(python3 - "$p" "$tmp/chg/v" "$tmp/chg/copy" "$tmp/chg/want" <<'PY'
import os, sys, hashlib
p, v, copy, want = sys.argv[1:5]
def view_of(size):
    return [e for e in os.listdir(v) if os.lstat(os.path.join(v, e)).st_size == size]
out = []
# (1) block 0 rewritten between two requests that cut it
old = open(os.path.join(p, "chg"), "rb").read()
n = view_of(18 + 3 * 4128)
fd = os.open(os.path.join(v, n[0]), os.O_RDONLY | os.O_DIRECT)
a = os.pread(fd, 2100, 0)
w = os.open(os.path.join(p, "chg"), os.O_WRONLY)
os.pwrite(w, os.urandom(4096), 0)
os.close(w)
b = os.pread(fd, 65536, 2100)
os.close(fd)
open(os.path.join(copy, n[0]), "wb").write(a + b)
# (2) grows inside its last block between two requests
oldg = open(os.path.join(p, "grow"), "rb").read()
n2 = view_of(18 + 4128 + 904 + 32)
fd = os.open(os.path.join(v, n2[0]), os.O_RDONLY | os.O_DIRECT)
a = os.pread(fd, 4146 + 300, 0)
w = os.open(os.path.join(p, "grow"), os.O_WRONLY | os.O_APPEND)
os.write(w, os.urandom(2000))
os.close(w)
b = os.pread(fd, 65536, 4146 + 300)
os.close(fd)
open(os.path.join(copy, n2[0]), "wb").write(a + b)
open(want, "w").write("%s %s\n" % (hashlib.sha256(old).hexdigest(), hashlib.sha256(oldg).hexdigest()))
print(n[0], n2[0])
PY
)
	if [ -z "$r" ]; then
		fail "reverse[$TAG]: change: split reads failed"
		umnt "$tmp/chg/v"
		return
	fi
	# (3) concurrent whole-block rewrites while copying
	local cv
	cv=$(python3 -c 'import os,sys
v=sys.argv[1]
print([e for e in os.listdir(v) if os.lstat(os.path.join(v,e)).st_size == 18 + 64 * 4128][0])' "$tmp/chg/v")
	python3 - "$p/conc" <<'PY' &
import os, sys, time
fd = os.open(sys.argv[1], os.O_WRONLY)
end = time.monotonic() + 4
k = 64
while time.monotonic() < end:
    for b in range(64):
        os.pwrite(fd, bytes([(k + b) % 251]) * 4096, b * 4096)
    k += 1
os.close(fd)
PY
	local wpid=$! i
	mkdir -p "$tmp/chg/conc"
	for i in $(seq 1 20); do
		cp "$tmp/chg/v/$cv" "$tmp/chg/conc/$i"
	done
	wait "$wpid"
	umnt "$tmp/chg/v"
	set -- $r
	local f1=$1 f2=$2 got1 got2 want
	mkdir -p "$tmp/chg/f"
	MOUNTS+=("$tmp/chg/f")
	gocryptfs -q -nosyslog -passfile "$PF" "$tmp/chg/copy" "$tmp/chg/f" 2>/dev/null ||
		{ fail "reverse[$TAG]: change: forward mount of the copy"; return; }
	got1=$(sha256sum <"$tmp/chg/f/chg" 2>&1 | cut -c1-64)
	got2=$(sha256sum <"$tmp/chg/f/grow" 2>&1 | cut -c1-64)
	read -r want1 want2 <"$tmp/chg/want"
	[ "$got1" = "$want1" ] &&
		pass "reverse[$TAG]: change: block rewritten between two reads that cut it: the copy holds the old block whole (decrypts)" ||
		fail "reverse[$TAG]: change: split block: got $got1 want $want1"
	[ "$got2" = "$want2" ] &&
		pass "reverse[$TAG]: change: file grew inside its last block between two reads: the copy is the old version" ||
		fail "reverse[$TAG]: change: grown block: got $got2 want $want2"
	# the concurrent copies, decrypted one by one as the conc file
	local bad=0 torn=0 out
	for i in $(seq 1 20); do
		cp "$tmp/chg/conc/$i" "$tmp/chg/copy/$cv"
		out=$(python3 -c 'import sys
try:
    d = open(sys.argv[1], "rb").read()
except OSError as e:
    print("eio"); sys.exit()
t = sum(1 for b in range(0, len(d), 4096) if len(set(d[b:b+4096])) != 1)
print("torn" if t or len(d) != 64 * 4096 else "ok")' "$tmp/chg/f/conc")
		case $out in
		eio) bad=$((bad + 1)) ;;
		torn) torn=$((torn + 1)) ;;
		esac
	done
	umnt "$tmp/chg/f"
	[ "$bad" = 0 ] && [ "$torn" = 0 ] &&
		pass "reverse[$TAG]: change: 20 copies during whole-block rewrites: every block authentic and of one version" ||
		fail "reverse[$TAG]: change: concurrent copies: $bad with EIO, $torn with a mixed block"
}

# -exclude* : the same views as gocryptfs's for the same patterns.
case_exclude() {
	local p row
	p=$(fresh ex vc) || { fail "reverse[$TAG]: -init"; return; }
	printf '%s\n' '# comment' '' '*.txt' '!a.txt' 'dir/sub/' '  one  ' 'N*N' >"$tmp/ex/list1"
	printf '%s\n' '/dir/**/x.txt' '**/lnk2' 'b40?7' '\#x' 'hole' '!hole' >"$tmp/ex/list2"
	printf '%s\n' 'dir' '!dir/b5000' 'sp*se' '[ab]4096' >"$tmp/ex/list3"
	# rows: options for both tools
	local rows=(
		"-exclude a.txt"
		"-exclude dir"
		"-exclude dir/sub"
		"-exclude dir/b5000 -exclude sparse"
		"-e one"
		"-exclude sub"
		"-ew *.txt"
		"-ew b*"
		"-ew dir/*"
		"-ew dir/**/big"
		"-ew **/lnk2"
		"-ew deep/"
		"-exclude-wildcard *4097"
		"-ew *.conf"
		"-exclude .gocryptfs.reverse.conf"
		"-exclude-from $tmp/ex/list1"
		"-exclude-from $tmp/ex/list2"
		"-exclude-from $tmp/ex/list3 -ew hard*"
	)
	set -f # the patterns are for the tools, not for the shell
	for row in "${rows[@]}"; do
		# shellcheck disable=SC2086
		same_view "exclude: $row" "$p" $row
	done
	set +f
	# plaintextnames too
	p=$(fresh ex2 vc -plaintextnames) || { fail "reverse[$TAG]: -init"; return; }
	same_view "exclude (-plaintextnames): -ew *.txt -exclude dir/sub" "$p" -ew '*.txt' -exclude dir/sub
	local rc rc_go
	mkdir -p "$tmp/ex/v"
	"$VC" -q -reverse -passfile "$PF" -exclude-from "$tmp/nonexistent" "$p" "$tmp/ex/v" 2>/dev/null
	rc=$?
	mountpoint -q "$tmp/ex/v" 2>/dev/null && umnt "$tmp/ex/v"
	gocryptfs -q -nosyslog -reverse -passfile "$PF" -exclude-from "$tmp/nonexistent" "$p" "$tmp/ex/v" >/dev/null 2>&1
	rc_go=$?
	mountpoint -q "$tmp/ex/v" 2>/dev/null && umnt "$tmp/ex/v"
	[ "$rc" = 29 ] && [ "$rc_go" = 29 ] && pass "reverse[$TAG]: unreadable -exclude-from -> 29 (as gocryptfs)" ||
		fail "reverse[$TAG]: unreadable -exclude-from exited $rc (gocryptfs $rc_go)"
}

# -one-file-system: another file system's mount point is an empty dir.
case_onefs() {
	local p
	p=$(fresh ofs vc) || { fail "reverse[$TAG]: -init"; return; }
	mkdir "$p/tmpfs"
	if ! mount -t tmpfs -o size=1m none "$p/tmpfs" 2>/dev/null; then
		if [ "${CI:-}" = true ]; then
			fail "reverse[$TAG]: -one-file-system: cannot mount a tmpfs"
		else
			echo "SKIP: reverse[$TAG]: -one-file-system (cannot mount a tmpfs here)"
		fi
		return
	fi
	printf inside >"$p/tmpfs/file"
	same_view "-one-file-system" "$p" -one-file-system
	same_view "without -one-file-system (mount point crossed)" "$p"
	umount "$p/tmpfs"
}

# Exit codes of the reverse command lines, equal to gocryptfs's.
case_cli() {
	local d=$tmp/cli rc_vc rc_go line
	rm -rf "$d"
	mkdir -p "$d/p" "$d/m" "$d/fwd" "$d/p2"
	printf x >"$d/p/f"
	"$VC" -q -init -scryptn 10 -passfile "$PF" "$d/fwd" >/dev/null 2>&1
	local lines=(
		"-init -reverse -scryptn 10 -passfile $PF $d/p"
		"-init -reverse -scryptn 10 -passfile $PF $d/p"
		"-init -reverse -xchacha -scryptn 10 -passfile $PF $d/p2"
		"-init -reverse -scryptn 10 -passfile $PF $d/nonex"
		"-reverse -passfile $PF $d/fwd $d/m"
		"-reverse -config $d/fwd/gocryptfs.conf -passfile $PF $d/fwd $d/m"
		"-exclude x -passfile $PF $d/fwd $d/m"
		"-fsck -reverse -passfile $PF $d/p"
		"-reverse -passfile $PF $d/p $d/p"
		"-reverse -passfile $PF $d/p"
		"-info -reverse $d/p"
	)
	local i
	for i in "${!lines[@]}"; do
		line=${lines[$i]}
		# shellcheck disable=SC2086
		"$VC" -q $line >/dev/null 2>&1 </dev/null
		rc_vc=$?
		mountpoint -q "$d/m" && umnt "$d/m"
		rm -f "$d/p2/.gocryptfs.reverse.conf"
		[ "$i" = 0 ] && rm -f "$d/p/.gocryptfs.reverse.conf"
		# shellcheck disable=SC2086
		gocryptfs -q -nosyslog $line >/dev/null 2>&1 </dev/null
		rc_go=$?
		mountpoint -q "$d/m" && umnt "$d/m"
		[ "$rc_vc" = "$rc_go" ] &&
			pass "reverse[$TAG]: exit code $rc_vc as gocryptfs: ${line//$d/D}" ||
			fail "reverse[$TAG]: ${line//$d/D}: vcryptfs $rc_vc, gocryptfs $rc_go"
	done
}

# -allow_other: other users see the view under its permission bits.
case_allow_other() {
	local p r
	p=$(fresh ao vc) || { fail "reverse[$TAG]: -init"; return; }
	chmod 755 "$tmp/ao"
	printf open >"$p/pub"
	chmod 644 "$p/pub"
	printf sec1 >"$p/priv"
	chmod 600 "$p/priv"
	mnt_vc "$p" "$tmp/ao/v" -allow_other || { fail "reverse[$TAG]: mount -allow_other"; return; }
	r=$(setpriv --reuid=65534 --regid=65534 --clear-groups /usr/bin/python3 - "$tmp/ao/v" "$(stat -c %s "$p/pub")" <<'PY'
import os, sys
v = sys.argv[1]
res = {}
for e in os.listdir(v):
    p = os.path.join(v, e)
    if os.path.islink(p) or not os.path.isfile(p):
        continue
    st = os.lstat(p)
    if st.st_size != 18 + 32 + 4:
        continue
    try:
        open(p, "rb").read()
        res["%o" % (st.st_mode & 0o777)] = "read"
    except PermissionError:
        res["%o" % (st.st_mode & 0o777)] = "EACCES"
print(res.get("644"), res.get("600"))
PY
)
	umnt "$tmp/ao/v"
	[ "$r" = "read EACCES" ] &&
		pass "reverse[$TAG]: -allow_other: another user reads a 0644 view file, gets EACCES on a 0600 one" ||
		fail "reverse[$TAG]: -allow_other as nobody: $r"
}

CASES=(case_default case_plaintextnames case_deterministic case_longnamemax
	case_hardlink case_roundtrip case_sparse case_readonly case_change case_exclude
	case_onefs case_cli case_allow_other)
VC=$VCN TAG=normal
run_cases "${CASES[@]}"
if [ "${REVERSE_SAN:-1}" = 0 ]; then
	echo "SKIP: reverse: ASan/UBSan daemon (REVERSE_SAN=0)"
	exit 0
fi
san_log_to "$tmp/san"
VC=$VCS TAG=san
run_cases "${CASES[@]}"
if ls "$tmp/san"/* >/dev/null 2>&1; then
	fail "reverse: sanitizer reports: $(head -c 1500 "$tmp"/san/* | grep -E 'ERROR|runtime error|SUMMARY|#[0-9] ' | head -n 12)"
else
	pass "reverse: the ASan/UBSan daemon ran every case without a report"
fi
exit 0
