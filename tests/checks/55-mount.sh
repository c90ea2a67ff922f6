#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# group: mount: real FUSE mounts of the vcryptfs daemon (src/fuse).
# 1. both ../shared/examples cipherdirs (copied first) match MANIFEST.txt;
# 2. POSIX cases on a fresh volume (write/read across block edges, RMW,
#    truncate, holes, append, rename incl. NOREPLACE/EXCHANGE, symlinks,
#    xattrs, hard links, long names, mkdir/rmdir, fallocate, tamper -> EIO);
# 3. cross-compatibility with gocryptfs 2.3 both ways (+ gocryptfs -fsck),
#    per option set. Mounts use the vcmount driver (known master key, like
#    gocryptfs -masterkey); VCMOUNT=... selects another binary (e.g. the
#    ASan/UBSan build). Every mount is unmounted by the EXIT trap.
. "$(dirname "$0")/lib.sh"
need_tool fusermount3 || exit 0
need_tool python3 || exit 0
need_fuse mount || exit 0
VCM=${VCMOUNT:-$BUILD/tools/vcmount}
if [ ! -x "$VCM" ]; then
	fail "mount: $VCM not built (make tests-build)"
	exit 0
fi
EX=${VCRYPTFS_SHARED:-${VCRYPTFS_ROOT:-$PWD}/../shared}/examples
tmp=$(mktemp -d /tmp/vcryptfs-55.XXXXXX)
MOUNTS=()
cleanup() {
	unmount_all "${MOUNTS[@]}"
	mountpoint -q "$tmp/small" 2>/dev/null && umount "$tmp/small"
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
# A sanitized daemon logs to files (its stderr is /dev/null once it runs in
# the background); any report there is a failure (checked at the end).
SANITIZED=0
if nm "$VCM" 2>/dev/null | grep -q __asan_init; then
	SANITIZED=1
	san_log_to "$tmp/san"
fi

KEY_GCM=de59192123be4ef380b8e19e3e77ecb09349fa48ebe28b53e098c84a02065604
KEY_XC=678ed40f44831fef7e1b60a87dce50233a4105e4d3a07eadd45782b2110dc03e
KEY=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef

# vc_mount CIPHERDIR MNT [vcmount flags...]
vc_mount() {
	local c=$1 m=$2
	shift 2
	mkdir -p "$m"
	MOUNTS+=("$m")
	"$VCM" -q "$@" "$c" "$m"
}
go_mount() {
	local c=$1 m=$2
	shift 2
	mkdir -p "$m"
	MOUNTS+=("$m")
	gocryptfs -q -nosyslog "$@" "$c" "$m"
}
umnt() {
	fusermount3 -u "$1" || { sleep 1; fusermount3 -u "$1"; }
}

# Listing of a tree: type, path, size, sha256 / target, link count,
# permission bits, user xattrs (name=sha256 of value).
cat >"$tmp/treesum.py" <<'PY'
import hashlib, os, stat, sys
root = sys.argv[1]
out = []
for d, dirs, files in os.walk(root):
    dirs.sort()
    for n in sorted(dirs + files):
        p = os.path.join(d, n)
        rel = os.path.relpath(p, root)
        st = os.lstat(p)
        xa = ""
        if not stat.S_ISLNK(st.st_mode):
            try:
                names = sorted(x for x in os.listxattr(p, follow_symlinks=False)
                               if x.startswith("user."))
                xa = ",".join("%s=%s" % (x, hashlib.sha256(
                    os.getxattr(p, x, follow_symlinks=False)).hexdigest()[:16])
                    for x in names)
            except OSError as e:
                xa = "xattr-error:%d" % e.errno
        perm = "%o" % stat.S_IMODE(st.st_mode)
        if stat.S_ISREG(st.st_mode):
            with open(p, "rb") as f:
                h = hashlib.sha256(f.read()).hexdigest()
            out.append("file %s %d %s n%d %s %s %s" % (rel, st.st_size, h,
                       st.st_nlink, perm, xa,
                       int(st.st_mtime) if st.st_mtime < 1e9 else "-"))
        elif stat.S_ISLNK(st.st_mode):
            out.append("symlink %s %d %s" % (rel, st.st_size, os.readlink(p)))
        elif stat.S_ISDIR(st.st_mode):
            out.append("dir %s %s %s" % (rel, perm, xa))
        else:
            out.append("other %s %o" % (rel, stat.S_IFMT(st.st_mode)))
print("\n".join(out))
PY
treesum() { python3 "$tmp/treesum.py" "$1"; }

# ---------------------------------------------------------------------------
# 1. The gocryptfs 2.3 examples against MANIFEST.txt
# (prep_example, in lib.sh, restores the symlinks that git stores as files)
check_manifest() { # MNT MANIFEST LABEL
	local m=$1 man=$2 label=$3 bad=0 kind sum size path got want n=0
	while IFS=$'\t' read -r kind sum size path; do
		case "$kind" in "#"* | "") continue ;; esac
		n=$((n + 1))
		case "$kind" in
		file)
			got=$(sha256sum <"$m/$path" 2>&1 | cut -d' ' -f1)
			[ "$got" = "$sum" ] && [ "$(stat -c %s "$m/$path")" = "$size" ] ||
				{ bad=1; echo "  mismatch: $path"; }
			;;
		symlink)
			[ "$(readlink "$m/$path")" = "$sum" ] &&
				[ "$(stat -c %s "$m/$path")" = "$size" ] ||
				{ bad=1; echo "  mismatch: $path"; }
			;;
		dir) [ -d "$m/$path" ] || { bad=1; echo "  missing dir: $path"; } ;;
		esac
	done <"$man"
	want=$n
	got=$(cd "$m" && find . -mindepth 1 | wc -l)
	[ "$got" = "$want" ] || { bad=1; echo "  $got entries, manifest $want"; }
	if [ "$bad" = 0 ] && [ "$n" -gt 0 ]; then
		pass "mount: $label matches MANIFEST.txt ($n entries)"
	else
		fail "mount: $label does not match MANIFEST.txt"
	fi
}
for ex in aesgcm:$KEY_GCM: xchacha:$KEY_XC:-xchacha; do
	IFS=: read -r name key flag <<<"$ex"
	d=$EX/gocryptfs-2.3-$name
	if [ ! -d "$d/cipherdir" ]; then
		fail "mount: example $d missing"
		continue
	fi
	prep_example "$d/cipherdir" "$tmp/ex-$name"
	if vc_mount "$tmp/ex-$name" "$tmp/m-$name" -ro $flag -masterkey "$key"; then
		check_manifest "$tmp/m-$name" "$d/MANIFEST.txt" "example $name"
		if find "$tmp/m-$name" -name 'gocryptfs.*' | grep -q .; then
			fail "mount: example $name lists gocryptfs.* files"
		else
			pass "mount: example $name hides gocryptfs.conf/diriv/.name"
		fi
		if touch "$tmp/m-$name/new" 2>/dev/null; then
			fail "mount: -ro mount accepted a new file"
		else
			pass "mount: -ro mount refuses writes"
		fi
		umnt "$tmp/m-$name"
	else
		fail "mount: example $name did not mount"
	fi
done

# ---------------------------------------------------------------------------
# 2. POSIX-ish cases on a fresh default volume, mirrored on a plain dir
head -c $((1024 * 1024 + 13)) /dev/urandom >"$tmp/rand"
new_cipherdir() { # DIR [plaintext|deterministic]
	mkdir -p "$1"
	case "${2:-}" in
	-plaintextnames | -deterministic-names) ;;
	*) head -c 16 /dev/urandom >"$1/gocryptfs.diriv" && chmod 444 "$1/gocryptfs.diriv" ;;
	esac
}
# make_tree DIR: the same operations on any directory
make_tree() {
	local d=$1 s long
	for s in 0 1 18 4095 4096 4097 8192 12289 $((1024 * 1024 + 13)); do
		head -c "$s" "$tmp/rand" >"$d/f$s"
	done
	mkdir -p "$d/sub/deeper"
	printf 'hello\n' >"$d/sub/deeper/x.txt"
	# sparse: hole in the middle, and a write past EOF
	printf start >"$d/sparse"
	dd if="$tmp/rand" of="$d/sparse" bs=1 count=7 seek=20000 conv=notrunc status=none
	truncate -s 12288 "$d/holes" && printf end >>"$d/holes"
	# partial overwrite inside a big file and across a block edge
	dd if=/dev/zero of="$d/f$((1024 * 1024 + 13))" bs=1 count=100 seek=4050 conv=notrunc status=none
	dd if=/dev/zero of="$d/f8192" bs=1 count=10 seek=8190 conv=notrunc status=none
	# truncates: shrink into a block, grow unaligned and aligned
	cp "$d/f12289" "$d/t1" && truncate -s 5000 "$d/t1"
	cp "$d/f4097" "$d/t2" && truncate -s 20001 "$d/t2"
	cp "$d/f18" "$d/t3" && truncate -s 16384 "$d/t3"
	printf more >>"$d/f4095"
	# renames
	cp "$d/f1" "$d/ren-a" && mv "$d/ren-a" "$d/sub/ren-b"
	mkdir "$d/rdir" && printf z >"$d/rdir/z" && mv "$d/rdir" "$d/sub/rdir2"
	printf old >"$d/over" && printf new >"$d/src" && mv "$d/src" "$d/over"
	mkdir "$d/emptytarget" "$d/emptysrc" && mv -T "$d/emptysrc" "$d/emptytarget"
	# symlinks, hard links, long names, xattrs, modes
	ln -s f4096 "$d/link" && ln -s ../../f1 "$d/sub/deeper/up"
	ln -s "$(printf 'x%.0s' $(seq 1 300))" "$d/longtarget"
	ln "$d/f4097" "$d/hard"
	long=$(printf 'L%.0s' $(seq 1 200))
	printf longname >"$d/$long" && mkdir "$d/$long.d"
	ln "$d/$long" "$d/$long.hl"
	mv "$d/$long.hl" "$d/sub/$long.moved"
	printf 255 >"$d/$(printf 'N%.0s' $(seq 1 255))"
	setfattr -n user.comment -v vcryptfs "$d/f1"
	setfattr -n user.empty "$d/f0"
	setfattr -n user.big -v "$(head -c 1000 "$tmp/rand" | base64 -w0)" "$d/sub"
	chmod 600 "$d/f18" && chmod 750 "$d/sub/deeper"
	mkdir "$d/gone" && rmdir "$d/gone"
	printf x >"$d/del" && rm "$d/del"
	fallocate -l 10000 "$d/falloc"
	mkfifo "$d/fifo"
	touch -d '2001-02-03 04:05:06' "$d/f1"
	: >"$d/emptyfile"
}
vol=$tmp/vol
ref=$tmp/ref
mnt=$tmp/mnt
mkdir -p "$ref"
new_cipherdir "$vol"
if vc_mount "$vol" "$mnt" -masterkey "$KEY"; then
	pass "mount: fresh default volume mounted"
	make_tree "$ref" 2>"$tmp/ref.err"
	if make_tree "$mnt" 2>"$tmp/mnt.err"; then :; fi
	if [ -s "$tmp/mnt.err" ]; then
		fail "mount: tree ops printed errors: $(head -c 400 "$tmp/mnt.err")"
	fi
	treesum "$ref" >"$tmp/ref.sum"
	treesum "$mnt" >"$tmp/mnt.sum"
	if diff "$tmp/ref.sum" "$tmp/mnt.sum" >"$tmp/diff"; then
		pass "mount: write/RMW/truncate/holes/rename/link/xattr tree identical to plain dir ($(wc -l <"$tmp/ref.sum") entries)"
	else
		fail "mount: tree differs from plain dir: $(head -c 600 "$tmp/diff")"
	fi
	# expected errors
	chk_err() { # LABEL EXPECTED-ERRNO-NAME CMD...
		local label=$1 want=$2 got
		shift 2
		got=$(python3 -c 'import errno,os,sys
try:
    exec(sys.argv[1])
    print("OK")
except OSError as e:
    print(errno.errorcode[e.errno])' "$*")
		if [ "$got" = "$want" ]; then pass "mount: $label -> $want"; else fail "mount: $label gave $got, want $want"; fi
	}
	chk_err "rmdir non-empty" ENOTEMPTY "os.rmdir('$mnt/sub')"
	chk_err "mkdir existing" EEXIST "os.mkdir('$mnt/sub')"
	chk_err "open missing" ENOENT "open('$mnt/nope')"
	chk_err "name of 256 bytes" ENAMETOOLONG "open('$mnt/' + 'a'*256, 'w')"
	chk_err "unlink a dir" EISDIR "os.unlink('$mnt/sub')"
	chk_err "rmdir a file" ENOTDIR "os.rmdir('$mnt/f1')"
	chk_err "getxattr missing" ENODATA "os.getxattr('$mnt/f1', 'user.nope')"
	# punch hole (mode 3 = PUNCH_HOLE|KEEP_SIZE) works as on a plain dir
	# (gocryptfs 2.3 says ENOTSUP); tests/fs/fsposix.c checks the zeros
	chk_err "fallocate punch hole" OK "import fcntl; fd=os.open('$mnt/f4096', os.O_RDWR); os.posix_fallocate(fd, 0, 1) if False else None; import ctypes; libc=ctypes.CDLL(None, use_errno=True); r=libc.fallocate(fd, 3, ctypes.c_long(0), ctypes.c_long(4096)); e=ctypes.get_errno(); os.close(fd); (_ for _ in ()).throw(OSError(e, 'x')) if r else None"
	# renameat2 flags through ctypes (AT_FDCWD = -100)
	ren2='import ctypes; libc=ctypes.CDLL(None, use_errno=True); r=libc.renameat2(-100, A.encode(), -100, B.encode(), F); e=ctypes.get_errno(); (_ for _ in ()).throw(OSError(e, "x")) if r else None'
	printf one >"$mnt/x1" && printf two >"$mnt/x2"
	chk_err "RENAME_NOREPLACE onto existing" EEXIST "A='$mnt/x1'; B='$mnt/x2'; F=1; $ren2"
	chk_err "RENAME_EXCHANGE" OK "A='$mnt/x1'; B='$mnt/x2'; F=2; $ren2"
	if [ "$(cat "$mnt/x1")$(cat "$mnt/x2")" = twoone ]; then
		pass "mount: RENAME_EXCHANGE swapped contents"
	else
		fail "mount: RENAME_EXCHANGE did not swap"
	fi
	rm -f "$mnt/x1" "$mnt/x2"
	# SEEK_DATA/SEEK_HOLE: holes reported only where the file reads zeros
	head -c 5000 "$tmp/rand" >"$mnt/sk" && truncate -s 200000 "$mnt/sk" &&
		printf tail >>"$mnt/sk"
	if python3 - "$mnt/sk" <<'PY'
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
PY
	then
		pass "mount: SEEK_DATA/SEEK_HOLE report zero-reading holes only"
	else
		fail "mount: SEEK_DATA/SEEK_HOLE wrong"
	fi
	rm -f "$mnt/sk"
	# concurrency: two processes rewrite the two halves of one file; the
	# block holding the boundary is read-modify-written by both (the
	# per-inode lock must keep both halves); plus random I/O on own files
	if python3 - "$mnt" <<'PY'
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
PY
	then
		pass "mount: concurrent RMW of a shared block and random I/O match the model"
	else
		fail "mount: concurrent writers lost data"
	fi
	if [ "$(stat -c %i "$mnt/f4097")" = "$(stat -c %i "$mnt/hard")" ] &&
		[ "$(stat -c %h "$mnt/hard")" = 2 ]; then
		pass "mount: hard link shares inode number, nlink 2"
	else
		fail "mount: hard link inode/nlink wrong"
	fi
	# ciphertext side: no plaintext names, .name files for long names
	if find "$vol" -name f4096 -o -name sub | grep -q .; then
		fail "mount: plaintext names visible in the cipherdir"
	else
		pass "mount: cipherdir holds encrypted names only"
	fi
	nn=$(find "$vol" -name 'gocryptfs.longname.*.name' | wc -l)
	if [ "$nn" = 4 ]; then
		pass "mount: long names have .name files (4)"
	else
		fail "mount: $nn long-name .name files, want 4"
	fi
	if find "$vol" -name 'gocryptfs.diriv.rmdir.*' | grep -q .; then
		fail "mount: rmdir left gocryptfs.diriv.rmdir.* behind"
	else
		pass "mount: rmdir cleaned up its diriv"
	fi
	: >"$vol/conflicted copy (1)"
	if ls "$mnt" >"$tmp/ls.out" 2>&1 && ! grep -q conflicted "$tmp/ls.out" &&
		[ "$(wc -l <"$tmp/ls.out")" = "$(find "$ref" -mindepth 1 -maxdepth 1 | wc -l)" ]; then
		pass "mount: undecryptable backing names are hidden from listings"
	else
		fail "mount: undecryptable name handling: $(head -c 200 "$tmp/ls.out")"
	fi
	rm -f "$vol/conflicted copy (1)"
	(umask 002 && : >"$mnt/um-f" && mkdir "$mnt/um-d")
	if [ "$(stat -c %a "$mnt/um-f" "$mnt/um-d" | tr '\n' ' ')" = "664 775 " ]; then
		pass "mount: the caller's umask (002) decides new modes"
	else
		fail "mount: new modes $(stat -c %a "$mnt/um-f" "$mnt/um-d" | tr '\n' ' '), want 664 775"
	fi
	rm -rf "$mnt/um-f" "$mnt/um-d"
	df "$mnt" >/dev/null 2>&1 && pass "mount: statfs works" || fail "mount: statfs failed"
	umnt "$mnt" && pass "mount: fusermount3 -u unmounted" || fail "mount: unmount failed"
	# a streaming read of a file that this mount has not written reads the
	# backing file with O_DIRECT (rw.c): the bytes are right and the
	# ciphertext does not stay in the page cache beside the plaintext. The
	# 4 MiB read-ahead (mount.c, as root) makes the READs 1 MiB.
	head -c 5000123 /dev/urandom >"$tmp/big5"
	vc_mount "$vol" "$mnt" -masterkey "$KEY"
	cp "$tmp/big5" "$mnt/big5"
	enc=$(stat -c %i "$mnt/big5")
	umnt "$mnt"
	cf=$(find "$vol" -xdev -inum "$enc" | head -n1)
	# written back and dropped from the page cache (no root needed)
	python3 -c 'import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
os.fsync(fd)
os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)' "$cf"
	vc_mount "$vol" "$mnt" -masterkey "$KEY"
	dev=$(stat -c %d "$mnt")
	ra=/sys/class/bdi/$((dev >> 8)):$((dev & 255))/read_ahead_kb
	for _ in $(seq 20); do
		[ "$(cat "$ra" 2>/dev/null)" = 4096 ] && break
		sleep 0.1
	done
	before=$(fincore -b -n -o RES "$cf" | tr -d " ")
	# an open for reading starts the disk on the file's first 128 KiB
	python3 -c 'import os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY)
time.sleep(0.2)
os.close(fd)' "$mnt/big5"
	opened=$(fincore -b -n -o RES "$cf" | tr -d " ")
	if [ "$before" = 0 ] && [ "$opened" -ge 131072 ]; then
		pass "mount: opening a file fetched $opened bytes of its ciphertext before the first READ"
	else
		fail "mount: opening a file left $opened bytes of its ciphertext in the page cache (before: $before), want the first 128 KiB"
	fi
	if cmp -s "$tmp/big5" "$mnt/big5"; then
		after=$(fincore -b -n -o RES "$cf" | tr -d " ")
		# the first READs of the read-ahead ramp are smaller and buffered
		csize=$(stat -c %s "$cf")
		if [ "$(cat "$ra" 2>/dev/null)" = 4096 ] &&
			[ "$after" -lt $((csize / 2)) ]; then
			pass "mount: a 5 MB file read after a remount is identical and left $after of its $csize ciphertext bytes in the page cache (before: $before)"
		else
			fail "mount: a 5 MB file read after a remount left $after of its $csize ciphertext bytes in the page cache (before: $before; read-ahead $(cat "$ra" 2>/dev/null) KiB)"
		fi
	else
		fail "mount: a 5 MB file differs when read after a remount"
	fi
	# the plaintext the read cached survives the next open (fincore's own)
	kept=$(fincore -b -n -o RES "$mnt/big5" | tr -d " ")
	if [ "$kept" -ge 5000123 ]; then
		pass "mount: a new open keeps the $kept cached plaintext bytes of a file"
	else
		fail "mount: a new open kept $kept cached plaintext bytes of a 5000123-byte file"
	fi
	rm -f "$mnt/big5"
	umnt "$mnt"
	# tamper: one flipped ciphertext byte -> EIO
	vc_mount "$vol" "$mnt" -masterkey "$KEY"
	enc=$(cd "$mnt" && python3 -c 'import os; print(os.stat("f4096").st_ino)')
	cf=$(find "$vol" -xdev -inum "$enc" | head -n1)
	umnt "$mnt"
	printf '\xff' | dd of="$cf" bs=1 seek=100 conv=notrunc status=none
	vc_mount "$vol" "$mnt" -masterkey "$KEY"
	if cat "$mnt/f4096" >/dev/null 2>"$tmp/eio"; then
		fail "mount: tampered block was returned"
	elif grep -q 'Input/output error' "$tmp/eio"; then
		pass "mount: tampered block -> EIO"
	else
		fail "mount: tampered block gave $(cat "$tmp/eio")"
	fi
	umnt "$mnt"
else
	fail "mount: fresh default volume did not mount"
fi
# ENOSPC: preallocation keeps blocks whole on a full backing filesystem
if [ "$(id -u)" = 0 ] && mkdir -p "$tmp/small" &&
	mount -t tmpfs -o size=2m vcryptfs-test "$tmp/small" 2>/dev/null; then
	new_cipherdir "$tmp/small/c"
	if vc_mount "$tmp/small/c" "$tmp/sm" -masterkey "$KEY"; then
		cat "$tmp/rand" "$tmp/rand" "$tmp/rand" >"$tmp/rand3"
		if cp "$tmp/rand3" "$tmp/sm/big" 2>/dev/null; then
			fail "mount: 3 MB into a 2 MB backing fs did not fail"
		elif cat "$tmp/sm/big" >/dev/null 2>&1 &&
			cmp -s <(head -c "$(stat -c %s "$tmp/sm/big")" "$tmp/rand3") "$tmp/sm/big"; then
			pass "mount: ENOSPC fails the write, the file stays readable and intact"
		else
			fail "mount: after ENOSPC the file is torn or unreadable"
		fi
		umnt "$tmp/sm"
	fi
	umount "$tmp/small"
fi

# ---------------------------------------------------------------------------
# 3. Cross-compatibility with gocryptfs 2.3, both directions
# With a working command line, section 4 covers every option set through
# configs; then this -masterkey round only runs default and -plaintextnames.
X3_OPTS=(default -xchacha -aessiv -plaintextnames -deterministic-names "-longnamemax 64")
if [ -x "$BUILD/vcryptfs" ] && "$BUILD/vcryptfs" -h 2>&1 | grep -q -- -init; then
	X3_OPTS=(default -plaintextnames)
fi
if need_tool gocryptfs; then
	for opt in "${X3_OPTS[@]}"; do
		f=()
		[ "$opt" = default ] || read -r -a f <<<"$opt"
		tag=${opt// /}
		# vcryptfs writes, gocryptfs reads and checks
		c=$tmp/x$tag-a
		new_cipherdir "$c" "${f[0]:-}"
		rm -rf "$tmp/r"
		mkdir -p "$tmp/r"
		make_tree "$tmp/r" 2>/dev/null
		treesum "$tmp/r" >"$tmp/r.sum"
		if vc_mount "$c" "$tmp/xm" "${f[@]}" -masterkey "$KEY"; then
			make_tree "$tmp/xm" 2>/dev/null
			umnt "$tmp/xm"
			if go_mount "$c" "$tmp/xm" -masterkey="$KEY" "${f[@]}"; then
				treesum "$tmp/xm" >"$tmp/g.sum"
				umnt "$tmp/xm"
				if diff "$tmp/r.sum" "$tmp/g.sum" >"$tmp/diff"; then
					pass "mount: $opt: vcryptfs-written tree reads back identically in gocryptfs"
				else
					fail "mount: $opt: gocryptfs sees a different tree: $(head -c 400 "$tmp/diff")"
				fi
			else
				fail "mount: $opt: gocryptfs could not mount the vcryptfs volume"
			fi
			if gocryptfs -fsck -q -masterkey="$KEY" "${f[@]}" "$c" >"$tmp/fsck" 2>&1; then
				pass "mount: $opt: gocryptfs -fsck finds no problems"
			else
				fail "mount: $opt: gocryptfs -fsck: $(tail -n 3 "$tmp/fsck")"
			fi
		else
			fail "mount: $opt: vcryptfs did not mount"
		fi
		# gocryptfs writes, vcryptfs reads
		c=$tmp/x$tag-b
		new_cipherdir "$c" "${f[0]:-}"
		if go_mount "$c" "$tmp/xm" -masterkey="$KEY" "${f[@]}"; then
			make_tree "$tmp/xm" 2>/dev/null
			umnt "$tmp/xm"
			if vc_mount "$c" "$tmp/xm" "${f[@]}" -masterkey "$KEY"; then
				treesum "$tmp/xm" >"$tmp/v.sum"
				umnt "$tmp/xm"
				if diff "$tmp/r.sum" "$tmp/v.sum" >"$tmp/diff"; then
					pass "mount: $opt: gocryptfs-written tree reads back identically in vcryptfs"
				else
					fail "mount: $opt: vcryptfs sees a different tree: $(head -c 400 "$tmp/diff")"
				fi
			else
				fail "mount: $opt: vcryptfs could not mount the gocryptfs volume"
			fi
		else
			fail "mount: $opt: gocryptfs did not mount"
		fi
	done
fi

# ---------------------------------------------------------------------------
# 4. The real command line: vcryptfs -init / mount with -passfile, exit
#    codes, -fg with SIGTERM (exit 15), and both directions with configs.
VC=$BUILD/vcryptfs
printf 'vc-test-password\n' >"$tmp/pf"
if [ -x "$VC" ] && "$VC" -init -scryptn 10 -passfile "$tmp/pf" "$tmp/cli-probe" \
	>/dev/null 2>&1 || { mkdir -p "$tmp/cli-probe" &&
	"$VC" -init -scryptn 10 -passfile "$tmp/pf" "$tmp/cli-probe" >/dev/null 2>&1; }; then
	cli_mount() { # CIPHERDIR MNT [flags]
		local c=$1 m=$2
		shift 2
		mkdir -p "$m"
		MOUNTS+=("$m")
		"$VC" -q -passfile "$tmp/pf" "$@" "$c" "$m"
	}
	for ex in aesgcm xchacha; do
		d=$EX/gocryptfs-2.3-$ex
		rm -rf "$tmp/cex"
		prep_example "$d/cipherdir" "$tmp/cex"
		mkdir -p "$tmp/cm" && MOUNTS+=("$tmp/cm")
		if "$VC" -q -ro -passfile "$d/passfile.txt" "$tmp/cex" "$tmp/cm"; then
			check_manifest "$tmp/cm" "$d/MANIFEST.txt" "example $ex via vcryptfs -passfile"
			umnt "$tmp/cm"
		else
			fail "mount: vcryptfs -passfile could not mount example $ex"
		fi
	done
	for opt in default -xchacha -aessiv -plaintextnames -deterministic-names "-longnamemax 64"; do
		f=()
		[ "$opt" = default ] || read -r -a f <<<"$opt"
		tag=${opt// /}
		c=$tmp/cli$tag-a
		mkdir -p "$c"
		if ! "$VC" -init -scryptn 10 -passfile "$tmp/pf" "${f[@]}" "$c" >/dev/null 2>&1; then
			fail "mount: vcryptfs -init $opt failed"
			continue
		fi
		if cli_mount "$c" "$tmp/cm"; then
			make_tree "$tmp/cm" 2>/dev/null
			umnt "$tmp/cm"
			if go_mount "$c" "$tmp/cm" -passfile "$tmp/pf"; then
				treesum "$tmp/cm" >"$tmp/g.sum"
				umnt "$tmp/cm"
				if diff "$tmp/r.sum" "$tmp/g.sum" >"$tmp/diff"; then
					pass "mount: cli $opt: vcryptfs -init + mount, gocryptfs reads the same tree"
				else
					fail "mount: cli $opt: gocryptfs sees a different tree: $(head -c 300 "$tmp/diff")"
				fi
			else
				fail "mount: cli $opt: gocryptfs could not mount a vcryptfs -init volume"
			fi
			if gocryptfs -fsck -q -passfile "$tmp/pf" "$c" >"$tmp/fsck" 2>&1; then
				pass "mount: cli $opt: gocryptfs -fsck finds no problems"
			else
				fail "mount: cli $opt: gocryptfs -fsck: $(tail -n 3 "$tmp/fsck")"
			fi
		else
			fail "mount: cli $opt: vcryptfs could not mount its own volume"
		fi
		c=$tmp/cli$tag-b
		mkdir -p "$c"
		gocryptfs -q -init -scryptn 10 -passfile "$tmp/pf" "${f[@]}" "$c" >/dev/null 2>&1
		if go_mount "$c" "$tmp/cm" -passfile "$tmp/pf"; then
			make_tree "$tmp/cm" 2>/dev/null
			umnt "$tmp/cm"
			if cli_mount "$c" "$tmp/cm"; then
				treesum "$tmp/cm" >"$tmp/v.sum"
				umnt "$tmp/cm"
				if diff "$tmp/r.sum" "$tmp/v.sum" >"$tmp/diff"; then
					pass "mount: cli $opt: gocryptfs -init volume reads back identically in vcryptfs"
				else
					fail "mount: cli $opt: vcryptfs sees a different tree: $(head -c 300 "$tmp/diff")"
				fi
			else
				fail "mount: cli $opt: vcryptfs could not mount a gocryptfs -init volume"
			fi
		else
			fail "mount: cli $opt: gocryptfs -init/mount failed"
		fi
	done
	# exit codes and the life cycle
	c=$tmp/clidefault-a
	mkdir -p "$tmp/nonempty" && : >"$tmp/nonempty/x"
	"$VC" -q -passfile "$tmp/pf" "$c" "$tmp/nonempty" >/dev/null 2>&1
	rc=$?
	[ "$rc" = 10 ] && pass "mount: non-empty mountpoint -> exit 10" ||
		fail "mount: non-empty mountpoint gave exit $rc, want 10"
	printf 'wrong\n' >"$tmp/pf-wrong"
	mkdir -p "$tmp/cm"
	"$VC" -q -passfile "$tmp/pf-wrong" "$c" "$tmp/cm" >/dev/null 2>&1
	rc=$?
	[ "$rc" = 12 ] && pass "mount: wrong password -> exit 12" ||
		fail "mount: wrong password gave exit $rc, want 12"
	mountpoint -q "$tmp/cm" && umnt "$tmp/cm"
	got_usr1=0
	trap 'got_usr1=1' USR1
	"$VC" -fg -notifypid $$ -passfile "$tmp/pf" "$c" "$tmp/cm" >"$tmp/fg.out" 2>&1 &
	fgpid=$!
	for _ in $(seq 1 50); do mountpoint -q "$tmp/cm" && break; sleep 0.1; done
	if mountpoint -q "$tmp/cm" && grep -q 'Filesystem mounted and ready.' "$tmp/fg.out"; then
		pass "mount: -fg mounts and prints the ready line"
	else
		fail "mount: -fg did not mount"
	fi
	for _ in $(seq 1 20); do [ "$got_usr1" = 1 ] && break; sleep 0.1; done
	trap - USR1
	if [ "$got_usr1" = 1 ]; then
		pass "mount: -notifypid sent SIGUSR1 after mounting"
	else
		fail "mount: -notifypid sent no SIGUSR1"
	fi
	kill -TERM "$fgpid"
	wait "$fgpid"
	rc=$?
	if [ "$rc" = 15 ] && ! mountpoint -q "$tmp/cm"; then
		pass "mount: SIGTERM in -fg unmounts, exit 15"
	else
		fail "mount: SIGTERM in -fg gave exit $rc (mounted: $(mountpoint -q "$tmp/cm" && echo yes || echo no))"
	fi
	mountpoint -q "$tmp/cm" && umnt "$tmp/cm"
	if cli_mount "$c" "$tmp/cm"; then
		dpid=$(pgrep -n -f "vcryptfs -q -passfile $tmp/pf $c $tmp/cm" || true)
		umnt "$tmp/cm"
		for _ in $(seq 1 50); do kill -0 "$dpid" 2>/dev/null || break; sleep 0.1; done
		if [ -n "$dpid" ] && ! kill -0 "$dpid" 2>/dev/null; then
			pass "mount: background daemon exits after fusermount3 -u"
		else
			fail "mount: background daemon ($dpid) still running after unmount"
		fi
	else
		fail "mount: background mount failed"
	fi
else
	fail "mount: $VC -init failed, the command-line mount tests cannot run"
fi
if [ "$SANITIZED" = 1 ]; then
	if ls "$tmp/san"/* >/dev/null 2>&1; then
		fail "mount: sanitizer reports from the daemon: $(head -c 1500 "$tmp"/san/* | grep -E 'ERROR|runtime error|SUMMARY|#[0-9] ' | head -n 12)"
	else
		pass "mount: ASan/UBSan daemon ran every case without a report"
	fi
fi
exit 0
