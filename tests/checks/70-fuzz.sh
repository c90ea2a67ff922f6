#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# group: libFuzzer targets (fuzz/, issue 5). Replays every committed corpus
# with the plain ASan+UBSan replay binaries (0 crashes, 0 mismatches), then
# runs `make fuzz FUZZ_SECONDS=${FUZZ_CHECK_SECONDS:-22}` and reports one
# line per target from its table (PASS when the target did not crash), and
# last `make fuzz-selftest`: a build with one flipped ChaCha20 constant must
# be caught within 60 s, which shows the differential harness compares.
. "$(dirname "$0")/lib.sh"
need_tool clang-14 || exit 0
# 22 s for each of the 12 targets keeps the group near 300 s
secs=${FUZZ_CHECK_SECONDS:-22}
mk=(make --no-print-directory -j2 BUILD="$BUILD" SANBUILD="$SANBUILD")

fuzz_state=
# fuzz_build: make fuzz-build, once (its PASS or FAIL line then); 1 when
# it failed, so the other cases stop
fuzz_build() {
	if [ -z "$fuzz_state" ]; then
		fuzz_state=1
		if ! "${mk[@]}" fuzz-build >"$BUILD/test-logs/70-fuzz-build.log" 2>&1; then
			fail "fuzz build (make fuzz-build; log $BUILD/test-logs/70-fuzz-build.log)"
			tail -n 20 "$BUILD/test-logs/70-fuzz-build.log"
			return 1
		fi
		pass "fuzz build (clang-14 -fsanitize=fuzzer,address,undefined)"
		fuzz_state=0
	fi
	return "$fuzz_state"
}

case_build() {
	fuzz_build
}

# 1. replay: the script prints PASS:/FAIL: per target
case_replay() {
	fuzz_build || return
	"${mk[@]}" fuzz-replay 2>&1 | grep -E '^(PASS|FAIL): |runtime error|ERROR'
}

# 2. a short campaign per target; the table is the last lines
case_campaign() {
	local out n t s runs cov crashes ft
	fuzz_build || return
	out=$("${mk[@]}" fuzz FUZZ_SECONDS="$secs" 2>&1)
	echo "$out"
	n=0
	while read -r t s runs cov crashes ft; do
		[ "$t" = target ] && continue
		case "$t" in fuzz_*) ;; *) continue ;; esac
		n=$((n + 1))
		if [ "$crashes" = 0 ]; then
			pass "fuzz $t: ${s} s, $runs runs, cov $cov, ft $ft, 0 crashes"
		else
			fail "fuzz $t: $crashes crash(es) in ${s} s (fuzz/build/artifacts/$t/)"
		fi
	done < <(echo "$out" | sed -n '/^target /,$p')
	[ "$n" -gt 0 ] || fail "make fuzz printed no table"
}

# 3. the harness really compares: the broken kernel must be caught
case_selftest() {
	local st
	fuzz_build || return
	st=$("${mk[@]}" fuzz-selftest 2>&1)
	echo "$st" | grep -E '^(PASS|FAIL): ' ||
		fail "fuzz selftest printed no verdict: $(echo "$st" | tail -n 3)"
}

run_cases case_build case_replay case_campaign case_selftest
exit 0
