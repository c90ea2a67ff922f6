#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# group: shared: a cipher directory on a real network filesystem, and on
# replicas kept in step by a sync tool (issue 22).
# Over 600 lines on purpose: every case runs on the one sshd and the two
# sshfs sessions that the preamble starts (starting them per case would
# cost more than the cases); each case is a function that tests/run.sh
# shared --case NAME runs alone.
# The network filesystem is sshfs: the group starts Debian's sshd on
# 127.0.0.1 only (its own sshd_config, host key and client key in a temp
# dir, an unused port), and mounts one temp dir of this machine twice
# through it (S1 and S2, two sftp sessions: two "machines"). sshfs runs
# with its directory cache off and zero kernel timeouts, which a shared
# backing needs (with its defaults each sshfs client serves attributes up
# to 20 s old, past which no overlay can see).
# Cases:
#   nfs      whether the kernel has an NFS server (it is a SKIP with the
#            reason when it has not; sshfs is mandatory)
#   sshfs    what sshfs itself does with hard links and renames over an
#            existing name (the sftp extensions openssh offers)
#   vcvc     two vcryptfs -sharedstorage daemons, A on S1 and B on S2, on
#            one cipher dir: appends taking turns from both sides, renames,
#            truncate and rewrite, hard links, a directory rename under a
#            reader; both sides see the same tree (sha256 of a recursive
#            listing with contents), no EIO, vcryptfs -fsck and
#            gocryptfs -fsck clean
#   vcgo     the same with vcryptfs -sharedstorage on S1 and gocryptfs 2.3
#            -sharedstorage on S2
#   fileid   the file-ID cache rule (src/fuse/rw.c fs_fileid_recheck): a
#            vcryptfs mount without -sharedstorage on S1 reads F, gocryptfs
#            on S2 truncates and rewrites F in place (same size, new file
#            ID); A reads the new content, through a new open and through
#            a descriptor opened before the rewrite
#   replicas two copies of one cipher dir kept in step by unison: edits on
#            both sides, then a conflict; the conflict copy shows as a
#            file of its own (-badname), never as a corrupt entry or EIO;
#            vcryptfs -fsck names it
#   posix    tests/fs/fsposix.c and tests/tools/fsxv.c on a vcryptfs mount
#            whose cipher dir is on sshfs (ASan/UBSan daemon)
#   punch    fallocate PUNCH_HOLE on that mount answers as sshfs itself
#            does for every range (fsx's probe at EOF included)
# Every mount, and sshd, is stopped by the EXIT trap.
. "$(dirname "$0")/lib.sh"
for t in fusermount3 sshfs ssh ssh-keygen unison gocryptfs python3; do
	need_tool "$t" || exit 0
done
SSHD=/usr/sbin/sshd
if [ ! -x "$SSHD" ]; then
	if [ "${CI:-}" = true ]; then
		fail "shared: $SSHD missing (openssh-server; make deps installs it)"
	else
		echo "SKIP: shared: $SSHD missing (run make deps)"
	fi
	exit 0
fi
need_fuse shared || exit 0
VC=$BUILD/vcryptfs
SANVC=$SANBUILD/vcryptfs
FSP=$BUILD/tests/fsposix
FSXV=$BUILD/tools/fsxv
need_built shared "$VC" "$SANVC" "$FSP" "$FSXV" || exit 0
tmp=$(mktemp -d /tmp/vcryptfs-65.XXXXXX)
MOUNTS=()
SSHD_PID=
MADE_RUN_SSHD=
cleanup() {
	local i
	# the overlays first, then the sshfs mounts under them
	for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
		unmount_all "${MOUNTS[$i]}"
	done
	if [ -n "$SSHD_PID" ]; then
		kill "$SSHD_PID" 2>/dev/null
		wait "$SSHD_PID" 2>/dev/null
	fi
	[ -n "$MADE_RUN_SSHD" ] && rmdir /run/sshd 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
printf 'shared-test-password\n' >"$tmp/pf"
san_log_to "$tmp/san"

# ---------------------------------------------------------------------------
# sshd on 127.0.0.1, one unused port, keys made here
start_sshd() {
	local s=$tmp/ssh port try
	mkdir -p "$s" && chmod 700 "$s"
	ssh-keygen -q -t ed25519 -N '' -C vcryptfs-test-host -f "$s/host" &&
		ssh-keygen -q -t ed25519 -N '' -C vcryptfs-test-client -f "$s/client" ||
		return 1
	cp "$s/client.pub" "$s/authorized_keys"
	# sshd's privilege separation directory (removed again on exit when
	# this group made it)
	if [ ! -d /run/sshd ]; then
		mkdir -p /run/sshd && chmod 755 /run/sshd && MADE_RUN_SSHD=1
	fi
	for try in 1 2 3 4 5; do
		port=$(python3 -c 'import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
		cat >"$s/sshd_config" <<-EOF
			ListenAddress 127.0.0.1
			Port $port
			AddressFamily inet
			HostKey $s/host
			PidFile none
			AuthorizedKeysFile $s/authorized_keys
			AuthenticationMethods publickey
			PubkeyAuthentication yes
			PasswordAuthentication no
			KbdInteractiveAuthentication no
			PermitRootLogin prohibit-password
			UsePAM no
			StrictModes no
			AllowTcpForwarding no
			AllowAgentForwarding no
			X11Forwarding no
			PermitTunnel no
			PrintMotd no
			Subsystem sftp internal-sftp
		EOF
		"$SSHD" -D -e -f "$s/sshd_config" 2>"$s/sshd.log" &
		SSHD_PID=$!
		echo "[127.0.0.1]:$port $(cut -d' ' -f1,2 "$s/host.pub")" >"$s/known_hosts"
		cat >"$s/ssh_config" <<-EOF
			Host *
			  HostName 127.0.0.1
			  Port $port
			  User root
			  IdentityFile $s/client
			  IdentitiesOnly yes
			  UserKnownHostsFile $s/known_hosts
			  StrictHostKeyChecking yes
			  BatchMode yes
			  ConnectTimeout 5
		EOF
		for _ in $(seq 50); do
			ssh -F "$s/ssh_config" vctest true 2>/dev/null && {
				SSH_PORT=$port
				return 0
			}
			kill -0 "$SSHD_PID" 2>/dev/null || break
			sleep 0.1
		done
		kill "$SSHD_PID" 2>/dev/null
		wait "$SSHD_PID" 2>/dev/null
		SSHD_PID=
	done
	return 1
}
# sshfs_mnt DIR MNT: DIR of this machine through sshd at MNT
sshfs_mnt() {
	mkdir -p "$2"
	MOUNTS+=("$2")
	sshfs -F "$tmp/ssh/ssh_config" "vctest:$1" "$2" \
		-o dir_cache=no,attr_timeout=0,entry_timeout=0,negative_timeout=0
}

if ! start_sshd; then
	fail "shared: sshd on 127.0.0.1 did not start: $(tail -n 3 "$tmp/ssh/sshd.log")"
	exit 0
fi
# the listening sockets of our sshd: 127.0.0.1 only
if command -v ss >/dev/null 2>&1; then
	socks=$(ss -Htlnp 2>/dev/null | grep "pid=$SSHD_PID," | awk '{print $4}' | sort -u | tr '\n' ' ')
	case $socks in
	"127.0.0.1:$SSH_PORT ") pass "shared: sshd listens on 127.0.0.1:$SSH_PORT only" ;;
	*) fail "shared: sshd listens on '$socks', want 127.0.0.1:$SSH_PORT only" ;;
	esac
fi
mkdir -p "$tmp/remote"
if sshfs_mnt "$tmp/remote" "$tmp/s1" && sshfs_mnt "$tmp/remote" "$tmp/s2"; then
	pass "shared: two sshfs mounts of one directory through sshd on 127.0.0.1:$SSH_PORT"
else
	fail "shared: sshfs mount failed"
	exit 0
fi
S1=$tmp/s1
S2=$tmp/s2

# ---------------------------------------------------------------------------
# helpers
# new_vol DIR: a fresh volume
new_vol() {
	mkdir -p "$1" && "$VC" -init -q -scryptn 10 -passfile "$tmp/pf" "$1" >/dev/null 2>&1
}
# mnt_vc BIN CIPHERDIR MNT [flags] / mnt_go CIPHERDIR MNT [flags]
mnt_vc() {
	local bin=$1 c=$2 m=$3
	shift 3
	mkdir -p "$m"
	MOUNTS+=("$m")
	"$bin" -q -passfile "$tmp/pf" "$@" "$c" "$m"
}
mnt_go() {
	local c=$1 m=$2
	shift 2
	mkdir -p "$m"
	MOUNTS+=("$m")
	# (its stderr: it says where its log goes when there is no syslog)
	gocryptfs -q -passfile "$tmp/pf" "$@" "$c" "$m" 2>>"$tmp/gocryptfs.log"
}
umnt() {
	fusermount3 -u "$1" 2>/dev/null || { sleep 1; fusermount3 -u "$1"; }
}
# tree_sum DIR: sha256 of a recursive listing (type, name, size, link
# target, content sha256) of DIR
tree_sum() {
	(
		cd "$1" || exit 1
		find . -mindepth 1 -printf '%y %p %s %l\n' | LC_ALL=C sort
		find . -type f -print0 | LC_ALL=C sort -z | xargs -0r sha256sum
	) | sha256sum | cut -d' ' -f1
}
# check_fsck LABEL NAME: vcryptfs -fsck clean through sshfs ($S1/NAME)
# and on the server's directory ($tmp/remote/NAME), gocryptfs -fsck clean
# on the server's directory (through sshfs it counts every file corrupt:
# listxattr there is ENOTSUP, which gocryptfs 2.3's fsck treats as an error)
check_fsck() {
	local out rc d
	for d in "$S1/$2" "$tmp/remote/$2"; do
		out=$("$SANVC" -fsck -q -passfile "$tmp/pf" "$d" 2>&1)
		rc=$?
		[ "$rc" = 0 ] && pass "shared: $1: vcryptfs -fsck clean (${d#"$tmp"/})" ||
			fail "shared: $1: vcryptfs -fsck of ${d#"$tmp"/} exit $rc: $(echo "$out" | tail -n 3)"
	done
	out=$(gocryptfs -fsck -q -passfile "$tmp/pf" "$tmp/remote/$2" 2>&1)
	rc=$?
	[ "$rc" = 0 ] && pass "shared: $1: gocryptfs -fsck clean (remote/$2)" ||
		fail "shared: $1: gocryptfs -fsck exit $rc: $(echo "$out" | tail -n 3)"
}
# ok LABEL WHAT CMD...: pass when CMD succeeds, else fail with its output
ok() {
	local l=$1 w=$2 out
	shift 2
	if out=$("$@" 2>&1); then
		pass "shared: $l: $w"
	else
		fail "shared: $l: $w: $(echo "$out" | tail -n 3)"
	fi
}

# append_turns SIDE MNT N: N appends of one line each (open O_APPEND,
# write, close), each under an flock on a local lock file, so the two sides
# take turns in an order the scheduler picks
append_turns() {
	local i
	for ((i = 0; i < $3; i++)); do
		flock "$tmp/append.lock" sh -c "printf '%s %04d %s\n' '$1' $i '$(printf 'x%.0s' $(seq $((i % 97))))' >>'$2/log'" ||
			echo "append $1 $i failed" >>"$tmp/append.err"
	done
}

# dir_rename_under_reader DA DB: DA and DB are one directory seen from two
# sides. A reader opens DA/sub/big and reads it slowly from within DA/sub;
# meanwhile DB is renamed to DB2. Prints the sha256 of what the reader
# read and what opening the sibling "small" by a name relative to its
# working directory gave afterwards.
dir_rename_under_reader() {
	local out=$tmp/reader.out rp
	rm -f "$out" "$out.started"
	mkdir -p "$1/sub" && cp "$tmp/big" "$1/sub/big" && echo small >"$1/sub/small"
	python3 - "$1/sub" "$out" <<-'EOF' &
		import errno, hashlib, os, sys, time
		d, out = sys.argv[1], sys.argv[2]
		os.chdir(d)
		h = hashlib.sha256()
		res = ""
		try:
		    with open("big", "rb") as f:
		        open(out + ".started", "w").close()
		        while True:
		            b = f.read(65536)
		            if not b:
		                break
		            h.update(b)
		            time.sleep(0.01)
		except OSError as e:
		    res = "read: " + errno.errorcode[e.errno] + " "
		try:
		    res += "sibling: " + open("small").read().strip()
		except OSError as e:
		    res += "sibling: " + errno.errorcode[e.errno]
		open(out, "w").write(h.hexdigest() + " " + res)
	EOF
	rp=$!
	for _ in $(seq 100); do
		[ -e "$out.started" ] && break
		sleep 0.05
	done
	mv "$2" "${2}2" || echo "rename failed"
	wait "$rp"
	cat "$out" 2>/dev/null
	rm -f "$out" "$out.started"
}

# shared_ops LABEL A B: the cases on two mounts of one cipher dir
shared_ops() {
	local l=$1 A=$2/$1 B=$3/$1 n=150 i bad
	mkdir "$A" || fail "shared: $l: mkdir on A"
	rm -f "$tmp/append.err"
	# 1. appends from both sides, taking turns
	: >"$A/log"
	append_turns A "$A" "$n" &
	local p1=$!
	append_turns B "$B" "$n" &
	local p2=$!
	wait "$p1" "$p2"
	bad=0
	for s in A B; do
		for ((i = 0; i < n; i++)); do
			[ "$(grep -c "^$s $(printf %04d $i) " "$A/log")" = 1 ] || bad=$((bad + 1))
		done
	done
	if [ ! -e "$tmp/append.err" ] && [ "$bad" = 0 ] &&
		[ "$(wc -l <"$A/log")" = $((2 * n)) ] && cmp -s "$A/log" "$B/log"; then
		pass "shared: $l: $((2 * n)) appends from both sides in turn: none lost, none doubled, both sides read the same file"
	else
		fail "shared: $l: appends: $bad missing or doubled, $(wc -l <"$A/log") lines on A, $(wc -l <"$B/log") on B, errors: $(head -c 300 "$tmp/append.err" 2>/dev/null)"
	fi
	# interleaving: both sides' lines appear between each other's
	if [ "$(awk '{print $1}' "$A/log" | uniq | wc -l)" -gt 2 ]; then
		pass "shared: $l: the appends interleaved ($(awk '{print $1}' "$A/log" | uniq | wc -l) runs)"
	else
		fail "shared: $l: the appends did not interleave"
	fi
	# 2. renames: A makes 20 files, B renames them, A sees the new names
	mkdir "$A/rn"
	for i in $(seq 20); do
		head -c $((i * 1000 + 17)) /dev/urandom >"$A/rn/f$i"
	done
	for i in $(seq 20); do sha256sum "$A/rn/f$i"; done | awk '{print $1}' >"$tmp/rn.sum"
	ok "$l" "20 renames on B" sh -c "for i in \$(seq 20); do mv '$B/rn/f'\$i '$B/rn/g'\$i || exit 1; done"
	if [ -z "$(ls "$A/rn" | grep '^f')" ] &&
		for i in $(seq 20); do sha256sum "$A/rn/g$i"; done | awk '{print $1}' | cmp -s - "$tmp/rn.sum"; then
		pass "shared: $l: A sees B's 20 renames at once, contents intact"
	else
		fail "shared: $l: A after B's renames: $(ls "$A/rn" | tr '\n' ' ')"
	fi
	# rename over an existing name
	echo old >"$A/rn/target"
	echo new >"$B/rn/source"
	ok "$l" "a rename over an existing name on B" mv "$B/rn/source" "$B/rn/target"
	[ "$(cat "$A/rn/target" 2>&1)" = new ] && [ ! -e "$A/rn/source" ] &&
		pass "shared: $l: A reads the renamed-over file's new content" ||
		fail "shared: $l: A reads '$(cat "$A/rn/target" 2>&1)' after the rename over it"
	# 3. truncate and rewrite, both ways, other size and same size
	head -c 100000 /dev/urandom >"$tmp/t1"
	head -c 70001 /dev/urandom >"$tmp/t2"
	head -c 70001 /dev/urandom >"$tmp/t3"
	cp "$tmp/t1" "$A/tr"
	cmp -s "$B/tr" "$tmp/t1" || fail "shared: $l: B does not read A's new file"
	ok "$l" "B truncates A's file and rewrites it in place" sh -c "truncate -s 0 '$B/tr' && cat '$tmp/t2' >>'$B/tr'"
	ok "$l" "A reads B's rewrite (other size, new file ID)" cmp "$A/tr" "$tmp/t2"
	ok "$l" "A rewrites it in place, same size (O_TRUNC)" cp "$tmp/t3" "$A/tr"
	ok "$l" "B reads A's same-size rewrite" cmp "$B/tr" "$tmp/t3"
	ok "$l" "B shrinks it to 5000 bytes" truncate -s 5000 "$B/tr"
	ok "$l" "A sees the shrink" cmp "$A/tr" <(head -c 5000 "$tmp/t3")
	# 4. hard links
	echo "linked content" >"$A/hl"
	if ln "$A/hl" "$A/hl2" 2>"$tmp/ln.err"; then
		# (the link count is 1 on sshfs: see case sshfs)
		[ "$(cat "$B/hl2" 2>&1)" = "linked content" ] &&
			pass "shared: $l: a hard link made on A is read on B" ||
			fail "shared: $l: B through the hard link: '$(cat "$B/hl2" 2>&1)'"
		ok "$l" "B rewrites through the second link" sh -c "printf 'rewritten through hl2\n' >'$B/hl2'"
		[ "$(cat "$A/hl" 2>&1)" = "rewritten through hl2" ] &&
			pass "shared: $l: A reads the rewrite through the first link" ||
			fail "shared: $l: A reads '$(cat "$A/hl" 2>&1)' through the first link"
		ok "$l" "B removes the first link" rm "$B/hl"
		[ ! -e "$A/hl" ] && [ "$(cat "$A/hl2" 2>&1)" = "rewritten through hl2" ] &&
			pass "shared: $l: A sees the unlink, the other link keeps the content" ||
			fail "shared: $l: after B's unlink, A: hl $(stat -c %h "$A/hl" 2>&1), hl2 '$(cat "$A/hl2" 2>&1)'"
	else
		fail "shared: $l: ln on A: $(cat "$tmp/ln.err")"
	fi
	# 5. a directory rename on B under a reader on A: the reader keeps a
	#    descriptor (and its working directory) in the directory; what it
	#    gets must be what the same reader gets on sshfs itself
	local want ref got
	head -c 3000000 /dev/urandom >"$tmp/big"
	want=$(sha256sum "$tmp/big" | cut -d' ' -f1)
	ref=$(dir_rename_under_reader "$S1/refdr" "$S2/refdr")
	rm -rf "$S1/refdr2"
	got=$(dir_rename_under_reader "$A/dr" "$B/dr")
	case $ref in
	"$want "*) ;;
	*) fail "shared: $l: on sshfs itself the reader got '$ref'" ;;
	esac
	if [ "$l" = gocryptfs-first ]; then
		# not ours to pass or fail: what gocryptfs 2.3 does as the reader
		[ "$got" = "$ref" ] && echo "  info: $l: gocryptfs's reader across the directory rename: as on sshfs itself" ||
			echo "  info: $l: gocryptfs 2.3's reader across the directory rename: '${got#* }', on sshfs itself '${ref#* }'"
	elif [ "$got" = "$ref" ]; then
		pass "shared: $l: A's reader across B's directory rename: as on sshfs itself (whole file read; '${ref#* }')"
	else
		fail "shared: $l: A's reader across B's directory rename: '$got', on sshfs itself '$ref'"
	fi
	[ ! -e "$A/dr" ] && cmp -s "$A/dr2/sub/big" "$tmp/big" &&
		pass "shared: $l: A sees the directory under its new name, content intact" ||
		fail "shared: $l: A after the directory rename: $(ls "$A" | tr '\n' ' ')"
	# 6. a symlink and a chmod, then the whole tree from both sides
	ln -s dr2/sub/small "$B/sl"
	chmod 600 "$B/rn/g3"
	[ "$(cat "$A/sl" 2>&1)" = small ] && [ "$(stat -c %a "$A/rn/g3")" = 600 ] &&
		pass "shared: $l: A sees B's symlink and chmod" ||
		fail "shared: $l: A: symlink '$(cat "$A/sl" 2>&1)', mode $(stat -c %a "$A/rn/g3")"
	local ta tb
	ta=$(tree_sum "$A")
	tb=$(tree_sum "$B")
	[ -n "$ta" ] && [ "$ta" = "$tb" ] &&
		pass "shared: $l: both sides see the same tree (sha256 $ta)" ||
		fail "shared: $l: the trees differ: A $ta, B $tb"
}

# ---------------------------------------------------------------------------
case_nfs() {
	# /proc/fs/nfsd is only a mount point the kernel always makes; the
	# server is there when the nfsd filesystem type is registered
	local why=
	if grep -qw nfsd /proc/filesystems; then
		why=
	elif [ -r /proc/config.gz ]; then
		local cfg
		cfg=$(zcat /proc/config.gz 2>/dev/null)
		if ! grep -q '^CONFIG_NFSD=' <<<"$cfg"; then
			why="kernel $(uname -r) is built without CONFIG_NFSD"
			grep -q '^CONFIG_NFS_FS=' <<<"$cfg" || why="$why and without CONFIG_NFS_FS (no NFS client either)"
			grep -q '^# CONFIG_MODULES is not set' <<<"$cfg" && why="$why, and without module support (CONFIG_MODULES unset), so no nfsd module can be loaded"
		fi
	else
		why="no nfsd in /proc/filesystems, no /proc/fs/nfsd and no /proc/config.gz to tell more"
	fi
	if [ -n "$why" ]; then
		# nfs-kernel-server is only the user-space half: it needs the
		# kernel's nfsd, so installing it changes nothing here
		echo "SKIP: shared: nfs: no NFS server in this kernel ($why; nfsd is not in /proc/filesystems, so Debian's nfs-kernel-server has nothing to start)"
	else
		fail "shared: nfs: the kernel offers nfsd but this group has no NFS case yet"
	fi
}

case_sshfs() {
	local r=$tmp/remote/probe
	mkdir -p "$r"
	echo one >"$S1/probe/a"
	# sshfs makes hard links through openssh's hardlink@openssh.com
	# extension (-o disable_hardlink turns it off; none of its -o
	# workaround= items is about links). SFTP v3 attributes carry no link
	# count and no inode number: a client sees nlink 1 and sshfs's own
	# inode numbers, one per path.
	if ln "$S1/probe/a" "$S1/probe/b" 2>/dev/null &&
		[ "$(stat -c %h "$r/a")" = 2 ] && [ "$(stat -c %i "$r/a")" = "$(stat -c %i "$r/b")" ] &&
		[ "$(cat "$S2/probe/b")" = one ]; then
		pass "shared: sshfs: link(2) works (hardlink@openssh.com): one server inode with link count 2; the clients see link count $(stat -c %h "$S2/probe/a") and inode numbers $(stat -c %i "$S2/probe/a"), $(stat -c %i "$S2/probe/b") (SFTP v3 carries neither)"
	else
		fail "shared: sshfs: link(2) does not work on sshfs"
	fi
	echo two >"$S1/probe/c"
	if mv "$S1/probe/c" "$S1/probe/a" 2>/dev/null && [ "$(cat "$S2/probe/a")" = two ]; then
		pass "shared: sshfs: rename over an existing name works without -o workaround=rename (openssh's posix-rename@openssh.com)"
	else
		fail "shared: sshfs: rename over an existing name fails"
	fi
	rm -rf "$r"
}

case_vcvc() {
	if new_vol "$tmp/remote/vv" && mnt_vc "$SANVC" "$S1/vv" "$tmp/va" -sharedstorage &&
		mnt_vc "$SANVC" "$S2/vv" "$tmp/vb" -sharedstorage; then
		shared_ops vcvc "$tmp/va" "$tmp/vb"
		umnt "$tmp/va"
		umnt "$tmp/vb"
		check_fsck vcvc vv
	else
		fail "shared: vcvc: vcryptfs -sharedstorage mounts on sshfs failed"
	fi
}

case_vcgo() {
	if new_vol "$tmp/remote/vg" && mnt_vc "$SANVC" "$S1/vg" "$tmp/ga" -sharedstorage &&
		mnt_go "$S2/vg" "$tmp/gb" -sharedstorage; then
		shared_ops vcgo "$tmp/ga" "$tmp/gb"
		# the other way round too: gocryptfs as A
		shared_ops gocryptfs-first "$tmp/gb" "$tmp/ga"
		umnt "$tmp/ga"
		umnt "$tmp/gb"
		check_fsck vcgo vg
	else
		fail "shared: vcgo: vcryptfs and gocryptfs -sharedstorage mounts on sshfs failed"
	fi
}

# fileid_steps LABEL A B CIPHERDIR: A is a vcryptfs mount without
# -sharedstorage, B a gocryptfs mount of CIPHERDIR (a local path to it)
fileid_steps() {
	local l=$1 A=$2 B=$3 c=$4 out ino0 cf
	head -c 20000 /dev/urandom >"$tmp/old"
	head -c 20000 /dev/urandom >"$tmp/new"
	head -c 20000 /dev/urandom >"$tmp/new2"
	cp "$tmp/old" "$A/F"
	cmp -s "$A/F" "$tmp/old" || fail "shared: fileid $l: A does not read its own file"
	cmp -s "$B/F" "$tmp/old" || fail "shared: fileid $l: gocryptfs does not read A's file"
	cf=$c/$(ls "$c" | grep -v '^gocryptfs\.')
	ino0=$(stat -c %i "$cf")
	# B (gocryptfs) truncates and rewrites F in place: same inode, same
	# size, a new header and file ID
	cat "$tmp/new" >"$B/F"
	[ "$(stat -c %i "$cf")" = "$ino0" ] ||
		fail "shared: fileid $l: the rewrite made a new inode (the case needs the same one)"
	# A's kernel still holds the old pages (keep_cache, attributes valid
	# for 30 s); drop them as memory pressure would, without an open:
	# `dd iflag=nocache count=0` is posix_fadvise(DONTNEED) on its stdin,
	# here a descriptor opened before the rewrite
	exec 7<"$A/F"
	dd iflag=nocache count=0 status=none <&7
	out=$(cmp "$A/F" "$tmp/new" 2>&1) &&
		pass "shared: fileid $l: a new open on A (no -sharedstorage) reads gocryptfs's in-place rewrite, no EIO" ||
		fail "shared: fileid $l: A after the rewrite: $out"
	# a second rewrite, read through the descriptor opened before both:
	# the cached ID is rechecked when a block fails authentication
	if [ "$l" = sshfs ]; then
		# SFTP v3 has mtime in whole seconds: a same-size rewrite within
		# the second is invisible to an sshfs client that has the file
		# open and cached, whatever sits on top (sshfs drops its cache
		# only at an open); wait for the next second
		sleep 1.1
	fi
	cat "$tmp/new2" >"$B/F"
	dd iflag=nocache count=0 status=none <&7
	out=$(cmp - "$tmp/new2" <&7 2>&1) &&
		pass "shared: fileid $l: a descriptor opened on A before the rewrite reads the new content, no EIO" ||
		fail "shared: fileid $l: the old descriptor on A after the rewrite: $out"
	exec 7<&-
}

case_fileid() {
	if new_vol "$tmp/fl" && mnt_vc "$SANVC" "$tmp/fl" "$tmp/fla" &&
		mnt_go "$tmp/fl" "$tmp/flb" -sharedstorage; then
		fileid_steps local "$tmp/fla" "$tmp/flb" "$tmp/fl"
		umnt "$tmp/fla"
		umnt "$tmp/flb"
	else
		fail "shared: fileid: local mounts failed"
	fi
	if new_vol "$tmp/remote/fi" && mnt_vc "$SANVC" "$S1/fi" "$tmp/fa" &&
		mnt_go "$S2/fi" "$tmp/fb" -sharedstorage; then
		fileid_steps sshfs "$tmp/fa" "$tmp/fb" "$tmp/remote/fi"
		umnt "$tmp/fa"
		umnt "$tmp/fb"
		check_fsck fileid fi
	else
		fail "shared: fileid: mounts on sshfs failed"
	fi
}

case_replicas() {
	local R1=$tmp/r1 R2=$tmp/r2 M1=$tmp/m1 M2=$tmp/m2 u out rc
	u=(unison -batch -silent -times -perms 0 -copyonconflict -prefer "$R1")
	mkdir -p "$R2"
	new_vol "$R1" || {
		fail "shared: replicas: -init failed"
		return
	}
	mnt_vc "$SANVC" "$R1" "$M1" || {
		fail "shared: replicas: mount failed"
		return
	}
	mkdir "$M1/docs"
	for f in a b c d conflict; do echo "first $f" >"$M1/docs/$f.txt"; done
	umnt "$M1"
	export UNISON=$tmp/unison
	ok replicas "unison copies the cipher dir to the second replica" "${u[@]}" "$R1" "$R2"
	# edits on both sides: A changes a, deletes d, makes e; B changes b,
	# makes f; both change conflict.txt
	mnt_vc "$SANVC" "$R1" "$M1" && mnt_vc "$SANVC" "$R2" "$M2" || {
		fail "shared: replicas: mounts failed"
		return
	}
	echo "A's a" >"$M1/docs/a.txt"
	rm "$M1/docs/d.txt"
	echo "A's e" >"$M1/docs/e.txt"
	echo "B's b" >"$M2/docs/b.txt"
	mkdir "$M2/newdir" && echo "B's f" >"$M2/newdir/f.txt"
	echo "A's side of the conflict" >"$M1/docs/conflict.txt"
	echo "B's side of the conflict" >"$M2/docs/conflict.txt"
	umnt "$M1"
	umnt "$M2"
	out=$("${u[@]}" "$R1" "$R2" 2>&1)
	rc=$?
	# unison exits 1 when it skipped nothing but had conflicts settled by
	# -prefer; 0 all done; 2, 3 errors
	[ "$rc" -le 1 ] && pass "shared: replicas: unison syncs both sides' edits (exit $rc)" ||
		fail "shared: replicas: unison exit $rc: $(echo "$out" | tail -n 3)"
	# the conflict copy unison kept (on the side whose version lost): a
	# name of its own in the cipher dir; the next sync takes it across
	local cc
	cc=$(find "$R2" -name '*onflict*' -printf '%f\n' | head -n 1)
	[ -n "$cc" ] && pass "shared: replicas: unison kept a conflict copy: '$cc'" ||
		fail "shared: replicas: no conflict copy in $(ls "$R2"/*)"
	ok replicas "a second unison run" "${u[@]}" "$R1" "$R2"
	[ "$(tree_sum "$R1")" = "$(tree_sum "$R2")" ] &&
		pass "shared: replicas: the two cipher dirs are identical after the second sync" ||
		fail "shared: replicas: the two cipher dirs differ after the second sync"
	# without -badname the mount leaves it out; with -badname it shows as
	# a file of its own holding B's version
	mnt_vc "$SANVC" "$R2" "$M2" || {
		fail "shared: replicas: mount failed"
		return
	}
	out=$(
		cd "$M2" && for f in docs/a.txt docs/b.txt docs/c.txt docs/e.txt newdir/f.txt docs/conflict.txt; do
			printf '%s=%s\n' "$f" "$(cat "$f" 2>&1)"
		done
		[ -e docs/d.txt ] && echo "d.txt still there"
		ls docs | tr '\n' ' '
	)
	want="docs/a.txt=A's a
docs/b.txt=B's b
docs/c.txt=first c
docs/e.txt=A's e
newdir/f.txt=B's f
docs/conflict.txt=A's side of the conflict
a.txt b.txt c.txt conflict.txt e.txt "
	[ "$out" = "$want" ] &&
		pass "shared: replicas: the synced replica has both sides' edits and A's side of the conflict (-prefer), the conflict copy not listed without -badname" ||
		fail "shared: replicas: after the sync: $out"
	if ls -la "$M2" "$M2/docs" >/dev/null 2>&1 && find "$M2" -type f -exec cat {} + >/dev/null 2>&1; then
		pass "shared: replicas: listing and reading the whole tree gives no error"
	else
		fail "shared: replicas: an error listing or reading the tree: $(find "$M2" -type f -exec cat {} + 2>&1 >/dev/null | head -n 2)"
	fi
	umnt "$M2"
	mnt_vc "$SANVC" "$R2" "$M2" -badname '*onflict*' || {
		fail "shared: replicas: -badname mount failed"
		return
	}
	local shown
	shown=$(ls "$M2/docs" | grep 'GOCRYPTFS_BAD_NAME')
	if [ -n "$shown" ] && [ "$(cat "$M2/docs/$shown" 2>&1)" = "B's side of the conflict" ]; then
		pass "shared: replicas: with -badname the conflict copy shows as '$shown' with B's version"
	else
		fail "shared: replicas: -badname: '$(ls "$M2/docs" | tr '\n' ' ')', content '$(cat "$M2/docs/$shown" 2>&1)'"
	fi
	umnt "$M2"
	out=$("$SANVC" -fsck -passfile "$tmp/pf" "$R2" 2>&1)
	rc=$?
	if [ "$rc" = 26 ] && grep -q -- "$cc" <<<"$out" &&
		[ "$(grep -c corrupt <<<"$out")" -le 2 ]; then
		pass "shared: replicas: vcryptfs -fsck exits 26 and names the conflict copy, nothing else: $(grep -- "$cc" <<<"$out" | head -n 1)"
	else
		fail "shared: replicas: vcryptfs -fsck exit $rc: $(echo "$out" | tail -n 3)"
	fi
	out=$(gocryptfs -fsck -passfile "$tmp/pf" "$R1" 2>&1)
	echo "  info: replicas: gocryptfs -fsck of the other replica: exit $?: $(grep -i -m2 'conflict\|corrupt' <<<"$out" | tr '\n' ' ')"
}

# fsposix_worse REF OUT: "NAME: DETAIL" of the cases that pass in REF and
# fail in OUT ("PASS: fs: NAME" / "FAIL: fs: NAME: DETAIL", and NAME may
# hold ": ")
fsposix_worse() {
	awk '
	function key(l) {
		if (sub(/^PASS: fs: /, "", l)) return l
		sub(/^FAIL: fs: /, "", l); match(l, /.*: /); return substr(l, 1, RLENGTH - 2)
	}
	FNR == NR { if ($0 ~ /^PASS: fs: /) ok[key($0)] = 1; next }
	/^FAIL: fs: / { k = key($0); if (k in ok) { d = $0; sub(/^FAIL: fs: /, "", d); print d } }
	' "$1" "$2"
}

case_posix() {
	local c=$S1/px m=$tmp/px out n nref nsh worse
	if ! { new_vol "$tmp/remote/px" && mnt_vc "$SANVC" "$c" "$m"; }; then
		fail "shared: posix: mount failed"
		return
	fi
	mkdir -p "$tmp/plainref" "$tmp/xdev" "$S1/shref"
	# the references: a plain local dir, and sshfs itself (the mount can
	# give no more than its backing: no fallocate, no link counts, whole
	# seconds, ...)
	"$FSP" -x "$tmp/xdev" "$tmp/plainref" >"$tmp/fsp.ref" 2>&1
	"$FSP" -x "$tmp/xdev" "$S1/shref" >"$tmp/fsp.sshfs" 2>&1
	"$FSP" -x "$tmp/xdev" "$m" >"$tmp/fsp.out" 2>&1
	n=$(grep -c '^PASS: ' "$tmp/fsp.out")
	nref=$(grep -c '^PASS: ' "$tmp/fsp.ref")
	nsh=$(grep -c '^PASS: ' "$tmp/fsp.sshfs")
	# Known, and not the mount's to fix, on a backing reached by path
	# over SFTP v3:
	#  - hard links have an inode number per path on sshfs, so the mount
	#    (which trusts st_ino, and caches 30 s without -sharedstorage)
	#    sees two files: a write through one link shows through the
	#    other once the attributes expire (at once with -sharedstorage:
	#    cases vcvc, vcgo);
	#  - SETSTAT follows symlinks, and a link's target in the cipher dir
	#    is ciphertext naming nothing: lchown is ENOENT (sshfs itself
	#    changes the target instead, which fsposix also flags);
	#  - sshfs sends whole paths, and encrypted names are about 4/3 of
	#    the plain ones, so a deep path reaches the server's PATH_MAX
	#    sooner (EBADMSG from sshfs).
	local known='^(write through one link is seen through the other|truncate through a link|lchown a symlink|deep path of 100-byte components|create at the bottom of the deep path): '
	worse=$(fsposix_worse "$tmp/fsp.sshfs" "$tmp/fsp.out" | grep -Ev "$known")
	echo "  info: posix: known differences from sshfs itself (see the comment): $(fsposix_worse "$tmp/fsp.sshfs" "$tmp/fsp.out" | grep -E "$known" | tr '\n' ';')"
	if [ -z "$worse" ] && [ "$n" -ge 150 ]; then
		pass "shared: posix: fsposix on the sshfs-backed mount: $n of $((n + $(grep -c '^FAIL: ' "$tmp/fsp.out"))) cases pass (sshfs itself: $nsh, a local plain dir: $nref); none fails that passes on sshfs itself"
	else
		fail "shared: posix: fsposix: $n pass (sshfs itself $nsh); failing on the mount only: $(echo "$worse" | head -n 10 | tr '\n' ';')"
	fi
	echo "  info: posix: cases passing on the sshfs-backed mount but not on sshfs itself: $(fsposix_worse "$tmp/fsp.out" "$tmp/fsp.sshfs" | sed 's/: [^:]*$//' | tr '\n' ';')"
	echo "  info: posix: cases failing on sshfs itself (and so on the mount): $(grep '^FAIL: ' "$tmp/fsp.sshfs" | sed 's/^FAIL: fs: //; s/: [^:]*$//' | tr '\n' ';')"
	# fsxv: no fallocate (sshfs has none: EOPNOTSUPP), punching tolerated
	out=$("$FSXV" -q -F -s 65 -n 1500 "$m" 2>&1)
	[ $? = 0 ] && pass "shared: posix: fsxv -F over the sshfs-backed mount: $(echo "$out" | tail -n 1)" ||
		fail "shared: posix: fsxv: $(echo "$out" | grep -m1 FAILURE) $(echo "$out" | tail -n 5)"
	# two at once on one shared file set, neighbours in one block
	local p0 p1 r0 r1
	"$FSXV" -q -F -s 66 -p 0 -S 2 -n 600 "$m" >"$tmp/fsxv0" 2>&1 &
	p0=$!
	"$FSXV" -q -F -s 66 -p 1 -S 2 -n 600 "$m" >"$tmp/fsxv1" 2>&1 &
	p1=$!
	wait "$p0"
	r0=$?
	wait "$p1"
	r1=$?
	[ "$r0" = 0 ] && [ "$r1" = 0 ] &&
		pass "shared: posix: two fsxv -S 2 at once over the sshfs-backed mount: $(tail -n 1 "$tmp/fsxv0" | sed 's/(writes.*//')and $(tail -n 1 "$tmp/fsxv1" | sed 's/(writes.*//')" ||
		fail "shared: posix: fsxv -S 2: exits $r0 $r1: $(grep -h -m1 FAILURE "$tmp/fsxv0" "$tmp/fsxv1")"
	umnt "$m"
	out=$("$SANVC" -fsck -q -passfile "$tmp/pf" "$c" 2>&1)
	[ $? = 0 ] && pass "shared: posix: vcryptfs -fsck clean after fsposix and fsxv" ||
		fail "shared: posix: -fsck after the suites: $(echo "$out" | tail -n 3)"
}

# fallocate PUNCH_HOLE|KEEP_SIZE on the sshfs-backed mount answers what
# sshfs itself answers (EOPNOTSUPP: SFTP has no hole punching) for every
# range, not only for one covering a whole block: fsx's probe at EOF,
# one inside a block, one over two whole blocks; the file stays as it was
# (fsx aborted on the mount: its probe at EOF succeeded, the first real
# punch did not)
case_punch() {
	local c=$S1/pu m=$tmp/pu ref got
	if ! { new_vol "$tmp/remote/pu" && mnt_vc "$VC" "$c" "$m"; }; then
		fail "shared: punch: mount failed"
		return
	fi
	mkdir -p "$S1/puref"
	cat >"$tmp/punch.py" <<-'PY'
		import ctypes, errno, os, sys
		libc = ctypes.CDLL(None, use_errno=True)
		libc.fallocate.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_long, ctypes.c_long]
		p = sys.argv[1]
		data = os.urandom(20000)
		with open(p, "wb") as f:
		    f.write(data)
		fd = os.open(p, os.O_RDWR)
		res = []
		for off, ln in ((20000, 1), (100, 50), (4096, 8192)):
		    # 3: FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE
		    rc = libc.fallocate(fd, 3, off, ln)
		    res.append("ok" if rc == 0 else errno.errorcode[ctypes.get_errno()])
		os.close(fd)
		with open(p, "rb") as f:
		    res.append("unchanged" if f.read() == data else "changed")
		print(",".join(res))
	PY
	ref=$(python3 "$tmp/punch.py" "$S1/puref/f" 2>&1)
	got=$(python3 "$tmp/punch.py" "$m/f" 2>&1)
	[ "$got" = "$ref" ] &&
		pass "shared: punch: PUNCH_HOLE at EOF, inside a block, over whole blocks: $got, as on sshfs itself" ||
		fail "shared: punch: PUNCH_HOLE at EOF, inside a block, over whole blocks: mount $got, sshfs itself $ref"
	umnt "$m"
}

run_cases case_nfs case_sshfs case_vcvc case_vcgo case_fileid case_replicas case_posix case_punch
if ls "$tmp/san"/* >/dev/null 2>&1; then
	fail "shared: ASan/UBSan report: $(head -n 5 "$tmp"/san/*)"
else
	pass "shared: ASan/UBSan daemons: no report"
fi
