#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# group: failure: the daemon on the bad day (issue 9), through the real
# command line (`vcryptfs -init`, `vcryptfs -passfile F CIPHERDIR MNT`):
# 1. crash suite: CRASH_ROUNDS (20) rounds of: tests/tools/crashw writes
#    files (unaligned, block-crossing, overwrites, appends), fsyncs some and
#    journals (name, size, sha256) outside the mount; the daemon is
#    SIGKILLed mid-write (at a random moment, or every other round by the
#    writer inside a big write), lazily unmounted and remounted; every fsynced
#    file must read back identically, the others may only hold what their
#    writes produced (or EIO); at the end -fsck may name only those;
# 2. full disk: the cipherdir on a 16 MiB tmpfs, tests/tools/crashfull
#    writes until ENOSPC; the writer must see ENOSPC, the daemon survives,
#    everything acknowledged reads back (before and after a remount), no
#    EIO anywhere, -fsck clean; a failing underlying write: the daemon
#    under a file size limit (ulimit -f), writes past it fail with EFBIG;
# 3. concurrency: tests/tools/concw, 8 threads through two handles into
#    one file, each block a serial order of its writes; then writes racing
#    truncates, no EIO; then whole-block rewrites racing O_DIRECT reads
#    (each block read whole: the daemon's per-inode lock at work).
# Default AES-GCM, and -xchacha with fewer crash rounds; all of it once
# with $BUILD/vcryptfs and once with the ASan/UBSan $SANBUILD/vcryptfs
# (FAILURE_SAN=0 skips that; any sanitizer report fails). The four parts
# are cases (`tests/run.sh failure --case NAME`: crash, full_disk,
# file_limit, concurrency), each with both daemons.
. "$(dirname "$0")/lib.sh"
need_tool fusermount3 || exit 0
need_tool pgrep || exit 0
need_fuse failure || exit 0
VC=$BUILD/vcryptfs
for t in "$VC" "$BUILD/tools/crashw" "$BUILD/tools/crashfull" "$BUILD/tools/concw"; do
	if [ ! -x "$t" ]; then
		fail "failure: $t not built (make tests-build)"
		exit 0
	fi
done
CRASHW=$BUILD/tools/crashw
CRASHFULL=$BUILD/tools/crashfull
CONCW=$BUILD/tools/concw
ROUNDS=${CRASH_ROUNDS:-20}
vc_tmpdir 58
WPIDS=()
# shellcheck disable=SC2317 # called by the EXIT trap (lib.sh's vc_cleanup)
on_exit() {
	local p
	for p in "${WPIDS[@]}"; do kill -9 "$p" 2>/dev/null; done
}
printf 'vc-failure-test\n' >"$tmp/pf"

# mnt DAEMON CIPHERDIR MNT: background mount through the real CLI.
mnt() {
	VC_BIN=$1 PASSFILE=$tmp/pf vc_mount "$2" "$3" 2>"$tmp/mnt.err"
}
# daemon_pid CIPHERDIR MNT: the background daemon serving MNT.
daemon_pid() {
	pgrep -n -f -- "-passfile $tmp/pf $1 $2\$"
}
# fsck_check LABEL DAEMON CIPHERDIR ALLOWED-NAMES-REGEX
# -fsck exits 0, or 26 naming only files that match the regex.
fsck_check() {
	local label=$1 vc=$2 c=$3 allow=$4 rc bad named
	"$vc" -fsck -passfile "$tmp/pf" "$c" >"$tmp/fsck.out" 2>&1
	rc=$?
	bad=$(grep '^fsck: ' "$tmp/fsck.out" | grep -v '^fsck summary' |
		grep -v -E "\"[^\"]*($allow)\"" | head -n 3)
	named=$(grep '^fsck: ' "$tmp/fsck.out" | grep -c -v '^fsck summary')
	if [ "$rc" = 0 ]; then
		pass "failure: $label: -fsck clean (exit 0)"
	elif [ "$rc" = 26 ] && [ -z "$bad" ] && [ "$named" -gt 0 ]; then
		pass "failure: $label: -fsck exit 26, its $named problem lines all name files being written"
	else
		fail "failure: $label: -fsck exit $rc: ${bad:-$(tail -n 3 "$tmp/fsck.out")}"
	fi
}

# crash_suite LABEL DAEMON INIT-FLAGS ROUNDS
crash_suite() {
	local label=$1 vc=$2 flags=$3 rounds=$4
	local c=$tmp/crash-$label m=$tmp/cm-$label j=$tmp/journal-$label
	local r rr pid wpid wrc n want lost=0 bad=0 t0=$SECONDS msg allow kargs
	mkdir -p "$c"
	# shellcheck disable=SC2086
	if ! "$VC" -init -q -scryptn 10 -passfile "$tmp/pf" $flags "$c" >"$tmp/mnt.err" 2>&1; then
		fail "failure: $label: vcryptfs -init failed"
		return
	fi
	: >"$j"
	for ((r = 0; r < rounds; r++)); do
		rr=$(printf %02d "$r")
		if ! mnt "$vc" "$c" "$m"; then
			fail "failure: $label: round $r: remount after the kill failed: $(head -c 300 "$tmp/mnt.err")"
			bad=1
			break
		fi
		if [ "$r" -gt 0 ] && ! "$CRASHW" verify "$m" "$j" $((r - 1)) \
			>"$tmp/verify.out" 2>&1; then
			fail "failure: $label: round $((r - 1)) after SIGKILL: $(head -c 600 "$tmp/verify.out")"
			bad=1
		fi
		pid=$(daemon_pid "$c" "$m")
		if [ -z "$pid" ]; then
			fail "failure: $label: round $r: no daemon pid to kill"
			bad=1
			break
		fi
		# Let it fsync a few files, then kill the daemon mid-write: from
		# here at a random moment (even rounds), or from the writer
		# 0..4 ms into a big write (odd rounds: torn blocks are likely).
		want=$((2 + r % 6))
		kargs=()
		[ $((r % 2)) = 1 ] && kargs=("$pid" "$want")
		"$CRASHW" write "$m" "$j" "$r" "$((r * 7919 + ${#label}))" \
			"${kargs[@]}" >"$tmp/writer.out" 2>&1 &
		wpid=$!
		WPIDS+=("$wpid")
		for _ in $(seq 1 200); do
			if [ $((r % 2)) = 1 ]; then
				kill -0 "$pid" 2>/dev/null || break
			else
				n=$(grep -c "^S s$rr-" "$j")
				[ "$n" -ge "$want" ] && break
			fi
			kill -0 "$wpid" 2>/dev/null || break
			sleep 0.05
		done
		[ $((r % 2)) = 1 ] || sleep "0.0$((RANDOM % 10))"
		kill -9 "$pid" 2>/dev/null
		wait "$wpid"
		wrc=$?
		if [ "$wrc" != 0 ] || ! grep -q 'stopped by' "$tmp/writer.out"; then
			fail "failure: $label: round $r: writer exit $wrc: $(head -c 300 "$tmp/writer.out")"
			bad=1
		fi
		fusermount3 -u -z "$m" 2>/dev/null
		[ "$bad" = 0 ] || break
	done
	if [ "$bad" = 0 ] && mnt "$vc" "$c" "$m"; then
		if "$CRASHW" verify "$m" "$j" $((rounds - 1)) >"$tmp/verify.out" 2>&1 &&
			"$CRASHW" verify "$m" "$j" all >"$tmp/verify.out" 2>&1; then
			msg=$(sed -n 's/^crashw: //p' "$tmp/verify.out")
			pass "failure: $label: $rounds x (write, fsync, SIGKILL daemon, lazy unmount, remount): $msg; $((SECONDS - t0)) s"
		else
			lost=1
			fail "failure: $label: after $rounds rounds: $(head -c 600 "$tmp/verify.out")"
		fi
		if ls -la "$m" >/dev/null 2>&1 && umnt "$m"; then
			pass "failure: $label: remounted daemon survived reading every crashed file, clean unmount"
		else
			fail "failure: $label: remounted daemon died or did not unmount"
		fi
	fi
	[ "$bad" = 0 ] && [ "$lost" = 0 ] || return
	# Files not left in state S were being written at some kill.
	allow=$(awk '{last[$2] = $1} END {for (n in last) if (last[n] != "S") print n}' "$j" |
		paste -sd'|')
	fsck_check "$label crash" "$vc" "$c" "${allow:-^$}"
}

# full_disk LABEL DAEMON INIT-FLAGS
full_disk() {
	local label=$1 vc=$2 flags=$3 s=$tmp/small c=$tmp/small/c m=$tmp/fm pid
	if [ "$(id -u)" != 0 ]; then
		if [ "${CI:-}" = true ]; then
			fail "failure: $label: full disk: CI must run as root (tmpfs mount)"
		else
			echo "SKIP: failure: $label: full disk (tmpfs mount needs root)"
		fi
		return
	fi
	mkdir -p "$s"
	if ! mount -t tmpfs -o size=16m vcryptfs-58 "$s"; then
		fail "failure: $label: cannot mount a 16 MiB tmpfs"
		return
	fi
	PLAIN_MOUNTS+=("$s")
	mkdir -p "$c"
	# shellcheck disable=SC2086
	if ! "$VC" -init -q -scryptn 10 -passfile "$tmp/pf" $flags "$c" >"$tmp/mnt.err" 2>&1 ||
		! mnt "$vc" "$c" "$m"; then
		fail "failure: $label: full disk: init/mount failed: $(head -c 300 "$tmp/mnt.err")"
		umount "$s"
		return
	fi
	pid=$(daemon_pid "$c" "$m")
	if "$CRASHFULL" fill "$m" "$tmp/full.state" >"$tmp/full.out" 2>&1; then
		pass "failure: $label: 16 MiB backing fs: $(grep 'ENOSPC at' "$tmp/full.out" | sed 's/^crashfull: //'); $(grep -E 'past the end|partial block|new file' "$tmp/full.out" | sed 's/^crashfull: //' | paste -sd';')"
	else
		fail "failure: $label: full disk writer: $(head -c 500 "$tmp/full.out")"
	fi
	if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && mountpoint -q "$m" &&
		"$CRASHFULL" check "$m" "$tmp/full.state" >"$tmp/check.out" 2>&1; then
		pass "failure: $label: daemon survived ENOSPC; $(sed 's/^crashfull: //' "$tmp/check.out")"
	else
		fail "failure: $label: after ENOSPC: $(head -c 500 "$tmp/check.out" 2>/dev/null)"
	fi
	umnt "$m"
	if mnt "$vc" "$c" "$m" &&
		"$CRASHFULL" check "$m" "$tmp/full.state" >"$tmp/check.out" 2>&1; then
		pass "failure: $label: full disk: remounted, acknowledged data intact, no EIO"
	else
		fail "failure: $label: full disk after remount: $(head -c 500 "$tmp/check.out")"
	fi
	mountpoint -q "$m" && umnt "$m"
	fsck_check "$label full disk" "$vc" "$c" "big"
	umount "$s"
}

# file_limit LABEL DAEMON INIT-FLAGS: a failing underlying write. The
# daemon runs under `ulimit -f 4096` (4 MiB backing files): writes and
# truncates past it must fail with EFBIG (not a torn block, not SIGXFSZ
# ending the daemon), everything acknowledged stays readable.
file_limit() {
	local label=$1 vc=$2 flags=$3
	local c=$tmp/lim-$label m=$tmp/lm-$label pid
	mkdir -p "$c" "$m"
	MOUNTS+=("$m")
	# shellcheck disable=SC2086
	if ! "$VC" -init -q -scryptn 10 -passfile "$tmp/pf" $flags "$c" >"$tmp/mnt.err" 2>&1 ||
		! (ulimit -f 4096 && "$vc" -q -passfile "$tmp/pf" "$c" "$m" 2>"$tmp/mnt.err"); then
		fail "failure: $label: file size limit: init/mount failed: $(head -c 300 "$tmp/mnt.err")"
		return
	fi
	pid=$(daemon_pid "$c" "$m")
	if "$CRASHFULL" limit "$m" "$tmp/lim.state" >"$tmp/lim.out" 2>&1; then
		pass "failure: $label: daemon under a 4 MiB file size limit: $(sed -n 's/^crashfull: past the file size limit: //p' "$tmp/lim.out")"
	else
		fail "failure: $label: file size limit: $(head -c 500 "$tmp/lim.out")"
	fi
	if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null &&
		"$CRASHFULL" check "$m" "$tmp/lim.state" >"$tmp/check.out" 2>&1; then
		pass "failure: $label: daemon survived EFBIG; $(sed 's/^crashfull: //' "$tmp/check.out")"
	else
		fail "failure: $label: after EFBIG (daemon $(kill -0 "$pid" 2>/dev/null && echo alive || echo gone)): $(head -c 500 "$tmp/check.out" 2>/dev/null)"
	fi
	mountpoint -q "$m" && umnt "$m"
	fsck_check "$label file size limit" "$vc" "$c" "^$"
}

# concurrency LABEL DAEMON INIT-FLAGS ROUNDS
concurrency() {
	local label=$1 vc=$2 flags=$3 rounds=$4
	local c=$tmp/conc-$label m=$tmp/km-$label
	mkdir -p "$c"
	# shellcheck disable=SC2086
	if ! "$VC" -init -q -scryptn 10 -passfile "$tmp/pf" $flags "$c" >"$tmp/mnt.err" 2>&1 ||
		! mnt "$vc" "$c" "$m"; then
		fail "failure: $label: concurrency: init/mount failed: $(head -c 300 "$tmp/mnt.err")"
		return
	fi
	if "$CONCW" "$m/shared" "$rounds" 58 >"$tmp/conc.out" 2>&1; then
		while IFS= read -r l; do
			pass "failure: $label: ${l#concw: }"
		done <"$tmp/conc.out"
	else
		fail "failure: $label: concurrency: $(head -c 600 "$tmp/conc.out")"
	fi
	umnt "$m"
	fsck_check "$label concurrency" "$vc" "$c" "^$"
}

# The daemons every case runs with: the normal build, then the ASan/UBSan
# one (unless FAILURE_SAN=0), whose reports are checked after the cases.
DAEMONS=("normal:$VC")
want_san_daemon failure FAILURE_SAN && DAEMONS+=("san:$SANBUILD/vcryptfs")
# each_daemon FUNC ARGS...: FUNC TAG DAEMON ARGS... for every daemon
each_daemon() {
	local f=$1 d
	shift
	for d in "${DAEMONS[@]}"; do "$f" "${d%%:*}" "${d#*:}" "$@"; done
}
crash_both() {
	crash_suite "$1-gcm" "$2" "" "$ROUNDS"
	crash_suite "$1-xchacha" "$2" -xchacha "$(((ROUNDS + 4) / 5))"
}
full_disk_both() {
	full_disk "$1-gcm" "$2" ""
	full_disk "$1-xchacha" "$2" -xchacha
}
file_limit_both() {
	file_limit "$1-gcm" "$2" ""
	file_limit "$1-xchacha" "$2" -xchacha
}
concurrency_both() {
	concurrency "$1-gcm" "$2" "" 4
	concurrency "$1-xchacha" "$2" -xchacha 2
}
case_crash() { each_daemon crash_both; }
case_full_disk() { each_daemon full_disk_both; }
case_file_limit() { each_daemon file_limit_both; }
case_concurrency() { each_daemon concurrency_both; }

run_cases case_crash case_full_disk case_file_limit case_concurrency
if [ "${#DAEMONS[@]}" -gt 1 ]; then
	san_verdict failure "$tmp/san" "ASan/UBSan daemon ran every case without a report"
fi
exit 0
