#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# group: scale: a tree far larger than the daemon's descriptor limit (issue
# 7, "Scale"). The daemon keeps one O_PATH descriptor per inode the kernel
# knows and the kernel forgets inodes only under memory pressure, so without
# the fd budget (src/fuse/budget.c: a reaper thread asks the kernel to drop
# least recently used dentries above a high watermark) a tree of more files
# than RLIMIT_NOFILE fails with EMFILE. Through the real command line
# (`vcryptfs -passfile F CIPHERDIR MNT`, foreground, started under
# `prlimit --nofile=$SCALE_NOFILE` (512)) and SCALE_FILES (5,000) files in
# nested directories: tar extract, `ls -lR`, read all and compare sha256
# with the source (with 100 files held open meanwhile), rename a directory
# and files, delete all; no EMFILE or EIO anywhere, the daemon's
# descriptors stay under the limit, the cipherdir is empty afterwards, the
# daemon exits 0 on unmount. Once with $BUILD/vcryptfs, once with the
# ASan/UBSan $SANBUILD/vcryptfs (SCALE_SAN=0 skips it; any sanitizer
# report fails). SCALE_KEEP=1 keeps the scratch folder for a look. The two
# runs are the cases plain and san (`tests/run.sh scale --case san`).
. "$(dirname "$0")/lib.sh"
for t in fusermount3 prlimit tar sha256sum python3 mountpoint; do
	need_tool "$t" || exit 0
done
need_fuse scale || exit 0
NOFILE=${SCALE_NOFILE:-512}
NFILES=${SCALE_FILES:-5000}
HELD=${SCALE_HELD:-100}
KEEP_TMP=${SCALE_KEEP:-}
vc_tmpdir 54
HOLDER=
# shellcheck disable=SC2317 # called by the EXIT trap (lib.sh's vc_cleanup)
on_exit() {
	[ -n "$HOLDER" ] && kill "$HOLDER" 2>/dev/null
}
printf 'vc-scale-test\n' >"$tmp/pf"

# The source tree: NFILES files of 0..9,000 bytes (block edges crossed) in
# 10 x 5 nested directories, a few symlinks, one long name.
python3 "$LIB_DIR/scale_tree.py" "$tmp/src" "$NFILES"
tar cf "$tmp/src.tar" -C "$tmp/src" .

# sums DIR: sha256 of every regular file, sorted by path.
sums() {
	(cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum)
}
sums "$tmp/src" >"$tmp/src.sum"

# fdcount PID: descriptors the daemon holds now.
fdcount() {
	local n
	n=$(find "/proc/$1/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)
	echo "$n"
}

# run_scale LABEL DAEMON
run_scale() {
	local label=$1 vc=$2 c="$tmp/c-$1" m="$tmp/m-$1" pid i n bad
	local errs="$tmp/errs-$1"
	mkdir -p "$c" "$m"
	if ! "$BUILD/vcryptfs" -init -q -scryptn 10 -passfile "$tmp/pf" \
		"$c" >"$tmp/init.err" 2>&1; then
		fail "scale: $label: vcryptfs -init failed: $(head -c 300 "$tmp/init.err")"
		return
	fi
	MOUNTS+=("$m")
	prlimit --nofile="$NOFILE:$NOFILE" "$vc" -fg -q -passfile "$tmp/pf" \
		"$c" "$m" >"$tmp/daemon-$label.log" 2>&1 &
	pid=$!
	for i in $(seq 1 200); do
		mountpoint -q "$m" && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if ! mountpoint -q "$m"; then
		fail "scale: $label: mount failed: $(head -c 300 "$tmp/daemon-$label.log")"
		return
	fi
	pass "scale: $label: mounted under prlimit --nofile=$NOFILE"

	# 1. extract
	if tar xf "$tmp/src.tar" -C "$m" 2>"$errs"; then
		pass "scale: $label: tar extract of $NFILES files"
	else
		fail "scale: $label: tar extract: $(head -n 3 "$errs")"
	fi
	n=$(fdcount "$pid")
	if [ "$n" -lt "$NOFILE" ] && [ "$n" -gt 0 ]; then
		pass "scale: $label: daemon holds $n descriptors after the extract (limit $NOFILE)"
	else
		fail "scale: $label: daemon holds $n descriptors after the extract (limit $NOFILE)"
	fi

	# 2. ls -lR: every file listed with its size, no error
	if ls -lR "$m" >"$tmp/ls-$label" 2>"$errs" && [ ! -s "$errs" ]; then
		n=$(grep -c '^-' "$tmp/ls-$label")
		if [ "$n" -eq $((NFILES + 1)) ]; then
			pass "scale: $label: ls -lR lists $n files"
		else
			fail "scale: $label: ls -lR lists $n files, want $((NFILES + 1))"
		fi
	else
		fail "scale: $label: ls -lR: $(head -n 3 "$errs")"
	fi

	# 3. read all with HELD files held open meanwhile
	python3 "$LIB_DIR/scale_hold.py" "$m" "$tmp/held-$label" "$HELD" &
	HOLDER=$!
	for i in $(seq 1 100); do
		[ -e "$tmp/held-$label" ] && break
		sleep 0.1
	done
	sums "$m" >"$tmp/m.sum" 2>"$errs"
	if cmp -s "$tmp/src.sum" "$tmp/m.sum" && [ ! -s "$errs" ]; then
		pass "scale: $label: all $NFILES+1 files read back identical"
	else
		diff "$tmp/src.sum" "$tmp/m.sum" >"$tmp/diff-$label"
		bad=$(grep -c '^[<>]' "$tmp/diff-$label")
		fail "scale: $label: read back: $bad differing lines; $(head -n 2 "$errs")"
		# for the report: which lines, and whether a second walk agrees
		grep '^[<>]' "$tmp/diff-$label" | head -n 4 | sed 's/^/#   /'
		sums "$m" >"$tmp/m2.sum" 2>&1
		if cmp -s "$tmp/src.sum" "$tmp/m2.sum"; then
			echo "#   (a second walk read everything back identical)"
		fi
	fi
	touch "$tmp/held-$label.done"
	wait "$HOLDER"
	HOLDER=
	for i in $(seq 0 $((HELD - 1))); do
		grep -F "./top$((i % 50 / 5))/sub$((i % 5))/$(printf 'file%05d.dat' "$i")" \
			"$tmp/src.sum" | cut -d' ' -f1
	done >"$tmp/held-$label.want"
	if cmp -s "$tmp/held-$label.want" "$tmp/held-$label.sums"; then
		pass "scale: $label: $HELD files held open during the walk read back"
	else
		fail "scale: $label: files held open during the walk"
	fi

	# 4. renames: a whole directory, and 20 files into a new directory
	if mv "$m/top9" "$m/top9-renamed" 2>"$errs" &&
		mkdir "$m/moved" 2>>"$errs" &&
		(cd "$m/top8/sub1" && mv -- file00*.dat ../../moved/) 2>>"$errs"; then
		sed -e 's#\./top9/#./top9-renamed/#' \
			-e 's#\./top8/sub1/\(file00[0-9]*\.dat\)#./moved/\1#' \
			"$tmp/src.sum" | sort -k2 >"$tmp/ren.want"
		sums "$m" | sort -k2 >"$tmp/ren.got"
		if cmp -s "$tmp/ren.want" "$tmp/ren.got"; then
			pass "scale: $label: renames, contents follow"
		else
			fail "scale: $label: after renames: $(diff "$tmp/ren.want" "$tmp/ren.got" | head -n 3)"
		fi
	else
		fail "scale: $label: rename: $(head -n 3 "$errs")"
	fi

	# 5. delete all
	if rm -rf "${m:?}"/* 2>"$errs" && [ -z "$(ls -A "$m")" ]; then
		pass "scale: $label: deleted all"
	else
		fail "scale: $label: rm -rf: $(head -n 3 "$errs")"
	fi
	n=$(find "$c" -mindepth 1 | grep -cv -e '/gocryptfs.conf$' -e '/gocryptfs.diriv$')
	if [ "$n" -eq 0 ]; then
		pass "scale: $label: cipherdir empty after the delete"
	else
		fail "scale: $label: $n entries left in the cipherdir"
	fi

	if grep -qiE 'too many open files|EMFILE|input/output error' \
		"$tmp/daemon-$label.log"; then
		fail "scale: $label: daemon log: $(head -n 3 "$tmp/daemon-$label.log")"
	fi
	umnt "$m"
	if wait "$pid"; then
		pass "scale: $label: daemon exited 0 after unmount"
	else
		fail "scale: $label: daemon exit status $?"
	fi
}

case_plain() {
	run_scale plain "$BUILD/vcryptfs"
}

case_san() {
	if want_san_daemon scale SCALE_SAN; then
		run_scale san "$SANBUILD/vcryptfs"
		unset ASAN_OPTIONS UBSAN_OPTIONS
		san_verdict scale "$tmp/san" "no sanitizer report from the ASan/UBSan daemon"
	fi
}

run_cases case_plain case_san
exit 0
