#!/usr/bin/env bash
# group: unit tests, every build/tests/test_* binary (gcc, hardened, -O2)
# One case per binary, named after it without test_ (`tests/run.sh unit
# --case format`); a binary's own name table selects further (th.c).
. "$(dirname "$0")/lib.sh"
unit_run() {
	echo "--- $1"
	run_bin "$1"
}
unit_cases unit_run "$BUILD"/tests/test_*
exit 0
