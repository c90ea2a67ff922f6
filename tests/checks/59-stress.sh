#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# group: stress: the fsxv model-checking stress test (tests/tools/fsxv.c) on
# real vcryptfs mounts made with the real command line (-init, then
# -passfile CIPHERDIR MNT), once per cipher (AES-GCM, -xchacha):
#   phase 1: two fsxv processes at once on disjoint file sets;
#   phase 2: two processes on the same files, disjoint unaligned stripes
#            (both read-modify-write the same 4096-byte blocks);
# then gocryptfs -fsck checks what is left in the cipher directory. A short
# run on the ASan/UBSan daemon follows; any sanitizer log is a failure.
# Environment: STRESS_OPS (total over the ciphers, default 50000),
# STRESS_SAN_OPS (default 5000, 0: none), STRESS_SEED (default: random; the
# seed is printed), STRESS_CIPHERS (default "gcm xchacha").
# make stress runs this with STRESS_OPS=1000000 (mk/tests.mk). Cases: one
# per cipher (gcm, xchacha) and san (`tests/run.sh stress --case san`).
# Every mount is unmounted by the EXIT trap.
. "$(dirname "$0")/lib.sh"
VC=$BUILD/vcryptfs
SVC=$SANBUILD/vcryptfs
FSXV=$BUILD/tools/fsxv
need_mount_group stress "$VC" "$FSXV" || exit 0
OPS=${STRESS_OPS:-50000}
SAN_OPS=${STRESS_SAN_OPS:-5000}
CIPHERS=${STRESS_CIPHERS:-gcm xchacha}
SEED=${STRESS_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
vc_tmpdir 59
PIDS=()
# shellcheck disable=SC2317 # called by the EXIT trap (lib.sh's vc_cleanup)
on_exit() {
	local p
	for p in "${PIDS[@]}"; do
		kill "$p" 2>/dev/null
	done
}
printf 'stress-test-password\n' >"$tmp/pf"
echo "stress: seed $SEED (STRESS_SEED=$SEED reproduces), $OPS ops over: $CIPHERS"
TOTAL=0
NFAIL=0
DENV=() # environment of the daemon (sanitizer log paths)
sfail() {
	NFAIL=$((NFAIL + 1))
	fail "$@"
}

# run_fsxv NAME NOPS MNT [fsxv flags]: two fsxv processes at once, NOPS
# operations in all; adds to TOTAL on success. Returns 1 on a failure.
run_fsxv() {
	local name=$1 nops=$2 mnt=$3 i rc bad=0
	shift 3
	local each=$((nops / 2))
	PIDS=()
	for i in 0 1; do
		"$FSXV" -q -s "$SEED" -p "$i" -n "$each" "$@" "$mnt" \
			>"$tmp/$name.$i.out" 2>&1 &
		PIDS+=($!)
	done
	for i in 0 1; do
		wait "${PIDS[$i]}"
		rc=$?
		if [ "$rc" != 0 ] || ! grep -q ' 0 mismatches' "$tmp/$name.$i.out"; then
			bad=1
			sfail "stress: $name: fsxv process $i exited $rc (seed $SEED): $(grep FAILURE "$tmp/$name.$i.out"; tail -n 30 "$tmp/$name.$i.out")"
		fi
	done
	PIDS=()
	[ "$bad" = 0 ] || return 1
	TOTAL=$((TOTAL + 2 * each))
	pass "stress: $name: $((2 * each)) ops in 2 processes, 0 mismatches ($(sed -n 's/.*0 mismatches (\(writes [0-9]*\).*reads \([0-9]*\).*truncates \([0-9]*\).*/\1, reads \2, truncates \3/p' "$tmp/$name.0.out" | head -n 1) in process 0)"
	return 0
}

# volume NAME DAEMON NOPS [init flags]: a fresh volume, mounted with the
# real command line, both phases, unmount, wait for the daemon, -fsck.
volume() {
	local name=$1 daemon=$2 nops=$3 c m dpid p1 rc
	shift 3
	c=$tmp/$name.c
	m=$tmp/$name.m
	mkdir -p "$c" "$m"
	if ! env "${DENV[@]}" "$daemon" -q -init -scryptn 10 -passfile "$tmp/pf" "$@" "$c" \
		>"$tmp/$name.init" 2>&1; then
		sfail "stress: $name: -init failed: $(tail -n 5 "$tmp/$name.init")"
		return
	fi
	MOUNTS+=("$m")
	if ! env "${DENV[@]}" "$daemon" -q -passfile "$tmp/pf" "$c" "$m" >"$tmp/$name.mount" 2>&1; then
		sfail "stress: $name: mount failed: $(tail -n 5 "$tmp/$name.mount")"
		return
	fi
	dpid=$(pgrep -n -f "vcryptfs -q -passfile $tmp/pf $c $m" || true)
	# 4/5 of the operations on disjoint files, 1/5 on shared files.
	p1=$((nops * 4 / 5))
	run_fsxv "$name-disjoint" "$p1" "$m" -k &&
		run_fsxv "$name-shared" "$((nops - p1))" "$m" -S 2
	umnt "$m"
	for _ in $(seq 1 100); do
		if [ -z "$dpid" ] || ! kill -0 "$dpid" 2>/dev/null; then
			break
		fi
		sleep 0.1
	done
	if [ -n "$dpid" ] && kill -0 "$dpid" 2>/dev/null; then
		sfail "stress: $name: daemon $dpid still running after unmount"
	fi
	if command -v gocryptfs >/dev/null 2>&1; then
		gocryptfs -fsck -q -passfile "$tmp/pf" "$c" >"$tmp/$name.fsck" 2>&1
		rc=$?
		if [ "$rc" = 0 ]; then
			pass "stress: $name: gocryptfs -fsck finds the files left intact"
		else
			sfail "stress: $name: gocryptfs -fsck exit $rc: $(tail -n 5 "$tmp/$name.fsck")"
		fi
	else
		need_tool gocryptfs
	fi
}

# One case per cipher of STRESS_CIPHERS (gcm, xchacha, aessiv), the
# operations split evenly among them; then the san case.
# shellcheck disable=SC2086 # a list of words
set -- $CIPHERS
per=$((OPS / $#))
case_gcm() { volume gcm "$VC" "$per"; }
case_xchacha() { volume xchacha "$VC" "$per" -xchacha; }
case_aessiv() { volume aessiv "$VC" "$per" -aessiv; }
CASES=()
for ci in "$@"; do
	case "$ci" in
	gcm | xchacha | aessiv) CASES+=("case_$ci") ;;
	*) sfail "stress: unknown cipher '$ci' in STRESS_CIPHERS" ;;
	esac
done

# The ASan/UBSan daemon: reports go to log files (its stderr is /dev/null
# once it runs in the background), checked after it has exited.
case_san() {
	if [ "$SAN_OPS" -gt 0 ]; then
		if [ ! -x "$SVC" ]; then
			sfail "stress: $SVC not built (make san-build)"
		else
			mkdir -p "$tmp/san"
			DENV=("ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}log_path=$tmp/san/asan"
				"UBSAN_OPTIONS=${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}log_path=$tmp/san/ubsan:print_stacktrace=1")
			volume san "$SVC" "$SAN_OPS"
			DENV=()
			san_verdict stress "$tmp/san" "ASan/UBSan daemon ran $SAN_OPS ops without a report" ||
				NFAIL=$((NFAIL + 1))
		fi
	fi
}

run_cases "${CASES[@]}" case_san
if [ "$NFAIL" = 0 ]; then
	echo "stress: $TOTAL ops, 0 mismatches (seed $SEED)"
else
	echo "stress: $TOTAL ops checked, $NFAIL failures (seed $SEED)"
fi
exit 0
