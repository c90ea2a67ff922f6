#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs the check groups tests/checks/NN-<name>.sh in order and sums them up.
#
# Protocol: a group prints one line per case, "PASS: <what>", "FAIL: <what>"
# or "SKIP: <what> (<why>)", and exits 0. A group that exits non-zero without
# having printed a FAIL line counts as one failure. With CI=true a group must
# not SKIP for a missing tool: it fails instead (each group enforces that).
#
# Usage: tests/run.sh [GROUP-SUBSTRING...] [--case NAME]
#   no group: every group; --case NAME: only case_NAME of the chosen
#   groups (lib.sh's run_cases), with every line of its log shown.
# Last line: "N passed, N failed" (", N skipped" when any were skipped).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
export VCRYPTFS_ROOT=$PWD
# Test data (FORMAT.md, vectors/, examples/): see scripts/shared_dir.sh. Tests
# read $VCRYPTFS_SHARED; a missing folder makes them fail, never skip.
. scripts/shared_dir.sh
echo "test data: $VCRYPTFS_SHARED"
pass=0 fail=0 skip=0
failed_cases=()
groups=()
filters=()
while [ "$#" -gt 0 ]; do
	case $1 in
	--case)
		[ "$#" -ge 2 ] || { echo "usage: tests/run.sh [GROUP...] [--case NAME]" >&2; exit 2; }
		export VC_CASE=$2
		shift 2
		;;
	*)
		filters+=("$1")
		shift
		;;
	esac
done
for g in tests/checks/[0-9]*.sh; do
	name=$(basename "$g" .sh)
	if [ "${#filters[@]}" -gt 0 ]; then
		want=0
		for f in "${filters[@]}"; do
			case "$name" in *"$f"*) want=1 ;; esac
		done
		[ "$want" = 1 ] || continue
	fi
	groups+=("$g")
done
log_dir=${BUILD:-build}/test-logs
mkdir -p "$log_dir"
for g in "${groups[@]}"; do
	name=$(basename "$g" .sh)
	start=$(date +%s)
	echo "=== group $name"
	out="$log_dir/$name.log"
	bash "$g" >"$out" 2>&1
	rc=$?
	p=$(grep -c '^PASS: ' "$out")
	f=$(grep -c '^FAIL: ' "$out")
	s=$(grep -c '^SKIP: ' "$out")
	if [ -n "${VC_CASE:-}" ]; then
		sed 's/^/  /' "$out"
	else
		grep -E '^(FAIL|SKIP): ' "$out" | sed 's/^/  /'
	fi
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		echo "  FAIL: group $name exited $rc without a FAIL line; log tail:"
		tail -n 15 "$out" | sed 's/^/    /'
		failed_cases+=("$name: exit $rc")
	fi
	while IFS= read -r l; do failed_cases+=("$name: ${l#FAIL: }"); done \
		< <(grep '^FAIL: ' "$out")
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
	echo "    $name: $p passed, $f failed, $s skipped ($(($(date +%s) - start)) s; log $out)"
done
if [ "$fail" -gt 0 ]; then
	echo "failed cases:"
	printf '  %s\n' "${failed_cases[@]}"
fi
if [ "$skip" -gt 0 ]; then
	echo "$pass passed, $fail failed, $skip skipped"
else
	echo "$pass passed, $fail failed"
fi
[ "$fail" -eq 0 ]
