#!/usr/bin/env bash
# group: qemu (issues 3, 21): the baseline binary on older CPUs under
# qemu-user. Runs $BUILD/tests/test_kernels (quick mode) and `vcryptfs
# -version` as qemu64 (no SSSE3: portable), core2duo and Nehalem (ssse3),
# SandyBridge (avx: AVX without AVX2) and Haswell (avx2); asserts the
# kernel the CPU checks allow (test_kernels' "chosen:", dispatch_init()
# alone), that every kernel result matched the portable code and the
# vectors (test_kernels compares them: the same bytes on every -cpu), that
# the kernels above the CPU were skipped, and that nothing died of SIGILL.
# Calibration under qemu: vcryptfs times its kernels at start as on any
# CPU (crypto/calibrate.h), so under qemu it times the emulation (where
# the scalar code may well win); -version's kernel is therefore only
# required to be one whose CPU checks passed, and the one its calibration
# line names as chosen, with N/A for every kernel above the CPU.
# VCRYPTFS_IMPL=avx is honoured as SandyBridge and refused (warning, best
# available) as Nehalem. Also `vcryptfs -speed` as core2duo: the avx and
# avx2 rows are N/A and one kernel, the calibrated one, is selected.
# AVX-512 cannot be run here (no AVX-512 CPU; qemu 7.2 does not emulate
# it): the kernel's data flow is checked instead with scalar stand-ins for
# its intrinsics ($BUILD/avx512-emul/test_avx512_emul, mk/tests.mk), and the
# real kernel stays a SKIP inside test_kernels.
. "$(dirname "$0")/lib.sh"
export VCRYPTFS_ROOT=${VCRYPTFS_ROOT:-$PWD}
unset VCRYPTFS_IMPL
tk=$BUILD/tests/test_kernels
vc=$BUILD/vcryptfs
vc_tmpdir 40

# qemu_run CPU OUT CMD...: run under qemu; stdout to OUT, stderr to OUT.err
qemu_run() {
	local cpu=$1 out=$2
	shift 2
	timeout 300 qemu-x86_64 -cpu "$cpu" "$@" >"$out" 2>"$out.err"
}

qemu_state=
# need_qemu: qemu-x86_64 is there (need_tool says so once when it is not)
need_qemu() {
	if [ -z "$qemu_state" ]; then
		qemu_state=1
		need_tool qemu-x86_64 && qemu_state=0
	fi
	return "$qemu_state"
}

# the AVX-512 kernel on emulated intrinsics (no qemu needed)
case_emul() {
	run_bin "$BUILD/avx512-emul/test_avx512_emul"
}

# each CPU model: test_kernels picks the right kernel, -version agrees
case_cpus() {
	local pair cpu want rc chosen np nf ns absent k kern cal bad
	need_qemu || return 0
	for pair in qemu64:portable core2duo:ssse3 Nehalem:ssse3 \
		SandyBridge:avx Haswell:avx2; do
		cpu=${pair%%:*} want=${pair#*:}
		if [ ! -x "$tk" ]; then
			fail "qemu $cpu: $tk not built"
			continue
		fi
		qemu_run "$cpu" "$tmp/tk" "$tk" quick
		rc=$?
		chosen=$(sed -n 's/^chosen: //p' "$tmp/tk")
		np=$(grep -c '^PASS: ' "$tmp/tk")
		nf=$(grep -c '^FAIL: ' "$tmp/tk")
		ns=$(grep -c '^SKIP: ' "$tmp/tk")
		grep '^FAIL: ' "$tmp/tk" | sed "s/^FAIL: /FAIL: qemu $cpu: /"
		if [ "$rc" -eq 132 ] || grep -qi 'illegal instruction' "$tmp/tk.err"; then
			fail "qemu $cpu: test_kernels died of SIGILL"
		elif [ "$rc" -ne 0 ] || [ "$nf" -ne 0 ] || [ "$np" -lt 10 ]; then
			fail "qemu $cpu: test_kernels exit $rc, $np passed, $nf failed"
			tail -n 5 "$tmp/tk.err"
		elif [ "$chosen" != "$want" ]; then
			fail "qemu $cpu: test_kernels chose '$chosen', expected $want"
		else
			pass "qemu $cpu: test_kernels chose $want; $np checks equal to portable, $ns kernels absent (SKIP inside), no SIGILL"
		fi
		# the kernels above the CPU must have been skipped, not run
		case $want in
		portable) absent="ssse3 avx avx2 avx512" ;;
		ssse3) absent="avx avx2 avx512" ;;
		avx) absent="avx2 avx512" ;;
		avx2) absent="avx512" ;;
		esac
		for k in $absent; do
			if grep -q "^PASS: $k:" "$tmp/tk" ||
				! grep -q "^SKIP: $k: kernel not run" "$tmp/tk"; then
				fail "qemu $cpu: kernel $k should be SKIP on this CPU"
			fi
		done

		if [ ! -x "$vc" ]; then
			fail "qemu $cpu: $vc not built"
			continue
		fi
		qemu_run "$cpu" "$tmp/ver" "$vc" -version
		rc=$?
		kern=$(sed -n 's/^kernel: \([a-z0-9]*\).*/\1/p' "$tmp/ver")
		cal=$(grep '^calibration: ' "$tmp/ver")
		bad=
		[ "$rc" -eq 0 ] || bad="$bad exit $rc;"
		[ -n "$kern" ] || bad="$bad no kernel line;"
		for k in $absent; do
			[ "$kern" = "$k" ] && bad="$bad chose $k, above the CPU;"
			[[ "$cal" == *" $k N/A"* ]] || bad="$bad calibration line lacks '$k N/A';"
		done
		[[ "$cal" == *"chosen $kern "* ]] || bad="$bad calibration line does not name $kern as chosen;"
		[[ "$cal" =~ \ $kern\ [0-9]+\.[0-9] ]] || bad="$bad no figure for $kern;"
		if [ -z "$bad" ]; then
			pass "qemu $cpu: vcryptfs -version: calibrated kernel $kern (CPU checks allow up to $want): ${cal#calibration: }"
		else
			fail "qemu $cpu: vcryptfs -version:$bad | $(tr '\n' '|' <"$tmp/ver")"
		fi
	done
}

# VCRYPTFS_IMPL caps the choice (and skips the calibration); asking for
# more than the CPU has warns and falls back to the best it has: as
# core2duo every level, avx as SandyBridge (honoured) and Nehalem (refused)
case_impl() {
	local t cpu req want kern warned need_warn
	need_qemu || return 0
	[ -x "$vc" ] || return 0
	for t in core2duo:portable:portable core2duo:ssse3:ssse3 \
		core2duo:avx:ssse3 core2duo:avx2:ssse3 core2duo:avx512:ssse3 \
		core2duo:bogus:ssse3 SandyBridge:avx:avx Nehalem:avx:ssse3; do
		IFS=: read -r cpu req want <<<"$t"
		VCRYPTFS_IMPL=$req qemu_run "$cpu" "$tmp/cap" "$vc" -version
		kern=$(sed -n 's/^kernel: \([a-z0-9]*\).*/\1/p' "$tmp/cap")
		warned=0
		grep -q 'VCRYPTFS_IMPL' "$tmp/cap.err" && warned=1
		need_warn=1
		[ "$req" = "$want" ] && need_warn=0
		if [ "$req" = bogus ]; then
			# unknown: a warning, then auto (calibrated): any kernel
			# the CPU allows
			case $kern in portable | ssse3) want=$kern ;; esac
		elif ! grep -q "^calibration: skipped (VCRYPTFS_IMPL=$req" "$tmp/cap"; then
			fail "qemu $cpu: VCRYPTFS_IMPL=$req did not skip the calibration: $(grep '^calibration' "$tmp/cap")"
		fi
		if [ "$kern" = "$want" ] && [ "$warned" = "$need_warn" ]; then
			pass "qemu $cpu: VCRYPTFS_IMPL=$req -> kernel $want (warning: $warned)"
		else
			fail "qemu $cpu: VCRYPTFS_IMPL=$req -> kernel '$kern' (want $want), warning $warned (want $need_warn)"
		fi
	done
}

# -speed as core2duo: avx and avx2 rows N/A, one kernel the CPU allows
# selected, the one the calibration line chose
case_speed() {
	local rc sel
	need_qemu || return 0
	[ -x "$vc" ] || return 0
	VCRYPTFS_SPEED_SECONDS=0.02 qemu_run core2duo "$tmp/sp" "$vc" -speed
	rc=$?
	sel=$(sed -n 's/^XChaCha20-Poly1305-\([a-z0-9]*\)[[:space:]].*(selected in auto mode).*/\1/p' "$tmp/sp")
	if [ "$rc" -ne 0 ]; then
		fail "qemu core2duo: vcryptfs -speed exit $rc"
	elif grep -q '^XChaCha20-Poly1305-avx .*N/A.*not available on this CPU' "$tmp/sp" &&
		grep -q '^XChaCha20-Poly1305-avx2 .*N/A.*not available on this CPU' "$tmp/sp" &&
		[ "$(grep -c 'selected in auto mode' "$tmp/sp")" -eq 1 ] &&
		{ [ "$sel" = portable ] || [ "$sel" = ssse3 ]; } &&
		grep -q "^calibration: .* chosen $sel " "$tmp/sp"; then
		pass "qemu core2duo: vcryptfs -speed: avx and avx2 N/A, $sel selected (the calibrated choice), no AES acceleration row marked"
	else
		fail "qemu core2duo: vcryptfs -speed table not as expected"
		cat "$tmp/sp"
	fi
}

run_cases case_emul case_cpus case_impl case_speed
exit 0
