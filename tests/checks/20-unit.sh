#!/usr/bin/env bash
# group: unit tests, every build/tests/test_* binary (gcc, hardened, -O2)
. "$(dirname "$0")/lib.sh"
n=0
for t in "$BUILD"/tests/test_*; do
	[ -x "$t" ] || continue
	n=$((n + 1))
	echo "--- $t"
	run_bin "$t"
done
[ "$n" -gt 0 ] || fail "no unit test binaries in $BUILD/tests"
exit 0
