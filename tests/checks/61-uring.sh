#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# group: uring: FUSE over io_uring (src/fuse/uring.c). The fuse module
# serves it only with its parameter enable_uring=Y (Linux 6.14+), off by
# default; this group turns it on (as root) and puts the old value back at
# exit. Then:
#   1. a mount made by the real command line really uses it: the daemon
#      holds one io_uring per possible CPU, its ring threads (one per CPU,
#      pinned, SCHED_IDLE) serve the requests of a small-file workload
#      (their context switches grow by at least one per three files), and
#      what was written reads back identical through the same mount and,
#      after dropping the caches, in streaming reads of one and of four
#      files at once, which its reader threads (one per possible CPU, at
#      least 4, at most 8) serve; through a second mount with -nouring it
#      reads back identical too, and that daemon holds no io_uring at all;
#   2. the mount, POSIX, tamper, failure and stress groups run again with
#      io_uring on, their lines prefixed "uring: ".
# Cases: rings (part 1), mount, posix, tamper, failure, stress (part 2,
# each a whole group): `tests/run.sh uring --case posix`.
# A kernel without the parameter is a loud SKIP (a kernel feature, not a
# tool that make deps could install). Every mount is unmounted at exit.
. "$(dirname "$0")/lib.sh"
need_tool fusermount3 || exit 0
need_fuse uring || exit 0
VC=$BUILD/vcryptfs
need_built uring "$VC" || exit 0
PARAM=/sys/module/fuse/parameters/enable_uring
if [ ! -e "$PARAM" ]; then
	echo "SKIP: uring (this kernel has no FUSE over io_uring: no $PARAM)"
	exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
	if [ "${CI:-}" = true ]; then
		fail "uring: must run as root to set $PARAM"
	else
		echo "SKIP: uring (not root: cannot set $PARAM)"
	fi
	exit 0
fi
OLD=$(cat "$PARAM")
vc_tmpdir 61
# shellcheck disable=SC2317 # called by the EXIT trap (lib.sh's vc_cleanup)
on_exit() {
	unmount_all "${MOUNTS[@]}"
	echo "$OLD" >"$PARAM"
}
echo Y >"$PARAM" || {
	fail "uring: cannot write Y to $PARAM"
	exit 0
}

# possible CPUs: the kernel makes one queue per possible CPU
possible=$(awk -F'[-,]' '{ m = 0; for (i = 1; i <= NF; i++)
	if ($i + 0 > m) m = $i + 0; print m + 1 }' /sys/devices/system/cpu/possible)

# rings PID: number of io_uring instances the process holds
rings() {
	local n=0 f
	for f in /proc/"$1"/fd/*; do
		[ "$(readlink "$f" 2>/dev/null)" = "anon_inode:[io_uring]" ] &&
			n=$((n + 1))
	done
	echo "$n"
}
# thread_stats PID KIND: "THREADS SWITCHES" of the daemon's threads of one
# kind, how many and the sum of their voluntary context switches. KIND:
#   ring    the ring threads (pinned to one CPU, policy SCHED_IDLE = 5);
#   reader  the threads serving the large READs that the ring threads hand
#           off (named vc-uring-read)
thread_stats() {
	local t n=0 sum=0 cpus pol sw
	for t in /proc/"$1"/task/*; do
		if [ "$2" = ring ]; then
			cpus=$(awk '/^Cpus_allowed_list/ { print $2 }' "$t/status")
			pol=$(awk '{ print $41 }' "$t/stat")
			case "$cpus" in *-* | *,*) continue ;; esac
			[ "$pol" = 5 ] || continue
		else
			[ "$(cat "$t/comm" 2>/dev/null)" = vc-uring-read ] ||
				continue
		fi
		sw=$(awk '/^voluntary_ctxt_switches/ { print $2 }' "$t/status")
		n=$((n + 1)) sum=$((sum + sw))
	done
	echo "$n $sum"
}

# 1. one mount through the rings, then one with -nouring
case_rings() {
	local c m dpid nr nt s0 s1 files i nrd r0 r1 pids bad p want
	printf '%s\n' uring-test >"$tmp/pf"
	c=$tmp/c m=$tmp/m
	mkdir -p "$c" "$m"
	if ! "$VC" -init -q -scryptn 10 -passfile "$tmp/pf" "$c" >"$tmp/init.out" 2>&1; then
		fail "uring: -init failed: $(head -c 300 "$tmp/init.out")"
		return
	fi
	MOUNTS+=("$m")
	if ! "$VC" -q -passfile "$tmp/pf" "$c" "$m" 2>"$tmp/mnt.err"; then
		fail "uring: mount failed: $(head -c 300 "$tmp/mnt.err")"
		return
	fi
	dpid=$(pgrep -n -f "vcryptfs -q -passfile $tmp/pf $c $m" || true)
	if [ -z "$dpid" ]; then
		fail "uring: no daemon found for the mount"
		return
	fi
	# the rings start when INIT is answered: the first request has done that
	stat "$m" >/dev/null
	nr=$(rings "$dpid")
	read -r nt s0 < <(thread_stats "$dpid" ring)
	if [ "$nr" = "$possible" ] && [ "$nt" = "$possible" ]; then
		pass "uring: the daemon holds $nr io_uring instances and $nt pinned SCHED_IDLE ring threads ($possible possible CPUs)"
	else
		fail "uring: the daemon holds $nr io_uring instances and $nt ring threads, want $possible of each"
	fi
	# small-file workload: every file is a few requests (lookup, create,
	# write, setattr, release); the ring threads must have served them
	mkdir -p "$tmp/ref"
	head -c 300000 /dev/urandom >"$tmp/seed"
	files=300
	for ((i = 0; i < files; i++)); do
		dd if="$tmp/seed" of="$tmp/ref/f$i" bs=1 skip=$((i * 997)) \
			count=$((i * 13 + 1)) status=none
	done
	cp -r "$tmp/ref" "$m/tree"
	head -c 3000000 /dev/urandom >"$tmp/ref/big"
	cp "$tmp/ref/big" "$m/tree/big"
	sync
	read -r _ s1 < <(thread_stats "$dpid" ring)
	# through /dev/fuse the ring threads would not wake at all; through the
	# rings a few requests per file wake them (batched CQEs share a wakeup)
	if [ $((s1 - s0)) -ge $((files / 3)) ]; then
		pass "uring: the ring threads served the workload ($((s1 - s0)) wakeups for $files files)"
	else
		fail "uring: the ring threads woke $((s1 - s0)) times for $files files: requests did not go through the rings"
	fi
	if diff -r "$tmp/ref" "$m/tree" >"$tmp/diff.out" 2>&1; then
		pass "uring: $((files + 1)) files read back identical through the same mount"
	else
		fail "uring: files differ through the same mount: $(head -c 300 "$tmp/diff.out")"
	fi
	# a streaming read after dropping the caches: the kernel's read-ahead
	# arrives as READs of 64 KiB and more, which the ring threads hand to the
	# reader threads (one per possible CPU, at least 4, at most 8)
	read -r nrd r0 < <(thread_stats "$dpid" reader)
	sync
	echo 3 >/proc/sys/vm/drop_caches
	if cmp -s "$tmp/ref/big" "$m/tree/big"; then
		pass "uring: a 3 MB file reads back identical after dropping the caches"
	else
		fail "uring: a 3 MB file differs when read after dropping the caches"
	fi
	# four such reads at once: the reader threads serve READs of several
	# files and rings together
	for i in 1 2 3 4; do
		head -c $((4000000 + i * 4099)) /dev/urandom >"$tmp/ref/par$i"
		cp "$tmp/ref/par$i" "$m/tree/par$i"
	done
	sync
	echo 3 >/proc/sys/vm/drop_caches
	pids=()
	for i in 1 2 3 4; do
		cmp -s "$tmp/ref/par$i" "$m/tree/par$i" &
		pids+=($!)
	done
	bad=0
	for p in "${pids[@]}"; do wait "$p" || bad=$((bad + 1)); done
	if [ "$bad" = 0 ]; then
		pass "uring: four 4 MB files read at once after dropping the caches are identical"
	else
		fail "uring: $bad of four 4 MB files read at once differ"
	fi
	read -r _ r1 < <(thread_stats "$dpid" reader)
	want=$((possible < 4 ? 4 : possible < 8 ? possible : 8))
	if [ "$nrd" = "$want" ] && [ $((r1 - r0)) -ge 1 ]; then
		pass "uring: $nrd reader threads served the large READs ($((r1 - r0)) wakeups)"
	else
		fail "uring: $nrd reader threads (want $want) woke $((r1 - r0)) times for 19 MB of reads"
	fi
	fusermount3 -u "$m"
	# a second mount, -nouring: the same tree, no io_uring in the daemon
	if "$VC" -q -nouring -passfile "$tmp/pf" "$c" "$m" 2>"$tmp/mnt.err"; then
		dpid=$(pgrep -n -f "vcryptfs -q -nouring -passfile $tmp/pf $c $m" || true)
		stat "$m" >/dev/null
		if diff -r "$tmp/ref" "$m/tree" >"$tmp/diff.out" 2>&1; then
			pass "uring: the tree written through io_uring reads back identical with -nouring"
		else
			fail "uring: the tree differs when read with -nouring: $(head -c 300 "$tmp/diff.out")"
		fi
		nr=$(rings "${dpid:-0}")
		if [ -n "$dpid" ] && [ "$nr" = 0 ]; then
			pass "uring: -nouring: the daemon holds no io_uring"
		else
			fail "uring: -nouring: the daemon (pid '${dpid}') holds $nr io_uring instances"
		fi
		fusermount3 -u "$m"
	else
		fail "uring: -nouring mount failed: $(head -c 300 "$tmp/mnt.err")"
	fi
}

# 2. the mount-level groups again, with io_uring on: each is a case that
# runs its whole group (VC_CASE cleared), lines prefixed "uring: "
rerun() {
	local g=$1 rc
	VC_CASE= bash "$(dirname "$0")/$g.sh" >"$tmp/$g.out" 2>&1
	rc=$?
	sed -n 's/^\(PASS\|FAIL\|SKIP\): /\1: uring: /p' "$tmp/$g.out"
	if [ "$rc" -ne 0 ] && ! grep -q '^FAIL: ' "$tmp/$g.out"; then
		fail "uring: group $g exited $rc: $(tail -n 5 "$tmp/$g.out" | tr '\n' ' ' | head -c 400)"
	fi
}
case_mount() { rerun 55-mount; }
case_posix() { rerun 56-posix; }
case_tamper() { rerun 57-tamper; }
case_failure() { rerun 58-failure; }
case_stress() { rerun 59-stress; }
run_cases case_rings case_mount case_posix case_tamper case_failure case_stress
exit 0
