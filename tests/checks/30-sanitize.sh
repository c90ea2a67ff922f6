#!/usr/bin/env bash
# group: the same unit tests built with clang-14 -fsanitize=address,undefined
. "$(dirname "$0")/lib.sh"
need_tool clang-14 || exit 0
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:halt_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
n=0
for t in "$SANBUILD"/tests/test_*; do
	[ -x "$t" ] || continue
	n=$((n + 1))
	echo "--- $t"
	# prefix so the counts of the two builds stay apart
	"$t" | sed -E 's/^(PASS|FAIL|SKIP): /\1: [asan+ubsan] /'
	rc=${PIPESTATUS[0]}
	[ "$rc" -eq 0 ] || fail "[asan+ubsan] $t exited $rc"
done
[ "$n" -gt 0 ] || fail "no sanitizer test binaries in $SANBUILD/tests"
exit 0
