#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# group: apps: real programs on a mount, their outcomes compared with the
# same run on a plain directory. Each program runs in a fresh folder of
# the plain directory first, then of four mounts: AES-GCM and -xchacha,
# each through /dev/fuse (-nouring, the ASan/UBSan daemon $SANBUILD) and
# through FUSE over io_uring ($BUILD daemon; the fuse module parameter
# enable_uring is set to Y and put back at exit; a kernel without it is a
# loud SKIP of those two mounts). An outcome is what the program printed
# and its exit codes, plus a listing of the tree it left (lib.sh's
# treesum: type, path, size, sha256, link count, mode, user xattrs; no
# times or inode numbers). A case passes for a mount when the plain run
# had no failed step and the mount's outcome is the plain one, line for
# line. Cases (one per program; tests/run.sh apps --case NAME):
#   tar      extract a tree (sparse file, hard links, symlinks, a fifo, a
#            long name, xattrs), remount, tar --compare; create with
#            --sort=name (archive bytes); --sparse create and extract
#   rsync    -aHAX plain -> mount, --checksum (no change found), --inplace
#            of changed files, --delete, then mount -> plain, trees equal
#   git      init, add and commit 2,000 files, branch, switch back and
#            forth, gc, fsck --full, status clean, commit IDs
#   sqlite   rollback journal and WAL: 10,000 transactions (SAVEPOINTs,
#            every tenth rolled back) in 100 commits, integrity_check;
#            kill -9 of a writer in a 1.6 MB transaction, integrity_check
#            and the count of rows of before
#   cp       cp -a plain -> mount and mount -> mount
#   mv       mv of files and directories across directories
#   make     make of tests/apps/cproj, run, touch one source, make again
#   mmap     tests/apps/mmapw.py: writes through a shared mapping
#   append   two processes appending lines with O_APPEND at once
#   find     find -exec sha256sum {} +, find -exec rm {} \;, -delete
#   du       du --apparent-size per file; disk usage covers the data, the
#            sparse file uses less than its size
#   ln       hard links and symlinks made by ln (-s, -sf, -sr)
# Every mount is unmounted by the EXIT trap.
. "$(dirname "$0")/lib.sh"
for t in fusermount3 tar rsync git sqlite3 make gcc python3 mkfifo; do
	need_tool "$t" || exit 0
done
need_fuse apps || exit 0
VC=$PWD/$BUILD/vcryptfs
SANVC=$PWD/$SANBUILD/vcryptfs
need_built apps "$VC" "$SANVC" || exit 0
A=$PWD/tests/apps
PARAM=/sys/module/fuse/parameters/enable_uring
OLD=
tmp=$(mktemp -d /tmp/vcryptfs-64.XXXXXX)
MOUNTS=()
# shellcheck disable=SC2317 # called by the EXIT trap
cleanup() {
	[ -n "${SQLPID:-}" ] && kill -9 "$SQLPID" 2>/dev/null
	unmount_all "${MOUNTS[@]}"
	[ -n "$OLD" ] && echo "$OLD" >"$PARAM"
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
san_log_to "$tmp/san"
printf 'apps-test-password\n' >"$tmp/pf"
export HOME=$tmp/home GIT_CONFIG_NOSYSTEM=1 LC_ALL=C TZ=UTC
mkdir -p "$HOME"
export GIT_AUTHOR_NAME=apps GIT_AUTHOR_EMAIL=apps@example.invalid
export GIT_COMMITTER_NAME=apps GIT_COMMITTER_EMAIL=apps@example.invalid
export GIT_AUTHOR_DATE=@1700000000 GIT_COMMITTER_DATE=@1700000000

# ---- the source tree (on the plain disk), made once ----
mk_src() {
	local s=$tmp/src
	mkdir -p "$s"
	python3 - "$s" <<'PY'
import os, random, sys
s = sys.argv[1]
r = random.Random(64)
for d in ("a", "a/b", "a/b/c", "docs", "empty"):
    os.makedirs(os.path.join(s, d), exist_ok=True)
sizes = [0, 1, 15, 16, 4095, 4096, 4097, 8192, 65536, 131073, 1 << 20]
for i in range(120):
    n = sizes[i] if i < len(sizes) else r.randrange(0, 70000)
    d = ("a", "a/b", "a/b/c", "docs")[i % 4]
    ext = (".txt", ".c", ".bin")[i % 3]
    with open(os.path.join(s, d, "f%03d%s" % (i, ext)), "wb") as f:
        f.write(r.randbytes(n))
with open(os.path.join(s, "sparse"), "wb") as f:
    f.write(b"head" * 1000)
    f.seek(2 << 20)
    f.write(b"middle" * 1000)
    f.truncate(5 << 20)
os.link(os.path.join(s, "a/f000.txt"), os.path.join(s, "docs/hard0"))
os.link(os.path.join(s, "a/f004.c"), os.path.join(s, "a/b/hard4"))
os.symlink("f004.c", os.path.join(s, "a/rel-link"))
os.symlink("../docs", os.path.join(s, "a/dir-link"))
os.symlink("nowhere/at/all", os.path.join(s, "dangling"))
with open(os.path.join(s, "L" * 200 + ".long"), "wb") as f:
    f.write(b"a long name\n")
os.setxattr(os.path.join(s, "docs/f003.txt"), "user.comment", b"x" * 300)
os.mkfifo(os.path.join(s, "fifo"))
os.chmod(os.path.join(s, "a/b/f001.c"), 0o600)
os.chmod(os.path.join(s, "docs"), 0o750)
PY
	touch -h -d @1600000000 "$s/dangling"
	find "$s" -exec touch -h -d @1600000000 {} +
	tar --sort=name --xattrs -cf "$tmp/tree.tar" -C "$s" .
}

# ---- the places a case runs in ----
# VARIANTS: plain, then the mounts that could be made. Per mount V:
# C_V cipher dir, M_V mountpoint, D_V daemon, O_V mount flags.
VARIANTS=(plain)
declare -A CDIR MNT DAEMON OPTS
mount_v() {
	local v=$1
	if [ "${OPTS[$v]}" = uring ]; then
		echo Y >"$PARAM" || return 1
		"${DAEMON[$v]}" -q -passfile "$tmp/pf" "${CDIR[$v]}" "${MNT[$v]}"
	else
		"${DAEMON[$v]}" -q -nouring -passfile "$tmp/pf" "${CDIR[$v]}" \
			"${MNT[$v]}"
	fi
}
# io_uring instances the daemon of mountpoint M holds
rings_of() {
	local pid f n=0
	pid=$(pgrep -n -f -- "-passfile $tmp/pf .* $1\$" || true)
	[ -n "$pid" ] || { echo none; return; }
	for f in /proc/"$pid"/fd/*; do
		[ "$(readlink "$f" 2>/dev/null)" = "anon_inode:[io_uring]" ] &&
			n=$((n + 1))
	done
	echo "$n"
}
add_mount() {
	local v=$1 cflag=$2 daemon=$3 how=$4 n
	CDIR[$v]=$tmp/$v.c MNT[$v]=$tmp/$v.m DAEMON[$v]=$daemon OPTS[$v]=$how
	mkdir -p "${CDIR[$v]}" "${MNT[$v]}"
	# shellcheck disable=SC2086 # cflag is empty or one flag
	if ! "$VC" -init -q -scryptn 10 $cflag -passfile "$tmp/pf" \
		"${CDIR[$v]}" >"$tmp/$v.init" 2>&1; then
		fail "apps $v: -init failed: $(head -c 300 "$tmp/$v.init")"
		return
	fi
	MOUNTS+=("${MNT[$v]}")
	if ! mount_v "$v" 2>"$tmp/$v.err"; then
		fail "apps $v: mount failed: $(head -c 300 "$tmp/$v.err")"
		return
	fi
	stat "${MNT[$v]}" >/dev/null
	n=$(rings_of "${MNT[$v]}")
	if [ "$how" = uring ] && { [ "$n" = none ] || [ "$n" -lt 1 ]; }; then
		fail "apps $v: the daemon holds no io_uring ($n): not served through io_uring"
		return
	fi
	if [ "$how" = dev ] && [ "$n" != 0 ]; then
		fail "apps $v: the -nouring daemon holds $n io_uring instances"
		return
	fi
	pass "apps $v: mounted ($how, daemon holds $n io_uring instances)"
	VARIANTS+=("$v")
}
dir_of() {
	if [ "$1" = plain ]; then echo "$tmp/plain"; else echo "${MNT[$1]}"; fi
}
# remount V: unmount and mount again (the plain directory: nothing)
remount() {
	[ "$1" = plain ] && return 0
	fusermount3 -u "${MNT[$1]}" || return 1
	mount_v "$1" 2>>"$tmp/$1.err"
}

# st LABEL CMD...: run a step; its output goes to the case's log, the
# outcome gets "LABEL ok" or "LABEL FAILED rc=N"
st() {
	local label=$1 rc
	shift
	"$@" >>"$LOG" 2>&1
	rc=$?
	if [ "$rc" = 0 ]; then echo "$label ok"; else echo "$label FAILED rc=$rc"; fi
	return "$rc"
}
tsum() { treesum "$1"; }

# ---- the programs: app_NAME V DIR prints the outcome, run in DIR ----
app_tar() {
	mkdir x
	st extract tar --xattrs -xf "$tmp/tree.tar" -C x
	cd / || return
	st remount remount "$1"
	cd "$2" || return
	st compare tar --xattrs --compare -f "$tmp/tree.tar" -C x
	tsum x
	# the archive's bytes: no atime or ctime (pax records them otherwise)
	st create tar --sort=name --xattrs \
		--pax-option=delete=atime,delete=ctime -cf out.tar -C x .
	echo "archive $(sha256sum <out.tar | cut -c1-16)"
	# a sparse file made here: tar --sparse finds its holes (SEEK_HOLE)
	python3 -c 'import os
fd = os.open("sp", os.O_WRONLY | os.O_CREAT, 0o644)
os.pwrite(fd, b"head" * 1000, 0)
os.pwrite(fd, b"middle" * 1000, 2 << 20)
os.ftruncate(fd, 5 << 20)
os.close(fd)'
	touch -d @1600000000 sp
	st sparse-create tar --sparse -cf sparse.tar sp
	echo "sparse archive $(sha256sum <sparse.tar | cut -c1-16) size $(stat -c %s sparse.tar)"
	mkdir sx
	st sparse-extract tar --sparse -xf sparse.tar -C sx
	st sparse-compare tar --sparse --compare -f sparse.tar -C sx
	cmp sp sx/sp && echo "sparse extracted: same bytes"
	[ "$(du -B1 sx/sp | cut -f1)" -lt $((1 << 20)) ] &&
		echo "sparse extracted: holes kept"
}
app_rsync() {
	local back=$tmp/back-$1 work=$tmp/rs-$1
	st to-mount rsync -aHAX "$tmp/src/" r/
	tsum r
	echo "checksum run: $(rsync -aHAX --checksum -i "$tmp/src/" r/ | sort | tr '\n' ' ')"
	cp -a "$tmp/src" "$work"
	head -c 5000 /dev/zero >>"$work/a/f004.c"
	printf 'changed in place' | dd of="$work/docs/f003.txt" bs=1 seek=100 conv=notrunc status=none
	head -c 70000 "$work/a/b/f005.bin" >"$work/a/b/f009.txt"
	touch -d @1650000000 "$work/a/f004.c" "$work/docs/f003.txt" "$work/a/b/f009.txt"
	echo "inplace run: $(rsync -aHAX --inplace -i "$work/" r/ | sort | tr '\n' ' ')"
	rm -rf "$work/a/b/c" "$work/docs/f011.bin"
	echo "delete run: $(rsync -aHAX --delete -i "$work/" r/ | sort | tr '\n' ' ')"
	tsum r
	st from-mount rsync -aHAX r/ "$back/"
	if [ "$(tsum "$back")" = "$(tsum "$work")" ]; then
		echo "mount -> plain: same tree as the source"
	else
		echo "mount -> plain: trees differ"
	fi
}
app_git() {
	st init git init -q -b main g
	cd g || return
	python3 - <<'PY'
import os
for d in range(40):
    os.mkdir("d%02d" % d)
    for f in range(50):
        with open("d%02d/f%02d.txt" % (d, f), "w") as fh:
            fh.write("file %d %d\n" % (d, f) * (1 + (d * f) % 40))
PY
	st add git add -A
	st commit git commit -q -m "2000 files"
	echo "files in HEAD: $(git ls-files | wc -l)"
	st branch git checkout -q -b topic
	for d in 03 17 29; do
		for f in 01 02 03 04 05; do echo "topic change" >>"d$d/f$f.txt"; done
	done
	git rm -q d05/f1*.txt
	mkdir -p new && echo fresh >new/file.txt
	st add2 git add -A
	st commit2 git commit -q -m topic
	st switch-main git checkout -q main
	echo "main: index $(git ls-files -s | sha256sum | cut -c1-16), status [$(git status --porcelain)]"
	echo "main d03/f01.txt: $(tail -c 30 d03/f01.txt | tr '\n' ' ')"
	st switch-topic git checkout -q topic
	st gc git gc -q
	st fsck git fsck --full --strict
	echo "status: [$(git status --porcelain)]"
	echo "main $(git rev-parse main) topic $(git rev-parse topic)"
	echo "objects after gc: $(git count-objects -v | grep -E '^(count|in-pack|packs):' | tr '\n' ' ')"
}
sql_script() {
	python3 - "$1" <<'PY'
import sys
print("PRAGMA journal_mode=%s;" % sys.argv[1])
print("CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT, c INTEGER);")
n = 0
for c in range(100):
    print("BEGIN;")
    for s in range(100):
        print("SAVEPOINT s; INSERT INTO t(b, c) VALUES('row %d', %d);" % (n, n))
        if n % 10 == 9:
            print("ROLLBACK TO s;")
        print("RELEASE s;")
        n += 1
    print("UPDATE t SET c = c + 1 WHERE a %% 100 = %d;" % c)
    print("COMMIT;")
print("PRAGMA integrity_check;")
print("SELECT count(*), sum(c), sum(length(b)) FROM t;")
PY
}
# kill -9 of a writer inside a transaction that has written to the files
sql_kill() {
	local db=$1 mode=$2 fifo=$tmp/fifo-$3 out=$tmp/killout-$3
	rm -f "$fifo" "$out"
	mkfifo "$fifo"
	sqlite3 "$db" <"$fifo" >"$out" 2>&1 &
	SQLPID=$!
	exec 7>"$fifo"
	printf '%s\n' "PRAGMA journal_mode=$mode;" "PRAGMA cache_size=5;" \
		"BEGIN;" "INSERT INTO t(b, c) SELECT hex(randomblob(400)), x FROM (WITH RECURSIVE q(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM q WHERE x < 2000) SELECT x FROM q);" \
		".print inserted" >&7
	for _ in $(seq 600); do
		grep -q inserted "$out" 2>/dev/null && break
		sleep 0.1
	done
	grep -q inserted "$out" && echo "$mode: writer inside its transaction"
	kill -9 "$SQLPID"
	wait "$SQLPID" 2>/dev/null
	SQLPID=
	exec 7>&-
	if [ "$mode" = wal ]; then
		[ -s "$db-wal" ] && echo "$mode: the killed writer left its wal"
	else
		[ -s "$db-journal" ] && echo "$mode: the killed writer left a hot journal"
	fi
	echo "$mode after kill: $(sqlite3 "$db" 'PRAGMA integrity_check; SELECT count(*), sum(c) FROM t;' | tr '\n' ' ')"
}
app_sqlite() {
	local mode
	for mode in delete wal; do
		sql_script "$mode" >"$tmp/sql-$1-$mode"
		echo "$mode: $(sqlite3 "$mode.db" <"$tmp/sql-$1-$mode" | tr '\n' ' ')"
		sql_kill "$2/$mode.db" "$mode" "$1-$mode"
	done
}
app_cp() {
	st cp-in cp -a "$tmp/src" in
	tsum in
	st cp-within cp -a in again
	if [ "$(tsum in)" = "$(tsum again)" ]; then echo "mount -> mount copy: same tree"; fi
}
app_mv() {
	st copy cp -a "$tmp/src/a" one
	mkdir two
	st mv-files mv one/f*.txt two/
	st mv-dir mv one/b two/moved-b
	st mv-over mv two/f000.txt two/moved-b/f005.bin
	mkdir -p three/deep
	st mv-up mv two/moved-b/c three/deep/
	st mv-back mv three/deep/c one/c-again
	tsum .
}
app_make() {
	cp -r "$A/cproj" mk
	cd mk || return
	touch -d @1600000000 ./*
	st make make --no-print-directory
	echo "run: $(./hello)"
	touch sum.c
	echo "rebuild: $(make --no-print-directory | tr '\n' ';')"
	make -q && echo "up to date"
	st clean make --no-print-directory clean
	echo "left: $(ls | tr '\n' ' ')"
}
app_mmap() {
	python3 "$A/mmapw.py" mm.bin
	tsum .
}
app_append() {
	python3 "$A/appendw.py" log A 3000 &
	local p1=$!
	python3 "$A/appendw.py" log B 3000 &
	local p2=$!
	st writer-A wait "$p1"
	st writer-B wait "$p2"
	echo "lines $(wc -l <log) bytes $(stat -c %s log) sorted $(sort log | sha256sum | cut -c1-16)"
	for w in A B; do
		if grep "^$w " log | awk -v w="$w" '{ if ($2 + 0 != n++) bad = 1 } END { exit bad }'; then
			echo "$w: lines in order, none torn"
		fi
	done
}
app_find() {
	st copy cp -a "$tmp/src" t
	find t -type f -exec sha256sum {} + | sort -k2
	st exec-rm find t -name '*.bin' -exec rm {} \;
	st delete find t -name '*.c' -delete
	st rmdir find t -depth -type d -empty -exec rmdir {} \;
	tsum t
}
app_du() {
	local app disk
	st copy cp -a "$tmp/src" t
	find t ! -type d -print0 | du -l -b --apparent-size --files0-from=- | sort -k2
	app=$(du -sb --apparent-size t | cut -f1)
	disk=$(du -sB1 t | cut -f1)
	[ "$disk" -ge $((app - (5 << 20) + 8192)) ] && echo "disk usage covers the data"
	[ "$(du -B1 t/sparse | cut -f1)" -lt $((5 << 20)) ] && echo "the sparse file is sparse"
}
app_ln() {
	mkdir -p l/sub
	cd l || return
	echo data >a
	st hard ln a b
	st hard2 ln a sub/c
	echo "links: $(stat -c %h a)"
	echo more >>b
	echo "a reads: $(tr '\n' ' ' <a)"
	st sym ln -s a s1
	st sym2 ln -s ../a sub/s2
	st symf ln -sf b s1
	st symr ln -sr a sub/s3
	echo "s1 -> $(readlink s1), sub/s3 -> $(readlink sub/s3), sub/s2 reads $(tr '\n' ' ' <sub/s2)"
	rm a
	echo "after rm: links $(stat -c %h b), s1 reads $(tr '\n' ' ' <s1)"
	st dangle ln -s nowhere d
	[ -e d ] || echo "dangling link stays dangling"
	tsum .
}

# run_app NAME: the program on the plain directory, then on each mount
run_app() {
	local a=$1 v d out ref t0
	for v in "${VARIANTS[@]}"; do
		d=$(dir_of "$v")/$a
		mkdir -p "$d" "$tmp/out/$v"
		out=$tmp/out/$v/$a
		LOG=$tmp/out/$v/$a.log
		t0=$(date +%s)
		(cd "$d" && "app_$a" "$v" "$d") >"$out" 2>>"$LOG"
		echo "apps $v: $a took $(($(date +%s) - t0)) s"
		[ -n "${APPS_KEEP:-}" ] && cp "$out" "$APPS_KEEP/$v-$a"
		if [ "$v" = plain ]; then
			ref=$out
			if grep -q FAILED "$ref"; then
				fail "apps $a: failed on the plain directory: $(grep FAILED "$ref" | head -3 | tr '\n' ' ') $(tail -c 300 "$LOG")"
				return
			fi
			continue
		fi
		if cmp -s "$ref" "$out"; then
			pass "apps $v: $a: same outcome as the plain directory ($(wc -l <"$out") lines)"
		else
			fail "apps $v: $a: outcome differs from the plain directory: $(diff "$ref" "$out" | head -8 | tr '\n' '|') $(tail -c 300 "$LOG")"
		fi
	done
}

mk_src
mkdir -p "$tmp/plain"
add_mount gcm-dev "" "$SANVC" dev
add_mount xchacha-dev -xchacha "$SANVC" dev
if [ ! -e "$PARAM" ]; then
	echo "SKIP: apps through io_uring (this kernel has no FUSE over io_uring: no $PARAM)"
elif [ "$(id -u)" -ne 0 ]; then
	if [ "${CI:-}" = true ]; then
		fail "apps: must run as root to set $PARAM"
	else
		echo "SKIP: apps through io_uring (not root: cannot set $PARAM)"
	fi
else
	OLD=$(cat "$PARAM")
	add_mount gcm-uring "" "$VC" uring
	add_mount xchacha-uring -xchacha "$VC" uring
fi

for a in tar rsync git sqlite cp mv make mmap append find du ln; do
	eval "case_$a() { run_app $a; }"
done
run_cases case_tar case_rsync case_git case_sqlite case_cp case_mv \
	case_make case_mmap case_append case_find case_du case_ln
if [ -n "$(ls -A "$tmp/san" 2>/dev/null)" ]; then
	fail "apps: sanitizer reports: $(head -c 600 "$tmp"/san/*)"
fi
exit 0
