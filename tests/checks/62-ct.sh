#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# group: constant time checked by valgrind's memcheck (issue 24; make ct).
# Cases: memcheck (every secret undefined: 0 errors in every kernel
# valgrind can run) and kernels (each kernel this CPU runs natively was
# checked, except AVX-512, which valgrind 3.19 cannot execute: reported
# as not checkable, never passed). In CI a missing valgrind is a FAIL.
. "$(dirname "$0")/lib.sh"
need_tool valgrind || exit 0
B=${BUILD:-build}
need_built ct "$B/ct/ct_check" || exit 0
out=$(BUILD=$B bash tests/ct/run.sh 2>&1)
rc=$?

case_memcheck() {
	echo "$out" | grep -E '^(PASS|FAIL|SKIP): ' | grep -v 'SKIP: ct kernel'
	echo "$out" | grep -E '^ct: (--|suppressed)' | sed 's/^/    /'
	if ! echo "$out" | grep -q '^PASS: .*\[libgcrypt AES-256-GCM\]'; then
		fail "ct: the libgcrypt AES-GCM block case (the mount's" \
			"backend) did not pass"
	fi
	if [ "$rc" -eq 0 ]; then
		pass "ct: make ct: valgrind reported 0 errors in its three runs" \
			"(no AES-GCM; OpenSSL AES-GCM; libgcrypt AES-GCM)"
	else
		fail "ct: make ct exited $rc"
		echo "$out" | grep -E '^  vg:' | head -n 20
	fi
}

case_kernels() {
	local native k
	native=$("$B/ct/ct_check" --kernels)
	for k in $native; do
		if echo "$out" | grep -q "^ct: running kernel $k,"; then
			if echo "$out" | grep -E "^FAIL: .*\[kernel $k[ ,]" >/dev/null; then
				fail "ct: kernel $k ran under valgrind with errors"
			else
				pass "ct: kernel $k ran under valgrind (dispatcher" \
					"asserted), 0 errors"
			fi
		elif [ "$k" = avx512 ]; then
			echo "SKIP: ct: kernel avx512: not checkable here" \
				"(valgrind 3.19 has no AVX-512; this CPU has it)" \
				"- not passed"
		else
			fail "ct: kernel $k runs natively but did not run under valgrind"
		fi
	done
}

# every tests/ct/mutants patch still applies (make ct-mutants runs them)
case_mutants_apply() { patches_apply ct tests/ct/mutants; }

run_cases case_memcheck case_kernels case_mutants_apply
exit 0
