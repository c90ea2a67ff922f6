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
#      io_uring on, their lines prefixed "uring: ";
#   3. streaming mode: during a streaming read a ring thread runs with
#      the normal policy on every CPU, the bytes are right, and afterwards
#      every ring thread is pinned at SCHED_IDLE again; reading many
#      200 KiB files does not start streaming mode; the two-core
#      helper thread, started under a ring thread, did not inherit its
#      pinned SCHED_IDLE.
# Cases: rings (part 1), stream (part 3), mount, posix, tamper, failure, stress (part 2,
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

# new_mount LABEL C M: -init a volume in C and mount it on M with the
# real command line; sets dpid to the daemon (empty if not found).
# Returns 1 after a FAIL line.
new_mount() {
	local l=$1 c=$2 m=$3
	printf '%s\n' uring-test >"$tmp/pf"
	mkdir -p "$c" "$m"
	if ! "$VC" -init -q -scryptn 10 -passfile "$tmp/pf" "$c" >"$tmp/init.out" 2>&1; then
		fail "uring: $l-init failed: $(head -c 300 "$tmp/init.out")"
		return 1
	fi
	MOUNTS+=("$m")
	if ! "$VC" -q -passfile "$tmp/pf" "$c" "$m" 2>"$tmp/mnt.err"; then
		fail "uring: ${l}mount failed: $(head -c 300 "$tmp/mnt.err")"
		return 1
	fi
	dpid=$(pgrep -n -f "vcryptfs -q -passfile $tmp/pf $c $m" || true)
}

# 1. one mount through the rings, then one with -nouring
case_rings() {
	local c m dpid nr nt s0 s1 files i nrd r0 r1 pids bad p want
	c=$tmp/c m=$tmp/m
	new_mount "" "$c" "$m" || return
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

# ring_modes PID: "STREAMING HOME" among the threads named vc-uring-ring:
# how many run in streaming mode (policy SCHED_OTHER = 0, allowed on more
# than one CPU) and how many at home (pinned to one CPU, SCHED_IDLE = 5)
ring_modes() {
	local t cpus pol name st=0 home=0
	for t in /proc/"$1"/task/*; do
		read -r name 2>/dev/null <"$t/comm" || continue
		[ "$name" = vc-uring-ring ] || continue
		cpus=$(awk '/^Cpus_allowed_list/ { print $2 }' "$t/status")
		pol=$(awk '{ print $41 }' "$t/stat")
		case "$cpus" in
		*-* | *,*) [ "$pol" = 0 ] && st=$((st + 1)) ;;
		*) [ "$pol" = 5 ] && home=$((home + 1)) ;;
		esac
	done
	echo "$st $home"
}

# 3. streaming mode (uring_reader.c uring_stream_mode): while a streaming
# read hands READs to the reader threads, the ring thread that gets them
# runs with the normal policy on every CPU (pinned at SCHED_IDLE its
# commits waited for the reader to block); the bytes read are right; once
# the stream is over, a request on each CPU brings every ring thread home
case_stream() {
	local c m dpid st home seen=0 rpid i want got
	c=$tmp/cs m=$tmp/ms
	new_mount "stream: " "$c" "$m" || return
	stat "$m" >/dev/null
	head -c $((192 * 1048576)) /dev/urandom >"$tmp/stream.ref"
	want=$(sha256sum <"$tmp/stream.ref" | cut -d' ' -f1)
	cp "$tmp/stream.ref" "$m/big"
	rm -f "$tmp/stream.ref"
	sync
	echo 3 >/proc/sys/vm/drop_caches
	# the cp's 1 MiB WRITEs came through the ring threads, and the first
	# one that encrypts over two cores starts the helper thread of
	# fuse/par.c: it must not inherit the ring thread's pinned SCHED_IDLE
	local t name pol cpus main_cpus par=""
	main_cpus=$(awk '/^Cpus_allowed_list/ { print $2 }' "/proc/$dpid/status")
	for t in /proc/"$dpid"/task/*; do
		read -r name 2>/dev/null <"$t/comm" || continue
		[ "$name" = vc-par ] || continue
		pol=$(awk '{ print $41 }' "$t/stat")
		cpus=$(awk '/^Cpus_allowed_list/ { print $2 }' "$t/status")
		par="$pol $cpus"
	done
	if [ "$par" = "0 $main_cpus" ]; then
		pass "uring: stream: the two-core helper thread started under the ring threads runs SCHED_OTHER on CPUs $main_cpus, as the daemon"
	else
		fail "uring: stream: the two-core helper thread (vc-par): policy and CPUs '${par:-no such thread}', want '0 $main_cpus'"
	fi
	read -r st home < <(ring_modes "$dpid")
	if [ "$home" != "$possible" ] || [ "$st" != 0 ]; then
		fail "uring: stream: before the read $home of $possible ring threads at home, $st streaming"
	fi
	# a reader that pauses 3 ms after each MiB: the read lasts about a
	# second, long enough to sample the threads many times, and the
	# read-ahead still sends a large READ every few ms
	python3 -c '
import hashlib, sys, time
h = hashlib.sha256()
with open(sys.argv[1], "rb", buffering=0) as f:
    while True:
        b = f.read(1 << 20)
        if not b:
            break
        h.update(b)
        time.sleep(0.003)
print(h.hexdigest())' "$m/big" >"$tmp/stream.sum" &
	rpid=$!
	for ((i = 0; i < 400; i++)); do
		kill -0 "$rpid" 2>/dev/null || break
		read -r st home < <(ring_modes "$dpid")
		[ "$st" -gt 0 ] && seen=$((seen + 1))
		sleep 0.005
	done
	wait "$rpid"
	got=$(cat "$tmp/stream.sum" 2>/dev/null)
	if [ "$got" = "$want" ]; then
		pass "uring: stream: a 192 MiB file read after dropping the caches has the right SHA-256"
	else
		fail "uring: stream: the 192 MiB file read back with SHA-256 '$got', want $want"
	fi
	if [ "$seen" -gt 0 ]; then
		pass "uring: stream: a ring thread ran in streaming mode (normal policy, every CPU) in $seen of $i samples"
	else
		fail "uring: stream: in $i samples during the read no ring thread left its pinned SCHED_IDLE home"
	fi
	sleep 0.1
	for ((i = 0; i < possible; i++)); do
		taskset -c "$i" stat "$m/big" >/dev/null 2>&1 ||
			stat "$m/big" >/dev/null
	done
	# the first wakeup after the quiet time serves, then goes home
	for ((i = 0; i < possible; i++)); do
		taskset -c "$i" ls -l "$m" >/dev/null 2>&1 || ls -l "$m" >/dev/null
	done
	read -r st home < <(ring_modes "$dpid")
	if [ "$home" = "$possible" ] && [ "$st" = 0 ]; then
		pass "uring: stream: after the read all $possible ring threads are back pinned at SCHED_IDLE"
	else
		fail "uring: stream: after the read $home of $possible ring threads at home, $st still streaming"
	fi
	# many files of 200 KiB: their READs (up to 256 KiB) go to the reader
	# threads too, but do not start streaming mode (URING_STREAM_MIN), so
	# the small-file round trips stay pinned at SCHED_IDLE
	mkdir -p "$m/small"
	head -c $((200 * 1024)) /dev/urandom >"$tmp/s200"
	for ((i = 0; i < 150; i++)); do cp "$tmp/s200" "$m/small/f$i"; done
	sync
	echo 3 >/proc/sys/vm/drop_caches
	seen=0
	(for ((j = 0; j < 3; j++)); do
		sync
		echo 3 >/proc/sys/vm/drop_caches
		cat "$m"/small/f* >/dev/null
	done) &
	rpid=$!
	for ((i = 0; i < 400; i++)); do
		kill -0 "$rpid" 2>/dev/null || break
		read -r st home < <(ring_modes "$dpid")
		[ "$st" -gt 0 ] && seen=$((seen + 1))
		sleep 0.005
	done
	wait "$rpid"
	if [ "$seen" = 0 ] && [ "$i" -gt 0 ]; then
		pass "uring: stream: reading 150 files of 200 KiB three times left every ring thread at home ($i samples)"
	else
		fail "uring: stream: reading 150 files of 200 KiB put a ring thread in streaming mode in $seen of $i samples"
	fi
	fusermount3 -u "$m"
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
run_cases case_rings case_stream case_mount case_posix case_tamper case_failure case_stress
exit 0
