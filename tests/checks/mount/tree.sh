# SPDX-License-Identifier: MIT
# 55-mount cases (sourced by 55-mount.sh): POSIX-ish cases on a fresh
# default volume ($vol mounted at $mnt), the same tree made on a plain
# directory ($ref) beside it. Every case first calls mounted_tree, so each
# runs alone too: the first one to run makes and compares the tree.

tree_made=0
# mounted_tree: $vol mounted at $mnt holding make_tree's tree (made and
# compared with $ref the first time: case_tree's checks). 1 on failure.
mounted_tree() {
	if [ "$tree_made" = 1 ]; then
		mountpoint -q "$mnt" && return 0
		vc_mount "$vol" "$mnt" -masterkey "$KEY" && return 0
		fail "mount: the default volume did not mount again"
		return 1
	fi
	tree_made=1
	mkdir -p "$ref"
	new_cipherdir "$vol"
	if ! vc_mount "$vol" "$mnt" -masterkey "$KEY"; then
		fail "mount: fresh default volume did not mount"
		return 1
	fi
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
}

case_tree() {
	mounted_tree
}

# chk_err LABEL EXPECTED-ERRNO-NAME PYTHON: run the Python statements; the
# errno name they raise (or OK) must be EXPECTED.
chk_err() {
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

case_errors() {
	local ren2
	mounted_tree || return
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
}

# SEEK_DATA/SEEK_HOLE: holes reported only where the file reads zeros
case_seek() {
	mounted_tree || return
	head -c 5000 "$tmp/rand" >"$mnt/sk" && truncate -s 200000 "$mnt/sk" &&
		printf tail >>"$mnt/sk"
	if python3 "$LIB_DIR/seek_holes.py" "$mnt/sk"; then
		pass "mount: SEEK_DATA/SEEK_HOLE report zero-reading holes only"
	else
		fail "mount: SEEK_DATA/SEEK_HOLE wrong"
	fi
	rm -f "$mnt/sk"
}

# two processes rewrite the two halves of one file, two more do random
# I/O on files of their own (lib/concurrent_rw.py)
case_concurrent() {
	mounted_tree || return
	if python3 "$LIB_DIR/concurrent_rw.py" "$mnt"; then
		pass "mount: concurrent RMW of a shared block and random I/O match the model"
	else
		fail "mount: concurrent writers lost data"
	fi
}

# hard links; the ciphertext side: no plaintext names, .name files for
# long names, no diriv left by rmdir; undecryptable names hidden
case_names() {
	local nn
	mounted_tree || return
	if [ "$(stat -c %i "$mnt/f4097")" = "$(stat -c %i "$mnt/hard")" ] &&
		[ "$(stat -c %h "$mnt/hard")" = 2 ]; then
		pass "mount: hard link shares inode number, nlink 2"
	else
		fail "mount: hard link inode/nlink wrong"
	fi
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
}

case_umask() {
	mounted_tree || return
	(umask 002 && : >"$mnt/um-f" && mkdir "$mnt/um-d")
	if [ "$(stat -c %a "$mnt/um-f" "$mnt/um-d" | tr '\n' ' ')" = "664 775 " ]; then
		pass "mount: the caller's umask (002) decides new modes"
	else
		fail "mount: new modes $(stat -c %a "$mnt/um-f" "$mnt/um-d" | tr '\n' ' '), want 664 775"
	fi
	rm -rf "$mnt/um-f" "$mnt/um-d"
}

case_unmount() {
	mounted_tree || return
	df "$mnt" >/dev/null 2>&1 && pass "mount: statfs works" || fail "mount: statfs failed"
	umnt "$mnt" && pass "mount: fusermount3 -u unmounted" || fail "mount: unmount failed"
}
