#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# group: mount: real FUSE mounts of the vcryptfs daemon (src/fuse).
# Its cases live in mount/ (sourced below; `tests/run.sh mount --case
# NAME` runs one):
#   examples.sh   both ../shared/examples cipherdirs (copied first) match
#                 MANIFEST.txt
#   tree.sh       POSIX cases on a fresh volume, mirrored on a plain dir
#                 (write/read across block edges, RMW, truncate, holes,
#                 append, rename incl. NOREPLACE/EXCHANGE, symlinks, xattrs,
#                 hard links, long names, mkdir/rmdir, fallocate, SEEK_HOLE,
#                 concurrent writers, umask, statfs)
#   cache.sh      O_DIRECT streaming reads and the page cache (none on a
#                 tmpfs cipher dir), tamper -> EIO,
#                 ENOSPC on a full backing filesystem
#   gocryptfs.sh  cross-compatibility with gocryptfs 2.3 both ways (+
#                 gocryptfs -fsck) per option set, by master key
#   cli.sh        the real command line: -init, -passfile, exit codes, -fg
#                 with SIGTERM, the background daemon's life cycle
# Mounts by master key use the vcmount driver (like gocryptfs -masterkey);
# VCMOUNT=... selects another binary (e.g. the ASan/UBSan build). Every
# mount is unmounted by the EXIT trap (lib.sh's vc_tmpdir).
. "$(dirname "$0")/lib.sh"
need_tool fusermount3 || exit 0
need_tool python3 || exit 0
need_fuse mount || exit 0
VCM=${VCMOUNT:-$BUILD/tools/vcmount}
if [ ! -x "$VCM" ]; then
	fail "mount: $VCM not built (make tests-build)"
	exit 0
fi
VC_BIN=$VCM
VC=$BUILD/vcryptfs
EX=${VCRYPTFS_SHARED:-${VCRYPTFS_ROOT:-$PWD}/../shared}/examples
vc_tmpdir 55
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
head -c $((1024 * 1024 + 13)) /dev/urandom >"$tmp/rand"
printf 'vc-test-password\n' >"$tmp/pf"
vol=$tmp/vol
ref=$tmp/ref
mnt=$tmp/mnt

# new_cipherdir DIR [-plaintextnames|-deterministic-names]: an empty
# cipherdir for a -masterkey mount (a diriv unless the names need none).
new_cipherdir() {
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
# ref_sum: $tmp/r.sum, the treesum of make_tree on a plain directory
# (made once; the cross-compatibility cases compare against it).
ref_sum() {
	[ -s "$tmp/r.sum" ] && return 0
	rm -rf "$tmp/r"
	mkdir -p "$tmp/r"
	make_tree "$tmp/r" 2>/dev/null
	treesum "$tmp/r" >"$tmp/r.sum"
}

# cross LABEL PASS-TEXT CIPHERDIR MNT WRITER READER: make_tree through the
# mount WRITER makes (a function: CIPHERDIR MNT), unmount, then the treesum
# through READER's mount must equal $tmp/r.sum. Returns 1 when WRITER did
# not mount (the later checks of the volume then make no sense).
cross() {
	local label=$1 ok=$2 c=$3 m=$4 w=$5 r=$6
	if ! "$w" "$c" "$m"; then
		fail "mount: $label: the writer ($w) did not mount"
		return 1
	fi
	make_tree "$m" 2>/dev/null
	umnt "$m"
	if ! "$r" "$c" "$m"; then
		fail "mount: $label: the reader ($r) could not mount the volume"
		return 0
	fi
	treesum "$m" >"$tmp/x.sum"
	umnt "$m"
	if diff "$tmp/r.sum" "$tmp/x.sum" >"$tmp/diff"; then
		pass "mount: $label: $ok"
	else
		fail "mount: $label: $r sees a different tree: $(head -c 400 "$tmp/diff")"
	fi
}
# go_fsck_clean LABEL GOCRYPTFS-FSCK-ARGS...: gocryptfs -fsck finds nothing
go_fsck_clean() {
	local label=$1
	shift
	if gocryptfs -fsck -q "$@" >"$tmp/fsck" 2>&1; then
		pass "mount: $label: gocryptfs -fsck finds no problems"
	else
		fail "mount: $label: gocryptfs -fsck: $(tail -n 3 "$tmp/fsck")"
	fi
}

for f in examples tree cache gocryptfs cli; do
	. "$(dirname "$0")/mount/$f.sh"
done
run_cases case_examples \
	case_tree case_errors case_seek case_concurrent case_names \
	case_umask case_unmount \
	case_odirect case_odirect_tmpfs case_tamper case_enospc \
	case_gocryptfs \
	case_cli_examples case_cli case_exit_codes case_fg case_daemon
if [ "$SANITIZED" = 1 ]; then
	san_verdict mount "$tmp/san" "ASan/UBSan daemon ran every case without a report"
fi
exit 0
