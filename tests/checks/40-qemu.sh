#!/usr/bin/env bash
# group: qemu (issue 3): the baseline binary on older CPUs under qemu-user.
# Runs $BUILD/tests/test_kernels (quick mode) and `vcryptfs -version` as
# qemu64 (no SSSE3: portable), core2duo (ssse3) and Haswell (avx2); asserts
# the kernel each picked, that every kernel result matched the portable code
# (test_kernels compares them) and that nothing died of SIGILL. Also
# `vcryptfs -speed` as core2duo: the avx2 row is N/A and ssse3 is selected.
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
	local pair cpu want rc chosen np nf ns absent k kern
	need_qemu || return 0
	for pair in qemu64:portable core2duo:ssse3 Haswell:avx2; do
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
		portable) absent="ssse3 avx2 avx512" ;;
		ssse3) absent="avx2 avx512" ;;
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
		if [ "$rc" -ne 0 ] || [ "$kern" != "$want" ]; then
			fail "qemu $cpu: vcryptfs -version exit $rc, kernel '$kern', expected $want"
		else
			pass "qemu $cpu: vcryptfs -version reports kernel $want"
		fi
	done
}

# VCRYPTFS_IMPL caps the choice; asking for more than the CPU has warns
# and falls back to the best it has (core2duo: ssse3)
case_impl() {
	local pair req want kern warned need_warn
	need_qemu || return 0
	if [ -x "$vc" ]; then
		for pair in portable:portable ssse3:ssse3 avx2:ssse3 avx512:ssse3 bogus:ssse3; do
			req=${pair%%:*} want=${pair#*:}
			VCRYPTFS_IMPL=$req qemu_run core2duo "$tmp/cap" "$vc" -version
			kern=$(sed -n 's/^kernel: \([a-z0-9]*\).*/\1/p' "$tmp/cap")
			warned=0
			grep -q 'VCRYPTFS_IMPL' "$tmp/cap.err" && warned=1
			case $req in avx2 | avx512 | bogus) need_warn=1 ;; *) need_warn=0 ;; esac
			if [ "$kern" = "$want" ] && [ "$warned" = "$need_warn" ]; then
				pass "qemu core2duo: VCRYPTFS_IMPL=$req -> kernel $want (warning: $warned)"
			else
				fail "qemu core2duo: VCRYPTFS_IMPL=$req -> kernel '$kern' (want $want), warning $warned (want $need_warn)"
			fi
		done
	fi
}

# -speed as core2duo: AVX2 row N/A, the ssse3 row selected
case_speed() {
	local rc
	need_qemu || return 0
	if [ -x "$vc" ]; then
		VCRYPTFS_SPEED_SECONDS=0.02 qemu_run core2duo "$tmp/sp" "$vc" -speed
		rc=$?
		if [ "$rc" -ne 0 ]; then
			fail "qemu core2duo: vcryptfs -speed exit $rc"
		elif grep -q '^XChaCha20-Poly1305-avx2 .*N/A.*not available on this CPU' "$tmp/sp" &&
			grep -q '^XChaCha20-Poly1305-ssse3 .*(selected in auto mode)' "$tmp/sp" &&
			[ "$(grep -c 'selected in auto mode' "$tmp/sp")" -eq 1 ]; then
			pass "qemu core2duo: vcryptfs -speed: avx2 N/A, ssse3 selected, no AES acceleration row marked"
		else
			fail "qemu core2duo: vcryptfs -speed table not as expected"
			cat "$tmp/sp"
		fi
	fi
}

run_cases case_emul case_cpus case_impl case_speed
exit 0
