#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Driver for the fuzz targets (called by mk/fuzz.mk; see fuzz/README.md).
#   run.sh campaign DIFF_SECONDS OTHER_SECONDS TARGET...
#       runs each libFuzzer binary fuzz/build/<t> for DIFF_SECONDS
#       (fuzz_diff_*) or OTHER_SECONDS (parsers), one process each (the two
#       cores are shared), seeded from a copy of fuzz/corpus/<t>/ in
#       fuzz/build/campaign/<t>/ (kept: what the run found), and prints a
#       table: target, seconds, runs, cov, ft, crashes. Crash files land in
#       fuzz/build/artifacts/<t>/. Exit 1 when any target crashed.
#   run.sh merge TARGET...
#       adds to fuzz/corpus/<t>/ the inputs of fuzz/build/campaign/<t>/
#       that reach coverage the committed corpus does not (libFuzzer
#       -merge=1), and prints how many files each corpus gained.
#   run.sh replay TARGET...
#       replays fuzz/corpus/<t>/ with fuzz/build/replay-<t>, prints
#       "PASS: replay <t> ..." or "FAIL: replay <t> ..." lines.
#   run.sh selftest
#       fuzz/build/fuzz_diff_chacha20_broken from an EMPTY corpus for at most
#       60 s must crash with a reported mismatch.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
FB=${FUZZ_DIR:-fuzz/build}
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
# Inputs of the differential targets need up to ~4.4 KiB; parsers less.
MAX_LEN=8192

# max_len TARGET: the input size limit of a target. fuzz_parse_xattr takes
# stored values up to 64 KiB + overhead from the input itself.
max_len() {
	case "$1" in
	fuzz_parse_xattr) echo 70000 ;;
	*) echo "$MAX_LEN" ;;
	esac
}

# stats LOG: prints "RUNS COV FT" from a libFuzzer log
stats() {
	local runs cov ft
	runs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' \
		"$1" | tail -n 1)
	cov=$(grep -o 'cov: [0-9]*' "$1" | tail -n 1 | awk '{print $2}')
	ft=$(grep -o 'ft: [0-9]*' "$1" | tail -n 1 | awk '{print $2}')
	echo "${runs:-?} ${cov:-?} ${ft:-?}"
}

campaign() {
	local sd=$1 so=$2
	shift 2
	local rows=() bad=0 t secs work art log stamp rc runs cov ft crashes
	for t in "$@"; do
		case "$t" in
		fuzz_diff_*) secs=$sd ;;
		*) secs=$so ;;
		esac
		if [ ! -x "$FB/$t" ]; then
			echo "fuzz: $FB/$t not built" >&2
			rows+=("$t - - - missing")
			bad=1
			continue
		fi
		work=$FB/campaign/$t
		rm -rf "$work"
		mkdir -p "$work"
		art=$FB/artifacts/$t
		mkdir -p "$art"
		log=$FB/logs/$t.log
		mkdir -p "$FB/logs"
		if [ -d "fuzz/corpus/$t" ]; then
			cp -r "fuzz/corpus/$t/." "$work/"
		fi
		stamp=$(mktemp)
		echo "fuzz: $t for $secs s (log $log)" >&2
		"$FB/$t" -max_total_time="$secs" -print_final_stats=1 \
			-max_len="$(max_len "$t")" -timeout=20 -rss_limit_mb=2048 \
			-artifact_prefix="$art/" "$work" >"$log" 2>&1
		rc=$?
		read -r runs cov ft < <(stats "$log")
		crashes=$(find "$art" -type f -newer "$stamp" | wc -l)
		if [ "$rc" -ne 0 ] && [ "$crashes" -eq 0 ]; then
			crashes=1
		fi
		if [ "$crashes" -gt 0 ]; then
			bad=1
			echo "fuzz: $t CRASHED (exit $rc); artifacts:" >&2
			find "$art" -type f -newer "$stamp" | sed 's/^/  /' >&2
			grep -m 3 -E 'ERROR|FUZZ PROPERTY|runtime error' "$log" |
				sed 's/^/  /' >&2
		fi
		rm -f "$stamp"
		rows+=("$t $secs $runs $cov $crashes $ft")
	done
	printf '%-28s %8s %12s %8s %8s %8s\n' target seconds runs cov crashes ft
	for r in "${rows[@]}"; do
		# shellcheck disable=SC2086
		printf '%-28s %8s %12s %8s %8s %8s\n' $r
	done
	return "$bad"
}

merge() {
	local t before after bad=0
	for t in "$@"; do
		if [ ! -x "$FB/$t" ] || [ ! -d "$FB/campaign/$t" ]; then
			echo "fuzz merge: $t: no binary or no campaign corpus" >&2
			bad=1
			continue
		fi
		mkdir -p "fuzz/corpus/$t"
		before=$(find "fuzz/corpus/$t" -type f | wc -l)
		if ! "$FB/$t" -merge=1 -max_len="$(max_len "$t")" -timeout=20 \
			"fuzz/corpus/$t" "$FB/campaign/$t" \
			>"$FB/logs/$t.merge.log" 2>&1; then
			echo "fuzz merge: $t failed (log $FB/logs/$t.merge.log)" >&2
			bad=1
			continue
		fi
		after=$(find "fuzz/corpus/$t" -type f | wc -l)
		echo "fuzz merge: $t: $before -> $after files"
	done
	return "$bad"
}

replay() {
	local bad=0 t out rc
	for t in "$@"; do
		if [ ! -d "fuzz/corpus/$t" ] ||
			[ -z "$(ls -A "fuzz/corpus/$t")" ]; then
			echo "FAIL: replay $t: no seeds in fuzz/corpus/$t"
			bad=1
			continue
		fi
		if [ ! -x "$FB/replay-$t" ]; then
			echo "FAIL: replay $t: $FB/replay-$t not built"
			bad=1
			continue
		fi
		out=$("$FB/replay-$t" "fuzz/corpus/$t" 2>&1)
		rc=$?
		if [ "$rc" -eq 0 ]; then
			echo "PASS: replay $t: ${out##*replay: }"
		else
			echo "FAIL: replay $t: exit $rc"
			echo "$out" | grep -m 5 -E 'ERROR|FUZZ PROPERTY|runtime error|replay:'
			bad=1
		fi
	done
	return "$bad"
}

selftest() {
	local bin=$FB/fuzz_diff_chacha20_broken work log rc start el runs cov
	work=$(mktemp -d)
	log=$FB/logs/selftest.log
	mkdir -p "$FB/logs" "$FB/artifacts/selftest"
	start=$(date +%s)
	"$bin" -max_total_time=60 -print_final_stats=1 -max_len="$MAX_LEN" \
		-artifact_prefix="$FB/artifacts/selftest/" "$work" >"$log" 2>&1
	rc=$?
	el=$(($(date +%s) - start))
	rm -rf "$work"
	read -r runs cov _ < <(stats "$log")
	if [ "$rc" -ne 0 ] && grep -q 'FUZZ PROPERTY BROKEN: kernel != reference' \
		"$log"; then
		echo "PASS: fuzz selftest: broken kernel caught after $el s," \
			"$runs runs, exit $rc (log $log)"
		grep -m 2 -E '^kernel broken|FUZZ PROPERTY' "$log"
		return 0
	fi
	echo "FAIL: fuzz selftest: broken kernel NOT caught in $el s" \
		"(exit $rc, $runs runs; log $log)"
	return 1
}

cmd=${1:-}
shift || true
case "$cmd" in
campaign) campaign "$@" ;;
merge) merge "$@" ;;
replay) replay "$@" ;;
selftest) selftest ;;
*)
	echo "usage: $0 campaign|merge|replay|selftest ..." >&2
	exit 2
	;;
esac
