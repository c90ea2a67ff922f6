#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# group: tamper: damaged cipher directories (issue 9, FORMAT.md 4.2-4.7, 5,
# 6, 7, 13.4). A fresh volume (vcryptfs -init) is filled through a real
# mount, then COPIES of it are damaged one way each (flipped bits in a
# block, tag, nonce, header, file ID, name, diriv, .name file, config,
# xattr value, symlink target; blocks swapped within and between files; a
# copied header; truncations, also to a tail shorter than the overhead
# and to inside the header; garbage appended). For each damaged copy:
#   (a) the mount reports it: EIO on read (and never wrong bytes), or the
#       entry hidden, or the mount refused (config) with exit 12, and the
#       daemon's log line is there;
#   (b) vcryptfs -fsck exits 26 (config: 12) and names the object, and
#       leaves the cipher directory byte for byte as it was;
#   (c) gocryptfs -fsck on the same copy: its exit code is recorded and a
#       difference printed as a "# note:" line (not a failure).
# Then -fsck must be clean on the fresh volume, the two gocryptfs 2.3
# examples, and -xchacha, -aessiv, -plaintextnames, -deterministic-names
# volumes, and every vcryptfs -fsck case runs once more with the ASan/UBSan
# build (its log_path files must stay empty). Every mount is unmounted by
# the EXIT trap. Each check is a case (`tests/run.sh tamper --case NAME`),
# one per damage kind (swap-in-file is case swap_in_file); the fresh volume
# is made by the group's setup.
. "$(dirname "$0")/lib.sh"
need_tool fusermount3 || exit 0
need_tool python3 || exit 0
need_fuse tamper || exit 0
VC=${VCRYPTFS:-$BUILD/vcryptfs}
SANVC=$SANBUILD/vcryptfs
if [ ! -x "$VC" ]; then
	fail "tamper: $VC not built (make tests-build)"
	exit 0
fi
HAVE_GO=0
need_tool gocryptfs && HAVE_GO=1
EX=${VCRYPTFS_SHARED:-${VCRYPTFS_ROOT:-$PWD}/../shared}/examples
vc_tmpdir 57
# the helpers need no site packages: -S -I starts python twice as fast
PY="python3 -S -I"
PF=$tmp/passfile
echo "tamper-suite-password" >"$PF"
echo "not-the-password" >"$tmp/wrongpass"

# tamper_mount CIPHERDIR MNT LOG: background daemon that keeps logging to
# LOG (-nosyslog keeps its stderr). Returns vcryptfs's exit code.
tamper_mount() {
	VC_BIN=$VC PASSFILE=$PF vc_mount "$1" "$2" -nosyslog 2>>"$3"
}
digest() { $PY "$LIB_DIR/digest.py" "$1"; }
damage() { $PY "$LIB_DIR/damage.py" "$@"; }

# fill MNT: files of several blocks, a long name, a symlink, an xattr, a
# subdirectory.
LONG=$(printf 'L%.0s' $(seq 1 200)).txt
fill() {
	local m=$1
	head -c 13288 /dev/urandom >"$tmp/a.src" # 3 full blocks + 1000
	head -c 9000 /dev/urandom >"$tmp/b.src"
	cp "$tmp/a.src" "$m/a.bin" &&
		cp "$tmp/b.src" "$m/b.bin" &&
		echo "hello tamper" >"$m/small.txt" &&
		echo "long name content" >"$m/$LONG" &&
		ln -s a.bin "$m/lnk" &&
		mkdir "$m/sub" &&
		echo "in a subdirectory" >"$m/sub/c.txt" &&
		for i in $(seq -w 1 15); do echo "$i" >"$m/sub/more-$i"; done &&
		$PY -c 'import os,sys; os.setxattr(sys.argv[1], "user.note", b"tamper-xattr")' "$m/a.bin"
}

# ---------------------------------------------------------------------------
# The fresh volume
BASE=$tmp/base
mkdir "$BASE"
if ! "$VC" -init -q -scryptn 10 -passfile "$PF" "$BASE" >/dev/null 2>&1; then
	fail "tamper: vcryptfs -init failed"
	exit 0
fi
if ! tamper_mount "$BASE" "$tmp/m" "$tmp/base.log"; then
	fail "tamper: fresh volume did not mount"
	exit 0
fi
fill "$tmp/m" || fail "tamper: filling the fresh volume failed"
# backing relative paths of the objects, by inode number
declare -A CP
for f in a.bin b.bin small.txt "$LONG" lnk sub sub/c.txt; do
	ino=$(stat -c %i "$tmp/m/$f")
	CP[$f]=$(cd "$BASE" && find . -inum "$ino" ! -name '*.name' | head -n1)
	CP[$f]=${CP[$f]#./}
done
umnt "$tmp/m"
if [ -z "${CP[a.bin]}" ] || [ -z "${CP[$LONG]}" ]; then
	fail "tamper: cannot map plaintext names to backing files"
	exit 0
fi

CBS=4128 # AES-GCM (the -init default on this CPU; checked below)
if grep -q XChaCha20Poly1305 "$BASE/gocryptfs.conf"; then CBS=4136; fi
NL=16
[ "$CBS" = 4136 ] && NL=24

# fsck_case LABEL DIR WANT_RC WHAT_REGEX [vcryptfs binary]
# vcryptfs -fsck exits WANT_RC, prints a line matching WHAT_REGEX (when
# given) and leaves DIR unchanged.
fsck_case() {
	local label=$1 dir=$2 want=$3 what=$4 bin=${5:-$VC} before rc
	before=$(digest "$dir")
	"$bin" -fsck -passfile "$PF" "$dir" >"$tmp/fsck.out" 2>"$tmp/fsck.err"
	rc=$?
	if [ "$rc" != "$want" ]; then
		fail "tamper: $label: vcryptfs -fsck exited $rc, want $want"
		sed 's/^/    /' "$tmp/fsck.out" "$tmp/fsck.err" | head -n 8
	elif [ -n "$what" ] && ! grep -qE -- "$what" "$tmp/fsck.out"; then
		fail "tamper: $label: vcryptfs -fsck output does not name it"
		sed 's/^/    /' "$tmp/fsck.out" | head -n 8
	elif [ "$(digest "$dir")" != "$before" ]; then
		fail "tamper: $label: vcryptfs -fsck modified the cipherdir"
	else
		pass "tamper: $label: vcryptfs -fsck exit $rc"
		FSCK_RES[$label]=$(tail -n1 "$tmp/fsck.out" | sed 's/fsck summary: //')
		[ -n "$what" ] && grep -m1 -E -- "$what" "$tmp/fsck.out" | sed 's/^/#   /'
	fi
}
# go_fsck LABEL DIR WANT_RC: record what gocryptfs 2.3 says.
GO_TABLE=()
declare -A MOUNT_RES FSCK_RES
go_fsck() {
	local label=$1 dir=$2 want=$3 rc
	if [ "$HAVE_GO" != 1 ]; then
		GO_TABLE+=("$label|(gocryptfs missing)")
		return
	fi
	gocryptfs -fsck -passfile "$PF" "$dir" >"$tmp/go.out" 2>&1 </dev/null
	rc=$?
	GO_TABLE+=("$label|$rc")
	if [ "$rc" != "$want" ]; then
		echo "# note: $label: gocryptfs -fsck exits $rc (vcryptfs $want):" \
			"$(grep -m1 -E 'fsck|rror' "$tmp/go.out")"
	fi
}

# ---------------------------------------------------------------------------
# Damage kinds. Each: KIND|MOUNTCHECK|FSCK_REGEX, with the damage done by
# do_damage KIND COPY.
B1=$((18 + CBS))     # offset of block 1
A=${CP[a.bin]}
do_damage() {
	local k=$1 c=$2
	case "$k" in
	block) damage flip "$c/$A" $((B1 + NL + 100)) ;;
	tag) damage flip "$c/$A" $((18 + CBS - 1)) ;;
	nonce) damage flip "$c/$A" $((B1 + 3)) ;;
	header) damage flip "$c/$A" 1 ;;
	fileid) damage flip "$c/$A" 9 ;;
	# two names: one flipped name in about 300 still decrypts to a
	# well-padded garbage name (see the diriv case below)
	name) damage rename "$c/${CP[small.txt]}" &&
		damage rename "$c/${CP[lnk]}" ;;
	diriv) damage flip "$c/${CP[sub]}/gocryptfs.diriv" 7 ;;
	namefile) damage namefile "$c/${CP[$LONG]}.name" ;;
	conf) damage conf "$c/gocryptfs.conf" ;;
	swap-in-file) damage swap "$c/$A" 18 "$B1" "$CBS" ;;
	swap-files) damage swap2 "$c/$A" 18 "$CBS" "$c/${CP[b.bin]}" ;;
	truncated-block) damage truncate "$c/$A" -10 ;;
	short-tail) damage truncate "$c/$A" $((18 + 3 * CBS + 20)) ;;
	truncated-header) damage truncate "$c/${CP[small.txt]}" 10 ;;
	garbage) damage append "$c/$A" 100 ;;
	copied-header) damage copyhdr "$c/$A" "$c/${CP[b.bin]}" ;;
	xattr-value) damage xattr "$c/$A" ;;
	symlink) damage symlink "$c/${CP[lnk]}" ;;
	esac
}
# mount_check KIND MNT LOG: (a) for one kind; prints why on failure.
mount_check() {
	local k=$1 m=$2 log=$3 out=$tmp/read.out err=$tmp/read.err
	case "$k" in
	name)
		if ls "$m" | grep -qx -e small.txt -e lnk; then
			echo "the damaged name is still listed"
			return 1
		fi
		ls "$m" | grep -qx a.bin || { echo "good names vanished"; return 1; }
		grep -q 'hiding undecryptable name' "$log" ||
			{ echo "no log line"; return 1; }
		;;
	diriv)
		# Names are not authenticated: under a wrong IV one garbage
		# name in about 300 still passes the padding check and is listed
		# (gocryptfs too). So sub holds 16 entries, and none of their
		# names may show; -fsck then always finds some of them corrupt.
		if ls "$m/sub" 2>/dev/null | grep -qE '^(c\.txt|more-[0-9]+)$'; then
			echo "entries of sub still listed"
			return 1
		fi
		[ "$(cat "$m/sub/c.txt" 2>/dev/null)" = "in a subdirectory" ] &&
			{ echo "c.txt still readable"; return 1; }
		grep -qE 'hiding undecryptable name|gocryptfs.diriv' "$log" ||
			{ echo "no log line"; return 1; }
		;;
	namefile)
		if ls "$m" | grep -qx "$LONG"; then
			echo "the long name is still listed"
			return 1
		fi
		grep -q 'hiding undecryptable name' "$log" ||
			{ echo "no log line"; return 1; }
		;;
	truncated-header)
		# 1..17 bytes: damage, EIO at open (gocryptfs reads it as
		# empty); the size stays 0 as gocryptfs reports it
		[ -e "$m/small.txt" ] && [ ! -s "$m/small.txt" ] ||
			{ echo "not listed with size 0"; return 1; }
		if cat "$m/small.txt" >/dev/null 2>"$err"; then
			echo "reads as an empty file"
			return 1
		fi
		grep -q 'Input/output error' "$err" ||
			{ echo "cat: $(tail -n1 "$err")"; return 1; }
		grep -qE 'header.*inode [0-9]+' "$log" ||
			{ echo "no log line"; return 1; }
		;;
	xattr-value)
		if $PY -c 'import os,sys; os.getxattr(sys.argv[1], "user.note")' \
			"$m/a.bin" 2>"$err"; then
			echo "damaged xattr value was returned"
			return 1
		fi
		grep -q 'Input/output error' "$err" ||
			{ echo "getxattr: $(tail -n1 "$err")"; return 1; }
		grep -qE 'xattr.*inode [0-9]+' "$log" ||
			{ echo "no log line"; return 1; }
		;;
	symlink)
		if readlink "$m/lnk" >/dev/null 2>"$err"; then
			echo "damaged target was returned"
			return 1
		fi
		grep -qE 'symlink inode [0-9]+' "$log" ||
			{ echo "no log line"; return 1; }
		;;
	*)
		# content: EIO, and every byte handed out is the original's
		if cat "$m/a.bin" >"$out" 2>"$err"; then
			echo "read succeeded"
			return 1
		fi
		grep -q 'Input/output error' "$err" ||
			{ echo "read: $(cat "$err")"; return 1; }
		cmp -s "$out" <(head -c "$(stat -c %s "$out")" "$tmp/a.src") ||
			{ echo "wrong bytes handed out"; return 1; }
		grep -qE 'authentication failed: inode [0-9]+ block [0-9]+|bad file header in inode [0-9]+' "$log" ||
			{ echo "no log line"; return 1; }
		;;
	esac
	return 0
}
KINDS=(block tag nonce header fileid name diriv namefile conf swap-in-file
	swap-files truncated-block short-tail truncated-header garbage copied-header
	xattr-value symlink)

# damage_case KIND: one copy of the fresh volume, damaged one way, through
# (a) the mount, (b) vcryptfs -fsck, (c) gocryptfs -fsck.
damage_case() {
	local k=$1 c log rc why want what
	c=$tmp/c-$k
	cp -a "$BASE" "$c"
	do_damage "$k" "$c" || { fail "tamper: $k: damaging failed"; return; }
	log=$tmp/$k.log
	: >"$log"
	# (a) the mount
	if [ "$k" = conf ]; then
		tamper_mount "$c" "$tmp/mc-$k" "$log"
		rc=$?
		if [ "$rc" = 12 ] && ! mountpoint -q "$tmp/mc-$k"; then
			MOUNT_RES[$k]="refused, exit 12"
			pass "tamper: $k: mount refused with exit 12"
		else
			MOUNT_RES[$k]="exit $rc"
			fail "tamper: $k: mount exited $rc, want 12"
			mountpoint -q "$tmp/mc-$k" && umnt "$tmp/mc-$k"
		fi
	elif tamper_mount "$c" "$tmp/mc-$k" "$log"; then
		if why=$(mount_check "$k" "$tmp/mc-$k" "$log"); then
			case "$k" in
			name | diriv | namefile) MOUNT_RES[$k]="hidden, logged" ;;
			truncated-header) MOUNT_RES[$k]="EIO at open, size 0, logged" ;;
			*) MOUNT_RES[$k]="EIO, logged" ;;
			esac
			pass "tamper: $k: mount reports it (${MOUNT_RES[$k]})"
		else
			MOUNT_RES[$k]="NOT reported: $why"
			fail "tamper: $k: mount: $why"
			sed 's/^/    log: /' "$log" | head -n 5
		fi
		umnt "$tmp/mc-$k"
	else
		MOUNT_RES[$k]="mount failed"
		fail "tamper: $k: the damaged copy did not mount"
	fi
	# (b) vcryptfs -fsck
	case "$k" in
	conf) want=12 what= ;;
	name) want=26 what="corrupt entry in dir \"\": \"[^\"]+\"" ;;
	diriv) want=26 what='in dir "sub": ' ;;
	namefile) want=26 what='corrupt entry in dir "": "gocryptfs.longname' ;;
	truncated-header) want=26 what='"small.txt" \(inum [0-9]+\)' ;;
	xattr-value) want=26 what='xattr "user.note" from "a.bin"' ;;
	symlink) want=26 what='symlink "lnk"' ;;
	*) want=26 what='error reading file "a.bin" \(inum [0-9]+\)' ;;
	esac
	fsck_case "$k" "$c" "$want" "$what"
	[ "$k" = conf ] && FSCK_RES[$k]="exit 12 ($(tail -n1 "$tmp/fsck.err"))"
	# (c) gocryptfs -fsck
	go_fsck "$k" "$c" "$want"
}
# one case per kind: case_block, case_swap_in_file, ...
for k in "${KINDS[@]}"; do
	eval "case_${k//-/_}() { damage_case $k; }"
done

# the fresh volume itself, and a wrong password (the unlock exit code, no walk)
case_fresh() {
	local rc
	fsck_case "fresh volume" "$BASE" 0 'fsck summary: no problems found'
	go_fsck "fresh volume" "$BASE" 0
	"$VC" -fsck -passfile "$tmp/wrongpass" "$BASE" >/dev/null 2>&1
	rc=$?
	[ "$rc" = 12 ] && pass "tamper: -fsck with a wrong password exits 12" ||
		fail "tamper: -fsck with a wrong password exited $rc, want 12"
}

# ---------------------------------------------------------------------------
# Clean volumes: the two gocryptfs 2.3 examples (symlinks restored by
# prep_example, lib.sh) and one volume per option set, filled through a mount.
CLEAN=()
case_clean_examples() {
	local name d before rc
	for name in aesgcm xchacha; do
		d=$EX/gocryptfs-2.3-$name
		if [ ! -d "$d/cipherdir" ]; then
			fail "tamper: example $d missing"
			continue
		fi
		prep_example "$d/cipherdir" "$tmp/ex-$name"
		cp "$d/passfile.txt" "$tmp/ex-$name.pass"
		before=$(digest "$tmp/ex-$name")
		"$VC" -fsck -passfile "$d/passfile.txt" "$tmp/ex-$name" >"$tmp/fsck.out" 2>&1
		rc=$?
		if [ "$rc" = 0 ] && grep -qx 'fsck summary: no problems found' "$tmp/fsck.out" &&
			[ "$(digest "$tmp/ex-$name")" = "$before" ]; then
			pass "tamper: -fsck clean on gocryptfs 2.3 example $name"
		else
			fail "tamper: -fsck on example $name exited $rc"
			sed 's/^/    /' "$tmp/fsck.out" | head -n 5
		fi
		CLEAN+=("$tmp/ex-$name")
	done
}

case_clean_options() {
	local opt v
	for opt in -xchacha -aessiv -plaintextnames -deterministic-names; do
		v=$tmp/v$opt
		mkdir "$v"
		if ! "$VC" -init -q -scryptn 10 -passfile "$PF" $opt "$v" >/dev/null 2>&1; then
			fail "tamper: -init $opt failed"
			continue
		fi
		if tamper_mount "$v" "$tmp/mv$opt" "$tmp/v$opt.log"; then
			fill "$tmp/mv$opt" || fail "tamper: filling the $opt volume failed"
			umnt "$tmp/mv$opt"
		else
			fail "tamper: $opt volume did not mount"
			continue
		fi
		fsck_case "clean $opt volume" "$v" 0 'fsck summary: no problems found'
		CLEAN+=("$v")
	done
}

# a hole: sparse file through the mount, still clean
case_sparse() {
	if tamper_mount "$BASE" "$tmp/m" "$tmp/base.log"; then
		truncate -s 40960 "$tmp/m/sparse" && printf end >>"$tmp/m/sparse"
		umnt "$tmp/m"
		fsck_case "volume with a sparse file" "$BASE" 0 'no problems found'
	fi
}

# ---------------------------------------------------------------------------
# Long names and hard links (FORMAT.md 5.7, 8): an orphan .name file, a
# .name whose content does not hash to its object's name (gocryptfs does
# not check either), a damaged hard-linked inode reported once.
case_orphan() {
	local c
	c=$tmp/c-orphan
	cp -a "$BASE" "$c"
	rm -f "$c/${CP[$LONG]}"
	fsck_case "orphan .name file" "$c" 26 'orphan long-name file in dir "": "gocryptfs.longname'
	go_fsck "orphan .name file" "$c" 26
}

case_hash() {
	local c h h2
	c=$tmp/c-hash
	cp -a "$BASE" "$c"
	h=${CP[$LONG]}
	h2=${h%?}A
	[ "$h2" = "$h" ] && h2=${h%?}B
	mv "$c/$h" "$c/$h2"
	mv "$c/$h.name" "$c/$h2.name"
	fsck_case "long name not matching its hash" "$c" 26 "\"$h2\": content of $h2.name does not hash"
	go_fsck "long name not matching its hash" "$c" 26
}

case_hardlink() {
	local c
	c=$tmp/c-hardlink
	cp -a "$BASE" "$c"
	if tamper_mount "$c" "$tmp/mh" "$tmp/hl.log"; then
		ln "$tmp/mh/a.bin" "$tmp/mh/hardlink.bin"
		umnt "$tmp/mh"
		damage flip "$c/$A" $((B1 + NL + 5))
		fsck_case "hard-linked damaged file" "$c" 26 'fsck summary: 1 corrupt files'
		[ "$(grep -c 'error reading file' "$tmp/fsck.out")" = 1 ] &&
			pass "tamper: a hard-linked inode is checked once" ||
			fail "tamper: a hard-linked inode was reported more than once"
	else
		fail "tamper: hard-link copy did not mount"
	fi
}

# -masterkey instead of a password (example key from FORMAT.md 14.1)
KEY_GCM=de59192123be4ef380b8e19e3e77ecb09349fa48ebe28b53e098c84a02065604
case_masterkey() {
	local rc
	[ -d "$tmp/ex-aesgcm" ] ||
		prep_example "$EX/gocryptfs-2.3-aesgcm/cipherdir" "$tmp/ex-aesgcm"
	if [ -d "$tmp/ex-aesgcm" ]; then
		"$VC" -fsck -masterkey "$KEY_GCM" "$tmp/ex-aesgcm" >"$tmp/fsck.out" 2>&1
		rc=$?
		[ "$rc" = 0 ] && pass "tamper: -fsck -masterkey on example aesgcm: clean" ||
			fail "tamper: -fsck -masterkey on example aesgcm exited $rc"
	fi
}

case_reverse() {
	local rc
	"$VC" -fsck -reverse -passfile "$PF" "$BASE" >/dev/null 2>&1
	rc=$?
	[ "$rc" = 1 ] && pass "tamper: -fsck -reverse refused with exit 1" ||
		fail "tamper: -fsck -reverse exited $rc, want 1"
}

# SIGINT during the walk -> exit 11. Deterministic: 1500 undecryptable
# names fill a pipe nobody reads, so -fsck blocks inside the walk; the
# first line read proves the walk (and its signal handler) started.
case_sigint() {
	local c pid started line rc
	c=$tmp/c-sigint
	cp -a "$BASE" "$c"
	(cd "$c" && for i in $(seq 1 1500); do : >"junk-name-$i"; done)
	mkfifo "$tmp/fifo"
	"$VC" -fsck -passfile "$PF" "$c" >"$tmp/fifo" 2>/dev/null &
	pid=$!
	exec 3<"$tmp/fifo"
	started=0
	for i in 1 2 3 4; do # "Decrypting master key" and such come first
		IFS= read -r -t 20 line <&3 || break
		case "$line" in "fsck: corrupt entry"*) started=1 && break ;; esac
	done
	if [ "$started" = 1 ]; then
		kill -INT "$pid"
		cat <&3 >"$tmp/sigint.out"
		wait "$pid"
		rc=$?
		if [ "$rc" = 11 ] && grep -qx 'fsck: aborted' "$tmp/sigint.out"; then
			pass "tamper: SIGINT during -fsck: exit 11, \"fsck: aborted\""
		else
			fail "tamper: SIGINT during -fsck: exit $rc"
		fi
	else
		kill "$pid" 2>/dev/null
		cat <&3 >/dev/null
		wait "$pid"
		fail "tamper: SIGINT test: -fsck printed no corrupt entry first"
	fi
	exec 3<&-
}

# The same -fsck cases with the ASan/UBSan build (the damaged copies and
# clean volumes the cases before it made)
case_sanitized() {
	local n bad k want rc v p
	if [ ! -x "$SANVC" ]; then
		fail "tamper: $SANVC not built (make san-build)"
	else
		mkdir -p "$tmp/san"
		export ASAN_OPTIONS="log_path=$tmp/san/asan"
		export UBSAN_OPTIONS="log_path=$tmp/san/ubsan:print_stacktrace=1"
		n=0 bad=0
		for k in "${KINDS[@]}" orphan hash hardlink sigint; do
			want=26
			[ "$k" = conf ] && want=12
			[ -d "$tmp/c-$k" ] || continue
			"$SANVC" -fsck -passfile "$PF" "$tmp/c-$k" >/dev/null 2>&1
			rc=$?
			n=$((n + 1))
			[ "$rc" = "$want" ] || { bad=1; echo "  sanitized -fsck $k: exit $rc"; }
		done
		for v in "$BASE" "${CLEAN[@]}"; do
			p=$PF
			[ -f "$v.pass" ] && p=$v.pass
			"$SANVC" -fsck -passfile "$p" "$v" >/dev/null 2>&1
			rc=$?
			n=$((n + 1))
			[ "$rc" = 0 ] || { bad=1; echo "  sanitized -fsck $v: exit $rc"; }
		done
		unset ASAN_OPTIONS UBSAN_OPTIONS
		if [ -n "$(cat "$tmp"/san/* 2>/dev/null)" ]; then
			fail "tamper: sanitizer reports from -fsck"
			head -n 20 "$tmp"/san/* | sed 's/^/    /'
		elif [ "$bad" = 0 ]; then
			pass "tamper: $n -fsck runs under ASan/UBSan, same exit codes, no reports"
		else
			fail "tamper: sanitized -fsck exit codes differ"
		fi
	fi
}

# shellcheck disable=SC2046 # the kinds are single words
run_cases case_fresh $(printf 'case_%s ' "${KINDS[@]//-/_}") \
	case_clean_examples case_clean_options case_sparse \
	case_orphan case_hash case_hardlink case_masterkey case_reverse \
	case_sigint case_sanitized

# The table for the report (after every case)
echo "# damage kind | vcryptfs mount | vcryptfs -fsck | gocryptfs -fsck exit"
for row in "${GO_TABLE[@]}"; do
	k=${row%%|*}
	echo "# $k | ${MOUNT_RES[$k]:--} | ${FSCK_RES[$k]:-FAILED} | ${row#*|}"
done
if grep -q "$tmp" /proc/mounts; then
	fail "tamper: a mount is left behind"
fi
exit 0
