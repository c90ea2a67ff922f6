#!/usr/bin/env bash
# group: the same unit tests built with clang-14 -fsanitize=address,undefined
# One case per binary, as in 20-unit (`tests/run.sh sanitize --case fsck`).
. "$(dirname "$0")/lib.sh"
need_tool clang-14 || exit 0
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:halt_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# san_run BIN: its lines, prefixed so the counts of the two builds stay apart
san_run() {
	local rc
	echo "--- $1"
	"$1" | sed -E 's/^(PASS|FAIL|SKIP): /\1: [asan+ubsan] /'
	rc=${PIPESTATUS[0]}
	[ "$rc" -eq 0 ] || fail "[asan+ubsan] $1 exited $rc"
}
unit_cases san_run "$SANBUILD"/tests/test_*
exit 0
